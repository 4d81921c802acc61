//! Real-Time Life heuristics: the `greedy` bot, and what the search bot
//! needs to play a game on the clock (a cheap playout policy, an estimate
//! of unfinished positions, candidate moves worth searching).
//!
//! Everything here works on copies of the typed game: a candidate is tried
//! by making it on a copy and running the copy's clock a few generations
//! ahead, with nobody else moving.

use rand::Rng;
use rand::seq::SliceRandom;
use tabula_model::coords::Point;
use tabula_model::{Ctx, DynState, GameRng, Rules, Seat, Viewer};
use tabula_rtlife::{RtLife, RtMove};

/// Random placements the heuristic weighs before it places.
const PLACE_CANDIDATES: usize = 12;
/// Random placements the search bot's model of a placing player weighs.
const MODEL_CANDIDATES: usize = 4;
/// Straight rows at random places weighed besides the random shapes.
const ROW_CANDIDATES: usize = 6;
/// Generations a placement is played ahead to judge it.
pub const PLACE_HORIZON: usize = 6;
/// Single-cell moves weighed before a generation.
const MOVE_CANDIDATES: usize = 12;
/// Generations a move is played ahead to judge it.
const MOVE_HORIZON: u64 = 2;
/// Generations the search bot's playouts run before the position is
/// estimated.
pub const SEARCH_HORIZON: usize = 3;
/// The farthest (in king steps) a considered move takes a cell.
const MOVE_REACH: i64 = 2;
/// Cells moved at most by one chain of moves (see [`chain_move`]).
const CHAIN_STEPS: usize = 30;

/// The typed game behind a state, if it is Real-Time Life.
pub fn game_of(state: &dyn DynState) -> Option<&RtLife> {
    state.as_any().downcast_ref::<RtLife>()
}

/// What a seat's standing is worth: its score so far plus what its cells
/// would add at the next generation.
fn value(life: &RtLife, seat: Seat) -> f64 {
    if !life.has_placed(seat) {
        return 0.0;
    }
    life.score(seat).to_f64() + life.cells(seat) as f64 / (life.generation() + 1) as f64
}

/// `seat`'s value less the best other seat's.
pub fn margin(life: &RtLife, seat: Seat) -> f64 {
    let best_other =
        (0..life.player_count()).filter(|&s| s != seat).map(|s| value(life, s)).fold(0.0, f64::max);
    value(life, seat) - best_other
}

/// Each seat's reward in [0, 1] for an unfinished position, for the
/// search bot's cut-off playouts: its score projected to the last
/// generation as if its cells stayed as many as now (each generation `k`
/// adds cells / `k`), against the best other seat's.
pub fn estimate(state: &dyn DynState, players: usize) -> Option<Vec<f64>> {
    let life = game_of(state)?;
    let done = life.generation();
    let last = Rules::view(life, Viewer::Observer, 0).generations.unwrap_or(done + 1).max(done);
    let weight: f64 = (done + 1..=last).map(|k| 1.0 / k as f64).sum();
    let values: Vec<f64> = (0..players)
        .map(
            |s| if life.has_placed(s) { life.score(s).to_f64() + life.cells(s) as f64 * weight } else { 0.0 },
        )
        .collect();
    let total: f64 = values.iter().sum();
    let scale = (0.1 * total).max(2.0);
    Some(
        (0..players)
            .map(|s| {
                let best_other =
                    (0..players).filter(|&o| o != s).map(|o| values[o]).fold(f64::NEG_INFINITY, f64::max);
                0.5 + 0.5 * ((values[s] - best_other) / scale).tanh()
            })
            .collect(),
    )
}

/// Run the clock of `life` until `generations` more generations have
/// passed or the game is over.
fn run_generations(life: &mut RtLife, generations: u64, rng: &mut GameRng) {
    let target = life.generation() + generations;
    // A bound on ticks, whatever the ticks per generation.
    for _ in 0..100_000 {
        if life.generation() >= target || Rules::outcome(life).is_some() {
            return;
        }
        let _ = Rules::clock(life, &mut Ctx { now: 0, rng: &mut *rng, history: false });
    }
}

/// `seat`'s margin after making `mv` on a copy and playing `horizon`
/// generations ahead; `None` when the move is not legal.
fn judge(life: &RtLife, seat: Seat, mv: Option<RtMove>, horizon: u64, rng: &mut GameRng) -> Option<f64> {
    let mut copy = life.clone();
    if let Some(mv) = mv {
        Rules::check_move(&copy, seat, &mv).ok()?;
        let _ = Rules::apply_move(&mut copy, seat, mv, &mut Ctx { now: 0, rng: &mut *rng, history: false });
    }
    run_generations(&mut copy, horizon, rng);
    Some(match Rules::outcome(&copy) {
        Some(o) if o.winners == [seat] => 1e6,
        Some(o) if !o.winners.contains(&seat) => -1e6,
        _ => margin(&copy, seat),
    })
}

/// Whether the next clock event of `life` brings a generation.
fn generation_next(life: &RtLife, rng: &mut GameRng) -> bool {
    let mut copy = life.clone();
    let before = copy.generation();
    let _ = Rules::clock(&mut copy, &mut Ctx { now: 0, rng: &mut *rng, history: false });
    copy.generation() > before
}

/// Placements worth weighing: random connected shapes, each played ahead
/// [`PLACE_HORIZON`] generations, best first.
pub fn placements(life: &RtLife, seat: Seat, count: usize, rng: &mut GameRng) -> Vec<(RtMove, f64)> {
    let mut judged: Vec<(RtMove, f64)> = Vec::new();
    let mut shapes: Vec<RtMove> = (0..count).filter_map(|_| Rules::random_move(life, seat, rng)).collect();
    // Straight rows too: ten cells in a row become an oscillator that
    // lives on in free space (the pentadecathlon).
    if let Some((width, height)) = life.size() {
        let cells = Rules::view(life, Viewer::Observer, 0).start_cells as i64;
        for _ in 0..ROW_CANDIDATES {
            let across = rng.random_bool(0.5);
            let (w, h) = if across { (width - cells + 1, height) } else { (width, height - cells + 1) };
            if w < 1 || h < 1 {
                continue;
            }
            let (x, y) = (rng.random_range(0..w), rng.random_range(0..h));
            let row = (0..cells).map(|i| if across { Point { x: x + i, y } } else { Point { x, y: y + i } });
            shapes.push(RtMove::Place(row.collect()));
        }
    }
    for mv in shapes {
        if judged.iter().any(|(m, _)| *m == mv) {
            continue;
        }
        if let Some(v) = judge(life, seat, Some(mv.clone()), PLACE_HORIZON as u64, rng) {
            judged.push((mv, v));
        }
    }
    judged.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Equal));
    judged
}

/// One-cell moves `seat` can pay for now: a cell to an empty point at most
/// [`MOVE_REACH`] king steps away, sampled.
pub fn step_candidates(life: &RtLife, seat: Seat, count: usize, rng: &mut GameRng) -> Vec<RtMove> {
    let points = life.points(seat);
    if points == 0 {
        return Vec::new();
    }
    let Some(owner) = tabula_life::Owner::player(seat) else { return Vec::new() };
    let mut mine: Vec<Point> = life.live_cells().into_iter().filter(|c| c.1 == owner).map(|c| c.0).collect();
    if mine.is_empty() {
        return Vec::new();
    }
    mine.shuffle(rng);
    let reach = MOVE_REACH.min(points as i64);
    let mut out: Vec<RtMove> = Vec::new();
    for _ in 0..count * 4 {
        if out.len() >= count {
            break;
        }
        let from = mine[rng.random_range(0..mine.len())];
        let to = Point {
            x: from.x + rng.random_range(-reach..=reach),
            y: from.y + rng.random_range(-reach..=reach),
        };
        if to == from || life.at(to).is_some() {
            continue;
        }
        let mv = RtMove::Move(vec![(from, to)]);
        if out.contains(&mv) {
            continue;
        }
        if life.move_cost(seat, &[(from, to)]).is_ok_and(|cost| cost <= points) {
            out.push(mv);
        }
    }
    out
}

/// One-cell moves that take one of `seat`'s cells, the nearest it can pay
/// for, close to cells not its own (at most [`MOVE_REACH`] king steps from
/// one): crowding another player's pattern can kill it, and a player with
/// no cells left is out. A one-cell move of [`step_candidates`] seldom
/// reaches the other's cells, and the points to go far pile up anyway.
fn attack_candidates(life: &RtLife, seat: Seat, count: usize, rng: &mut GameRng) -> Vec<RtMove> {
    let points = life.points(seat);
    let Some(owner) = tabula_life::Owner::player(seat) else { return Vec::new() };
    let (mine, theirs): (Vec<_>, Vec<_>) = life.live_cells().into_iter().partition(|c| c.1 == owner);
    if points == 0 || mine.is_empty() || theirs.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<RtMove> = Vec::new();
    for _ in 0..count * 4 {
        if out.len() >= count {
            break;
        }
        let near = theirs[rng.random_range(0..theirs.len())].0;
        let to = Point {
            x: near.x + rng.random_range(-MOVE_REACH..=MOVE_REACH),
            y: near.y + rng.random_range(-MOVE_REACH..=MOVE_REACH),
        };
        if life.at(to).is_some() {
            continue;
        }
        // The path may be longer than the king distance (it goes round
        // cells): the cost is checked below.
        let distance = |p: Point| (p.x - to.x).abs().max((p.y - to.y).abs()) as u64;
        let Some(from) = mine
            .iter()
            .map(|c| c.0)
            .filter(|&p| distance(p) <= points)
            .min_by_key(|&p| (distance(p), rng.random::<u32>()))
        else {
            continue;
        };
        let mv = RtMove::Move(vec![(from, to)]);
        if !out.contains(&mv) && life.move_cost(seat, &[(from, to)]).is_ok_and(|cost| cost <= points) {
            out.push(mv);
        }
    }
    out
}

/// The heuristic's move for `seat`, or `None` to pass: before placing, the
/// best of [`PLACE_CANDIDATES`] random placements played ahead; after, on
/// the tick before a generation only, the best of [`MOVE_CANDIDATES`]
/// one-cell moves if it beats not moving.
pub fn greedy_move(life: &RtLife, seat: Seat, rng: &mut GameRng) -> Option<RtMove> {
    if !Rules::is_active(life, seat) || Rules::outcome(life).is_some() {
        return None;
    }
    if !life.has_placed(seat) {
        return placements(life, seat, PLACE_CANDIDATES, rng).into_iter().next().map(|(mv, _)| mv);
    }
    if life.points(seat) == 0 || !generation_next(life, rng) {
        return None;
    }
    let candidates = step_candidates(life, seat, MOVE_CANDIDATES, rng);
    if candidates.is_empty() {
        return None;
    }
    let mut best = judge(life, seat, None, MOVE_HORIZON, rng)?;
    let mut chosen = None;
    for mv in candidates {
        if let Some(v) = judge(life, seat, Some(mv.clone()), MOVE_HORIZON, rng)
            && v > best
        {
            best = v;
            chosen = Some(mv);
        }
    }
    chosen
}

/// Several one-cell moves made one after another, each the best of
/// [`MOVE_CANDIDATES`] short steps and as many moves to the others' cells
/// ([`attack_candidates`]) on the field the earlier ones left, as long as
/// one beats stopping there; sent as one move (its steps apply in order, all
/// or none). Points come every tick and a lone step spends one or two of
/// them before a generation: with many ticks between generations most
/// would be left unused.
pub fn chain_move(life: &RtLife, seat: Seat, rng: &mut GameRng) -> Option<RtMove> {
    let mut copy = life.clone();
    let mut best = judge(&copy, seat, None, MOVE_HORIZON, rng)?;
    let mut steps: Vec<(Point, Point)> = Vec::new();
    for _ in 0..CHAIN_STEPS {
        let mut chosen = None;
        let mut moves = step_candidates(&copy, seat, MOVE_CANDIDATES, rng);
        moves.extend(attack_candidates(&copy, seat, MOVE_CANDIDATES, rng));
        for mv in moves {
            if let Some(v) = judge(&copy, seat, Some(mv.clone()), MOVE_HORIZON, rng)
                && v > best
            {
                best = v;
                chosen = Some(mv);
            }
        }
        let Some(mv) = chosen else { break };
        if let RtMove::Move(step) = &mv {
            steps.extend_from_slice(step);
        }
        let _ = Rules::apply_move(&mut copy, seat, mv, &mut Ctx { now: 0, rng: &mut *rng, history: false });
    }
    (!steps.is_empty()).then_some(RtMove::Move(steps))
}

/// Whether `seat` should move now rather than pass: with points to spend,
/// on the tick before a generation; before it has placed, once every other
/// player has placed or on the tick before the next generation (other
/// games: always).
///
/// A placement is best made last: the later placer sees the others' cells
/// and can place where they leave room, and a score counts only the
/// generations since one's placement, so waiting costs nothing until a
/// generation would pass without one's cells.
pub fn time_to_act(state: &dyn DynState, seat: Seat, rng: &mut GameRng) -> bool {
    let Some(life) = game_of(state) else { return true };
    if !life.has_placed(seat) {
        let others_waiting =
            (0..life.player_count()).any(|s| s != seat && Rules::is_active(life, s) && !life.has_placed(s));
        return !others_waiting || generation_next(life, rng);
    }
    life.points(seat) > 0 && generation_next(life, rng)
}

/// [`greedy_move`] as text, for any state (`None` for other games, or a pass).
pub fn greedy(state: &dyn DynState, seat: Seat, rng: &mut GameRng) -> Option<String> {
    let life = game_of(state)?;
    greedy_move(life, seat, rng).map(|mv| Rules::format_move(life, &mv))
}

/// The search bot's model of the others (and its playout policy): a seat
/// that has not placed yet places as the heuristic would (from fewer
/// candidates); a seat that has placed passes ([`crate::mcts::PASS`]), so
/// the search weighs its own moves against a position that evolves on its
/// own rather than against random wandering.
pub fn playout(state: &dyn DynState, seat: Seat, rng: &mut GameRng) -> Option<String> {
    let life = game_of(state)?;
    if !Rules::is_active(life, seat) {
        return None;
    }
    if life.has_placed(seat) {
        return Some(crate::mcts::PASS.to_string());
    }
    let best = placements(life, seat, MODEL_CANDIDATES, rng).into_iter().next();
    best.map(|(mv, _)| Rules::format_move(life, &mv))
}

/// Moves the search bot weighs at the root besides its random sample: the
/// best few placements, or a few one-cell moves, as text.
pub fn candidates(state: &dyn DynState, seat: Seat, rng: &mut GameRng) -> Vec<String> {
    let Some(life) = game_of(state) else { return Vec::new() };
    if !Rules::is_active(life, seat) {
        return Vec::new();
    }
    let moves: Vec<RtMove> = if life.has_placed(seat) {
        // The heuristic's own choice among them.
        let mut moves = step_candidates(life, seat, MOVE_CANDIDATES, rng);
        moves.extend(greedy_move(life, seat, rng));
        moves.extend(chain_move(life, seat, rng));
        moves
    } else {
        placements(life, seat, 2 * PLACE_CANDIDATES, rng).into_iter().take(8).map(|(mv, _)| mv).collect()
    };
    moves.iter().map(|mv| Rules::format_move(life, mv)).collect()
}
