//! Intervalo: the seed's rules turn by turn, secrecy of pending choices,
//! rendering, and the shared random playouts.

use proptest::prelude::*;
use tabula_intervalo::{Cell, Intervalo, KIND};
use tabula_model::testing::{SimConfig, random_sim};
use tabula_model::{
    Event, EventAction, Game, GameKind, MoveError, Options, Rules, SeatResult, Turn, Viewer, rng_for,
};

fn game(cells: usize) -> Game {
    let options = Options::parse(KIND.info(), &[format!("-cells={cells}")]).unwrap();
    Game::create(&KIND, options, vec!["ned".into(), "ted".into()], 1, 0).unwrap()
}

fn choose(g: &mut Game, seat: usize, cell: &str) -> Result<(), MoveError> {
    g.submit(Event { at: 0, seat: Some(seat), action: EventAction::Move(cell.into()) }).map(|_| ())
}

fn turn(g: &mut Game, a: usize, b: usize) {
    choose(g, 0, &a.to_string()).unwrap();
    choose(g, 1, &b.to_string()).unwrap();
}

fn state(g: &Game) -> &Intervalo {
    g.state().as_any().downcast_ref::<Intervalo>().unwrap()
}

#[test]
fn defaults_to_64_cells_and_both_choose_at_once() {
    let options = Options::parse::<&str>(<Intervalo as Rules>::info(), &[]).unwrap();
    let g = Game::create(&KIND, options, vec!["ned".into(), "ted".into()], 1, 0).unwrap();
    assert_eq!(state(&g).len(), 64);
    assert_eq!(g.to_move(), Turn::Simultaneous([0, 1].into()));
    assert_eq!(g.state().legal_moves(0).unwrap().len(), 64);
}

#[test]
fn same_cell_gives_a_neutral_piece_and_no_point() {
    let mut g = game(10);
    turn(&mut g, 4, 4);
    let s = state(&g);
    assert_eq!(s.cells()[3], Cell::Neutral);
    assert_eq!(s.scores(), [0, 0]);
    assert_eq!(s.empty_cells(), 9);
    assert_eq!(s.strip_for(0), "...#......");
}

#[test]
fn more_own_pieces_between_the_two_cells_scores() {
    let mut g = game(10);
    // Turn 1: 1 and 10: one piece each in between, no point.
    turn(&mut g, 1, 10);
    assert_eq!(state(&g).scores(), [0, 0]);
    // Turn 2: ned 3, ted 5: cells 3..=5 hold one piece each.
    turn(&mut g, 3, 5);
    assert_eq!(state(&g).scores(), [0, 0]);
    // Turn 3: ned 2, ted 6: cells 2..=6 hold ned 2,3 and ted 5,6: equal.
    turn(&mut g, 2, 6);
    assert_eq!(state(&g).scores(), [0, 0]);
    // Turn 4: ned 4, ted 9: cells 4..=9 hold ned 4 and ted 5,6,9: ted scores.
    turn(&mut g, 4, 9);
    assert_eq!(state(&g).scores(), [0, 1]);
    // Turn 5: ned 7, ted 8: cells 7..=8: one each.
    turn(&mut g, 7, 8);
    assert_eq!(state(&g).scores(), [0, 1]);
    assert_eq!(state(&g).strip_for(0), "xxxxooxooo");
    assert_eq!(state(&g).strip_for(1), "ooooxxoxxx");
    assert!(g.is_over());
    let o = g.outcome().unwrap();
    assert_eq!(o.result_for(1), SeatResult::Win);
    assert_eq!(o.scores, [tabula_model::Score::whole(0), tabula_model::Score::whole(1)]);
}

#[test]
fn interval_counts_both_ends_inclusive() {
    let mut g = game(7);
    turn(&mut g, 2, 3); // one each, no point
    turn(&mut g, 1, 4); // cells 1..=4: ned 1,2; ted 3,4: no point
    assert_eq!(state(&g).scores(), [0, 0]);
    turn(&mut g, 5, 7); // cells 5..=7: ned 5, ted 7: no point
    // One cell is left: both must choose it, and it becomes neutral.
    assert_eq!(g.to_move(), Turn::Simultaneous([0, 1].into()));
    assert_eq!(g.state().legal_moves(0).unwrap(), vec!["6".to_string()]);
    turn(&mut g, 6, 6);
    assert!(g.is_over());
    assert_eq!(state(&g).strip_for(0), "xxoox#o");
    assert_eq!(g.outcome().unwrap().result_for(0), SeatResult::Draw);
    assert_eq!(g.outcome().unwrap().reason, "equal points");
    // A draw lists its players, as in every other game.
    assert_eq!(g.outcome().unwrap().winners, [0, 1]);
}

#[test]
fn a_point_for_the_side_with_more_pieces() {
    let mut g = game(8);
    turn(&mut g, 2, 8); // no point (one each between 2 and 8)
    turn(&mut g, 3, 7); // cells 3..=7: one each
    // ned 4, ted 1: cells 1..=4 hold ned 2, 3, 4 and ted 1: ned scores.
    turn(&mut g, 4, 1);
    assert_eq!(state(&g).scores(), [1, 0]);
    assert_eq!(state(&g).interval_leader(4, 5), None);
    assert_eq!(state(&g).interval_leader(0, 4), Some(0));
}

#[test]
fn choices_are_secret_until_both_are_in_and_cannot_change() {
    let mut g = game(10);
    choose(&mut g, 0, "5").unwrap();
    assert_eq!(g.to_move(), Turn::Simultaneous([1].into()));
    let e = choose(&mut g, 0, "6").unwrap_err();
    assert!(e.to_string().contains("cannot be changed"), "{e}");
    // ted and observers see that ned has chosen, not what.
    let for_ted = g.render_text(Viewer::Player(1), 0, tabula_model::Lang::En);
    assert!(!for_ted.contains("cell 5"), "{for_ted}");
    assert_eq!(g.history_for(Viewer::Player(1))[0].entry.text, "ned has chosen a cell");
    assert_eq!(g.history_for(Viewer::Observer)[0].entry.text, "ned has chosen a cell");
    assert_eq!(g.history_for(Viewer::Player(0))[0].entry.text, "ned chooses cell 5");
    assert!(g.render_text(Viewer::Player(0), 0, tabula_model::Lang::En).contains("you chose cell 5"));
    // Another pending choice gives ted an identical view.
    let mut other = game(10);
    choose(&mut other, 0, "9").unwrap();
    for v in [Viewer::Player(1), Viewer::Observer] {
        tabula_model::testing::assert_seen_alike(&other, &g, v, 0);
    }
    choose(&mut g, 1, "7").unwrap();
    assert_eq!(g.history_for(Viewer::Player(1))[0].entry.text, "ned chooses cell 5");
    assert_eq!(
        g.history_for(Viewer::Observer).last().unwrap().entry.text,
        "Turn 1: ned 5, ted 7: no point (ned 0, ted 0)."
    );
}

#[test]
fn bad_moves_name_the_problem_and_change_nothing() {
    let mut g = game(10);
    turn(&mut g, 3, 4);
    let before = g.record().clone();
    let cases = [
        ("0", "there is no cell 0: the cells are numbered 1 to 10"),
        ("11", "there is no cell 11: the cells are numbered 1 to 10"),
        ("x", "\"x\" is not a cell number: write a number like 17"),
        ("", "a move is a cell number, like 17"),
        ("3", "cell 3 is not empty"),
        ("99999999999999999999", "\"99999999999999999999\" is not a cell number: write a number like 17"),
    ];
    for (text, message) in cases {
        assert_eq!(choose(&mut g, 0, text).unwrap_err().to_string(), message);
    }
    // A cell off the strip is a move against the rules, not a malformed one.
    for text in ["0", "11"] {
        assert!(matches!(choose(&mut g, 0, text), Err(MoveError::Illegal(_))), "{text}");
    }
    assert!(matches!(choose(&mut g, 0, "x"), Err(MoveError::Malformed(_))));
    assert_eq!(g.record(), &before);
}

#[test]
fn resignation_gives_the_other_player_the_game() {
    let mut g = game(10);
    turn(&mut g, 1, 2);
    g.submit(Event { at: 0, seat: Some(1), action: EventAction::Resign { reason: None } }).unwrap();
    assert!(g.is_over());
    assert_eq!(g.outcome().unwrap().result_for(0), SeatResult::Win);
}

#[test]
fn text_board_has_a_ruler_the_score_and_the_last_turn() {
    let mut g = game(12);
    turn(&mut g, 2, 11);
    turn(&mut g, 5, 5);
    choose(&mut g, 1, "7").unwrap();
    let expected = [
        "            1",
        "   123456789012",
        " 1 .X..#.....O.",
        "Score: X ned 0, O ted 0",
        "Last turn (2): ned 5, ted 5: both chose the same cell: neutral",
        "Turn 3: waiting for ned",
        "",
    ]
    .join("\n");
    assert_eq!(g.render_text(Viewer::Player(0), 0, tabula_model::Lang::En), expected);
    let for_ted = g.render_text(Viewer::Player(1), 0, tabula_model::Lang::En);
    assert!(for_ted.contains(" 1 .O..#.....X.\n"), "{for_ted}");
    assert!(for_ted.contains("Score: O ned 0, X ted 0"), "{for_ted}");
    assert!(for_ted.ends_with("Turn 3: waiting for ned; you chose cell 7\n"), "{for_ted}");
    let observer = g.render_text(Viewer::Observer, 0, tabula_model::Lang::En);
    assert!(observer.contains(" 1 .A..#.....B.\n"), "{observer}");
}

#[test]
fn long_strips_wrap_with_numbered_rows() {
    let g = game(130);
    let text = g.render_text(Viewer::Observer, 0, tabula_model::Lang::En);
    let strips: Vec<&str> = text.lines().filter(|l| l.contains('.')).collect();
    assert_eq!(strips.len(), 3);
    assert!(strips[1].starts_with(" 65 ....."), "{text}");
    assert!(strips[2].starts_with("129 .."), "{text}");
    // Each row has its own ruler, numbered from its first cell: the tens
    // line ends at the row's last ten.
    assert!(text.starts_with("             1         2"), "{text}");
    assert!(text.contains("\n         7         8         9         0         1         2\n"), "{text}");
    assert!(text.contains("\n     3\n    90\n129 ..\n"), "{text}");
}

#[test]
fn svg_highlights_the_last_interval() {
    let mut g = game(10);
    turn(&mut g, 3, 6);
    let svg = g.render_svg(Viewer::Observer, 0, tabula_model::Lang::En);
    assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
    // Cells 3 to 6, and the legend's swatch naming the highlight.
    assert_eq!(svg.matches("#ffe08a").count(), 5, "cells 3 to 6 highlighted");
    assert!(svg.contains("the last turn&#39;s interval"), "{svg}");
}

#[test]
fn determinize_hides_the_opponents_pending_choice() {
    let mut g = game(64);
    choose(&mut g, 1, "40").unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for i in 0..40 {
        let mut rng = rng_for(i, 9);
        let mut guess = g.state().determinize(0, &mut rng);
        assert_eq!(guess.view_json(Viewer::Player(0), 0), g.view_json(Viewer::Player(0), 0));
        let mut ctx_rng = rng_for(0, 0);
        let mut ctx = tabula_model::Ctx { now: 0, rng: &mut ctx_rng, history: true };
        guess.apply(0, "1", &mut ctx).unwrap();
        let s = guess.as_any().downcast_ref::<Intervalo>().unwrap();
        seen.insert(s.turns()[0].choices[1]);
    }
    assert!(seen.len() > 10, "the guess varies: {seen:?}");
    // Seat 1 knows its own choice: its determinization keeps it.
    let mut rng = rng_for(3, 3);
    let mut own = g.state().determinize(1, &mut rng);
    let mut ctx_rng = rng_for(0, 0);
    own.apply(0, "1", &mut tabula_model::Ctx { now: 0, rng: &mut ctx_rng, history: true }).unwrap();
    let s = own.as_any().downcast_ref::<Intervalo>().unwrap();
    assert_eq!(s.turns()[0].choices, [1, 40]);
}

#[test]
fn random_playouts_for_every_option_set() {
    for (cells, games) in [("2", 8), ("3", 8), ("7", 8), ("64", 4), ("150", 1)] {
        random_sim(
            &KIND,
            &SimConfig { options: vec![format!("-cells={cells}")], games, ..SimConfig::default() },
        );
    }
    random_sim(&KIND, &SimConfig { games: 4, ..SimConfig::default() });
}

#[test]
fn cells_option_is_bounded() {
    let info = <Intervalo as Rules>::info();
    assert!(Options::parse(info, &["-cells=1"]).is_err());
    assert!(Options::parse(info, &["-cells=4097"]).is_err());
    assert!(Options::parse(info, &["-cells=4096"]).is_ok());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever the choices, the game ends within `cells` turns, every cell
    /// is filled at the end, and points never exceed the turns with two
    /// different cells.
    #[test]
    fn games_end_with_every_cell_filled(cells in 2usize..40, picks in proptest::collection::vec((0usize..1000, 0usize..1000), 40)) {
        let mut g = game(cells);
        for (a, b) in picks {
            if g.is_over() { break; }
            let legal = g.state().legal_moves(0).unwrap();
            let a = &legal[a % legal.len()];
            let b = &legal[b % legal.len()];
            choose(&mut g, 0, a).unwrap();
            choose(&mut g, 1, b).unwrap();
        }
        prop_assert!(g.is_over());
        let s = state(&g);
        prop_assert!(s.cells().iter().all(|c| *c != Cell::Empty));
        let different = s.turns().iter().filter(|t| t.choices[0] != t.choices[1]).count();
        let [a, b] = s.scores();
        prop_assert!((a + b) as usize <= different);
        let pieces = s.cells().iter().filter(|c| matches!(c, Cell::Piece(_))).count();
        prop_assert_eq!(pieces, 2 * different);
    }

    #[test]
    fn move_parsing_never_panics(text in "\\PC{0,12}") {
        let g = game(64);
        let _ = g.state().check(0, &text);
    }
}

#[test]
fn svg_wraps_the_strip_in_rows_of_ten_and_names_every_colour() {
    let options = Options::parse(KIND.info(), &["-cells=64".to_string()]).unwrap();
    let mut g = Game::create(
        &KIND,
        options,
        vec!["gail1".into(), "a-rather-long-player-name-of-thirty".into()],
        1,
        0,
    )
    .unwrap();
    turn(&mut g, 3, 12);
    let svg = g.render_svg(Viewer::Player(0), 0, tabula_model::Lang::En);
    let width: f64 = svg.split("width=\"").nth(1).and_then(|w| w.split('"').next()).unwrap().parse().unwrap();
    assert!(width <= 360.0, "a phone shows it at full size: {width}");
    // Every cell drawn once, numbered, in rows of ten: cell 11 starts row 2.
    assert_eq!(svg.matches("class=\"cell\"").count(), 64);
    let cell_y = |n: usize| -> f64 {
        let at = svg.find(&format!("data-cell=\"{n}\"")).unwrap();
        svg[at..].split("y=\"").nth(1).and_then(|y| y.split('"').next()).unwrap().parse().unwrap()
    };
    assert_eq!(cell_y(1), cell_y(10));
    assert!(cell_y(11) > cell_y(10));
    // The viewer is X, the other O, on the board and in the legend.
    assert!(svg.contains(">X</text>") && svg.contains(">O</text>"), "{svg}");
    assert!(svg.contains("X gail1 (you): "), "{svg}");
    assert!(svg.contains("# neutral"), "{svg}");
    // No line of text wider than the picture (0.6 em a character).
    for text in svg.split("<text ").skip(1) {
        let size: f64 =
            text.split("font-size=\"").nth(1).and_then(|s| s.split('"').next()).unwrap().parse().unwrap();
        assert!(size >= 12.0, "{text}");
        let content = text.split('>').nth(1).and_then(|t| t.split('<').next()).unwrap();
        assert!(32.0 + content.chars().count() as f64 * size * 0.6 <= width, "{content:?} in {width}");
    }
}

#[test]
fn a_game_counts_its_strip_and_its_turns_for_the_replay_cache() {
    // The service's cache bounds the bytes of the games it keeps; a state
    // that counted only its own struct passed ten thousand games of 1 KiB
    // strips off as a few hundred bytes each.
    let mut g = game(1000);
    let fresh = g.state().memory();
    assert!(fresh >= 1000 * std::mem::size_of::<Cell>(), "a 1,000-cell strip counted as {fresh} bytes");
    for t in 1..=40 {
        turn(&mut g, 2 * t - 1, 2 * t);
    }
    // The history's lines are counted too, in the whole game's figure.
    let played = g.state().memory();
    assert!(g.memory() > played + 120 * std::mem::size_of::<String>(), "{} for the game", g.memory());
    // The words and JSON a reader's history makes are kept with the game,
    // and counted once, however often they are read again; a copy of the
    // game counts what it copied.
    let before = g.memory();
    let copy_before = g.clone().memory();
    let history = g.history_in(Viewer::Observer, tabula_model::Lang::Fi);
    let words: usize = history.iter().map(|h| h.entry.text.len()).sum();
    let shown = g.memory();
    assert!(
        shown >= before + 2 * words,
        "{before} bytes, then {shown} with {words} bytes of words and their JSON"
    );
    g.history_in(Viewer::Observer, tabula_model::Lang::Fi);
    assert_eq!(g.memory(), shown, "lines read again are not counted again");
    assert_eq!(g.clone().memory() - copy_before, shown - before);
}
