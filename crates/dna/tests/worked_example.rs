//! The spec's worked example, verbatim, through the common game model.

mod common;

use common::*;
use tabula_model::{Lang, MoveError, Turn, Viewer};

#[test]
fn the_seed_game_move_by_move() {
    let mut game = create(&["-manual"], &["ned", "ted", "jed"]);
    assert_eq!(game.to_move(), Turn::Simultaneous([0, 1, 2].into()));
    play(&mut game, 0, NED).unwrap();
    play(&mut game, 1, TED).unwrap();
    play(&mut game, 2, JED).unwrap();
    assert_eq!(game.to_move(), Turn::Player(0));
    assert_eq!(
        board(&game),
        "ned (36): TCGCATGTACAAAGTTTTCAATCTTCGCCTTGAGAG\n\
         ted (36): TCAGCGCGTTCCCGGAGTCGTCGTATTAAAGGGGAT\n\
         jed (36): GCCAATTATGGACTTGTTGTCAGATAGTTTCCGGCG\n"
    );

    // TTG occurs twice in jed's sequence: too many for the first player.
    let error = play(&mut game, 0, "TTG").unwrap_err();
    assert!(matches!(error, MoveError::Illegal(_)));
    assert_eq!(
        error.to_string(),
        "TTG would remove 2 chunks from jed: in the first round the 1st player may remove at most 1 chunk from any one opponent"
    );

    let lines = play(&mut game, 0, "AAG").unwrap();
    assert_eq!(lines[0].entry.text, "ned: AAG (ned 1, ted 1, jed 0)");
    assert_eq!(
        board(&game),
        "ned (33): TCGCATGTACATTTTCAATCTTCGCCTTGAGAG\n\
         ted (33): TCAGCGCGTTCCCGGAGTCGTCGTATTAGGGAT\n\
         jed (36): GCCAATTATGGACTTGTTGTCAGATAGTTTCCGGCG\n"
    );
    assert_eq!(game.to_move(), Turn::Player(1));

    // 2 from ned, 1 from ted, 1 from jed: legal, ted may take up to 2.
    let lines = play(&mut game, 1, "TTC").unwrap();
    assert_eq!(lines[0].entry.text, "ted: TTC (ned 2, ted 1, jed 1)");
    assert_eq!(
        board(&game),
        "ned (27): TCGCATGTACATTAATCGCCTTGAGAG\n\
         ted (30): TCAGCGCGCCGGAGTCGTCGTATTAGGGAT\n\
         jed (33): GCCAATTATGGACTTGTTGTCAGATAGTCGGCG\n"
    );
    assert_eq!(game.to_move(), Turn::Player(2));
    // Every viewer sees the same board once the sequences are revealed.
    for viewer in [Viewer::Player(0), Viewer::Player(1), Viewer::Player(2)] {
        assert_eq!(game.render_text(viewer, 0, tabula_model::Lang::En), board(&game));
    }
    // `help dna` tells this example: each of its boards is the game's.
    let rules = tabula_dna::INFO.rules(Lang::En);
    let indented = |b: &str| b.lines().map(|l| format!("  {l}\n")).collect::<String>();
    assert!(rules.contains(&indented(&board(&game))), "{rules}");
}

#[test]
fn the_seed_game_without_manual_set_up_is_random_and_seeded() {
    let a = create(&[], &["ned", "ted", "jed"]);
    let b = create(&[], &["ned", "ted", "jed"]);
    assert_eq!(board(&a), board(&b));
    for seat in 0..3 {
        let s = sequence(&a, seat);
        assert_eq!(s.len(), 36);
        assert!(s.bytes().all(|c| b"ACGT".contains(&c)), "{s}");
    }
    assert_ne!(sequence(&a, 0), sequence(&a, 1));
}
