//! Rewrite (Merkkikorvauspeli): every player secretly wants a string to show
//! up in the table string; each round every player secretly writes one
//! rewrite rule, and all rules written so far are applied, newest set first.
//!
//! - [`engine`]: one pass of a rule set over a string, fast on long strings
//!   and many rules, with a plain reference implementation as its oracle.
//! - [`goal`]: goals (plain or regular expressions) and their hit counts.
//! - [`Rewrite`]: the game, implementing [`tabula_model::Rules`]; [`KIND`]
//!   is its entry for the registry of games.
//! - [`calculator`]: the `tabula rewrite run` tool.

mod bot;
pub mod calculator;
pub mod engine;
pub mod goal;
mod render;
mod rules;
pub mod view;

use tabula_model::Kind;

pub use rules::{Config, MAX_LHS, MAX_TRACE_STEPS, Rewrite, RewriteMove};
pub use view::RewriteView;

/// Rewrite for the registry of games.
pub static KIND: Kind<Rewrite> = Kind::new();
