//! The command language, pbmserv style: `dna move 12 ned secret AAG`.
//!
//! Text becomes a [`Command`] here and nowhere else; the service applies it.
//! Every command's syntax lives in [`SYNTAX`], which `help` prints and usage
//! errors quote, so the two never disagree.

use serde::Serialize;

use crate::error::{CommandError, ErrorCode};

/// The longest command line accepted (bytes).
pub const MAX_LINE: usize = 16 * 1024;
/// The most words in one command.
pub const MAX_WORDS: usize = 64;
/// The most running games one user may be in (`limit` can only lower it).
pub const MAX_ACTIVE_GAMES: usize = 1000;

/// The syntax of every command, as `help` shows it: (name, syntax, meaning).
pub const SYNTAX: &[(&str, &str, &str)] = &[
    ("signup", "signup USERID PASSWORD [EMAIL ..]", "create an account"),
    ("change password", "change password USERID PASSWORD NEWPASSWORD", "change your password"),
    ("change address", "change address USERID PASSWORD EMAIL [EMAIL ..]", "change your email addresses"),
    ("signoff", "signoff USERID PASSWORD", "close your account (you resign from your running games)"),
    ("notify", "notify USERID PASSWORD on|off", "turn email notifications on or off"),
    ("vacation", "vacation USERID PASSWORD DAYS|off", "suspend reminders and forfeits while away"),
    ("limit", "limit USERID PASSWORD N|off", "accept at most N running games"),
    ("policy", "policy USERID PASSWORD open|ask", "start challenges at once, or ask you to accept them"),
    ("help", "help [GAME]", "this text, or a game's rules, options and move syntax"),
    ("list", "list", "the games on offer"),
    (
        "challenge",
        "GAME challenge USERID USERID .. [-OPTION[=VALUE] ..]",
        "start a game (bots: bot:random, bot:mcts ..)",
    ),
    ("accept", "GAME accept BOARD USERID PASSWORD", "accept a challenge that waits for you"),
    ("reject", "GAME reject BOARD USERID PASSWORD", "refuse a challenge"),
    (
        "move",
        "GAME move BOARD USERID PASSWORD MOVE[#MOVENO]",
        "make a move; #MOVENO refuses it if the board has moved on",
    ),
    ("move resign", "GAME move BOARD USERID PASSWORD resign", "resign"),
    (
        "move propose",
        "GAME move BOARD USERID PASSWORD propose",
        "propose a draw (every other player must accept)",
    ),
    (
        "move undo",
        "GAME move BOARD USERID PASSWORD undo",
        "ask to take back the last move (every other player must accept)",
    ),
    ("move accept", "GAME move BOARD USERID PASSWORD accept", "accept the pending draw or undo"),
    ("move reject", "GAME move BOARD USERID PASSWORD reject", "reject the pending draw or undo"),
    (
        "queue",
        "GAME queue BOARD USERID PASSWORD MOVE",
        "store a move to be played when it is your turn, if still legal",
    ),
    ("submit", "GAME submit BOARD USERID PASSWORD MOVE", "store a move and preview it; play it with confirm"),
    ("confirm", "GAME confirm BOARD USERID PASSWORD", "play the move you submitted"),
    ("preview", "GAME preview BOARD [USERID PASSWORD] MOVE", "show the board as it would be after MOVE"),
    ("show", "GAME show BOARD[#MOVENO]", "the board (as it was after move MOVENO)"),
    ("showas", "GAME showas BOARD USERID PASSWORD", "the board as you see it, with your secrets"),
    ("history", "GAME history BOARD", "every move of a board"),
    ("games", "GAME games USERID [active|inactive|next|all]", "a user's boards"),
    ("standings", "GAME standings", "wins, losses and draws of every player"),
    ("ratings", "GAME ratings", "Elo ratings from finished games"),
    ("chat", "GAME chat BOARD USERID PASSWORD TEXT", "a message to the other players of a board"),
    ("subscribe", "GAME subscribe BOARD USERID PASSWORD", "receive a board's updates"),
    ("unsubscribe", "GAME unsubscribe BOARD USERID PASSWORD", "stop receiving them"),
];

/// The syntax of command `name`.
pub fn syntax(name: &str) -> &'static str {
    SYNTAX.iter().find(|(n, _, _)| *n == name).map(|(_, s, _)| *s).unwrap_or("")
}

fn usage(name: &str) -> CommandError {
    CommandError::usage(format!("usage: {}", syntax(name)))
}

/// Who is asking, and the password they gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Credentials {
    /// The user id as typed.
    pub user: String,
    /// The password as typed (`-` with a bearer token).
    pub password: String,
}

/// Which of a user's boards to list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GamesWhich {
    /// Running.
    Active,
    /// Finished.
    Inactive,
    /// Waiting for this user.
    Next,
    /// All.
    All,
}

/// What a `move` command does: play a move, or one of the words every game
/// takes (resign, draws and undos).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveAction {
    /// A move of the game (its text).
    Play(String),
    /// Resign.
    Resign,
    /// Propose a draw.
    Propose,
    /// Ask to undo the last move.
    Undo,
    /// Accept the pending proposal.
    Accept,
    /// Reject the pending proposal.
    Reject,
}

/// A command of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameCommand {
    /// `challenge users.. -options..`
    Challenge {
        /// Players in turn order.
        players: Vec<String>,
        /// Option words.
        options: Vec<String>,
    },
    /// `move board user pw MOVE[#n]`
    Move {
        /// Board number.
        board: i64,
        /// Who.
        auth: Credentials,
        /// What.
        action: MoveAction,
        /// The `#moveno` guard.
        guard: Option<usize>,
    },
    /// `queue board user pw MOVE`
    Queue {
        /// Board.
        board: i64,
        /// Who.
        auth: Credentials,
        /// Move text.
        text: String,
    },
    /// `submit board user pw MOVE`
    Submit {
        /// Board.
        board: i64,
        /// Who.
        auth: Credentials,
        /// Move text.
        text: String,
    },
    /// `confirm board user pw`
    Confirm {
        /// Board.
        board: i64,
        /// Who.
        auth: Credentials,
    },
    /// `preview board [user pw] MOVE`
    Preview {
        /// Board.
        board: i64,
        /// Who, if given.
        auth: Option<Credentials>,
        /// Move text.
        text: String,
    },
    /// `show board[#n]`
    Show {
        /// Board.
        board: i64,
        /// Show as it was after this many moves.
        at: Option<usize>,
    },
    /// `showas board user pw`
    ShowAs {
        /// Board.
        board: i64,
        /// Who.
        auth: Credentials,
    },
    /// `history board`
    History {
        /// Board.
        board: i64,
    },
    /// `games user [which]`
    Games {
        /// Whose.
        user: String,
        /// Which.
        which: GamesWhich,
    },
    /// `standings`
    Standings,
    /// `ratings`
    Ratings,
    /// `chat board user pw text`
    Chat {
        /// Board.
        board: i64,
        /// Who.
        auth: Credentials,
        /// Message.
        text: String,
    },
    /// `subscribe` / `unsubscribe`
    Subscribe {
        /// Board.
        board: i64,
        /// Who.
        auth: Credentials,
        /// Subscribe (true) or unsubscribe.
        on: bool,
    },
    /// `accept` / `reject` a challenge.
    Answer {
        /// Board.
        board: i64,
        /// Who.
        auth: Credentials,
        /// Accept (true) or reject.
        accept: bool,
    },
    /// `GAME help`
    Help,
}

/// A parsed command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `signup user pw [emails]`
    Signup {
        /// User id.
        user: String,
        /// Password.
        password: String,
        /// Addresses.
        emails: Vec<String>,
    },
    /// `change password user pw new`
    ChangePassword {
        /// Who.
        auth: Credentials,
        /// The new password.
        new_password: String,
    },
    /// `change address user pw emails..`
    ChangeAddress {
        /// Who.
        auth: Credentials,
        /// New addresses.
        emails: Vec<String>,
    },
    /// `signoff user pw`
    Signoff {
        /// Who.
        auth: Credentials,
    },
    /// `notify user pw on|off`
    Notify {
        /// Who.
        auth: Credentials,
        /// On or off.
        on: bool,
    },
    /// `vacation user pw days|off`
    Vacation {
        /// Who.
        auth: Credentials,
        /// Days, or `None` to end it.
        days: Option<u32>,
    },
    /// `limit user pw n|off`
    Limit {
        /// Who.
        auth: Credentials,
        /// Most running games, or `None` for no limit.
        limit: Option<u32>,
    },
    /// `policy user pw open|ask`
    Policy {
        /// Who.
        auth: Credentials,
        /// Ask before challenges start.
        ask: bool,
    },
    /// `help [topic]`
    Help {
        /// A game or command.
        topic: Option<String>,
    },
    /// `list`
    List,
    /// A game's command.
    Game {
        /// The game's command word, lower-case.
        kind: String,
        /// The command.
        command: GameCommand,
    },
}

impl Command {
    /// Parse one command line. `games` are the known game words (a line
    /// starting with anything else that is not an account command is an
    /// unknown command).
    pub fn parse(line: &str, games: &[&str]) -> Result<Command, CommandError> {
        if line.len() > MAX_LINE {
            return Err(CommandError::new(
                ErrorCode::Usage,
                format!("the command is longer than {MAX_LINE} bytes"),
            ));
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.len() > MAX_WORDS && !matches!(words.get(1).copied(), Some("chat")) {
            return Err(CommandError::new(
                ErrorCode::Usage,
                format!("the command has more than {MAX_WORDS} words"),
            ));
        }
        let Some(first) = words.first() else {
            return Err(CommandError::usage("empty command: try `help`"));
        };
        let head = first.to_ascii_lowercase();
        let rest = &words[1..];
        let creds = |w: &[&str]| Credentials { user: w[0].to_string(), password: w[1].to_string() };
        match head.as_str() {
            "signup" | "register" => {
                if rest.len() < 2 {
                    return Err(usage("signup"));
                }
                Ok(Command::Signup {
                    user: rest[0].into(),
                    password: rest[1].into(),
                    emails: rest[2..].iter().map(|s| s.to_string()).collect(),
                })
            }
            "change" => match rest.first().map(|w| w.to_ascii_lowercase()).as_deref() {
                Some("password") if rest.len() == 4 => {
                    Ok(Command::ChangePassword { auth: creds(&rest[1..]), new_password: rest[3].into() })
                }
                Some("password") => Err(usage("change password")),
                Some("address") if rest.len() >= 4 => Ok(Command::ChangeAddress {
                    auth: creds(&rest[1..]),
                    emails: rest[3..].iter().map(|s| s.to_string()).collect(),
                }),
                Some("address") => Err(usage("change address")),
                _ => Err(CommandError::usage(format!(
                    "usage: {}\n   or: {}",
                    syntax("change password"),
                    syntax("change address")
                ))),
            },
            "signoff" => match rest {
                [u, p] => Ok(Command::Signoff { auth: creds(&[u, p]) }),
                _ => Err(usage("signoff")),
            },
            "notify" => parse_account_switch(rest, "notify"),
            "vacation" => parse_account_switch(rest, "vacation"),
            "limit" => parse_account_switch(rest, "limit"),
            "policy" => parse_account_switch(rest, "policy"),
            "help" => match rest {
                [] => Ok(Command::Help { topic: None }),
                [t] => Ok(Command::Help { topic: Some(t.to_ascii_lowercase()) }),
                _ => Err(usage("help")),
            },
            "list" => Ok(Command::List),
            game if games.contains(&game) => {
                let command = parse_game_command(rest)?;
                Ok(Command::Game { kind: game.to_string(), command })
            }
            other => Err(CommandError::new(
                ErrorCode::UnknownCommand,
                format!(
                    "unknown command {other:?}: the games are {}; `help` lists the commands",
                    games.join(", ")
                ),
            )),
        }
    }
}

fn parse_account_switch(rest: &[&str], name: &str) -> Result<Command, CommandError> {
    let [u, p, v] = rest else { return Err(usage(name)) };
    let auth = Credentials { user: u.to_string(), password: p.to_string() };
    let v = v.to_ascii_lowercase();
    let bad = || usage(name);
    Ok(match name {
        "notify" => match v.as_str() {
            "on" | "yes" => Command::Notify { auth, on: true },
            "off" | "no" => Command::Notify { auth, on: false },
            _ => return Err(bad()),
        },
        "vacation" => match v.as_str() {
            "off" | "0" => Command::Vacation { auth, days: None },
            n => match n.parse::<u32>() {
                Ok(d) if d <= 365 => Command::Vacation { auth, days: Some(d) },
                _ => {
                    return Err(CommandError::usage(
                        "usage: vacation USERID PASSWORD DAYS|off (at most 365 days)",
                    ));
                }
            },
        },
        "limit" => match v.as_str() {
            "off" | "none" => Command::Limit { auth, limit: None },
            n => match n.parse::<u32>() {
                Ok(l) if l as usize <= MAX_ACTIVE_GAMES => Command::Limit { auth, limit: Some(l) },
                _ => {
                    return Err(CommandError::usage(format!(
                        "usage: limit USERID PASSWORD N|off (at most {MAX_ACTIVE_GAMES} running games)"
                    )));
                }
            },
        },
        _ => match v.as_str() {
            "open" => Command::Policy { auth, ask: false },
            "ask" => Command::Policy { auth, ask: true },
            _ => return Err(bad()),
        },
    })
}

fn board_number(word: &str, name: &str) -> Result<i64, CommandError> {
    match word.parse::<i64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(CommandError::usage(format!("{word:?} is not a board number\nusage: {}", syntax(name)))),
    }
}

/// Split `MOVE#N` into the move and its guard.
fn split_guard(text: &str) -> Result<(String, Option<usize>), CommandError> {
    match text.rsplit_once('#') {
        Some((mv, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            let n: usize =
                n.parse().map_err(|_| CommandError::usage(format!("#{n} is not a move number")))?;
            Ok((mv.trim_end().to_string(), Some(n)))
        }
        _ => Ok((text.to_string(), None)),
    }
}

fn parse_game_command(rest: &[&str]) -> Result<GameCommand, CommandError> {
    let Some(verb) = rest.first() else {
        return Ok(GameCommand::Help);
    };
    let verb = verb.to_ascii_lowercase();
    let args = &rest[1..];
    let creds = |u: &str, p: &str| Credentials { user: u.to_string(), password: p.to_string() };
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
                        let n = n
                            .parse::<usize>()
                            .map_err(|_| CommandError::usage(format!("#{n} is not a move number")))?;
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
        other => Err(CommandError::new(
            ErrorCode::UnknownCommand,
            format!("unknown command {other:?}: `help` lists the commands"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAMES: &[&str] = &["dna", "conway", "rewrite"];

    fn p(line: &str) -> Result<Command, CommandError> {
        Command::parse(line, GAMES)
    }

    #[test]
    fn seed_syntax_parses() {
        assert_eq!(
            p("dna challenge -length=36 -chunk=3 -manual ned ted jed").unwrap(),
            Command::Game {
                kind: "dna".into(),
                command: GameCommand::Challenge {
                    players: vec!["ned".into(), "ted".into(), "jed".into()],
                    options: vec!["-length=36".into(), "-chunk=3".into(), "-manual".into()],
                }
            }
        );
        let Command::Game { command: GameCommand::Move { board, auth, action, guard }, .. } =
            p("conway move 4 alice pw a1,b2,c3#7").unwrap()
        else {
            panic!()
        };
        assert_eq!(
            (board, auth.user.as_str(), action, guard),
            (4, "alice", MoveAction::Play("a1,b2,c3".into()), Some(7))
        );
        let Command::Game { command: GameCommand::Move { action, .. }, .. } =
            p("rewrite move 1 h pw goal aag").unwrap()
        else {
            panic!()
        };
        assert_eq!(action, MoveAction::Play("goal aag".into()));
        assert!(matches!(
            p("dna move 1 ned pw resign").unwrap(),
            Command::Game { command: GameCommand::Move { action: MoveAction::Resign, .. }, .. }
        ));
        assert!(matches!(
            p("dna show 3#2").unwrap(),
            Command::Game { command: GameCommand::Show { board: 3, at: Some(2) }, .. }
        ));
    }

    #[test]
    fn errors_are_clear() {
        assert_eq!(
            p("dna move 1 ned").unwrap_err().message,
            "usage: GAME move BOARD USERID PASSWORD MOVE[#MOVENO]"
        );
        assert_eq!(p("dna move x ned pw AAG").unwrap_err().code, ErrorCode::Usage);
        assert_eq!(p("chess challenge a b").unwrap_err().code, ErrorCode::UnknownCommand);
        assert_eq!(p("dna frobnicate").unwrap_err().code, ErrorCode::UnknownCommand);
        assert_eq!(p("").unwrap_err().code, ErrorCode::Usage);
        assert_eq!(p(&"x".repeat(MAX_LINE + 1)).unwrap_err().code, ErrorCode::Usage);
    }

    #[test]
    fn sizes_are_limited() {
        let longest = format!("help {}", "x".repeat(MAX_LINE - 5));
        assert_eq!(longest.len(), MAX_LINE);
        assert!(p(&longest).is_ok(), "a line of exactly {MAX_LINE} bytes is refused");
        let long = format!("help {}", "x".repeat(MAX_LINE - 4));
        assert_eq!(p(&long).unwrap_err().message, format!("the command is longer than {MAX_LINE} bytes"));

        let words = |n: usize| vec!["ned"; n - 2].join(" ");
        let many = format!("dna challenge {}", words(MAX_WORDS + 1));
        assert_eq!(p(&many).unwrap_err().message, format!("the command has more than {MAX_WORDS} words"));
        let allowed = format!("dna challenge {}", words(MAX_WORDS));
        assert!(p(&allowed).is_ok(), "{MAX_WORDS} words are allowed");
        // A chat line is text, not words: only its length is limited.
        let chat = format!("dna chat 1 ned pw {}", words(MAX_WORDS * 2));
        assert!(p(&chat).is_ok(), "a long chat line is refused");

        assert!(matches!(p("limit ned pw 1000"), Ok(Command::Limit { limit: Some(1000), .. })));
        let over = p("limit ned pw 1001").unwrap_err();
        assert_eq!(over.code, ErrorCode::Usage);
        assert!(over.message.contains(&format!("at most {MAX_ACTIVE_GAMES}")), "{}", over.message);
    }

    proptest::proptest! {
        #[test]
        fn parsing_never_panics(line in "\\PC{0,80}") {
            let _ = p(&line);
        }

        #[test]
        fn parsing_words_never_panics(words in proptest::collection::vec("(dna|move|show|1|#|-x=1|pw|ned|#3|a1,b2)", 0..8)) {
            let _ = p(&words.join(" "));
        }
    }
}
