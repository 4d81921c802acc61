//! Statistics of tournament results: confidence intervals and ratings.

/// The Wilson score interval at 95% for `wins` successes in `games`
/// trials: `[low, high]` as fractions. `[0, 1]` when there are no games.
pub fn wilson95(wins: u64, games: u64) -> [f64; 2] {
    if games == 0 {
        return [0.0, 1.0];
    }
    const Z: f64 = 1.959_963_984_540_054;
    let n = games as f64;
    let p = wins as f64 / n;
    let z2 = Z * Z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// Bradley-Terry strengths fitted by Hunter's minorise-maximise iterations
/// on a matrix of pairwise scores: `score[i][j]` is what `i` scored against
/// `j` (1 per win, 1/2 per draw). Every pair that met gets one extra drawn
/// game as a prior, so a bot that won everything still has a finite rating.
/// Returned on the Elo scale: `400 log10(strength)`, centred on 1500.
pub fn bradley_terry(score: &[Vec<f64>]) -> Vec<f64> {
    let n = score.len();
    if n == 0 {
        return Vec::new();
    }
    let games = |i: usize, j: usize| score[i][j] + score[j][i];
    let prior = |i: usize, j: usize| if games(i, j) > 0.0 { 0.5 } else { 0.0 };
    let mut strength = vec![1.0f64; n];
    for _ in 0..10_000 {
        let mut next = vec![0.0; n];
        let mut change: f64 = 0.0;
        for i in 0..n {
            let won: f64 = (0..n).filter(|&j| j != i).map(|j| score[i][j] + prior(i, j)).sum();
            let denominator: f64 = (0..n)
                .filter(|&j| j != i)
                .map(|j| (games(i, j) + 2.0 * prior(i, j)) / (strength[i] + strength[j]))
                .sum();
            next[i] = if denominator > 0.0 && won > 0.0 { won / denominator } else { strength[i] };
        }
        // Fix the scale: geometric mean 1.
        let mean_log = next.iter().map(|s| s.ln()).sum::<f64>() / n as f64;
        for i in 0..n {
            next[i] /= mean_log.exp();
            change = change.max((next[i] - strength[i]).abs());
        }
        strength = next;
        if change < 1e-10 {
            break;
        }
    }
    strength.iter().map(|s| 1500.0 + 400.0 * s.log10()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_known_values() {
        let [lo, hi] = wilson95(80, 100);
        assert!((lo - 0.7112).abs() < 1e-3 && (hi - 0.8666).abs() < 1e-3, "{lo} {hi}");
        assert_eq!(wilson95(0, 0), [0.0, 1.0]);
        let [lo, hi] = wilson95(0, 10);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-3);
    }

    #[test]
    fn bradley_terry_orders_and_scales() {
        // A beats B 3 to 1, B beats C 3 to 1, A beats C 3 to 1.
        let score = vec![vec![0.0, 3.0, 3.0], vec![1.0, 0.0, 3.0], vec![1.0, 1.0, 0.0]];
        let r = bradley_terry(&score);
        assert!(r[0] > r[1] && r[1] > r[2], "{r:?}");
        assert!(((r[0] + r[1] + r[2]) / 3.0 - 1500.0).abs() < 1e-6);
        // Equal results give equal ratings; a clean sweep stays finite.
        let even = bradley_terry(&[vec![0.0, 5.0], vec![5.0, 0.0]]);
        assert!((even[0] - even[1]).abs() < 1e-9);
        let sweep = bradley_terry(&[vec![0.0, 100.0], vec![0.0, 0.0]]);
        assert!(sweep[0].is_finite() && sweep[0] - sweep[1] > 500.0, "{sweep:?}");
    }
}
