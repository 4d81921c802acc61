//! The clickable layout of a board picture: how a click on the SVG a game
//! draws becomes the text of a move.
//!
//! A game whose moves name points or cells of its board states its
//! picture's layout (where the grid starts, how big a cell is) with
//! [`crate::Rules::click_map`], next to the drawing code that uses the same
//! numbers. The web page's script turns a click into the picture's own
//! coordinates (so zooming and panning do not matter) and then into a cell
//! name with the same arithmetic as [`ClickMap::label_at`]; the script knows
//! the three layouts, never a game.

use serde::Serialize;

use crate::coords::column_name;

/// A board picture and its click layout, drawn from one view.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    /// The standalone SVG document.
    pub svg: String,
    /// Its click layout, for games whose moves name points of a board.
    pub click: Option<ClickMap>,
}

/// The clickable layout of a board picture, in the SVG's user units.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ClickMap {
    /// A square grid of points named `a1` style (column letters, row
    /// numbers, row 1 at the bottom). A move lists points separated by
    /// commas, at most `max` of them.
    Grid {
        /// Left edge of column `a`.
        x0: f64,
        /// Top edge of the top row.
        y0: f64,
        /// Side of one cell.
        cell: f64,
        /// Number of columns.
        columns: usize,
        /// Number of rows.
        rows: usize,
        /// Most points one move may name.
        max: usize,
    },
    /// Cells numbered from 1, laid out left to right in rows of `per_row`.
    /// A move is one cell number.
    Strip {
        /// Left edge of cell 1.
        x0: f64,
        /// Top edge of cell 1.
        y0: f64,
        /// Distance from one cell to the next in a row.
        cell: f64,
        /// Cells per row.
        per_row: usize,
        /// Distance from one row to the next.
        row_height: f64,
        /// Number of cells.
        count: usize,
    },
    /// Real-Time Life's field: a window of the field with its top-left
    /// point at (`left`, `top`) in game coordinates (`x` to the right, `y`
    /// up, 0 for column `a` and row 1). Points are named `a1` style on
    /// bounded fields and `(x,y)` on the unbounded plane. A player in
    /// `placing` (not placed yet) places `start_cells` cells
    /// (`place a1,b1,..`); the others move cells (`move a1-c3,..`).
    Field {
        /// Left edge of the window's first column.
        x0: f64,
        /// Top edge of the window's top row.
        y0: f64,
        /// Side of one cell.
        cell: f64,
        /// Game column of the window's first column.
        left: i64,
        /// Game row of the window's top row.
        top: i64,
        /// Columns shown.
        columns: usize,
        /// Rows shown.
        rows: usize,
        /// Whether the field is the unbounded plane.
        plane: bool,
        /// Cells of a first placement.
        start_cells: usize,
        /// Players who have not placed their cells yet.
        placing: Vec<String>,
    },
}

impl ClickMap {
    /// The name of the point or cell at `(x, y)` in the picture's user
    /// units, as a move would write it, if there is one there.
    pub fn label_at(&self, x: f64, y: f64) -> Option<String> {
        match *self {
            ClickMap::Grid { x0, y0, cell, columns, rows, .. } => {
                let col = ((x - x0) / cell).floor();
                let row = ((y - y0) / cell).floor();
                if col < 0.0 || row < 0.0 || col >= columns as f64 || row >= rows as f64 {
                    return None;
                }
                Some(format!("{}{}", column_name(col as u64), rows - row as usize))
            }
            ClickMap::Strip { x0, y0, cell, per_row, row_height, count } => {
                let col = ((x - x0) / cell).floor();
                let row = ((y - y0) / row_height).floor();
                // Only the cell itself counts, not the ruler between rows.
                let inside_row = y - y0 - row * row_height < cell;
                if col < 0.0 || row < 0.0 || col >= per_row as f64 || !inside_row {
                    return None;
                }
                let index = row as usize * per_row + col as usize;
                (index < count).then(|| (index + 1).to_string())
            }
            ClickMap::Field { x0, y0, cell, left, top, columns, rows, plane, .. } => {
                let col = ((x - x0) / cell).floor();
                let row = ((y - y0) / cell).floor();
                if col < 0.0 || row < 0.0 || col >= columns as f64 || row >= rows as f64 {
                    return None;
                }
                let (gx, gy) = (left + col as i64, top - row as i64);
                if plane {
                    Some(format!("({gx},{gy})"))
                } else {
                    Some(format!("{}{}", column_name(u64::try_from(gx).ok()?), gy + 1))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_names_points_with_row_one_at_the_bottom() {
        let m = ClickMap::Grid { x0: 28.0, y0: 28.0, cell: 24.0, columns: 10, rows: 10, max: 4 };
        assert_eq!(m.label_at(30.0, 30.0).as_deref(), Some("a10"));
        assert_eq!(m.label_at(28.0 + 24.0 * 9.5, 28.0 + 24.0 * 9.5).as_deref(), Some("j1"));
        assert_eq!(m.label_at(27.0, 30.0), None);
        assert_eq!(m.label_at(28.0 + 240.0, 30.0), None);
    }

    #[test]
    fn strip_numbers_cells_and_skips_gaps() {
        let m = ClickMap::Strip { x0: 10.0, y0: 22.0, cell: 14.0, per_row: 64, row_height: 30.0, count: 70 };
        assert_eq!(m.label_at(11.0, 23.0).as_deref(), Some("1"));
        assert_eq!(m.label_at(10.0 + 14.0 * 63.5, 25.0).as_deref(), Some("64"));
        assert_eq!(m.label_at(10.0 + 14.0 * 5.5, 22.0 + 30.0 + 5.0).as_deref(), Some("70"));
        assert_eq!(m.label_at(10.0 + 14.0 * 6.5, 22.0 + 30.0 + 5.0), None);
        assert_eq!(m.label_at(11.0, 22.0 + 20.0), None);
    }
}
