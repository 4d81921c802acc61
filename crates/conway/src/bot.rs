//! Conway's hook for bots: how good a position is for a seat.

use tabula_model::Seat;

use crate::Conway;

/// Own pieces against the most numerous opponent's.
pub(crate) fn evaluate(conway: &Conway, seat: Seat) -> f64 {
    let most_other = (0..8).filter(|&s| s != seat).map(|s| conway.pieces(s)).max().unwrap_or(0);
    conway.pieces(seat) as f64 - most_other as f64
}
