//! `tabula mail`: one incoming message on standard input, as a mail server
//! pipes it (the way pbmserv was run). The reply goes to the outbox, sent
//! by `tabula serve --relay`, or to standard output with
//! `--reply-to-stdout`.

use std::io::{Read, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};

use crate::cli::{Global, open_one_command_service, run_one_command};

const USAGE: &str = "\
usage: tabula [--db PATH] mail [--reply-to-stdout] [--from ADDRESS] < message.eml

Runs the commands of one email message (from the Subject line or the first
lines of the body) and replies as pbmserv did. The reply is queued in the
outbox, or printed as a whole message with --reply-to-stdout. Auto-replies,
bounces and mailing-list mail are never answered.";

pub fn run(global: &Global, args: &[String]) -> Result<ExitCode> {
    let mut config = tabula_mail::MailConfig::default();
    let mut to_stdout = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--reply-to-stdout" => to_stdout = true,
            "--from" => config.address = it.next().context("--from needs an address")?.clone(),
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(ExitCode::SUCCESS);
            }
            other => {
                eprintln!("tabula: unknown argument {other:?}\n\n{USAGE}");
                return Ok(ExitCode::from(2));
            }
        }
    }
    let mut raw = Vec::new();
    let limit = config.max_message_bytes as u64 + 1;
    std::io::stdin().take(limit).read_to_end(&mut raw).context("reading the message")?;
    run_one_command(async {
        let service = open_one_command_service(global).await?;
        let reply = match tabula_mail::handle_message(&service, &raw, &config).await {
            Ok(r) => r,
            Err(e) => {
                eprintln!("tabula: {e}");
                return Ok(ExitCode::from(1));
            }
        };
        let Some(reply) = reply else { return Ok(ExitCode::SUCCESS) };
        if to_stdout {
            let bytes = reply.to_rfc5322(&config.from_mailbox())?;
            std::io::stdout().write_all(&bytes)?;
            std::io::stdout().flush()?;
            tabula_mail::finish_reply(&service, &reply).await?;
        } else {
            tabula_mail::enqueue_reply(&service, &reply).await?;
        }
        Ok(ExitCode::SUCCESS)
    })
}
