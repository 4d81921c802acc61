use serde::Serialize;
use tabula_i18n::Message;
use tabula_model::Lang;
use thiserror::Error;

use crate::store::StoreError;

/// A stable error code, shared by every front end (the HTTP API returns it
/// as `code`, the CLI's `--json` too, and documents it by this type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The command's words do not fit its syntax.
    Usage,
    /// No such command or game.
    UnknownCommand,
    /// No such user.
    UnknownUser,
    /// The password does not match (or too many recent failures).
    WrongPassword,
    /// No such board.
    UnknownBoard,
    /// The user is not a player of that board.
    NotAPlayer,
    /// Not this player's turn.
    NotYourTurn,
    /// The move text does not parse.
    MalformedMove,
    /// The move breaks a rule of the game.
    IllegalMove,
    /// The game is over.
    GameOver,
    /// A `#moveno` guard did not match: the board moved on.
    StaleMove,
    /// A challenge option is bad.
    BadOption,
    /// The user id is taken.
    UserExists,
    /// A value (user id, password, address) is malformed.
    BadValue,
    /// The request is refused by a user's or the system's policy or limits.
    Refused,
    /// The request needs an identity it did not prove (a challenge over
    /// the network without logging in).
    Unauthorized,
    /// Too many tries too fast (wrong passwords, challenges): wait and try
    /// again.
    TooManyRequests,
    /// Another request changed the game at the same moment; try again.
    Conflict,
    /// Something went wrong inside; nothing was changed.
    Internal,
}

impl ErrorCode {
    /// The code as text.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::Usage => "usage",
            ErrorCode::UnknownCommand => "unknown_command",
            ErrorCode::UnknownUser => "unknown_user",
            ErrorCode::WrongPassword => "wrong_password",
            ErrorCode::UnknownBoard => "unknown_board",
            ErrorCode::NotAPlayer => "not_a_player",
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::MalformedMove => "malformed_move",
            ErrorCode::IllegalMove => "illegal_move",
            ErrorCode::GameOver => "game_over",
            ErrorCode::StaleMove => "stale_move",
            ErrorCode::BadOption => "bad_option",
            ErrorCode::UserExists => "user_exists",
            ErrorCode::BadValue => "bad_value",
            ErrorCode::Refused => "refused",
            ErrorCode::Unauthorized => "unauthorized",
            ErrorCode::TooManyRequests => "too_many_requests",
            ErrorCode::Conflict => "conflict",
            ErrorCode::Internal => "internal",
        }
    }
}

/// A rejected command: a stable code and a message for people.
#[derive(Clone, Debug, PartialEq, Eq, Error, Serialize)]
#[error("{message}")]
pub struct CommandError {
    /// What kind of failure.
    pub code: ErrorCode,
    /// The message shown to the user, in the reader's language once the
    /// service or the front end knows it (English until then, see
    /// [`CommandError::localized`]); it never contains a password.
    pub message: String,
    /// The message's catalogue entry, to put it into another language.
    #[serde(skip)]
    pub text: Option<Message>,
    /// The game kind the command was for, if known (mail subjects use it).
    #[serde(skip)]
    pub game: Option<&'static str>,
    /// For [`ErrorCode::TooManyRequests`]: seconds to wait before trying again.
    #[serde(skip)]
    pub retry_after: Option<u64>,
}

impl CommandError {
    /// An error with `code` and `message`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        CommandError { code, message: message.into(), text: None, game: None, retry_after: None }
    }

    /// An error with `code` saying the catalogue's `message`: in English
    /// until [`CommandError::localized`] puts it into the reader's language.
    pub fn says(code: ErrorCode, message: Message) -> Self {
        CommandError {
            code,
            message: message.render(Lang::En),
            text: Some(message),
            game: None,
            retry_after: None,
        }
    }

    /// The same error with its message in `lang` (an error made from a
    /// plain text keeps it).
    pub fn localized(mut self, lang: Lang) -> Self {
        if let Some(text) = &self.text {
            self.message = text.render(lang);
        }
        self
    }

    /// A syntax error, with the command's syntax in the message.
    pub fn usage(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Usage, message)
    }

    /// Too many tries: wait `seconds` (at least one) and try again.
    pub fn too_many(message: impl Into<String>, seconds: u64) -> Self {
        Self::new(ErrorCode::TooManyRequests, message).retrying_after(seconds)
    }

    /// [`CommandError::too_many`] saying the catalogue's `message`.
    pub fn too_many_says(message: Message, seconds: u64) -> Self {
        Self::says(ErrorCode::TooManyRequests, message).retrying_after(seconds)
    }

    fn retrying_after(mut self, seconds: u64) -> Self {
        self.retry_after = Some(seconds.max(1));
        self
    }

    /// Attach the game kind.
    pub fn for_game(mut self, game: &'static str) -> Self {
        self.game = Some(game);
        self
    }
}

impl From<StoreError> for CommandError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Conflict => {
                CommandError::says(ErrorCode::Conflict, tabula_i18n::msg!("error-conflict"))
            }
            other => {
                tracing::error!(error = %other, "storage failure");
                CommandError::says(ErrorCode::Internal, tabula_i18n::msg!("error-storage"))
            }
        }
    }
}

impl From<tabula_model::MoveError> for CommandError {
    fn from(e: tabula_model::MoveError) -> Self {
        use tabula_model::MoveError as M;
        let code = match &e {
            M::Malformed(_) => ErrorCode::MalformedMove,
            M::Illegal(_) => ErrorCode::IllegalMove,
            M::NotYourTurn(_) => ErrorCode::NotYourTurn,
            M::GameOver => ErrorCode::GameOver,
        };
        CommandError::says(code, e.message())
    }
}
