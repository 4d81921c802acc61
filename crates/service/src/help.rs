//! `help` and `list`: generated from the command table and each game's
//! rules and option table, so they are never out of date.

use tabula_i18n::{msg, t};
use tabula_model::Lang;
use tabula_model::{Dynamics, GameInfo, OptionKind, OptionSpec};

use crate::command::{Command, GameCommand, SYNTAX, meaning};
use crate::error::{CommandError, ErrorCode};
use crate::service::Reply;

/// The general help, a game's help, or one command's, in `lang`.
pub fn help(topic: Option<&str>, lang: Lang) -> Result<Reply, CommandError> {
    match topic {
        None => Ok(general(lang)),
        Some(t) => {
            if let Some(kind) = tabula_games::find(t) {
                return Ok(game_help(kind, lang));
            }
            if let Some((name, syntax, id)) = SYNTAX.iter().find(|(n, _, _)| *n == t) {
                let subject = t!(lang, "help-subject-topic", topic = *name);
                return Ok(text_reply(subject, format!("{syntax}\n    {}\n", meaning(id, lang))));
            }
            Err(CommandError::says(
                ErrorCode::UnknownCommand,
                msg!("error-no-help", quoted = format!("{t:?}"), games = game_words().join(", ")),
            ))
        }
    }
}

/// The answer to a command that reads nothing stored (`help`, `list`,
/// `GAME help`), in `lang`, or `None` for every other command: a front
/// end gives it without opening the database.
pub fn stateless(command: &Command, lang: Lang) -> Option<Result<Reply, CommandError>> {
    let answer = match command {
        Command::Help { topic } => help(topic.as_deref(), lang),
        Command::List => Ok(list(lang)),
        Command::Game { kind, command: GameCommand::Help } => help(Some(kind), lang),
        _ => return None,
    };
    Some(answer.map_err(|e| e.localized(lang)))
}

fn game_words() -> Vec<&'static str> {
    tabula_games::all().iter().map(|k| k.info().kind).collect()
}

fn text_reply(subject: String, text: String) -> Reply {
    Reply { subject, text, game: None, data: serde_json::Value::Null }
}

fn general(lang: Lang) -> Reply {
    let mut text = t!(lang, "help-intro", games = game_words().join(", "));
    text.push_str("\n\n");
    for (_, syntax, id) in SYNTAX {
        text.push_str(&format!("  {syntax}\n      {}\n", meaning(id, lang)));
    }
    text.push('\n');
    text.push_str(&t!(lang, "help-outro"));
    text.push('\n');
    text_reply(t!(lang, "help-subject"), text)
}

/// `2 players`, `2 to 8 players`.
fn players(info: &tabula_model::GameInfo, lang: Lang) -> String {
    if info.min_players == info.max_players {
        t!(lang, "players-fixed", count = info.min_players)
    } else {
        t!(lang, "players-range", min = info.min_players, max = info.max_players)
    }
}

/// `list`: the games on offer, in `lang`.
pub fn list(lang: Lang) -> Reply {
    let mut text = t!(lang, "list-heading");
    text.push_str("\n\n");
    for kind in tabula_games::all() {
        let info = kind.info();
        let players = if info.min_players == info.max_players {
            t!(lang, "players-fixed", count = info.min_players)
        } else {
            t!(lang, "list-players-range", min = info.min_players, max = info.max_players)
        };
        let play = match info.dynamics {
            Dynamics::Sequential => t!(lang, "dynamics-sequential"),
            Dynamics::Simultaneous => t!(lang, "dynamics-simultaneous"),
            Dynamics::RealTime => t!(lang, "dynamics-realtime"),
        };
        text.push_str(&format!("  {:<10} {} ({players}, {play})\n", info.kind, info.summary(lang)));
    }
    text.push('\n');
    text.push_str(&t!(lang, "list-outro"));
    text.push('\n');
    text_reply(t!(lang, "list-subject"), text)
}

fn option_line(info: &GameInfo, o: &OptionSpec, lang: Lang) -> String {
    let (syntax, range) = match o.kind {
        OptionKind::Flag => (format!("-{}", o.name), String::new()),
        OptionKind::Int { min, max } => {
            (format!("-{}=N", o.name), t!(lang, "option-range", min = min.to_string(), max = max.to_string()))
        }
        OptionKind::Text { min_len, max_len, .. } => (
            format!("-{}=TEXT", o.name),
            t!(
                lang,
                "option-text-range",
                accepts = info.option_accepts(o, lang).unwrap_or_default(),
                min = min_len,
                max = max_len
            ),
        ),
        OptionKind::Duration { min_secs, max_secs, .. } => (
            format!("-{}=TIME", o.name),
            t!(
                lang,
                "option-range",
                min = tabula_model::format_duration(min_secs),
                max = tabula_model::format_duration(max_secs)
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
        facts.push(t!(lang, "option-default", value = d.to_string()));
    }
    let facts = if facts.is_empty() { String::new() } else { format!(" ({})", facts.join("; ")) };
    format!("  {syntax:<22} {}{facts}\n", info.option_help(o, lang))
}

fn game_help(kind: &'static dyn tabula_model::GameKind, lang: Lang) -> Reply {
    let info = kind.info();
    // The title is the reply's heading (the mail subject, the first line
    // on a terminal): the text does not repeat it.
    let mut text = format!("  {} challenge USERID USERID .. [OPTIONS]\n\n", info.kind);
    text.push_str(&t!(lang, "help-game-starts", players = players(info, lang)));
    text.push_str("\n\n");
    text.push_str(&t!(lang, "help-rules-heading"));
    text.push_str("\n\n");
    text.push_str(info.rules(lang).trim_end());
    text.push_str("\n\n");
    text.push_str(&t!(lang, "help-moves-heading"));
    text.push_str("\n\n");
    text.push_str(info.move_help(lang).trim_end());
    text.push_str("\n\n");
    text.push_str(&t!(lang, "help-options-heading"));
    text.push_str("\n\n");
    for o in info.all_options() {
        text.push_str(&option_line(info, o, lang));
    }
    // Queued moves wait for the player's turn: only games played in turn
    // take them (the command refuses the others).
    let also = if info.dynamics == Dynamics::Sequential { "help-game-also-queue" } else { "help-game-also" };
    text.push('\n');
    text.push_str(&tabula_i18n::text(lang, also, &tabula_i18n::Args::new()));
    text.push('\n');
    text_reply(t!(lang, "help-subject-topic", topic = info.title(lang)), text)
}

#[cfg(test)]
mod tests {
    use super::help;
    use tabula_model::Lang;

    fn game(kind: &str) -> (String, String) {
        let r = help(Some(kind), Lang::En).expect("a game's help");
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
