//! Where a tournament keeps finished games, so an interrupted tournament
//! resumes where it stopped.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde_json::Value;
use thiserror::Error;

use crate::referee::GameResult;
use crate::tournament::TournamentConfig;

/// A store that cannot be used.
#[derive(Debug, Error)]
pub enum StoreError {
    /// Reading or writing failed.
    #[error("tournament store {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// The store holds another tournament.
    #[error(
        "tournament store {0} holds a different tournament (game, options, bots, games per pair, players, seed, view or time limits differ)"
    )]
    Mismatch(String),
    /// A line is not a game result.
    #[error("tournament store {path}, line {line}: {problem}")]
    Corrupt {
        /// The file.
        path: String,
        /// The line number.
        line: usize,
        /// What is wrong.
        problem: String,
    },
    /// Any other backend's error, in words.
    #[error("tournament store: {0}")]
    Backend(String),
}

/// Where finished games of one tournament are kept. The runner calls
/// [`TournamentStore::load`] once before playing, then
/// [`TournamentStore::save`] for each game as it finishes (from one thread).
pub trait TournamentStore {
    /// The games of this tournament already finished (any order). A store
    /// holding a different tournament must refuse with
    /// [`StoreError::Mismatch`] rather than mix results.
    fn load(&mut self, config: &TournamentConfig) -> Result<Vec<GameResult>, StoreError>;

    /// Keep one finished game durably before the next is reported done.
    fn save(&mut self, result: &GameResult) -> Result<(), StoreError>;
}

/// No persistence: results live only for the run.
#[derive(Debug, Default)]
pub struct MemoryStore {
    /// The games saved so far.
    pub games: Vec<GameResult>,
}

impl TournamentStore for MemoryStore {
    fn load(&mut self, _config: &TournamentConfig) -> Result<Vec<GameResult>, StoreError> {
        Ok(self.games.clone())
    }

    fn save(&mut self, result: &GameResult) -> Result<(), StoreError> {
        self.games.push(result.clone());
        Ok(())
    }
}

/// A JSON-lines file: a header line naming the tournament, then one game
/// result per line, appended and flushed as each game finishes. A line cut
/// short by an interruption is dropped on the next load.
#[derive(Debug)]
pub struct JsonlStore {
    path: PathBuf,
    file: Option<File>,
}

impl JsonlStore {
    /// A store in `path` (created on first load if missing).
    pub fn new(path: impl AsRef<Path>) -> JsonlStore {
        JsonlStore { path: path.as_ref().to_path_buf(), file: None }
    }

    fn io(&self, source: std::io::Error) -> StoreError {
        StoreError::Io { path: self.path.display().to_string(), source }
    }
}

/// What identifies a tournament: everything that decides its games.
pub fn fingerprint(config: &TournamentConfig) -> Value {
    serde_json::json!({
        "game": config.game,
        "options": config.options,
        "bots": config.bots.iter().map(|b| b.name()).collect::<Vec<_>>(),
        "games_per_pair": config.games_per_pair,
        "players": config.players,
        "seed": config.seed,
        "view": config.view,
        "move_time_ms": config.move_time.as_millis() as u64,
        "game_time_ms": config.game_time.as_millis() as u64,
    })
}

impl TournamentStore for JsonlStore {
    fn load(&mut self, config: &TournamentConfig) -> Result<Vec<GameResult>, StoreError> {
        let header = serde_json::json!({ "tournament": fingerprint(config) });
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(&self.path)
            .map_err(|e| self.io(e))?;
        let mut results = Vec::new();
        let mut good_len: u64 = 0;
        let mut reader = BufReader::new(&file);
        let mut line = String::new();
        let mut number = 0;
        loop {
            line.clear();
            let read = reader.read_line(&mut line).map_err(|e| self.io(e))?;
            if read == 0 {
                break;
            }
            number += 1;
            if !line.ends_with('\n') {
                // Cut short by an interruption: dropped below.
                break;
            }
            if number == 1 {
                let found: Value = serde_json::from_str(&line).map_err(|e| StoreError::Corrupt {
                    path: self.path.display().to_string(),
                    line: 1,
                    problem: e.to_string(),
                })?;
                if found != header {
                    return Err(StoreError::Mismatch(self.path.display().to_string()));
                }
            } else {
                let result: GameResult = serde_json::from_str(&line).map_err(|e| StoreError::Corrupt {
                    path: self.path.display().to_string(),
                    line: number,
                    problem: e.to_string(),
                })?;
                results.push(result);
            }
            good_len += read as u64;
        }
        drop(reader);
        if file.metadata().map_err(|e| self.io(e))?.len() != good_len {
            file.set_len(good_len).map_err(|e| self.io(e))?;
        }
        file.seek(SeekFrom::End(0)).map_err(|e| self.io(e))?;
        if good_len == 0 {
            writeln!(file, "{header}").map_err(|e| self.io(e))?;
            file.sync_data().map_err(|e| self.io(e))?;
        }
        self.file = Some(file);
        Ok(results)
    }

    fn save(&mut self, result: &GameResult) -> Result<(), StoreError> {
        let line = serde_json::to_string(result).map_err(|e| StoreError::Backend(e.to_string()))?;
        let Some(file) = self.file.as_mut() else {
            return Err(StoreError::Backend("save before load".into()));
        };
        let written = writeln!(file, "{line}").and_then(|()| file.flush());
        written.map_err(|e| self.io(e))
    }
}
