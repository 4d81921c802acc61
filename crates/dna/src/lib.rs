//! DNA, the game of accelerated evolution (rules by Cameron Browne, 2008),
//! for Tabula.
//!
//! Every player owns a sequence of nucleotides; a nomination removes every
//! instance of a chunk from the sequences, pass after pass, and players whose
//! sequence becomes shorter than a chunk are out. The crate holds the rules
//! ([`Dna`], wired into the model through [`KIND`]), the removal [`engine`]
//! (the literal pass-based rule and a fast exact simulation of it), and the
//! [`calculator`] behind `tabula dna remove`.

#![warn(missing_docs)]

mod bot;
pub mod calculator;
pub mod engine;
mod info;
mod render;
mod rules;
mod view;

pub use info::{INFO, MAX_LENGTH};
pub use rules::{Dna, DnaConfig, DnaMove, MAX_PLAYERS, NUCLEOTIDES, Nomination, Standing};
pub use view::{DnaView, LastNomination, PlayerView};

use tabula_model::Kind;

/// DNA in the registry of games.
pub static KIND: Kind<Dna> = Kind::new();
