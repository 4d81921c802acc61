//! Bot accounts playing on the live server: what their programs are told
//! ([`BotFeed`]: the events of one account, the same for a remote program
//! behind `tabula bot connect` and for one the server hosts), and the
//! program playing one game ([`GameProgram`]: the referee's confined
//! process, deadlines and failure texts).
//!
//! A bot's events, in the order they happen:
//!
//! - `challenge`: a challenge waits for the bot's acceptance (its account's
//!   policy is `ask`);
//! - `start`: a game the bot plays is running; carries the protocol's
//!   `start` message;
//! - `turn`: the bot must move; carries the protocol's `turn` message, built
//!   by [`protocol::turn_message`] as the referee builds it, with
//!   [`SERVER_MOVE_TIME`] as its `time_ms`;
//! - `end`: the game is over (or was cancelled); carries the protocol's
//!   `end` message.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value;
use tabula_model::{Game, Lang, SeatResult, Turn};
use tabula_service::store::{GameFilter, GameStatus};
use tabula_service::{BotGame, CommandError, Service};

use crate::fault::Fault;
use crate::process::{BotLimits, BotProcess, WriteError};
use crate::protocol::{self, Message, ViewMode};

/// The time a bot's program has for a move on the server: the `time_ms` of
/// the turns it is sent. A remote program's bridge and the server's own
/// host of a program hold it to that (plus [`BotLimits::startup_time`] on
/// the first answer of a process).
pub const SERVER_MOVE_TIME: Duration = Duration::from_secs(10);

/// Most running games of one bot followed at once (a bot account's limit
/// on games is at most this anyway).
pub const MAX_FOLLOWED: i64 = 500;

/// One event of a bot account.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BotEvent {
    /// `challenge`, `start`, `turn` or `end`.
    #[serde(skip)]
    pub name: &'static str,
    /// The board.
    pub board: i64,
    /// The game's command word (how moves are sent: `KIND move BOARD ..`).
    pub kind: String,
    /// The game's version when the event was made (a `turn` is answered at
    /// most once per version).
    pub version: i64,
    /// The protocol message to hand the program (none for a challenge).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<Message>,
    /// For a challenge: the players in seat order and the options given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub challenge: Option<Value>,
}

/// What a bot's program has been told of one game.
#[derive(Clone, Copy, Debug, Default)]
struct Told {
    challenged: bool,
    started: bool,
    turn: Option<i64>,
}

/// The events of one bot account, made by comparing its games with what
/// was told before. Each [`BotFeed::scan`] reads the bot's running games
/// and returns what is new.
pub struct BotFeed {
    service: Arc<Service>,
    user: String,
    told: HashMap<i64, Told>,
}

impl BotFeed {
    /// The feed of `user`, whose program already plays the games `held`
    /// (after a reconnection): their `start` is not sent again, but their
    /// `end` is if they ended meanwhile.
    pub fn new(service: Arc<Service>, user: &str, held: &[i64]) -> BotFeed {
        let told = held.iter().map(|&b| (b, Told { challenged: true, started: true, turn: None })).collect();
        BotFeed { service, user: user.to_string(), told }
    }

    /// The account the feed is of.
    pub fn user(&self) -> &str {
        &self.user
    }

    /// Whether `board` is one of the games followed.
    pub fn follows(&self, board: i64) -> bool {
        self.told.contains_key(&board)
    }

    /// What happened since the last scan.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn scan(&mut self) -> Result<Vec<BotEvent>, CommandError> {
        let running = self
            .service
            .games(&GameFilter {
                player: Some(self.user.clone()),
                statuses: vec![GameStatus::Proposed, GameStatus::Active],
                limit: MAX_FOLLOWED,
                ..Default::default()
            })
            .await?;
        let mut events = Vec::new();
        let mut seen = HashSet::new();
        for summary in &running {
            seen.insert(summary.id);
            let game = match self.service.bot_game(summary.id, &self.user).await {
                Ok(g) => g,
                Err(e) if e.code == tabula_service::ErrorCode::UnknownBoard => continue,
                Err(e) => return Err(e),
            };
            let told = self.told.entry(summary.id).or_default();
            events.extend(news(summary.id, &game, told));
        }
        // Games followed that are no longer running: over, or cancelled.
        let gone: Vec<i64> = self.told.keys().copied().filter(|b| !seen.contains(b)).collect();
        for board in gone {
            let told = self.told.remove(&board).unwrap_or_default();
            let Ok(game) = self.service.bot_game(board, &self.user).await else { continue };
            if told.started && matches!(game.status, GameStatus::Finished | GameStatus::Cancelled) {
                events.push(event("end", board, &game, Some(end_message(&game.game, game.seat))));
            }
        }
        Ok(events)
    }
}

/// The events `game` makes given what was `told`, which they update.
fn news(board: i64, game: &BotGame, told: &mut Told) -> Vec<BotEvent> {
    let mut events = Vec::new();
    match game.status {
        GameStatus::Proposed if !game.accepted && !told.challenged => {
            told.challenged = true;
            let mut e = event("challenge", board, game, None);
            e.challenge = Some(serde_json::json!({
                "players": game.game.players(),
                "options": game.game.record().options.given(),
            }));
            events.push(e);
        }
        GameStatus::Active => {
            if !told.started {
                told.started = true;
                events.push(event(
                    "start",
                    board,
                    game,
                    Some(protocol::start_message(&game.game, game.seat)),
                ));
            }
            let wanted = game.to_move
                || (game.game.to_move() == Turn::Clock && game.game.state().is_active(game.seat));
            if wanted && told.turn != Some(game.version) {
                told.turn = Some(game.version);
                let time_ms = SERVER_MOVE_TIME.as_millis() as u64;
                let turn = protocol::turn_message(&game.game, game.seat, ViewMode::Dynamic, time_ms);
                events.push(event("turn", board, game, Some(turn)));
            }
        }
        _ => {}
    }
    events
}

fn event(name: &'static str, board: i64, game: &BotGame, message: Option<Message>) -> BotEvent {
    BotEvent {
        name,
        board,
        kind: game.game.kind().info().kind.to_string(),
        version: game.version,
        message,
        challenge: None,
    }
}

/// The `end` message for `seat` of a game that is over (a game cancelled
/// before its end is a draw without scores).
pub fn end_message(game: &Game, seat: usize) -> Message {
    match game.outcome() {
        Some(o) => Message::End { result: o.result_for(seat), scores: protocol::score_values(&o.scores) },
        None => Message::End { result: SeatResult::Draw, scores: Vec::new() },
    }
}

/// Why a program lost its game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramFailure {
    /// The program, as its command line.
    pub name: String,
    /// What went wrong.
    pub fault: Fault,
}

impl ProgramFailure {
    /// What went wrong, in `lang`.
    pub fn describe(&self, lang: Lang) -> String {
        self.fault.describe(&self.name, lang)
    }
}

impl std::fmt::Display for ProgramFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe(Lang::En))
    }
}

/// A bot program playing one game on the server: one process per game,
/// so that a bot plays many at once, confined and held to its deadlines
/// as the referee holds a tournament's bots.
pub struct GameProgram {
    argv: Vec<String>,
    name: String,
    limits: BotLimits,
    process: Option<BotProcess>,
    /// Whether the process has not answered a turn yet.
    fresh: bool,
}

impl GameProgram {
    /// A program for one game, not started yet.
    pub fn new(argv: Vec<String>, limits: BotLimits) -> GameProgram {
        let name = argv.join(" ");
        GameProgram { argv, name, limits, process: None, fresh: true }
    }

    /// Whether the process has been started and not failed.
    pub fn is_running(&self) -> bool {
        self.process.as_ref().is_some_and(|p| !p.is_dead())
    }

    /// Start the process and send it the game's `start` line.
    ///
    /// # Errors
    /// The program could not be started or did not take its input.
    pub fn start(&mut self, start: &Message) -> Result<(), ProgramFailure> {
        if let Some(mut old) = self.process.take() {
            old.kill();
        }
        let process = BotProcess::spawn(&self.argv, &self.limits)
            .map_err(|e| self.failure(Fault::NotStarted { error: e.to_string() }))?;
        self.fresh = true;
        let process = self.process.insert(process);
        let allowed = SERVER_MOVE_TIME + self.limits.startup_time;
        process.send(&start.to_line(), Instant::now() + allowed).map_err(|e| self.write_failure(e, allowed))
    }

    /// Hand the program a `turn` and read its answer within the turn's
    /// `time_ms` (and the start-up time on a new process's first answer).
    ///
    /// # Errors
    /// The program is not running, crashed, timed out, or answered an empty
    /// or overlong line: it has lost the game, and is killed.
    pub fn turn(&mut self, turn: &Message) -> Result<String, ProgramFailure> {
        let limit = match turn {
            Message::Turn { time_ms, .. } => Duration::from_millis(*time_ms),
            _ => SERVER_MOVE_TIME,
        };
        let startup = if self.fresh { self.limits.startup_time } else { Duration::ZERO };
        self.fresh = false;
        let allowed = limit + startup;
        let deadline = Instant::now() + allowed;
        let Some(process) = self.process.as_mut().filter(|p| !p.is_dead()) else {
            return Err(self.failure(Fault::Dead));
        };
        if let Err(e) = process.send(&turn.to_line(), deadline) {
            return Err(self.write_failure(e, allowed));
        }
        let answer = process.receive(deadline);
        let fault = match answer {
            Ok(text) if !text.trim().is_empty() => return Ok(text.trim().to_string()),
            Ok(_) => Fault::EmptyLine,
            Err(error) => Fault::of_read(error, allowed, startup),
        };
        self.kill();
        Err(self.failure(fault))
    }

    /// Send the `end` line and `quit`, then end the process.
    pub fn end(mut self, end: &Message) {
        if let Some(mut process) = self.process.take().filter(|p| !p.is_dead()) {
            let _ = process.send(&end.to_line(), Instant::now() + SERVER_MOVE_TIME);
            process.quit(&Message::Quit.to_line(), self.limits.quit_grace);
        }
    }

    /// The end of what the program wrote to its standard error.
    pub fn stderr_tail(&self) -> String {
        self.process.as_ref().map(BotProcess::stderr_tail).unwrap_or_default()
    }

    fn kill(&mut self) {
        if let Some(p) = self.process.as_mut() {
            p.kill();
        }
    }

    fn write_failure(&mut self, e: WriteError, allowed: Duration) -> ProgramFailure {
        self.kill();
        self.failure(Fault::of_write(e, allowed))
    }

    fn failure(&self, fault: Fault) -> ProgramFailure {
        ProgramFailure { name: self.name.clone(), fault }
    }
}
