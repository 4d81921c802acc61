//! Tournaments: every pair (or every combination of `players` bots) plays
//! `games_per_pair` games, seats swapped or rotated, each game seeded from
//! the tournament's seed, on all cores, resumable through a store.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use tabula_model::Lang;
use tabula_model::{Dynamics, GameKind, Options, SeatResult};
use thiserror::Error;

use crate::builtin::{BuiltinBot, BuiltinError};
use crate::process::BotLimits;
use crate::protocol::ViewMode;
use crate::referee::{ExternalBot, GameResult, Heartbeat, Player, RefereeSettings, play_game};
use crate::spec::BotSpec;
use crate::stats::{bradley_terry, wilson95};
use crate::store::{StoreError, TournamentStore};

/// The most bots in one tournament.
pub const MAX_BOTS: usize = 64;
/// The most games in one tournament.
pub const MAX_GAMES: usize = 10_000_000;

/// What to play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentConfig {
    /// The game's command word (`intervalo`).
    pub game: String,
    /// Option words for every game (`-cells=32`).
    pub options: Vec<String>,
    /// The bots, by specification.
    pub bots: Vec<BotSpec>,
    /// Games each pair (or each combination) plays.
    pub games_per_pair: usize,
    /// Bots seated in each game.
    pub players: usize,
    /// Seed of the whole tournament; each game's seed derives from it.
    pub seed: u64,
    /// Per-move time of external bots.
    pub move_time: Duration,
    /// Per-game thinking time of each external bot.
    pub game_time: Duration,
    /// What Intervalo bots are shown.
    pub view: ViewMode,
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    /// Resource limits of external bot processes.
    pub limits: BotLimits,
}

impl TournamentConfig {
    /// A two-player round robin of `bots` at `game` with the defaults: 100
    /// games per pair, seed 0, 1 s per move, 300 s per game, static view,
    /// all cores.
    pub fn new(game: &str, bots: Vec<BotSpec>) -> TournamentConfig {
        TournamentConfig {
            game: game.to_string(),
            options: Vec::new(),
            bots,
            games_per_pair: 100,
            players: 2,
            seed: 0,
            move_time: Duration::from_secs(1),
            game_time: Duration::from_secs(300),
            view: ViewMode::Static,
            threads: 0,
            limits: BotLimits::default(),
        }
    }
}

/// Why a tournament cannot run.
#[derive(Debug, Error)]
pub enum TournamentError {
    /// Settings that contradict each other or the game; the text says which.
    #[error("{0}")]
    Config(String),
    /// A built-in bot that does not play this game.
    #[error(transparent)]
    Builtin(#[from] BuiltinError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Reported after each finished game.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Games finished, those found in the store included.
    pub done: usize,
    /// Games in the tournament.
    pub total: usize,
    /// Games found already finished in the store when the run began.
    pub resumed: usize,
    /// Time since this run began.
    pub elapsed: Duration,
    /// The game just finished (`None` for the first report).
    pub last: Option<GameResult>,
}

/// Games of this run finished before the time left is estimated.
const MIN_GAMES_FOR_ESTIMATE: usize = 5;
/// Seconds of this run before the time left is estimated.
const MIN_SECONDS_FOR_ESTIMATE: f64 = 3.0;

impl Progress {
    /// The progress in words, for a progress bar: games done, the rate of
    /// this run (resumed games left out), and the time left once a few
    /// games of this run have shown the rate (`120/400 games, 3.4 games/s,
    /// about 1 min 25 s left`).
    pub fn summary(&self) -> String {
        let mut text = format!("{}/{} games", self.done, self.total);
        if self.resumed > 0 {
            let _ = write!(text, " ({} resumed)", self.resumed);
        }
        let played = self.done.saturating_sub(self.resumed);
        let seconds = self.elapsed.as_secs_f64();
        if played == 0 || seconds <= 0.0 {
            text.push_str(", starting");
            return text;
        }
        let rate = played as f64 / seconds;
        let _ = match rate {
            r if r >= 10.0 => write!(text, ", {r:.0} games/s"),
            r if r >= 1.0 => write!(text, ", {r:.1} games/s"),
            r => write!(text, ", {:.1} s a game", 1.0 / r),
        };
        let left = self.total.saturating_sub(self.done);
        if left > 0 && played >= MIN_GAMES_FOR_ESTIMATE && seconds >= MIN_SECONDS_FOR_ESTIMATE {
            let _ = write!(text, ", about {} left", duration_words(left as f64 / rate));
        }
        text
    }
}

/// A duration rounded to what a person reads: `45 s`, `3 min 10 s`, `2 h 5 min`.
fn duration_words(seconds: f64) -> String {
    let s = seconds.round().max(1.0) as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => {
            let s = s.div_ceil(5) * 5;
            match s % 60 {
                0 => format!("{} min", s / 60),
                r => format!("{} min {r} s", s / 60),
            }
        }
        _ => {
            let m = s.div_ceil(60);
            format!("{} h {} min", m / 60, m % 60)
        }
    }
}

/// One bot's line of the results table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct BotStanding {
    /// The bot's name (its specification).
    pub name: String,
    /// Its position in the configuration's bot list.
    pub index: usize,
    /// Games played.
    pub games: u64,
    /// Games won alone.
    pub wins: u64,
    /// Games lost.
    pub losses: u64,
    /// Games drawn (shared wins included).
    pub draws: u64,
    /// Wins over games.
    pub win_rate: f64,
    /// The Wilson 95% interval of the win rate.
    pub ci95: [f64; 2],
    /// Bradley-Terry rating on the Elo scale (mean 1500).
    pub rating: f64,
    /// Games it lost by failing (crash, time, illegal or malformed move, flood).
    pub failures: u64,
}

/// One cell of the head-to-head matrix: games where both bots played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct HeadToHead {
    /// Games the row bot won.
    pub wins: u64,
    /// Games the column bot won.
    pub losses: u64,
    /// Games neither won.
    pub draws: u64,
}

/// A finished (or partly resumed) tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentReport {
    /// The game's command word.
    pub game: String,
    /// Option words.
    pub options: Vec<String>,
    /// The tournament seed.
    pub seed: u64,
    /// Games per pair or combination.
    pub games_per_pair: usize,
    /// Bots per game.
    pub players: usize,
    /// The view shown to Intervalo bots.
    pub view: ViewMode,
    /// Standings, by games won (the seed's ranking), then rating.
    pub bots: Vec<BotStanding>,
    /// Bot names in configuration order (the matrix's rows and columns).
    pub names: Vec<String>,
    /// `head_to_head[i][j]`: bot `i` against bot `j`, configuration order.
    pub head_to_head: Vec<Vec<HeadToHead>>,
    /// Every game, in schedule order.
    pub games: Vec<GameResult>,
    /// Wall-clock seconds of this run (not of resumed games).
    pub elapsed_seconds: f64,
}

/// One scheduled game: its number and the bots in seat order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// Position in the schedule.
    pub index: usize,
    /// Bot positions in seat order.
    pub bots: Vec<usize>,
    /// The game's seed.
    pub seed: u64,
}

/// The schedule: for every combination of `players` distinct bots (every
/// pair for two), `games_per_pair` games with the seats rotated one step
/// per game (swapped every other game for two players).
pub fn schedule(bots: usize, players: usize, games_per_pair: usize, seed: u64) -> Vec<Scheduled> {
    let mut out = Vec::new();
    for combination in combinations(bots, players) {
        for g in 0..games_per_pair {
            let k = g % players;
            let seats: Vec<usize> = (0..players).map(|s| combination[(s + k) % players]).collect();
            let index = out.len();
            out.push(Scheduled { index, bots: seats, seed: game_seed(seed, index as u64) });
        }
    }
    out
}

/// Each game's seed: SplitMix64 of the tournament seed and the game number.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed.wrapping_add(index.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut current = Vec::with_capacity(k);
    fn go(start: usize, n: usize, k: usize, current: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if current.len() == k {
            out.push(current.clone());
            return;
        }
        for i in start..n {
            current.push(i);
            go(i + 1, n, k, current, out);
            current.pop();
        }
    }
    if k > 0 && k <= n {
        go(0, n, k, &mut current, &mut out);
    }
    out
}

fn binomial(n: usize, k: usize) -> Option<usize> {
    let mut r: usize = 1;
    for i in 0..k.min(n) {
        r = r.checked_mul(n - i)? / (i + 1);
    }
    Some(r)
}

/// Bot names made unique (`random`, `random#2`), in configuration order.
pub fn unique_names(bots: &[BotSpec]) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    bots.iter()
        .map(|b| {
            let name = b.name();
            let count = seen.entry(name.clone()).or_insert(0);
            *count += 1;
            if *count == 1 { name } else { format!("{name}#{count}") }
        })
        .collect()
}

fn validate(config: &TournamentConfig, kind: &'static dyn GameKind) -> Result<Options, TournamentError> {
    let info = kind.info();
    let bad = |m: String| Err(TournamentError::Config(m));
    if info.kind != config.game {
        return bad(format!(
            "the configuration is for {:?} but the game given is {:?}",
            config.game, info.kind
        ));
    }
    let options =
        Options::parse(info, &config.options).map_err(|e| TournamentError::Config(e.to_string()))?;
    if config.bots.len() > MAX_BOTS {
        return bad(format!("at most {MAX_BOTS} bots, not {}", config.bots.len()));
    }
    if config.players < info.min_players || config.players > info.max_players {
        return bad(format!(
            "{} is played by {} to {} players, not {}",
            info.title(Lang::En),
            info.min_players,
            info.max_players,
            config.players
        ));
    }
    if config.bots.len() < config.players {
        return bad(format!(
            "{} players a game need at least {} bots, not {}",
            config.players,
            config.players,
            config.bots.len()
        ));
    }
    if config.games_per_pair == 0 {
        return bad("games per pair must be at least 1".into());
    }
    let total =
        binomial(config.bots.len(), config.players).and_then(|c| c.checked_mul(config.games_per_pair));
    if total.is_none_or(|t| t > MAX_GAMES) {
        return bad(format!("a tournament has at most {MAX_GAMES} games"));
    }
    if config.move_time.is_zero() || config.game_time.is_zero() {
        return bad("time limits must be positive".into());
    }
    for spec in &config.bots {
        if let Some(bot) = BuiltinBot::from_spec(spec) {
            bot.supports(kind)?;
        }
    }
    Ok(options)
}

/// Generations a tournament game on the clock lasts when the options do
/// not say (such a game may otherwise never end).
pub const CLOCK_GAME_GENERATIONS: u64 = 20;

/// The configuration as played: a game on the clock gets a last
/// generation ([`CLOCK_GAME_GENERATIONS`]) unless its options give one, so
/// every game ends; the referee drives its clock step by step in
/// simulated time.
pub fn effective_config(config: &TournamentConfig, kind: &'static dyn GameKind) -> TournamentConfig {
    let info = kind.info();
    let mut config = config.clone();
    let has_limit = info.options.iter().any(|o| o.name == "generations");
    let given = config.options.iter().any(|o| o.trim_start_matches('-').starts_with("generations"));
    if info.dynamics == Dynamics::RealTime && has_limit && !given {
        config.options.push(format!("-generations={CLOCK_GAME_GENERATIONS}"));
    }
    config
}

/// Most results a worker holds before handing them to be saved.
const RESULT_BATCH: usize = 64;
/// Longest a worker holds a finished game's result.
const RESULT_DELAY: Duration = Duration::from_millis(50);

/// Run (or resume) a tournament: games not yet in `store` are played on
/// `config.threads` workers (each keeping its own bot processes alive
/// across games), saved to `store` one by one, and reported to `progress`
/// as they finish. The report covers every game of the tournament.
///
/// # Errors
///
/// Invalid settings, a built-in bot that does not play the game, or a
/// store that fails (games finished before the failure stay saved).
pub fn run_tournament(
    config: &TournamentConfig,
    kind: &'static dyn GameKind,
    store: &mut dyn TournamentStore,
    progress: &dyn Fn(Progress),
) -> Result<TournamentReport, TournamentError> {
    let config = &effective_config(config, kind);
    let options = validate(config, kind)?;
    let names = unique_names(&config.bots);
    let plan = schedule(config.bots.len(), config.players, config.games_per_pair, config.seed);
    let mut finished: BTreeMap<usize, GameResult> = BTreeMap::new();
    for result in store.load(config)? {
        if plan.get(result.index).is_some_and(|s| s.bots == result.bots && s.seed == result.seed) {
            finished.insert(result.index, result);
        }
    }
    let resumed = finished.len();
    let mut pending: Vec<&Scheduled> = plan.iter().filter(|s| !finished.contains_key(&s.index)).collect();
    // Played in an order mixing all pairs (the schedule has each pair's
    // games together), so that the rate of the first games, and the time
    // left estimated from it, holds for the rest. A game's result does not
    // depend on when it is played.
    pending.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(config.seed));
    let started = Instant::now();
    progress(Progress { done: resumed, total: plan.len(), resumed, elapsed: Duration::ZERO, last: None });

    let settings = referee_settings(config, None);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = if config.threads == 0 { cores } else { config.threads }.clamp(1, pending.len().max(1));
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut store_error: Option<StoreError> = None;
    std::thread::scope(|scope| {
        // Results go to the saving thread in batches: games between
        // built-in bots take microseconds, and a wake-up of that thread per
        // game would cost as much as the game.
        let (sender, receiver) = mpsc::channel::<Vec<GameResult>>();
        for _ in 0..threads {
            let sender = sender.clone();
            let (pending, next, stop, names, options, settings) =
                (&pending, &next, &stop, &names, &options, &settings);
            scope.spawn(move || {
                let mut externals: HashMap<usize, ExternalBot> = HashMap::new();
                let mut batch = Vec::new();
                let mut last_sent = Instant::now();
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(game) = pending.get(i) else { break };
                    batch.push(play_scheduled(config, kind, options, settings, names, game, &mut externals));
                    if (batch.len() >= RESULT_BATCH || last_sent.elapsed() >= RESULT_DELAY)
                        && sender.send(std::mem::take(&mut batch)).is_err()
                    {
                        break;
                    }
                    last_sent = if batch.is_empty() { Instant::now() } else { last_sent };
                }
                if !batch.is_empty() {
                    let _ = sender.send(batch);
                }
                for bot in externals.values_mut() {
                    bot.quit(config.limits.quit_grace);
                }
            });
        }
        drop(sender);
        for result in receiver.into_iter().flatten() {
            if store_error.is_some() {
                continue;
            }
            if let Err(e) = store.save(&result) {
                store_error = Some(e);
                stop.store(true, Ordering::Relaxed);
                continue;
            }
            finished.insert(result.index, result.clone());
            progress(Progress {
                done: finished.len(),
                total: plan.len(),
                resumed,
                elapsed: started.elapsed(),
                last: Some(result),
            });
        }
    });
    if let Some(e) = store_error {
        return Err(e.into());
    }
    Ok(build_report(config, names, finished.into_values().collect(), started.elapsed()))
}

/// Check a tournament's settings as [`run_tournament`] would before
/// playing (for a tournament whose games are played elsewhere).
///
/// # Errors
///
/// Invalid settings, or a built-in bot that does not play the game.
pub fn check_config(config: &TournamentConfig, kind: &'static dyn GameKind) -> Result<(), TournamentError> {
    validate(&effective_config(config, kind), kind).map(|_| ())
}

/// The referee's settings for the games of `config`.
pub fn referee_settings(config: &TournamentConfig, heartbeat: Option<Arc<Heartbeat>>) -> RefereeSettings {
    RefereeSettings {
        move_time: config.move_time,
        game_time: config.game_time,
        view: config.view,
        limits: config.limits.clone(),
        full_record: false,
        heartbeat,
    }
}

/// Play game `index` of the tournament's schedule on its own, exactly as
/// [`run_tournament`] plays it (same seats, seed and settings, so the same
/// result): one worker's share of a tournament spread over many processes.
/// The game's progress is signalled on `heartbeat`, if given.
///
/// # Errors
///
/// Invalid settings, a built-in bot that does not play the game, or an
/// index past the end of the schedule.
pub fn play_one(
    config: &TournamentConfig,
    kind: &'static dyn GameKind,
    index: usize,
    heartbeat: Option<Arc<Heartbeat>>,
) -> Result<GameResult, TournamentError> {
    let config = &effective_config(config, kind);
    let options = validate(config, kind)?;
    let names = unique_names(&config.bots);
    let plan = schedule(config.bots.len(), config.players, config.games_per_pair, config.seed);
    let game = plan.get(index).ok_or_else(|| {
        TournamentError::Config(format!("the tournament has {} games, not a game {index}", plan.len()))
    })?;
    let settings = referee_settings(config, heartbeat);
    let mut externals: HashMap<usize, ExternalBot> = HashMap::new();
    let result = play_scheduled(config, kind, &options, &settings, &names, game, &mut externals);
    for bot in externals.values_mut() {
        bot.quit(config.limits.quit_grace);
    }
    Ok(result)
}

fn play_scheduled(
    config: &TournamentConfig,
    kind: &'static dyn GameKind,
    options: &Options,
    settings: &RefereeSettings,
    names: &[String],
    game: &Scheduled,
    externals: &mut HashMap<usize, ExternalBot>,
) -> GameResult {
    for &b in &game.bots {
        if let BotSpec::Command { argv, .. } = &config.bots[b] {
            externals.entry(b).or_insert_with(|| ExternalBot::new(argv.clone()));
        }
    }
    let seat_names: Vec<String> = game.bots.iter().map(|&b| names[b].clone()).collect();
    // Each external bot appears once per game (bots in a game are distinct).
    let mut taken: Vec<(usize, ExternalBot)> = Vec::new();
    for &b in &game.bots {
        if let Some(bot) = externals.remove(&b) {
            taken.push((b, bot));
        }
    }
    let result = {
        let mut seats: Vec<Option<Player<'_>>> =
            game.bots.iter().map(|&b| BuiltinBot::from_spec(&config.bots[b]).map(Player::Builtin)).collect();
        for (b, bot) in taken.iter_mut() {
            if let Some(seat) = game.bots.iter().position(|x| x == b) {
                seats[seat] = Some(Player::External(bot));
            }
        }
        let mut players: Vec<Player<'_>> = seats.into_iter().flatten().collect();
        play_game(kind, options, &mut players, &seat_names, game.seed, settings)
    };
    for (b, bot) in taken {
        externals.insert(b, bot);
    }
    let mut result = result.unwrap_or_else(|e| GameResult {
        index: game.index,
        seats: seat_names.clone(),
        bots: game.bots.clone(),
        seed: game.seed,
        winner: None,
        results: vec![SeatResult::Draw; game.bots.len()],
        scores: Vec::new(),
        reason: format!("the game could not be set up: {e}"),
        failures: Vec::new(),
        moves: 0,
    });
    result.index = game.index;
    result.bots = game.bots.clone();
    result
}

/// Standings, ratings and the head-to-head matrix from finished games.
pub fn build_report(
    config: &TournamentConfig,
    names: Vec<String>,
    games: Vec<GameResult>,
    elapsed: Duration,
) -> TournamentReport {
    let n = names.len();
    let mut standings: Vec<BotStanding> = names
        .iter()
        .enumerate()
        .map(|(index, name)| BotStanding {
            name: name.clone(),
            index,
            games: 0,
            wins: 0,
            losses: 0,
            draws: 0,
            win_rate: 0.0,
            ci95: [0.0, 1.0],
            rating: 1500.0,
            failures: 0,
        })
        .collect();
    let mut h2h = vec![vec![HeadToHead::default(); n]; n];
    let mut score = vec![vec![0.0f64; n]; n];
    for game in &games {
        for (seat, &b) in game.bots.iter().enumerate() {
            let Some(s) = standings.get_mut(b) else { continue };
            s.games += 1;
            match game.results.get(seat) {
                Some(SeatResult::Win) => s.wins += 1,
                Some(SeatResult::Loss) => s.losses += 1,
                _ => s.draws += 1,
            }
            s.failures += game.failures.iter().filter(|f| f.seat == seat).count() as u64;
        }
        for (i, &a) in game.bots.iter().enumerate() {
            for (j, &b) in game.bots.iter().enumerate() {
                if i == j || a >= n || b >= n {
                    continue;
                }
                let (ra, rb) = (game.results.get(i), game.results.get(j));
                let cell = &mut h2h[a][b];
                match (ra, rb) {
                    (Some(SeatResult::Win), _) => {
                        cell.wins += 1;
                        score[a][b] += 1.0;
                    }
                    (_, Some(SeatResult::Win)) => cell.losses += 1,
                    _ => {
                        cell.draws += 1;
                        score[a][b] += 0.5;
                    }
                }
            }
        }
    }
    let ratings = bradley_terry(&score);
    for s in &mut standings {
        s.win_rate = if s.games == 0 { 0.0 } else { s.wins as f64 / s.games as f64 };
        s.ci95 = wilson95(s.wins, s.games);
        s.rating = ratings.get(s.index).copied().unwrap_or(1500.0);
    }
    standings.sort_by(|a, b| {
        b.wins
            .cmp(&a.wins)
            .then(b.rating.partial_cmp(&a.rating).unwrap_or(std::cmp::Ordering::Equal))
            .then(a.index.cmp(&b.index))
    });
    TournamentReport {
        game: config.game.clone(),
        options: config.options.clone(),
        seed: config.seed,
        games_per_pair: config.games_per_pair,
        players: config.players,
        view: config.view,
        bots: standings,
        names,
        head_to_head: h2h,
        games,
        elapsed_seconds: elapsed.as_secs_f64(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_swap_seats_every_other_game() {
        let plan = schedule(3, 2, 4, 7);
        assert_eq!(plan.len(), 12);
        let seats: Vec<Vec<usize>> = plan.iter().take(4).map(|s| s.bots.clone()).collect();
        assert_eq!(seats, [vec![0, 1], vec![1, 0], vec![0, 1], vec![1, 0]]);
        assert_eq!(plan[4].bots, [0, 2]);
        assert_eq!(plan[8].bots, [1, 2]);
        let seeds: std::collections::BTreeSet<u64> = plan.iter().map(|s| s.seed).collect();
        assert_eq!(seeds.len(), 12, "every game its own seed");
        assert_eq!(schedule(3, 2, 4, 7), plan);
        assert_ne!(schedule(3, 2, 4, 8)[0].seed, plan[0].seed);
    }

    #[test]
    fn combinations_rotate_seats() {
        let plan = schedule(4, 3, 3, 0);
        assert_eq!(plan.len(), 4 * 3);
        assert_eq!(plan[0].bots, [0, 1, 2]);
        assert_eq!(plan[1].bots, [1, 2, 0]);
        assert_eq!(plan[2].bots, [2, 0, 1]);
        assert_eq!(plan[3].bots, [0, 1, 3]);
        assert_eq!(binomial(64, 8), Some(4_426_165_368));
    }

    #[test]
    fn progress_reads_sanely() {
        let at = |done, resumed, seconds| {
            Progress { done, total: 400, resumed, elapsed: Duration::from_secs_f64(seconds), last: None }
                .summary()
        };
        assert_eq!(at(0, 0, 0.0), "0/400 games, starting");
        assert_eq!(at(100, 100, 0.0), "100/400 games (100 resumed), starting");
        // Too early to tell the time left.
        assert_eq!(at(2, 0, 1.0), "2/400 games, 2.0 games/s");
        assert_eq!(at(100, 0, 8.0), "100/400 games, 12 games/s, about 24 s left");
        // Resumed games do not count in the rate.
        assert_eq!(at(200, 100, 100.0), "200/400 games (100 resumed), 1.0 games/s, about 3 min 20 s left");
        assert_eq!(at(10, 0, 40.0), "10/400 games, 4.0 s a game, about 26 min left");
        assert_eq!(at(10, 0, 400.0), "10/400 games, 40.0 s a game, about 4 h 20 min left");
        assert_eq!(at(400, 0, 40.0), "400/400 games, 10 games/s");
    }

    #[test]
    fn duplicate_names_are_numbered() {
        let bots = vec![BotSpec::parse("random").unwrap(), BotSpec::parse("random").unwrap()];
        assert_eq!(unique_names(&bots), ["random", "random#2"]);
    }
}
