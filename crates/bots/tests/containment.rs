//! External bots are confined: a clean environment (a short allow-list, no
//! secret of the server's), CPU-time, memory and process limits applied to
//! the process, and a bot that forks without end, computes without end or
//! writes without end is stopped (with everything it started), loses with
//! the reason recorded, and the tournament completes.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use tabula_bots::process::{BotProcess, ReadError};
use tabula_bots::{BotLimits, BotSpec, FailureKind, MemoryStore, TournamentConfig, run_tournament};
use tabula_model::SeatResult;

fn test_bot(name: &str) -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "bots", name].iter().collect();
    format!("python3 '{}'", path.display())
}

/// Every line a program writes until it exits.
fn output_of(argv: &[&str], limits: &BotLimits) -> Vec<String> {
    let argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
    let mut p = BotProcess::spawn(&argv, limits).expect("spawns");
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut lines = Vec::new();
    loop {
        match p.receive(deadline) {
            Ok(line) => lines.push(line),
            Err(ReadError::Closed(_)) => return lines,
            Err(e) => panic!("{argv:?}: {e:?}"),
        }
    }
}

const ALLOWED_ENVIRONMENT: [&str; 3] = ["LANG", "PATH", "PYTHONUNBUFFERED"];

#[test]
fn a_bot_process_gets_only_the_allowed_environment() {
    // The test process has plenty the bot must not see (cargo sets CARGO_*,
    // and HOME, database URLs or tokens are typical in a server's environment).
    assert!(std::env::vars_os().any(|(k, _)| !ALLOWED_ENVIRONMENT.iter().any(|a| k == *a)));
    let lines = output_of(&["env"], &BotLimits::default());
    let names: Vec<&str> = lines.iter().filter_map(|l| l.split_once('=').map(|(k, _)| k)).collect();
    assert!(!names.is_empty(), "env printed nothing: {lines:?}");
    for name in &names {
        assert!(ALLOWED_ENVIRONMENT.contains(name), "the bot sees {name}: {lines:?}");
    }
    assert!(lines.contains(&"PYTHONUNBUFFERED=1".to_string()), "{lines:?}");
}

#[test]
fn a_bot_process_gets_no_descriptor_of_the_referee_but_its_pipes() {
    use std::os::fd::AsRawFd;
    // Descriptors the referee holds without close-on-exec, as those it
    // inherits from whoever started it are: a low one and a high one.
    let file = std::fs::File::open("/dev/null").unwrap();
    let stray = [200, 1000];
    for fd in stray {
        // SAFETY: dup2 onto numbers this test owns; dup2 never sets
        // close-on-exec on the copy.
        assert_eq!(unsafe { libc::dup2(file.as_raw_fd(), fd) }, fd);
    }
    let listing = output_of(
        &["python3", "-c", "import os; print(sorted(map(int, os.listdir('/proc/self/fd'))))"],
        &BotLimits::default(),
    );
    for fd in stray {
        // SAFETY: closing the copies made above.
        unsafe { libc::close(fd) };
    }
    // Its three pipes, and the descriptor the listing itself opens.
    assert_eq!(listing, ["[0, 1, 2, 3]"], "the bot holds descriptors it was not given");
    // The three are pipes (the bot's stdin, stdout and stderr), not
    // anything of the referee's.
    let kinds = output_of(
        &["python3", "-c", "import os; print([os.readlink('/proc/self/fd/%d' % d)[:5] for d in (0, 1, 2)])"],
        &BotLimits::default(),
    );
    assert_eq!(kinds, ["['pipe:', 'pipe:', 'pipe:']"]);
}

/// The soft and hard value of one line of `/proc/self/limits`.
fn limit(lines: &[String], name: &str) -> (String, String) {
    let line = lines.iter().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("no {name}: {lines:?}"));
    let words: Vec<&str> = line[name.len()..].split_whitespace().collect();
    (words[0].to_string(), words[1].to_string())
}

#[test]
fn a_bot_process_runs_under_its_resource_limits() {
    let limits = BotLimits { cpu_seconds: 7, memory_bytes: 300 << 20, processes: 33, ..BotLimits::default() };
    let lines = output_of(&["cat", "/proc/self/limits"], &limits);
    assert_eq!(limit(&lines, "Max cpu time"), ("7".into(), "7".into()));
    let bytes = (300u64 << 20).to_string();
    assert_eq!(limit(&lines, "Max address space"), (bytes.clone(), bytes));
    assert_eq!(limit(&lines, "Max processes"), ("33".into(), "33".into()));
    // Its own session, so the whole group can be killed as one.
    let stat = output_of(&["cat", "/proc/self/stat"], &limits);
    let fields: Vec<&str> = stat[0].rsplit(')').next().unwrap().split_whitespace().collect();
    // After the name: state, ppid, pgrp, session.
    let pid: &str = stat[0].split_whitespace().next().unwrap();
    assert_eq!(fields[2], pid, "process group");
    assert_eq!(fields[3], pid, "session");
}

fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat.rsplit(')').next().unwrap_or("").trim_start().starts_with('Z'),
        Err(_) => false,
    }
}

/// A tournament of `random` against `bad`; every game of `bad` is lost
/// with a failure of `kind`, and the tournament completes.
fn tournament_against(bad: &str, kind: FailureKind, move_time: Duration, limits: BotLimits) -> Vec<String> {
    let specs = vec![BotSpec::parse("random").unwrap(), BotSpec::parse(bad).unwrap()];
    let mut config = TournamentConfig::new("intervalo", specs);
    config.options = vec!["-cells=4".into()];
    config.games_per_pair = 2;
    config.seed = 3;
    config.threads = 1;
    config.move_time = move_time;
    config.limits = limits;
    let mut store = MemoryStore::default();
    let report = run_tournament(&config, &tabula_intervalo::KIND, &mut store, &|_| {}).unwrap();
    assert_eq!(report.games.len(), 2, "the tournament completed");
    assert_eq!(store.games.len(), 2, "every game was saved");
    let mut messages = Vec::new();
    for game in &report.games {
        let seat = game.seats.iter().position(|s| s == bad).unwrap();
        assert_eq!(game.results[seat], SeatResult::Loss, "{game:?}");
        assert_eq!(game.winner.as_deref(), Some("random"));
        assert_eq!(game.failures.len(), 1, "{game:?}");
        assert_eq!(game.failures[0].kind, kind, "{game:?}");
        assert!(game.reason.contains(&game.failures[0].message), "the reason is recorded: {game:?}");
        assert!(game.failures[0].stderr.len() <= 4096, "the kept stderr is bounded");
        messages.push(game.failures[0].message.clone());
    }
    messages
}

#[test]
fn a_fork_bomb_is_stopped_with_every_process_it_started() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids.txt");
    let bad = format!("{} '{}'", test_bot("forkbomb.py"), pids.display());
    let limits = BotLimits { processes: 64, startup_time: Duration::from_secs(2), ..BotLimits::default() };
    let messages = tournament_against(&bad, FailureKind::TimedOut, Duration::from_millis(1500), limits);
    assert!(messages.iter().all(|m| m.contains("timed out")), "{messages:?}");
    // The ids the processes wrote are those of their PID namespace where
    // they have one, so the check goes by command line: every live process
    // that names this test's own file.
    let text = std::fs::read_to_string(&pids).unwrap_or_default();
    assert!(text.lines().count() >= 2, "the bomb went off: {text:?}");
    let marker = pids.display().to_string();
    let until = Instant::now() + Duration::from_secs(5);
    let mut left = processes_naming(&marker);
    while !left.is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(100));
        left = processes_naming(&marker);
    }
    assert!(left.is_empty(), "processes of the fork bomb survived: {left:?}");
}

/// Live processes whose command line contains `marker`.
fn processes_naming(marker: &str) -> Vec<i32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<i32>().ok()) else { continue };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else { continue };
        if String::from_utf8_lossy(&cmdline).contains(marker) && alive(pid) {
            found.push(pid);
        }
    }
    found
}

#[test]
fn a_bot_that_computes_forever_is_stopped_by_its_cpu_limit() {
    // One CPU second; the move time is far longer so that the CPU limit,
    // not the clock, stops it (even on a busy machine).
    let limits = BotLimits { cpu_seconds: 1, startup_time: Duration::from_secs(2), ..BotLimits::default() };
    let messages =
        tournament_against(&test_bot("spin.py"), FailureKind::Crashed, Duration::from_secs(60), limits);
    assert!(messages.iter().all(|m| m.contains("crashed")), "{messages:?}");
    assert!(
        messages.iter().any(|m| m.contains("signal: 9") || m.contains("SIGXCPU") || m.contains("signal: 24")),
        "{messages:?}"
    );
}

#[test]
fn a_bot_that_writes_forever_is_stopped() {
    let limits = BotLimits { startup_time: Duration::from_secs(2), ..BotLimits::default() };
    let messages =
        tournament_against(&test_bot("endless.py"), FailureKind::Flood, Duration::from_secs(5), limits);
    assert!(messages.iter().all(|m| m.contains("wrote more than 64 KiB in one line")), "{messages:?}");
}

#[test]
fn a_tournament_bot_sees_no_secret_of_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let seen = dir.path().join("environment.txt");
    let bad = format!("{} '{}'", test_bot("environment.py"), seen.display());
    let specs = vec![BotSpec::parse("random").unwrap(), BotSpec::parse(&bad).unwrap()];
    let mut config = TournamentConfig::new("intervalo", specs);
    config.options = vec!["-cells=4".into()];
    config.games_per_pair = 1;
    config.threads = 1;
    config.limits = BotLimits { startup_time: Duration::from_secs(5), ..BotLimits::default() };
    let report =
        run_tournament(&config, &tabula_intervalo::KIND, &mut MemoryStore::default(), &|_| {}).unwrap();
    assert!(report.games[0].failures.is_empty(), "{:?}", report.games[0]);
    let names = std::fs::read_to_string(&seen).unwrap();
    let names: Vec<&str> = names.lines().filter(|l| !l.is_empty()).collect();
    assert!(names.contains(&"PYTHONUNBUFFERED"), "{names:?}");
    // An interpreter's launcher (a version manager's shim) may add names
    // of its own, so the bot must see exactly what the interpreter sees
    // when started with the allowed environment alone (checked above with
    // `env`), and nothing of the server's.
    let script = "import os\nfor name in sorted(os.environ): print(name)";
    let baseline = output_of(&["python3", "-c", script], &BotLimits::default());
    assert_eq!(names, baseline, "the bot sees more than the allowed environment");
    for name in names {
        assert!(!name.starts_with("CARGO") && name != "HOME", "the bot sees {name}");
    }
}
