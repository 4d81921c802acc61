//! Real-Time Life: multiplayer Life on the wall clock (a proposal to the
//! gamerz Life list, v1.1).
//!
//! The game advances on the clock: every tick each player who has placed
//! cells gains movement points (one per 10 live cells, at least 1), and
//! every `-gen_ticks` ticks the whole field undergoes one generation of
//! multi-colour Life (see `tabula-life`). Players join at any time by placing
//! `-start_cells` connected cells, and spend points to move their cells
//! along the shortest king-move path through empty points. After each
//! generation every player adds cells / generations-in-game to an exact
//! cumulative score; a player left without cells is out. The last player
//! standing wins, or with `-generations=N` the highest score.
//!
//! Ticks are a pure function of the start time and `-tick`: tick `n` is due
//! at `start + n * tick`. [`tabula_model::Rules::next_clock`] announces the
//! next one and [`tabula_model::Rules::clock`] applies it, so the model's
//! `Game::advance_clock` catches a restarted server up exactly, and a replay
//! of the record rebuilds the same field.

#![warn(missing_docs)]

mod path;
mod render;
mod rules;
mod score;

pub use path::{Area, Route, route};
pub use render::{
    PlayerLine, PlayerStatus, RtLifeView, VIEW_COLUMNS, VIEW_ROWS, Window, format_span, format_time,
};
pub use rules::{Edges, INFO, MAX_PLAYERS, MAX_SEARCH, MAX_SIDE, MAX_STEPS, PLANE_LIMIT, RtLife, RtMove};
pub use score::{EXACT_GENERATIONS, Score};

/// The registry entry of the game.
pub static KIND: tabula_model::Kind<RtLife> = tabula_model::Kind::new();
