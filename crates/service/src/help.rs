//! `help` and `list`: generated from the command table and each game's
//! rules and option table, so they are never out of date.

use tabula_i18n::msg;
use tabula_model::Lang;
use tabula_model::{Dynamics, OptionKind, OptionSpec};

use crate::command::{Command, GameCommand, SYNTAX};
use crate::error::{CommandError, ErrorCode};
use crate::service::Reply;

/// The general help, a game's help, or one command's.
pub fn help(topic: Option<&str>) -> Result<Reply, CommandError> {
    match topic {
        None => Ok(general()),
        Some(t) => {
            if let Some(kind) = tabula_games::find(t) {
                return Ok(game_help(kind));
            }
            if let Some((name, syntax, meaning)) = SYNTAX.iter().find(|(n, _, _)| *n == t) {
                return Ok(text_reply(format!("Help for {name}"), format!("{syntax}\n    {meaning}\n")));
            }
            Err(CommandError::says(
                ErrorCode::UnknownCommand,
                msg!("error-no-help", quoted = format!("{t:?}"), games = game_words().join(", ")),
            ))
        }
    }
}

/// The answer to a command that reads nothing stored (`help`, `list`,
/// `GAME help`), or `None` for every other command: a front end gives it
/// without opening the database.
pub fn stateless(command: &Command) -> Option<Result<Reply, CommandError>> {
    match command {
        Command::Help { topic } => Some(help(topic.as_deref())),
        Command::List => Some(Ok(list())),
        Command::Game { kind, command: GameCommand::Help } => Some(help(Some(kind))),
        _ => None,
    }
}

fn game_words() -> Vec<&'static str> {
    tabula_games::all().iter().map(|k| k.info().kind).collect()
}

fn text_reply(subject: String, text: String) -> Reply {
    Reply { subject, text, game: None, data: serde_json::Value::Null }
}

fn general() -> Reply {
    let mut t = String::new();
    t.push_str(
        "Tabula hosts small multiplayer games played by email, from a terminal, on the web\n\
         or through the HTTP API. Every way in takes the same commands.\n\n\
         To start: sign up, challenge other players, then move when it is your turn.\n\
         Moves carry your user id and password, as on pbmserv:\n\n\
         \x20   signup ned secret ned@example.org\n\
         \x20   dna challenge ned ted jed\n\
         \x20   dna move 1 ned secret AAG\n\
         \x20   dna show 1\n\n\
         Commands (GAME is one of: ",
    );
    t.push_str(&game_words().join(", "));
    t.push_str("):\n\n");
    for (_, syntax, meaning) in SYNTAX {
        t.push_str(&format!("  {syntax}\n      {meaning}\n"));
    }
    t.push_str("\n`help GAME` gives a game's rules, options and move syntax; `list` the games on offer.\n");
    text_reply("Tabula help".into(), t)
}

/// `2 players`, `2 to 8 players`.
fn players(info: &tabula_model::GameInfo) -> String {
    if info.min_players == info.max_players {
        format!("{} players", info.min_players)
    } else {
        format!("{} to {} players", info.min_players, info.max_players)
    }
}

/// `list`: the games on offer.
pub fn list() -> Reply {
    let mut t = String::from("Games on offer:\n\n");
    for kind in tabula_games::all() {
        let info = kind.info();
        let players = if info.min_players == info.max_players {
            format!("{} players", info.min_players)
        } else {
            format!("{}-{} players", info.min_players, info.max_players)
        };
        let play = match info.dynamics {
            Dynamics::Sequential => "in turn",
            Dynamics::Simultaneous => "simultaneous secret moves",
            Dynamics::RealTime => "real time",
        };
        t.push_str(&format!("  {:<10} {} ({players}, {play})\n", info.kind, info.summary(Lang::En)));
    }
    t.push_str("\n`help GAME` tells how to play one.\n");
    text_reply("Tabula games".into(), t)
}

fn option_line(o: &OptionSpec) -> String {
    let (syntax, range) = match o.kind {
        OptionKind::Flag => (format!("-{}", o.name), String::new()),
        OptionKind::Int { min, max } => (format!("-{}=N", o.name), format!("{min} to {max}")),
        OptionKind::Text { min_len, max_len, accepts } => {
            (format!("-{}=TEXT", o.name), format!("{accepts}, {min_len} to {max_len} characters"))
        }
        OptionKind::Duration { min_secs, max_secs, .. } => (
            format!("-{}=TIME", o.name),
            format!(
                "{} to {}",
                tabula_model::format_duration(min_secs),
                tabula_model::format_duration(max_secs)
            ),
        ),
        OptionKind::Choice { choices } => (format!("-{}=WORD", o.name), choices.join(", ")),
    };
    let mut facts = Vec::new();
    if !range.is_empty() {
        facts.push(range);
    }
    if let Some(d) = o.default
        && o.kind != OptionKind::Flag
    {
        facts.push(format!("default {d}"));
    }
    let facts = if facts.is_empty() { String::new() } else { format!(" ({})", facts.join("; ")) };
    format!("  {syntax:<22} {}{facts}\n", o.help)
}

fn game_help(kind: &'static dyn tabula_model::GameKind) -> Reply {
    let info = kind.info();
    // The title is the reply's heading (the mail subject, the first line
    // on a terminal): the text does not repeat it.
    let mut t = format!("  {} challenge USERID USERID .. [OPTIONS]\n\n", info.kind);
    t.push_str(&format!("starts a game for {}, in the order given.\n\n", players(info)));
    t.push_str("Rules\n\n");
    t.push_str(info.rules(Lang::En).trim_end());
    t.push_str("\n\nMoves\n\n");
    t.push_str(info.move_help(Lang::En).trim_end());
    t.push_str("\n\nOptions\n\n");
    for o in info.all_options() {
        t.push_str(&option_line(o));
    }
    // Queued moves wait for the player's turn: only games played in turn
    // take them (the command refuses the others).
    let queue = if info.dynamics == Dynamics::Sequential { "queue, " } else { "" };
    t.push_str(&format!(
        "\nEvery game also takes the commands of `help` (show, showas, history, resign,\n\
         draw and undo proposals, {queue}submit/confirm, chat, subscribe ...).\n"
    ));
    text_reply(format!("Help for {}", info.title(Lang::En)), t)
}

#[cfg(test)]
mod tests {
    use super::help;

    fn game(kind: &str) -> (String, String) {
        let r = help(Some(kind)).expect("a game's help");
        (r.subject, r.text)
    }

    #[test]
    fn a_games_help_says_each_thing_once_and_only_what_holds() {
        for kind in super::game_words() {
            let (subject, text) = game(kind);
            // The shared model's proposal lines read right too.
            assert!(!text.contains("a undo"), "{kind}:\n{text}");
            assert!(subject.starts_with("Help for "), "{subject}");
            assert!(!text.contains("Help for"), "{kind}: the title is the heading only:\n{text}");
            assert!(!text.contains("move move"), "{kind}:\n{text}");
            let info = tabula_games::find(kind).expect("a game").info();
            for o in info.options {
                let syntax = format!("-{}", o.name);
                let listed = text
                    .lines()
                    .filter(|l| {
                        l.trim_start().starts_with(&format!("{syntax} "))
                            || l.trim_start().starts_with(&format!("{syntax}="))
                    })
                    .count();
                assert_eq!(listed, 1, "{kind}: {syntax} is listed once:\n{text}");
            }
            // `queue` is promised only where the command takes queued moves.
            let sequential = info.dynamics == tabula_model::Dynamics::Sequential;
            assert_eq!(text.contains("queue"), sequential, "{kind}:\n{text}");
        }
        let (_, intervalo) = game("intervalo");
        assert!(intervalo.contains("starts a game for 2 players, in the order given."), "{intervalo}");
        let (_, dna) = game("dna");
        assert!(dna.contains("starts a game for 2 to 8 players"), "{dna}");
        assert!(dna.contains("ned (36): TCGCATGTACAAAGTTTTCAATCTTCGCCTTGAGAG"), "{dna}");
        let (_, rewrite) = game("rewrite");
        assert!(rewrite.contains("Merkkikorvauspeli"), "{rewrite}");
        assert!(rewrite.contains("tacACCac"), "the seed's worked example: {rewrite}");
        assert!(rewrite.contains("quote a rule"), "{rewrite}");
    }
}
