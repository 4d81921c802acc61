//! Conway's rules through the shared game model: the placement ramp,
//! generations, birth owners, elimination, the end, resignation, random
//! moves, rendering, and random playouts.

use tabula_conway::{Conway, KIND};
use tabula_life::Owner;
use tabula_model::coords::parse_point;
use tabula_model::testing::{SimConfig, random_sim};
use tabula_model::{Event, EventAction, Game, MoveError, Options, ProposalKind, SeatResult, Turn, Viewer};

fn game(players: &[&str], options: &[&str]) -> Game {
    let opts = Options::parse(&tabula_conway::INFO, options).unwrap();
    Game::create(&KIND, opts, players.iter().map(|p| p.to_string()).collect(), 42, 0).unwrap()
}

fn play(g: &mut Game, seat: usize, text: &str) -> Result<Vec<String>, MoveError> {
    let event = Event { at: 1000, seat: Some(seat), action: EventAction::Move(text.into()) };
    g.submit(event).map(|h| h.into_iter().map(|e| e.entry.text).collect())
}

fn state(g: &Game) -> &Conway {
    g.state().as_any().downcast_ref::<Conway>().unwrap()
}

fn at(g: &Game, p: &str) -> Option<Owner> {
    state(g).at(parse_point(p).unwrap())
}

#[test]
fn the_placement_ramp() {
    let mut g = game(&["ann", "bob"], &["-size=12", "-place=4"]);
    let e = play(&mut g, 0, "a1,b1").unwrap_err();
    assert_eq!(e.to_string(), "move 1 may place at most 1 piece, not 2");
    play(&mut g, 0, "a1").unwrap();
    assert_eq!(play(&mut g, 1, "a1").unwrap_err().to_string(), "a1 is not empty: it holds ann's piece");
    assert_eq!(play(&mut g, 1, "c3,c3").unwrap_err().to_string(), "c3 is listed twice");
    assert_eq!(play(&mut g, 1, "m1").unwrap_err().to_string(), "m1 is off the board (a1 to l12)");
    assert_eq!(play(&mut g, 1, "a13").unwrap_err().to_string(), "a13 is off the board (a1 to l12)");
    assert!(matches!(play(&mut g, 1, "hello"), Err(MoveError::Malformed(_))));
    assert!(matches!(play(&mut g, 0, "b2"), Err(MoveError::NotYourTurn(_))));
    assert_eq!(state(&g).allowed(), 2);
    play(&mut g, 1, "h8,h9").unwrap();
    assert_eq!(state(&g).allowed(), 3);
    play(&mut g, 0, "a2,b1,b2").unwrap();
    assert_eq!(state(&g).allowed(), 4);
    assert_eq!(state(&g).generation(), 0, "no generation before move P");
    play(&mut g, 1, "h10").unwrap();
    assert_eq!(state(&g).generation(), 1, "move P is followed by a generation");
    assert_eq!((state(&g).pieces(0), state(&g).pieces(1)), (4, 3), "a block and a blinker");
    assert_eq!(state(&g).allowed(), 4, "the ramp stops at P");
    play(&mut g, 0, "pass").unwrap();
    assert_eq!(state(&g).generation(), 2);
    // Fewer pieces than allowed are fine; nothing changes after a refusal.
    let before = g.render_text(Viewer::Observer, 0, tabula_model::Lang::En);
    assert!(play(&mut g, 1, "a5,a6,a7,a8,a9").is_err());
    assert_eq!(g.render_text(Viewer::Observer, 0, tabula_model::Lang::En), before);
    play(&mut g, 1, "e5,f5").unwrap();
    assert_eq!(state(&g).moves(), 6);
}

#[test]
fn births_go_to_the_majority_or_neutral() {
    // Three players; after move 3 (P = 3) the generation runs.
    let mut g = game(&["ann", "bob", "cy"], &["-size=10", "-place=3"]);
    // ann: b5; bob: d5 and e9; cy: c3, h8, h9 (the last two and e9 are far away).
    play(&mut g, 0, "b5").unwrap();
    play(&mut g, 1, "d5,e9").unwrap();
    // c4 has neighbours b5 (ann), d5 (bob) and c3 (cy): three owners, neutral.
    play(&mut g, 2, "c3,h8,h9").unwrap();
    assert_eq!(at(&g, "c4"), Some(Owner::Neutral));
    assert_eq!(state(&g).neutral_pieces(), 1);

    let mut g = game(&["ann", "bob"], &["-size=10", "-place=3"]);
    play(&mut g, 0, "b5").unwrap();
    play(&mut g, 1, "d5,j1").unwrap();
    play(&mut g, 0, "c3").unwrap();
    // c4: b5 (ann), d5 (bob), c3 (ann): ann's.
    assert_eq!(at(&g, "c4"), Some(Owner::Player(0)));
}

#[test]
fn the_board_wraps() {
    // A horizontal blinker across the right edge of a 6x6 torus turns vertical through a1.
    let mut g = game(&["ann", "bob"], &["-size=6", "-place=3"]);
    play(&mut g, 0, "f1").unwrap();
    play(&mut g, 1, "c4,d4").unwrap();
    play(&mut g, 0, "a1,b1").unwrap();
    assert_eq!(at(&g, "a2"), Some(Owner::Player(0)));
    assert_eq!(at(&g, "a6"), Some(Owner::Player(0)), "row 6 is next to row 1");
    assert_eq!(at(&g, "a1"), Some(Owner::Player(0)));
    assert_eq!(at(&g, "f1"), None);
}

#[test]
fn a_complete_game_to_a_win() {
    let mut g = game(&["ann", "bob"], &["-size=8", "-place=3"]);
    assert_eq!(play(&mut g, 0, "b2").unwrap(), ["b2"]);
    assert_eq!(play(&mut g, 1, "f6,g6").unwrap(), ["f6,g6"]);
    // ann completes a block, a still life; bob's pair dies of loneliness.
    let lines = play(&mut g, 0, "c2,b3,c3").unwrap();
    assert_eq!(lines, ["c2,b3,c3", "bob is out: no pieces left", "ann wins: last player standing"]);
    assert!(g.is_over());
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.result_for(0), SeatResult::Win);
    assert_eq!(outcome.result_for(1), SeatResult::Loss);
    assert_eq!(play(&mut g, 1, "a1").unwrap_err(), MoveError::GameOver);
    let text = g.render_text(Viewer::Observer, 0, tabula_model::Lang::En);
    assert_eq!(
        text,
        "  abcdefgh
8 ........ 8
7 ........ 7
6 ........ 6
5 ........ 5
4 ........ 4
3 .AA..... 3
2 .AA..... 2
1 ........ 1
  abcdefgh

A ann 4 pieces (winner)
B bob 0 pieces (out)
# neutral 0 pieces
Move 3, generation 1
"
    );
    let replayed = Game::replay(&KIND, g.record().clone()).unwrap();
    assert_eq!(replayed.render_text(Viewer::Observer, 0, tabula_model::Lang::En), text);
}

#[test]
fn the_last_players_vanishing_together_draw() {
    // With -place=1 every move is followed by a generation and lone pieces die.
    let mut g = game(&["ann", "bob", "cy"], &["-size=5", "-place=1"]);
    play(&mut g, 0, "a1").unwrap();
    play(&mut g, 1, "c3").unwrap();
    assert!(!g.is_over(), "nobody is out before everyone has had a turn");
    assert!(g.state().is_active(0));
    let lines = play(&mut g, 2, "e5").unwrap();
    assert_eq!(
        lines[1..],
        [
            "ann is out: no pieces left",
            "bob is out: no pieces left",
            "cy is out: no pieces left",
            "The game is a draw: ann, bob, cy vanished together"
        ]
    );
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.winners, vec![0, 1, 2]);
    assert_eq!(outcome.result_for(1), SeatResult::Draw);
}

#[test]
fn no_one_is_out_before_everyone_has_moved() {
    // Eight players, -place=4: the first generation follows move 4.
    let players = ["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"];
    let mut g = game(&players, &[]);
    for (seat, mv) in ["a1", "c3,c4", "pass", "h8"].iter().enumerate() {
        play(&mut g, seat, mv).unwrap();
    }
    assert_eq!(state(&g).generation(), 1);
    assert_eq!(state(&g).pieces(0), 0);
    assert!((0..8).all(|s| g.state().is_active(s)), "players 5 to 8 have not moved: nobody is out");
    assert_eq!(g.to_move(), Turn::Player(4));
    for seat in 4..8 {
        play(&mut g, seat, "pass").unwrap();
    }
    // Everyone has had a turn and nobody has pieces: all eight vanish together.
    assert!(g.is_over());
    assert_eq!(g.outcome().unwrap().winners.len(), 8);
}

#[test]
fn eliminated_players_are_skipped() {
    let mut g = game(&["ann", "bob", "cy"], &["-size=10", "-place=3"]);
    play(&mut g, 0, "b2").unwrap();
    play(&mut g, 1, "h3,i3").unwrap();
    // cy's three pieces form a blinker; ann's and bob's pieces die.
    play(&mut g, 2, "d9,e9,f9").unwrap();
    assert!(!g.state().is_active(0));
    assert!(g.state().is_active(2));
    assert!(!g.state().is_active(1));
    assert!(g.is_over(), "only cy has pieces");
    assert_eq!(g.outcome().unwrap().sole_winner(), Some(2));
}

#[test]
fn max_turns_ends_by_piece_count() {
    let mut g = game(&["ann", "bob"], &["-size=10", "-place=4", "-max_turns=4"]);
    play(&mut g, 0, "b2").unwrap();
    play(&mut g, 1, "g7,h7").unwrap();
    play(&mut g, 0, "c2,b3,c3").unwrap();
    assert!(!g.is_over());
    assert!(
        g.render_text(Viewer::Observer, 0, tabula_model::Lang::En).contains("; the game ends after move 4\n")
    );
    // bob's blinker (3 after the generation) against ann's block (4).
    let lines = play(&mut g, 1, "i7").unwrap();
    assert!(g.is_over());
    assert_eq!(lines.last().unwrap(), "ann wins with the most pieces (4)");
    let board = g.render_text(Viewer::Observer, 0, tabula_model::Lang::En);
    assert!(!board.contains("ends after"), "a finished game announces no end: {board}");
    let o = g.outcome().unwrap();
    assert_eq!(o.sole_winner(), Some(0));
    assert_eq!(o.scores, [tabula_model::Score::whole(4), tabula_model::Score::whole(3)]);

    let mut g = game(&["ann", "bob"], &["-size=10", "-place=4", "-max_turns=4"]);
    play(&mut g, 0, "b2").unwrap();
    play(&mut g, 1, "g7,h7").unwrap();
    play(&mut g, 0, "c2,b3,c3").unwrap();
    play(&mut g, 1, "h8,g8").unwrap();
    assert_eq!(g.outcome().unwrap().winners, vec![0, 1], "two blocks: a draw");
}

#[test]
fn resignation_turns_pieces_neutral() {
    let mut g = game(&["ann", "bob", "cy"], &["-size=10", "-place=4"]);
    play(&mut g, 0, "b2").unwrap();
    play(&mut g, 1, "g7,h7").unwrap();
    g.submit(Event { at: 5, seat: Some(1), action: EventAction::Resign { reason: None } }).unwrap();
    assert_eq!(at(&g, "g7"), Some(Owner::Neutral));
    assert_eq!(state(&g).neutral_pieces(), 2);
    assert!(!g.state().is_active(1));
    assert_eq!(g.to_move(), Turn::Player(2));
    play(&mut g, 2, "e5").unwrap();
    // ann moves next; bob is skipped from now on.
    assert_eq!(g.to_move(), Turn::Player(0));
    g.submit(Event { at: 6, seat: Some(2), action: EventAction::Resign { reason: None } }).unwrap();
    assert!(g.is_over());
    assert_eq!(g.outcome().unwrap().sole_winner(), Some(0));
}

#[test]
fn random_moves_are_starred_and_replay() {
    let mut g = game(&["ann", "bob"], &["-size=10"]);
    play(&mut g, 0, "random").unwrap();
    let lines = play(&mut g, 1, "random").unwrap();
    assert!(lines[0].ends_with('*') && lines[0].split(',').count() == 2, "{lines:?}");
    assert_eq!(state(&g).pieces(1), 2);
    assert_eq!(state(&g).pieces(0), 1);
    let replayed = Game::replay(&KIND, g.record().clone()).unwrap();
    assert_eq!(replayed.history_for(Viewer::Observer), g.history_for(Viewer::Observer));
    assert_eq!(
        replayed.render_text(Viewer::Observer, 0, tabula_model::Lang::En),
        g.render_text(Viewer::Observer, 0, tabula_model::Lang::En)
    );
}

#[test]
fn large_boards_use_spreadsheet_columns() {
    let mut g = game(&["ann", "bob"], &["-size=30"]);
    play(&mut g, 0, "ad30").unwrap();
    assert_eq!(at(&g, "ad30"), Some(Owner::Player(0)));
    let text = g.render_text(Viewer::Observer, 0, tabula_model::Lang::En);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "                             aaaa");
    assert_eq!(lines[1], "   abcdefghijklmnopqrstuvwxyzabcd");
    assert_eq!(lines[2], format!("30 {}A 30", ".".repeat(29)));
    assert!(Options::parse(&tabula_conway::INFO, &["-size=4"]).is_err());
    assert!(Options::parse(&tabula_conway::INFO, &["-size=703"]).is_err());
}

#[test]
fn svg_is_a_standalone_picture() {
    let mut g = game(&["ann", "<b&b>"], &[]);
    play(&mut g, 0, "a1").unwrap();
    let svg = g.render_svg(Viewer::Observer, 0, tabula_model::Lang::En);
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("#0072b2"), "ann's colour");
    assert!(svg.contains("&lt;b&amp;b&gt;"));
    assert!(!svg.contains("<b&b>"));
}

#[test]
fn random_playouts() {
    for (options, players) in [
        (vec![], 2),
        (vec!["-size=5", "-place=1"], 3),
        (vec!["-size=7", "-place=2", "-max_turns=30"], 4),
        (vec!["-size=12", "-place=6"], 8),
        (vec!["-size=28", "-place=4", "-max_turns=12"], 2),
    ] {
        let options = options.into_iter().map(String::from).collect();
        random_sim(&KIND, &SimConfig { options, players, games: 8, max_events: 300, ..SimConfig::default() });
    }
}

fn act(g: &mut Game, seat: usize, action: EventAction) -> Result<(), MoveError> {
    g.submit(Event { at: 1000, seat: Some(seat), action }).map(|_| ())
}

/// The numbered lines of the history: what a move list prints.
fn numbered(g: &Game) -> Vec<(usize, String)> {
    g.history_for(Viewer::Observer)
        .into_iter()
        .filter(|h| h.opens && !h.undone)
        .map(|h| (h.number, h.entry.text))
        .collect()
}

#[test]
fn a_resignation_takes_no_move_number() {
    let mut g = game(&["ann", "bob", "cid"], &["-size=10", "-place=8"]);
    play(&mut g, 0, "j10").unwrap();
    play(&mut g, 1, "e5").unwrap();
    act(&mut g, 2, EventAction::Resign { reason: None }).unwrap();
    play(&mut g, 0, "a1").unwrap();
    assert_eq!(g.moves(), 3);
    assert_eq!(state(&g).moves(), 3, "the game's own count agrees");
    let lines: Vec<usize> = numbered(&g).into_iter().map(|(n, _)| n).collect();
    assert_eq!(lines, [1, 2, 3]);
    // `show B#2` is the game after move 2 and what followed it before move 3.
    let past = Game::replay_prefix(&KIND, g.record().clone(), 2).unwrap();
    assert_eq!((past.moves(), state(&past).moves()), (2, 2));
}

#[test]
fn an_undone_move_gives_its_number_to_the_move_made_instead() {
    let mut g = game(&["ann", "bob"], &["-size=10", "-place=8"]);
    play(&mut g, 0, "j10").unwrap();
    play(&mut g, 1, "e5").unwrap();
    act(&mut g, 0, EventAction::Propose(ProposalKind::Undo)).unwrap();
    act(&mut g, 1, EventAction::Accept).unwrap();
    play(&mut g, 1, "f5").unwrap();
    assert_eq!(numbered(&g), [(1, "j10".to_string()), (2, "f5".to_string())]);
    let undone: Vec<_> =
        g.history_for(Viewer::Observer).into_iter().filter(|h| h.undone).map(|h| h.entry.text).collect();
    assert_eq!(undone, ["e5"]);
}

#[test]
fn a_player_who_resigned_has_no_vote() {
    let mut g = game(&["ann", "bob", "cid"], &["-size=10", "-place=8"]);
    play(&mut g, 0, "j10").unwrap();
    play(&mut g, 1, "e5").unwrap();
    act(&mut g, 2, EventAction::Resign { reason: None }).unwrap();
    for kind in [ProposalKind::Undo, ProposalKind::Draw] {
        act(&mut g, 0, EventAction::Propose(kind)).unwrap();
        for vote in [EventAction::Accept, EventAction::Reject] {
            let before = g.history_for(Viewer::Observer).len();
            let err = act(&mut g, 2, vote).unwrap_err();
            assert_eq!(err.to_string(), "you are no longer in this game");
            assert_eq!(g.history_for(Viewer::Observer).len(), before, "a refusal changes nothing");
        }
        act(&mut g, 1, EventAction::Reject).unwrap();
    }
    // A vote with nothing proposed is refused as such, whoever casts it.
    assert_eq!(act(&mut g, 2, EventAction::Accept).unwrap_err().to_string(), "nothing has been proposed");
}

/// A count on the board is written as the reader's language writes a
/// quantity; English keeps the ungrouped digits its goldens have.
#[test]
fn piece_counts_are_written_as_the_reader_s_language_writes_them() {
    let count = |lang| tabula_model::msg!("conway-board-pieces", pieces = 12345_i64).render(lang);
    assert_eq!(count(tabula_model::Lang::En), "12345 pieces");
    assert_eq!(count(tabula_model::Lang::Fi), "12\u{a0}345 nappulaa");
    assert_eq!(count(tabula_model::Lang::Es), "12.345 fichas");
}

#[test]
fn a_game_counts_its_field_for_the_replay_cache() {
    // The service's cache bounds the bytes of the games it keeps: a
    // 702 x 702 board holds at least a bit per cell for each of its planes.
    let g = game(&["ann", "bob"], &["-size=702"]);
    let memory = g.state().memory();
    assert!(memory >= 702 * 702 / 8, "a 702 x 702 field counted as {memory} bytes");
}
