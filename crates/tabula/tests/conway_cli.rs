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
