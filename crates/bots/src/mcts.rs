//! A general search bot over the common game model: information-set Monte
//! Carlo tree search.
//!
//! Each iteration plays on a fresh [`DynState::determinize`] of the real
//! state, so hidden information (others' goals, unrevealed sequences, a
//! pending secret choice) is guessed, never read. Tree nodes are reached by
//! the moves made, not by the hidden data, so statistics from every guess
//! add up (single-observer ISMCTS with availability counts). Where several
//! players choose at once (`Turn::Simultaneous`), each of them selects its
//! own move from its own statistics (decoupled UCT), and the node's child is
//! the joint move. Games whose moves are too many to list are searched over
//! a sample of random legal moves per node. Playouts are random, or partly
//! follow the game's cheap heuristic where it has one, and every seat is
//! credited its own result (1 for a win, a share of 1 for a draw, 0 for a
//! loss, shaded by the score margin where the game keeps scores).
//!
//! Moves are also credited "as if played first" (RAVE): a move's value at a
//! node blends its own average with the average of every iteration in which
//! the same player made the same move later on. In games where a move's
//! worth depends little on when it is made (a cell of Intervalo, a point of
//! Conway) this multiplies what each playout teaches; the blend shifts to
//! the move's own average as its visits grow.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use rand::Rng;
use serde::{Deserialize, Serialize};
use tabula_model::{Ctx, DynState, GameRng, Outcome, Seat, Turn};

/// Iterations of `mcts` without a budget.
pub const DEFAULT_ITERATIONS: u32 = 400;
/// The most iterations `mcts:N` accepts.
pub const MAX_ITERATIONS: u32 = 10_000_000;
/// Nodes kept at most; past it the tree stops growing and iterations only
/// refine what is there.
const MAX_NODES: usize = 200_000;

/// How long the search may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Budget {
    /// A fixed number of iterations: the same seed gives the same move.
    Iterations(u32),
    /// Wall-clock time: stronger on a faster machine, not reproducible.
    Time(Duration),
}

/// Search settings.
#[derive(Clone, Debug)]
pub struct MctsConfig {
    /// Iterations or time.
    pub budget: Budget,
    /// The UCB exploration constant.
    pub exploration: f64,
    /// Moves a playout makes at most before it is scored as a draw.
    pub max_playout: usize,
    /// Moves sampled per node when a game cannot list its legal moves.
    pub sampled_moves: usize,
    /// Visits at which a move's own average and its as-if-first average
    /// weigh about equally (RAVE's equivalence parameter); 0 turns RAVE off.
    pub rave: f64,
    /// The game's cheap heuristic, if it has one, for playouts: purely
    /// random playouts take every player for a random one, and misjudge
    /// positions against players that are not.
    pub playout_policy: Option<PlayoutPolicy>,
    /// The share of playout moves made by `playout_policy` (the rest are
    /// random, which keeps playouts varied).
    pub policy_share: f64,
    /// Where the game keeps scores, the weight of the score margin in the
    /// reward (the rest is the result): a margin tells more than a result
    /// from few playouts.
    pub margin_weight: f64,
    /// How the other players are expected to choose, when known (fitted to
    /// their revealed moves): followed with chance `model_share` by the
    /// other players in the tree and in playouts, instead of their own
    /// statistics or random moves.
    pub opponent_model: Option<PlayoutPolicy>,
    /// See `opponent_model`.
    pub model_share: f64,
    /// Moves worth searching at the root besides those listed or sampled
    /// (the game's heuristic choices, where the game's moves are too many
    /// to list).
    pub candidates: Option<CandidateMoves>,
    /// An estimate of each seat's reward in an unfinished position, for
    /// playouts cut off before the end.
    pub estimate: Option<Estimate>,
    /// In a game on the clock, clock events a playout runs at most before
    /// it is cut off and the position estimated.
    pub clock_horizon: usize,
    /// Levels of the tree below which every seat follows its model or the
    /// playout policy instead of its own statistics (`None`: no limit).
    /// A bot that moves only at some clock events gains nothing from tree
    /// levels that weigh its moves at the others, with sampled moves it
    /// would never make.
    pub max_depth: Option<usize>,
}

/// Extra root moves for a seat (see [`MctsConfig::candidates`]).
pub type CandidateMoves = fn(&dyn DynState, Seat, &mut GameRng) -> Vec<String>;

/// Each seat's reward in an unfinished position of `players` seats (see
/// [`MctsConfig::estimate`]).
pub type Estimate = fn(&dyn DynState, usize) -> Option<Vec<f64>>;

/// A cheap move chooser used inside playouts.
pub type PlayoutPolicy = fn(&dyn DynState, Seat, &mut GameRng) -> Option<String>;

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            budget: Budget::Iterations(DEFAULT_ITERATIONS),
            exploration: 0.7,
            max_playout: 2_000,
            sampled_moves: 24,
            rave: 300.0,
            playout_policy: None,
            policy_share: 0.5,
            margin_weight: 0.2,
            opponent_model: None,
            model_share: 0.9,
            candidates: None,
            estimate: None,
            clock_horizon: 48,
            max_depth: None,
        }
    }
}

/// Move texts as small numbers, for cheap comparisons during a search.
#[derive(Default)]
struct Interner {
    ids: HashMap<String, u32>,
    texts: Vec<String>,
}

impl Interner {
    fn id(&mut self, text: &str) -> u32 {
        if let Some(&id) = self.ids.get(text) {
            return id;
        }
        let id = self.texts.len() as u32;
        self.ids.insert(text.to_string(), id);
        self.texts.push(text.to_string());
        id
    }
}

#[derive(Default)]
struct ActionStats {
    moves: Vec<u32>,
    visits: Vec<u32>,
    reward: Vec<f64>,
    available: Vec<u32>,
    amaf_visits: Vec<u32>,
    amaf_reward: Vec<f64>,
}

impl ActionStats {
    fn index_of(&mut self, mv: u32) -> usize {
        match self.moves.iter().position(|&m| m == mv) {
            Some(i) => i,
            None => {
                self.moves.push(mv);
                self.visits.push(0);
                self.reward.push(0.0);
                self.available.push(0);
                self.amaf_visits.push(0);
                self.amaf_reward.push(0.0);
                self.moves.len() - 1
            }
        }
    }

    fn find(&self, mv: u32) -> Option<usize> {
        self.moves.iter().position(|&m| m == mv)
    }
}

#[derive(Default)]
struct Node {
    /// Statistics per acting seat at this node.
    seats: Vec<(Seat, ActionStats)>,
    /// Children by joint move (one action index per acting seat, in order).
    children: HashMap<Vec<u32>, usize>,
}

impl Node {
    fn stats(&mut self, seat: Seat) -> &mut ActionStats {
        let i = match self.seats.iter().position(|(s, _)| *s == seat) {
            Some(i) => i,
            None => {
                self.seats.push((seat, ActionStats::default()));
                self.seats.len() - 1
            }
        };
        &mut self.seats[i].1
    }
}

/// One tree step of an iteration: the node, each acting seat's chosen
/// action index there, and where the step's moves begin in the trail.
type Step = (usize, Vec<(Seat, usize)>, usize);

/// The move `seat` should make in `state` (a game of `players` seats),
/// found by search; `None` when `seat` is not to move or has no legal move.
pub fn search(
    state: &dyn DynState,
    players: usize,
    seat: Seat,
    config: &MctsConfig,
    rng: &mut GameRng,
) -> Option<String> {
    if !state.to_move().includes(seat) {
        return None;
    }
    // On the clock every seat still in the game may move or pass (the
    // empty move) at each clock event.
    let clocked = state.to_move() == Turn::Clock;
    if clocked && !state.is_active(seat) {
        return None;
    }
    let mut interner = Interner::default();
    let mut root_moves: Vec<u32> =
        moves_of(state, seat, config.sampled_moves, rng).iter().map(|m| interner.id(m)).collect();
    if let Some(candidates) = config.candidates {
        for mv in candidates(state, seat, rng) {
            let id = interner.id(&mv);
            if !root_moves.contains(&id) {
                root_moves.push(id);
            }
        }
    }
    if clocked {
        root_moves.push(interner.id(PASS));
    }
    match root_moves.len() {
        0 => return None,
        1 => return Some(interner.texts[root_moves[0] as usize].clone()).filter(|m| m != PASS),
        _ => {}
    }
    let started = Instant::now();
    let mut nodes: Vec<Node> = vec![Node::default()];
    let mut iteration: u32 = 0;
    // Every move of one iteration, in order: (seat, move).
    let mut trail: Vec<(Seat, u32)> = Vec::new();
    loop {
        match config.budget {
            Budget::Iterations(n) if iteration >= n => break,
            Budget::Time(t) if iteration > 0 && started.elapsed() >= t => break,
            _ => {}
        }
        iteration += 1;
        trail.clear();
        let mut guess = state.determinize(seat, rng);
        let mut path: Vec<Step> = Vec::new();
        let mut node = 0;
        loop {
            if config.max_depth.is_some_and(|depth| path.len() >= depth) {
                break;
            }
            let actors = match guess.to_move() {
                Turn::Player(p) => vec![p],
                Turn::Simultaneous(set) => set.to_vec(),
                Turn::Clock if guess.next_clock().is_some() => {
                    // Seats before `seat` have had their say in the real
                    // position's step already.
                    let first = if path.is_empty() { seat } else { 0 };
                    (first..players).filter(|&s| guess.is_active(s)).collect()
                }
                Turn::Clock | Turn::Over => break,
            };
            let mut chosen: Vec<(Seat, usize)> = Vec::with_capacity(actors.len());
            let mut picked: Vec<u32> = Vec::with_capacity(actors.len());
            for &actor in &actors {
                let legal: Vec<u32> = if actor == seat && node == 0 {
                    root_moves.clone()
                } else {
                    let mut legal: Vec<u32> = moves_of(&*guess, actor, config.sampled_moves, rng)
                        .iter()
                        .map(|m| interner.id(m))
                        .collect();
                    if clocked {
                        legal.push(interner.id(PASS));
                    }
                    legal
                };
                if legal.is_empty() {
                    break;
                }
                let modelled = match config.opponent_model {
                    Some(model) if actor != seat && rng.random::<f64>() < config.model_share => {
                        // On the clock the model's move is one of the
                        // game's own (the sampled list is not all of them).
                        model(&*guess, actor, rng)
                            .map(|m| interner.id(&m))
                            .filter(|m| clocked || legal.contains(m))
                    }
                    _ => None,
                };
                let stats = nodes[node].stats(actor);
                let index = match modelled {
                    Some(mv) => stats.index_of(mv),
                    None => select(stats, &legal, config, rng),
                };
                picked.push(stats.moves[index]);
                chosen.push((actor, index));
            }
            if chosen.len() != actors.len() {
                break;
            }
            let at = trail.len();
            let mut applied_all = true;
            for (&(actor, _), &mv) in chosen.iter().zip(&picked) {
                let text = &interner.texts[mv as usize];
                let mut ctx = Ctx { now: 0, rng: &mut *rng, history: false };
                if !(clocked && text == PASS) && guess.apply(actor, text, &mut ctx).is_err() {
                    applied_all = false;
                    break;
                }
                trail.push((actor, mv));
            }
            if !applied_all {
                break;
            }
            if clocked && guess.to_move() == Turn::Clock {
                let _ = guess.clock(&mut Ctx { now: 0, rng: &mut *rng, history: false });
            }
            let key: Vec<u32> = chosen.iter().map(|(_, i)| *i as u32).collect();
            path.push((node, chosen, at));
            match nodes[node].children.get(&key) {
                Some(&child) => node = child,
                None => {
                    if nodes.len() < MAX_NODES {
                        nodes.push(Node::default());
                        let child = nodes.len() - 1;
                        nodes[node].children.insert(key, child);
                    }
                    break;
                }
            }
        }
        let rewards = playout(&mut *guess, players, seat, config, rng, &mut interner, &mut trail);
        for (n, chosen, at) in path {
            for (actor, index) in chosen {
                let reward = rewards.get(actor).copied().unwrap_or(0.0);
                let stats = nodes[n].stats(actor);
                stats.visits[index] += 1;
                stats.reward[index] += reward;
            }
            // As-if-first credit: each seat's moves from this node on, once each.
            let mut credited: Vec<(Seat, u32)> = Vec::new();
            for &(actor, mv) in &trail[at..] {
                if credited.contains(&(actor, mv)) {
                    continue;
                }
                credited.push((actor, mv));
                let reward = rewards.get(actor).copied().unwrap_or(0.0);
                let node = &mut nodes[n];
                if let Some((_, stats)) = node.seats.iter_mut().find(|(s, _)| *s == actor)
                    && let Some(i) = stats.find(mv)
                {
                    stats.amaf_visits[i] += 1;
                    stats.amaf_reward[i] += reward;
                }
            }
        }
    }
    let root = nodes[0].stats(seat);
    let best = (0..root.moves.len()).filter(|&i| root_moves.contains(&root.moves[i])).max_by(|&a, &b| {
        root.visits[a]
            .cmp(&root.visits[b])
            .then_with(|| mean(root, a).partial_cmp(&mean(root, b)).unwrap_or(std::cmp::Ordering::Equal))
    })?;
    Some(interner.texts[root.moves[best] as usize].clone()).filter(|m| m != PASS)
}

/// The empty move: a seat of a game on the clock that lets a clock event
/// pass without moving (a policy or model may answer it too).
pub const PASS: &str = "";

fn mean(stats: &ActionStats, i: usize) -> f64 {
    if stats.visits[i] == 0 { 0.0 } else { stats.reward[i] / f64::from(stats.visits[i]) }
}

/// Pick a move among `legal` (all available in this determinization):
/// the best upper confidence bound on the RAVE-blended value; untried
/// moves are valued by their as-if-first average alone.
fn select(stats: &mut ActionStats, legal: &[u32], config: &MctsConfig, rng: &mut GameRng) -> usize {
    let indices: Vec<usize> = legal.iter().map(|&m| stats.index_of(m)).collect();
    for &i in &indices {
        stats.available[i] += 1;
    }
    let mut best = indices[0];
    let mut best_value = f64::NEG_INFINITY;
    for &i in &indices {
        let n = f64::from(stats.visits[i]);
        let amaf_n = f64::from(stats.amaf_visits[i]);
        let amaf = if amaf_n > 0.0 { stats.amaf_reward[i] / amaf_n } else { 0.5 };
        let value = if n == 0.0 {
            // Untried: first by their as-if-first value, with a bonus that
            // tries every move once before any is tried twice.
            1e6 + amaf
        } else {
            let beta = (config.rave / (3.0 * n + config.rave)).sqrt();
            let q = stats.reward[i] / n;
            (1.0 - beta) * q
                + beta * amaf
                + config.exploration * (f64::from(stats.available[i]).ln() / n).sqrt()
        };
        let value = value + rng.random::<f64>() * 1e-9;
        if value > best_value {
            best_value = value;
            best = i;
        }
    }
    best
}

/// The moves considered for `seat`: all legal moves, or a sample.
fn moves_of(state: &dyn DynState, seat: Seat, sample: usize, rng: &mut GameRng) -> Vec<String> {
    if let Some(all) = state.legal_moves(seat) {
        return all;
    }
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..sample * 2 {
        if moves.len() >= sample {
            break;
        }
        match state.random_move(seat, rng) {
            Some(m) if !moves.contains(&m) => moves.push(m),
            Some(_) => {}
            None => break,
        }
    }
    moves
}

/// Random moves to the end, appended to `trail`; each seat's reward.
#[allow(clippy::too_many_arguments)]
fn playout(
    state: &mut dyn DynState,
    players: usize,
    seat: Seat,
    config: &MctsConfig,
    rng: &mut GameRng,
    interner: &mut Interner,
    trail: &mut Vec<(Seat, u32)>,
) -> Vec<f64> {
    let mut moves = 0;
    let mut clock_events = 0;
    while moves < config.max_playout {
        let clocked = state.to_move() == Turn::Clock;
        let actors = match state.to_move() {
            Turn::Player(p) => vec![p],
            Turn::Simultaneous(set) => set.to_vec(),
            Turn::Clock if state.next_clock().is_some() && clock_events < config.clock_horizon => {
                (0..players).filter(|&s| state.is_active(s)).collect()
            }
            Turn::Clock | Turn::Over => break,
        };
        for actor in actors {
            if clocked {
                // On the clock a seat the policy leaves alone passes.
                let mv = match config.playout_policy {
                    Some(policy) if rng.random::<f64>() < config.policy_share => policy(&*state, actor, rng),
                    _ => state.random_move(actor, rng),
                };
                if let Some(mv) = mv
                    && mv != PASS
                    && state.apply(actor, &mv, &mut Ctx { now: 0, rng: &mut *rng, history: false }).is_ok()
                {
                    trail.push((actor, interner.id(&mv)));
                    moves += 1;
                }
                continue;
            }
            let informed = match (config.opponent_model, config.playout_policy) {
                (Some(model), _) if actor != seat && rng.random::<f64>() < config.model_share => {
                    model(&*state, actor, rng)
                }
                (_, Some(policy)) if rng.random::<f64>() < config.policy_share => policy(&*state, actor, rng),
                _ => None,
            };
            let Some(mv) = informed.or_else(|| state.random_move(actor, rng)) else {
                return vec![1.0 / players.max(1) as f64; players];
            };
            let mut ctx = Ctx { now: 0, rng: &mut *rng, history: false };
            if state.apply(actor, &mv, &mut ctx).is_err() {
                return vec![1.0 / players.max(1) as f64; players];
            }
            trail.push((actor, interner.id(&mv)));
            moves += 1;
        }
        if clocked && state.to_move() == Turn::Clock {
            let _ = state.clock(&mut Ctx { now: 0, rng: &mut *rng, history: false });
            clock_events += 1;
        }
    }
    match state.outcome() {
        Some(outcome) => rewards(&outcome, players, config.margin_weight),
        None => config
            .estimate
            .and_then(|estimate| estimate(&*state, players))
            .unwrap_or_else(|| vec![1.0 / players.max(1) as f64; players]),
    }
}

/// Each seat's reward for an outcome: 1 for a sole win, `1/k` for a share
/// of a draw among `k`, 0 for a loss; where the game keeps scores, the
/// share `margin_weight` of the reward follows the score margin over the
/// best other seat instead, so playouts that end the same way still tell a
/// wide margin from a narrow one.
pub fn rewards(outcome: &Outcome, players: usize, margin_weight: f64) -> Vec<f64> {
    let mut r = vec![0.0; players];
    if outcome.winners.is_empty() {
        r = vec![1.0 / players.max(1) as f64; players];
    } else {
        let share = 1.0 / outcome.winners.len() as f64;
        for &w in &outcome.winners {
            if let Some(x) = r.get_mut(w) {
                *x = share;
            }
        }
    }
    if outcome.scores.len() == players && players > 1 {
        for (seat, reward) in r.iter_mut().enumerate() {
            let best_other = (0..players)
                .filter(|&o| o != seat)
                .map(|o| outcome.scores[o].to_f64())
                .fold(f64::NEG_INFINITY, f64::max);
            let margin = outcome.scores[seat].to_f64() - best_other;
            *reward = (1.0 - margin_weight) * *reward + margin_weight * (0.5 + 0.5 * (margin / 6.0).tanh());
        }
    }
    r
}
