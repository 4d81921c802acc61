//! Board files of `tabula life run` and RLE patterns. The first byte picks
//! the edges and the number of generations; the rest is the file. A board
//! that parses prints back to itself; a run returns a board that parses,
//! or a clear error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula_life::rle::Rle;
use tabula_life::text::Board;
use tabula_life::tool::life_tool;

fuzz_target!(|data: &[u8]| {
    let Some((&control, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let edges = ["torus", "dead", "unbounded", ""][usize::from(control & 3)];
    let generations = u64::from(control >> 3);

    if let Ok(board) = Board::parse(text) {
        let printed = board.to_text(true);
        let again = Board::parse(&printed).expect("a printed board does not parse");
        assert_eq!(again, board, "a board changed in a print and parse round trip");
        if edges != "unbounded" && generations == 0 {
            let out = life_tool(text, 0, edges).expect("zero generations of a good board failed");
            assert_eq!(out, board.to_text(false), "zero generations changed the board");
        }
    }
    match life_tool(text, generations, edges) {
        Ok(out) => {
            let board = Board::parse(&out);
            // The unbounded plane may die out: just the offset line is left.
            if !(edges == "unbounded" && out.lines().count() == 1) {
                board.expect("the tool printed a board that does not parse");
            }
        }
        Err(message) => assert!(!message.trim().is_empty(), "an error without a message"),
    }

    if let Ok(rle) = Rle::parse(text) {
        for multistate in [false, true] {
            let printed = rle.to_text(multistate);
            let again = Rle::parse(&printed).expect("a printed pattern does not parse");
            if multistate || rle.cells.iter().all(|c| c.2 <= 1) {
                assert_eq!(again.cells, rle.cells, "cells changed in an RLE round trip");
            }
        }
    }
});
