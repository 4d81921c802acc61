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

use std::sync::{Arc, Mutex};

use sqlx::SqlitePool;
use tokio::sync::{Mutex as AsyncMutex, oneshot};

use super::write_append;
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
    for a in appends {
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
