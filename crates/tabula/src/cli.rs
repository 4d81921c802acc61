use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use tabula_service::{Caller, Clock, CommandError, ErrorCode, Service};

const USAGE: &str = "\
usage: tabula [--db DB] [--now TIME] [--json] COMMAND WORDS ..
       tabula [--db PATH] serve [--listen ADDR] [--smtp ADDR] [--relay HOST:PORT] [--mail-from ADDRESS]
       tabula [--db PATH] mail [--reply-to-stdout] [--from ADDRESS] < message.eml
       tabula [--db PATH] outbox [--json] [--limit N]
       tabula [--db PATH] [--now TIME] cron
       tabula [--db PATH] tournament --game GAME --bot SPEC --bot SPEC .. [--distributed] (see --help)
       tabula --db postgres://.. worker [--threads N] [--lease SECONDS] [--exit-when-idle]
       tabula dna remove [--trace] [--json] SEQUENCE CHUNK
       tabula rewrite [--trace] [--json] (--start STRING | --start-file FILE) RULESFILE
       tabula life run --generations N [--edges torus|dead|unbounded] FILE

Runs one command of the command language exactly as it would arrive by
email, and prints the reply: a heading (the mail subject), the status, the
move list and the board as you may see it.

  --db DB      the database: a SQLite file (default ./tabula.db; created if
               missing) or a PostgreSQL URL (postgres://user@host/db)
  --now TIME   fix the clock (RFC 3339, e.g. 2026-01-01T12:00:00Z), for
               tests, replays and demos
  --json       print the result and your view as JSON

Examples:
  tabula signup ned secret ned@example.org
  tabula dna challenge -manual ned ted jed
  tabula dna move 1 ned secret AAG
  tabula dna show 1
  tabula help            the commands
  tabula help dna        a game's rules, options and move syntax

Exit status: 0 done, 1 rejected (the reason is printed), 2 bad usage.";

/// Options that come before the command words.
pub struct Global {
    /// The database: a SQLite file path or a `postgres://` URL.
    pub db: String,
    /// A fixed clock.
    pub now: Option<i64>,
    /// JSON output.
    pub json: bool,
}

fn usage_error(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("tabula: {msg}\n\n{USAGE}");
    ExitCode::from(2)
}

pub fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut global = Global { db: "tabula.db".to_string(), now: None, json: false };
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let value = |i: &mut usize, name: &str| -> Result<String, ExitCode> {
            if let Some(v) = a.strip_prefix(&format!("{name}=")) {
                return Ok(v.to_string());
            }
            *i += 1;
            args.get(*i).cloned().ok_or_else(|| usage_error(format!("{name} needs a value")))
        };
        match a {
            "--json" => global.json = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            "-V" | "--version" => {
                println!("tabula {}", env!("CARGO_PKG_VERSION"));
                return ExitCode::SUCCESS;
            }
            _ if a == "--db" || a.starts_with("--db=") => match value(&mut i, "--db") {
                Ok(v) => global.db = v,
                Err(code) => return code,
            },
            _ if a == "--now" || a.starts_with("--now=") => match value(&mut i, "--now") {
                Ok(v) => match chrono::DateTime::parse_from_rfc3339(&v) {
                    Ok(t) => global.now = Some(t.timestamp_millis()),
                    Err(e) => return usage_error(format!("--now {v:?} is not an RFC 3339 time: {e}")),
                },
                Err(code) => return code,
            },
            _ if a.starts_with("--") => return usage_error(format!("unknown option {a}")),
            _ => break,
        }
        i += 1;
    }
    let words = &args[i..];
    if words.is_empty() {
        return usage_error("no command given");
    }
    match run(&global, words) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tabula: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread().enable_all().build().context("starting the runtime")
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
    let store = tabula_service::store::open(&global.db)
        .await
        .with_context(|| format!("opening the database {}", db_name(&global.db)))?;
    Ok(service_over(store, global))
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
    let store = tabula_service::store::open_for_one_client(&global.db)
        .await
        .with_context(|| format!("opening the database {}", db_name(&global.db)))?;
    Ok(std::mem::ManuallyDrop::new(service_over(store, global)))
}

fn service_over(store: std::sync::Arc<dyn tabula_service::store::Store>, global: &Global) -> Service {
    let clock = match global.now {
        Some(t) => Clock::Fixed(t),
        None => Clock::System,
    };
    Service::new(store, clock).with_bots(Arc::new(tabula_web::ServerBots))
}

fn run(global: &Global, words: &[String]) -> Result<ExitCode> {
    match words[0].as_str() {
        "outbox" => return outbox(global, &words[1..]),
        "cron" => return cron(global, &words[1..]),
        "tournament" => return crate::tournament::run(global, &words[1..]),
        "worker" => return crate::worker::run(global, &words[1..]),
        "mail" => return crate::mail::run(global, &words[1..]),
        "serve" => return crate::serve::run(global, &words[1..]),
        "dna" if words.get(1).is_some_and(|w| w == "remove") => return crate::tools::dna_remove(&words[2..]),
        "rewrite" if crate::tools::is_rewrite_tool(&words[1..]) => return crate::tools::rewrite(&words[1..]),
        "life" if words.get(1).is_some_and(|w| w == "run") => return crate::tools::life_run(&words[2..]),
        "life" => {
            eprintln!("usage: tabula life run --generations N [--edges torus|dead|unbounded] FILE");
            return Ok(ExitCode::from(2));
        }
        _ => {}
    }
    // A trailing --json is accepted as well as a leading one.
    let mut json = global.json;
    let mut words: Vec<&str> = words.iter().map(String::as_str).collect();
    if words.last() == Some(&"--json") {
        json = true;
        words.pop();
    }
    let line = words.join(" ");
    run_one_command(async {
        let service = open_one_command_service(global).await?;
        let result = service.execute(&line, &Caller::Anonymous).await;
        print_result(result, json)
    })
}

fn print_result(result: Result<tabula_service::Reply, CommandError>, json: bool) -> Result<ExitCode> {
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
                    eprintln!("(`tabula help` lists the commands)");
                }
            }
            Ok(ExitCode::from(code))
        }
    }
}

fn outbox(global: &Global, args: &[String]) -> Result<ExitCode> {
    let mut limit = 50i64;
    let mut json = global.json;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => json = true,
            "--limit" => {
                limit = it
                    .next()
                    .and_then(|v| v.parse().ok())
                    .filter(|n| *n > 0)
                    .context("--limit needs a positive number")?
            }
            other => {
                eprintln!("tabula: unknown argument {other:?}\nusage: tabula outbox [--json] [--limit N]");
                return Ok(ExitCode::from(2));
            }
        }
    }
    let rt = runtime()?;
    rt.block_on(async {
        let service = open_service(global).await?;
        let rows = service.store().outbox(limit).await?;
        let mut out = std::io::stdout().lock();
        if json {
            writeln!(out, "{}", serde_json::to_string_pretty(&rows)?)?;
        } else {
            for r in rows.iter().rev() {
                let state = match (r.sent_at, &r.last_error) {
                    (Some(_), _) => "sent".to_string(),
                    (None, Some(e)) if r.gave_up_at.is_some() => format!("given up: {e}"),
                    (None, Some(e)) => format!("failed {} times: {e}", r.attempts),
                    (None, None) => "waiting".to_string(),
                };
                writeln!(
                    out,
                    "#{} to {} [{state}]\nSubject: {}\n\n{}\n",
                    r.id, r.message.recipient, r.message.subject, r.message.body
                )?;
            }
            if rows.is_empty() {
                writeln!(out, "The outbox is empty.")?;
            }
        }
        Ok(ExitCode::SUCCESS)
    })
}

/// `tabula cron`: run what is due once (clock events, reminders and
/// forfeits), for installations that drive the scheduler from cron as
/// pbmserv did, and for tests with `--now`. `tabula serve` runs the same
/// continuously.
fn cron(global: &Global, args: &[String]) -> Result<ExitCode> {
    if !args.is_empty() {
        eprintln!("tabula: `cron` takes no arguments\nusage: tabula [--db PATH] [--now TIME] cron");
        return Ok(ExitCode::from(2));
    }
    let rt = runtime()?;
    rt.block_on(async {
        let service = open_service(global).await?;
        let clocks = service.run_due_clocks().await?;
        let limits = service.run_time_limits().await?;
        if global.json {
            println!("{}", serde_json::json!({"clock_games": clocks, "limits": limits}));
        } else {
            println!(
                "clocks caught up on {clocks} games; {} games checked: {} reminders, {} forfeit warnings, {} forfeits, {} digests; {} old outbox rows deleted",
                limits.games, limits.nags, limits.warnings, limits.forfeits, limits.digests, limits.pruned
            );
        }
        Ok(ExitCode::SUCCESS)
    })
}
