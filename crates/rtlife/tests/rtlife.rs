//! Real-Time Life through its rules and through the shared game model: the
//! seed's scoring example, path costs, joining, spending, generations on
//! every kind of edge, the clock, the end, views, and random playouts.

use tabula_life::Owner;
use tabula_model::coords::{Point, parse_point};
use tabula_model::testing::{SimConfig, random_sim};
use tabula_model::{
    Ctx, Event, EventAction, Game, MoveError, Options, Rules, Seat, Setup, Timestamp, Turn, Viewer, rng_for,
};
use tabula_rtlife::{INFO, KIND, RtLife, RtMove, Score};

const A: Owner = Owner::Player(0);
const B: Owner = Owner::Player(1);
const N: Owner = Owner::Neutral;
const HOUR: Timestamp = 3_600_000;

fn p(text: &str) -> Point {
    parse_point(text).unwrap()
}

fn xy(x: i64, y: i64) -> Point {
    Point { x, y }
}

fn options(words: &[&str]) -> Options {
    Options::parse(&INFO, words).unwrap()
}

/// A game whose field already holds `cells`; every player counts as placed.
fn position(words: &[&str], players: &[&str], cells: &[(Point, Owner)]) -> RtLife {
    let options = options(words);
    let players: Vec<String> = players.iter().map(|s| s.to_string()).collect();
    RtLife::with_cells(&Setup { options: &options, players: &players, start: 0 }, cells).unwrap()
}

fn fresh(words: &[&str], players: &[&str]) -> RtLife {
    let options = options(words);
    let players: Vec<String> = players.iter().map(|s| s.to_string()).collect();
    RtLife::new(&Setup { options: &options, players: &players, start: 0 }, &mut rng_for(1, 0)).unwrap()
}

/// Apply the next `n` clock events at their due times.
fn tick(game: &mut RtLife, n: usize) {
    for _ in 0..n {
        let due = game.next_clock().expect("a tick is due");
        game.clock(&mut Ctx { now: due, rng: &mut rng_for(1, 0), history: true });
    }
}

fn play(game: &mut RtLife, seat: Seat, text: &str) -> Result<(), MoveError> {
    let mv = game.parse_move(seat, text)?;
    game.check_move(seat, &mv)?;
    game.apply_move(seat, mv, &mut Ctx { now: 0, rng: &mut rng_for(1, 0), history: true });
    Ok(())
}

/// A 2x2 block with its bottom-left corner at `(x, y)`.
fn block(x: i64, y: i64, owner: Owner) -> Vec<(Point, Owner)> {
    [(0, 0), (1, 0), (0, 1), (1, 1)].iter().map(|&(dx, dy)| (xy(x + dx, y + dy), owner)).collect()
}

/// The long long ship, a still life of 10 connected cells, from `(x, y)`.
fn long_long_ship(x: i64, y: i64) -> Vec<Point> {
    [(0, 4), (1, 4), (0, 3), (2, 3), (1, 2), (3, 2), (2, 1), (4, 1), (3, 0), (4, 0)]
        .iter()
        .map(|&(dx, dy)| xy(x + dx, y + dy))
        .collect()
}

fn place_text(points: &[Point]) -> String {
    format!("place {}", points.iter().map(Point::to_string).collect::<Vec<_>>().join(","))
}

#[test]
fn the_seed_scoring_example() {
    // ann has 25 blocks (100 cells, all still) from the start; bob joins
    // with a 10-cell still life just before generation 10. At generation 10
    // ann adds 100 / 10 and bob 10 / 1: 10 points each.
    let cells: Vec<(Point, Owner)> =
        (0..25).flat_map(|i| block(1 + (i % 10) * 4, 1 + (i / 10) * 4, A)).collect();
    let mut game = position(&["-tick=1s", "-gen_ticks=1", "-width=72", "-height=36"], &["ann"], &cells);
    tick(&mut game, 9);
    assert_eq!(game.generation(), 9);
    assert_eq!(game.cells(0), 100);
    let before = game.score(0);
    let bob = game.join("bob").unwrap();
    assert_eq!(bob, 1);
    play(&mut game, bob, &place_text(&long_long_ship(60, 20))).unwrap();
    tick(&mut game, 1);
    assert_eq!(game.generation(), 10);
    assert_eq!((game.cells(0), game.cells(1)), (100, 10));
    let ann_added = Score::ratio(100, 10).unwrap();
    assert_eq!(before.saturating_add(ann_added), game.score(0));
    assert_eq!(game.score(1), Score::ratio(10, 1).unwrap());
    assert_eq!(ann_added, game.score(1));
    assert_eq!(game.score(1).to_string(), "10.00");
    // ann's whole score: 100 * (1 + 1/2 + .. + 1/10) = 292.896..
    assert_eq!(game.score(0).to_string(), "292.90");
    let text = RtLife::render_text(&game.view(Viewer::Observer, 10_000), tabula_model::Lang::En);
    assert!(text.contains("\nA ann       100 cells   100 points  score 292.90\n"), "{text}");
    assert!(text.contains("\nB bob        10 cells     1 point   score 10.00\n"), "{text}");
}

#[test]
fn points_come_every_tick_one_per_ten_cells_at_least_one() {
    let mut cells = block(1, 1, A);
    for i in 0..6 {
        cells.extend(block(10 + 4 * i, 10, B));
    }
    let mut game = position(&["-tick=1s", "-gen_ticks=1000"], &["ann", "bob", "cy"], &cells);
    // cy counts as placed but has no cells: still one point a tick.
    tick(&mut game, 3);
    assert_eq!((game.points(0), game.points(1), game.points(2)), (3, 6, 3));
    assert_eq!(game.ticks(), 3);
    assert_eq!(game.generation(), 0);
}

#[test]
fn a_wall_forces_a_detour_and_points_are_spent_only_on_success() {
    // A neutral wall on column f from row 1 to row 9; ann's cell at d5.
    let mut cells: Vec<(Point, Owner)> = (0..=8).map(|y| (xy(5, y), N)).collect();
    cells.push((p("d5"), A));
    let mut game = position(&["-tick=1s", "-gen_ticks=1000", "-width=20", "-height=20"], &["ann"], &cells);
    tick(&mut game, 9);
    assert_eq!(game.points(0), 9);
    // The straight line d5-h5 would cost 4, but the wall makes it 10.
    let err = game.move_cost(0, &[(p("d5"), p("h5"))]).unwrap_err();
    assert_eq!(err.to_string(), "d5-h5 costs at least 10 points; you have 9");
    assert_eq!(play(&mut game, 0, "move d5-h5"), Err(err));
    assert_eq!(game.points(0), 9);
    assert_eq!(game.at(p("d5")), Some(A));
    // The wall stands on the bottom edge, so the only way round is over f10.
    assert_eq!(game.move_cost(0, &[(p("d5"), p("d6"))]), Ok(1));
    tick(&mut game, 1);
    assert_eq!(game.move_cost(0, &[(p("d5"), p("h5"))]), Ok(10));
    play(&mut game, 0, "move d5-h5").unwrap();
    assert_eq!(game.points(0), 0);
    assert_eq!((game.at(p("d5")), game.at(p("h5"))), (None, Some(A)));
}

#[test]
fn a_sealed_cell_cannot_move() {
    let mut cells: Vec<(Point, Owner)> = Vec::new();
    for dx in -1..=1 {
        for dy in -1..=1 {
            let owner = if (dx, dy) == (0, 0) { A } else { B };
            cells.push((xy(5 + dx, 5 + dy), owner));
        }
    }
    let mut game =
        position(&["-tick=1s", "-gen_ticks=1000", "-width=20", "-height=20"], &["ann", "bob"], &cells);
    tick(&mut game, 50);
    let err = play(&mut game, 0, "move f6-p16").unwrap_err();
    assert_eq!(err.to_string(), "f6 cannot reach p16: every path is blocked by other cells");
    assert_eq!(game.points(0), 50);
    // bob's ring cells can move out, and then ann's cell can leave.
    assert!(play(&mut game, 0, "move e5-e4").unwrap_err().to_string().contains("your own cells"));
    play(&mut game, 1, "move e5-e4").unwrap();
    play(&mut game, 0, "move f6-e5,e5-d4").unwrap();
    assert_eq!(game.points(0), 48);
    assert_eq!(game.at(p("d4")), Some(A));
}

#[test]
fn several_moves_are_all_or_none() {
    let cells: Vec<(Point, Owner)> = vec![(p("c3"), A), (p("d3"), A), (p("j10"), B)];
    let mut game =
        position(&["-tick=1s", "-gen_ticks=1000", "-width=12", "-height=12"], &["ann", "bob"], &cells);
    tick(&mut game, 3);
    assert_eq!(game.points(0), 3);
    // The second move is fine alone but too dear after the first.
    let err = play(&mut game, 0, "move c3-c5,d3-d5").unwrap_err();
    assert_eq!(err.to_string(), "d3-d5 costs at least 2 points; you have 1 left after the earlier moves");
    // A later move from an empty point, or onto a taken one, spoils them all.
    let err = play(&mut game, 0, "move c3-c4,c3-c2").unwrap_err();
    assert_eq!(err.to_string(), "c3 is empty: there is no cell to move");
    let err = play(&mut game, 0, "move c3-c4,d3-j10").unwrap_err();
    assert_eq!(err.to_string(), "j10 is not empty: it holds bob's cell");
    assert_eq!((game.at(p("c3")), game.at(p("c4"))), (Some(A), None));
    assert_eq!(game.points(0), 3);
    // In order: the first move frees c3 for the second.
    play(&mut game, 0, "move c3-c4,d3-c3").unwrap();
    assert_eq!(game.points(0), 1);
    assert_eq!((game.at(p("c4")), game.at(p("c3")), game.at(p("d3"))), (Some(A), Some(A), None));
}

#[test]
fn moves_need_placed_own_cells_on_the_field() {
    let mut game = fresh(&["-tick=1s"], &["ann", "bob"]);
    let err = play(&mut game, 0, "move c5-c6").unwrap_err();
    assert_eq!(err.to_string(), "place your 10 cells first: place c5,d5,...");
    let ten = long_long_ship(2, 2);
    play(&mut game, 0, &place_text(&ten)).unwrap();
    let err = play(&mut game, 0, &place_text(&long_long_ship(20, 20))).unwrap_err();
    assert!(err.to_string().starts_with("you have placed your cells already"), "{err}");
    tick(&mut game, 1);
    let err = play(&mut game, 0, "move c3-zz40").unwrap_err();
    assert_eq!(err.to_string(), "zz40 is off the field (a1 to bt36)");
    let err = play(&mut game, 0, "move c4-c5").unwrap_err();
    assert_eq!(err.to_string(), "c4 is empty: there is no cell to move");
    let err = play(&mut game, 0, "move c7-c7").unwrap_err();
    assert_eq!(err.to_string(), "c7-c7 does not move the cell");
}

#[test]
fn placing_needs_exactly_the_start_cells_connected_and_empty() {
    let mut game = fresh(&["-tick=1s"], &["ann", "bob"]);
    let err = play(&mut game, 0, "place a1,b1,c1").unwrap_err();
    assert_eq!(err.to_string(), "place exactly 10 cells, not 3");
    let err = play(&mut game, 0, "place a1,b1,c1,d1,e1,f1,g1,h1,i1,k1").unwrap_err();
    assert_eq!(
        err.to_string(),
        "the cells must all be connected (touching horizontally, vertically or diagonally): k1 is not connected to a1"
    );
    let err = play(&mut game, 0, "place a1,b1,c1,d1,e1,f1,g1,h1,i1,i1").unwrap_err();
    assert_eq!(err.to_string(), "i1 is listed twice");
    let err = play(&mut game, 0, "place a1,b1,c1,d1,e1,f1,g1,h1,i1,j1,k1").unwrap_err();
    assert_eq!(err.to_string(), "too many points: at most 10");
    // Diagonal touching connects.
    play(&mut game, 0, "place a1,b2,c3,d4,e5,f6,g7,h8,i9,j10").unwrap();
    let err = play(&mut game, 1, "join e5,f5,g5,h5,i5,j5,k5,l5,m5,n5").unwrap_err();
    assert_eq!(err.to_string(), "e5 is not empty: it holds ann's cell");
    assert!(!game.has_placed(1));
}

#[test]
fn moves_parse_and_format_canonically() {
    let game = fresh(&["-edges=unbounded"], &["ann"]);
    let mv = game.parse_move(0, "MOVE C5-f8, (-3,12)-(-4,-5)").unwrap();
    assert_eq!(mv, RtMove::Move(vec![(p("c5"), p("f8")), (xy(-3, 12), xy(-4, -5))]));
    assert_eq!(game.format_move(&mv), "move c5-f8,(-3,12)-(-4,-5)");
    assert_eq!(game.parse_move(0, "c5-f8").unwrap(), RtMove::Move(vec![(p("c5"), p("f8"))]));
    let place = game.parse_move(0, "join (0,0),b1,(2,0)").unwrap();
    assert_eq!(game.format_move(&place), "place a1,b1,c1");
    assert_eq!(game.parse_move(0, "a1,b1").unwrap(), RtMove::Place(vec![p("a1"), p("b1")]));
    for (bad, message) in [
        ("", "give a move: place c5,d5,... or move c5-f8"),
        ("move", "give the moves, like move c5-f8"),
        ("move c5", "\"c5\" is not a move: write from-to, like c5-f8"),
        ("move c5-f8,", "a move is missing between commas: write c5-f8,a1-b2"),
        ("move c5-f8-g9", "\"c5-f8-g9\" is not a move: write from-to, like c5-f8"),
        ("jump c5", "\"jump\" is not a move: write place c5,d5,... or move c5-f8"),
        ("place", "give the 10 points to place, like place c5,d5,e5"),
    ] {
        assert_eq!(game.parse_move(0, bad).unwrap_err().to_string(), message, "{bad:?}");
    }
    let many = vec!["a1-a2"; 101].join(",");
    assert!(game.parse_move(0, &many).unwrap_err().to_string().starts_with("too many moves"));
}

proptest::proptest! {
    #[test]
    fn move_parsing_never_panics(text in "\\PC{0,40}") {
        let game = fresh(&["-edges=unbounded"], &["ann"]);
        let _ = game.parse_move(0, &text);
    }

    #[test]
    fn canonical_moves_parse_back(
        steps in proptest::collection::vec(((-50i64..50, -50i64..50), (-50i64..50, -50i64..50)), 1..6),
        place in proptest::collection::vec((-50i64..50, -50i64..50), 1..10),
    ) {
        let game = fresh(&["-edges=unbounded"], &["ann"]);
        let steps = RtMove::Move(steps.into_iter().map(|(a, b)| (xy(a.0, a.1), xy(b.0, b.1))).collect());
        let place = RtMove::Place(place.into_iter().map(|a| xy(a.0, a.1)).collect());
        for mv in [steps, place] {
            let text = game.format_move(&mv);
            proptest::prop_assert_eq!(game.parse_move(0, &text), Ok(mv));
        }
    }
}

#[test]
fn generations_on_dead_edges_lose_what_falls_off() {
    // A blinker lying on the bottom row turns upright; its lower cell would
    // be below row 1, so only two cells remain, and then none.
    let cells = vec![(p("e1"), A), (p("f1"), A), (p("g1"), A), (p("c9"), B), (p("d9"), B), (p("e9"), B)];
    let mut game =
        position(&["-tick=1s", "-gen_ticks=1", "-width=10", "-height=10"], &["ann", "bob"], &cells);
    tick(&mut game, 1);
    let ann: Vec<Point> = game.live_cells().into_iter().filter(|c| c.1 == A).map(|c| c.0).collect();
    assert_eq!(ann, vec![p("f2"), p("f1")]);
    // bob's blinker in the open oscillates.
    let bob: Vec<Point> = game.live_cells().into_iter().filter(|c| c.1 == B).map(|c| c.0).collect();
    assert_eq!(bob, vec![p("d10"), p("d9"), p("d8")]);
    tick(&mut game, 1);
    assert_eq!(game.cells(0), 0);
    assert_eq!(game.cells(1), 3);
    // ann is out and bob, the last player standing, wins.
    let outcome = game.outcome().expect("over");
    assert_eq!(outcome.winners, vec![1]);
    assert_eq!(outcome.reason, "last player standing");
    assert_eq!(game.to_move(), Turn::Over);
    assert_eq!(game.next_clock(), None);
}

#[test]
fn generations_on_a_torus_wrap() {
    // A blinker across the left and right edges on row 5.
    let cells = vec![(p("j5"), A), (p("a5"), A), (p("b5"), A)];
    let mut game =
        position(&["-tick=1s", "-gen_ticks=1", "-edges=torus", "-width=10", "-height=10"], &["ann"], &cells);
    tick(&mut game, 1);
    let cells: Vec<Point> = game.live_cells().into_iter().map(|c| c.0).collect();
    assert_eq!(cells, vec![p("a6"), p("a5"), p("a4")]);
    // Placing across the edge counts as connected on a torus.
    let mut game = fresh(&["-edges=torus", "-width=10", "-height=10", "-start_cells=2"], &["ann"]);
    play(&mut game, 0, "place j10,a1").unwrap();
    let mut game = fresh(&["-width=10", "-height=10", "-start_cells=2"], &["ann"]);
    assert!(play(&mut game, 0, "place j10,a1").is_err());
}

#[test]
fn generations_on_the_unbounded_plane() {
    // A blinker around the origin, and a glider that travels far away.
    let mut cells = vec![(xy(-1, 0), A), (xy(0, 0), A), (xy(1, 0), A)];
    // Glider moving down-right (+x, -y): .X. / ..X / XXX, top row first.
    for (x, y) in [(11, 2), (12, 1), (10, 0), (11, 0), (12, 0)] {
        cells.push((xy(x, y), B));
    }
    let mut game = position(&["-tick=1s", "-gen_ticks=1", "-edges=unbounded"], &["ann", "bob"], &cells);
    tick(&mut game, 1);
    let ann: Vec<Point> = game.live_cells().into_iter().filter(|c| c.1 == A).map(|c| c.0).collect();
    assert_eq!(ann, vec![xy(0, 1), xy(0, 0), xy(0, -1)]);
    tick(&mut game, 399);
    assert_eq!(game.generation(), 400);
    // A glider moves one point diagonally every 4 generations.
    let bob: Vec<Point> = game.live_cells().into_iter().filter(|c| c.1 == B).map(|c| c.0).collect();
    let expected: Vec<Point> = [(111, -98), (112, -99), (110, -100), (111, -100), (112, -100)]
        .iter()
        .map(|&(x, y)| xy(x, y))
        .collect();
    let mut bob_sorted = bob.clone();
    bob_sorted.sort();
    let mut expected_sorted = expected;
    expected_sorted.sort();
    assert_eq!(bob_sorted, expected_sorted);
    // The text view shows the occupied box with x and y numbers.
    let text = RtLife::render_text(&game.view(Viewer::Observer, 400_000), tabula_model::Lang::En);
    assert!(text.contains("Generation 400, tick 400\n"), "{text}");
    assert!(text.contains("(part of the occupied box x -1 to 112, y 0 down to -100)"), "{text}");
    // Paths may leave the occupied box; their cost is capped by the points.
    assert_eq!(game.points(0), 400);
    assert_eq!(game.move_cost(0, &[(xy(0, 0), xy(-5, 40))]), Ok(40));
    let err = game.move_cost(0, &[(xy(0, 0), xy(0, 1000))]).unwrap_err();
    assert_eq!(err.to_string(), "a1-a1001 costs at least 1000 points; you have 400");
}

#[test]
fn a_view_of_a_spread_out_plane_shows_cells_and_the_players_own_first() {
    // Two blocks 1000 columns apart: the occupied box is mostly empty, and
    // a window centred on it showed no cell at all.
    let mut cells = block(0, 0, A);
    cells.extend(block(1000, 0, B));
    let game = position(&["-tick=1s", "-gen_ticks=1", "-edges=unbounded"], &["ann", "bob"], &cells);
    let observer = game.view(Viewer::Observer, 0);
    assert!(observer.clipped);
    assert!(observer.rows.iter().any(|r| r.contains('A') || r.contains('B')), "{:?}", observer.window);
    assert!(observer.own_cells.is_empty() && observer.own_box.is_none());
    // Each player's view is centred on their own cells, which the JSON lists.
    for (seat, letter, x) in [(0, 'A', 0), (1, 'B', 1000)] {
        let view = game.view(Viewer::Player(seat), 0);
        assert_eq!(view.rows.iter().map(|r| r.matches(letter).count()).sum::<usize>(), 4, "{letter}");
        assert_eq!(view.own_cells, [[x, 1], [x + 1, 1], [x, 0], [x + 1, 0]]);
        let json = serde_json::to_value(&view).unwrap();
        assert_eq!(json["own_box"]["left"], x);
        let text = RtLife::render_text(&view, tabula_model::Lang::En);
        assert!(text.contains(letter), "{text}");
    }
}

#[test]
fn births_go_to_the_majority_of_parents() {
    // Two of ann's and one of bob's around e5 (and around e3 by symmetry).
    let cells = vec![(p("d4"), A), (p("e4"), A), (p("f4"), B)];
    let mut game =
        position(&["-tick=1s", "-gen_ticks=1", "-width=10", "-height=10"], &["ann", "bob"], &cells);
    tick(&mut game, 1);
    assert_eq!(game.at(p("e5")), Some(A));
    assert_eq!(game.at(p("e3")), Some(A));
    assert_eq!(game.at(p("e4")), Some(A));
    // Three different owners give a neutral cell.
    let cells = vec![(p("d4"), A), (p("e4"), B), (p("f4"), Owner::Player(2))];
    let mut game =
        position(&["-tick=1s", "-gen_ticks=1", "-width=10", "-height=10"], &["ann", "bob", "cy"], &cells);
    tick(&mut game, 1);
    assert_eq!(game.at(p("e5")), Some(N));
}

#[test]
fn vanishing_together_the_highest_score_wins() {
    // Two lone cells die in the first generation: both out at once, with
    // equal scores (none): a draw between them.
    let cells = vec![(p("b2"), A), (p("h8"), B)];
    let mut game =
        position(&["-tick=1s", "-gen_ticks=1", "-width=10", "-height=10"], &["ann", "bob"], &cells);
    tick(&mut game, 1);
    let outcome = game.outcome().expect("over");
    assert_eq!(outcome.winners, vec![0, 1]);
    assert_eq!(outcome.reason, "the last players vanished in the same generation");
    // A diagonal of three leaves its middle cell for one generation, then
    // nothing. ann has two diagonals, bob one: after generation 1 ann has
    // 2 points and bob 1, and both vanish in generation 2.
    let mut cells: Vec<(Point, Owner)> =
        ["b2", "c3", "d4", "b8", "c9", "d10"].iter().map(|q| (p(q), A)).collect();
    cells.extend(["h2", "i3", "j4"].iter().map(|q| (p(q), B)));
    let mut game =
        position(&["-tick=1s", "-gen_ticks=1", "-width=12", "-height=12"], &["ann", "bob"], &cells);
    tick(&mut game, 1);
    assert_eq!((game.cells(0), game.cells(1)), (2, 1));
    assert_eq!(game.outcome(), None);
    tick(&mut game, 1);
    let outcome = game.outcome().expect("over");
    assert_eq!(outcome.winners, vec![0]);
    assert_eq!(outcome.reason, "the last players vanished in the same generation");
    assert_eq!(outcome.scores, [tabula_model::Score::whole(2), tabula_model::Score::whole(1)]);
}

#[test]
fn the_generation_limit_ends_with_the_highest_score() {
    let mut cells = block(1, 1, A);
    cells.extend(block(6, 6, B));
    cells.push((p("j10"), N));
    cells.extend([(p("a10"), B), (p("a9"), B)]);
    let mut game = position(
        &["-tick=1s", "-gen_ticks=2", "-width=10", "-height=10", "-generations=2"],
        &["ann", "bob"],
        &cells,
    );
    // Generation 1 (tick 2) kills bob's pair and the neutral cell, leaving
    // a block each: 4 + 4/2 = 6 points each after generation 2.
    tick(&mut game, 2);
    assert_eq!(game.outcome(), None);
    assert_eq!((game.cells(0), game.cells(1)), (4, 4));
    tick(&mut game, 2);
    let outcome = game.outcome().expect("over after generation 2");
    assert_eq!(outcome.winners, vec![0, 1]);
    assert_eq!(outcome.reason, "the generation limit is reached");
    assert_eq!(outcome.scores, [tabula_model::Score::whole(6), tabula_model::Score::whole(6)]);

    // With a bigger still life bob wins on score.
    let mut cells = block(1, 1, A);
    cells.extend(long_long_ship(4, 4).into_iter().map(|q| (q, B)));
    let mut game = position(
        &["-tick=1s", "-gen_ticks=1", "-width=10", "-height=10", "-generations=3"],
        &["ann", "bob"],
        &cells,
    );
    tick(&mut game, 3);
    let outcome = game.outcome().expect("over");
    assert_eq!(outcome.winners, vec![1]);
    assert_eq!(game.score(1).to_string(), "18.33");
    // Carried exactly: 10 + 10/2 + 10/3 = 55/3, shown as 18.33.
    assert_eq!(outcome.scores[1].exact(), "55/3");
    assert_eq!(outcome.scores[1].decimal(), "18.33");
    let view = serde_json::to_value(game.view(Viewer::Observer, 3000)).unwrap();
    assert_eq!(
        (view["players"][1]["score"].as_str(), view["players"][1]["score_exact"].as_str()),
        (Some("18.33"), Some("55/3"))
    );
    let text = RtLife::render_text(&game.view(Viewer::Observer, 3000), tabula_model::Lang::En);
    assert!(text.contains("The game is over: the generation limit is reached.\n"), "{text}");
    assert!(text.contains("(winner)"), "{text}");
}

#[test]
fn resigning_leaves_neutral_cells_and_can_end_the_game() {
    let mut cells = block(1, 1, A);
    cells.extend(block(6, 6, B));
    let mut game =
        position(&["-tick=1s", "-gen_ticks=5", "-width=10", "-height=10"], &["ann", "bob"], &cells);
    let applied = game.resign(1, &mut Ctx { now: 0, rng: &mut rng_for(1, 0), history: true });
    assert_eq!(applied.entries.len(), 2);
    assert_eq!(game.at(p("g7")), Some(N));
    assert_eq!(game.outcome().unwrap().winners, vec![0]);
}

fn event(at: Timestamp, seat: Option<Seat>, action: EventAction) -> Event {
    Event { at, seat, action }
}

fn mv(at: Timestamp, seat: Seat, text: &str) -> Event {
    event(at, Some(seat), EventAction::Move(text.to_string()))
}

fn join(at: Timestamp, user: &str, text: &str) -> Event {
    event(at, None, EventAction::Join { user: user.to_string(), text: text.to_string() })
}

const T0: Timestamp = 1_767_225_600_000; // 2026-01-01 00:00:00 UTC

fn game(words: &[&str], players: &[&str]) -> Game {
    Game::create(&KIND, options(words), players.iter().map(|s| s.to_string()).collect(), 7, T0).unwrap()
}

fn typed(game: &Game) -> &RtLife {
    game.state().as_any().downcast_ref::<RtLife>().unwrap()
}

#[test]
fn joins_through_the_model() {
    let mut g = game(&["-max_players=3"], &["ann"]);
    g.submit(mv(T0 + 1, 0, &place_text(&long_long_ship(2, 2)))).unwrap();
    // Unconnected cells: refused, and nothing changes.
    let loose = "place a30,b30,c30,d30,e30,f30,g30,h30,i30,k30";
    let err = g.submit(join(T0 + 2, "bob", loose)).unwrap_err();
    assert!(err.to_string().contains("k30 is not connected to a30"), "{err}");
    assert_eq!(g.players(), ["ann"]);
    assert_eq!(g.record().events.len(), 1);
    assert_eq!(typed(&g).player_count(), 1);
    // A wrong count is refused too; then a proper join.
    assert!(g.submit(join(T0 + 3, "bob", "place a30,b30")).is_err());
    g.submit(join(T0 + 4, "bob", &place_text(&long_long_ship(30, 20)))).unwrap();
    assert_eq!(g.players(), ["ann", "bob"]);
    assert_eq!(typed(&g).cells(1), 10);
    // Joining twice, or past -max_players, is refused.
    assert!(g.submit(join(T0 + 5, "BOB", &place_text(&long_long_ship(50, 20)))).is_err());
    g.submit(join(T0 + 6, "cy", &place_text(&long_long_ship(50, 20)))).unwrap();
    let err = g.submit(join(T0 + 7, "dee", &place_text(&long_long_ship(50, 2)))).unwrap_err();
    assert_eq!(err.to_string(), "this game is full: it has its 3 players");
    let lines: Vec<String> = g.history_for(Viewer::Observer).into_iter().map(|h| h.entry.text).collect();
    assert_eq!(lines[0], "ann places: c7,d7,c6,e6,d5,f5,e4,g4,f3,g3");
    assert!(lines[1].starts_with("bob joins: ae25,af25,"), "{lines:?}");
    assert_eq!(lines.len(), 3);
    let text = g.render_text(Viewer::Observer, T0 + 8_000, tabula_model::Lang::En);
    assert!(text.contains("C cy"), "{text}");
    assert!(text.contains("Next tick at 2026-01-01 01:00:00 UTC (in 59m 52s)\n"), "{text}");
    assert!(text.contains("Next generation at 2026-01-01 12:00:00 UTC (in 11h 59m 52s)\n"), "{text}");
}

#[test]
fn the_generation_limit_never_goes_to_a_player_who_never_placed() {
    // ned places a diagonal of three that leaves one cell for a generation
    // (1 point), then dies out; ted never places.
    let mut g = game(
        &["-width=12", "-height=6", "-gen_ticks=1", "-tick=60s", "-generations=3", "-start_cells=3"],
        &["ned", "ted"],
    );
    g.submit(mv(T0 + 1, 0, "place b2,c3,d4")).unwrap();
    g.advance_clock(T0 + 10 * 60_000, 100);
    let outcome = g.outcome().expect("over after generation 3");
    assert_eq!(outcome.reason, "the generation limit is reached");
    assert_eq!(outcome.winners, [0], "{outcome:?}");
    assert_eq!(typed(&g).score(0).to_string(), "1.00");
    let last = g.history_for(Viewer::Observer).last().unwrap().entry.text.clone();
    assert_eq!(last, "ned wins with the highest score (1.00): the generation limit is reached");

    // Nobody ever placed: a draw among the players, at zero.
    let mut g = game(&["-gen_ticks=1", "-tick=60s", "-generations=2"], &["ned", "ted"]);
    g.advance_clock(T0 + 10 * 60_000, 100);
    let outcome = g.outcome().expect("over after generation 2");
    assert_eq!(outcome.winners, [0, 1], "{outcome:?}");
}

#[test]
fn the_clock_is_a_function_of_the_start_time() {
    let mut g = game(&["-tick=1h", "-gen_ticks=12"], &["ann", "bob"]);
    assert_eq!(g.state().next_clock(), Some(T0 + HOUR));
    assert_eq!(g.to_move(), Turn::Clock);
    g.submit(mv(T0 + 10, 0, &place_text(&long_long_ship(2, 2)))).unwrap();
    g.submit(mv(T0 + 20, 1, &place_text(&long_long_ship(40, 20)))).unwrap();
    // A clock event that is not due is refused.
    assert!(g.submit(event(T0 + HOUR - 1, None, EventAction::Clock)).is_err());
    // 30.5 hours later: ticks 1..=30 are due, generations at ticks 12 and 24.
    let applied = g.advance_clock(T0 + 30 * HOUR + HOUR / 2, 10_000);
    assert_eq!(applied, 30);
    let clocks: Vec<Timestamp> =
        g.record().events.iter().filter(|e| e.action == EventAction::Clock).map(|e| e.at).collect();
    assert_eq!(clocks, (1..=30).map(|n| T0 + n * HOUR).collect::<Vec<_>>());
    let state = typed(&g);
    assert_eq!((state.ticks(), state.generation()), (30, 2));
    assert_eq!(state.points(0), 30);
    assert_eq!(g.state().next_clock(), Some(T0 + 31 * HOUR));
    // History: one line per generation, none per tick.
    let lines: Vec<String> = g
        .history_for(Viewer::Observer)
        .into_iter()
        .filter(|h| h.entry.seat.is_none())
        .map(|h| h.entry.text)
        .collect();
    assert_eq!(lines, ["Generation 1: ann 10, bob 10", "Generation 2: ann 10, bob 10"]);
    // Catching up in small steps gives the same game as one call.
    let mut h = game(&["-tick=1h", "-gen_ticks=12"], &["ann", "bob"]);
    h.submit(mv(T0 + 10, 0, &place_text(&long_long_ship(2, 2)))).unwrap();
    h.submit(mv(T0 + 20, 1, &place_text(&long_long_ship(40, 20)))).unwrap();
    while h.advance_clock(T0 + 30 * HOUR + HOUR / 2, 7) > 0 {}
    assert_eq!(h.record(), g.record());
}

#[test]
fn a_replay_rebuilds_the_same_game() {
    let mut g =
        game(&["-tick=10m", "-gen_ticks=3", "-edges=torus", "-width=30", "-height=20"], &["ann", "bob"]);
    let minute = 60_000;
    g.submit(mv(T0 + minute, 0, "place c3,d3,e3,c4,e4,c5,d5,e5,d6,d7")).unwrap();
    g.advance_clock(T0 + 25 * minute, 100);
    g.submit(join(T0 + 26 * minute, "cy", &place_text(&long_long_ship(20, 10)))).unwrap();
    g.advance_clock(T0 + 70 * minute, 100);
    g.submit(mv(T0 + 71 * minute, 1, &place_text(&long_long_ship(10, 12)))).unwrap();
    g.advance_clock(T0 + 95 * minute, 100);
    let cy = g.seat_of("cy").unwrap();
    let from = typed(&g).live_cells().into_iter().find(|c| c.1 == Owner::Player(cy as u8)).unwrap().0;
    let to = Point { x: from.x, y: from.y + 3 };
    let before = typed(&g).points(cy);
    g.submit(mv(T0 + 96 * minute, cy, &format!("move {from}-{to}"))).unwrap();
    assert_eq!(typed(&g).points(cy), before - 3);
    let last = g.history_for(Viewer::Observer).pop().unwrap().entry;
    assert_eq!((last.seat, last.text), (Some(cy), format!("cy moves {from}-{to} (3 points)")));
    g.advance_clock(T0 + 300 * minute, 1000);
    // The model's record lists joined users among the players; a stored
    // record starts with the players of the challenge only.
    let mut record = g.record().clone();
    record.players.truncate(2);
    let replayed = Game::replay(&KIND, record).unwrap();
    let now = T0 + 301 * minute;
    for viewer in [Viewer::Observer, Viewer::Player(0), Viewer::Player(2)] {
        assert_eq!(
            replayed.render_text(viewer, now, tabula_model::Lang::En),
            g.render_text(viewer, now, tabula_model::Lang::En)
        );
        assert_eq!(replayed.view_json(viewer, now), g.view_json(viewer, now));
        assert_eq!(
            replayed.render_svg(viewer, now, tabula_model::Lang::En),
            g.render_svg(viewer, now, tabula_model::Lang::En)
        );
    }
    assert_eq!(typed(&replayed).generation(), 10);
}

#[test]
fn views_show_the_field_and_the_players() {
    let mut g = game(&["-tick=1h", "-width=12", "-height=6", "-start_cells=3"], &["ann", "bob"]);
    g.submit(mv(T0, 0, "place b2,c2,d2")).unwrap();
    let text = g.render_text(Viewer::Observer, T0 + 90 * 60_000, tabula_model::Lang::En);
    let expected_field = "\
  abcdefghijkl
6 ............ 6
5 ............ 5
4 ............ 4
3 ............ 3
2 .AAA........ 2
1 ............ 1
  abcdefghijkl
";
    assert!(
        text.starts_with("Generation 0, tick 0\nNext tick at 2026-01-01 01:00:00 UTC (due now)\n"),
        "{text}"
    );
    assert!(text.contains(expected_field), "{text}");
    assert!(text.contains("\nA ann         3 cells     0 points  score 0.00\n"), "{text}");
    assert!(text.contains("\nB bob         0 cells     0 points  score 0.00 (not placed yet)\n"), "{text}");
    assert!(text.contains("\nNext generation at 2026-01-01 12:00:00 UTC (in 10h 30m)\n"), "{text}");
    let svg = g.render_svg(Viewer::Observer, T0, tabula_model::Lang::En);
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("fill=\"#0072b2\""), "ann's colour");
    let json = g.view_json(Viewer::Observer, T0);
    assert_eq!(json["rows"][4], ".AAA........");
    assert_eq!(json["players"][0]["score"], "0.00");
    assert_eq!(json["next_tick"], T0 + HOUR);
}

#[test]
fn bad_options_are_refused() {
    let players = vec!["ann".to_string(), "bob".to_string()];
    let o = options(&["-max_players=1"]);
    let err =
        RtLife::new(&Setup { options: &o, players: &players, start: 0 }, &mut rng_for(1, 0)).unwrap_err();
    assert_eq!(err.to_string(), "-max_players=1 but 2 players are listed");
    let o = options(&["-width=3", "-height=3", "-start_cells=10"]);
    let err =
        RtLife::new(&Setup { options: &o, players: &players, start: 0 }, &mut rng_for(1, 0)).unwrap_err();
    assert_eq!(err.to_string(), "a 3x3 field has no room for -start_cells=10");
    assert!(Options::parse(&INFO, &["-tick=0s"]).is_err());
    assert!(Options::parse(&INFO, &["-edges=round"]).is_err());
}

fn sim(words: &[&str], players: usize, max_events: usize, games: u64) {
    random_sim(
        &KIND,
        &SimConfig {
            options: words.iter().map(|s| s.to_string()).collect(),
            players,
            games,
            max_events,
            step_ms: 1000,
            resign_per_mille: 3,
        },
    );
}

#[test]
fn random_playouts_dead_edges() {
    sim(&["-tick=2s", "-gen_ticks=2", "-width=20", "-height=12"], 3, 150, 4);
}

#[test]
fn random_playouts_torus() {
    sim(
        &["-tick=1s", "-gen_ticks=3", "-edges=torus", "-width=16", "-height=16", "-start_cells=6"],
        4,
        150,
        4,
    );
}

#[test]
fn random_playouts_unbounded() {
    sim(&["-tick=3s", "-gen_ticks=1", "-edges=unbounded", "-generations=40"], 3, 200, 4);
}

#[test]
fn random_playouts_default_field_short_ticks() {
    sim(&["-tick=1s", "-gen_ticks=5", "-generations=20", "-max_players=5"], 5, 150, 3);
}

#[test]
fn the_svg_holds_its_legend_and_an_empty_plane_has_a_field_to_click() {
    // An empty plane: a window around the origin, drawn as a field.
    let game = fresh(&["-edges=unbounded"], &["a-player-with-a-rather-long-name", "bob"]);
    let view = game.view(Viewer::Player(0), 0);
    let w = view.window.expect("a window on the empty plane");
    assert!(w.columns >= 20 && w.rows >= 12, "{w:?}");
    assert!(
        w.left <= 0 && w.left + w.columns as i64 > 0 && w.top >= 0 && w.top - (w.rows as i64) < 0,
        "{w:?}"
    );
    assert!(RtLife::render_text(&view, tabula_model::Lang::En).contains("The plane is empty."));
    let svg = RtLife::render_svg(&view, tabula_model::Lang::En);
    let width: f64 = svg.split("width=\"").nth(1).and_then(|w| w.split('"').next()).unwrap().parse().unwrap();
    // Every legend line fits (0.6 em a character at 12 units), the longest
    // ending "(not placed yet)".
    for text in svg.split("<text ").skip(1).filter(|t| t.contains("font-size=\"12\"")) {
        let x: f64 = text.split("x=\"").nth(1).and_then(|s| s.split('"').next()).unwrap().parse().unwrap();
        let content = text.split('>').nth(1).and_then(|t| t.split('<').next()).unwrap();
        assert!(x + content.chars().count() as f64 * 7.2 <= width, "{content:?} in {width}");
    }
    assert!(svg.contains("(not placed yet)"), "{svg}");
}
