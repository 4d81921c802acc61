//! The server's hot path on SQLite: one connection of its own, on a thread
//! of its own, for what every move does (read its token and its game's
//! head, append its events) — with the group commit.
//!
//! Why not the pool: in WAL mode a connection throws its whole page cache
//! away (and unmaps its map of the file) at the start of any read after
//! another connection committed, and with moves committing hundreds of
//! times a second the pool's connections found their caches stale at almost
//! every read: a profile of the server under load put 70 us of every move in
//! reading pages back in, and as much again in sqlx's hops to and from each
//! connection's thread for every statement. Here the reads and the commits
//! share one connection, whose cache stays warm because its own commits do
//! not invalidate it (other processes' commits still do, as they must), and
//! a statement is a function call.
//!
//! The thread takes every job queued, runs the reads at once (they see what
//! is committed, never a batch being written), and writes the appends that
//! came with them in one transaction with one fsync; a caller is answered
//! only after that `COMMIT` returned. An append that fails (a version
//! conflict, a broken row) is rolled back to its savepoint alone.

use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, OptionalExtension, Row, params};
use tokio::sync::{Mutex as AsyncMutex, oneshot};

use super::group_commit::Append;
use super::{GAME_HEAD, json, unjson};
use crate::store::{
    GameHead, GameStatus, GameSummary, Recipient, SideEffect, StoreError, StoreResult, UserRow,
};
use tabula_model::Timestamp;

/// Most appends committed in one transaction.
const MAX_BATCH: usize = 256;

/// Pages the connection caches (in KiB when negative, as SQLite reads it):
/// the summaries, seats and index pages of the games being played.
const CACHE_KIB: i64 = 16 * 1024;

type Read = Box<dyn FnOnce(&Connection) + Send>;

enum Job {
    Read(Read),
    Append(Box<Append>, oneshot::Sender<StoreResult<()>>),
}

/// A token's owner as [`read_token_account`] finds it: the owner, when
/// its use was last noted, and the account (if there is one).
pub(super) type TokenAccount = (String, Option<Timestamp>, Option<UserRow>);

/// The handle of the connection's thread; the thread ends (closing the
/// connection) when the last handle is dropped.
#[derive(Clone)]
pub(super) struct Direct {
    jobs: mpsc::Sender<Job>,
}

impl std::fmt::Debug for Direct {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Direct").finish_non_exhaustive()
    }
}

fn gone() -> StoreError {
    StoreError::Failed("the database connection's thread stopped before answering".into())
}

impl Direct {
    /// Open the connection to the (migrated) database at `path` and start
    /// its thread. `writer` is the store's write lock, held by each batch.
    pub fn open(path: &Path, writer: Arc<AsyncMutex<()>>) -> StoreResult<Direct> {
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(Duration::from_secs(30))?;
        conn.execute_batch(&format!(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; \
             PRAGMA cache_size = -{CACHE_KIB};"
        ))?;
        conn.set_prepared_statement_cache_capacity(32);
        let (jobs, queue) = mpsc::channel();
        std::thread::Builder::new()
            .name("tabula-sqlite".into())
            .spawn(move || run(conn, queue, writer))
            .map_err(|e| StoreError::Failed(format!("cannot start the database thread: {e}")))?;
        Ok(Direct { jobs })
    }

    /// Run `read` on the connection and return its answer.
    pub async fn read<T: Send + 'static>(
        &self,
        read: impl FnOnce(&Connection) -> StoreResult<T> + Send + 'static,
    ) -> StoreResult<T> {
        let (done, answer) = oneshot::channel();
        let job: Read = Box::new(move |conn| {
            let _ = done.send(read(conn));
        });
        self.jobs.send(Job::Read(job)).map_err(|_| gone())?;
        answer.await.map_err(|_| gone())?
    }

    /// Commit `append` (with whatever else arrives meanwhile) and return its
    /// own result once the commit is durable.
    pub async fn append(&self, append: Append) -> StoreResult<()> {
        let (done, answer) = oneshot::channel();
        self.jobs.send(Job::Append(Box::new(append), done)).map_err(|_| gone())?;
        answer.await.map_err(|_| gone())?
    }
}

fn run(mut conn: Connection, queue: mpsc::Receiver<Job>, writer: Arc<AsyncMutex<()>>) {
    let mut appends = Vec::new();
    while let Ok(first) = queue.recv() {
        let mut next = Some(first);
        while let Some(job) = next {
            match job {
                // A read that panics drops its answer's sender: its caller
                // gets an error, and the thread goes on.
                Job::Read(read) => {
                    let _ = std::panic::catch_unwind(AssertUnwindSafe(|| read(&conn)));
                }
                Job::Append(append, done) => appends.push((*append, done)),
            }
            if appends.len() >= MAX_BATCH {
                break;
            }
            next = queue.try_recv().ok();
        }
        if appends.is_empty() {
            continue;
        }
        let (batch, dones): (Vec<Append>, Vec<_>) = appends.drain(..).unzip();
        let results = {
            let _writing = writer.blocking_lock();
            std::panic::catch_unwind(AssertUnwindSafe(|| commit_batch(&mut conn, &batch))).unwrap_or_else(
                |_| {
                    let _ = conn.execute_batch("ROLLBACK");
                    batch.iter().map(|_| Err(failed("a panic"))).collect()
                },
            )
        };
        for (done, result) in dones.into_iter().zip(results) {
            let _ = done.send(result);
        }
    }
}

fn failed(why: impl std::fmt::Display) -> StoreError {
    StoreError::Failed(format!("the group commit failed: {why}"))
}

/// One transaction for all of `appends`; the answer of each.
///
/// Most appends succeed, and a version conflict is found by an append's
/// first statement, before it wrote anything; so the batch is first written
/// without savepoints (whose copies of every page an append touches cost
/// more than the rest of its statements). Only if an append fails in any
/// other way, part way through, is the batch rolled back and written again
/// with each append in a savepoint of its own, so that the others still
/// commit.
fn commit_batch(conn: &mut Connection, appends: &[Append]) -> Vec<StoreResult<()>> {
    match write_batch(conn, appends, false) {
        Some(results) => results,
        // With savepoints there is always an answer.
        None => write_batch(conn, appends, true).unwrap_or_else(|| {
            appends.iter().map(|_| Err(failed("an append failed outside its savepoint"))).collect()
        }),
    }
}

/// Write and commit one batch; `None` only when, without `isolate`, an
/// append failed after writing part of itself (the transaction is then
/// rolled back).
fn write_batch(conn: &mut Connection, appends: &[Append], isolate: bool) -> Option<Vec<StoreResult<()>>> {
    let all_fail = |e: rusqlite::Error| Some(appends.iter().map(|_| Err(failed(&e))).collect());
    let tx = match conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate) {
        Ok(tx) => tx,
        Err(e) => return all_fail(e),
    };
    let mut results = Vec::with_capacity(appends.len());
    // Two appends to one game in a batch are checked in order: the second
    // sees the first's version, as it would one commit later.
    for a in appends {
        if !isolate {
            let result = write_append(&tx, a);
            if matches!(result, Err(ref e) if !matches!(e, StoreError::Conflict)) {
                let _ = tx.rollback();
                return None;
            }
            results.push(result);
            continue;
        }
        if let Err(e) = tx.execute_batch("SAVEPOINT one_append") {
            return all_fail(e);
        }
        let result = write_append(&tx, a);
        let end = match result {
            Ok(()) => tx.execute_batch("RELEASE one_append"),
            Err(_) => tx.execute_batch("ROLLBACK TO one_append; RELEASE one_append"),
        };
        if let Err(e) = end {
            return all_fail(e);
        }
        results.push(result);
    }
    if results.iter().all(Result::is_err) {
        // Nothing to make durable: no commit, no fsync.
        let _ = tx.rollback();
        return Some(results);
    }
    Some(match tx.commit() {
        Ok(()) => results,
        Err(e) => {
            let why = e.to_string();
            results.into_iter().map(|r| r.and(Err(failed(&why)))).collect()
        }
    })
}

/// The statements of one append: the version-checked summary update, the
/// events, the seats and the side effects.
fn write_append(conn: &Connection, a: &Append) -> StoreResult<()> {
    let s = &a.summary;
    let version = a.expected_version;
    let updated = conn
        .prepare_cached(
            "UPDATE games SET version = ?1, status = ?2, moves = ?3, to_move = ?4, updated = ?5, \
             result = ?6, next_clock = ?7, players = ?8 WHERE id = ?9 AND version = ?10",
        )?
        .execute(params![
            version + a.events.len() as i64,
            s.status.as_str(),
            s.moves,
            json(&s.to_move),
            s.updated,
            s.result,
            s.next_clock,
            json(&s.players),
            s.id,
            version,
        ])?;
    if updated == 0 {
        return Err(StoreError::Conflict);
    }
    let mut insert_event = conn
        .prepare_cached("INSERT INTO events (game_id, seq, at, seat, action) VALUES (?1, ?2, ?3, ?4, ?5)")?;
    for (i, e) in a.events.iter().enumerate() {
        insert_event.execute(params![
            s.id,
            version + i as i64,
            e.at,
            e.seat.map(|x| x as i64),
            json(&e.action)
        ])?;
    }
    let mut seat_row = conn.prepare_cached(
        "INSERT INTO game_players (game_id, seat, user_id, accepted, result) VALUES (?1, ?2, ?3, 1, ?4) \
         ON CONFLICT (game_id, seat) DO UPDATE SET result = excluded.result \
         WHERE game_players.result IS NOT excluded.result",
    )?;
    for (seat, user) in s.players.iter().enumerate() {
        seat_row.execute(params![s.id, seat as i64, user, s.seat_results.get(seat).cloned().flatten()])?;
    }
    for effect in &a.effects {
        match effect {
            SideEffect::Outbox(m) => {
                conn.prepare_cached(
                    "INSERT OR IGNORE INTO outbox (key, created, recipient, subject, body, game_id, \
                     next_attempt) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?2)",
                )?
                .execute(params![
                    m.key,
                    s.updated,
                    m.recipient,
                    m.subject,
                    m.body,
                    m.game_id
                ])?;
            }
            SideEffect::DeleteQueued(id) => {
                conn.prepare_cached("DELETE FROM queued_moves WHERE id = ?1")?.execute([id])?;
            }
            SideEffect::DeletePending { user } => {
                conn.prepare_cached("DELETE FROM pending_moves WHERE game_id = ?1 AND user_id = ?2")?
                    .execute(params![s.id, user])?;
            }
        }
    }
    Ok(())
}

/// The owner of the unrevoked token `hash`, when its use was last noted,
/// and the owner's account.
pub(super) fn read_token_account(conn: &Connection, hash: &str) -> StoreResult<Option<TokenAccount>> {
    let mut q = conn.prepare_cached(
        "SELECT t.user_id, t.last_used, u.id, u.password_hash, u.emails, u.created, u.notify, \
         u.vacation_until, u.game_limit, u.challenge_policy, u.signed_off, u.failed_logins, \
         u.last_failed_login FROM tokens t LEFT JOIN users u ON u.id = t.user_id \
         WHERE t.hash = ?1 AND t.revoked IS NULL",
    )?;
    let row = q
        .query_row([hash], |r| {
            let owner: String = r.get(0)?;
            let last_used: Option<Timestamp> = r.get(1)?;
            let account = match r.get::<_, Option<String>>(2)? {
                Some(id) => Some(user_columns(r, id)?),
                None => None,
            };
            Ok((owner, last_used, account))
        })
        .optional()?;
    row.map(|(owner, last_used, account)| {
        let account = account
            .map(|(user, emails)| Ok::<_, StoreError>(UserRow { emails: unjson(&emails, "emails")?, ..user }))
            .transpose()?;
        Ok((owner, last_used, account))
    })
    .transpose()
}

/// An account from columns 2 to 12 of `r` (its id is column 2), with its
/// emails still as stored.
fn user_columns(r: &Row<'_>, id: String) -> rusqlite::Result<(UserRow, String)> {
    let user = UserRow {
        id,
        password_hash: r.get(3)?,
        emails: Vec::new(),
        created: r.get(5)?,
        notify: r.get::<_, i64>(6)? != 0,
        vacation_until: r.get(7)?,
        game_limit: r.get(8)?,
        challenge_policy: r.get(9)?,
        signed_off: r.get::<_, i64>(10)? != 0,
        failed_logins: r.get(11)?,
        last_failed_login: r.get(12)?,
    };
    Ok((user, r.get(4)?))
}

/// A game's summary, seats and subscribers, with where each reader's mail
/// goes, in one statement ([`GAME_HEAD`]).
pub(super) fn read_game_head(conn: &Connection, id: i64) -> StoreResult<Option<GameHead>> {
    let mut q = conn.prepare_cached(GAME_HEAD)?;
    let mut rows = q.query([id])?;
    let mut head: Option<GameHead> = None;
    while let Some(r) = rows.next()? {
        let head = match &mut head {
            Some(h) => h,
            None => head.insert(GameHead {
                summary: GameSummary {
                    id: r.get(0)?,
                    kind: r.get(1)?,
                    players: unjson(&r.get::<_, String>(2)?, "players")?,
                    status: GameStatus::parse(&r.get::<_, String>(3)?)?,
                    moves: r.get(4)?,
                    to_move: unjson(&r.get::<_, String>(5)?, "to_move")?,
                    version: r.get(6)?,
                    updated: r.get(7)?,
                    result: r.get(8)?,
                    seat_results: Vec::new(),
                    next_clock: r.get(9)?,
                },
                accepted: Vec::new(),
                subscribers: Vec::new(),
                recipients: Vec::new(),
            }),
        };
        let Some(reader) = r.get::<_, Option<String>>(14)? else { continue };
        match r.get::<_, Option<i64>>(12)? {
            Some(accepted) => {
                head.accepted.push(accepted != 0);
                head.summary.seat_results.push(r.get(13)?);
            }
            None => head.subscribers.push(reader.clone()),
        }
        if !head.recipients.iter().any(|x| x.user == reader) {
            let open = r.get::<_, Option<i64>>(17)? == Some(0);
            let notify = r.get::<_, Option<i64>>(16)?.is_some_and(|n| n != 0);
            let address = match r.get::<_, Option<String>>(15)? {
                Some(e) if open && notify => unjson::<Vec<String>>(&e, "emails")?.into_iter().next(),
                _ => None,
            };
            head.recipients.push(Recipient { user: reader, address });
        }
    }
    Ok(head)
}
