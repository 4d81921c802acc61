use thiserror::Error;

/// Why a Life operation was refused. Nothing changes when one is returned.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LifeError {
    /// A bounded grid of a size the engines refuse.
    #[error(
        "a grid must be 1 to {max_side} cells on each side and at most {max_cells} cells, not {width}x{height}",
        max_side = crate::MAX_SIDE,
        max_cells = crate::MAX_CELLS
    )]
    BadSize {
        /// Requested width.
        width: u64,
        /// Requested height.
        height: u64,
    },
    /// A point outside a dead-edged grid or the plane's reach.
    #[error("({x},{y}) is outside the field")]
    OutOfField {
        /// Column.
        x: i64,
        /// Row.
        y: i64,
    },
    /// A move from an empty point.
    #[error("({x},{y}) is empty: there is no cell to move")]
    EmptyCell {
        /// Column.
        x: i64,
        /// Row.
        y: i64,
    },
    /// A move or placement onto a live cell.
    #[error("({x},{y}) is taken")]
    Occupied {
        /// Column.
        x: i64,
        /// Row.
        y: i64,
    },
    /// A player index past `Z`.
    #[error("player index {0} is out of range: at most {max} players", max = crate::MAX_PLAYERS)]
    BadOwner(u8),
    /// An edge word other than `torus`, `dead` or `unbounded`.
    #[error("unknown edges {0:?}: use torus, dead or unbounded")]
    BadEdges(String),
}
