//! The shared store: one PostgreSQL database behind any number of Tabula
//! processes, on sqlx. Appends are checked against the game's version inside
//! their transaction (a row lock, so the second of two concurrent appends
//! sees the first's version and fails with `Conflict`), and a commit returns
//! only once PostgreSQL has made it durable (`synchronous_commit` as
//! configured, `on` by default). Each committed change to a game is
//! announced with NOTIFY in the same transaction, so other processes hear of
//! it exactly when it becomes visible.

use std::str::FromStr;
use std::time::Duration;

use serde::de::value::{Error as DeError, MapDeserializer, SeqDeserializer};
use serde::de::{DeserializeOwned, Deserializer, Error as _, IntoDeserializer, Visitor};
use serde::forward_to_deserialize_any;
use sqlx::pool::PoolConnection;
use sqlx::postgres::PgRow;
use sqlx::{Arguments, AssertSqlSafe, Column, Executor, PgConnection, PgPool, Postgres, TypeInfo, ValueRef};
use sqlx_core::migrate::{Migration, MigrationType, Migrator};
use sqlx_core::sql_str::SqlStr;
use sqlx_postgres::{PgArguments, PgConnectOptions, PgListener, PgPoolOptions, PgValueRef};
use tabula_model::Timestamp;

use super::games::{GAME, GAME_HEAD};
use super::*;

/// Most connections one process keeps open.
const MAX_CONNECTIONS: u32 = 16;
/// Changes from other processes waiting to be handed on at most; beyond
/// that the oldest are dropped (listeners refetch anyway).
const CHANGE_BUFFER: usize = 4096;
/// Advisory lock namespaces (the high bits of the 64-bit key).
const LOCK_CLOCK: i64 = 1 << 56;
const LOCK_LIMITS: i64 = 2 << 56;
const LOCK_IDS: i64 = (1 << 56) - 1;

/// The PostgreSQL implementation of [`Store`].
#[derive(Clone, Debug)]
pub struct PostgresStore {
    pool: PgPool,
    /// The NOTIFY channel of this database and schema.
    channel: String,
    /// Tells this process's own notifications from the others'.
    instance: String,
}

impl PostgresStore {
    /// Connect to the database at `url` (`postgres://user@host/db`) and run
    /// migrations (several processes starting at once take turns).
    pub async fn open(url: &str) -> StoreResult<Store> {
        let options = PgConnectOptions::from_str(url)?;
        let pool = PgPoolOptions::new()
            .max_connections(MAX_CONNECTIONS)
            .acquire_timeout(Duration::from_secs(30))
            .connect_with(options)
            .await?;
        migrator().run(&pool).await?;
        let schema: String = sqlx::query_scalar("SELECT current_schema()").fetch_one(&pool).await?;
        let instance = format!("{:016x}", rand::random::<u64>());
        let db = PostgresStore { pool, channel: format!("tabula_changes_{schema}"), instance };
        Ok(Store { db: Db::Postgres(db) })
    }

    /// The statement announcing, in the transaction of a change, that game
    /// `board` is at its version now (see [`Store::changes`]).
    pub(super) fn announce(&self, board: i64) -> Statement {
        let sql = "SELECT pg_notify(?1, ?2 || ' ' || id || ' ' || version) FROM games WHERE id = ?3";
        (sql.into(), values![&self.channel, &self.instance, board])
    }

    /// A transaction on a connection of the pool. The wait for the
    /// connection is a future of some 8 KiB: boxed, it is not part of every
    /// future that writes (those of SQLite too, since the store's futures
    /// are as large as the larger database's), which axum moves into a
    /// fresh allocation at each request.
    async fn begin(&self) -> StoreResult<sqlx::Transaction<'static, Postgres>> {
        Ok(Box::pin(self.pool.begin()).await?)
    }

    /// The rows of the read `sql` with `values`.
    pub(super) async fn rows<T: Row>(&self, sql: impl AsRef<str>, values: Vec<Value>) -> StoreResult<Vec<T>> {
        fetch(&self.pool, dollars(sql.as_ref()), bind(values)?).await
    }

    /// `statements` in one transaction; the rows each changed, or
    /// `Conflict` (nothing written) if the first is `guarded` and changes no
    /// row. The first of an append takes the game's row lock, which makes a
    /// concurrent append wait, then see the new version and match nothing.
    pub(super) async fn write(&self, statements: Vec<Statement>, guarded: bool) -> StoreResult<Vec<u64>> {
        let mut tx = self.begin().await?;
        let mut changed = Vec::with_capacity(statements.len());
        for statement in statements {
            changed.push(run(&mut tx, statement).await?);
            if guarded && changed == [0] {
                return Err(StoreError::Conflict);
            }
        }
        tx.commit().await?;
        Ok(changed)
    }

    /// `first`, which returns a new row's id, and the statements `then`
    /// makes of it, in one transaction; the id.
    pub(super) async fn write_new(&self, (sql, values): Statement, then: Then) -> StoreResult<i64> {
        let mut tx = self.begin().await?;
        let (id,) = sqlx::query_as_with(dollars(&sql), bind(values)?).fetch_one(&mut *tx).await?;
        for statement in then(id)? {
            run(&mut tx, statement).await?;
        }
        tx.commit().await?;
        Ok(id)
    }
}

/// `sql` written for both databases (`?N` placeholders) as PostgreSQL reads it (`$N`).
fn dollars(sql: &str) -> AssertSqlSafe<String> {
    AssertSqlSafe(sql.replace('?', "$"))
}

/// `values` bound to a statement.
fn bind(values: Vec<Value>) -> StoreResult<PgArguments> {
    let mut args = PgArguments::default();
    for value in values {
        match value {
            Value::Int(v) => args.add(v),
            Value::Text(v) => args.add(v),
        }
        .map_err(sqlx::Error::Encode)?;
    }
    Ok(args)
}

/// The rows of `sql` with `args` on `conn`, each mapped onto `T`.
async fn fetch<'c, T: Row>(
    conn: impl Executor<'c, Database = Postgres>,
    sql: impl sqlx::SqlSafeStr,
    args: PgArguments,
) -> StoreResult<Vec<T>> {
    sqlx::query_with(sql, args).fetch_all(conn).await?.iter().map(read_row).collect()
}

/// Map `row` onto `T`.
fn read_row<T: DeserializeOwned>(row: &PgRow) -> StoreResult<T> {
    T::deserialize(RowReader(row)).map_err(|e| StoreError::Corrupt(e.to_string()))
}

/// A row as serde reads it, the way `serde_rusqlite` reads SQLite's: a
/// struct by column name, a tuple by position.
struct RowReader<'r>(&'r PgRow);

impl<'de> Deserializer<'de> for RowReader<'_> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let columns = sqlx::Row::columns(self.0).iter().map(|c| (c.name(), Cell(self.0, c.ordinal())));
        visitor.visit_map(MapDeserializer::new(columns))
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_seq(SeqDeserializer::new((0..sqlx::Row::len(self.0)).map(|i| Cell(self.0, i))))
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple_struct map struct enum identifier ignored_any
    }
}

/// One column of a row as serde reads it: a flag stored as an integer
/// reads as a boolean where one is asked for, as SQLite's do.
struct Cell<'r>(&'r PgRow, usize);

impl Cell<'_> {
    /// The column as PostgreSQL sent it, with its type.
    fn raw(&self) -> Result<PgValueRef<'_>, DeError> {
        sqlx::Row::try_get_raw(self.0, self.1).map_err(DeError::custom)
    }

    fn get<'a, T: sqlx::Decode<'a, Postgres> + sqlx::Type<Postgres>>(&'a self) -> Result<T, DeError> {
        sqlx::Row::try_get(self.0, self.1).map_err(DeError::custom)
    }
}

impl<'de> IntoDeserializer<'de, DeError> for Cell<'_> {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de> Deserializer<'de> for Cell<'_> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let raw = self.raw()?;
        match raw.type_info().name() {
            _ if raw.is_null() => visitor.visit_unit(),
            "INT8" => visitor.visit_i64(self.get()?),
            "INT4" => visitor.visit_i32(self.get()?),
            "BOOL" => visitor.visit_bool(self.get()?),
            "JSON" | "JSONB" => {
                self.get::<serde_json::Value>()?.deserialize_any(visitor).map_err(DeError::custom)
            }
            _ => visitor.visit_string(self.get()?),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        if self.raw()?.is_null() { visitor.visit_none() } else { visitor.visit_some(self) }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        if self.raw()?.type_info().name() == "INT8" {
            visitor.visit_bool(self.get::<i64>()? != 0)
        } else {
            self.deserialize_any(visitor)
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_enum(self.get::<String>()?.into_deserializer())
    }

    forward_to_deserialize_any! {
        i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct newtype_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

/// Run one statement of a transaction; the rows it changed.
async fn run(conn: &mut PgConnection, (sql, values): Statement) -> StoreResult<u64> {
    Ok(sqlx::query_with(dollars(&sql), bind(values)?).execute(conn).await?.rows_affected())
}

/// The schema's migrations, recorded in sqlx's table (`_sqlx_migrations`)
/// by number and checksum, as they always were.
fn migrator() -> Migrator {
    // Distributed tournaments need a database several processes share.
    let jobs = ("1001_tournament_jobs", include_str!("../../migrations/postgres/1001_tournament_jobs.sql"));
    let all = MIGRATIONS.iter().map(|&(name, _, sql)| (name, sql)).chain([jobs]);
    Migrator::with_migrations(
        all.map(|(name, sql)| {
            let (number, words) = name.split_once('_').expect("migrations are named NNNN_NAME");
            let number = number.parse().expect("migrations are numbered");
            let (words, sql) = (words.replace('_', " ").into(), SqlStr::from_static(sql));
            Migration::new(number, words, MigrationType::Simple, sql, false)
        })
        .collect(),
    )
}

/// Work claimed by this process until [`Claim::release`] (or until the
/// process dies: a claim never outlives its holder): on PostgreSQL an
/// advisory lock, held on one pooled connection; nothing on SQLite.
#[derive(Debug)]
pub struct Claim {
    pub(super) lock: Option<(PoolConnection<Postgres>, i64)>,
}

impl Claim {
    /// Give the work back.
    pub async fn release(mut self) {
        if let Some((mut conn, key)) = self.lock.take() {
            let unlocked = sqlx::query("SELECT pg_advisory_unlock($1)").bind(key).execute(&mut *conn).await;
            if unlocked.is_err() {
                // The session ends instead, and the lock with it.
                conn.close_on_drop();
            }
        }
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        // Not released (a cancelled task): closing the session frees the lock.
        if let Some((conn, _)) = self.lock.as_mut() {
            conn.close_on_drop();
        }
    }
}

/// Split `instance board version` as sent by [`PostgresStore::announce`].
fn parse_change(payload: &str) -> Option<(&str, GameChange)> {
    let mut words = payload.split(' ');
    let instance = words.next()?;
    let board = words.next()?.parse().ok()?;
    let version = words.next()?.parse().ok()?;
    Some((instance, GameChange { board, version }))
}

// What PostgreSQL reads or writes otherwise than SQLite.
impl PostgresStore {
    /// A token's owner, when it was last used, and the owner's account.
    pub(super) async fn token_owner(
        &self,
        hash: &str,
    ) -> StoreResult<Option<(String, Option<i64>, Option<UserRow>)>> {
        // The token and its owner's account in one statement (one snapshot):
        // a revoked token is refused as soon as the revocation committed, on
        // every server, since nothing of it is kept between requests.
        #[derive(Deserialize)]
        struct Found {
            owner: String,
            last_used: Option<Timestamp>,
            #[serde(deserialize_with = "json_text")]
            account: Option<UserRow>,
        }
        let sql = "SELECT t.user_id AS owner, t.last_used, (SELECT row_to_json(a) FROM (SELECT id, password_hash, \
                   emails, created, notify <> 0 AS notify, vacation_until, game_limit, challenge_policy, \
                   signed_off <> 0 AS signed_off, language FROM users WHERE id = t.user_id) a) AS account \
                   FROM tokens t WHERE t.hash = $1 AND t.revoked IS NULL";
        let found: Option<Found> = fetch(&self.pool, sql, bind(values![hash])?).await?.pop();
        Ok(found.map(|f| (f.owner, f.last_used, f.account)))
    }

    pub(super) async fn game(&self, id: i64) -> StoreResult<Option<StoredGame>> {
        // One snapshot for the summary, seats and events, so they agree
        // even while another process appends.
        let mut tx = self.begin().await?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY").execute(&mut *tx).await?;
        let [game, seats, events] = GAME.map(dollars);
        let Some(row) = fetch(&mut *tx, game, bind(values![id])?).await?.pop() else { return Ok(None) };
        let seats = fetch(&mut *tx, seats, bind(values![id])?).await?;
        let events = fetch(&mut *tx, events, bind(values![id])?).await?;
        tx.commit().await?;
        stored_game(row, seats, events).map(Some)
    }

    pub(super) async fn game_head(&self, id: i64) -> StoreResult<Option<GameHead>> {
        let rows = sqlx::query_with(dollars(GAME_HEAD), bind(values![id])?).fetch_all(&self.pool).await?;
        let Some(first) = rows.first() else { return Ok(None) };
        let readers = rows.iter().map(read_row).collect::<StoreResult<Vec<ReaderRow>>>()?;
        Ok(Some(game_head(read_row(first)?, readers)))
    }

    pub(super) async fn claim(&self, work: Work) -> StoreResult<Option<Claim>> {
        let key = match work {
            Work::Clock(board) => LOCK_CLOCK | (board & LOCK_IDS),
            Work::TimeLimits(board) => LOCK_LIMITS | (board & LOCK_IDS),
        };
        let mut conn = Box::pin(self.pool.acquire()).await?;
        let (got,): (bool,) = sqlx::query_as_with("SELECT pg_try_advisory_lock($1)", bind(values![key])?)
            .fetch_one(&mut *conn)
            .await?;
        Ok(got.then(|| Claim { lock: Some((conn, key)) }))
    }

    pub(super) async fn changes(&self) -> StoreResult<tokio::sync::mpsc::Receiver<GameChange>> {
        let mut listener = PgListener::connect_with(&self.pool).await?;
        listener.listen(&self.channel).await?;
        let (tx, rx) = tokio::sync::mpsc::channel(CHANGE_BUFFER);
        let instance = self.instance.clone();
        tokio::spawn(async move {
            loop {
                // `try_recv` reconnects (and listens again) after a lost connection.
                let notification = match listener.try_recv().await {
                    Ok(Some(n)) => n,
                    Ok(None) => continue,
                    Err(e) => {
                        tracing::warn!(error = %e, "listening for changes failed; retrying");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        continue;
                    }
                };
                let Some((from, change)) = parse_change(notification.payload()) else { continue };
                if from == instance {
                    continue;
                }
                if tx.send(change).await.is_err() {
                    return;
                }
            }
        });
        Ok(rx)
    }
}
