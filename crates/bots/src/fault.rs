//! Why a bot lost a game, kept as data: the tournament referee and the
//! server's bot runner meet the same faults, record them once, and each
//! reader (a results table, a tournament page, a bot's own log) sees them
//! in their own language.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use tabula_i18n::t;
use tabula_model::Lang;

use crate::process::{ReadError, WriteError};
use crate::referee::FailureKind;

/// What went wrong with a bot program, with the figures its reader needs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "fault", rename_all = "snake_case")]
pub enum Fault {
    /// The program could not be started.
    NotStarted {
        /// Why, as the system said it.
        error: String,
    },
    /// It did not take its input within `ms`.
    DidNotRead {
        /// The allowance, in milliseconds.
        ms: u64,
    },
    /// It could not take the game's start: its process had ended.
    CrashedBeforeStart,
    /// Its process was found dead when its turn came.
    Dead,
    /// It closed its input.
    InputClosed,
    /// Its pipes failed.
    Pipe {
        /// The system's error.
        error: String,
    },
    /// It closed its output, with its exit status when known.
    Exited {
        /// `exit status: 3`, `signal: 9 (SIGKILL)`, as the system says it.
        status: Option<String>,
    },
    /// It answered an empty line.
    EmptyLine,
    /// Its thinking time over the game (`ms`) is used up.
    GameTime {
        /// The per-game allowance, in milliseconds.
        ms: u64,
    },
    /// No answer within `ms`, of which `startup_ms` were for starting up.
    NoMove {
        /// The whole allowance, in milliseconds.
        ms: u64,
        /// The part of it for a new process to start up.
        startup_ms: u64,
    },
    /// It wrote a line longer than 64 KiB.
    Flood,
    /// It answered a move the game refused.
    Refused {
        /// Not a move of the game at all (else a move, but not a legal one now).
        malformed: bool,
        /// The answer, clipped to 80 bytes.
        answer: String,
        /// The game's reason.
        error: String,
    },
    /// It cannot be shown a game kept without its record.
    NoRecord,
    /// A built-in bot found no move.
    FoundNoMove,
}

impl Fault {
    /// A failed write of the bot's input, with the allowance it had.
    pub fn of_write(error: WriteError, allowed: Duration) -> Fault {
        match error {
            WriteError::Timeout => Fault::DidNotRead { ms: millis(allowed) },
            WriteError::Closed => Fault::InputClosed,
            WriteError::Io(e) => Fault::Pipe { error: e.to_string() },
        }
    }

    /// A failed read of the bot's answer: `allowed` in all, `startup` of it
    /// to start up.
    pub fn of_read(error: ReadError, allowed: Duration, startup: Duration) -> Fault {
        match error {
            ReadError::Timeout => Fault::NoMove { ms: millis(allowed), startup_ms: millis(startup) },
            ReadError::TooLong => Fault::Flood,
            ReadError::Closed(status) => Fault::Exited { status: status.map(|s| s.to_string()) },
            ReadError::Io(e) => Fault::Pipe { error: e.to_string() },
        }
    }

    /// The kind of failure it is, as tables count them.
    pub fn kind(&self) -> FailureKind {
        match self {
            Fault::NotStarted { .. } => FailureKind::Spawn,
            Fault::DidNotRead { .. } | Fault::NoMove { .. } => FailureKind::TimedOut,
            Fault::CrashedBeforeStart
            | Fault::Dead
            | Fault::InputClosed
            | Fault::Pipe { .. }
            | Fault::Exited { .. }
            | Fault::NoRecord => FailureKind::Crashed,
            Fault::EmptyLine | Fault::Refused { malformed: true, .. } => FailureKind::Malformed,
            Fault::Refused { malformed: false, .. } => FailureKind::Illegal,
            Fault::GameTime { .. } => FailureKind::GameTime,
            Fault::Flood => FailureKind::Flood,
            Fault::FoundNoMove => FailureKind::NoMove,
        }
    }

    /// The fault of the bot `name`, in words of `lang`.
    pub fn describe(&self, name: &str, lang: Lang) -> String {
        match self {
            Fault::NotStarted { error } => t!(lang, "fault-not-started", bot = name, error = error.as_str()),
            Fault::DidNotRead { ms } => t!(lang, "fault-did-not-read", bot = name, ms = *ms),
            Fault::CrashedBeforeStart => t!(lang, "fault-crashed-before-start", bot = name),
            Fault::Dead => t!(lang, "fault-dead", bot = name),
            Fault::InputClosed => t!(lang, "fault-input-closed", bot = name),
            Fault::Pipe { error } => t!(lang, "fault-pipe", bot = name, error = error.as_str()),
            Fault::Exited { status: Some(status) } => {
                t!(lang, "fault-exited", bot = name, status = status.as_str())
            }
            Fault::Exited { status: None } => t!(lang, "fault-output-closed", bot = name),
            Fault::EmptyLine => t!(lang, "fault-empty-line", bot = name),
            Fault::GameTime { ms } => t!(lang, "fault-game-time", bot = name, ms = *ms),
            Fault::NoMove { ms, startup_ms: 0 } => t!(lang, "fault-no-move", bot = name, ms = *ms),
            Fault::NoMove { ms, startup_ms } => t!(
                lang,
                "fault-no-move-starting",
                bot = name,
                ms = *ms,
                move_ms = ms.saturating_sub(*startup_ms),
                startup_ms = *startup_ms
            ),
            Fault::Flood => t!(lang, "fault-flood", bot = name),
            Fault::Refused { malformed, answer, error } => t!(
                lang,
                if *malformed { "fault-malformed" } else { "fault-illegal" },
                bot = name,
                answer = format!("{answer:?}"),
                error = error.as_str()
            ),
            Fault::NoRecord => t!(lang, "fault-no-record", bot = name),
            Fault::FoundNoMove => t!(lang, "fault-found-no-move", bot = name),
        }
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
