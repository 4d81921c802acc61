//! Crash safety under load: the real `tabula serve` on a database, driven
//! by concurrent HTTP clients making moves on many games, killed with
//! SIGKILL at random moments and restarted, again and again. After every
//! restart each acknowledged move is in its game's history exactly once,
//! no move is there twice, and every game replays to the state its stored
//! summary records.
//!
//! The suite runs a few cycles; `scripts/crash-test` runs 100. Settings
//! come from the environment:
//!
//! - `TABULA_CRASH_CYCLES` (default 12): kill and restart cycles;
//! - `TABULA_CRASH_SERVERS` (default 1): server processes sharing the
//!   database, each killed or spared at random in each cycle;
//! - `TABULA_CRASH_CLIENTS` (default 6): concurrent clients, each playing
//!   its own games between its own two users;
//! - `TABULA_CRASH_DB`: a `postgres://` URL to use instead of a fresh SQLite
//!   file (the run's users get fresh names, so the database may be reused);
//! - `TABULA_CRASH_SEED`: the seed of the kill moments (default random,
//!   printed).

mod net;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Child;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, RwLock};
use std::time::{Duration, Instant};

use net::http;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_tabula");
/// Cells of each game's strip: every game has this many moves.
const CELLS: usize = 64;
/// Games each client keeps going at once.
const GAMES_PER_CLIENT: usize = 3;

/// Where the servers keep their data.
#[derive(Clone)]
enum Database {
    Sqlite(PathBuf),
    Postgres(String),
}

impl Database {
    fn arg(&self) -> String {
        match self {
            Database::Sqlite(p) => p.display().to_string(),
            Database::Postgres(url) => url.clone(),
        }
    }
}

/// One `tabula serve` process.
struct Server {
    child: Option<Child>,
    addr: SocketAddr,
}

impl Server {
    fn start(db: &Database, log: &Path) -> Server {
        // The clients start a new game for each one they finish; a long run
        // would reach the hourly limit on challenges, which is not tested here.
        let (child, addr) = net::start_server(BIN, &db.arg(), log, &["--challenges-per-hour", "0"]);
        Server { child: Some(child), addr }
    }

    /// SIGKILL, then reap.
    fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            c.kill().ok();
            c.wait().ok();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Whether clients may send requests now.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Running,
    Paused,
    Stopped,
}

struct Shared {
    phase: Mutex<Phase>,
    changed: Condvar,
    idle: AtomicUsize,
    servers: RwLock<Vec<SocketAddr>>,
    /// Moves the server acknowledged: (board, user, cell).
    acknowledged: Mutex<Vec<(i64, String, usize)>>,
    /// Requests that got no answer (sent to a dead server, or cut off by a kill).
    unknown: AtomicU64,
    /// HTTP error answers (there must be none).
    errors: Mutex<Vec<String>>,
    /// Boards each client created: (board, the two players, their tokens).
    games: Mutex<Vec<GameEntry>>,
    stop_on_error: AtomicBool,
}

#[derive(Clone)]
struct GameEntry {
    board: i64,
    players: [String; 2],
    tokens: [String; 2],
}

impl Shared {
    fn addr(&self, rng: &mut impl Rng) -> SocketAddr {
        let servers = self.servers.read().unwrap();
        servers[rng.random_range(0..servers.len())]
    }

    fn error(&self, what: String) {
        self.errors.lock().unwrap().push(what);
        self.stop_on_error.store(true, Ordering::SeqCst);
    }

    /// Wait while paused; false once stopped.
    fn may_run(&self) -> bool {
        let mut phase = self.phase.lock().unwrap();
        if *phase == Phase::Paused {
            self.idle.fetch_add(1, Ordering::SeqCst);
            while *phase == Phase::Paused {
                phase = self.changed.wait(phase).unwrap();
            }
        }
        *phase == Phase::Running
    }

    fn set_phase(&self, p: Phase) {
        *self.phase.lock().unwrap() = p;
        self.changed.notify_all();
    }
}

/// A client's game in progress: the next move it sends, or `None` when it
/// must first look at the board (after a lost answer).
struct Playing {
    entry: GameEntry,
    next: Option<usize>,
}

/// The move numbered `k` (from 1): players alternate, each choosing cell
/// `k`, so every turn has two different cells and each game its own cells.
fn move_of(k: usize) -> (usize, usize) {
    ((k + 1) % 2, k)
}

/// Count a request without an answer, and do not hammer a dead server.
fn no_answer(shared: &Shared) {
    shared.unknown.fetch_add(1, Ordering::SeqCst);
    std::thread::sleep(Duration::from_millis(5));
}

fn client(shared: Arc<Shared>, index: usize, run: String, seed: u64) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let players = [format!("{run}a{index}"), format!("{run}b{index}")];
    let mut tokens: Vec<String> = Vec::new();
    let mut playing: Vec<Playing> = Vec::new();
    while shared.may_run() {
        if shared.stop_on_error.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(10));
            continue;
        }
        let addr = shared.addr(&mut rng);
        // Accounts and tokens first (again after a lost answer: signing up
        // twice is refused as taken, which is fine here).
        if tokens.len() < 2 {
            let who = &players[tokens.len()];
            let signup = json!({"line": format!("signup {who} pw-{who} {who}@example.org")});
            match http(addr, "POST", "/api/v1/commands", None, Some(&signup)) {
                Ok((200, _)) => {}
                Ok((_, v)) if v.to_string().contains("user_exists") => {}
                Ok((s, v)) => shared.error(format!("signup {who}: {s} {v}")),
                Err(_) => continue,
            }
            let body = json!({"user": who, "password": format!("pw-{who}"), "name": "crash"});
            match http(addr, "POST", "/api/v1/tokens", None, Some(&body)) {
                Ok((201, v)) => tokens.push(v["token"].as_str().expect("a token").to_string()),
                Ok((s, v)) => shared.error(format!("token for {who}: {s} {v}")),
                Err(_) => {}
            }
            continue;
        }
        if playing.len() < GAMES_PER_CLIENT {
            let line =
                json!({"line": format!("intervalo challenge {} {} -cells={CELLS}", players[0], players[1])});
            match http(addr, "POST", "/api/v1/commands", Some(&tokens[0]), Some(&line)) {
                Ok((200, v)) => {
                    let board = v["game"]["id"].as_i64().expect("a board number");
                    let entry = GameEntry {
                        board,
                        players: players.clone(),
                        tokens: [tokens[0].clone(), tokens[1].clone()],
                    };
                    shared.games.lock().unwrap().push(entry.clone());
                    playing.push(Playing { entry, next: Some(1) });
                }
                Ok((s, v)) => shared.error(format!("challenge: {s} {v}")),
                // Lost: perhaps a game nobody plays was made; a new one is asked for.
                Err(_) => no_answer(&shared),
            }
            continue;
        }
        let i = rng.random_range(0..playing.len());
        let g = &mut playing[i];
        let board = g.entry.board;
        let Some(k) = g.next else {
            match http(addr, "GET", &format!("/api/v1/games/{board}"), Some(&g.entry.tokens[0]), None) {
                Ok((200, v)) => g.next = Some(v["game"]["moves"].as_u64().expect("moves") as usize + 1),
                Ok((s, v)) => shared.error(format!("board {board}: {s} {v}")),
                Err(_) => {}
            }
            continue;
        };
        if k > CELLS {
            playing.swap_remove(i);
            continue;
        }
        let (seat, cell) = move_of(k);
        let user = &g.entry.players[seat];
        let line = json!({"line": format!("intervalo move {board} {user} - {cell}#{k}")});
        match http(addr, "POST", "/api/v1/commands", Some(&g.entry.tokens[seat]), Some(&line)) {
            Ok((200, _)) => {
                shared.acknowledged.lock().unwrap().push((board, user.clone(), cell));
                g.next = Some(k + 1);
            }
            Ok((s, v)) => {
                shared.error(format!("board {board} move {k}: {s} {v}"));
                g.next = None;
            }
            Err(_) => {
                no_answer(&shared);
                g.next = None;
            }
        }
    }
}

/// The choice lines of a game's history as the player of `seat` sees it.
fn choices(addr: SocketAddr, entry: &GameEntry, seat: usize) -> (Value, Vec<String>) {
    let (status, v) =
        http(addr, "GET", &format!("/api/v1/games/{}", entry.board), Some(&entry.tokens[seat]), None)
            .expect("the restarted server answers");
    assert_eq!(status, 200, "board {}: {v}", entry.board);
    let lines = v["game"]["history"]
        .as_array()
        .expect("a history")
        .iter()
        .filter_map(|h| h["entry"]["text"].as_str())
        .filter(|t| t.contains(" chooses cell "))
        .map(str::to_string)
        .collect();
    (v, lines)
}

/// Every check after a restart; the number of moves stored.
fn verify(shared: &Shared, addr: SocketAddr, cycle: usize) -> usize {
    let games = shared.games.lock().unwrap().clone();
    let acknowledged = shared.acknowledged.lock().unwrap().clone();
    let mut stored_moves = 0;
    for entry in &games {
        let board = entry.board;
        let views = [choices(addr, entry, 0), choices(addr, entry, 1)];
        // Each player's own choices, as that player sees them.
        let own: Vec<Vec<&String>> = (0..2)
            .map(|s| {
                views[s]
                    .1
                    .iter()
                    .filter(|l| l.starts_with(&format!("{} chooses", entry.players[s])))
                    .collect()
            })
            .collect();
        for (seat, lines) in own.iter().enumerate() {
            let mut sorted = lines.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(
                sorted.len(),
                lines.len(),
                "cycle {cycle}: board {board} has a doubled move: {lines:?}"
            );
            for (b, user, cell) in
                acknowledged.iter().filter(|(b, u, _)| *b == board && *u == entry.players[seat])
            {
                let line = format!("{user} chooses cell {cell}");
                let n = lines.iter().filter(|l| ***l == line).count();
                assert_eq!(
                    n, 1,
                    "cycle {cycle}: board {b}: the acknowledged {line:?} is there {n} times: {lines:?}"
                );
            }
        }
        // The replayed game agrees with itself and with its stored summary.
        let report = &views[0].0["game"];
        let moves = report["moves"].as_u64().expect("moves") as usize;
        assert_eq!(
            own[0].len() + own[1].len(),
            moves,
            "cycle {cycle}: board {board}: choices and move count differ"
        );
        for k in 1..=moves {
            let (seat, cell) = move_of(k);
            let line = format!("{} chooses cell {cell}", entry.players[seat]);
            assert!(
                own[seat].contains(&&line),
                "cycle {cycle}: board {board}: move {k} ({line:?}) is missing"
            );
        }
        let (status, list) =
            http(addr, "GET", &format!("/api/v1/games?player={}&limit=500", entry.players[0]), None, None)
                .expect("the games list");
        assert_eq!(status, 200);
        let summary = list["games"]
            .as_array()
            .expect("games")
            .iter()
            .find(|g| g["id"].as_i64() == Some(board))
            .unwrap_or_else(|| panic!("board {board} is not listed"));
        for field in ["moves", "version", "status", "to_move"] {
            assert_eq!(
                summary[field], report[field],
                "cycle {cycle}: board {board}: the stored {field} differs from the replayed one"
            );
        }
        stored_moves += moves;
    }
    stored_moves
}

struct Settings {
    cycles: usize,
    servers: usize,
    clients: usize,
    db: Option<String>,
    seed: u64,
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn settings() -> Settings {
    Settings {
        cycles: env_number("TABULA_CRASH_CYCLES", 12),
        servers: env_number("TABULA_CRASH_SERVERS", 1).clamp(1, 8),
        clients: env_number("TABULA_CRASH_CLIENTS", 6).clamp(1, 64),
        db: std::env::var("TABULA_CRASH_DB").ok().filter(|v| !v.is_empty()),
        seed: std::env::var("TABULA_CRASH_SEED")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(rand::random),
    }
}

fn run(s: &Settings) {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = match &s.db {
        Some(url) => Database::Postgres(url.clone()),
        None => Database::Sqlite(dir.path().join("crash.db")),
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(s.seed);
    // Fresh user names for each run, so a PostgreSQL database may be reused.
    let run_name = format!("c{:x}", rng.random::<u32>());
    println!(
        "crash test: seed={} cycles={} servers={} clients={} store={}",
        s.seed,
        s.cycles,
        s.servers,
        s.clients,
        if s.db.is_some() { "postgres" } else { "sqlite" }
    );
    let logs: Vec<PathBuf> = (0..s.servers).map(|i| dir.path().join(format!("server{i}.log"))).collect();
    let mut servers: Vec<Server> = logs.iter().map(|l| Server::start(&db, l)).collect();
    let shared = Arc::new(Shared {
        phase: Mutex::new(Phase::Running),
        changed: Condvar::new(),
        idle: AtomicUsize::new(0),
        servers: RwLock::new(servers.iter().map(|s| s.addr).collect()),
        acknowledged: Mutex::new(Vec::new()),
        unknown: AtomicU64::new(0),
        errors: Mutex::new(Vec::new()),
        games: Mutex::new(Vec::new()),
        stop_on_error: AtomicBool::new(false),
    });
    let clients: Vec<_> = (0..s.clients)
        .map(|i| {
            let (shared, run_name, seed) = (shared.clone(), run_name.clone(), rng.random());
            std::thread::spawn(move || client(shared, i, run_name, seed))
        })
        .collect();
    // Let the clients sign up (password hashing is slow on purpose) before the first kill.
    let started = Instant::now();
    while shared.acknowledged.lock().unwrap().len() < s.clients && started.elapsed() < Duration::from_secs(60)
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut stored = 0;
    let mut kills = 0;
    for cycle in 1..=s.cycles {
        std::thread::sleep(Duration::from_millis(rng.random_range(50..600)));
        let mut killed: Vec<usize> = (0..servers.len()).filter(|_| rng.random_bool(0.6)).collect();
        if killed.is_empty() {
            killed.push(rng.random_range(0..servers.len()));
        }
        for &i in &killed {
            servers[i].kill();
            kills += 1;
        }
        shared.idle.store(0, Ordering::SeqCst);
        shared.set_phase(Phase::Paused);
        while shared.idle.load(Ordering::SeqCst) < s.clients {
            std::thread::sleep(Duration::from_millis(5));
        }
        for &i in &killed {
            servers[i] = Server::start(&db, &logs[i]);
        }
        *shared.servers.write().unwrap() = servers.iter().map(|s| s.addr).collect();
        let errors = shared.errors.lock().unwrap().clone();
        assert!(errors.is_empty(), "cycle {cycle}: error answers: {errors:#?}");
        stored = verify(&shared, servers[0].addr, cycle);
        shared.set_phase(Phase::Running);
    }
    shared.set_phase(Phase::Stopped);
    for c in clients {
        c.join().expect("a client thread");
    }
    let acknowledged = shared.acknowledged.lock().unwrap().len();
    let unknown = shared.unknown.load(Ordering::SeqCst);
    let games = shared.games.lock().unwrap().len();
    let errors = shared.errors.lock().unwrap().clone();
    assert!(errors.is_empty(), "error answers: {errors:#?}");
    println!(
        "crash test passed: cycles={} kills={kills} games={games} acknowledged_moves={acknowledged} \
         stored_moves={stored} unanswered_requests={unknown} lost_moves=0 doubled_moves=0 error_answers=0",
        s.cycles
    );
    assert!(acknowledged > s.cycles, "only {acknowledged} moves were acknowledged in {} cycles", s.cycles);
    assert!(stored >= acknowledged);
}

/// Kill and restart the server under load: no acknowledged move lost or
/// doubled, every game replays to its stored state.
#[test]
fn sigkill_under_load_loses_and_doubles_no_acknowledged_move() {
    run(&settings());
}
