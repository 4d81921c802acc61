//! Group commit of appends: appends that arrive while a commit is being
//! made wait for it to end and then share one transaction, so one fsync
//! makes a whole batch durable.
//!
//! A version conflict (or any other failure) of one append fails only
//! that append, and the others commit (see [`commit_batch`]). Every caller
//! is answered only after the batch's `COMMIT` returned (or failed, and
//! then every append of the batch fails). The batch runs in a task of its
//! own, so a caller that stops waiting (a closed connection) never leaves
//! a batch half done.
//!
//! Each batch holds the store's write lock (see `SqliteStore::writing`):
//! with batches back to back, a writer outside the group commit would
//! otherwise find the database locked again every time it retried, and
//! SQLite's busy handler (sleeping longer at each retry) would keep it
//! waiting for whole seconds.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use sqlx::{Row, SqlitePool};
use tokio::sync::{Mutex as AsyncMutex, oneshot};

use super::{json as to_json, write_append};
use crate::store::{GameSummary, SideEffect, StoreError, StoreResult};
use tabula_model::Event;

/// Most appends committed in one transaction.
const MAX_BATCH: usize = 256;

/// One append waiting to be committed.
pub(super) struct Append {
    pub expected_version: i64,
    pub events: Vec<Event>,
    pub summary: GameSummary,
    pub effects: Vec<SideEffect>,
}

struct Waiting {
    append: Append,
    done: oneshot::Sender<StoreResult<()>>,
}

#[derive(Default)]
struct Queue {
    waiting: Vec<Waiting>,
    /// A task is committing batches; it takes whatever is queued next.
    running: bool,
}

/// The appends of one store, committed in batches.
#[derive(Clone, Default)]
pub(super) struct GroupCommit {
    queue: Arc<Mutex<Queue>>,
}

impl std::fmt::Debug for GroupCommit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GroupCommit").finish_non_exhaustive()
    }
}

impl GroupCommit {
    /// Commit `append` (with whatever else arrives meanwhile) and return its
    /// own result once the commit is durable.
    pub async fn append(
        &self,
        pool: &SqlitePool,
        writer: &Arc<AsyncMutex<()>>,
        append: Append,
    ) -> StoreResult<()> {
        let (done, result) = oneshot::channel();
        let start = {
            let mut q = self.queue.lock().expect("append queue lock");
            q.waiting.push(Waiting { append, done });
            !std::mem::replace(&mut q.running, true)
        };
        if start {
            tokio::spawn(drain(self.queue.clone(), pool.clone(), writer.clone()));
        }
        result.await.unwrap_or_else(|_| {
            Err(StoreError::Database(sqlx::Error::Protocol("the commit of this move was abandoned".into())))
        })
    }
}

/// Clears the running flag if the committing task ends early (a panic or
/// the runtime shutting down): the appends still queued then fail instead of
/// waiting for ever, and the next append starts a new task.
struct Running(Arc<Mutex<Queue>>);

impl Drop for Running {
    fn drop(&mut self) {
        if let Ok(mut q) = self.0.lock() {
            q.running = false;
            q.waiting.clear();
        }
    }
}

async fn drain(queue: Arc<Mutex<Queue>>, pool: SqlitePool, writer: Arc<AsyncMutex<()>>) {
    let running = Running(queue);
    loop {
        let batch: Vec<Waiting> = {
            let mut q = running.0.lock().expect("append queue lock");
            if q.waiting.is_empty() {
                q.running = false;
                drop(q);
                std::mem::forget(running);
                return;
            }
            let n = q.waiting.len().min(MAX_BATCH);
            q.waiting.drain(..n).collect()
        };
        let (appends, dones): (Vec<Append>, Vec<_>) = batch.into_iter().map(|w| (w.append, w.done)).unzip();
        let results = {
            let _writing = writer.lock().await;
            commit_batch(&pool, &appends).await
        };
        for (done, result) in dones.into_iter().zip(results) {
            let _ = done.send(result);
        }
    }
}

/// Whether the batch can be written by [`write_together`]: every append
/// to a game of its own (two appends to one game must be checked one after
/// the other) and with no side effect but mail (the rare others are written
/// one append at a time).
fn can_write_together(appends: &[Append]) -> bool {
    let mut games = HashSet::with_capacity(appends.len());
    appends
        .iter()
        .all(|a| games.insert(a.summary.id) && a.effects.iter().all(|e| matches!(e, SideEffect::Outbox(_))))
}

/// The version-checked summary updates of the whole batch in one statement,
/// then the events, seats and mail of those that applied in one more: each
/// statement is a round trip to the connection's thread, which an append
/// at a time cost four of. The rows travel as one JSON array per table, so
/// the statements' text (and their prepared form, cached) never changes.
///
/// A version conflict fails its append alone, as one statement at a time
/// does; any other error fails the call, and the caller rolls back.
async fn write_together(
    conn: &mut sqlx::SqliteConnection,
    appends: &[Append],
) -> StoreResult<Vec<StoreResult<()>>> {
    let updates: Vec<_> = appends
        .iter()
        .map(|a| {
            let s = &a.summary;
            (
                s.id,
                a.expected_version,
                a.expected_version + a.events.len() as i64,
                s.status.as_str(),
                s.moves,
                to_json(&s.to_move),
                s.updated,
                s.result.as_deref(),
                s.next_clock,
                to_json(&s.players),
            )
        })
        .collect();
    let applied: HashSet<i64> = sqlx::query(
        "UPDATE games SET version = j.value->>2, status = j.value->>3, moves = j.value->>4, \
         to_move = j.value->>5, updated = j.value->>6, result = j.value->>7, next_clock = j.value->>8, \
         players = j.value->>9 FROM json_each(?) AS j \
         WHERE games.id = j.value->>0 AND games.version = j.value->>1 RETURNING games.id",
    )
    .bind(to_json(&updates))
    .fetch_all(&mut *conn)
    .await?
    .iter()
    .map(|r| r.try_get::<i64, _>(0))
    .collect::<Result<_, _>>()?;
    let (mut events, mut seats, mut mail) = (Vec::new(), Vec::new(), Vec::new());
    let mut results = Vec::with_capacity(appends.len());
    for a in appends {
        let s = &a.summary;
        if !applied.contains(&s.id) {
            results.push(Err(StoreError::Conflict));
            continue;
        }
        results.push(Ok(()));
        for (i, e) in a.events.iter().enumerate() {
            events.push((s.id, a.expected_version + i as i64, e.at, e.seat, to_json(&e.action)));
        }
        for (seat, user) in s.players.iter().enumerate() {
            seats.push((s.id, seat, user.as_str(), s.seat_results.get(seat).and_then(Option::as_deref)));
        }
        for effect in &a.effects {
            if let SideEffect::Outbox(m) = effect {
                mail.push((
                    m.key.as_str(),
                    s.updated,
                    m.recipient.as_str(),
                    m.subject.as_str(),
                    m.body.as_str(),
                    m.game_id,
                ));
            }
        }
    }
    if !applied.is_empty() {
        sqlx::query(
            "INSERT INTO events (game_id, seq, at, seat, action) \
             SELECT j.value->>0, j.value->>1, j.value->>2, j.value->>3, j.value->>4 FROM json_each(?) AS j; \
             INSERT INTO game_players (game_id, seat, user_id, accepted, result) \
             SELECT j.value->>0, j.value->>1, j.value->>2, 1, j.value->>3 FROM json_each(?) AS j WHERE true \
             ON CONFLICT (game_id, seat) DO UPDATE SET result = excluded.result \
             WHERE game_players.result IS NOT excluded.result; \
             INSERT OR IGNORE INTO outbox (key, created, recipient, subject, body, game_id, next_attempt) \
             SELECT j.value->>0, j.value->>1, j.value->>2, j.value->>3, j.value->>4, j.value->>5, j.value->>1 \
             FROM json_each(?) AS j",
        )
        .bind(to_json(&events))
        .bind(to_json(&seats))
        .bind(to_json(&mail))
        .execute(&mut *conn)
        .await?;
    }
    Ok(results)
}

fn failed(e: &StoreError) -> StoreError {
    StoreError::Database(sqlx::Error::Protocol(format!("the group commit failed: {e}")))
}

/// One transaction for all of `appends`.
///
/// Most appends succeed, and a version conflict is found by an append's
/// first statement, before it wrote anything; so the batch is first written
/// without savepoints (two statements fewer per append, on the path every
/// move waits for). Only if an append fails in any other way, part way
/// through, is the batch rolled back and written again with each append in
/// a savepoint of its own, so that the others still commit.
async fn commit_batch(pool: &SqlitePool, appends: &[Append]) -> Vec<StoreResult<()>> {
    let mut isolate = false;
    loop {
        match write_batch(pool, appends, isolate).await {
            Some(results) => return results,
            // With savepoints there is always an answer: this runs twice at most.
            None => isolate = true,
        }
    }
}

/// Write and commit one batch; `None` only when, without `isolate`, an
/// append failed after writing part of itself (the transaction is then
/// rolled back).
async fn write_batch(pool: &SqlitePool, appends: &[Append], isolate: bool) -> Option<Vec<StoreResult<()>>> {
    let all_fail = |e: StoreError| Some(appends.iter().map(|_| Err(failed(&e))).collect());
    let mut tx = match pool.begin_with("BEGIN IMMEDIATE").await {
        Ok(tx) => tx,
        Err(e) => return all_fail(e.into()),
    };
    let mut results = Vec::with_capacity(appends.len());
    if !isolate && can_write_together(appends) {
        match write_together(&mut tx, appends).await {
            Ok(r) => results = r,
            Err(_) => {
                let _ = tx.rollback().await;
                return None;
            }
        }
    }
    for a in appends.iter().skip(results.len()) {
        if !isolate {
            let r = write_append(&mut tx, a.expected_version, &a.events, &a.summary, &a.effects).await;
            if matches!(r, Err(ref e) if !matches!(e, StoreError::Conflict)) {
                let _ = tx.rollback().await;
                return None;
            }
            results.push(r);
            continue;
        }
        if let Err(e) = sqlx::query("SAVEPOINT one_append").execute(&mut *tx).await {
            return all_fail(e.into());
        }
        let r = write_append(&mut tx, a.expected_version, &a.events, &a.summary, &a.effects).await;
        let end = if r.is_ok() {
            sqlx::query("RELEASE one_append").execute(&mut *tx).await
        } else {
            match sqlx::query("ROLLBACK TO one_append").execute(&mut *tx).await {
                Ok(_) => sqlx::query("RELEASE one_append").execute(&mut *tx).await,
                Err(e) => Err(e),
            }
        };
        if let Err(e) = end {
            return all_fail(e.into());
        }
        results.push(r);
    }
    if results.iter().all(Result::is_err) {
        // Nothing to make durable: no commit, no fsync.
        let _ = tx.rollback().await;
        return Some(results);
    }
    Some(match tx.commit().await {
        Ok(()) => results,
        Err(e) => {
            let e = StoreError::from(e);
            results.into_iter().map(|r| r.and(Err(failed(&e)))).collect()
        }
    })
}
