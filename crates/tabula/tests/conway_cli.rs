//! Conway and the Life tool through the real binary.

mod common;

use common::Tabula;

#[test]
fn a_complete_conway_game_to_a_win() {
    let t = Tabula::new();
    t.signup(&["ann", "bob"]);
    let out = t.ok("conway challenge ann bob -size=8 -place=3");
    assert!(out.starts_with("Conway Board 1 ann\n\nIt is ann's turn.\n"), "{out}");
    t.ok("conway move 1 ann pw-ann b2");
    let err = t.fails("conway move 1 bob pw-bob f6,g6,h6", 1);
    assert!(err.contains('2'), "the second move places at most 2 pieces: {err}");
    t.ok("conway move 1 bob pw-bob f6,g6");
    let out = t.ok("conway move 1 ann pw-ann c2,b3,c3");
    assert!(out.starts_with("Conway Board 1 over\n\nGame won by ann"), "{out}");
    assert!(out.contains("bob is out: no pieces left"), "{out}");
    assert!(
        out.contains(
            "3 .AA..... 3\n\
         2 .AA..... 2\n"
        ),
        "{out}"
    );
    assert!(out.contains("A ann 4 pieces (winner)"), "{out}");
    t.fails("conway move 1 bob pw-bob a1", 1);
    let standings = t.ok("conway standings");
    assert!(standings.contains("ann"), "{standings}");
}

#[test]
fn random_moves_are_starred_and_pass_is_allowed() {
    let t = Tabula::new();
    t.signup(&["ann", "bob"]);
    t.ok("conway challenge ann bob");
    t.ok("conway move 1 ann pw-ann random");
    t.ok("conway move 1 bob pw-bob pass");
    let out = t.ok("conway history 1");
    assert!(out.contains('*'), "{out}");
    assert!(out.contains("pass"), "{out}");
}

#[test]
fn life_run_on_every_edge() {
    let t = Tabula::new();
    let board = t.path().join("board.txt");
    // A blinker of player A.
    std::fs::write(&board, ".....\n..A..\n..A..\n..A..\n.....\n").unwrap();
    let b = board.to_str().unwrap();
    assert_eq!(t.ok(&format!("life run --generations 1 {b}")), ".....\n.....\n.AAA.\n.....\n.....\n");
    assert_eq!(
        t.ok(&format!("life run --generations 2 --edges dead {b}")),
        ".....\n..A..\n..A..\n..A..\n.....\n"
    );
    let out = t.ok(&format!("life run --generations 1 --edges unbounded {b}"));
    assert_eq!(out, "#offset 1 2\nAAA\n");
    let mut child = t
        .command(&["life", "run", "--generations", "1", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b".A.\n.B.\n.A.\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    // On a 3x3 torus every cell neighbours all the others: the three live
    // cells have 2 neighbours each and survive; every empty cell has 3
    // parents (A, A, B) and is born to A.
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "AAA\nABA\nAAA\n");
    t.fails(&format!("life run --generations 1 --edges round {b}"), 1);
    std::fs::write(&board, "..\n...\n").unwrap();
    let err = t.fails(&format!("life run --generations 1 {b}"), 1);
    assert!(err.contains("line 2"), "{err}");
}

/// The number of every line of a move list that carries one.
fn numbers(list: &str) -> Vec<usize> {
    list.lines().filter_map(|l| l.trim_start().split_once(". ")?.0.parse().ok()).collect()
}

#[test]
fn a_move_number_means_one_thing_in_the_history_the_status_show_and_the_guard() {
    let t = Tabula::new();
    t.signup(&["ann", "bob", "cid"]);
    t.ok("conway challenge ann bob cid -size=10 -place=8");
    t.ok("conway move 1 ann pw-ann j10");
    t.ok("conway move 1 bob pw-bob e5");
    // A resignation is no move: it takes no number.
    t.ok("conway move 1 cid pw-cid resign");
    t.ok("conway move 1 ann pw-ann a1#3");
    let history = t.ok("conway history 1");
    assert_eq!(numbers(&history), [1, 2, 3], "{history}");
    assert!(history.contains("   2. e5\n      cid resigns\n   3. a1\n"), "{history}");
    let board = t.ok("conway show 1");
    assert!(board.contains("Move 3, generation 0"), "{board}");
    for n in 0..=3 {
        let past = t.ok(&format!("conway show 1#{n}"));
        assert!(past.starts_with(&format!("Conway Board 1 at move {n}\n")), "{past}");
        assert!(past.contains(&format!("Move {n}, generation 0")), "show 1#{n}: {past}");
    }
    // The guard expects the number the history gives the next move.
    let stale = t.fails("conway move 1 bob pw-bob f5#5", 1);
    assert!(stale.contains("meant as move 5, but the board is at move 4"), "{stale}");
    t.ok("conway move 1 bob pw-bob f5#4");
    // The move taken back is marked, and its number goes to the move made instead.
    t.ok("conway move 1 ann pw-ann undo");
    t.ok("conway move 1 bob pw-bob accept");
    let history = t.ok("conway history 1");
    assert!(history.contains("      f5 (taken back)\n"), "{history}");
    t.ok("conway move 1 bob pw-bob g5,g6#4");
    let history = t.ok("conway history 1");
    assert_eq!(numbers(&history), [1, 2, 3, 4], "{history}");
    assert!(history.ends_with("   4. g5,g6\n"), "{history}");
    assert!(t.ok("conway show 1").contains("Move 4, generation 0"));
}

#[test]
fn a_player_who_resigned_has_no_say_on_an_undo_or_a_draw() {
    let t = Tabula::new();
    t.signup(&["ann", "bob", "cid"]);
    t.ok("conway challenge ann bob cid -size=10 -place=8");
    t.ok("conway move 1 ann pw-ann j10");
    t.ok("conway move 1 bob pw-bob e5");
    t.ok("conway move 1 cid pw-cid resign");
    t.ok("conway move 1 ann pw-ann undo");
    for verb in ["accept", "reject"] {
        let err = t.fails(&format!("conway move 1 cid pw-cid {verb}"), 1);
        assert!(err.contains("you are no longer in this game"), "{verb}: {err}");
    }
    let undone = t.ok("conway move 1 bob pw-bob accept");
    assert!(undone.contains("bob's move e5 is taken back."), "{undone}");
    t.ok("conway move 1 bob pw-bob propose");
    let err = t.fails("conway move 1 cid pw-cid accept", 1);
    assert!(err.contains("you are no longer in this game"), "{err}");
    let history = t.ok("conway history 1");
    assert!(!history.contains("cid accepts") && !history.contains("cid rejects"), "{history}");
    let over = t.ok("conway move 1 ann pw-ann accept");
    assert!(over.contains("Game drawn between ann and bob (draw agreed)."), "{over}");
}
