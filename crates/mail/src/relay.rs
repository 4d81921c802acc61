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

use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{AsyncSmtpConnection, Certificate, CertificateStore, TlsParameters};
use lettre::transport::smtp::extension::ClientId;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use sha2::{Digest, Sha256};
use tabula_service::Service;
use tabula_service::store::OutboxRow;
use thiserror::Error;

use crate::gateway::{Draft, OutgoingMail, build_message};
use crate::{MailConfig, MailError};

/// How long the relay's answer to `QUIT` is waited for once a message's
/// fate is known.
const QUIT_WAIT: Duration = Duration::from_secs(5);

/// Longest message id kept in keys and threading headers.
const MAX_MESSAGE_ID: usize = 250;

/// The login methods offered to a relay: those every submission server
/// speaks, always inside TLS here (a login over plain SMTP is refused
/// before anything is sent).
const LOGIN_METHODS: &[Mechanism] = &[Mechanism::Plain, Mechanism::Login];

/// How the connection to the relay is protected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelaySecurity {
    /// Plain SMTP (a relay on the same machine or a trusted network).
    Plain,
    /// STARTTLS, required (port 587 usually): a relay that does not offer
    /// it, or whose certificate is not trusted, gets nothing.
    StartTls,
    /// TLS from the start (port 465 usually).
    Tls,
}

/// Where and how to reach the SMTP relay.
#[derive(Clone)]
pub struct RelayConfig {
    /// Host name or address; the relay's certificate must name it.
    pub host: String,
    /// Port.
    pub port: u16,
    /// Connection protection.
    pub security: RelaySecurity,
    /// The user name to log in with (`AUTH PLAIN` or `LOGIN`), if the relay
    /// wants a login; needs [`RelayConfig::password`] and TLS.
    pub user: Option<String>,
    /// The password of [`RelayConfig::user`].
    pub password: Option<String>,
    /// Certificates (PEM) of the authorities trusted to sign the relay's
    /// certificate, instead of the built-in roots (Mozilla's list): for a
    /// relay with a private authority. `None`: the built-in roots.
    pub trusted_roots: Option<Vec<u8>>,
    /// Longest time one message's whole SMTP exchange may take, from
    /// connecting to the relay's last answer; past it the attempt fails and
    /// counts as one.
    pub timeout: Duration,
    /// The name given in `EHLO`.
    pub hello_name: String,
}

impl std::fmt::Debug for RelayConfig {
    /// Without the password, so that no log or error message shows it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RelayConfig")
            .field("relay", &self.describe())
            .field("timeout", &self.timeout)
            .field("hello_name", &self.hello_name)
            .finish_non_exhaustive()
    }
}

impl RelayConfig {
    /// A plain SMTP relay at `host:port` without authentication.
    pub fn plain(host: impl Into<String>, port: u16) -> Self {
        RelayConfig {
            host: host.into(),
            port,
            security: RelaySecurity::Plain,
            user: None,
            password: None,
            trusted_roots: None,
            timeout: Duration::from_secs(30),
            hello_name: "localhost".into(),
        }
    }

    /// The relay from the form an operator types: `HOST:PORT` (plain SMTP),
    /// `smtp://[USER[:PASSWORD]@]HOST[:PORT]` (plain, port 25),
    /// `smtp://[USER[:PASSWORD]@]HOST[:PORT]?tls=required` (STARTTLS, port
    /// 587) or `smtps://[USER[:PASSWORD]@]HOST[:PORT]` (TLS from the start,
    /// port 465). A path names the host in `EHLO`. The user and password
    /// are percent-decoded.
    ///
    /// # Errors
    ///
    /// [`MailError::Relay`] naming what is wrong; the error never contains
    /// the password.
    pub fn parse(spec: &str) -> Result<Self, MailError> {
        if !spec.contains("://") {
            let bad = |why: &str| MailError::Relay(format!("{spec:?}: {why}"));
            let (host, port) = spec.rsplit_once(':').ok_or_else(|| {
                bad("needs HOST:PORT, such as localhost:25, or a URL such as smtp://USER@HOST:587?tls=required")
            })?;
            if host.is_empty() {
                return Err(bad("needs a host before the colon"));
            }
            let port = port.parse().map_err(|_| bad("the port is not a number from 0 to 65535"))?;
            return Ok(Self::plain(host, port));
        }
        let url = url::Url::parse(spec).map_err(|e| MailError::Relay(format!("{}: {e}", redacted(spec))))?;
        let shown = redacted(spec);
        let bad = |why: String| MailError::Relay(format!("{shown}: {why}"));
        let tls: Vec<String> =
            url.query_pairs().filter(|(k, _)| k == "tls").map(|(_, v)| v.into_owned()).collect();
        if let Some((key, _)) = url.query_pairs().find(|(k, _)| k != "tls") {
            return Err(bad(format!("unknown parameter {key:?} (only tls=required is known)")));
        }
        let (security, default_port) = match (url.scheme(), tls.as_slice()) {
            ("smtp", []) => (RelaySecurity::Plain, 25),
            ("smtp", [t]) if t == "required" => (RelaySecurity::StartTls, 587),
            ("smtp", [t]) if t == "opportunistic" => {
                return Err(bad(
                    "tls=opportunistic would fall back to plain text when the relay offers no STARTTLS; use tls=required".into(),
                ));
            }
            ("smtps", []) => (RelaySecurity::Tls, 465),
            ("smtp" | "smtps", _) => return Err(bad("tls= takes `required` (STARTTLS), once".into())),
            (other, _) => return Err(bad(format!("unknown scheme {other:?}: smtp:// or smtps://"))),
        };
        let host = url.host_str().filter(|h| !h.is_empty()).ok_or_else(|| bad("needs a host".into()))?;
        // An IPv6 address comes bracketed; the connection and the certificate check want it bare.
        let host = host.trim_start_matches('[').trim_end_matches(']').to_string();
        let decode = |what: &str, s: &str| {
            percent_encoding::percent_decode_str(s)
                .decode_utf8()
                .map(|d| d.into_owned())
                .map_err(|_| bad(format!("the {what} is not UTF-8 once percent-decoded")))
        };
        let user = match url.username() {
            "" => None,
            u => Some(decode("user", u)?),
        };
        let password = url.password().map(|p| decode("password", p)).transpose()?;
        let mut config = Self::plain(host, url.port().unwrap_or(default_port));
        config.security = security;
        config.user = user;
        config.password = password;
        let path = url.path().trim_matches('/');
        if !path.is_empty() {
            config.hello_name = path.to_string();
        }
        Ok(config)
    }

    /// The relay as logs show it: scheme, host, port and user, never the
    /// password (`smtp://bot@mail.example.org:587 (STARTTLS)`).
    pub fn describe(&self) -> String {
        let (scheme, how) = match self.security {
            RelaySecurity::Plain => ("smtp", "plain SMTP"),
            RelaySecurity::StartTls => ("smtp", "STARTTLS"),
            RelaySecurity::Tls => ("smtps", "TLS"),
        };
        let user = self.user.as_deref().map(|u| format!("{u}@")).unwrap_or_default();
        let host = if self.host.contains(':') { format!("[{}]", self.host) } else { self.host.clone() };
        let roots = if self.trusted_roots.is_some() { ", private authority" } else { "" };
        format!("{scheme}://{user}{host}:{} ({how}{roots})", self.port)
    }
}

/// `spec` with the password of a URL replaced, for error messages.
fn redacted(spec: &str) -> String {
    let Some((scheme, rest)) = spec.split_once("://") else { return spec.to_string() };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    match authority.rsplit_once('@') {
        Some((userinfo, host)) => {
            let user = userinfo.split_once(':').map_or(userinfo, |(u, _)| u);
            let hidden = if userinfo.contains(':') { ":***" } else { "" };
            format!("{scheme}://{user}{hidden}@{host}{tail}")
        }
        None => spec.to_string(),
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
    /// No secure connection: the relay offers no STARTTLS, its certificate
    /// is not trusted, or the handshake failed. Nothing was sent.
    #[error("no secure connection to the relay, nothing sent: {0}")]
    Tls(String),
    /// The relay refused the login (wrong user or password, or no login
    /// method in common). Nothing was sent.
    #[error("the relay refused the login, nothing sent (check the user and password): {0}")]
    Login(String),
}

impl RelayError {
    /// Whether the failure is the relay's or its configuration's, not the
    /// message's: the drain stops, and the message waits to be tried again
    /// like the others.
    fn is_relay_wide(&self) -> bool {
        matches!(
            self,
            RelayError::Unreachable(_) | RelayError::TimedOut(_) | RelayError::Tls(_) | RelayError::Login(_)
        )
    }
}

impl From<lettre::transport::smtp::Error> for RelayError {
    /// An error of the message's own exchange (`MAIL`, `RCPT`, `DATA`).
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

/// The TLS library's own error inside `e`, if the failure was TLS's (a
/// certificate not trusted, a failed handshake). The stream's I/O error
/// carries it as its inner error, which `source()` skips.
fn tls_cause<'a>(e: &'a (dyn std::error::Error + 'static)) -> Option<&'a rustls::Error> {
    let mut next = Some(e);
    while let Some(error) = next {
        if let Some(tls) = error.downcast_ref::<rustls::Error>() {
            return Some(tls);
        }
        if let Some(inner) = error.downcast_ref::<std::io::Error>().and_then(|io| io.get_ref())
            && let Some(tls) = tls_cause(inner)
        {
            return Some(tls);
        }
        next = error.source();
    }
    None
}

/// A failure while connecting (and, with [`RelaySecurity::Tls`], the
/// handshake) or in `STARTTLS`.
fn setup_error(e: lettre::transport::smtp::Error) -> RelayError {
    match tls_cause(&e) {
        Some(rustls::Error::InvalidCertificate(why)) => RelayError::Tls(format!(
            "the relay's certificate is not trusted ({why}): is it signed by an authority of the trusted roots, and does it name the host?"
        )),
        Some(other) => RelayError::Tls(format!("the TLS handshake failed: {other}")),
        None if e.is_client() => RelayError::Tls(e.to_string()),
        None if e.is_permanent() || e.is_transient() => {
            RelayError::Unreachable(format!("refused the connection: {e}"))
        }
        None => RelayError::Unreachable(e.to_string()),
    }
}

/// A failure of the login.
fn login_error(e: lettre::transport::smtp::Error) -> RelayError {
    if e.is_client() {
        return RelayError::Login(
            "the relay offers no login method spoken here (PLAIN or LOGIN), or none at all".into(),
        );
    }
    if e.is_permanent() || e.is_transient() {
        RelayError::Login(e.to_string())
    } else {
        RelayError::Unreachable(e.to_string())
    }
}

/// How a connection is protected, with its TLS parameters.
#[derive(Clone)]
enum Protection {
    Plain,
    StartTls(TlsParameters),
    Tls(TlsParameters),
}

/// An SMTP relay that outgoing mail is handed to.
pub struct SmtpRelay {
    host: String,
    port: u16,
    protection: Protection,
    credentials: Option<Credentials>,
    hello: ClientId,
    described: String,
    /// Bound of one whole exchange: the connection's own timeout covers
    /// each read and write only, and a relay that accepts and then says
    /// nothing would hold the sender for ever.
    timeout: Duration,
    /// One drain at a time per relay, so two drains never pick the same rows.
    draining: tokio::sync::Mutex<()>,
}

impl std::fmt::Debug for SmtpRelay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpRelay").field("relay", &self.described).finish_non_exhaustive()
    }
}

impl SmtpRelay {
    /// A relay as configured.
    ///
    /// # Errors
    ///
    /// [`MailError::Relay`] for a login without a password or without TLS,
    /// trusted roots for a plain relay or with no certificate in them, or
    /// TLS parameters that cannot be made for the host.
    pub fn new(config: &RelayConfig) -> Result<Self, MailError> {
        let bad = |why: String| MailError::Relay(format!("{}: {why}", config.describe()));
        let tls = || tls_parameters(&config.host, config.trusted_roots.as_deref()).map_err(&bad);
        let protection = match config.security {
            RelaySecurity::Plain => Protection::Plain,
            RelaySecurity::StartTls => Protection::StartTls(tls()?),
            RelaySecurity::Tls => Protection::Tls(tls()?),
        };
        let credentials = match (&config.user, &config.password) {
            (None, None) => None,
            (None, Some(_)) => return Err(bad("a password without a user (smtp://USER@HOST..)".into())),
            (Some(user), None) => return Err(bad(format!("the user {user:?} has no password"))),
            (Some(user), Some(password)) => Some(Credentials::new(user.clone(), password.clone())),
        };
        if config.security == RelaySecurity::Plain {
            if credentials.is_some() {
                return Err(bad(
                    "a login over plain SMTP would send the password in clear: use smtp://..?tls=required (STARTTLS) or smtps://".into(),
                ));
            }
            if config.trusted_roots.is_some() {
                return Err(bad(
                    "trusted roots for a plain SMTP relay, which has no certificate: use smtp://..?tls=required or smtps://".into(),
                ));
            }
        }
        Ok(SmtpRelay {
            host: config.host.clone(),
            port: config.port,
            protection,
            credentials,
            hello: ClientId::Domain(config.hello_name.clone()),
            described: config.describe(),
            timeout: config.timeout,
            draining: tokio::sync::Mutex::new(()),
        })
    }

    /// A relay from the form an operator types, as [`RelayConfig::parse`]
    /// reads it.
    ///
    /// # Errors
    ///
    /// [`MailError::Relay`] if it is not one of those forms or
    /// [`SmtpRelay::new`] refuses it.
    pub fn from_spec(spec: &str) -> Result<Self, MailError> {
        Self::new(&RelayConfig::parse(spec)?)
    }

    /// The relay as logs show it ([`RelayConfig::describe`]).
    pub fn describe(&self) -> &str {
        &self.described
    }

    /// Connect, protect the connection as configured (never falling back
    /// to plain text) and log in: a connection ready for a message. The
    /// failures here are the relay's, not a message's.
    async fn connect(&self) -> Result<AsyncSmtpConnection, RelayError> {
        let wrapper = match &self.protection {
            Protection::Tls(parameters) => Some(parameters.clone()),
            Protection::Plain | Protection::StartTls(_) => None,
        };
        let mut connection = AsyncSmtpConnection::connect_tokio1(
            (self.host.as_str(), self.port),
            Some(self.timeout),
            &self.hello,
            wrapper,
            None,
        )
        .await
        .map_err(setup_error)?;
        if let Protection::StartTls(parameters) = &self.protection {
            if !connection.can_starttls() {
                connection.abort().await;
                return Err(RelayError::Tls("the relay does not offer STARTTLS".into()));
            }
            if let Err(e) = connection.starttls(parameters.clone(), &self.hello).await {
                connection.abort().await;
                return Err(setup_error(e));
            }
        }
        if let Some(credentials) = &self.credentials
            && let Err(e) = connection.auth(LOGIN_METHODS, credentials).await
        {
            connection.abort().await;
            return Err(login_error(e));
        }
        Ok(connection)
    }

    /// Connect, log in and say `QUIT`, to check the relay is there and
    /// takes the configuration.
    ///
    /// # Errors
    ///
    /// Why it could not be reached, secured or logged in to.
    pub async fn check(&self) -> Result<(), RelayError> {
        let exchange = async {
            let mut connection = self.connect().await?;
            connection.quit().await.map(drop).map_err(RelayError::from)
        };
        tokio::time::timeout(self.timeout, exchange).await.unwrap_or(Err(RelayError::TimedOut(self.timeout)))
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
        let exchange = async {
            let mut connection = self.connect().await?;
            let result = connection.send(message.envelope(), &message.formatted()).await;
            Ok::<_, RelayError>((connection, result))
        };
        let (mut connection, result) = match tokio::time::timeout(self.timeout, exchange).await {
            Err(_) => return Err(RelayError::TimedOut(self.timeout)),
            Ok(exchange) => exchange?,
        };
        // The message's fate is known: a relay slow to answer QUIT must not
        // turn an accepted message into a failed one (sent again later).
        if !connection.has_broken() {
            let _ = tokio::time::timeout(QUIT_WAIT, connection.quit()).await;
        }
        result.map(drop).map_err(RelayError::from)
    }
}

/// The TLS parameters for `host`: the built-in roots, or only the
/// certificates of `roots` (PEM).
fn tls_parameters(host: &str, roots: Option<&[u8]>) -> Result<TlsParameters, String> {
    let mut builder = TlsParameters::builder(host.to_string());
    if let Some(pem) = roots {
        let count = CertificateDer::pem_slice_iter(pem)
            .try_fold(0usize, |n, c| c.map(|_| n + 1))
            .map_err(|e| format!("the trusted roots are not PEM certificates: {e}"))?;
        if count == 0 {
            return Err("the trusted roots hold no certificate (-----BEGIN CERTIFICATE-----)".into());
        }
        let certificate = Certificate::from_pem(pem).map_err(|e| format!("the trusted roots: {e}"))?;
        builder = builder.certificate_store(CertificateStore::None).add_root_certificate(certificate);
    }
    builder.build_rustls().map_err(|e| format!("TLS for {host}: {e}"))
}

/// The `Message-ID` (without angle brackets) of the message with outbox
/// key `key`: the same key always gives the same id.
pub fn message_id_for_key(key: &str, domain: &str) -> String {
    let digest = Sha256::digest(key.as_bytes());
    format!("tabula.{}@{domain}", &hex::encode(digest)[..32])
}

/// How the `Message-ID`s of the gateway's error replies start: an answer to
/// one of them without a command is never answered (no mail loop with a
/// program that answers everything).
pub(crate) const ERROR_ID_PREFIX: &str = "tabula.error.";

/// Whether a message with outbox key `key` and subject `subject` is an error
/// reply of the gateway (`DNA error`, `Tabula error`).
pub(crate) fn is_error_reply(key: &str, subject: &str) -> bool {
    key.starts_with("reply:") && error_suffixes().iter().any(|s| subject.ends_with(s.as_str()))
}

/// How the subject of an error reply ends in each language (` error`,
/// `: virhe`): what tells an error reply from others, whatever language
/// it was written in.
pub(crate) fn error_suffixes() -> Vec<String> {
    let mut suffixes: Vec<String> = tabula_model::Lang::ALL
        .iter()
        .map(|&lang| tabula_i18n::t!(lang, "mail-error-subject", game = ""))
        .collect();
    suffixes.sort();
    suffixes.dedup();
    suffixes
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
    /// The relay could not be reached, did not answer in time, or refused
    /// the secure connection or the login: the drain stopped early and the
    /// remaining messages wait for the next one.
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
/// the row. When the relay cannot be reached, does not answer in time
/// (each exchange is bounded by [`RelayConfig::timeout`]; a timed-out attempt
/// counts like any other), or refuses the secure connection or the login
/// (a failure of the relay's configuration, not the message's: it is
/// deferred like an outage, never given up at once) the drain stops and hands the rest of its batch
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
                    if error.is_relay_wide() {
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
    fn relay_specs_parse_and_never_show_the_password() {
        let c =
            RelayConfig::parse("smtp://bot%40x:p%3Ass@mail.example.org:2587/tabula.example.org?tls=required")
                .unwrap();
        assert_eq!(
            (c.host.as_str(), c.port, c.security),
            ("mail.example.org", 2587, RelaySecurity::StartTls)
        );
        assert_eq!((c.user.as_deref(), c.password.as_deref()), (Some("bot@x"), Some("p:ss")));
        assert_eq!(c.hello_name, "tabula.example.org");
        assert_eq!(c.describe(), "smtp://bot@x@mail.example.org:2587 (STARTTLS)");
        assert!(!format!("{c:?}").contains("p:ss"));
        assert_eq!(RelayConfig::parse("smtps://mail.example.org").unwrap().port, 465);
        assert_eq!(RelayConfig::parse("smtp://[::1]?tls=required").unwrap().host, "::1");
        assert_eq!(RelayConfig::parse("localhost:25").unwrap().security, RelaySecurity::Plain);
        for bad in
            ["smtp://u:secret@h:25?tls=maybe", "smtp://u:secret@h?tls=opportunistic", "smtp://u:secret@h?x=1"]
        {
            let e = RelayConfig::parse(bad).unwrap_err().to_string();
            assert!(e.contains("u:***@h") && !e.contains("secret"), "{e}");
        }
        assert!(RelayConfig::parse("gopher://h").is_err());
        assert!(RelayConfig::parse("nohost").is_err());
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
