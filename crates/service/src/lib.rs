//! The service every front end calls: the pbmserv command language, users,
//! storage and the replies. The CLI, email, HTTP API and web pages only turn
//! their input into a [`Command`] and print the [`Reply`], so they give the
//! same answers and the same errors.

pub mod auth;
pub mod command;
mod digest;
mod error;
pub mod glicko;
pub mod help;
mod limits;
pub mod metrics;
mod password;
pub mod replays;
pub mod reply;
mod service;
pub mod store;
pub mod text;
pub mod throttle;
pub mod users;

pub use command::{Command, Credentials, GameCommand};
pub use error::{CommandError, ErrorCode};
pub use limits::LimitReport;
pub use service::{Actions, BoardState, Offer, Waiting, WaitingGame};
pub use service::{
    Answer, BotGame, BotPlayer, Caller, Clock, GameReport, GameUpdate, MAX_BOT_COMMAND, MAX_BOT_WORDS, Notes,
    Reply, ReplyMail, Service, Snapshot,
};
pub use throttle::{Context, Origin};
