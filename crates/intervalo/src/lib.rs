//! Intervalo: two players secretly and simultaneously choose an empty cell of
//! a strip; the player with more pieces between the two chosen cells scores.
//!
//! The rules live in [`rules`], what each viewer may see in [`view`], and the
//! text and SVG pictures in [`render`].

#![warn(missing_docs)]

mod render;
mod rules;
mod view;

pub use rules::{Cell, Intervalo, MAX_CELLS, TurnRecord, write_cell};
pub use view::{IntervaloView, TurnView};

use tabula_model::Kind;

/// The game kind for the registry.
pub static KIND: Kind<Intervalo> = Kind::new();
