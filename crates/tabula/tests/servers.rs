//! Several `tabula` processes on one PostgreSQL database, as when one
//! machine is not enough: two servers taking moves on shared games from
//! many clients at once, live updates crossing from one server to the
//! other, and the clock of a Real-Time Life game driven by two schedulers,
//! one of them killed now and then. Skipped without `TABULA_TEST_POSTGRES`
//! (failed with `TABULA_REQUIRE_POSTGRES=1`).

mod common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{BIN, Tabula};
use rand::{Rng, SeedableRng};
use serde_json::Value;

/// A `tabula serve` process, killed when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn serve(db: &str) -> Server {
    let port = free_port();
    let child = Command::new(BIN)
        .args(["--db", db, "serve", "--listen", &format!("127.0.0.1:{port}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("tabula serve starts");
    let server = Server { child, port };
    let started = Instant::now();
    while http(port, "GET", "/healthz", None).map(|r| r.0) != Some(200) {
        assert!(started.elapsed() < Duration::from_secs(30), "the server on port {port} never answered");
        std::thread::sleep(Duration::from_millis(50));
    }
    server
}

/// One HTTP/1.1 request; the status and body, or `None` if the server is not there.
fn http(port: u16, method: &str, path: &str, body: Option<&str>) -> Option<(u16, String)> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(60))).ok()?;
    let body = body.unwrap_or("");
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).ok()?;
    let status = response.split(' ').nth(1)?.parse().ok()?;
    let body = response.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    // Chunked bodies: good enough to pull out the JSON document.
    let body = match (body.find('{'), body.rfind('}')) {
        (Some(a), Some(b)) if a <= b => body[a..=b].to_string(),
        _ => body,
    };
    Some((status, body))
}

fn command(port: u16, line: &str) -> (u16, Value) {
    let body = serde_json::json!({ "line": line }).to_string();
    let (status, text) = http(port, "POST", "/api/v1/commands", Some(&body)).expect("the server answers");
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

fn tabula_on(db: &str) -> Tabula {
    let mut t = Tabula::new();
    t.db = db.into();
    t
}

const GAMES: i64 = 3;
const CELLS: usize = 24;

/// Many clients make moves on shared games through both servers at once:
/// every acknowledged move is in the stored record exactly once (none lost, none
/// doubled, none that was not acknowledged), both servers and a fresh
/// process replaying the record show the same games, and a listener on one
/// server hears of moves made through the other.
#[test]
fn two_servers_on_one_database_apply_each_acknowledged_move_once() {
    let Some(db) = common::pg::fresh_database() else { return };
    let t = tabula_on(&db);
    t.signup(&["ned", "ted"]);
    for _ in 0..GAMES {
        t.ok(&format!("intervalo challenge ned ted -cells={CELLS}"));
    }
    let servers = [serve(&db), serve(&db)];
    let ports = [servers[0].port, servers[1].port];

    // A listener on the second server hears of a move made through the first.
    let (subscribed, ready) = std::sync::mpsc::channel();
    let listener = std::thread::spawn(move || wait_for_version(ports[1], 1, 1, subscribed));
    ready.recv_timeout(Duration::from_secs(30)).expect("the listener had its first snapshot");
    let (status, reply) = command(ports[0], "intervalo move 1 ned pw-ned 1");
    assert_eq!(status, 200, "{reply}");
    listener.join().expect("the listener on the other server heard the move");

    let mut clients = Vec::new();
    for board in 1..=GAMES {
        for user in ["ned", "ted"] {
            for (n, port) in ports.into_iter().enumerate() {
                clients.push(std::thread::spawn(move || {
                    let seed = ((board as u64) << 8) | ((user == "ned") as u64 * 2) | n as u64;
                    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                    let mut acknowledged = Vec::new();
                    for _ in 0..40 {
                        let cell = rng.random_range(1..=CELLS);
                        let (status, reply) =
                            command(port, &format!("intervalo move {board} {user} pw-{user} {cell}"));
                        if status == 200 {
                            acknowledged.push((board, format!("{user} chooses cell {cell}")));
                        } else {
                            let message = reply["error"]["message"].as_str().unwrap_or_default().to_string();
                            assert!(status < 500, "board {board}: {status} {reply}");
                            if message.contains("is over") {
                                break;
                            }
                        }
                    }
                    acknowledged
                }));
            }
        }
    }
    let mut acknowledged: BTreeMap<i64, Vec<String>> = BTreeMap::new();
    acknowledged.insert(1, vec!["ned chooses cell 1".to_string()]);
    for c in clients {
        for (board, line) in c.join().expect("client thread") {
            acknowledged.entry(board).or_default().push(line);
        }
    }

    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let pool = rt.block_on(sqlx::PgPool::connect(&db)).unwrap();
    for board in 1..=GAMES {
        // The stored record (secret choices of an unfinished turn included).
        let mut stored: Vec<String> = rt
            .block_on(
                sqlx::query_scalar::<_, String>(
                    "SELECT (CASE seat WHEN 0 THEN 'ned' ELSE 'ted' END) || ' chooses cell ' || \
                     (action::jsonb ->> 'move') FROM events WHERE game_id = $1 ORDER BY seq",
                )
                .bind(board)
                .fetch_all(&pool),
            )
            .unwrap();
        let mut mine = acknowledged.remove(&board).unwrap_or_default();
        stored.sort();
        mine.sort();
        assert!(mine.len() >= 10, "board {board}: only {} moves went through", mine.len());
        assert_eq!(stored, mine, "board {board}: the record is not the acknowledged moves");

        // Both servers and a fresh process (which replays the record) agree.
        let shown = t.json(&format!("intervalo show {board}"));
        for port in ports {
            let (status, text) = http(port, "GET", &format!("/api/v1/games/{board}"), None).unwrap();
            assert_eq!(status, 200, "{text}");
            let api: Value = serde_json::from_str(&text).unwrap();
            let game = if api["game"].is_object() { &api["game"] } else { &api };
            assert_eq!(game["version"], shown["game"]["version"], "board {board} on port {port}");
            assert_eq!(game["view"], shown["game"]["view"], "board {board} on port {port}");
        }
    }
}

/// Read the event stream of `board` on `port`: say when the first snapshot
/// (the board as it is) has come, then wait until a snapshot of at least
/// `version` arrives; panics after a while.
fn wait_for_version(port: u16, board: i64, version: u64, subscribed: std::sync::mpsc::Sender<()>) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let request = format!(
        "GET /api/v1/games/{board}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).unwrap();
    let started = Instant::now();
    let mut lines = BufReader::new(stream).lines();
    let mut first = true;
    while started.elapsed() < Duration::from_secs(30) {
        let line = lines.next().expect("the stream stays open").expect("the stream reads");
        let Some(id) = line.strip_prefix("id:") else { continue };
        let seen = id.trim().parse::<u64>().expect("snapshot ids are versions");
        if first {
            assert!(seen < version, "the board moved before the listener came");
            first = false;
            subscribed.send(()).unwrap();
        } else if seen >= version {
            return;
        }
    }
    panic!("no snapshot of version {version} on port {port}");
}

/// 2026-01-01T00:00:00Z plus `minutes`, as `--now` takes it.
fn at(minutes: u32) -> String {
    format!("2026-01-{:02}T{:02}:{:02}:00Z", 1 + minutes / 1440, minutes / 60 % 24, minutes % 60)
}

fn start_rtlife(t: &mut Tabula) {
    t.signup(&["ann", "bob", "cy"]);
    t.now = Some(at(0));
    t.ok("rtlife challenge -tick=1h -gen_ticks=12 ann bob cy");
    t.now = Some(at(10));
    t.ok("rtlife move 1 ann pw-ann place c3,d3,e3,c4,e4,c5,d5,e5,d6,d7");
    t.now = Some(at(20));
    t.ok("rtlife move 1 bob pw-bob place ao25,ap25,ao24,aq24,ap23,ar23,aq22,as22,ar21,as21");
    t.now = Some(at(25));
    t.ok("rtlife move 1 cy pw-cy place u18,v18,w18,x18,y18,z18,aa18,ab18,ac18,ad18");
}

fn cron(db: &str, minutes: u32) -> Child {
    Command::new(BIN)
        .args(["--db", db, "--now", &at(minutes), "cron"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tabula cron starts")
}

/// Two schedulers on one database catch up a Real-Time Life game's clock
/// over 30 simulated hours, racing at every step and one of them killed
/// (`kill -9`) at random moments: the game ends exactly as the same game
/// whose clock one process alone drove on SQLite, with every tick and
/// generation once.
#[test]
fn two_schedulers_apply_each_tick_once_even_when_one_is_killed() {
    let Some(db) = common::pg::fresh_database() else { return };
    let mut shared = tabula_on(&db);
    start_rtlife(&mut shared);
    let mut alone = Tabula::new();
    start_rtlife(&mut alone);

    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(30);
    let mut kills = 0;
    for hour in 1..=30u32 {
        let minutes = hour * 60 + 1;
        let first = cron(&db, minutes);
        let mut second = cron(&db, minutes);
        if hour % 3 == 0 {
            std::thread::sleep(Duration::from_millis(rng.random_range(0..40)));
            if matches!(second.try_wait(), Ok(None)) {
                second.kill().ok(); // SIGKILL
                kills += 1;
            }
        }
        for child in [first, second] {
            let out = child.wait_with_output().unwrap();
            // A killed scheduler has no status; a finished one must have succeeded.
            if out.status.code().is_some() {
                assert!(out.status.success(), "cron failed: {}", String::from_utf8_lossy(&out.stderr));
            }
        }
        let mut c = Command::new(BIN);
        c.args(["--db", alone.db.to_str().unwrap(), "--now", &at(minutes), "cron"]);
        assert!(c.stdout(Stdio::null()).status().unwrap().success());
        if hour % 5 == 0 {
            // A reader in a third process sees every tick so far, once.
            shared.now = Some(at(minutes + 2));
            let v = shared.json("rtlife show 1");
            assert_eq!(v["game"]["view"]["tick"], hour, "hour {hour}");
            assert_eq!(v["game"]["version"], 3 + hour, "hour {hour}");
        }
    }
    assert!(kills >= 3, "only {kills} schedulers were killed");
    let end = 30 * 60 + 30;
    shared.now = Some(at(end));
    alone.now = Some(at(end));
    let a = shared.json("rtlife show 1");
    let b = alone.json("rtlife show 1");
    assert_eq!(a["game"]["view"]["tick"], 30);
    assert_eq!(a["game"]["view"]["generation"], 2);
    assert_eq!(a["game"]["version"], 3 + 30, "three placements and thirty ticks, each once");
    assert_eq!(a["game"], b["game"], "the shared game differs from the one driven by one process");
    assert_eq!(a["text"], b["text"]);
}
