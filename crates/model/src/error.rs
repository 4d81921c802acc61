use thiserror::Error;

use crate::options::OptionError;

/// Why a move was refused. The message is shown to the player as is, so it
/// names the rule or the part of the input that is wrong.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text is not a move of this game (`"QQQ" is not a chunk: use only A, C, G, T`).
    #[error("{0}")]
    Malformed(String),
    /// Well-formed but against a rule of the game; the text names the rule.
    #[error("{0}")]
    Illegal(String),
    /// It is not this player's turn.
    #[error("it is not your turn{0}")]
    NotYourTurn(String),
    /// The game is over.
    #[error("the game is over")]
    GameOver,
}

impl MoveError {
    /// A malformed-input error.
    pub fn malformed(msg: impl Into<String>) -> Self {
        MoveError::Malformed(msg.into())
    }

    /// A rule violation.
    pub fn illegal(msg: impl Into<String>) -> Self {
        MoveError::Illegal(msg.into())
    }
}

/// Why a game could not be set up (bad options or player count).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SetupError {
    /// An option is unknown, malformed or out of range.
    #[error(transparent)]
    Option(#[from] OptionError),
    /// Options that are each valid but contradict each other; the text names them.
    #[error("{0}")]
    Contradiction(String),
    /// Too few or too many players.
    #[error("{game} needs {min} to {max} players, not {given}")]
    PlayerCount {
        /// The game's title.
        game: &'static str,
        /// Fewest players.
        min: usize,
        /// Most players.
        max: usize,
        /// How many were given.
        given: usize,
    },
    /// The same user listed twice.
    #[error("{0} is listed twice")]
    DuplicatePlayer(String),
}

/// A stored record that does not replay: corrupted or written by an
/// incompatible version. Never caused by player input.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReplayError {
    /// The kind of game is not known to this build.
    #[error("unknown game kind {0:?}")]
    UnknownKind(String),
    /// The record's setup is invalid.
    #[error("record setup: {0}")]
    Setup(#[from] SetupError),
    /// Event `index` was refused on replay.
    #[error("event {index} does not replay: {error}")]
    Event {
        /// Position of the event in the record.
        index: usize,
        /// Why the game refused it.
        error: MoveError,
    },
}
