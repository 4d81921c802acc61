//! The command line's own help in the reader's language.
//!
//! clap writes help from the doc comments of the option structs, which are
//! English. For another language one walk over the command tree, before
//! clap builds it, puts in the catalogue's texts (`cli-help.ftl`), keyed by
//! where each text sits: for the command at `path` (`tabula`, `tabula-serve`,
//! `tabula-bot-connect`) `cli-PATH-about`, `cli-PATH-about-long` and
//! `cli-PATH-after`; for its argument `ID`, `cli-PATH-arg-ID` and
//! `cli-PATH-arg-ID-long`; for a choice `NAME` of it, `cli-PATH-arg-ID-value-NAME`.
//! The English catalogue holds the doc comments' own words, checked equal by
//! a test, so English help is clap's as it always was and needs no walk.
//! clap's own words (the usage heading, the section headings, the help and
//! version flags, defaults and choices) come from `cli.ftl` the same way.

use std::sync::OnceLock;

use clap::builder::StyledStr;
use clap::error::{ContextKind, ContextValue, ErrorFormatter, ErrorKind, RichFormatter};
use clap::{Arg, ArgAction, Command};
use tabula_i18n::{fixed_text, t};
use tabula_model::Lang;

/// The language of this process's command line, once known (see [`set_lang`]).
static LANG: OnceLock<Lang> = OnceLock::new();

/// Say which language the command line's errors are written in.
pub fn set_lang(lang: Lang) {
    let _ = LANG.set(lang);
}

/// The language of this process's command line: what the operator
/// commands' own messages are written in.
pub fn lang() -> Lang {
    LANG.get().copied().unwrap_or_default()
}

/// `cmd`, named by `path`, and everything under it, with its texts in
/// `lang` (as it is for English).
pub fn localized(cmd: Command, path: &str, lang: Lang) -> Command {
    if lang == Lang::En {
        return cmd;
    }
    walk(cmd, path, lang)
}

/// The language a command line asks for before it is parsed: its `--lang`,
/// else the locale's, so that `--help` is written in it.
pub fn lang_of(args: &[std::ffi::OsString]) -> Lang {
    let mut words = args.iter().filter_map(|a| a.to_str());
    while let Some(word) = words.next() {
        let value = match word {
            "--" => break,
            "--lang" => words.next(),
            w => w.strip_prefix("--lang="),
        };
        if let Some(lang) = value.and_then(Lang::parse) {
            return lang;
        }
    }
    Lang::from_env()
}

/// The fixed text of catalogue message `id` in `lang`, if there is one.
fn text(lang: Lang, id: &str) -> Option<&'static str> {
    fixed_text(lang, id)
}

/// The fixed text of one of clap's own words (see `cli.ftl`): kept for the
/// process's life, as clap wants its headings.
fn word(lang: Lang, id: &str) -> &'static str {
    fixed_text(lang, id).unwrap_or_default()
}

fn walk(mut cmd: Command, path: &str, lang: Lang) -> Command {
    if let Some(about) = text(lang, &format!("cli-{path}-about")) {
        cmd = cmd.about(about);
    }
    if let Some(long) = text(lang, &format!("cli-{path}-about-long")) {
        cmd = cmd.long_about(long);
    }
    if let Some(after) = text(lang, &format!("cli-{path}-after")) {
        cmd = cmd.after_help(after);
    }
    let long_help = has_long_help(&cmd);
    cmd = cmd.mut_args(|arg| localized_arg(arg, path, lang));
    if !cmd.is_disable_help_flag_set() {
        let help = match long_help {
            true => Arg::new("help")
                .help(t!(lang, "cli-flag-help-more"))
                .long_help(t!(lang, "cli-flag-help-summary")),
            false => Arg::new("help").help(t!(lang, "cli-flag-help")),
        };
        let help = help.short('h').long("help").action(ArgAction::Help);
        cmd = cmd.disable_help_flag(true).arg(help.help_heading(word(lang, "cli-heading-options")));
    }
    if cmd.get_version().is_some() && !cmd.is_disable_version_flag_set() {
        let version = Arg::new("version").short('V').long("version").action(ArgAction::Version);
        let version =
            version.help(t!(lang, "cli-flag-version")).help_heading(word(lang, "cli-heading-options"));
        cmd = cmd.disable_version_flag(true).arg(version);
    }
    let usage = t!(lang, "cli-heading-usage");
    cmd = cmd
        .help_template(format!(
            "{{before-help}}{{about-with-newline}}\n{usage} {{usage}}\n\n{{all-args}}{{after-help}}"
        ))
        .subcommand_help_heading(word(lang, "cli-heading-commands"));
    let path = path.to_string();
    cmd.mut_subcommands(|sub| {
        let below = format!("{path}-{}", sub.get_name());
        walk(sub, &below, lang)
    })
}

/// Whether clap will offer a long help for `cmd` (`--help` longer than
/// `-h`), so that its help flag says so.
fn has_long_help(cmd: &Command) -> bool {
    cmd.get_long_about().is_some()
        || cmd.get_arguments().any(|a| {
            a.get_long_help().is_some()
                || (!a.is_hide_possible_values_set()
                    && a.get_possible_values().iter().any(|v| v.get_help().is_some()))
        })
}

fn localized_arg(mut arg: Arg, path: &str, lang: Lang) -> Arg {
    let key = format!("cli-{path}-arg-{}", arg.get_id());
    let mut help = text(lang, &key).map(str::to_string).or_else(|| arg.get_help().map(|h| h.to_string()));
    let mut long = text(lang, &format!("{key}-long"))
        .map(str::to_string)
        .or_else(|| arg.get_long_help().map(|h| h.to_string()));
    let takes_values = arg.get_action().takes_values();
    let defaults: Vec<String> =
        arg.get_default_values().iter().map(|v| v.to_string_lossy().into_owned()).collect();
    if takes_values && !defaults.is_empty() && !arg.is_hide_default_value_set() {
        let default = t!(lang, "cli-default", value = defaults.join(", "));
        help = Some(join(help, " ", &default));
        long = long.map(|l| format!("{l}\n\n{default}"));
        arg = arg.hide_default_value(true);
    }
    let choices = arg.get_possible_values();
    if takes_values && !choices.is_empty() && !arg.is_hide_possible_values_set() {
        let names: Vec<&str> = choices.iter().filter(|c| !c.is_hide_set()).map(|c| c.get_name()).collect();
        if choices.iter().any(|c| c.get_help().is_some()) {
            let mut list = t!(lang, "cli-choices-heading");
            for choice in choices.iter().filter(|c| !c.is_hide_set()) {
                let name = choice.get_name();
                let said = text(lang, &format!("{key}-value-{name}"))
                    .map(str::to_string)
                    .or_else(|| choice.get_help().map(|h| h.to_string()));
                list.push_str(&match said {
                    Some(said) => format!("\n- {name}: {said}"),
                    None => format!("\n- {name}"),
                });
            }
            let base = long.clone().or_else(|| help.clone()).unwrap_or_default();
            long = Some(format!("{base}\n\n{list}"));
        }
        help = Some(join(help, " ", &t!(lang, "cli-choices", values = names.join(", "))));
        arg = arg.hide_possible_values(true);
    }
    if let Some(help) = help {
        arg = arg.help(help);
    }
    if let Some(long) = long {
        arg = arg.long_help(long);
    }
    let heading = match arg.get_help_heading() {
        Some(crate::cli::GLOBAL) => "cli-heading-global",
        Some(_) => return arg,
        None if arg.is_positional() => "cli-heading-arguments",
        None => "cli-heading-options",
    };
    arg.help_heading(word(lang, heading))
}

fn join(first: Option<String>, between: &str, then: &str) -> String {
    match first {
        Some(f) if !f.is_empty() => format!("{f}{between}{then}"),
        _ => then.to_string(),
    }
}

#[cfg(test)]
/// Every text of the command tree at `path` that the catalogue holds, with
/// its id, as clap has it in English (for the check that the English
/// catalogue says what the doc comments say, and to write it).
pub fn texts(cmd: &Command, path: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut put = |id: String, text: Option<String>| {
        if let Some(text) = text.filter(|t| !t.is_empty()) {
            out.push((id, text));
        }
    };
    put(format!("cli-{path}-about"), cmd.get_about().map(|s| s.to_string()));
    put(format!("cli-{path}-about-long"), cmd.get_long_about().map(|s| s.to_string()));
    put(format!("cli-{path}-after"), cmd.get_after_help().map(|s| s.to_string()));
    for arg in cmd.get_arguments() {
        let key = format!("cli-{path}-arg-{}", arg.get_id());
        put(key.clone(), arg.get_help().map(|s| s.to_string()));
        put(format!("{key}-long"), arg.get_long_help().map(|s| s.to_string()));
        for choice in arg.get_possible_values() {
            put(format!("{key}-value-{}", choice.get_name()), choice.get_help().map(|s| s.to_string()));
        }
    }
    for sub in cmd.get_subcommands() {
        out.extend(texts(sub, &format!("{path}-{}", sub.get_name())));
    }
    out
}

/// clap's errors in another language than English (see [`set_lang`]):
/// the common ones written from the catalogue, with the usage line and the
/// hint to `--help`; the rare others as clap writes them.
#[derive(Clone, Copy, Debug)]
pub struct Localized;

impl ErrorFormatter for Localized {
    fn format_error(error: &clap::error::Error<Self>) -> StyledStr {
        let lang = lang();
        let Some(line) = problem(error, lang) else {
            // As clap words it, from the same facts.
            let mut english = clap::error::Error::<RichFormatter>::new(error.kind());
            for (kind, value) in error.context() {
                english.insert(kind, value.clone());
            }
            return english.render();
        };
        let mut out = format!("{} {line}", t!(lang, "cli-error"));
        let suggested =
            [ContextKind::SuggestedArg, ContextKind::SuggestedSubcommand, ContextKind::SuggestedValue]
                .into_iter()
                .find_map(|kind| match error.get(kind) {
                    Some(ContextValue::String(s)) => Some(s.clone()),
                    Some(ContextValue::Strings(s)) => s.first().cloned(),
                    _ => None,
                });
        if let Some(suggestion) = suggested {
            out.push_str(&format!("\n\n  {}", t!(lang, "cli-error-did-you-mean", suggestion = suggestion)));
        }
        if let Some(ContextValue::StyledStr(usage)) = error.get(ContextKind::Usage) {
            let usage = usage.to_string();
            let usage = usage
                .strip_prefix("Usage:")
                .map_or(usage.clone(), |rest| format!("{}{rest}", word(lang, "cli-heading-usage")));
            out.push_str(&format!("\n\n{usage}"));
        }
        out.push_str(&format!("\n\n{}\n", t!(lang, "cli-error-more")));
        StyledStr::from(out)
    }
}

/// What went wrong, in `lang`, for the errors the catalogue words.
fn problem(error: &clap::error::Error<Localized>, lang: Lang) -> Option<String> {
    let text = |kind: ContextKind| match error.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        _ => None,
    };
    let list = |kind: ContextKind| match error.get(kind) {
        Some(ContextValue::Strings(s)) => Some(s.join(", ")),
        _ => None,
    };
    Some(match error.kind() {
        ErrorKind::UnknownArgument => {
            t!(lang, "cli-error-unknown-argument", arg = text(ContextKind::InvalidArg)?)
        }
        ErrorKind::InvalidSubcommand => {
            t!(lang, "cli-error-unknown-command", command = text(ContextKind::InvalidSubcommand)?)
        }
        ErrorKind::InvalidValue => {
            let (arg, value) = (text(ContextKind::InvalidArg)?, text(ContextKind::InvalidValue)?);
            let mut line = match value.is_empty() {
                true => t!(lang, "cli-error-value-required", arg = arg),
                false => t!(lang, "cli-error-invalid-value", arg = arg, value = value),
            };
            if let Some(values) = list(ContextKind::ValidValue).filter(|v| !v.is_empty()) {
                line.push_str(&format!("\n  {}", t!(lang, "cli-choices", values = values)));
            }
            line
        }
        ErrorKind::ValueValidation => {
            let (arg, value) = (text(ContextKind::InvalidArg)?, text(ContextKind::InvalidValue)?);
            let line = t!(lang, "cli-error-invalid-value", arg = arg, value = value);
            match std::error::Error::source(error) {
                Some(why) => format!("{line}: {why}"),
                None => line,
            }
        }
        ErrorKind::MissingRequiredArgument => {
            t!(lang, "cli-error-missing", args = list(ContextKind::InvalidArg)?)
        }
        ErrorKind::ArgumentConflict => {
            let arg = text(ContextKind::InvalidArg)?;
            match error.get(ContextKind::PriorArg) {
                Some(ContextValue::String(prior)) if *prior == arg => t!(lang, "cli-error-twice", arg = arg),
                Some(ContextValue::String(prior)) => {
                    t!(lang, "cli-error-conflict", arg = arg, other = prior.as_str())
                }
                Some(ContextValue::Strings(prior)) => {
                    t!(lang, "cli-error-conflict", arg = arg, other = prior.join(", "))
                }
                _ => return None,
            }
        }
        ErrorKind::TooManyValues => t!(
            lang,
            "cli-error-too-many",
            arg = text(ContextKind::InvalidArg)?,
            value = text(ContextKind::InvalidValue)?
        ),
        ErrorKind::MissingSubcommand => t!(lang, "cli-error-no-command"),
        ErrorKind::NoEquals => t!(lang, "cli-error-no-equals", arg = text(ContextKind::InvalidArg)?),
        _ => return None,
    })
}

/// Print a clap error (or the help it carries) in the command line's
/// language, and give its exit status.
pub fn exit(e: clap::Error) -> std::process::ExitCode {
    let code = e.exit_code();
    print(e);
    std::process::ExitCode::from(u8::try_from(code).unwrap_or(2))
}

/// Print a clap error (or the help it carries) in the command line's
/// language: English as clap writes it.
pub fn print(e: clap::Error) {
    let _ = match lang() {
        Lang::En => e.print(),
        _ => e.apply::<Localized>().print(),
    };
}

/// Parse `argv` (the program's name first) for the stand-alone parser `T`
/// at `path`, its help in `lang`.
///
/// # Errors
/// clap's, for bad usage and for `--help` (printed by the caller).
pub fn parse<T: clap::Parser>(
    argv: impl IntoIterator<Item = String>,
    path: &str,
    lang: Lang,
) -> Result<T, clap::Error> {
    let matches = localized(T::command(), path, lang).try_get_matches_from(argv)?;
    T::from_arg_matches(&matches)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every parser of the binary with its path.
    fn trees() -> Vec<(&'static str, Command)> {
        let mut out = vec![("tabula", crate::cli::server_command())];
        out.extend(crate::botcmd::parsers());
        out.extend(crate::tools::parsers());
        out
    }

    /// `text` as a Fluent message `id`: continuation lines indented, blank
    /// lines kept, braces and line-initial `[`, `*`, `.` quoted.
    fn entry(id: &str, text: &str) -> String {
        let quote = |line: &str| {
            let line = line.replace('{', "\u{1}").replace('}', "{\"}\"}").replace('\u{1}', "{\"{\"}");
            match line.chars().next() {
                Some(c @ ('[' | '*' | '.')) => format!("{{\"{c}\"}}{}", &line[1..]),
                _ => line,
            }
        };
        let lines: Vec<String> = text.lines().map(quote).collect();
        if lines.len() == 1 {
            return format!("{id} = {}\n", lines[0]);
        }
        let mut out = format!("{id} =\n");
        for line in lines {
            if line.is_empty() {
                out.push('\n');
            } else {
                out.push_str(&format!("    {line}\n"));
            }
        }
        out
    }

    #[test]
    fn the_english_catalogue_says_what_the_doc_comments_say() {
        let mut wrong = Vec::new();
        let mut all = String::new();
        let mut ids = std::collections::BTreeSet::new();
        for (path, tree) in trees() {
            for (id, text) in texts(&tree, path) {
                if fixed_text(Lang::En, &id) != Some(text.as_str()) {
                    wrong.push(id.clone());
                }
                all.push_str(&entry(&id, &text));
                ids.insert(id);
            }
        }
        let catalogue =
            tabula_i18n::sources(Lang::En).iter().find(|(n, _)| n.ends_with("cli-help.ftl")).unwrap().1;
        let stale: Vec<&str> = catalogue
            .lines()
            .filter_map(|l| l.split_once(" =").map(|(id, _)| id))
            .filter(|id| id.starts_with("cli-") && !ids.contains(*id))
            .collect();
        assert!(
            wrong.is_empty() && stale.is_empty(),
            "the English cli-help.ftl differs from the doc comments at {wrong:?}, and holds {stale:?} no more; \
             what it should hold:\n{all}"
        );
    }
}
