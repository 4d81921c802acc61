//! The service: applies commands to the store. Every front end calls
//! [`Service::execute`] with a command line and the caller's identity, or
//! [`Service::run`] with a parsed [`Command`](crate::Command).
//!
//! One file per concern: `dispatch` (a command to the code that runs it),
//! `game_commands` (a method per command on a board), `accounts`,
//! `challenges`, `commit` (an event appended with its mail and live
//! notice), `automatic` (bots, queued moves, due clocks), `cache` (loading
//! and the replay cache), `boards` (a board as a reader sees it), `bots`
//! (bot accounts), `standings` (lists, standings, the ladder) and `reads`
//! (the front ends' read queries: what waits for a user, what they may do
//! on a board).

mod accounts;
mod automatic;
mod boards;
mod bots;
mod cache;
mod challenges;
mod commit;
mod dispatch;
mod game_commands;
mod reads;
mod standings;

pub use bots::{BotGame, MAX_BOT_COMMAND, MAX_BOT_WORDS};
pub use reads::{Actions, BoardState, Offer, Waiting, WaitingGame};

use std::sync::{Arc, Mutex};

use serde::Serialize;
use serde_json::Value;
use tabula_model::{Game, HistoryEntry, Seat, Timestamp};

use crate::error::{CommandError, ErrorCode};
use crate::replays::Replays;
use crate::store::{GameHead, GameStatus, Recipient, Store, StoredGame, UserRow};

/// The wall clock, or a fixed time (the CLI's `--now`, tests, replays).
#[derive(Clone, Debug)]
pub enum Clock {
    /// Real time.
    System,
    /// Always this time.
    Fixed(Timestamp),
}

impl Clock {
    /// Now, in milliseconds since the epoch.
    pub fn now(&self) -> Timestamp {
        match self {
            Clock::System => chrono::Utc::now().timestamp_millis(),
            Clock::Fixed(t) => *t,
        }
    }
}

/// Who is calling, as established by the front end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Caller {
    /// Unknown: commands authenticate with their password.
    Anonymous,
    /// Authenticated by the front end (bearer token, web session, or a
    /// signed mail gateway): the password word may be `-`.
    User(String),
    /// Authenticated by a bearer token, with the owner's account as it was
    /// read with the token: as [`Caller::User`], without reading the
    /// account a second time.
    Account(Box<UserRow>),
}

/// Plays the moves of built-in bots (`bot:NAME` players).
pub trait BotPlayer: Send + Sync {
    /// Whether `name` (without `bot:`) is a bot this server can run in
    /// the game `kind`.
    fn knows(&self, name: &str, kind: &str) -> bool;
    /// The bot's move for `seat`, as text.
    fn choose(&self, name: &str, game: &Game, seat: Seat) -> Option<String>;
    /// The bots (names without `bot:`) that play the game `kind`, to offer
    /// on challenge forms, strongest last.
    fn names(&self, kind: &str) -> Vec<String>;
}

/// What a successful command returns.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct Reply {
    /// The heading (the mail subject).
    pub subject: String,
    /// The body text.
    pub text: String,
    /// The game the command was about, as the caller may see it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<GameReport>,
    /// Command-specific data (lists, tables).
    #[serde(skip_serializing_if = "Value::is_null")]
    pub data: Value,
}

impl Reply {
    fn plain(subject: impl Into<String>, text: impl Into<String>) -> Self {
        Reply { subject: subject.into(), text: text.into(), game: None, data: Value::Null }
    }

    /// A reply of a catalogue's subject and text (the text's last line
    /// ended, as every reply's is: the catalogue cannot end a message
    /// with a line break).
    fn said(subject: String, text: String) -> Self {
        Reply::plain(subject, format!("{text}\n"))
    }
}

/// A game as the caller may see it (the `--json` form and the API's).
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct GameReport {
    /// Board number.
    pub id: i64,
    /// Game kind.
    pub kind: String,
    /// Players in seat order.
    pub players: Vec<String>,
    /// The players that are bots (built-in ones and bot accounts).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bots: Vec<String>,
    /// Status.
    pub status: GameStatus,
    /// Users who must act now.
    pub to_move: Vec<String>,
    /// Moves made.
    pub moves: usize,
    /// Events stored (the version).
    pub version: usize,
    /// How it ended, once over: `winners` (the sole winner, or every
    /// player who shares a draw), `draw`, `reason`, `scores` (exact, in
    /// seat order: `"33"` or `"61/3"`) and `scores_text` (as shown).
    pub outcome: Option<Value>,
    /// The options as typed.
    pub options: Vec<String>,
    /// The caller's view, in the game's JSON form, its long strings cut
    /// (see [`tabula_model::window`]).
    #[schema(value_type = Object)]
    pub view: Box<serde_json::value::RawValue>,
    /// The strings of `view` that were cut, with their whole lengths.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cut: Vec<tabula_model::window::CutText>,
    /// The history as the caller may see it: a JSON array of
    /// [`HistoryEntry`], written from the JSON its lines keep (see
    /// [`Game::history_json`]).
    #[schema(value_type = Vec<HistoryEntry>)]
    pub history: Box<serde_json::value::RawValue>,
}

impl GameReport {
    /// The history's entries, read back from its JSON: for a front end
    /// that lays the lines out (a reply itself carries only the JSON).
    pub fn history_entries(&self) -> Vec<HistoryEntry> {
        serde_json::from_str(self.history.get()).expect("a report's history is its entries' JSON")
    }
}

/// The reply to an incoming mail message, made by the mail gateway and
/// committed by the service in the transaction of the change the
/// message's command makes, with the message's handled mark: a crash after
/// that commit cannot lose the mover's reply, and the message delivered
/// again is known as handled.
///
/// The reply queued with a change is held back until
/// [`Answer::hold_until`]: the gateway queues the whole reply once the
/// message's commands have all run, and that replaces it. Only if the
/// gateway dies first is the reply of the commit sent, when the hold ends.
#[derive(Clone)]
pub struct Answer {
    /// The incoming message's key (see [`crate::store::Mailroom::claim_incoming`]).
    pub message: String,
    /// When the reply queued with the change is due if nothing replaces it.
    pub hold_until: Timestamp,
    /// The reply mail, from the command's own reply as of the change;
    /// `None` when the reply is not queued (it goes to standard output):
    /// then only the notifications are held back.
    pub reply: Option<ReplyMail>,
    /// The message's comment, written at the end of every notification
    /// its moves send (as pbmserv did), never as a mail of its own.
    pub comment: Option<String>,
    /// The notifications the message's changes have committed so far:
    /// shared by the answers of all its commands.
    pub notes: Notes,
}

/// The notifications one incoming message's changes have committed, by
/// reader and board. A reader of several boards the message changed gets
/// them in one mail, the boards one after the other: each change commits
/// the reader's whole mail so far, replacing the one held before it, so
/// that a crash between two commands still leaves one mail per reader.
#[derive(Clone, Default)]
pub struct Notes(Arc<Mutex<Told>>);

/// What [`Notes`] keeps.
#[derive(Default)]
struct Told {
    notes: Vec<Note>,
    /// The boards whose chat has the message's comment.
    commented: Vec<i64>,
}

/// One board's part of a reader's notification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Note {
    pub reader: String,
    pub board: i64,
    pub heading: String,
    pub body: String,
}

impl Notes {
    /// The mail `note` makes for its reader with what the message told
    /// them before (its board's part replaced): subject, body and the
    /// board whose thread it goes to (the first).
    pub(super) fn mail_with(&self, note: &Note) -> (String, String, i64) {
        let mut parts: Vec<Note> = match self.0.lock() {
            Ok(told) => told.notes.iter().filter(|n| n.reader == note.reader).cloned().collect(),
            Err(_) => Vec::new(),
        };
        match parts.iter_mut().find(|n| n.board == note.board) {
            Some(part) => *part = note.clone(),
            None => parts.push(note.clone()),
        }
        if let [only] = parts.as_slice() {
            return (only.heading.clone(), only.body.clone(), only.board);
        }
        let subject = parts.iter().map(|n| n.heading.as_str()).collect::<Vec<_>>().join("; ");
        let body = parts
            .iter()
            .map(|n| format!("{}\n\n{}", n.heading, n.body.trim_end()))
            .collect::<Vec<_>>()
            .join(&format!("\n\n{}\n\n", "=".repeat(60)));
        (subject, format!("{body}\n"), parts[0].board)
    }

    /// Whether the message's comment is in `board`'s chat already.
    pub(super) fn commented(&self, board: i64) -> bool {
        self.0.lock().is_ok_and(|told| told.commented.contains(&board))
    }

    /// Keep `committed` as told, and `commented` (a board whose chat now
    /// has the comment).
    pub(super) fn record(&self, committed: Vec<Note>, commented: Option<i64>) {
        if let Ok(mut told) = self.0.lock() {
            for note in committed {
                told.notes.retain(|n| !(n.reader == note.reader && n.board == note.board));
                told.notes.push(note);
            }
            told.commented.extend(commented);
        }
    }
}

/// The reply `reply` to the mail message `answer` is about and the
/// message's handled mark: what a command by mail commits with its change.
pub(super) fn answer_effects(answer: &Answer, reply: &Reply) -> Vec<crate::store::SideEffect> {
    use crate::store::SideEffect;
    match &answer.reply {
        Some(mail) => vec![
            SideEffect::Held { message: mail(reply), due: answer.hold_until },
            SideEffect::Handled(answer.message.clone()),
        ],
        None => Vec::new(),
    }
}

impl Service {
    /// [`answer_effects`] for a command run in `context`; none outside mail.
    pub(super) fn answered(
        &self,
        context: &crate::throttle::Context,
        reply: &Reply,
    ) -> Vec<crate::store::SideEffect> {
        context.answer.as_ref().map(|a| answer_effects(a, reply)).unwrap_or_default()
    }
}

/// What a change is part of: the mail message it answers, and the user
/// whose command made it. That user is not notified of the changes the
/// command makes (a bot's answering move included): the command's reply
/// shows the board after them. With an answer, the notifications are held
/// back under the message's key, a later change of the same message
/// replacing them, so that one message sends one mail per reader.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Round<'a> {
    pub answer: Option<&'a Answer>,
    pub told: Option<&'a str>,
    /// The language of the reply to the message's author.
    pub lang: tabula_model::Lang,
}

impl<'a> Round<'a> {
    /// The change `user` makes with a command run in `context`.
    pub fn of(context: &'a crate::throttle::Context, user: &'a str) -> Self {
        Round { answer: context.answer.as_ref(), told: Some(user), lang: context.lang }
    }
}

impl std::fmt::Debug for Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Answer")
            .field("message", &self.message)
            .field("hold_until", &self.hold_until)
            .finish()
    }
}

impl PartialEq for Answer {
    fn eq(&self, other: &Self) -> bool {
        self.message == other.message
            && self.hold_until == other.hold_until
            && self.comment == other.comment
            && Arc::ptr_eq(&self.notes.0, &other.notes.0)
            && match (&self.reply, &other.reply) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
    }
}

impl Eq for Answer {}

/// Makes the reply mail to a message from a command's reply (see [`Answer`]).
pub type ReplyMail = Arc<dyn Fn(&Reply) -> crate::store::OutboxMessage + Send + Sync>;

/// Clock events applied per command at most (a long downtime is caught up
/// over several commands and by the scheduler).
const CLOCK_CATCH_UP: usize = 100_000;
/// Most players named in one challenge.
const MAX_CHALLENGE_PLAYERS: usize = 26;
/// How many times a move is retried when another request changed the game at the same moment.
const CONFLICT_RETRIES: usize = 8;
/// Longest chat message.
const MAX_CHAT: usize = 4000;

/// A game changed: sent to live listeners (the web's event streams), who
/// then fetch the view they may see.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameUpdate {
    /// Board number.
    pub board: i64,
    /// Its new version.
    pub version: i64,
}

/// A board as one reader sees it: the reply text and report (in the
/// reader's language), and the SVG picture.
#[derive(Clone, Debug, Serialize)]
pub struct Snapshot {
    /// Heading, text and the game report.
    pub reply: Reply,
    /// The board as a standalone SVG document.
    pub svg: String,
    /// The picture's click layout, for games whose moves name board points.
    pub click: Option<tabula_model::ClickMap>,
    /// The status lines that open `reply.text`, with whose turn the line
    /// saying so names: a page addresses that line to the player on move.
    pub status: Vec<crate::reply::StatusLine>,
}

/// The service.
pub struct Service {
    store: Arc<Store>,
    clock: Clock,
    bots: Option<Arc<dyn BotPlayer>>,
    /// Replayed games by board, with their versions; shared, so that a
    /// hit costs no copy under the lock.
    cache: Mutex<Replays>,
    /// Permits for CPU-heavy reads on the blocking pool (see [`Service::heavy`]).
    heavy: tokio::sync::Semaphore,
    /// Live notices of changes, made when the first listener subscribes:
    /// a notice no one listens for is dropped either way, and a process
    /// that runs one command has no listener to fill the channel's slots for.
    updates: std::sync::OnceLock<tokio::sync::broadcast::Sender<GameUpdate>>,
    /// Challenges naming someone else one user may send an hour over the
    /// network (0: no limit).
    challenge_rate: u32,
}

struct Loaded {
    /// Shared with the replay cache: a read copies nothing, a change
    /// takes its own copy (none when the cache gave the game up, see
    /// [`Service::load_to_change`]).
    game: Arc<Game>,
    stored: StoredGame,
    mail: Mail,
}

/// Who a game's changes are mailed to, read with its head (see
/// [`GameHead`]), so that a move's notifications need no query per reader.
#[derive(Clone, Debug, Default)]
struct Mail {
    subscribers: Vec<String>,
    recipients: Vec<Recipient>,
}

impl Mail {
    fn of(head: &mut GameHead) -> Mail {
        Mail {
            subscribers: std::mem::take(&mut head.subscribers),
            recipients: std::mem::take(&mut head.recipients),
        }
    }
}

impl Service {
    /// A service over `store`.
    pub fn new(store: Arc<Store>, clock: Clock) -> Self {
        Service {
            store,
            clock,
            bots: None,
            cache: Mutex::new(Replays::new(crate::replays::DEFAULT_BUDGET)),
            heavy: tokio::sync::Semaphore::new(
                std::thread::available_parallelism().map_or(2, |n| n.get()).max(2),
            ),
            updates: std::sync::OnceLock::new(),
            challenge_rate: crate::throttle::DEFAULT_CHALLENGES_PER_HOUR,
        }
    }

    /// At most `per_hour` challenges naming someone else per user and hour
    /// over the network (0: no limit); the local command line has none.
    pub fn with_challenge_rate(mut self, per_hour: u32) -> Self {
        self.challenge_rate = per_hour;
        self
    }

    /// Keep at most `bytes` of replayed games between moves (0: keep none,
    /// and replay a game's record for each command that reads it).
    pub fn with_replay_cache(self, bytes: usize) -> Self {
        *self.cache.lock().unwrap_or_else(|e| e.into_inner()) = Replays::new(bytes);
        self
    }

    /// The challenges per user and hour taken over the network (0: no limit).
    pub fn challenge_rate(&self) -> u32 {
        self.challenge_rate
    }

    /// Let the service play built-in bots.
    pub fn with_bots(mut self, bots: Arc<dyn BotPlayer>) -> Self {
        self.bots = Some(bots);
        self
    }

    /// The built-in bots offered for the game `kind`, as players' ids
    /// (`bot:random`, `bot:mcts`, ...); none when this service runs no bots.
    pub fn bot_names(&self, kind: &str) -> Vec<String> {
        match &self.bots {
            Some(b) => b.names(kind).into_iter().map(|n| format!("bot:{n}")).collect(),
            None => Vec::new(),
        }
    }

    /// The store. Private to this crate: front ends go through the
    /// service's commands and read methods, never around them.
    pub(crate) fn store(&self) -> &Arc<Store> {
        &self.store
    }

    /// The part of the store the mail front end works with: the outbox and
    /// the claims of incoming messages (the commands of a message still go
    /// through [`Service::run`]).
    pub fn mailroom(&self) -> crate::store::Mailroom<'_> {
        self.store.mail()
    }

    /// The current time.
    pub fn now(&self) -> Timestamp {
        self.clock.now()
    }

    /// The game words this service knows.
    pub fn game_words() -> Vec<&'static str> {
        tabula_games::all().iter().map(|k| k.info().kind).collect()
    }
}

fn internal(e: &dyn std::fmt::Display) -> CommandError {
    tracing::error!(error = %e, "internal error");
    CommandError::says(ErrorCode::Internal, tabula_i18n::msg!("error-replay"))
}
