//! The embedded store: one SQLite file in WAL mode, on rusqlite. Every
//! write goes through one connection's thread and its group commit, and
//! is answered only once the log is synced (see [`writer`]). A server
//! reads on connections of its own besides; a process that runs one
//! command reads on the writing connection too.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use rusqlite::{Connection, OpenFlags, OptionalExtension, Params, ToSql, params_from_iter};
use rusqlite_migration::{M, Migrations};
use serde::de::DeserializeOwned;
use tabula_model::{Event, Timestamp};
use tokio::sync::Semaphore;

use super::*;

mod backup;
mod writer;

pub use backup::{BackupSummary, backup};
use writer::{Append, Writer, apply_effects, insert_chat, insert_game, insert_outbox};

/// Connections a long-running process (the server, a worker) reads on.
const READERS: usize = 8;

/// Pages the writing connection caches (in KiB when negative, as SQLite
/// reads it): the summaries, seats and index pages of the games being played.
const CACHE_KIB: i64 = 16 * 1024;

/// The schema's migrations, in order; a database's `user_version` is how
/// many of them it has.
const MIGRATIONS: [&str; 7] = [
    include_str!("../../migrations/sqlite/0001_initial.sql"),
    include_str!("../../migrations/sqlite/0002_tokens_sessions.sql"),
    include_str!("../../migrations/sqlite/0003_tournaments.sql"),
    include_str!("../../migrations/sqlite/0004_mail_delivery.sql"),
    include_str!("../../migrations/sqlite/0005_outbox_done.sql"),
    include_str!("../../migrations/sqlite/0006_rate_limits.sql"),
    include_str!("../../migrations/sqlite/0007_bot_accounts.sql"),
];

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
    /// migrations, for a long-running process: reads that need not share
    /// the writer's cache go to connections of their own.
    pub async fn open(path: &Path) -> StoreResult<Self> {
        let mut store = Self::open_for_one_client(path).await?;
        store.readers = Some(Arc::new(Readers {
            path: path.to_owned(),
            idle: Mutex::default(),
            permits: Semaphore::new(READERS),
        }));
        Ok(store)
    }

    /// [`SqliteStore::open`] for a process that runs one command and exits
    /// (`tabula mail`, a CLI command): one connection does everything. It is
    /// left open at exit: every commit is durable already, and leaving the
    /// log for the next process spares a checkpoint and a log created anew.
    pub async fn open_for_one_client(path: &Path) -> StoreResult<Self> {
        let mut log = path.as_os_str().to_owned();
        log.push("-wal");
        let new_log = !Path::new(&log).exists();
        let mut conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(Duration::from_secs(30))?;
        // FULL until the migrations are done: each of them is durable
        // when it commits (the writer's thread then commits with NORMAL).
        conn.execute_batch(&format!(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; \
             PRAGMA cache_size = -{CACHE_KIB};"
        ))?;
        conn.set_prepared_statement_cache_capacity(32);
        migrate(&mut conn)?;
        Ok(SqliteStore { writer: Writer::start(conn, path, new_log)?, readers: None })
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

    /// The rows of `sql` with `args`, read as [`SqliteStore::read`] reads.
    async fn rows<T: DeserializeOwned + Send + 'static>(
        &self,
        sql: &'static str,
        args: Vec<Arg>,
    ) -> StoreResult<Vec<T>> {
        self.read(move |c| rows(c, sql, params_from_iter(args))).await
    }

    /// The first row of `sql` with `args`, if any.
    async fn row<T: DeserializeOwned + Send + 'static>(
        &self,
        sql: &'static str,
        args: Vec<Arg>,
    ) -> StoreResult<Option<T>> {
        Ok(self.rows(sql, args).await?.into_iter().next())
    }

    /// The rows of `sql` with `args`, read on the writer's connection: the
    /// reads of a move, and a challenge's, whose pages its cache holds.
    async fn rows_here<T: DeserializeOwned + Send + 'static>(
        &self,
        sql: impl AsRef<str> + Send + 'static,
        args: Vec<Arg>,
    ) -> StoreResult<Vec<T>> {
        self.writer.read(move |c| rows(c, sql.as_ref(), params_from_iter(args))).await
    }

    /// Run `sql` with `args` as a write of the group commit; the rows it changed.
    async fn execute(&self, sql: &'static str, args: Vec<Arg>) -> StoreResult<usize> {
        self.writer.write(move |c| Ok(c.prepare_cached(sql)?.execute(params_from_iter(&args))?)).await
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
    Migrations::new(MIGRATIONS.iter().map(|sql| M::up(sql)).collect()).to_latest(conn)?;
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
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(Duration::from_secs(30))?;
    // Reads map the file instead of copying each page out of the kernel
    // with a read() per page. The mapped pages a process has read count in
    // its resident size, so the map covers the first 32 MiB of the file only.
    conn.execute_batch("PRAGMA query_only = ON; PRAGMA mmap_size = 33554432;")?;
    conn.set_prepared_statement_cache_capacity(32);
    Ok(conn)
}

/// The rows of `sql` with `params`, mapped by column name onto `T`.
fn rows<T: DeserializeOwned>(c: &Connection, sql: &str, params: impl Params) -> StoreResult<Vec<T>> {
    let mut statement = c.prepare_cached(sql)?;
    let rows = serde_rusqlite::from_rows::<T>(statement.query(params)?);
    Ok(rows.collect::<Result<_, _>>()?)
}

/// A value bound to a statement run on another thread (owned, so that it
/// goes with the statement).
type Arg = Box<dyn ToSql + Send>;

/// The values of a statement, in order.
macro_rules! args {
    ($($value:expr),* $(,)?) => {
        vec![$(Box::new(($value).to_owned()) as Arg),*]
    };
}

/// Whether `e` is a unique or primary key that already exists.
fn is_taken(e: &StoreError) -> bool {
    matches!(e, StoreError::Sqlite(rusqlite::Error::SqliteFailure(f, _))
        if f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
            || f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE)
}

/// The columns of a game's summary, as [`GameSummary`] reads them.
macro_rules! summary {
    () => {
        "g.id, g.kind, g.players, g.status, g.moves, g.to_move, g.version, g.updated, g.result, g.next_clock"
    };
}

/// A game's summary columns, then a row per seat (`part` 0, with
/// `accepted` and `seat_result`) and per other subscriber (`part` 1),
/// each with its `reader` and that reader's `emails`, `notify` and
/// `signed_off`: what [`Games::game_head`] returns, in one statement.
const GAME_HEAD: &str = "SELECT g.id, g.kind, g.players, g.status, g.moves, g.to_move, g.version, \
     g.updated, g.result, g.next_clock, 0 AS part, p.seat, p.accepted, p.result AS seat_result, \
     p.user_id AS reader, u.emails, u.notify, u.signed_off, b.user_id IS NOT NULL AS bot FROM games g \
     LEFT JOIN game_players p ON p.game_id = g.id LEFT JOIN users u ON u.id = p.user_id \
     LEFT JOIN bot_accounts b ON b.user_id = p.user_id \
     WHERE g.id = ?1 \
     UNION ALL \
     SELECT g.id, g.kind, g.players, g.status, g.moves, g.to_move, g.version, g.updated, g.result, \
     g.next_clock, 1, NULL, NULL, NULL, s.user_id, u.emails, u.notify, u.signed_off, NULL FROM games g \
     JOIN subscriptions s ON s.game_id = g.id LEFT JOIN users u ON u.id = s.user_id \
     WHERE g.id = ?1 \
     ORDER BY part, seat, reader";

/// The columns of an outbox row, its message as one JSON object.
macro_rules! outbox {
    () => {
        "id, json_object('key', key, 'recipient', recipient, 'subject', subject, 'body', body, \
         'game_id', game_id) AS message, created, sent_at, attempts, last_error, gave_up_at"
    };
}

/// The statement of [`Games::games`] for `f`, selecting `columns` of
/// each game (`g`), and its values in order.
fn games_query(f: &GameFilter, columns: &str) -> (String, Vec<Arg>) {
    // CROSS JOIN keeps the seats as the outer loop.
    let json_each =
        |m: &str| format!("EXISTS (SELECT 1 FROM json_each(g.to_move) WHERE json_each.value = {m})");
    let (sql, values) = f.query(columns, |n| format!("?{n}"), "CROSS JOIN", json_each);
    let args = values.into_iter().map(|v| match v {
        Param::Text(text) => Box::new(text.to_owned()) as Arg,
        Param::Int(n) => Box::new(n),
    });
    (sql, args.collect())
}

impl SqliteStore {
    /// The games `sql` (from [`games_query`]) selects with `args`: a user's
    /// games (a challenge counts both players' running ones) on the
    /// writer's connection, whose cache is warm; a list over every game,
    /// which may scan thousands of rows, on a reading connection, so as not
    /// to hold up the commits behind it.
    async fn listed<T: DeserializeOwned + Send + 'static>(
        &self,
        f: &GameFilter,
        sql: String,
        args: Vec<Arg>,
    ) -> StoreResult<Vec<T>> {
        match f.seated_user() {
            Some(_) => self.rows_here(sql, args).await,
            None => self.read(move |c| rows(c, &sql, params_from_iter(args))).await,
        }
    }
}

#[async_trait]
impl Accounts for SqliteStore {
    async fn create_user_with(&self, u: &UserRow, effects: &[SideEffect], at: Timestamp) -> StoreResult<()> {
        let sql = "INSERT INTO users (id, password_hash, emails, created, notify, vacation_until, game_limit, \
                   challenge_policy, signed_off) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";
        let args = args![
            u.id,
            u.password_hash,
            json(&u.emails),
            u.created,
            u.notify,
            u.vacation_until,
            u.game_limit,
            u.challenge_policy,
            u.signed_off
        ];
        let effects = effects.to_vec();
        let created = self
            .writer
            .write(move |c| {
                c.prepare_cached(sql)?.execute(params_from_iter(&args))?;
                apply_effects(c, None, at, &effects)
            })
            .await;
        match created {
            Err(e) if is_taken(&e) => Err(StoreError::Exists),
            r => r,
        }
    }

    async fn user(&self, id: &str) -> StoreResult<Option<UserRow>> {
        Ok(self.rows_here("SELECT * FROM users WHERE id = ?1", args![id]).await?.into_iter().next())
    }

    async fn update_user_with(&self, u: &UserRow, effects: &[SideEffect], at: Timestamp) -> StoreResult<()> {
        let sql = "UPDATE users SET password_hash = ?1, emails = ?2, notify = ?3, vacation_until = ?4, \
                   game_limit = ?5, challenge_policy = ?6, signed_off = ?7 WHERE id = ?8";
        let args = args![
            u.password_hash,
            json(&u.emails),
            u.notify,
            u.vacation_until,
            u.game_limit,
            u.challenge_policy,
            u.signed_off,
            u.id
        ];
        let effects = effects.to_vec();
        self.writer
            .write(move |c| match c.prepare_cached(sql)?.execute(params_from_iter(&args))? {
                // Nothing else happens for an account that is not there.
                0 => Err(StoreError::NotFound),
                _ => apply_effects(c, None, at, &effects),
            })
            .await
    }

    async fn create_token(&self, user: &str, name: &str, hash: &str, now: Timestamp) -> StoreResult<i64> {
        let sql = "INSERT INTO tokens (hash, user_id, name, created) VALUES (?1, ?2, ?3, ?4) RETURNING id";
        let args = args![hash, user, name, now];
        self.writer
            .write(move |c| Ok(c.prepare_cached(sql)?.query_row(params_from_iter(&args), |r| r.get(0))?))
            .await
    }

    async fn token_account(
        &self,
        hash: &str,
        now: Timestamp,
    ) -> StoreResult<Option<(String, Option<UserRow>)>> {
        let hash_owned = hash.to_owned();
        let found = self
            .writer
            .read(move |c| {
                let sql = "SELECT user_id, last_used FROM tokens WHERE hash = ?1 AND revoked IS NULL";
                let Some((owner, last_used)) = rows::<(String, Option<i64>)>(c, sql, [&hash_owned])?.pop()
                else {
                    return Ok(None);
                };
                let account = rows::<UserRow>(c, "SELECT * FROM users WHERE id = ?1", [&owner])?.pop();
                Ok(Some((owner, last_used, account)))
            })
            .await?;
        let Some((owner, last_used, account)) = found else { return Ok(None) };
        if token_use_due(last_used, now) {
            let sql = "UPDATE tokens SET last_used = ?1 WHERE hash = ?2 AND revoked IS NULL";
            self.execute(sql, args![now, hash]).await?;
        }
        Ok(Some((owner, account)))
    }

    async fn tokens(&self, user: &str) -> StoreResult<Vec<TokenRow>> {
        self.rows("SELECT * FROM tokens WHERE user_id = ?1 ORDER BY id", args![user]).await
    }

    async fn revoke_token(&self, user: &str, id: i64, now: Timestamp) -> StoreResult<bool> {
        let sql = "UPDATE tokens SET revoked = ?1 WHERE id = ?2 AND user_id = ?3 AND revoked IS NULL";
        Ok(self.execute(sql, args![now, id, user]).await? > 0)
    }

    async fn create_session(
        &self,
        hash: &str,
        user: &str,
        csrf: &str,
        now: Timestamp,
        expires: Timestamp,
    ) -> StoreResult<()> {
        let sql = "INSERT INTO sessions (hash, user_id, csrf, created, expires) VALUES (?1, ?2, ?3, ?4, ?5)";
        self.execute(sql, args![hash, user, csrf, now, expires]).await.map(drop)
    }

    async fn session(&self, hash: &str, now: Timestamp) -> StoreResult<Option<SessionRow>> {
        let sql = "SELECT user_id, csrf, expires FROM sessions WHERE hash = ?1 AND expires > ?2";
        self.row(sql, args![hash, now]).await
    }

    async fn delete_session(&self, hash: &str) -> StoreResult<()> {
        self.execute("DELETE FROM sessions WHERE hash = ?1", args![hash]).await.map(drop)
    }

    async fn end_logins(&self, user: &str, now: Timestamp) -> StoreResult<()> {
        // One write of the group commit: both statements commit together.
        let user = user.to_owned();
        self.writer
            .write(move |c| {
                let sql = "UPDATE tokens SET revoked = ?1 WHERE user_id = ?2 AND revoked IS NULL";
                c.prepare_cached(sql)?.execute(rusqlite::params![now, user])?;
                c.prepare_cached("DELETE FROM sessions WHERE user_id = ?1")?.execute([&user])?;
                Ok(())
            })
            .await
    }

    async fn limit(&self, name: &str) -> StoreResult<Option<LimitCount>> {
        self.row("SELECT hits, last_at FROM rate_limits WHERE name = ?1", args![name]).await
    }

    async fn count_limit(
        &self,
        name: &str,
        now: Timestamp,
        forget_before: Timestamp,
    ) -> StoreResult<LimitCount> {
        let sql = "INSERT INTO rate_limits (name, hits, last_at) VALUES (?1, 1, ?2) ON CONFLICT (name) DO UPDATE \
                   SET hits = CASE WHEN rate_limits.last_at < ?3 THEN 1 ELSE rate_limits.hits + 1 END, \
                   last_at = ?2 RETURNING hits, last_at";
        let args = args![name, now, forget_before];
        self.writer
            .write(move |c| {
                let mut q = c.prepare_cached(sql)?;
                Ok(q.query_row(params_from_iter(&args), |r| {
                    Ok(LimitCount { hits: r.get(0)?, last_at: r.get(1)? })
                })?)
            })
            .await
    }

    async fn clear_limit(&self, name: &str) -> StoreResult<()> {
        self.execute("DELETE FROM rate_limits WHERE name = ?1", args![name]).await.map(drop)
    }

    async fn prune_limits(&self, before: Timestamp) -> StoreResult<u64> {
        Ok(self.execute("DELETE FROM rate_limits WHERE last_at < ?1", args![before]).await? as u64)
    }
}

#[async_trait]
impl Games for SqliteStore {
    async fn create_game_with(&self, g: &NewGame, effects: NewGameEffects) -> StoreResult<i64> {
        let g = g.clone();
        self.writer
            .write(move |c| {
                let id = insert_game(c, &g)?;
                apply_effects(c, Some(id), g.created, &effects(id))?;
                Ok(id)
            })
            .await
    }

    async fn game(&self, id: i64) -> StoreResult<Option<StoredGame>> {
        self.read(move |c| {
            // One snapshot for the summary, seats and events, so they agree
            // even while another connection appends.
            let tx = c.unchecked_transaction()?;
            let Some(row) = rows::<GameRow>(&tx, "SELECT * FROM games g WHERE id = ?1", [id])?.pop() else {
                return Ok(None);
            };
            let seats = "SELECT p.accepted, p.result, p.user_id, b.user_id IS NOT NULL AS bot FROM game_players p \
                         LEFT JOIN bot_accounts b ON b.user_id = p.user_id WHERE p.game_id = ?1 ORDER BY p.seat";
            let events = "SELECT at, seat, action FROM events WHERE game_id = ?1 ORDER BY seq";
            stored_game(row, rows(&tx, seats, [id])?, rows(&tx, events, [id])?).map(Some)
        })
        .await
    }

    async fn game_version(&self, id: i64) -> StoreResult<Option<i64>> {
        self.row("SELECT version FROM games WHERE id = ?1", args![id]).await
    }

    async fn game_head(&self, id: i64) -> StoreResult<Option<GameHead>> {
        self.writer
            .read(move |c| {
                let mut statement = c.prepare_cached(GAME_HEAD)?;
                let columns = serde_rusqlite::columns_from_statement(&statement);
                let mut rows = statement.query([id])?;
                let (mut summary, mut readers) = (None, Vec::new());
                while let Some(row) = rows.next()? {
                    if summary.is_none() {
                        summary = Some(serde_rusqlite::from_row_with_columns(row, &columns)?);
                    }
                    readers.push(serde_rusqlite::from_row_with_columns(row, &columns)?);
                }
                Ok(summary.map(|s| game_head(s, readers)))
            })
            .await
    }

    async fn append(
        &self,
        expected_version: i64,
        events: &[Event],
        summary: &GameSummary,
        effects: &[SideEffect],
    ) -> StoreResult<()> {
        let append = Append {
            expected_version,
            events: events.to_vec(),
            summary: summary.clone(),
            effects: effects.to_vec(),
        };
        self.writer.append(append).await
    }

    async fn set_acceptance(
        &self,
        id: i64,
        seat: usize,
        accepted: bool,
        status: GameStatus,
    ) -> StoreResult<()> {
        self.writer
            .write(move |c| {
                c.prepare_cached("UPDATE game_players SET accepted = ?1 WHERE game_id = ?2 AND seat = ?3")?
                    .execute((accepted, id, seat as i64))?;
                c.prepare_cached("UPDATE games SET status = ?1 WHERE id = ?2")?
                    .execute((status.as_str(), id))?;
                Ok(())
            })
            .await
    }

    async fn games(&self, f: &GameFilter) -> StoreResult<Vec<GameSummary>> {
        let (sql, args) = games_query(f, summary!());
        self.listed(f, sql, args).await
    }

    async fn count_games(&self, f: &GameFilter) -> StoreResult<usize> {
        let (inner, args) = games_query(f, "g.id");
        let count: Vec<i64> = self.listed(f, format!("SELECT COUNT(*) FROM ({inner})"), args).await?;
        Ok(count.first().copied().unwrap_or(0) as usize)
    }

    async fn finished(&self, kind: Option<&str>) -> StoreResult<Vec<GameSummary>> {
        let kind = kind.map(str::to_owned);
        self.read(move |c| {
            let tx = c.unchecked_transaction()?;
            let sql = concat!(
                "SELECT ",
                summary!(),
                " FROM games g WHERE status = 'finished' AND (?1 IS NULL OR kind = ?1) ORDER BY updated, id"
            );
            let mut games: Vec<GameSummary> = rows(&tx, sql, [&kind])?;
            for g in &mut games {
                let seats = "SELECT result FROM game_players WHERE game_id = ?1 ORDER BY seat";
                g.seat_results = rows(&tx, seats, [g.id])?;
            }
            Ok(games)
        })
        .await
    }

    async fn subscribe(&self, game: i64, user: &str, on: bool) -> StoreResult<()> {
        let sql = if on {
            "INSERT OR IGNORE INTO subscriptions (game_id, user_id) VALUES (?1, ?2)"
        } else {
            "DELETE FROM subscriptions WHERE game_id = ?1 AND user_id = ?2"
        };
        self.execute(sql, args![game, user]).await.map(drop)
    }

    async fn subscribers(&self, game: i64) -> StoreResult<Vec<String>> {
        self.rows("SELECT user_id FROM subscriptions WHERE game_id = ?1 ORDER BY user_id", args![game]).await
    }

    async fn queue_move(&self, game: i64, user: &str, text: &str, at: Timestamp) -> StoreResult<()> {
        let sql = "INSERT INTO queued_moves (game_id, user_id, move, created) VALUES (?1, ?2, ?3, ?4)";
        self.execute(sql, args![game, user, text, at]).await.map(drop)
    }

    async fn queued_moves(&self, game: i64) -> StoreResult<Vec<QueuedMove>> {
        let sql = "SELECT id, user_id, move FROM queued_moves WHERE game_id = ?1 ORDER BY id";
        self.rows(sql, args![game]).await
    }

    async fn set_pending(&self, game: i64, user: &str, text: &str, at: Timestamp) -> StoreResult<()> {
        let sql = "INSERT INTO pending_moves (game_id, user_id, move, created) VALUES (?1, ?2, ?3, ?4) \
                   ON CONFLICT (game_id, user_id) DO UPDATE SET move = excluded.move, created = excluded.created";
        self.execute(sql, args![game, user, text, at]).await.map(drop)
    }

    async fn pending(&self, game: i64, user: &str) -> StoreResult<Option<String>> {
        let sql = "SELECT move FROM pending_moves WHERE game_id = ?1 AND user_id = ?2";
        self.row(sql, args![game, user]).await
    }

    async fn chat(
        &self,
        game: i64,
        user: &str,
        at: Timestamp,
        text: &str,
        messages: &[OutboxMessage],
    ) -> StoreResult<()> {
        let (user, text, messages) = (user.to_string(), text.to_string(), messages.to_vec());
        self.writer
            .write(move |c| {
                insert_chat(c, game, &user, at, &text)?;
                messages.iter().try_for_each(|m| insert_outbox(c, m, at).map(drop))
            })
            .await
    }

    async fn chats(&self, game: i64) -> StoreResult<Vec<ChatRow>> {
        self.rows("SELECT user_id, at, text FROM chats WHERE game_id = ?1 ORDER BY id", args![game]).await
    }
}

#[async_trait]
impl Mail for SqliteStore {
    async fn enqueue(&self, messages: &[OutboxMessage], now: Timestamp) -> StoreResult<usize> {
        let messages = messages.to_vec();
        self.writer
            .write(move |c| messages.iter().try_fold(0, |queued, m| Ok(queued + insert_outbox(c, m, now)?)))
            .await
    }

    async fn outbox_due(&self, now: Timestamp, limit: i64) -> StoreResult<Vec<OutboxRow>> {
        const SQL: &str = concat!(
            "SELECT ",
            outbox!(),
            " FROM outbox WHERE sent_at IS NULL AND gave_up_at IS NULL AND next_attempt <= ?1 ORDER BY id LIMIT ?2"
        );
        self.rows(SQL, args![now, limit]).await
    }

    async fn claim_outbox(
        &self,
        now: Timestamp,
        lease_until: Timestamp,
        limit: i64,
    ) -> StoreResult<Vec<OutboxRow>> {
        const SQL: &str = concat!(
            "UPDATE outbox SET next_attempt = ?1 WHERE id IN (SELECT id FROM outbox WHERE sent_at IS NULL \
             AND gave_up_at IS NULL AND next_attempt <= ?2 ORDER BY id LIMIT ?3) RETURNING ",
            outbox!()
        );
        let args = args![lease_until, now, limit];
        let mut claimed: Vec<OutboxRow> =
            self.writer.write(move |c| rows(c, SQL, params_from_iter(&args))).await?;
        claimed.sort_by_key(|r| r.id);
        Ok(claimed)
    }

    async fn move_outbox_claim(
        &self,
        ids: &[i64],
        held_until: Timestamp,
        until: Timestamp,
    ) -> StoreResult<u64> {
        const SQL: &str = "UPDATE outbox SET next_attempt = ?1 WHERE id = ?2 AND next_attempt = ?3 \
                           AND sent_at IS NULL AND gave_up_at IS NULL";
        let ids = ids.to_vec();
        self.writer
            .write(move |c| {
                let mut statement = c.prepare_cached(SQL)?;
                ids.iter().try_fold(0u64, |moved, id| {
                    Ok(moved + statement.execute((until, id, held_until))? as u64)
                })
            })
            .await
    }

    async fn count_outbox_to(
        &self,
        recipient: &str,
        key_prefix: &str,
        subject_suffix: &str,
        since: Timestamp,
    ) -> StoreResult<i64> {
        // substr rather than LIKE: the prefix and suffix are matched as they are, wildcards and all.
        const SQL: &str = "SELECT COUNT(*) FROM outbox WHERE lower(recipient) = lower(?1) AND created >= ?2 \
                           AND substr(key, 1, length(?3)) = ?3 \
                           AND substr(subject, length(subject) - length(?4) + 1) = ?4";
        let args = args![recipient.to_string(), since, key_prefix.to_string(), subject_suffix.to_string()];
        self.read(move |c| Ok(c.query_row(SQL, params_from_iter(&args), |r| r.get(0))?)).await
    }

    async fn outbox(&self, limit: i64) -> StoreResult<Vec<OutboxRow>> {
        const SQL: &str = concat!("SELECT ", outbox!(), " FROM outbox ORDER BY id DESC LIMIT ?1");
        self.rows(SQL, args![limit]).await
    }

    async fn outbox_backlog(&self) -> StoreResult<(i64, Option<Timestamp>)> {
        const SQL: &str =
            "SELECT COUNT(*), MIN(created) FROM outbox WHERE sent_at IS NULL AND gave_up_at IS NULL";
        self.read(|c| Ok(c.query_row(SQL, [], |r| Ok((r.get(0)?, r.get(1)?)))?)).await
    }

    async fn outbox_sent(&self, id: i64, at: Timestamp) -> StoreResult<()> {
        let sql = "UPDATE outbox SET sent_at = ?1, attempts = attempts + 1 WHERE id = ?2 AND sent_at IS NULL";
        self.execute(sql, args![at, id]).await.map(drop)
    }

    async fn outbox_failed(&self, id: i64, error: &str, retry_at: Timestamp) -> StoreResult<()> {
        let sql =
            "UPDATE outbox SET attempts = attempts + 1, last_error = ?1, next_attempt = ?2 WHERE id = ?3";
        self.execute(sql, args![error, retry_at, id]).await.map(drop)
    }

    async fn outbox_gave_up(&self, id: i64, error: &str, at: Timestamp) -> StoreResult<()> {
        let sql = "UPDATE outbox SET attempts = attempts + 1, last_error = ?1, gave_up_at = ?2, next_attempt = ?3 \
                   WHERE id = ?4 AND sent_at IS NULL";
        self.execute(sql, args![error, at, i64::MAX, id]).await.map(drop)
    }

    async fn prune_outbox(&self, before: Timestamp) -> StoreResult<u64> {
        let sql = "DELETE FROM outbox WHERE (sent_at IS NOT NULL AND sent_at < ?1) \
                   OR (gave_up_at IS NOT NULL AND gave_up_at < ?1)";
        Ok(self.execute(sql, args![before]).await? as u64)
    }

    async fn claim_incoming(&self, key: &str, now: Timestamp, stale_before: Timestamp) -> StoreResult<bool> {
        let key = key.to_owned();
        self.writer
            .write(move |c| {
                let new = "INSERT OR IGNORE INTO incoming_mail (key, claimed) VALUES (?1, ?2)";
                let stale = "UPDATE incoming_mail SET claimed = ?2 WHERE key = ?1 AND done_at IS NULL AND claimed < ?3";
                Ok(c.prepare_cached(new)?.execute((&key, now))? == 1
                    || c.prepare_cached(stale)?.execute((&key, now, stale_before))? == 1)
            })
            .await
    }

    async fn incoming_done(&self, key: &str) -> StoreResult<bool> {
        const SQL: &str = "SELECT COUNT(*) FROM incoming_mail WHERE key = ?1 AND done_at IS NOT NULL";
        let args = args![key.to_string()];
        let done: i64 =
            self.read(move |c| Ok(c.query_row(SQL, params_from_iter(&args), |r| r.get(0))?)).await?;
        Ok(done > 0)
    }

    async fn finish_incoming(&self, key: &str, at: Timestamp) -> StoreResult<()> {
        let key = key.to_owned();
        self.writer
            .write(move |c| {
                writer::finish_incoming(c, &key, at)?;
                writer::release_held_notes(c, &key, at)
            })
            .await
    }

    async fn answer_incoming(&self, key: &str, reply: &OutboxMessage, at: Timestamp) -> StoreResult<()> {
        let (key, reply) = (key.to_owned(), reply.clone());
        self.writer
            .write(move |c| {
                writer::replace_held_outbox(c, &reply, at, at)?;
                writer::finish_incoming(c, &key, at)?;
                writer::release_held_notes(c, &key, at)
            })
            .await
    }
}

/// A tournament's columns, with its games finished so far.
macro_rules! tournament {
    () => {
        "SELECT t.*, (SELECT COUNT(*) FROM tournament_games g WHERE g.tournament_id = t.id) AS games_done \
         FROM tournaments t"
    };
}

#[async_trait]
impl Tournaments for SqliteStore {
    async fn open_tournament(
        &self,
        fingerprint: &str,
        game: &str,
        config: &str,
        now: Timestamp,
    ) -> StoreResult<i64> {
        let row = args![fingerprint, game, config, now];
        self.writer
            .write(move |c| {
                let sql = "INSERT OR IGNORE INTO tournaments (fingerprint, game, config, created) \
                           VALUES (?1, ?2, ?3, ?4)";
                c.prepare_cached(sql)?.execute(params_from_iter(&row))?;
                // The tournament is there now, whoever opened it first.
                let id = "SELECT id FROM tournaments WHERE fingerprint = ?1";
                Ok(c.prepare_cached(id)?.query_row([&row[0]], |r| r.get(0))?)
            })
            .await
    }

    async fn tournament_games(&self, id: i64) -> StoreResult<Vec<String>> {
        self.rows("SELECT result FROM tournament_games WHERE tournament_id = ?1 ORDER BY idx", args![id])
            .await
    }

    async fn save_tournament_game(&self, id: i64, index: i64, result: &str) -> StoreResult<()> {
        let sql = "INSERT OR REPLACE INTO tournament_games (tournament_id, idx, result) VALUES (?1, ?2, ?3)";
        self.execute(sql, args![id, index, result]).await.map(drop)
    }

    async fn finish_tournament(&self, id: i64, report: &str, now: Timestamp) -> StoreResult<()> {
        let sql = "UPDATE tournaments SET finished = ?1, report = ?2 WHERE id = ?3";
        self.execute(sql, args![now, report, id]).await.map(drop)
    }

    async fn tournaments(&self, limit: i64) -> StoreResult<Vec<TournamentRow>> {
        const SQL: &str = concat!(tournament!(), " ORDER BY id DESC LIMIT ?1");
        self.rows(SQL, args![limit]).await
    }

    async fn tournament(&self, id: i64) -> StoreResult<Option<TournamentRow>> {
        const SQL: &str = concat!(tournament!(), " WHERE id = ?1");
        self.row(SQL, args![id]).await
    }
}

#[async_trait]
impl Schedule for SqliteStore {
    async fn due_clocks(&self, now: Timestamp, limit: i64) -> StoreResult<Vec<i64>> {
        let sql = "SELECT id FROM games WHERE next_clock IS NOT NULL AND next_clock <= ?1 AND status = 'active' \
                   ORDER BY next_clock LIMIT ?2";
        self.rows(sql, args![now, limit]).await
    }
}

mod bots;
