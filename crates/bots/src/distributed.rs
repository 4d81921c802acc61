//! Tournaments beyond one machine: [`run_distributed`] offers a
//! tournament's games as rows of the PostgreSQL database, and any number
//! of [`Worker`]s, on any machines, claim them one at a time
//! (`FOR UPDATE SKIP LOCKED`), play them and write the results back. A
//! claim is a lease the worker keeps renewing while it plays; the game of a
//! worker that dies is claimed again once its lease runs out. A game's
//! result depends only on the tournament's settings and the game's place in
//! the schedule, so a game played twice gives the same result.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use tabula_model::GameKind;
use tabula_service::store::{Store, StoreError};
use thiserror::Error;

use crate::process::BotUser;
use crate::tournament::{self, Progress, TournamentConfig, TournamentError, TournamentReport};
use crate::{GameResult, Heartbeat};

/// How often a worker with nothing to do looks for games.
const IDLE_POLL: Duration = Duration::from_millis(250);
/// How often [`run_distributed`] checks how many games are left.
const WAIT_POLL: Duration = Duration::from_millis(200);

/// Why a worker or a distributed tournament stopped.
#[derive(Debug, Error)]
pub enum DistributedError {
    /// The database failed (or is not one several processes share).
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The tournament's settings are refused, or a game cannot be played
    /// with them.
    #[error(transparent)]
    Tournament(#[from] TournamentError),
    /// A stored tournament cannot be played here; the text says why.
    #[error("tournament {tournament}: {why}")]
    Stored {
        /// The tournament's number.
        tournament: i64,
        /// What is wrong.
        why: String,
    },
    /// The thread playing a game panicked.
    #[error("tournament {tournament} game {index}: the game's thread panicked")]
    Panicked {
        /// The tournament's number.
        tournament: i64,
        /// The game's place in its schedule.
        index: i64,
    },
    /// A game result does not turn into JSON or back.
    #[error("a game result does not read: {0}")]
    Result(#[from] serde_json::Error),
    /// The workers were done with fewer games stored than the tournament has.
    #[error("the workers stored {stored} of the tournament's {total} games")]
    Incomplete {
        /// Games stored.
        stored: usize,
        /// Games in the tournament.
        total: usize,
    },
}

/// The milliseconds since 1970 on this machine's clock, which claims are
/// timed by.
fn wall_clock_ms() -> i64 {
    SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

/// One claim-play-store loop of a worker process.
#[derive(Clone, Debug)]
pub struct Worker {
    /// The name its claims are held under: unique among the workers.
    pub name: String,
    /// How long a claim holds without renewal; a game that makes no
    /// progress is not renewed.
    pub lease: Duration,
    /// The account bot programs run as, if not the worker's own.
    pub bot_user: Option<BotUser>,
    /// Stop when no game of any tournament is left to play.
    pub exit_when_idle: bool,
}

impl Worker {
    /// Claim, play and store games one at a time, until no game is left (if
    /// [`Worker::exit_when_idle`]) or for ever; returns the games played.
    ///
    /// # Errors
    ///
    /// The database failing, a tournament whose stored settings this
    /// worker cannot play, or a game that fails to be played.
    pub async fn run(&self, store: &Store) -> Result<usize, DistributedError> {
        let lease_ms = self.lease.as_millis() as i64;
        let mut configs: HashMap<i64, (TournamentConfig, &'static dyn GameKind)> = HashMap::new();
        let mut played = 0;
        loop {
            let now = wall_clock_ms();
            let Some(job) = store.claim_tournament_game(&self.name, now, now + lease_ms).await? else {
                if self.exit_when_idle && store.tournament_games_left(None).await? == 0 {
                    return Ok(played);
                }
                tokio::time::sleep(IDLE_POLL).await;
                continue;
            };
            let stored = |why: String| DistributedError::Stored { tournament: job.tournament, why };
            let (config, kind) = match configs.entry(job.tournament) {
                std::collections::hash_map::Entry::Occupied(e) => e.get().clone(),
                std::collections::hash_map::Entry::Vacant(e) => {
                    let mut config: TournamentConfig = serde_json::from_str(&job.config)
                        .map_err(|e| stored(format!("the stored settings do not read: {e}")))?;
                    // Who bots run as is this machine's choice, not the tournament's.
                    config.limits.user = self.bot_user.clone();
                    let kind = tabula_games::find(&config.game)
                        .ok_or_else(|| stored(format!("no game {:?}", config.game)))?;
                    e.insert((config, kind)).clone()
                }
            };
            let index = usize::try_from(job.index).map_err(|_| stored("a negative game number".into()))?;
            let heartbeat = Arc::new(Heartbeat::new());
            let stall_limit = tournament::referee_settings(&config, None).stall_limit();
            let beats = Arc::clone(&heartbeat);
            let mut game =
                tokio::task::spawn_blocking(move || tournament::play_one(&config, kind, index, Some(beats)));
            // Keep the claim while the game makes progress; a game stuck for
            // longer than any bot may rightly take is left to its lease, so
            // that another worker can play it.
            let result = loop {
                tokio::select! {
                    finished = &mut game => break finished.map_err(|_| DistributedError::Panicked {
                        tournament: job.tournament,
                        index: job.index,
                    })?,
                    _ = tokio::time::sleep(self.lease / 3) => {
                        let quiet = heartbeat.quiet_for();
                        if quiet > stall_limit {
                            tracing::warn!(
                                tournament = job.tournament, game = job.index, quiet_ms = quiet.as_millis() as u64,
                                "the game makes no progress; its claim is left to run out"
                            );
                        } else if !store.renew_tournament_game(&job, &self.name, wall_clock_ms() + lease_ms).await? {
                            tracing::warn!(tournament = job.tournament, game = job.index, "claim lost; finishing anyway");
                        }
                    }
                }
            };
            let result = result.map_err(|e| stored(format!("game {}: {e}", job.index)))?;
            store.finish_tournament_game(&job, &serde_json::to_string(&result)?).await?;
            played += 1;
        }
    }
}

/// Run a tournament on the workers: offer the games not yet played to them,
/// wait until they are all done (reporting progress), and build the report
/// from the stored results, as a tournament on this machine would. Returns
/// the tournament's number with its report.
///
/// # Errors
///
/// Settings that are refused, the database failing (or being SQLite), or
/// fewer results stored than the tournament has games.
pub async fn run_distributed(
    store: &Store,
    config: &TournamentConfig,
    kind: &'static dyn GameKind,
    progress: &dyn Fn(Progress),
) -> Result<(i64, TournamentReport), DistributedError> {
    tournament::check_config(config, kind)?;
    let played = tournament::effective_config(config, kind);
    let plan = tournament::schedule(config.bots.len(), config.players, config.games_per_pair, config.seed);
    let fingerprint = crate::store::fingerprint(config).to_string();
    let full = serde_json::to_string(config)?;
    let started = Instant::now();
    let id = store.open_tournament(&fingerprint, &config.game, &full, wall_clock_ms()).await?;
    let finished = |rows: Vec<String>| -> Result<BTreeMap<usize, GameResult>, DistributedError> {
        let mut out = BTreeMap::new();
        for row in rows {
            let r: GameResult = serde_json::from_str(&row)?;
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
        return Err(DistributedError::Incomplete { stored: games.len(), total });
    }
    let names = tournament::unique_names(&config.bots);
    let report = tournament::build_report(&played, names, games.into_values().collect(), started.elapsed());
    Ok((id, report))
}
