//! Intervalo's `nash` bot: each turn's secret, simultaneous choice as a
//! zero-sum matrix game, solved approximately by regret matching and played
//! as the mixed strategy it finds.
//!
//! Both players choose one empty cell. For every pair of choices the turn's
//! outcome is known exactly (the point, and the strip it leaves), and the
//! strip left is valued by how the pieces lie for the turns to come: the
//! average result of an interval between two of its empty cells, chosen at
//! random, times the turns left, weighted. That gives the matrix of the
//! turn's game; regret matching (CFR+, with linear averaging) finds a mixed
//! strategy near its equilibrium, and the bot draws its cell from it. A bot
//! that plays a mixed strategy cannot be read and beaten the way a
//! deterministic one can: whatever an opponent does, it does not do worse
//! than the equilibrium's value, and it gains from every mistake.
//!
//! Only the strip is used (the static view): no history, no scores.

use rand::Rng;
use tabula_model::GameRng;

/// Regret-matching iterations per move.
const ITERATIONS: usize = 600;
/// The weight of the strip's value for the turns to come against the
/// turn's own point.
const FUTURE_WEIGHT: f64 = 0.3;
/// Probabilities below this share of the largest are dropped before the
/// draw (what is left of an equilibrium's noise after finitely many
/// iterations).
const PURIFY: f64 = 0.05;

/// A cell of the strip from the bot's side.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cell {
    Empty,
    Mine,
    Theirs,
    Neutral,
}

fn read(strip: &str) -> Vec<Cell> {
    strip
        .bytes()
        .map(|b| match b {
            b'x' => Cell::Mine,
            b'o' => Cell::Theirs,
            b'#' => Cell::Neutral,
            _ => Cell::Empty,
        })
        .collect()
}

/// The cell (0-based) to play on `strip` (`x` own, `o` the opponent's, `#`
/// neutral, `.` empty), drawn from the turn's equilibrium; `None` when no
/// cell is empty.
pub fn choose(strip: &str, rng: &mut GameRng) -> Option<usize> {
    let cells = read(strip);
    let empties: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] == Cell::Empty).collect();
    match empties.len() {
        0 => return None,
        1 => return Some(empties[0]),
        _ => {}
    }
    let matrix = payoffs(&cells, &empties);
    let strategy = solve(&matrix, empties.len(), ITERATIONS);
    Some(empties[draw(&strategy, rng)])
}

/// The turn's payoff for the bot, `m * a + b` for its choice `a` and the
/// opponent's `b` (indices into `empties`).
fn payoffs(cells: &[Cell], empties: &[usize]) -> Vec<f64> {
    let m = empties.len();
    // lead[i]: own pieces less the opponent's among cells 0..i.
    let mut lead = vec![0i32; cells.len() + 1];
    for (i, c) in cells.iter().enumerate() {
        lead[i + 1] = lead[i]
            + match c {
                Cell::Mine => 1,
                Cell::Theirs => -1,
                _ => 0,
            };
    }
    // between[i * m + j] (i < j): the lead strictly between empties i and j.
    let mut between = vec![0i32; m * m];
    for i in 0..m {
        for j in i + 1..m {
            between[i * m + j] = lead[empties[j]] - lead[empties[i] + 1];
        }
    }
    // Turns left after this one, about: each fills one or two cells.
    let turns_after = (m as f64 - 2.0).max(0.0) / 2.0;
    let pairs_after = ((m.saturating_sub(2)) * (m.saturating_sub(3)) / 2).max(1) as f64;
    let mut matrix = vec![0.0; m * m];
    for a in 0..m {
        for b in 0..m {
            if a == b {
                // A neutral piece: nothing counts differently after, but an
                // empty cell fewer. Valued as the strip without it.
                let value = future(&between, m, a, a, 0, 0);
                let pairs = ((m - 1) * (m - 2) / 2).max(1) as f64;
                matrix[a * m + b] = FUTURE_WEIGHT * (m as f64 - 1.0) / 2.0 * value / pairs;
                continue;
            }
            let (lo, hi) = if a < b { (a, b) } else { (b, a) };
            let point = f64::from(between[lo * m + hi].signum());
            let value = future(&between, m, a, b, 1, -1);
            matrix[a * m + b] = point + FUTURE_WEIGHT * turns_after * value / pairs_after;
        }
    }
    matrix
}

/// The sum of interval results over the pairs of empties left once `a`
/// holds `da` and `b` holds `db` (each counted in the intervals strictly
/// around it).
fn future(between: &[i32], m: usize, a: usize, b: usize, da: i32, db: i32) -> f64 {
    let mut sum = 0i32;
    for i in 0..m {
        if i == a || i == b {
            continue;
        }
        for j in i + 1..m {
            if j == a || j == b {
                continue;
            }
            let mut lead = between[i * m + j];
            if i < a && a < j {
                lead += da;
            }
            if i < b && b < j {
                lead += db;
            }
            sum += lead.signum();
        }
    }
    f64::from(sum)
}

/// Regret matching+ on the zero-sum game `matrix` (the row player's
/// payoffs, `m` by `m`): the row player's average strategy, each iteration
/// weighted by its number.
fn solve(matrix: &[f64], m: usize, iterations: usize) -> Vec<f64> {
    let mut regret_row = vec![0.0; m];
    let mut regret_col = vec![0.0; m];
    let mut average = vec![0.0; m];
    let mut row = vec![1.0 / m as f64; m];
    let mut col = vec![1.0 / m as f64; m];
    let mut value_row = vec![0.0; m];
    let mut value_col = vec![0.0; m];
    for t in 1..=iterations {
        strategy_of(&regret_row, &mut row);
        strategy_of(&regret_col, &mut col);
        for a in 0..m {
            value_row[a] = (0..m).map(|b| matrix[a * m + b] * col[b]).sum();
        }
        for (b, v) in value_col.iter_mut().enumerate() {
            *v = -(0..m).map(|a| matrix[a * m + b] * row[a]).sum::<f64>();
        }
        let expected_row: f64 = (0..m).map(|a| row[a] * value_row[a]).sum();
        let expected_col: f64 = (0..m).map(|b| col[b] * value_col[b]).sum();
        for a in 0..m {
            regret_row[a] = (regret_row[a] + value_row[a] - expected_row).max(0.0);
            regret_col[a] = (regret_col[a] + value_col[a] - expected_col).max(0.0);
            average[a] += t as f64 * row[a];
        }
    }
    let total: f64 = average.iter().sum();
    average.iter_mut().for_each(|p| *p /= total);
    average
}

/// The strategy in proportion to the positive regrets (uniform when none is).
fn strategy_of(regret: &[f64], out: &mut [f64]) {
    let total: f64 = regret.iter().sum();
    if total <= 0.0 {
        out.iter_mut().for_each(|p| *p = 1.0 / regret.len() as f64);
    } else {
        out.iter_mut().zip(regret).for_each(|(p, r)| *p = r / total);
    }
}

/// An index drawn from `strategy`, after dropping the shares below
/// [`PURIFY`] of the largest.
fn draw(strategy: &[f64], rng: &mut GameRng) -> usize {
    let top = strategy.iter().copied().fold(0.0, f64::max);
    let kept: Vec<f64> = strategy.iter().map(|&p| if p >= PURIFY * top { p } else { 0.0 }).collect();
    let total: f64 = kept.iter().sum();
    let mut x = rng.random::<f64>() * total;
    for (i, &p) in kept.iter().enumerate() {
        if x < p {
            return i;
        }
        x -= p;
    }
    kept.iter().rposition(|&p| p > 0.0).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn a_matching_pennies_game_is_mixed_evenly() {
        // Heads-tails: the row player wins on a match.
        let matrix = [1.0, -1.0, -1.0, 1.0];
        let strategy = solve(&matrix, 2, 2000);
        assert!((strategy[0] - 0.5).abs() < 0.02, "{strategy:?}");
    }

    #[test]
    fn a_dominant_choice_is_taken() {
        // Row 1 is better whatever the column.
        let matrix = [0.0, 0.0, 1.0, 1.0];
        let strategy = solve(&matrix, 2, 500);
        assert!(strategy[1] > 0.99, "{strategy:?}");
    }

    #[test]
    fn only_empty_cells_are_chosen() {
        let mut rng = GameRng::seed_from_u64(3);
        for _ in 0..50 {
            let cell = choose("x.o#..x.oo", &mut rng).unwrap();
            assert_eq!(b"x.o#..x.oo"[cell], b'.');
        }
        assert_eq!(choose("xo#.", &mut rng), Some(3));
        assert_eq!(choose("xo#", &mut rng), None);
    }
}
