//! Rewrite's hook for bots: how good a position is for a seat.

use tabula_model::Seat;

use crate::Rewrite;

/// The hits of the seat's own goal in the current table (0 before it has
/// chosen one).
pub(crate) fn evaluate(rewrite: &Rewrite, seat: Seat) -> f64 {
    rewrite.goal(seat).map_or(0.0, |goal| goal.hits(rewrite.table().as_bytes(), |_| true).0 as f64)
}
