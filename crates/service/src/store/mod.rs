//! Storage behind one interface, split by area ([`Accounts`], [`Games`],
//! [`Mail`], [`Tournaments`], [`Schedule`]). SQLite is the embedded default
//! (on rusqlite); the PostgreSQL implementation (on sqlx) serves the same
//! traits. Each database has one driver, and each write is written once
//! per database. Tests use real databases, never a mock.
//!
//! The one rule every implementation keeps: an append to a game succeeds
//! only against the version it was validated on, in one transaction with
//! everything it causes (summary, players, outbox, queue clean-up), and
//! returns only after a durable commit.

mod bots;
mod postgres;
mod sqlite;

use std::path::Path;
use std::sync::Arc;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use tabula_model::{Event, EventAction, Options, SeatResult, Timestamp};
use thiserror::Error;

pub use bots::{BotAccountRow, BotAccounts};
pub use postgres::PostgresStore;
pub use sqlite::{BackupSummary, SqliteStore};

const DISTRIBUTED_NEEDS_POSTGRES: &str =
    "distributed tournaments need a PostgreSQL database (--db postgres://...)";

/// Whether `db` names a PostgreSQL database (`postgres://` or
/// `postgresql://` URL) rather than a SQLite file.
pub fn is_postgres_url(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// Open the store `db` names: a `postgres://` URL opens PostgreSQL, anything
/// else is the path of a SQLite file (created if missing). Migrations run
/// either way.
pub async fn open(db: &str) -> StoreResult<Arc<dyn Store>> {
    if is_postgres_url(db) {
        Ok(Arc::new(PostgresStore::open(db).await?))
    } else {
        Ok(Arc::new(SqliteStore::open(Path::new(db)).await?))
    }
}

/// [`open`] for a process that runs one command and exits: a SQLite file
/// gets one connection for everything (see
/// [`SqliteStore::open_for_one_client`]); PostgreSQL opens as usual.
pub async fn open_for_one_client(db: &str) -> StoreResult<Arc<dyn Store>> {
    if is_postgres_url(db) {
        Ok(Arc::new(PostgresStore::open(db).await?))
    } else {
        Ok(Arc::new(SqliteStore::open_for_one_client(Path::new(db)).await?))
    }
}

/// Copy the SQLite database `db` to `to` (replaced if it exists) while
/// servers keep writing to it: every commit made before the copy began is
/// in it (see `sqlite::backup`). A PostgreSQL database is copied with its
/// own tools (`pg_dump`).
pub async fn backup(db: &str, to: &Path) -> StoreResult<BackupSummary> {
    if is_postgres_url(db) {
        return Err(StoreError::Unsupported(
            "tabula backup copies a SQLite database; copy a PostgreSQL database with pg_dump",
        ));
    }
    sqlite::backup(Path::new(db), to).await
}

/// A committed change to a game, as another process sharing the database
/// announces it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameChange {
    /// Board number.
    pub board: i64,
    /// Its version after the change.
    pub version: i64,
}

/// A game of a distributed tournament claimed by a worker.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct TournamentJob {
    /// Tournament number.
    pub tournament: i64,
    /// The game's place in the tournament's schedule.
    pub index: i64,
    /// The tournament's full settings, as JSON.
    pub config: String,
}

/// Scheduled work that one process at a time does (see [`Schedule::claim`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// Catching up a game's clock.
    Clock(i64),
    /// Checking a game's move time limits.
    TimeLimits(i64),
}

/// Work claimed by this process until [`Claim::release`] (or until the
/// process dies: a claim never outlives its holder).
#[derive(Debug)]
pub struct Claim {
    lock: Option<postgres::AdvisoryLock>,
}

impl Claim {
    /// A claim that excludes no one: a store with one writer process needs no more.
    pub fn unshared() -> Self {
        Claim { lock: None }
    }

    fn advisory(lock: postgres::AdvisoryLock) -> Self {
        Claim { lock: Some(lock) }
    }

    /// Give the work back.
    pub async fn release(self) {
        if let Some(lock) = self.lock {
            lock.release().await;
        }
    }
}

/// A storage failure.
#[derive(Debug, Error)]
pub enum StoreError {
    /// The game moved on since it was read: reload and try again.
    #[error("the game changed while the move was being made")]
    Conflict,
    /// A unique key already exists (a user id taken).
    #[error("already exists")]
    Exists,
    /// No such row.
    #[error("not found")]
    NotFound,
    /// The database failed (PostgreSQL).
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// The database failed (SQLite).
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A write or read could not be done (its batch failed, or the thread
    /// of the SQLite connection stopped).
    #[error("database error: {0}")]
    Failed(String),
    /// The store cannot do this (distributed tournaments on SQLite).
    #[error("{0}")]
    Unsupported(&'static str),
    /// Migrations failed (PostgreSQL).
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx_core::migrate::MigrateError),
    /// Migrations failed (SQLite).
    #[error("database migration failed: {0}")]
    MigrateSqlite(#[from] rusqlite_migration::Error),
    /// A stored value does not decode (a corrupted row).
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
}

impl From<serde_rusqlite::Error> for StoreError {
    fn from(e: serde_rusqlite::Error) -> Self {
        match e {
            serde_rusqlite::Error::Rusqlite(e) => StoreError::Sqlite(e),
            other => StoreError::Corrupt(other.to_string()),
        }
    }
}

/// Result of storage calls.
pub type StoreResult<T> = Result<T, StoreError>;

// Rows are mapped onto these types by name: by serde (`serde_rusqlite`)
// from SQLite, by `sqlx::FromRow` from PostgreSQL. Lists of strings and
// other structured values are stored as JSON text, flags as integers.

/// A user account as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct UserRow {
    /// Lower-case user id.
    pub id: String,
    /// argon2id PHC string; never shown.
    #[serde(skip_serializing)]
    pub password_hash: String,
    /// Email addresses, the first is where mail goes.
    #[serde(deserialize_with = "json_text")]
    #[sqlx(json)]
    pub emails: Vec<String>,
    /// When the account was made.
    pub created: Timestamp,
    /// Whether the user gets notifications by email.
    pub notify: bool,
    /// Time limits are suspended until then.
    pub vacation_until: Option<Timestamp>,
    /// Most active games the user may be challenged into.
    pub game_limit: Option<i64>,
    /// `open` (challenges start at once) or `ask` (they wait for acceptance).
    pub challenge_policy: String,
    /// The account is closed.
    pub signed_off: bool,
}

/// A rate limit's count (see [`Accounts::count_limit`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, sqlx::FromRow)]
pub struct LimitCount {
    /// Tries counted.
    pub hits: i64,
    /// When the count last grew.
    pub last_at: Timestamp,
}

/// Where a game stands, as listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    /// Waiting for challenged players to accept.
    Proposed,
    /// Being played.
    Active,
    /// Over.
    Finished,
    /// A challenge that was rejected.
    Cancelled,
}

impl GameStatus {
    /// The stored word.
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Proposed => "proposed",
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
            GameStatus::Cancelled => "cancelled",
        }
    }

    /// Parse the stored word.
    pub fn parse(s: &str) -> StoreResult<Self> {
        Ok(match s {
            "proposed" => GameStatus::Proposed,
            "active" => GameStatus::Active,
            "finished" => GameStatus::Finished,
            "cancelled" => GameStatus::Cancelled,
            other => return Err(StoreError::Corrupt(format!("game status {other:?}"))),
        })
    }
}

impl TryFrom<String> for GameStatus {
    type Error = StoreError;

    fn try_from(s: String) -> StoreResult<Self> {
        GameStatus::parse(&s)
    }
}

/// The stored word of a seat's result (`win`, `loss`, `draw`: the
/// serialised form of [`SeatResult`], which reads it back).
pub(crate) fn result_word(r: SeatResult) -> &'static str {
    match r {
        SeatResult::Win => "win",
        SeatResult::Loss => "loss",
        SeatResult::Draw => "draw",
    }
}

/// The listing summary of a game, kept in step with its record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct GameSummary {
    /// Board number.
    pub id: i64,
    /// Game kind.
    pub kind: String,
    /// Players in seat order.
    #[serde(deserialize_with = "json_text")]
    #[sqlx(json)]
    pub players: Vec<String>,
    /// Status.
    #[sqlx(try_from = "String")]
    pub status: GameStatus,
    /// Moves made.
    pub moves: i64,
    /// Users who must act now.
    #[serde(deserialize_with = "json_text")]
    #[sqlx(json)]
    pub to_move: Vec<String>,
    /// Number of events (the version appends are checked against).
    pub version: i64,
    /// Last change.
    #[schema(value_type = i64)]
    pub updated: Timestamp,
    /// How it ended, in words.
    pub result: Option<String>,
    /// Per seat, how it ended for that seat, once finished (read from
    /// the seats, not the game's row).
    #[serde(skip)]
    #[sqlx(skip)]
    pub seat_results: Vec<Option<SeatResult>>,
    /// When the next clock event is due (real-time games).
    #[schema(value_type = Option<i64>)]
    pub next_clock: Option<Timestamp>,
}

/// A game's record as stored, with its summary.
#[derive(Clone, Debug)]
pub struct StoredGame {
    /// Summary (id, version, status ...).
    pub summary: GameSummary,
    /// Options.
    pub options: Options,
    /// Seed.
    pub seed: u64,
    /// Creation time.
    pub created: Timestamp,
    /// Players at creation (joins are in the events).
    pub initial_players: Vec<String>,
    /// Events in order.
    pub events: Vec<Event>,
    /// Per seat: whether the player accepted the challenge.
    pub accepted: Vec<bool>,
    /// The seated players that are bot accounts (shown as bots; built-in
    /// `bot:NAME` players are bots by their name alone).
    pub bot_accounts: Vec<String>,
}

/// A game's row: its summary and what its record starts from.
#[derive(Deserialize, sqlx::FromRow)]
struct GameRow {
    #[serde(flatten)]
    #[sqlx(flatten)]
    summary: GameSummary,
    #[serde(deserialize_with = "json_text")]
    #[sqlx(json)]
    options: Options,
    seed: i64,
    created: Timestamp,
}

/// A seat of a game as stored.
#[derive(Deserialize, sqlx::FromRow)]
struct SeatRow {
    accepted: bool,
    #[sqlx(json(nullable))]
    result: Option<SeatResult>,
    user_id: String,
    bot: bool,
}

/// An event as stored.
#[derive(Deserialize, sqlx::FromRow)]
struct EventRow {
    at: Timestamp,
    seat: Option<i64>,
    #[serde(deserialize_with = "json_text")]
    #[sqlx(json)]
    action: EventAction,
}

/// A game's record from its row, seats and events, read in one snapshot.
fn stored_game(row: GameRow, seats: Vec<SeatRow>, events: Vec<EventRow>) -> StoreResult<StoredGame> {
    let GameRow { mut summary, options, seed, created } = row;
    if events.len() as i64 != summary.version {
        return Err(StoreError::Corrupt(format!(
            "game {} has {} events but version {}",
            summary.id,
            events.len(),
            summary.version
        )));
    }
    let events: Vec<Event> = events
        .into_iter()
        .map(|e| Event { at: e.at, seat: e.seat.map(|s| s as usize), action: e.action })
        .collect();
    let bot_accounts = seats.iter().filter(|s| s.bot).map(|s| s.user_id.clone()).collect();
    let (accepted, results) = seats.into_iter().map(|s| (s.accepted, s.result)).unzip();
    summary.seat_results = results;
    let joins = events.iter().filter(|e| matches!(e.action, EventAction::Join { .. })).count();
    let initial_players = summary.players[..summary.players.len().saturating_sub(joins)].to_vec();
    Ok(StoredGame {
        summary,
        options,
        seed: seed as u64,
        created,
        initial_players,
        events,
        accepted,
        bot_accounts,
    })
}

/// A game's summary and per-seat acceptances, without its record, and
/// who its changes are mailed to.
#[derive(Clone, Debug)]
pub struct GameHead {
    /// Summary (id, version, status, seat results ...).
    pub summary: GameSummary,
    /// Per seat: whether the player accepted the challenge.
    pub accepted: Vec<bool>,
    /// The game's subscribers, by user id.
    pub subscribers: Vec<String>,
    /// Where the notifications of the seated players and the subscribers go.
    pub recipients: Vec<Recipient>,
    /// The seated players that are bot accounts, read here so that no
    /// command's answer needs a query of its own to show them as bots.
    pub bot_accounts: Vec<String>,
}

/// One row of a game's head beside its summary: a seat (with its
/// acceptance) or another subscriber, with the reader's mail settings
/// (all null if the reader has no account).
#[derive(Deserialize, sqlx::FromRow)]
struct ReaderRow {
    accepted: Option<bool>,
    #[sqlx(json(nullable))]
    seat_result: Option<SeatResult>,
    reader: Option<String>,
    #[serde(deserialize_with = "json_text")]
    #[sqlx(json(nullable))]
    emails: Option<Vec<String>>,
    notify: Option<bool>,
    signed_off: Option<bool>,
    bot: Option<bool>,
}

/// A game's head from its summary and the rows of its seats (in order,
/// then its other subscribers).
fn game_head(summary: GameSummary, rows: impl IntoIterator<Item = ReaderRow>) -> GameHead {
    let mut head = GameHead {
        summary,
        accepted: Vec::new(),
        subscribers: Vec::new(),
        recipients: Vec::new(),
        bot_accounts: Vec::new(),
    };
    for row in rows {
        let Some(reader) = row.reader else { continue };
        match row.accepted {
            Some(accepted) => {
                head.accepted.push(accepted);
                head.summary.seat_results.push(row.seat_result);
                if row.bot == Some(true) && !head.bot_accounts.contains(&reader) {
                    head.bot_accounts.push(reader.clone());
                }
            }
            None => head.subscribers.push(reader.clone()),
        }
        if !head.recipients.iter().any(|r| r.user == reader) {
            let open = row.signed_off == Some(false) && row.notify == Some(true);
            let address = row.emails.filter(|_| open).and_then(|e| e.into_iter().next());
            head.recipients.push(Recipient { user: reader, address });
        }
    }
    head
}

/// Where one reader's notifications go, as read with the game's head, so
/// that a move needs no query per reader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recipient {
    /// User id.
    pub user: String,
    /// The account's first address if the account is open and takes
    /// notifications; `None` otherwise (or if there is no such account).
    pub address: Option<String>,
}

/// A message for the outbox.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct OutboxMessage {
    /// Idempotency key: one message per key, ever.
    pub key: String,
    /// Address.
    pub recipient: String,
    /// Subject line.
    pub subject: String,
    /// Body text.
    pub body: String,
    /// The game it is about.
    pub game_id: Option<i64>,
}

/// A stored outbox row.
#[derive(Clone, Debug, Serialize, Deserialize, sqlx::FromRow)]
pub struct OutboxRow {
    /// Row id.
    pub id: i64,
    /// The message (its columns, read as one JSON object from SQLite).
    #[serde(deserialize_with = "json_text")]
    #[sqlx(flatten)]
    pub message: OutboxMessage,
    /// When it was queued.
    pub created: Timestamp,
    /// When it was sent, if it was.
    pub sent_at: Option<Timestamp>,
    /// Delivery attempts so far.
    pub attempts: i64,
    /// The last delivery error.
    pub last_error: Option<String>,
    /// When it was given up for good (refused, or failed too often).
    pub gave_up_at: Option<Timestamp>,
}

/// Something an append does besides adding events, in the same transaction.
#[derive(Clone, Debug)]
pub enum SideEffect {
    /// Queue a message.
    Outbox(OutboxMessage),
    /// A queued conditional move was used or dropped.
    DeleteQueued(i64),
    /// A submitted two-step move was confirmed or dropped.
    DeletePending {
        /// The user whose pending move goes.
        user: String,
    },
    /// Queue a message first due at `due`, or replace the message with its
    /// key while that one is still held back (unsent, never tried, and not
    /// due yet): what one command of a mail message queues, which a later
    /// command of the same message may supersede.
    Held {
        /// The message.
        message: OutboxMessage,
        /// When it is first due.
        due: Timestamp,
    },
    /// Mark an incoming mail message handled (see [`Mail::claim_incoming`]),
    /// in the transaction of the change its command made.
    Handled(String),
    /// Add a line to the changed game's chat (a mail message's comment, kept
    /// with the move it came with).
    Chat {
        /// Its author.
        user: String,
        /// The line.
        text: String,
    },
}

/// The side effects of a new game, made from its board number once the
/// store has given it one (see [`Games::create_game_with`]).
pub type NewGameEffects = Arc<dyn Fn(i64) -> Vec<SideEffect> + Send + Sync>;

/// The start of the outbox keys of the notifications the commands of the
/// incoming message `key` hold back until the message is answered (see
/// [`SideEffect::Held`]): `note:KEY:` then the reader.
pub fn held_note_prefix(key: &str) -> String {
    format!("note:{key}:")
}

/// A new game to store.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// Kind.
    pub kind: String,
    /// Options.
    pub options: Options,
    /// Players.
    pub players: Vec<String>,
    /// Seed.
    pub seed: u64,
    /// Creation time.
    pub created: Timestamp,
    /// Initial status.
    pub status: GameStatus,
    /// Users to move at the start.
    pub to_move: Vec<String>,
    /// Per seat: accepted already.
    pub accepted: Vec<bool>,
    /// When the first clock event is due.
    pub next_clock: Option<Timestamp>,
}

/// Filters for listing games.
#[derive(Clone, Debug, Default)]
pub struct GameFilter {
    /// Only this kind.
    pub kind: Option<String>,
    /// Only games this user plays in.
    pub player: Option<String>,
    /// Only these statuses (any if empty).
    pub statuses: Vec<GameStatus>,
    /// Only games where this user must act.
    pub to_move: Option<String>,
    /// Only boards numbered below this one: the next page of a list, after
    /// its last board.
    pub before: Option<i64>,
    /// At most this many, newest first.
    pub limit: i64,
}

impl GameFilter {
    /// The user whose seats the listed games are found from: the player,
    /// or else the user who must move (who holds a seat in every game
    /// waiting for them). `None` when the list is over every game.
    pub fn seated_user(&self) -> Option<&str> {
        self.player.as_deref().or(self.to_move.as_deref())
    }

    /// The statement listing the games of this filter, selecting `columns`
    /// of each game (`g`), and its values in order. In the text, `mark(n)`
    /// is the placeholder of the n-th value, `seats` joins a user's seats to
    /// their games, and `to_move(m)` tests that the user of placeholder `m`
    /// must move.
    fn query<'a>(
        &'a self,
        columns: &str,
        mark: fn(usize) -> String,
        seats: &str,
        to_move: fn(&str) -> String,
    ) -> (String, Vec<Param<'a>>) {
        let mut values = Vec::new();
        let mut next = |value| {
            values.push(value);
            mark(values.len())
        };
        // A user's games are found from the user's seats (the index on user
        // and game), not by testing every game of the server with the given
        // statuses: with 10,000 games active, that test made each challenge
        // (which counts both players' running games) cost milliseconds.
        // DISTINCT, one row for a player who holds two seats. A user who
        // must move holds a seat too.
        let mut sql = match self.seated_user() {
            Some(user) => format!(
                "SELECT {columns} FROM (SELECT DISTINCT game_id FROM game_players WHERE user_id = {}) p \
                 {seats} games g ON g.id = p.game_id WHERE 1 = 1",
                next(Param::Text(user))
            ),
            None => format!("SELECT {columns} FROM games g WHERE 1 = 1"),
        };
        // Only fixed fragments and placeholders are concatenated; every value is bound.
        if let Some(kind) = &self.kind {
            sql += &format!(" AND kind = {}", next(Param::Text(kind)));
        }
        if !self.statuses.is_empty() {
            let marks: Vec<String> = self.statuses.iter().map(|s| next(Param::Text(s.as_str()))).collect();
            sql += &format!(" AND status IN ({})", marks.join(", "));
        }
        if let Some(user) = &self.to_move {
            sql += &format!(" AND {}", to_move(&next(Param::Text(user))));
        }
        if let Some(before) = self.before {
            sql += &format!(" AND id < {}", next(Param::Int(before)));
        }
        let limit = if self.limit > 0 { self.limit } else { 1000 };
        sql += &format!(" ORDER BY id DESC LIMIT {}", next(Param::Int(limit)));
        (sql, values)
    }
}

/// A value of a statement built at run time ([`GameFilter::query`]).
enum Param<'a> {
    Text(&'a str),
    Int(i64),
}

/// A chat message.
#[derive(Clone, Debug, Serialize, Deserialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct ChatRow {
    /// Who wrote it.
    #[serde(alias = "user_id")]
    #[sqlx(rename = "user_id")]
    pub user: String,
    /// When.
    #[schema(value_type = i64)]
    pub at: Timestamp,
    /// What.
    pub text: String,
}

/// A queued conditional move.
#[derive(Clone, Debug, Serialize, Deserialize, sqlx::FromRow)]
pub struct QueuedMove {
    /// Row id.
    pub id: i64,
    /// Whose.
    #[serde(alias = "user_id")]
    #[sqlx(rename = "user_id")]
    pub user: String,
    /// The move text.
    #[serde(alias = "move")]
    #[sqlx(rename = "move")]
    pub text: String,
}

/// A bearer token as listed (the secret itself is never stored).
#[derive(Clone, Debug, Serialize, Deserialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct TokenRow {
    /// Token id (for revoking).
    pub id: i64,
    /// Owner.
    #[serde(alias = "user_id")]
    #[sqlx(rename = "user_id")]
    pub user: String,
    /// The owner's label for it.
    pub name: String,
    /// When it was made.
    #[schema(value_type = i64)]
    pub created: Timestamp,
    /// When it was last used.
    #[schema(value_type = Option<i64>)]
    pub last_used: Option<Timestamp>,
    /// When it was revoked.
    #[schema(value_type = Option<i64>)]
    pub revoked: Option<Timestamp>,
}

/// How precisely a token's last use is recorded: a write (and its fsync)
/// on every request of a busy client would cost as much as its moves.
const TOKEN_USE_RESOLUTION_MS: i64 = 60_000;

/// Whether a token last noted as used at `last_used` is to be noted again at `now`.
fn token_use_due(last_used: Option<Timestamp>, now: Timestamp) -> bool {
    last_used.is_none_or(|t| now - t >= TOKEN_USE_RESOLUTION_MS || now < t)
}

/// A web login session.
#[derive(Clone, Debug, Deserialize, sqlx::FromRow)]
pub struct SessionRow {
    /// Who is logged in.
    #[serde(alias = "user_id")]
    #[sqlx(rename = "user_id")]
    pub user: String,
    /// The CSRF token of the session's forms.
    pub csrf: String,
    /// When it ends.
    pub expires: Timestamp,
}

/// A stored tournament.
#[derive(Clone, Debug, Serialize, Deserialize, sqlx::FromRow)]
pub struct TournamentRow {
    /// Tournament number.
    pub id: i64,
    /// The game played.
    pub game: String,
    /// The settings that decide its games, as JSON.
    pub fingerprint: String,
    /// The full settings, as JSON.
    pub config: String,
    /// When it started.
    pub created: Timestamp,
    /// When it finished.
    pub finished: Option<Timestamp>,
    /// The final report, as JSON.
    pub report: Option<String>,
    /// Games finished so far.
    pub games_done: i64,
}

/// `value` as stored in a JSON text column.
fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("plain data serialises")
}

/// Deserialises a column stored as JSON text (SQLite's, PostgreSQL's read
/// as `text`), or a value already read as JSON (PostgreSQL's `json`
/// columns inside a row read as JSON); null for an `Option` is `None`.
fn json_text<'de, D: serde::Deserializer<'de>, T: serde::de::DeserializeOwned>(d: D) -> Result<T, D::Error> {
    use serde::de::Error;
    match serde_json::Value::deserialize(d)? {
        serde_json::Value::String(text) => serde_json::from_str(&text),
        value => T::deserialize(value),
    }
    .map_err(D::Error::custom)
}

/// The whole storage interface: every area's, for a service that uses
/// them all. Each area is a trait of its own, so that a caller names the
/// area it uses and an implementation is read one area at a time.
pub trait Store: Accounts + Games + Mail + Tournaments + Schedule + BotAccounts {}

impl<T: Accounts + Games + Mail + Tournaments + Schedule + BotAccounts> Store for T {}

/// Users, their bearer tokens and their web login sessions.
#[async_trait]
pub trait Accounts: Send + Sync {
    /// Create a user; `Exists` if the id is taken.
    async fn create_user(&self, user: &UserRow) -> StoreResult<()> {
        self.create_user_with(user, &[], user.created).await
    }
    /// [`Accounts::create_user`] with `effects` (the reply to the mail
    /// message that asked for it, say) in the same transaction, made at `at`.
    async fn create_user_with(
        &self,
        user: &UserRow,
        effects: &[SideEffect],
        at: Timestamp,
    ) -> StoreResult<()>;
    /// A user by lower-case id.
    async fn user(&self, id: &str) -> StoreResult<Option<UserRow>>;
    /// Replace a user's mutable fields.
    async fn update_user(&self, user: &UserRow) -> StoreResult<()> {
        self.update_user_with(user, &[], user.created).await
    }
    /// [`Accounts::update_user`] with `effects` in the same transaction, made at `at`.
    async fn update_user_with(
        &self,
        user: &UserRow,
        effects: &[SideEffect],
        at: Timestamp,
    ) -> StoreResult<()>;

    /// Store a new bearer token (by the hash of its secret); returns its id.
    async fn create_token(&self, user: &str, name: &str, hash: &str, now: Timestamp) -> StoreResult<i64>;
    /// The owner of an unrevoked token and the owner's account as it
    /// stands (`None` if there is no such account), noting the token's use
    /// (at most once a minute: a busy client's requests need not each be a
    /// write).
    async fn token_account(
        &self,
        hash: &str,
        now: Timestamp,
    ) -> StoreResult<Option<(String, Option<UserRow>)>>;
    /// A user's tokens.
    async fn tokens(&self, user: &str) -> StoreResult<Vec<TokenRow>>;
    /// Revoke a user's token; false if there is no such unrevoked token.
    async fn revoke_token(&self, user: &str, id: i64, now: Timestamp) -> StoreResult<bool>;
    /// Store a login session (by the hash of its secret).
    async fn create_session(
        &self,
        hash: &str,
        user: &str,
        csrf: &str,
        now: Timestamp,
        expires: Timestamp,
    ) -> StoreResult<()>;
    /// An unexpired session.
    async fn session(&self, hash: &str, now: Timestamp) -> StoreResult<Option<SessionRow>>;
    /// End a session.
    async fn delete_session(&self, hash: &str) -> StoreResult<()>;
    /// End every login of `user`: its tokens are revoked at `now` and its
    /// sessions deleted, in one transaction.
    async fn end_logins(&self, user: &str, now: Timestamp) -> StoreResult<()>;

    /// The count of the rate limit `name`, if anything was counted.
    async fn limit(&self, name: &str) -> StoreResult<Option<LimitCount>>;
    /// Count one more try under `name` at `now` and return the count: one
    /// statement, so that processes sharing the database count together.
    /// A count that last grew before `forget_before` starts again at one.
    async fn count_limit(
        &self,
        name: &str,
        now: Timestamp,
        forget_before: Timestamp,
    ) -> StoreResult<LimitCount>;
    /// Forget the count `name` (a right password ends its failures).
    async fn clear_limit(&self, name: &str) -> StoreResult<()>;
    /// Delete the counts that last grew before `before`; how many.
    async fn prune_limits(&self, before: Timestamp) -> StoreResult<u64>;
}

/// Games: their records and summaries, and what hangs on a game
/// (subscriptions, queued and pending moves, chat).
#[async_trait]
pub trait Games: Send + Sync {
    /// Store a new game; returns its board number.
    async fn create_game(&self, game: &NewGame) -> StoreResult<i64> {
        self.create_game_with(game, Arc::new(|_| Vec::new())).await
    }
    /// [`Games::create_game`] with the side effects `effects` makes for the
    /// new board's number (its mail) in the same transaction.
    async fn create_game_with(&self, game: &NewGame, effects: NewGameEffects) -> StoreResult<i64>;
    /// A game's record and summary.
    async fn game(&self, id: i64) -> StoreResult<Option<StoredGame>>;
    /// Only the version of a game (cheap; for cache checks).
    async fn game_version(&self, id: i64) -> StoreResult<Option<i64>>;
    /// A game's summary and acceptances without its events (cheap: what a
    /// command needs when it has the game replayed in memory already).
    async fn game_head(&self, id: i64) -> StoreResult<Option<GameHead>>;
    /// Append events against `expected_version`, update the summary, and
    /// carry out the side effects, all in one durable transaction.
    async fn append(
        &self,
        expected_version: i64,
        events: &[Event],
        summary: &GameSummary,
        effects: &[SideEffect],
    ) -> StoreResult<()>;
    /// Set a challenged player's acceptance, and the status.
    async fn set_acceptance(
        &self,
        id: i64,
        seat: usize,
        accepted: bool,
        status: GameStatus,
    ) -> StoreResult<()>;
    /// List games.
    async fn games(&self, filter: &GameFilter) -> StoreResult<Vec<GameSummary>>;
    /// How many games [`Games::games`] would list for `filter` (at most
    /// its limit), without reading them.
    async fn count_games(&self, filter: &GameFilter) -> StoreResult<usize>;
    /// Finished games of a kind (or all), oldest first, for standings and ratings.
    async fn finished(&self, kind: Option<&str>) -> StoreResult<Vec<GameSummary>>;

    /// Subscribe a user to a game's updates.
    async fn subscribe(&self, game: i64, user: &str, on: bool) -> StoreResult<()>;
    /// A game's subscribers.
    async fn subscribers(&self, game: i64) -> StoreResult<Vec<String>>;
    /// Queue a conditional move.
    async fn queue_move(&self, game: i64, user: &str, text: &str, at: Timestamp) -> StoreResult<()>;
    /// A game's queued moves, oldest first.
    async fn queued_moves(&self, game: i64) -> StoreResult<Vec<QueuedMove>>;
    /// Store (replace) a submitted two-step move.
    async fn set_pending(&self, game: i64, user: &str, text: &str, at: Timestamp) -> StoreResult<()>;
    /// The submitted move of a user.
    async fn pending(&self, game: i64, user: &str) -> StoreResult<Option<String>>;
    /// Add a chat line and queue its messages in one transaction.
    async fn chat(
        &self,
        game: i64,
        user: &str,
        at: Timestamp,
        text: &str,
        messages: &[OutboxMessage],
    ) -> StoreResult<()>;
    /// A game's chat.
    async fn chats(&self, game: i64) -> StoreResult<Vec<ChatRow>>;
}

/// Mail: the outbox of messages to send, and the incoming messages
/// already handled.
#[async_trait]
pub trait Mail: Send + Sync {
    /// Queue messages outside a game append (account mail, chat); returns
    /// how many were new (a message whose key is queued already is not).
    async fn enqueue(&self, messages: &[OutboxMessage], now: Timestamp) -> StoreResult<usize>;
    /// Unsent messages due for an attempt.
    async fn outbox_due(&self, now: Timestamp, limit: i64) -> StoreResult<Vec<OutboxRow>>;
    /// Claim up to `limit` unsent messages due at `now` for one sender: they
    /// are not due again (for any sender) before `lease_until`, when a
    /// sender that died before recording the outcome has its messages retried.
    async fn claim_outbox(
        &self,
        now: Timestamp,
        lease_until: Timestamp,
        limit: i64,
    ) -> StoreResult<Vec<OutboxRow>>;
    /// Move the claim on the messages `ids` that a sender holds until
    /// `held_until` to `until`, and return how many it still held: a later
    /// `until` keeps them while the sender is alive and working (its
    /// heartbeat), `now` hands back those it will not try. Rows sent, given
    /// up, or claimed by another sender since are left alone.
    async fn move_outbox_claim(
        &self,
        ids: &[i64],
        held_until: Timestamp,
        until: Timestamp,
    ) -> StoreResult<u64>;
    /// How many messages were queued to `recipient` (compared without
    /// case) since `since` whose key starts with `key_prefix` and whose
    /// subject ends with `subject_suffix`: the budget of error replies an
    /// address may receive.
    async fn count_outbox_to(
        &self,
        recipient: &str,
        key_prefix: &str,
        subject_suffix: &str,
        since: Timestamp,
    ) -> StoreResult<i64>;
    /// Every outbox row (newest first), for inspection.
    async fn outbox(&self, limit: i64) -> StoreResult<Vec<OutboxRow>>;
    /// How many messages wait to be sent (neither sent nor given up), and
    /// when the oldest of them was queued: the backlog `/metrics` shows.
    async fn outbox_backlog(&self) -> StoreResult<(i64, Option<Timestamp>)>;
    /// Mark a message sent.
    async fn outbox_sent(&self, id: i64, at: Timestamp) -> StoreResult<()>;
    /// Record a failed attempt and when to retry.
    async fn outbox_failed(&self, id: i64, error: &str, retry_at: Timestamp) -> StoreResult<()>;
    /// Record a last failed attempt: the message is given up and never tried again.
    async fn outbox_gave_up(&self, id: i64, error: &str, at: Timestamp) -> StoreResult<()>;
    /// Delete the rows of messages sent or given up before `before`, and
    /// return how many: every notification carries a whole board, so
    /// keeping them all would grow the database by kilobytes a move for
    /// ever. Rows still to be sent are kept whatever their age.
    async fn prune_outbox(&self, before: Timestamp) -> StoreResult<u64>;

    /// Claim an incoming message (by its Message-ID or digest) before its
    /// commands run: `true` if it is new, or if an earlier claim was left
    /// unfinished (by a crash) before `stale_before`; `false` if it was
    /// handled already or is being handled now.
    async fn claim_incoming(&self, key: &str, now: Timestamp, stale_before: Timestamp) -> StoreResult<bool>;
    /// Whether the incoming message `key` was handled (a claim that
    /// [`Mail::claim_incoming`] refused is either that, or a delivery of the
    /// message still being handled).
    async fn incoming_done(&self, key: &str) -> StoreResult<bool>;
    /// Mark a claimed incoming message handled (its reply is queued or
    /// sent), and release the notifications its commands hold back (keys
    /// under [`held_note_prefix`]): due at once.
    async fn finish_incoming(&self, key: &str, at: Timestamp) -> StoreResult<()>;
    /// Queue the reply to a claimed incoming message and mark the message
    /// handled, in one transaction: one durable commit instead of two for
    /// every message answered by mail, and no moment at which the reply is
    /// queued but the message still looks unanswered. A reply with the
    /// same key still held back (see [`SideEffect::Held`]) is replaced by
    /// this one, due at once; one sent or on its way is left alone. The
    /// message's held notifications are released, as by
    /// [`Mail::finish_incoming`].
    async fn answer_incoming(&self, key: &str, reply: &OutboxMessage, at: Timestamp) -> StoreResult<()>;
}

/// Tournaments between bots, and the games of distributed tournaments
/// that workers claim.
#[async_trait]
pub trait Tournaments: Send + Sync {
    /// The tournament with this fingerprint, created if new; returns its id.
    async fn open_tournament(
        &self,
        fingerprint: &str,
        game: &str,
        config: &str,
        now: Timestamp,
    ) -> StoreResult<i64>;
    /// The finished games of a tournament (JSON results).
    async fn tournament_games(&self, id: i64) -> StoreResult<Vec<String>>;
    /// Keep one finished game of a tournament.
    async fn save_tournament_game(&self, id: i64, index: i64, result: &str) -> StoreResult<()>;
    /// Store the final report.
    async fn finish_tournament(&self, id: i64, report: &str, now: Timestamp) -> StoreResult<()>;
    /// Tournaments, newest first.
    async fn tournaments(&self, limit: i64) -> StoreResult<Vec<TournamentRow>>;
    /// One tournament.
    async fn tournament(&self, id: i64) -> StoreResult<Option<TournamentRow>>;

    // The games of distributed tournaments, which need a store that several
    // processes share (the defaults refuse them).

    /// Offer games `indices` of tournament `id` to workers (those offered
    /// already stay as they are).
    async fn enqueue_tournament_games(&self, _id: i64, _indices: &[i64]) -> StoreResult<()> {
        Err(StoreError::Unsupported(DISTRIBUTED_NEEDS_POSTGRES))
    }
    /// Claim one offered game, of any tournament, that is not done and not
    /// held by a live claim, for `worker` until `lease_until`.
    async fn claim_tournament_game(
        &self,
        _worker: &str,
        _now: Timestamp,
        _lease_until: Timestamp,
    ) -> StoreResult<Option<TournamentJob>> {
        Err(StoreError::Unsupported(DISTRIBUTED_NEEDS_POSTGRES))
    }
    /// Extend `worker`'s claim; false if the claim is no longer its own.
    async fn renew_tournament_game(
        &self,
        _job: &TournamentJob,
        _worker: &str,
        _until: Timestamp,
    ) -> StoreResult<bool> {
        Err(StoreError::Unsupported(DISTRIBUTED_NEEDS_POSTGRES))
    }
    /// Keep a claimed game's result and mark it done, in one transaction.
    async fn finish_tournament_game(&self, _job: &TournamentJob, _result: &str) -> StoreResult<()> {
        Err(StoreError::Unsupported(DISTRIBUTED_NEEDS_POSTGRES))
    }
    /// Offered games not done yet: of tournament `id`, or of all if `None`.
    async fn tournament_games_left(&self, _id: Option<i64>) -> StoreResult<i64> {
        Err(StoreError::Unsupported(DISTRIBUTED_NEEDS_POSTGRES))
    }
}

/// Clocks and scheduled work: what is due, who does it, and what other
/// processes sharing the database changed.
#[async_trait]
pub trait Schedule: Send + Sync {
    /// Games whose next clock event is due at or before `now`.
    async fn due_clocks(&self, now: Timestamp, limit: i64) -> StoreResult<Vec<i64>>;

    /// Claim scheduled work so that no other process sharing the database
    /// does it at the same time: `None` if another process holds it now.
    /// (Appends are version-checked anyway; this spares the loser the work.)
    async fn claim(&self, work: Work) -> StoreResult<Option<Claim>> {
        let _ = work;
        Ok(Some(Claim::unshared()))
    }

    /// Changes committed by other processes sharing the database, from now
    /// on; `None` for a store no other process writes to while this one runs.
    async fn changes(&self) -> StoreResult<Option<tokio::sync::mpsc::Receiver<GameChange>>> {
        Ok(None)
    }
}
