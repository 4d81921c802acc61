//! Parsing a command line and running the parsed command: the one
//! entry every front end calls.

use std::sync::Arc;

use serde_json::json;
use tabula_i18n::{Arg, msg, t};
use tabula_model::Lang;
use tabula_model::{EventAction, Game, GameKind, HistoryEntry, ProposalKind, Seat, Turn, Viewer};

use crate::command::{Command, GameCommand, MoveAction};
use crate::error::{CommandError, ErrorCode};
use crate::help;
use crate::reply;
use crate::store::{OutboxMessage, SideEffect};
use crate::throttle::Context;
use crate::users;

use super::accounts::check_emails;
use super::boards::wrong_kind;
use super::{GameUpdate, MAX_CHAT, Reply, Round, Service, internal};

impl Service {
    /// Parse and run one command line for `context`: a [`Caller`] alone
    /// (`&caller`) is one at the local command line.
    pub async fn execute(&self, line: &str, context: impl Into<Context>) -> Result<Reply, CommandError> {
        let context = context.into();
        let command = Command::parse(line, &Self::game_words()).map_err(|e| e.localized(context.lang))?;
        self.run(command, context).await
    }

    /// Run a parsed command for `context` (see [`Service::execute`]).
    pub async fn run(&self, command: Command, context: impl Into<Context>) -> Result<Reply, CommandError> {
        let context = context.into();
        // Logged as the grammar masks it, never with a password: a command
        // that ran had its password where the grammar puts it; of a refused
        // one, whose words may be out of place, only its name.
        let (masked, name) = (command.masked(), command.name());
        let result = self.run_parsed(command, &context).await.map_err(|e| e.localized(context.lang));
        match &result {
            Ok(_) => tracing::debug!(command = %masked, origin = ?context.origin, "command"),
            Err(e) => {
                tracing::debug!(command = %name, code = e.code.as_str(), origin = ?context.origin, "command refused")
            }
        }
        result
    }

    async fn run_parsed(&self, command: Command, caller: &Context) -> Result<Reply, CommandError> {
        let lang = caller.lang;
        match command {
            Command::Signup { user, password, emails } => {
                self.signup(&user, &password, &emails, caller).await
            }
            Command::ChangePassword { auth, new_password } => {
                let mut u = self.authenticate_password(&auth, caller).await?;
                users::check_password(&new_password)
                    .map_err(|m| CommandError::says(ErrorCode::BadValue, m))?;
                u.password_hash = users::hash_password(&new_password);
                let reply =
                    Reply::said(t!(lang, "password-subject"), t!(lang, "password-text", user = &u.id));
                // Whoever had a token or a session of the account has them no
                // more, from the same transaction on.
                let mut effects = self.answered(caller, &reply);
                effects.push(SideEffect::EndLogins { user: u.id.clone() });
                self.store.update_user(&u, &effects, self.now()).await?;
                Ok(reply)
            }
            Command::ChangeAddress { auth, emails } => {
                let mut u = self.authenticate_password(&auth, caller).await?;
                u.emails = check_emails(&emails)?;
                let reply = Reply::said(
                    t!(lang, "address-subject"),
                    t!(lang, "address-text", user = &u.id, addresses = u.emails.join(", ")),
                );
                self.settled(&u, caller, reply).await
            }
            Command::Signoff { auth } => self.signoff(&auth, caller).await,
            Command::Notify { auth, on } => {
                let mut u = self.authenticate(&auth, caller).await?;
                u.notify = on;
                let state = if on { "on" } else { "off" };
                let reply = Reply::said(
                    t!(lang, "notify-subject"),
                    t!(lang, "notify-text", user = &u.id, state = state),
                );
                self.settled(&u, caller, reply).await
            }
            Command::Vacation { auth, days } => {
                let mut u = self.authenticate(&auth, caller).await?;
                u.vacation_until = days.map(|d| self.now() + i64::from(d) * 86_400_000);
                let text = match (days, u.vacation_until) {
                    (Some(d), Some(until)) => {
                        // English names the weekday and the month, as it always has.
                        let until = match lang {
                            Lang::En => chrono::DateTime::from_timestamp_millis(until)
                                .map(|t| t.format("%A %-d %B %Y, %H:%M UTC").to_string())
                                .unwrap_or_default(),
                            _ => tabula_i18n::format_datetime(lang, until),
                        };
                        t!(lang, "vacation-text", user = &u.id, days = d, until = until)
                    }
                    _ => t!(lang, "vacation-back", user = &u.id),
                };
                self.settled(&u, caller, Reply::said(t!(lang, "vacation-subject"), text)).await
            }
            Command::Limit { auth, limit } => {
                let mut u = self.authenticate(&auth, caller).await?;
                u.game_limit = limit.map(i64::from);
                let text = match limit {
                    Some(n) => t!(lang, "limit-text", user = &u.id, limit = n),
                    None => t!(lang, "limit-off", user = &u.id),
                };
                self.settled(&u, caller, Reply::said(t!(lang, "limit-subject"), text)).await
            }
            Command::Policy { auth, ask } => {
                let mut u = self.authenticate(&auth, caller).await?;
                u.challenge_policy = if ask { "ask" } else { "open" }.into();
                let text = if ask {
                    t!(lang, "policy-ask", user = &u.id)
                } else {
                    t!(lang, "policy-open", user = &u.id)
                };
                self.settled(&u, caller, Reply::said(t!(lang, "policy-subject"), text)).await
            }
            Command::Language { auth, lang: chosen } => {
                let lang = chosen;
                let mut u = self.authenticate(&auth, caller).await?;
                u.language = Some(lang.code().to_string());
                // Said in the language chosen: the first text the account
                // reads in it.
                let reply =
                    Reply::said(t!(lang, "language-set-subject"), t!(lang, "language-set", user = &u.id));
                self.settled(&u, caller, reply).await
            }
            Command::Bot { auth, on } => self.bot_switch(&auth, on, caller).await,
            Command::Help { topic } => help::help(topic.as_deref(), lang),
            Command::List => Ok(help::list(lang)),
            Command::Game { kind, command } => {
                let kind = tabula_games::find(&kind).ok_or_else(|| {
                    CommandError::says(
                        ErrorCode::UnknownCommand,
                        msg!("error-no-game", quoted = format!("{kind:?}")),
                    )
                })?;
                let title = kind.info().kind;
                self.game_command(kind, command, caller).await.map_err(|e| e.for_game(title))
            }
        }
    }

    pub(super) async fn game_command(
        &self,
        kind: &'static dyn GameKind,
        command: GameCommand,
        caller: &Context,
    ) -> Result<Reply, CommandError> {
        match command {
            GameCommand::Help => help::help(Some(kind.info().kind), caller.lang),
            GameCommand::Challenge { players, options } => {
                self.challenge(kind, &players, &options, caller).await
            }
            GameCommand::Move { board, auth, action: mv, guard } => {
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
                    self.join(board, &user.id, text, round).await?;
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
                let automatic = game.players().iter().any(|p| p.starts_with("bot:"))
                    || matches!(game.to_move(), Turn::Player(_));
                if !automatic {
                    return Ok(self.board_reply(&game, &stored, Some(&user.id), caller.lang));
                }
                self.play_automatic_in(board, round).await;
                let (game, stored) = match self.load(board).await {
                    Ok(l) => (Arc::new(l.game), l.stored),
                    Err(_) => (game, stored),
                };
                Ok(self.board_reply(&game, &stored, Some(&user.id), caller.lang))
            }
            GameCommand::Queue { board, auth, text } => {
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
                reply.text =
                    format!("{}\n\n{}", t!(caller.lang, "queued-text", text = text.as_str()), reply.text);
                self.store
                    .queue_move(board, &user.id, &text, self.now(), &self.answered(caller, &reply))
                    .await?;
                Ok(reply)
            }
            GameCommand::Submit { board, auth, text } => {
                let user = self.authenticate(&auth, caller).await?;
                let loaded = self.load_kind(kind, board).await?;
                let seat = self.seat(&loaded, &user.id)?;
                let (preview, note) = self.preview(&loaded, seat, &text, caller.lang)?;
                let mut reply =
                    self.board_text_reply(&preview, &loaded.stored, Viewer::Player(seat), caller.lang);
                let submitted = t!(
                    caller.lang,
                    "submitted-text",
                    text = text.as_str(),
                    game = kind.info().kind,
                    board = board.to_string(),
                    user = &user.id
                );
                reply.text = format!("{submitted}\n{note}\n{}", reply.text);
                self.store
                    .set_pending(board, &user.id, &text, self.now(), &self.answered(caller, &reply))
                    .await?;
                Ok(reply)
            }
            GameCommand::Confirm { board, auth } => {
                let user = self.authenticate(&auth, caller).await?;
                self.check_kind(kind, board).await?;
                let text = self.store.pending(board, &user.id).await?.ok_or_else(|| {
                    CommandError::says(
                        ErrorCode::Refused,
                        msg!("error-nothing-submitted", board = board.to_string()),
                    )
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
                self.play_automatic_in(board, Round::of(caller, &user.id)).await;
                let loaded = self.load(board).await?;
                Ok(self.board_reply(&loaded.game, &loaded.stored, Some(&user.id), caller.lang))
            }
            GameCommand::Preview { board, auth, text } => {
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
            GameCommand::Show { board, at } => {
                let loaded = self.load_kind(kind, board).await?;
                match at {
                    None => Ok(self.board_reply(&loaded.game, &loaded.stored, None, caller.lang)),
                    Some(n) => {
                        if n > loaded.game.moves() {
                            return Err(CommandError::says(
                                ErrorCode::Usage,
                                msg!(
                                    "error-only-moves",
                                    board = board.to_string(),
                                    moves = loaded.game.moves()
                                ),
                            ));
                        }
                        let record = loaded.game.record().clone();
                        let past = Game::replay_prefix(kind, record, n).map_err(|e| internal(&e))?;
                        let mut reply =
                            self.board_text_reply(&past, &loaded.stored, Viewer::Observer, caller.lang);
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
            GameCommand::ShowAs { board, auth } => {
                let user = self.authenticate(&auth, caller).await?;
                let loaded = self.load_kind(kind, board).await?;
                self.seat(&loaded, &user.id)?;
                Ok(self.board_reply(&loaded.game, &loaded.stored, Some(&user.id), caller.lang))
            }
            GameCommand::History { board } => {
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
            GameCommand::Games { user, which } => self.games_list(kind, &user, which, caller.lang).await,
            GameCommand::Standings => self.standings(kind, caller.lang).await,
            GameCommand::Ratings => self.ratings(kind, caller.lang).await,
            GameCommand::Chat { board, auth, text } => {
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
                    let subject =
                        t!(lang, "chat-subject", game = game, board = board.to_string(), user = &user.id);
                    let writes =
                        t!(lang, "chat-text", user = &user.id, game = game, board = board.to_string());
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
                let _ = self.updates.send(GameUpdate { board, version: loaded.stored.summary.version });
                Ok(reply)
            }
            GameCommand::Subscribe { board, auth, on } => {
                let user = self.authenticate(&auth, caller).await?;
                self.load_kind(kind, board).await?;
                let lang = caller.lang;
                let text = if on {
                    t!(lang, "subscribed", user = &user.id, board = board.to_string())
                } else {
                    t!(lang, "unsubscribed", user = &user.id, board = board.to_string())
                };
                let reply = Reply::said(
                    t!(lang, "heading", game = kind.info().title(lang), board = board.to_string()),
                    text,
                );
                let effects = self.answered(caller, &reply);
                self.store.subscribe(board, &user.id, on, &effects, self.now()).await?;
                Ok(reply)
            }
            GameCommand::Answer { board, auth, accept } => {
                self.answer(kind, board, &auth, accept, caller).await
            }
        }
    }
}

impl Service {
    /// Store the account `u` as a setting command changed it, with the
    /// reply to the mail message it came in (if any) in the same
    /// transaction; the reply.
    async fn settled(
        &self,
        u: &crate::store::UserRow,
        caller: &Context,
        reply: Reply,
    ) -> Result<Reply, CommandError> {
        self.store.update_user(u, &self.answered(caller, &reply), self.now()).await?;
        Ok(reply)
    }

    /// A chat line or a mail's comment as stored and sent: control
    /// characters cleaned out; refused when empty or too long.
    ///
    /// # Errors
    /// `bad_value` for no text or more than 4000 characters.
    pub fn chat_text(text: &str) -> Result<String, CommandError> {
        let text = crate::text::clean(text);
        if text.trim().is_empty() {
            return Err(CommandError::says(ErrorCode::BadValue, msg!("error-chat-empty")));
        }
        if text.chars().count() > MAX_CHAT {
            return Err(CommandError::says(ErrorCode::BadValue, msg!("error-chat-too-long", max = MAX_CHAT)));
        }
        Ok(text)
    }
}
