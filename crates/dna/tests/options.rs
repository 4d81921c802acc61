//! Every option changes what it says, and contradictions are refused.

mod common;

use common::*;
use tabula_dna::{INFO, KIND, Standing};
use tabula_model::{Game, Options, SetupError, Turn, Viewer};

fn setup_error(options: &[&str]) -> String {
    let options = Options::parse(&INFO, options).expect("each option is valid alone");
    let players = vec!["ned".to_string(), "ted".to_string()];
    match Game::create(&KIND, options, players, 1, 0) {
        Err(SetupError::Contradiction(message)) => message.to_string(),
        other => panic!("expected a contradiction, got {other:?}"),
    }
}

#[test]
fn length_sets_the_sequence_length() {
    let game = create(&["-length=20"], &["ned", "ted"]);
    assert_eq!(sequence(&game, 0).len(), 20);
    assert_eq!(sequence(&game, 1).len(), 20);
    assert!(board(&game).starts_with("ned (20): "));
    assert_eq!(sequence(&create(&[], &["ned", "ted"]), 0).len(), 36);
}

#[test]
fn chunk_sets_the_chunk_size() {
    let mut game = seed_game(&["-chunk=4"]);
    assert_eq!(refusal(&mut game, 0, "AAG"), "AAG is 3 letters long: chunks are 4 letters long (-chunk=4)");
    let lines = play(&mut game, 0, "caaa").unwrap();
    assert_eq!(lines[0].entry.text, "ned: CAAA (ned 1, ted 0, jed 0)");
    assert_eq!(
        seed_game(&[]).state().check(0, "CAAA").unwrap_err().to_string(),
        "CAAA is 4 letters long: chunks are 3 letters long (-chunk=3)"
    );
}

#[test]
fn chunk_size_sets_the_elimination_threshold() {
    // Three letters left: out when chunks are 4 long, still in when they are 3.
    let players = [("ned", "ACGTCCC"), ("ted", "GGGGACG")];
    let mut game = manual(&["-length=7", "-chunk=4"], &players);
    let lines = play(&mut game, 0, "ACGT").unwrap();
    assert_eq!(lines[1].entry.text, "ned is out: 3 letters left, fewer than 4");
    assert!(board(&game).starts_with("ned (3): CCC (out)\n"));
    assert_eq!(game.outcome().unwrap().winners, vec![1]);

    let players = [("ned", "ACGCCCT"), ("ted", "GGGGTTT")];
    let mut game = manual(&["-length=7"], &players);
    play(&mut game, 0, "ACG").unwrap();
    assert_eq!(dna(&game).standing(0), Standing::In);
}

#[test]
fn chunk_ranges_allow_every_size_between() {
    let game = seed_game(&["-min_chunk=2", "-max_chunk=4"]);
    let dna = dna(&game);
    assert_eq!(dna.preview(0, "AA").unwrap().removed, vec![Some(2), Some(1), Some(1)]);
    assert_eq!(dna.preview(0, "CAAA").unwrap().removed, vec![Some(1), Some(0), Some(0)]);
    assert_eq!(
        dna.preview(0, "CAAAG").unwrap_err().to_string(),
        "CAAAG is 5 letters long: chunks are 2 to 4 letters long (-min_chunk=2 -max_chunk=4)"
    );
    let listed = game.state().legal_moves(0).unwrap();
    assert!(listed.iter().any(|m| m.len() == 2) && listed.iter().any(|m| m.len() == 4), "{listed:?}");
    assert!(seed_game(&[]).state().check(0, "AA").is_err());
}

#[test]
fn min_chunk_sets_the_elimination_threshold() {
    let players = [("ned", "ACGTT"), ("ted", "CCCGA")];
    let mut game = manual(&["-length=5", "-min_chunk=2"], &players);
    play(&mut game, 0, "ACG").unwrap();
    assert_eq!(board(&game), "ned (2): TT\nted (5): CCCGA\n");
    assert_eq!(game.to_move(), Turn::Player(1));

    let mut game = manual(&["-length=5"], &players);
    play(&mut game, 0, "ACG").unwrap();
    assert_eq!(board(&game), "ned (2): TT (out)\nted (5): CCCGA\n");
    assert_eq!(game.outcome().unwrap().winners, vec![1]);
}

#[test]
fn a_missing_chunk_bound_defaults_to_three() {
    let config = |options: &[&str]| dna(&create(options, &["ned", "ted"])).config().clone();
    assert_eq!((config(&[]).min_chunk, config(&[]).max_chunk), (3, 3));
    let c = config(&["-min_chunk=2"]);
    assert_eq!((c.min_chunk, c.max_chunk), (2, 3));
    let c = config(&["-max_chunk=5"]);
    assert_eq!((c.min_chunk, c.max_chunk), (3, 5));
    let c = config(&["-min_chunk=5"]);
    assert_eq!((c.min_chunk, c.max_chunk), (5, 5));
    let c = config(&["-max_chunk=2"]);
    assert_eq!((c.min_chunk, c.max_chunk), (2, 2));
    let c = config(&["-chunk=5", "-min_chunk=5"]);
    assert_eq!((c.min_chunk, c.max_chunk), (5, 5));
}

#[test]
fn base_limits_the_letters() {
    let game = create(&["-base=2"], &["ned", "ted", "jed"]);
    for seat in 0..3 {
        assert!(sequence(&game, seat).bytes().all(|c| c == b'A' || c == b'C'), "{}", sequence(&game, seat));
    }
    let game = create(&["-base=3"], &["ned", "ted"]);
    let both = sequence(&game, 0) + &sequence(&game, 1);
    assert!(both.bytes().all(|c| b"ACG".contains(&c)) && both.contains('G'), "{both}");

    let mut game = create(&["-base=2", "-manual", "-length=6"], &["ned", "ted"]);
    assert_eq!(
        refusal(&mut game, 0, "ACGTAC"),
        "\"ACGTAC\" is not a sequence: use only the letters A, C (-base=2)"
    );
    play(&mut game, 0, "ACCAAC").unwrap();
    play(&mut game, 1, "CCAACA").unwrap();
    assert_eq!(refusal(&mut game, 0, "ACG"), "\"ACG\" is not a chunk: use only the letters A, C (-base=2)");
    assert!(play(&mut game, 0, "ACC").is_ok());
}

#[test]
fn manual_lets_players_set_hidden_sequences() {
    let mut game = create(&["-manual"], &["ned", "ted"]);
    assert_eq!(game.to_move(), Turn::Simultaneous([0, 1].into()));
    assert_eq!(board(&game), "ned: no sequence yet\nted: no sequence yet\n");
    play(&mut game, 1, TED).unwrap();
    assert_eq!(game.to_move(), Turn::Simultaneous([0].into()));
    assert_eq!(
        game.render_text(Viewer::Player(0), 0, tabula_model::Lang::En),
        "ned: no sequence yet\nted (36): hidden\n"
    );
    assert_eq!(
        game.render_text(Viewer::Player(1), 0, tabula_model::Lang::En),
        format!("ned: no sequence yet\nted (36): {TED}\n")
    );
    let without = create(&[], &["ned", "ted"]);
    assert_eq!(without.to_move(), Turn::Player(0));
}

#[test]
fn non_incremental_lifts_the_first_round_limit() {
    let mut game = seed_game(&["-non_incremental"]);
    let lines = play(&mut game, 0, "TTG").unwrap();
    assert_eq!(lines[0].entry.text, "ned: TTG (ned 1, ted 0, jed 2)");
    assert!(seed_game(&[]).state().check(0, "TTG").is_err());
}

#[test]
fn need_not_own_allows_chunks_of_other_sequences() {
    let mut game = seed_game(&["-need_not_own"]);
    let lines = play(&mut game, 0, "GGG").unwrap();
    assert_eq!(lines[0].entry.text, "ned: GGG (ned 0, ted 1, jed 0)");
    assert_eq!(sequence(&game, 0), NED);
    assert_eq!(
        seed_game(&[]).state().check(0, "GGG").unwrap_err().to_string(),
        "GGG does not occur in your sequence: a nomination must be a chunk of your own sequence"
    );
}

#[test]
fn need_not_own_lists_only_chunks_that_remove_something() {
    let game = seed_game(&["-need_not_own"]);
    let listed = game.state().legal_moves(0).unwrap();
    assert!(listed.contains(&"GGG".to_string()));
    for chunk in &listed {
        assert!(game.state().check(0, chunk).is_ok());
    }
    // Brute force over all 64 chunks agrees with the list.
    let mut all = Vec::new();
    for a in "ACGT".chars() {
        for b in "ACGT".chars() {
            for c in "ACGT".chars() {
                let chunk: String = [a, b, c].iter().collect();
                if game.state().check(0, &chunk).is_ok() {
                    all.push(chunk);
                }
            }
        }
    }
    assert_eq!(listed, all);
}

#[test]
fn no_reduce_self_spares_the_mover() {
    let mut game = seed_game(&["-no_reduce_self"]);
    let lines = play(&mut game, 0, "AAG").unwrap();
    assert_eq!(lines[0].entry.text, "ned: AAG (ted 1, jed 0)");
    assert_eq!(sequence(&game, 0), NED);
    assert_eq!(sequence(&game, 1).len(), 33);
}

#[test]
fn reduce_next_reduces_only_the_next_opponent() {
    let mut game = seed_game(&["-reduce_next"]);
    // TTG would take two from jed, but jed is not reduced by ned.
    let lines = play(&mut game, 0, "TTG").unwrap();
    assert_eq!(lines[0].entry.text, "ned: TTG (ned 1, ted 0)");
    assert_eq!(sequence(&game, 2), JED);
    // The last player's next opponent is the first.
    play(&mut game, 1, "TTC").unwrap();
    let before = sequence(&game, 1);
    let lines = play(&mut game, 2, "GCC").unwrap();
    assert!(lines[0].entry.text.starts_with("jed: GCC (ned "), "{}", lines[0].entry.text);
    assert_eq!(sequence(&game, 1), before);
}

#[test]
fn contradictions_name_the_options() {
    assert_eq!(
        setup_error(&["-chunk=3", "-min_chunk=2"]),
        "-chunk=3 contradicts -min_chunk=2: -chunk sets both the smallest and the largest chunk size"
    );
    assert_eq!(
        setup_error(&["-chunk=3", "-max_chunk=4"]),
        "-chunk=3 contradicts -max_chunk=4: -chunk sets both the smallest and the largest chunk size"
    );
    assert_eq!(setup_error(&["-min_chunk=4", "-max_chunk=3"]), "-min_chunk=4 is larger than -max_chunk=3");
    assert_eq!(
        setup_error(&["-chunk=40"]),
        "-chunk=40 is longer than -length=36: a chunk cannot be longer than the sequence"
    );
    assert_eq!(
        setup_error(&["-length=10", "-max_chunk=12"]),
        "-max_chunk=12 is longer than -length=10: a chunk cannot be longer than the sequence"
    );
    assert_eq!(
        setup_error(&["-length=4", "-min_chunk=5"]),
        "-min_chunk=5 is longer than -length=4: a chunk cannot be longer than the sequence"
    );
    assert_eq!(
        setup_error(&["-length=2"]),
        "the default chunk size 3 is longer than -length=2: a chunk cannot be longer than the sequence"
    );
}

#[test]
fn out_of_range_options_are_refused_by_name() {
    for (word, message) in [
        ("-base=5", "-base: must be between 2 and 4, not 5"),
        ("-min_chunk=1", "-min_chunk: must be between 2 and 200, not 1"),
        ("-length=201", "-length: must be between 2 and 200, not 201"),
    ] {
        assert_eq!(Options::parse(&INFO, &[word]).unwrap_err().to_string(), message);
    }
}

#[test]
fn two_to_eight_players() {
    let options = Options::parse::<&str>(&INFO, &[]).unwrap();
    for n in [1usize, 9] {
        let players: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
        let error = Game::create(&KIND, options.clone(), players, 1, 0).unwrap_err();
        assert_eq!(error.to_string(), format!("DNA needs 2 to 8 players, not {n}"));
    }
    let players: Vec<String> = (0..8).map(|i| format!("p{i}")).collect();
    assert!(Game::create(&KIND, options, players, 1, 0).is_ok());
}
