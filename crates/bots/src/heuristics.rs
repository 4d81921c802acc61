//! Cheap per-game heuristics (`greedy`, and Intervalo's `center`). They
//! read only what their seat may see.

use rand::Rng;
use tabula_intervalo::Intervalo;
use tabula_model::{Ctx, DynState, GameKind, GameRng, Seat, SeatResult, Turn};

/// Whether `kind` is the game `game` (one of the game crates' `KIND`s).
pub fn is_game(kind: &dyn GameKind, game: &dyn GameKind) -> bool {
    kind.info().kind == game.info().kind
}

/// Whether this crate has a `greedy` heuristic of its own for `kind`
/// rather than the game's evaluation: Intervalo scores cells directly,
/// Real-Time Life moves cells on the tick before a generation.
pub fn has_own_greedy(kind: &dyn GameKind) -> bool {
    is_game(kind, &tabula_intervalo::KIND) || is_game(kind, &tabula_rtlife::KIND)
}

/// Candidate moves a one-move look-ahead weighs at most.
const LOOKAHEAD_CANDIDATES: usize = 48;

/// The game's heuristic move for `seat`, or `None` where the game has none.
///
/// Intervalo scores cells directly ([`intervalo_greedy_set`]) and Real-Time
/// Life has its own ([`crate::rtlife::greedy`]). Every game that evaluates
/// positions ([`tabula_model::Rules::EVALUATE`]: DNA, Conway, Rewrite) is
/// played by a one-move look-ahead: each candidate (all legal moves, or a
/// sample) is made on a copy that hides what `seat` may not see, the rest
/// of a simultaneous round is filled with random moves, and the position is
/// scored by the game's evaluation.
pub fn greedy(state: &dyn DynState, seat: Seat, rng: &mut GameRng) -> Option<String> {
    if let Some(s) = state.as_any().downcast_ref::<Intervalo>() {
        return intervalo_greedy(&s.strip_for(seat), rng).map(|c| (c + 1).to_string());
    }
    if crate::rtlife::game_of(state).is_some() {
        return crate::rtlife::greedy(state, seat, rng);
    }
    lookahead(state, seat, rng)
}

fn lookahead(state: &dyn DynState, seat: Seat, rng: &mut GameRng) -> Option<String> {
    let mut candidates: Vec<String> = match state.legal_moves(seat) {
        Some(all) if all.len() <= LOOKAHEAD_CANDIDATES => all,
        _ => (0..LOOKAHEAD_CANDIDATES).filter_map(|_| state.random_move(seat, rng)).collect(),
    };
    candidates.dedup();
    let mut best: Vec<String> = Vec::new();
    let mut best_value = f64::NEG_INFINITY;
    for mv in candidates {
        let mut guess = state.determinize(seat, rng);
        if guess.apply(seat, &mv, &mut Ctx { now: 0, rng: &mut *rng, history: false }).is_err() {
            continue;
        }
        // Others still owing a secret move this round choose at random.
        while let Turn::Simultaneous(set) = guess.to_move() {
            let Some(other) = set.iter().find(|&o| o != seat) else { break };
            let Some(theirs) = guess.random_move(other, rng) else { break };
            if guess.apply(other, &theirs, &mut Ctx { now: 0, rng: &mut *rng, history: false }).is_err() {
                break;
            }
        }
        let value = match guess.outcome() {
            Some(outcome) => match outcome.result_for(seat) {
                SeatResult::Win => 1e9,
                SeatResult::Draw => 0.0,
                SeatResult::Loss => -1e9,
            },
            None => guess.evaluate(seat).unwrap_or(0.0),
        };
        if value > best_value {
            best_value = value;
            best.clear();
        }
        if value == best_value {
            best.push(mv);
        }
    }
    (!best.is_empty()).then(|| best.swap_remove(rng.random_range(0..best.len())))
}

/// Intervalo: the empty cell nearest the centre of the strip.
pub fn center(state: &dyn DynState, seat: Seat, rng: &mut GameRng) -> Option<String> {
    let mut out = String::new();
    center_into(state, seat, rng, &mut out).then_some(out)
}

/// [`center`] written into `out` (emptied first); false, and `out` empty,
/// when there is no empty cell or the game is not Intervalo.
pub fn center_into(state: &dyn DynState, _seat: Seat, rng: &mut GameRng, out: &mut String) -> bool {
    out.clear();
    let Some(state) = state.as_any().downcast_ref::<Intervalo>() else { return false };
    match center_of_cells(state, rng) {
        Some(c) => {
            tabula_intervalo::write_cell(c, out);
            true
        }
        None => false,
    }
}

/// [`intervalo_center`] on the typed strip, without writing it out (the
/// centre does not depend on whose pieces are where).
fn center_of_cells(state: &Intervalo, rng: &mut GameRng) -> Option<usize> {
    let cells = state.cells();
    let n = cells.len();
    if n == 0 {
        return None;
    }
    // Outwards from the middle: the cells at the k-th distance from the
    // centre are `low - k` and `high + k` (one cell when they meet), so the
    // first ring with an empty cell holds the nearest, lower index first.
    let (low, high) = ((n - 1) / 2, n / 2);
    let empty = |i: usize| cells[i] == tabula_intervalo::Cell::Empty;
    for k in 0..=low {
        let (a, b) = (low - k, high + k);
        let ties: ([usize; 2], usize) = match (empty(a), b < n && b != a && empty(b)) {
            (true, true) => ([a, b], 2),
            (true, false) => ([a, a], 1),
            (false, true) => ([b, b], 1),
            (false, false) => continue,
        };
        // One draw even without a tie, as `intervalo_center` makes.
        return Some(ties.0[rng.random_range(0..ties.1)]);
    }
    None
}

/// The empty cells (0-based) of a static strip nearest its centre (one, or
/// two equally near).
pub fn intervalo_center_set(strip: &str) -> Vec<usize> {
    let cells = strip.as_bytes();
    let n = cells.len();
    // Twice the distance from the centre, to stay in whole numbers.
    let distance = |i: usize| (2 * i + 1).abs_diff(n);
    let Some(best) = (0..n).filter(|&i| cells[i] == b'.').map(distance).min() else { return Vec::new() };
    (0..n).filter(|&i| cells[i] == b'.' && distance(i) == best).collect()
}

/// The empty cell (0-based) of a static strip nearest its centre; ties at
/// equal distance are broken at random.
pub fn intervalo_center(strip: &str, rng: &mut GameRng) -> Option<usize> {
    let ties = intervalo_center_set(strip);
    (!ties.is_empty()).then(|| ties[rng.random_range(0..ties.len())])
}

/// The empty cells (0-based) of a static strip (`x` own, `o` the
/// opponent's) of best value: the expected points of the turn against an
/// opponent choosing any empty cell with equal chance (whoever has more
/// pieces strictly between the two cells scores), plus the chance that a
/// later turn's interval, between two random empty cells, covers the cell
/// (a piece there counts in more intervals).
pub fn intervalo_greedy_set(strip: &str) -> Vec<usize> {
    let cells = strip.as_bytes();
    let n = cells.len();
    // Prefix counts: lead[i] is own minus opponent's pieces over cells 0..i.
    let mut lead = vec![0i64; n + 1];
    let mut empty_before = vec![0i64; n + 1];
    for (i, &c) in cells.iter().enumerate() {
        lead[i + 1] = lead[i]
            + match c {
                b'x' => 1,
                b'o' => -1,
                _ => 0,
            };
        empty_before[i + 1] = empty_before[i] + i64::from(c == b'.');
    }
    let empties: Vec<usize> = (0..n).filter(|&i| cells[i] == b'.').collect();
    let total = empties.len() as i64;
    let mut best: Vec<usize> = Vec::new();
    let mut best_value = i64::MIN;
    for &mine in &empties {
        let mut immediate: i64 = 0;
        for &theirs in &empties {
            if theirs != mine {
                let (lo, hi) = if mine < theirs { (mine, theirs) } else { (theirs, mine) };
                immediate += (lead[hi] - lead[lo + 1]).signum();
            }
        }
        // Scaled by the number of empty cells: expected points times `total`.
        let left = empty_before[mine];
        let right = total - 1 - left;
        let covered = if total > 2 { 2 * left * right / (total - 2) } else { 0 };
        let value = 2 * immediate + covered;
        if value > best_value {
            best_value = value;
            best.clear();
        }
        if value == best_value {
            best.push(mine);
        }
    }
    best
}

/// One of [`intervalo_greedy_set`], at random.
pub fn intervalo_greedy(strip: &str, rng: &mut GameRng) -> Option<usize> {
    let best = intervalo_greedy_set(strip);
    (!best.is_empty()).then(|| best[rng.random_range(0..best.len())])
}

/// The cells a policy would choose on a static strip.
type StripPolicy = fn(&str) -> Vec<usize>;

/// The policies an Intervalo opponent is compared with: `center` and
/// `greedy`, each as the set of cells it would choose on a strip.
const INTERVALO_MODELS: [(StripPolicy, crate::mcts::PlayoutPolicy); 2] = [
    (intervalo_center_set, |s, seat, rng| policy_move(s, seat, rng, intervalo_center_set)),
    (intervalo_greedy_set, |s, seat, rng| policy_move(s, seat, rng, intervalo_greedy_set)),
];

fn policy_move(
    state: &dyn tabula_model::DynState,
    seat: Seat,
    rng: &mut GameRng,
    set: fn(&str) -> Vec<usize>,
) -> Option<String> {
    let state = state.as_any().downcast_ref::<Intervalo>()?;
    let cells = set(&state.strip_for(seat));
    (!cells.is_empty()).then(|| (cells[rng.random_range(0..cells.len())] + 1).to_string())
}

/// A model of how the opponent of `seat` chooses, fitted to its revealed
/// moves: the known policy that predicted at least four fifths of its
/// choices, over at least two turns, if one did. Only resolved turns are
/// used, never a pending secret choice.
pub fn opponent_model(state: &dyn DynState, seat: Seat) -> Option<crate::mcts::PlayoutPolicy> {
    let state = state.as_any().downcast_ref::<Intervalo>()?;
    let other = 1 - seat.min(1);
    let turns = state.turns();
    if turns.len() < 2 {
        return None;
    }
    let mut strip: Vec<u8> = vec![b'.'; state.len()];
    let mut hits = [0usize; INTERVALO_MODELS.len()];
    for turn in turns {
        let seen = String::from_utf8_lossy(&strip).into_owned();
        let theirs = turn.choices[other] - 1;
        for (k, (set, _)) in INTERVALO_MODELS.iter().enumerate() {
            if set(&seen).contains(&theirs) {
                hits[k] += 1;
            }
        }
        let [a, b] = turn.choices;
        if a == b {
            strip[a - 1] = b'#';
        } else {
            // From the opponent's side: its own pieces are `x`.
            strip[a - 1] = if other == 0 { b'x' } else { b'o' };
            strip[b - 1] = if other == 1 { b'x' } else { b'o' };
        }
    }
    let (best, &count) = hits.iter().enumerate().max_by_key(|(k, c)| (**c, usize::MAX - k))?;
    (count * 5 >= turns.len() * 4).then(|| INTERVALO_MODELS[best].1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use tabula_model::Game;

    #[test]
    fn center_takes_the_middle_then_its_neighbours() {
        let mut rng = GameRng::seed_from_u64(1);
        assert_eq!(intervalo_center(".....", &mut rng), Some(2));
        assert_eq!(intervalo_center("..x..", &mut rng).map(|c| c == 1 || c == 3), Some(true));
        let even = intervalo_center("......", &mut rng).unwrap();
        assert!(even == 2 || even == 3);
        assert_eq!(intervalo_center("x#o", &mut rng), None);
    }

    #[test]
    fn center_sets() {
        assert_eq!(intervalo_center_set("......"), [2, 3]);
        assert_eq!(intervalo_center_set("..x#.."), [1, 4]);
        assert_eq!(intervalo_center_set("x#o"), Vec::<usize>::new());
    }

    #[test]
    fn greedy_plays_where_its_pieces_lead() {
        let mut rng = GameRng::seed_from_u64(1);
        // Cell 1 puts the three own pieces inside every interval but one.
        assert_eq!(intervalo_greedy(".xxx......", &mut rng), Some(0));
        // Cell 10 would put the opponent's pieces inside every interval.
        for _ in 0..20 {
            assert!(intervalo_greedy("......ooo.", &mut rng).unwrap() < 6);
        }
        assert_eq!(intervalo_greedy("xo#", &mut rng), None);
    }

    #[test]
    fn the_opponent_model_fits_a_centre_seeker_only() {
        use tabula_model::{Event, EventAction, GameKind, Options};
        let options = Options::parse(tabula_intervalo::KIND.info(), &["-cells=20"]).unwrap();
        let play = |cells: &[(&str, &str)]| {
            let mut game =
                Game::create(&tabula_intervalo::KIND, options.clone(), vec!["a".into(), "b".into()], 1, 0)
                    .unwrap();
            for (mine, theirs) in cells {
                for (seat, cell) in [(0, mine), (1, theirs)] {
                    let action = EventAction::Move(cell.to_string());
                    game.play(Event { at: 0, seat: Some(seat), action }).unwrap();
                }
            }
            game
        };
        // Seat 1 took 10, then 11, then 9: the cells nearest the centre.
        let centred = play(&[("1", "10"), ("20", "11"), ("2", "9")]);
        assert!(opponent_model(centred.state(), 0).is_some());
        // Seat 0 played the ends: nothing fits it.
        assert!(opponent_model(centred.state(), 1).is_none());
        // One turn is too little to judge.
        assert!(opponent_model(play(&[("1", "10")]).state(), 0).is_none());
    }

    #[test]
    fn the_typed_centre_agrees_with_the_strip_centre() {
        use tabula_model::{Event, EventAction, GameKind, Options};
        for cells in [2, 3, 4, 15, 16] {
            let option = format!("-cells={cells}");
            let options = Options::parse(tabula_intervalo::KIND.info(), &[option.as_str()]).unwrap();
            let mut game =
                Game::create(&tabula_intervalo::KIND, options, vec!["a".into(), "b".into()], 1, 0).unwrap();
            let mut rng = GameRng::seed_from_u64(9);
            while !game.is_over() {
                let state = game.state().as_any().downcast_ref::<Intervalo>().unwrap();
                for seed in 0..4 {
                    let typed = center_of_cells(state, &mut GameRng::seed_from_u64(seed));
                    let text = intervalo_center(&state.strip_for(0), &mut GameRng::seed_from_u64(seed));
                    assert_eq!(typed, text, "{cells} cells, strip {}", state.strip_for(0));
                }
                for seat in 0..2 {
                    let mv = game.state().random_move(seat, &mut rng).unwrap();
                    game.play(Event { at: 0, seat: Some(seat), action: EventAction::Move(mv) }).unwrap();
                }
            }
        }
    }
}
