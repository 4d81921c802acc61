//! Bots for every Tabula game and the machinery that makes them play.
//!
//! - [`BotSpec`]: what a bot is: a built-in name (`random`, `greedy`,
//!   `center`, `mcts`, `mcts:2000`, `mcts:250ms`) or a command line that runs
//!   an external program speaking the bot protocol (see [`protocol`]).
//! - [`builtin_move`]: a built-in bot's move in any game, and
//!   [`ServerBots`], the built-in bots as the service's players
//!   (`dna challenge ned bot:mcts`).
//! - [`mcts`]: the general search bot over the common game model.
//! - [`referee`]: plays one game between bots, enforcing time and output
//!   limits on external processes.
//! - [`tournament`]: round robins, reproducible from one seed, in parallel,
//!   resumable through a [`TournamentStore`], with rankings and ratings.

#![warn(missing_docs)]

pub mod builtin;
pub mod distributed;
pub mod fault;
pub mod heuristics;
pub mod intervalo;
pub mod live;
pub mod mcts;
pub mod process;
pub mod protocol;
pub mod referee;
mod report;
pub mod rtlife;
mod server;
pub mod spec;
pub mod stats;
pub mod store;
mod table;
pub mod tournament;

pub use builtin::{BuiltinBot, Position, builtin_move};
pub use fault::Fault;
pub use process::BotLimits;
pub use protocol::ViewMode;
pub use referee::{Failure, FailureKind, GameResult, Heartbeat};
pub use report::{check_output, render_csv, render_json, render_text};
pub use server::ServerBots;
pub use spec::{BotSpec, SpecError};
pub use store::{JsonlStore, MemoryStore, StoreError, TournamentStore};
pub use tournament::{
    BotStanding, HeadToHead, Progress, TournamentConfig, TournamentError, TournamentReport, play_one,
    run_tournament,
};
