use tabula_i18n::{Message, msg};
use thiserror::Error;

use crate::options::OptionError;

/// Why a move was refused. The message names the rule or the part of the
/// input that is wrong; it is a catalogue message (an id with its
/// arguments, see [`Message`]), put into words by whoever shows it, in its
/// reader's language. `Display` gives the English.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text is not a move of this game (`"QQQ" is not a chunk: use only A, C, G, T`).
    #[error("{0}")]
    Malformed(Message),
    /// Well-formed but against a rule of the game; the message names the rule.
    #[error("{0}")]
    Illegal(Message),
    /// It is not this player's turn (see [`MoveError::not_your_turn`]).
    #[error("{0}")]
    NotYourTurn(Message),
    /// The game is over.
    #[error("{}", self.message())]
    GameOver,
}

impl MoveError {
    /// A malformed-input error saying `message` (a catalogue message; a
    /// plain text is shown as it is in every language).
    pub fn malformed(message: impl Into<Message>) -> Self {
        MoveError::Malformed(message.into())
    }

    /// A rule violation saying `message` (see [`MoveError::malformed`]).
    pub fn illegal(message: impl Into<Message>) -> Self {
        MoveError::Illegal(message.into())
    }

    /// It is not this player's turn but `next`'s (empty when it is no
    /// single player's).
    pub fn not_your_turn(next: &str) -> Self {
        MoveError::NotYourTurn(if next.is_empty() {
            msg!("move-error-not-your-turn")
        } else {
            msg!("move-error-not-your-turn-next", user = next)
        })
    }

    /// What the error says, to put into its reader's language.
    pub fn message(&self) -> Message {
        match self {
            MoveError::Malformed(m) | MoveError::Illegal(m) | MoveError::NotYourTurn(m) => m.clone(),
            MoveError::GameOver => msg!("move-error-game-over"),
        }
    }
}

/// Why a game could not be set up (bad options or player count).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SetupError {
    /// An option is unknown, malformed or out of range.
    #[error(transparent)]
    Option(#[from] OptionError),
    /// Options that are each valid but contradict each other; the message
    /// names them.
    #[error("{0}")]
    Contradiction(Message),
    /// Too few or too many players.
    #[error("{}", self.message())]
    PlayerCount {
        /// The game's command word (its title is the catalogue's `KIND-title`).
        game: &'static str,
        /// Fewest players.
        min: usize,
        /// Most players.
        max: usize,
        /// How many were given.
        given: usize,
    },
    /// The same user listed twice.
    #[error("{}", self.message())]
    DuplicatePlayer(String),
}

impl SetupError {
    /// Options that contradict each other, as `message` says.
    pub fn contradiction(message: impl Into<Message>) -> Self {
        SetupError::Contradiction(message.into())
    }

    /// What the error says, to put into its reader's language.
    pub fn message(&self) -> Message {
        match self {
            SetupError::Option(e) => e.message(),
            SetupError::Contradiction(m) => m.clone(),
            SetupError::PlayerCount { game, min, max, given } => msg!(
                "setup-error-player-count",
                game = game_title(game),
                min = *min,
                max = *max,
                given = *given
            ),
            SetupError::DuplicatePlayer(user) => msg!("setup-error-duplicate-player", user = user),
        }
    }
}

/// A game's title in the language its message is put into: the
/// catalogue's `KIND-title`, or the command word of a game without one.
pub(crate) fn game_title(kind: &str) -> tabula_i18n::Arg {
    let id = format!("{kind}-title");
    if tabula_i18n::has_message(&id) {
        tabula_i18n::Arg::fixed(id)
    } else {
        tabula_i18n::Arg::Text(kind.to_string())
    }
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
