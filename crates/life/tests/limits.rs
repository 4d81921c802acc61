//! Size limits of `tabula life run`: the board file and the work of a run,
//! each refused with a message naming the limit.

use tabula_life::text::{Board, BoardError, MAX_BOARD_CELLS, MAX_BOARD_SIDE};
use tabula_life::tool::{MAX_GENERATIONS, MAX_WORK, life_tool};

#[test]
fn a_board_has_at_most_the_limit_of_rows() {
    let tall = ".\n".repeat(MAX_BOARD_SIDE + 1);
    assert_eq!(Board::parse(&tall), Err(BoardError::TooLarge));
    let most = ".\n".repeat(MAX_BOARD_SIDE);
    assert_eq!(Board::parse(&most).map(|b| b.height), Ok(MAX_BOARD_SIDE));
}

#[test]
fn a_board_has_at_most_the_limit_of_cells() {
    let row = ".".repeat(MAX_BOARD_SIDE);
    let rows = MAX_BOARD_CELLS / MAX_BOARD_SIDE;
    let mut text = format!("{row}\n").repeat(rows);
    assert_eq!(Board::parse(&text).map(|b| b.cells.len()), Ok(MAX_BOARD_CELLS));
    text.push_str(&row);
    assert_eq!(Board::parse(&text), Err(BoardError::TooLarge));
    let message = life_tool(&text, 1, "torus").unwrap_err();
    assert!(message.contains(&MAX_BOARD_CELLS.to_string()), "{message}");
}

#[test]
fn a_run_is_limited_in_generations_and_work() {
    let message = life_tool(".#\n", MAX_GENERATIONS + 1, "dead").unwrap_err();
    assert_eq!(message, format!("at most {MAX_GENERATIONS} generations, not {}", MAX_GENERATIONS + 1));
    // 400 x 400 cells for a million generations is above the work limit.
    let board = format!("{}\n", ".".repeat(400)).repeat(400);
    const _: () = assert!(160_000 * MAX_GENERATIONS > MAX_WORK);
    let message = life_tool(&board, MAX_GENERATIONS, "dead").unwrap_err();
    assert!(message.contains("too much work"), "{message}");
    assert!(message.contains(&MAX_WORK.to_string()), "{message}");
}

#[test]
fn unknown_edges_are_named() {
    let message = life_tool(".#\n", 1, "cylinder").unwrap_err();
    assert!(message.contains("cylinder"), "{message}");
}
