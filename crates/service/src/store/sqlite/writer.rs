//! The store's writing connection, on a thread of its own: every write of
//! the process goes through it in batches (the group commit: many writers'
//! moves in one transaction, made durable by one fsync), and so do the reads
//! of a move's hot path, which find its page cache warm (another
//! connection's cache is thrown away at every commit in WAL mode).
//!
//! Each batch commits with `synchronous = NORMAL`; a second thread then
//! syncs the log and only then answers the batch's callers, so a write is
//! acknowledged only once durable, while reads (and the next batch's
//! commit) go on during the fsync. A failed write is rolled back to its
//! savepoint alone. Checkpoints run on a third thread, so that no commit
//! waits for the database file's fsync. The measurements behind each of
//! these choices are in docs/benchmarks/server.md.

use std::any::Any;
use std::cell::LazyCell;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};
use tokio::sync::{Mutex, oneshot};

use crate::store::{StoreError, StoreResult};

/// Most writes committed in one transaction.
const MAX_BATCH: usize = 256;

/// Most batches committed and not yet answered.
const MAX_IN_FLIGHT: usize = 2;

/// Frames in the log after which a commit wakes the checkpoint thread
/// (SQLite's own default for its automatic checkpoint).
const CHECKPOINT_FRAMES: i32 = 1000;

/// How long a checkpoint that restarts the log waits for readers.
const CHECKPOINT_WAIT: Duration = Duration::from_millis(20);

/// Most jobs taken from the queue before the writes among them are
/// committed: a steady stream of reads must not hold a batch back.
const MAX_JOBS_PER_ROUND: usize = 4 * MAX_BATCH;

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

/// What a write answers its caller, whatever its type.
type Value = Box<dyn Any + Send>;

/// One write of a batch, run in the batch's transaction. `Fn` rather than
/// `FnOnce`: a batch that has to be written again (see [`commit_batch`])
/// runs it again.
type Write = Box<dyn Fn(&Connection) -> StoreResult<Value> + Send>;

/// Where a write's answer goes.
type Done = oneshot::Sender<StoreResult<Value>>;

/// A caller waiting for its write, and the write's result.
type Answer = (Done, StoreResult<Value>);

enum Job {
    Read(Read),
    Write(Write, Done),
    /// This many batches handed to the sync thread are durable and answered.
    Synced(usize),
    /// The last handle is gone.
    Stop,
}

/// The handle of the connection's thread; the thread ends (closing the
/// connection) when the last handle is dropped.
#[derive(Clone, Debug)]
pub(super) struct Writer {
    jobs: Arc<Jobs>,
}

/// The queue of the connection's thread. The sync thread holds a sender
/// too (to say a batch is synced), so the queue cannot end by losing its
/// senders: the last handle's drop tells the thread to stop.
#[derive(Debug)]
struct Jobs(mpsc::Sender<Job>);

impl Drop for Jobs {
    fn drop(&mut self) {
        let _ = self.0.send(Job::Stop);
    }
}

fn gone() -> StoreError {
    StoreError::Failed("the database connection's thread stopped before answering".into())
}

/// A helper thread of the connection's thread, started the first time it
/// is needed: a process that only reads (a `show` from the command line)
/// starts neither the sync thread nor the checkpoint thread.
type OnDemand<T> = LazyCell<StoreResult<T>, Box<dyn FnOnce() -> StoreResult<T> + Send>>;

impl Writer {
    /// Start the thread of `conn`, a connection to the (migrated) database
    /// at `path` whose log `new_log` says was created by this process.
    pub fn start(conn: Connection, path: &Path, new_log: bool) -> StoreResult<Writer> {
        Self::start_with_sync(conn, path, sync_log_file(path, new_log))
    }

    /// [`Writer::start`] with `sync` as what makes commits durable.
    fn start_with_sync(conn: Connection, path: &Path, sync: SyncLog) -> StoreResult<Writer> {
        // NORMAL: the commit writes the log without an fsync; the sync
        // thread makes it durable before anyone is answered.
        conn.execute_batch("PRAGMA synchronous = NORMAL")?;
        // This connection's commits no longer checkpoint (the hook replaces
        // SQLite's automatic checkpoint); the checkpoint thread does.
        conn.wal_hook(Some(note_log_frames));
        // Taken by every batch, and by the checkpoint that lets the log
        // start again, which must see no commit while it waits for readers.
        let writing = Arc::new(Mutex::new(()));
        let checkpoints: OnDemand<_> = LazyCell::new(Box::new({
            let (path, writing) = (path.to_owned(), writing.clone());
            move || start_checkpoints(&path, writing)
        }));
        let broken = Arc::new(OnceLock::new());
        let (jobs, queue) = mpsc::channel();
        let (sync_broken, sync_jobs) = (broken.clone(), jobs.clone());
        let to_sync: OnDemand<_> = LazyCell::new(Box::new(move || {
            let (to_sync, synced) = mpsc::channel();
            std::thread::Builder::new()
                .name("tabula-wal-sync".into())
                .spawn(move || run_syncs(synced, sync, &sync_broken, &sync_jobs))
                .map_err(|e| StoreError::Failed(format!("cannot start the log's sync thread: {e}")))?;
            Ok(to_sync)
        }));
        std::thread::Builder::new()
            .name("tabula-sqlite".into())
            .spawn(move || run(conn, queue, &writing, to_sync, &broken, checkpoints))
            .map_err(|e| StoreError::Failed(format!("cannot start the database thread: {e}")))?;
        Ok(Writer { jobs: Arc::new(Jobs(jobs)) })
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

    /// Run `write` in the next batch's transaction (see [`Write`]) and
    /// return its value once the commit is durable.
    pub async fn write<T: Send + 'static>(
        &self,
        write: impl Fn(&Connection) -> StoreResult<T> + Send + 'static,
    ) -> StoreResult<T> {
        let (done, answer) = oneshot::channel();
        let write: Write = Box::new(move |c| Ok(Box::new(write(c)?)));
        self.jobs.0.send(Job::Write(write, done)).map_err(|_| gone())?;
        let value = answer.await.map_err(|_| gone())??;
        value.downcast().map(|v| *v).map_err(|_| StoreError::Failed("a write answered the wrong type".into()))
    }
}

/// Syncs the log file of the database at `db` (`db-wal`). The file is
/// opened once and kept: SQLite removes (and later makes anew) the log only
/// when its last connection closes, and the writing connection stays open as
/// long as this sync is used; and an open needs a free file descriptor,
/// which a flood of connections can take for a while. If this process
/// created the log (`new_log`), the first sync also syncs the directory, so
/// that the log's name is on the disk with its frames (as SQLite does for a
/// log it creates).
fn sync_log_file(db: &Path, new_log: bool) -> SyncLog {
    let mut log = db.as_os_str().to_owned();
    log.push("-wal");
    let log = PathBuf::from(log);
    let mut dir = new_log
        .then(|| db.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_owned());
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
        file.as_ref().map_or(Ok(()), |f| f.sync_data().map_err(SyncError::Sync))?;
        if let Some(d) = &dir {
            let synced = std::fs::File::open(d).and_then(|d| d.sync_all());
            synced.map_err(SyncError::Sync)?;
            dir = None;
        }
        Ok(())
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
/// it may commit the next batch. After a failed sync nothing is known to be
/// durable any more (the kernel may have dropped the pages it could not
/// write, and a later sync can succeed without them), so the store refuses
/// every later write until the process is restarted.
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
        let started = std::time::Instant::now();
        let synced = if broken.get().is_none() { Some(sync_until_done(&mut sync)) } else { None };
        if let Some(metrics) = crate::metrics::kept() {
            metrics.commit_batch_size.observe(answers.len() as f64);
            metrics.commit_batch_seconds.observe(started.elapsed().as_secs_f64());
        }
        if let Some(Err(e)) = synced {
            tracing::error!(error = %e, "syncing the database's log failed: writes are refused until a restart");
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
    writing: &Mutex<()>,
    to_sync: OnDemand<mpsc::Sender<Vec<Answer>>>,
    broken: &OnceLock<String>,
    checkpoints: OnDemand<mpsc::SyncSender<()>>,
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
                Job::Write(write, done) => writes.push((write, done)),
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
                let _writing = writing.blocking_lock();
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
            match LazyCell::force(&checkpoints) {
                Ok(wake) => drop(wake.try_send(())),
                Err(e) => tracing::warn!(error = %e, "cannot checkpoint the database's log"),
            }
        }
        if answers.iter().any(|(_, r)| r.is_ok()) {
            // The sync thread answers once the commit is durable, then
            // tells this thread; it is gone only if it panicked, and then
            // nothing is known durable.
            let sent = match LazyCell::force(&to_sync) {
                Ok(to_sync) => {
                    to_sync.send(answers).map_err(|mpsc::SendError(a)| (a, "the sync thread stopped".into()))
                }
                Err(e) => Err((answers, e.to_string())),
            };
            match sent {
                Ok(()) => in_flight += 1,
                Err((answers, why)) => {
                    for (done, result) in answers {
                        let _ = done.send(result.and(Err(not_durable(&why))));
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

/// Starts the checkpoint thread, which opens a connection of its own when
/// first woken (a process that writes little never needs it); waking it
/// (through the returned sender) makes it copy the log into the database
/// file. Its connection closes when the sender is dropped.
fn start_checkpoints(path: &Path, writing: Arc<Mutex<()>>) -> StoreResult<mpsc::SyncSender<()>> {
    let (wake, woken) = mpsc::sync_channel(1);
    let path = path.to_owned();
    std::thread::Builder::new()
        .name("tabula-checkpoint".into())
        .spawn(move || {
            if woken.recv().is_err() {
                return;
            }
            match open_checkpointer(&path) {
                Ok(conn) => run_checkpoints(&conn, &woken, &writing),
                Err(e) => tracing::warn!(error = %e, "cannot open the checkpoint connection"),
            }
        })
        .map_err(|e| StoreError::Failed(format!("cannot start the checkpoint thread: {e}")))?;
    Ok(wake)
}

fn open_checkpointer(path: &Path) -> rusqlite::Result<Connection> {
    // How long a restart checkpoint waits for readers, commits held: a
    // reader that takes longer only puts the restart off to the next one.
    let conn = super::connection(path, OpenFlags::empty(), CHECKPOINT_WAIT)?;
    // FULL: the checkpoint syncs the log before it copies frames into the
    // database file, and the file after.
    conn.execute_batch("PRAGMA synchronous = FULL; PRAGMA wal_autocheckpoint = 0;")?;
    Ok(conn)
}

/// The checkpoint thread, woken once already. Each wake-up copies the log
/// into the database file while commits go on (a passive checkpoint). Then,
/// with commits held, it copies the frames committed meanwhile and waits
/// for the readers still reading from the log to finish (a restart
/// checkpoint): that is short, and it lets the next commit write the log
/// again from its beginning. Without that second step a steady load would
/// leave no moment for SQLite to start the log again, and it would grow
/// without end.
fn run_checkpoints(conn: &Connection, woken: &mpsc::Receiver<()>, writing: &Mutex<()>) {
    loop {
        let done = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())).and_then(|()| {
            let _writing = writing.blocking_lock();
            conn.query_row("PRAGMA wal_checkpoint(RESTART)", [], |_| Ok(()))
        });
        if let Err(e) = done {
            tracing::warn!(error = %e, "checkpointing the database's log failed");
        }
        if woken.recv().is_err() {
            return;
        }
    }
}

fn failed(why: impl std::fmt::Display) -> StoreError {
    StoreError::Failed(format!("the group commit failed: {why}"))
}

/// One transaction for all of `writes`; the answer of each.
///
/// Most writes succeed, and an append's version conflict is found by its
/// first statement, before it wrote anything; so the batch is first written
/// without savepoints (whose copies of every page an append touches cost
/// more than the rest of its statements). Only if a write fails in any other
/// way, part way through, is the batch rolled back and written again with
/// each write in a savepoint of its own, so that the others still commit.
fn commit_batch(conn: &mut Connection, writes: &[Write]) -> Vec<StoreResult<Value>> {
    match write_batch(conn, writes, false) {
        Some(results) => results,
        // With savepoints there is always an answer.
        None => write_batch(conn, writes, true).unwrap_or_else(|| {
            writes.iter().map(|_| Err(failed("a write failed outside its savepoint"))).collect()
        }),
    }
}

/// Write and commit one batch; `None` only when, without `isolate`, a write
/// failed other than by a conflict (the transaction is then rolled back).
fn write_batch(conn: &mut Connection, writes: &[Write], isolate: bool) -> Option<Vec<StoreResult<Value>>> {
    let all_fail = |e: rusqlite::Error| Some(writes.iter().map(|_| Err(failed(&e))).collect());
    let tx = match conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate) {
        Ok(tx) => tx,
        Err(e) => return all_fail(e),
    };
    let mut results = Vec::with_capacity(writes.len());
    // Two appends to one game in a batch are checked in order: the second
    // sees the first's version, as it would one commit later.
    for write in writes {
        if isolate && let Err(e) = tx.execute_batch("SAVEPOINT one_write") {
            return all_fail(e);
        }
        let result = write(&tx);
        let end = match (isolate, &result) {
            (false, Ok(_) | Err(StoreError::Conflict)) => Ok(()),
            (false, Err(_)) => {
                let _ = tx.rollback();
                return None;
            }
            (true, Ok(_)) => tx.execute_batch("RELEASE one_write"),
            (true, Err(_)) => tx.execute_batch("ROLLBACK TO one_write; RELEASE one_write"),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::games::{append, new_game, new_seats};
    use crate::store::sqlite::{SqliteStore, insert, run_all};
    use crate::store::{GameStatus, GameSummary, NewGame, Statement, Store};
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
    async fn one_game(dir: &Path) -> (PathBuf, Store, i64) {
        let path = dir.join("t.db");
        let store = SqliteStore::open(&path, crate::store::Clients::One).await.unwrap();
        let id = store.create_game(&dna_game(), Box::new(|_| Vec::new())).await.unwrap();
        (path, store, id)
    }

    /// The version of the game `id`, if it is there (read from its summary
    /// alone: one test leaves a stray event behind).
    async fn version(store: &Store, id: i64) -> Option<i64> {
        store.game_head(id).await.unwrap().map(|g| g.summary.version)
    }

    /// A second writer on the database at `path`, whose commits `sync` makes durable.
    fn writer(path: &Path, sync: SyncLog) -> Writer {
        Writer::start_with_sync(Connection::open(path).unwrap(), path, sync).unwrap()
    }

    /// Store a new DNA game and its seats in a batch's transaction; its id.
    fn insert_game(conn: &Connection) -> StoreResult<i64> {
        let g = dna_game();
        insert(conn, &new_game(&g), &(Box::new(move |id| Ok(new_seats(id, &g).into_iter().collect())) as _))
    }

    /// The statements of an append as a write of a batch.
    fn appending(statements: Vec<Statement>) -> Write {
        Box::new(move |conn| Ok(Box::new(run_all(conn, &statements, true)?)))
    }

    /// Commit the statements of an append and return once it is durable.
    async fn append_on(writer: &Writer, statements: Vec<Statement>) -> StoreResult<()> {
        writer.write(move |conn| run_all(conn, &statements, true).map(drop)).await
    }

    /// The statements of move `version + 1` of the game `id`.
    fn a_move(id: i64, version: i64) -> Vec<Statement> {
        let seat = (version % 2) as usize;
        let event = Event { at: T0 + version, seat: Some(seat), action: EventAction::Move("AAG".into()) };
        let summary = GameSummary {
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
        };
        append(version, &[event], &summary, &[]).unwrap()
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
    async fn a_write_is_answered_only_once_the_log_is_synced() {
        let dir = tempfile::tempdir().unwrap();
        let (path, store, id) = one_game(dir.path()).await;
        let (sync, in_sync, release) = held_sync();
        let writer = writer(&path, sync);
        let moving = tokio::spawn({
            let writer = writer.clone();
            async move { append_on(&writer, a_move(id, 0)).await }
        });
        sync_begun(in_sync).await;
        // Committed and visible, but its caller waits for the sync.
        assert_eq!(version(&store, id).await, Some(1));
        answered_once_released(moving, &release, "the append").await;
        // A later batch waits for a sync of its own, and its write's value
        // (the new game's id) comes back with the answer.
        let creating = tokio::spawn({
            let writer = writer.clone();
            async move { writer.write(insert_game).await }
        });
        let created = answered_once_released(creating, &release, "the game's write").await;
        assert_eq!(created, id + 1);
        let game = store.game(created).await.unwrap().expect("the new game is there");
        assert_eq!((game.initial_players, game.accepted), (dna_game().players, vec![true, true]));
    }

    #[tokio::test]
    async fn a_failed_write_or_append_leaves_the_rest_of_its_batch() {
        let dir = tempfile::tempdir().unwrap();
        let (path, store, a) = one_game(dir.path()).await;
        let b = store.create_game(&dna_game(), Box::new(|_| Vec::new())).await.unwrap();
        let mut conn = Connection::open(&path).unwrap();
        // A stray event where b's first move goes: that append fails after
        // its first statement wrote, so the whole batch is written again,
        // each write in a savepoint.
        conn.execute("INSERT INTO events (game_id, seq, at, seat, action) VALUES (?1, 0, 0, 0, '{}')", [b])
            .unwrap();
        let games = |conn: &Connection| -> i64 {
            conn.query_row("SELECT count(*) FROM games", [], |r| r.get(0)).unwrap()
        };
        let writes: [Write; 4] = [
            Box::new(|conn: &Connection| Ok(Box::new(insert_game(conn)?) as Value)),
            appending(a_move(b, 0)),
            appending(a_move(a, 0)),
            Box::new(|conn: &Connection| {
                insert_game(conn)?;
                Err(StoreError::Failed("refused after writing".into()))
            }),
        ];
        let id = |r: &StoreResult<Value>| r.as_ref().ok().and_then(|v| v.downcast_ref::<i64>().copied());
        let results = commit_batch(&mut conn, &writes);
        assert_eq!(id(&results[0]), Some(b + 1), "{:?}", results[0]);
        assert!(matches!(results[1], Err(ref e) if e.to_string().contains("UNIQUE")), "{:?}", results[1]);
        assert!(results[2].is_ok(), "{:?}", results[2]);
        assert!(
            matches!(results[3], Err(StoreError::Failed(ref m)) if m.contains("refused")),
            "{:?}",
            results[3]
        );
        // The first write ran twice (the batch was written again) but
        // stored its game once; the failed one stored nothing.
        assert_eq!(games(&conn), 3);
        assert_eq!(version(&store, a).await, Some(1));
        assert_eq!(version(&store, b).await, Some(0));
        // In a batch written once (its appends succeed), a write that fails
        // after writing is undone all the same, and the rest commits.
        let refused = |conn: &Connection| -> StoreResult<Value> {
            insert_game(conn)?;
            Err(StoreError::Failed("refused after writing".into()))
        };
        let writes: [Write; 2] = [Box::new(refused), appending(a_move(a, 1))];
        let results = commit_batch(&mut conn, &writes);
        assert!(matches!(results[0], Err(StoreError::Failed(_))), "{:?}", results[0]);
        assert!(results[1].is_ok(), "{:?}", results[1]);
        assert_eq!(games(&conn), 3);
        assert_eq!(version(&store, a).await, Some(2));
    }

    #[tokio::test]
    async fn after_a_failed_sync_nothing_more_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let (path, store, id) = one_game(dir.path()).await;
        let sync: SyncLog = Box::new(|| Err(SyncError::Sync(std::io::Error::other("the disk went away"))));
        let writer = writer(&path, sync);
        let first = append_on(&writer, a_move(id, 0)).await;
        assert!(
            matches!(&first, Err(StoreError::Failed(m)) if m.contains("the disk went away")),
            "{first:?}"
        );
        let second = append_on(&writer, a_move(id, 1)).await;
        assert!(matches!(&second, Err(StoreError::Failed(m)) if m.contains("restarted")), "{second:?}");
        // The first batch was committed before its sync failed; the second
        // was refused without writing.
        assert_eq!(version(&store, id).await, Some(1));
        // Once broken, every append is refused, even one that would conflict.
        let stale = append_on(&writer, a_move(id, 5)).await;
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
        let writer = writer(&path, sync);
        append_on(&writer, a_move(id, 0)).await.expect("answered once the log could be synced");
        append_on(&writer, a_move(id, 1)).await.expect("later appends are taken");
        assert_eq!(version(&store, id).await, Some(2));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_batch_committed_during_a_sync_waits_for_a_sync_of_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let (path, store, id) = one_game(dir.path()).await;
        let (sync, in_sync, release) = held_sync();
        let writer = writer(&path, sync);
        let append = |version| {
            let writer = writer.clone();
            tokio::spawn(async move { append_on(&writer, a_move(id, version)).await })
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
            if version(&store, id).await == Some(2) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(version(&store, id).await, Some(2), "the second batch was not committed");
        // ...but no third one: that waits for the first sync to end.
        let third = append(2);
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(version(&store, id).await, Some(2), "a third batch was committed");
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
        assert_eq!(version(&store, id).await, Some(3));
    }

    #[tokio::test]
    async fn the_log_is_written_again_from_its_beginning_under_steady_appends() {
        let dir = tempfile::tempdir().unwrap();
        let (path, _store, id) = one_game(dir.path()).await;
        // The log synced as in a server: with no sync at all, appends came
        // faster than any checkpoint could copy them on a busy disk.
        let writer = writer(&path, sync_log_file(&path, false));
        let page = 4096;
        // One commit per append, each writing a few pages: without
        // checkpoints that restart the log, it would hold every one of them.
        let appends = 1_500;
        for version in 0..appends {
            append_on(&writer, a_move(id, version)).await.unwrap();
        }
        let log = std::fs::metadata(dir.path().join("t.db-wal")).unwrap().len();
        let bound = 3 * CHECKPOINT_FRAMES as u64 * page;
        assert!(log < bound, "the log holds {log} bytes after {appends} appends (bound {bound})");
    }
}
