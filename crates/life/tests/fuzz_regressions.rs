//! Inputs the `life_board` fuzz target found, each once a panic: they must
//! now get a clear error.

use tabula_life::rle::{Rle, RleError};

#[test]
fn a_multi_state_letter_past_state_255_is_an_error() {
    // `yS` names state 10 * 24 + 19 = 259; the arithmetic overflowed.
    let text = "x = 3, y= 6, rule = B3/2;\n boyS";
    assert_eq!(Rle::parse(text), Err(RleError::BadState { line: 2, state: 259 }));
    assert_eq!(
        Rle::parse(text).unwrap_err().to_string(),
        "line 2: state 259 is past 255, the last state a pattern can hold"
    );
    // The last state there is parses.
    let last = Rle::parse("x = 1, y = 1, rule = B3/S23\nyO!").unwrap();
    assert_eq!(last.cells, [(0, 0, 255)]);
}

#[test]
fn a_zero_run_below_the_pattern_is_out_of_bounds_without_underflow() {
    let err = Rle::parse("x = 1, y = 1, rule = B3/S23\n$0o!").unwrap_err();
    assert!(matches!(err, RleError::OutOfBounds { x: 0, y: 1, .. }), "{err:?}");
}
