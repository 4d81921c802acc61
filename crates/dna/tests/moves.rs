//! Every kind of bad move is refused with a reason naming the rule, and
//! changes nothing.

mod common;

use common::*;
use tabula_model::{MoveError, Viewer};

#[test]
fn wrong_letters() {
    let mut game = seed_game(&[]);
    assert_eq!(refusal(&mut game, 0, "AXG"), "\"AXG\" is not a chunk: use only the letters A, C, G, T");
    assert_eq!(refusal(&mut game, 0, "A G"), "\"A G\" is not a chunk: use only the letters A, C, G, T");
    assert_eq!(refusal(&mut game, 0, "ÄAG"), "\"ÄAG\" is not a chunk: use only the letters A, C, G, T");
}

#[test]
fn wrong_length() {
    let mut game = seed_game(&[]);
    assert_eq!(refusal(&mut game, 0, "AA"), "AA is 2 letters long: chunks are 3 letters long (-chunk=3)");
    assert_eq!(refusal(&mut game, 0, "AAGT"), "AAGT is 4 letters long: chunks are 3 letters long (-chunk=3)");
    assert_eq!(refusal(&mut game, 0, ""), "empty move: write the chunk to nominate, such as AAG");
    let long = "A".repeat(5000);
    assert!(refusal(&mut game, 0, &long).starts_with("a move of 5000 characters is too long"));
}

#[test]
fn chunk_not_owned() {
    let mut game = seed_game(&[]);
    assert_eq!(
        refusal(&mut game, 0, "GGG"),
        "GGG does not occur in your sequence: a nomination must be a chunk of your own sequence"
    );
}

#[test]
fn first_round_violation() {
    let mut game = seed_game(&[]);
    assert_eq!(
        refusal(&mut game, 0, "TTG"),
        "TTG would remove 2 chunks from jed: in the first round the 1st player may remove at most 1 chunk from any one opponent"
    );

    // The second player may take two from one opponent, not three.
    let players = [("ned", "ACGACGACGTTT"), ("ted", "ACGCCCCCCTTT")];
    let mut game = manual(&["-length=12"], &players);
    play(&mut game, 0, "TTT").unwrap();
    assert_eq!(
        refusal(&mut game, 1, "ACG"),
        "ACG would remove 3 chunks from ned: in the first round the 2nd player may remove at most 2 chunks from any one opponent"
    );
    let mut game = manual(&["-length=12", "-non_incremental"], &players);
    play(&mut game, 0, "TTT").unwrap();
    assert!(play(&mut game, 1, "ACG").is_ok());
}

#[test]
fn first_round_limits_end_with_the_first_round() {
    let mut game = seed_game(&[]);
    for (seat, chunk) in [(0, "AAG"), (1, "TTC")] {
        play(&mut game, seat, chunk).unwrap();
    }
    let jed_move = dna(&game).nominations(2)[0].chunk.clone();
    play(&mut game, 2, &jed_move).unwrap();
    assert!(!dna(&game).is_first_round());
    // In the second round ned may take as many as the rule removes.
    let heavy =
        dna(&game).nominations(0).into_iter().find(|n| n.removed.iter().flatten().skip(1).any(|&c| c > 1));
    assert!(heavy.is_some(), "a nomination taking two from an opponent is now legal");
}

#[test]
fn no_op_nomination() {
    // ned owns CCC, but with -no_reduce_self -reduce_next only ted is reduced, and ted has none.
    let players = [("ned", "CCCAAA"), ("ted", "GGGAAA")];
    let mut game = manual(&["-length=6", "-no_reduce_self", "-reduce_next"], &players);
    assert_eq!(
        refusal(&mut game, 0, "CCC"),
        "CCC would remove nothing: a nomination must remove at least one chunk from some sequence"
    );
    assert!(play(&mut game, 0, "AAA").is_ok());

    let mut game = seed_game(&["-need_not_own"]);
    assert_eq!(
        refusal(&mut game, 0, "GGT"),
        "GGT would remove nothing: a nomination must remove at least one chunk from some sequence"
    );
}

#[test]
fn not_your_turn() {
    let mut game = seed_game(&[]);
    assert_eq!(refusal(&mut game, 1, "TTC"), "it is not your turn; it is ned's turn");
    assert!(matches!(game.state().check(1, "TTC"), Err(MoveError::NotYourTurn(_))));
}

#[test]
fn set_up_moves_at_the_wrong_time() {
    let mut game = create(&["-manual"], &["ned", "ted"]);
    assert_eq!(
        refusal(&mut game, 0, "AAG"),
        "a sequence has exactly 36 letters (-length=36), not 3; nominations start once every sequence is set"
    );
    assert_eq!(refusal(&mut game, 0, ""), "empty move: write your sequence, or random");
    assert_eq!(
        refusal(&mut game, 0, &NED.replace('A', "U")),
        format!("{:?} is not a sequence: use only the letters A, C, G, T", NED.replace('A', "U"))
    );
    play(&mut game, 0, NED).unwrap();
    assert_eq!(
        refusal(&mut game, 0, TED),
        "you have already set your sequence; it stays hidden until every sequence is set"
    );
    assert_eq!(
        refusal(&mut game, 0, "random"),
        "you have already set your sequence; it stays hidden until every sequence is set"
    );
    play(&mut game, 1, "RANDOM").unwrap();
    assert_eq!(
        refusal(&mut game, 0, "random"),
        "random only sets a sequence during a -manual set-up; now nominate a chunk"
    );
    assert_eq!(
        refusal(&mut game, 0, TED),
        format!("{TED} is 36 letters long: chunks are 3 letters long (-chunk=3)")
    );
}

#[test]
fn moves_after_the_end_and_by_players_out() {
    let players = [("ned", "AAGCC"), ("ted", "TAAGT")];
    let mut game = manual(&["-length=5"], &players);
    play(&mut game, 0, "AAG").unwrap();
    assert!(game.is_over());
    assert_eq!(refusal(&mut game, 1, "TT"), "the game is over");

    let mut game = seed_game(&[]);
    resign(&mut game, 2);
    play(&mut game, 0, "AAG").unwrap();
    play(&mut game, 1, "TTC").unwrap();
    assert_eq!(refusal(&mut game, 2, "GCC"), "it is not your turn; it is ned's turn");
    assert_eq!(game.state().check(2, "GCC").unwrap_err().to_string(), "you are no longer in this game");
}

#[test]
fn lower_case_is_accepted_and_canonical() {
    let mut game = seed_game(&[]);
    assert_eq!(game.state().check(0, " aag ").unwrap(), "AAG");
    play(&mut game, 0, "aag").unwrap();
    assert_eq!(history(&game, Viewer::Observer).last().unwrap(), "ned: AAG (ned 1, ted 1, jed 0)");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// Any text is either a legal move or refused with a message; a refused
    /// move changes nothing.
    #[test]
    fn any_text_is_handled(text in "\\PC{0,40}|[ACGTacgt ]{0,40}") {
        let mut playing = seed_game(&["-min_chunk=2", "-max_chunk=4"]);
        let before = playing.record().clone();
        match play(&mut playing, 0, &text) {
            Ok(_) => proptest::prop_assert!(playing.moves() > before.events.len()),
            Err(e) => {
                proptest::prop_assert!(!e.to_string().is_empty());
                proptest::prop_assert_eq!(playing.record(), &before);
            }
        }
        let mut setting_up = create(&["-manual", "-length=8"], &["ned", "ted"]);
        if let Err(e) = play(&mut setting_up, 1, &text) {
            proptest::prop_assert!(!e.to_string().is_empty());
            proptest::prop_assert_eq!(setting_up.moves(), 0);
        }
    }
}
