//! No process a bot starts outlives the referee: after a tournament that
//! ends normally, and after a `kill -9` of the referee in the middle of
//! one, nothing the bot started is left, not even a daemon that
//! double-forked and left the bot's session. As root the check runs twice:
//! with the referee as root (bots as `nobody`) and with the referee itself
//! unprivileged.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::BIN;

fn is_root() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    // Real, effective, saved and file-system ids.
    status.lines().any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(2) == Some("0"))
}

/// A directory every user may read and write, with the daemon bot in it (a
/// bot run as another user must be able to read its program).
fn shared_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let source: PathBuf =
        [env!("CARGO_MANIFEST_DIR"), "..", "bots", "tests", "bots", "daemon.py"].iter().collect();
    let bot = dir.path().join("daemon.py");
    std::fs::copy(&source, &bot).unwrap();
    std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o644)).unwrap();
    (dir, bot)
}

/// Live processes (not zombies) whose command line contains `marker`.
fn processes_naming(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else { continue };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        let state = stat.rsplit(')').next().unwrap_or("").trim_start().chars().next();
        if cmdline.contains(marker) && state != Some('Z') {
            found.push(format!("{pid} {state:?} {cmdline}"));
        }
    }
    found
}

/// Wait (a few seconds at most) until no process names `marker`; those left.
fn survivors(marker: &str) -> Vec<String> {
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        let left = processes_naming(marker);
        if left.is_empty() || Instant::now() > until {
            return left;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The tournament's command, run as `as_user` (a uid) when given.
fn tournament(dir: &Path, bot: &Path, marker: &str, games: u32, as_user: Option<u32>) -> Command {
    let mut command = match as_user {
        Some(uid) => {
            let mut c = Command::new("setpriv");
            c.args([format!("--reuid={uid}"), format!("--regid={uid}"), "--clear-groups".into()]).arg(BIN);
            c
        }
        None => Command::new(BIN),
    };
    command
        .arg("--db")
        .arg(dir.join(format!("tabula-{marker}.db")))
        .args(["tournament", "--game", "intervalo", "--bot", "random", "--bot"])
        .arg(format!("python3 '{}' {marker}", bot.display()))
        .args(["--games-per-pair", &games.to_string(), "--quiet"]);
    command
}

/// A marker no other test (of this run or another) uses.
fn marker(name: &str) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    format!("{name}-{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed))
}

fn after_a_normal_tournament(as_user: Option<u32>) {
    let (dir, bot) = shared_dir();
    let marker = marker("normal");
    let out = tournament(dir.path(), &bot, &marker, 4, as_user).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("4 games"), "{stdout}");
    assert!(!stdout.contains("Failures"), "the daemon bot plays legal moves: {stdout}");
    let left = survivors(&marker);
    assert!(left.is_empty(), "processes of the bot survived the tournament: {left:#?}");
}

fn after_kill_9_of_the_referee(as_user: Option<u32>) {
    let (dir, bot) = shared_dir();
    let marker = marker("killed");
    let mut referee = tournament(dir.path(), &bot, &marker, 100_000, as_user)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the bot has left its daemons behind: its own process, and
    // at least two more that carry its marker.
    let started = Instant::now();
    loop {
        let bots = processes_naming(&marker).iter().filter(|p| p.contains("python3")).count();
        if bots >= 4 {
            break;
        }
        assert!(referee.try_wait().unwrap().is_none(), "the tournament ended early");
        assert!(started.elapsed() < Duration::from_secs(30), "the bot never started its daemons");
        std::thread::sleep(Duration::from_millis(50));
    }
    // Let it play a little, then kill the referee (setpriv has exec'ed it,
    // so the child is the referee itself).
    std::thread::sleep(Duration::from_millis(500));
    referee.kill().unwrap();
    referee.wait().unwrap();
    let left = survivors(&marker);
    assert!(left.is_empty(), "processes of the bot survived the referee's kill -9: {left:#?}");
}

#[test]
fn no_bot_process_outlives_a_normal_tournament() {
    after_a_normal_tournament(None);
}

#[test]
fn no_bot_process_outlives_a_killed_referee() {
    after_kill_9_of_the_referee(None);
}

#[test]
fn no_bot_process_outlives_an_unprivileged_referee() {
    if !is_root() {
        // Already unprivileged: the two tests above cover it.
        return;
    }
    after_a_normal_tournament(Some(65534));
    after_kill_9_of_the_referee(Some(65534));
}

#[test]
fn as_root_bots_run_as_nobody_or_the_user_given() {
    if !is_root() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let bot = dir.path().join("whoami.py");
    std::fs::write(
        &bot,
        "import json, os, sys\n\
         log = open(sys.argv[1], 'a')\n\
         for line in sys.stdin:\n\
         \x20   m = json.loads(line)\n\
         \x20   if m['type'] == 'turn':\n\
         \x20       log.write('%d %d %s\\n' % (os.getuid(), os.getgid(), sorted(os.listdir('/proc/self/fd'))))\n\
         \x20       log.flush()\n\
         \x20       print(m['legal'][0], flush=True)\n\
         \x20   elif m['type'] == 'quit':\n\
         \x20       break\n",
    )
    .unwrap();
    std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o644)).unwrap();
    let run = |extra: &[&str], log: &str| {
        let log = dir.path().join(log);
        // The referee inherits a stray descriptor (7) without close-on-exec.
        let out = Command::new("sh")
            .args(["-c", "exec 7</dev/null; exec \"$0\" \"$@\"", BIN])
            .arg("--db")
            .arg(dir.path().join("t.db"))
            .args(["tournament", "--game", "intervalo", "--option=-cells=4", "--games-per-pair", "1"])
            .args(["--bot", "random", "--bot"])
            .arg(format!("python3 '{}' '{}'", bot.display(), log.display()))
            .args(extra)
            .args(["--quiet"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        std::fs::read_to_string(log).unwrap()
    };
    let nobody = run(&[], "default.txt");
    let first = nobody.lines().next().unwrap();
    assert!(first.starts_with("65534 "), "bots run as nobody by default: {nobody}");
    // Its pipes, its log and the listing's own descriptor; nothing of the referee's.
    assert!(first.contains("'0', '1', '2'"), "{nobody}");
    assert!(!first.contains("'7'"), "the bot inherits the referee's stray descriptor: {nobody}");
    let daemon = run(&["--bot-user", "daemon"], "daemon.txt");
    assert!(daemon.starts_with("1 1 "), "--bot-user daemon: {daemon}");
    let refused = Command::new(BIN)
        .arg("--db")
        .arg(dir.path().join("t.db"))
        .args([
            "tournament",
            "--game",
            "intervalo",
            "--bot",
            "random",
            "--bot",
            "random",
            "--bot-user",
            "root",
        ])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("may not run as root"));
}

#[test]
fn an_unprivileged_referee_runs_bots_only_as_itself() {
    if !is_root() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    // The referee as nobody (65534).
    let run = |user: &str| {
        Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", BIN])
            .arg("--db")
            .arg(dir.path().join(format!("{user}.db")))
            .args(["tournament", "--game", "intervalo", "--option=-cells=4", "--games-per-pair", "1"])
            .args(["--bot", "random", "--bot", "random", "--quiet", "--bot-user", user])
            .output()
            .unwrap()
    };
    let other = run("daemon");
    assert_eq!(other.status.code(), Some(2), "{}", String::from_utf8_lossy(&other.stderr));
    let stderr = String::from_utf8_lossy(&other.stderr);
    assert!(
        stderr.contains("bots can run as another user (\"daemon\") only when tabula runs as root"),
        "{stderr}"
    );
    let unknown = run("no-such-user-here");
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("there is no user \"no-such-user-here\""));
    // Its own user is no change: accepted.
    let own = run("nobody");
    assert!(own.status.success(), "{}", String::from_utf8_lossy(&own.stderr));
}

/// The report's repro as written, `--bot "python3 deaf.py"` run from the
/// script's directory: the bot starts there (as root too, where it runs as
/// `nobody`; it was started in `/` and crashed, unable to find its script)
/// and loses for not reading its input, within the tournament's limits.
#[test]
fn a_bot_named_by_a_relative_path_starts_where_the_referee_runs() {
    let dir = tempfile::tempdir().unwrap();
    // Readable by the bot's user, as its program must be.
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let source: PathBuf =
        [env!("CARGO_MANIFEST_DIR"), "..", "bots", "tests", "bots", "deaf.py"].iter().collect();
    std::fs::copy(&source, dir.path().join("deaf.py")).unwrap();
    std::fs::set_permissions(dir.path().join("deaf.py"), std::fs::Permissions::from_mode(0o644)).unwrap();
    let json = dir.path().join("results.json");
    let out = Command::new(BIN)
        .current_dir(dir.path())
        .arg("--db")
        .arg(dir.path().join("t.db"))
        .args(["tournament", "--game", "rtlife", "--bot", "greedy", "--bot", "python3 deaf.py"])
        .args(["--games-per-pair", "1", "--move-time", "300", "--quiet", "--json-file"])
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let failures = report["games"][0]["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 1, "{report}");
    assert_eq!(failures[0]["bot"], "python3 deaf.py");
    assert_eq!(failures[0]["kind"], "timed_out", "{}", failures[0]);
    assert!(failures[0]["message"].as_str().unwrap().contains("did not read its input within 300 ms"));
}
