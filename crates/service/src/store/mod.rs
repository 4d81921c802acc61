//! Storage behind one interface: [`Store`], whose methods are grouped by
//! area (accounts, games, mail, tournaments, schedule), one module each.
//! SQLite is the embedded default (on rusqlite); PostgreSQL (on sqlx)
//! serves several processes. A statement both databases read alike is
//! written once, in the area's module, with `?N` placeholders; what differs
//! (the append and its group commit, a game's reads, the queries with JSON
//! or arrays) is written once per database in `sqlite` and `postgres`.
//! Tests use real databases, never a mock.
//!
//! The one rule every database keeps: an append to a game succeeds only
//! against the version it was validated on, in one transaction with
//! everything it causes (summary, players, outbox, queue clean-up), and
//! returns only after a durable commit.

mod accounts;
mod bots;
mod games;
mod mail;
mod postgres;
mod schedule;
mod sqlite;
mod tournaments;

use std::borrow::Cow;
use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tabula_model::{Event, EventAction, Options, SeatResult, Timestamp};
use thiserror::Error;

pub use bots::BotAccountRow;
pub use mail::Mailroom;
pub use postgres::{Claim, PostgresStore};
pub use sqlite::{BackupSummary, SqliteStore, backup};

/// Whether `db` names a PostgreSQL database (`postgres://` or
/// `postgresql://` URL) rather than a SQLite file.
pub fn is_postgres_url(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// Open the store `db` names: a `postgres://` URL opens PostgreSQL, anything
/// else is the path of a SQLite file (created if missing), opened for
/// `clients` (see [`SqliteStore::open`]). Migrations run either way.
pub async fn open(db: &str, clients: Clients) -> StoreResult<Arc<Store>> {
    if is_postgres_url(db) {
        Ok(Arc::new(PostgresStore::open(db).await?))
    } else {
        Ok(Arc::new(SqliteStore::open(Path::new(db), clients).await?))
    }
}

/// Who a process serves, which says how it reads a SQLite file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clients {
    /// A long-running process (the server, a worker): many at once.
    Many,
    /// A process that runs one command and exits.
    One,
}

/// The schema's migrations `NNNN_NAME` of both databases, in order, each
/// with its SQL for SQLite and for PostgreSQL (`migrations/DB/NNNN_NAME.sql`).
macro_rules! migrations {
    ($($name:literal),* $(,)?) => {
        [$(($name, include_str!(concat!("../../migrations/sqlite/", $name, ".sql")),
            include_str!(concat!("../../migrations/postgres/", $name, ".sql")))),*]
    };
}

/// The schema's migrations: a SQLite database's `user_version` is how many
/// of them it has; PostgreSQL records them by number (and has some of its own).
const MIGRATIONS: [(&str, &str, &str); 9] = migrations![
    "0001_initial",
    "0002_tokens_sessions",
    "0003_tournaments",
    "0004_mail_delivery",
    "0005_outbox_done",
    "0006_rate_limits",
    "0007_bot_accounts",
    "0008_hosted_claims",
    "0009_language",
];

/// The storage of a Tabula installation, on one database: every area's
/// methods (`accounts`, `games`, `mail`, `tournaments` and `schedule` each
/// add theirs).
#[derive(Clone, Debug)]
pub struct Store {
    db: Db,
}

/// The database a [`Store`] is on.
#[derive(Clone, Debug)]
enum Db {
    Sqlite(SqliteStore),
    Postgres(PostgresStore),
}

/// `$call` on whichever database `$store` is on, the database named `$db`
/// in it: each database has a method of that name.
macro_rules! on_db {
    ($store:expr, $db:ident => $call:expr) => {
        match &$store.db {
            Db::Sqlite($db) => $call,
            Db::Postgres($db) => $call,
        }
    };
}
use on_db;

/// The values of a statement, in order.
macro_rules! values {
    ($($value:expr),* $(,)?) => {
        vec![$(Value::from($value)),*]
    };
}
use values;

/// A value bound to a statement: the two kinds of column the schema has
/// (timestamps, numbers and flags are integers; JSON is stored as text).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Value {
    Int(Option<i64>),
    Text(Option<String>),
}

/// How each kind of value a statement takes becomes a [`Value`].
macro_rules! value_from {
    ($($from:ty => |$v:ident| $value:expr;)*) => {
        $(impl From<$from> for Value {
            fn from($v: $from) -> Self {
                $value
            }
        })*
    };
}

value_from! {
    i64 => |v| Value::Int(Some(v));
    Option<i64> => |v| Value::Int(v);
    bool => |v| Value::Int(Some(v.into()));
    &str => |v| Value::Text(Some(v.to_owned()));
    &String => |v| Value::Text(Some(v.clone()));
    String => |v| Value::Text(Some(v));
    Option<String> => |v| Value::Text(v);
    Option<&str> => |v| Value::Text(v.map(str::to_owned));
    &Option<String> => |v| Value::Text(v.clone());
}

/// A row type: mapped by serde, by column name, from either database (see
/// `serde_rusqlite` and [`postgres::RowReader`]).
trait Row: serde::de::DeserializeOwned + Send + 'static {}

impl<T: serde::de::DeserializeOwned + Send + 'static> Row for T {}

/// A statement of a write and its values.
type Statement = (Cow<'static, str>, Vec<Value>);

/// The statements to run once a new row's id is known (see [`Store::write_new`]).
type Then = Box<dyn Fn(i64) -> StoreResult<Vec<Statement>> + Send + Sync>;

/// Where SQLite reads the rows of a statement (PostgreSQL reads every one on its pool).
#[derive(Clone, Copy, Debug)]
enum On {
    /// A reading connection.
    Reader,
    /// The writing connection, whose cache holds the pages of the games
    /// being played: the reads of a move or a challenge.
    Writer,
    /// A write of the group commit, answered once durable: a write whose
    /// rows are returned (`RETURNING`).
    Batch,
}

impl Store {
    /// The rows of the read `sql` with `values`.
    async fn rows<T: Row>(
        &self,
        sql: impl AsRef<str> + Send + 'static,
        values: Vec<Value>,
    ) -> StoreResult<Vec<T>> {
        self.rows_on(On::Reader, sql, values).await
    }

    /// The rows of the statement `sql` with `values`, read on SQLite's
    /// connection `on` names.
    async fn rows_on<T: Row>(
        &self,
        on: On,
        sql: impl AsRef<str> + Send + 'static,
        values: Vec<Value>,
    ) -> StoreResult<Vec<T>> {
        match &self.db {
            Db::Sqlite(db) => db.rows(on, sql, values).await,
            Db::Postgres(db) => db.rows(sql, values).await,
        }
    }

    /// The first row of the read `sql` with `values`, if any.
    async fn row<T: Row>(&self, sql: &'static str, values: Vec<Value>) -> StoreResult<Option<T>> {
        Ok(self.rows(sql, values).await?.into_iter().next())
    }

    /// The only column of the first row of `sql` with `values`, if any.
    async fn value<T>(&self, sql: &'static str, values: Vec<Value>) -> StoreResult<Option<T>>
    where
        (T,): Row,
    {
        Ok(self.row::<(T,)>(sql, values).await?.map(|(v,)| v))
    }

    /// Run `statements` in one durable transaction; the rows each changed.
    async fn write(&self, statements: Vec<Statement>) -> StoreResult<Vec<u64>> {
        on_db!(self, db => db.write(statements, false).await)
    }

    /// Run `statements` in one durable transaction if the first changes a
    /// row; `Conflict`, and nothing written, if it does not.
    async fn write_guarded(&self, statements: Vec<Statement>) -> StoreResult<()> {
        on_db!(self, db => db.write(statements, true).await).map(drop)
    }

    /// Run `first`, which returns the id of the row it adds, then the
    /// statements `then` makes of that id, in one durable transaction; the id.
    async fn write_new(&self, first: Statement, then: Then) -> StoreResult<i64> {
        on_db!(self, db => db.write_new(first, then).await)
    }

    /// Run the write `sql` with `values`; the rows it changed.
    async fn execute(&self, sql: &'static str, values: Vec<Value>) -> StoreResult<u64> {
        Ok(self.write(vec![(sql.into(), values)]).await?.iter().sum())
    }

    /// `Unsupported` unless the database is one several processes share,
    /// as distributed tournaments need.
    fn shared(&self) -> StoreResult<()> {
        match &self.db {
            Db::Postgres(_) => Ok(()),
            Db::Sqlite(_) => Err(StoreError::Unsupported(
                "distributed tournaments need a PostgreSQL database (--db postgres://...)",
            )),
        }
    }
}

/// Whether `e` is a unique or primary key that already exists.
fn is_taken(e: &StoreError) -> bool {
    match e {
        StoreError::Sqlite(rusqlite::Error::SqliteFailure(f, _)) => {
            f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
                || f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
        }
        StoreError::Database(sqlx::Error::Database(e)) => e.is_unique_violation(),
        _ => false,
    }
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
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct TournamentJob {
    /// Tournament number.
    pub tournament: i64,
    /// The game's place in the tournament's schedule.
    pub index: i64,
    /// The tournament's full settings, as JSON.
    pub config: String,
}

/// Scheduled work that one process at a time does (see [`Store::claim`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// Catching up a game's clock.
    Clock(i64),
    /// Checking a game's move time limits.
    TimeLimits(i64),
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

// Rows are mapped onto these types by name, by serde, from either database.
// Lists of strings and other structured values are stored as JSON text,
// flags as integers.

/// A user account as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserRow {
    /// Lower-case user id.
    pub id: String,
    /// argon2id PHC string; never shown.
    #[serde(skip_serializing)]
    pub password_hash: String,
    /// Email addresses, the first is where mail goes.
    #[serde(deserialize_with = "json_text")]
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
    /// The language chosen for the account (`en`, `fi`, `es`); `None`
    /// until one is chosen (see [`UserRow::lang`]).
    #[serde(default)]
    pub language: Option<String>,
}

impl UserRow {
    /// The language the account reads Tabula in, if one was chosen.
    pub fn lang(&self) -> Option<tabula_model::Lang> {
        self.language.as_deref().and_then(tabula_model::Lang::parse)
    }
}

/// A rate limit's count (see [`Store::count_limit`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
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
        use serde::de::{IntoDeserializer, value::Error};
        Self::deserialize(s.into_deserializer())
            .map_err(|_: Error| StoreError::Corrupt(format!("game status {s:?}")))
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct GameSummary {
    /// Board number.
    pub id: i64,
    /// Game kind.
    pub kind: String,
    /// Players in seat order.
    #[serde(deserialize_with = "json_text")]
    pub players: Vec<String>,
    /// Status.
    pub status: GameStatus,
    /// Moves made.
    pub moves: i64,
    /// Users who must act now.
    #[serde(deserialize_with = "json_text")]
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
    #[serde(default, skip_serializing, deserialize_with = "json_text")]
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
#[derive(Deserialize)]
struct GameRow {
    #[serde(flatten)]
    summary: GameSummary,
    #[serde(deserialize_with = "json_text")]
    options: Options,
    seed: i64,
    created: Timestamp,
}

/// A seat of a game as stored.
#[derive(Deserialize)]
struct SeatRow {
    accepted: bool,
    result: Option<SeatResult>,
    user_id: String,
    bot: bool,
}

/// An event as stored.
#[derive(Deserialize)]
struct EventRow {
    at: Timestamp,
    seat: Option<i64>,
    #[serde(deserialize_with = "json_text")]
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
#[derive(Deserialize)]
struct ReaderRow {
    accepted: Option<bool>,
    seat_result: Option<SeatResult>,
    reader: Option<String>,
    #[serde(deserialize_with = "json_text")]
    emails: Option<Vec<String>>,
    notify: Option<bool>,
    signed_off: Option<bool>,
    bot: Option<bool>,
    language: Option<String>,
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
            let lang = row.language.as_deref().and_then(tabula_model::Lang::parse).unwrap_or_default();
            head.recipients.push(Recipient { user: reader, address, lang });
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
    /// The language the reader's mail is written in.
    pub lang: tabula_model::Lang,
}

/// A message for the outbox.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(from = "StoredOutboxRow")]
pub struct OutboxRow {
    /// Row id.
    pub id: i64,
    /// The message.
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

/// An outbox row as stored: the message's columns beside the row's own
/// (the JSON of an [`OutboxRow`], as `tabula outbox --json` shows it, keeps
/// the message apart).
#[derive(Deserialize)]
struct StoredOutboxRow {
    id: i64,
    #[serde(flatten)]
    message: OutboxMessage,
    created: Timestamp,
    sent_at: Option<Timestamp>,
    attempts: i64,
    last_error: Option<String>,
    gave_up_at: Option<Timestamp>,
}

impl From<StoredOutboxRow> for OutboxRow {
    fn from(r: StoredOutboxRow) -> Self {
        let StoredOutboxRow { id, message, created, sent_at, attempts, last_error, gave_up_at } = r;
        OutboxRow { id, message, created, sent_at, attempts, last_error, gave_up_at }
    }
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
    /// Mark an incoming mail message handled (see [`Mailroom::claim_incoming`]),
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
    /// End every token and login session of `user` (a password change or a
    /// sign-off), in the transaction of the account's change.
    EndLogins {
        /// The account.
        user: String,
    },
}

/// The side effects of a new game, made from its board number once the
/// store has given it one (see [`Store::create_game`]).
pub type NewGameEffects = Box<dyn Fn(i64) -> Vec<SideEffect> + Send + Sync>;

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
    /// The statement listing the games of this filter on `db`, selecting
    /// `columns` of each game (`g`), its values in order, and where SQLite
    /// reads it: a user's games (a challenge counts both players' running
    /// ones) on the writing connection, whose cache is warm; a list over
    /// every game, which may scan thousands of rows, on a reading
    /// connection, so as not to hold up the commits behind it.
    fn query(&self, columns: &str, db: &Db) -> (String, Vec<Value>, On) {
        let mut values = Vec::new();
        let mut next = |value| {
            values.push(value);
            format!("?{}", values.len())
        };
        // A user's games are found from the user's seats (the index on user
        // and game), not by testing every game of the server with the given
        // statuses. DISTINCT, one row for a player who holds two seats. A
        // user who must move holds a seat too. On SQLite, CROSS JOIN keeps
        // the seats as the outer loop.
        let (join, to_move) = match db {
            Db::Sqlite(_) => {
                ("CROSS JOIN", "EXISTS (SELECT 1 FROM json_each(g.to_move) WHERE json_each.value = ?)")
            }
            Db::Postgres(_) => ("JOIN", "g.to_move::jsonb @> jsonb_build_array(?::text)"),
        };
        // The games are found from one user's seats: the player's, or else
        // those of the user who must move (seated in every game that waits for them).
        let seated = self.player.as_deref().or(self.to_move.as_deref());
        let mut sql = match seated {
            Some(user) => format!(
                "SELECT {columns} FROM (SELECT DISTINCT game_id FROM game_players WHERE user_id = {}) p \
                 {join} games g ON g.id = p.game_id WHERE 1 = 1",
                next(Value::from(user))
            ),
            None => format!("SELECT {columns} FROM games g WHERE 1 = 1"),
        };
        // Only fixed fragments and placeholders are concatenated; every value is bound.
        if let Some(kind) = &self.kind {
            sql += &format!(" AND kind = {}", next(Value::from(kind)));
        }
        if !self.statuses.is_empty() {
            let marks: Vec<String> = self.statuses.iter().map(|s| next(Value::from(s.as_str()))).collect();
            sql += &format!(" AND status IN ({})", marks.join(", "));
        }
        if let Some(user) = &self.to_move {
            sql += &format!(" AND {}", to_move.replace('?', &next(Value::from(user))));
        }
        if let Some(before) = self.before {
            sql += &format!(" AND id < {}", next(Value::from(before)));
        }
        let limit = if self.limit > 0 { self.limit } else { 1000 };
        sql += &format!(" ORDER BY id DESC LIMIT {}", next(Value::from(limit)));
        let on = if seated.is_some() { On::Writer } else { On::Reader };
        (sql, values, on)
    }
}

/// A chat message.
#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ChatRow {
    /// Who wrote it.
    #[serde(alias = "user_id")]
    pub user: String,
    /// When.
    #[schema(value_type = i64)]
    pub at: Timestamp,
    /// What.
    pub text: String,
}

/// A queued conditional move.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct QueuedMove {
    /// Row id.
    pub id: i64,
    /// Whose.
    #[serde(alias = "user_id")]
    pub user: String,
    /// The move text.
    #[serde(alias = "move")]
    pub text: String,
}

/// A bearer token as listed (the secret itself is never stored).
#[derive(Clone, Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct TokenRow {
    /// Token id (for revoking).
    pub id: i64,
    /// Owner.
    #[serde(alias = "user_id")]
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
#[derive(Clone, Debug, Deserialize)]
pub struct SessionRow {
    /// Who is logged in.
    #[serde(alias = "user_id")]
    pub user: String,
    /// The CSRF token of the session's forms.
    pub csrf: String,
    /// When it ends.
    pub expires: Timestamp,
}

/// A stored tournament.
#[derive(Clone, Debug, Serialize, Deserialize)]
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
