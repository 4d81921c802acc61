//! `tabula tournament` as a user drives it: mistakes refused before any
//! game is played, time limits that make a tournament of their own, tables
//! that keep long bot commands apart, game numbers from 1, and a built-in
//! bot offered only for the games it plays.

mod common;

use common::Tabula;

#[test]
fn a_mistyped_builtin_bot_is_refused_with_the_names() {
    let t = Tabula::new();
    let err = t.fails("tournament --game intervalo --bot random --bot mtcs", 2);
    assert!(err.contains("\"mtcs\" is neither a built-in bot nor a program (did you mean mcts?)"), "{err}");
    assert!(err.contains("random, greedy, center, nash, mcts"), "{err}");
    let err = t.fails("tournament --game intervalo --bot random --bot /nonexistent/bot", 2);
    assert!(err.contains("there is no program \"/nonexistent/bot\""), "{err}");
    let words = ["tournament", "--game", "intervalo", "--bot", "random", "--bot", "nosuch-bot --fast"];
    let out = t.command(&words).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("there is no program \"nosuch-bot\""));
}

#[test]
fn an_unwritable_results_file_is_refused_before_any_game() {
    let t = Tabula::new();
    // Slow bots: were the path checked only at the end, this would run for long.
    let base = "tournament --game intervalo --bot mcts:20000 --bot mcts:20001 --games-per-pair 50";
    let err = t.fails(&format!("{base} --json-file /nonexistent/x.json"), 2);
    assert!(err.contains("--json-file: /nonexistent/x.json: there is no directory /nonexistent"), "{err}");
    let err = t.fails(&format!("{base} --csv {}", t.path().display()), 2);
    assert!(err.contains("is a directory"), "{err}");
}

/// A bot whose moves depend on the time it is given: the lowest legal cell
/// with a whole number of seconds, a cell off the strip otherwise.
const TIMED_BOT: &str = "import json, sys\n\
for line in sys.stdin:\n\
\x20   m = json.loads(line)\n\
\x20   if m['type'] == 'turn':\n\
\x20       legal = sorted(m['legal'], key=int)\n\
\x20       print(legal[0] if m['time_ms'] % 1000 == 0 else 99, flush=True)\n\
\x20   elif m['type'] == 'quit':\n\
\x20       break\n";

#[test]
fn other_time_limits_make_another_tournament() {
    let t = Tabula::new();
    let bot = t.path().join("timed.py");
    std::fs::write(&bot, TIMED_BOT).unwrap();
    // A bot running as another user must be able to read its program.
    std::fs::set_permissions(t.path(), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    std::fs::set_permissions(&bot, std::os::unix::fs::PermissionsExt::from_mode(0o644)).unwrap();
    let run = |move_time: &str| {
        let json = t.path().join(format!("{move_time}.json"));
        let words = ["tournament", "--game", "intervalo", "--option=-cells=9", "--games-per-pair", "2"];
        let out = t
            .command(&words)
            .args(["--bot", "center", "--bot"])
            .arg(format!("python3 {}", bot.display()))
            .args(["--move-time", move_time, "--quiet", "--json-file"])
            .arg(&json)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let report: serde_json::Value = serde_json::from_slice(&std::fs::read(json).unwrap()).unwrap();
        report["games"].clone()
    };
    let whole = run("1000");
    let other = run("900");
    assert_ne!(whole, other, "the second run returned the first one's games");
    assert_eq!(run("1000"), whole, "the same limits resume the same tournament");
}

#[test]
fn long_commands_stay_apart_and_games_are_numbered_from_1() {
    let t = Tabula::new();
    let long = "/bin/sh -c 'exit 3' this-is-a-long-command-line-that-is-cut-in-tables";
    let longer = "/bin/sh -c 'exit 4' this-is-a-long-command-line-that-is-cut-in-tables";
    let words = ["tournament", "--game", "intervalo", "--option=-cells=4", "--games-per-pair", "1"];
    let out = t
        .command(&words)
        .args(["--bot", long, "--bot", longer, "--bot", "random", "--quiet"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    // The standings: rank, then the name column (40 wide).
    let standings: Vec<String> = text
        .lines()
        .skip(2)
        .take(3)
        .filter(|l| l.contains("/bin/sh"))
        .map(|l| l[6..46].trim_end().to_string())
        .collect();
    assert_eq!(standings.len(), 2, "{text}");
    assert_ne!(standings[0], standings[1], "two bots shown alike:\n{text}");
    assert!(text.contains("\n  game 1: "), "games are numbered from 1:\n{text}");
    assert!(!text.contains("game 0:"), "{text}");
}

#[test]
fn a_builtin_bot_is_offered_only_for_the_games_it_plays() {
    let t = Tabula::new();
    t.signup(&["ned"]);
    let err = t.fails("dna challenge ned bot:center", 1);
    assert!(err.contains("there is no bot bot:center for DNA: the bots are bot:random, bot:greedy"), "{err}");
    let out = t.ok("intervalo challenge ned bot:center");
    assert!(out.contains("bot:center"), "{out}");
}
