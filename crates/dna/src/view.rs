//! What one viewer may see of a game: the only thing the renderers, the API
//! and bots receive.

use serde::Serialize;
use tabula_model::Seat;

use crate::rules::Standing;

/// A game of DNA as one viewer sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DnaView {
    /// One entry per player, in turn order.
    pub players: Vec<PlayerView>,
    /// A `-manual` set-up is going on; others' sequences are hidden.
    pub setting_up: bool,
    /// The game is over.
    pub over: bool,
    /// The first-round limits are in force.
    pub first_round: bool,
    /// The letters in use.
    pub alphabet: String,
    /// Smallest chunk size.
    pub min_chunk: usize,
    /// Largest chunk size.
    pub max_chunk: usize,
    /// The last nomination and where it removed letters.
    pub last: Option<LastNomination>,
    /// Players who had to pass before the first nomination, when the game
    /// was created (no move-list line carries these).
    pub opening_passes: Vec<String>,
}

/// One player's line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerView {
    /// User id.
    pub name: String,
    /// In, out or resigned.
    pub standing: Standing,
    /// Length of the sequence, if it is set (public even while hidden).
    pub length: Option<usize>,
    /// The sequence, if set and visible to this viewer.
    pub sequence: Option<String>,
    /// Whether this player owes a move now.
    pub to_move: bool,
}

/// The last nomination: who made it, and what it removed where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LastNomination {
    /// Who nominated.
    pub seat: Seat,
    /// The chunk.
    pub chunk: String,
    /// Chunks removed from each seat's sequence; `None` for sequences the
    /// nomination did not reduce.
    pub removed: Vec<Option<usize>>,
    /// Each reduced sequence as it was before the nomination.
    pub before: Vec<Option<String>>,
    /// Positions (0-based, into `before`) of the letters removed per seat.
    pub positions: Vec<Vec<usize>>,
}
