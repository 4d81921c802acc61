//! Committing a change: one event appended against the version read,
//! with the mail it sends, and the live notice to listeners.

use std::sync::Arc;

use tabula_i18n::{Arg, msg, t};
use tabula_model::{Event, EventAction, Game, HistoryEntry, Lang, Seat, Timestamp, Viewer};

use crate::error::{CommandError, ErrorCode};
use crate::reply;
use crate::store::{GameStatus, GameSummary, OutboxMessage, SideEffect, StoreError, StoredGame};

use super::boards::{not_a_player, waiting_for};
use super::{CONFLICT_RETRIES, GameUpdate, Loaded, Mail, Note, Round, Service, answer_effects};

impl Service {
    /// Apply the event `make(game, seat)` for `user` on `board`, retrying on
    /// a concurrent change. Returns the game after the append.
    pub(super) async fn apply_event<F>(
        &self,
        board: i64,
        user: &str,
        make: F,
    ) -> Result<(Arc<Game>, StoredGame), CommandError>
    where
        F: Fn(&Game, Seat) -> Result<(EventAction, Seat), CommandError>,
    {
        self.apply_event_with(board, user, make, Vec::new(), None, Round::default()).await
    }

    /// `round`: the mail message the change answers, and whose command
    /// made it (see [`Round`]).
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn apply_event_with<F>(
        &self,
        board: i64,
        user: &str,
        make: F,
        effects: Vec<SideEffect>,
        loaded: Option<Loaded>,
        round: Round<'_>,
    ) -> Result<(Arc<Game>, StoredGame), CommandError>
    where
        F: Fn(&Game, Seat) -> Result<(EventAction, Seat), CommandError>,
    {
        // The caller's fresh load serves the first attempt; a retry reloads.
        let mut loaded = loaded;
        for _ in 0..CONFLICT_RETRIES {
            let Loaded { mut game, stored, mail } = match loaded.take() {
                Some(l) => l,
                None => self.load_to_change(board).await?,
            };
            let version = stored.summary.version;
            let (action, seat) = match allowed(&game, &stored, user).and_then(|seat| make(&game, seat)) {
                Ok(made) => made,
                Err(e) => {
                    self.put_back(board, version, game);
                    return Err(e);
                }
            };
            let event = Event { at: self.now(), seat: Some(seat), action };
            let added = Arc::make_mut(&mut game).submit(event.clone())?;
            match self
                .commit(
                    game,
                    &stored,
                    &mail,
                    version,
                    vec![event],
                    &added,
                    Some(user),
                    effects.clone(),
                    round,
                )
                .await
            {
                Ok(done) => return Ok(done),
                Err(StoreError::Conflict) => {
                    self.forget(board);
                    continue;
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(StoreError::Conflict.into())
    }

    /// Store new events of `game` (already applied to it) with their
    /// notifications, against `version`; the game is then the cached one.
    /// With an answer in `round`, the reply to the mail message of the
    /// command, and the message's handled mark, are in the same
    /// transaction.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn commit(
        &self,
        game: Arc<Game>,
        stored: &StoredGame,
        mail: &Mail,
        version: i64,
        events: Vec<Event>,
        added: &[HistoryEntry],
        actor: Option<&str>,
        mut effects: Vec<SideEffect>,
        round: Round<'_>,
    ) -> Result<(Arc<Game>, StoredGame), StoreError> {
        let board = stored.summary.id;
        let summary =
            summarize(&game, board, version + events.len() as i64, self.now(), stored.summary.status);
        let mut new_stored = stored.clone();
        new_stored.summary = summary.clone();
        new_stored.events.extend(events.iter().cloned());
        // Moves notify the players and subscribers; clock events only when something was logged.
        // Real-time games mail a daily digest instead (see `digest.rs`), and their end.
        let notify = !added.is_empty()
            && events.iter().any(|e| !matches!(e.action, EventAction::Clock))
            && (!crate::digest::sends_digests(game.kind().info().dynamics) || game.is_over());
        let mut told = Vec::new();
        if notify {
            for (reader, viewer) in readers(&game, &mail.subscribers) {
                if Some(reader.as_str()) == actor || Some(reader.as_str()) == round.told {
                    continue;
                }
                let address = match mail.recipients.iter().find(|r| r.user == reader) {
                    Some(r) => r.address.clone().map(|a| (a, r.lang)),
                    // A reader the head did not list (a player who joined since).
                    None => self.notify_address(&reader).await?,
                };
                if let Some((addr, lang)) = address {
                    // Each reader's mail in their own language.
                    let t = self.board_text(&game, &new_stored, viewer, lang);
                    effects.push(match round.answer {
                        // One notification per reader and message, whatever its commands and
                        // boards: a later change of the same message replaces it while it is held.
                        Some(answer) => {
                            let note =
                                Note { reader: reader.clone(), board, heading: t.heading, body: t.body };
                            let (subject, body, thread) = answer.notes.mail_with(&note);
                            told.push(note);
                            SideEffect::Held {
                                message: OutboxMessage {
                                    key: format!(
                                        "{}{reader}",
                                        crate::store::held_note_prefix(&answer.message)
                                    ),
                                    recipient: addr,
                                    subject,
                                    body: with_comment(body, round.told, answer.comment.as_deref(), lang),
                                    game_id: Some(thread),
                                },
                                due: answer.hold_until,
                            }
                        }
                        None => SideEffect::Outbox(OutboxMessage {
                            key: format!("game:{board}:v{}:{reader}", summary.version),
                            recipient: addr,
                            subject: t.heading,
                            body: t.body,
                            game_id: Some(board),
                        }),
                    });
                }
            }
        }
        let mut commented = None;
        if let (Some(answer), Some(author)) = (round.answer, round.told) {
            if answer.reply.is_some() {
                let shown = self.board_reply(&game, &new_stored, Some(author), round.lang);
                effects.extend(answer_effects(answer, &shown));
            }
            // The comment of the command's own change, kept in the board's chat (where
            // the web shows it) once per board and message.
            if actor == Some(author)
                && let Some(text) = &answer.comment
                && !answer.notes.commented(board)
            {
                effects.push(SideEffect::Chat { user: author.to_string(), text: text.clone() });
                commented = Some(board);
            }
        }
        let started = std::time::Instant::now();
        self.store.append(version, &events, &summary, &effects).await?;
        if let Some(answer) = round.answer {
            answer.notes.record(told, commented);
        }
        if let Some(metrics) = crate::metrics::kept() {
            metrics.commit_seconds.observe(started.elapsed().as_secs_f64());
            metrics
                .moves
                .inc_by(events.iter().filter(|e| matches!(e.action, EventAction::Move(_))).count() as u64);
        }
        // Cached before the notice goes out, so that listeners reloading find it.
        self.remember(board, summary.version, game.clone());
        self.publish(GameUpdate { board, version: summary.version });
        Ok((game, new_stored))
    }

    /// Where `user`'s mail goes and the language it is written in.
    pub(super) async fn mail_address(&self, user: &str) -> Result<Option<(String, Lang)>, StoreError> {
        if user.starts_with("bot:") {
            return Ok(None);
        }
        Ok(self
            .store
            .user(user)
            .await?
            .filter(|u| !u.signed_off)
            .and_then(|u| Some((u.emails.first()?.clone(), u.lang().unwrap_or_default()))))
    }

    /// [`Service::mail_address`] of a user who takes notifications.
    pub(crate) async fn notify_address(&self, user: &str) -> Result<Option<(String, Lang)>, StoreError> {
        if user.starts_with("bot:") {
            return Ok(None);
        }
        Ok(self
            .store
            .user(user)
            .await?
            .filter(|u| !u.signed_off && u.notify)
            .and_then(|u| Some((u.emails.first()?.clone(), u.lang().unwrap_or_default()))))
    }

    /// Live notice of every change to any game (listeners filter by board).
    pub fn updates(&self) -> tokio::sync::broadcast::Receiver<GameUpdate> {
        self.updates.get_or_init(|| tokio::sync::broadcast::channel(1024).0).subscribe()
    }

    /// Tell the live listeners, if there are any, of a change.
    pub(super) fn publish(&self, update: GameUpdate) {
        if let Some(updates) = self.updates.get() {
            let _ = updates.send(update);
        }
    }

    /// Announce a change made outside this service (another process's
    /// commit, relayed by the store's notifications).
    pub fn announce(&self, update: GameUpdate) {
        self.forget(update.board);
        self.publish(update);
    }

    /// Relay the commits of other servers sharing the database to this
    /// one's live listeners (see [`Service::announce`]), until the returned
    /// task ends or is aborted; `None` when no other process writes to
    /// the store while this one runs.
    ///
    /// # Errors
    /// The store's, when it cannot listen.
    pub async fn follow_changes(self: &Arc<Self>) -> Result<Option<tokio::task::JoinHandle<()>>, StoreError> {
        let Some(mut changes) = self.store.changes().await? else { return Ok(None) };
        let service = Arc::clone(self);
        Ok(Some(tokio::spawn(async move {
            while let Some(change) = changes.recv().await {
                service.announce(GameUpdate { board: change.board, version: change.version });
            }
        })))
    }

    /// Forfeit the players of `seats` on `board` as the server, if the game
    /// is still at `version`: one resignation each, in one change, or, when
    /// they are every player still in the game, one resignation of them all
    /// (the game is drawn among them). Every player is told, the forfeited
    /// ones included.
    pub(crate) async fn forfeit(
        &self,
        board: i64,
        seats: &[Seat],
        reason: String,
        version: i64,
    ) -> Result<(), CommandError> {
        let Loaded { mut game, stored, mail } = self.load_to_change(board).await?;
        if stored.summary.version != version {
            self.put_back(board, stored.summary.version, game);
            return Err(StoreError::Conflict.into());
        }
        let active: Vec<Seat> = (0..game.players().len()).filter(|&s| game.state().is_active(s)).collect();
        let at = self.now();
        let resign = |seat| Event { at, seat, action: EventAction::Resign { reason: Some(reason.clone()) } };
        let events: Vec<Event> = if seats.len() > 1 && active.iter().all(|s| seats.contains(s)) {
            vec![resign(None)]
        } else {
            seats.iter().map(|&s| resign(Some(s))).collect()
        };
        let mut added = Vec::new();
        for event in &events {
            match Arc::make_mut(&mut game).submit(event.clone()) {
                Ok(entries) => added.extend(entries),
                Err(e) => {
                    self.forget(board);
                    return Err(e.into());
                }
            }
        }
        match self
            .commit(game, &stored, &mail, version, events, &added, None, Vec::new(), Round::default())
            .await
        {
            Ok(_) => {}
            Err(e) => {
                self.forget(board);
                return Err(e.into());
            }
        }
        self.play_automatic(board).await;
        Ok(())
    }
}

/// A notification's text with the comment of the message that made the
/// change at its end, as pbmserv wrote it, in the reader's `lang`.
fn with_comment(body: String, author: Option<&str>, comment: Option<&str>, lang: Lang) -> String {
    match (author, comment.map(str::trim).filter(|c| !c.is_empty())) {
        (Some(author), Some(comment)) => {
            format!("{}\n\n{}\n\n{comment}\n", body.trim_end(), t!(lang, "comment-from", user = author))
        }
        _ => body,
    }
}

pub(super) fn summarize(
    game: &Game,
    id: i64,
    version: i64,
    now: Timestamp,
    status: GameStatus,
) -> GameSummary {
    let outcome = game.outcome();
    let over = game.is_over();
    let seat_results = (0..game.players().len())
        .map(|s| outcome.as_ref().filter(|_| over).map(|o| o.result_for(s)))
        .collect();
    GameSummary {
        id,
        kind: game.kind().info().kind.to_string(),
        players: game.players().to_vec(),
        status: if over { GameStatus::Finished } else { status },
        moves: game.moves() as i64,
        to_move: reply::to_move_users(game),
        version,
        updated: now,
        // Stored with the summary, for lists: in English, as it always was.
        result: outcome.filter(|_| over).map(|o| reply::outcome_line(game, &o, Lang::En)),
        seat_results,
        next_clock: if over { None } else { game.state().next_clock() },
    }
}

/// Who reads a game's changes: its players, then its other subscribers.
pub(super) fn readers(game: &Game, subscribers: &[String]) -> Vec<(String, Viewer)> {
    let mut out: Vec<(String, Viewer)> =
        game.players().iter().enumerate().map(|(s, u)| (u.clone(), Viewer::Player(s))).collect();
    for s in subscribers {
        if !out.iter().any(|(u, _)| u == s) {
            out.push((s.clone(), Viewer::Observer));
        }
    }
    out
}

/// The seat `user` acts from on `game`, if the game takes a change from
/// them now (accepted, not cancelled, not over).
pub(super) fn allowed(game: &Game, stored: &StoredGame, user: &str) -> Result<Seat, CommandError> {
    let board = stored.summary.id;
    match stored.summary.status {
        GameStatus::Proposed => {
            let waiting = waiting_for(stored);
            return Err(CommandError::says(
                ErrorCode::Refused,
                msg!("error-waits-for-acceptance", board = board.to_string(), users = Arg::List(waiting)),
            ));
        }
        GameStatus::Cancelled => {
            return Err(CommandError::says(
                ErrorCode::GameOver,
                msg!("error-board-cancelled", board = board.to_string()),
            ));
        }
        _ => {}
    }
    let seat = game.seat_of(user).ok_or_else(|| not_a_player(user, board))?;
    if game.is_over() {
        return Err(CommandError::says(
            ErrorCode::GameOver,
            msg!("error-board-over", board = board.to_string()),
        ));
    }
    Ok(seat)
}
