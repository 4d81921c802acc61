//! The server under attack, tried as a hostile client would: the real
//! `tabula serve` on a database of its own, driven over plain TCP. Each test
//! names the attack and checks the limit that holds it, and that everyone
//! else keeps playing meanwhile. The figures these attacks were measured at
//! are in `docs/reliability.md` ("Abuse").

mod common;
mod net;

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{BIN, Tabula};
use net::request;
use serde_json::{Value, json};

/// A `tabula serve` process on the test's database, killed when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
    log: std::path::PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// `tabula serve` on `db` with `args` added, answering when this returns.
    fn start(t: &Tabula, args: &[&str]) -> Server {
        Self::start_with(t, args, |_| {})
    }

    /// [`Server::start`], with `setup` applied to the command first.
    fn start_with(t: &Tabula, args: &[&str], setup: impl FnOnce(&mut Command)) -> Server {
        let addr = net::free_port();
        let log = t.path().join(format!("serve-{}.log", addr.port()));
        let log_file = std::fs::File::create(&log).expect("server log");
        let mut command = Command::new(BIN);
        command
            .arg("--db")
            .arg(&t.db)
            .args(["serve", "--listen", &addr.to_string()])
            .args(args)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log_file);
        setup(&mut command);
        let child = command.spawn().expect("tabula serve starts");
        let mut server = Server { child, addr, log };
        let started = Instant::now();
        while !matches!(request(addr, "GET", "/healthz", &[], ""), Ok(r) if r.status == 200) {
            if let Ok(Some(status)) = server.child.try_wait() {
                panic!("the server exited ({status}); its log:\n{}", server.log_text());
            }
            assert!(started.elapsed() < Duration::from_secs(60), "no answer; log:\n{}", server.log_text());
            std::thread::sleep(Duration::from_millis(20));
        }
        server
    }

    fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// A JSON request with optional headers; the status and the body.
    fn call(&self, method: &str, path: &str, headers: &[(&str, &str)], body: Option<&Value>) -> (u16, Value) {
        let mut all = vec![("Content-Type", "application/json")];
        all.extend_from_slice(headers);
        let body = body.map(Value::to_string).unwrap_or_default();
        let r = request(self.addr, method, path, &all, &body).expect("the server answers");
        let value = serde_json::from_str(&r.body).unwrap_or(Value::Null);
        (r.status, value)
    }

    /// A command through the API, with a bearer token if given.
    fn command(&self, line: &str, token: Option<&str>) -> (u16, Value) {
        let auth = token.map(|t| format!("Bearer {t}"));
        let headers: Vec<(&str, &str)> = auth.iter().map(|a| ("Authorization", a.as_str())).collect();
        self.call("POST", "/api/v1/commands", &headers, Some(&json!({ "line": line })))
    }

    /// A new bearer token of `user` (password `pw-USER`).
    fn token(&self, user: &str) -> String {
        let body = json!({"user": user, "password": format!("pw-{user}"), "name": "test"});
        let (status, v) = self.call("POST", "/api/v1/tokens", &[], Some(&body));
        assert_eq!(status, 201, "token for {user}: {v}");
        v["token"].as_str().expect("a token").to_string()
    }
}

#[test]
fn a_bearer_scheme_in_any_case_is_accepted() {
    let t = Tabula::new();
    t.signup(&["ned"]);
    let s = Server::start(&t, &[]);
    let token = s.token("ned");
    for scheme in ["Bearer", "bearer", "BEARER"] {
        let auth = format!("{scheme} {token}");
        let (status, v) = s.call("GET", "/api/v1/me", &[("Authorization", &auth)], None);
        assert_eq!((status, &v["user"]), (200, &json!("ned")), "{scheme}: {v}");
    }
}

#[test]
fn control_characters_never_reach_another_players_terminal() {
    let t = Tabula::new();
    t.signup(&["ned", "ted"]);
    t.ok("dna challenge -manual -length=6 ned ted");
    let s = Server::start(&t, &[]);
    let token = s.token("ned");
    // NUL, a screen-clearing escape sequence, a bell and a bidirectional
    // override that would show the rest of the line backwards.
    let hostile = "hello\u{0}\u{1b}[2J\u{7}\u{202e}dlrow";
    let (status, v) = s.command(&format!("dna chat 1 ned - {hostile}"), Some(&token));
    assert_eq!(status, 200, "{v}");
    let (_, history) = s.call("GET", "/api/v1/games/1/history", &[], None);
    assert_eq!(history["chat"][0]["text"], "hello[2Jdlrow", "{history}");
    let printed = t.ok("dna history 1");
    assert!(printed.contains("[chat] ned: hello[2Jdlrow"), "{printed}");
    assert!(!printed.contains(['\u{0}', '\u{1b}', '\u{7}', '\u{202e}']), "{printed:?}");
}

/// The peak resident memory of a finished child, in bytes.
fn peak_resident(child: &mut Child) -> u64 {
    let mut status = 0;
    // SAFETY: an all-zero `rusage` is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: the pid is our own unwaited child; both pointers are valid.
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t, "wait4 failed");
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "the child failed: {status}");
    usage.ru_maxrss as u64 * 1024
}

/// `tabula rewrite run` on a 16 MiB start string and 500 rules (the engine
/// bench's workload: four letters, left sides of 3 to 8, right sides of 0
/// to 8) stays within three times its input and 20 MB (`08-bars.md`); it
/// peaked at 16 times its input, keeping every application of the pass
/// and three copies of the string.
#[test]
fn tabula_rewrite_memory_is_in_proportion_to_its_input() {
    use rand::{Rng, SeedableRng};
    let dir = tempfile::tempdir().unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let letters = b"atcg";
    let word = |rng: &mut rand_chacha::ChaCha8Rng, n: usize| -> String {
        (0..n).map(|_| letters[rng.random_range(0..4)] as char).collect()
    };
    let input_len = 16usize << 20;
    let start: String = word(&mut rng, input_len);
    let mut seen = std::collections::HashSet::new();
    let mut rules = String::new();
    while seen.len() < 500 {
        let (n, m) = (rng.random_range(3..=8), rng.random_range(0..=8));
        let lhs = word(&mut rng, n);
        if seen.insert(lhs.clone()) {
            rules.push_str(&format!("{lhs}=>{}\n", word(&mut rng, m)));
        }
    }
    write(dir.path(), "start.txt", &start);
    write(dir.path(), "rules.txt", &rules);
    let mut child = Command::new(BIN)
        .args(["rewrite", "run"])
        .arg("--start-file")
        .arg(dir.path().join("start.txt"))
        .arg(dir.path().join("rules.txt"))
        .stdout(Stdio::null())
        .spawn()
        .expect("tabula rewrite runs");
    let peak = peak_resident(&mut child);
    let bound = 3 * input_len as u64 + 20_000_000;
    assert!(peak <= bound, "peak resident {peak} bytes for a {input_len}-byte string (bound {bound})");
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).expect("a test file");
}
