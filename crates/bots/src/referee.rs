//! The referee: plays one game between bots. External bots get the
//! protocol's messages and a deadline per move and per game; a bot that
//! crashes, is too slow, floods its output, or answers a malformed or
//! illegal move loses the game (it resigns with the reason recorded) and
//! its process is replaced before its next game.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tabula_model::{Game, GameKind, GameRng, Lang, MoveError, Options, SeatResult, Seats, Turn, rng_for};

use crate::builtin::BuiltinBot;
use crate::fault::Fault;
use crate::process::{BotLimits, BotProcess, ReadError};
use crate::protocol::{self, Message, ViewMode};
use crate::table::Table;

/// Moves after which a game is stopped (a safety net; no game here is
/// this long).
pub const MAX_MOVES: usize = 200_000;
/// Clock events after which a game on the clock is stopped (a safety net:
/// tournaments give such games a last generation).
pub const MAX_CLOCK_STEPS: usize = 1_000_000;

/// How a bot failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// The program could not be started.
    Spawn,
    /// It exited or closed its output.
    Crashed,
    /// No answer within the per-move time.
    TimedOut,
    /// Its thinking time over the game passed the per-game limit.
    GameTime,
    /// It wrote a line longer than 64 KiB.
    Flood,
    /// The answer is not a move of this game.
    Malformed,
    /// The answer is a move, but not a legal one now.
    Illegal,
    /// A built-in bot found no move (a game with no legal move for a seat
    /// that must move).
    NoMove,
}

/// A bot's failure in one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Failure {
    /// The seat that failed.
    pub seat: usize,
    /// The bot's name.
    pub bot: String,
    /// What went wrong.
    pub kind: FailureKind,
    /// In English words (`"python3 exit.py crashed (exit status: 3)"`);
    /// [`Failure::describe`] gives them in the reader's language.
    pub message: String,
    /// What went wrong, as data (absent from results recorded before it
    /// was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<Box<Fault>>,
    /// The end of what the bot wrote to stderr, if anything.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub stderr: String,
}

impl Failure {
    /// `fault` of the bot `name` in `seat`, with the end of its error output.
    pub fn new(seat: usize, name: &str, fault: Fault, stderr: String) -> Failure {
        Failure {
            seat,
            bot: name.to_string(),
            kind: fault.kind(),
            message: fault.describe(name, Lang::En),
            fault: Some(Box::new(fault)),
            stderr,
        }
    }

    /// What went wrong, in `lang`.
    pub fn describe(&self, lang: Lang) -> String {
        match &self.fault {
            Some(fault) => fault.describe(&self.bot, lang),
            None => self.message.clone(),
        }
    }
}

/// The result of one game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct GameResult {
    /// The game's number in the tournament schedule.
    pub index: usize,
    /// The bots' names in seat order.
    pub seats: Vec<String>,
    /// The bots' positions in the tournament's bot list, in seat order.
    pub bots: Vec<usize>,
    /// The game's seed.
    pub seed: u64,
    /// The sole winner's name, or `None` (a draw).
    pub winner: Option<String>,
    /// Each seat's result.
    pub results: Vec<SeatResult>,
    /// Final scores in seat order (empty where the game has none), exact:
    /// a whole number (`"33"`) or a reduced fraction (`"61/3"`).
    #[schema(value_type = Vec<String>)]
    pub scores: Vec<tabula_model::Score>,
    /// How the game ended: the game's own reason, or the failures.
    pub reason: String,
    /// Bots that failed.
    #[serde(default)]
    pub failures: Vec<Failure>,
    /// Moves made.
    pub moves: usize,
}

/// Time limits and the view for external bots.
#[derive(Clone, Debug)]
pub struct RefereeSettings {
    /// Per move.
    pub move_time: Duration,
    /// Per bot over one game.
    pub game_time: Duration,
    /// What Intervalo bots are shown.
    pub view: ViewMode,
    /// Resource limits of bot processes.
    pub limits: BotLimits,
    /// Keep every game's full record even when only built-in bots play
    /// (they are otherwise played on the bare state: the same game, faster).
    pub full_record: bool,
    /// Where the game's progress is signalled, for a watcher in another
    /// thread.
    pub heartbeat: Option<Arc<Heartbeat>>,
}

/// Signs of life of a game being played, for whoever watches it from
/// another thread: a distributed worker keeps its claim on a game only
/// while the game makes progress. The referee beats at every message a bot
/// takes or answers, every move and every clock event; while a built-in
/// bot thinks the game counts as progressing (its search is bounded by its
/// budget, not by a deadline).
#[derive(Debug)]
pub struct Heartbeat {
    origin: Instant,
    /// Milliseconds from `origin` to the last beat.
    last: AtomicU64,
    /// Built-in bots thinking now.
    thinking: AtomicUsize,
}

impl Default for Heartbeat {
    fn default() -> Self {
        Heartbeat { origin: Instant::now(), last: AtomicU64::new(0), thinking: AtomicUsize::new(0) }
    }
}

impl Heartbeat {
    /// A heartbeat that has just beaten.
    pub fn new() -> Heartbeat {
        Heartbeat::default()
    }

    /// The game made progress now.
    pub fn beat(&self) {
        self.last.store(self.origin.elapsed().as_millis() as u64, Ordering::Relaxed);
    }

    /// How long the game has made no progress (zero while a built-in bot
    /// thinks).
    pub fn quiet_for(&self) -> Duration {
        if self.thinking.load(Ordering::Relaxed) > 0 {
            return Duration::ZERO;
        }
        let last = Duration::from_millis(self.last.load(Ordering::Relaxed));
        self.origin.elapsed().saturating_sub(last)
    }

    fn think<T>(&self, work: impl FnOnce() -> T) -> T {
        self.thinking.fetch_add(1, Ordering::Relaxed);
        let result = work();
        self.thinking.fetch_sub(1, Ordering::Relaxed);
        self.beat();
        result
    }
}

impl RefereeSettings {
    fn beat(&self) {
        if let Some(h) = &self.heartbeat {
            h.beat();
        }
    }

    fn think<T>(&self, work: impl FnOnce() -> T) -> T {
        match &self.heartbeat {
            Some(h) => h.think(work),
            None => work(),
        }
    }

    /// The longest a game may rightly go without a sign of progress: a
    /// bot's whole allowance for one answer (its input written and its
    /// move read, a fresh process's start-up included) and its quitting
    /// time, with a margin for starting a process. A game quiet for longer
    /// is stuck.
    pub fn stall_limit(&self) -> Duration {
        self.move_time + self.limits.startup_time + self.limits.quit_grace + Duration::from_secs(5)
    }
}

impl Default for RefereeSettings {
    fn default() -> Self {
        RefereeSettings {
            move_time: Duration::from_secs(1),
            game_time: Duration::from_secs(300),
            view: ViewMode::Static,
            limits: BotLimits::default(),
            full_record: false,
            heartbeat: None,
        }
    }
}

/// An external bot program, started on demand and kept across games.
pub struct ExternalBot {
    argv: Vec<String>,
    process: Option<BotProcess>,
    /// Whether the process has not answered a turn yet.
    fresh: bool,
    /// Processes started so far (restarts included).
    pub spawned: usize,
}

impl ExternalBot {
    /// A bot that runs `argv` when first needed.
    pub fn new(argv: Vec<String>) -> ExternalBot {
        ExternalBot { argv, process: None, fresh: false, spawned: 0 }
    }

    fn live(&mut self, limits: &BotLimits) -> std::io::Result<&mut BotProcess> {
        if self.process.as_ref().is_none_or(BotProcess::is_dead) {
            if let Some(mut old) = self.process.take() {
                old.kill();
            }
            self.process = Some(BotProcess::spawn(&self.argv, limits)?);
            self.spawned += 1;
            self.fresh = true;
        }
        self.process.as_mut().ok_or_else(|| std::io::Error::other("no process"))
    }

    fn kill(&mut self) {
        if let Some(p) = self.process.as_mut() {
            p.kill();
        }
    }

    /// Send `quit` and end the process.
    pub fn quit(&mut self, grace: Duration) {
        if let Some(p) = self.process.take() {
            p.quit(&Message::Quit.to_line(), grace);
        }
    }

    /// The running process, if any.
    pub fn process(&self) -> Option<&BotProcess> {
        self.process.as_ref()
    }
}

/// One seat's player.
pub enum Player<'a> {
    /// A built-in bot.
    Builtin(BuiltinBot),
    /// An external program.
    External(&'a mut ExternalBot),
}

/// Play one game of `kind` between `players` (in seat order, named
/// `names`) from `seed`. Never fails: whatever a bot does ends in a result.
///
/// # Errors
///
/// Only when the game cannot be set up (bad options or player count).
pub fn play_game(
    kind: &'static dyn GameKind,
    options: &Options,
    players: &mut [Player<'_>],
    names: &[String],
    seed: u64,
    settings: &RefereeSettings,
) -> Result<GameResult, tabula_model::SetupError> {
    let n = players.len();
    // Without external bots nobody is shown the game: the bare state will do.
    let bare = !settings.full_record && players.iter().all(|p| matches!(p, Player::Builtin(_)));
    let mut game = Table::create(kind, options, n, seed, bare)?;
    let mut failures: Vec<Failure> = Vec::new();
    let mut failed = vec![false; n];
    let mut used = vec![Duration::ZERO; n];
    // Built-in bots draw from their own streams, apart from the game's.
    let mut rngs: Vec<GameRng> = (0..n).map(|s| rng_for(seed ^ 0x0b07_5eed, s as u64 + 1)).collect();
    let seat_names: Vec<String> =
        (0..n).map(|seat| names.get(seat).cloned().unwrap_or_else(|| format!("seat {}", seat + 1))).collect();
    let name_of = |seat: usize| seat_names.get(seat).map_or("", String::as_str);
    // Each seat's move text, one buffer for the whole game: built-in bots
    // write their choices into it rather than into a new string a move.
    let mut texts: Vec<String> = vec![String::new(); n];
    let mut chosen_first = vec![false; n];

    for (seat, player) in players.iter_mut().enumerate() {
        if let Player::External(bot) = player
            && let Err(f) = start(bot, game.game(), seat, name_of(seat), settings)
        {
            failures.push(f);
            failed[seat] = true;
        }
    }
    for (seat, _) in failed.iter().enumerate().filter(|(_, f)| **f) {
        resign(&mut game, seat, &failures);
    }

    let mut moves = 0;
    let mut clock_steps = 0;
    let mut stuck = false;
    'game: while moves < MAX_MOVES {
        let askees = match game.to_move() {
            Turn::Over => break,
            Turn::Player(p) => Seats::from([p]),
            Turn::Simultaneous(set) => set,
            Turn::Clock => {
                // Simulated time: every seat still in the game may move (or
                // pass) once, in seat order, each seeing the moves made
                // before it; then the game's clock advances by one event.
                let Some(due) = game.state().next_clock() else {
                    stuck = true;
                    break;
                };
                if clock_steps >= MAX_CLOCK_STEPS {
                    stuck = true;
                    break;
                }
                let now = game.now();
                for seat in 0..n {
                    if game.is_over() {
                        break 'game;
                    }
                    if failed[seat] || !game.state().is_active(seat) {
                        continue;
                    }
                    let answer = match &mut players[seat] {
                        Player::Builtin(bot) => {
                            let position = game.position();
                            Ok(settings.think(|| bot.choose_at(position, seat, &mut rngs[seat])))
                        }
                        Player::External(bot) => {
                            ask(bot, game.game(), seat, name_of(seat), &mut used[seat], settings)
                                .map(|text| (!text.eq_ignore_ascii_case(protocol::PASS)).then_some(text))
                        }
                    };
                    let failure = match answer {
                        Ok(None) => None,
                        Ok(Some(text)) => {
                            let failure =
                                submit_move(&mut game, &mut players[seat], seat, name_of(seat), &text, now);
                            moves += usize::from(failure.is_none());
                            failure
                        }
                        Err(f) => Some(f),
                    };
                    if let Some(f) = failure {
                        failed[seat] = true;
                        failures.push(f);
                        if !resign(&mut game, seat, &failures) {
                            stuck = true;
                            break 'game;
                        }
                    }
                }
                if !game.is_over() && !game.advance_clock(due) {
                    stuck = true;
                    break;
                }
                settings.beat();
                clock_steps += 1;
                continue;
            }
        };
        if askees.is_empty() {
            // A seat past what a set of seats holds: no game seats so many.
            stuck = true;
            break;
        }
        // Built-in bots of one simultaneous round all choose on the
        // position before anyone's choice, as they would at one table.
        let simultaneous = askees.len() > 1;
        if simultaneous {
            for seat in askees {
                if let Some(Player::Builtin(bot)) = players.get(seat) {
                    let position = game.position();
                    chosen_first[seat] =
                        settings.think(|| bot.choose_into(position, seat, &mut rngs[seat], &mut texts[seat]));
                }
            }
        }
        for seat in askees {
            if game.is_over() {
                break 'game;
            }
            if failed[seat] || seat >= n {
                stuck = true;
                break 'game;
            }
            let answer = match &mut players[seat] {
                Player::Builtin(bot) => {
                    let choice = if simultaneous {
                        std::mem::take(&mut chosen_first[seat])
                    } else {
                        let position = game.position();
                        settings.think(|| bot.choose_into(position, seat, &mut rngs[seat], &mut texts[seat]))
                    };
                    choice
                        .then_some(())
                        .ok_or_else(|| Failure::new(seat, name_of(seat), Fault::FoundNoMove, String::new()))
                }
                Player::External(bot) => {
                    ask(bot, game.game(), seat, name_of(seat), &mut used[seat], settings)
                        .map(|text| texts[seat] = text)
                }
            };
            let failure = match answer {
                Ok(()) => {
                    let text = &texts[seat];
                    let failure =
                        submit_move(&mut game, &mut players[seat], seat, name_of(seat), text, moves as i64);
                    moves += usize::from(failure.is_none());
                    settings.beat();
                    failure
                }
                Err(f) => Some(f),
            };
            if let Some(f) = failure {
                failed[seat] = true;
                failures.push(f);
                if !resign(&mut game, seat, &failures) {
                    stuck = true;
                    break 'game;
                }
            }
        }
    }
    if moves >= MAX_MOVES {
        stuck = true;
    }

    let outcome = if stuck { None } else { game.outcome() };
    let results: Vec<SeatResult> = (0..n)
        .map(|s| match &outcome {
            _ if failed[s] => SeatResult::Loss,
            Some(o) => o.result_for(s),
            None => SeatResult::Draw,
        })
        .collect();
    let winner = match results.iter().filter(|r| **r == SeatResult::Win).count() {
        1 => results.iter().position(|r| *r == SeatResult::Win).map(|s| name_of(s).to_string()),
        _ => None,
    };
    let scores = outcome.as_ref().map(|o| o.scores.clone()).unwrap_or_default();
    let reason = if !failures.is_empty() {
        failures.iter().map(|f| f.message.clone()).collect::<Vec<_>>().join("; ")
    } else if let Some(o) = &outcome {
        o.reason.to_string()
    } else if moves >= MAX_MOVES {
        format!("stopped after {MAX_MOVES} moves")
    } else {
        format!("stopped after {MAX_CLOCK_STEPS} clock events")
    };
    for (seat, player) in players.iter_mut().enumerate() {
        if let Player::External(bot) = player
            && let Some(process) = bot.process.as_mut().filter(|p| !p.is_dead())
        {
            let end = Message::End { result: results[seat], scores: protocol::score_values(&scores) };
            // A bot that cannot take even this is replaced before its next
            // game (a failed write leaves the process dead).
            let _ = process.send(&end.to_line(), Instant::now() + settings.move_time);
            settings.beat();
        }
    }
    Ok(GameResult {
        index: 0,
        seats: seat_names,
        bots: (0..n).collect(),
        seed,
        winner,
        results,
        scores,
        reason,
        failures,
        moves,
    })
}

/// Submit `text` as `seat`'s move at time `at`; the failure if the game
/// refuses it (an external bot's process is then killed).
fn submit_move(
    game: &mut Table,
    player: &mut Player<'_>,
    seat: usize,
    name: &str,
    text: &str,
    at: i64,
) -> Option<Failure> {
    let error = game.submit_move(seat, text, at).err()?;
    let shown = clip(text);
    if let Player::External(bot) = player {
        bot.kill();
    }
    let malformed = matches!(error, MoveError::Malformed(_));
    let fault = Fault::Refused { malformed, answer: shown, error: error.to_string() };
    Some(Failure::new(seat, name, fault, stderr_of(player)))
}

/// An external bot seated at a game kept without its record (never made
/// so: a game with an external bot is always kept in full).
fn unkept(seat: usize, name: &str) -> Failure {
    Failure::new(seat, name, Fault::NoRecord, String::new())
}

fn clip(text: &str) -> String {
    if text.len() <= 80 {
        return text.to_string();
    }
    let mut end = 80;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &text[..end])
}

fn stderr_of(player: &Player<'_>) -> String {
    match player {
        Player::External(bot) => bot.process().map(BotProcess::stderr_tail).unwrap_or_default(),
        Player::Builtin(_) => String::new(),
    }
}

/// Resign a failed seat; false when the game refuses (then it is stopped).
fn resign(game: &mut Table, seat: usize, failures: &[Failure]) -> bool {
    if game.is_over() {
        return true;
    }
    let reason = failures.iter().rev().find(|f| f.seat == seat).map(|f| f.message.clone());
    game.resign(seat, reason)
}

fn start(
    bot: &mut ExternalBot,
    game: Option<&Game>,
    seat: usize,
    name: &str,
    settings: &RefereeSettings,
) -> Result<(), Failure> {
    let Some(game) = game else { return Err(unkept(seat, name)) };
    let line = protocol::start_message(game, seat).to_line();
    // A process that died since its last game, or cannot take the start of
    // the next (it has not read what it was sent), is replaced once.
    for attempt in 0..2 {
        bot.live(&settings.limits).map_err(|e| {
            Failure::new(seat, name, Fault::NotStarted { error: e.to_string() }, String::new())
        })?;
        let allowed =
            settings.move_time + if bot.fresh { settings.limits.startup_time } else { Duration::ZERO };
        let Some(process) = bot.process.as_mut() else { continue };
        let sent = process.send(&line, Instant::now() + allowed);
        settings.beat();
        let error = match sent {
            Ok(()) => return Ok(()),
            Err(e) => e,
        };
        if attempt == 1 {
            let stderr = process.stderr_tail();
            bot.kill();
            let fault = match Fault::of_write(error, allowed) {
                timeout @ Fault::DidNotRead { .. } => timeout,
                _ => Fault::CrashedBeforeStart,
            };
            return Err(Failure::new(seat, name, fault, stderr));
        }
    }
    Ok(())
}

fn ask(
    bot: &mut ExternalBot,
    game: Option<&Game>,
    seat: usize,
    name: &str,
    used: &mut Duration,
    settings: &RefereeSettings,
) -> Result<String, Failure> {
    let Some(game) = game else { return Err(unkept(seat, name)) };
    let left = settings.game_time.saturating_sub(*used);
    let limit = settings.move_time.min(left);
    let startup = if bot.fresh { settings.limits.startup_time } else { Duration::ZERO };
    bot.fresh = false;
    let fail = |fault, stderr| Failure::new(seat, name, fault, stderr);
    let Some(process) = bot.process.as_mut().filter(|p| !p.is_dead()) else {
        return Err(fail(Fault::Dead, String::new()));
    };
    // The answer's whole allowance, start-up included, is what the bot is
    // told, and bounds both writing the turn and reading the answer.
    let allowed = limit + startup;
    let line = protocol::turn_line(game, seat, settings.view, allowed.as_millis() as u64);
    let began = Instant::now();
    let deadline = began + allowed;
    let sent = process.send(&line, deadline);
    settings.beat();
    if let Err(error) = sent {
        let stderr = process.stderr_tail();
        bot.kill();
        return Err(fail(Fault::of_write(error, allowed), stderr));
    }
    let answer = process.receive(deadline);
    settings.beat();
    *used += began.elapsed().saturating_sub(startup);
    match answer {
        Ok(text) => {
            let text = text.trim().to_string();
            if text.is_empty() {
                let stderr = process.stderr_tail();
                bot.kill();
                return Err(fail(Fault::EmptyLine, stderr));
            }
            Ok(text)
        }
        Err(error) => {
            let stderr = process.stderr_tail();
            let fault = match error {
                // The game's time ran out before the move's: the game's limit is what was missed.
                ReadError::Timeout if limit < settings.move_time => {
                    Fault::GameTime { ms: settings.game_time.as_millis().try_into().unwrap_or(u64::MAX) }
                }
                error => Fault::of_read(error, allowed, startup),
            };
            bot.kill();
            Err(fail(fault, stderr))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_heartbeat_is_quiet_between_beats_but_not_while_a_builtin_thinks() {
        let heartbeat = Heartbeat::new();
        std::thread::sleep(Duration::from_millis(100));
        assert!(heartbeat.quiet_for() >= Duration::from_millis(100));
        heartbeat.think(|| {
            std::thread::sleep(Duration::from_millis(20));
            assert_eq!(heartbeat.quiet_for(), Duration::ZERO);
        });
        assert!(heartbeat.quiet_for() < Duration::from_millis(100), "thinking ends with a beat");
    }
}
