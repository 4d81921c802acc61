//! `tabula worker`: the options of a worker process and its threads; the
//! claim-play-store loop is [`tabula_bots::distributed::Worker`].

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;
use tabula_bots::distributed::Worker;

use tabula_i18n::t;

use crate::cli::Global;
use crate::help::lang;

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

/// The longest lease a worker may ask for.
const MAX_LEASE_SECONDS: u64 = 86_400;

/// `tabula worker`.
pub fn run(global: &Global, args: WorkerArgs) -> Result<ExitCode> {
    let threads =
        args.threads.map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), usize::from);
    let lease = Duration::from_secs(args.lease);
    let exit_when_idle = args.exit_when_idle;
    let bot_user = args.bot_user;
    if !tabula_service::store::is_postgres_url(&global.db) {
        eprintln!("tabula: {}", t!(lang(), "op-worker-needs-postgres"));
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
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .with_context(|| t!(lang(), "op-starting-runtime"))?;
    rt.block_on(async {
        let store = tabula_service::store::open(&global.db, tabula_service::store::Clients::Many)
            .await
            .with_context(|| t!(lang(), "op-opening-database", db = crate::cli::db_name(&global.db)))?;
        let name =
            format!("worker-{}-{:08x}", std::process::id(), chrono::Utc::now().timestamp_subsec_nanos());
        let mut loops = Vec::new();
        for n in 0..threads {
            let worker =
                Worker { name: format!("{name}.{n}"), lease, bot_user: bot_user.clone(), exit_when_idle };
            let store = store.clone();
            loops.push(tokio::spawn(async move { worker.run(&store).await }));
        }
        let mut played = 0;
        for l in loops {
            played += l.await.with_context(|| t!(lang(), "op-worker-thread-failed"))??;
        }
        eprintln!("tabula: {}", t!(lang(), "op-worker-played", games = played));
        Ok(ExitCode::SUCCESS)
    })
}
