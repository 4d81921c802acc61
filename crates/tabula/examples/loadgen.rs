//! Load generator for `scripts/bench`: the server's durable moves per
//! second through `POST /api/v1/commands`, the latency of each move, the
//! server's resident memory, and the anchor those are compared with (one
//! SQLite commit with a full fsync per row, on the same file system, in
//! the same run).
//!
//!     cargo run --release -p tabula --example loadgen -- --tabula target/release/tabula --dir DIR
//!
//! It starts `tabula serve` on a database in DIR, signs up users, makes a
//! bearer token for each (so no password hashing is measured per move),
//! challenges `--stored` Intervalo games, then `--clients` concurrent
//! clients (one keep-alive connection each) play the first `--active` of
//! them, each client on its own games. The games in play start at every
//! stage (their first moves are made before the load), and a game that
//! ends is replaced by a new challenge between its players, so that as
//! many games are in play until the end of the load and their ends are
//! spread over it. Last, the same clients ask for
//! `GET /healthz` for `--ceiling-seconds`: the rate of the HTTP exchange
//! alone, above which no move rate can be measured here. It prints
//! `key=value` lines.

mod support;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::Value;
use support::{
    Client, cpu_seconds, free_port, ok, parallel, percentile, rss_kib, signup_with_tokens, start_server,
};

struct Config {
    tabula: PathBuf,
    dir: PathBuf,
    clients: usize,
    users: usize,
    stored: usize,
    active: usize,
    seconds: f64,
    anchor_seconds: f64,
    ceiling_seconds: f64,
    side_writes: f64,
}

const USAGE: &str = "\
loadgen: durable moves per second of `tabula serve`, with its anchor

    loadgen [--tabula BIN] [--dir DIR] [--clients N] [--users N] [--stored N]
            [--active N] [--seconds S] [--anchor-seconds S] [--ceiling-seconds S]
            [--side-writes N]

    --tabula BIN           the binary to serve (target/release/tabula)
    --dir DIR              where the server's database goes (the system's temporary folder)
    --clients N            concurrent clients, one keep-alive connection each (64)
    --users N              users signed up, an even number (200)
    --stored N             Intervalo games challenged before the load (10000)
    --active N             of those, how many the clients play at a time (1000)
    --seconds S            length of the load (10)
    --anchor-seconds S     length of each anchor measurement, before and after (3)
    --ceiling-seconds S    length of the GET /healthz ceiling measurement, 0 to skip it (3)
    --side-writes N        writes besides moves during the load, per second, from a client
                           of their own: a spectator subscribing to a board and leaving it
                           in turn (0)

Prints key=value lines.
";

fn parse_args() -> Result<Config> {
    let mut c = Config {
        tabula: PathBuf::from("target/release/tabula"),
        dir: std::env::temp_dir(),
        clients: 64,
        users: 200,
        stored: 10_000,
        active: 1_000,
        seconds: 10.0,
        anchor_seconds: 3.0,
        ceiling_seconds: 3.0,
        side_writes: 0.0,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().with_context(|| format!("{a} needs a value"));
        match a.as_str() {
            "--tabula" => c.tabula = PathBuf::from(value()?),
            "--dir" => c.dir = PathBuf::from(value()?),
            "--clients" => c.clients = value()?.parse()?,
            "--users" => c.users = value()?.parse()?,
            "--stored" => c.stored = value()?.parse()?,
            "--active" => c.active = value()?.parse()?,
            "--seconds" => c.seconds = value()?.parse()?,
            "--anchor-seconds" => c.anchor_seconds = value()?.parse()?,
            "--ceiling-seconds" => c.ceiling_seconds = value()?.parse()?,
            "--side-writes" => c.side_writes = value()?.parse()?,
            "-h" | "--help" => {
                print!("{USAGE}");
                std::process::exit(0);
            }
            other => bail!("unknown argument {other} (see --help)"),
        }
    }
    if c.users < 2 || !c.users.is_multiple_of(2) {
        bail!("--users must be even and at least 2");
    }
    if c.active > c.stored || c.clients == 0 {
        bail!("--active must be at most --stored, and --clients positive");
    }
    Ok(c)
}

/// Commits per second of one connection inserting one row per transaction,
/// WAL and `synchronous = FULL`, as the store is configured; and the median
/// commit time.
async fn anchor(dir: &Path, seconds: f64) -> Result<(f64, f64)> {
    let path = dir.join("anchor.db");
    let _ = std::fs::remove_file(&path);
    let conn = rusqlite::Connection::open(&path)?;
    conn.execute_batch(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
         CREATE TABLE moves (id INTEGER PRIMARY KEY, game INTEGER NOT NULL, action TEXT NOT NULL)",
    )?;
    let start = Instant::now();
    let mut times = Vec::new();
    while start.elapsed().as_secs_f64() < seconds {
        let t = Instant::now();
        conn.prepare_cached("INSERT INTO moves (game, action) VALUES (?1, ?2)")?
            .execute((times.len() as i64 % 1000, r#"{"move":"17"}"#))?;
        times.push(t.elapsed().as_secs_f64());
    }
    let rate = times.len() as f64 / start.elapsed().as_secs_f64();
    drop(conn);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(dir.join(format!("anchor.db{suffix}")));
    }
    times.sort_by(f64::total_cmp);
    Ok((rate, times[times.len() / 2] * 1000.0))
}

/// Microseconds of CPU time for each of `n` requests, from CPU seconds
/// read before and after them (NaN where /proc gave none).
fn cpu_us_each(before: Option<f64>, after: Option<f64>, n: usize) -> f64 {
    match (before, after) {
        (Some(b), Some(a)) if n > 0 => (a - b) * 1e6 / n as f64,
        _ => f64::NAN,
    }
}

/// The most this harness could measure: the same clients asking the same
/// server for `GET /healthz` (no command, no database), as fast as it
/// answers. Moves per second can only come below it, since every move pays
/// for the same HTTP exchange on both sides, and the load generator shares
/// the two cores with the server.
async fn http_ceiling(addr: SocketAddr, pid: u32, clients: usize, seconds: f64) -> Result<()> {
    let (server_before, own_before) = (cpu_seconds(Some(pid)), cpu_seconds(None));
    let start = Instant::now();
    let deadline = Duration::from_secs_f64(seconds);
    let mut tasks = Vec::new();
    for _ in 0..clients {
        tasks.push(tokio::spawn(async move {
            let mut client = Client::connect(addr).await?;
            let mut n = 0u64;
            while start.elapsed() < deadline {
                let a = client.send("GET", "/healthz", None, None).await?;
                if a.status != 200 {
                    bail!("GET /healthz answered {}", a.status);
                }
                n += 1;
            }
            Ok::<_, anyhow::Error>(n)
        }));
    }
    let mut requests = 0u64;
    for t in tasks {
        requests += t.await??;
    }
    let elapsed = start.elapsed().as_secs_f64();
    let (server_after, own_after) = (cpu_seconds(Some(pid)), cpu_seconds(None));
    let n = requests as usize;
    println!("ceiling_requests_per_s={:.1}", requests as f64 / elapsed);
    println!("ceiling_server_cpu_us_per_request={:.1}", cpu_us_each(server_before, server_after, n));
    println!("ceiling_loadgen_cpu_us_per_request={:.1}", cpu_us_each(own_before, own_after, n));
    Ok(())
}

/// What the server's `/metrics` says of its replay cache.
struct ReplayFigures {
    /// Games replayed from their records so far.
    replays: u64,
    /// What the cache holds now.
    cache_bytes: u64,
    cache_games: u64,
}

/// The server's replay figures; `None` from a build that has none.
async fn replay_figures(addr: SocketAddr) -> Option<ReplayFigures> {
    let mut client = Client::connect(addr).await.ok()?;
    let answer = client.send("GET", "/metrics", None, None).await.ok()?;
    let text = String::from_utf8_lossy(&answer.body);
    let figure = |name: &str| {
        text.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse::<f64>().ok())
    };
    Some(ReplayFigures {
        replays: figure("tabula_replays_total")? as u64,
        cache_bytes: figure("tabula_replay_cache_bytes")? as u64,
        cache_games: figure("tabula_replay_cache_games")? as u64,
    })
}

/// Challenges `ub` by `ua` (with `ua`'s token) to a new Intervalo game;
/// its board number.
async fn challenge(client: &mut Client, token: &str, a: usize, b: usize) -> Result<i64> {
    let r = client.command(&format!("intervalo challenge u{a} u{b}"), Some(token)).await?;
    let v: Value = serde_json::from_slice(&r)?;
    v["game"]["id"].as_i64().with_context(|| format!("challenge: {v}"))
}

/// Move `m` (1-based) of `board` between `seats`: the cell `m`, by the
/// first player when `m` is odd; the mover and the command line.
fn move_line(board: i64, seats: (usize, usize), m: usize) -> (usize, String) {
    let user = if m % 2 == 1 { seats.0 } else { seats.1 };
    (user, format!("intervalo move {board} u{user} - {m}"))
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<()> {
    let c = parse_args()?;
    std::fs::create_dir_all(&c.dir)?;
    println!("clients={}", c.clients);
    println!("games_stored={}", c.stored);
    println!("games_active={}", c.active);

    let (anchor_rate, anchor_ms) = anchor(&c.dir, c.anchor_seconds).await?;
    println!("anchor_commits_per_s={anchor_rate:.1}");
    println!("anchor_commit_ms={anchor_ms:.3}");

    let addr: SocketAddr = format!("127.0.0.1:{}", free_port()?).parse()?;
    let mut server = start_server(&c.tabula, &c.dir, addr).await?;
    let pid = server.child.id();
    println!("rss_started_kib={}", rss_kib(pid).unwrap_or(0));

    let setup = Instant::now();
    let users = c.users;
    let tokens = Arc::new(signup_with_tokens(addr, c.clients, users).await?);
    let seats = move |g: usize| ((2 * g) % users, (2 * g + 1) % users);
    let boards: Vec<i64> = {
        let tokens = tokens.clone();
        parallel(addr, c.clients, c.stored, move |mut client, g| {
            let tokens = tokens.clone();
            async move {
                let (a, b) = seats(g);
                let id = challenge(&mut client, &tokens[a], a, b).await?;
                Ok((client, id))
            }
        })
        .await?
    };
    // The games in play start at every stage, as on a server whose games
    // began at different times: game g has its first `opened(g)` moves
    // made before the load. Begun together, they would all end together,
    // and their new challenges come as one burst instead of a steady trickle.
    let cells = 64usize;
    let active = c.active;
    let opened = move |g: usize| g * cells / active;
    {
        let (tokens, boards) = (tokens.clone(), Arc::new(boards.clone()));
        parallel(addr, c.clients, c.active, move |mut client, g| {
            let (tokens, boards) = (tokens.clone(), boards.clone());
            async move {
                let (a, b) = seats(g);
                for m in 1..=opened(g) {
                    let (user, line) = move_line(boards[g], (a, b), m);
                    let r = client.command(&line, Some(&tokens[user])).await?;
                    if !ok(&r) {
                        bail!("{line}: {}", String::from_utf8_lossy(&r));
                    }
                }
                Ok((client, ()))
            }
        })
        .await?;
    }
    println!("setup_seconds={:.1}", setup.elapsed().as_secs_f64());
    println!("rss_stored_kib={}", rss_kib(pid).unwrap_or(0));

    // The load: client k plays active games k, k + clients, ...; each game's
    // move m (1-based) is the cell m, by its first player when m is odd.
    let stop = Arc::new(AtomicBool::new(false));
    let peak_rss = Arc::new(AtomicU64::new(0));
    let sampler = {
        let (stop, peak) = (stop.clone(), peak_rss.clone());
        tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                if let Some(r) = rss_kib(pid) {
                    peak.fetch_max(r, Ordering::Relaxed);
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        })
    };
    let replays_before = replay_figures(addr).await;
    let (server_cpu_before, own_cpu_before) = (cpu_seconds(Some(pid)), cpu_seconds(None));
    let start = Instant::now();
    let deadline = Duration::from_secs_f64(c.seconds);
    let mut tasks = Vec::new();
    for k in 0..c.clients {
        let mut games: Vec<(usize, i64, usize)> =
            (k..c.active).step_by(c.clients).map(|g| (g, boards[g], opened(g) + 1)).collect();
        let tokens = tokens.clone();
        tasks.push(tokio::spawn(async move {
            let mut client = Client::connect(addr).await?;
            let mut latencies = Vec::new();
            let mut errors = Vec::new();
            let mut challenges = 0u64;
            let mut turn = 0usize;
            while !games.is_empty() && start.elapsed() < deadline {
                turn = (turn + 1) % games.len();
                let (g, board, m) = games[turn];
                let (a, b) = seats(g);
                let (user, line) = move_line(board, (a, b), m);
                let t = Instant::now();
                let r = client.command(&line, Some(&tokens[user])).await?;
                latencies.push(t.elapsed().as_secs_f64());
                if !ok(&r) {
                    errors.push(format!("{line}: {}", String::from_utf8_lossy(&r)));
                }
                if m < cells {
                    games[turn].2 += 1;
                    continue;
                }
                // A finished game is replaced by a new one between the same
                // players, so that `--active` games are in play for the
                // whole load instead of the load ending with the games.
                let id = challenge(&mut client, &tokens[a], a, b).await?;
                games[turn] = (g, id, 1);
                challenges += 1;
            }
            Ok::<_, anyhow::Error>((latencies, errors, challenges))
        }));
    }
    // Writes that are not moves (a subscription, then its end), at a steady
    // rate from a client of their own, timed like the moves.
    let side = (c.side_writes > 0.0).then(|| {
        let (token, board) = (tokens[2].clone(), boards[0]);
        let every = Duration::from_secs_f64(1.0 / c.side_writes);
        tokio::spawn(async move {
            let mut client = Client::connect(addr).await?;
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut latencies = Vec::new();
            while start.elapsed() < deadline {
                tick.tick().await;
                let verb = if latencies.len() % 2 == 0 { "subscribe" } else { "unsubscribe" };
                let line = format!("intervalo {verb} {board} u2 -");
                let t = Instant::now();
                let r = client.command(&line, Some(&token)).await?;
                latencies.push(t.elapsed().as_secs_f64());
                if !ok(&r) {
                    bail!("{line}: {}", String::from_utf8_lossy(&r));
                }
            }
            Ok::<_, anyhow::Error>(latencies)
        })
    });
    let mut latencies = Vec::new();
    let mut errors = Vec::new();
    let mut challenges = 0;
    for t in tasks {
        let (l, e, c) = t.await??;
        latencies.extend(l);
        errors.extend(e);
        challenges += c;
    }
    let elapsed = start.elapsed().as_secs_f64();
    let (server_cpu_after, own_cpu_after) = (cpu_seconds(Some(pid)), cpu_seconds(None));
    stop.store(true, Ordering::Relaxed);
    sampler.await?;
    latencies.sort_by(f64::total_cmp);
    println!("moves={}", latencies.len());
    println!("challenges_during_load={challenges}");
    println!("load_seconds={elapsed:.2}");
    println!("moves_per_s={:.1}", latencies.len() as f64 / elapsed);
    println!("p50_ms={:.2}", percentile(&latencies, 0.50) * 1000.0);
    println!("p99_ms={:.2}", percentile(&latencies, 0.99) * 1000.0);
    println!("max_ms={:.2}", latencies.last().copied().unwrap_or(f64::NAN) * 1000.0);
    println!("errors={}", errors.len());
    if let Some(side) = side {
        let mut side = side.await??;
        side.sort_by(f64::total_cmp);
        println!("side_writes={}", side.len());
        println!("side_p50_ms={:.2}", percentile(&side, 0.50) * 1000.0);
        println!("side_p99_ms={:.2}", percentile(&side, 0.99) * 1000.0);
    }
    // Where the two cores went: the server's CPU time and this generator's, per move.
    let n = latencies.len();
    println!("server_cpu_us_per_move={:.1}", cpu_us_each(server_cpu_before, server_cpu_after, n));
    println!("loadgen_cpu_us_per_move={:.1}", cpu_us_each(own_cpu_before, own_cpu_after, n));
    for e in errors.iter().take(5) {
        eprintln!("loadgen: error: {e}");
    }
    println!("rss_peak_kib={}", peak_rss.load(Ordering::Relaxed).max(rss_kib(pid).unwrap_or(0)));
    println!("rss_after_kib={}", rss_kib(pid).unwrap_or(0));
    // A build without these figures prints none of them.
    if let (Some(before), Some(after)) = (replays_before, replay_figures(addr).await) {
        println!(
            "replays_per_1000_moves={:.1}",
            (after.replays - before.replays) as f64 * 1000.0 / n.max(1) as f64
        );
        println!("replay_cache_kib={}", after.cache_bytes / 1024);
        println!("replay_cache_games={}", after.cache_games);
    }
    if c.ceiling_seconds > 0.0 {
        http_ceiling(addr, pid, c.clients, c.ceiling_seconds).await?;
    }
    let _ = server.child.kill();
    let _ = server.child.wait();

    let (anchor_after, _) = anchor(&c.dir, c.anchor_seconds).await?;
    println!("anchor_after_commits_per_s={anchor_after:.1}");
    Ok(())
}
