//! A game's commands, `GAME VERB ...`: how each is read, printed back,
//! and where its password is.

use tabula_i18n::msg;

use super::syntax::{syntax, usage};
use super::{Credentials, GameCommand, GamesWhich, MoveAction};
use crate::error::{CommandError, ErrorCode};

/// The verbs of a game's commands.
pub const GAME_VERBS: &[&str] = &[
    "challenge",
    "move",
    "queue",
    "submit",
    "confirm",
    "preview",
    "show",
    "showas",
    "history",
    "games",
    "standings",
    "ratings",
    "chat",
    "subscribe",
    "unsubscribe",
    "accept",
    "reject",
    "help",
];

fn board_number(word: &str, name: &str) -> Result<i64, CommandError> {
    match word.parse::<i64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(CommandError::says(
            ErrorCode::Usage,
            msg!("error-not-a-board", quoted = format!("{word:?}"), syntax = syntax(name)),
        )),
    }
}

/// Split `MOVE#N` into the move and its guard.
fn split_guard(text: &str) -> Result<(String, Option<usize>), CommandError> {
    match text.rsplit_once('#') {
        Some((mv, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            let n: usize = n.parse().map_err(|_| not_a_move_number(n))?;
            Ok((mv.trim_end().to_string(), Some(n)))
        }
        _ => Ok((text.to_string(), None)),
    }
}

/// Read the words after the game word.
pub(super) fn parse(rest: &[&str]) -> Result<GameCommand, CommandError> {
    let Some(verb) = rest.first() else {
        return Ok(GameCommand::Help);
    };
    let verb = verb.to_ascii_lowercase();
    let args = &rest[1..];
    let creds = Credentials::new;
    let joined = |w: &[&str]| w.join(" ");
    match verb.as_str() {
        "challenge" => {
            let (options, players): (Vec<&str>, Vec<&str>) = args.iter().partition(|w| w.starts_with('-'));
            if players.is_empty() {
                return Err(usage("challenge"));
            }
            Ok(GameCommand::Challenge {
                players: players.iter().map(|s| s.to_string()).collect(),
                options: options.iter().map(|s| s.to_string()).collect(),
            })
        }
        "move" => {
            if args.len() < 4 {
                return Err(usage("move"));
            }
            let board = board_number(args[0], "move")?;
            let (text, guard) = split_guard(&joined(&args[3..]))?;
            let action = match text.to_ascii_lowercase().as_str() {
                "resign" => MoveAction::Resign,
                "propose" | "draw" => MoveAction::Propose,
                "undo" => MoveAction::Undo,
                "accept" => MoveAction::Accept,
                "reject" => MoveAction::Reject,
                _ => MoveAction::Play(text),
            };
            Ok(GameCommand::Move { board, auth: creds(args[1], args[2]), action, guard })
        }
        "queue" | "submit" => {
            if args.len() < 4 {
                return Err(usage(&verb));
            }
            let board = board_number(args[0], &verb)?;
            let auth = creds(args[1], args[2]);
            let text = joined(&args[3..]);
            Ok(if verb == "queue" {
                GameCommand::Queue { board, auth, text }
            } else {
                GameCommand::Submit { board, auth, text }
            })
        }
        "confirm" => match args {
            [b, u, p] => Ok(GameCommand::Confirm { board: board_number(b, "confirm")?, auth: creds(u, p) }),
            _ => Err(usage("confirm")),
        },
        "preview" => match args {
            [b, mv] => Ok(GameCommand::Preview {
                board: board_number(b, "preview")?,
                auth: None,
                text: mv.to_string(),
            }),
            [b, u, p, mv @ ..] if !mv.is_empty() => Ok(GameCommand::Preview {
                board: board_number(b, "preview")?,
                auth: Some(creds(u, p)),
                text: joined(mv),
            }),
            _ => Err(usage("preview")),
        },
        "show" => match args {
            [b] => {
                let (board, at) = match b.split_once('#') {
                    Some((board, n)) => {
                        let n = n.parse::<usize>().map_err(|_| not_a_move_number(n))?;
                        (board, Some(n))
                    }
                    None => (*b, None),
                };
                Ok(GameCommand::Show { board: board_number(board, "show")?, at })
            }
            _ => Err(usage("show")),
        },
        "showas" => match args {
            [b, u, p] => Ok(GameCommand::ShowAs { board: board_number(b, "showas")?, auth: creds(u, p) }),
            _ => Err(usage("showas")),
        },
        "history" => match args {
            [b] => Ok(GameCommand::History { board: board_number(b, "history")? }),
            _ => Err(usage("history")),
        },
        "games" => {
            let which = match args.get(1).map(|w| w.to_ascii_lowercase()).as_deref() {
                None | Some("active") => GamesWhich::Active,
                Some("inactive") | Some("finished") => GamesWhich::Inactive,
                Some("next") => GamesWhich::Next,
                Some("all") => GamesWhich::All,
                Some(_) => return Err(usage("games")),
            };
            match args {
                [u] | [u, _] => Ok(GameCommand::Games { user: u.to_string(), which }),
                _ => Err(usage("games")),
            }
        }
        "standings" if args.is_empty() => Ok(GameCommand::Standings),
        "ratings" if args.is_empty() => Ok(GameCommand::Ratings),
        "chat" => {
            if args.len() < 4 {
                return Err(usage("chat"));
            }
            Ok(GameCommand::Chat {
                board: board_number(args[0], "chat")?,
                auth: creds(args[1], args[2]),
                text: joined(&args[3..]),
            })
        }
        "subscribe" | "unsubscribe" => match args {
            [b, u, p] => Ok(GameCommand::Subscribe {
                board: board_number(b, &verb)?,
                auth: creds(u, p),
                on: verb == "subscribe",
            }),
            _ => Err(usage(&verb)),
        },
        "accept" | "reject" => match args {
            [b, u, p] => Ok(GameCommand::Answer {
                board: board_number(b, &verb)?,
                auth: creds(u, p),
                accept: verb == "accept",
            }),
            _ => Err(usage(&verb)),
        },
        "help" => Ok(GameCommand::Help),
        "standings" | "ratings" => Err(usage(&verb)),
        other => Err(CommandError::says(
            ErrorCode::UnknownCommand,
            match super::nearest(other, GAME_VERBS, 2) {
                Some(near) => super::unknown_near(other, near),
                None => msg!("error-unknown-command", quoted = format!("{other:?}")),
            },
        )),
    }
}

/// `#N` that is no move number (too large for one).
fn not_a_move_number(n: &str) -> CommandError {
    CommandError::says(ErrorCode::Usage, msg!("error-not-a-move-number", number = n))
}

/// The words after the game word of `command`, as [`parse`] reads them,
/// and the position of its password among them (counted from the verb, 0).
pub(super) fn words(command: &GameCommand) -> (Vec<String>, Option<usize>) {
    let with_auth = |verb: &str, board: i64, auth: &Credentials, more: &[&str]| {
        let mut w = vec![verb.to_string(), board.to_string(), auth.user.clone(), auth.password.clone()];
        w.extend(more.iter().map(|s| s.to_string()));
        (w, Some(3))
    };
    match command {
        GameCommand::Challenge { players, options } => {
            let mut w = vec!["challenge".to_string()];
            w.extend(players.iter().cloned());
            w.extend(options.iter().cloned());
            (w, None)
        }
        GameCommand::Move { board, auth, action, guard } => {
            let mut text = action.text().to_string();
            if let Some(n) = guard {
                text.push_str(&format!("#{n}"));
            }
            with_auth("move", *board, auth, &[&text])
        }
        GameCommand::Queue { board, auth, text } => with_auth("queue", *board, auth, &[text]),
        GameCommand::Submit { board, auth, text } => with_auth("submit", *board, auth, &[text]),
        GameCommand::Confirm { board, auth } => with_auth("confirm", *board, auth, &[]),
        GameCommand::Preview { board, auth: Some(auth), text } => with_auth("preview", *board, auth, &[text]),
        GameCommand::Preview { board, auth: None, text } => {
            (vec!["preview".into(), board.to_string(), text.clone()], None)
        }
        GameCommand::Show { board, at: None } => (vec!["show".into(), board.to_string()], None),
        GameCommand::Show { board, at: Some(n) } => (vec!["show".into(), format!("{board}#{n}")], None),
        GameCommand::ShowAs { board, auth } => with_auth("showas", *board, auth, &[]),
        GameCommand::History { board } => (vec!["history".into(), board.to_string()], None),
        GameCommand::Games { user, which } => (vec!["games".into(), user.clone(), which.word().into()], None),
        GameCommand::Standings => (vec!["standings".into()], None),
        GameCommand::Ratings => (vec!["ratings".into()], None),
        GameCommand::Chat { board, auth, text } => with_auth("chat", *board, auth, &[text]),
        GameCommand::Subscribe { board, auth, on } => {
            with_auth(if *on { "subscribe" } else { "unsubscribe" }, *board, auth, &[])
        }
        GameCommand::Answer { board, auth, accept } => {
            with_auth(if *accept { "accept" } else { "reject" }, *board, auth, &[])
        }
        GameCommand::Help => (vec!["help".into()], None),
    }
}

/// The credentials a game command proves itself with.
pub(super) fn credentials(command: &GameCommand) -> Option<&Credentials> {
    match command {
        GameCommand::Move { auth, .. }
        | GameCommand::Queue { auth, .. }
        | GameCommand::Submit { auth, .. }
        | GameCommand::Confirm { auth, .. }
        | GameCommand::Preview { auth: Some(auth), .. }
        | GameCommand::ShowAs { auth, .. }
        | GameCommand::Chat { auth, .. }
        | GameCommand::Subscribe { auth, .. }
        | GameCommand::Answer { auth, .. } => Some(auth),
        _ => None,
    }
}
