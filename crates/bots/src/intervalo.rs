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
//! An equilibrium does not lose, but against a predictable opponent it
//! also wins less than it could: it never counts on the opponent's habits.
//! So the bot also models its opponent from the turns played so far (what
//! any player of the game is shown): a conditional logit over features of
//! each empty cell as the opponent sees it (its own pieces and the bot's
//! next to the cell, the blocks beside it, how central it is, the run of
//! empty cells it lies in, the one-turn heuristic's value). The model is
//! scored on each turn before it was fitted to that turn (a prequential
//! score, against the uniform guess), and trusted as far as that score
//! shows it predicts: against an opponent it reads well, the bot answers
//! the predicted choice (a best response to the model mixed with the
//! equilibrium); against one it cannot read, it keeps to the equilibrium.
//! The best response looks one turn further: a cell is also worth the best
//! point it makes possible next turn against the model, once the opponent
//! has played its likeliest cell now. Points are rare between careful
//! players (most games end 1-0 or 0-0), so the turn that sets up an
//! interval the opponent will walk into is what turns draws into wins:
//! against the block-building heuristic (next to its own pieces, pulled to
//! the centre) the look-ahead took the bot from 14-4-12 to 30-0-0 in a
//! 30-game check. The scores are never used.

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
/// neutral, `.` empty) after the resolved turns `history` (each the bot's
/// cell and the opponent's, 1-based, as the game records them); `None` when
/// no cell is empty.
pub fn choose(strip: &str, history: &[[usize; 2]], rng: &mut GameRng) -> Option<usize> {
    let cells = read(strip);
    let empties: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] == Cell::Empty).collect();
    let m = empties.len();
    match m {
        0 => return None,
        1 => return Some(empties[0]),
        _ => {}
    }
    let matrix = payoffs(&cells, &empties);
    let (mine, theirs) = solve(&matrix, m, ITERATIONS);
    let (model, trust) = opponent_model(cells.len(), history);
    if trust <= 0.0 {
        return Some(empties[draw(&mine, rng)]);
    }
    // The opponent as expected: the model where it has earned trust, the
    // equilibrium elsewhere; the bot answers with the best reply to that
    // as often as the model is trusted.
    let features = cell_features(&cells, &empties, Side::Theirs);
    let predicted = model.probabilities(&features);
    let expected: Vec<f64> = (0..m).map(|b| trust * predicted[b] + (1.0 - trust) * theirs[b]).collect();
    let likely = (0..m).max_by(|&a, &b| predicted[a].total_cmp(&predicted[b])).unwrap_or(0);
    let value = |a: usize| {
        let now = (0..m).map(|b| matrix[a * m + b] * expected[b]).sum::<f64>();
        if a == likely || m < 4 {
            return now;
        }
        // What the choice prepares: the best point of the next turn against
        // the model, the opponent having played its likeliest cell now.
        let mut next = cells.to_vec();
        next[empties[a]] = Cell::Mine;
        next[empties[likely]] = Cell::Theirs;
        now + trust * best_next_point(&model, &next)
    };
    let best = (0..m).max_by(|&a, &b| value(a).total_cmp(&value(b))).unwrap_or(0);
    if rng.random::<f64>() < trust { Some(empties[best]) } else { Some(empties[draw(&mine, rng)]) }
}

/// The best expected point of the next turn on `cells` against the
/// opponent `model`.
fn best_next_point(model: &Model, cells: &[Cell]) -> f64 {
    let empties: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] == Cell::Empty).collect();
    if empties.len() < 2 {
        return 0.0;
    }
    let p = model.probabilities(&cell_features(cells, &empties, Side::Theirs));
    let lead = lead_prefix(cells);
    empties
        .iter()
        .map(|&a| {
            empties
                .iter()
                .zip(&p)
                .filter(|&(&b, _)| b != a)
                .map(|(&b, &pb)| {
                    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                    pb * f64::from((lead[hi] - lead[lo + 1]).signum())
                })
                .sum::<f64>()
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

/// `lead[i]`: the bot's pieces less the opponent's among cells `0..i`, so the
/// lead between two cells is a difference of two entries.
fn lead_prefix(cells: &[Cell]) -> Vec<i32> {
    let mut lead = vec![0i32; cells.len() + 1];
    for (i, c) in cells.iter().enumerate() {
        lead[i + 1] = lead[i]
            + match c {
                Cell::Mine => 1,
                Cell::Theirs => -1,
                _ => 0,
            };
    }
    lead
}

/// The turn's payoff for the bot, `m * a + b` for its choice `a` and the
/// opponent's `b` (indices into `empties`).
fn payoffs(cells: &[Cell], empties: &[usize]) -> Vec<f64> {
    let m = empties.len();
    let lead = lead_prefix(cells);
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
/// payoffs, `m` by `m`): both players' average strategies, each iteration
/// weighted by its number.
fn solve(matrix: &[f64], m: usize, iterations: usize) -> (Vec<f64>, Vec<f64>) {
    let mut regret_row = vec![0.0; m];
    let mut regret_col = vec![0.0; m];
    let mut average = vec![0.0; m];
    let mut average_col = vec![0.0; m];
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
            average_col[a] += t as f64 * col[a];
        }
    }
    for strategy in [&mut average, &mut average_col] {
        let total: f64 = strategy.iter().sum();
        strategy.iter_mut().for_each(|p| *p /= total);
    }
    (average, average_col)
}

/// Whose cells the features describe: the opponent's choices are modelled
/// on the strip as the opponent sees it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Theirs,
}

/// Features of each empty cell as the opponent sees the strip.
const FEATURES: usize = 11;
/// Gradient steps of one fit of the opponent model.
const FIT_STEPS: usize = 60;
/// The step size of the fit.
const FIT_RATE: f64 = 0.5;
/// L2 penalty of the fit: keeps the weights finite against an opponent
/// that the features separate perfectly.
const FIT_PENALTY: f64 = 0.02;
/// Turns scored before the model is trusted at all.
const MIN_SCORED_TURNS: usize = 3;
/// The prequential gain (nats a turn over the uniform guess) at which the
/// model is trusted fully; below `TRUST_FROM` not at all.
const TRUST_FULL: f64 = 1.5;
const TRUST_FROM: f64 = 0.3;

/// A conditional logit model of the opponent's choice.
struct Model {
    weights: [f64; FEATURES],
}

impl Model {
    fn probabilities(&self, features: &[[f64; FEATURES]]) -> Vec<f64> {
        let scores: Vec<f64> =
            features.iter().map(|f| f.iter().zip(&self.weights).map(|(x, w)| x * w).sum()).collect();
        let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let exp: Vec<f64> = scores.iter().map(|s| (s - top).exp()).collect();
        let total: f64 = exp.iter().sum();
        exp.iter().map(|e| e / total).collect()
    }

    /// Gradient steps on the penalised log-likelihood of `turns` (each the
    /// features of the empty cells and the index chosen).
    fn fit(&mut self, turns: &[(Vec<[f64; FEATURES]>, usize)]) {
        if turns.is_empty() {
            return;
        }
        for _ in 0..FIT_STEPS {
            let mut gradient = [0.0; FEATURES];
            for (features, chosen) in turns {
                let p = self.probabilities(features);
                for (k, g) in gradient.iter_mut().enumerate() {
                    let expected: f64 = features.iter().zip(&p).map(|(f, p)| f[k] * p).sum();
                    *g += features[*chosen][k] - expected;
                }
            }
            for (w, g) in self.weights.iter_mut().zip(gradient) {
                *w += FIT_RATE * (g / turns.len() as f64 - FIT_PENALTY * *w);
            }
        }
    }
}

/// The opponent model fitted to `history` on a strip of `n` cells, and how
/// far to trust it (0 to 1): by its prequential score, each turn predicted
/// by the model fitted to the turns before it.
fn opponent_model(n: usize, history: &[[usize; 2]]) -> (Model, f64) {
    let mut cells = vec![Cell::Empty; n];
    let mut turns: Vec<(Vec<[f64; FEATURES]>, usize)> = Vec::new();
    let mut model = Model { weights: [0.0; FEATURES] };
    let mut gain = 0.0;
    let mut scored = 0;
    for &[mine, theirs] in history {
        let (mine, theirs) = (mine.wrapping_sub(1), theirs.wrapping_sub(1));
        if mine >= n || theirs >= n {
            break;
        }
        let empties: Vec<usize> = (0..n).filter(|&i| cells[i] == Cell::Empty).collect();
        let Some(chosen) = empties.iter().position(|&c| c == theirs) else { break };
        let features = cell_features(&cells, &empties, Side::Theirs);
        if !turns.is_empty() && empties.len() > 1 {
            let p = model.probabilities(&features);
            gain += p[chosen].max(1e-9).ln() + (empties.len() as f64).ln();
            scored += 1;
        }
        turns.push((features, chosen));
        model.fit(&turns);
        if mine == theirs {
            cells[mine] = Cell::Neutral;
        } else {
            cells[mine] = Cell::Mine;
            cells[theirs] = Cell::Theirs;
        }
    }
    if scored < MIN_SCORED_TURNS {
        return (model, 0.0);
    }
    let trust = ((gain / scored as f64 - TRUST_FROM) / (TRUST_FULL - TRUST_FROM)).clamp(0.0, 1.0);
    (model, trust)
}

/// The features of each cell of `empties` on `cells`, as the player of
/// `side` sees the strip ("own" pieces are that player's).
fn cell_features(cells: &[Cell], empties: &[usize], side: Side) -> Vec<[f64; FEATURES]> {
    let n = cells.len();
    let (own, other) = match side {
        Side::Theirs => (Cell::Theirs, Cell::Mine),
    };
    let is = |i: isize, kind: Cell| i >= 0 && (i as usize) < n && cells[i as usize] == kind;
    let block = |c: usize, kind: Cell, step: isize| {
        let mut size: f64 = 0.0;
        let mut j = c as isize + step;
        while is(j, kind) {
            size += 1.0;
            j += step;
        }
        size
    };
    let values = greedy_values(cells, own);
    let top = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let spread = values.iter().map(|v| (top - v).abs()).fold(0.0, f64::max).max(1e-9);
    let nearest_centre = empties.iter().map(|&c| (2 * c + 1).abs_diff(n)).min().unwrap_or(0);
    empties
        .iter()
        .zip(&values)
        .map(|(&c, &value)| {
            let i = c as isize;
            let count =
                |kind: Cell, d: isize| f64::from(u8::from(is(i - d, kind)) + u8::from(is(i + d, kind)));
            // The run of empty cells around c.
            let (mut lo, mut hi) = (c, c);
            while lo > 0 && cells[lo - 1] == Cell::Empty {
                lo -= 1;
            }
            while hi + 1 < n && cells[hi + 1] == Cell::Empty {
                hi += 1;
            }
            let run = (hi - lo + 1) as f64;
            let off_middle = (2 * c).abs_diff(lo + hi) as f64 / run;
            let centre_distance = (2 * c + 1).abs_diff(n);
            [
                count(own, 1),
                count(own, 2),
                count(other, 1),
                count(other, 2),
                block(c, other, -1).max(block(c, other, 1)) / 4.0,
                block(c, own, -1).max(block(c, own, 1)) / 4.0,
                1.0 - centre_distance as f64 / n as f64,
                f64::from(u8::from(centre_distance == nearest_centre)),
                run / n as f64,
                1.0 - off_middle,
                1.0 - (top - value) / spread,
            ]
        })
        .collect()
}

/// The one-turn heuristic's value of each empty cell for the player whose
/// pieces are `own` (as `greedy` weighs them: the expected point against a
/// uniformly random choice, plus how often later intervals cover the cell).
fn greedy_values(cells: &[Cell], own: Cell) -> Vec<f64> {
    let n = cells.len();
    let mut lead = vec![0i64; n + 1];
    let mut empty_before = vec![0i64; n + 1];
    for (i, c) in cells.iter().enumerate() {
        lead[i + 1] = lead[i]
            + match *c {
                Cell::Empty | Cell::Neutral => 0,
                c if c == own => 1,
                _ => -1,
            };
        empty_before[i + 1] = empty_before[i] + i64::from(*c == Cell::Empty);
    }
    let empties: Vec<usize> = (0..n).filter(|&i| cells[i] == Cell::Empty).collect();
    let total = empties.len() as i64;
    empties
        .iter()
        .map(|&mine| {
            let immediate: i64 = empties
                .iter()
                .filter(|&&t| t != mine)
                .map(|&t| {
                    let (lo, hi) = if mine < t { (mine, t) } else { (t, mine) };
                    (lead[hi] - lead[lo + 1]).signum()
                })
                .sum();
            let left = empty_before[mine];
            let right = total - 1 - left;
            let covered = if total > 2 { 2 * left * right / (total - 2) } else { 0 };
            (2 * immediate + covered) as f64
        })
        .collect()
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
        let (strategy, theirs) = solve(&matrix, 2, 2000);
        assert!((strategy[0] - 0.5).abs() < 0.02, "{strategy:?}");
        assert!((theirs[0] - 0.5).abs() < 0.02, "{theirs:?}");
    }

    #[test]
    fn a_dominant_choice_is_taken() {
        // Row 1 is better whatever the column.
        let matrix = [0.0, 0.0, 1.0, 1.0];
        let (strategy, _) = solve(&matrix, 2, 500);
        assert!(strategy[1] > 0.99, "{strategy:?}");
    }

    #[test]
    fn only_empty_cells_are_chosen() {
        let mut rng = GameRng::seed_from_u64(3);
        for _ in 0..50 {
            let cell = choose("x.o#..x.oo", &[], &mut rng).unwrap();
            assert_eq!(b"x.o#..x.oo"[cell], b'.');
        }
        assert_eq!(choose("xo#.", &[], &mut rng), Some(3));
        assert_eq!(choose("xo#", &[], &mut rng), None);
    }

    #[test]
    fn a_predictable_opponent_is_read_and_a_random_one_is_not() {
        // The opponent always takes the empty cell nearest the centre.
        let n = 20;
        let mut cells = vec![Cell::Empty; n];
        let mut history = Vec::new();
        let mut rng = GameRng::seed_from_u64(5);
        for turn in 0..8 {
            let empties: Vec<usize> = (0..n).filter(|&i| cells[i] == Cell::Empty).collect();
            let theirs = *empties.iter().min_by_key(|&&c| ((2 * c + 1).abs_diff(n), c)).unwrap();
            let mine = empties[(turn * 7) % empties.len()];
            let mine = if mine == theirs { empties[0] } else { mine };
            history.push([mine + 1, theirs + 1]);
            cells[mine] = Cell::Mine;
            cells[theirs] = Cell::Theirs;
        }
        let (model, trust) = opponent_model(n, &history);
        assert!(trust > 0.9, "trust {trust}");
        let empties: Vec<usize> = (0..n).filter(|&i| cells[i] == Cell::Empty).collect();
        let p = model.probabilities(&cell_features(&cells, &empties, Side::Theirs));
        let predicted = empties[(0..p.len()).max_by(|&a, &b| p[a].total_cmp(&p[b])).unwrap()];
        let centre = *empties.iter().min_by_key(|&&c| ((2 * c + 1).abs_diff(n), c)).unwrap();
        assert!(predicted.abs_diff(centre) <= 1, "predicted {predicted}, the centre's choice {centre}");
        // An opponent choosing at random earns no trust.
        let mut cells = vec![Cell::Empty; n];
        let mut history = Vec::new();
        for _ in 0..8 {
            let empties: Vec<usize> = (0..n).filter(|&i| cells[i] == Cell::Empty).collect();
            let theirs = empties[rng.random_range(0..empties.len())];
            let mine = *empties.iter().find(|&&c| c != theirs).unwrap();
            history.push([mine + 1, theirs + 1]);
            cells[mine] = Cell::Mine;
            cells[theirs] = Cell::Theirs;
        }
        assert!(opponent_model(n, &history).1 < 0.5);
    }
}
