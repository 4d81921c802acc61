//! Clocks and scheduled work: what is due, who does it, and what other
//! processes sharing the database changed.

use super::*;

impl Store {
    /// Games whose next clock event is due at or before `now`.
    pub async fn due_clocks(&self, now: Timestamp, limit: i64) -> StoreResult<Vec<i64>> {
        let sql = "SELECT id FROM games WHERE next_clock IS NOT NULL AND next_clock <= ?1 AND status = 'active' \
                   ORDER BY next_clock LIMIT ?2";
        Ok(self.rows(sql, values![now, limit]).await?.into_iter().map(|(id,)| id).collect())
    }

    /// Claim scheduled work so that no other process sharing the database
    /// does it at the same time: `None` if another process holds it now.
    /// (Appends are version-checked anyway; this spares the loser the work.)
    /// On SQLite, whose one writing process needs no more, every claim is granted.
    pub async fn claim(&self, work: Work) -> StoreResult<Option<Claim>> {
        match &self.db {
            Db::Sqlite(_) => Ok(Some(Claim { lock: None })),
            Db::Postgres(db) => db.claim(work).await,
        }
    }

    /// Changes committed by other processes sharing the database, from now
    /// on; `None` for a store no other process writes to while this one
    /// runs (SQLite).
    pub async fn changes(&self) -> StoreResult<Option<tokio::sync::mpsc::Receiver<GameChange>>> {
        match &self.db {
            Db::Sqlite(_) => Ok(None),
            Db::Postgres(db) => db.changes().await.map(Some),
        }
    }
}
