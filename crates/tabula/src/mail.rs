//! `tabula mail`: one incoming message on standard input, as a mail server
//! pipes it (the way pbmserv was run). The reply goes to the outbox, sent
//! by `tabula serve --relay`, or to standard output with
//! `--reply-to-stdout`.

use std::io::{Read, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

use crate::cli::{Global, open_one_command_service, run_one_command};

/// Run the commands of one email message from standard input and reply
///
/// For a mail server that pipes each incoming message to Tabula, as
/// pbmserv was run. The commands come from the Subject line or the first
/// lines of the body; quoted lines and the signature are ignored. The reply
/// is queued in the outbox (sent by `tabula serve --relay`), or printed as
/// a whole message with --reply-to-stdout. Auto-replies, bounces and
/// mailing-list mail are never answered.
#[derive(Args, Debug)]
pub struct MailArgs {
    /// Print the reply as a whole message instead of queueing it
    #[arg(long)]
    reply_to_stdout: bool,
    /// The address the reply comes from
    #[arg(long, value_name = "ADDRESS", default_value = "tabula@localhost")]
    from: String,
}

pub fn run(global: &Global, args: MailArgs) -> Result<ExitCode> {
    let config = tabula_mail::MailConfig { address: args.from, ..Default::default() };
    let to_stdout = args.reply_to_stdout;
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
