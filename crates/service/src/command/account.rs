//! The commands that are not a game's: accounts (`signup`, `change`,
//! `signoff`, `notify`, `vacation`, `limit`, `policy`, `language`, `bot`),
//! `help` and `list`.
//! How each is read, printed back, and where its passwords are.

use tabula_i18n::msg;
use tabula_model::Lang;

use super::syntax::{syntax, usage};
use super::{Command, Credentials, MAX_ACTIVE_GAMES};
use crate::error::{CommandError, ErrorCode};

/// The words that start a command of this family (`register` is
/// pbmserv's `signup`).
pub const ACCOUNT_WORDS: &[&str] = &[
    "signup", "register", "change", "signoff", "notify", "vacation", "limit", "policy", "language", "bot",
    "help", "list",
];

/// The second words of `change`.
pub(super) const CHANGE_WORDS: &[&str] = &["password", "address"];

/// Read the words after `head`, a lower-cased word of [`ACCOUNT_WORDS`].
pub(super) fn parse(head: &str, rest: &[&str]) -> Result<Command, CommandError> {
    let creds = |w: &[&str]| Credentials::new(w[0], w[1]);
    match head {
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
            _ => Err(CommandError::says(
                ErrorCode::Usage,
                msg!(
                    "error-usage-either",
                    first = syntax("change password"),
                    second = syntax("change address")
                ),
            )),
        },
        "signoff" => match rest {
            [u, p] => Ok(Command::Signoff { auth: creds(&[u, p]) }),
            _ => Err(usage("signoff")),
        },
        "help" => match rest {
            [] => Ok(Command::Help { topic: None }),
            [t] => Ok(Command::Help { topic: Some(t.to_ascii_lowercase()) }),
            _ => Err(usage("help")),
        },
        "list" => Ok(Command::List),
        "bot" => match rest {
            [switch, u, p] => match switch.to_ascii_lowercase().as_str() {
                "on" => Ok(Command::Bot { auth: creds(&[u, p]), on: true }),
                "off" => Ok(Command::Bot { auth: creds(&[u, p]), on: false }),
                _ => Err(usage("bot")),
            },
            _ => Err(usage("bot")),
        },
        switch => parse_switch(rest, switch),
    }
}

/// `notify`, `vacation`, `limit`, `policy` and `language`: `USERID PASSWORD VALUE`.
fn parse_switch(rest: &[&str], name: &str) -> Result<Command, CommandError> {
    let [u, p, v] = rest else { return Err(usage(name)) };
    let auth = Credentials::new(u, p);
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
                    return Err(CommandError::says(
                        ErrorCode::Usage,
                        msg!("error-usage-vacation", syntax = syntax("vacation")),
                    ));
                }
            },
        },
        "limit" => match v.as_str() {
            "off" | "none" => Command::Limit { auth, limit: None },
            n => match n.parse::<u32>() {
                Ok(l) if l as usize <= MAX_ACTIVE_GAMES => Command::Limit { auth, limit: Some(l) },
                _ => {
                    return Err(CommandError::says(
                        ErrorCode::Usage,
                        msg!("error-usage-limit", syntax = syntax("limit"), max = MAX_ACTIVE_GAMES),
                    ));
                }
            },
        },
        "language" => match Lang::ALL.into_iter().find(|l| l.code() == v) {
            Some(lang) => Command::Language { auth, lang },
            // Only the bare codes: `fi_FI.UTF-8` is a locale, not a word of
            // the command language.
            None => {
                let given: String = v.chars().take(40).collect();
                return Err(CommandError::says(
                    ErrorCode::BadValue,
                    msg!("error-language-unknown", given = given),
                ));
            }
        },
        _ => match v.as_str() {
            "open" => Command::Policy { auth, ask: false },
            "ask" => Command::Policy { auth, ask: true },
            _ => return Err(bad()),
        },
    })
}

/// The words of an account command, `help` or `list` as [`parse`] reads
/// them, and the positions of its passwords among them; `None` for a
/// game's command.
pub(super) fn words(command: &Command) -> Option<(Vec<String>, Vec<usize>)> {
    let switch = |name: &str, auth: &Credentials, value: String| {
        (vec![name.to_string(), auth.user.clone(), auth.password.clone(), value], vec![2])
    };
    Some(match command {
        Command::Signup { user, password, emails } => {
            let mut w = vec!["signup".to_string(), user.clone(), password.clone()];
            w.extend(emails.iter().cloned());
            (w, vec![2])
        }
        Command::ChangePassword { auth, new_password } => (
            vec![
                "change".into(),
                "password".into(),
                auth.user.clone(),
                auth.password.clone(),
                new_password.clone(),
            ],
            vec![3, 4],
        ),
        Command::ChangeAddress { auth, emails } => {
            let mut w = vec!["change".into(), "address".into(), auth.user.clone(), auth.password.clone()];
            w.extend(emails.iter().cloned());
            (w, vec![3])
        }
        Command::Signoff { auth } => {
            (vec!["signoff".into(), auth.user.clone(), auth.password.clone()], vec![2])
        }
        Command::Notify { auth, on } => switch("notify", auth, if *on { "on" } else { "off" }.into()),
        Command::Vacation { auth, days } => {
            switch("vacation", auth, days.filter(|d| *d > 0).map_or("off".into(), |d| d.to_string()))
        }
        Command::Limit { auth, limit } => {
            switch("limit", auth, limit.map_or("off".into(), |n| n.to_string()))
        }
        Command::Policy { auth, ask } => switch("policy", auth, if *ask { "ask" } else { "open" }.into()),
        Command::Language { auth, lang } => switch("language", auth, lang.code().into()),
        Command::Bot { auth, on } => (
            vec![
                "bot".into(),
                if *on { "on" } else { "off" }.into(),
                auth.user.clone(),
                auth.password.clone(),
            ],
            vec![3],
        ),
        Command::Help { topic: None } => (vec!["help".into()], Vec::new()),
        Command::Help { topic: Some(t) } => (vec!["help".into(), t.clone()], Vec::new()),
        Command::List => (vec!["list".into()], Vec::new()),
        Command::Game { .. } => return None,
    })
}

/// The credentials an account command proves itself with; `None` for
/// `signup` (its password is a new one), `help`, `list` and game commands.
pub(super) fn credentials(command: &Command) -> Option<&Credentials> {
    match command {
        Command::ChangePassword { auth, .. }
        | Command::ChangeAddress { auth, .. }
        | Command::Signoff { auth }
        | Command::Notify { auth, .. }
        | Command::Vacation { auth, .. }
        | Command::Limit { auth, .. }
        | Command::Policy { auth, .. }
        | Command::Language { auth, .. }
        | Command::Bot { auth, .. } => Some(auth),
        _ => None,
    }
}
