//! Run a tournament from the command line without the `tabula` binary, for
//! the benchmark figures:
//!
//! ```text
//! cargo run --release -p tabula-bots --example tournament -- \
//!     --game intervalo --games-per-pair 100 --seed 1 \
//!     --bot mcts --bot random --bot "python3 examples/bots/center.py" [--json FILE] [--csv FILE]
//! ```

use std::time::Duration;

use tabula_bots::{BotSpec, JsonlStore, MemoryStore, TournamentConfig, TournamentStore, ViewMode};
use tabula_model::GameKind;

fn kind_of(game: &str) -> Option<&'static dyn GameKind> {
    match game {
        "intervalo" => Some(&tabula_intervalo::KIND),
        "dna" => Some(&tabula_dna::KIND),
        "conway" => Some(&tabula_conway::KIND),
        "rewrite" => Some(&tabula_rewrite::KIND),
        "rtlife" => Some(&tabula_rtlife::KIND),
        _ => None,
    }
}

fn main() {
    if let Err(e) = run() {
        eprintln!("tournament: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mut config = TournamentConfig::new("intervalo", Vec::new());
    let mut json = None;
    let mut csv = None;
    let mut resume = None;
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--game" => config.game = value()?,
            "--option" => config.options.push(value()?),
            "--bot" => config.bots.push(BotSpec::parse(&value()?).map_err(|e| e.to_string())?),
            "--games-per-pair" => {
                config.games_per_pair = value()?.parse().map_err(|_| "bad --games-per-pair")?
            }
            "--players" => config.players = value()?.parse().map_err(|_| "bad --players")?,
            "--seed" => config.seed = value()?.parse().map_err(|_| "bad --seed")?,
            "--threads" => config.threads = value()?.parse().map_err(|_| "bad --threads")?,
            "--move-time" => {
                config.move_time = Duration::from_millis(value()?.parse().map_err(|_| "bad --move-time")?)
            }
            "--view" => config.view = value()?.parse::<ViewMode>()?,
            "--json" => json = Some(value()?),
            "--csv" => csv = Some(value()?),
            "--resume" => resume = Some(value()?),
            other => return Err(format!("unknown flag {other}")),
        }
    }
    let kind = kind_of(&config.game).ok_or_else(|| format!("unknown game {}", config.game))?;
    let mut memory = MemoryStore::default();
    let mut file;
    let store: &mut dyn TournamentStore = match &resume {
        Some(path) => {
            file = JsonlStore::new(path);
            &mut file
        }
        None => &mut memory,
    };
    let report = tabula_bots::run_tournament(&config, kind, store, &|p| {
        if p.done % 50 == 0 || p.done == p.total {
            eprintln!("{}/{} games, {:.1} s", p.done, p.total, p.elapsed.as_secs_f64());
        }
    })
    .map_err(|e| e.to_string())?;
    print!("{}", tabula_bots::render_text(&report, tabula_model::Lang::En));
    println!("{} games in {:.1} s", report.games.len(), report.elapsed_seconds);
    if let Some(path) = json {
        std::fs::write(&path, tabula_bots::render_json(&report)).map_err(|e| format!("{path}: {e}"))?;
    }
    if let Some(path) = csv {
        std::fs::write(&path, tabula_bots::render_csv(&report)).map_err(|e| format!("{path}: {e}"))?;
    }
    Ok(())
}
