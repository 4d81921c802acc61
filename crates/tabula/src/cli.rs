//! The command line: one clap parser for every subcommand.
//!
//! Two kinds of subcommand share it. The server's own (`serve`, `mail`,
//! `outbox`, `cron`, `backup`, `tournament`, `worker`, `life run`) are
//! declared here with their options. The command language's (`signup`,
//! `help`, `dna move ..`, one per game of the registry and per account verb)
//! take their words as they would arrive by email: the service parses them,
//! so the CLI, mail, the API and the web share one grammar and one set of
//! errors. The global options `--db`, `--now`, `--json` and `--lang` are
//! accepted before or after the subcommand, as `--opt value` or `--opt=value`; a
//! word `--` ends them, for a move that would look like one.

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::parser::ValueSource;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use tabula_i18n::t;

use crate::help::lang;
use tabula_model::Lang;
use tabula_service::command::{SYNTAX, meaning};
use tabula_service::{Caller, Clock, Command, CommandError, ErrorCode, Service};

const AFTER_HELP: &str = "\
Every command of the command language runs exactly as it would arrive by
email, and prints the reply: a heading (the mail subject), the status, the
move list and the board as you may see it.

Examples:
  tabula signup ned secret ned@example.org
  tabula signup ted secret2 ted@example.org
  tabula dna challenge ned ted -seed=1
  tabula dna move 1 ned secret AAG
  tabula dna show 1
  tabula help dna        a game's rules, options and move syntax
  tabula serve           web pages and the API on http://127.0.0.1:8080/

`tabula COMMAND --help` describes each command. Exit status: 0 done,
1 rejected (the reason is printed), 2 bad usage.";

/// The whole command line.
#[derive(Parser, Debug)]
#[command(
    name = "tabula",
    version,
    about = "Tabula: a server for small multiplayer games played by email, from a terminal, on the web or through an HTTP API",
    after_help = AFTER_HELP,
    disable_help_subcommand = true,
    subcommand_required = true,
    allow_external_subcommands = true,
    max_term_width = 100
)]
struct Cli {
    #[command(flatten)]
    global: Global,
    #[command(subcommand)]
    command: Server,
}

/// The heading of the global options in every command's help.
pub const GLOBAL: &str = "Global options (before or after the command)";

/// Options every command takes, before or after the command word.
#[derive(Args, Clone, Debug)]
pub struct Global {
    /// The database: a SQLite file (created if missing) or a PostgreSQL URL
    /// (postgres://user:password@host/db)
    #[arg(long, global = true, value_name = "DB", default_value = "tabula.db", help_heading = GLOBAL)]
    pub db: String,
    /// Fix the clock (RFC 3339, e.g. 2026-01-01T12:00:00Z), for tests,
    /// replays and demos
    #[arg(long, global = true, value_name = "TIME", value_parser = parse_time, help_heading = GLOBAL)]
    pub now: Option<i64>,
    /// Print machine-readable JSON
    #[arg(long, global = true, help_heading = GLOBAL)]
    pub json: bool,
    /// The language of replies and errors: en, fi or es [default: from
    /// LC_ALL, LC_MESSAGES or LANG, else en]
    #[arg(long, global = true, value_name = "LANG", help_heading = GLOBAL)]
    pub lang: Option<Lang>,
}

impl Global {
    /// The language the person at the terminal reads: `--lang`, else the
    /// POSIX locale variables'. Command words stay English whatever it is.
    pub fn lang(&self) -> Lang {
        self.lang.unwrap_or_else(Lang::from_env)
    }
}

fn parse_time(text: &str) -> Result<i64, String> {
    chrono::DateTime::parse_from_rfc3339(text)
        .map(|t| t.timestamp_millis())
        .map_err(|e| format!("not an RFC 3339 time such as 2026-01-01T12:00:00Z ({e})"))
}

/// The server's own subcommands.
#[derive(Subcommand, Debug)]
enum Server {
    Serve(crate::serve::ServeArgs),
    Mail(crate::mail::MailArgs),
    Outbox(OutboxArgs),
    Cron(CronArgs),
    Backup(crate::backup::BackupArgs),
    Tournament(crate::tournament::TournamentArgs),
    Worker(crate::worker::WorkerArgs),
    Life(crate::tools::LifeArgs),
}

/// Show what waits in the outbox to be sent, and what was given up
///
/// The newest rows last. Replies and notifications are written to the
/// outbox in the same transaction as the move and sent by
/// `tabula serve --relay RELAY`.
#[derive(Args, Debug)]
struct OutboxArgs {
    /// Show at most N rows (the newest)
    #[arg(long, value_name = "N", default_value_t = 50, value_parser = clap::value_parser!(i64).range(1..=100_000))]
    limit: i64,
}

/// Run what is due once: clock events, reminders, forfeits and digests
///
/// For installations that drive the scheduler from cron, as pbmserv was
/// run, and for tests with --now. `tabula serve` does the same continuously.
#[derive(Args, Debug)]
struct CronArgs {
    /// The address mail comes from (with --relay)
    #[arg(long, value_name = "ADDRESS", default_value = "tabula@localhost")]
    mail_from: String,
    #[command(flatten)]
    send: crate::mail::SendArgs,
}

/// The calculators that sit under a game's word: `tabula dna remove ..`.
type Calculator = fn(&Global, &[String]) -> Result<ExitCode>;
const CALCULATORS: &[(&str, &str, Calculator)] =
    &[("dna", "remove", crate::tools::dna_remove), ("rewrite", "run", crate::tools::rewrite)];

/// The lines of the command table the service's `help` prints that start
/// with a word of their own (`signup`, `change password`, `help` ..): each
/// line's first word and its meaning's catalogue id.
fn account_lines() -> impl Iterator<Item = (&'static str, &'static str)> {
    SYNTAX
        .iter()
        .filter(|(_, syntax, _)| !syntax.starts_with("GAME "))
        .map(|(name, _, id)| (name.split(' ').next().unwrap_or(name), *id))
}

/// The words of the command language that start a command on their own,
/// with what they do.
fn account_verbs(lang: Lang) -> Vec<(&'static str, String)> {
    let mut verbs: Vec<(&'static str, String)> = Vec::new();
    for (verb, id) in account_lines() {
        let meaning = &meaning(id, lang);
        match verbs.iter_mut().find(|(v, _)| *v == verb) {
            Some((_, about)) => {
                about.push_str("; ");
                about.push_str(meaning);
            }
            // The table's line speaks of itself ("this text").
            None if verb == "help" => verbs.push((verb, t!(lang, "cli-help-verb"))),
            None => verbs.push((verb, capitalise(meaning))),
        }
    }
    verbs
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// A subcommand of the command language: its words go to the service.
fn language_command(name: &'static str, about: String) -> clap::Command {
    clap::Command::new(name)
        .about(about)
        // `--help` is answered from the command table, like `help WORD`.
        .disable_help_flag(true)
        .arg(
            clap::Arg::new("words")
                .num_args(0..)
                .allow_hyphen_values(true)
                .trailing_var_arg(true)
                .value_name("WORDS"),
        )
}

/// The whole parser, its help in `lang`: the server's subcommands, then
/// one per account verb and one per game of the registry. Lines of the
/// command language are read without it (see [`language_line`]); the
/// server's subcommands are parsed without its texts, which put every
/// verb's meaning into words for help and errors.
fn command(lang: Lang) -> clap::Command {
    let mut cmd = crate::help::localized(Cli::command(), "tabula", lang);
    for (verb, about) in account_verbs(lang) {
        cmd = cmd.subcommand(language_command(verb, about));
    }
    for kind in tabula_games::all() {
        let info = kind.info();
        cmd = cmd
            .subcommand(language_command(info.kind, format!("{}: {}", info.title(lang), info.summary(lang))));
    }
    cmd
}

/// The server's own subcommands' parser, without the command language's
/// (whose texts come from the service's catalogue).
#[cfg(test)]
pub(crate) fn server_command() -> clap::Command {
    Cli::command()
}

/// Print a clap error (or help) and give its exit status.
pub fn clap_exit(e: clap::Error) -> ExitCode {
    crate::help::exit(e)
}

pub fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    let lang = crate::help::lang_of(args.get(1..).unwrap_or_default());
    crate::help::set_lang(lang);
    if let Some(line) = language_line(&args, lang) {
        return match line {
            Ok(LanguageLine { global, first, words }) => exit_code(language(global, &first, words)),
            Err(e) => clap_exit(e),
        };
    }
    let matches = match Cli::command().try_get_matches_from(&args) {
        Ok(m) => m,
        // Help, the version and errors: parsed again with the texts they show.
        Err(_) => match command(lang).try_get_matches_from(args) {
            Ok(m) => m,
            Err(e) => return clap_exit(e),
        },
    };
    let global = match Global::from_arg_matches(&matches) {
        Ok(g) => g,
        Err(e) => return clap_exit(e),
    };
    let result = match matches.subcommand_name() {
        Some(name) if Server::has_subcommand(name) => match Server::from_arg_matches(&matches) {
            Ok(server) => run_server(&global, server),
            Err(e) => return clap_exit(e),
        },
        // Every other first word is the command language's, read above.
        _ => {
            return clap_exit(
                command(lang)
                    .error(clap::error::ErrorKind::MissingSubcommand, t!(lang, "cli-error-no-command")),
            );
        }
    };
    exit_code(result)
}

/// The exit status of a command that ran, its error printed.
fn exit_code(result: Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tabula: {e:#}");
            ExitCode::from(1)
        }
    }
}

/// A command line of the command language: its global options, its first
/// word and the words after it.
struct LanguageLine {
    global: Global,
    first: String,
    words: Vec<String>,
}

/// A command line of the command language (`tabula dna show 1`, or any
/// first word that is not one of the server's subcommands), read by a
/// parser of the global options alone: its options, its first word and
/// the words after it. `None` for anything else (the server's subcommands,
/// help, the version, bad usage), which the whole parser reads.
///
/// Most command lines are the language's, and building the whole parser,
/// every subcommand with its options, cost such a process more page faults
/// than anything else it did. The words are the same either way: a
/// subcommand of the language takes every word after its name as it is.
fn language_line(args: &[OsString], lang: Lang) -> Option<Result<LanguageLine, clap::Error>> {
    let parser = Global::augment_args(clap::Command::new("tabula")).allow_external_subcommands(true);
    let matches = parser.try_get_matches_from(args).ok()?;
    let (first, words) = matches.subcommand().filter(|(first, _)| !Server::has_subcommand(first))?;
    let global = Global::from_arg_matches(&matches).ok()?;
    Some(external_words(words, lang).and_then(|mut words| {
        // Options right after the first word are the line's own, and a
        // `--` after them ends them, as the whole parser reads a line; later
        // ones stay among the words (see [`split_globals`]), where `tabula
        // bot connect` keeps its program's.
        let mut leading = 0;
        while let Some(taken) = global_option(&words[leading..]) {
            leading = (leading + taken).min(words.len());
        }
        let (global, _) = split_globals(global, words.drain(..leading).collect())?;
        if words.first().is_some_and(|w| w == "--") {
            words.remove(0);
        }
        Ok(LanguageLine { global, first: first.to_string(), words })
    }))
}

fn external_words(sub: &ArgMatches, lang: Lang) -> Result<Vec<String>, clap::Error> {
    let words = sub.get_many::<OsString>("").map(|w| w.cloned().collect::<Vec<_>>()).unwrap_or_default();
    words
        .into_iter()
        .map(|w| {
            w.into_string().map_err(|w| {
                command(lang).error(
                    clap::error::ErrorKind::InvalidUtf8,
                    t!(lang, "cli-error-not-utf8", word = format!("{w:?}")),
                )
            })
        })
        .collect()
}

fn run_server(global: &Global, server: Server) -> Result<ExitCode> {
    match server {
        Server::Serve(args) => crate::serve::run(global, args),
        Server::Mail(args) => crate::mail::run(global, args),
        Server::Outbox(args) => outbox(global, args),
        Server::Cron(args) => cron(global, args),
        Server::Backup(args) => crate::backup::run(global, args),
        Server::Tournament(args) => crate::tournament::run(global, args),
        Server::Worker(args) => crate::worker::run(global, args),
        Server::Life(args) => crate::tools::life(args),
    }
}

/// Take the global options out of a command's words (everything after a
/// word `--` is a word), and check them with the same parser as before the
/// command word. Options given among the words win.
pub fn split_globals(mut global: Global, words: Vec<String>) -> Result<(Global, Vec<String>), clap::Error> {
    let mut options = Vec::new();
    let mut rest = Vec::new();
    let mut at = 0;
    while at < words.len() {
        if words[at] == "--" {
            rest.extend_from_slice(&words[at + 1..]);
            break;
        }
        match global_option(&words[at..]) {
            Some(taken) => {
                let end = (at + taken).min(words.len());
                options.extend_from_slice(&words[at..end]);
                at = end;
            }
            None => {
                rest.push(words[at].clone());
                at += 1;
            }
        }
    }
    if options.is_empty() {
        return Ok((global, rest));
    }
    let parser = Global::augment_args(clap::Command::new("tabula").no_binary_name(true));
    let matches = parser.try_get_matches_from(options)?;
    let given = |id: &str| matches.value_source(id) == Some(ValueSource::CommandLine);
    let found = Global::from_arg_matches(&matches)?;
    if given("db") {
        global.db = found.db;
    }
    if given("now") {
        global.now = found.now;
    }
    if given("lang") {
        global.lang = found.lang;
    }
    global.json |= found.json;
    Ok((global, rest))
}

/// How many words the global option that starts `words` takes (`--json`,
/// `--db=X`: one; `--db X`: two, the second perhaps missing), if one does.
fn global_option(words: &[String]) -> Option<usize> {
    match words.first()?.as_str() {
        "--json" => Some(1),
        "--db" | "--now" | "--lang" => Some(2),
        w if w.starts_with("--db=") || w.starts_with("--now=") || w.starts_with("--lang=") => Some(1),
        _ => None,
    }
}

/// A command of the command language: `first` and its words.
fn language(global: Global, first: &str, words: Vec<String>) -> Result<ExitCode> {
    // `tabula bot connect|add|list|remove`: the program's own words after
    // `--` are kept as they are.
    if first == "bot" && words.first().is_some_and(|w| crate::botcmd::WORDS.contains(&w.as_str())) {
        return crate::botcmd::run(global, words);
    }
    let (global, words) = match split_globals(global, words) {
        Ok(split) => split,
        Err(e) => return Ok(clap_exit(e)),
    };
    if let Some((_, _, calculator)) =
        CALCULATORS.iter().find(|(game, word, _)| *game == first && words.first().is_some_and(|w| w == word))
    {
        return calculator(&global, &words[1..]);
    }
    let lang = global.lang();
    if words.iter().any(|w| w == "--help" || w == "-h") {
        return print_result(Ok(command_help(first, &words, lang)), global.json, lang);
    }
    if tabula_games::find(first).is_some() && words.first().is_some_and(|w| w.starts_with("--")) {
        let hint = match CALCULATORS.iter().find(|(game, _, _)| *game == first) {
            Some((_, word, _)) => t!(lang, "cli-game-verb-calculator", game = first, word = *word),
            None => t!(lang, "cli-game-verb", game = first),
        };
        eprintln!("tabula: {hint}");
        return Ok(ExitCode::from(2));
    }
    let line = std::iter::once(first.to_string()).chain(words).collect::<Vec<_>>().join(" ");
    let command = match Command::parse(&line, &Service::game_words()) {
        Ok(c) => c,
        Err(e) => return print_result(Err(e.localized(lang)), global.json, lang),
    };
    // Help and the list of games read nothing stored: no database is opened
    // (or created) for them.
    if let Some(reply) = tabula_service::help::stateless(&command, lang) {
        return print_result(reply, global.json, lang);
    }
    if !command.secret_positions().is_empty() {
        crate::allow_huge_pages_for_the_password_check();
    }
    run_one_command(async {
        let service = open_one_command_service(&global).await?;
        let context = tabula_service::Context::from(&Caller::Anonymous).in_lang(lang);
        let result = service.run(command, context).await;
        print_result(result, global.json, lang)
    })
}

/// `tabula WORD .. --help`: the command's lines of the command table, or a
/// game's help, in `lang`.
fn command_help(first: &str, words: &[String], lang: Lang) -> tabula_service::Reply {
    let words: Vec<&str> = words.iter().map(String::as_str).filter(|w| !w.starts_with('-')).collect();
    let verb_help = |topic: &str| -> Option<String> {
        let lines: Vec<String> = SYNTAX
            .iter()
            .filter(|(name, _, _)| *name == topic || name.starts_with(&format!("{topic} ")))
            .map(|(_, syntax, id)| format!("  {syntax}\n      {}\n", meaning(id, lang)))
            .collect();
        (!lines.is_empty()).then(|| lines.concat())
    };
    if let Some(kind) = tabula_games::find(first) {
        let game = kind.info().kind;
        if let Some(text) = words.first().and_then(|verb| verb_help(&verb.to_ascii_lowercase())) {
            let text = text.replace("GAME ", &format!("{game} "));
            let topic = format!("{game} {}", words[0]);
            return text_reply(
                t!(lang, "help-subject-topic", topic = topic),
                format!("{text}\n{}\n", t!(lang, "cli-help-game-more", game = game)),
            );
        }
        let mut reply = tabula_service::help::help(Some(game), lang).expect("a registered game has help");
        for (_, word, _) in CALCULATORS.iter().filter(|(g, _, _)| *g == game) {
            reply.text.push_str(&format!("\n{}\n", t!(lang, "cli-calculator", game = game, word = *word)));
        }
        return reply;
    }
    let two = words.first().map(|w| format!("{first} {}", w.to_ascii_lowercase()));
    let text = two.as_deref().and_then(verb_help).or_else(|| verb_help(first));
    match text {
        Some(text) => text_reply(t!(lang, "help-subject-topic", topic = first), text),
        None => tabula_service::help::help(None, lang).expect("the general help"),
    }
}

fn text_reply(subject: String, text: String) -> tabula_service::Reply {
    tabula_service::Reply { subject, text, game: None, data: serde_json::Value::Null }
}

fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .with_context(|| t!(lang(), "op-starting-runtime"))
}

/// Run the work of a process that runs one command (see
/// [`open_one_command_service`]) and leave its runtime to the process's
/// exit instead of dropping it. Dropping it would drop the tasks still
/// pending, among them the pooled connection on its way back to the pool
/// after the last statement, and closing that connection is what
/// [`open_one_command_service`] avoids: SQLite's checkpoint of the whole
/// log, with its fsyncs, while the process exits.
pub fn run_one_command<T>(work: impl std::future::Future<Output = Result<T>>) -> Result<T> {
    let rt = runtime()?;
    let result = rt.block_on(work);
    std::mem::forget(rt);
    result
}

/// The database as it may be shown in messages and logs: a URL without its password.
pub fn db_name(db: &str) -> String {
    if !tabula_service::store::is_postgres_url(db) {
        return db.to_string();
    }
    let Some((scheme, rest)) = db.split_once("://") else { return db.to_string() };
    match rest.rsplit_once('@') {
        Some((credentials, host)) => {
            let user = credentials.split(':').next().unwrap_or_default();
            format!("{scheme}://{user}@{host}")
        }
        None => db.to_string(),
    }
}

pub async fn open_service(global: &Global) -> Result<Service> {
    Ok(service_over(open_store(global).await?, global))
}

/// The database of `--db`, for what keeps its own tables there
/// (tournaments) rather than running commands.
pub async fn open_store(global: &Global) -> Result<std::sync::Arc<tabula_service::store::Store>> {
    tabula_service::store::open(&global.db, tabula_service::store::Clients::Many)
        .await
        .with_context(|| t!(lang(), "op-opening-database", db = db_name(&global.db)))
}

/// [`open_service`] for a process that runs one command (or one message's
/// commands) and exits.
///
/// The service is never dropped, so its SQLite connections are not closed
/// before the process exits: closing the last connection to a file makes
/// SQLite copy the whole write-ahead log into the database with two more
/// fsyncs, and delete the log, which the next process then creates again
/// with an fsync of the directory. Every commit was already durable; the
/// log is folded in by SQLite's automatic checkpoints and by the server.
pub async fn open_one_command_service(global: &Global) -> Result<std::mem::ManuallyDrop<Service>> {
    let store = tabula_service::store::open(&global.db, tabula_service::store::Clients::One)
        .await
        .with_context(|| t!(lang(), "op-opening-database", db = db_name(&global.db)))?;
    Ok(std::mem::ManuallyDrop::new(service_over(store, global)))
}

fn service_over(store: std::sync::Arc<tabula_service::store::Store>, global: &Global) -> Service {
    let clock = match global.now {
        Some(t) => Clock::Fixed(t),
        None => Clock::System,
    };
    Service::new(store, clock).with_bots(Arc::new(tabula_bots::ServerBots))
}

fn print_result(
    result: Result<tabula_service::Reply, CommandError>,
    json: bool,
    lang: Lang,
) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    match result {
        Ok(reply) => {
            if json {
                let mut v = serde_json::to_value(&reply)?;
                v["ok"] = serde_json::Value::Bool(true);
                writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
            } else {
                write!(out, "{}\n\n{}", reply.subject, reply.text)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            let code = if e.code == ErrorCode::Usage { 2 } else { 1 };
            if json {
                let v = serde_json::json!({"ok": false, "error": {"code": e.code.as_str(), "message": e.message}});
                writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
            } else {
                drop(out);
                eprintln!("tabula: {}", e.message);
                if e.code == ErrorCode::Usage {
                    eprintln!("{}", t!(lang, "cli-usage-hint"));
                }
            }
            Ok(ExitCode::from(code))
        }
    }
}

fn outbox(global: &Global, args: OutboxArgs) -> Result<ExitCode> {
    let rt = runtime()?;
    rt.block_on(async {
        let service = open_service(global).await?;
        let rows = service.mailroom().outbox(args.limit).await?;
        let mut out = std::io::stdout().lock();
        if global.json {
            writeln!(out, "{}", serde_json::to_string_pretty(&rows)?)?;
        } else {
            let lang = lang();
            for r in rows.iter().rev() {
                let state = match (r.sent_at, &r.last_error) {
                    (Some(_), _) => t!(lang, "op-outbox-sent"),
                    (None, Some(e)) if r.gave_up_at.is_some() => {
                        t!(lang, "op-outbox-given-up", error = e.as_str())
                    }
                    (None, Some(e)) => {
                        t!(lang, "op-outbox-failed", attempts = r.attempts, error = e.as_str())
                    }
                    (None, None) => t!(lang, "op-outbox-waiting"),
                };
                let to = t!(
                    lang,
                    "op-outbox-row",
                    id = r.id,
                    recipient = r.message.recipient.as_str(),
                    state = state
                );
                let subject = t!(lang, "op-outbox-subject", subject = r.message.subject.as_str());
                writeln!(out, "{to}\n{subject}\n\n{}\n", r.message.body)?;
            }
            if rows.is_empty() {
                writeln!(out, "{}", t!(lang, "op-outbox-empty"))?;
            }
        }
        Ok(ExitCode::SUCCESS)
    })
}

/// `tabula cron`: run what is due once. `tabula serve` runs the same
/// continuously.
fn cron(global: &Global, args: CronArgs) -> Result<ExitCode> {
    let relay = args.send.relay()?;
    let mail = tabula_mail::MailConfig { address: args.mail_from, ..Default::default() };
    let rt = runtime()?;
    rt.block_on(async {
        let service = open_service(global).await?;
        let clocks = service.run_due_clocks().await?;
        let limits = service.run_time_limits().await?;
        let sent = match &relay {
            Some(relay) => Some(crate::mail::send_outbox(&service, relay, &mail).await?),
            None => None,
        };
        if global.json {
            let sent = sent
                .map(|r| serde_json::json!({"sent": r.sent, "deferred": r.deferred, "given_up": r.given_up}));
            println!("{}", serde_json::json!({"clock_games": clocks, "limits": limits, "mail": sent}));
        } else {
            let lang = lang();
            let said = t!(
                lang,
                "op-cron-done",
                clocks = clocks,
                games = limits.games,
                reminders = limits.nags,
                warnings = limits.warnings,
                forfeits = limits.forfeits,
                digests = limits.digests,
                pruned = limits.pruned
            );
            println!("{said}");
            if let Some(r) = sent {
                println!(
                    "{}",
                    t!(lang, "op-cron-mail", sent = r.sent, retry = r.deferred, given_up = r.given_up)
                );
            }
        }
        Ok(ExitCode::SUCCESS)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parser_is_consistent() {
        command(Lang::En).debug_assert();
    }

    fn split(words: &[&str]) -> (Global, Vec<String>) {
        let global = Global { db: "tabula.db".into(), now: None, json: false, lang: None };
        split_globals(global, words.iter().map(|w| w.to_string()).collect()).expect("valid options")
    }

    #[test]
    fn global_options_come_out_of_the_words() {
        let (g, words) = split(&["show", "1", "--db", "x.db", "--json", "--now=2026-01-01T00:00:00Z"]);
        assert_eq!((g.db.as_str(), g.json, g.now), ("x.db", true, Some(1_767_225_600_000)));
        assert_eq!(words, ["show", "1"]);
        let (g, words) = split(&["move", "1", "ned", "pw", "--start=>x", "-seed=3"]);
        assert_eq!(g.db, "tabula.db");
        assert_eq!(words, ["move", "1", "ned", "pw", "--start=>x", "-seed=3"]);
        let (g, words) = split(&["move", "1", "ned", "pw", "--", "--json"]);
        assert!(!g.json);
        assert_eq!(words, ["move", "1", "ned", "pw", "--json"]);
    }

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    /// What a command line of the language comes to, its words' options
    /// taken out, as `{global:?} first words..`.
    fn read(global: Global, first: &str, words: Vec<String>) -> String {
        let (global, words) = split_globals(global, words).expect("valid options");
        format!("{global:?} {first} {}", words.join(" "))
    }

    #[test]
    fn the_language_is_read_alike_by_the_short_parser_and_the_whole_one() {
        let lines: &[&[&str]] = &[
            &["tabula", "dna", "show", "1"],
            &["tabula", "dna"],
            &["tabula", "--db", "x.db", "dna", "show", "1"],
            &["tabula", "--db=x.db", "--json", "intervalo", "show", "1", "--now=2026-01-01T00:00:00Z"],
            &["tabula", "dna", "--db", "y.db", "show", "1", "--json"],
            &["tabula", "--db", "x.db", "dna", "--db=y.db", "show", "1"],
            &["tabula", "rewrite", "move", "1", "ned", "pw", "--start=>x", "-seed=3"],
            &["tabula", "dna", "--help"],
            &["tabula", "dna", "move", "1", "ned", "pw", "--", "--json"],
            &["tabula", "signup", "ned", "pw", "ned@example.org", "--lang", "fi"],
            &["tabula", "--lang=es", "help", "dna"],
            &["tabula", "--now", "2026-01-01T00:00:00Z", "games"],
            &["tabula", "register", "ned", "--json"],
            &["tabula", "bot", "connect", "ned", "--", "./bot", "--depth", "3", "--json"],
            &["tabula", "--json", "dna", "--", "show", "1"],
            &["tabula", "bot", "--db", "x.db", "connect", "ned", "--", "./bot", "--db", "y.db"],
            &["tabula", "dna", "--json", "--", "move", "1", "ned", "pw", "--", "--json"],
            &["tabula", "dna", "--lang", "fi", "--now=2026-01-01T00:00:00Z", "show", "1"],
        ];
        for line in lines {
            let whole = command(Lang::En).try_get_matches_from(os(line)).expect("the whole parser reads it");
            let (first, sub) = whole.subcommand().expect("a subcommand");
            // A verb's or a game's own subcommand, or one the parser does
            // not know (`register`).
            let words = match sub.try_get_many::<OsString>("") {
                Ok(Some(_)) => external_words(sub, Lang::En).expect("UTF-8 words"),
                _ => sub.get_many::<String>("words").map(|w| w.cloned().collect()).unwrap_or_default(),
            };
            let global = Global::from_arg_matches(&whole).expect("global options");
            let LanguageLine { global: short_global, first: short_first, words: short_words } =
                language_line(&os(line), Lang::En)
                    .unwrap_or_else(|| panic!("{line:?} is a line of the language"))
                    .expect("its words");
            // The words as they are (what `tabula bot connect` runs), and
            // with their options taken out.
            assert_eq!(short_words, words, "{line:?}");
            assert_eq!(read(short_global, &short_first, short_words), read(global, first, words), "{line:?}");
        }
        // Everything else is left to the whole parser, its help and errors.
        let others: &[&[&str]] = &[
            &["tabula"],
            &["tabula", "--help"],
            &["tabula", "--version"],
            &["tabula", "serve", "--db", "x.db"],
            &["tabula", "--db", "x.db", "mail"],
            &["tabula", "life", "run"],
            &["tabula", "--now", "yesterday", "dna", "show", "1"],
            &["tabula", "--colour", "dna", "show", "1"],
        ];
        for line in others {
            assert!(language_line(&os(line), Lang::En).is_none(), "{line:?}");
        }
    }

    #[test]
    fn bad_global_options_among_the_words_are_usage_errors() {
        let global = Global { db: "tabula.db".into(), now: None, json: false, lang: None };
        for words in [vec!["--now", "yesterday"], vec!["show", "--db"]] {
            let words = words.into_iter().map(String::from).collect();
            assert!(split_globals(global.clone(), words).is_err());
        }
    }
}
