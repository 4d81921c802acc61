//! The command language, pbmserv style: `dna move 12 ned secret AAG`: the
//! one grammar of every front end.
//!
//! For every command, its family's file holds how its words are read
//! ([`Command::parse`]), how it is printed back as a line (`Display`,
//! [`Command::masked`]) and where its passwords are
//! ([`Command::secret_positions`]): `account` for accounts, `help` and
//! `list`, `game` for a game's commands. [`Reading`] quotes a line back
//! without its passwords, whatever the order of its words: what mail
//! replies and logs show. [`SYNTAX`] is every command's syntax, which
//! `help` prints and usage errors quote. The service runs a command
//! (`service/dispatch.rs`); front ends build a [`Command`] (the web) or
//! parse a line (the command line, mail, the API's `commands`), never both.

mod account;
mod game;
mod syntax;

use serde::Serialize;
use tabula_i18n::msg;

pub use account::ACCOUNT_WORDS;
pub use game::GAME_VERBS;
pub use syntax::{SYNTAX, meaning, syntax};

use crate::error::{CommandError, ErrorCode};

/// The longest command line accepted (bytes).
pub const MAX_LINE: usize = 16 * 1024;
/// The most words in one command.
pub const MAX_WORDS: usize = 64;
/// The most running games one user may be in (`limit` can only lower it).
pub const MAX_ACTIVE_GAMES: usize = 1000;

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
    /// `language user pw fi|es|en`: the language the account reads
    /// Tabula in (replies, mail, the web).
    Language {
        /// Who.
        auth: Credentials,
        /// The language.
        lang: tabula_model::Lang,
    },
    /// `bot on|off user pw`: mark the account as played by a program.
    Bot {
        /// Who.
        auth: Credentials,
        /// A bot (on) or a person (off).
        on: bool,
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

impl Credentials {
    /// `user` proving itself with `password`.
    pub fn new(user: &str, password: &str) -> Self {
        Credentials { user: user.to_string(), password: password.to_string() }
    }

    /// `user`, whom the front end has authenticated already (a login
    /// session, a bearer token): the password word is `-`.
    pub fn authenticated(user: &str) -> Self {
        Credentials::new(user, "-")
    }
}

impl GamesWhich {
    /// The word `games` reads for this choice.
    pub fn word(self) -> &'static str {
        match self {
            GamesWhich::Active => "active",
            GamesWhich::Inactive => "inactive",
            GamesWhich::Next => "next",
            GamesWhich::All => "all",
        }
    }
}

impl MoveAction {
    /// What the move text `text` asks for, as `move` reads it: `resign`,
    /// `propose` (or `draw`), `undo`, `accept` and `reject` in any case are
    /// those requests, anything else a move of the game.
    pub fn from_text(text: &str) -> Self {
        match text.to_ascii_lowercase().as_str() {
            "resign" => MoveAction::Resign,
            "propose" | "draw" => MoveAction::Propose,
            "undo" => MoveAction::Undo,
            "accept" => MoveAction::Accept,
            "reject" => MoveAction::Reject,
            _ => MoveAction::Play(text.to_string()),
        }
    }

    /// The move text that asks for this.
    pub fn text(&self) -> &str {
        match self {
            MoveAction::Play(text) => text,
            MoveAction::Resign => "resign",
            MoveAction::Propose => "propose",
            MoveAction::Undo => "undo",
            MoveAction::Accept => "accept",
            MoveAction::Reject => "reject",
        }
    }
}

impl Command {
    /// A command of the game `kind` (its game word, `dna`).
    pub fn game(kind: &str, command: GameCommand) -> Self {
        Command::Game { kind: kind.to_ascii_lowercase(), command }
    }

    /// Parse one command line. `games` are the known game words (a line
    /// starting with anything else that is not an account command is an
    /// unknown command).
    pub fn parse(line: &str, games: &[&str]) -> Result<Command, CommandError> {
        if line.len() > MAX_LINE {
            return Err(CommandError::says(ErrorCode::Usage, msg!("error-line-too-long", max = MAX_LINE)));
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.len() > MAX_WORDS && !matches!(words.get(1).copied(), Some("chat")) {
            return Err(CommandError::says(ErrorCode::Usage, msg!("error-too-many-words", max = MAX_WORDS)));
        }
        let Some(first) = words.first() else {
            return Err(CommandError::says(ErrorCode::Usage, msg!("error-empty-command")));
        };
        let head = first.to_ascii_lowercase();
        let rest = &words[1..];
        match head.as_str() {
            account if ACCOUNT_WORDS.contains(&account) => account::parse(account, rest),
            game if games.contains(&game) => {
                let command = game::parse(rest)?;
                Ok(Command::Game { kind: game.to_string(), command })
            }
            other => Err(CommandError::says(
                ErrorCode::UnknownCommand,
                match nearest(other, ACCOUNT_WORDS.iter().chain(games), 2) {
                    Some(near) => unknown_near(other, near),
                    None => msg!(
                        "error-unknown-command-games",
                        quoted = format!("{other:?}"),
                        games = games.join(", ")
                    ),
                },
            )),
        }
    }

    /// The command's words, as [`Command::parse`] reads them back, and the
    /// positions of its passwords among them.
    fn words(&self) -> (Vec<String>, Vec<usize>) {
        match self {
            Command::Game { kind, command } => {
                let (rest, secret) = game::words(command);
                let mut words = vec![kind.clone()];
                words.extend(rest);
                (words, secret.map(|p| p + 1).into_iter().collect())
            }
            _ => account::words(self).unwrap_or_default(),
        }
    }

    /// Where the passwords are among the words of the command's line (the
    /// new one of `change password` too): the words any quote of the
    /// command masks.
    pub fn secret_positions(&self) -> Vec<usize> {
        self.words().1
    }

    /// The command's line with its passwords masked ([`MASK`]): how logs and
    /// quotes show a command.
    pub fn masked(&self) -> String {
        let (mut words, secret) = self.words();
        for p in secret {
            words[p] = MASK.to_string();
        }
        words.join(" ")
    }

    /// The command's name: its words before any value (`signoff`,
    /// `change password`, `dna move`).
    pub fn name(&self) -> String {
        let (words, _) = self.words();
        let n = match self {
            Command::ChangePassword { .. } | Command::ChangeAddress { .. } | Command::Game { .. } => 2,
            _ => 1,
        };
        words[..n.min(words.len())].join(" ")
    }

    /// The credentials the command proves itself with (none for `signup`,
    /// whose password is a new one, nor for commands anyone may give).
    pub fn credentials(&self) -> Option<&Credentials> {
        match self {
            Command::Game { command, .. } => game::credentials(command),
            _ => account::credentials(self),
        }
    }

    /// The users the command acts for: whose credentials it carries, or
    /// the people a challenge names (not its bots).
    pub fn acting_users(&self) -> Vec<&str> {
        match self {
            Command::Game { command: GameCommand::Challenge { players, .. }, .. } => players
                .iter()
                .map(String::as_str)
                .filter(|p| !p.to_ascii_lowercase().starts_with("bot:"))
                .collect(),
            _ => self.credentials().map(|a| a.user.as_str()).into_iter().collect(),
        }
    }
}

/// The command as one line of the command language, which
/// [`Command::parse`] reads back as the same command. It holds the
/// passwords: quote [`Command::masked`] instead.
impl std::fmt::Display for Command {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.words().0.join(" "))
    }
}

/// The word of `candidates` that `word` most likely mistypes (`mvoe` for
/// `move`, `sigunp` for `signup`): at most `limit` edits away and no more
/// than half its letters, a transposition counting as one edit; none when
/// nothing is that near.
fn nearest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a &'a str>,
    limit: usize,
) -> Option<&'a str> {
    let limit = limit.min(word.chars().count() / 2).max(1);
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(word, c), *c))
        .filter(|(distance, _)| *distance <= limit)
        .min()
        .map(|(_, c)| c)
}

/// Whether `word` starts a command of the grammar, or is meant to: an
/// account word, a game's verb, `resign` (a move), or a word of five
/// letters or more one edit from one (`sigunp`). Shorter or farther near
/// misses are ordinary words too often (`last`, `hello`).
pub fn is_command_word(word: &str) -> bool {
    let word = word.to_ascii_lowercase();
    let known = || ACCOUNT_WORDS.iter().chain(GAME_VERBS);
    known().any(|w| *w == word)
        || word == "resign"
        || (word.chars().count() >= 5 && nearest(&word, known(), 1).is_some())
}

/// "unknown command `word`: did you mean `near`?"
fn unknown_near(word: &str, near: &str) -> tabula_i18n::Message {
    msg!("error-unknown-command-near", quoted = format!("{word:?}"), near = format!("{near:?}"))
}

/// What stands for a password in quoted commands, replies and logs.
pub const MASK: &str = "********";

/// Errors a command with credentials may get before its password is known
/// to be right: after any other, the password was where the grammar puts
/// it, and the rest of the line holds none.
const BEFORE_PROOF: &[ErrorCode] = &[
    ErrorCode::Usage,
    ErrorCode::UnknownCommand,
    ErrorCode::UnknownUser,
    ErrorCode::WrongPassword,
    ErrorCode::TooManyRequests,
    ErrorCode::Unauthorized,
    ErrorCode::Internal,
    ErrorCode::Conflict,
];

/// One command line as the grammar reads it, to be quoted back (in a mail
/// reply, a log) without its passwords, whatever the order of its words.
#[derive(Clone, Debug)]
pub struct Reading {
    /// The command, or why the line is none.
    pub command: Result<Command, CommandError>,
    words: Vec<String>,
    /// Which words are the grammar's own (game words, verbs): never secret.
    keywords: Vec<bool>,
}

impl Reading {
    /// Read `line`; `games` are the game words.
    pub fn new(line: &str, games: &[&str]) -> Self {
        let command = Command::parse(line, games);
        let words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        // The command's own words, never masked, so that a reply can name
        // a mistyped one (`dna mvoe`, `chess move`, `resign all`): one for
        // an account command (two for `change password|address`), two
        // after a game word; after an unknown word, a second word only if
        // it is a game's verb (`sigunp KimPass kim` may hold a password
        // anywhere). A password goes after them.
        let first = words.first().map(|w| w.to_ascii_lowercase()).unwrap_or_default();
        let second = words.get(1).map(|w| w.to_ascii_lowercase()).unwrap_or_default();
        let command_words = if first == "change" && account::CHANGE_WORDS.contains(&second.as_str()) {
            2
        } else if ACCOUNT_WORDS.contains(&first.as_str()) {
            1
        } else if games.contains(&first.as_str()) || GAME_VERBS.contains(&second.as_str()) {
            2
        } else {
            1
        };
        let keywords = (0..words.len()).map(|i| i < command_words).collect();
        Reading { command, words, keywords }
    }

    /// The words to mask when quoting the line after it ran with
    /// `outcome` (the error it got, `None` if it succeeded): its passwords
    /// where the grammar puts them. When the line is no command, or it was
    /// refused before its password was proven, the password may be any of
    /// its words (typed out of order): then every word but the grammar's
    /// own.
    pub fn secrets(&self, outcome: Option<&CommandError>) -> Vec<String> {
        let positions: Vec<usize> = match (&self.command, outcome) {
            (Ok(c), None) => c.secret_positions(),
            // A command anyone may give has no password to put out of place.
            (Ok(c @ (Command::Help { .. } | Command::List)), Some(_)) => c.secret_positions(),
            (Ok(c @ Command::Game { .. }), Some(_)) if c.credentials().is_none() => c.secret_positions(),
            // A refused signup proved nothing: all its words are new.
            (Ok(c), Some(e)) if !BEFORE_PROOF.contains(&e.code) && !matches!(c, Command::Signup { .. }) => {
                c.secret_positions()
            }
            // Refused for an account that exists (a wrong password, a
            // sender who is not its own): the user id, just before the
            // password, is that account's, and stays.
            (Ok(c), Some(e))
                if matches!(e.code, ErrorCode::WrongPassword | ErrorCode::Unauthorized)
                    && c.credentials().is_some() =>
            {
                let user = c.secret_positions().first().map(|p| p - 1);
                (0..self.words.len()).filter(|&i| !self.keywords[i] && Some(i) != user).collect()
            }
            _ => (0..self.words.len()).filter(|&i| !self.keywords[i]).collect(),
        };
        let mut secrets: Vec<String> =
            positions.into_iter().filter_map(|i| self.words.get(i)).filter(|w| *w != "-").cloned().collect();
        secrets.sort();
        secrets.dedup();
        secrets
    }

    /// The line with the words [`Reading::secrets`] gives masked.
    pub fn quoted(&self, outcome: Option<&CommandError>) -> String {
        let secrets = self.secrets(outcome);
        let words: Vec<&str> =
            self.words.iter().map(|w| if secrets.contains(w) { MASK } else { w.as_str() }).collect();
        words.join(" ")
    }
}

/// `text` with every whole-word occurrence of a secret masked, in any
/// case (a user id is read in lower case, so a password typed where the
/// id goes comes back as `there is no user hunter2`) and as Rust quotes it
/// (`"a\\"b"` for `a"b`).
pub fn mask(text: &str, secrets: &[String]) -> String {
    let mut out = text.to_string();
    for secret in secrets.iter().filter(|s| !s.is_empty()) {
        let escaped = secret.escape_debug().to_string();
        for form in std::iter::once(secret.as_str()).chain((escaped != *secret).then_some(escaped.as_str())) {
            out = mask_form(&out, form);
        }
    }
    out
}

/// `text` with whole-word occurrences of `secret` masked, its ASCII
/// letters in any case.
fn mask_form(text: &str, secret: &str) -> String {
    // ASCII lower-casing keeps every byte where it was, so positions found
    // in the lowered copy are positions in `text`.
    let lowered = text.to_ascii_lowercase();
    let wanted = secret.to_ascii_lowercase();
    let mut masked = String::with_capacity(text.len());
    let mut from = 0;
    while let Some(found) = lowered[from..].find(&wanted) {
        let at = from + found;
        let end = at + wanted.len();
        let before_ok = text[..at].chars().last().is_none_or(|c| !c.is_alphanumeric());
        let after_ok = text[end..].chars().next().is_none_or(|c| !c.is_alphanumeric());
        masked.push_str(&text[from..at]);
        masked.push_str(if before_ok && after_ok { MASK } else { &text[at..end] });
        from = end;
    }
    masked.push_str(&text[from..]);
    masked
}

/// The message of `error` in `lang`, with the `secrets` masked in what it
/// quotes of the command and nowhere else: `unknown command "resign": the
/// games are ...` keeps its own word "games" when the line held it too.
pub fn masked_error(error: &CommandError, secrets: &[String], lang: tabula_i18n::Lang) -> String {
    match &error.text {
        Some(text) => text.map_text(|value| mask(value, secrets)).render(lang),
        None => mask(&error.message, secrets),
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

    #[test]
    fn passwords_are_masked_in_any_word_order() {
        let quoted = |line: &str, code: Option<ErrorCode>| {
            let e = code.map(|c| CommandError::new(c, "refused"));
            Reading::new(line, GAMES).quoted(e.as_ref())
        };
        assert_eq!(quoted("dna move 1 ned s3cret AAG", None), "dna move 1 ned ******** AAG");
        assert_eq!(quoted("signup ned s3cret ned@example.org", None), "signup ned ******** ned@example.org");
        assert_eq!(quoted("change password ned old new", None), "change password ned ******** ********");
        assert_eq!(quoted("dna preview 1 AAG", None), "dna preview 1 AAG");
        assert_eq!(quoted("dna preview 1 ned pw AAG", None), "dna preview 1 ned ******** AAG");
        assert_eq!(quoted("dna show 1", Some(ErrorCode::UnknownBoard)), "dna show 1");
        // Refused after the password was proven: it was where the grammar puts it.
        assert_eq!(
            quoted("dna move 1 ned s3cret AAG", Some(ErrorCode::IllegalMove)),
            "dna move 1 ned ******** AAG"
        );
        // Out of order, or not proven: every word but the grammar's own.
        assert_eq!(
            quoted("dna move kim kimpass 6 TCT", Some(ErrorCode::Usage)),
            "dna move ******** ******** ******** ********"
        );
        assert_eq!(
            quoted("dna show 6 kim kimpass", Some(ErrorCode::Usage)),
            "dna show ******** ******** ********"
        );
        assert_eq!(
            quoted("dna move 6 kim TCT kimpass", Some(ErrorCode::WrongPassword)),
            "dna move ******** kim ******** ********"
        );
        assert_eq!(
            quoted("dna move 6 kimpass kim TCT", Some(ErrorCode::UnknownUser)),
            "dna move ******** ******** ******** ********"
        );
        assert_eq!(
            quoted("dan mvoe 1 ned pw AAG", Some(ErrorCode::UnknownCommand)),
            "dan ******** ******** ******** ******** ********"
        );
        assert_eq!(
            quoted("chess move 1 ned pw AAG", Some(ErrorCode::UnknownCommand)),
            "chess move ******** ******** ******** ********"
        );
        assert_eq!(quoted("sigunp pw ned", Some(ErrorCode::UnknownCommand)), "sigunp ******** ********");
        let secrets = Reading::new("dna move 1 ned hunter2 AAG", GAMES).secrets(None);
        assert_eq!(mask("hunter2 is wrong (hunter22)", &secrets), "******** is wrong (hunter22)");
        let secrets = vec!["Hunter2".to_string(), "a\"b".to_string()];
        assert_eq!(
            mask("there is no user hunter2, nor \"a\\\"b\" (HUNTER2x)", &secrets),
            "there is no user ********, nor \"********\" (HUNTER2x)"
        );
    }

    fn is_grammar_word(w: &str) -> bool {
        let w = w.to_ascii_lowercase();
        [GAME_VERBS, ACCOUNT_WORDS, account::CHANGE_WORDS, GAMES]
            .iter()
            .any(|list| list.contains(&w.as_str()))
    }

    /// Words that are none of the grammar's own, nor `-`.
    fn word() -> impl Strategy<Value = String> {
        "[a-z][a-z0-9]{2,8}".prop_filter("a plain word", |w| !is_grammar_word(w))
    }

    /// Passwords: none of the grammar's words either.
    fn password() -> impl Strategy<Value = String> {
        "[A-Za-z0-9!%]{3,12}".prop_filter("not a word of the grammar", |w| !is_grammar_word(w))
    }

    fn creds() -> impl Strategy<Value = Credentials> {
        (word(), password()).prop_map(|(u, p)| Credentials::new(&u, &p))
    }

    fn game_command() -> impl Strategy<Value = GameCommand> {
        let board = 1..100_000i64;
        let text = "[ACGT]{1,8}";
        prop_oneof![
            (
                proptest::collection::vec(word(), 1..4),
                proptest::collection::vec("-[a-z]{1,6}(=[0-9]{1,3})?", 0..3)
            )
                .prop_map(|(players, options)| GameCommand::Challenge { players, options }),
            (board.clone(), creds(), text, proptest::option::of(1..500usize)).prop_map(
                |(board, auth, t, guard)| {
                    GameCommand::Move { board, auth, action: MoveAction::Play(t), guard }
                }
            ),
            (board.clone(), creds(), 0..5usize).prop_map(|(board, auth, i)| {
                let action = [
                    MoveAction::Resign,
                    MoveAction::Propose,
                    MoveAction::Undo,
                    MoveAction::Accept,
                    MoveAction::Reject,
                ][i]
                    .clone();
                GameCommand::Move { board, auth, action, guard: None }
            }),
            (board.clone(), creds(), text).prop_map(|(board, auth, text)| GameCommand::Queue {
                board,
                auth,
                text
            }),
            (board.clone(), creds(), text).prop_map(|(board, auth, text)| GameCommand::Submit {
                board,
                auth,
                text
            }),
            (board.clone(), creds()).prop_map(|(board, auth)| GameCommand::Confirm { board, auth }),
            (board.clone(), proptest::option::of(creds()), text)
                .prop_map(|(board, auth, text)| GameCommand::Preview { board, auth, text }),
            (board.clone(), proptest::option::of(0..500usize))
                .prop_map(|(board, at)| GameCommand::Show { board, at }),
            (board.clone(), creds()).prop_map(|(board, auth)| GameCommand::ShowAs { board, auth }),
            board.clone().prop_map(|board| GameCommand::History { board }),
            (word(), 0..4usize).prop_map(|(user, i)| GameCommand::Games {
                user,
                which: [GamesWhich::Active, GamesWhich::Inactive, GamesWhich::Next, GamesWhich::All][i],
            }),
            Just(GameCommand::Standings),
            Just(GameCommand::Ratings),
            (board.clone(), creds(), "[a-z]{1,5}( [a-z]{1,5}){0,3}")
                .prop_map(|(board, auth, text)| GameCommand::Chat { board, auth, text }),
            (board.clone(), creds(), proptest::bool::ANY)
                .prop_map(|(board, auth, on)| GameCommand::Subscribe { board, auth, on }),
            (board, creds(), proptest::bool::ANY).prop_map(|(board, auth, accept)| GameCommand::Answer {
                board,
                auth,
                accept
            }),
            Just(GameCommand::Help),
        ]
    }

    fn command() -> impl Strategy<Value = Command> {
        let email = "[a-z]{1,6}@[a-z]{1,6}\\.org";
        prop_oneof![
            (word(), password(), proptest::collection::vec(email, 0..3))
                .prop_map(|(user, password, emails)| Command::Signup { user, password, emails }),
            (creds(), password())
                .prop_map(|(auth, new_password)| Command::ChangePassword { auth, new_password }),
            (creds(), proptest::collection::vec(email, 1..3))
                .prop_map(|(auth, emails)| Command::ChangeAddress { auth, emails }),
            creds().prop_map(|auth| Command::Signoff { auth }),
            (creds(), proptest::bool::ANY).prop_map(|(auth, on)| Command::Notify { auth, on }),
            (creds(), proptest::option::of(1..=365u32))
                .prop_map(|(auth, days)| Command::Vacation { auth, days }),
            (creds(), proptest::option::of(0..=1000u32))
                .prop_map(|(auth, limit)| Command::Limit { auth, limit }),
            (creds(), proptest::bool::ANY).prop_map(|(auth, ask)| Command::Policy { auth, ask }),
            (creds(), 0..3usize)
                .prop_map(|(auth, i)| Command::Language { auth, lang: tabula_model::Lang::ALL[i] }),
            (creds(), proptest::bool::ANY).prop_map(|(auth, on)| Command::Bot { auth, on }),
            proptest::option::of("(dna|move|signup)").prop_map(|topic| Command::Help { topic }),
            Just(Command::List),
            ("(dna|conway|rewrite)", game_command())
                .prop_map(|(kind, command)| Command::Game { kind, command }),
        ]
    }

    /// Every password a command carries.
    fn passwords(c: &Command) -> Vec<&str> {
        match c {
            Command::Signup { password, .. } => vec![password],
            Command::ChangePassword { auth, new_password } => vec![&auth.password, new_password],
            _ => c.credentials().map(|a| a.password.as_str()).into_iter().collect(),
        }
    }

    use proptest::prelude::*;

    proptest! {
        /// Printing a command and reading it back gives the same command.
        #[test]
        fn a_printed_command_reads_back_the_same(c in command()) {
            prop_assert_eq!(p(&c.to_string()), Ok(c));
        }

        /// The grammar's positions are exactly where the passwords are, and
        /// the masked line shows none of them.
        #[test]
        fn secret_positions_hold_the_passwords(c in command()) {
            let line = c.to_string();
            let words: Vec<&str> = line.split_whitespace().collect();
            let mut at: Vec<&str> = c.secret_positions().iter().map(|&i| words[i]).collect();
            let mut expected = passwords(&c);
            at.sort();
            expected.sort();
            prop_assert_eq!(at, expected);
            let masked = c.masked();
            for pw in passwords(&c) {
                prop_assert!(!masked.split_whitespace().any(|w| w == pw), "{} in {}", pw, masked);
            }
            let reading = Reading::new(&line, GAMES);
            for pw in passwords(&c) {
                prop_assert!(!reading.quoted(None).split_whitespace().any(|w| w == pw));
            }
        }

        /// Shuffled, a command's line is quoted without its passwords
        /// whatever it became: no command (a usage error), or one refused
        /// before its password was proven.
        #[test]
        fn shuffled_lines_are_quoted_without_passwords(c in command(), seed in any::<u64>(), code in 0..4usize) {
            if matches!(c, Command::Signup { .. }) {
                // A signup's words are all new: whichever is in the password's place is the password.
                return Ok(());
            }
            let line = c.to_string();
            let mut words: Vec<&str> = line.split_whitespace().collect();
            // The words after the command's own (its name), in any order.
            let fixed = c.name().split_whitespace().count();
            let mut rng = seed;
            for i in (fixed + 1..words.len()).rev() {
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                words.swap(i, fixed + (rng >> 33) as usize % (i + 1 - fixed));
            }
            let shuffled = words.join(" ");
            let reading = Reading::new(&shuffled, GAMES);
            // Out of order, the line reads as no command (a usage error), or as
            // one the service refuses at its credentials (an account's wrong
            // password, or no such account), unless they landed in their places.
            let original = c.credentials();
            let code = match &reading.command {
                Err(_) => Some(ErrorCode::Usage),
                Ok(read) => match (read.credentials(), original) {
                    (Some(r), Some(o)) if r == o && passwords(read) == passwords(&c) => None,
                    (Some(r), Some(o)) if r.user == o.user => Some(ErrorCode::WrongPassword),
                    _ => Some([ErrorCode::UnknownUser, ErrorCode::Usage, ErrorCode::UnknownCommand][code % 3]),
                },
            };
            let error = code.map(|code| CommandError::new(code, "refused"));
            let outcome = error.as_ref();
            let quoted = reading.quoted(outcome);
            for pw in passwords(&c) {
                prop_assert!(!quoted.split_whitespace().any(|w| w == pw), "{} in {} (from {})", pw, quoted, shuffled);
            }
        }

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
