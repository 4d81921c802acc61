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

use async_trait::async_trait;
use sqlx::pool::PoolConnection;
use sqlx::postgres::PgRow;
use sqlx::{Arguments, AssertSqlSafe, FromRow, PgConnection, PgPool, Postgres, SqlSafeStr};
use sqlx_core::migrate::{Migration, MigrationType, Migrator};
use sqlx_core::sql_str::SqlStr;
use sqlx_postgres::{PgArguments, PgConnectOptions, PgListener, PgPoolOptions};
use tabula_model::{Event, Timestamp};

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

// The columns of the store's types as they read them: JSON text as `json`,
// integer flags as booleans, seat results as JSON strings.

/// An account's columns.
macro_rules! user {
    () => {
        "id, password_hash, emails::json AS emails, created, notify <> 0 AS notify, vacation_until, \
         game_limit, challenge_policy, signed_off <> 0 AS signed_off"
    };
}

/// A game's summary columns.
macro_rules! summary {
    () => {
        "g.id, g.kind, g.players::json AS players, g.status, g.moves, g.to_move::json AS to_move, g.version, \
         g.updated, g.result, g.next_clock"
    };
}

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
    pub async fn open(url: &str) -> StoreResult<Self> {
        let options = PgConnectOptions::from_str(url)?;
        let pool = PgPoolOptions::new()
            .max_connections(MAX_CONNECTIONS)
            .acquire_timeout(Duration::from_secs(30))
            .connect_with(options)
            .await?;
        migrator().run(&pool).await?;
        let schema: String = sqlx::query_scalar("SELECT current_schema()").fetch_one(&pool).await?;
        let instance = format!("{:016x}", rand::random::<u64>());
        Ok(PostgresStore { pool, channel: format!("tabula_changes_{schema}"), instance })
    }

    /// Announce, in the transaction of `conn`, that game `board` is at `version`.
    async fn notify(&self, conn: &mut PgConnection, board: i64, version: i64) -> StoreResult<()> {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(&self.channel)
            .bind(format!("{} {board} {version}", self.instance))
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    /// Run `sql` with `args` on the pool; the rows it changed.
    async fn execute(&self, sql: &'static str, args: PgArguments) -> StoreResult<u64> {
        Ok(sqlx::query_with(sql, args).execute(&self.pool).await?.rows_affected())
    }

    /// The rows of `sql` with `args`, mapped by column name onto `T`.
    async fn rows<T>(&self, sql: impl SqlSafeStr, args: PgArguments) -> StoreResult<Vec<T>>
    where
        T: for<'r> FromRow<'r, PgRow> + Send + Unpin,
    {
        Ok(sqlx::query_as_with(sql, args).fetch_all(&self.pool).await?)
    }

    /// The first row of `sql` with `args`, if any.
    async fn row<T>(&self, sql: &'static str, args: PgArguments) -> StoreResult<Option<T>>
    where
        T: for<'r> FromRow<'r, PgRow> + Send + Unpin,
    {
        Ok(sqlx::query_as_with(sql, args).fetch_optional(&self.pool).await?)
    }
}

/// The values of a statement, in order.
macro_rules! args {
    ($($value:expr),* $(,)?) => {{
        #[allow(unused_mut)]
        let mut args = PgArguments::default();
        $(args.add($value).map_err(sqlx::Error::Encode)?;)*
        args
    }};
}

/// The schema's migrations, recorded in sqlx's table (`_sqlx_migrations`)
/// by version and checksum, as they always were.
fn migrator() -> Migrator {
    let migration = |version, description: &'static str, sql| {
        Migration::new(version, description.into(), MigrationType::Simple, SqlStr::from_static(sql), false)
    };
    Migrator::with_migrations(vec![
        migration(1, "initial", include_str!("../../migrations/postgres/0001_initial.sql")),
        migration(2, "tokens sessions", include_str!("../../migrations/postgres/0002_tokens_sessions.sql")),
        migration(3, "tournaments", include_str!("../../migrations/postgres/0003_tournaments.sql")),
        migration(4, "mail delivery", include_str!("../../migrations/postgres/0004_mail_delivery.sql")),
        migration(5, "outbox done", include_str!("../../migrations/postgres/0005_outbox_done.sql")),
        migration(6, "rate limits", include_str!("../../migrations/postgres/0006_rate_limits.sql")),
        migration(7, "bot accounts", include_str!("../../migrations/postgres/0007_bot_accounts.sql")),
        migration(
            1001,
            "tournament jobs",
            include_str!("../../migrations/postgres/1001_tournament_jobs.sql"),
        ),
    ])
}

/// An advisory lock held on one pooled connection until released.
#[derive(Debug)]
pub(super) struct AdvisoryLock {
    conn: Option<PoolConnection<Postgres>>,
    key: i64,
}

impl AdvisoryLock {
    pub(super) async fn release(mut self) {
        if let Some(mut conn) = self.conn.take() {
            let unlocked =
                sqlx::query("SELECT pg_advisory_unlock($1)").bind(self.key).execute(&mut *conn).await;
            if unlocked.is_err() {
                // The session ends instead, and the lock with it.
                conn.close_on_drop();
            }
        }
    }
}

impl Drop for AdvisoryLock {
    fn drop(&mut self) {
        // Not released (a cancelled task): closing the session frees the lock.
        if let Some(conn) = self.conn.as_mut() {
            conn.close_on_drop();
        }
    }
}

/// Queue `m` in the outbox, made (and first due) at `at`, unless a message
/// with its key is there already; the rows added (0 or 1).
async fn insert_outbox(conn: &mut PgConnection, m: &OutboxMessage, at: Timestamp) -> StoreResult<usize> {
    let sql = "INSERT INTO outbox (key, created, recipient, subject, body, game_id, next_attempt) \
               VALUES ($1, $2, $3, $4, $5, $6, $2) ON CONFLICT (key) DO NOTHING";
    let args = args![&m.key, at, &m.recipient, &m.subject, &m.body, m.game_id];
    Ok(sqlx::query_with(sql, args).execute(conn).await?.rows_affected() as usize)
}

/// Queue `m` in the outbox, made at `at` and first due at `due`, or replace
/// the message with its key while that one is held back (unsent, never
/// tried, due after `at`).
async fn replace_held_outbox(
    conn: &mut PgConnection,
    m: &OutboxMessage,
    at: Timestamp,
    due: Timestamp,
) -> StoreResult<usize> {
    let sql = "INSERT INTO outbox (key, created, recipient, subject, body, game_id, next_attempt) \
               VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (key) DO UPDATE SET \
               recipient = excluded.recipient, subject = excluded.subject, body = excluded.body, \
               game_id = excluded.game_id, \
               next_attempt = excluded.next_attempt \
               WHERE outbox.sent_at IS NULL AND outbox.gave_up_at IS NULL AND outbox.attempts = 0 \
               AND outbox.next_attempt > $2";
    let args = args![&m.key, at, &m.recipient, &m.subject, &m.body, m.game_id, due];
    Ok(sqlx::query_with(sql, args).execute(conn).await?.rows_affected() as usize)
}

/// The side effects of a change made at `at` to the game `board` (`None`:
/// a change of no game, such as an account's), in its transaction.
async fn apply_effects(
    conn: &mut PgConnection,
    board: Option<i64>,
    at: Timestamp,
    effects: &[SideEffect],
) -> StoreResult<()> {
    let game = || board.ok_or_else(|| StoreError::Failed("a game's side effect without a game".into()));
    for effect in effects {
        match effect {
            SideEffect::Outbox(m) => {
                insert_outbox(conn, m, at).await?;
            }
            SideEffect::DeleteQueued(id) => {
                let sql = "DELETE FROM queued_moves WHERE id = $1";
                sqlx::query_with(sql, args![id]).execute(&mut *conn).await?;
            }
            SideEffect::DeletePending { user } => {
                let sql = "DELETE FROM pending_moves WHERE game_id = $1 AND user_id = $2";
                sqlx::query_with(sql, args![game()?, user]).execute(&mut *conn).await?;
            }
            SideEffect::Held { message, due } => {
                replace_held_outbox(conn, message, at, *due).await?;
            }
            SideEffect::Handled(key) => {
                finish_incoming(conn, key, at).await?;
            }
            SideEffect::Chat { user, text } => {
                insert_chat(conn, game()?, user, at, text).await?;
            }
        }
    }
    Ok(())
}

/// Add a line to a game's chat.
async fn insert_chat(
    conn: &mut PgConnection,
    game: i64,
    user: &str,
    at: Timestamp,
    text: &str,
) -> StoreResult<()> {
    let sql = "INSERT INTO chats (game_id, user_id, at, text) VALUES ($1, $2, $3, $4)";
    sqlx::query_with(sql, args![game, user, at, text]).execute(conn).await?;
    Ok(())
}

/// Marks a claimed incoming message handled (once: a later mark keeps the first time).
async fn finish_incoming(conn: &mut PgConnection, key: &str, at: Timestamp) -> StoreResult<()> {
    let sql = "UPDATE incoming_mail SET done_at = $1 WHERE key = $2 AND done_at IS NULL";
    sqlx::query_with(sql, args![at, key]).execute(conn).await?;
    Ok(())
}

/// Make the notifications held back by the incoming message `key` due at `at`.
async fn release_held_notes(conn: &mut PgConnection, key: &str, at: Timestamp) -> StoreResult<()> {
    let sql = "UPDATE outbox SET next_attempt = $1 WHERE left(key, length($2)) = $2 \
               AND sent_at IS NULL AND gave_up_at IS NULL AND attempts = 0 AND next_attempt > $1";
    sqlx::query_with(sql, args![at, crate::store::held_note_prefix(key)]).execute(conn).await?;
    Ok(())
}

/// Split `instance board version` as sent by [`PostgresStore::notify`].
fn parse_change(payload: &str) -> Option<(&str, GameChange)> {
    let mut words = payload.split(' ');
    let instance = words.next()?;
    let board = words.next()?.parse().ok()?;
    let version = words.next()?.parse().ok()?;
    Some((instance, GameChange { board, version }))
}

#[async_trait]
impl Accounts for PostgresStore {
    async fn create_user_with(&self, u: &UserRow, effects: &[SideEffect], at: Timestamp) -> StoreResult<()> {
        let sql = "INSERT INTO users (id, password_hash, emails, notify, vacation_until, game_limit, \
                   challenge_policy, signed_off, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";
        let mut tx = self.pool.begin().await?;
        match sqlx::query_with(sql, user_args(u)?).execute(&mut *tx).await {
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => return Err(StoreError::Exists),
            r => r?,
        };
        apply_effects(&mut tx, None, at, effects).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn user(&self, id: &str) -> StoreResult<Option<UserRow>> {
        self.row(concat!("SELECT ", user!(), " FROM users WHERE id = $1"), args![id]).await
    }

    async fn update_user_with(&self, u: &UserRow, effects: &[SideEffect], at: Timestamp) -> StoreResult<()> {
        // $9, the creation time, is bound (the values are a user's row) and
        // left as it is.
        let sql = "UPDATE users SET password_hash = $2, emails = $3, notify = $4, vacation_until = $5, \
                   game_limit = $6, challenge_policy = $7, signed_off = $8 WHERE id = $1";
        let mut tx = self.pool.begin().await?;
        if sqlx::query_with(sql, user_args(u)?).execute(&mut *tx).await?.rows_affected() == 0 {
            return Err(StoreError::NotFound);
        }
        apply_effects(&mut tx, None, at, effects).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn create_token(&self, user: &str, name: &str, hash: &str, now: Timestamp) -> StoreResult<i64> {
        let sql = "INSERT INTO tokens (hash, user_id, name, created) VALUES ($1, $2, $3, $4) RETURNING id";
        let (id,) = sqlx::query_as_with(sql, args![hash, user, name, now]).fetch_one(&self.pool).await?;
        Ok(id)
    }

    async fn token_account(
        &self,
        hash: &str,
        now: Timestamp,
    ) -> StoreResult<Option<(String, Option<UserRow>)>> {
        // The token and its owner's account in one statement (one snapshot):
        // a revoked token is refused as soon as the revocation committed, on
        // every server, since nothing of it is kept between requests.
        #[derive(FromRow)]
        struct Found {
            owner: String,
            last_used: Option<Timestamp>,
            #[sqlx(json(nullable))]
            account: Option<UserRow>,
        }
        let sql = concat!(
            "SELECT t.user_id AS owner, t.last_used, (SELECT row_to_json(a) FROM (SELECT ",
            user!(),
            " FROM users WHERE id = t.user_id) a) AS account FROM tokens t WHERE t.hash = $1 AND t.revoked IS NULL"
        );
        let Some(found) = self.row::<Found>(sql, args![hash]).await? else { return Ok(None) };
        if token_use_due(found.last_used, now) {
            let sql = "UPDATE tokens SET last_used = $1 WHERE hash = $2 AND revoked IS NULL";
            self.execute(sql, args![now, hash]).await?;
        }
        Ok(Some((found.owner, found.account)))
    }

    async fn tokens(&self, user: &str) -> StoreResult<Vec<TokenRow>> {
        self.rows("SELECT * FROM tokens WHERE user_id = $1 ORDER BY id", args![user]).await
    }

    async fn revoke_token(&self, user: &str, id: i64, now: Timestamp) -> StoreResult<bool> {
        let sql = "UPDATE tokens SET revoked = $1 WHERE id = $2 AND user_id = $3 AND revoked IS NULL";
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
        let sql = "INSERT INTO sessions (hash, user_id, csrf, created, expires) VALUES ($1, $2, $3, $4, $5)";
        self.execute(sql, args![hash, user, csrf, now, expires]).await.map(drop)
    }

    async fn session(&self, hash: &str, now: Timestamp) -> StoreResult<Option<SessionRow>> {
        let sql = "SELECT user_id, csrf, expires FROM sessions WHERE hash = $1 AND expires > $2";
        self.row(sql, args![hash, now]).await
    }

    async fn delete_session(&self, hash: &str) -> StoreResult<()> {
        self.execute("DELETE FROM sessions WHERE hash = $1", args![hash]).await.map(drop)
    }

    async fn end_logins(&self, user: &str, now: Timestamp) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        let sql = "UPDATE tokens SET revoked = $1 WHERE user_id = $2 AND revoked IS NULL";
        sqlx::query_with(sql, args![now, user]).execute(&mut *tx).await?;
        sqlx::query_with("DELETE FROM sessions WHERE user_id = $1", args![user]).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn limit(&self, name: &str) -> StoreResult<Option<LimitCount>> {
        self.row("SELECT hits, last_at FROM rate_limits WHERE name = $1", args![name]).await
    }

    async fn count_limit(
        &self,
        name: &str,
        now: Timestamp,
        forget_before: Timestamp,
    ) -> StoreResult<LimitCount> {
        // One statement: two servers counting the same name at once both
        // count (the conflict makes the second wait for the first's row).
        let sql = "INSERT INTO rate_limits (name, hits, last_at) VALUES ($1, 1, $2) ON CONFLICT (name) DO UPDATE \
                   SET hits = CASE WHEN rate_limits.last_at < $3 THEN 1 ELSE rate_limits.hits + 1 END, \
                   last_at = $2 RETURNING hits, last_at";
        Ok(sqlx::query_as_with(sql, args![name, now, forget_before]).fetch_one(&self.pool).await?)
    }

    async fn clear_limit(&self, name: &str) -> StoreResult<()> {
        self.execute("DELETE FROM rate_limits WHERE name = $1", args![name]).await.map(drop)
    }

    async fn prune_limits(&self, before: Timestamp) -> StoreResult<u64> {
        self.execute("DELETE FROM rate_limits WHERE last_at < $1", args![before]).await
    }
}

/// The values of a user's row, in the order of its columns in
/// [`Accounts::create_user`] (id first, creation time last).
fn user_args(u: &UserRow) -> StoreResult<PgArguments> {
    Ok(args![
        &u.id,
        &u.password_hash,
        json(&u.emails),
        u.notify as i64,
        u.vacation_until,
        u.game_limit,
        &u.challenge_policy,
        u.signed_off as i64,
        u.created,
    ])
}

#[async_trait]
impl Games for PostgresStore {
    async fn create_game_with(&self, g: &NewGame, effects: NewGameEffects) -> StoreResult<i64> {
        let mut tx = self.pool.begin().await?;
        let sql = "INSERT INTO games (kind, options, players, seed, created, version, status, moves, to_move, \
                   updated, next_clock) VALUES ($1, $2, $3, $4, $5, 0, $6, 0, $7, $5, $8) RETURNING id";
        let (g_options, g_players, g_to_move) = (json(&g.options), json(&g.players), json(&g.to_move));
        let args = args![
            &g.kind,
            g_options,
            g_players,
            g.seed as i64,
            g.created,
            g.status.as_str(),
            g_to_move,
            g.next_clock
        ];
        let (id,): (i64,) = sqlx::query_as_with(sql, args).fetch_one(&mut *tx).await?;
        let accepted: Vec<i64> =
            (0..g.players.len()).map(|s| g.accepted.get(s).copied().unwrap_or(true) as i64).collect();
        let sql = "INSERT INTO game_players (game_id, seat, user_id, accepted) SELECT $1, seat - 1, user_id, accepted \
                   FROM UNNEST($2::TEXT[], $3::BIGINT[]) WITH ORDINALITY AS s (user_id, accepted, seat)";
        sqlx::query_with(sql, args![id, &g.players, accepted]).execute(&mut *tx).await?;
        apply_effects(&mut tx, Some(id), g.created, &effects(id)).await?;
        self.notify(&mut tx, id, 0).await?;
        tx.commit().await?;
        Ok(id)
    }

    async fn game(&self, id: i64) -> StoreResult<Option<StoredGame>> {
        // One snapshot for the summary, seats and events, so they agree
        // even while another process appends.
        let mut tx = self.pool.begin().await?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY").execute(&mut *tx).await?;
        let sql = concat!(
            "SELECT ",
            summary!(),
            ", options::json AS options, seed, created FROM games g WHERE id = $1"
        );
        let Some(row) = sqlx::query_as_with::<_, GameRow, _>(sql, args![id]).fetch_optional(&mut *tx).await?
        else {
            return Ok(None);
        };
        let seats = "SELECT p.accepted <> 0 AS accepted, to_json(p.result) AS result, p.user_id, \
                     b.user_id IS NOT NULL AS bot FROM game_players p \
                     LEFT JOIN bot_accounts b ON b.user_id = p.user_id WHERE p.game_id = $1 ORDER BY p.seat";
        let seats = sqlx::query_as_with(seats, args![id]).fetch_all(&mut *tx).await?;
        let events = "SELECT at, seat, action::json AS action FROM events WHERE game_id = $1 ORDER BY seq";
        let events = sqlx::query_as_with(events, args![id]).fetch_all(&mut *tx).await?;
        tx.commit().await?;
        stored_game(row, seats, events).map(Some)
    }

    async fn game_version(&self, id: i64) -> StoreResult<Option<i64>> {
        let version = self.row("SELECT version FROM games WHERE id = $1", args![id]).await?;
        Ok(version.map(|(v,)| v))
    }

    async fn game_head(&self, id: i64) -> StoreResult<Option<GameHead>> {
        // One statement (one snapshot, one round trip) for the summary, the
        // seats and the subscribers, with the mail settings of each.
        let sql = concat!(
            "SELECT ",
            summary!(),
            ", 0 AS part, p.seat, p.accepted <> 0 AS accepted, to_json(p.result) AS seat_result, \
             p.user_id AS reader, u.emails::json AS emails, u.notify <> 0 AS notify, \
             u.signed_off <> 0 AS signed_off, b.user_id IS NOT NULL AS bot \
             FROM games g LEFT JOIN game_players p ON p.game_id = g.id LEFT JOIN users u ON u.id = p.user_id \
             LEFT JOIN bot_accounts b ON b.user_id = p.user_id \
             WHERE g.id = $1 \
             UNION ALL SELECT ",
            summary!(),
            ", 1, NULL, NULL, NULL, s.user_id, u.emails::json, u.notify <> 0, u.signed_off <> 0, NULL FROM games g \
             JOIN subscriptions s ON s.game_id = g.id LEFT JOIN users u ON u.id = s.user_id \
             WHERE g.id = $1 ORDER BY part, seat, reader"
        );
        let rows = sqlx::query_with(sql, args![id]).fetch_all(&self.pool).await?;
        let Some(first) = rows.first() else { return Ok(None) };
        let readers = rows.iter().map(ReaderRow::from_row).collect::<Result<Vec<_>, _>>()?;
        Ok(Some(game_head(GameSummary::from_row(first)?, readers)))
    }

    async fn append(
        &self,
        expected_version: i64,
        events: &[Event],
        s: &GameSummary,
        effects: &[SideEffect],
    ) -> StoreResult<()> {
        let started = std::time::Instant::now();
        let version = expected_version + events.len() as i64;
        let mut tx = self.pool.begin().await?;
        // The row lock this takes makes a concurrent append wait, then see
        // the new version and match nothing.
        let sql = "UPDATE games SET version = $1, status = $2, moves = $3, to_move = $4, updated = $5, \
                   result = $6, next_clock = $7, players = $8 WHERE id = $9 AND version = $10";
        let (to_move, players) = (json(&s.to_move), json(&s.players));
        let args = args![
            version,
            s.status.as_str(),
            s.moves,
            to_move,
            s.updated,
            &s.result,
            s.next_clock,
            players,
            s.id,
            expected_version
        ];
        if sqlx::query_with(sql, args).execute(&mut *tx).await?.rows_affected() == 0 {
            return Err(StoreError::Conflict);
        }
        // The events and the seats, each in one statement.
        let seqs: Vec<i64> = (expected_version..version).collect();
        let ats: Vec<i64> = events.iter().map(|e| e.at).collect();
        let seats: Vec<Option<i64>> = events.iter().map(|e| e.seat.map(|x| x as i64)).collect();
        let actions: Vec<String> = events.iter().map(|e| json(&e.action)).collect();
        let sql = "INSERT INTO events (game_id, seq, at, seat, action) \
                   SELECT $1, * FROM UNNEST($2::BIGINT[], $3::BIGINT[], $4::BIGINT[], $5::TEXT[])";
        sqlx::query_with(sql, args![s.id, seqs, ats, seats, actions]).execute(&mut *tx).await?;
        let results: Vec<Option<&str>> = (0..s.players.len())
            .map(|seat| s.seat_results.get(seat).copied().flatten().map(result_word))
            .collect();
        let sql = "INSERT INTO game_players (game_id, seat, user_id, accepted, result) SELECT $1, seat - 1, user_id, 1, result \
                   FROM UNNEST($2::TEXT[], $3::TEXT[]) WITH ORDINALITY AS s (user_id, result, seat) \
                   ON CONFLICT (game_id, seat) DO UPDATE SET result = excluded.result";
        sqlx::query_with(sql, args![s.id, &s.players, results]).execute(&mut *tx).await?;
        apply_effects(&mut tx, Some(s.id), s.updated, effects).await?;
        self.notify(&mut tx, s.id, version).await?;
        tx.commit().await?;
        let metrics = &*crate::metrics::METRICS;
        metrics.commit_batch_size.observe(1.0);
        metrics.commit_batch_seconds.observe(started.elapsed().as_secs_f64());
        Ok(())
    }

    async fn set_acceptance(
        &self,
        id: i64,
        seat: usize,
        accepted: bool,
        status: GameStatus,
    ) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        let sql = "UPDATE game_players SET accepted = $1 WHERE game_id = $2 AND seat = $3";
        sqlx::query_with(sql, args![accepted as i64, id, seat as i64]).execute(&mut *tx).await?;
        let sql = "UPDATE games SET status = $1 WHERE id = $2 RETURNING version";
        let version = sqlx::query_as_with(sql, args![status.as_str(), id]).fetch_optional(&mut *tx).await?;
        if let Some((version,)) = version {
            self.notify(&mut tx, id, version).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn games(&self, f: &GameFilter) -> StoreResult<Vec<GameSummary>> {
        let (sql, args) = games_query(f, summary!())?;
        self.rows(AssertSqlSafe(sql), args).await
    }

    async fn count_games(&self, f: &GameFilter) -> StoreResult<usize> {
        let (inner, args) = games_query(f, "g.id")?;
        let count: Vec<(i64,)> =
            self.rows(AssertSqlSafe(format!("SELECT COUNT(*) FROM ({inner}) listed")), args).await?;
        Ok(count.first().map_or(0, |(n,)| *n as usize))
    }

    async fn finished(&self, kind: Option<&str>) -> StoreResult<Vec<GameSummary>> {
        #[derive(FromRow)]
        struct Finished {
            #[sqlx(flatten)]
            summary: GameSummary,
            #[sqlx(json)]
            seat_results: Vec<Option<SeatResult>>,
        }
        let sql = concat!(
            "SELECT ",
            summary!(),
            ", COALESCE((SELECT json_agg(p.result ORDER BY p.seat) FROM game_players p \
             WHERE p.game_id = g.id), '[]') AS seat_results \
             FROM games g WHERE status = 'finished' AND ($1::text IS NULL OR kind = $1) ORDER BY updated, id"
        );
        let rows: Vec<Finished> = self.rows(sql, args![kind]).await?;
        Ok(rows.into_iter().map(|r| GameSummary { seat_results: r.seat_results, ..r.summary }).collect())
    }

    async fn subscribe(&self, game: i64, user: &str, on: bool) -> StoreResult<()> {
        let sql = if on {
            "INSERT INTO subscriptions (game_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING"
        } else {
            "DELETE FROM subscriptions WHERE game_id = $1 AND user_id = $2"
        };
        self.execute(sql, args![game, user]).await.map(drop)
    }

    async fn subscribers(&self, game: i64) -> StoreResult<Vec<String>> {
        let sql = "SELECT user_id FROM subscriptions WHERE game_id = $1 ORDER BY user_id";
        Ok(self.rows(sql, args![game]).await?.into_iter().map(|(user,)| user).collect())
    }

    async fn queue_move(&self, game: i64, user: &str, text: &str, at: Timestamp) -> StoreResult<()> {
        let sql = "INSERT INTO queued_moves (game_id, user_id, move, created) VALUES ($1, $2, $3, $4)";
        self.execute(sql, args![game, user, text, at]).await.map(drop)
    }

    async fn queued_moves(&self, game: i64) -> StoreResult<Vec<QueuedMove>> {
        let sql = "SELECT id, user_id, move FROM queued_moves WHERE game_id = $1 ORDER BY id";
        self.rows(sql, args![game]).await
    }

    async fn set_pending(&self, game: i64, user: &str, text: &str, at: Timestamp) -> StoreResult<()> {
        let sql = "INSERT INTO pending_moves (game_id, user_id, move, created) VALUES ($1, $2, $3, $4) \
                   ON CONFLICT (game_id, user_id) DO UPDATE SET move = excluded.move, created = excluded.created";
        self.execute(sql, args![game, user, text, at]).await.map(drop)
    }

    async fn pending(&self, game: i64, user: &str) -> StoreResult<Option<String>> {
        let sql = "SELECT move FROM pending_moves WHERE game_id = $1 AND user_id = $2";
        Ok(self.row(sql, args![game, user]).await?.map(|(text,)| text))
    }

    async fn chat(
        &self,
        game: i64,
        user: &str,
        at: Timestamp,
        text: &str,
        messages: &[OutboxMessage],
    ) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        insert_chat(&mut tx, game, user, at, text).await?;
        for m in messages {
            insert_outbox(&mut tx, m, at).await?;
        }
        // Open pages elsewhere show the line at once.
        let sql = "SELECT version FROM games WHERE id = $1";
        if let Some((version,)) = sqlx::query_as_with(sql, args![game]).fetch_optional(&mut *tx).await? {
            self.notify(&mut tx, game, version).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn chats(&self, game: i64) -> StoreResult<Vec<ChatRow>> {
        self.rows("SELECT user_id, at, text FROM chats WHERE game_id = $1 ORDER BY id", args![game]).await
    }
}

#[async_trait]
impl Mail for PostgresStore {
    async fn enqueue(&self, messages: &[OutboxMessage], now: Timestamp) -> StoreResult<usize> {
        let mut tx = self.pool.begin().await?;
        let mut queued = 0;
        for m in messages {
            queued += insert_outbox(&mut tx, m, now).await?;
        }
        tx.commit().await?;
        Ok(queued)
    }

    async fn outbox_due(&self, now: Timestamp, limit: i64) -> StoreResult<Vec<OutboxRow>> {
        let sql = "SELECT * FROM outbox WHERE sent_at IS NULL AND gave_up_at IS NULL AND next_attempt <= $1 \
                   ORDER BY id LIMIT $2";
        self.rows(sql, args![now, limit]).await
    }

    async fn claim_outbox(
        &self,
        now: Timestamp,
        lease_until: Timestamp,
        limit: i64,
    ) -> StoreResult<Vec<OutboxRow>> {
        // SKIP LOCKED: senders claiming at the same moment take different rows.
        let sql = "UPDATE outbox SET next_attempt = $2 WHERE id IN (SELECT id FROM outbox WHERE sent_at IS NULL \
                   AND gave_up_at IS NULL AND next_attempt <= $1 ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED) \
                   RETURNING *";
        let mut claimed: Vec<OutboxRow> = self.rows(sql, args![now, lease_until, limit]).await?;
        claimed.sort_by_key(|r| r.id);
        Ok(claimed)
    }

    async fn move_outbox_claim(
        &self,
        ids: &[i64],
        held_until: Timestamp,
        until: Timestamp,
    ) -> StoreResult<u64> {
        let sql = "UPDATE outbox SET next_attempt = $1 WHERE id = ANY($2) AND next_attempt = $3 \
                   AND sent_at IS NULL AND gave_up_at IS NULL";
        self.execute(sql, args![until, ids.to_vec(), held_until]).await
    }

    async fn count_outbox_to(
        &self,
        recipient: &str,
        key_prefix: &str,
        subject_suffix: &str,
        since: Timestamp,
    ) -> StoreResult<i64> {
        // left/right rather than LIKE: the prefix and suffix are matched as they are, wildcards and all.
        let sql = "SELECT COUNT(*) FROM outbox WHERE lower(recipient) = lower($1) AND created >= $2 \
                   AND left(key, length($3)) = $3 AND right(subject, length($4)) = $4";
        let (count,): (i64,) = sqlx::query_as_with(sql, args![recipient, since, key_prefix, subject_suffix])
            .fetch_one(&self.pool)
            .await?;
        Ok(count)
    }

    async fn outbox(&self, limit: i64) -> StoreResult<Vec<OutboxRow>> {
        self.rows("SELECT * FROM outbox ORDER BY id DESC LIMIT $1", args![limit]).await
    }

    async fn outbox_backlog(&self) -> StoreResult<(i64, Option<Timestamp>)> {
        const SQL: &str =
            "SELECT COUNT(*), MIN(created) FROM outbox WHERE sent_at IS NULL AND gave_up_at IS NULL";
        Ok(sqlx::query_as(SQL).fetch_one(&self.pool).await?)
    }

    async fn outbox_sent(&self, id: i64, at: Timestamp) -> StoreResult<()> {
        let sql = "UPDATE outbox SET sent_at = $1, attempts = attempts + 1 WHERE id = $2 AND sent_at IS NULL";
        self.execute(sql, args![at, id]).await.map(drop)
    }

    async fn outbox_failed(&self, id: i64, error: &str, retry_at: Timestamp) -> StoreResult<()> {
        let sql =
            "UPDATE outbox SET attempts = attempts + 1, last_error = $1, next_attempt = $2 WHERE id = $3";
        self.execute(sql, args![error, retry_at, id]).await.map(drop)
    }

    async fn outbox_gave_up(&self, id: i64, error: &str, at: Timestamp) -> StoreResult<()> {
        let sql = "UPDATE outbox SET attempts = attempts + 1, last_error = $1, gave_up_at = $2, next_attempt = $3 \
                   WHERE id = $4 AND sent_at IS NULL";
        self.execute(sql, args![error, at, i64::MAX, id]).await.map(drop)
    }

    async fn prune_outbox(&self, before: Timestamp) -> StoreResult<u64> {
        let sql = "DELETE FROM outbox WHERE (sent_at IS NOT NULL AND sent_at < $1) \
                   OR (gave_up_at IS NOT NULL AND gave_up_at < $1)";
        self.execute(sql, args![before]).await
    }

    async fn claim_incoming(&self, key: &str, now: Timestamp, stale_before: Timestamp) -> StoreResult<bool> {
        let new = "INSERT INTO incoming_mail (key, claimed) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING";
        let stale =
            "UPDATE incoming_mail SET claimed = $2 WHERE key = $1 AND done_at IS NULL AND claimed < $3";
        Ok(self.execute(new, args![key, now]).await? == 1
            || self.execute(stale, args![key, now, stale_before]).await? == 1)
    }

    async fn incoming_done(&self, key: &str) -> StoreResult<bool> {
        let sql = "SELECT COUNT(*) FROM incoming_mail WHERE key = $1 AND done_at IS NOT NULL";
        let (done,): (i64,) = sqlx::query_as_with(sql, args![key]).fetch_one(&self.pool).await?;
        Ok(done > 0)
    }

    async fn finish_incoming(&self, key: &str, at: Timestamp) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        finish_incoming(&mut tx, key, at).await?;
        release_held_notes(&mut tx, key, at).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn answer_incoming(&self, key: &str, reply: &OutboxMessage, at: Timestamp) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        replace_held_outbox(&mut tx, reply, at, at).await?;
        finish_incoming(&mut tx, key, at).await?;
        release_held_notes(&mut tx, key, at).await?;
        tx.commit().await?;
        Ok(())
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
impl Tournaments for PostgresStore {
    async fn open_tournament(
        &self,
        fingerprint: &str,
        game: &str,
        config: &str,
        now: Timestamp,
    ) -> StoreResult<i64> {
        let sql = "INSERT INTO tournaments (fingerprint, game, config, created) VALUES ($1, $2, $3, $4) \
                   ON CONFLICT (fingerprint) DO NOTHING";
        self.execute(sql, args![fingerprint, game, config, now]).await?;
        // The tournament is there now, whoever opened it first.
        let sql = "SELECT id FROM tournaments WHERE fingerprint = $1";
        let (id,) = sqlx::query_as_with(sql, args![fingerprint]).fetch_one(&self.pool).await?;
        Ok(id)
    }

    async fn tournament_games(&self, id: i64) -> StoreResult<Vec<String>> {
        let sql = "SELECT result FROM tournament_games WHERE tournament_id = $1 ORDER BY idx";
        Ok(self.rows(sql, args![id]).await?.into_iter().map(|(result,)| result).collect())
    }

    async fn save_tournament_game(&self, id: i64, index: i64, result: &str) -> StoreResult<()> {
        let sql = "INSERT INTO tournament_games (tournament_id, idx, result) VALUES ($1, $2, $3) \
                   ON CONFLICT (tournament_id, idx) DO UPDATE SET result = excluded.result";
        self.execute(sql, args![id, index, result]).await.map(drop)
    }

    async fn finish_tournament(&self, id: i64, report: &str, now: Timestamp) -> StoreResult<()> {
        let sql = "UPDATE tournaments SET finished = $1, report = $2 WHERE id = $3";
        self.execute(sql, args![now, report, id]).await.map(drop)
    }

    async fn tournaments(&self, limit: i64) -> StoreResult<Vec<TournamentRow>> {
        self.rows(concat!(tournament!(), " ORDER BY id DESC LIMIT $1"), args![limit]).await
    }

    async fn tournament(&self, id: i64) -> StoreResult<Option<TournamentRow>> {
        self.row(concat!(tournament!(), " WHERE id = $1"), args![id]).await
    }

    async fn enqueue_tournament_games(&self, id: i64, indices: &[i64]) -> StoreResult<()> {
        let sql = "INSERT INTO tournament_jobs (tournament_id, idx) SELECT $1, i FROM UNNEST($2::BIGINT[]) AS i \
                   ON CONFLICT (tournament_id, idx) DO NOTHING";
        self.execute(sql, args![id, indices]).await.map(drop)
    }

    async fn claim_tournament_game(
        &self,
        worker: &str,
        now: Timestamp,
        lease_until: Timestamp,
    ) -> StoreResult<Option<TournamentJob>> {
        // SKIP LOCKED: workers claiming at the same moment take different games.
        let sql = "UPDATE tournament_jobs j SET claimed_by = $1, lease_until = $3, attempts = j.attempts + 1 \
                   FROM (SELECT tournament_id, idx FROM tournament_jobs WHERE NOT done \
                         AND (lease_until IS NULL OR lease_until <= $2) \
                         ORDER BY tournament_id, idx LIMIT 1 FOR UPDATE SKIP LOCKED) free, tournaments t \
                   WHERE j.tournament_id = free.tournament_id AND j.idx = free.idx AND t.id = j.tournament_id \
                   RETURNING j.tournament_id AS tournament, j.idx AS index, t.config";
        self.row(sql, args![worker, now, lease_until]).await
    }

    async fn renew_tournament_game(
        &self,
        job: &TournamentJob,
        worker: &str,
        lease_until: Timestamp,
    ) -> StoreResult<bool> {
        let sql = "UPDATE tournament_jobs SET lease_until = $1 WHERE tournament_id = $2 AND idx = $3 \
                   AND claimed_by = $4 AND NOT done";
        Ok(self.execute(sql, args![lease_until, job.tournament, job.index, worker]).await? == 1)
    }

    async fn finish_tournament_game(&self, job: &TournamentJob, result: &str) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        // A game is played the same wherever it is played: a second result
        // for it (from a worker whose lease ran out) is the same result.
        let sql = "INSERT INTO tournament_games (tournament_id, idx, result) VALUES ($1, $2, $3) \
                   ON CONFLICT (tournament_id, idx) DO NOTHING";
        sqlx::query_with(sql, args![job.tournament, job.index, result]).execute(&mut *tx).await?;
        let sql = "UPDATE tournament_jobs SET done = TRUE WHERE tournament_id = $1 AND idx = $2";
        sqlx::query_with(sql, args![job.tournament, job.index]).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn tournament_games_left(&self, id: Option<i64>) -> StoreResult<i64> {
        let sql = "SELECT COUNT(*) FROM tournament_jobs WHERE NOT done AND ($1::BIGINT IS NULL OR tournament_id = $1)";
        let (left,) = sqlx::query_as_with(sql, args![id]).fetch_one(&self.pool).await?;
        Ok(left)
    }
}

#[async_trait]
impl Schedule for PostgresStore {
    async fn due_clocks(&self, now: Timestamp, limit: i64) -> StoreResult<Vec<i64>> {
        let sql = "SELECT id FROM games WHERE next_clock IS NOT NULL AND next_clock <= $1 AND status = 'active' \
                   ORDER BY next_clock LIMIT $2";
        Ok(self.rows(sql, args![now, limit]).await?.into_iter().map(|(id,)| id).collect())
    }

    async fn claim(&self, work: Work) -> StoreResult<Option<Claim>> {
        let key = match work {
            Work::Clock(board) => LOCK_CLOCK | (board & LOCK_IDS),
            Work::TimeLimits(board) => LOCK_LIMITS | (board & LOCK_IDS),
        };
        let mut conn = self.pool.acquire().await?;
        let (got,): (bool,) =
            sqlx::query_as_with("SELECT pg_try_advisory_lock($1)", args![key]).fetch_one(&mut *conn).await?;
        Ok(got.then(|| Claim::advisory(AdvisoryLock { conn: Some(conn), key })))
    }

    async fn changes(&self) -> StoreResult<Option<tokio::sync::mpsc::Receiver<GameChange>>> {
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
        Ok(Some(rx))
    }
}

/// The statement of [`Games::games`] for `f`, selecting `columns` of each
/// game (`g`), and its values in order.
fn games_query(f: &GameFilter, columns: &str) -> StoreResult<(String, PgArguments)> {
    let to_move = |m: &str| format!("g.to_move::jsonb @> jsonb_build_array({m}::text)");
    let (sql, values) = f.query(columns, |n| format!("${n}"), "JOIN", to_move);
    let mut args = PgArguments::default();
    for value in values {
        match value {
            Param::Text(text) => args.add(text),
            Param::Int(n) => args.add(n),
        }
        .map_err(sqlx::Error::Encode)?;
    }
    Ok((sql, args))
}

mod bots;
