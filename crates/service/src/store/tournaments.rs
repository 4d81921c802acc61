//! Tournaments between bots, and the games of distributed tournaments
//! that workers claim (those need a database several processes share:
//! PostgreSQL).

use super::*;

/// A tournament's columns, with its games finished so far.
macro_rules! tournament {
    () => {
        "SELECT t.*, (SELECT COUNT(*) FROM tournament_games g WHERE g.tournament_id = t.id) AS games_done \
         FROM tournaments t"
    };
}

impl Store {
    /// The tournament with this fingerprint, created if new; returns its id.
    pub async fn open_tournament(
        &self,
        fingerprint: &str,
        game: &str,
        config: &str,
        now: Timestamp,
    ) -> StoreResult<i64> {
        let sql = "INSERT INTO tournaments (fingerprint, game, config, created) VALUES (?1, ?2, ?3, ?4) \
                   ON CONFLICT (fingerprint) DO NOTHING";
        self.execute(sql, values![fingerprint, game, config, now]).await?;
        // The tournament is there now, whoever opened it first.
        let id =
            self.value("SELECT id FROM tournaments WHERE fingerprint = ?1", values![fingerprint]).await?;
        id.ok_or(StoreError::NotFound)
    }

    /// The finished games of a tournament (JSON results).
    pub async fn tournament_games(&self, id: i64) -> StoreResult<Vec<String>> {
        let sql = "SELECT result FROM tournament_games WHERE tournament_id = ?1 ORDER BY idx";
        Ok(self.rows(sql, values![id]).await?.into_iter().map(|(result,)| result).collect())
    }

    /// Keep one finished game of a tournament.
    pub async fn save_tournament_game(&self, id: i64, index: i64, result: &str) -> StoreResult<()> {
        let sql = "INSERT INTO tournament_games (tournament_id, idx, result) VALUES (?1, ?2, ?3) \
                   ON CONFLICT (tournament_id, idx) DO UPDATE SET result = excluded.result";
        self.execute(sql, values![id, index, result]).await.map(drop)
    }

    /// Store the final report.
    pub async fn finish_tournament(&self, id: i64, report: &str, now: Timestamp) -> StoreResult<()> {
        let sql = "UPDATE tournaments SET finished = ?1, report = ?2 WHERE id = ?3";
        self.execute(sql, values![now, report, id]).await.map(drop)
    }

    /// Tournaments, newest first.
    pub async fn tournaments(&self, limit: i64) -> StoreResult<Vec<TournamentRow>> {
        self.rows(concat!(tournament!(), " ORDER BY id DESC LIMIT ?1"), values![limit]).await
    }

    /// One tournament.
    pub async fn tournament(&self, id: i64) -> StoreResult<Option<TournamentRow>> {
        self.row(concat!(tournament!(), " WHERE id = ?1"), values![id]).await
    }

    /// Offer games `indices` of tournament `id` to workers (those offered
    /// already stay as they are).
    pub async fn enqueue_tournament_games(&self, id: i64, indices: &[i64]) -> StoreResult<()> {
        let sql = "INSERT INTO tournament_jobs (tournament_id, idx) \
                   SELECT ?1, i::BIGINT FROM json_array_elements_text(?2::json) AS i \
                   ON CONFLICT (tournament_id, idx) DO NOTHING";
        self.shared()?;
        self.execute(sql, values![id, json(&indices)]).await.map(drop)
    }

    /// Claim one offered game, of any tournament, that is not done and not
    /// held by a live claim, for `worker` until `lease_until`.
    pub async fn claim_tournament_game(
        &self,
        worker: &str,
        now: Timestamp,
        lease_until: Timestamp,
    ) -> StoreResult<Option<TournamentJob>> {
        // SKIP LOCKED: workers claiming at the same moment take different games.
        let sql = "UPDATE tournament_jobs j SET claimed_by = ?1, lease_until = ?3, attempts = j.attempts + 1 \
                   FROM (SELECT tournament_id, idx FROM tournament_jobs WHERE NOT done \
                         AND (lease_until IS NULL OR lease_until <= ?2) \
                         ORDER BY tournament_id, idx LIMIT 1 FOR UPDATE SKIP LOCKED) free, tournaments t \
                   WHERE j.tournament_id = free.tournament_id AND j.idx = free.idx AND t.id = j.tournament_id \
                   RETURNING j.tournament_id AS tournament, j.idx AS index, t.config";
        self.shared()?;
        Ok(self.rows_on(On::Batch, sql, values![worker, now, lease_until]).await?.pop())
    }

    /// Extend `worker`'s claim; false if the claim is no longer its own.
    pub async fn renew_tournament_game(
        &self,
        job: &TournamentJob,
        worker: &str,
        until: Timestamp,
    ) -> StoreResult<bool> {
        let sql = "UPDATE tournament_jobs SET lease_until = ?1 WHERE tournament_id = ?2 AND idx = ?3 \
                   AND claimed_by = ?4 AND NOT done";
        self.shared()?;
        Ok(self.execute(sql, values![until, job.tournament, job.index, worker]).await? == 1)
    }

    /// Keep a claimed game's result and mark it done, in one transaction.
    pub async fn finish_tournament_game(&self, job: &TournamentJob, result: &str) -> StoreResult<()> {
        // A game is played the same wherever it is played: a second result
        // for it (from a worker whose lease ran out) is the same result.
        let keep = "INSERT INTO tournament_games (tournament_id, idx, result) VALUES (?1, ?2, ?3) \
                    ON CONFLICT (tournament_id, idx) DO NOTHING";
        let done = "UPDATE tournament_jobs SET done = TRUE WHERE tournament_id = ?1 AND idx = ?2";
        self.shared()?;
        let statements = vec![
            (keep.into(), values![job.tournament, job.index, result]),
            (done.into(), values![job.tournament, job.index]),
        ];
        self.write(statements).await.map(drop)
    }

    /// Offered games not done yet: of tournament `id`, or of all if `None`.
    pub async fn tournament_games_left(&self, id: Option<i64>) -> StoreResult<i64> {
        let sql = "SELECT COUNT(*) FROM tournament_jobs WHERE NOT done AND (?1::BIGINT IS NULL OR tournament_id = ?1)";
        self.shared()?;
        Ok(self.value(sql, values![id]).await?.unwrap_or(0))
    }
}
