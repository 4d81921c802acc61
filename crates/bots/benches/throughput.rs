//! Throughput of the bot machinery, each figure beside its anchor measured
//! in the same run:
//!
//! 1. Intervalo games per second between built-in bots (`random` against
//!    `center`) on all cores, against a plain Python referee playing the
//!    same two bots' logic (`python_referee.py`, one core).
//! 2. The referee's time per move of an external bot, against a bare pipe
//!    round trip (one line out, one line back) with the same child process.
//!
//! Run: `cargo bench -p tabula-bots --bench throughput`. The child process
//! is this same binary started with `--child echo` or `--child bot`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use tabula_bots::referee::{ExternalBot, Player, RefereeSettings, play_game};
use tabula_bots::{BotSpec, BuiltinBot, MemoryStore, TournamentConfig, run_tournament};
use tabula_intervalo::KIND;
use tabula_model::{GameKind, Options};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--child") {
        child(args.get(i + 1).map(String::as_str).unwrap_or("echo"));
        return;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("machine: {cores} cores");
    builtin_games_per_second();
    external_overhead();
}

/// The child: `echo` writes back each line; `bot` answers each `turn` with
/// the first legal move, like the smallest possible external bot.
fn child(mode: &str) {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if mode == "echo" {
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
            continue;
        }
        if line.contains("\"type\":\"quit\"") {
            break;
        }
        if let Some(rest) = line.split("\"legal\":[\"").nth(1) {
            let first = rest.split('"').next().unwrap_or("1");
            let _ = writeln!(out, "{first}");
            let _ = out.flush();
        }
    }
}

/// CPU time this process has used so far (user and system, all threads).
fn cpu_time() -> f64 {
    // SAFETY: getrusage fills the struct it is given and nothing else.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

fn builtin_games_per_second() {
    let bots = vec![BotSpec::parse("random").unwrap(), BotSpec::parse("center").unwrap()];
    let mut config = TournamentConfig::new("intervalo", bots);
    config.games_per_pair = 20_000;
    config.seed = 1;
    let cpu = cpu_time();
    let report = run_tournament(&config, &KIND, &mut MemoryStore::default(), &|_| {}).unwrap();
    let cpu = cpu_time() - cpu;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    let rust_rate = report.games.len() as f64 / report.elapsed_seconds;
    let rust_cpu_rate = report.games.len() as f64 / cpu;
    println!(
        "built-in random vs center, Intervalo 64 cells, all cores: {} games in {:.2} s = {:.0} games/s",
        report.games.len(),
        report.elapsed_seconds,
        rust_rate
    );
    println!(
        "  CPU time {cpu:.2} s = {rust_cpu_rate:.0} games per CPU second, x {cores} cores = {:.0} games/s",
        rust_cpu_rate * cores
    );
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/python_referee.py");
    match Command::new("python3").arg(script).arg("3000").output() {
        Ok(out) if out.status.success() => {
            let text = String::from_utf8_lossy(&out.stdout);
            let rates: Vec<f64> = text.split_whitespace().filter_map(|w| w.parse().ok()).collect();
            let (python_rate, python_cpu_rate) =
                (rates.first().copied().unwrap_or(f64::NAN), rates.get(1).copied().unwrap_or(f64::NAN));
            println!("python referee, same bots, one core: {python_rate:.0} games/s");
            println!("  {python_cpu_rate:.0} games per CPU second");
            println!("ratio (wall clock): {:.0}x", rust_rate / python_rate);
            println!(
                "ratio (CPU time, all cores against one): {:.0}x",
                rust_cpu_rate * cores / python_cpu_rate
            );
        }
        _ => println!("python referee: python3 not available"),
    }
}

fn external_overhead() {
    let exe = std::env::current_exe().unwrap().display().to_string();
    // The bare round trip.
    let mut echo = Command::new(&exe)
        .args(["--child", "echo"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut to = echo.stdin.take().unwrap();
    let mut from = BufReader::new(echo.stdout.take().unwrap());
    let line = "17\n";
    let mut back = String::new();
    let rounds = 20_000;
    let mut best = Duration::MAX;
    for _ in 0..3 {
        let began = Instant::now();
        for _ in 0..rounds {
            to.write_all(line.as_bytes()).unwrap();
            to.flush().unwrap();
            back.clear();
            from.read_line(&mut back).unwrap();
        }
        best = best.min(began.elapsed());
    }
    drop(to);
    let _ = echo.wait();
    let round_trip = best.as_secs_f64() / rounds as f64;
    println!("bare pipe round trip: {:.2} us", round_trip * 1e6);

    // The referee with the same child as a bot, against the built-in random.
    let options = Options::parse::<&str>(KIND.info(), &[]).unwrap();
    let settings = RefereeSettings::default();
    let names = ["child".to_string(), "random".to_string()];
    let mut bot = ExternalBot::new(vec![exe.clone(), "--child".into(), "bot".into()]);
    let games = 400;
    let mut best_per_move = f64::MAX;
    for _ in 0..3 {
        let mut external_moves = 0;
        let began = Instant::now();
        for g in 0..games {
            let mut players =
                [Player::External(&mut bot), Player::Builtin(BuiltinBot::named("random").unwrap())];
            let result = play_game(&KIND, &options, &mut players, &names, g, &settings).unwrap();
            assert!(result.failures.is_empty(), "{result:?}");
            external_moves += result.moves.div_ceil(2);
        }
        let with_bot = began.elapsed().as_secs_f64();
        // The same games with a built-in in the external bot's seat: what
        // the game itself costs, to be taken off.
        let began = Instant::now();
        for g in 0..games {
            let mut players = [
                Player::Builtin(BuiltinBot::named("random").unwrap()),
                Player::Builtin(BuiltinBot::named("random").unwrap()),
            ];
            play_game(&KIND, &options, &mut players, &names, g, &settings).unwrap();
        }
        let without = began.elapsed().as_secs_f64();
        best_per_move = best_per_move.min((with_bot - without) / external_moves as f64);
        println!(
            "referee, external bot: {external_moves} moves, {:.2} us a move over the same games between built-ins",
            (with_bot - without) / external_moves as f64 * 1e6
        );
    }
    bot.quit(Duration::from_secs(1));
    let game =
        tabula_model::Game::create(&KIND, options.clone(), vec!["a".into(), "b".into()], 1, 0).unwrap();
    let began = Instant::now();
    for _ in 0..10_000 {
        std::hint::black_box(tabula_bots::protocol::turn_line(&game, 0, tabula_bots::ViewMode::Static, 1000));
    }
    let line_time = began.elapsed().as_secs_f64() / 10_000.0;
    println!("of which writing a turn line (64 empty cells): {:.2} us", line_time * 1e6);
    println!(
        "referee time per external move: {:.2} us = {:.2}x the bare round trip",
        best_per_move * 1e6,
        best_per_move / round_trip
    );
}
