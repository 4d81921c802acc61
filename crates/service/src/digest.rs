//! Daily digests for real-time games: a Real-Time Life board changes many
//! times a day, so its players get one mail a day about it (the board as it
//! stands and who moved) instead of one per move.

use tabula_i18n::t;
use tabula_model::{Dynamics, EventAction, Timestamp, Viewer};

use crate::error::CommandError;
use crate::service::Service;
use crate::store::{GameFilter, GameStatus, OutboxMessage};

/// The period a digest covers.
pub const DIGEST_PERIOD_MS: i64 = 86_400_000;

/// Whether a kind of game sends digests instead of a mail per move.
pub(crate) fn sends_digests(dynamics: Dynamics) -> bool {
    dynamics == Dynamics::RealTime
}

impl Service {
    /// Queue the digests of the last whole period (a UTC day) for every
    /// active real-time game that had moves in it; returns how many were
    /// queued. A digest's outbox key names its board, reader and day, so
    /// running this again, or from several processes, queues each once.
    pub async fn run_digests(&self) -> Result<usize, CommandError> {
        let now = self.now();
        let day = now.div_euclid(DIGEST_PERIOD_MS) - 1;
        let (from, to) = (day * DIGEST_PERIOD_MS, (day + 1) * DIGEST_PERIOD_MS);
        let games = self
            .store()
            .games(&GameFilter { statuses: vec![GameStatus::Active], limit: 100_000, ..Default::default() })
            .await?;
        let mut queued = 0;
        for summary in games {
            if summary.next_clock.is_none() || summary.updated < from {
                continue;
            }
            let Ok((game, _)) = self.snapshot_game(summary.id).await else { continue };
            if !sends_digests(game.kind().info().dynamics) {
                continue;
            }
            let mut moves = vec![0usize; game.players().len()];
            for e in game.record().events.iter().filter(|e| e.at >= from && e.at < to) {
                if let (Some(seat), false) = (e.seat, matches!(e.action, EventAction::Clock))
                    && let Some(n) = moves.get_mut(seat)
                {
                    *n += 1;
                }
            }
            if moves.iter().all(|n| *n == 0) {
                continue;
            }
            let who: Vec<String> = game
                .players()
                .iter()
                .zip(&moves)
                .filter(|(_, n)| **n > 0)
                .map(|(p, n)| format!("{p} {n}"))
                .collect();
            let mut messages = Vec::new();
            for (seat, reader) in game.players().iter().enumerate() {
                let Some((address, lang)) = self.notify_address(reader).await? else { continue };
                let title = game.kind().info().title(lang);
                let id = summary.id.to_string();
                let board = self.board_text_for(&game, summary.id, Viewer::Player(seat), lang);
                let text = t!(
                    lang,
                    "digest-text",
                    game = title,
                    board = id.as_str(),
                    day = day_name(from),
                    moves = who.join(", ")
                );
                messages.push(OutboxMessage {
                    key: format!("digest:{}:{reader}:{day}", summary.id),
                    recipient: address,
                    subject: t!(lang, "digest-subject", game = title, board = id.as_str()),
                    body: format!("{text}\n\n{board}"),
                    game_id: Some(summary.id),
                });
            }
            queued += self.store().mail().enqueue(&messages, now).await?;
        }
        Ok(queued)
    }
}

/// `2026-11-22` for the UTC day starting at `start`.
fn day_name(start: Timestamp) -> String {
    chrono::DateTime::from_timestamp_millis(start)
        .map(|t| t.format("%Y-%m-%d").to_string())
        .unwrap_or_else(|| format!("day {}", start.div_euclid(DIGEST_PERIOD_MS)))
}
