//! Several `tabula` processes on one database: racing moves on one game,
//! and `kill -9` in the middle of a burst of moves.

mod common;

use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::Tabula;
use rand::{Rng, SeedableRng};

fn spawn(t: &Tabula, line: &str) -> Child {
    let words: Vec<&str> = line.split_whitespace().collect();
    t.command(&words).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn tabula")
}

fn history_texts(t: &Tabula, board: i64) -> Vec<String> {
    let v = t.json(&format!("intervalo history {board}"));
    v["data"].as_array().unwrap().iter().map(|h| h["entry"]["text"].as_str().unwrap().to_string()).collect()
}

/// Two processes send the same player's choice at the same moment: exactly
/// one is accepted, and the history holds it once.
#[test]
fn racing_processes_apply_exactly_one_move_per_version() {
    let t = Tabula::new();
    t.signup(&["ned", "ted"]);
    t.ok("intervalo challenge ned ted -cells=40");
    for turn in 0..10 {
        let a = 2 * turn + 1;
        let b = 2 * turn + 2;
        let first = spawn(&t, &format!("intervalo move 1 ned pw-ned {a}"));
        let second = spawn(&t, &format!("intervalo move 1 ned pw-ned {b}"));
        let outcomes = [first.wait_with_output().unwrap(), second.wait_with_output().unwrap()];
        let ok = outcomes.iter().filter(|o| o.status.success()).count();
        assert_eq!(ok, 1, "turn {turn}: {ok} of two racing moves were accepted");
        for o in outcomes.iter().filter(|o| !o.status.success()) {
            assert_eq!(o.status.code(), Some(1));
        }
        // Different players at the same moment: both are accepted, one after the other.
        let c = 40 - turn;
        let third = spawn(&t, &format!("intervalo move 1 ted pw-ted {c}"));
        let out = third.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let v = t.json("intervalo show 1");
    assert_eq!(v["game"]["moves"], 20);
    let texts = history_texts(&t, 1);
    let choices = texts.iter().filter(|s| s.contains(" chooses cell ")).count();
    assert_eq!(choices, 20, "history: {texts:?}");
}

/// A burst of moves through the CLI, each process killed with SIGKILL at a
/// random moment and the move sent again with its `#moveno` guard: every
/// acknowledged move is there exactly once, in order, and the game replays.
#[test]
fn kill_9_during_a_burst_loses_no_acknowledged_move() {
    let t = Tabula::new();
    t.signup(&["ned", "ted"]);
    t.ok("intervalo challenge ned ted -cells=64");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
    let total = 40;
    let mut acknowledged = Vec::new();
    let mut kills = 0;
    // Kill within about twice the time a command takes on this machine now,
    // so some kills land before the commit and some after.
    let started = Instant::now();
    t.ok("intervalo show 1");
    let typical = started.elapsed().as_millis().max(5) as u64;
    for k in 1..=total {
        let (user, cell) = if k % 2 == 1 { ("ned", k) } else { ("ted", k) };
        let line = format!("intervalo move 1 {user} pw-{user} {cell}#{k}");
        let started = Instant::now();
        let mut attempt = 0;
        loop {
            assert!(started.elapsed() < Duration::from_secs(120), "move {k} never went through");
            attempt += 1;
            let mut child = spawn(&t, &line);
            // Later attempts wait longer, so every move eventually goes through.
            let delay = Duration::from_millis(rng.random_range(0..2 * typical * attempt));
            std::thread::sleep(delay);
            let killed = matches!(child.try_wait(), Ok(None));
            if killed {
                child.kill().ok(); // SIGKILL
                kills += 1;
            }
            let out = child.wait_with_output().unwrap();
            if out.status.success() {
                acknowledged.push(k);
                break;
            }
            if killed {
                // Killed: it may or may not have been committed; the guard tells on the retry.
                continue;
            }
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains(&format!("meant as move {k}")), "move {k}: {err}");
            // Refused as stale: the killed attempt had been committed, as a whole.
            break;
        }
        let v = t.json("intervalo show 1");
        assert_eq!(v["game"]["moves"], k, "after move {k} the board has {} moves", v["game"]["moves"]);
    }
    assert!(kills > 5, "the test killed only {kills} processes");
    let v = t.json("intervalo show 1");
    assert_eq!(v["game"]["moves"], total);
    assert!(acknowledged.len() <= total);
    // Each cell was chosen exactly once: no move lost, none doubled.
    let history = history_texts(&t, 1);
    for k in 1..=total {
        let user = if k % 2 == 1 { "ned" } else { "ted" };
        let line = format!("{user} chooses cell {k}");
        assert_eq!(history.iter().filter(|h| **h == line).count(), 1, "{line:?} in {history:?}");
    }
}
