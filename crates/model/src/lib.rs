//! The game model shared by every Tabula game.
//!
//! A game is a deterministic state machine driven by a [`Record`]: game kind,
//! options, players, seed and an ordered list of events. Replaying the record
//! gives the state, so the stored record is the single source of truth.
//!
//! Games implement [`Rules`] (typed moves, pure and I/O-free). The service
//! and the front ends only ever see [`DynState`] through a [`Game`], which
//! adds what every game shares: resignation bookkeeping, draw and undo
//! agreements, the move history with hidden entries, and replay. Hidden
//! information leaves a game only through [`Rules::view`], and rendering is a
//! function of the view, so nothing a viewer may not see can be drawn.
//!
//! # Glossary: one name per concept
//!
//! Every crate uses these words in these senses only.
//!
//! - **kind**: which game something is (DNA, Rewrite, ...). In code a
//!   [`GameKind`] (the registry holds one per game), named by its **game
//!   word**, the lower-case command word `dna` ([`GameInfo::kind`],
//!   [`Record::kind`]). Other things that come in sorts are not kinds:
//!   what an event does is its *action* ([`EventAction`]), a proposal is a
//!   draw or an undo ([`ProposalKind`] names which), an option's value type
//!   is its [`OptionKind`].
//! - **info**: a kind's static facts ([`GameInfo`]): options, player
//!   counts, dynamics, and its texts (title, rules) in each language.
//! - **record**: everything that rebuilds one game exactly ([`Record`]):
//!   kind, options, players, seed, events. It is what is stored; all the
//!   rest is derived from it.
//! - **event**: one entry of a record ([`Event`]): a move, a resignation, a
//!   proposal and its answer, a clock step, a join.
//! - **move**: what a player plays, as text (`AAG`, `a1,b2`); the games
//!   parse it into their own typed move ([`Rules::Move`]).
//! - **state**: a record replayed ([`DynState`]); a **game** is a state
//!   with its record and what all games share ([`Game`]).
//! - **board**: one game being played on a server, by its number (`dna show
//!   12`); pbmserv's word, kept for the commands. Its stored forms are the
//!   service's *summary* (the listing row), *head* (summary, acceptances and
//!   mail recipients) and *stored game* (the record with its summary).
//! - **version**: how many events a board has stored; a change is appended
//!   only against the version it was computed from.
//! - **player**: a user id at a **seat** ([`Seat`], the 0-based place in
//!   turn order). A **user** is an account; a **bot** is a player named
//!   `bot:NAME`.
//! - **turn**: who must act now ([`Turn`]).
//! - **viewer**: whose eyes ([`Viewer`]): a player's seat, or an observer.
//! - **view**: what one viewer may see of a state ([`Rules::view`]), the only
//!   way hidden information leaves a game; the **history** is the record's
//!   moves as one viewer may see them ([`HistoryEntry`]).
//! - **outcome**: how a game ended ([`Outcome`]); a seat's **result** is its
//!   win, draw or loss ([`SeatResult`]).
//! - **command**: one line of the command language (`dna move 12 ned pw
//!   AAG`), parsed into the service's `Command`; its **credentials** are the
//!   user id and password it carries. A command's answer is a **reply**
//!   (heading, text, and for a board its **report**: the game as the caller
//!   may see it, in JSON).

mod click;
pub mod coords;
mod error;
mod game;
mod info;
mod options;
mod rng;
mod rules;
mod score;
mod seats;
pub mod svg;
pub mod testing;
pub mod window;

pub use click::{ClickMap, Picture};
pub use error::{MoveError, ReplayError, SetupError};
pub use game::{
    Event, EventAction, Game, HiddenLine, HistoryEntry, LineText, LogLine, MoveLine, Preview, Proposal,
    ProposalKind, Record, check_seed,
};
pub use info::{COMMON_OPTIONS, Dynamics, GameInfo, OptionKind, OptionSpec};
pub use options::{OptionError, OptionValue, Options, format_duration, parse_duration};
pub use rng::{GameRng, GameStreams, rng_for};
pub use rules::{
    Applied, Ctx, DynState, Erased, Evaluation, GameKind, Hidden, Kind, LogEntry, Playout, Rules, Setup,
};
pub use score::Score;
pub use seats::{Seats, SeatsIter};
/// The language a text is wanted in (a game's title and rules: [`GameInfo::rules`]).
pub use tabula_i18n::Lang;
/// A text for people as a catalogue message, and the macro that makes one:
/// what a game's refusals and contradictions say, put into words later in
/// the reader's language.
pub use tabula_i18n::{Arg, Message, format_datetime_seconds, localize_decimal, msg};
/// A text put into words at once, for a renderer that knows its reader's
/// language: no message is built to be rendered right away.
pub use tabula_i18n::{and_list, t};

use serde::{Deserialize, Serialize};

/// A player's position in a game's player list (0-based, in turn order).
pub type Seat = usize;

/// Milliseconds since the Unix epoch. Every event carries one; games that run
/// on the wall clock compute their ticks from it.
pub type Timestamp = i64;

/// Who must act now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Turn {
    /// One player moves (turn-based games).
    Player(Seat),
    /// Every seat in the set still owes a secret move (simultaneous games);
    /// the set shrinks as moves arrive and is never empty.
    Simultaneous(Seats),
    /// Nobody is required to move: the game advances on the clock, and any
    /// player may act at any time.
    Clock,
    /// The game is over.
    Over,
}

impl Turn {
    /// Whether `seat` is expected to act now. For clock-driven games every
    /// player may act, so this is true for everyone.
    pub fn includes(&self, seat: Seat) -> bool {
        match self {
            Turn::Player(p) => *p == seat,
            Turn::Simultaneous(set) => set.contains(seat),
            Turn::Clock => true,
            Turn::Over => false,
        }
    }
}

/// Whose eyes a view is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Viewer {
    /// A player of the game: sees their own secrets.
    Player(Seat),
    /// Anyone else: sees only public information.
    Observer,
}

impl Viewer {
    /// The seat of this viewer, if a player.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Player(s) => Some(s),
            Viewer::Observer => None,
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    /// One seat: that player won. Several: a draw (tie) among them, everyone
    /// else lost. Every game lists every player of a draw, so that a draw
    /// reads the same whatever the game: never empty once a game is over.
    pub winners: Vec<Seat>,
    /// Why the game ended (`"last player standing"`, `"most hits"`), a
    /// catalogue message put into words in each reader's language.
    pub reason: Message,
    /// Final scores per seat where the game has scores (else empty), exact.
    pub scores: Vec<Score>,
}

/// The result of a game from one seat's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SeatResult {
    /// This seat won alone.
    Win,
    /// This seat shared a draw.
    Draw,
    /// This seat lost.
    Loss,
}

impl Outcome {
    /// A sole win for `seat`.
    pub fn win(seat: Seat, reason: impl Into<Message>) -> Self {
        Outcome { winners: vec![seat], reason: reason.into(), scores: Vec::new() }
    }

    /// A draw among `seats`: every player who shares it, listed.
    pub fn draw(seats: Vec<Seat>, reason: impl Into<Message>) -> Self {
        Outcome { winners: seats, reason: reason.into(), scores: Vec::new() }
    }

    /// Attach final scores.
    pub fn with_scores(mut self, scores: Vec<Score>) -> Self {
        self.scores = scores;
        self
    }

    /// The result for `seat`.
    pub fn result_for(&self, seat: Seat) -> SeatResult {
        match self.winners.as_slice() {
            [] => SeatResult::Loss,
            [w] if *w == seat => SeatResult::Win,
            ws if ws.len() > 1 && ws.contains(&seat) => SeatResult::Draw,
            _ => SeatResult::Loss,
        }
    }

    /// The sole winner, if there is one.
    pub fn sole_winner(&self) -> Option<Seat> {
        match self.winners.as_slice() {
            [w] => Some(*w),
            _ => None,
        }
    }
}
