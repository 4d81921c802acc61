//! Tabula's email gateway: the classic way to play.
//!
//! - **Incoming** ([`handle_message`]): a message as a mail server delivers
//!   it is parsed (plain, quoted-printable, base64, multipart with HTML, any
//!   charset), its command is taken from the subject as pbmserv did or from
//!   the command lines at the top of the body, every command is run through
//!   the service, the rest of the new text goes to the board's other players
//!   as a comment, and a threaded reply is returned. Auto-replies, bounces and
//!   list mail are never answered.
//! - **Outgoing** ([`drain_outbox`] over an [`SmtpRelay`]): the outbox rows
//!   the service writes in the same transaction as a move are sent through a
//!   relay, marked sent only once the relay has accepted them, and retried
//!   with exponential back-off when it has not.
//! - **SMTP in** ([`serve_smtp`]): a small SMTP server that hands each
//!   message to [`handle_message`] and queues the reply in the outbox.
//!
//! # Delivery guarantee
//!
//! Outgoing mail is sent *at least once*: a row is marked sent after the
//! relay accepted it, so a crash between the relay's acceptance and the mark
//! sends that one message again, by this or another sender, once the dead
//! sender's claim has run out ([`MailConfig::claim_lease`], 15 s). Every
//! message carries a `Message-ID` derived from its outbox key, so the copy
//! is the same message to the receiver (mail programs and stores that
//! deduplicate by `Message-ID` show it once). A message whose key was marked
//! sent is never sent again.
//!
//! # Wiring
//!
//! - A pipe from the mail server (`tabula mail < message.eml`): read the
//!   message, call [`handle_message`], then [`enqueue_reply`] (sent by the
//!   next drain), or print [`OutgoingMail::to_rfc5322`] for
//!   `--reply-to-stdout`. Exit non-zero on [`MailError::TooLarge`] and
//!   [`MailError::Unreadable`] so that the mail server bounces the message.
//! - A server: [`serve_smtp`] for incoming mail and [`send_loop`] over an
//!   [`SmtpRelay`] (from [`SmtpRelay::from_spec`]) for outgoing mail, both
//!   stopped by the same shutdown signal.
//!
//! # Authentication
//!
//! Commands carry their password, as on pbmserv. In addition, a command that
//! acts for a user runs only if the `From` address is one of that user's
//! registered addresses ([`MailConfig::require_registered_sender`]). `From`
//! can be forged, so this is a second lock, not the first.

#![warn(missing_docs)]

mod fault;
mod gateway;
mod html;
mod message;
mod relay;
mod smtp;
mod text;

use std::time::Duration;

use thiserror::Error;

pub use gateway::{OutgoingMail, enqueue_reply, finish_reply, handle_message};
pub use html::html_to_text;
pub use message::{Ignored, Incoming, read_message};
pub use relay::{
    DrainReport, RelayConfig, RelayError, RelaySecurity, SmtpRelay, board_thread_id, drain_outbox,
    message_id_for, message_id_for_key, send_loop,
};
pub use smtp::{Envelope, GatewaySink, MessageSink, SinkError, serve_smtp, serve_smtp_on};
pub use text::looks_like_command;

/// Everything the gateway can be configured with. [`MailConfig::default`]
/// gives sensible values; only [`MailConfig::address`] usually changes.
#[derive(Clone, Debug)]
pub struct MailConfig {
    /// The gateway's address: the `From` of every reply and notification
    /// and the envelope sender (bounces come back to it and are ignored).
    pub address: String,
    /// The display name in `From`.
    pub name: String,
    /// Largest incoming message accepted, in bytes (raw, as received).
    pub max_message_bytes: usize,
    /// Most command lines run from one message; more and none is run.
    pub max_commands: usize,
    /// Most error replies one address is sent in an hour; past it, messages
    /// that would get one are handled without an answer (so a program that
    /// answers every mail cannot keep a loop going).
    pub error_replies_per_hour: u32,
    /// Commands that act for a user are accepted only from one of that
    /// user's registered addresses (and a challenge only from one of its
    /// players'). The password is checked as well.
    pub require_registered_sender: bool,
    /// First retry delay of a failed outgoing message; doubled each attempt.
    pub retry_base: Duration,
    /// Longest retry delay.
    pub retry_max: Duration,
    /// Attempts after which a message that keeps failing is given up.
    pub max_attempts: i64,
    /// Outbox rows read per query while draining.
    pub drain_batch: usize,
    /// Most rows sent by one [`drain_outbox`] call.
    pub drain_max: usize,
    /// How often [`send_loop`] drains the outbox.
    pub drain_interval: Duration,
    /// How long a sender's claim on the messages it took from the outbox
    /// lasts without its heartbeat: a live sender renews it every third of
    /// this, other processes leave the messages alone meanwhile, and the
    /// claims of a sender that died run out within this time, after which
    /// another sender takes the messages over.
    pub claim_lease: Duration,
    /// Replies go to the outbox: a command's change is committed with the
    /// reply to its message and the message's handled mark, so that a crash
    /// cannot lose the reply. Off when the caller delivers replies itself
    /// (`tabula mail --reply-to-stdout`).
    pub commit_replies: bool,
    /// Limits of the SMTP listener.
    pub smtp: SmtpLimits,
}

/// Limits and names of the SMTP listener ([`serve_smtp`]).
#[derive(Clone, Debug)]
pub struct SmtpLimits {
    /// The host name in the greeting.
    pub hostname: String,
    /// Most recipients of one message.
    pub max_recipients: usize,
    /// Longest command line, in bytes with its line end (RFC 5321: 512).
    pub max_command_line: usize,
    /// Longest wait for the client's next command or data line.
    pub command_timeout: Duration,
    /// Longest time a whole `DATA` transfer may take.
    pub data_timeout: Duration,
    /// Most connections served at once; more are turned away with 421.
    pub max_connections: usize,
    /// Bad commands after which a connection is closed.
    pub max_errors: usize,
    /// How long sessions in flight may take to finish after shutdown.
    pub shutdown_grace: Duration,
}

impl Default for SmtpLimits {
    fn default() -> Self {
        SmtpLimits {
            hostname: "localhost".into(),
            max_recipients: 100,
            max_command_line: 1000,
            command_timeout: Duration::from_secs(300),
            data_timeout: Duration::from_secs(600),
            max_connections: 64,
            max_errors: 10,
            shutdown_grace: Duration::from_secs(10),
        }
    }
}

impl Default for MailConfig {
    fn default() -> Self {
        MailConfig {
            address: "tabula@localhost".into(),
            name: "Tabula".into(),
            max_message_bytes: 256 * 1024,
            max_commands: 20,
            error_replies_per_hour: 10,
            require_registered_sender: true,
            retry_base: Duration::from_secs(60),
            retry_max: Duration::from_secs(6 * 3600),
            max_attempts: 12,
            drain_batch: 50,
            drain_max: 1000,
            drain_interval: Duration::from_secs(5),
            claim_lease: Duration::from_secs(15),
            commit_replies: true,
            smtp: SmtpLimits::default(),
        }
    }
}

impl MailConfig {
    /// The `From` mailbox: `Tabula <tabula@example.org>`.
    pub fn from_mailbox(&self) -> String {
        if self.name.is_empty() {
            self.address.clone()
        } else {
            let name = self.name.replace(['"', '\\', '\r', '\n'], "");
            format!("\"{name}\" <{}>", self.address)
        }
    }

    /// The domain of [`MailConfig::address`], used in `Message-ID`s.
    pub fn domain(&self) -> &str {
        self.address.rsplit_once('@').map(|(_, d)| d).filter(|d| !d.is_empty()).unwrap_or("localhost")
    }
}

/// A failure of the gateway.
#[derive(Debug, Error)]
pub enum MailError {
    /// The raw message is over the size limit; nothing was read or run.
    #[error("the message has {size} bytes; at most {limit} are accepted")]
    TooLarge {
        /// Its size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// The bytes are not an Internet message.
    #[error("the message cannot be read as an Internet message")]
    Unreadable,
    /// Another delivery of the same message is being handled right now:
    /// nothing was run; the mail server is to try again later (by then the
    /// first has finished, and this one is known as handled).
    #[error("the message is being handled by another delivery; try again later")]
    Busy,
    /// The store failed.
    #[error("storage failed: {0}")]
    Store(#[from] tabula_service::store::StoreError),
    /// A message could not be built (a malformed address).
    #[error("the message cannot be built: {0}")]
    Build(String),
    /// The relay is configured wrongly.
    #[error("the SMTP relay is misconfigured: {0}")]
    Relay(String),
}
