//! Tournaments beyond one machine: `tabula tournament --distributed` offers
//! a tournament's games as rows of the PostgreSQL database, and any number
//! of `tabula worker` processes, on any machines, claim them one at a time
//! (`FOR UPDATE SKIP LOCKED`), play them and write the results back. A
//! claim is a lease the worker keeps renewing while it plays; the game of a
//! worker that dies is claimed again once its lease runs out. A game's
//! result depends only on the tournament's settings and the game's place in
//! the schedule, so a game played twice gives the same result.

use std::collections::{BTreeMap, HashMap};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;
use tabula_bots::{GameResult, Progress, TournamentConfig, TournamentReport};
use tabula_model::GameKind;
use tabula_service::store::Store;

use crate::cli::Global;

/// Play the games of distributed tournaments from the PostgreSQL database
///
/// Plays the games that `tabula tournament --distributed` offers in the
/// PostgreSQL database: claims one game at a time per thread, plays it and
/// stores its result. Run as many workers on as many machines as you like;
/// stop one at any time (a game it was playing is played again by another
/// worker once its lease has run out).
#[derive(Args, Debug)]
pub struct WorkerArgs {
    /// Games played at once (default: one per core)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// How long a claim holds without renewal, in seconds; a game that
    /// makes no progress is not renewed
    #[arg(long, value_name = "SECONDS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=MAX_LEASE_SECONDS))]
    lease: u64,
    /// The user bot programs run as when the worker runs as root (default nobody)
    #[arg(long, value_name = "USER")]
    bot_user: Option<String>,
    /// Stop when no game of any tournament is left to play
    #[arg(long)]
    exit_when_idle: bool,
}

/// How often a worker with nothing to do looks for games.
const IDLE_POLL: Duration = Duration::from_millis(250);
/// How often `tournament --distributed` checks how many games are left.
const WAIT_POLL: Duration = Duration::from_millis(200);
/// The longest lease a worker may ask for.
const MAX_LEASE_SECONDS: u64 = 86_400;

fn wall_clock_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// `tabula worker`.
pub fn run(global: &Global, args: WorkerArgs) -> Result<ExitCode> {
    let threads =
        args.threads.map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), usize::from);
    let lease = Duration::from_secs(args.lease);
    let exit_when_idle = args.exit_when_idle;
    let bot_user = args.bot_user;
    if !tabula_service::store::is_postgres_url(&global.db) {
        eprintln!("tabula: a worker needs the shared PostgreSQL database: --db postgres://user@host/db");
        return Ok(ExitCode::from(2));
    }
    let bot_user = match tabula_bots::process::BotUser::for_referee(bot_user.as_deref()) {
        Ok(user) => user,
        Err(e) => {
            eprintln!("tabula: --bot-user: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    if let Some(warning) = tabula_bots::process::containment_warning() {
        eprintln!("tabula: {warning}");
    }
    let rt =
        tokio::runtime::Builder::new_multi_thread().enable_all().build().context("starting the runtime")?;
    rt.block_on(async {
        let store = tabula_service::store::open(&global.db)
            .await
            .with_context(|| format!("opening the database {}", crate::cli::db_name(&global.db)))?;
        let name =
            format!("worker-{}-{:08x}", std::process::id(), chrono::Utc::now().timestamp_subsec_nanos());
        let mut loops = Vec::new();
        for n in 0..threads {
            let (store, name, bot_user) = (store.clone(), format!("{name}.{n}"), bot_user.clone());
            loops
                .push(tokio::spawn(async move { work(store, &name, lease, bot_user, exit_when_idle).await }));
        }
        let mut played = 0;
        for l in loops {
            played += l.await.context("a worker thread failed")??;
        }
        eprintln!("tabula: worker played {played} games");
        Ok(ExitCode::SUCCESS)
    })
}

/// One claim-play-store loop; returns the games played.
async fn work(
    store: Arc<dyn Store>,
    name: &str,
    lease: Duration,
    bot_user: Option<tabula_bots::process::BotUser>,
    exit_when_idle: bool,
) -> Result<usize> {
    let lease_ms = lease.as_millis() as i64;
    let mut configs: HashMap<i64, (TournamentConfig, &'static dyn GameKind)> = HashMap::new();
    let mut played = 0;
    loop {
        let now = wall_clock_ms();
        let Some(job) = store.claim_tournament_game(name, now, now + lease_ms).await? else {
            if exit_when_idle && store.tournament_games_left(None).await? == 0 {
                return Ok(played);
            }
            tokio::time::sleep(IDLE_POLL).await;
            continue;
        };
        let (config, kind) = match configs.entry(job.tournament) {
            std::collections::hash_map::Entry::Occupied(e) => e.get().clone(),
            std::collections::hash_map::Entry::Vacant(e) => {
                let mut config: TournamentConfig = serde_json::from_str(&job.config).with_context(|| {
                    format!("tournament {}: the stored settings do not read", job.tournament)
                })?;
                // Who bots run as is this machine's choice, not the tournament's.
                config.limits.user = bot_user.clone();
                let kind = tabula_games::find(&config.game)
                    .with_context(|| format!("tournament {}: no game {:?}", job.tournament, config.game))?;
                e.insert((config, kind)).clone()
            }
        };
        let index = usize::try_from(job.index).context("a negative game number")?;
        let heartbeat = Arc::new(tabula_bots::Heartbeat::new());
        let stall_limit = tabula_bots::tournament::referee_settings(&config, None).stall_limit();
        let beats = Arc::clone(&heartbeat);
        let mut game =
            tokio::task::spawn_blocking(move || tabula_bots::play_one(&config, kind, index, Some(beats)));
        // Keep the claim while the game makes progress; a game stuck for
        // longer than any bot may rightly take is left to its lease, so
        // that another worker can play it.
        let result = loop {
            tokio::select! {
                finished = &mut game => break finished.context("the game's thread panicked")?,
                _ = tokio::time::sleep(lease / 3) => {
                    let quiet = heartbeat.quiet_for();
                    if quiet > stall_limit {
                        tracing::warn!(
                            tournament = job.tournament, game = job.index, quiet_ms = quiet.as_millis() as u64,
                            "the game makes no progress; its claim is left to run out"
                        );
                    } else if !store.renew_tournament_game(&job, name, wall_clock_ms() + lease_ms).await? {
                        tracing::warn!(tournament = job.tournament, game = job.index, "claim lost; finishing anyway");
                    }
                }
            }
        };
        let result = result.with_context(|| format!("tournament {} game {}", job.tournament, job.index))?;
        store.finish_tournament_game(&job, &serde_json::to_string(&result)?).await?;
        played += 1;
    }
}

/// `tabula tournament --distributed`: offer the games not yet played to the
/// workers, wait until they are all done (reporting progress), and build the
/// report from the stored results, as a local tournament would.
pub fn distributed(
    rt: &tokio::runtime::Runtime,
    store: &Arc<dyn Store>,
    config: &TournamentConfig,
    kind: &'static dyn GameKind,
    progress: &dyn Fn(Progress),
) -> Result<(i64, TournamentReport)> {
    tabula_bots::tournament::check_config(config, kind)?;
    let played = tabula_bots::tournament::effective_config(config, kind);
    let plan = tabula_bots::tournament::schedule(
        config.bots.len(),
        config.players,
        config.games_per_pair,
        config.seed,
    );
    let fingerprint = tabula_bots::store::fingerprint(config).to_string();
    let full = serde_json::to_string(config)?;
    let started = Instant::now();
    rt.block_on(async {
        let id = store.open_tournament(&fingerprint, &config.game, &full, wall_clock_ms()).await?;
        let finished = |rows: Vec<String>| -> Result<BTreeMap<usize, GameResult>> {
            let mut out = BTreeMap::new();
            for row in rows {
                let r: GameResult =
                    serde_json::from_str(&row).context("a stored game result does not read")?;
                if plan.get(r.index).is_some_and(|s| s.bots == r.bots && s.seed == r.seed) {
                    out.insert(r.index, r);
                }
            }
            Ok(out)
        };
        let done = finished(store.tournament_games(id).await?)?;
        let resumed = done.len();
        let missing: Vec<i64> =
            plan.iter().filter(|s| !done.contains_key(&s.index)).map(|s| s.index as i64).collect();
        store.enqueue_tournament_games(id, &missing).await?;
        let total = plan.len();
        progress(Progress { done: resumed, total, resumed, elapsed: Duration::ZERO, last: None });
        let mut last_left = -1;
        loop {
            let left = store.tournament_games_left(Some(id)).await?;
            if left != last_left {
                last_left = left;
                let done = total.saturating_sub(left as usize);
                progress(Progress { done, total, resumed, elapsed: started.elapsed(), last: None });
            }
            if left == 0 {
                break;
            }
            tokio::time::sleep(WAIT_POLL).await;
        }
        let games = finished(store.tournament_games(id).await?)?;
        if games.len() != total {
            bail!("the workers stored {} of the tournament's {total} games", games.len());
        }
        let names = tabula_bots::tournament::unique_names(&config.bots);
        let report = tabula_bots::tournament::build_report(
            &played,
            names,
            games.into_values().collect(),
            started.elapsed(),
        );
        Ok((id, report))
    })
}
