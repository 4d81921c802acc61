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

use sqlx::pool::PoolConnection;
use sqlx::{Arguments, AssertSqlSafe, FromRow, PgConnection, PgPool, Postgres};
use sqlx_core::migrate::{Migration, MigrationType, Migrator};
use sqlx_core::sql_str::SqlStr;
use sqlx_postgres::{PgArguments, PgConnectOptions, PgListener, PgPoolOptions};
use tabula_model::{Event, Timestamp};

use super::games::{side_effects, update_summary};
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
        (sql, values![&self.channel, &self.instance, board])
    }

    /// The rows of the read `sql` with `values`.
    pub(super) async fn rows<T: Row>(&self, sql: &'static str, values: Vec<Value>) -> StoreResult<Vec<T>> {
        Ok(sqlx::query_as_with(dollars(sql), bind(values)?).fetch_all(&self.pool).await?)
    }

    /// `statements` in one transaction; the rows each changed.
    pub(super) async fn write(&self, statements: Vec<Statement>) -> StoreResult<Vec<u64>> {
        let mut tx = self.pool.begin().await?;
        let mut changed = Vec::with_capacity(statements.len());
        for statement in statements {
            changed.push(run(&mut tx, statement).await?);
        }
        tx.commit().await?;
        Ok(changed)
    }

    /// `first` and, if it changed a row, `then`, in one transaction;
    /// whether `first` changed a row.
    pub(super) async fn write_after(&self, first: Statement, then: Vec<Statement>) -> StoreResult<bool> {
        let mut tx = self.pool.begin().await?;
        if run(&mut tx, first).await? == 0 {
            return Ok(false);
        }
        for statement in then {
            run(&mut tx, statement).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// The rows the write `sql` with `values` returns.
    pub(super) async fn write_rows<T: Row>(
        &self,
        sql: &'static str,
        values: Vec<Value>,
    ) -> StoreResult<Vec<T>> {
        self.rows(sql, values).await
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

/// Run one statement of a transaction; the rows it changed.
async fn run(conn: &mut PgConnection, (sql, values): Statement) -> StoreResult<u64> {
    Ok(sqlx::query_with(dollars(sql), bind(values)?).execute(conn).await?.rows_affected())
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
        migration(8, "hosted claims", include_str!("../../migrations/postgres/0008_hosted_claims.sql")),
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
    pub(super) async fn user(&self, id: &str) -> StoreResult<Option<UserRow>> {
        let sql = concat!("SELECT ", user!(), " FROM users WHERE id = $1");
        Ok(sqlx::query_as_with(sql, args![id]).fetch_optional(&self.pool).await?)
    }

    /// A token's owner, when it was last used, and the owner's account.
    pub(super) async fn token_owner(
        &self,
        hash: &str,
    ) -> StoreResult<Option<(String, Option<i64>, Option<UserRow>)>> {
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
        let found: Option<Found> = sqlx::query_as_with(sql, args![hash]).fetch_optional(&self.pool).await?;
        Ok(found.map(|f| (f.owner, f.last_used, f.account)))
    }

    pub(super) async fn bots_among(&self, users: &[String]) -> StoreResult<Vec<String>> {
        let sql = "SELECT user_id FROM bot_accounts WHERE user_id = ANY($1)";
        let rows: Vec<(String,)> = sqlx::query_as_with(sql, args![users]).fetch_all(&self.pool).await?;
        Ok(rows.into_iter().map(|(user,)| user).collect())
    }

    pub(super) async fn create_game(&self, g: &NewGame, effects: &NewGameEffects) -> StoreResult<i64> {
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
        for statement in side_effects(&effects(id), Some(id), g.created)? {
            run(&mut tx, statement).await?;
        }
        run(&mut tx, self.announce(id)).await?;
        tx.commit().await?;
        Ok(id)
    }

    pub(super) async fn game(&self, id: i64) -> StoreResult<Option<StoredGame>> {
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

    pub(super) async fn game_head(&self, id: i64) -> StoreResult<Option<GameHead>> {
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

    pub(super) async fn append(
        &self,
        expected_version: i64,
        events: &[Event],
        s: &GameSummary,
        effects: &[SideEffect],
    ) -> StoreResult<()> {
        let started = std::time::Instant::now();
        let mut tx = self.pool.begin().await?;
        // The row lock this takes makes a concurrent append wait, then see
        // the new version and match nothing.
        if run(&mut tx, update_summary(expected_version, events.len(), s)).await? == 0 {
            return Err(StoreError::Conflict);
        }
        // The events and the seats, each in one statement.
        let seqs: Vec<i64> = (expected_version..expected_version + events.len() as i64).collect();
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
        for statement in side_effects(effects, Some(s.id), s.updated)? {
            run(&mut tx, statement).await?;
        }
        run(&mut tx, self.announce(s.id)).await?;
        tx.commit().await?;
        let metrics = &*crate::metrics::METRICS;
        metrics.commit_batch_size.observe(1.0);
        metrics.commit_batch_seconds.observe(started.elapsed().as_secs_f64());
        Ok(())
    }

    pub(super) async fn games(&self, f: &GameFilter) -> StoreResult<Vec<GameSummary>> {
        let (sql, args) = games_query(f, summary!())?;
        Ok(sqlx::query_as_with(AssertSqlSafe(sql), args).fetch_all(&self.pool).await?)
    }

    pub(super) async fn count_games(&self, f: &GameFilter) -> StoreResult<usize> {
        let (inner, args) = games_query(f, "g.id")?;
        let sql = AssertSqlSafe(format!("SELECT COUNT(*) FROM ({inner}) listed"));
        let (count,): (i64,) = sqlx::query_as_with(sql, args).fetch_one(&self.pool).await?;
        Ok(count as usize)
    }

    pub(super) async fn finished(&self, kind: Option<&str>) -> StoreResult<Vec<GameSummary>> {
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
        let rows: Vec<Finished> = sqlx::query_as_with(sql, args![kind]).fetch_all(&self.pool).await?;
        Ok(rows.into_iter().map(|r| GameSummary { seat_results: r.seat_results, ..r.summary }).collect())
    }

    pub(super) async fn outbox_due(&self, now: Timestamp, limit: i64) -> StoreResult<Vec<OutboxRow>> {
        let sql = "SELECT * FROM outbox WHERE sent_at IS NULL AND gave_up_at IS NULL AND next_attempt <= ?1 \
                   ORDER BY id LIMIT ?2";
        self.rows(sql, values![now, limit]).await
    }

    pub(super) async fn claim_outbox(
        &self,
        now: Timestamp,
        lease_until: Timestamp,
        limit: i64,
    ) -> StoreResult<Vec<OutboxRow>> {
        // SKIP LOCKED: senders claiming at the same moment take different rows.
        let sql = "UPDATE outbox SET next_attempt = ?2 WHERE id IN (SELECT id FROM outbox WHERE sent_at IS NULL \
                   AND gave_up_at IS NULL AND next_attempt <= ?1 ORDER BY id LIMIT ?3 FOR UPDATE SKIP LOCKED) \
                   RETURNING *";
        self.rows(sql, values![now, lease_until, limit]).await
    }

    pub(super) async fn outbox(&self, limit: i64) -> StoreResult<Vec<OutboxRow>> {
        self.rows("SELECT * FROM outbox ORDER BY id DESC LIMIT ?1", values![limit]).await
    }

    pub(super) async fn enqueue_tournament_games(&self, id: i64, indices: &[i64]) -> StoreResult<()> {
        let sql = "INSERT INTO tournament_jobs (tournament_id, idx) SELECT $1, i FROM UNNEST($2::BIGINT[]) AS i \
                   ON CONFLICT (tournament_id, idx) DO NOTHING";
        sqlx::query_with(sql, args![id, indices]).execute(&self.pool).await?;
        Ok(())
    }

    pub(super) async fn claim_tournament_game(
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
        Ok(sqlx::query_as_with(sql, args![worker, now, lease_until]).fetch_optional(&self.pool).await?)
    }

    pub(super) async fn claim(&self, work: Work) -> StoreResult<Option<Claim>> {
        let key = match work {
            Work::Clock(board) => LOCK_CLOCK | (board & LOCK_IDS),
            Work::TimeLimits(board) => LOCK_LIMITS | (board & LOCK_IDS),
        };
        let mut conn = self.pool.acquire().await?;
        let (got,): (bool,) =
            sqlx::query_as_with("SELECT pg_try_advisory_lock($1)", args![key]).fetch_one(&mut *conn).await?;
        Ok(got.then(|| Claim::advisory(AdvisoryLock { conn: Some(conn), key })))
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

/// The statement of [`Store::games`] for `f`, selecting `columns` of each
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
