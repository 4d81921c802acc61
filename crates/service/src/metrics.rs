//! What `/metrics` shows, in the Prometheus text format: counters and
//! histograms kept as things happen (requests, moves, commits, clock lag),
//! and gauges read from the database when scraped (games by status, the
//! outbox's backlog).
//!
//! One registry per process: the figures are the process's own, as
//! Prometheus expects of each target, so several servers sharing a
//! PostgreSQL database are scraped one by one and summed by the query.
//! The gauges read from the database are the same on every one of them.

use std::sync::OnceLock;

use prometheus::{
    Encoder, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts,
    Registry, TextEncoder,
};

use crate::Service;
use crate::store::{GameFilter, GameStatus, StoreError};

/// The content type of [`render`]'s text.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Every figure this process keeps.
pub struct Metrics {
    registry: Registry,
    /// HTTP requests answered, by route (the pattern, never the raw path),
    /// method and status.
    pub requests: IntCounterVec,
    /// Time to answer an HTTP request, by route.
    pub request_seconds: HistogramVec,
    /// Moves made (by players, bots and queued moves), durably committed.
    pub moves: IntCounter,
    /// Time from asking the store to append a game's events to their
    /// durable commit, as a command waits for it.
    pub commit_seconds: Histogram,
    /// Writes made durable together (moves and every other write, by one
    /// sync of SQLite's log; one append each on PostgreSQL).
    pub commit_batch_size: Histogram,
    /// Time to make one batch durable (the log's sync; on PostgreSQL, the
    /// append's transaction).
    pub commit_batch_seconds: Histogram,
    /// How late a due clock event (a Real-Time Life tick, a generation)
    /// was applied.
    pub clock_lag_seconds: Histogram,
    /// Games replayed from their stored records: loads the replay cache
    /// could not answer.
    pub replays: IntCounter,
    games: IntGaugeVec,
    replay_cache_bytes: IntGauge,
    replay_cache_games: IntGauge,
    outbox_waiting: IntGauge,
    outbox_oldest_seconds: IntGauge,
    bot_processes: IntGauge,
}

fn histogram(name: &str, help: &str, buckets: &[f64]) -> Histogram {
    Histogram::with_opts(HistogramOpts::new(name, help).buckets(buckets.to_vec())).expect("a valid histogram")
}

/// Seconds from half a millisecond to ten seconds.
const LATENCY_BUCKETS: &[f64] =
    &[0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

impl Metrics {
    fn new() -> Metrics {
        let requests = IntCounterVec::new(
            Opts::new("tabula_http_requests_total", "HTTP requests answered, by route, method and status"),
            &["route", "method", "status"],
        )
        .expect("a valid counter");
        let request_seconds = HistogramVec::new(
            HistogramOpts::new(
                "tabula_http_request_duration_seconds",
                "Time to answer an HTTP request, by route",
            )
            .buckets(LATENCY_BUCKETS.to_vec()),
            &["route"],
        )
        .expect("a valid histogram");
        let moves =
            IntCounter::new("tabula_moves_total", "Moves durably committed (players, bots and queued moves)")
                .expect("a valid counter");
        let commit_seconds = histogram(
            "tabula_commit_duration_seconds",
            "Time from a game's append to its durable commit",
            LATENCY_BUCKETS,
        );
        let commit_batch_size = histogram(
            "tabula_commit_batch_size",
            "Writes made durable together by one commit",
            &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0],
        );
        let commit_batch_seconds = histogram(
            "tabula_commit_batch_duration_seconds",
            "Time to make one batch of writes durable",
            LATENCY_BUCKETS,
        );
        let clock_lag_seconds = histogram(
            "tabula_clock_lag_seconds",
            "How late a due clock event was applied",
            &[0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0, 3600.0],
        );
        let games =
            IntGaugeVec::new(Opts::new("tabula_games", "Games in the database, by status"), &["status"])
                .expect("a valid gauge");
        let outbox_waiting =
            IntGauge::new("tabula_outbox_messages_waiting", "Outgoing messages neither sent nor given up")
                .expect("a valid gauge");
        let outbox_oldest_seconds = IntGauge::new(
            "tabula_outbox_oldest_message_age_seconds",
            "Age of the oldest outgoing message waiting (0 when none waits)",
        )
        .expect("a valid gauge");
        let bot_processes = IntGauge::new("tabula_bot_processes", "Bot programs this process is running")
            .expect("a valid gauge");
        let replays = IntCounter::new(
            "tabula_replays_total",
            "Games replayed from their stored records (loads the replay cache did not hold)",
        )
        .expect("a valid counter");
        let replay_cache_bytes =
            IntGauge::new("tabula_replay_cache_bytes", "Bytes the replayed games kept in memory hold")
                .expect("a valid gauge");
        let replay_cache_games = IntGauge::new("tabula_replay_cache_games", "Replayed games kept in memory")
            .expect("a valid gauge");
        let registry = Registry::new();
        let collectors: Vec<Box<dyn prometheus::core::Collector>> = vec![
            Box::new(requests.clone()),
            Box::new(request_seconds.clone()),
            Box::new(moves.clone()),
            Box::new(commit_seconds.clone()),
            Box::new(commit_batch_size.clone()),
            Box::new(commit_batch_seconds.clone()),
            Box::new(clock_lag_seconds.clone()),
            Box::new(games.clone()),
            Box::new(outbox_waiting.clone()),
            Box::new(outbox_oldest_seconds.clone()),
            Box::new(bot_processes.clone()),
            Box::new(replays.clone()),
            Box::new(replay_cache_bytes.clone()),
            Box::new(replay_cache_games.clone()),
        ];
        for c in collectors {
            registry.register(c).expect("metric names are unique");
        }
        Metrics {
            registry,
            requests,
            request_seconds,
            moves,
            commit_seconds,
            commit_batch_size,
            commit_batch_seconds,
            clock_lag_seconds,
            replays,
            games,
            replay_cache_bytes,
            replay_cache_games,
            outbox_waiting,
            outbox_oldest_seconds,
            bot_processes,
        }
    }
}

static METRICS: OnceLock<Metrics> = OnceLock::new();

/// This process's figures, kept from now on: a process that shows them
/// (the server, at `/metrics`) asks for them before it starts.
pub fn keep() -> &'static Metrics {
    METRICS.get_or_init(Metrics::new)
}

/// This process's figures, if it keeps them (see [`keep`]). A process that
/// runs one command has no one to show them to, and building the registry
/// of every figure cost it more page faults than its command's own reads.
pub fn kept() -> Option<&'static Metrics> {
    METRICS.get()
}

impl Service {
    /// Whether the database answers a query: what `/healthz` reports.
    pub async fn check_database(&self) -> Result<(), StoreError> {
        let filter = GameFilter { limit: 1, ..Default::default() };
        self.store().count_games(&filter).await.map(drop)
    }

    /// Every figure in the Prometheus text format, the gauges read from the
    /// database now; `bot_processes` is the bot programs this process runs.
    pub async fn render_metrics(&self, bot_processes: usize) -> Result<String, StoreError> {
        let m = keep();
        for status in [GameStatus::Proposed, GameStatus::Active, GameStatus::Finished, GameStatus::Cancelled]
        {
            let filter = GameFilter { statuses: vec![status], limit: i64::MAX, ..Default::default() };
            let n = self.store().count_games(&filter).await?;
            m.games.with_label_values(&[status.as_str()]).set(i64::try_from(n).unwrap_or(i64::MAX));
        }
        let (waiting, oldest) = self.store().mail().outbox_backlog().await?;
        m.outbox_waiting.set(waiting);
        let age_ms = oldest.map_or(0, |t| (self.now() - t).max(0));
        m.outbox_oldest_seconds.set(age_ms / 1000);
        m.bot_processes.set(i64::try_from(bot_processes).unwrap_or(i64::MAX));
        let (bytes, games) = self.cache_size();
        m.replay_cache_bytes.set(i64::try_from(bytes).unwrap_or(i64::MAX));
        m.replay_cache_games.set(i64::try_from(games).unwrap_or(i64::MAX));
        let mut text = Vec::new();
        TextEncoder::new()
            .encode(&m.registry.gather(), &mut text)
            .map_err(|e| StoreError::Failed(format!("writing the metrics: {e}")))?;
        String::from_utf8(text).map_err(|e| StoreError::Failed(format!("writing the metrics: {e}")))
    }
}
