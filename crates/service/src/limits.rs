//! Move time limits, as pbmserv had them: a reminder ("nag") after `-nag`
//! without a move, a warning a day before the forfeit, and a forfeit
//! (resignation) after `-forfeit`. A vacation suspends both: the waiting
//! time of a player back from vacation counts from the vacation's end.
//!
//! Run by the scheduler. Each reminder has an idempotency key tied to the
//! game's version, and a forfeit is an append checked against that version,
//! so running the scheduler twice, or in several processes, does each
//! thing once. The same run deletes the outbox's copies of mail sent more
//! than [`OUTBOX_KEEP_DAYS`] ago.

use serde::Serialize;
use tabula_i18n::t;
use tabula_model::Lang;
use tabula_model::{Turn, Viewer};

use crate::error::CommandError;
use crate::service::Service;
use crate::store::{GameFilter, GameStatus, OutboxMessage, Work};

const DAY_MS: i64 = 86_400_000;

/// How long the copy of a mail sent (or given up) stays in the outbox, for
/// `tabula outbox` and for a player asking what was sent.
pub const OUTBOX_KEEP_DAYS: i64 = 30;

/// What one run of the time limits did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LimitReport {
    /// Games looked at.
    pub games: usize,
    /// Reminders queued.
    pub nags: usize,
    /// Forfeit warnings queued.
    pub warnings: usize,
    /// Players resigned for not moving.
    pub forfeits: usize,
    /// Daily digests of real-time games queued.
    pub digests: usize,
    /// Outbox rows of mail sent or given up more than `OUTBOX_KEEP_DAYS`
    /// (30) days ago, deleted.
    pub pruned: u64,
}

impl Service {
    /// Send due reminders and warnings, resign players past their time, and
    /// queue the daily digests of real-time games.
    pub async fn run_time_limits(&self) -> Result<LimitReport, CommandError> {
        let now = self.now();
        let games = self
            .store()
            .games(&GameFilter { statuses: vec![GameStatus::Active], limit: 100_000, ..Default::default() })
            .await?;
        let mut report = LimitReport { games: games.len(), ..Default::default() };
        for summary in games {
            if summary.to_move.is_empty() {
                continue;
            }
            let Some(claim) = self.store().claim(Work::TimeLimits(summary.id)).await? else { continue };
            let checked = self.check_time_limits(summary.id, now, &mut report).await;
            claim.release().await;
            checked?;
        }
        report.digests = self.run_digests().await?;
        report.pruned =
            self.store().mail().prune_outbox(now.saturating_sub(OUTBOX_KEEP_DAYS * DAY_MS)).await?;
        // Counts of failed logins and challenges long quiet.
        self.store().prune_limits(now.saturating_sub(crate::throttle::PRUNE_AFTER_MS)).await?;
        Ok(report)
    }

    /// Reminders, warnings and forfeits of one game.
    async fn check_time_limits(
        &self,
        board: i64,
        now: tabula_model::Timestamp,
        report: &mut LimitReport,
    ) -> Result<(), CommandError> {
        let Ok(snapshot) = self.snapshot_game(board).await else { return Ok(()) };
        let (game, version) = snapshot;
        let waiting: Vec<usize> = match game.to_move() {
            Turn::Player(p) => vec![p],
            Turn::Simultaneous(set) => set.to_vec(),
            Turn::Clock | Turn::Over => return Ok(()),
        };
        let options = &game.record().options;
        let nag = options.int("nag").unwrap_or(7 * 86_400) * 1000;
        let forfeit = options.int("forfeit").unwrap_or(21 * 86_400) * 1000;
        let last = game.record().events.last().map(|e| e.at).unwrap_or(game.record().created);
        // The warning comes a day ahead, or halfway for limits of a day or less.
        let warn_ahead = if forfeit > DAY_MS { DAY_MS } else { forfeit / 2 };
        // Everyone past the limit is forfeited in one change: in a game of
        // simultaneous moves several can be, and resigning one after the
        // other would make the last of them the winner.
        let mut forfeited = Vec::new();
        for &seat in &waiting {
            let user = &game.players()[seat];
            if user.starts_with("bot:") {
                continue;
            }
            let Some(row) = self.store().user(user).await? else { continue };
            if row.vacation_until.is_some_and(|v| v > now) {
                continue;
            }
            if now - last.max(row.vacation_until.unwrap_or(i64::MIN)) < forfeit {
                continue;
            }
            // A player who can be told is warned first, however the clock got
            // here (a server down over the warning day, a cron not run): the
            // forfeit waits until the warning has been out for its notice.
            if let Some(addr) = row.emails.first().filter(|_| row.notify) {
                let key = warning_key(board, version, user);
                let mail = self.store().mail();
                let warned = mail.count_outbox_to(addr, &key, "", i64::MIN).await?;
                let lately = mail.count_outbox_to(addr, &key, "", now.saturating_sub(warn_ahead) + 1).await?;
                if warned == lately {
                    continue;
                }
            }
            forfeited.push(seat);
        }
        if !forfeited.is_empty() {
            // The reason is kept with the game (in English, as the games' own reasons).
            let reason = format!("forfeited: no move in {}", span(forfeit, Lang::En));
            if self.forfeit(board, &forfeited, reason, version).await.is_ok() {
                report.forfeits += forfeited.len();
            }
            return Ok(());
        }
        for seat in waiting {
            let user = game.players()[seat].clone();
            if user.starts_with("bot:") {
                continue;
            }
            let Some(row) = self.store().user(&user).await? else { continue };
            if row.vacation_until.is_some_and(|v| v > now) {
                continue;
            }
            let since = last.max(row.vacation_until.unwrap_or(i64::MIN));
            let idle = now - since;
            // In the reader's language.
            let lang = row.lang().unwrap_or_default();
            let title = game.kind().info().title(lang);
            let Some(addr) = row.emails.first().cloned().filter(|_| row.notify) else { continue };
            let board_text = self.board_text_for(&game, board, Viewer::Player(seat), lang);
            let id = board.to_string();
            if idle >= forfeit - warn_ahead {
                // A warning that comes late (the clock jumped past its day) still gives its notice.
                let left = span((forfeit - idle).max(warn_ahead), lang);
                let idle = span(idle, lang);
                let warning = t!(
                    lang,
                    "forfeit-warning-text",
                    game = title,
                    board = id.as_str(),
                    idle = idle,
                    left = left.as_str()
                );
                let msg = OutboxMessage {
                    key: warning_key(board, version, &user),
                    recipient: addr.clone(),
                    subject: t!(
                        lang,
                        "forfeit-warning-subject",
                        game = title,
                        board = id.as_str(),
                        user = &user,
                        left = left.as_str()
                    ),
                    body: format!("{warning}\n\n{board_text}"),
                    game_id: Some(board),
                };
                // Counted only when new: another run may have queued it already.
                report.warnings += self.store().mail().enqueue(&[msg], now).await?;
            } else if idle >= nag {
                let reminder =
                    t!(lang, "reminder-text", game = title, board = id.as_str(), idle = span(idle, lang));
                let msg = OutboxMessage {
                    key: format!("nag:{board}:v{version}:{user}"),
                    recipient: addr,
                    subject: t!(lang, "reminder-subject", game = title, board = id.as_str(), user = &user),
                    body: format!("{reminder}\n\n{board_text}"),
                    game_id: Some(board),
                };
                report.nags += self.store().mail().enqueue(&[msg], now).await?;
            }
        }
        Ok(())
    }
}

/// The outbox key of the forfeit warning to `user` on `board` at `version`:
/// one warning per wait, and the proof that it went out.
fn warning_key(board: i64, version: i64, user: &str) -> String {
    format!("forfeit-warning:{board}:v{version}:{user}")
}

/// A duration in the unit that fits it, rounded down, in `lang`: `3 days`,
/// `1 day`, `5 hours`, `40 minutes` (limits may be set in hours, where a
/// count of days would read `0 days`).
fn span(ms: i64, lang: Lang) -> String {
    let minutes = ms.max(0) / 60_000;
    if minutes >= 2 * 24 * 60 || (minutes >= 24 * 60 && minutes % (24 * 60) == 0) {
        t!(lang, "duration-days", days = minutes / (24 * 60))
    } else if minutes >= 60 {
        t!(lang, "duration-hours", hours = minutes / 60)
    } else {
        t!(lang, "duration-minutes", minutes = minutes)
    }
}

#[cfg(test)]
mod tests {
    use super::span;
    use tabula_model::Lang;

    #[test]
    fn durations_read_in_the_unit_that_fits() {
        let hour = 3_600_000;
        let en = |ms| span(ms, Lang::En);
        assert_eq!(en(21 * 24 * hour), "21 days");
        assert_eq!(en(24 * hour), "1 day");
        assert_eq!(en(36 * hour), "36 hours");
        assert_eq!(en(3 * hour + 59 * 60_000), "3 hours");
        assert_eq!(en(hour), "1 hour");
        assert_eq!(en(59 * 60_000), "59 minutes");
        assert_eq!(en(-5), "0 minutes");
        assert_eq!(span(24 * hour, Lang::Fi), "1 päivä");
        assert_eq!(span(36 * hour, Lang::Es), "36 horas");
    }
}
