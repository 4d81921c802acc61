//! The README's commands, run as written: every line of its `sh` blocks,
//! in order, through bash, in one fresh directory with this build's
//! `tabula` first on the PATH (and the checkout's `examples/` beside it, for
//! the tournament that names a bot there). Each must succeed, and what the
//! README says of it must hold. The set-up commands (`text` blocks: cargo,
//! scripts/test) are run by scripts/test-clean-debian.

mod net;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_tabula");

/// The commands of the README's `sh` blocks, continuation lines joined.
fn commands(readme: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_sh = false;
    let mut pending = String::new();
    for line in readme.lines() {
        if let Some(info) = line.strip_prefix("```") {
            in_sh = !in_sh && info.trim() == "sh";
            continue;
        }
        if !in_sh || line.trim().is_empty() {
            continue;
        }
        match line.strip_suffix('\\') {
            Some(head) => pending.push_str(head),
            None => {
                pending.push_str(line);
                out.push(std::mem::take(&mut pending));
            }
        }
    }
    out
}

fn bash(dir: &Path, path: &str, command: &str) -> Command {
    let mut c = Command::new("bash");
    c.args(["-c", command]).current_dir(dir).env("PATH", path);
    c
}

/// `tabula serve` as the README shows it: it must say it serves on the
/// address the README gives, and serve the game played before it.
fn serve(dir: &Path, path: &str, command: &str) {
    let written = "http://127.0.0.1:8080/";
    // Several test runs may share a machine: when the README's port is
    // taken, the same command listens on a free port instead.
    let port_free = std::net::TcpListener::bind("127.0.0.1:8080").is_ok();
    let command = if port_free {
        command.to_string()
    } else {
        eprintln!("127.0.0.1:8080 is in use: `{command}` runs with --listen 127.0.0.1:0");
        format!("{command} --listen 127.0.0.1:0")
    };
    let mut child = bash(dir, path, &format!("exec {command}"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("bash runs");
    let mut banner = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut banner).unwrap();
    let url = banner
        .trim_end()
        .strip_prefix("Tabula is serving on ")
        .unwrap_or_else(|| panic!("`{command}` printed {banner:?}"))
        .to_string();
    if port_free {
        assert_eq!(url, written, "`{command}` serves elsewhere than the README says");
    }
    let addr = url.trim_start_matches("http://").trim_end_matches('/').parse().expect("an address");
    let health = net::request(addr, "GET", "/healthz", &[], "").expect("/healthz answers");
    assert_eq!(health.status, 200);
    let game = net::request(addr, "GET", "/api/v1/games/1", &[], "").expect("the game answers");
    assert_eq!(game.status, 200, "the game played above is served: {}", game.body);
    assert!(game.body.contains("\"kind\":\"dna\""), "{}", game.body);
    Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "`{command}` did not stop cleanly on SIGTERM: {status}");
}

#[test]
fn every_readme_command_does_what_the_readme_says() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let commands = commands(&readme);
    assert!(commands.len() >= 10, "too few commands found: {commands:?}");
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(root.join("examples").canonicalize().unwrap(), dir.path().join("examples"))
        .unwrap();
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default());
    for command in &commands {
        let words: Vec<&str> = command.split_whitespace().collect();
        if words.starts_with(&["tabula", "serve"]) {
            serve(dir.path(), &path, command);
            continue;
        }
        let out = bash(dir.path(), &path, command).output().expect("bash runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "`{command}` failed ({:?}):\n{stdout}{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
        let expect =
            |text: &str| assert!(stdout.contains(text), "`{command}` printed no {text:?}:\n{stdout}");
        match &words[..] {
            ["tabula", "signup", ..] => {
                assert!(dir.path().join("tabula.db").exists(), "`{command}` made no ./tabula.db");
            }
            ["tabula", "dna", "move", ..] => expect("It is ted's turn."),
            ["tabula", "dna", "show", ..] => expect("ned (33): "),
            ["tabula", "help"] => expect("GAME move BOARD USERID PASSWORD"),
            ["tabula", "help", "dna", ..] => expect("-length=N"),
            ["tabula", "dna", "remove", ..] => expect("removed 3"),
            ["tabula", "life", "run", ..] => {
                assert!(stdout.starts_with("......\n..#...\n...#..\n.###..\n"), "{stdout}")
            }
            ["tabula", "tournament", ..] => expect("python3 examples/bots/center.py"),
            _ => assert!(!stdout.trim().is_empty() || words[0] != "tabula", "`{command}` printed nothing"),
        }
    }
    // Reading it again from the database the README's commands made.
    let out = Command::new(BIN).current_dir(dir.path()).args(["dna", "history", "1"]).output().unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("ned: AAG"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
