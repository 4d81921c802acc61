//! The server under attack, tried as a hostile client would: the real
//! `tabula serve` on a database of its own, driven over plain TCP. Each test
//! names the attack and checks the limit that holds it, and that everyone
//! else keeps playing meanwhile. The figures these attacks were measured at
//! are in `docs/reliability.md` ("Abuse").

mod common;
mod net;

use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream};
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

/// The server keeps its heap in 4 KiB pages whatever mimalloc advises and
/// the system allows: in 2 MiB pages, pages partly used count whole, and its
/// resident size under load grew by about a tenth (docs/benchmarks/server.md,
/// "Huge pages only for the password check").
#[test]
fn the_server_keeps_its_heap_in_small_pages() {
    let t = Tabula::new();
    let s = Server::start(&t, &[]);
    let status = std::fs::read_to_string(format!("/proc/{}/status", s.child.id())).unwrap();
    match status.lines().find(|l| l.starts_with("THP_enabled:")) {
        Some(line) => assert_eq!(line.split_whitespace().nth(1), Some("0"), "{line}"),
        None => eprintln!("this kernel does not say whether a process may have huge pages; nothing to check"),
    }
}

/// The peak resident memory of `command`, in bytes, as GNU time reports it.
/// Not the `ru_maxrss` of a child spawned from this process: Linux carries
/// the parent's high-water mark across `vfork` and `exec` into the child's,
/// so while another test here holds a large game, the child seemed to peak
/// at 94 MB. `time` forks from its own small process.
fn peak_resident(command: &mut Command, dir: &Path) -> u64 {
    let report = dir.join("peak.txt");
    let program = command.get_program().to_owned();
    let args: Vec<_> = command.get_args().map(|a| a.to_owned()).collect();
    let status = Command::new("/usr/bin/time")
        .args(["-f", "%M", "-o"])
        .arg(&report)
        .arg(program)
        .args(args)
        .stdout(Stdio::null())
        .status()
        .expect("GNU time (Debian package `time`) runs");
    assert!(status.success(), "the child failed: {status}");
    let kib: u64 = std::fs::read_to_string(&report).unwrap().trim().parse().expect("a size in KiB");
    kib * 1024
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
    drop((start, rules));
    let mut run = Command::new(BIN);
    run.args(["rewrite", "run"])
        .arg("--start-file")
        .arg(dir.path().join("start.txt"))
        .arg(dir.path().join("rules.txt"));
    let peak = peak_resident(&mut run, dir.path());
    let bound = 3 * input_len as u64 + 20_000_000;
    eprintln!("tabula rewrite run: peak resident {peak} bytes for a {input_len}-byte string");
    assert!(peak <= bound, "peak resident {peak} bytes for a {input_len}-byte string (bound {bound})");
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).expect("a test file");
}

/// Users `names`, each with password `pw-NAME`, signed up at the command line.
fn world(names: &[&str]) -> Tabula {
    let t = Tabula::new();
    t.signup(names);
    t
}

#[test]
fn a_challenge_over_the_network_comes_from_one_of_its_players() {
    let t = world(&["ned", "ted", "eve"]);
    let s = Server::start(&t, &["--challenges-per-hour", "3"]);
    // Anonymous: refused, and no game made.
    let (status, v) = s.command("dna challenge ned ted", None);
    assert_eq!((status, v["error"]["code"].as_str()), (401, Some("unauthorized")), "{v}");
    // A third party, logged in: refused too.
    let eve = s.token("eve");
    let (status, v) = s.command("dna challenge ned ted", Some(&eve));
    assert_eq!((status, v["error"]["code"].as_str()), (403, Some("not_a_player")), "{v}");
    let (_, games) = s.call("GET", "/api/v1/games", &[], None);
    assert_eq!(games["games"], json!([]), "a refused challenge made a game");
    // One of the players: taken, up to the hour's rate.
    let ned = s.token("ned");
    for _ in 0..3 {
        let (status, v) = s.command("dna challenge ned ted", Some(&ned));
        assert_eq!(status, 200, "{v}");
    }
    let (status, v) = s.command("dna challenge ted ned", Some(&ned));
    assert_eq!((status, v["error"]["code"].as_str()), (429, Some("too_many_requests")), "{v}");
    // A game against a bot names nobody else: not counted.
    let (status, v) = s.command("intervalo challenge ned bot:random", Some(&ned));
    assert!(status == 200 || v["error"]["code"] == "unknown_user", "{v}");
    // The operator's command line is not limited.
    t.ok("dna challenge ted ned");
}

#[test]
fn wrong_passwords_from_one_address_never_lock_the_user_out_from_another() {
    let t = world(&["ned"]);
    // Behind a proxy on loopback that names the client in X-Forwarded-For.
    let s = Server::start(&t, &["--trust-proxy", "127.0.0.1/32"]);
    let from = |ip: &str, password: &str| {
        let body = json!({"user": "ned", "password": password, "name": "t"});
        s.call("POST", "/api/v1/tokens", &[("X-Forwarded-For", ip)], Some(&body))
    };
    for _ in 0..5 {
        assert_eq!(from("127.0.0.5", "guess").0, 401);
    }
    let (status, v) = from("127.0.0.5", "pw-ned");
    assert_eq!(status, 429, "the guessing address waits: {v}");
    let (status, v) = from("127.0.0.6", "pw-ned");
    assert_eq!(status, 201, "the rightful user from another address is let in: {v}");
    // Email and command-line players are not slowed by it either.
    t.ok("notify ned pw-ned off");
}

#[test]
fn forwarding_headers_count_only_from_a_trusted_proxy() {
    let t = world(&["ned"]);
    let s = Server::start(&t, &[]);
    let from = |ip: &str, password: &str| {
        let body = json!({"user": "ned", "password": password, "name": "t"});
        s.call("POST", "/api/v1/tokens", &[("X-Forwarded-For", ip)], Some(&body)).0
    };
    // Without --trust-proxy the header is anyone's to write: all of these
    // come from 127.0.0.1, whatever they claim.
    for i in 0..5 {
        assert_eq!(from(&format!("10.0.0.{i}"), "guess"), 401);
    }
    assert_eq!(from("10.9.9.9", "pw-ned"), 429);
}

#[test]
fn failed_logins_are_remembered_across_a_restart() {
    let t = world(&["ned"]);
    let body = json!({"user": "ned", "password": "guess", "name": "t"});
    let s = Server::start(&t, &[]);
    for _ in 0..5 {
        assert_eq!(s.call("POST", "/api/v1/tokens", &[], Some(&body)).0, 401);
    }
    drop(s);
    let s = Server::start(&t, &[]);
    let right = json!({"user": "ned", "password": "pw-ned", "name": "t"});
    let (status, v) = s.call("POST", "/api/v1/tokens", &[], Some(&right));
    assert_eq!(status, 429, "a restart forgot the failures: {v}");
}

#[test]
fn a_token_cannot_take_the_account() {
    let t = world(&["ned"]);
    let s = Server::start(&t, &[]);
    let token = s.token("ned");
    for line in ["change password ned - stolen-pw", "change address ned - thief@example.net", "signoff ned -"]
    {
        let (status, v) = s.command(line, Some(&token));
        assert_eq!(status, 401, "{line}: {v}");
        assert!(v["error"]["message"].as_str().unwrap().contains("needs the password itself"), "{v}");
    }
    let body = json!({"user": "ned", "password": "-", "name": "another"});
    let auth = format!("Bearer {token}");
    let (status, _) = s.call("POST", "/api/v1/tokens", &[("Authorization", &auth)], Some(&body));
    assert_eq!(status, 401, "a token made another token");
    // Nothing changed: the password and the account are as they were.
    t.ok("notify ned pw-ned on");
    // The token still plays.
    let (status, _) = s.call("GET", "/api/v1/me", &[("Authorization", &auth)], None);
    assert_eq!(status, 200);
}

#[test]
fn a_password_change_ends_every_token_and_session_and_signoff_ends_all() {
    let t = world(&["ned", "ted"]);
    let s = Server::start(&t, &[]);
    let tokens = [s.token("ned"), s.token("ned")];
    let ted = s.token("ted");
    let (status, v) = s.command("change password ned pw-ned pw-ned-2", None);
    assert_eq!(status, 200, "{v}");
    for token in &tokens {
        let auth = format!("Bearer {token}");
        let (status, v) = s.call("GET", "/api/v1/me", &[("Authorization", &auth)], None);
        assert_eq!(status, 401, "an old token still works: {v}");
    }
    // Another user's token is untouched.
    let auth = format!("Bearer {ted}");
    assert_eq!(s.call("GET", "/api/v1/me", &[("Authorization", &auth)], None).1["user"], "ted");
    // Signing off ends the logins made since.
    let body = json!({"user": "ted", "password": "pw-ted", "name": "t"});
    let fresh = s.call("POST", "/api/v1/tokens", &[], Some(&body)).1["token"].as_str().unwrap().to_string();
    let (status, v) = s.command("signoff ted pw-ted", None);
    assert_eq!(status, 200, "{v}");
    for token in [ted, fresh] {
        let auth = format!("Bearer {token}");
        let (status, v) = s.call("GET", "/api/v1/me", &[("Authorization", &auth)], None);
        assert_eq!(status, 401, "a closed account still answers: {v}");
    }
}

/// Wrong passwords sent by turns to two servers on one PostgreSQL
/// database meet the limits one server sets: the sixth try for a user from
/// one address waits, and the twenty-first from one address at any users.
#[test]
fn two_servers_on_one_database_limit_as_one() {
    let Some(url) = common::pg::fresh_database() else { return };
    let t = Tabula::new();
    let run = |line: &str| {
        let out = Command::new(BIN).args(["--db", &url]).args(line.split_whitespace()).output().unwrap();
        assert!(out.status.success(), "{line}: {}", String::from_utf8_lossy(&out.stderr));
    };
    let users: Vec<String> = (0..6).map(|i| format!("u{i}")).collect();
    for u in &users {
        run(&format!("signup {u} pw-{u}"));
    }
    let start = |t: &Tabula| {
        let addr = net::free_port();
        let log = t.path().join(format!("pg-{}.log", addr.port()));
        let child = Command::new(BIN)
            .args(["--db", &url, "serve", "--listen", &addr.to_string(), "--trust-proxy", "127.0.0.1"])
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let server = Server { child, addr, log };
        let started = Instant::now();
        while !matches!(request(addr, "GET", "/healthz", &[], ""), Ok(r) if r.status == 200) {
            assert!(started.elapsed() < Duration::from_secs(60), "{}", server.log_text());
            std::thread::sleep(Duration::from_millis(20));
        }
        server
    };
    let servers = [start(&t), start(&t)];
    let try_login = |n: usize, user: &str, password: &str, ip: &str| {
        let body = json!({"user": user, "password": password, "name": "t"});
        servers[n % 2].call("POST", "/api/v1/tokens", &[("X-Forwarded-For", ip)], Some(&body)).0
    };
    // One user from one address, by turns: five free tries.
    for n in 0..5 {
        assert_eq!(try_login(n, "u0", "guess", "10.1.0.1"), 401, "try {}", n + 1);
    }
    assert_eq!(try_login(5, "u0", "pw-u0", "10.1.0.1"), 429, "the sixth try waits on either server");
    assert_eq!(try_login(6, "u0", "pw-u0", "10.1.0.2"), 201, "and only from that address");
    // Many users from one address: twenty free failures in all.
    for n in 0..20 {
        let user = &users[1 + n % 5];
        assert_eq!(try_login(n, user, "guess", "10.2.0.1"), 401, "failure {}", n + 1);
    }
    assert_eq!(try_login(20, "u1", "pw-u1", "10.2.0.1"), 429, "the twenty-first waits");
}

/// Whether the server has closed `c` within `within` (its answer, if any, read).
fn closed_within(c: &mut TcpStream, within: Duration) -> (bool, String) {
    c.set_read_timeout(Some(within)).unwrap();
    let mut got = Vec::new();
    let closed = match c.read_to_end(&mut got) {
        Ok(_) => true,
        Err(e) => e.kind() == std::io::ErrorKind::ConnectionReset,
    };
    (closed, String::from_utf8_lossy(&got).into_owned())
}

/// Headers that never end, a body that never comes and connections that
/// send nothing are all closed once the read timeout has passed; a body
/// announced past the limit is refused before a byte of it is read.
#[test]
fn stalled_headers_bodies_and_idle_connections_are_closed_within_the_read_timeout() {
    let t = world(&["ned"]);
    let s = Server::start(&t, &["--read-timeout", "2"]);
    let mut stalled = Vec::new();
    for i in 0..30 {
        let mut c = TcpStream::connect(s.addr).unwrap();
        let sent: &[u8] = match i % 3 {
            0 => b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ",
            1 => {
                b"POST /api/v1/commands HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
                   Content-Length: 60000\r\n\r\n{\"line\":"
            }
            _ => b"",
        };
        c.write_all(sent).unwrap();
        stalled.push((i % 3, c));
    }
    let mut huge = TcpStream::connect(s.addr).unwrap();
    huge.write_all(
        b"POST /api/v1/commands HTTP/1.1\r\nHost: x\r\nContent-Length: 1073741824\r\n\r\n12345678",
    )
    .unwrap();
    let (closed, answer) = closed_within(&mut huge, Duration::from_secs(1));
    assert!(closed && answer.starts_with("HTTP/1.1 413"), "a 1 GiB body is waited for: {answer:?}");
    let started = Instant::now();
    for (kind, c) in &mut stalled {
        let (closed, answer) = closed_within(c, Duration::from_secs(8));
        assert!(closed, "a stalled connection (kind {kind}) is open after {:?}", started.elapsed());
        if *kind == 1 {
            assert!(answer.starts_with("HTTP/1.1 408"), "a stalled body: {answer:?}");
        }
    }
    eprintln!("30 stalled connections all closed {:?} after the 1 GiB body's 413", started.elapsed());
    // Everyone else was served all along, and still is.
    assert_eq!(s.call("GET", "/healthz", &[], None).0, 200);
}

/// A connection to `addr` from the loopback address `from` (a client of
/// its own, as the server counts them), with a receive buffer of
/// `receive` bytes if given.
async fn tokio_connect_from(
    from: IpAddr,
    addr: SocketAddr,
    receive: Option<u32>,
) -> std::io::Result<tokio::net::TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    if let Some(size) = receive {
        socket.set_recv_buffer_size(size)?;
    }
    socket.bind(SocketAddr::new(from, 0))?;
    tokio::time::timeout(Duration::from_secs(5), socket.connect(addr))
        .await
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "connect"))?
}

/// [`tokio_connect_from`] as a blocking socket.
async fn connect_from(from: IpAddr, addr: SocketAddr) -> std::io::Result<TcpStream> {
    let stream = tokio_connect_from(from, addr, None).await?.into_std()?;
    stream.set_nonblocking(false)?;
    Ok(stream)
}

/// `GET path` from the loopback address `from`: the status and the body's length.
async fn get_from(from: IpAddr, addr: SocketAddr, path: &str) -> std::io::Result<(u16, usize)> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio_connect_from(from, addr, None).await?;
    stream
        .write_all(format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes())
        .await?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await?;
    let status = std::str::from_utf8(raw.get(9..12).unwrap_or_default()).ok().and_then(|s| s.parse().ok());
    Ok((status.unwrap_or(0), raw.len()))
}

/// A request for the event stream of `board`, sent on `c` and never read.
fn open_events(c: &mut TcpStream, board: i64) {
    let request =
        format!("GET /api/v1/games/{board}/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n");
    c.write_all(request.as_bytes()).unwrap();
}

/// The largest resident size `pid` has had, in bytes (`VmHWM`).
fn peak_resident_of(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() * 1024
}

/// 2,000 idle connections from 40 addresses against a server allowed 512
/// open files: the connections past the cap are told 503 at once, the
/// database keeps the file descriptors it needs (a request on a connection
/// taken before the flood is answered during it), and once the flood is
/// gone moves are made as before, without a restart.
#[test]
fn a_flood_of_idle_connections_never_stops_the_moves() {
    let t = world(&["ned", "ted"]);
    t.ok("dna challenge -manual ned ted");
    let s = Server::start_with(&t, &[], |command| {
        use std::os::unix::process::CommandExt;
        // SAFETY: setrlimit is async-signal-safe; nothing else runs in the child yet.
        unsafe {
            command.pre_exec(|| {
                let limit = libc::rlimit { rlim_cur: 512, rlim_max: 512 };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    });
    let ned = s.token("ned");
    // A connection opened (and taken) before the flood, its request sent during it.
    let mut early = TcpStream::connect(s.addr).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let flood: Vec<TcpStream> = rt.block_on(async {
        let mut connects = tokio::task::JoinSet::new();
        for i in 0..2000 {
            connects.spawn(connect_from(IpAddr::from([127, 0, 1, (i % 40) as u8 + 1]), s.addr));
        }
        let mut made = Vec::new();
        while let Some(done) = connects.join_next().await {
            made.extend(done.ok().and_then(Result::ok));
        }
        made
    });
    assert!(flood.len() > 1500, "only {} connections made", flood.len());
    std::thread::sleep(Duration::from_secs(1));
    let body = json!({ "line": "dna chat 1 ned - during the flood" }).to_string();
    let request = format!(
        "POST /api/v1/commands HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer {ned}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    early.write_all(request.as_bytes()).unwrap();
    let (closed, answer) = closed_within(&mut early, Duration::from_secs(10));
    assert!(closed && answer.starts_with("HTTP/1.1 200"), "a write during the flood: {answer:?}");
    // Connections past the cap are answered 503 and closed as they come.
    // Some of them the kernel never queued for the server: when its accept
    // queue overflowed it answered with a SYN cookie and dropped the final
    // ACK, so the client thinks it is connected and the server learns of
    // the connection only from its first byte. One byte each, after a first
    // look, makes them known; then everything past the cap must be refused.
    let (made, mut refused, mut closed) = (flood.len(), 0, 0);
    let held_at_most = 512 - 128;
    let mut waiting = flood;
    let mut nudged = false;
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        waiting.retain_mut(|c| {
            c.set_nonblocking(true).unwrap();
            let mut buf = [0u8; 64];
            match c.read(&mut buf) {
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => true,
                Ok(n) if buf[..n].starts_with(b"HTTP/1.1 503") => {
                    refused += 1;
                    false
                }
                _ => {
                    closed += 1;
                    false
                }
            }
        });
        if waiting.len() <= held_at_most || Instant::now() > deadline {
            break;
        }
        if !nudged {
            for c in &mut waiting {
                let _ = c.write(b"G");
            }
            nudged = true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let held = waiting.len();
    drop(waiting);
    eprintln!("{made} connections made: {refused} told 503, {closed} closed without an answer, {held} held");
    assert!(
        held <= held_at_most && closed < made / 100,
        "the connections past the cap were not refused: {made} made, {refused} told 503, \
         {closed} closed without an answer, {held} held"
    );
    // The flood is gone (its sockets dropped above): moves go on, no restart.
    std::thread::sleep(Duration::from_millis(500));
    let (status, v) =
        s.command(&format!("dna move 1 ned - {}", "TCGCATGTACAAAGTTTTCAATCTTCGCCTTGAGAG"), Some(&ned));
    assert_eq!(status, 200, "{v}\n{}", s.log_text());
    let (status, v) = s.command("dna chat 1 ned - after the flood", Some(&ned));
    assert_eq!(status, 200, "{v}");
}

/// An event stream whose client reads nothing is dropped once what the
/// server has for it no longer fits in the socket (after the write
/// timeout), instead of the server keeping every update for it.
#[test]
fn an_event_stream_nobody_reads_is_dropped_once_its_buffer_is_full() {
    let t = world(&["ned", "ted"]);
    t.ok("dna challenge -manual ned ted");
    let s = Server::start(&t, &["--write-timeout", "2"]);
    let ned = s.token("ned");
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let mut stalled = rt
        .block_on(tokio_connect_from(IpAddr::from([127, 0, 0, 7]), s.addr, Some(4096)))
        .unwrap()
        .into_std()
        .unwrap();
    stalled.set_nonblocking(false).unwrap();
    open_events(&mut stalled, 1);
    // Chat lines of 4,000 letters, each one an event for the stream: more
    // than the largest socket buffer the kernel gives (4 MiB).
    let line = "x".repeat(4000);
    for _ in 0..1200 {
        let (status, v) = s.command(&format!("dna chat 1 ned - {line}"), Some(&ned));
        assert_eq!(status, 200, "{v}");
    }
    // Past the write timeout, then read: the server has closed the stream
    // (reading sooner would make room, and the stream would go on).
    std::thread::sleep(Duration::from_secs(4));
    let (closed, _) = closed_within(&mut stalled, Duration::from_secs(15));
    assert!(closed, "a stream nobody read is still open");
    assert_eq!(s.call("GET", "/healthz", &[], None).0, 200);
}

/// A Rewrite game whose string reached `-max_length` (16 MiB, by round 3
/// with `-max_rhs=64`): its views are cut to a window that states the
/// length, the whole string is one request away, and with 30 event streams
/// nobody reads and 12 replays at once the server stays small and keeps
/// answering. The figures are in docs/reliability.md ("Abuse").
#[test]
fn a_sixteen_mebibyte_rewrite_game_keeps_the_server_small() {
    let t = world(&["ann", "bob"]);
    t.ok("rewrite challenge ann bob -rounds=4 -max_rhs=64");
    t.ok("rewrite move 1 ann pw-ann goal ttt");
    t.ok("rewrite move 1 bob pw-bob goal ggg");
    let (a, c) = ("a".repeat(64), "c".repeat(64));
    for _ in 0..4 {
        t.ok(&format!("rewrite move 1 ann pw-ann a=>{a}"));
        t.ok(&format!("rewrite move 1 bob pw-bob c=>{c}"));
    }
    let s = Server::start(&t, &[]);
    let r = request(s.addr, "GET", "/api/v1/games/1", &[], "").unwrap();
    assert!(r.body.len() < 1 << 20, "a view of {} bytes", r.body.len());
    let v = r.json();
    assert_eq!(v["game"]["cut"][0]["pointer"], "/table", "{}", v["game"]["cut"]);
    assert_eq!(v["game"]["cut"][0]["length"], 16 << 20);
    let whole = request(s.addr, "GET", "/api/v1/games/1/text?pointer=/table", &[], "").unwrap();
    assert_eq!((whole.status, whole.body.len()), (200, 16 << 20));
    assert!(whole.body.starts_with(v["game"]["view"]["table"].as_str().unwrap()));

    let mut streams: Vec<TcpStream> = (0..30).map(|_| TcpStream::connect(s.addr).unwrap()).collect();
    for c in &mut streams {
        open_events(c, 1);
    }
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let addr = s.addr;
    let replays: Vec<_> = (0..12)
        .map(|i| rt.spawn(get_from(IpAddr::from([127, 0, 2, i as u8 + 1]), addr, "/api/v1/games/1?at=8")))
        .collect();
    let started = Instant::now();
    let mut slowest = Duration::ZERO;
    while replays.iter().any(|r| !r.is_finished()) {
        let asked = Instant::now();
        assert_eq!(request(s.addr, "GET", "/healthz", &[], "").unwrap().status, 200);
        slowest = slowest.max(asked.elapsed());
        assert!(started.elapsed() < Duration::from_secs(300), "the replays did not end");
        std::thread::sleep(Duration::from_millis(20));
    }
    for r in replays {
        let (status, length) = rt.block_on(r).unwrap().unwrap();
        assert_eq!(status, 200, "a replay");
        assert!(length < 1 << 20, "a replayed view of {length} bytes");
    }
    let peak = peak_resident_of(s.child.id());
    eprintln!(
        "12 replays in {:?}; /healthz at most {slowest:?}; peak resident {} MB",
        started.elapsed(),
        peak / 1_000_000
    );
    assert!(peak < 200_000_000, "the server reached {peak} bytes resident");
    // The async workers were never held up by a replay for long.
    assert!(slowest < Duration::from_secs(1), "/healthz took {slowest:?}");
}
