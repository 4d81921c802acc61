//! Loading a game: the replay cache, the replay itself, and catching
//! up its clock.

use std::sync::Arc;

use tabula_model::{Event, Game, GameKind, Viewer};

use crate::error::{CommandError, ErrorCode};
use crate::store::{GameStatus, StoreError, StoredGame};

use super::boards::wrong_kind;
use super::{CLOCK_CATCH_UP, Loaded, Mail, Service, internal};

impl Service {
    /// Load a game, replaying its record (or using the cached replay), and
    /// catch up its clock.
    pub(super) async fn load(&self, board: i64) -> Result<Loaded, CommandError> {
        self.load_as(board, false).await
    }

    /// [`Service::load`] for a change: the cached replay is taken out of the
    /// cache rather than copied (a game's copy, and the old version's drop
    /// when the new one is cached, were about 7% of a move's server time
    /// in a profile under load). The
    /// commit caches the changed game; a change refused before it touched
    /// the game puts it back (see [`Service::put_back`]).
    pub(super) async fn load_to_change(&self, board: i64) -> Result<Loaded, CommandError> {
        self.load_as(board, true).await
    }

    /// Cache `game` again, unchanged at `version`, unless a newer one is
    /// cached meanwhile.
    pub(super) fn put_back(&self, board: i64, version: i64, game: Arc<Game>) {
        let mut cache = self.cache.lock().expect("cache lock");
        if cache.version(board).is_none_or(|v| v < version) {
            cache.insert(board, version, game);
        }
    }

    pub(super) async fn load_as(&self, board: i64, take: bool) -> Result<Loaded, CommandError> {
        let no_board = || {
            CommandError::says(
                ErrorCode::UnknownBoard,
                tabula_i18n::msg!("error-no-board", board = board.to_string()),
            )
        };
        // The summary alone tells whether the cached replay is current; the
        // events are read only to replay.
        let mut head = self.store.game_head(board).await?.ok_or_else(no_board)?;
        let mail = Mail::of(&mut head);
        let cached = {
            let mut cache = self.cache.lock().expect("cache lock");
            match (cache.current(board, head.summary.version).cloned(), take) {
                (Some(_), true) => cache.remove(board),
                (game, _) => game,
            }
        };
        let (mut game, stored) = match cached {
            Some(g) => {
                let record = g.record();
                let stored = StoredGame {
                    options: record.options.clone(),
                    seed: record.seed,
                    created: record.created,
                    initial_players: record.players.clone(),
                    // The events are in the game's record; only a replay reads these.
                    events: Vec::new(),
                    summary: head.summary,
                    accepted: head.accepted,
                    bot_accounts: head.bot_accounts,
                };
                (g, stored)
            }
            None => {
                let stored = self.store.game(board).await?.ok_or_else(no_board)?;
                let kind = tabula_games::find(&stored.summary.kind)
                    .ok_or_else(|| internal(&format!("unknown kind {}", stored.summary.kind)))?;
                let record = tabula_model::Record {
                    kind: stored.summary.kind.clone(),
                    options: stored.options.clone(),
                    players: stored.initial_players.clone(),
                    seed: stored.seed,
                    created: stored.created,
                    events: stored.events.clone(),
                };
                if let Some(metrics) = crate::metrics::kept() {
                    metrics.replays.inc();
                }
                let g =
                    Arc::new(self.heavy(move || Game::replay(kind, record).map_err(|e| internal(&e))).await?);
                // A change caches the game it makes (or puts this one back).
                if !take {
                    self.remember(board, stored.summary.version, Arc::clone(&g));
                }
                (g, stored)
            }
        };
        let mut stored = stored;
        // Catch up every due clock event, in bounded steps, before anything else.
        while stored.summary.status == GameStatus::Active
            && !game.is_over()
            && game.state().next_clock().is_some_and(|t| t <= self.now())
        {
            let version = stored.summary.version;
            let before = game.record().events.len();
            let history_before = game.history_len();
            if let Some(due) = game.state().next_clock() {
                let late_ms = (self.now() - due).max(0);
                if let Some(metrics) = crate::metrics::kept() {
                    metrics.clock_lag_seconds.observe(late_ms as f64 / 1000.0);
                }
            }
            Arc::make_mut(&mut game).advance_clock(self.now(), CLOCK_CATCH_UP);
            let events: Vec<Event> = game.record().events[before..].to_vec();
            if events.is_empty() {
                break;
            }
            // Only the lines the catch-up added are put into words.
            let added = game.history_from(Viewer::Observer, history_before, tabula_model::Lang::En);
            // Boxed: only games on the clock come here, and a move's future
            // (every request's) would otherwise carry a commit's room.
            let committed = Box::pin(self.commit(
                game,
                &stored,
                &mail,
                version,
                events,
                &added,
                None,
                Vec::new(),
                super::Round::default(),
            ));
            match committed.await {
                Ok((g, s)) => {
                    game = g;
                    stored = s;
                }
                // Someone else caught the clock up first: theirs is the record.
                Err(StoreError::Conflict) => {
                    self.forget(board);
                    return Box::pin(self.load(board)).await;
                }
                Err(e) => return Err(e.into()),
            }
        }
        Ok(Loaded { game, stored, mail })
    }

    pub(super) async fn load_kind(
        &self,
        kind: &'static dyn GameKind,
        board: i64,
    ) -> Result<Loaded, CommandError> {
        let loaded = self.load(board).await?;
        if loaded.stored.summary.kind != kind.info().kind {
            return Err(wrong_kind(board, &loaded.stored.summary.kind));
        }
        Ok(loaded)
    }

    pub(super) async fn check_kind(
        &self,
        kind: &'static dyn GameKind,
        board: i64,
    ) -> Result<(), CommandError> {
        self.load_kind(kind, board).await.map(|_| ())
    }

    /// Cache `game` at `version`; the game used least recently makes room.
    pub(super) fn remember(&self, board: i64, version: i64, game: Arc<Game>) {
        // Not an arbitrary game: with more games stored than the cache
        // holds, the games being played were then dropped as often as the
        // idle ones, and replayed from their events again and again.
        self.cache.lock().expect("cache lock").insert(board, version, game);
    }

    /// The bytes the cached games hold, and how many there are.
    pub(crate) fn cache_size(&self) -> (usize, usize) {
        self.cache.lock().expect("cache lock").size()
    }

    pub(super) fn forget(&self, board: i64) {
        self.cache.lock().expect("cache lock").remove(board);
    }

    /// Run CPU-heavy `work` (a replay, a long view) on the blocking pool,
    /// at most as many at once as there are processors, so that the async
    /// workers stay free to answer everyone else. A process that runs one
    /// command (on a runtime of one thread) runs it in place: it has no one
    /// else to answer, and a thread of the pool would cost it more than
    /// most replays.
    pub(super) async fn heavy<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> Result<T, CommandError> + Send + 'static,
    ) -> Result<T, CommandError> {
        let _permit = self.heavy.acquire().await.map_err(|e| internal(&e))?;
        if tokio::runtime::Handle::current().runtime_flavor() == tokio::runtime::RuntimeFlavor::CurrentThread
        {
            return work();
        }
        tokio::task::spawn_blocking(work).await.map_err(|e| internal(&e))?
    }

    /// The replayed game and its version (for the scheduler).
    pub(crate) async fn snapshot_game(&self, board: i64) -> Result<(Arc<Game>, i64), CommandError> {
        let loaded = self.load(board).await?;
        Ok((loaded.game, loaded.stored.summary.version))
    }
}
