//! The external bot protocol, version 1: JSON lines from the referee, one
//! move line back per `turn`.
//!
//! ```text
//! {"type":"start","protocol":1,"game":"intervalo","options":{"cells":64},"seat":0,"players":2,"seed":123456}
//! {"type":"turn","view":{"strip":"..x.o#..."},"legal":["1","2"],"time_ms":1000}
//! {"type":"end","result":"win","scores":["33","30"]}
//! {"type":"quit"}
//! ```
//!
//! The view is what the seat may see, in the game's own JSON form; for
//! Intervalo it is exactly `{"strip":"..."}` (static) or adds `history` and
//! `scores` (dynamic). `docs/bot-protocol.md` has the full description.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tabula_intervalo::Intervalo;
use tabula_model::{EventAction, Game, SeatResult, Turn, Viewer};

/// The protocol version spoken here.
pub const PROTOCOL_VERSION: u32 = 1;
/// `legal` is sent when there are at most this many legal moves.
pub const MAX_LEGAL_LISTED: usize = 1000;
/// The longest line a bot may write.
pub const MAX_LINE: usize = 64 * 1024;

/// The largest seed sent to a bot: 2^53 - 1, so that every JSON reader
/// (JavaScript's and jq's numbers are doubles) reads it exactly.
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// A bot's answer to a `turn` of a game on the clock when it does not
/// want to move this step.
pub const PASS: &str = "pass";

/// What a bot is shown of the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ViewMode {
    /// The position only (Intervalo: the strip alone).
    #[default]
    Static,
    /// The position plus the history of choices and the scores.
    Dynamic,
}

impl std::str::FromStr for ViewMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "static" => Ok(ViewMode::Static),
            "dynamic" => Ok(ViewMode::Dynamic),
            _ => Err(format!("{s:?} is not a view: use static or dynamic")),
        }
    }
}

/// A message from the referee to a bot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Message {
    /// A game starts.
    Start {
        /// Always [`PROTOCOL_VERSION`].
        protocol: u32,
        /// The game's command word.
        game: String,
        /// The game's own options, resolved.
        options: Value,
        /// This bot's seat (0-based).
        seat: usize,
        /// Number of players.
        players: usize,
        /// A seed for bots that randomise, drawn for this seat from the
        /// game's own seed (see [`seat_seed`]), at most [`MAX_SEED`].
        seed: u64,
    },
    /// The bot must move.
    Turn {
        /// What the seat may see.
        view: Value,
        /// The legal moves, when at most [`MAX_LEGAL_LISTED`].
        #[serde(skip_serializing_if = "Option::is_none", default)]
        legal: Option<Vec<String>>,
        /// Time for this move in milliseconds.
        time_ms: u64,
        /// For a game on the clock: the simulated time now and of the next
        /// clock event (the bot may answer `pass`).
        #[serde(skip_serializing_if = "Option::is_none", default)]
        clock: Option<ClockInfo>,
    },
    /// The game is over.
    End {
        /// From this seat's side.
        result: SeatResult,
        /// Final scores in seat order (empty for games without scores),
        /// exact strings (see [`score_values`]).
        scores: Vec<Value>,
    },
    /// The process should exit.
    Quit,
}

/// Where the simulated clock of a game on the clock stands, in
/// milliseconds since the game's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockInfo {
    /// Now.
    pub now: i64,
    /// When the next clock event (a tick) is due.
    pub next: i64,
}

impl Message {
    /// The message as one line of JSON (without the newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{\"type\":\"quit\"}".into())
    }
}

/// The seed `seat` is sent: drawn from the game's seed, one per seat.
/// Never the game's seed itself: every draw of the game follows from that,
/// the referee's `random` set-ups and the built-in bots' secret choices
/// among them, which a bot must not be able to work out. A ChaCha output
/// does not give its key back, and each seat gets its own.
pub fn seat_seed(game_seed: u64, seat: usize) -> u64 {
    use rand::RngCore;
    tabula_model::rng_for(game_seed, SEAT_SEED_STREAMS | seat as u64).next_u64() & MAX_SEED
}

/// The generator streams of the seats' seeds (far above the streams of the
/// game's events and of the built-in bots' moves).
const SEAT_SEED_STREAMS: u64 = 1 << 48;

/// The `start` message for `seat` of `game`.
pub fn start_message(game: &Game, seat: usize) -> Message {
    let info = game.kind().info();
    let record = game.record();
    let mut options = serde_json::Map::new();
    for spec in info.options {
        if let Some(v) = record.options.values().get(spec.name) {
            options.insert(spec.name.to_string(), serde_json::to_value(v).unwrap_or(Value::Null));
        }
    }
    Message::Start {
        protocol: PROTOCOL_VERSION,
        game: info.kind.to_string(),
        options: Value::Object(options),
        seat,
        players: game.players().len(),
        seed: seat_seed(record.seed, seat),
    }
}

/// What `seat` is shown in a `turn`: for Intervalo the protocol's own
/// strip view, for every other game the game's view JSON for that seat.
pub fn view_for(game: &Game, seat: usize, mode: ViewMode) -> Value {
    if let Some(state) = game.state().as_any().downcast_ref::<Intervalo>() {
        return intervalo_view(state, seat, mode);
    }
    game.view_json(Viewer::Player(seat), 0)
}

/// Intervalo's protocol view: `{"strip":"..x.o#"}`, and in dynamic mode
/// `"history"` (each past turn as `[your cell, their cell]`) and `"scores"`
/// (`[yours, theirs]`).
pub fn intervalo_view(state: &Intervalo, seat: usize, mode: ViewMode) -> Value {
    let strip = state.strip_for(seat);
    match mode {
        ViewMode::Static => json!({ "strip": strip }),
        ViewMode::Dynamic => {
            let other = 1 - seat.min(1);
            let history: Vec<[usize; 2]> =
                state.turns().iter().map(|t| [t.choices[seat.min(1)], t.choices[other]]).collect();
            let scores = state.scores();
            json!({ "strip": strip, "history": history, "scores": [scores[seat.min(1)], scores[other]] })
        }
    }
}

/// The `turn` message for `seat` as one line of JSON, the same text as
/// `turn_message(..).to_line()`; for Intervalo written straight from the
/// strip, without building the legal moves as separate strings first, since
/// the referee writes one per move.
pub fn turn_line(game: &Game, seat: usize, mode: ViewMode, time_ms: u64) -> String {
    use std::fmt::Write;
    let Some(state) = game.state().as_any().downcast_ref::<Intervalo>() else {
        return turn_message(game, seat, mode, time_ms).to_line();
    };
    let mut line = String::with_capacity(96 + 7 * state.len());
    line.push_str("{\"type\":\"turn\",\"view\":{");
    // Keys in the order serde_json writes them (alphabetical); strip
    // characters and numbers need no escaping.
    if mode == ViewMode::Dynamic {
        let me = seat.min(1);
        let other = 1 - me;
        line.push_str("\"history\":[");
        for (i, turn) in state.turns().iter().enumerate() {
            if i > 0 {
                line.push(',');
            }
            let _ = write!(line, "[{},{}]", turn.choices[me], turn.choices[other]);
        }
        let scores = state.scores();
        let _ = write!(line, "],\"scores\":[{},{}],", scores[me], scores[other]);
    }
    line.push_str("\"strip\":\"");
    line.extend(state.cells().iter().map(|c| match c {
        tabula_intervalo::Cell::Empty => '.',
        tabula_intervalo::Cell::Neutral => '#',
        tabula_intervalo::Cell::Piece(s) if *s == seat => 'x',
        tabula_intervalo::Cell::Piece(_) => 'o',
    }));
    line.push_str("\"}");
    let legal = intervalo_legal(state, seat);
    if legal.len() <= MAX_LEGAL_LISTED {
        line.push_str(",\"legal\":[");
        for (i, cell) in legal.iter().enumerate() {
            if i > 0 {
                line.push(',');
            }
            line.push('"');
            push_number(&mut line, cell + 1);
            line.push('"');
        }
        line.push(']');
    }
    let _ = write!(line, ",\"time_ms\":{time_ms}}}");
    line
}

/// Append the decimal digits of `n` (faster than the formatting machinery
/// for the many small numbers of a legal-move list).
fn push_number(line: &mut String, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    line.extend(digits[i..].iter().map(|&d| char::from(d)));
}

/// Intervalo's empty cells (0-based) open to `seat`, in the strip's order
/// (the game lists them in the order of their names, `1, 10, 11, .., 2`,
/// which is no order for a program).
fn intervalo_legal(state: &Intervalo, seat: usize) -> Vec<usize> {
    let mut cells = state.legal_cells(seat);
    cells.sort_unstable();
    cells
}

/// The `turn` message for `seat`.
pub fn turn_message(game: &Game, seat: usize, mode: ViewMode, time_ms: u64) -> Message {
    let legal = match game.state().as_any().downcast_ref::<Intervalo>() {
        Some(state) => Some(intervalo_legal(state, seat).iter().map(|c| (c + 1).to_string()).collect()),
        None => game.state().legal_moves(seat),
    };
    let legal = legal.filter(|l: &Vec<String>| l.len() <= MAX_LEGAL_LISTED);
    let clock = clock_info(game);
    let now = clock.map_or(0, |c| c.now);
    let view = match game.state().as_any().downcast_ref::<Intervalo>() {
        Some(state) => intervalo_view(state, seat, mode),
        None => game.view_json(Viewer::Player(seat), now),
    };
    Message::Turn { view, legal, time_ms, clock }
}

/// The clock of a game on the clock: now is its last clock event's time
/// (or its start), next the next event's.
pub fn clock_info(game: &Game) -> Option<ClockInfo> {
    if game.to_move() != Turn::Clock {
        return None;
    }
    let next = game.state().next_clock()?;
    let record = game.record();
    let now = record
        .events
        .iter()
        .rev()
        .find(|e| matches!(e.action, EventAction::Clock))
        .map_or(record.created, |e| e.at);
    Some(ClockInfo { now, next })
}

/// Scores as the `end` message carries them: exact strings, `"33"` or a
/// reduced fraction such as `"61/3"` (a JSON number could not hold a third).
pub fn score_values(scores: &[tabula_model::Score]) -> Vec<Value> {
    scores.iter().map(|s| Value::from(s.exact())).collect()
}
