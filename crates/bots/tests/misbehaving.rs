//! Misbehaving external bots lose their games with the reason recorded, the
//! tournament completes, and well-behaved bots are unaffected.

use std::path::PathBuf;
use std::time::Duration;

use tabula_bots::{
    BotLimits, BotSpec, FailureKind, MemoryStore, TournamentConfig, TournamentReport, run_tournament,
};
use tabula_model::SeatResult;

fn test_bot(name: &str) -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "bots", name].iter().collect();
    format!("python3 '{}'", path.display())
}

fn example_bot(name: &str) -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "..", "examples", "bots", name].iter().collect();
    format!("python3 '{}'", path.display())
}

fn alive(pid: i32) -> bool {
    // A zombie has exited; only running processes count.
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat.rsplit(')').next().unwrap_or("").trim_start().starts_with('Z'),
        Err(_) => false,
    }
}

/// Play a tournament of `random`, the example centre bot and `misbehaving`
/// bots; check that every failure is the misbehaving bot's, recorded with
/// its kind, and that the good bots win all their games against them.
fn check_tournament(
    misbehaving: &[(String, FailureKind)],
    games_per_pair: usize,
    move_ms: u64,
) -> TournamentReport {
    let good = ["random".to_string(), example_bot("center.py")];
    let mut specs: Vec<BotSpec> = good.iter().map(|s| BotSpec::parse(s).unwrap()).collect();
    specs.extend(misbehaving.iter().map(|(s, _)| BotSpec::parse(s).unwrap()));
    let bots = specs.len();
    let mut config = TournamentConfig::new("intervalo", specs);
    config.options = vec!["-cells=6".into()];
    config.games_per_pair = games_per_pair;
    config.seed = 5;
    config.threads = 2;
    config.move_time = Duration::from_millis(move_ms);
    config.limits =
        BotLimits { memory_bytes: 256 << 20, startup_time: Duration::from_secs(2), ..BotLimits::default() };

    let mut store = MemoryStore::default();
    let report = run_tournament(&config, &tabula_intervalo::KIND, &mut store, &|_| {}).unwrap();
    let games = bots * (bots - 1) / 2 * games_per_pair;
    assert_eq!(report.games.len(), games, "every game was played");
    assert_eq!(store.games.len(), games, "every game was saved");

    for game in &report.games {
        for failure in &game.failures {
            let seat = failure.seat;
            assert_eq!(game.results[seat], SeatResult::Loss, "a failing bot loses: {game:?}");
            assert!(game.reason.contains(&failure.message));
            let expected = misbehaving.iter().find(|(s, _)| *s == game.seats[seat]).map(|(_, k)| *k);
            assert_eq!(Some(failure.kind), expected, "{failure:?}");
        }
        let bad: Vec<bool> = game.seats.iter().map(|s| misbehaving.iter().any(|(m, _)| m == s)).collect();
        for seat in 0..2 {
            let other = 1 - seat;
            if !bad[seat] {
                assert!(game.failures.iter().all(|f| f.seat != seat), "a good bot never fails: {game:?}");
                if bad[other] {
                    assert_eq!(game.results[seat], SeatResult::Win, "beats a misbehaving bot: {game:?}");
                    assert_eq!(game.winner.as_deref(), Some(game.seats[seat].as_str()));
                }
            }
        }
        for (seat, _) in bad.iter().enumerate().filter(|(_, b)| **b) {
            if game.results[seat] == SeatResult::Win {
                assert!(
                    game.failures.iter().any(|f| f.seat != seat),
                    "won only by the other's failure: {game:?}"
                );
            }
        }
        if !bad[0] && !bad[1] {
            assert!(game.failures.is_empty());
            assert_eq!(game.scores.len(), 2, "a normal game ends with scores: {game:?}");
        }
    }
    for standing in &report.bots {
        if misbehaving.iter().any(|(m, _)| *m == standing.name) {
            assert!(standing.failures > 0);
        } else {
            assert_eq!(standing.failures, 0);
            assert!(standing.wins >= (misbehaving.len() * games_per_pair) as u64, "{standing:?}");
        }
    }
    report
}

fn messages(report: &TournamentReport) -> Vec<String> {
    report.games.iter().flat_map(|g| g.failures.iter().map(|f| f.message.clone())).collect()
}

#[test]
fn crashing_babbling_flooding_and_hogging_bots_lose() {
    let misbehaving = [
        (test_bot("exit.py"), FailureKind::Crashed),
        (test_bot("nonsense.py"), FailureKind::Malformed),
        (test_bot("flood.py"), FailureKind::Flood),
        (test_bot("hog.py"), FailureKind::Crashed),
    ];
    let report = check_tournament(&misbehaving, 2, 2000);
    let messages = messages(&report);
    assert!(
        messages.iter().any(|m| m.contains("exit.py") && m.contains("crashed (exit status: 3)")),
        "{messages:?}"
    );
    assert!(messages.iter().any(|m| m.contains("answered a malformed move \"hello referee\"")));
    assert!(
        messages.iter().any(|m| m.contains("flood.py") && m.contains("wrote more than 64 KiB in one line"))
    );
    assert!(messages.iter().any(|m| m.contains("hog.py") && m.contains("crashed")));
    // What a crashing bot said on stderr is kept.
    assert!(report.games.iter().flat_map(|g| &g.failures).any(|f| f.stderr.contains("giving up")));
    assert!(report.games.iter().flat_map(|g| &g.failures).any(|f| f.stderr.contains("MemoryError")));
    // And shown under the failure in the table, where it says why.
    let text = tabula_bots::render_text(&report, tabula_model::Lang::En);
    let crash = text.lines().position(|l| l.contains("exit.py") && l.contains("crashed")).expect("listed");
    assert_eq!(text.lines().nth(crash + 1).map(str::trim), Some("stderr: giving up"), "{text}");
}

#[test]
fn silent_and_forking_bots_time_out_and_their_children_are_killed() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("children.txt");
    let misbehaving = [
        (test_bot("silent.py"), FailureKind::TimedOut),
        (format!("{} '{}'", test_bot("fork.py"), pids.display()), FailureKind::TimedOut),
    ];
    let report = check_tournament(&misbehaving, 1, 300);
    let messages = messages(&report);
    // A fresh process is told, and given, its start-up time as well.
    let startup = "timed out (no move within 2300 ms: 300 ms for the move and 2000 ms to start up)";
    assert!(messages.iter().any(|m| m.contains("silent.py") && m.contains(startup)), "{messages:?}");
    let text = std::fs::read_to_string(&pids).unwrap_or_default();
    let children: Vec<i32> = text.split_whitespace().filter_map(|p| p.parse().ok()).collect();
    assert!(children.len() >= 20, "the forking bot ran: {text:?}");
    std::thread::sleep(Duration::from_millis(300));
    for pid in children {
        assert!(!alive(pid), "child {pid} of the forking bot survived");
    }
}

#[test]
fn a_bot_that_cannot_start_loses() {
    let specs = vec![BotSpec::parse("random").unwrap(), BotSpec::parse("/nonexistent/bot --x").unwrap()];
    let mut config = TournamentConfig::new("intervalo", specs);
    config.games_per_pair = 2;
    config.options = vec!["-cells=4".into()];
    let report =
        run_tournament(&config, &tabula_intervalo::KIND, &mut MemoryStore::default(), &|_| {}).unwrap();
    for game in &report.games {
        assert_eq!(game.winner.as_deref(), Some("random"));
        assert_eq!(game.failures[0].kind, FailureKind::Spawn);
        assert!(game.reason.contains("could not be started"), "{}", game.reason);
    }
}

/// A bot that answers without reading (the pipe to it fills after a few
/// dozen views of Real-Time Life) loses like a silent one, and the
/// tournament ends: the referee's writes are bounded by the same deadlines
/// as the answers.
#[test]
fn bots_that_never_read_their_input_lose_and_the_tournament_ends() {
    let deaf = test_bot("deaf.py");
    let specs = ["greedy", deaf.as_str(), "yes pass"].map(|s| BotSpec::parse(s).unwrap()).to_vec();
    let mut config = TournamentConfig::new("rtlife", specs);
    config.games_per_pair = 1;
    config.threads = 2;
    config.move_time = Duration::from_millis(500);
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let report = run_tournament(&config, &tabula_rtlife::KIND, &mut MemoryStore::default(), &|_| {});
        let _ = sender.send(report);
    });
    // Before the writes had deadlines this never ended.
    let report = receiver
        .recv_timeout(Duration::from_secs(300))
        .expect("the tournament ends within its time limits")
        .unwrap();
    assert_eq!(report.games.len(), 3);
    for game in &report.games {
        for (seat, name) in game.seats.iter().enumerate() {
            if name == "greedy" {
                assert_eq!(game.results[seat], SeatResult::Win, "{game:?}");
                continue;
            }
            assert_eq!(game.results[seat], SeatResult::Loss, "{game:?}");
            let failure = game.failures.iter().find(|f| f.seat == seat).expect("a failure");
            assert_eq!(failure.kind, FailureKind::TimedOut, "{failure:?}");
            assert!(failure.message.contains("did not read its input within 500 ms"), "{failure:?}");
        }
    }
}
