//! Running a server for others: `tabula backup` taken while moves pour in,
//! and `/metrics` read by a Prometheus text-format parser while a load runs.

mod net;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use net::http;
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_tabula");
/// Cells of each load game's strip: each game has this many moves.
const CELLS: usize = 40;

/// A move the server acknowledged: its board, its number in the game, and
/// when the answer came.
#[derive(Clone, Copy, Debug)]
struct Ack {
    board: i64,
    number: usize,
    at: Instant,
}

/// Clients making Intervalo moves through the API until `stop`, each on
/// games of its own between two users of its own; every acknowledged move
/// is noted.
struct Load {
    stop: Arc<AtomicBool>,
    acks: Arc<Mutex<Vec<Ack>>>,
    clients: Vec<std::thread::JoinHandle<usize>>,
}

impl Load {
    fn start(addr: SocketAddr, clients: usize) -> Load {
        let stop = Arc::new(AtomicBool::new(false));
        let acks = Arc::new(Mutex::new(Vec::new()));
        let clients = (0..clients)
            .map(|i| {
                let (stop, acks) = (stop.clone(), acks.clone());
                std::thread::spawn(move || client(addr, i, &stop, &acks))
            })
            .collect();
        Load { stop, acks, clients }
    }

    /// Stop the clients; the requests they made.
    fn stop(self) -> (Vec<Ack>, usize) {
        self.stop.store(true, Ordering::SeqCst);
        let requests = self.clients.into_iter().map(|c| c.join().expect("a client panicked")).sum();
        (self.acks.lock().unwrap().clone(), requests)
    }

    fn acknowledged(&self) -> usize {
        self.acks.lock().unwrap().len()
    }
}

fn ok(addr: SocketAddr, token: Option<&str>, line: &str) -> Value {
    let (status, v) = http(addr, "POST", "/api/v1/commands", token, Some(&json!({ "line": line })))
        .unwrap_or_else(|e| panic!("`{line}`: no answer: {e}"));
    assert_eq!(status, 200, "`{line}`: {v}");
    v
}

fn client(addr: SocketAddr, index: usize, stop: &AtomicBool, acks: &Mutex<Vec<Ack>>) -> usize {
    let players = [format!("ann{index}"), format!("bob{index}")];
    let mut tokens = Vec::new();
    for who in &players {
        ok(addr, None, &format!("signup {who} pw-{who} {who}@example.org"));
        let body = json!({"user": who, "password": format!("pw-{who}"), "name": "load"});
        let (status, v) = http(addr, "POST", "/api/v1/tokens", None, Some(&body)).expect("a token");
        assert_eq!(status, 201, "{v}");
        tokens.push(v["token"].as_str().expect("a token").to_string());
    }
    let mut requests = 2 * players.len();
    let challenge = format!("intervalo challenge {} {} -cells={CELLS}", players[0], players[1]);
    let mut board = ok(addr, Some(&tokens[0]), &challenge)["game"]["id"].as_i64().expect("a board");
    let mut number = 1;
    while !stop.load(Ordering::SeqCst) {
        if number > CELLS {
            board = ok(addr, Some(&tokens[0]), &challenge)["game"]["id"].as_i64().expect("a board");
            number = 1;
            requests += 1;
        }
        // The players take turns choosing cell 1, 2, 3 ..: two different
        // cells in each round.
        let seat = (number + 1) % 2;
        let user = &players[seat];
        ok(addr, Some(&tokens[seat]), &format!("intervalo move {board} {user} - {number}#{number}"));
        acks.lock().unwrap().push(Ack { board, number, at: Instant::now() });
        requests += 1;
        number += 1;
    }
    requests
}

struct Server {
    child: std::process::Child,
    addr: SocketAddr,
}

impl Server {
    fn start(db: &Path, log: &Path) -> Server {
        Server::start_with(db, log, &[])
    }

    /// A server started with the options `more` besides.
    fn start_with(db: &Path, log: &Path, more: &[&str]) -> Server {
        // The load's players send a challenge every CELLS moves; a fast
        // machine would reach the hourly limit on challenges, which these
        // tests are not about.
        let args: Vec<&str> = ["--challenges-per-hour", "0"].iter().chain(more).copied().collect();
        let (child, addr) = net::start_server(BIN, db.to_str().unwrap(), log, &args);
        Server { child, addr }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Wait until the load has made `n` more moves.
fn wait_for_moves(load: &Load, n: usize) {
    let target = load.acknowledged() + n;
    let started = Instant::now();
    while load.acknowledged() < target {
        assert!(started.elapsed() < Duration::from_secs(120), "the load made too few moves");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn tabula(db: &Path, args: &[&str]) -> String {
    let out = Command::new(BIN).arg("--db").arg(db).args(args).output().expect("tabula runs");
    assert!(
        out.status.success(),
        "`tabula {}` failed: {}{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

#[test]
fn a_backup_taken_under_load_is_whole_and_holds_every_move_acknowledged_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tabula.db");
    let server = Server::start(&db, &dir.path().join("server.log"));
    let load = Load::start(server.addr, 4);
    wait_for_moves(&load, 300);
    let copy = dir.path().join("backup.db");
    let began = Instant::now();
    let report = tabula(&db, &["backup", copy.to_str().unwrap()]);
    let ended = Instant::now();
    assert!(report.contains("integrity check ok"), "{report}");
    // The load went on during the backup and after it.
    wait_for_moves(&load, 100);
    let (acks, _) = load.stop();
    assert!(acks.iter().any(|a| a.at > ended), "no move was acknowledged after the backup");

    // Checked again here, by a connection of the test's own.
    let conn =
        rusqlite::Connection::open_with_flags(&copy, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    let problems: Vec<String> = conn
        .prepare("PRAGMA integrity_check")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    drop(conn);
    assert_eq!(problems, ["ok"]);

    // Every move acknowledged before the backup began is in the copy.
    let mut before: HashMap<i64, usize> = HashMap::new();
    for a in acks.iter().filter(|a| a.at < began) {
        let n = before.entry(a.board).or_default();
        *n = (*n).max(a.number);
    }
    assert!(before.values().sum::<usize>() >= 300);
    for (board, moves) in &before {
        let shown: Value =
            serde_json::from_str(&tabula(&copy, &["--json", "intervalo", "show", &board.to_string()]))
                .expect("JSON");
        let stored = shown["game"]["moves"].as_u64().expect("a move count") as usize;
        assert!(
            stored >= *moves,
            "board {board}: {moves} moves acknowledged before the backup, {stored} in it"
        );
    }
    // And the copy serves: a server starts on it and answers.
    drop(server);
    let restored = Server::start(&copy, &dir.path().join("restored.log"));
    let (status, _) = http(restored.addr, "GET", "/api/v1/games", None, None).unwrap();
    assert_eq!(status, 200);
}

/// A sample's metric name and its labels, sorted.
type Series = (String, Vec<(String, String)>);
/// Every sample of a scrape.
type Figures = HashMap<Series, f64>;

/// `/metrics` parsed as Prometheus parses it: each series' value.
fn scrape(addr: SocketAddr) -> Figures {
    let r = net::request(addr, "GET", "/metrics", &[], "").expect("/metrics answers");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("content-type"), Some("text/plain; version=0.0.4; charset=utf-8"));
    let lines = r.body.lines().map(|l| Ok(l.to_string()));
    let parsed = prometheus_parse::Scrape::parse(lines).expect("the Prometheus text format");
    let mut out = HashMap::new();
    for s in parsed.samples {
        let mut labels: Vec<(String, String)> =
            s.labels.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        labels.sort();
        let value = match s.value {
            prometheus_parse::Value::Counter(v) | prometheus_parse::Value::Gauge(v) => v,
            prometheus_parse::Value::Untyped(v) => v,
            prometheus_parse::Value::Histogram(buckets) => {
                // The +Inf bucket: the histogram's count.
                buckets.iter().map(|b| b.count).fold(0.0, f64::max)
            }
            prometheus_parse::Value::Summary(_) => continue,
        };
        out.insert((s.metric, labels), value);
    }
    out
}

/// The sum of a metric's samples over all its labels.
fn total(figures: &Figures, name: &str) -> f64 {
    figures.iter().filter(|((n, _), _)| n == name).map(|(_, v)| v).sum()
}

fn gauge(figures: &Figures, name: &str, labels: &[(&str, &str)]) -> f64 {
    let labels: Vec<(String, String)> = labels.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    *figures.get(&(name.to_string(), labels)).unwrap_or_else(|| panic!("no {name} in /metrics"))
}

#[test]
fn a_server_told_to_keep_no_replayed_games_replays_each_game_it_plays() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tabula.db");
    let server = Server::start_with(&db, &dir.path().join("server.log"), &["--replay-cache=0"]);
    let first = scrape(server.addr);
    let load = Load::start(server.addr, 2);
    wait_for_moves(&load, 40);
    let (acks, _) = load.stop();
    let second = scrape(server.addr);
    let replays = total(&second, "tabula_replays_total") - total(&first, "tabula_replays_total");
    assert!(replays >= acks.len() as f64, "{replays} replays for {} moves", acks.len());
    assert_eq!(gauge(&second, "tabula_replay_cache_bytes", &[]), 0.0);
    assert_eq!(gauge(&second, "tabula_replay_cache_games", &[]), 0.0);
    // Replayed each time, the games still took every move, each checked
    // against its number (`#n`), and hold them all.
    for ack in &acks {
        let v = ok(server.addr, None, &format!("intervalo show {}", ack.board));
        assert!(v["game"]["moves"].as_u64().unwrap() >= ack.number as u64, "{v}");
    }
}

#[test]
fn metrics_in_the_prometheus_text_format_move_with_a_load() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tabula.db");
    let server = Server::start(&db, &dir.path().join("server.log"));
    let first = scrape(server.addr);
    for name in [
        "tabula_http_requests_total",
        "tabula_moves_total",
        "tabula_commit_duration_seconds",
        "tabula_commit_batch_size",
        "tabula_commit_batch_duration_seconds",
        "tabula_outbox_messages_waiting",
        "tabula_outbox_oldest_message_age_seconds",
        "tabula_bot_processes",
        "tabula_clock_lag_seconds",
        "tabula_replays_total",
        "tabula_replay_cache_bytes",
        "tabula_replay_cache_games",
    ] {
        assert!(first.keys().any(|(n, _)| n == name), "/metrics lacks {name}");
    }
    for status in ["proposed", "active", "finished", "cancelled"] {
        assert_eq!(gauge(&first, "tabula_games", &[("status", status)]), 0.0);
    }
    assert_eq!(gauge(&first, "tabula_bot_processes", &[]), 0.0);

    // A Real-Time Life game ticks every second: the scheduler's clock events.
    ok(server.addr, None, "signup cy pw-cy");
    // A challenge over the network comes from one of its players.
    let body = json!({"user": "cy", "password": "pw-cy", "name": "clock"});
    let (status, v) = http(server.addr, "POST", "/api/v1/tokens", None, Some(&body)).expect("a token");
    assert_eq!(status, 201, "{v}");
    ok(server.addr, v["token"].as_str(), "rtlife challenge -tick=1s -gen_ticks=1 cy");
    let load = Load::start(server.addr, 3);
    wait_for_moves(&load, 200);
    let (acks, requests) = load.stop();
    // Messages queued a second ago are a second old.
    std::thread::sleep(Duration::from_millis(2100));
    let second = scrape(server.addr);

    let grew = |name: &str| total(&second, name) - total(&first, name);
    assert!(
        grew("tabula_http_requests_total") >= requests as f64,
        "requests: {}",
        grew("tabula_http_requests_total")
    );
    assert!(
        gauge(
            &second,
            "tabula_http_requests_total",
            &[("method", "POST"), ("route", "/api/v1/commands"), ("status", "200")]
        ) >= acks.len() as f64
    );
    assert!(grew("tabula_moves_total") >= acks.len() as f64, "moves: {}", grew("tabula_moves_total"));
    assert!(grew("tabula_commit_duration_seconds") >= acks.len() as f64);
    assert!(grew("tabula_commit_batch_size") >= 1.0, "no commit batch counted");
    assert!(grew("tabula_commit_batch_duration_seconds") >= 1.0);
    assert!(grew("tabula_clock_lag_seconds") >= 1.0, "no clock event was timed");
    let games: usize = acks.iter().map(|a| a.board).collect::<std::collections::HashSet<_>>().len();
    assert!(gauge(&second, "tabula_games", &[("status", "active")]) >= 1.0);
    assert!(
        gauge(&second, "tabula_games", &[("status", "active")])
            + gauge(&second, "tabula_games", &[("status", "finished")])
            >= games as f64 + 1.0
    );
    // Every move mails the other player; with no relay the mail waits.
    assert!(gauge(&second, "tabula_outbox_messages_waiting", &[]) >= 1.0);
    assert!(gauge(&second, "tabula_outbox_oldest_message_age_seconds", &[]) >= 1.0);
    assert_eq!(gauge(&second, "tabula_bot_processes", &[]), 0.0);
    // The games played are kept replayed, within the cache's budget: each
    // is cached from its challenge on, and the clock's ticks of the
    // Real-Time Life game do not push it out, so nothing is replayed.
    assert_eq!(grew("tabula_replays_total"), 0.0, "games were replayed from the store");
    assert!(gauge(&second, "tabula_replay_cache_games", &[]) >= games as f64);
    let cached = gauge(&second, "tabula_replay_cache_bytes", &[]);
    assert!(cached > 0.0 && cached <= 48.0 * 1024.0 * 1024.0, "cache bytes {cached}");

    // The health check asks the database: with the games table gone it
    // fails, and it is well again once the table is back.
    let health = || {
        let r = net::request(server.addr, "GET", "/healthz", &[], "").unwrap();
        (r.status, r.body)
    };
    assert_eq!(health(), (200, "ok".to_string()));
    let rename = |from: &str, to: &str| {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.busy_timeout(Duration::from_secs(10)).unwrap();
        conn.execute_batch(&format!("ALTER TABLE {from} RENAME TO {to}")).unwrap();
    };
    rename("games", "games_elsewhere");
    assert_eq!(health(), (503, "the database failed".to_string()));
    rename("games_elsewhere", "games");
    assert_eq!(health(), (200, "ok".to_string()));
}
