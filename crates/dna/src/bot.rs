//! DNA's hooks for bots: how good a position is for a seat, and the quick
//! nomination search bots follow in their playouts.

use rand::Rng;
use tabula_model::{GameRng, Rules, Seat};

use crate::{Dna, DnaMove, Standing};

/// The own sequence's length against the longest other still in, plus 20
/// for every opponent already out: the nomination that hurts opponents
/// most and self least scores best.
pub(crate) fn evaluate(dna: &Dna, seat: Seat) -> f64 {
    let length = |s: Seat| dna.sequence(s).map_or(0, <[u8]>::len) as f64;
    let seats = 0..dna.players().len();
    let longest_other = seats
        .clone()
        .filter(|&s| s != seat && dna.standing(s) == Standing::In)
        .map(length)
        .fold(0.0, f64::max);
    let out = seats.filter(|&s| s != seat && dna.standing(s) == Standing::Out).count();
    length(seat) - longest_other + 20.0 * out as f64
}

/// The nomination that removes the most from the others and the least
/// (counted twice) from the mover, by the counts the game itself reports,
/// without looking ahead; ties broken at random.
pub(crate) fn playout(dna: &Dna, seat: Seat, rng: &mut GameRng) -> Option<DnaMove> {
    let mut best: Vec<String> = Vec::new();
    let mut best_value = i64::MIN;
    for nomination in dna.nominations(seat) {
        let value: i64 = nomination
            .removed
            .iter()
            .enumerate()
            .map(|(s, r)| {
                let r = r.unwrap_or(0) as i64;
                if s == seat { -2 * r } else { r }
            })
            .sum();
        if value > best_value {
            best_value = value;
            best.clear();
        }
        if value == best_value {
            best.push(nomination.chunk);
        }
    }
    if best.is_empty() {
        return None;
    }
    let chunk = best.swap_remove(rng.random_range(0..best.len()));
    dna.parse_move(seat, &chunk).ok()
}
