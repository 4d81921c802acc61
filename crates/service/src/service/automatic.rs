//! Moves nobody types: built-in bots, queued moves and due clocks.

use tabula_model::{EventAction, Seat, Turn};

use crate::error::CommandError;
use crate::store::{GameStatus, OutboxMessage, SideEffect, StoreError, StoredGame};

use super::{Loaded, Round, Service};

impl Service {
    /// Play whatever is due without a person: bots' moves and queued
    /// moves, each committed on its own.
    pub async fn play_automatic(&self, board: i64) {
        self.play_automatic_in(board, Round::default()).await
    }

    /// [`Service::play_automatic`] as part of `round`: right after the
    /// command of `round.told`, whose reply shows these moves.
    pub(super) async fn play_automatic_in(&self, board: i64, round: Round<'_>) {
        for _ in 0..10_000 {
            let Ok(Loaded { game, stored, .. }) = self.load(board).await else { return };
            if stored.summary.status != GameStatus::Active || game.is_over() {
                return;
            }
            let mut acted = false;
            let candidates: Vec<Seat> = match game.to_move() {
                Turn::Player(p) => vec![p],
                Turn::Simultaneous(set) => set.to_vec(),
                Turn::Clock => (0..game.players().len()).collect(),
                Turn::Over => return,
            };
            for seat in candidates {
                let user = game.players()[seat].clone();
                if let Some(bot) = user.strip_prefix("bot:") {
                    if !game.state().is_active(seat) {
                        continue;
                    }
                    let Some(bots) = &self.bots else { return };
                    let choice = {
                        let bots = bots.clone();
                        let g = game.clone();
                        let name = bot.to_string();
                        tokio::task::spawn_blocking(move || bots.choose(&name, &g, seat)).await.ok().flatten()
                    };
                    let action = match choice {
                        Some(text) => EventAction::Move(text),
                        // On the clock a bot may simply have nothing worth doing now.
                        None if matches!(game.to_move(), Turn::Clock) => continue,
                        None => EventAction::Resign { reason: Some("the bot found no move".into()) },
                    };
                    let act = |_: &_, s| Ok((action.clone(), s));
                    if self.apply_event_with(board, &user, act, Vec::new(), None, round).await.is_ok() {
                        acted = true;
                        break;
                    }
                } else if matches!(game.to_move(), Turn::Player(p) if p == seat) {
                    let Ok(queued) = self.store.queued_moves(board).await else { return };
                    if let Some(q) = queued.into_iter().find(|q| q.user == user) {
                        let text = q.text.clone();
                        let r = self
                            .apply_event_with(
                                board,
                                &user,
                                |_, s| Ok((EventAction::Move(text.clone()), s)),
                                vec![SideEffect::DeleteQueued(q.id)],
                                None,
                                round,
                            )
                            .await;
                        if r.is_err() {
                            // An illegal queued move is dropped, and the player told.
                            let _ = self.drop_queued(board, &user, q.id, &q.text, &stored).await;
                        }
                        acted = true;
                        break;
                    }
                }
            }
            if !acted {
                return;
            }
        }
    }

    pub(super) async fn drop_queued(
        &self,
        board: i64,
        user: &str,
        id: i64,
        text: &str,
        stored: &StoredGame,
    ) -> Result<(), StoreError> {
        let mut effects = vec![SideEffect::DeleteQueued(id)];
        if let Some((addr, lang)) = self.mail_address(user).await? {
            let board_id = board.to_string();
            effects.push(SideEffect::Outbox(OutboxMessage {
                key: format!("queue-drop:{board}:{id}"),
                recipient: addr,
                subject: tabula_i18n::t!(lang, "queue-dropped-subject", board = board_id.as_str()),
                body: format!(
                    "{}\n",
                    tabula_i18n::t!(lang, "queue-dropped-text", text = text, board = board_id.as_str())
                ),
                game_id: Some(board),
            }));
        }
        // An empty append (no events) keeps the version check and the outbox in one transaction.
        self.store.append(stored.summary.version, &[], &stored.summary, &effects).await
    }

    /// Catch up the clocks of every game whose next clock event is due (the
    /// scheduler calls this; commands catch up their own game anyway).
    pub async fn run_due_clocks(&self) -> Result<usize, CommandError> {
        let due = self.store.due_clocks(self.now(), 100).await?;
        let mut n = 0;
        for board in due {
            // Another process sharing the database is on it: it catches up.
            let Some(claim) = self.store.claim(crate::store::Work::Clock(board)).await? else { continue };
            let loaded = self.load(board).await;
            claim.release().await;
            loaded?;
            n += 1;
        }
        Ok(n)
    }

    /// The server's scheduler, until the task running it is dropped:
    /// every half second the clock events that are due, once a minute the
    /// time limits (reminders, warnings, forfeits, digests). A failed round
    /// is logged and tried again at the next tick.
    pub async fn run_scheduler(&self) {
        const CLOCKS: std::time::Duration = std::time::Duration::from_millis(500);
        // Time limits are measured in days: once a minute is plenty.
        const LIMITS: std::time::Duration = std::time::Duration::from_secs(60);
        let mut tick = tokio::time::interval(CLOCKS);
        let mut limits_run: Option<std::time::Instant> = None;
        loop {
            tick.tick().await;
            if let Err(e) = self.run_due_clocks().await {
                tracing::warn!(error = %e, "clock catch-up failed");
            }
            if limits_run.is_none_or(|t| t.elapsed() >= LIMITS) {
                limits_run = Some(std::time::Instant::now());
                match self.run_time_limits().await {
                    Ok(r) if r.nags + r.warnings + r.forfeits + r.digests > 0 || r.pruned > 0 => {
                        tracing::info!(
                            nags = r.nags,
                            warnings = r.warnings,
                            forfeits = r.forfeits,
                            digests = r.digests,
                            pruned = r.pruned,
                            "time limits"
                        )
                    }
                    Ok(_) => {}
                    Err(e) => tracing::warn!(error = %e, "time limits failed"),
                }
            }
        }
    }
}
