//! The shared store: one PostgreSQL database behind any number of Tabula
//! processes. Appends are checked against the game's version inside their
//! transaction (a row lock, so the second of two concurrent appends sees the
//! first's version and fails with `Conflict`), and a commit returns only
//! once PostgreSQL has made it durable (`synchronous_commit` as configured,
//! `on` by default). Each committed change to a game is announced with
//! NOTIFY in the same transaction, so other processes hear of it exactly
//! when it becomes visible.

use std::str::FromStr;
use std::time::Duration;

use async_trait::async_trait;
use sqlx::pool::PoolConnection;
use sqlx::postgres::{PgConnectOptions, PgListener, PgPoolOptions, PgRow};
use sqlx::{AssertSqlSafe, PgPool, Postgres, Row};
use tabula_model::{Event, EventAction, Timestamp};

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
/// How precisely a token's last use is recorded (as in SQLite).
const TOKEN_USE_RESOLUTION_MS: i64 = 60_000;

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
        sqlx::migrate!("./migrations/postgres").run(&pool).await?;
        let schema: String =
            sqlx::query("SELECT current_schema() AS s").fetch_one(&pool).await?.try_get("s")?;
        let instance = format!("{:016x}", rand::random::<u64>());
        Ok(PostgresStore { pool, channel: format!("tabula_changes_{schema}"), instance })
    }

    /// The connection pool (for tests and tools).
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// Record the use of token `hash`, last recorded at `last_used`.
    async fn note_token_use(
        &self,
        hash: &str,
        last_used: Option<Timestamp>,
        now: Timestamp,
    ) -> StoreResult<()> {
        // The use is noted to the minute: a write on every request of a busy
        // client would cost as much as its moves.
        if last_used.is_none_or(|t| now - t >= TOKEN_USE_RESOLUTION_MS || now < t) {
            sqlx::query("UPDATE tokens SET last_used = $1 WHERE hash = $2 AND revoked IS NULL")
                .bind(now)
                .bind(hash)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    async fn notify(&self, conn: &mut sqlx::PgConnection, board: i64, version: i64) -> StoreResult<()> {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(&self.channel)
            .bind(format!("{} {board} {version}", self.instance))
            .execute(&mut *conn)
            .await?;
        Ok(())
    }
}

/// An advisory lock held on one pooled connection until released.
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

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("plain data serialises")
}

fn unjson<T: serde::de::DeserializeOwned>(text: &str, what: &str) -> StoreResult<T> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

fn user_from_row(row: &PgRow) -> StoreResult<UserRow> {
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

const SUMMARY_COLUMNS: &str =
    "id, kind, players, status, moves, to_move, version, updated, result, next_clock";

fn summary_from_row(row: &PgRow) -> StoreResult<GameSummary> {
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

fn event_from_row(row: &PgRow) -> StoreResult<Event> {
    let seat: Option<i64> = row.try_get("seat")?;
    Ok(Event {
        at: row.try_get("at")?,
        seat: seat.map(|s| s as usize),
        action: unjson::<EventAction>(&row.try_get::<String, _>("action")?, "event")?,
    })
}

fn outbox_from_row(row: &PgRow) -> StoreResult<OutboxRow> {
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

fn tournament_from_row(r: &PgRow) -> StoreResult<TournamentRow> {
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

/// Marks a claimed incoming message handled (once: a later mark keeps the first time).
async fn mark_incoming_done(conn: &mut sqlx::PgConnection, key: &str, at: Timestamp) -> StoreResult<()> {
    sqlx::query("UPDATE incoming_mail SET done_at = $1 WHERE key = $2 AND done_at IS NULL")
        .bind(at)
        .bind(key)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

async fn insert_outbox(
    conn: &mut sqlx::PgConnection,
    m: &OutboxMessage,
    now: Timestamp,
) -> StoreResult<usize> {
    let queued = sqlx::query(
        "INSERT INTO outbox (key, created, recipient, subject, body, game_id, next_attempt) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (key) DO NOTHING",
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
    async fn create_user(&self, u: &UserRow) -> StoreResult<()> {
        let r = sqlx::query(
            "INSERT INTO users (id, password_hash, emails, created, notify, vacation_until, game_limit, \
             challenge_policy, signed_off) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
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
    }

    async fn user(&self, id: &str) -> StoreResult<Option<UserRow>> {
        let row =
            sqlx::query("SELECT * FROM users WHERE id = $1").bind(id).fetch_optional(&self.pool).await?;
        row.as_ref().map(user_from_row).transpose()
    }

    async fn update_user(&self, u: &UserRow) -> StoreResult<()> {
        let r = sqlx::query(
            "UPDATE users SET password_hash = $1, emails = $2, notify = $3, vacation_until = $4, \
             game_limit = $5, challenge_policy = $6, signed_off = $7 WHERE id = $8",
        )
        .bind(&u.password_hash)
        .bind(json(&u.emails))
        .bind(u.notify as i64)
        .bind(u.vacation_until)
        .bind(u.game_limit)
        .bind(&u.challenge_policy)
        .bind(u.signed_off as i64)
        .bind(&u.id)
        .execute(&self.pool)
        .await?;
        if r.rows_affected() == 0 { Err(StoreError::NotFound) } else { Ok(()) }
    }

    async fn record_login(&self, id: &str, failed: bool, at: Timestamp) -> StoreResult<()> {
        if failed {
            sqlx::query(
                "UPDATE users SET failed_logins = failed_logins + 1, last_failed_login = $1 WHERE id = $2",
            )
            .bind(at)
            .bind(id)
            .execute(&self.pool)
            .await?;
        } else {
            sqlx::query("UPDATE users SET failed_logins = 0 WHERE id = $1 AND failed_logins <> 0")
                .bind(id)
                .execute(&self.pool)
                .await?;
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
        let row = sqlx::query(
            "INSERT INTO tokens (hash, user_id, name, created) VALUES ($1, $2, $3, $4) RETURNING id",
        )
        .bind(hash)
        .bind(user)
        .bind(name)
        .bind(now)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("id")?)
    }

    async fn token_user(&self, hash: &str, now: Timestamp) -> StoreResult<Option<String>> {
        let Some(row) =
            sqlx::query("SELECT user_id, last_used FROM tokens WHERE hash = $1 AND revoked IS NULL")
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
        // The token and its owner's account in one statement (one snapshot):
        // a revoked token is refused as soon as the revocation committed, on
        // every server, since nothing of it is kept between requests.
        let Some(row) = sqlx::query(
            "SELECT t.user_id AS token_owner, t.last_used AS token_last_used, u.* FROM tokens t \
             LEFT JOIN users u ON u.id = t.user_id WHERE t.hash = $1 AND t.revoked IS NULL",
        )
        .bind(hash)
        .fetch_optional(&self.pool)
        .await?
        else {
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
        let rows = sqlx::query("SELECT * FROM tokens WHERE user_id = $1 ORDER BY id")
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
        let r =
            sqlx::query("UPDATE tokens SET revoked = $1 WHERE id = $2 AND user_id = $3 AND revoked IS NULL")
                .bind(now)
                .bind(id)
                .bind(user)
                .execute(&self.pool)
                .await?;
        Ok(r.rows_affected() > 0)
    }

    async fn create_session(
        &self,
        hash: &str,
        user: &str,
        csrf: &str,
        now: Timestamp,
        expires: Timestamp,
    ) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO sessions (hash, user_id, csrf, created, expires) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(hash)
        .bind(user)
        .bind(csrf)
        .bind(now)
        .bind(expires)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn session(&self, hash: &str, now: Timestamp) -> StoreResult<Option<SessionRow>> {
        let row = sqlx::query("SELECT user_id, csrf, expires FROM sessions WHERE hash = $1 AND expires > $2")
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
        sqlx::query("DELETE FROM sessions WHERE hash = $1").bind(hash).execute(&self.pool).await?;
        Ok(())
    }
}

#[async_trait]
impl Games for PostgresStore {
    async fn create_game(&self, g: &NewGame) -> StoreResult<i64> {
        let mut tx = self.pool.begin().await?;
        let id: i64 = sqlx::query(
            "INSERT INTO games (kind, options, players, seed, created, version, status, moves, to_move, \
             updated, next_clock) VALUES ($1, $2, $3, $4, $5, 0, $6, 0, $7, $8, $9) RETURNING id",
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
            sqlx::query(
                "INSERT INTO game_players (game_id, seat, user_id, accepted) VALUES ($1, $2, $3, $4)",
            )
            .bind(id)
            .bind(seat as i64)
            .bind(user)
            .bind(g.accepted.get(seat).copied().unwrap_or(true) as i64)
            .execute(&mut *tx)
            .await?;
        }
        self.notify(&mut tx, id, 0).await?;
        tx.commit().await?;
        Ok(id)
    }

    async fn game(&self, id: i64) -> StoreResult<Option<StoredGame>> {
        // One snapshot for the summary, seats and events, so they agree
        // even while another process appends.
        let mut tx = self.pool.begin().await?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY").execute(&mut *tx).await?;
        let Some(row) = sqlx::query(AssertSqlSafe(format!(
            "SELECT {SUMMARY_COLUMNS}, options, seed, created FROM games WHERE id = $1"
        )))
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?
        else {
            return Ok(None);
        };
        let mut summary = summary_from_row(&row)?;
        let options = unjson(&row.try_get::<String, _>("options")?, "options")?;
        let seed = row.try_get::<i64, _>("seed")? as u64;
        let created = row.try_get("created")?;
        let seats =
            sqlx::query("SELECT seat, accepted, result FROM game_players WHERE game_id = $1 ORDER BY seat")
                .bind(id)
                .fetch_all(&mut *tx)
                .await?;
        let accepted =
            seats.iter().map(|r| Ok(r.try_get::<i64, _>("accepted")? != 0)).collect::<StoreResult<_>>()?;
        summary.seat_results = seats.iter().map(|r| Ok(r.try_get("result")?)).collect::<StoreResult<_>>()?;
        let events = sqlx::query("SELECT at, seat, action FROM events WHERE game_id = $1 ORDER BY seq")
            .bind(id)
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(event_from_row)
            .collect::<StoreResult<Vec<_>>>()?;
        tx.commit().await?;
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
        // One statement (one snapshot, one round trip) for the summary, the
        // seats and the subscribers, with the mail settings of each.
        let rows = sqlx::query(
            "SELECT g.id, g.kind, g.players, g.status, g.moves, g.to_move, g.version, g.updated, g.result, \
             g.next_clock, 0 AS part, p.seat, p.accepted, p.result AS seat_result, p.user_id AS reader, \
             u.emails, u.notify, u.signed_off FROM games g \
             LEFT JOIN game_players p ON p.game_id = g.id LEFT JOIN users u ON u.id = p.user_id \
             WHERE g.id = $1 \
             UNION ALL \
             SELECT g.id, g.kind, g.players, g.status, g.moves, g.to_move, g.version, g.updated, g.result, \
             g.next_clock, 1, NULL::bigint, NULL::bigint, NULL::text, s.user_id, u.emails, u.notify, \
             u.signed_off FROM games g \
             JOIN subscriptions s ON s.game_id = g.id LEFT JOIN users u ON u.id = s.user_id \
             WHERE g.id = $1 \
             ORDER BY part, seat, reader",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
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
                let emails: Option<String> = row.try_get("emails")?;
                let open = row.try_get::<Option<i64>, _>("signed_off")? == Some(0);
                let notify = row.try_get::<Option<i64>, _>("notify")?.is_some_and(|n| n != 0);
                let address = match emails {
                    Some(e) if open && notify => unjson::<Vec<String>>(&e, "emails")?.into_iter().next(),
                    _ => None,
                };
                head.recipients.push(Recipient { user: reader, address });
            }
        }
        Ok(Some(head))
    }

    async fn game_version(&self, id: i64) -> StoreResult<Option<i64>> {
        let row = sqlx::query("SELECT version FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Ok(r.try_get("version")?)).transpose()
    }

    async fn events_since(&self, id: i64, from_seq: i64) -> StoreResult<Vec<Event>> {
        sqlx::query("SELECT at, seat, action FROM events WHERE game_id = $1 AND seq >= $2 ORDER BY seq")
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
        let mut tx = self.pool.begin().await?;
        // The row lock this takes makes a concurrent append wait, then see
        // the new version and match nothing.
        let r = sqlx::query(
            "UPDATE games SET version = $1, status = $2, moves = $3, to_move = $4, updated = $5, \
             result = $6, next_clock = $7, players = $8 WHERE id = $9 AND version = $10",
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
        .execute(&mut *tx)
        .await?;
        if r.rows_affected() == 0 {
            return Err(StoreError::Conflict);
        }
        for (i, e) in events.iter().enumerate() {
            sqlx::query("INSERT INTO events (game_id, seq, at, seat, action) VALUES ($1, $2, $3, $4, $5)")
                .bind(s.id)
                .bind(expected_version + i as i64)
                .bind(e.at)
                .bind(e.seat.map(|x| x as i64))
                .bind(json(&e.action))
                .execute(&mut *tx)
                .await?;
        }
        for (seat, user) in s.players.iter().enumerate() {
            sqlx::query(
                "INSERT INTO game_players (game_id, seat, user_id, accepted, result) VALUES ($1, $2, $3, 1, $4) \
                 ON CONFLICT (game_id, seat) DO UPDATE SET result = excluded.result",
            )
            .bind(s.id)
            .bind(seat as i64)
            .bind(user)
            .bind(s.seat_results.get(seat).cloned().flatten())
            .execute(&mut *tx)
            .await?;
        }
        for effect in effects {
            match effect {
                SideEffect::Outbox(m) => {
                    insert_outbox(&mut tx, m, s.updated).await?;
                }
                SideEffect::DeleteQueued(id) => {
                    sqlx::query("DELETE FROM queued_moves WHERE id = $1").bind(id).execute(&mut *tx).await?;
                }
                SideEffect::DeletePending { user } => {
                    sqlx::query("DELETE FROM pending_moves WHERE game_id = $1 AND user_id = $2")
                        .bind(s.id)
                        .bind(user)
                        .execute(&mut *tx)
                        .await?;
                }
            }
        }
        self.notify(&mut tx, s.id, expected_version + events.len() as i64).await?;
        tx.commit().await?;
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
        sqlx::query("UPDATE game_players SET accepted = $1 WHERE game_id = $2 AND seat = $3")
            .bind(accepted as i64)
            .bind(id)
            .bind(seat as i64)
            .execute(&mut *tx)
            .await?;
        let version: Option<i64> =
            sqlx::query("UPDATE games SET status = $1 WHERE id = $2 RETURNING version")
                .bind(status.as_str())
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?
                .map(|r| r.try_get("version"))
                .transpose()?;
        if let Some(version) = version {
            self.notify(&mut tx, id, version).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn games(&self, f: &GameFilter) -> StoreResult<Vec<GameSummary>> {
        let sql = games_query(f, SUMMARY_COLUMNS);
        bind_filter(sqlx::query(AssertSqlSafe(sql)), f)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(summary_from_row)
            .collect()
    }

    async fn count_games(&self, f: &GameFilter) -> StoreResult<usize> {
        let sql = format!("SELECT COUNT(*) FROM ({}) listed", games_query(f, "g.id"));
        let count: i64 =
            bind_filter(sqlx::query(AssertSqlSafe(sql)), f).fetch_one(&self.pool).await?.try_get(0)?;
        Ok(count as usize)
    }

    async fn finished(&self, kind: Option<&str>) -> StoreResult<Vec<GameSummary>> {
        let rows = sqlx::query(AssertSqlSafe(format!(
            "SELECT {SUMMARY_COLUMNS} FROM games WHERE status = 'finished' AND ($1::text IS NULL OR kind = $1) \
             ORDER BY updated, id"
        )))
        .bind(kind)
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for row in &rows {
            let mut s = summary_from_row(row)?;
            let seats = sqlx::query("SELECT result FROM game_players WHERE game_id = $1 ORDER BY seat")
                .bind(s.id)
                .fetch_all(&self.pool)
                .await?;
            s.seat_results = seats.iter().map(|r| Ok(r.try_get("result")?)).collect::<StoreResult<_>>()?;
            out.push(s);
        }
        Ok(out)
    }

    async fn subscribe(&self, game: i64, user: &str, on: bool) -> StoreResult<()> {
        let q = if on {
            "INSERT INTO subscriptions (game_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING"
        } else {
            "DELETE FROM subscriptions WHERE game_id = $1 AND user_id = $2"
        };
        sqlx::query(q).bind(game).bind(user).execute(&self.pool).await?;
        Ok(())
    }

    async fn subscribers(&self, game: i64) -> StoreResult<Vec<String>> {
        let rows = sqlx::query("SELECT user_id FROM subscriptions WHERE game_id = $1 ORDER BY user_id")
            .bind(game)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| Ok(r.try_get("user_id")?)).collect()
    }

    async fn queue_move(&self, game: i64, user: &str, text: &str, at: Timestamp) -> StoreResult<()> {
        sqlx::query("INSERT INTO queued_moves (game_id, user_id, move, created) VALUES ($1, $2, $3, $4)")
            .bind(game)
            .bind(user)
            .bind(text)
            .bind(at)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn queued_moves(&self, game: i64) -> StoreResult<Vec<QueuedMove>> {
        let rows = sqlx::query("SELECT id, user_id, move FROM queued_moves WHERE game_id = $1 ORDER BY id")
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
        sqlx::query(
            "INSERT INTO pending_moves (game_id, user_id, move, created) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (game_id, user_id) DO UPDATE SET move = excluded.move, created = excluded.created",
        )
        .bind(game)
        .bind(user)
        .bind(text)
        .bind(at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn pending(&self, game: i64, user: &str) -> StoreResult<Option<String>> {
        let row = sqlx::query("SELECT move FROM pending_moves WHERE game_id = $1 AND user_id = $2")
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
        let mut tx = self.pool.begin().await?;
        sqlx::query("INSERT INTO chats (game_id, user_id, at, text) VALUES ($1, $2, $3, $4)")
            .bind(game)
            .bind(user)
            .bind(at)
            .bind(text)
            .execute(&mut *tx)
            .await?;
        for m in messages {
            insert_outbox(&mut tx, m, at).await?;
        }
        // Open pages elsewhere show the line at once.
        let version: Option<i64> = sqlx::query("SELECT version FROM games WHERE id = $1")
            .bind(game)
            .fetch_optional(&mut *tx)
            .await?
            .map(|r| r.try_get("version"))
            .transpose()?;
        if let Some(version) = version {
            self.notify(&mut tx, game, version).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn chats(&self, game: i64) -> StoreResult<Vec<ChatRow>> {
        let rows = sqlx::query("SELECT user_id, at, text FROM chats WHERE game_id = $1 ORDER BY id")
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
        let rows = sqlx::query(
            "SELECT * FROM outbox WHERE sent_at IS NULL AND gave_up_at IS NULL AND next_attempt <= $1 \
             ORDER BY id LIMIT $2",
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
        // SKIP LOCKED: senders claiming at the same moment take different rows.
        let rows = sqlx::query(
            "UPDATE outbox SET next_attempt = $2 WHERE id IN (SELECT id FROM outbox WHERE sent_at IS NULL \
             AND gave_up_at IS NULL AND next_attempt <= $1 ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED) \
             RETURNING *",
        )
        .bind(now)
        .bind(lease_until)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let mut out = rows.iter().map(outbox_from_row).collect::<StoreResult<Vec<_>>>()?;
        out.sort_by_key(|r| r.id);
        Ok(out)
    }

    async fn outbox(&self, limit: i64) -> StoreResult<Vec<OutboxRow>> {
        let rows = sqlx::query("SELECT * FROM outbox ORDER BY id DESC LIMIT $1")
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(outbox_from_row).collect()
    }

    async fn outbox_sent(&self, id: i64, at: Timestamp) -> StoreResult<()> {
        sqlx::query(
            "UPDATE outbox SET sent_at = $1, attempts = attempts + 1 WHERE id = $2 AND sent_at IS NULL",
        )
        .bind(at)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn outbox_failed(&self, id: i64, error: &str, retry_at: Timestamp) -> StoreResult<()> {
        sqlx::query(
            "UPDATE outbox SET attempts = attempts + 1, last_error = $1, next_attempt = $2 WHERE id = $3",
        )
        .bind(error)
        .bind(retry_at)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn outbox_gave_up(&self, id: i64, error: &str, at: Timestamp) -> StoreResult<()> {
        sqlx::query(
            "UPDATE outbox SET attempts = attempts + 1, last_error = $1, gave_up_at = $2, next_attempt = $3 \
             WHERE id = $4 AND sent_at IS NULL",
        )
        .bind(error)
        .bind(at)
        .bind(i64::MAX)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn prune_outbox(&self, before: Timestamp) -> StoreResult<u64> {
        let r = sqlx::query(
            "DELETE FROM outbox WHERE (sent_at IS NOT NULL AND sent_at < $1) \
             OR (gave_up_at IS NOT NULL AND gave_up_at < $1)",
        )
        .bind(before)
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected())
    }

    async fn claim_incoming(&self, key: &str, now: Timestamp, stale_before: Timestamp) -> StoreResult<bool> {
        let inserted = sqlx::query(
            "INSERT INTO incoming_mail (key, claimed) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
        )
        .bind(key)
        .bind(now)
        .execute(&self.pool)
        .await?
        .rows_affected();
        if inserted == 1 {
            return Ok(true);
        }
        let taken_over = sqlx::query(
            "UPDATE incoming_mail SET claimed = $1 WHERE key = $2 AND done_at IS NULL AND claimed < $3",
        )
        .bind(now)
        .bind(key)
        .bind(stale_before)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(taken_over == 1)
    }

    async fn finish_incoming(&self, key: &str, at: Timestamp) -> StoreResult<()> {
        let mut conn = self.pool.acquire().await?;
        mark_incoming_done(&mut conn, key, at).await
    }

    async fn answer_incoming(&self, key: &str, reply: &OutboxMessage, at: Timestamp) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        insert_outbox(&mut tx, reply, at).await?;
        mark_incoming_done(&mut tx, key, at).await?;
        tx.commit().await?;
        Ok(())
    }
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
        sqlx::query(
            "INSERT INTO tournaments (fingerprint, game, config, created) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (fingerprint) DO NOTHING",
        )
        .bind(fingerprint)
        .bind(game)
        .bind(config)
        .bind(now)
        .execute(&self.pool)
        .await?;
        let row = sqlx::query("SELECT id FROM tournaments WHERE fingerprint = $1")
            .bind(fingerprint)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("id")?)
    }

    async fn tournament_games(&self, id: i64) -> StoreResult<Vec<String>> {
        let rows = sqlx::query("SELECT result FROM tournament_games WHERE tournament_id = $1 ORDER BY idx")
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(|r| Ok(r.try_get("result")?)).collect()
    }

    async fn save_tournament_game(&self, id: i64, index: i64, result: &str) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO tournament_games (tournament_id, idx, result) VALUES ($1, $2, $3) \
             ON CONFLICT (tournament_id, idx) DO UPDATE SET result = excluded.result",
        )
        .bind(id)
        .bind(index)
        .bind(result)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn finish_tournament(&self, id: i64, report: &str, now: Timestamp) -> StoreResult<()> {
        sqlx::query("UPDATE tournaments SET finished = $1, report = $2 WHERE id = $3")
            .bind(now)
            .bind(report)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn tournaments(&self, limit: i64) -> StoreResult<Vec<TournamentRow>> {
        let rows = sqlx::query(
            "SELECT t.*, (SELECT COUNT(*) FROM tournament_games g WHERE g.tournament_id = t.id) AS games_done \
             FROM tournaments t ORDER BY id DESC LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(tournament_from_row).collect()
    }

    async fn tournament(&self, id: i64) -> StoreResult<Option<TournamentRow>> {
        let row = sqlx::query(
            "SELECT t.*, (SELECT COUNT(*) FROM tournament_games g WHERE g.tournament_id = t.id) AS games_done \
             FROM tournaments t WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(tournament_from_row).transpose()
    }

    async fn enqueue_tournament_games(&self, id: i64, indices: &[i64]) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO tournament_jobs (tournament_id, idx) SELECT $1, i FROM UNNEST($2::BIGINT[]) AS i \
             ON CONFLICT (tournament_id, idx) DO NOTHING",
        )
        .bind(id)
        .bind(indices)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn claim_tournament_game(
        &self,
        worker: &str,
        now: Timestamp,
        lease_until: Timestamp,
    ) -> StoreResult<Option<TournamentJob>> {
        // SKIP LOCKED: workers claiming at the same moment take different games.
        let row = sqlx::query(
            "UPDATE tournament_jobs j SET claimed_by = $1, lease_until = $3, attempts = j.attempts + 1 \
             FROM (SELECT tournament_id, idx FROM tournament_jobs WHERE NOT done \
                   AND (lease_until IS NULL OR lease_until <= $2) \
                   ORDER BY tournament_id, idx LIMIT 1 FOR UPDATE SKIP LOCKED) free, tournaments t \
             WHERE j.tournament_id = free.tournament_id AND j.idx = free.idx AND t.id = j.tournament_id \
             RETURNING j.tournament_id, j.idx, t.config",
        )
        .bind(worker)
        .bind(now)
        .bind(lease_until)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok(TournamentJob {
                tournament: r.try_get("tournament_id")?,
                index: r.try_get("idx")?,
                config: r.try_get("config")?,
            })
        })
        .transpose()
    }

    async fn renew_tournament_game(
        &self,
        job: &TournamentJob,
        worker: &str,
        lease_until: Timestamp,
    ) -> StoreResult<bool> {
        let r = sqlx::query(
            "UPDATE tournament_jobs SET lease_until = $1 WHERE tournament_id = $2 AND idx = $3 \
             AND claimed_by = $4 AND NOT done",
        )
        .bind(lease_until)
        .bind(job.tournament)
        .bind(job.index)
        .bind(worker)
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    async fn finish_tournament_game(&self, job: &TournamentJob, result: &str) -> StoreResult<()> {
        let mut tx = self.pool.begin().await?;
        // A game is played the same wherever it is played: a second result
        // for it (from a worker whose lease ran out) is the same result.
        sqlx::query(
            "INSERT INTO tournament_games (tournament_id, idx, result) VALUES ($1, $2, $3) \
             ON CONFLICT (tournament_id, idx) DO NOTHING",
        )
        .bind(job.tournament)
        .bind(job.index)
        .bind(result)
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE tournament_jobs SET done = TRUE WHERE tournament_id = $1 AND idx = $2")
            .bind(job.tournament)
            .bind(job.index)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn tournament_games_left(&self, id: Option<i64>) -> StoreResult<i64> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM tournament_jobs WHERE NOT done AND ($1::BIGINT IS NULL OR tournament_id = $1)",
        )
        .bind(id)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get("n")?)
    }
}

#[async_trait]
impl Schedule for PostgresStore {
    async fn due_clocks(&self, now: Timestamp, limit: i64) -> StoreResult<Vec<i64>> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE next_clock IS NOT NULL AND next_clock <= $1 AND status = 'active' \
             ORDER BY next_clock LIMIT $2",
        )
        .bind(now)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
    }

    async fn claim(&self, work: Work) -> StoreResult<Option<Claim>> {
        let key = match work {
            Work::Clock(board) => LOCK_CLOCK | (board & LOCK_IDS),
            Work::TimeLimits(board) => LOCK_LIMITS | (board & LOCK_IDS),
        };
        let mut conn = self.pool.acquire().await?;
        let got: bool = sqlx::query("SELECT pg_try_advisory_lock($1) AS got")
            .bind(key)
            .fetch_one(&mut *conn)
            .await?
            .try_get("got")?;
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
/// game (`g`); [`bind_filter`] binds its values.
fn games_query(f: &GameFilter, columns: &str) -> String {
    let mut n = 0;
    let mut next = || {
        n += 1;
        format!("${n}")
    };
    // A user's games are found from the user's seats, as in the SQLite
    // store (see there); DISTINCT, one row for a player who holds two seats.
    let mut sql = match f.seated_user() {
        Some(_) => format!(
            "SELECT {columns} FROM (SELECT DISTINCT game_id FROM game_players WHERE user_id = {}) p \
             JOIN games g ON g.id = p.game_id WHERE TRUE",
            next()
        ),
        None => format!("SELECT {columns} FROM games g WHERE TRUE"),
    };
    if f.kind.is_some() {
        sql.push_str(&format!(" AND kind = {}", next()));
    }
    if !f.statuses.is_empty() {
        let marks: Vec<String> = f.statuses.iter().map(|_| next()).collect();
        sql.push_str(&format!(" AND status IN ({})", marks.join(", ")));
    }
    if f.to_move.is_some() {
        sql.push_str(&format!(" AND g.to_move::jsonb @> jsonb_build_array({}::text)", next()));
    }
    if f.before.is_some() {
        sql.push_str(&format!(" AND id < {}", next()));
    }
    sql.push_str(&format!(" ORDER BY id DESC LIMIT {}", next()));
    // Only fixed fragments and placeholders are concatenated; every value is bound.
    sql
}

/// `q`, a statement of [`games_query`], with the values of `f` bound in
/// the order of its placeholders.
fn bind_filter<'q>(
    mut q: sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments>,
    f: &'q GameFilter,
) -> sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments> {
    if let Some(u) = f.seated_user() {
        q = q.bind(u);
    }
    if let Some(k) = &f.kind {
        q = q.bind(k);
    }
    for s in &f.statuses {
        q = q.bind(s.as_str());
    }
    if let Some(u) = &f.to_move {
        q = q.bind(u);
    }
    if let Some(b) = f.before {
        q = q.bind(b);
    }
    q.bind(if f.limit > 0 { f.limit } else { 1000 })
}
