//! The relay against a submission server as providers run them: aiosmtpd
//! (`tests/smtp_tls_server.py`) with a certificate from a private
//! authority made here, STARTTLS or TLS from the start, and a login
//! required. Mail goes out encrypted and logged in; a wrong password, an
//! untrusted certificate or a relay without STARTTLS sends nothing, says
//! why, and keeps the mail queued; the password shows in no output.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::Tabula;
use common::tls::TestCa;
use serde_json::Value;

const PASSWORD: &str = "correct-horse-battery";
const WRONG: &str = "wrong-pony-staple";

/// The test submission server, stopped when dropped.
struct Submission {
    child: Child,
    port: u16,
    out: PathBuf,
}

impl Drop for Submission {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A Python that can import aiosmtpd: the one on PATH (the test suite's
/// environment) or Debian's.
fn python() -> Option<&'static str> {
    let found = ["python3", "/usr/bin/python3"].into_iter().find(|p| {
        Command::new(p)
            .args(["-c", "import aiosmtpd"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    });
    if found.is_none() {
        assert!(std::env::var_os("TABULA_REQUIRE_SMTP").is_none(), "no python3 can import aiosmtpd");
        eprintln!("skipped: no python3 can import aiosmtpd");
    }
    found
}

impl Submission {
    /// `mode`: starttls, tls or plain; the certificate and key from `dir`.
    fn start(python: &str, mode: &str, dir: &Path) -> Submission {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let out = dir.join(format!("received-{mode}"));
        std::fs::create_dir_all(&out).unwrap();
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/smtp_tls_server.py");
        let mut child = Command::new(python)
            .arg(script)
            .args([mode, &port.to_string()])
            .arg(dir.join("server.pem"))
            .arg(dir.join("server.key"))
            .args(["tabula", PASSWORD])
            .arg(&out)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the submission server");
        let mut line = String::new();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(child.stdout.take().unwrap()), &mut line)
            .unwrap();
        let server = Submission { child, port, out };
        assert_eq!(line.trim(), "ready", "the {mode} submission server did not start");
        server
    }

    /// The messages received, in no order.
    fn received(&self) -> Vec<Value> {
        let mut got = Vec::new();
        for entry in std::fs::read_dir(&self.out).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "json") {
                got.push(serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap());
            }
        }
        got
    }

    /// The login attempts: (user, accepted).
    fn logins(&self) -> Vec<(String, bool)> {
        let text = std::fs::read_to_string(self.out.join("logins")).unwrap_or_default();
        text.lines()
            .map(|l| {
                let v: Value = serde_json::from_str(l).unwrap();
                (v["user"].as_str().unwrap().to_string(), v["accepted"].as_bool().unwrap())
            })
            .collect()
    }
}

/// The certificates: a private authority's (`ca.pem`), a server
/// certificate it signed for 127.0.0.1 (`server.pem`, `server.key`), and
/// another authority's (`other-ca.pem`), which did not sign it.
fn certificates(dir: &Path) {
    let ca = TestCa::new("Tabula relay test CA");
    let server = ca.server(&["127.0.0.1", "localhost"]);
    std::fs::write(dir.join("ca.pem"), ca.cert_pem()).unwrap();
    std::fs::write(dir.join("server.pem"), &server.cert_pem).unwrap();
    std::fs::write(dir.join("server.key"), &server.key_pem).unwrap();
    std::fs::write(dir.join("other-ca.pem"), TestCa::new("Another CA").cert_pem()).unwrap();
    std::fs::write(dir.join("password"), format!("{PASSWORD}\n")).unwrap();
    std::fs::write(dir.join("wrong"), format!("{WRONG}\n")).unwrap();
}

/// `tabula cron` with `args`, at `now`, with `env`: (exit code, stdout, stderr).
fn cron(t: &Tabula, now: &str, args: &[String], env: &[(&str, &str)]) -> (Option<i32>, String, String) {
    let mut c = Command::new(common::BIN);
    c.arg("--db").arg(&t.db).args(["--now", now, "cron", "--mail-from", "tabula@example.org"]).args(args);
    c.env_remove("TABULA_RELAY_PASSWORD");
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    for text in [&stdout, &stderr] {
        assert!(!text.contains(PASSWORD) && !text.contains(WRONG), "a password in the output:\n{text}");
    }
    (out.status.code(), stdout, stderr)
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// The outbox rows as `tabula --json outbox` shows them, each with its
/// `status`: sent, given up or queued.
fn outbox(t: &Tabula) -> Vec<Value> {
    let mut rows =
        t.json("outbox").as_array().cloned().unwrap_or_else(|| panic!("{}", t.ok("--json outbox")));
    for row in &mut rows {
        let status = if !row["sent_at"].is_null() {
            "sent"
        } else if !row["gave_up_at"].is_null() {
            "given up"
        } else {
            "queued"
        };
        row["status"] = Value::from(status);
    }
    rows
}

#[test]
fn the_relay_sends_over_starttls_with_a_login_and_refuses_what_is_not_safe() {
    let Some(python) = python() else { return };
    let mut t = Tabula::new();
    t.now = Some("2026-03-01T09:00:00Z".into());
    let dir = t.path();
    certificates(dir);
    let path = |name: &str| dir.join(name).display().to_string();
    let smtp = Submission::start(python, "starttls", dir);
    let url = format!("smtp://tabula@127.0.0.1:{}?tls=required", smtp.port);
    t.signup(&["ned", "ted"]);
    t.ok("dna challenge ted ned");
    let queued = outbox(&t).len();
    assert!(queued >= 1, "the challenge to ned is queued: {}", t.ok("outbox"));

    // A wrong password: refused, said so, nothing sent, the mail queued.
    let relay =
        strings(&["--relay", &url, "--relay-ca", &path("ca.pem"), "--relay-password-file", &path("wrong")]);
    let (code, out, err) = cron(&t, "2026-03-01T10:00:00Z", &relay, &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("mail: 0 sent, 1 to retry, 0 given up"), "{out}");
    assert!(err.contains("the relay refused the login") && err.contains("535"), "{err}");
    assert_eq!(smtp.logins(), vec![("tabula".to_string(), false)], "the login was tried, over TLS");
    assert!(smtp.received().is_empty());
    let rows = outbox(&t);
    assert!(rows.iter().all(|r| r["status"] == "queued"), "{rows:#?}");
    assert!(rows.iter().any(|r| r["last_error"].as_str().is_some_and(|e| e.contains("refused the login"))));

    // A certificate that the trusted authorities did not sign, or the
    // built-in roots: refused before the login, so the password never
    // reaches a server that could be anyone's.
    for trust in [&["--relay-ca", &path("other-ca.pem")][..], &[]] {
        let mut relay = strings(&["--relay", &url, "--relay-password-file", &path("password")]);
        relay.extend(strings(trust));
        let (code, out, err) = cron(&t, "2026-03-01T11:00:00Z", &relay, &[]);
        assert_eq!(code, Some(0), "{out}{err}");
        assert!(out.contains("mail: 0 sent, 1 to retry, 0 given up"), "{out}");
        assert!(err.contains("certificate is not trusted"), "{trust:?}: {err}");
    }
    assert_eq!(smtp.logins().len(), 1, "no login sent to an untrusted server");

    // A relay that offers no STARTTLS gets nothing in plain text.
    let plain = Submission::start(python, "plain", dir);
    let relay = strings(&[
        "--relay",
        &format!("smtp://tabula@127.0.0.1:{}?tls=required", plain.port),
        "--relay-ca",
        &path("ca.pem"),
    ]);
    let (_, out, err) = cron(&t, "2026-03-01T12:00:00Z", &relay, &[("TABULA_RELAY_PASSWORD", PASSWORD)]);
    assert!(out.contains("mail: 0 sent, 1 to retry, 0 given up"), "{out}");
    assert!(err.contains("does not offer STARTTLS"), "{err}");
    assert!(plain.received().is_empty() && plain.logins().is_empty());

    // The right password, from the environment: sent encrypted, logged in, once.
    let relay = strings(&["--relay", &url, "--relay-ca", &path("ca.pem")]);
    let (_, out, err) = cron(&t, "2026-03-01T13:00:00Z", &relay, &[("TABULA_RELAY_PASSWORD", PASSWORD)]);
    assert!(out.contains(&format!("mail: {queued} sent, 0 to retry, 0 given up")), "{out}{err}");
    let got = smtp.received();
    assert_eq!(got.len(), queued, "{got:#?}");
    for mail in &got {
        assert_eq!((&mail["encrypted"], &mail["login"]), (&Value::Bool(true), &Value::from("tabula")));
    }
    let to_ned = got.iter().find(|m| m["to"] == serde_json::json!(["ned@example.org"])).expect("ned's mail");
    assert!(to_ned["data"].as_str().unwrap().contains("Subject: DNA"), "{}", to_ned["data"]);
    assert!(outbox(&t).iter().all(|r| r["status"] == "sent"));
    let (_, out, _) = cron(&t, "2026-03-01T14:00:00Z", &relay, &[("TABULA_RELAY_PASSWORD", PASSWORD)]);
    assert!(out.contains("mail: 0 sent"), "sent once: {out}");
    assert_eq!(smtp.received().len(), queued);
}

#[test]
fn the_relay_sends_over_tls_from_the_start_and_serve_logs_a_refused_login() {
    let Some(python) = python() else { return };
    let mut t = Tabula::new();
    t.now = Some("2026-03-01T09:00:00Z".into());
    let dir = &t.path().to_path_buf();
    certificates(dir);
    let path = |name: &str| dir.join(name).display().to_string();
    t.signup(&["ned", "ted"]);

    // smtps://, the password from a file.
    let smtps = Submission::start(python, "tls", dir);
    t.ok("dna challenge ted ned");
    let relay = strings(&[
        "--relay",
        &format!("smtps://tabula@127.0.0.1:{}", smtps.port),
        "--relay-ca",
        &path("ca.pem"),
        "--relay-password-file",
        &path("password"),
    ]);
    let queued = outbox(&t).len();
    let (_, out, err) = cron(&t, "2026-03-01T10:00:00Z", &relay, &[]);
    assert!(out.contains(&format!("mail: {queued} sent, 0 to retry, 0 given up")), "{out}{err}");
    let got = smtps.received();
    assert_eq!(got.len(), queued);
    assert_eq!((&got[0]["encrypted"], &got[0]["login"]), (&Value::Bool(true), &Value::from("tabula")));

    // `serve --relay` with a wrong password: a clear line in the log,
    // nothing sent, the mail queued; with the right one the next goes out.
    // The server runs on the real clock, and so do these commands.
    t.now = None;
    let smtp = Submission::start(python, "starttls", dir);
    let url = format!("smtp://tabula@127.0.0.1:{}?tls=required", smtp.port);
    t.ok("dna challenge ted ned");
    let log = dir.join("serve.log");
    let serve = |password_file: &str| {
        let log_file = std::fs::OpenOptions::new().create(true).append(true).open(&log).unwrap();
        Command::new(common::BIN)
            .arg("--db")
            .arg(&t.db)
            .args(["serve", "--listen", "127.0.0.1:0", "--relay", &url, "--relay-ca"])
            .arg(dir.join("ca.pem"))
            .arg("--relay-password-file")
            .arg(dir.join(password_file))
            .env("RUST_LOG", "info")
            .env_remove("TABULA_RELAY_PASSWORD")
            .stdout(Stdio::null())
            .stderr(log_file)
            .spawn()
            .unwrap()
    };
    let mut server = serve("wrong");
    let waited = Instant::now();
    while !std::fs::read_to_string(&log).unwrap().contains("refused the login") {
        assert!(waited.elapsed() < Duration::from_secs(60), "{}", std::fs::read_to_string(&log).unwrap());
        std::thread::sleep(Duration::from_millis(100));
    }
    stop(&mut server);
    assert_eq!(smtp.received().len(), 0);
    let refused = |r: &Value| r["last_error"].as_str().is_some_and(|e| e.contains("refused the login"));
    let rows = outbox(&t);
    assert!(rows.iter().any(|r| r["status"] == "queued" && refused(r)), "{rows:#?}");
    assert!(rows.iter().all(|r| r["status"] != "given up"), "{rows:#?}");
    t.ok("dna challenge ned ted");
    let mut server = serve("password");
    let waited = Instant::now();
    while smtp.received().is_empty() {
        assert!(waited.elapsed() < Duration::from_secs(60), "{}", std::fs::read_to_string(&log).unwrap());
        std::thread::sleep(Duration::from_millis(100));
    }
    stop(&mut server);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("smtp://tabula@127.0.0.1") && text.contains("STARTTLS"), "{text}");
    assert!(!text.contains(PASSWORD) && !text.contains(WRONG), "a password in the log:\n{text}");
    for mail in smtp.received() {
        assert_eq!((&mail["encrypted"], &mail["login"]), (&Value::Bool(true), &Value::from("tabula")));
    }
    let rows = outbox(&t);
    assert!(
        rows.iter().any(|r| r["status"] == "queued" && refused(r)),
        "a message refused with the wrong password waits its retry: {rows:#?}"
    );
}

fn stop(server: &mut Child) {
    unsafe { libc::kill(server.id() as i32, libc::SIGTERM) };
    let _ = server.wait();
}

#[test]
fn relay_options_that_would_leak_or_mislead_are_refused() {
    let t = Tabula::new();
    let dir = t.path();
    certificates(dir);
    let path = |name: &str| dir.join(name).display().to_string();
    let now = "2026-03-01T10:00:00Z";
    let cases: &[(&[&str], &str)] = &[
        (
            &["--relay", "smtp://tabula@127.0.0.1:25", "--relay-password-file", &path("password")],
            "plain SMTP",
        ),
        (&["--relay", "127.0.0.1:25", "--relay-ca", &path("ca.pem")], "plain SMTP relay"),
        (&["--relay", "smtp://tabula@127.0.0.1:587?tls=required"], "needs a password"),
        (&["--relay", "smtp://127.0.0.1:587?tls=opportunistic"], "tls=required"),
        (&["--relay", "smtps://127.0.0.1", "--relay-ca", &path("password")], "no certificate"),
        (&["--relay", "smtps://127.0.0.1", "--relay-password-file", &path("password")], "names no user"),
        (&["--relay-ca", &path("ca.pem")], "--relay"),
    ];
    for (args, expected) in cases {
        let (code, out, err) = cron(&t, now, &strings(args), &[]);
        assert_ne!(code, Some(0), "{args:?} was accepted: {out}");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
    // A password in the URL works, with a warning, and is never printed.
    let wrong_url = format!("smtp://tabula:{WRONG}@127.0.0.1:1?tls=required");
    let (_, _, err) = cron(&t, now, &strings(&["--relay", &wrong_url, "--relay-ca", &path("ca.pem")]), &[]);
    assert!(err.contains("process list"), "{err}");
}
