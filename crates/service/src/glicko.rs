//! Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system",
//! 2013): a rating with its deviation (how sure it is) and volatility (how
//! much it moves), for the ladder of each game over its finished games.
//!
//! Each finished game is a rating period of its own for its players, in
//! the order the games finished: every player's result against every other
//! player of the game (win 1, draw 1/2, loss 0), against their ratings from
//! before the game, updates their rating at once. Players who did not play
//! keep theirs: a deviation shrinks with games played and does not grow
//! with time.

use serde::Serialize;
use tabula_model::SeatResult;

use crate::store::GameSummary;

/// The Glicko scale's factor to Glicko-2's internal one.
const SCALE: f64 = 173.7178;
/// The system constant: how much volatility may change (Glickman suggests
/// 0.3 to 1.2; 0.5 is his example's).
pub const TAU: f64 = 0.5;
/// A new player's rating.
pub const START_RATING: f64 = 1500.0;
/// A new player's deviation.
pub const START_DEVIATION: f64 = 350.0;
/// A new player's volatility.
pub const START_VOLATILITY: f64 = 0.06;
/// Convergence of the volatility's iteration.
const EPSILON: f64 = 0.000_001;

/// A player's Glicko-2 rating, on the Glicko scale (1500 is the start).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Rating {
    /// The rating.
    pub rating: f64,
    /// Its deviation (RD): the rating is within twice this of the truth
    /// with about 95 % confidence.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating { rating: START_RATING, deviation: START_DEVIATION, volatility: START_VOLATILITY }
    }
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// `player`'s rating after a period with `results`: each an opponent's
/// rating (from before the period) and the score against them (1, 0.5 or
/// 0). With no results only the deviation grows.
pub fn update(player: Rating, results: &[(Rating, f64)]) -> Rating {
    let mu = (player.rating - START_RATING) / SCALE;
    let phi = player.deviation / SCALE;
    let sigma = player.volatility;
    if results.is_empty() {
        let phi = (phi * phi + sigma * sigma).sqrt();
        return Rating { deviation: phi * SCALE, ..player };
    }
    let mut v_inverse = 0.0;
    let mut sum = 0.0;
    for (opponent, score) in results {
        let mu_j = (opponent.rating - START_RATING) / SCALE;
        let g_j = g(opponent.deviation / SCALE);
        let e = 1.0 / (1.0 + (-g_j * (mu - mu_j)).exp());
        v_inverse += g_j * g_j * e * (1.0 - e);
        sum += g_j * (score - e);
    }
    let v = 1.0 / v_inverse;
    let delta = v * sum;
    // The new volatility: the root of f by the Illinois algorithm.
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 && k < 1000.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    for _ in 0..1000 {
        if (big_b - big_a).abs() <= EPSILON {
            break;
        }
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    let sigma = (big_a / 2.0).exp();
    let phi_star = (phi * phi + sigma * sigma).sqrt();
    let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu = mu + phi * phi * sum;
    Rating { rating: SCALE * mu + START_RATING, deviation: SCALE * phi, volatility: sigma }
}

/// One player's place on a game's ladder.
#[derive(Clone, Debug, PartialEq, Serialize, utoipa::ToSchema)]
pub struct LadderRow {
    /// The player.
    pub user: String,
    /// The rating, its deviation and volatility.
    #[serde(flatten)]
    pub rating: Rating,
    /// Finished games played.
    pub games: u32,
    /// Of them won.
    pub won: u32,
    /// Lost.
    pub lost: u32,
    /// Drawn.
    pub drawn: u32,
}

/// The ladder over `finished` games (oldest first), best rating first
/// (ties: smaller deviation, then the name). A game without results for
/// its seats (cancelled) does not count.
pub fn ladder(finished: &[GameSummary]) -> Vec<LadderRow> {
    let mut rows: std::collections::HashMap<String, LadderRow> = std::collections::HashMap::new();
    for game in finished {
        let results: Vec<Option<SeatResult>> =
            (0..game.players.len()).map(|s| game.seat_results.get(s).copied().flatten()).collect();
        if results.iter().all(Option::is_none) {
            continue;
        }
        let score = |r: Option<SeatResult>| match r {
            Some(SeatResult::Win) => 2,
            Some(SeatResult::Draw) => 1,
            _ => 0,
        };
        let before: Vec<Rating> =
            game.players.iter().map(|p| rows.get(p).map_or_else(Rating::default, |r| r.rating)).collect();
        let mut after = Vec::with_capacity(game.players.len());
        for (i, _) in game.players.iter().enumerate() {
            let period: Vec<(Rating, f64)> = (0..game.players.len())
                .filter(|&j| j != i && game.players[j] != game.players[i])
                .map(|j| {
                    let (si, sj) = (score(results[i]), score(results[j]));
                    let s = match si.cmp(&sj) {
                        std::cmp::Ordering::Greater => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Less => 0.0,
                    };
                    (before[j], s)
                })
                .collect();
            after.push(update(before[i], &period));
        }
        for (i, player) in game.players.iter().enumerate() {
            let row = rows.entry(player.clone()).or_insert_with(|| LadderRow {
                user: player.clone(),
                rating: Rating::default(),
                games: 0,
                won: 0,
                lost: 0,
                drawn: 0,
            });
            row.rating = after[i];
            row.games += 1;
            match results[i] {
                Some(SeatResult::Win) => row.won += 1,
                Some(SeatResult::Draw) => row.drawn += 1,
                Some(SeatResult::Loss) => row.lost += 1,
                None => {}
            }
        }
    }
    let mut out: Vec<LadderRow> = rows.into_values().collect();
    out.sort_by(|a, b| {
        b.rating
            .rating
            .total_cmp(&a.rating.rating)
            .then(a.rating.deviation.total_cmp(&b.rating.deviation))
            .then(a.user.cmp(&b.user))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman's worked example: 1500 (RD 200) plays 1400 (30), 1550
    /// (100) and 1700 (300), winning the first and losing the others.
    #[test]
    fn the_papers_example_comes_out_as_published() {
        let player = Rating { rating: 1500.0, deviation: 200.0, volatility: 0.06 };
        let opponent = |rating, deviation| Rating { rating, deviation, volatility: 0.06 };
        let after = update(
            player,
            &[(opponent(1400.0, 30.0), 1.0), (opponent(1550.0, 100.0), 0.0), (opponent(1700.0, 300.0), 0.0)],
        );
        // The paper rounds every step to four places and prints 1464.06;
        // unrounded, the same steps give about 1464.05.
        assert!((after.rating - 1464.06).abs() < 0.015, "{after:?}");
        assert_eq!(format!("{:.2}", after.deviation), "151.52");
        // Printed 0.05999 (cut, not rounded); about 0.059996 unrounded.
        assert!((after.volatility - 0.05999).abs() < 0.00002, "{after:?}");
    }

    #[test]
    fn a_period_without_games_only_widens_the_deviation() {
        let player = Rating { rating: 1600.0, deviation: 50.0, volatility: 0.06 };
        let after = update(player, &[]);
        assert_eq!(after.rating, 1600.0);
        // sqrt(50^2 + (0.06 * 173.7178)^2)
        assert_eq!(format!("{:.2}", after.deviation), "51.07");
    }

    fn game(players: &[&str], results: &[SeatResult]) -> GameSummary {
        GameSummary {
            id: 1,
            kind: "dna".into(),
            players: players.iter().map(|p| p.to_string()).collect(),
            status: crate::store::GameStatus::Finished,
            moves: 1,
            to_move: Vec::new(),
            version: 1,
            updated: 0,
            result: None,
            seat_results: results.iter().map(|r| Some(*r)).collect(),
            next_clock: None,
        }
    }

    #[test]
    fn winners_rise_losers_fall_and_deviations_shrink() {
        use SeatResult::*;
        let games = vec![game(&["ann", "bob"], &[Win, Loss]), game(&["bob", "ann"], &[Loss, Win])];
        let l = ladder(&games);
        assert_eq!(l.iter().map(|r| r.user.as_str()).collect::<Vec<_>>(), ["ann", "bob"]);
        assert!(l[0].rating.rating > 1500.0 && l[1].rating.rating < 1500.0);
        assert!(l[0].rating.deviation < 350.0);
        assert_eq!((l[0].games, l[0].won, l[0].lost, l[1].lost), (2, 2, 0, 2));
        // Symmetric players end symmetric.
        assert!((l[0].rating.rating - 1500.0 - (1500.0 - l[1].rating.rating)).abs() < 1e-9);
    }
}
