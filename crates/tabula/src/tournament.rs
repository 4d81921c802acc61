//! `tabula tournament`: a round robin between bots, stored in the
//! database as it goes (so an interrupted tournament resumes where it
//! stopped), with a progress bar on a terminal and the results as a
//! table, JSON and CSV.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use tabula_bots::{BotSpec, GameResult, StoreError, TournamentConfig, TournamentStore, ViewMode};
use tabula_service::store::Store;

use crate::cli::{Global, open_store};

/// Play a round robin between bots, kept in the database as it goes
///
/// The bots are built-in (random, greedy, mcts, mcts:2000, mcts:250ms ..)
/// or programs speaking the bot protocol. The same --seed gives the same
/// games. Results are kept in the database as games finish; running the
/// same tournament again resumes it. Prints the standings, or with --json
/// the whole report.
#[derive(Args, Debug)]
#[command(
    after_help = "Example:\n  tabula tournament --game intervalo --games-per-pair 100 \\\n      --bot random --bot mcts --bot \"python3 examples/bots/center.py\""
)]
pub struct TournamentArgs {
    /// The game (dna, rewrite, intervalo, conway ..).
    #[arg(long)]
    game: String,
    /// A bot: a built-in name or a command line (repeat for each bot).
    #[arg(long = "bot", required = true)]
    bots: Vec<String>,
    /// Games each pair (or each combination of --players bots) plays.
    #[arg(long, default_value_t = 100)]
    games_per_pair: usize,
    /// Bots seated in each game.
    #[arg(long, default_value_t = 2)]
    players: usize,
    /// The tournament seed; every game's seed derives from it.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Per-move time limit of external bots, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    move_time: u64,
    /// Per-game thinking time of each external bot, in seconds.
    #[arg(long, default_value_t = 300)]
    game_time: u64,
    /// What Intervalo bots see: static (the strip) or dynamic (with history and scores).
    #[arg(long, default_value = "static")]
    view: String,
    /// A game option for every game, e.g. --option=-cells=32 (repeat).
    #[arg(long = "option", allow_hyphen_values = true)]
    options: Vec<String>,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Write the results as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    json_file: Option<PathBuf>,
    /// Write the results as CSV to FILE.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
    /// Do not draw a progress bar.
    #[arg(long)]
    quiet: bool,
    /// The user bot programs run as when tabula runs as root (default: nobody).
    #[arg(long, value_name = "USER")]
    bot_user: Option<String>,
    /// Do not play here: offer the games to `tabula worker` processes on
    /// any machines sharing the PostgreSQL database, and report when all are done.
    #[arg(long)]
    distributed: bool,
}

/// Finished games kept in the tournament tables of the database.
struct DbStore {
    store: Arc<Store>,
    handle: tokio::runtime::Handle,
    id: Option<i64>,
    now: i64,
}

impl TournamentStore for DbStore {
    fn load(&mut self, config: &TournamentConfig) -> Result<Vec<GameResult>, StoreError> {
        let fingerprint = tabula_bots::store::fingerprint(config).to_string();
        let full = serde_json::to_string(config).map_err(|e| StoreError::Backend(e.to_string()))?;
        let store = self.store.clone();
        let game = config.game.clone();
        let now = self.now;
        let (id, rows) = self
            .handle
            .block_on(async move {
                let id = store.open_tournament(&fingerprint, &game, &full, now).await?;
                let rows = store.tournament_games(id).await?;
                Ok::<_, tabula_service::store::StoreError>((id, rows))
            })
            .map_err(|e| StoreError::Backend(e.to_string()))?;
        self.id = Some(id);
        rows.iter().map(|r| serde_json::from_str(r).map_err(|e| StoreError::Backend(e.to_string()))).collect()
    }

    fn save(&mut self, result: &GameResult) -> Result<(), StoreError> {
        let id = self.id.ok_or_else(|| StoreError::Backend("save before load".into()))?;
        let json = serde_json::to_string(result).map_err(|e| StoreError::Backend(e.to_string()))?;
        let store = self.store.clone();
        let index = result.index as i64;
        self.handle
            .block_on(async move { store.save_tournament_game(id, index, &json).await })
            .map_err(|e| StoreError::Backend(e.to_string()))
    }
}

pub fn run(global: &Global, a: TournamentArgs) -> Result<ExitCode> {
    let Some(kind) = tabula_games::find(&a.game) else {
        eprintln!(
            "tabula: no game {:?}: the games are {}",
            a.game,
            tabula_games::all().iter().map(|k| k.info().kind).collect::<Vec<_>>().join(", ")
        );
        return Ok(ExitCode::from(2));
    };
    let mut bots = Vec::new();
    for b in &a.bots {
        match BotSpec::parse(b).and_then(|s| s.check_program().map(|()| s)) {
            Ok(s) => bots.push(s),
            Err(e) => {
                eprintln!("tabula: --bot {b:?}: {e}");
                return Ok(ExitCode::from(2));
            }
        }
    }
    for (flag, path) in [("--json-file", &a.json_file), ("--csv", &a.csv)] {
        if let Some(path) = path
            && let Err(e) = tabula_bots::check_output(path)
        {
            eprintln!("tabula: {flag}: {e}");
            return Ok(ExitCode::from(2));
        }
    }
    let view = match a.view.as_str() {
        "static" => ViewMode::Static,
        "dynamic" => ViewMode::Dynamic,
        other => {
            eprintln!("tabula: --view {other:?}: use static or dynamic");
            return Ok(ExitCode::from(2));
        }
    };
    let mut config = TournamentConfig::new(kind.info().kind, bots);
    config.options = a.options.clone();
    config.games_per_pair = a.games_per_pair;
    config.players = a.players;
    config.seed = a.seed;
    config.move_time = Duration::from_millis(a.move_time);
    config.game_time = Duration::from_secs(a.game_time);
    config.view = view;
    config.threads = a.threads;
    config.limits.user = match tabula_bots::process::BotUser::for_referee(a.bot_user.as_deref()) {
        Ok(user) => user,
        Err(e) => {
            eprintln!("tabula: --bot-user: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    if config.bots.iter().any(|b| matches!(b, BotSpec::Command { .. }))
        && let Some(warning) = tabula_bots::process::containment_warning()
    {
        eprintln!("tabula: {warning}");
    }

    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build()?;
    // Tournaments keep their games in the database's tournament tables: the
    // store itself, without the command service.
    let db = rt.block_on(open_store(global))?;
    let now = global.now.unwrap_or_else(|| chrono::Utc::now().timestamp_millis());
    let mut store = DbStore { store: db.clone(), handle: rt.handle().clone(), id: None, now };
    let bar = if a.quiet || !std::io::stderr().is_terminal() {
        indicatif::ProgressBar::hidden()
    } else {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:30} {wide_msg}").expect("valid progress template"),
        );
        bar
    };
    let progress = |p: tabula_bots::Progress| {
        bar.set_length(p.total as u64);
        bar.set_position(p.done as u64);
        bar.set_message(p.summary());
    };
    let report = if a.distributed {
        match rt.block_on(tabula_bots::distributed::run_distributed(&db, &config, kind, &progress)) {
            Ok((id, report)) => {
                store.id = Some(id);
                Ok(report)
            }
            Err(e) => Err(format!("{e:#}")),
        }
    } else {
        std::thread::scope(|scope| {
            scope.spawn(|| tabula_bots::run_tournament(&config, kind, &mut store, &progress)).join()
        })
        .map_err(|_| anyhow::anyhow!("the tournament thread panicked"))?
        .map_err(|e| e.to_string())
    };
    bar.finish_and_clear();
    let report = match report {
        Ok(r) => r,
        Err(e) => {
            eprintln!("tabula: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    let json = tabula_bots::render_json(&report);
    if let Some(id) = store.id {
        let s = db.clone();
        let j = json.clone();
        rt.block_on(async move { s.finish_tournament(id, &j, now).await }).context("storing the results")?;
    }
    if global.json {
        println!("{json}");
    } else {
        print!("{}", tabula_bots::render_text(&report, crate::help::lang()));
    }
    if let Some(path) = &a.json_file {
        std::fs::write(path, &json).with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(path) = &a.csv {
        std::fs::write(path, tabula_bots::render_csv(&report))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}
