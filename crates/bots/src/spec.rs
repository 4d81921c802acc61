//! Bot specifications: a built-in bot's name or an external command line.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::mcts::{Budget, DEFAULT_ITERATIONS, MAX_ITERATIONS};

/// The longest bot specification accepted.
pub const MAX_SPEC_LEN: usize = 4096;
/// The most words a command line may have.
pub const MAX_ARGS: usize = 256;

/// What a tournament seat or a server bot is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum BotSpec {
    /// A bot built into Tabula.
    Builtin {
        /// Which one.
        bot: Builtin,
    },
    /// An external program speaking the bot protocol.
    Command {
        /// The command line as given (the bot's name in results).
        line: String,
        /// The program and its arguments, split shell-like.
        argv: Vec<String>,
    },
}

/// The built-in bots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Builtin {
    /// A uniformly random legal move (the `random` move command's generator).
    Random,
    /// The game's cheap heuristic (`greedy`).
    Greedy,
    /// Intervalo only: the empty cell nearest the centre of the strip.
    Center,
    /// Intervalo only: each turn's choice as a matrix game, played as its
    /// mixed equilibrium (see [`crate::intervalo`]).
    Nash,
    /// Monte Carlo tree search with a budget.
    Mcts(Budget),
}

/// A bot specification that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpecError {
    /// Nothing given.
    #[error(
        "a bot is a built-in name (random, greedy, center, nash, mcts, mcts:N, mcts:Nms) or a command line"
    )]
    Empty,
    /// Too long.
    #[error("a bot specification is at most {MAX_SPEC_LEN} characters")]
    TooLong,
    /// Unbalanced quotes or a trailing backslash.
    #[error("command line {0:?}: {1}")]
    BadCommand(String, String),
    /// One word that names neither a built-in bot nor a program.
    #[error(
        "{0:?} is neither a built-in bot nor a program{1}: the built-in bots are random, greedy, center, nash, mcts, mcts:N (iterations) and mcts:Nms (time)"
    )]
    UnknownBot(String, String),
    /// A command line whose program cannot be found.
    #[error("command line {0:?}: there is no program {1:?} (as a file, or on PATH)")]
    NoProgram(String, String),
    /// `mcts:` with a bad budget.
    #[error(
        "{0:?}: the budget of mcts is a number of iterations (1 to {MAX_ITERATIONS}) or a time like 250ms"
    )]
    BadBudget(String),
}

impl BotSpec {
    /// Parse a specification: a built-in name, else a command line.
    pub fn parse(text: &str) -> Result<BotSpec, SpecError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(SpecError::Empty);
        }
        if t.len() > MAX_SPEC_LEN {
            return Err(SpecError::TooLong);
        }
        if let Some(bot) = Builtin::parse(t)? {
            return Ok(BotSpec::Builtin { bot });
        }
        let argv = split_command(t).map_err(|e| SpecError::BadCommand(t.to_string(), e))?;
        if argv.is_empty() {
            return Err(SpecError::Empty);
        }
        Ok(BotSpec::Command { line: t.to_string(), argv })
    }

    /// Check that an external bot's program exists (a path to an
    /// executable file, or a name found on `PATH`), so that a mistyped
    /// built-in name or program is refused before any game rather than
    /// forfeiting every game.
    ///
    /// # Errors
    ///
    /// [`SpecError::UnknownBot`] for a single word that is no built-in and
    /// no program (with the nearest built-in name, if one is close);
    /// [`SpecError::NoProgram`] for a longer command line.
    pub fn check_program(&self) -> Result<(), SpecError> {
        let BotSpec::Command { line, argv } = self else { return Ok(()) };
        let Some(program) = argv.first() else { return Err(SpecError::Empty) };
        if find_program(program, std::env::var_os("PATH").as_deref()) {
            return Ok(());
        }
        if argv.len() == 1 && !program.contains('/') {
            let near = crate::builtin::NAMES
                .iter()
                .map(|n| (edit_distance(&program.to_ascii_lowercase(), n), n))
                .filter(|(d, _)| *d <= 2)
                .min();
            let hint = near.map(|(_, n)| format!(" (did you mean {n}?)")).unwrap_or_default();
            return Err(SpecError::UnknownBot(program.clone(), hint));
        }
        Err(SpecError::NoProgram(line.clone(), program.clone()))
    }

    /// The name used in results: the built-in's name or the command line.
    pub fn name(&self) -> String {
        match self {
            BotSpec::Builtin { bot } => bot.to_string(),
            BotSpec::Command { line, .. } => line.clone(),
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl Builtin {
    /// Parse a built-in name; `Ok(None)` when `text` is not one.
    pub fn parse(text: &str) -> Result<Option<Builtin>, SpecError> {
        let lower = text.to_ascii_lowercase();
        Ok(Some(match lower.as_str() {
            "random" => Builtin::Random,
            "greedy" | "heuristic" => Builtin::Greedy,
            "center" | "centre" => Builtin::Center,
            "nash" => Builtin::Nash,
            "mcts" => Builtin::Mcts(Budget::Iterations(DEFAULT_ITERATIONS)),
            _ => match lower.strip_prefix("mcts:") {
                Some(budget) => Builtin::Mcts(parse_budget(budget).ok_or(SpecError::BadBudget(text.into()))?),
                None => return Ok(None),
            },
        }))
    }
}

fn parse_budget(text: &str) -> Option<Budget> {
    if let Some(ms) = text.strip_suffix("ms") {
        let ms: u64 = ms.parse().ok().filter(|&m| (1..=3_600_000).contains(&m))?;
        return Some(Budget::Time(Duration::from_millis(ms)));
    }
    if let Some(s) = text.strip_suffix('s') {
        let s: u64 = s.parse().ok().filter(|&s| (1..=3600).contains(&s))?;
        return Some(Budget::Time(Duration::from_secs(s)));
    }
    let n: u32 = text.parse().ok().filter(|&n| (1..=MAX_ITERATIONS).contains(&n))?;
    Some(Budget::Iterations(n))
}

impl fmt::Display for Builtin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Builtin::Random => f.write_str("random"),
            Builtin::Greedy => f.write_str("greedy"),
            Builtin::Center => f.write_str("center"),
            Builtin::Nash => f.write_str("nash"),
            Builtin::Mcts(Budget::Iterations(n)) if *n == DEFAULT_ITERATIONS => f.write_str("mcts"),
            Builtin::Mcts(Budget::Iterations(n)) => write!(f, "mcts:{n}"),
            Builtin::Mcts(Budget::Time(t)) => write!(f, "mcts:{}ms", t.as_millis()),
        }
    }
}

/// Whether `program` names an executable file: as a path when it has a
/// `/`, else in one of the directories of `path`.
fn find_program(program: &str, path: Option<&std::ffi::OsStr>) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let executable = |p: &std::path::Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.contains('/') {
        return executable(std::path::Path::new(program));
    }
    path.is_some_and(|path| std::env::split_paths(path).any(|dir| executable(&dir.join(program))))
}

/// The Levenshtein distance between two short words.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

/// Split a command line into words the way a POSIX shell would for plain
/// words: whitespace separates, single quotes keep everything literally,
/// double quotes keep everything but `\"` and `\\`, a backslash outside
/// quotes escapes the next character. No variables, globs or pipes.
pub fn split_command(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("a single quote is not closed".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("a double quote is not closed".into()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("a double quote is not closed".into()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => {
                    in_word = true;
                    word.push(c);
                }
                None => return Err("the line ends with a backslash".into()),
            },
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
        if words.len() > MAX_ARGS {
            return Err(format!("more than {MAX_ARGS} words"));
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_names() {
        assert_eq!(BotSpec::parse("random").unwrap(), BotSpec::Builtin { bot: Builtin::Random });
        assert_eq!(BotSpec::parse("MCTS").unwrap().name(), "mcts");
        assert_eq!(BotSpec::parse("mcts:200").unwrap().name(), "mcts:200");
        assert_eq!(
            BotSpec::parse("mcts:250ms").unwrap(),
            BotSpec::Builtin { bot: Builtin::Mcts(Budget::Time(Duration::from_millis(250))) }
        );
        assert!(matches!(BotSpec::parse("mcts:0"), Err(SpecError::BadBudget(_))));
        assert!(matches!(BotSpec::parse("mcts:lots"), Err(SpecError::BadBudget(_))));
        assert_eq!(BotSpec::parse("  "), Err(SpecError::Empty));
    }

    #[test]
    fn command_lines_split_like_a_shell() {
        let spec = BotSpec::parse("python3 'my bots/center.py' --name \"a \\\"b\\\"\" x\\ y").unwrap();
        let BotSpec::Command { argv, line } = spec else { panic!("a command") };
        assert_eq!(argv, ["python3", "my bots/center.py", "--name", "a \"b\"", "x y"]);
        assert_eq!(line, "python3 'my bots/center.py' --name \"a \\\"b\\\"\" x\\ y");
        assert_eq!(split_command("a ''").unwrap(), ["a", ""]);
        assert!(split_command("a 'b").is_err());
        assert!(split_command("a \"b").is_err());
        assert!(split_command("a \\").is_err());
    }

    #[test]
    fn a_mistyped_builtin_or_a_missing_program_is_refused() {
        let err = BotSpec::parse("mtcs").unwrap().check_program().unwrap_err();
        assert!(matches!(&err, SpecError::UnknownBot(name, hint) if name == "mtcs" && hint.contains("mcts")));
        assert!(err.to_string().contains("random, greedy, center, nash, mcts"), "{err}");
        let err = BotSpec::parse("zzzzzzzz").unwrap().check_program().unwrap_err();
        assert!(matches!(&err, SpecError::UnknownBot(_, hint) if hint.is_empty()), "{err}");
        let err = BotSpec::parse("/nonexistent/bot --x").unwrap().check_program().unwrap_err();
        assert!(matches!(err, SpecError::NoProgram(_, p) if p == "/nonexistent/bot"));
        BotSpec::parse("sh -c true").unwrap().check_program().unwrap();
        BotSpec::parse("/bin/sh").unwrap().check_program().unwrap();
        BotSpec::parse("mcts:20").unwrap().check_program().unwrap();
        assert_eq!(edit_distance("greddy", "greedy"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    proptest::proptest! {
        #[test]
        fn parsing_never_panics(s in "\\PC{0,40}") {
            let _ = BotSpec::parse(&s);
        }

        #[test]
        fn plain_words_round_trip(words in proptest::collection::vec("[a-z0-9./_-]{1,8}", 1..6)) {
            proptest::prop_assert_eq!(split_command(&words.join(" ")).unwrap(), words);
        }
    }
}
