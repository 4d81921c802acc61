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

#[test]
fn high_states_print_back_as_they_were_read() {
    // States past 190 overflowed while their letters were written.
    for (letters, state) in [("pA", 25), ("xX", 240), ("yA", 241), ("yO", 255)] {
        let rle = Rle::parse(&format!("x = 2, y = 1, rule = B3/S23\n{letters}A!")).unwrap();
        assert_eq!(rle.cells, [(0, 0, state), (1, 0, 1)]);
        let printed = rle.to_text(true);
        assert!(printed.contains(&format!("{letters}A!")), "{printed}");
        assert_eq!(Rle::parse(&printed).unwrap().cells, rle.cells);
    }
}
