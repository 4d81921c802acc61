//! The embedded store: one SQLite file in WAL mode, every commit fsynced
//! (`synchronous = FULL`) so an acknowledged move survives a crash.

use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteRow, SqliteSynchronous,
};
use sqlx::{AssertSqlSafe, Row, SqlitePool};
use tabula_model::{Event, EventAction, Timestamp};
use tokio::sync::Mutex as AsyncMutex;

use super::*;

mod direct;
mod group_commit;

/// Pooled connections of a long-running process (the server, workers).
const SERVER_CONNECTIONS: u32 = 8;

/// How precisely a token's last use is recorded.
const TOKEN_USE_RESOLUTION_MS: i64 = 60_000;

/// The values of a statement run with [`SqliteStore::execute`], in order.
macro_rules! binds {
    ($($value:expr),* $(,)?) => {
        vec![$(Bind::from($value)),*]
    };
}

/// The SQLite implementation of [`Store`].
#[derive(Clone, Debug)]
pub struct SqliteStore {
    pool: SqlitePool,
    appends: group_commit::GroupCommit,
    /// The server's connection for what every move does (see
    /// [`direct`]); `None` in a process that runs one command, whose few
    /// statements go through the pool's one connection.
    direct: Option<direct::Direct>,
    /// Taken by every write of this process, the group commit's batches
    /// included, and by the checkpoint that lets the log start again (see
    /// [`direct`]): writers then queue here in order instead of retrying in
    /// SQLite's busy handler, whose growing sleeps let a steady stream of
    /// batches starve a lone writer (a challenge, a chat line) for seconds.
    /// Other processes on the same file still meet the busy handler.
    writer: Arc<AsyncMutex<()>>,
}

impl SqliteStore {
    /// Open (creating if needed) the database file at `path` and run migrations.
    pub async fn open(path: &Path) -> StoreResult<Self> {
        let mut store = Self::open_with(path, SERVER_CONNECTIONS, SqliteSynchronous::Normal).await?;
        let direct = direct::Direct::open(path, store.writer.clone())?;
        // The migrations, committed by the pool without an fsync, are
        // durable before anything is written on them.
        direct.write(|_| Ok(0)).await?;
        store.direct = Some(direct);
        Ok(store)
    }

    /// [`SqliteStore::open`] for a process that runs one command and exits
    /// (`tabula mail`, a CLI command): its statements run one after another,
    /// so one pooled connection serves them all. A second one cost its
    /// opening and, at its first commit, SQLite's fsync of the directory
    /// (made once per connection that writes the WAL), because the
    /// migrations' connection was still on its way back to the pool when
    /// the first write asked for one.
    pub async fn open_for_one_client(path: &Path) -> StoreResult<Self> {
        Self::open_with(path, 1, SqliteSynchronous::Full).await
    }

    /// Open the pool; its commits sync the log when `synchronous` is
    /// `Full`, and leave that to [`SqliteStore::write`]'s group commit
    /// when it is `Normal` (the server's).
    async fn open_with(
        path: &Path,
        max_connections: u32,
        synchronous: SqliteSynchronous,
    ) -> StoreResult<Self> {
        let options = SqliteConnectOptions::from_str("sqlite:")?
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(synchronous)
            .busy_timeout(Duration::from_secs(30))
            .foreign_keys(true)
            // Reads map the file instead of copying each page out of the
            // kernel with a read() per page: under load those copies were a
            // larger share of the server's time than running the queries.
            // The mapped pages a process has read count in its resident
            // size, so the map covers the first 32 MiB of the file only: a
            // 256 MiB map took the server past 200 MB with 10,000 games.
            .pragma("mmap_size", "33554432");
        // A connection to a file is tested by using it: the pool's test (a
        // round trip to the connection's thread) before every loan is
        // dropped; an error still discards the connection on its return.
        let pool = SqlitePoolOptions::new()
            .max_connections(max_connections)
            .test_before_acquire(false)
            .connect_with(options.clone())
            .await?;
        sqlx::migrate!("./migrations/sqlite").run(&pool).await?;
        Ok(SqliteStore {
            pool,
            appends: group_commit::GroupCommit::default(),
            direct: None,
            writer: Arc::default(),
        })
    }
}

impl SqliteStore {
    /// Run `write` (statements on the pool) in this process's turn to
    /// write (see the `writer` field), and answer once what it wrote is
    /// durable.
    ///
    /// In the server the pool's commits make no fsync of their own
    /// (`synchronous = NORMAL`, like the server's own connection): each
    /// had held the turn through its fsync, and every batch of moves
    /// behind it waited (2 ms and more on a slow disk). Once the turn is
    /// given back, an empty write joins the group commit instead, and the
    /// log's sync that answers it covers this write's frames, which are in
    /// the log before it. A process that runs one command has no group
    /// commit, and its pool commits with a full fsync.
    async fn write<T, F>(&self, write: impl FnOnce() -> F) -> StoreResult<T>
    where
        F: Future<Output = StoreResult<T>>,
    {
        let written = {
            let _turn = self.writer.lock().await;
            write().await
        };
        let synced = match &self.direct {
            // Always, even after an error: a write of several statements
            // may have committed some of them.
            Some(direct) => direct.write(|_| Ok(0)).await.map(drop),
            None => Ok(()),
        };
        let value = written?;
        synced?;
        Ok(value)
    }

    /// Run one statement on the pool with `binds`, as [`SqliteStore::write`]
    /// runs its statements; the rows it changed.
    async fn execute(&self, sql: &'static str, binds: Vec<Bind>) -> StoreResult<u64> {
        self.write(|| async {
            Ok(bind_all(sqlx::query(sql), binds).execute(&self.pool).await?.rows_affected())
        })
        .await
    }

    /// Record the use of token `hash`, last recorded at `last_used`.
    async fn note_token_use(
        &self,
        hash: &str,
        last_used: Option<Timestamp>,
        now: Timestamp,
    ) -> StoreResult<()> {
        // The use is noted to the minute: a write (and its fsync) on every
        // request of a busy client would cost as much as its moves.
        if last_used.is_none_or(|t| now - t >= TOKEN_USE_RESOLUTION_MS || now < t) {
            let sql = "UPDATE tokens SET last_used = ? WHERE hash = ? AND revoked IS NULL";
            self.execute(sql, binds![now, hash]).await?;
        }
        Ok(())
    }
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("plain data serialises")
}

fn unjson<T: serde::de::DeserializeOwned>(text: &str, what: &str) -> StoreResult<T> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

fn user_from_row(row: &SqliteRow) -> StoreResult<UserRow> {
    Ok(UserRow {
        id: row.try_get("id")?,
        password_hash: row.try_get("password_hash")?,
        emails: unjson(&row.try_get::<String, _>("emails")?, "emails")?,
        created: row.try_get("created")?,
        notify: row.try_get::<i64, _>("notify")? != 0,
        vacation_until: row.try_get("vacation_until")?,
        game_limit: row.try_get("game_limit")?,
        challenge_policy: row.try_get("challenge_policy")?,
        signed_off: row.try_get::<i64, _>("signed_off")? != 0,
        failed_logins: row.try_get("failed_logins")?,
        last_failed_login: row.try_get("last_failed_login")?,
    })
}

/// Where `user`'s notifications go, from a row with the account's
/// `emails`, `notify` and `signed_off` (all null if there is no account).
fn recipient_from_row(row: &SqliteRow, user: String) -> StoreResult<Recipient> {
    let emails: Option<String> = row.try_get("emails")?;
    let open = row.try_get::<Option<i64>, _>("signed_off")? == Some(0);
    let notify = row.try_get::<Option<i64>, _>("notify")?.is_some_and(|n| n != 0);
    let address = match emails {
        Some(e) if open && notify => unjson::<Vec<String>>(&e, "emails")?.into_iter().next(),
        _ => None,
    };
    Ok(Recipient { user, address })
}

/// A game's summary (columns 0-9), then a row per seat (`part` 0, with
/// `seat`, `accepted`, `seat_result`) and per other subscriber (`part` 1),
/// each with its `reader` and that reader's `emails`, `notify` and
/// `signed_off` (columns 14-17): what [`Games::game_head`] returns, in one
/// statement, for the pool and for the server's own connection alike.
const GAME_HEAD: &str = "SELECT g.id, g.kind, g.players, g.status, g.moves, g.to_move, g.version, \
     g.updated, g.result, g.next_clock, 0 AS part, p.seat, p.accepted, p.result AS seat_result, \
     p.user_id AS reader, u.emails, u.notify, u.signed_off FROM games g \
     LEFT JOIN game_players p ON p.game_id = g.id LEFT JOIN users u ON u.id = p.user_id \
     WHERE g.id = ?1 \
     UNION ALL \
     SELECT g.id, g.kind, g.players, g.status, g.moves, g.to_move, g.version, g.updated, g.result, \
     g.next_clock, 1, NULL, NULL, NULL, s.user_id, u.emails, u.notify, u.signed_off FROM games g \
     JOIN subscriptions s ON s.game_id = g.id LEFT JOIN users u ON u.id = s.user_id \
     WHERE g.id = ?1 \
     ORDER BY part, seat, reader";

const SUMMARY_COLUMNS: &str =
    "id, kind, players, status, moves, to_move, version, updated, result, next_clock";

fn summary_from_row(row: &SqliteRow) -> StoreResult<GameSummary> {
    Ok(GameSummary {
        id: row.try_get("id")?,
        kind: row.try_get("kind")?,
        players: unjson(&row.try_get::<String, _>("players")?, "players")?,
        status: GameStatus::parse(&row.try_get::<String, _>("status")?)?,
        moves: row.try_get("moves")?,
        to_move: unjson(&row.try_get::<String, _>("to_move")?, "to_move")?,
        version: row.try_get("version")?,
        updated: row.try_get("updated")?,
        result: row.try_get("result")?,
        seat_results: Vec::new(),
        next_clock: row.try_get("next_clock")?,
    })
}

/// A value bound to a statement built at run time, so that the pool and
/// the server's own connection run the same statement.
enum Bind {
    Text(String),
    Int(i64),
    Null,
}

impl From<&str> for Bind {
    fn from(v: &str) -> Self {
        Bind::Text(v.to_string())
    }
}

impl From<String> for Bind {
    fn from(v: String) -> Self {
        Bind::Text(v)
    }
}

impl From<i64> for Bind {
    fn from(v: i64) -> Self {
        Bind::Int(v)
    }
}

impl From<bool> for Bind {
    fn from(v: bool) -> Self {
        Bind::Int(v as i64)
    }
}

impl From<Option<i64>> for Bind {
    fn from(v: Option<i64>) -> Self {
        v.map_or(Bind::Null, Bind::Int)
    }
}

/// The statement of [`Games::games`] for `f`, selecting `columns` of
/// each game (`g`), and its values in order.
fn games_query(f: &GameFilter, columns: &str) -> (String, Vec<Bind>) {
    let mut binds = Vec::new();
    // A player's games are found from the player's seats (the index on
    // user and game), not by testing every game of the server with the
    // given statuses: with 10,000 games active, that test made each
    // challenge (which counts both players' running games) cost
    // milliseconds, and more with every game stored. CROSS JOIN keeps
    // the seats as the outer loop; DISTINCT, one row for a player who
    // holds two seats. A user who must move holds a seat too, so a list
    // of the games waiting for someone starts from that user's seats.
    let mut sql = match f.seated_user() {
        Some(p) => {
            binds.push(Bind::Text(p.to_string()));
            format!(
                "SELECT {columns} FROM (SELECT DISTINCT game_id FROM game_players WHERE user_id = ?) p \
                 CROSS JOIN games g ON g.id = p.game_id WHERE 1 = 1"
            )
        }
        None => format!("SELECT {columns} FROM games g WHERE 1 = 1"),
    };
    // Only fixed fragments are concatenated; every value is bound.
    if let Some(k) = &f.kind {
        sql.push_str(" AND kind = ?");
        binds.push(Bind::Text(k.clone()));
    }
    if !f.statuses.is_empty() {
        let marks = vec!["?"; f.statuses.len()].join(", ");
        sql.push_str(&format!(" AND status IN ({marks})"));
        binds.extend(f.statuses.iter().map(|s| Bind::Text(s.as_str().to_string())));
    }
    if let Some(u) = &f.to_move {
        sql.push_str(" AND EXISTS (SELECT 1 FROM json_each(g.to_move) WHERE json_each.value = ?)");
        binds.push(Bind::Text(u.clone()));
    }
    if let Some(b) = f.before {
        sql.push_str(" AND id < ?");
        binds.push(Bind::Int(b));
    }
    sql.push_str(" ORDER BY id DESC LIMIT ?");
    binds.push(Bind::Int(if f.limit > 0 { f.limit } else { 1000 }));
    (sql, binds)
}

/// `q` with `binds` bound in order.
fn bind_all(mut q: SqliteQuery<'_>, binds: Vec<Bind>) -> SqliteQuery<'_> {
    for b in binds {
        q = match b {
            Bind::Text(t) => q.bind(t),
            Bind::Int(i) => q.bind(i),
            Bind::Null => q.bind(None::<i64>),
        };
    }
    q
}

/// A statement of this store, to be bound and run on the pool.
type SqliteQuery<'q> = sqlx::query::Query<'q, sqlx::Sqlite, sqlx::sqlite::SqliteArguments>;

fn event_from_row(row: &SqliteRow) -> StoreResult<Event> {
    let seat: Option<i64> = row.try_get("seat")?;
    Ok(Event {
        at: row.try_get("at")?,
        seat: seat.map(|s| s as usize),
        action: unjson::<EventAction>(&row.try_get::<String, _>("action")?, "event")?,
    })
}

fn outbox_from_row(row: &SqliteRow) -> StoreResult<OutboxRow> {
    Ok(OutboxRow {
        id: row.try_get("id")?,
        message: OutboxMessage {
            key: row.try_get("key")?,
            recipient: row.try_get("recipient")?,
            subject: row.try_get("subject")?,
            body: row.try_get("body")?,
            game_id: row.try_get("game_id")?,
        },
        created: row.try_get("created")?,
        sent_at: row.try_get("sent_at")?,
        attempts: row.try_get("attempts")?,
        last_error: row.try_get("last_error")?,
        gave_up_at: row.try_get("gave_up_at")?,
    })
}

/// Marks a claimed incoming message handled (once: a later mark keeps the first time).
async fn mark_incoming_done(conn: &mut sqlx::SqliteConnection, key: &str, at: Timestamp) -> StoreResult<()> {
    sqlx::query("UPDATE incoming_mail SET done_at = ? WHERE key = ? AND done_at IS NULL")
        .bind(at)
        .bind(key)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

async fn insert_outbox(
    conn: &mut sqlx::SqliteConnection,
    m: &OutboxMessage,
    now: Timestamp,
) -> StoreResult<usize> {
    let queued = sqlx::query(
        "INSERT OR IGNORE INTO outbox (key, created, recipient, subject, body, game_id, next_attempt) \
         VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&m.key)
    .bind(now)
    .bind(&m.recipient)
    .bind(&m.subject)
    .bind(&m.body)
    .bind(m.game_id)
    .bind(now)
    .execute(&mut *conn)
    .await?
    .rows_affected();
    Ok(queued as usize)
}

/// The statements of one append (the caller owns the transaction): the
/// version-checked summary update, the events, the seats and the side effects.
async fn write_append(
    conn: &mut sqlx::SqliteConnection,
    expected_version: i64,
    events: &[Event],
    s: &GameSummary,
    effects: &[SideEffect],
) -> StoreResult<()> {
    let r = sqlx::query(
        "UPDATE games SET version = ?, status = ?, moves = ?, to_move = ?, updated = ?, result = ?, \
         next_clock = ?, players = ? WHERE id = ? AND version = ?",
    )
    .bind(expected_version + events.len() as i64)
    .bind(s.status.as_str())
    .bind(s.moves)
    .bind(json(&s.to_move))
    .bind(s.updated)
    .bind(&s.result)
    .bind(s.next_clock)
    .bind(json(&s.players))
    .bind(s.id)
    .bind(expected_version)
    .execute(&mut *conn)
    .await?;
    if r.rows_affected() == 0 {
        return Err(StoreError::Conflict);
    }
    for (i, e) in events.iter().enumerate() {
        sqlx::query("INSERT INTO events (game_id, seq, at, seat, action) VALUES (?, ?, ?, ?, ?)")
            .bind(s.id)
            .bind(expected_version + i as i64)
            .bind(e.at)
            .bind(e.seat.map(|x| x as i64))
            .bind(json(&e.action))
            .execute(&mut *conn)
            .await?;
    }
    // The seats, in one statement (one round trip to SQLite's thread).
    if !s.players.is_empty() {
        let rows = vec!["(?, ?, ?, 1, ?)"; s.players.len()].join(", ");
        let sql = format!(
            "INSERT INTO game_players (game_id, seat, user_id, accepted, result) VALUES {rows} \
             ON CONFLICT (game_id, seat) DO UPDATE SET result = excluded.result \
             WHERE game_players.result IS NOT excluded.result"
        );
        // Only fixed fragments are concatenated; every value is bound.
        let mut q = sqlx::query(AssertSqlSafe(sql));
        for (seat, user) in s.players.iter().enumerate() {
            q = q.bind(s.id).bind(seat as i64).bind(user).bind(s.seat_results.get(seat).cloned().flatten());
        }
        q.execute(&mut *conn).await?;
    }
    for effect in effects {
        match effect {
            SideEffect::Outbox(m) => {
                insert_outbox(conn, m, s.updated).await?;
            }
            SideEffect::DeleteQueued(id) => {
                sqlx::query("DELETE FROM queued_moves WHERE id = ?").bind(id).execute(&mut *conn).await?;
            }
            SideEffect::DeletePending { user } => {
                sqlx::query("DELETE FROM pending_moves WHERE game_id = ? AND user_id = ?")
                    .bind(s.id)
                    .bind(user)
                    .execute(&mut *conn)
                    .await?;
            }
        }
    }
    Ok(())
}

#[async_trait]
impl Accounts for SqliteStore {
    async fn create_user(&self, u: &UserRow) -> StoreResult<()> {
        self.write(|| async {
            let r = sqlx::query(
                "INSERT INTO users (id, password_hash, emails, created, notify, vacation_until, game_limit, \
                 challenge_policy, signed_off) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            )
            .bind(&u.id)
            .bind(&u.password_hash)
            .bind(json(&u.emails))
            .bind(u.created)
            .bind(u.notify as i64)
            .bind(u.vacation_until)
            .bind(u.game_limit)
            .bind(&u.challenge_policy)
            .bind(u.signed_off as i64)
            .execute(&self.pool)
            .await;
            match r {
                Ok(_) => Ok(()),
                Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Err(StoreError::Exists),
                Err(e) => Err(e.into()),
            }
        })
        .await
    }

    async fn user(&self, id: &str) -> StoreResult<Option<UserRow>> {
        if let Some(direct) = &self.direct {
            let id = id.to_string();
            return direct.read(move |conn| direct::read_user(conn, &id)).await;
        }
        let row = sqlx::query("SELECT * FROM users WHERE id = ?").bind(id).fetch_optional(&self.pool).await?;
        row.as_ref().map(user_from_row).transpose()
    }

    async fn update_user(&self, u: &UserRow) -> StoreResult<()> {
        let sql = "UPDATE users SET password_hash = ?, emails = ?, notify = ?, vacation_until = ?, game_limit = ?, \
                   challenge_policy = ?, signed_off = ? WHERE id = ?";
        let binds = binds![
            u.password_hash.as_str(),
            json(&u.emails),
            u.notify,
            u.vacation_until,
            u.game_limit,
            u.challenge_policy.as_str(),
            u.signed_off,
            u.id.as_str(),
        ];
        match self.execute(sql, binds).await? {
            0 => Err(StoreError::NotFound),
            _ => Ok(()),
        }
    }

    async fn record_login(&self, id: &str, failed: bool, at: Timestamp) -> StoreResult<()> {
        if failed {
            let sql =
                "UPDATE users SET failed_logins = failed_logins + 1, last_failed_login = ? WHERE id = ?";
            self.execute(sql, binds![at, id]).await?;
        } else {
            let sql = "UPDATE users SET failed_logins = 0 WHERE id = ? AND ? IS NOT NULL";
            self.execute(sql, binds![id, at]).await?;
        }
        Ok(())
    }

    async fn user_ids(&self) -> StoreResult<Vec<String>> {
        let rows = sqlx::query("SELECT id FROM users WHERE signed_off = 0 ORDER BY id")
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }

    async fn create_token(&self, user: &str, name: &str, hash: &str, now: Timestamp) -> StoreResult<i64> {
        self.write(|| async {
            let row = sqlx::query(
                "INSERT INTO tokens (hash, user_id, name, created) VALUES (?, ?, ?, ?) RETURNING id",
            )
            .bind(hash)
            .bind(user)
            .bind(name)
            .bind(now)
            .fetch_one(&self.pool)
            .await?;
            Ok(row.try_get("id")?)
        })
        .await
    }

    async fn token_user(&self, hash: &str, now: Timestamp) -> StoreResult<Option<String>> {
        let Some(row) =
            sqlx::query("SELECT user_id, last_used FROM tokens WHERE hash = ? AND revoked IS NULL")
                .bind(hash)
                .fetch_optional(&self.pool)
                .await?
        else {
            return Ok(None);
        };
        let user: String = row.try_get("user_id")?;
        let last_used: Option<Timestamp> = row.try_get("last_used")?;
        self.note_token_use(hash, last_used, now).await?;
        Ok(Some(user))
    }

    async fn token_account(
        &self,
        hash: &str,
        now: Timestamp,
    ) -> StoreResult<Option<(String, Option<UserRow>)>> {
        if let Some(direct) = &self.direct {
            let hash_owned = hash.to_string();
            let found = direct.read(move |conn| direct::read_token_account(conn, &hash_owned)).await?;
            let Some((owner, last_used, account)) = found else { return Ok(None) };
            self.note_token_use(hash, last_used, now).await?;
            return Ok(Some((owner, account)));
        }
        let q = sqlx::query(
            "SELECT t.user_id AS token_owner, t.last_used AS token_last_used, u.* FROM tokens t \
             LEFT JOIN users u ON u.id = t.user_id WHERE t.hash = ? AND t.revoked IS NULL",
        )
        .bind(hash);
        let Some(row) = q.fetch_optional(&self.pool).await? else {
            return Ok(None);
        };
        let owner: String = row.try_get("token_owner")?;
        let last_used: Option<Timestamp> = row.try_get("token_last_used")?;
        let account = match row.try_get::<Option<String>, _>("id")? {
            Some(_) => Some(user_from_row(&row)?),
            None => None,
        };
        self.note_token_use(hash, last_used, now).await?;
        Ok(Some((owner, account)))
    }

    async fn tokens(&self, user: &str) -> StoreResult<Vec<TokenRow>> {
        let rows = sqlx::query("SELECT * FROM tokens WHERE user_id = ? ORDER BY id")
            .bind(user)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok(TokenRow {
                    id: r.try_get("id")?,
                    user: r.try_get("user_id")?,
                    name: r.try_get("name")?,
                    created: r.try_get("created")?,
                    last_used: r.try_get("last_used")?,
                    revoked: r.try_get("revoked")?,
                })
            })
            .collect()
    }

    async fn revoke_token(&self, user: &str, id: i64, now: Timestamp) -> StoreResult<bool> {
        let sql = "UPDATE tokens SET revoked = ? WHERE id = ? AND user_id = ? AND revoked IS NULL";
        Ok(self.execute(sql, binds![now, id, user]).await? > 0)
    }

    async fn create_session(
        &self,
        hash: &str,
        user: &str,
        csrf: &str,
        now: Timestamp,
        expires: Timestamp,
    ) -> StoreResult<()> {
        let sql = "INSERT INTO sessions (hash, user_id, csrf, created, expires) VALUES (?, ?, ?, ?, ?)";
        self.execute(sql, binds![hash, user, csrf, now, expires]).await.map(drop)
    }

    async fn session(&self, hash: &str, now: Timestamp) -> StoreResult<Option<SessionRow>> {
        let row = sqlx::query("SELECT user_id, csrf, expires FROM sessions WHERE hash = ? AND expires > ?")
            .bind(hash)
            .bind(now)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| {
            Ok(SessionRow {
                user: r.try_get("user_id")?,
                csrf: r.try_get("csrf")?,
                expires: r.try_get("expires")?,
            })
        })
        .transpose()
    }

    async fn delete_session(&self, hash: &str) -> StoreResult<()> {
        self.execute("DELETE FROM sessions WHERE hash = ?", binds![hash]).await.map(drop)
    }
}

#[async_trait]
impl Games for SqliteStore {
    async fn create_game(&self, g: &NewGame) -> StoreResult<i64> {
        if let Some(direct) = &self.direct {
            let g = g.clone();
            return direct.write(move |conn| direct::insert_game(conn, &g)).await;
        }
        self.write(|| async {
            let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
            let id: i64 = sqlx::query(
                "INSERT INTO games (kind, options, players, seed, created, version, status, moves, to_move, updated, \
                 next_clock) VALUES (?, ?, ?, ?, ?, 0, ?, 0, ?, ?, ?) RETURNING id",
            )
            .bind(&g.kind)
            .bind(json(&g.options))
            .bind(json(&g.players))
            .bind(g.seed as i64)
            .bind(g.created)
            .bind(g.status.as_str())
            .bind(json(&g.to_move))
            .bind(g.created)
            .bind(g.next_clock)
            .fetch_one(&mut *tx)
            .await?
            .try_get("id")?;
            for (seat, user) in g.players.iter().enumerate() {
                sqlx::query("INSERT INTO game_players (game_id, seat, user_id, accepted) VALUES (?, ?, ?, ?)")
                    .bind(id)
                    .bind(seat as i64)
                    .bind(user)
                    .bind(g.accepted.get(seat).copied().unwrap_or(true) as i64)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            Ok(id)
        })
        .await
    }

    async fn game(&self, id: i64) -> StoreResult<Option<StoredGame>> {
        // One snapshot for the summary, seats and events, so they agree
        // even while another connection appends (a read of each in turn
        // once found a game with one event more than its version).
        let mut conn = self.pool.begin().await?;
        let Some(row) = sqlx::query(AssertSqlSafe(format!(
            "SELECT {SUMMARY_COLUMNS}, options, seed, created FROM games WHERE id = ?"
        )))
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?
        else {
            return Ok(None);
        };
        let mut summary = summary_from_row(&row)?;
        let options = unjson(&row.try_get::<String, _>("options")?, "options")?;
        let seed = row.try_get::<i64, _>("seed")? as u64;
        let created = row.try_get("created")?;
        let seats =
            sqlx::query("SELECT seat, accepted, result FROM game_players WHERE game_id = ? ORDER BY seat")
                .bind(id)
                .fetch_all(&mut *conn)
                .await?;
        let accepted =
            seats.iter().map(|r| Ok(r.try_get::<i64, _>("accepted")? != 0)).collect::<StoreResult<_>>()?;
        summary.seat_results = seats.iter().map(|r| Ok(r.try_get("result")?)).collect::<StoreResult<_>>()?;
        let events = sqlx::query("SELECT at, seat, action FROM events WHERE game_id = ? ORDER BY seq")
            .bind(id)
            .fetch_all(&mut *conn)
            .await?
            .iter()
            .map(event_from_row)
            .collect::<StoreResult<Vec<_>>>()?;
        conn.commit().await?;
        if events.len() as i64 != summary.version {
            return Err(StoreError::Corrupt(format!(
                "game {id} has {} events but version {}",
                events.len(),
                summary.version
            )));
        }
        let joins = events.iter().filter(|e| matches!(e.action, EventAction::Join { .. })).count();
        let initial_players = summary.players[..summary.players.len().saturating_sub(joins)].to_vec();
        Ok(Some(StoredGame { summary, options, seed, created, initial_players, events, accepted }))
    }

    async fn game_head(&self, id: i64) -> StoreResult<Option<GameHead>> {
        if let Some(direct) = &self.direct {
            return direct.read(move |conn| direct::read_game_head(conn, id)).await;
        }
        // One statement for the summary, the seats and the subscribers, with
        // the mail settings of every one of them: each statement is a round
        // trip to the connection's thread, and a move needs all of this.
        let rows = sqlx::query(GAME_HEAD).bind(id).fetch_all(&self.pool).await?;
        let Some(first) = rows.first() else { return Ok(None) };
        let mut head = GameHead {
            summary: summary_from_row(first)?,
            accepted: Vec::with_capacity(rows.len()),
            subscribers: Vec::new(),
            recipients: Vec::with_capacity(rows.len()),
        };
        for row in &rows {
            let Some(reader) = row.try_get::<Option<String>, _>("reader")? else { continue };
            match row.try_get::<Option<i64>, _>("accepted")? {
                Some(a) => {
                    head.accepted.push(a != 0);
                    head.summary.seat_results.push(row.try_get("seat_result")?);
                }
                None => head.subscribers.push(reader.clone()),
            }
            if !head.recipients.iter().any(|r| r.user == reader) {
                head.recipients.push(recipient_from_row(row, reader)?);
            }
        }
        Ok(Some(head))
    }

    async fn game_version(&self, id: i64) -> StoreResult<Option<i64>> {
        let row =
            sqlx::query("SELECT version FROM games WHERE id = ?").bind(id).fetch_optional(&self.pool).await?;
        row.map(|r| Ok(r.try_get("version")?)).transpose()
    }

    async fn events_since(&self, id: i64, from_seq: i64) -> StoreResult<Vec<Event>> {
        sqlx::query("SELECT at, seat, action FROM events WHERE game_id = ? AND seq >= ? ORDER BY seq")
            .bind(id)
            .bind(from_seq)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(event_from_row)
            .collect()
    }

    async fn append(
        &self,
        expected_version: i64,
        events: &[Event],
        s: &GameSummary,
        effects: &[SideEffect],
    ) -> StoreResult<()> {
        let append = group_commit::Append {
            expected_version,
            events: events.to_vec(),
            summary: s.clone(),
            effects: effects.to_vec(),
        };
        match &self.direct {
            Some(direct) => direct.append(append).await,
            None => self.appends.append(&self.pool, &self.writer, append).await,
        }
    }

    async fn set_acceptance(
        &self,
        id: i64,
        seat: usize,
        accepted: bool,
        status: GameStatus,
    ) -> StoreResult<()> {
        self.write(|| async {
            let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
            sqlx::query("UPDATE game_players SET accepted = ? WHERE game_id = ? AND seat = ?")
                .bind(accepted as i64)
                .bind(id)
                .bind(seat as i64)
                .execute(&mut *tx)
                .await?;
            sqlx::query("UPDATE games SET status = ? WHERE id = ?")
                .bind(status.as_str())
                .bind(id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(())
        })
        .await
    }

    async fn games(&self, f: &GameFilter) -> StoreResult<Vec<GameSummary>> {
        let (sql, binds) = games_query(f, SUMMARY_COLUMNS);
        // A user's games (a challenge counts both players' running ones)
        // are read on the server's own connection, whose cache is warm; a
        // list over every game may scan thousands of rows, and stays on the
        // pool so as not to hold up the commits behind it.
        if let (Some(direct), Some(_)) = (&self.direct, f.seated_user()) {
            return direct.read(move |conn| direct::read_games(conn, &sql, &binds)).await;
        }
        bind_all(sqlx::query(AssertSqlSafe(sql)), binds)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(summary_from_row)
            .collect()
    }

    async fn count_games(&self, f: &GameFilter) -> StoreResult<usize> {
        let (inner, binds) = games_query(f, "g.id");
        let sql = format!("SELECT COUNT(*) FROM ({inner})");
        let count: i64 = match (&self.direct, f.seated_user()) {
            (Some(direct), Some(_)) => {
                direct.read(move |conn| direct::read_count(conn, &sql, &binds)).await?
            }
            _ => bind_all(sqlx::query(AssertSqlSafe(sql)), binds).fetch_one(&self.pool).await?.try_get(0)?,
        };
        Ok(count as usize)
    }

    async fn finished(&self, kind: Option<&str>) -> StoreResult<Vec<GameSummary>> {
        let rows = sqlx::query(AssertSqlSafe(format!(
            "SELECT {SUMMARY_COLUMNS} FROM games WHERE status = 'finished' AND (? IS NULL OR kind = ?) \
             ORDER BY updated, id"
        )))
        .bind(kind)
        .bind(kind)
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for row in &rows {
            let mut s = summary_from_row(row)?;
            let seats = sqlx::query("SELECT result FROM game_players WHERE game_id = ? ORDER BY seat")
                .bind(s.id)
                .fetch_all(&self.pool)
                .await?;
            s.seat_results = seats.iter().map(|r| Ok(r.try_get("result")?)).collect::<StoreResult<_>>()?;
            out.push(s);
        }
        Ok(out)
    }

    async fn subscribe(&self, game: i64, user: &str, on: bool) -> StoreResult<()> {
        let sql = if on {
            "INSERT OR IGNORE INTO subscriptions (game_id, user_id) VALUES (?, ?)"
        } else {
            "DELETE FROM subscriptions WHERE game_id = ? AND user_id = ?"
        };
        self.execute(sql, binds![game, user]).await.map(drop)
    }

    async fn subscribers(&self, game: i64) -> StoreResult<Vec<String>> {
        let rows = sqlx::query("SELECT user_id FROM subscriptions WHERE game_id = ? ORDER BY user_id")
            .bind(game)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| Ok(r.try_get("user_id")?)).collect()
    }

    async fn queue_move(&self, game: i64, user: &str, text: &str, at: Timestamp) -> StoreResult<()> {
        let sql = "INSERT INTO queued_moves (game_id, user_id, move, created) VALUES (?, ?, ?, ?)";
        self.execute(sql, binds![game, user, text, at]).await.map(drop)
    }

    async fn queued_moves(&self, game: i64) -> StoreResult<Vec<QueuedMove>> {
        let rows = sqlx::query("SELECT id, user_id, move FROM queued_moves WHERE game_id = ? ORDER BY id")
            .bind(game)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok(QueuedMove { id: r.try_get("id")?, user: r.try_get("user_id")?, text: r.try_get("move")? })
            })
            .collect()
    }

    async fn set_pending(&self, game: i64, user: &str, text: &str, at: Timestamp) -> StoreResult<()> {
        let sql = "INSERT INTO pending_moves (game_id, user_id, move, created) VALUES (?, ?, ?, ?) \
                   ON CONFLICT (game_id, user_id) DO UPDATE SET move = excluded.move, created = excluded.created";
        self.execute(sql, binds![game, user, text, at]).await.map(drop)
    }

    async fn pending(&self, game: i64, user: &str) -> StoreResult<Option<String>> {
        let row = sqlx::query("SELECT move FROM pending_moves WHERE game_id = ? AND user_id = ?")
            .bind(game)
            .bind(user)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Ok(r.try_get("move")?)).transpose()
    }

    async fn chat(
        &self,
        game: i64,
        user: &str,
        at: Timestamp,
        text: &str,
        messages: &[OutboxMessage],
    ) -> StoreResult<()> {
        self.write(|| async {
            let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
            sqlx::query("INSERT INTO chats (game_id, user_id, at, text) VALUES (?, ?, ?, ?)")
                .bind(game)
                .bind(user)
                .bind(at)
                .bind(text)
                .execute(&mut *tx)
                .await?;
            for m in messages {
                insert_outbox(&mut tx, m, at).await?;
            }
            tx.commit().await?;
            Ok(())
        })
        .await
    }

    async fn chats(&self, game: i64) -> StoreResult<Vec<ChatRow>> {
        let rows = sqlx::query("SELECT user_id, at, text FROM chats WHERE game_id = ? ORDER BY id")
            .bind(game)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok(ChatRow { user: r.try_get("user_id")?, at: r.try_get("at")?, text: r.try_get("text")? })
            })
            .collect()
    }
}

#[async_trait]
impl Mail for SqliteStore {
    async fn enqueue(&self, messages: &[OutboxMessage], now: Timestamp) -> StoreResult<usize> {
        if let Some(direct) = &self.direct {
            let messages = messages.to_vec();
            let queue = move |conn: &rusqlite::Connection| {
                messages.iter().try_fold(0, |queued, m| Ok(queued + direct::insert_outbox(conn, m, now)?))
            };
            return Ok(direct.write(queue).await? as usize);
        }
        self.write(|| async {
            let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
            let mut queued = 0;
            for m in messages {
                queued += insert_outbox(&mut tx, m, now).await?;
            }
            tx.commit().await?;
            Ok(queued)
        })
        .await
    }

    async fn outbox_due(&self, now: Timestamp, limit: i64) -> StoreResult<Vec<OutboxRow>> {
        let rows = sqlx::query(
            "SELECT * FROM outbox WHERE sent_at IS NULL AND gave_up_at IS NULL AND next_attempt <= ? \
             ORDER BY id LIMIT ?",
        )
        .bind(now)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(outbox_from_row).collect()
    }

    async fn claim_outbox(
        &self,
        now: Timestamp,
        lease_until: Timestamp,
        limit: i64,
    ) -> StoreResult<Vec<OutboxRow>> {
        self.write(|| async {
            let rows = sqlx::query(
                "UPDATE outbox SET next_attempt = ? WHERE id IN (SELECT id FROM outbox WHERE sent_at IS NULL \
                 AND gave_up_at IS NULL AND next_attempt <= ? ORDER BY id LIMIT ?) RETURNING *",
            )
            .bind(lease_until)
            .bind(now)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
            let mut out = rows.iter().map(outbox_from_row).collect::<StoreResult<Vec<_>>>()?;
            out.sort_by_key(|r| r.id);
            Ok(out)
        })
        .await
    }

    async fn outbox(&self, limit: i64) -> StoreResult<Vec<OutboxRow>> {
        let rows = sqlx::query("SELECT * FROM outbox ORDER BY id DESC LIMIT ?")
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(outbox_from_row).collect()
    }

    async fn outbox_sent(&self, id: i64, at: Timestamp) -> StoreResult<()> {
        let sql = "UPDATE outbox SET sent_at = ?, attempts = attempts + 1 WHERE id = ? AND sent_at IS NULL";
        self.execute(sql, binds![at, id]).await.map(drop)
    }

    async fn outbox_failed(&self, id: i64, error: &str, retry_at: Timestamp) -> StoreResult<()> {
        let sql = "UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt = ? WHERE id = ?";
        self.execute(sql, binds![error, retry_at, id]).await.map(drop)
    }

    async fn outbox_gave_up(&self, id: i64, error: &str, at: Timestamp) -> StoreResult<()> {
        let sql = "UPDATE outbox SET attempts = attempts + 1, last_error = ?, gave_up_at = ?, next_attempt = ? \
                   WHERE id = ? AND sent_at IS NULL";
        self.execute(sql, binds![error, at, i64::MAX, id]).await.map(drop)
    }

    async fn prune_outbox(&self, before: Timestamp) -> StoreResult<u64> {
        let sql = "DELETE FROM outbox WHERE (sent_at IS NOT NULL AND sent_at < ?) \
                   OR (gave_up_at IS NOT NULL AND gave_up_at < ?)";
        self.execute(sql, binds![before, before]).await
    }

    async fn claim_incoming(&self, key: &str, now: Timestamp, stale_before: Timestamp) -> StoreResult<bool> {
        self.write(|| async {
            let inserted = sqlx::query("INSERT OR IGNORE INTO incoming_mail (key, claimed) VALUES (?, ?)")
                .bind(key)
                .bind(now)
                .execute(&self.pool)
                .await?
                .rows_affected();
            if inserted == 1 {
                return Ok(true);
            }
            let taken_over = sqlx::query(
                "UPDATE incoming_mail SET claimed = ? WHERE key = ? AND done_at IS NULL AND claimed < ?",
            )
            .bind(now)
            .bind(key)
            .bind(stale_before)
            .execute(&self.pool)
            .await?
            .rows_affected();
            Ok(taken_over == 1)
        })
        .await
    }

    async fn finish_incoming(&self, key: &str, at: Timestamp) -> StoreResult<()> {
        self.write(|| async {
            let mut conn = self.pool.acquire().await?;
            mark_incoming_done(&mut conn, key, at).await
        })
        .await
    }

    async fn answer_incoming(&self, key: &str, reply: &OutboxMessage, at: Timestamp) -> StoreResult<()> {
        self.write(|| async {
            let mut tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
            insert_outbox(&mut tx, reply, at).await?;
            mark_incoming_done(&mut tx, key, at).await?;
            tx.commit().await?;
            Ok(())
        })
        .await
    }
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
        let sql =
            "INSERT OR IGNORE INTO tournaments (fingerprint, game, config, created) VALUES (?, ?, ?, ?)";
        self.execute(sql, binds![fingerprint, game, config, now]).await?;
        // The tournament is there now, whoever opened it first.
        let row = sqlx::query("SELECT id FROM tournaments WHERE fingerprint = ?")
            .bind(fingerprint)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("id")?)
    }

    async fn tournament_games(&self, id: i64) -> StoreResult<Vec<String>> {
        let rows = sqlx::query("SELECT result FROM tournament_games WHERE tournament_id = ? ORDER BY idx")
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| Ok(r.try_get("result")?)).collect()
    }

    async fn save_tournament_game(&self, id: i64, index: i64, result: &str) -> StoreResult<()> {
        let sql = "INSERT OR REPLACE INTO tournament_games (tournament_id, idx, result) VALUES (?, ?, ?)";
        self.execute(sql, binds![id, index, result]).await.map(drop)
    }

    async fn finish_tournament(&self, id: i64, report: &str, now: Timestamp) -> StoreResult<()> {
        let sql = "UPDATE tournaments SET finished = ?, report = ? WHERE id = ?";
        self.execute(sql, binds![now, report, id]).await.map(drop)
    }

    async fn tournaments(&self, limit: i64) -> StoreResult<Vec<TournamentRow>> {
        let rows = sqlx::query(
            "SELECT t.*, (SELECT COUNT(*) FROM tournament_games g WHERE g.tournament_id = t.id) AS games_done \
             FROM tournaments t ORDER BY id DESC LIMIT ?",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(tournament_from_row).collect()
    }

    async fn tournament(&self, id: i64) -> StoreResult<Option<TournamentRow>> {
        let row = sqlx::query(
            "SELECT t.*, (SELECT COUNT(*) FROM tournament_games g WHERE g.tournament_id = t.id) AS games_done \
             FROM tournaments t WHERE id = ?",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(tournament_from_row).transpose()
    }
}

#[async_trait]
impl Schedule for SqliteStore {
    async fn due_clocks(&self, now: Timestamp, limit: i64) -> StoreResult<Vec<i64>> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE next_clock IS NOT NULL AND next_clock <= ? AND status = 'active' \
             ORDER BY next_clock LIMIT ?",
        )
        .bind(now)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }
}

fn tournament_from_row(r: &SqliteRow) -> StoreResult<TournamentRow> {
    Ok(TournamentRow {
        id: r.try_get("id")?,
        game: r.try_get("game")?,
        fingerprint: r.try_get("fingerprint")?,
        config: r.try_get("config")?,
        created: r.try_get("created")?,
        finished: r.try_get("finished")?,
        report: r.try_get("report")?,
        games_done: r.try_get("games_done")?,
    })
}
