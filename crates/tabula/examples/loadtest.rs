//! The long load test of `scripts/load-test`: mixed reads and moves
//! against one `tabula serve` on loopback for a bounded time, checking
//! that no request fails and that the server's memory does not grow.
//!
//!     cargo run --release -p tabula --example loadtest -- --tabula target/release/tabula --dir DIR --seconds 600
//!
//! Each client owns a pair of users and keeps `--games` Intervalo games
//! going between them: when one ends it challenges a new one. Each step is
//! a move (with the mover's bearer token) or, with the chance
//! `--read-share`, one of five reads: the game as a player sees it, its
//! history, its web page, the list of the user's running games, or a
//! `show` command. Every answer must be a success (status 200, and `ok`
//! for commands). The server's resident size is sampled every second.
//! It prints `key=value` lines, then one `minute=` line per minute.

mod support;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::Value;
use support::{Client, free_port, ok, percentile, rss_kib, signup_with_tokens, start_server};

struct Config {
    tabula: PathBuf,
    dir: PathBuf,
    clients: usize,
    games: usize,
    seconds: f64,
    read_share: f64,
}

fn parse_args() -> Result<Config> {
    let mut c = Config {
        tabula: PathBuf::from("target/release/tabula"),
        dir: std::env::temp_dir(),
        clients: 16,
        games: 4,
        seconds: 600.0,
        read_share: 0.7,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().with_context(|| format!("{a} needs a value"));
        match a.as_str() {
            "--tabula" => c.tabula = PathBuf::from(value()?),
            "--dir" => c.dir = PathBuf::from(value()?),
            "--clients" => c.clients = value()?.parse()?,
            "--games" => c.games = value()?.parse()?,
            "--seconds" => c.seconds = value()?.parse()?,
            "--read-share" => c.read_share = value()?.parse()?,
            "-h" | "--help" => {
                println!(
                    "loadtest --tabula BIN --dir DIR [--clients 16] [--games 4] [--seconds 600] [--read-share 0.7]"
                );
                std::process::exit(0);
            }
            other => bail!("unknown argument {other} (see --help)"),
        }
    }
    if c.clients == 0 || c.games == 0 || !(0.0..=1.0).contains(&c.read_share) || c.seconds <= 0.0 {
        bail!("--clients and --games must be positive, --seconds above 0, --read-share within 0..1");
    }
    Ok(c)
}

/// The kinds of request, in the order of the report.
const KINDS: [&str; 7] = ["move", "challenge", "game", "history", "page", "list", "show"];

/// One request's outcome: its kind, when it ended (seconds into the
/// load) and how long it took, or the error.
struct Sample {
    kind: usize,
    at: f64,
    seconds: f64,
    error: Option<String>,
}

/// A small generator so every client's choices are reproducible.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The game a client plays: its board and the next move's number.
struct Game {
    board: i64,
    next: usize,
}

const CELLS: usize = 64;

/// `a` (with its token) challenges `b`.
async fn challenge(
    client: &mut Client,
    token: &str,
    a: &str,
    b: &str,
) -> Result<std::result::Result<i64, String>> {
    let r = client.command(&format!("intervalo challenge {a} {b}"), Some(token)).await?;
    let v: Value = serde_json::from_slice(&r).unwrap_or(Value::Null);
    Ok(v["game"]["id"].as_i64().ok_or_else(|| format!("challenge: {}", String::from_utf8_lossy(&r))))
}

async fn run_client(
    k: usize,
    addr: SocketAddr,
    tokens: Arc<Vec<String>>,
    c: Arc<Config>,
    start: Instant,
    stop: Arc<AtomicBool>,
) -> Result<Vec<Sample>> {
    let mut client = Client::connect(addr).await?;
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15 ^ (k as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D));
    let (ia, ib) = (2 * k, 2 * k + 1);
    let (a, b) = (format!("u{ia}"), format!("u{ib}"));
    let mut samples = Vec::new();
    let mut games: Vec<Game> = Vec::new();
    let mut turn = 0usize;
    while !stop.load(Ordering::Relaxed) {
        if games.len() < c.games {
            let t = Instant::now();
            let r = challenge(&mut client, &tokens[ia], &a, &b).await?;
            let at = start.elapsed().as_secs_f64();
            match r {
                Ok(board) => {
                    games.push(Game { board, next: 1 });
                    samples.push(Sample { kind: 1, at, seconds: t.elapsed().as_secs_f64(), error: None });
                }
                Err(e) => {
                    samples.push(Sample { kind: 1, at, seconds: t.elapsed().as_secs_f64(), error: Some(e) });
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
            continue;
        }
        turn = (turn + 1) % games.len();
        let board = games[turn].board;
        let t = Instant::now();
        let (kind, error) = if rng.unit() >= c.read_share {
            let m = games[turn].next;
            let (user, token) = if m % 2 == 1 { (&a, &tokens[ia]) } else { (&b, &tokens[ib]) };
            let line = format!("intervalo move {board} {user} - {m}");
            let r = client.command(&line, Some(token)).await?;
            if m == CELLS {
                games.swap_remove(turn);
            } else {
                games[turn].next += 1;
            }
            (0, (!ok(&r)).then(|| format!("{line}: {}", String::from_utf8_lossy(&r))))
        } else {
            let kind = 2 + (rng.next() % 5) as usize;
            let token = &tokens[ia];
            let answer = match kind {
                2 => client.send("GET", &format!("/api/v1/games/{board}"), Some(token), None).await?,
                3 => client.send("GET", &format!("/api/v1/games/{board}/history"), Some(token), None).await?,
                4 => client.send("GET", &format!("/games/{board}"), None, None).await?,
                5 => {
                    let path = format!("/api/v1/games?player={a}&status=running&limit=20");
                    client.send("GET", &path, Some(token), None).await?
                }
                _ => {
                    let body = serde_json::json!({ "line": format!("intervalo show {board}") });
                    client.send("POST", "/api/v1/commands", Some(token), Some(&body)).await?
                }
            };
            let good = answer.status == 200 && (kind != 6 || ok(&answer.body));
            let error = (!good).then(|| {
                let text = String::from_utf8_lossy(&answer.body);
                format!(
                    "{} board {board}: status {}: {}",
                    KINDS[kind],
                    answer.status,
                    text.chars().take(200).collect::<String>()
                )
            });
            (kind, error)
        };
        samples.push(Sample {
            kind,
            at: start.elapsed().as_secs_f64(),
            seconds: t.elapsed().as_secs_f64(),
            error,
        });
    }
    Ok(samples)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<()> {
    let c = Arc::new(parse_args()?);
    std::fs::create_dir_all(&c.dir)?;
    let addr: SocketAddr = format!("127.0.0.1:{}", free_port()?).parse()?;
    let mut server = start_server(&c.tabula, &c.dir, addr).await?;
    let pid = server.child.id();
    let tokens = Arc::new(signup_with_tokens(addr, c.clients, 2 * c.clients).await?);
    println!("clients={}", c.clients);
    println!("games_per_client={}", c.games);
    println!("read_share={}", c.read_share);
    println!("seconds={}", c.seconds);
    println!("rss_start_kib={}", rss_kib(pid).unwrap_or(0));

    let start = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    let sampler = {
        let stop = stop.clone();
        tokio::spawn(async move {
            let mut rss = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                rss.push((start.elapsed().as_secs_f64(), rss_kib(pid).unwrap_or(0)));
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            rss
        })
    };
    let mut tasks = Vec::new();
    for k in 0..c.clients {
        tasks.push(tokio::spawn(run_client(k, addr, tokens.clone(), c.clone(), start, stop.clone())));
    }
    let minutes = (c.seconds / 60.0).ceil() as usize;
    let deadline = Duration::from_secs_f64(c.seconds);
    while start.elapsed() < deadline {
        tokio::time::sleep(Duration::from_millis(200).min(deadline.saturating_sub(start.elapsed()))).await;
        let done = start.elapsed().as_secs();
        if done > 0 && done.is_multiple_of(60) && start.elapsed().subsec_millis() < 200 {
            eprintln!("loadtest: {} of {minutes} minutes", done / 60);
        }
    }
    stop.store(true, Ordering::Relaxed);
    let mut samples = Vec::new();
    for t in tasks {
        samples.extend(t.await??);
    }
    let elapsed = start.elapsed().as_secs_f64();
    let rss = sampler.await?;
    let rss_end = rss_kib(pid).unwrap_or(0);
    let _ = server.child.kill();
    let _ = server.child.wait();

    let errors: Vec<&Sample> = samples.iter().filter(|s| s.error.is_some()).collect();
    println!("requests={}", samples.len());
    println!("load_seconds={elapsed:.1}");
    println!("requests_per_s={:.1}", samples.len() as f64 / elapsed);
    println!("errors={}", errors.len());
    for e in errors.iter().take(5) {
        eprintln!("loadtest: error: {}", e.error.as_deref().unwrap_or_default());
    }
    let mut all: Vec<f64> = samples.iter().map(|s| s.seconds * 1000.0).collect();
    all.sort_by(f64::total_cmp);
    println!("p50_ms={:.2}", percentile(&all, 0.50));
    println!("p99_ms={:.2}", percentile(&all, 0.99));
    println!("max_ms={:.2}", all.last().copied().unwrap_or(f64::NAN));
    for (kind, name) in KINDS.iter().enumerate() {
        let mut l: Vec<f64> = samples.iter().filter(|s| s.kind == kind).map(|s| s.seconds * 1000.0).collect();
        l.sort_by(f64::total_cmp);
        println!(
            "kind_{name}=count {} p50 {:.2} p99 {:.2} max {:.2}",
            l.len(),
            percentile(&l, 0.5),
            percentile(&l, 0.99),
            l.last().copied().unwrap_or(f64::NAN)
        );
    }
    // Memory: the first half is warm-up. The server's caches fill then (the
    // replayed games, up to 4,096 of them, and SQLite's page caches), and
    // sixteen clients make about a thousand new games a minute, so the size
    // climbs until the game cache is full and then levels off. The growth is the
    // last minute's mean size against the middle minute's: a leak keeps
    // growing in the second half, a cache does not.
    let mean_in = |from: f64, to: f64| {
        let v: Vec<u64> = rss.iter().filter(|(t, _)| *t >= from && *t < to).map(|(_, r)| *r).collect();
        if v.is_empty() { f64::NAN } else { v.iter().sum::<u64>() as f64 / v.len() as f64 }
    };
    let peak = rss.iter().map(|(_, r)| *r).max().unwrap_or(0).max(rss_end);
    println!("rss_peak_kib={peak}");
    println!("rss_end_kib={rss_end}");
    if minutes >= 3 {
        let middle_minute = (minutes / 2) as f64;
        let middle = mean_in(middle_minute * 60.0, (middle_minute + 1.0) * 60.0);
        let last = mean_in((minutes - 1) as f64 * 60.0, elapsed + 1.0);
        println!("rss_middle_minute={}", minutes / 2 + 1);
        println!("rss_middle_minute_kib={middle:.0}");
        println!("rss_last_minute_kib={last:.0}");
        println!("rss_growth_percent={:.1}", (last - middle) / middle * 100.0);
    }
    for m in 0..minutes {
        let (from, to) = (m as f64 * 60.0, (m + 1) as f64 * 60.0);
        let mut l: Vec<f64> =
            samples.iter().filter(|s| s.at >= from && s.at < to).map(|s| s.seconds * 1000.0).collect();
        l.sort_by(f64::total_cmp);
        let errs = samples.iter().filter(|s| s.at >= from && s.at < to && s.error.is_some()).count();
        println!(
            "minute={} requests={} errors={errs} p50_ms={:.2} p99_ms={:.2} rss_kib={:.0}",
            m + 1,
            l.len(),
            percentile(&l, 0.5),
            percentile(&l, 0.99),
            mean_in(from, to)
        );
    }
    if !errors.is_empty() {
        bail!("{} requests failed", errors.len());
    }
    Ok(())
}
