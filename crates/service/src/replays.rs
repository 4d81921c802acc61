//! Replayed games kept in memory, so that a move or a view does not replay
//! a game's whole record each time. The cache is bounded by the bytes its
//! games hold ([`Game::memory`]), not by their number: a game's size ranges
//! from a few KiB (a DNA game) to tens of MiB (a Rewrite game whose string
//! reached `-max_length`), so a bound by count left memory unbounded. The
//! game used least recently makes room.

use std::sync::Arc;

use hashlink::LruCache;
use tabula_model::Game;

/// What the cache holds at most unless told otherwise: the games in play
/// of a server with a thousand of them at once, at tens of KiB each (an
/// Intervalo game of 64 moves with its history put into words holds about
/// 40 KiB), with room to spare. Past its working set, a larger budget only
/// keeps games nobody is playing.
pub const DEFAULT_BUDGET: usize = 48 << 20;

struct Entry {
    version: i64,
    game: Arc<Game>,
    bytes: usize,
}

/// Replayed games by board, with the version each is at.
pub(crate) struct Replays {
    games: LruCache<i64, Entry>,
    bytes: usize,
    budget: usize,
}

impl Replays {
    /// An empty cache holding at most `budget` bytes of games.
    pub(crate) fn new(budget: usize) -> Self {
        Replays { games: LruCache::new_unbounded(), bytes: 0, budget }
    }

    /// The game of `board` if it is cached at `version` (now the most
    /// recently used).
    pub(crate) fn current(&mut self, board: i64, version: i64) -> Option<&Arc<Game>> {
        self.games.get(&board).filter(|e| e.version == version).map(|e| &e.game)
    }

    /// The version `board` is cached at, if it is.
    pub(crate) fn version(&self, board: i64) -> Option<i64> {
        self.games.peek(&board).map(|e| e.version)
    }

    /// Take `board`'s game out of the cache.
    pub(crate) fn remove(&mut self, board: i64) -> Option<Arc<Game>> {
        let e = self.games.remove(&board)?;
        self.bytes -= e.bytes;
        Some(e.game)
    }

    /// Cache `game` as `board` at `version`, dropping the games used least
    /// recently until it fits. A game larger than the whole budget is not
    /// kept.
    pub(crate) fn insert(&mut self, board: i64, version: i64, game: Arc<Game>) {
        self.remove(board);
        let bytes = game.memory();
        if bytes > self.budget {
            return;
        }
        while self.bytes + bytes > self.budget {
            match self.games.remove_lru() {
                Some((_, e)) => self.bytes -= e.bytes,
                None => break,
            }
        }
        self.bytes += bytes;
        self.games.insert(board, Entry { version, game, bytes });
    }

    /// The bytes the cached games hold, and how many games there are.
    pub(crate) fn size(&self) -> (usize, usize) {
        (self.bytes, self.games.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_model::Options;

    fn game(kind: &str, options: &[&str]) -> Arc<Game> {
        let kind = tabula_games::find(kind).unwrap();
        let options: Vec<String> = options.iter().map(|o| o.to_string()).collect();
        let options = Options::parse(kind.info(), &options).unwrap();
        Arc::new(Game::create(kind, options, vec!["ann".into(), "bob".into()], 7, 0).unwrap())
    }

    #[test]
    fn the_cache_is_bounded_by_bytes_and_drops_the_least_recently_used() {
        let small = game("dna", &[]);
        let size = small.memory();
        assert!(size > 0);
        let mut cache = Replays::new(size * 3);
        for board in 1..=3 {
            cache.insert(board, 1, small.clone());
        }
        assert_eq!(cache.size(), (size * 3, 3));
        assert!(cache.current(1, 1).is_some(), "board 1 is now the most recently used");
        assert!(cache.current(1, 2).is_none(), "another version is not current");
        cache.insert(4, 1, small.clone());
        assert_eq!(cache.size(), (size * 3, 3));
        assert!(cache.version(2).is_none(), "the least recently used made room");
        assert!(cache.version(1).is_some() && cache.version(3).is_some() && cache.version(4).is_some());
        cache.insert(4, 2, small.clone());
        assert_eq!((cache.size(), cache.version(4)), ((size * 3, 3), Some(2)), "replaced, not added");
        assert!(cache.remove(4).is_some());
        assert_eq!(cache.size(), (size * 2, 2));
        let mut tiny = Replays::new(size - 1);
        tiny.insert(1, 1, small);
        assert_eq!(tiny.size(), (0, 0), "a game larger than the budget is not kept");
    }
}
