//! `tabula mail`: one incoming message on standard input, as a mail server
//! pipes it (the way pbmserv was run). The reply goes to the outbox, sent
//! by `tabula serve --relay` or at once with `--relay`, or to standard
//! output with `--reply-to-stdout`.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;

use tabula_i18n::t;

use crate::cli::{Global, open_one_command_service, run_one_command};
use crate::help::lang;

/// Run the commands of one email message from standard input and reply
///
/// For a mail server that pipes each incoming message to Tabula, as
/// pbmserv was run. The commands come from the Subject line or the first
/// lines of the body; quoted lines and the signature are ignored. The reply
/// is queued in the outbox, sent by `tabula serve --relay` or, with
/// --relay, at once by this command (a cron and pipe installation needs no
/// server); or printed as a whole message with --reply-to-stdout.
/// Auto-replies, bounces and mailing-list mail are never answered.
#[derive(Args, Debug)]
pub struct MailArgs {
    /// Print the reply as a whole message instead of queueing it
    #[arg(long)]
    reply_to_stdout: bool,
    /// The address the reply comes from
    #[arg(long, alias = "from", value_name = "ADDRESS", default_value = "tabula@localhost")]
    mail_from: String,
    /// The largest message taken, in bytes; a larger one is refused (exit
    /// status 65, the mail server bounces it)
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_MESSAGE, value_parser = message_size)]
    max_message_size: usize,
    #[command(flatten)]
    send: SendArgs,
}

/// The default of `--max-message-size`: 256 KiB, room for a move, its
/// quoted board and a signature many times over.
pub const DEFAULT_MAX_MESSAGE: usize = 256 * 1024;

/// `--max-message-size`: 1 KiB to 64 MiB.
pub fn message_size(text: &str) -> Result<usize, String> {
    let n: usize = text.parse().map_err(|_| t!(lang(), "op-not-bytes", text = format!("{text:?}")))?;
    if !(1024..=64 * 1024 * 1024).contains(&n) {
        return Err(t!(lang(), "op-bytes-out-of-range", bytes = n));
    }
    Ok(n)
}

/// The SMTP relay that sends the outbox (`serve`, and `mail` and `cron`
/// after their work).
#[derive(Args, Debug, Clone)]
pub struct SendArgs {
    /// Send the outbox through the SMTP relay RELAY: HOST:PORT (plain
    /// SMTP), smtp://USER@HOST:587?tls=required (STARTTLS, then a login),
    /// or smtps://USER@HOST:465 (TLS from the start). With TLS the relay's
    /// certificate must be valid for HOST; nothing is ever sent in plain
    /// text instead. Mail the relay does not take stays queued and is tried
    /// again later
    #[arg(long, value_name = "RELAY")]
    pub relay: Option<String>,
    /// Trust only the certificate authorities in FILE (PEM) for the relay's
    /// certificate, instead of the built-in roots: for a relay whose
    /// certificate comes from a private authority
    #[arg(long, value_name = "FILE", requires = "relay")]
    pub relay_ca: Option<PathBuf>,
    /// Read the password of the relay's USER from FILE (its first line);
    /// without it, from the environment variable TABULA_RELAY_PASSWORD. Never
    /// put it in RELAY: the process list shows it to every user
    #[arg(long, value_name = "FILE", requires = "relay")]
    pub relay_password_file: Option<PathBuf>,
}

/// The environment variable holding the relay's password when
/// `--relay-password-file` is not given.
pub const RELAY_PASSWORD_VARIABLE: &str = "TABULA_RELAY_PASSWORD";

impl SendArgs {
    /// The relay, checked (and its files read) before anything is run.
    pub fn relay(&self) -> Result<Option<tabula_mail::SmtpRelay>> {
        let Some(spec) = self.relay.as_deref() else { return Ok(None) };
        let mut config = tabula_mail::RelayConfig::parse(spec).context("--relay")?;
        if let Some(file) = &self.relay_ca {
            let pem = std::fs::read(file).with_context(|| {
                t!(lang(), "op-reading-file", option = "--relay-ca", file = file.display().to_string())
            })?;
            config.trusted_roots = Some(pem);
        }
        if config.password.is_some() {
            eprintln!(
                "tabula: {}",
                t!(lang(), "op-relay-password-visible", variable = RELAY_PASSWORD_VARIABLE)
            );
        }
        if let Some(file) = &self.relay_password_file {
            let Some(user) = &config.user else {
                bail!(t!(lang(), "op-relay-no-user"));
            };
            let text = std::fs::read_to_string(file).with_context(|| {
                t!(
                    lang(),
                    "op-reading-file",
                    option = "--relay-password-file",
                    file = file.display().to_string()
                )
            })?;
            let password = text.lines().next().unwrap_or("");
            if password.is_empty() {
                bail!(t!(
                    lang(),
                    "op-relay-no-password-in-file",
                    file = file.display().to_string(),
                    user = user.as_str()
                ));
            }
            config.password = Some(password.to_string());
        } else if config.user.is_some() && config.password.is_none() {
            match std::env::var(RELAY_PASSWORD_VARIABLE) {
                Ok(password) if !password.is_empty() => config.password = Some(password),
                _ => bail!(t!(
                    lang(),
                    "op-relay-needs-password",
                    user = config.user.as_deref().unwrap_or_default(),
                    variable = RELAY_PASSWORD_VARIABLE
                )),
            }
        }
        let relay = tabula_mail::SmtpRelay::new(&config).context("--relay")?;
        Ok(Some(relay))
    }
}

/// Send what is due in the outbox through `relay`; failures are reported on
/// standard error and the mail stays queued (retried by the next run).
pub async fn send_outbox(
    service: &tabula_service::Service,
    relay: &tabula_mail::SmtpRelay,
    config: &tabula_mail::MailConfig,
) -> Result<tabula_mail::DrainReport> {
    let report = tabula_mail::drain_outbox(service, relay, config)
        .await
        .with_context(|| t!(lang(), "op-sending-outbox"))?;
    for error in &report.errors {
        eprintln!("tabula: {}", t!(lang(), "op-outgoing-mail-failed", error = error.to_string()));
    }
    Ok(report)
}

/// The exit status that tells the mail server to keep the message and try
/// again later (EX_TEMPFAIL of sysexits.h): Postfix's and Exim's pipe
/// transports bounce a message on any other failure, and a player's move
/// must not be bounced because the database was briefly unavailable.
const EXIT_TRY_AGAIN_LATER: u8 = 75;

/// The exit status for a message that can never be read (EX_DATAERR): the
/// mail server returns it to its sender.
const EXIT_UNREADABLE: u8 = 65;

pub fn run(global: &Global, args: MailArgs) -> Result<ExitCode> {
    match handle(global, args) {
        Ok(code) => Ok(code),
        Err(e) => {
            eprintln!("tabula: {}", t!(lang(), "op-mail-left", error = format!("{e:#}")));
            Ok(ExitCode::from(EXIT_TRY_AGAIN_LATER))
        }
    }
}

fn handle(global: &Global, args: MailArgs) -> Result<ExitCode> {
    let to_stdout = args.reply_to_stdout;
    let config = tabula_mail::MailConfig {
        address: args.mail_from,
        commit_replies: !to_stdout,
        max_message_bytes: args.max_message_size,
        ..Default::default()
    };
    let relay = args.send.relay()?;
    let mut raw = Vec::new();
    let limit = config.max_message_bytes as u64 + 1;
    let mut stdin = std::io::stdin().lock();
    (&mut stdin).take(limit).read_to_end(&mut raw).with_context(|| t!(lang(), "op-reading-message"))?;
    // Too large is too large whatever the database: bounced at once.
    if raw.len() > config.max_message_bytes {
        // The rest is read and dropped, so that the mail server's write
        // never meets a closed pipe: some report that instead of this
        // status, and then keep the message to try again.
        let rest = std::io::copy(&mut stdin, &mut std::io::sink()).unwrap_or(0);
        let size = raw.len().saturating_add(usize::try_from(rest).unwrap_or(usize::MAX));
        let e = tabula_mail::MailError::TooLarge { size, limit: config.max_message_bytes };
        eprintln!("tabula: {e}");
        return Ok(ExitCode::from(EXIT_UNREADABLE));
    }
    // A mail server runs this in a directory of its choosing: a database
    // that is not there is a wrong --db (or one not set up yet), never one
    // to create there. The message waits at the mail server until it is.
    if !tabula_service::store::is_postgres_url(&global.db) && !std::path::Path::new(&global.db).exists() {
        anyhow::bail!(t!(lang(), "op-mail-no-database", db = global.db.as_str()));
    }
    // A message from a player nearly always carries a password.
    crate::allow_huge_pages_for_the_password_check();
    run_one_command(async {
        let service = open_one_command_service(global).await?;
        let reply = match tabula_mail::handle_message(&service, &raw, &config).await {
            Ok(r) => r,
            Err(e @ (tabula_mail::MailError::TooLarge { .. } | tabula_mail::MailError::Unreadable)) => {
                eprintln!("tabula: {e}");
                return Ok(ExitCode::from(EXIT_UNREADABLE));
            }
            Err(e) => return Err(e.into()),
        };
        if let Some(reply) = &reply {
            if to_stdout {
                let bytes = reply.to_rfc5322(&config.from_mailbox())?;
                std::io::stdout().write_all(&bytes)?;
                std::io::stdout().flush()?;
                tabula_mail::finish_reply(&service, reply).await?;
            } else {
                tabula_mail::enqueue_reply(&service, reply).await?;
            }
        }
        // After the reply is durable in the outbox: sent with the notifications.
        if let Some(relay) = &relay {
            send_outbox(&service, relay, &config).await?;
        }
        Ok(ExitCode::SUCCESS)
    })
}
