//! Outgoing mail: the outbox sent through an SMTP relay.
//!
//! A row is marked sent only after the relay accepted it. A crash between
//! the relay's acceptance and the mark sends that message once more after
//! restart (at-least-once); the copy has the same `Message-ID`, derived from
//! the row's unique key, so a receiver can tell it is the same message.
//! Failures are recorded on the row with exponential back-off; a message the
//! relay refuses for good, or that keeps failing, is given up and stays
//! visible in the outbox with its error.

use std::sync::Arc;
use std::time::Duration;

use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::transport::smtp::extension::ClientId;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use sha2::{Digest, Sha256};
use tabula_service::Service;
use tabula_service::store::OutboxRow;
use thiserror::Error;

use crate::gateway::{Draft, OutgoingMail, build_message};
use crate::message::hex;
use crate::{MailConfig, MailError};

/// Longest message id kept in keys and threading headers.
const MAX_MESSAGE_ID: usize = 250;

/// How the connection to the relay is protected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelaySecurity {
    /// Plain SMTP (a relay on the same machine or a trusted network).
    Plain,
    /// STARTTLS, required (port 587 usually).
    StartTls,
    /// TLS from the start (port 465 usually).
    Tls,
}

/// Where and how to reach the SMTP relay.
#[derive(Clone, Debug)]
pub struct RelayConfig {
    /// Host name or address.
    pub host: String,
    /// Port.
    pub port: u16,
    /// Connection protection.
    pub security: RelaySecurity,
    /// User name and password, if the relay wants them.
    pub credentials: Option<(String, String)>,
    /// Longest time one message's whole SMTP exchange may take, from
    /// connecting to the relay's last answer; past it the attempt fails and
    /// counts as one.
    pub timeout: Duration,
    /// The name given in `EHLO`.
    pub hello_name: String,
}

impl RelayConfig {
    /// A plain SMTP relay at `host:port` without authentication.
    pub fn plain(host: impl Into<String>, port: u16) -> Self {
        RelayConfig {
            host: host.into(),
            port,
            security: RelaySecurity::Plain,
            credentials: None,
            timeout: Duration::from_secs(30),
            hello_name: "localhost".into(),
        }
    }
}

/// Why the relay did not take a message.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum RelayError {
    /// Refused for good (a 5xx answer): retrying will not help.
    #[error("refused by the relay: {0}")]
    Permanent(String),
    /// Refused for now (a 4xx answer).
    #[error("deferred by the relay: {0}")]
    Transient(String),
    /// No answer: the connection failed.
    #[error("the relay cannot be reached: {0}")]
    Unreachable(String),
    /// The relay took the connection but did not finish the exchange in time.
    #[error("the relay did not answer within {} s", .0.as_secs_f64())]
    TimedOut(Duration),
}

impl From<lettre::transport::smtp::Error> for RelayError {
    fn from(e: lettre::transport::smtp::Error) -> Self {
        let text = e.to_string();
        if e.is_permanent() || e.is_client() {
            RelayError::Permanent(text)
        } else if e.is_transient() {
            RelayError::Transient(text)
        } else {
            RelayError::Unreachable(text)
        }
    }
}

/// An SMTP relay that outgoing mail is handed to.
pub struct SmtpRelay {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    /// Bound of one whole exchange: the transport's own timeout covers the
    /// connection only, and a relay that accepts and then says nothing
    /// would hold the sender for ever.
    timeout: Duration,
    /// One drain at a time per relay, so two drains never pick the same rows.
    draining: tokio::sync::Mutex<()>,
}

impl std::fmt::Debug for SmtpRelay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpRelay").finish_non_exhaustive()
    }
}

impl SmtpRelay {
    /// A relay as configured.
    ///
    /// # Errors
    ///
    /// [`MailError::Relay`] if the TLS parameters cannot be made for the host.
    pub fn new(config: &RelayConfig) -> Result<Self, MailError> {
        let tls = match config.security {
            RelaySecurity::Plain => Tls::None,
            RelaySecurity::StartTls => Tls::Required(tls_parameters(&config.host)?),
            RelaySecurity::Tls => Tls::Wrapper(tls_parameters(&config.host)?),
        };
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(config.host.clone())
            .port(config.port)
            .tls(tls)
            .timeout(Some(config.timeout))
            .hello_name(ClientId::Domain(config.hello_name.clone()));
        if let Some((user, password)) = &config.credentials {
            builder = builder.credentials(Credentials::new(user.clone(), password.clone()));
        }
        Ok(SmtpRelay {
            transport: builder.build(),
            timeout: config.timeout,
            draining: tokio::sync::Mutex::new(()),
        })
    }

    /// A relay from a URL: `smtp://host:25` (plain), `smtp://host:587?tls=required`
    /// (STARTTLS), `smtps://user:password@host` (TLS).
    ///
    /// # Errors
    ///
    /// [`MailError::Relay`] if the URL is not one of these.
    pub fn from_url(url: &str) -> Result<Self, MailError> {
        let builder = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|e| MailError::Relay(format!("{url:?}: {e}")))?;
        let timeout = Duration::from_secs(30);
        Ok(SmtpRelay {
            transport: builder.timeout(Some(timeout)).build(),
            timeout,
            draining: tokio::sync::Mutex::new(()),
        })
    }

    /// A relay from the form an operator types: `HOST:PORT` (plain SMTP, as
    /// [`RelayConfig::plain`]) or a URL as [`SmtpRelay::from_url`] takes it
    /// (`smtp://user:password@host:587?tls=required` for STARTTLS with a
    /// login).
    ///
    /// # Errors
    ///
    /// [`MailError::Relay`] if it is neither.
    pub fn from_spec(spec: &str) -> Result<Self, MailError> {
        if spec.contains("://") {
            return Self::from_url(spec);
        }
        let bad = |why: &str| MailError::Relay(format!("{spec:?}: {why}"));
        let (host, port) = spec.rsplit_once(':').ok_or_else(|| {
            bad("needs HOST:PORT, such as localhost:25, or a URL such as smtp://host:587?tls=required")
        })?;
        if host.is_empty() {
            return Err(bad("needs a host before the colon"));
        }
        let port = port.parse().map_err(|_| bad("the port is not a number from 0 to 65535"))?;
        Self::new(&RelayConfig::plain(host, port))
    }

    /// Connect to the relay and say `EHLO`, to check it is there.
    ///
    /// # Errors
    ///
    /// Why it could not be reached or refused the connection.
    pub async fn check(&self) -> Result<(), RelayError> {
        match tokio::time::timeout(self.timeout, self.transport.test_connection()).await {
            Err(_) => Err(RelayError::TimedOut(self.timeout)),
            Ok(Ok(true)) => Ok(()),
            Ok(Ok(false)) => Err(RelayError::Unreachable("the relay did not answer EHLO".into())),
            Ok(Err(e)) => Err(e.into()),
        }
    }

    /// Send one reply now, from `from`, bypassing the outbox (for front ends
    /// that answer at once; [`drain_outbox`] is the durable way).
    ///
    /// # Errors
    ///
    /// [`RelayError::Permanent`] for a reply that cannot be built, else the relay's refusal.
    pub async fn send_reply(&self, mail: &OutgoingMail, from: &str) -> Result<(), RelayError> {
        let draft = Draft {
            to: &mail.to,
            subject: &mail.subject,
            body: &mail.body,
            message_id: &mail.message_id,
            in_reply_to: mail.in_reply_to.as_deref(),
            references: &mail.references,
            auto_submitted: "auto-replied",
        };
        let message = build_message(&draft, from).map_err(|e| RelayError::Permanent(e.to_string()))?;
        self.send(message).await
    }

    /// Hand one message to the relay, the whole exchange bounded by the
    /// configured timeout (dropping the exchange closes its connection).
    async fn send(&self, message: lettre::Message) -> Result<(), RelayError> {
        match tokio::time::timeout(self.timeout, self.transport.send(message)).await {
            Err(_) => Err(RelayError::TimedOut(self.timeout)),
            Ok(result) => result.map(drop).map_err(RelayError::from),
        }
    }
}

fn tls_parameters(host: &str) -> Result<TlsParameters, MailError> {
    TlsParameters::new(host.to_string()).map_err(|e| MailError::Relay(format!("TLS for {host}: {e}")))
}

/// The `Message-ID` (without angle brackets) of the message with outbox
/// key `key`: the same key always gives the same id.
pub fn message_id_for_key(key: &str, domain: &str) -> String {
    let digest = Sha256::digest(key.as_bytes());
    format!("tabula.{}@{domain}", &hex(&digest)[..32])
}

/// How the `Message-ID`s of the gateway's error replies start: an answer to
/// one of them without a command is never answered (no mail loop with a
/// program that answers everything).
pub(crate) const ERROR_ID_PREFIX: &str = "tabula.error.";

/// Whether a message with outbox key `key` and subject `subject` is an error
/// reply of the gateway (`DNA error`, `Tabula error`).
pub(crate) fn is_error_reply(key: &str, subject: &str) -> bool {
    key.starts_with("reply:") && subject.ends_with(" error")
}

/// The `Message-ID` (without angle brackets) of the outbox message with
/// key `key` and subject `subject`: [`message_id_for_key`], marked as an
/// error reply's when it is one, so that answers to it can be told apart.
pub fn message_id_for(key: &str, subject: &str, domain: &str) -> String {
    let id = message_id_for_key(key, domain);
    if is_error_reply(key, subject) { id.replacen("tabula.", ERROR_ID_PREFIX, 1) } else { id }
}

/// The `Message-ID` (without angle brackets) that the mails about `board`
/// name in `References`, so mail programs show them as one thread.
pub fn board_thread_id(board: i64, domain: &str) -> String {
    format!("tabula.board{board}@{domain}")
}

/// Most `References` a mail carries: the board's thread root and the
/// newest of the rest, so that long threads do not grow the header
/// without bound.
const MAX_REFERENCES: usize = 20;

/// The `References` of a mail: the thread root of the board it is about
/// ([`board_thread_id`]), then `chain` (the `References` of the message it
/// answers), then that message's id `parent` last; each id once, unsafe
/// ones left out, and of a long chain the root and the newest kept. Mail
/// programs then show every mail about a board, and the players' messages
/// among them, as one thread.
pub(crate) fn thread_references(root: Option<&str>, chain: &[String], parent: Option<&str>) -> Vec<String> {
    let mut refs: Vec<String> = Vec::new();
    let middle = chain.iter().map(String::as_str).filter(|id| Some(*id) != root && Some(*id) != parent);
    for id in root.into_iter().chain(middle).chain(parent) {
        if is_safe_message_id(id) && !refs.iter().any(|r| r == id) {
            refs.push(id.to_string());
        }
    }
    if refs.len() > MAX_REFERENCES {
        let keep = usize::from(root.is_some_and(is_safe_message_id));
        refs.drain(keep..refs.len() - (MAX_REFERENCES - keep));
    }
    refs
}

/// The `Message-ID` a reply's outbox key (`reply:<id> <digest>`, see
/// the gateway) answers.
pub(crate) fn reply_parent(key: &str) -> Option<&str> {
    key.strip_prefix("reply:").and_then(|k| k.split(' ').next()).filter(|id| is_safe_message_id(id))
}

/// Whether `id` can go into a key and a header as it is: printable ASCII,
/// no spaces or angle brackets, `local@domain`, not too long.
pub(crate) fn is_safe_message_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_MESSAGE_ID
        && id.contains('@')
        && id.bytes().all(|b| b.is_ascii_graphic() && b != b'<' && b != b'>' && b != b'"' && b != b'\\')
}

/// What one [`drain_outbox`] call did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DrainReport {
    /// Messages the relay accepted and that were marked sent.
    pub sent: usize,
    /// Messages that failed and will be tried again after their back-off.
    pub deferred: usize,
    /// Messages given up (refused for good, or failed too often).
    pub given_up: usize,
    /// The relay could not be reached or did not answer in time: the drain
    /// stopped early and the remaining messages wait for the next one.
    pub relay_unreachable: bool,
    /// The errors, one per failed message (`#id: error`).
    pub errors: Vec<String>,
}

/// Send the due outbox messages through `relay`, in queue order.
///
/// Messages are claimed in batches for [`MailConfig::claim_lease`], renewed
/// by the sender's heartbeat while it works on them: other processes
/// draining the same database skip them, and those of a sender that died
/// mid-batch are taken over by another once the lease has run out (seconds,
/// not minutes).
///
/// Each message is marked sent only after the relay accepted it. A message
/// the relay defers is tried again after an exponential back-off
/// ([`MailConfig::retry_base`] doubled per attempt, at most
/// [`MailConfig::retry_max`]); one refused for good, or failed
/// [`MailConfig::max_attempts`] times, is given up with its error kept on
/// the row. When the relay cannot be reached or does not answer in time
/// (each exchange is bounded by [`RelayConfig::timeout`]; a timed-out attempt
/// counts like any other) the drain stops and hands the rest of its batch
/// back at once, so they are not held behind the failed one: the next call
/// tries them while the failed one waits out its back-off. At most
/// [`MailConfig::drain_max`] are sent per call.
///
/// Each message's `Message-ID` is derived from its outbox key; replies
/// (`reply:<id>` keys) carry `In-Reply-To` the message they answer, and
/// `References` the board's thread root ([`board_thread_id`], for every
/// mail about a board) and the message answered (see [`thread_references`]).
///
/// # Errors
///
/// [`MailError::Store`] if the store fails; a message sent whose mark
/// failed then is sent again by a later drain (at-least-once).
pub async fn drain_outbox(
    service: &Service,
    relay: &SmtpRelay,
    config: &MailConfig,
) -> Result<DrainReport, MailError> {
    let _one_at_a_time = relay.draining.lock().await;
    let from = config.from_mailbox();
    let mut report = DrainReport::default();
    let mut handled = 0usize;
    while handled < config.drain_max {
        let batch = config.drain_batch.clamp(1, config.drain_max - handled);
        // Claimed, so that several servers draining one database never send a message twice.
        let now = service.now();
        let lease = config.claim_lease.as_millis().min(i64::MAX as u128) as i64;
        let mut held_until = now.saturating_add(lease.max(1));
        let rows = service.mailroom().claim_outbox(now, held_until, batch as i64).await?;
        if rows.is_empty() {
            break;
        }
        // The heartbeat: while this sender lives and works, its claim on the
        // rows it has not finished is renewed every third of the lease; if it
        // dies, the claim runs out within one lease and another sender
        // takes the rows over.
        let beat_every = (config.claim_lease / 3).max(Duration::from_millis(10));
        let mut beat = tokio::time::interval_at(tokio::time::Instant::now() + beat_every, beat_every);
        beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        for (index, row) in rows.iter().enumerate() {
            handled += 1;
            let result = match outbox_message(row, config, &from) {
                Ok(message) => {
                    let send = relay.send(message);
                    let mut send = std::pin::pin!(send);
                    loop {
                        tokio::select! {
                            result = &mut send => break result,
                            _ = beat.tick() => {
                                let unfinished: Vec<i64> = rows[index..].iter().map(|r| r.id).collect();
                                let until = service.now().saturating_add(lease.max(1));
                                let kept =
                                    service.mailroom().move_outbox_claim(&unfinished, held_until, until).await?;
                                if kept < unfinished.len() as u64 {
                                    tracing::warn!(
                                        lost = unfinished.len() as u64 - kept,
                                        "outbox claim renewed late: another sender may send the same messages (same Message-ID)"
                                    );
                                }
                                held_until = until;
                            }
                        }
                    }
                }
                Err(e) => Err(RelayError::Permanent(e.to_string())),
            };
            match result {
                Ok(()) => {
                    service.mailroom().outbox_sent(row.id, service.now()).await?;
                    report.sent += 1;
                }
                Err(error) => {
                    let attempts = row.attempts + 1;
                    let now = service.now();
                    let give_up =
                        matches!(error, RelayError::Permanent(_)) || attempts >= config.max_attempts;
                    tracing::warn!(id = row.id, key = %row.message.key, attempts, %error, give_up, "outgoing mail failed");
                    report.errors.push(format!("#{}: {error}", row.id));
                    if give_up {
                        let text = format!("gave up after {attempts} attempts: {error}");
                        service.mailroom().outbox_gave_up(row.id, &text, now).await?;
                        report.given_up += 1;
                    } else {
                        let retry_at = now.saturating_add(backoff_ms(attempts, config));
                        service.mailroom().outbox_failed(row.id, &error.to_string(), retry_at).await?;
                        report.deferred += 1;
                    }
                    if matches!(error, RelayError::Unreachable(_) | RelayError::TimedOut(_)) {
                        report.relay_unreachable = true;
                        let untried: Vec<i64> = rows[index + 1..].iter().map(|r| r.id).collect();
                        if !untried.is_empty() {
                            service.mailroom().move_outbox_claim(&untried, held_until, service.now()).await?;
                        }
                        return Ok(report);
                    }
                }
            }
        }
    }
    Ok(report)
}

/// The delay before attempt `attempts + 1`, in milliseconds.
fn backoff_ms(attempts: i64, config: &MailConfig) -> i64 {
    let base = config.retry_base.as_millis().min(i64::MAX as u128) as i64;
    let max = config.retry_max.as_millis().min(i64::MAX as u128) as i64;
    let shift = (attempts - 1).clamp(0, 40) as u32;
    base.saturating_mul(1i64 << shift).min(max).max(1)
}

fn outbox_message(row: &OutboxRow, config: &MailConfig, from: &str) -> Result<lettre::Message, MailError> {
    let key = &row.message.key;
    let parent = reply_parent(key);
    // Every mail about a board names the same thread root, so mail programs group them.
    let root = row.message.game_id.map(|board| board_thread_id(board, config.domain()));
    let references = thread_references(root.as_deref(), &[], parent);
    let message_id = message_id_for(key, &row.message.subject, config.domain());
    let draft = Draft {
        to: &row.message.recipient,
        subject: &row.message.subject,
        body: &row.message.body,
        message_id: &message_id,
        in_reply_to: parent,
        references: &references,
        auto_submitted: if key.starts_with("reply:") { "auto-replied" } else { "auto-generated" },
    };
    build_message(&draft, from)
}

/// Drain the outbox every [`MailConfig::drain_interval`] until `shutdown`
/// completes (a drain in progress is finished first). Failures are logged
/// and retried on the next round.
pub async fn send_loop(
    service: Arc<Service>,
    relay: Arc<SmtpRelay>,
    config: MailConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let mut shutdown = std::pin::pin!(shutdown);
    let mut tick = tokio::time::interval(config.drain_interval.max(Duration::from_millis(10)));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = &mut shutdown => return,
            _ = tick.tick() => {}
        }
        match drain_outbox(&service, &relay, &config).await {
            Ok(report) if report.sent + report.deferred + report.given_up > 0 => {
                tracing::info!(
                    sent = report.sent,
                    deferred = report.deferred,
                    given_up = report.given_up,
                    "outbox drained"
                );
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "outbox drain failed"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_the_limit() {
        let config = MailConfig::default();
        let got: Vec<i64> = (1..=12).map(|a| backoff_ms(a, &config) / 1000).collect();
        assert_eq!(got, vec![60, 120, 240, 480, 960, 1920, 3840, 7680, 15360, 21600, 21600, 21600]);
        assert_eq!(backoff_ms(1_000_000, &config), 21_600_000);
        assert_eq!(backoff_ms(-5, &config), 60_000);
    }

    #[test]
    fn message_ids_follow_keys() {
        let a = message_id_for_key("game:1:v3:ned", "example.org");
        assert_eq!(a, message_id_for_key("game:1:v3:ned", "example.org"));
        assert_ne!(a, message_id_for_key("game:1:v3:ted", "example.org"));
        assert!(a.ends_with("@example.org") && is_safe_message_id(&a));
        assert!(!is_safe_message_id("a b@c"));
        assert!(!is_safe_message_id("nodomain"));
        assert!(!is_safe_message_id(&format!("{}@x", "a".repeat(300))));
    }
}
