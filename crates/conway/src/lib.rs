//! Conway: multiplayer Life on a torus (Eric Schultz and Cameron Browne,
//! 2005).
//!
//! Players take turns placing pieces on empty points: move `m` (counting
//! every player's moves from 1) may place up to `min(m, P)` pieces, fewer or
//! none (`pass`), or `random` ones. From move `P` on, every move is followed
//! by one generation of multi-colour Life on the torus (see `tabula-life`).
//! Once every player has had a turn, a player left without pieces after a
//! generation is out; the last player with pieces wins, and players who
//! vanish together in the same generation draw.

mod bot;
mod render;
mod rules;

pub use render::{ConwayView, PlayerLine, PlayerStatus};
pub use rules::{Conway, ConwayMove, INFO, MAX_SIZE};

/// The registry entry of the game.
pub static KIND: tabula_model::Kind<Conway> = tabula_model::Kind::new();
