//! Elimination, the end of the game, passes, resignation, hidden set-up,
//! and the renderings.

mod common;

use common::*;
use tabula_dna::Standing;
use tabula_model::{SeatResult, Turn, Viewer};

#[test]
fn last_player_standing_wins() {
    let players = [("ned", "AAGAAG"), ("ted", "AAGTTT"), ("jed", "CCCGGG")];
    let mut game = manual(&["-length=6", "-non_incremental"], &players);
    let lines = play(&mut game, 0, "AAG").unwrap();
    let texts: Vec<&str> = lines.iter().map(|h| h.entry.text.as_str()).collect();
    assert_eq!(texts, ["ned: AAG (ned 2, ted 1, jed 0)", "ned is out: 0 letters left, fewer than 3"]);
    assert_eq!(board(&game), "ned (0): (out)\nted (3): TTT\njed (6): CCCGGG\n");
    assert_eq!(game.to_move(), Turn::Player(1));
    play(&mut game, 1, "TTT").unwrap();
    assert!(game.is_over());
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winners, vec![2]);
    assert_eq!(outcome.reason, "last player standing");
    assert_eq!(
        outcome.scores,
        [tabula_model::Score::whole(0), tabula_model::Score::whole(0), tabula_model::Score::whole(6)]
    );
    assert_eq!(history(&game, Viewer::Observer).last().unwrap(), "jed wins: last player standing");
}

#[test]
fn when_all_go_out_at_once_the_longest_wins() {
    // ned makes his own sequence 4 long; ted's ACG then puts both out, ned with 1 letter, ted with 2.
    let players = [("ned", "ACCCCCGT"), ("ted", "ACGACGTT")];
    let mut game = manual(&["-length=8", "-min_chunk=3", "-max_chunk=4"], &players);
    play(&mut game, 0, "CCCC").unwrap();
    assert_eq!(board(&game), "ned (4): ACGT\nted (8): ACGACGTT\n");
    play(&mut game, 1, "ACG").unwrap();
    assert_eq!(board(&game), "ned (1): T (out)\nted (2): TT (out)\n");
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winners, vec![1]);
    assert_eq!(outcome.reason, "every remaining player was eliminated at once; the longest sequence wins");
}

#[test]
fn when_all_go_out_at_once_equal_lengths_tie() {
    let players = [("ned", "AAGCC"), ("ted", "TAAGT")];
    let mut game = manual(&["-length=5"], &players);
    play(&mut game, 0, "AAG").unwrap();
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winners, vec![0, 1]);
    assert_eq!(outcome.result_for(0), SeatResult::Draw);
    assert_eq!(
        history(&game, Viewer::Observer).last().unwrap(),
        "ned, ted tie with the longest sequences (2 letters): every remaining player was eliminated at once"
    );
}

#[test]
fn automatic_passes_and_the_end_when_nobody_can_move() {
    // Only the next opponent is reduced, never the mover: after ned's CCC
    // nobody owns a chunk found in the next opponent's sequence.
    let players = [("ned", "AAACCC"), ("ted", "CCCGGG")];
    let mut game = manual(&["-length=6", "-no_reduce_self", "-reduce_next"], &players);
    let lines: Vec<String> = play(&mut game, 0, "CCC").unwrap().into_iter().map(|h| h.entry.text).collect();
    assert_eq!(
        lines,
        [
            "ned: CCC (ted 1)",
            "ted has no legal nomination and passes",
            "ned has no legal nomination and passes",
            "ted has no legal nomination and passes",
            "ned wins with the longest sequence (6 letters): no player could nominate",
        ]
    );
    let outcome = game.outcome().unwrap();
    assert_eq!(outcome.winners, vec![0]);
    assert_eq!(outcome.reason, "no player could nominate; the longest sequence wins");
}

#[test]
fn a_pass_hands_the_turn_on() {
    // ted (second) owns only GGG, which would take four from jed in the first round.
    let players = [("ned", "ACGACGACGTTT"), ("ted", "GGGGGGGGGTTT"), ("jed", "GGGGGGGGGGGG")];
    let mut game = manual(&["-length=12"], &players);
    let lines: Vec<String> = play(&mut game, 0, "TTT").unwrap().into_iter().map(|h| h.entry.text).collect();
    assert_eq!(lines[0], "ned: TTT (ned 1, ted 1, jed 0)");
    assert_eq!(&lines[1..], ["ted has no legal nomination and passes"]);
    assert_eq!(game.to_move(), Turn::Player(2));
    assert!(!game.is_over());
}

#[test]
fn a_round_of_passes_forced_by_the_first_round_limits_does_not_end_the_game() {
    // Two letters, chunks of two: every chunk occurs many times in every
    // sequence, so under the first-round limits everyone may have to pass.
    let found = (0..200u64).find_map(|seed| {
        let options = tabula_model::Options::parse(&tabula_dna::INFO, &["-base=2", "-chunk=2"]).unwrap();
        let players = vec!["ned".to_string(), "ted".to_string()];
        let game = tabula_model::Game::create(&tabula_dna::KIND, options, players, seed, 0).unwrap();
        board(&game).contains("passed: ned, ted").then_some(game)
    });
    let game = found.expect("some seed makes both players pass in the first round");
    assert!(!game.is_over());
    assert_eq!(game.to_move(), Turn::Player(0));
    assert!(!dna(&game).is_first_round());
    assert!(!game.state().legal_moves(0).unwrap().is_empty());
}

#[test]
fn opening_passes_show_on_the_board() {
    // Two letters, chunks of two: the first player can rarely keep to one
    // removal per opponent.
    let found = (0..200u64).find_map(|seed| {
        let options = tabula_model::Options::parse(&tabula_dna::INFO, &["-base=2", "-chunk=2"]).unwrap();
        let players = vec!["ned".to_string(), "ted".to_string(), "jed".to_string()];
        let game = tabula_model::Game::create(&tabula_dna::KIND, options, players, seed, 0).unwrap();
        (game.to_move() != Turn::Player(0)).then_some(game)
    });
    let game = found.expect("some seed makes ned pass at once");
    let text = board(&game);
    assert!(
        text.lines().nth(3).unwrap().starts_with("No legal nomination at the start, passed: ned"),
        "{text}"
    );
}

#[test]
fn resigned_sequences_are_frozen() {
    let mut game = seed_game(&[]);
    let lines = resign(&mut game, 2);
    assert_eq!(lines[0].entry.text, "jed resigns; their sequence stays on the board, frozen");
    // TTG no longer counts jed's two instances: it is legal for ned now.
    let lines = play(&mut game, 0, "TTG").unwrap();
    assert_eq!(lines[0].entry.text, "ned: TTG (ned 1, ted 0)");
    assert_eq!(sequence(&game, 2), JED);
    assert!(board(&game).ends_with(&format!("jed (36): {JED} (resigned)\n")));
    assert_eq!(dna(&game).standing(2), Standing::Resigned);
    assert!(!game.state().is_active(2));
}

#[test]
fn resignation_leaves_the_last_player_the_winner() {
    let mut game = seed_game(&[]);
    resign(&mut game, 0);
    assert_eq!(game.to_move(), Turn::Player(1));
    resign(&mut game, 2);
    assert!(game.is_over());
    assert_eq!(game.outcome().unwrap().winners, vec![1]);
}

#[test]
fn reduce_next_skips_players_no_longer_in() {
    let mut game = seed_game(&["-reduce_next"]);
    resign(&mut game, 1);
    let lines = play(&mut game, 0, "AAG").unwrap();
    assert_eq!(lines[0].entry.text, "ned: AAG (ned 1, jed 0)");
    assert_eq!(sequence(&game, 1), TED);
}

#[test]
fn set_up_stays_hidden_until_everyone_has_set() {
    let mut game = create(&["-manual"], &["ned", "ted", "jed"]);
    play(&mut game, 0, NED).unwrap();
    play(&mut game, 1, "random").unwrap();
    let teds = sequence(&game, 1);
    assert_eq!(teds.len(), 36);
    assert_eq!(history(&game, Viewer::Player(2)), ["ned sets a sequence", "ted sets a sequence"]);
    assert_eq!(
        history(&game, Viewer::Player(1)),
        ["ned sets a sequence", format!("ted sets a random sequence: {teds}").as_str()]
    );
    assert_eq!(
        game.render_text(Viewer::Player(2), 0, tabula_model::Lang::En),
        "ned (36): hidden\nted (36): hidden\njed: no sequence yet\n"
    );
    assert_eq!(
        game.render_text(Viewer::Observer, 0, tabula_model::Lang::En),
        "ned (36): hidden\nted (36): hidden\njed: no sequence yet\n"
    );
    let svg = game.render_svg(Viewer::Player(2), 0, tabula_model::Lang::En);
    assert!(!svg.contains(">T<") && !svg.contains(">C<"), "no letters leak into the picture");

    // Views that could tell the two hidden sequences apart must not differ.
    let mut other = create(&["-manual"], &["ned", "ted", "jed"]);
    play(&mut other, 0, JED).unwrap();
    play(&mut other, 1, TED).unwrap();
    for viewer in [Viewer::Player(2), Viewer::Observer] {
        tabula_model::testing::assert_seen_alike(&game, &other, viewer, 0);
    }
    assert_ne!(
        game.render_text(Viewer::Player(0), 0, tabula_model::Lang::En),
        other.render_text(Viewer::Player(0), 0, tabula_model::Lang::En)
    );

    play(&mut game, 2, JED).unwrap();
    let everyone = history(&game, Viewer::Observer);
    assert_eq!(everyone[0], format!("ned sets the sequence {NED}"));
    assert_eq!(everyone[3], "Every sequence is set and now shown to all");
    assert_eq!(board(&game), format!("ned (36): {NED}\nted (36): {teds}\njed (36): {JED}\n"));
}

#[test]
fn determinize_guesses_only_what_is_hidden() {
    let mut game = create(&["-manual"], &["ned", "ted", "jed"]);
    play(&mut game, 0, NED).unwrap();
    play(&mut game, 2, JED).unwrap();
    let mut rng = tabula_model::rng_for(3, 9);
    let guess = game.state().determinize(2, &mut rng);
    let guess = guess.as_any().downcast_ref::<tabula_dna::Dna>().unwrap();
    let own = guess.sequence(2).unwrap();
    assert_eq!(own, JED.as_bytes());
    let neds_guess = guess.sequence(0).unwrap();
    assert_eq!(neds_guess.len(), 36);
    assert_ne!(neds_guess, NED.as_bytes());
    assert!(guess.sequence(1).is_none());
    // Once revealed, nothing is guessed.
    play(&mut game, 1, TED).unwrap();
    let guess = game.state().determinize(2, &mut rng);
    assert_eq!(
        guess.as_any().downcast_ref::<tabula_dna::Dna>().unwrap().sequence(0).unwrap(),
        NED.as_bytes()
    );
}

#[test]
fn resigning_during_set_up() {
    let mut game = create(&["-manual"], &["ned", "ted", "jed"]);
    play(&mut game, 0, NED).unwrap();
    play(&mut game, 1, TED).unwrap();
    let lines = resign(&mut game, 2);
    assert_eq!(lines[0].entry.text, "jed resigns before setting a sequence");
    assert_eq!(game.to_move(), Turn::Player(0));
    assert_eq!(board(&game), format!("ned (36): {NED}\nted (36): {TED}\njed: no sequence (resigned)\n"));
}

#[test]
fn svg_shows_strips_the_last_removal_and_a_legend() {
    let mut game = seed_game(&[]);
    play(&mut game, 0, "AAG").unwrap();
    let svg = game.render_svg(Viewer::Observer, 0, tabula_model::Lang::En);
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("Last: ned nominated AAG (ned 1, ted 1, jed 0)"));
    assert_eq!(svg.matches(">before AAG<").count(), 3, "a before-strip per reduced sequence");
    // Three letters struck from ned and three from ted.
    assert_eq!(svg.matches("<line x1=").count(), 6 + 1, "six struck cells plus the legend's");
    for name in ["adenine", "cytosine", "guanine", "thymine", "removed by the last nomination"] {
        assert!(svg.contains(name), "{name}");
    }
    let last = dna(&game).last_nomination().unwrap();
    assert_eq!(last.positions[0], vec![11, 12, 13]);
    assert_eq!(last.positions[2], Vec::<usize>::new());
}

#[test]
fn svg_fits_a_phone_with_readable_text_and_wrapped_strips() {
    let mut game = seed_game(&[]);
    play(&mut game, 0, "AAG").unwrap();
    let svg = game.render_svg(Viewer::Observer, 0, tabula_model::Lang::En);
    let width: f64 = svg.split("width=\"").nth(1).and_then(|w| w.split('"').next()).unwrap().parse().unwrap();
    assert!(width <= 360.0, "{width}");
    for text in svg.split("<text ").skip(1) {
        let size: f64 =
            text.split("font-size=\"").nth(1).and_then(|s| s.split('"').next()).unwrap().parse().unwrap();
        assert!(size >= 12.0, "{text}");
        let x: f64 = text.split("x=\"").nth(1).and_then(|s| s.split('"').next()).unwrap().parse().unwrap();
        let content = text.split('>').nth(1).and_then(|t| t.split('<').next()).unwrap();
        if !text.contains("text-anchor") {
            assert!(x + content.chars().count() as f64 * size * 0.6 <= width, "{content:?} in {width}");
        }
    }
    // 36 letters a strip: no rect reaches past the right margin.
    for rect in svg.split("<rect x=\"").skip(1) {
        let x: f64 = rect.split('"').next().unwrap().parse().unwrap();
        assert!(x + 16.0 <= width, "{rect}");
    }
}

#[test]
fn names_are_escaped_in_svg() {
    let game = create(&[], &["a<b", "c&d"]);
    let svg = game.render_svg(Viewer::Observer, 0, tabula_model::Lang::En);
    assert!(svg.contains("a&lt;b") && svg.contains("c&amp;d") && !svg.contains("a<b"));
}
