//! Cheap per-game heuristics (`greedy`, and Intervalo's `center`). They
//! read only what their seat may see.

use rand::Rng;
use tabula_intervalo::Intervalo;
use tabula_model::{Game, GameRng, Seat};

/// Whether `kind` (a game's command word) has a `greedy` heuristic.
pub fn has_greedy(kind: &str) -> bool {
    matches!(kind, "intervalo")
}

/// The game's heuristic move for `seat`, or `None` where the game has none.
pub fn greedy(game: &Game, seat: Seat, rng: &mut GameRng) -> Option<String> {
    let any = game.state().as_any();
    if let Some(state) = any.downcast_ref::<Intervalo>() {
        return intervalo_greedy(&state.strip_for(seat), rng).map(|c| (c + 1).to_string());
    }
    None
}

/// The heuristic MCTS playouts follow for a game, if any.
pub fn playout_policy(kind: &str) -> Option<crate::mcts::PlayoutPolicy> {
    match kind {
        "intervalo" => Some(intervalo_playout),
        _ => None,
    }
}

fn intervalo_playout(state: &dyn tabula_model::DynState, seat: Seat, rng: &mut GameRng) -> Option<String> {
    let state = state.as_any().downcast_ref::<Intervalo>()?;
    intervalo_center(&state.strip_for(seat), rng).map(|c| (c + 1).to_string())
}

/// Intervalo: the empty cell nearest the centre of the strip.
pub fn center(game: &Game, seat: Seat, rng: &mut GameRng) -> Option<String> {
    let state = game.state().as_any().downcast_ref::<Intervalo>()?;
    intervalo_center(&state.strip_for(seat), rng).map(|c| (c + 1).to_string())
}

/// The empty cell (0-based) of a static strip nearest its centre; ties at
/// equal distance are broken at random.
pub fn intervalo_center(strip: &str, rng: &mut GameRng) -> Option<usize> {
    let cells = strip.as_bytes();
    let n = cells.len();
    // Twice the distance from the centre, to stay in whole numbers.
    let distance = |i: usize| (2 * i + 1).abs_diff(n);
    let best = (0..n).filter(|&i| cells[i] == b'.').map(distance).min()?;
    let ties: Vec<usize> = (0..n).filter(|&i| cells[i] == b'.' && distance(i) == best).collect();
    Some(ties[rng.random_range(0..ties.len())])
}

/// The empty cell (0-based) of a static strip (`x` own, `o` the
/// opponent's) with the best expected points against an opponent choosing
/// any empty cell with equal chance: for each pair of cells, whoever has
/// more pieces strictly between them would score. Ties are broken at random.
pub fn intervalo_greedy(strip: &str, rng: &mut GameRng) -> Option<usize> {
    let cells = strip.as_bytes();
    let n = cells.len();
    // Prefix counts: mine[i] - theirs[i] is the lead over cells 0..i.
    let mut lead = vec![0i32; n + 1];
    for (i, &c) in cells.iter().enumerate() {
        lead[i + 1] = lead[i]
            + match c {
                b'x' => 1,
                b'o' => -1,
                _ => 0,
            };
    }
    let empties: Vec<usize> = (0..n).filter(|&i| cells[i] == b'.').collect();
    let mut best: Vec<usize> = Vec::new();
    let mut best_value = i64::MIN;
    for &mine in &empties {
        let mut value: i64 = 0;
        for &theirs in &empties {
            if theirs == mine {
                continue;
            }
            let (lo, hi) = if mine < theirs { (mine, theirs) } else { (theirs, mine) };
            value += i64::from((lead[hi] - lead[lo + 1]).signum());
        }
        if value > best_value {
            best_value = value;
            best.clear();
        }
        if value == best_value {
            best.push(mine);
        }
    }
    if best.is_empty() {
        return None;
    }
    Some(best[rng.random_range(0..best.len())])
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

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
}
