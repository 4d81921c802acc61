//! The server's hot path on SQLite: one connection of its own, on a thread
//! of its own, for what every move does (read its token and its game's
//! head, append its events) — with the group commit, which the server's
//! other writes (a challenge, its notifications) join as well, and whose
//! log sync answers the writes made through the pool (see
//! `SqliteStore::write`) — and for the short reads a challenge makes (the
//! players' accounts and running games).
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
//! came with them in one transaction. An append that fails (a version
//! conflict, a broken row) is rolled back to its savepoint alone.
//!
//! The fsync that makes a batch durable is not made by the `COMMIT` on this
//! thread (the connection runs with `synchronous = NORMAL`) but by a second
//! thread, which syncs the log file (`-wal`) after each commit and only then
//! answers the batch's callers: with `synchronous = FULL` this thread sat
//! in every commit's fsync while the reads of the next moves waited (about
//! 15% of the two cores idle in I/O wait under load). Now reads run during
//! the fsync, and so does the next batch's commit: at most two batches are
//! committed and unanswered at a time, one being synced and one waiting for
//! the next sync, and appends that arrive meanwhile form the batch after
//! (a commit for every few appends, without that limit, cost more log
//! frames and CPU per move than it saved). A move is still acknowledged
//! only once its log frames are on the disk: a sync answers only the
//! batches committed before it began. What changes is that a batch
//! is visible to readers from its `COMMIT`, a few milliseconds
//! before it is durable: a reader may see a move whose mover has not been
//! answered yet, and that a power failure in that window would undo. The
//! log stays consistent either way (SQLite's recovery keeps whole
//! transactions from its start up to the last one written whole).
//!
//! Checkpoints (copying the log into the database file, so that the log
//! can be written again from its beginning) run on a third thread with a
//! connection of their own, woken every [`CHECKPOINT_FRAMES`] frames. In
//! SQLite's automatic checkpoint this thread copied the frames and synced
//! the database file inside a commit, twice a second or more under load,
//! and every move queued behind it waited.

use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, OptionalExtension, Row, params};
use tokio::sync::{Mutex as AsyncMutex, oneshot};

use super::group_commit::Append;
use super::{GAME_HEAD, json, unjson};
use crate::store::{
    GameHead, GameStatus, GameSummary, NewGame, OutboxMessage, Recipient, SideEffect, StoreError,
    StoreResult, UserRow,
};
use tabula_model::Timestamp;

/// Most appends committed in one transaction.
const MAX_BATCH: usize = 256;

/// Most batches committed and not yet answered.
const MAX_IN_FLIGHT: usize = 2;

/// Frames in the log after which a commit wakes the checkpoint thread
/// (SQLite's own default for its automatic checkpoint).
const CHECKPOINT_FRAMES: i32 = 1000;

/// How long a checkpoint that restarts the log waits for readers.
const CHECKPOINT_WAIT: Duration = Duration::from_millis(20);

/// Most jobs taken from the queue before the appends among them are
/// committed: a steady stream of reads must not hold a batch back.
const MAX_JOBS_PER_ROUND: usize = 4 * MAX_BATCH;

/// Pages the connection caches (in KiB when negative, as SQLite reads it):
/// the summaries, seats and index pages of the games being played.
const CACHE_KIB: i64 = 16 * 1024;

type Read = Box<dyn FnOnce(&Connection) + Send>;

/// Makes every transaction committed so far durable: syncs the log file.
type SyncLog = Box<dyn FnMut() -> Result<(), SyncError> + Send>;

/// Why the log was not synced.
#[derive(Debug)]
enum SyncError {
    /// The log file could not be opened (no file descriptor left, say, with
    /// a flood of connections): nothing was tried, nothing is lost, and the
    /// same sync made later makes the same commits durable.
    Open(std::io::Error),
    /// The sync itself failed: pages of committed transactions may never
    /// reach the disk.
    Sync(std::io::Error),
}

/// A write other than a move's append, run in a batch's transaction in a
/// savepoint of its own, so that its failure leaves the batch's other
/// writes standing. Its value (a new row's id, a count of rows) is its
/// caller's answer. `Fn` rather than `FnOnce`: a batch that has to be
/// written again (see [`commit_batch`]) runs it again.
pub(super) type OtherWrite = Box<dyn Fn(&Connection) -> StoreResult<i64> + Send>;

/// One write of a batch. Moves are nearly every write, so an append is
/// kept in place rather than boxed a second time (a job already boxes it).
#[allow(clippy::large_enum_variant)]
enum Write {
    Append(Append),
    Other(OtherWrite),
}

/// Where a write's answer goes.
type Done = oneshot::Sender<StoreResult<i64>>;

/// A caller waiting for its write, and the write's result.
type Answer = (Done, StoreResult<i64>);

enum Job {
    Read(Read),
    Write(Box<Write>, Done),
    /// This many batches handed to the sync thread are durable and answered.
    Synced(usize),
    /// The last handle is gone.
    Stop,
}

/// A token's owner as [`read_token_account`] finds it: the owner, when
/// its use was last noted, and the account (if there is one).
pub(super) type TokenAccount = (String, Option<Timestamp>, Option<UserRow>);

/// The handle of the connection's thread; the thread ends (closing the
/// connection) when the last handle is dropped.
#[derive(Clone)]
pub(super) struct Direct {
    jobs: Arc<Jobs>,
}

/// The queue of the connection's thread. The sync thread holds a sender
/// too (to say a batch is synced), so the queue cannot end by losing its
/// senders: the last handle's drop tells the thread to stop.
struct Jobs(mpsc::Sender<Job>);

impl Drop for Jobs {
    fn drop(&mut self) {
        let _ = self.0.send(Job::Stop);
    }
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
        Self::open_with_sync(path, writer, sync_log_file(path))
    }

    /// [`Direct::open`] with `sync` as what makes commits durable.
    fn open_with_sync(path: &Path, writer: Arc<AsyncMutex<()>>, sync: SyncLog) -> StoreResult<Direct> {
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(Duration::from_secs(30))?;
        // NORMAL: the commit writes the log without an fsync; the sync
        // thread makes it durable before anyone is answered.
        conn.execute_batch(&format!(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; \
             PRAGMA cache_size = -{CACHE_KIB};"
        ))?;
        conn.set_prepared_statement_cache_capacity(32);
        // This connection's commits no longer checkpoint (the hook replaces
        // SQLite's automatic checkpoint); the checkpoint thread does.
        conn.wal_hook(Some(note_log_frames));
        let checkpoints = start_checkpoints(path, writer.clone())?;
        let broken = Arc::new(OnceLock::new());
        let (jobs, queue) = mpsc::channel();
        let (to_sync, synced) = mpsc::channel();
        let (sync_broken, sync_jobs) = (broken.clone(), jobs.clone());
        std::thread::Builder::new()
            .name("tabula-wal-sync".into())
            .spawn(move || run_syncs(synced, sync, &sync_broken, &sync_jobs))
            .map_err(|e| StoreError::Failed(format!("cannot start the log's sync thread: {e}")))?;
        std::thread::Builder::new()
            .name("tabula-sqlite".into())
            .spawn(move || run(conn, queue, writer, to_sync, &broken, &checkpoints))
            .map_err(|e| StoreError::Failed(format!("cannot start the database thread: {e}")))?;
        Ok(Direct { jobs: Arc::new(Jobs(jobs)) })
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
        self.jobs.0.send(Job::Read(job)).map_err(|_| gone())?;
        answer.await.map_err(|_| gone())?
    }

    /// Commit `append` (with whatever else arrives meanwhile) and return its
    /// own result once the commit is durable.
    pub async fn append(&self, append: Append) -> StoreResult<()> {
        self.commit(Write::Append(append)).await.map(|_| ())
    }

    /// Run `write` in the next batch's transaction (see [`OtherWrite`]) and
    /// return its value once the commit is durable. Outside the group
    /// commit, each such write held the store's write lock through a
    /// commit and an fsync of its own, and every batch of moves behind it
    /// waited.
    pub async fn write(
        &self,
        write: impl Fn(&Connection) -> StoreResult<i64> + Send + 'static,
    ) -> StoreResult<i64> {
        self.commit(Write::Other(Box::new(write))).await
    }

    async fn commit(&self, write: Write) -> StoreResult<i64> {
        let (done, answer) = oneshot::channel();
        self.jobs.0.send(Job::Write(Box::new(write), done)).map_err(|_| gone())?;
        answer.await.map_err(|_| gone())?
    }
}

/// Syncs the log file of the database at `db` (`db-wal`). The file is
/// opened once and kept: SQLite removes (and later makes anew) the log only
/// when its last connection closes, and the server's own connection stays
/// open as long as this sync is used; and an open needs a free file
/// descriptor, which a flood of connections can take for a while.
fn sync_log_file(db: &Path) -> SyncLog {
    let mut log = db.as_os_str().to_owned();
    log.push("-wal");
    let log = PathBuf::from(log);
    let mut file: Option<std::fs::File> = None;
    Box::new(move || {
        if file.is_none() {
            match std::fs::OpenOptions::new().read(true).write(true).open(&log) {
                Ok(opened) => file = Some(opened),
                // No log: nothing was committed since the last connection
                // closed, which copied the log into the database file and
                // synced that.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
                Err(e) => return Err(SyncError::Open(e)),
            }
        }
        file.as_ref().map_or(Ok(()), |f| f.sync_data().map_err(SyncError::Sync))
    })
}

/// The first wait before a sync whose log could not be opened is tried
/// again; it doubles up to [`SYNC_RETRY_MAX`].
const SYNC_RETRY_FIRST: Duration = Duration::from_millis(10);
/// The longest wait between two tries of a sync.
const SYNC_RETRY_MAX: Duration = Duration::from_secs(1);

/// Sync the log, trying again (the callers wait) for as long as the log
/// cannot be opened: that says nothing about what was written, and ends
/// when file descriptors are free again. `Err` only for a failed sync.
fn sync_until_done(sync: &mut SyncLog) -> std::io::Result<()> {
    let mut wait = SYNC_RETRY_FIRST;
    let mut warned: Option<std::time::Instant> = None;
    loop {
        match sync() {
            Ok(()) => return Ok(()),
            Err(SyncError::Sync(e)) => return Err(e),
            Err(SyncError::Open(e)) => {
                if warned.is_none_or(|t| t.elapsed() >= Duration::from_secs(10)) {
                    tracing::warn!(error = %e, "cannot open the database's log to sync it: trying again");
                    warned = Some(std::time::Instant::now());
                }
                std::thread::sleep(wait);
                wait = (wait * 2).min(SYNC_RETRY_MAX);
            }
        }
    }
}

/// The sync thread: takes every batch of answers committed so far, syncs
/// the log once for all of them, answers, and tells the connection's thread
/// it may commit the next batch. After a failed sync nothing
/// is known to be durable any more (the kernel may have dropped the pages
/// it could not write, and a later sync can succeed without them), so the
/// store refuses every later append until the server is restarted.
fn run_syncs(
    batches: mpsc::Receiver<Vec<Answer>>,
    mut sync: SyncLog,
    broken: &OnceLock<String>,
    jobs: &mpsc::Sender<Job>,
) {
    while let Ok(first) = batches.recv() {
        let mut answers = first;
        let mut count = 1;
        while let Ok(more) = batches.try_recv() {
            answers.extend(more);
            count += 1;
        }
        if broken.get().is_none()
            && let Err(e) = sync_until_done(&mut sync)
        {
            tracing::error!(error = %e, "syncing the database's log failed: moves are refused until a restart");
            let _ = broken.set(e.to_string());
        }
        for (done, result) in answers {
            let result = match broken.get() {
                Some(why) => result.and(Err(not_durable(why))),
                None => result,
            };
            let _ = done.send(result);
        }
        let _ = jobs.send(Job::Synced(count));
    }
}

fn not_durable(why: &str) -> StoreError {
    StoreError::Failed(format!(
        "syncing the database's log to the disk failed ({why}); nothing is written until the server is restarted"
    ))
}

fn run(
    mut conn: Connection,
    queue: mpsc::Receiver<Job>,
    writer: Arc<AsyncMutex<()>>,
    to_sync: mpsc::Sender<Vec<Answer>>,
    broken: &OnceLock<String>,
    checkpoints: &mpsc::SyncSender<()>,
) {
    let mut writes = Vec::new();
    // Batches committed and not yet answered: at MAX_IN_FLIGHT, writes wait
    // for a sync to end (and join the next batch); reads do not wait.
    let mut in_flight = 0;
    // The log's length when the checkpoint thread was last woken.
    let mut checkpointed_at = 0;
    while let Ok(first) = queue.recv() {
        let mut next = Some(first);
        let mut taken = 0;
        while let Some(job) = next {
            taken += 1;
            match job {
                // A read that panics drops its answer's sender: its caller
                // gets an error, and the thread goes on.
                Job::Read(read) => {
                    let _ = std::panic::catch_unwind(AssertUnwindSafe(|| read(&conn)));
                }
                Job::Write(write, done) => writes.push((*write, done)),
                Job::Synced(count) => in_flight -= count,
                Job::Stop => return,
            }
            if in_flight < MAX_IN_FLIGHT && (writes.len() >= MAX_BATCH || taken >= MAX_JOBS_PER_ROUND) {
                break;
            }
            next = queue.try_recv().ok();
        }
        if writes.is_empty() || in_flight >= MAX_IN_FLIGHT {
            continue;
        }
        if let Some(why) = broken.get() {
            for (_, done) in writes.drain(..) {
                let _ = done.send(Err(not_durable(why)));
            }
            continue;
        }
        let mut answers: Vec<Answer> = Vec::with_capacity(writes.len());
        while !writes.is_empty() {
            let take = writes.len().min(MAX_BATCH);
            let (batch, dones): (Vec<Write>, Vec<_>) = writes.drain(..take).unzip();
            let results = {
                let _writing = writer.blocking_lock();
                std::panic::catch_unwind(AssertUnwindSafe(|| commit_batch(&mut conn, &batch))).unwrap_or_else(
                    |_| {
                        let _ = conn.execute_batch("ROLLBACK");
                        batch.iter().map(|_| Err(failed("a panic"))).collect()
                    },
                )
            };
            answers.extend(dones.into_iter().zip(results));
        }
        // The log's length falls when SQLite starts writing it from the
        // beginning again, after a checkpoint that copied it all.
        let frames = LOG_FRAMES.get();
        if frames < checkpointed_at {
            checkpointed_at = 0;
        }
        if frames >= checkpointed_at + CHECKPOINT_FRAMES {
            checkpointed_at = frames;
            // One wake-up pending is enough: the checkpoint it starts
            // copies every frame committed by then.
            let _ = checkpoints.try_send(());
        }
        if answers.iter().any(|(_, r)| r.is_ok()) {
            // The sync thread answers once the commit is durable, then
            // tells this thread; it is gone only if it panicked, and then
            // nothing is known durable.
            match to_sync.send(answers) {
                Ok(()) => in_flight += 1,
                Err(mpsc::SendError(answers)) => {
                    for (done, result) in answers {
                        let _ = done.send(result.and(Err(not_durable("the sync thread stopped"))));
                    }
                }
            }
        } else {
            // Nothing was committed: nothing to wait for.
            for (done, result) in answers {
                let _ = done.send(result);
            }
        }
    }
}

thread_local! {
    /// The frames in the log after this thread's last commit, as SQLite's
    /// log hook reports them.
    static LOG_FRAMES: std::cell::Cell<i32> = const { std::cell::Cell::new(0) };
}

/// The log hook of the connection's thread: notes the log's length after
/// each commit, for the thread to decide on a checkpoint.
fn note_log_frames(_: &rusqlite::hooks::Wal, frames: std::os::raw::c_int) -> rusqlite::Result<()> {
    LOG_FRAMES.set(frames);
    Ok(())
}

/// Starts the checkpoint thread on a connection of its own; waking it
/// (through the returned sender) makes it copy the log into the database
/// file. Its connection closes when the sender is dropped.
fn start_checkpoints(path: &Path, writer: Arc<AsyncMutex<()>>) -> StoreResult<mpsc::SyncSender<()>> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    // How long a restart checkpoint waits for readers, commits held: a
    // reader that takes longer only puts the restart off to the next one.
    conn.busy_timeout(CHECKPOINT_WAIT)?;
    // FULL: the checkpoint syncs the log before it copies frames into the
    // database file, and the file after.
    conn.execute_batch("PRAGMA synchronous = FULL; PRAGMA wal_autocheckpoint = 0;")?;
    let (wake, woken) = mpsc::sync_channel(1);
    std::thread::Builder::new()
        .name("tabula-checkpoint".into())
        .spawn(move || run_checkpoints(&conn, &woken, &writer))
        .map_err(|e| StoreError::Failed(format!("cannot start the checkpoint thread: {e}")))?;
    Ok(wake)
}

/// The checkpoint thread. Each wake-up copies the log into the database
/// file while commits go on (a passive checkpoint). Then, with commits held
/// (the writer's lock), it copies the frames committed meanwhile and waits
/// for the readers still reading from the log to finish (a restart
/// checkpoint): that is short, and it lets the next commit write the log
/// again from its beginning. Without that second step a steady load would
/// leave no moment for SQLite to start the log again, and it would grow
/// without end.
fn run_checkpoints(conn: &Connection, woken: &mpsc::Receiver<()>, writer: &AsyncMutex<()>) {
    while woken.recv().is_ok() {
        let done = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())).and_then(|()| {
            let _writing = writer.blocking_lock();
            conn.query_row("PRAGMA wal_checkpoint(RESTART)", [], |_| Ok(()))
        });
        if let Err(e) = done {
            tracing::warn!(error = %e, "checkpointing the database's log failed");
        }
    }
}

fn failed(why: impl std::fmt::Display) -> StoreError {
    StoreError::Failed(format!("the group commit failed: {why}"))
}

/// One transaction for all of `writes`; the answer of each.
///
/// Most appends succeed, and a version conflict is found by an append's
/// first statement, before it wrote anything; so the batch is first written
/// without savepoints for its appends (whose copies of every page an append
/// touches cost more than the rest of its statements). Only if an append
/// fails in any other way, part way through, is the batch rolled back and
/// written again with each append in a savepoint of its own, so that the
/// others still commit. Other writes, rare beside moves, always have a
/// savepoint of their own.
fn commit_batch(conn: &mut Connection, writes: &[Write]) -> Vec<StoreResult<i64>> {
    match write_batch(conn, writes, false) {
        Some(results) => results,
        // With savepoints there is always an answer.
        None => write_batch(conn, writes, true).unwrap_or_else(|| {
            writes.iter().map(|_| Err(failed("an append failed outside its savepoint"))).collect()
        }),
    }
}

/// Write and commit one batch; `None` only when, without `isolate`, an
/// append failed after writing part of itself (the transaction is then
/// rolled back).
fn write_batch(conn: &mut Connection, writes: &[Write], isolate: bool) -> Option<Vec<StoreResult<i64>>> {
    let all_fail = |e: rusqlite::Error| Some(writes.iter().map(|_| Err(failed(&e))).collect());
    let tx = match conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate) {
        Ok(tx) => tx,
        Err(e) => return all_fail(e),
    };
    let mut results = Vec::with_capacity(writes.len());
    // Two appends to one game in a batch are checked in order: the second
    // sees the first's version, as it would one commit later.
    for w in writes {
        if let (false, Write::Append(a)) = (isolate, w) {
            let result = write_append(&tx, a);
            if matches!(result, Err(ref e) if !matches!(e, StoreError::Conflict)) {
                let _ = tx.rollback();
                return None;
            }
            results.push(result.map(|()| 0));
            continue;
        }
        if let Err(e) = tx.execute_batch("SAVEPOINT one_write") {
            return all_fail(e);
        }
        let result = match w {
            Write::Append(a) => write_append(&tx, a).map(|()| 0),
            Write::Other(write) => write(&tx),
        };
        let end = match result {
            Ok(_) => tx.execute_batch("RELEASE one_write"),
            Err(_) => tx.execute_batch("ROLLBACK TO one_write; RELEASE one_write"),
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
                insert_outbox(conn, m, s.updated)?;
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

/// Queue `m` in the outbox, made (and first due) at `at`, unless a
/// message with its key is there already; the rows added (0 or 1).
pub(super) fn insert_outbox(conn: &Connection, m: &OutboxMessage, at: Timestamp) -> StoreResult<i64> {
    let added = conn
        .prepare_cached(
            "INSERT OR IGNORE INTO outbox (key, created, recipient, subject, body, game_id, \
             next_attempt) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?2)",
        )?
        .execute(params![m.key, at, m.recipient, m.subject, m.body, m.game_id])?;
    Ok(added as i64)
}

/// Store a new game and its seats; its id.
pub(super) fn insert_game(conn: &Connection, g: &NewGame) -> StoreResult<i64> {
    let id: i64 = conn
        .prepare_cached(
            "INSERT INTO games (kind, options, players, seed, created, version, status, moves, to_move, \
             updated, next_clock) VALUES (?1, ?2, ?3, ?4, ?5, 0, ?6, 0, ?7, ?5, ?8) RETURNING id",
        )?
        .query_row(
            params![
                g.kind,
                json(&g.options),
                json(&g.players),
                g.seed as i64,
                g.created,
                g.status.as_str(),
                json(&g.to_move),
                g.next_clock,
            ],
            |r| r.get(0),
        )?;
    let mut seat_row = conn.prepare_cached(
        "INSERT INTO game_players (game_id, seat, user_id, accepted) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for (seat, user) in g.players.iter().enumerate() {
        seat_row.execute(params![id, seat as i64, user, g.accepted.get(seat).copied().unwrap_or(true)])?;
    }
    Ok(id)
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
                Some(id) => Some(user_columns(r, 2, id)?),
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

/// An account by its id, with its columns in the order [`user_columns`]
/// reads them.
const USER_BY_ID: &str = "SELECT id, password_hash, emails, created, notify, vacation_until, game_limit, \
     challenge_policy, signed_off, failed_logins, last_failed_login FROM users WHERE id = ?1";

/// An account from the 11 columns of `r` from column `at` on (its id,
/// given, is column `at`), with its emails still as stored.
fn user_columns(r: &Row<'_>, at: usize, id: String) -> rusqlite::Result<(UserRow, String)> {
    let user = UserRow {
        id,
        password_hash: r.get(at + 1)?,
        emails: Vec::new(),
        created: r.get(at + 3)?,
        notify: r.get::<_, i64>(at + 4)? != 0,
        vacation_until: r.get(at + 5)?,
        game_limit: r.get(at + 6)?,
        challenge_policy: r.get(at + 7)?,
        signed_off: r.get::<_, i64>(at + 8)? != 0,
        failed_logins: r.get(at + 9)?,
        last_failed_login: r.get(at + 10)?,
    };
    Ok((user, r.get(at + 2)?))
}

/// The account `id`, if there is one.
pub(super) fn read_user(conn: &Connection, id: &str) -> StoreResult<Option<UserRow>> {
    let mut q = conn.prepare_cached(USER_BY_ID)?;
    let row = q.query_row([id], |r| user_columns(r, 0, r.get(0)?)).optional()?;
    row.map(|(user, emails)| Ok(UserRow { emails: unjson(&emails, "emails")?, ..user })).transpose()
}

/// The values of `binds`, by reference, for a statement of this connection.
fn bound(binds: &[super::Bind]) -> impl Iterator<Item = &dyn rusqlite::ToSql> {
    binds.iter().map(|b| -> &dyn rusqlite::ToSql {
        match b {
            super::Bind::Text(t) => t,
            super::Bind::Int(i) => i,
            super::Bind::Null => &rusqlite::types::Null,
        }
    })
}

/// The games that [`super::games_query`] selects, its statement and values given.
pub(super) fn read_games(
    conn: &Connection,
    sql: &str,
    binds: &[super::Bind],
) -> StoreResult<Vec<GameSummary>> {
    let mut q = conn.prepare_cached(sql)?;
    let mut rows = q.query(rusqlite::params_from_iter(bound(binds)))?;
    let mut games = Vec::new();
    while let Some(r) = rows.next()? {
        games.push(summary_columns(r)?);
    }
    Ok(games)
}

/// The count that `sql` (a `SELECT COUNT(*)` built by the store) gives
/// with `binds`.
pub(super) fn read_count(conn: &Connection, sql: &str, binds: &[super::Bind]) -> StoreResult<i64> {
    let mut q = conn.prepare_cached(sql)?;
    Ok(q.query_row(rusqlite::params_from_iter(bound(binds)), |r| r.get(0))?)
}

/// A game's summary from columns 0 to 9 of `r` (the store's summary
/// columns, in their order), without its seats' results.
fn summary_columns(r: &Row<'_>) -> StoreResult<GameSummary> {
    Ok(GameSummary {
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
    })
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
                summary: summary_columns(r)?,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::sqlite::SqliteStore;
    use crate::store::{Games, Mail};
    use tabula_model::{Event, EventAction, Options};

    const T0: i64 = 1_767_225_600_000;

    /// A new DNA game between ann and bob.
    fn dna_game() -> NewGame {
        let info = tabula_games::find("dna").unwrap().info();
        NewGame {
            kind: "dna".into(),
            options: Options::parse(info, &[] as &[&str]).unwrap(),
            players: vec!["ann".into(), "bob".into()],
            seed: 7,
            created: T0,
            status: GameStatus::Active,
            to_move: vec!["ann".into()],
            accepted: vec![true, true],
            next_clock: None,
        }
    }

    /// A migrated database with one DNA game between ann and bob.
    async fn one_game(dir: &Path) -> (PathBuf, SqliteStore, i64) {
        let path = dir.join("t.db");
        let store = SqliteStore::open_for_one_client(&path).await.unwrap();
        let id = store.create_game(&dna_game()).await.unwrap();
        (path, store, id)
    }

    /// Move `version + 1` of the game `id`.
    fn a_move(id: i64, version: i64) -> Append {
        let seat = (version % 2) as usize;
        Append {
            expected_version: version,
            events: vec![Event {
                at: T0 + version,
                seat: Some(seat),
                action: EventAction::Move("AAG".into()),
            }],
            summary: GameSummary {
                id,
                kind: "dna".into(),
                players: vec!["ann".into(), "bob".into()],
                status: GameStatus::Active,
                moves: version + 1,
                to_move: vec![if seat == 0 { "bob" } else { "ann" }.into()],
                version: version + 1,
                updated: T0 + version,
                result: None,
                seat_results: vec![None, None],
                next_clock: None,
            },
            effects: Vec::new(),
        }
    }

    /// A sync that reports each start on the first receiver and returns
    /// only when the sender lets it (with the result sent).
    fn held_sync() -> (SyncLog, mpsc::Receiver<()>, mpsc::Sender<std::io::Result<()>>) {
        let (entered, in_sync) = mpsc::channel::<()>();
        let (release, held) = mpsc::channel::<std::io::Result<()>>();
        let sync: SyncLog = Box::new(move || {
            let _ = entered.send(());
            held.recv().unwrap_or(Ok(())).map_err(SyncError::Sync)
        });
        (sync, in_sync, release)
    }

    /// Wait, off the runtime's threads, until a held sync has begun.
    async fn sync_begun(in_sync: mpsc::Receiver<()>) {
        tokio::task::spawn_blocking(move || in_sync.recv_timeout(Duration::from_secs(30)))
            .await
            .unwrap()
            .expect("the committed batch is synced");
    }

    /// Check that `task` is still unanswered while the sync is held, then
    /// let one sync end and return the task's answer; `what` names the
    /// task in failures.
    async fn answered_once_released<T: std::fmt::Debug>(
        task: tokio::task::JoinHandle<StoreResult<T>>,
        release: &mpsc::Sender<std::io::Result<()>>,
        what: &str,
    ) -> T {
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(!task.is_finished(), "{what} was answered before its commit was durable");
        release.send(Ok(())).unwrap();
        task.await.unwrap().unwrap_or_else(|e| panic!("{what} fails once synced: {e}"))
    }

    #[tokio::test]
    async fn an_append_is_answered_only_once_the_log_is_synced() {
        let dir = tempfile::tempdir().unwrap();
        let (path, store, id) = one_game(dir.path()).await;
        let (sync, in_sync, release) = held_sync();
        let direct = Direct::open_with_sync(&path, Arc::default(), sync).unwrap();
        let moving = tokio::spawn({
            let direct = direct.clone();
            async move { direct.append(a_move(id, 0)).await }
        });
        sync_begun(in_sync).await;
        // Committed and visible, but its caller waits for the sync.
        assert_eq!(store.game_version(id).await.unwrap(), Some(1));
        answered_once_released(moving, &release, "the append").await;
        // A later batch waits for a sync of its own.
        let moving = tokio::spawn({
            let direct = direct.clone();
            async move { direct.append(a_move(id, 1)).await }
        });
        answered_once_released(moving, &release, "the second append").await;
        assert_eq!(store.game_version(id).await.unwrap(), Some(2));
    }

    #[tokio::test]
    async fn a_write_joins_the_group_commit_and_is_answered_once_synced() {
        let dir = tempfile::tempdir().unwrap();
        let (path, store, first) = one_game(dir.path()).await;
        let (sync, in_sync, release) = held_sync();
        let direct = Direct::open_with_sync(&path, Arc::default(), sync).unwrap();
        let creating = tokio::spawn({
            let direct = direct.clone();
            async move { direct.write(|conn| insert_game(conn, &dna_game())).await }
        });
        sync_begun(in_sync).await;
        let id = answered_once_released(creating, &release, "the game's write").await;
        assert_eq!(id, first + 1);
        let game = store.game(id).await.unwrap().expect("the new game is there");
        assert_eq!((game.initial_players, game.accepted), (dna_game().players, vec![true, true]));
    }

    #[tokio::test]
    async fn a_write_through_the_pool_is_answered_once_the_log_is_synced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let mut store =
            SqliteStore::open_with(&path, 2, sqlx::sqlite::SqliteSynchronous::Normal).await.unwrap();
        let (sync, in_sync, release) = held_sync();
        store.direct = Some(Direct::open_with_sync(&path, store.writer.clone(), sync).unwrap());
        let store = Arc::new(store);
        let claiming = tokio::spawn({
            let store = store.clone();
            async move { store.claim_incoming("<m1@x>", T0, T0 - 1).await }
        });
        sync_begun(in_sync).await;
        // The pool committed without an fsync; its caller waits for the
        // group commit's sync of the log.
        let conn = Connection::open(&path).unwrap();
        let claimed: i64 = conn.query_row("SELECT count(*) FROM incoming_mail", [], |r| r.get(0)).unwrap();
        assert_eq!(claimed, 1);
        assert!(answered_once_released(claiming, &release, "the pool's write").await);
    }

    #[tokio::test]
    async fn a_failed_write_or_append_leaves_the_rest_of_its_batch() {
        let dir = tempfile::tempdir().unwrap();
        let (path, store, a) = one_game(dir.path()).await;
        let b = store.create_game(&dna_game()).await.unwrap();
        let mut conn = Connection::open(&path).unwrap();
        // A stray event where b's first move goes: that append fails after
        // its first statement wrote, so the whole batch is written again,
        // each write in a savepoint.
        conn.execute("INSERT INTO events (game_id, seq, at, seat, action) VALUES (?1, 0, 0, 0, '{}')", [b])
            .unwrap();
        let games = |conn: &Connection| -> i64 {
            conn.query_row("SELECT count(*) FROM games", [], |r| r.get(0)).unwrap()
        };
        let writes = [
            Write::Other(Box::new(|conn| insert_game(conn, &dna_game()))),
            Write::Append(a_move(b, 0)),
            Write::Append(a_move(a, 0)),
            Write::Other(Box::new(|conn| {
                insert_game(conn, &dna_game())?;
                Err(StoreError::Failed("refused after writing".into()))
            })),
        ];
        let results = commit_batch(&mut conn, &writes);
        assert!(matches!(results[0], Ok(id) if id == b + 1), "{:?}", results[0]);
        assert!(matches!(results[1], Err(ref e) if e.to_string().contains("UNIQUE")), "{:?}", results[1]);
        assert!(matches!(results[2], Ok(0)), "{:?}", results[2]);
        assert!(
            matches!(results[3], Err(StoreError::Failed(ref m)) if m.contains("refused")),
            "{:?}",
            results[3]
        );
        // The first write ran twice (the batch was written again) but
        // stored its game once; the failed one stored nothing.
        assert_eq!(games(&conn), 3);
        assert_eq!(store.game_version(a).await.unwrap(), Some(1));
        assert_eq!(store.game_version(b).await.unwrap(), Some(0));
        // In a batch written once (its appends succeed), a write that fails
        // after writing is undone all the same, and the rest commits.
        let refused = |conn: &Connection| {
            insert_game(conn, &dna_game())?;
            Err(StoreError::Failed("refused after writing".into()))
        };
        let writes = [Write::Other(Box::new(refused)), Write::Append(a_move(a, 1))];
        let results = commit_batch(&mut conn, &writes);
        assert!(matches!(results[0], Err(StoreError::Failed(_))), "{:?}", results[0]);
        assert!(matches!(results[1], Ok(0)), "{:?}", results[1]);
        assert_eq!(games(&conn), 3);
        assert_eq!(store.game_version(a).await.unwrap(), Some(2));
    }

    #[tokio::test]
    async fn after_a_failed_sync_nothing_more_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let (path, store, id) = one_game(dir.path()).await;
        let sync: SyncLog = Box::new(|| Err(SyncError::Sync(std::io::Error::other("the disk went away"))));
        let direct = Direct::open_with_sync(&path, Arc::default(), sync).unwrap();
        let first = direct.append(a_move(id, 0)).await;
        assert!(
            matches!(&first, Err(StoreError::Failed(m)) if m.contains("the disk went away")),
            "{first:?}"
        );
        let second = direct.append(a_move(id, 1)).await;
        assert!(matches!(&second, Err(StoreError::Failed(m)) if m.contains("restarted")), "{second:?}");
        // The first batch was committed before its sync failed; the second
        // was refused without writing.
        assert_eq!(store.game_version(id).await.unwrap(), Some(1));
        // Once broken, every append is refused, even one that would conflict.
        let stale = direct.append(a_move(id, 5)).await;
        assert!(matches!(&stale, Err(StoreError::Failed(m)) if m.contains("restarted")), "{stale:?}");
    }

    #[tokio::test]
    async fn a_log_that_cannot_be_opened_is_synced_later_and_breaks_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let (path, store, id) = one_game(dir.path()).await;
        // The first tries find no file descriptor free, as under a flood of
        // connections; then the sync works.
        let mut refusals = 3;
        let sync: SyncLog = Box::new(move || {
            if refusals > 0 {
                refusals -= 1;
                return Err(SyncError::Open(std::io::Error::from_raw_os_error(libc::EMFILE)));
            }
            Ok(())
        });
        let direct = Direct::open_with_sync(&path, Arc::default(), sync).unwrap();
        direct.append(a_move(id, 0)).await.expect("answered once the log could be synced");
        direct.append(a_move(id, 1)).await.expect("later appends are taken");
        assert_eq!(store.game_version(id).await.unwrap(), Some(2));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_batch_committed_during_a_sync_waits_for_a_sync_of_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let (path, store, id) = one_game(dir.path()).await;
        let (sync, in_sync, release) = held_sync();
        let direct = Direct::open_with_sync(&path, Arc::default(), sync).unwrap();
        let append = |version| {
            let direct = direct.clone();
            tokio::spawn(async move { direct.append(a_move(id, version)).await })
        };
        let wait_for_sync = || {
            let in_sync = &in_sync;
            move || in_sync.recv_timeout(Duration::from_secs(30)).expect("a batch is synced")
        };
        let first = append(0);
        tokio::task::block_in_place(wait_for_sync());
        // The second batch is committed while the first one's sync is held...
        let second = append(1);
        for _ in 0..300 {
            if store.game_version(id).await.unwrap() == Some(2) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(store.game_version(id).await.unwrap(), Some(2), "the second batch was not committed");
        // ...but no third one: that waits for the first sync to end.
        let third = append(2);
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(store.game_version(id).await.unwrap(), Some(2), "a third batch was committed");
        assert!(!first.is_finished() && !second.is_finished(), "answered before the sync");
        // The sync that was under way when the second batch was committed
        // does not answer it: the next one does.
        release.send(Ok(())).unwrap();
        first.await.unwrap().expect("the first append succeeds once synced");
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(
            !second.is_finished(),
            "the second append was answered by a sync that began before its commit"
        );
        tokio::task::block_in_place(wait_for_sync());
        // That sync may cover the third batch too, if it was committed by
        // the time the sync began: let it and any later one through.
        release.send(Ok(())).unwrap();
        release.send(Ok(())).unwrap();
        second.await.unwrap().expect("the second append succeeds once synced");
        third.await.unwrap().expect("the third append succeeds once synced");
        assert_eq!(store.game_version(id).await.unwrap(), Some(3));
    }

    #[tokio::test]
    async fn the_log_is_written_again_from_its_beginning_under_steady_appends() {
        let dir = tempfile::tempdir().unwrap();
        let (path, _store, id) = one_game(dir.path()).await;
        let direct = Direct::open_with_sync(&path, Arc::default(), Box::new(|| Ok(()))).unwrap();
        let page = 4096;
        // One commit per append, each writing a few pages: without
        // checkpoints that restart the log, it would hold every one of them.
        let appends = 3_000;
        for version in 0..appends {
            direct.append(a_move(id, version)).await.unwrap();
        }
        let log = std::fs::metadata(dir.path().join("t.db-wal")).unwrap().len();
        let bound = 3 * CHECKPOINT_FRAMES as u64 * page;
        assert!(log < bound, "the log holds {log} bytes after {appends} appends (bound {bound})");
    }
}
