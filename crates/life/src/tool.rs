//! `tabula life run`: step a text board and print it.

use crate::text::{Board, MAX_BOARD_CELLS};
use crate::{Life, Rect, Topology, Universe};

/// Most generations one run may ask for.
pub const MAX_GENERATIONS: u64 = 1_000_000;

/// Cell-generations (cells of the input times generations) one run may
/// cost, so a run stays within minutes.
pub const MAX_WORK: u64 = 1 << 37;

/// Read `board` (rows of `.`, `#`, `A`..`Z`, top row first), run
/// `generations` generations with `edges` (`torus`, the default when empty,
/// `dead` or `unbounded`) and return the board in the same format. For the
/// unbounded plane the result is the bounding box of the live cells, after a
/// line `#offset X Y` giving its top-left corner relative to the input's
/// (`#offset 0 0` and no rows when nothing is left).
///
/// # Errors
///
/// A message naming what is wrong: the board (with its line), the edges, or
/// a run above the limits.
pub fn life_tool(board: &str, generations: u64, edges: &str) -> Result<String, String> {
    let edges = if edges.trim().is_empty() { "torus" } else { edges };
    let board = Board::parse(board).map_err(|e| e.to_string())?;
    let topology =
        Topology::from_edges(edges, board.width as u64, board.height as u64).map_err(|e| e.to_string())?;
    if generations > MAX_GENERATIONS {
        return Err(format!("at most {MAX_GENERATIONS} generations, not {generations}"));
    }
    if (board.cells.len() as u64).saturating_mul(generations) > MAX_WORK {
        return Err(format!(
            "{} cells for {generations} generations is too much work for one run: at most {MAX_WORK} cell-generations",
            board.cells.len()
        ));
    }
    let mut life = Universe::new(topology).map_err(|e| e.to_string())?;
    let origin = board.offset;
    let shifted = Board { offset: (0, 0), ..board };
    shifted.place(&mut life, 0, 0).map_err(|e| e.to_string())?;
    life.step(generations);
    match topology {
        Topology::Unbounded => {
            let Some(rect) = life.bounding_box() else {
                return Ok(format!("#offset {} {}\n", origin.0, origin.1));
            };
            if rect.width.saturating_mul(rect.height) > MAX_BOARD_CELLS as u64 {
                return Err(format!(
                    "the result's bounding box, {}x{}, is too large to print (at most {MAX_BOARD_CELLS} cells)",
                    rect.width, rect.height
                ));
            }
            let mut out = Board::capture(&life, rect).map_err(|e| e.to_string())?;
            out.offset = (rect.x + origin.0, rect.y + origin.1);
            Ok(out.to_text(true))
        }
        _ => {
            let rect = Rect { x: 0, y: 0, width: shifted.width as u64, height: shifted.height as u64 };
            Ok(Board::capture(&life, rect).map_err(|e| e.to_string())?.to_text(false))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blinker_on_each_edge() {
        let board = ".....\n..A..\n..A..\n..A..\n.....\n";
        let turned = ".....\n.....\n.AAA.\n.....\n.....\n";
        assert_eq!(life_tool(board, 1, "").unwrap(), turned);
        assert_eq!(life_tool(board, 1, "dead").unwrap(), turned);
        assert_eq!(life_tool(board, 2, "torus").unwrap(), board);
        assert_eq!(life_tool(board, 1, "unbounded").unwrap(), "#offset 1 2\nAAA\n");
    }

    #[test]
    fn dead_edges_and_torus_differ_at_the_border() {
        // A vertical blinker across the top edge: whole only on the torus.
        let board = ".A...\n.A...\n.....\n.A...\n";
        assert_eq!(life_tool(board, 1, "dead").unwrap(), ".....\n.....\n.....\n.....\n");
        assert_eq!(life_tool(board, 1, "torus").unwrap(), "AAA..\n.....\n.....\n.....\n");
    }

    #[test]
    fn majority_and_neutral_births() {
        // Three parents: two A and one B give an A; A, B and C give neutral.
        assert_eq!(life_tool("A.B\n...\n.A.\n", 1, "unbounded").unwrap(), "#offset 1 1\nA\n");
        assert_eq!(life_tool("A.B\n...\n.C.\n", 1, "unbounded").unwrap(), "#offset 1 1\n#\n");
        assert_eq!(life_tool("#.#\n...\n.A.\n", 1, "unbounded").unwrap(), "#offset 1 1\n#\n");
    }

    #[test]
    fn unbounded_offsets_follow_the_input() {
        let glider = ".A.\n..A\nAAA\n";
        let out = life_tool(glider, 4, "unbounded").unwrap();
        assert_eq!(out, "#offset 1 1\n.A.\n..A\nAAA\n");
        let chained = life_tool(&out, 4, "unbounded").unwrap();
        assert_eq!(chained, "#offset 2 2\n.A.\n..A\nAAA\n");
        assert_eq!(life_tool("A\n", 1, "unbounded").unwrap(), "#offset 0 0\n");
    }

    #[test]
    fn errors_are_clear() {
        assert_eq!(
            life_tool("", 1, "torus").unwrap_err(),
            "the board is empty: give rows of '.', '#' and 'A'..'Z'"
        );
        assert_eq!(
            life_tool("..\n.\n", 1, "torus").unwrap_err(),
            "line 2: a row of 1 cells, but the first row has 2: every row must be as long"
        );
        assert_eq!(
            life_tool("..\n", 1, "round").unwrap_err(),
            "unknown edges \"round\": use torus, dead or unbounded"
        );
        assert!(life_tool("..\n", MAX_GENERATIONS + 1, "torus").unwrap_err().starts_with("at most"));
    }
}
