//! The game commands that read or change a board, one method each:
//! [`Service::game_command`] hands each its fields. One method per command
//! rather than one match holding them all: an async function keeps every
//! value that lives across an `.await` in its future, and a single match
//! kept those of every command side by side, so that each request's future
//! had room for all of them.

use serde_json::json;
use tabula_i18n::{Arg, msg, t};
use tabula_model::{EventAction, Game, GameKind, HistoryEntry, Lang, ProposalKind, Seat, Turn, Viewer};

use crate::command::{Credentials, MoveAction};
use crate::error::{CommandError, ErrorCode};
use crate::reply;
use crate::store::{OutboxMessage, SideEffect};
use crate::throttle::Context;

use super::boards::wrong_kind;
use super::{GameUpdate, Reply, Round, Service, internal};

impl Service {
    /// A move, resignation, proposal or answer to one (`move`, `resign`, `draw`, `undo`, `accept`, `reject`).
    pub(super) async fn play(
        &self,
        kind: &'static dyn GameKind,
        board: i64,
        auth: Credentials,
        mv: MoveAction,
        guard: Option<usize>,
        caller: &Context,
    ) -> Result<Reply, CommandError> {
        let user = self.authenticate(&auth, caller).await?;
        let round = Round::of(caller, &user.id);
        let loaded = self.load_to_change(board).await?;
        if loaded.stored.summary.kind != kind.info().kind {
            let error = wrong_kind(board, &loaded.stored.summary.kind);
            self.put_back(board, loaded.stored.summary.version, loaded.game);
            return Err(error);
        }
        if loaded.game.seat_of(&user.id).is_none()
            && kind.info().open_join
            && let MoveAction::Play(text) = &mv
        {
            self.put_back(board, loaded.stored.summary.version, loaded.game);
            Box::pin(self.join(board, &user.id, text, round)).await?;
            let loaded = self.load(board).await?;
            return Ok(self.board_reply(&loaded.game, &loaded.stored, Some(&user.id), caller.lang));
        }
        let action = |game: &Game, seat: Seat| -> Result<(EventAction, Seat), CommandError> {
            if let Some(n) = guard
                && n != game.moves() + 1
            {
                return Err(CommandError::says(
                    ErrorCode::StaleMove,
                    msg!("error-stale-move", meant = n, now = game.moves() + 1),
                ));
            }
            let action = match &mv {
                MoveAction::Play(text) => EventAction::Move(text.clone()),
                MoveAction::Resign => EventAction::Resign { reason: None },
                MoveAction::Propose => EventAction::Propose(ProposalKind::Draw),
                MoveAction::Undo => EventAction::Propose(ProposalKind::Undo),
                MoveAction::Accept => EventAction::Accept,
                MoveAction::Reject => EventAction::Reject,
            };
            Ok((action, seat))
        };
        let (game, stored) =
            self.apply_event_with(board, &user.id, action, Vec::new(), Some(loaded), round).await?;
        // Only bots and queued moves (played in turn-based games) act
        // by themselves; otherwise the committed game is the board.
        let automatic =
            game.players().iter().any(|p| p.starts_with("bot:")) || matches!(game.to_move(), Turn::Player(_));
        if !automatic {
            return Ok(self.board_reply(&game, &stored, Some(&user.id), caller.lang));
        }
        Box::pin(self.play_automatic_in(board, round)).await;
        let (game, stored) = match self.load(board).await {
            Ok(l) => (l.game, l.stored),
            Err(_) => (game, stored),
        };
        Ok(self.board_reply(&game, &stored, Some(&user.id), caller.lang))
    }

    /// `queue`: a move kept to be played when the player's turn comes.
    pub(super) async fn queue(
        &self,
        kind: &'static dyn GameKind,
        board: i64,
        auth: Credentials,
        text: String,
        caller: &Context,
    ) -> Result<Reply, CommandError> {
        let user = self.authenticate(&auth, caller).await?;
        let loaded = self.load_kind(kind, board).await?;
        let seat = self.seat(&loaded, &user.id)?;
        if loaded.game.is_over() {
            return Err(CommandError::says(
                ErrorCode::GameOver,
                msg!("error-board-over", board = board.to_string()),
            ));
        }
        if !matches!(loaded.game.to_move(), Turn::Player(_)) {
            return Err(CommandError::says(
                ErrorCode::Refused,
                msg!("error-no-queue", game = Arg::fixed(format!("{}-title", kind.info().kind))),
            ));
        }
        if text.len() > 1000 {
            return Err(CommandError::says(ErrorCode::MalformedMove, msg!("error-queued-too-long")));
        }
        if loaded.game.to_move() == Turn::Player(seat) {
            return Err(CommandError::says(ErrorCode::Refused, msg!("error-queue-your-turn")));
        }
        if self.store.queued_moves(board).await?.iter().filter(|q| q.user == user.id).count() >= 20 {
            return Err(CommandError::says(ErrorCode::Refused, msg!("error-queue-full")));
        }
        let mut reply = self.board_reply(&loaded.game, &loaded.stored, Some(&user.id), caller.lang);
        reply.text = format!("{}\n\n{}", t!(caller.lang, "queued-text", text = text.as_str()), reply.text);
        self.store.queue_move(board, &user.id, &text, self.now(), &self.answered(caller, &reply)).await?;
        Ok(reply)
    }

    /// `submit`: a move kept to be confirmed, shown as it would be.
    pub(super) async fn submit(
        &self,
        kind: &'static dyn GameKind,
        board: i64,
        auth: Credentials,
        text: String,
        caller: &Context,
    ) -> Result<Reply, CommandError> {
        let user = self.authenticate(&auth, caller).await?;
        let loaded = self.load_kind(kind, board).await?;
        let seat = self.seat(&loaded, &user.id)?;
        let (preview, note) = self.preview(&loaded, seat, &text, caller.lang)?;
        let mut reply = self.board_text_reply(&preview, &loaded.stored, Viewer::Player(seat), caller.lang);
        let submitted = t!(
            caller.lang,
            "submitted-text",
            text = text.as_str(),
            game = kind.info().kind,
            board = board.to_string(),
            user = &user.id
        );
        reply.text = format!("{submitted}\n{note}\n{}", reply.text);
        self.store.set_pending(board, &user.id, &text, self.now(), &self.answered(caller, &reply)).await?;
        Ok(reply)
    }

    /// `confirm`: the move submitted, played.
    pub(super) async fn confirm(
        &self,
        kind: &'static dyn GameKind,
        board: i64,
        auth: Credentials,
        caller: &Context,
    ) -> Result<Reply, CommandError> {
        let user = self.authenticate(&auth, caller).await?;
        self.check_kind(kind, board).await?;
        let text = self.store.pending(board, &user.id).await?.ok_or_else(|| {
            CommandError::says(ErrorCode::Refused, msg!("error-nothing-submitted", board = board.to_string()))
        })?;
        let (_, _) = self
            .apply_event_with(
                board,
                &user.id,
                |_, seat| Ok((EventAction::Move(text.clone()), seat)),
                vec![SideEffect::DeletePending { user: user.id.clone() }],
                None,
                Round::of(caller, &user.id),
            )
            .await?;
        Box::pin(self.play_automatic_in(board, Round::of(caller, &user.id))).await;
        let loaded = self.load(board).await?;
        Ok(self.board_reply(&loaded.game, &loaded.stored, Some(&user.id), caller.lang))
    }

    /// `preview`: the board as a move would leave it, nothing stored.
    pub(super) async fn preview_move(
        &self,
        kind: &'static dyn GameKind,
        board: i64,
        auth: Option<Credentials>,
        text: String,
        caller: &Context,
    ) -> Result<Reply, CommandError> {
        // The password first, as every command with one: a refusal
        // before it is proven quotes none of the line's words.
        let user = match &auth {
            Some(a) => Some(self.authenticate(a, caller).await?),
            None => None,
        };
        let loaded = self.load_kind(kind, board).await?;
        let (seat, viewer) = match &user {
            Some(u) => {
                let s = self.seat(&loaded, &u.id)?;
                (s, Viewer::Player(s))
            }
            None => match loaded.game.to_move() {
                Turn::Player(p) => (p, Viewer::Observer),
                _ => {
                    return Err(CommandError::says(
                        ErrorCode::Usage,
                        msg!(
                            "error-preview-who",
                            game = Arg::fixed(format!("{}-title", kind.info().kind)),
                            syntax = crate::command::syntax("preview")
                        ),
                    ));
                }
            },
        };
        let (preview, note) = self.preview(&loaded, seat, &text, caller.lang)?;
        let mut reply = self.board_text_reply(&preview, &loaded.stored, viewer, caller.lang);
        let previewed = t!(caller.lang, "preview-text", text = text.as_str());
        reply.text = format!("{previewed}\n{note}\n{}", reply.text);
        Ok(reply)
    }

    /// `show`, or `show B#n` as the board was after move `n`.
    pub(super) async fn show(
        &self,
        kind: &'static dyn GameKind,
        board: i64,
        at: Option<usize>,
        caller: &Context,
    ) -> Result<Reply, CommandError> {
        let loaded = self.load_kind(kind, board).await?;
        match at {
            None => Ok(self.board_reply(&loaded.game, &loaded.stored, None, caller.lang)),
            Some(n) => {
                if n > loaded.game.moves() {
                    return Err(CommandError::says(
                        ErrorCode::Usage,
                        msg!("error-only-moves", board = board.to_string(), moves = loaded.game.moves()),
                    ));
                }
                let record = loaded.game.record().clone();
                let past = Game::replay_prefix(kind, record, n).map_err(|e| internal(&e))?;
                let mut reply = self.board_text_reply(&past, &loaded.stored, Viewer::Observer, caller.lang);
                reply.subject = t!(
                    caller.lang,
                    "heading-at-move",
                    game = kind.info().title(caller.lang),
                    board = board.to_string(),
                    moves = n
                );
                Ok(reply)
            }
        }
    }

    /// `show` with a player's password: the board as that player sees it.
    pub(super) async fn show_as(
        &self,
        kind: &'static dyn GameKind,
        board: i64,
        auth: Credentials,
        caller: &Context,
    ) -> Result<Reply, CommandError> {
        let user = self.authenticate(&auth, caller).await?;
        let loaded = self.load_kind(kind, board).await?;
        self.seat(&loaded, &user.id)?;
        Ok(self.board_reply(&loaded.game, &loaded.stored, Some(&user.id), caller.lang))
    }

    /// `history`: every line of the move list, and the chat.
    pub(super) async fn history(
        &self,
        kind: &'static dyn GameKind,
        board: i64,
        caller: &Context,
    ) -> Result<Reply, CommandError> {
        let loaded = self.load_kind(kind, board).await?;
        let entries = loaded.game.history_in(Viewer::Observer, caller.lang);
        let mut text = String::new();
        let lines = entries.iter().map(HistoryEntry::line);
        reply::write_move_list(&mut text, lines, usize::MAX, caller.lang);
        for c in self.store.chats(board).await? {
            text.push_str(&format!("      [chat] {}: {}\n", c.user, c.text));
        }
        if text.is_empty() {
            text.push_str(&t!(caller.lang, "history-empty"));
            text.push('\n');
        }
        let subject = t!(
            caller.lang,
            "heading-history",
            game = kind.info().title(caller.lang),
            board = board.to_string()
        );
        let mut r = Reply::plain(subject, text);
        r.data = json!(entries);
        Ok(r)
    }

    /// `chat`: a line to the board's players and subscribers.
    pub(super) async fn chat(
        &self,
        kind: &'static dyn GameKind,
        board: i64,
        auth: Credentials,
        text: String,
        caller: &Context,
    ) -> Result<Reply, CommandError> {
        let user = self.authenticate(&auth, caller).await?;
        let loaded = self.load_kind(kind, board).await?;
        self.seat(&loaded, &user.id)?;
        let text = Service::chat_text(&text)?;
        let now = self.now();
        // One chat line is one transaction, never retried: a random tag keeps two
        // lines sent in the same millisecond from sharing an outbox key.
        let tag: u64 = rand::random();
        // Each reader's mail in their language.
        let chat_mail = |lang: Lang| {
            let game = kind.info().title(lang);
            let subject = t!(lang, "chat-subject", game = game, board = board.to_string(), user = &user.id);
            let writes = t!(lang, "chat-text", user = &user.id, game = game, board = board.to_string());
            let body = format!("{writes}\n\n{text}\n");
            (subject, body)
        };
        let (subject, _) = chat_mail(caller.lang);
        let reply = Reply::said(subject, t!(caller.lang, "chat-sent", board = board.to_string()));
        let mut effects = self.answered(caller, &reply);
        let mut readers: Vec<String> = loaded.game.players().to_vec();
        readers.extend(self.store.subscribers(board).await?);
        readers.sort();
        readers.dedup();
        for reader in readers.iter().filter(|r| **r != user.id) {
            // `notify off` stops every mail about boards, chat included.
            if let Some((addr, lang)) = self.notify_address(reader).await? {
                let (subject, body) = chat_mail(lang);
                effects.push(SideEffect::Outbox(OutboxMessage {
                    key: format!("chat:{board}:{now}:{tag:016x}:{}:{reader}", user.id),
                    recipient: addr,
                    subject,
                    body,
                    game_id: Some(board),
                }));
            }
        }
        self.store.chat(board, &user.id, now, &text, &effects).await?;
        // Open pages show the line at once.
        self.publish(GameUpdate { board, version: loaded.stored.summary.version });
        Ok(reply)
    }

    /// `subscribe` and `unsubscribe`: mail of a board's changes.
    pub(super) async fn subscribe(
        &self,
        kind: &'static dyn GameKind,
        board: i64,
        auth: Credentials,
        on: bool,
        caller: &Context,
    ) -> Result<Reply, CommandError> {
        let user = self.authenticate(&auth, caller).await?;
        self.load_kind(kind, board).await?;
        let lang = caller.lang;
        let text = if on {
            t!(lang, "subscribed", user = &user.id, board = board.to_string())
        } else {
            t!(lang, "unsubscribed", user = &user.id, board = board.to_string())
        };
        let reply =
            Reply::said(t!(lang, "heading", game = kind.info().title(lang), board = board.to_string()), text);
        let effects = self.answered(caller, &reply);
        self.store.subscribe(board, &user.id, on, &effects, self.now()).await?;
        Ok(reply)
    }
}
