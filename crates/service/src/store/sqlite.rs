//! The embedded store: one SQLite file in WAL mode, on rusqlite. Every
//! write goes through one connection's thread and its group commit, and
//! is answered only once the log is synced (see [`writer`]). A server
//! reads on connections of its own besides; a process that runs one
//! command reads on the writing connection too.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::types::ToSqlOutput;
use rusqlite::{Connection, OpenFlags, OptionalExtension, Params, ToSql, params_from_iter};
use rusqlite_migration::{M, Migrations};
use serde::de::DeserializeOwned;
use tokio::sync::Semaphore;

use super::*;

mod backup;
mod writer;

use super::games::{GAME, GAME_HEAD, HEAD_READER_COLUMNS};
pub use backup::{BackupSummary, backup};
use writer::Writer;

/// Connections a long-running process (the server, a worker) reads on.
const READERS: usize = 8;

/// How long a statement waits for another connection's lock.
pub(super) const BUSY_WAIT: Duration = Duration::from_secs(30);

/// Pages the writing connection caches (in KiB when negative, as SQLite
/// reads it): the summaries, seats and index pages of the games being played.
const CACHE_KIB: i64 = 16 * 1024;

/// The SQLite implementation of [`Store`].
#[derive(Clone, Debug)]
pub struct SqliteStore {
    writer: Writer,
    /// Connections for reads that need not share the writer's cache; `None`
    /// in a process that runs one command, whose few reads go to the writer.
    readers: Option<Arc<Readers>>,
}

impl SqliteStore {
    /// Open (creating if needed) the database file at `path` and run
    /// migrations. A long-running process (`Clients::Many`) reads on
    /// connections of its own besides the writer's, for the reads that need
    /// not share its cache. A process that runs one command and exits
    /// (`tabula mail`, a CLI command) does everything on one connection and
    /// leaves it open at exit: every commit is durable already, and leaving
    /// the log for the next process spares a checkpoint and a log created anew.
    pub async fn open(path: &Path, clients: Clients) -> StoreResult<Store> {
        let mut log = path.as_os_str().to_owned();
        log.push("-wal");
        let new_log = !Path::new(&log).exists();
        let mut conn = connection(path, OpenFlags::SQLITE_OPEN_CREATE, BUSY_WAIT)?;
        // FULL until the migrations are done: each of them is durable
        // when it commits (the writer's thread then commits with NORMAL).
        conn.execute_batch(&format!(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; \
             PRAGMA cache_size = -{CACHE_KIB};"
        ))?;
        migrate(&mut conn)?;
        let readers = (clients == Clients::Many).then(|| {
            Arc::new(Readers {
                path: path.to_owned(),
                idle: Mutex::default(),
                permits: Semaphore::new(READERS),
            })
        });
        let writer = Writer::start(conn, path, new_log)?;
        Ok(Store { db: Db::Sqlite(SqliteStore { writer, readers }) })
    }

    /// Run `read` on a reading connection (on the writer's in a process
    /// that runs one command).
    async fn read<T: Send + 'static>(
        &self,
        read: impl FnOnce(&Connection) -> StoreResult<T> + Send + 'static,
    ) -> StoreResult<T> {
        match &self.readers {
            Some(readers) => readers.read(read).await,
            None => self.writer.read(read).await,
        }
    }

    /// The rows of the statement `sql` with `values`, on the connection `on` names.
    pub(super) async fn rows<T: Row>(
        &self,
        on: On,
        sql: impl AsRef<str> + Send + 'static,
        values: Vec<Value>,
    ) -> StoreResult<Vec<T>> {
        let read = move |c: &Connection| rows(c, sql.as_ref(), params_from_iter(&values));
        match on {
            On::Reader => self.read(read).await,
            On::Writer => self.writer.read(read).await,
            On::Batch => self.writer.write(read).await,
        }
    }

    /// `statements` as one write of the group commit; the rows each
    /// changed, or `Conflict` (nothing written) if the first is `guarded`
    /// and changes no row.
    pub(super) async fn write(&self, statements: Vec<Statement>, guarded: bool) -> StoreResult<Vec<u64>> {
        self.writer.write(move |c| run_all(c, &statements, guarded)).await
    }

    /// `first`, which returns a new row's id, and the statements `then`
    /// makes of it as one write of the group commit; the id.
    pub(super) async fn write_new(&self, first: Statement, then: Then) -> StoreResult<i64> {
        self.writer.write(move |c| insert(c, &first, &then)).await
    }
}

/// Bring the schema up to date. Databases made before the store ran on
/// rusqlite recorded their migrations in sqlx's table rather than in
/// `user_version`; that record is carried over once.
fn migrate(conn: &mut Connection) -> StoreResult<()> {
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if version == 0 {
        let sqlx_table = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'";
        if conn.query_row(sqlx_table, [], |_| Ok(())).optional()?.is_some() {
            let done: i64 = conn.query_row(
                "SELECT COALESCE(MAX(version), 0) FROM _sqlx_migrations WHERE success",
                [],
                |r| r.get(0),
            )?;
            conn.pragma_update(None, "user_version", done)?;
        }
    }
    Migrations::new(MIGRATIONS.iter().map(|(_, sql, _)| M::up(sql)).collect()).to_latest(conn)?;
    Ok(())
}

/// Connections to read on, opened as needed and lent to one read at a time
/// on the blocking threads of the runtime.
#[derive(Debug)]
struct Readers {
    path: PathBuf,
    idle: Mutex<Vec<Connection>>,
    permits: Semaphore,
}

impl Readers {
    async fn read<T: Send + 'static>(
        &self,
        read: impl FnOnce(&Connection) -> StoreResult<T> + Send + 'static,
    ) -> StoreResult<T> {
        let _permit =
            self.permits.acquire().await.map_err(|_| StoreError::Failed("the store is closed".into()))?;
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let path = self.path.clone();
        let run = move || -> StoreResult<_> {
            let conn = match idle {
                Some(conn) => conn,
                None => open_reader(&path)?,
            };
            let answer = read(&conn);
            Ok((conn, answer))
        };
        let (conn, answer) = tokio::task::spawn_blocking(run)
            .await
            .map_err(|e| StoreError::Failed(format!("a read stopped: {e}")))??;
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).push(conn);
        answer
    }
}

fn open_reader(path: &Path) -> StoreResult<Connection> {
    let conn = connection(path, OpenFlags::empty(), BUSY_WAIT)?;
    // The file is read, not mapped: a page mapped by several connections
    // counts in the resident size once for each of them, and the reads
    // left here (a game's record to replay, lists over many games) are too
    // few for the copies a map spares to matter.
    conn.execute_batch("PRAGMA query_only = ON;")?;
    Ok(conn)
}

/// A connection to the database at `path` (`flags` besides read-write),
/// whose statements wait up to `busy` for another connection's lock.
pub(super) fn connection(path: &Path, flags: OpenFlags, busy: Duration) -> rusqlite::Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX | flags;
    let conn = Connection::open_with_flags(path, flags)?;
    conn.busy_timeout(busy)?;
    conn.set_prepared_statement_cache_capacity(32);
    Ok(conn)
}

/// The rows of `sql` with `params`, mapped by column name onto `T`.
fn rows<T: DeserializeOwned>(c: &Connection, sql: &str, params: impl Params) -> StoreResult<Vec<T>> {
    let mut statement = c.prepare_cached(sql)?;
    let rows = serde_rusqlite::from_rows::<T>(statement.query(params)?);
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Run `statements` in the transaction of a write; the rows each changed,
/// or `Conflict` (nothing written) if the first is `guarded` and changes no row.
fn run_all(c: &Connection, statements: &[Statement], guarded: bool) -> StoreResult<Vec<u64>> {
    let mut changed = Vec::with_capacity(statements.len());
    for (sql, values) in statements {
        changed.push(c.prepare_cached(sql)?.execute(params_from_iter(values))? as u64);
        if guarded && changed == [0] {
            return Err(StoreError::Conflict);
        }
    }
    Ok(changed)
}

/// Run `first`, which returns a new row's id, then the statements `then`
/// makes of it, in the transaction of a write; the id.
fn insert(c: &Connection, (sql, values): &Statement, then: &Then) -> StoreResult<i64> {
    let id = c.prepare_cached(sql)?.query_row(params_from_iter(values), |r| r.get(0))?;
    run_all(c, &then(id)?, false)?;
    Ok(id)
}

impl ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        match self {
            Value::Int(v) => v.to_sql(),
            Value::Text(v) => v.to_sql(),
        }
    }
}

// What SQLite reads or writes otherwise than PostgreSQL.
impl SqliteStore {
    /// A token's owner, when it was last used, and the owner's account.
    pub(super) async fn token_owner(
        &self,
        hash: &str,
    ) -> StoreResult<Option<(String, Option<i64>, Option<UserRow>)>> {
        let hash = hash.to_owned();
        self.writer
            .read(move |c| {
                let sql = "SELECT user_id, last_used FROM tokens WHERE hash = ?1 AND revoked IS NULL";
                let Some((owner, last_used)) = rows::<(String, Option<i64>)>(c, sql, [&hash])?.pop() else {
                    return Ok(None);
                };
                let account = rows::<UserRow>(c, "SELECT * FROM users WHERE id = ?1", [&owner])?.pop();
                Ok(Some((owner, last_used, account)))
            })
            .await
    }

    pub(super) async fn game(&self, id: i64) -> StoreResult<Option<StoredGame>> {
        self.read(move |c| {
            // One snapshot for the summary, seats and events, so they agree
            // even while another connection appends.
            let tx = c.unchecked_transaction()?;
            let [game, seats, events] = GAME;
            let Some(row) = rows::<GameRow>(&tx, game, [id])?.pop() else { return Ok(None) };
            stored_game(row, rows(&tx, seats, [id])?, rows(&tx, events, [id])?).map(Some)
        })
        .await
    }

    pub(super) async fn game_head(&self, id: i64) -> StoreResult<Option<GameHead>> {
        self.writer
            .read(move |c| {
                let mut statement = c.prepare_cached(GAME_HEAD)?;
                let columns = serde_rusqlite::columns_from_statement(&statement);
                // A reader from its own columns: each column a struct is read
                // from is visited, even one it has no field for.
                let reader_columns = &columns[..HEAD_READER_COLUMNS];
                let mut rows = statement.query([id])?;
                let (mut summary, mut readers) = (None, Vec::new());
                while let Some(row) = rows.next()? {
                    if summary.is_none() {
                        summary = Some(serde_rusqlite::from_row_with_columns(row, &columns)?);
                    }
                    readers.push(serde_rusqlite::from_row_with_columns(row, reader_columns)?);
                }
                Ok(summary.map(|s| game_head(s, readers)))
            })
            .await
    }
}
