//! A small SMTP server (RFC 5321): `HELO`/`EHLO`, `MAIL FROM`, `RCPT TO`,
//! `DATA` with dot-unstuffing, `RSET`, `NOOP`, `QUIT`, with limits on line
//! length, message size, recipients, errors, connections and time. Each
//! message is handed to a [`MessageSink`]; [`serve_smtp`] uses the gateway,
//! which answers through the outbox.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinSet;
use tokio::time::{Instant, timeout};

use tabula_service::Service;

use crate::gateway::{enqueue_reply, handle_message};
use crate::{MailConfig, MailError};

/// Longest address in `MAIL FROM` or `RCPT TO` (RFC 5321: 256 octets).
const MAX_PATH: usize = 256;

/// The envelope of a received message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Envelope {
    /// `MAIL FROM`; empty for the null sender `<>` (bounces).
    pub sender: String,
    /// `RCPT TO`, in order.
    pub recipients: Vec<String>,
    /// The name the client gave in `HELO`/`EHLO`.
    pub helo: String,
    /// The client's address.
    pub peer: SocketAddr,
}

/// A sink's refusal of a message; the SMTP client is told.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct SinkError {
    /// Refused for good (5xx: the sending server bounces it) rather than
    /// for now (4xx: it tries again later).
    pub permanent: bool,
    /// Why, for the client.
    pub message: String,
}

impl SinkError {
    /// A refusal for good.
    pub fn permanent(message: impl Into<String>) -> Self {
        SinkError { permanent: true, message: message.into() }
    }

    /// A refusal for now.
    pub fn transient(message: impl Into<String>) -> Self {
        SinkError { permanent: false, message: message.into() }
    }
}

/// Where received messages go.
pub trait MessageSink: Send + Sync + 'static {
    /// Take one message (its bytes as received, dot-unstuffed). The client
    /// is told `250` only after this returns `Ok`.
    fn deliver(
        &self,
        envelope: &Envelope,
        message: Vec<u8>,
    ) -> impl Future<Output = Result<(), SinkError>> + Send;
}

/// The gateway as a sink: each message is handled by
/// [`crate::handle_message`] and its reply queued in the outbox. Mail from
/// the null sender (bounces) is accepted and not answered.
pub struct GatewaySink {
    service: Arc<Service>,
    config: MailConfig,
}

impl GatewaySink {
    /// The gateway over `service`.
    pub fn new(service: Arc<Service>, config: MailConfig) -> Self {
        GatewaySink { service, config }
    }
}

impl MessageSink for GatewaySink {
    async fn deliver(&self, envelope: &Envelope, message: Vec<u8>) -> Result<(), SinkError> {
        if envelope.sender.is_empty() {
            tracing::info!(peer = %envelope.peer, "mail from the null sender (a bounce) not answered");
            return Ok(());
        }
        match handle_message(&self.service, &message, &self.config).await {
            Ok(Some(reply)) => enqueue_reply(&self.service, &reply).await.map_err(|e| {
                SinkError::transient(format!("the reply could not be queued ({e}); try again later"))
            }),
            Ok(None) => Ok(()),
            Err(e @ (MailError::TooLarge { .. } | MailError::Unreadable)) => {
                Err(SinkError::permanent(e.to_string()))
            }
            Err(e) => {
                tracing::error!(error = %e, "incoming mail failed");
                Err(SinkError::transient("the message could not be handled now; try again later"))
            }
        }
    }
}

/// Receive mail on `listen` until `shutdown` completes: each message is
/// handled by [`crate::handle_message`] and its reply queued in the
/// service's outbox (key `reply:<message-id>`, so a message delivered twice
/// is answered once), to be sent by [`crate::drain_outbox`]. Mail from the
/// null sender is accepted and not answered.
///
/// # Errors
///
/// If `listen` cannot be bound.
pub async fn serve_smtp(
    service: Arc<Service>,
    listen: SocketAddr,
    config: MailConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let listener = TcpListener::bind(listen).await?;
    let sink = Arc::new(GatewaySink::new(service, config.clone()));
    serve_smtp_on(listener, sink, config, shutdown).await
}

/// Serve SMTP on a bound `listener`, handing each message to `sink`, until
/// `shutdown` completes; sessions in flight get
/// [`crate::SmtpLimits::shutdown_grace`] to finish. Uses
/// [`MailConfig::max_message_bytes`] and [`MailConfig::smtp`].
///
/// # Errors
///
/// None at present; accept failures (too many open files) are logged and retried.
pub async fn serve_smtp_on<S: MessageSink>(
    listener: TcpListener,
    sink: Arc<S>,
    config: MailConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let config = Arc::new(config);
    let (stop, stopped) = watch::channel(false);
    let permits = Arc::new(Semaphore::new(config.smtp.max_connections.max(1)));
    let mut sessions = JoinSet::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            _ = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    tracing::warn!(error = %e, "SMTP accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        while sessions.try_join_next().is_some() {}
        match permits.clone().try_acquire_owned() {
            Ok(permit) => {
                let (sink, config, stopped) = (sink.clone(), config.clone(), stopped.clone());
                sessions.spawn(async move {
                    let _permit = permit;
                    if let Err(e) = session(stream, peer, &*sink, &config, stopped).await {
                        tracing::debug!(%peer, error = %e, "SMTP session ended");
                    }
                });
            }
            Err(_) => {
                let host = config.smtp.hostname.clone();
                sessions.spawn(async move {
                    let mut stream = stream;
                    let line = format!("421 4.3.2 {host} too busy, try again later\r\n");
                    let _ = timeout(Duration::from_secs(5), stream.write_all(line.as_bytes())).await;
                });
            }
        }
    }
    let _ = stop.send(true);
    let _ =
        timeout(config.smtp.shutdown_grace, async { while sessions.join_next().await.is_some() {} }).await;
    sessions.abort_all();
    Ok(())
}

/// A line read with a length limit.
enum Line {
    /// The line with its ending.
    Text(Vec<u8>),
    /// Longer than allowed (read and dropped up to its end).
    TooLong,
    /// The connection closed.
    Closed,
}

async fn read_line<R: AsyncBufRead + Unpin>(reader: &mut R, max: usize) -> io::Result<Line> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            return Ok(Line::Closed);
        }
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(end) => (&available[..=end], true),
            None => (available, false),
        };
        if !too_long && line.len() + chunk.len() > max {
            too_long = true;
            line = Vec::new();
        }
        if !too_long {
            line.extend_from_slice(chunk);
        }
        let used = chunk.len();
        reader.consume(used);
        if done {
            return Ok(if too_long { Line::TooLong } else { Line::Text(line) });
        }
    }
}

async fn reply<W: AsyncWrite + Unpin>(out: &mut W, text: &str) -> io::Result<()> {
    let mut wire = text.replace('\n', "\r\n");
    wire.push_str("\r\n");
    out.write_all(wire.as_bytes()).await?;
    out.flush().await
}

/// One SMTP connection.
async fn session<S: MessageSink>(
    stream: TcpStream,
    peer: SocketAddr,
    sink: &S,
    config: &MailConfig,
    mut stopped: watch::Receiver<bool>,
) -> io::Result<()> {
    let limits = &config.smtp;
    let host = limits.hostname.as_str();
    let (read, mut out) = stream.into_split();
    let mut input = BufReader::new(read);
    reply(&mut out, &format!("220 {host} Tabula ESMTP ready")).await?;
    let mut helo: Option<String> = None;
    let mut sender: Option<String> = None;
    let mut recipients: Vec<String> = Vec::new();
    let mut errors = 0usize;
    loop {
        if errors > limits.max_errors {
            return reply(&mut out, &format!("421 4.7.0 {host} too many errors, closing")).await;
        }
        let line = tokio::select! {
            read = timeout(limits.command_timeout, read_line(&mut input, limits.max_command_line)) => match read {
                Err(_) => return reply(&mut out, &format!("421 4.4.2 {host} timeout, closing")).await,
                Ok(line) => line?,
            },
            _ = async { let _ = stopped.wait_for(|s| *s).await; } => {
                return reply(&mut out, &format!("421 4.3.2 {host} shutting down")).await;
            }
        };
        let line = match line {
            Line::Closed => return Ok(()),
            Line::TooLong => {
                errors += 1;
                reply(&mut out, "500 5.5.2 line too long").await?;
                continue;
            }
            Line::Text(bytes) => String::from_utf8_lossy(&bytes).trim_end_matches(['\r', '\n']).to_string(),
        };
        let (verb, arg) = match line.split_once(' ') {
            Some((v, a)) => (v.to_ascii_uppercase(), a.trim()),
            None => (line.to_ascii_uppercase(), ""),
        };
        match verb.as_str() {
            "EHLO" | "HELO" => {
                if arg.is_empty() {
                    errors += 1;
                    reply(&mut out, &format!("501 5.5.4 {verb} needs a domain")).await?;
                    continue;
                }
                helo = Some(arg.chars().take(255).collect());
                sender = None;
                recipients.clear();
                if verb == "EHLO" {
                    let text = format!(
                        "250-{host} greets {arg}\n250-SIZE {}\n250-8BITMIME\n250-PIPELINING\n250 ENHANCEDSTATUSCODES",
                        config.max_message_bytes
                    );
                    reply(&mut out, &text).await?;
                } else {
                    reply(&mut out, &format!("250 {host} greets {arg}")).await?;
                }
            }
            "MAIL" => {
                if helo.is_none() {
                    errors += 1;
                    reply(&mut out, "503 5.5.1 say EHLO first").await?;
                } else if sender.is_some() {
                    errors += 1;
                    reply(&mut out, "503 5.5.1 a MAIL command was given already").await?;
                } else {
                    match parse_path(arg, "FROM:") {
                        Err(e) => {
                            errors += 1;
                            reply(&mut out, &format!("501 5.5.4 {e}")).await?;
                        }
                        Ok((path, params)) => {
                            let size = params.iter().find_map(|p| {
                                p.split_once('=')
                                    .filter(|(k, _)| k.eq_ignore_ascii_case("SIZE"))
                                    .and_then(|(_, v)| v.parse::<u64>().ok())
                            });
                            if size.is_some_and(|s| s > config.max_message_bytes as u64) {
                                reply(
                                    &mut out,
                                    &format!(
                                        "552 5.3.4 messages are limited to {} bytes",
                                        config.max_message_bytes
                                    ),
                                )
                                .await?;
                            } else {
                                sender = Some(path);
                                reply(&mut out, "250 2.1.0 OK").await?;
                            }
                        }
                    }
                }
            }
            "RCPT" => {
                if sender.is_none() {
                    errors += 1;
                    reply(&mut out, "503 5.5.1 say MAIL first").await?;
                } else {
                    match parse_path(arg, "TO:") {
                        Err(e) => {
                            errors += 1;
                            reply(&mut out, &format!("501 5.5.4 {e}")).await?;
                        }
                        Ok((path, _)) if path.is_empty() => {
                            errors += 1;
                            reply(&mut out, "501 5.1.3 a recipient is needed").await?;
                        }
                        Ok(_) if recipients.len() >= limits.max_recipients => {
                            reply(&mut out, "452 4.5.3 too many recipients").await?;
                        }
                        Ok((path, _)) => {
                            recipients.push(path);
                            reply(&mut out, "250 2.1.5 OK").await?;
                        }
                    }
                }
            }
            "DATA" => {
                if recipients.is_empty() {
                    errors += 1;
                    reply(&mut out, "503 5.5.1 say RCPT first").await?;
                    continue;
                }
                reply(&mut out, "354 send the message, end with <CRLF>.<CRLF>").await?;
                let data = match read_data(&mut input, config).await? {
                    Data::Closed => return Ok(()),
                    Data::TimedOut => {
                        return reply(&mut out, &format!("421 4.4.2 {host} timeout, closing")).await;
                    }
                    Data::TooLarge => {
                        sender = None;
                        recipients.clear();
                        reply(
                            &mut out,
                            &format!("552 5.3.4 messages are limited to {} bytes", config.max_message_bytes),
                        )
                        .await?;
                        continue;
                    }
                    Data::Message(bytes) => bytes,
                };
                let envelope = Envelope {
                    sender: sender.take().unwrap_or_default(),
                    recipients: std::mem::take(&mut recipients),
                    helo: helo.clone().unwrap_or_default(),
                    peer,
                };
                match sink.deliver(&envelope, data).await {
                    Ok(()) => reply(&mut out, "250 2.0.0 OK, message accepted").await?,
                    Err(e) if e.permanent => {
                        reply(&mut out, &format!("550 5.6.0 {}", one_line(&e.message))).await?
                    }
                    Err(e) => reply(&mut out, &format!("451 4.3.0 {}", one_line(&e.message))).await?,
                }
            }
            "RSET" => {
                sender = None;
                recipients.clear();
                reply(&mut out, "250 2.0.0 OK").await?;
            }
            "NOOP" => reply(&mut out, "250 2.0.0 OK").await?,
            "QUIT" => return reply(&mut out, &format!("221 2.0.0 {host} closing")).await,
            "VRFY" => {
                reply(&mut out, "252 2.5.2 cannot verify; send the message and it will be tried").await?
            }
            "HELP" => reply(&mut out, "214 2.0.0 commands: HELO EHLO MAIL RCPT DATA RSET NOOP QUIT").await?,
            "STARTTLS" | "AUTH" | "BDAT" | "EXPN" | "ETRN" | "TURN" => {
                errors += 1;
                reply(&mut out, "502 5.5.1 not implemented").await?;
            }
            _ => {
                errors += 1;
                reply(&mut out, "500 5.5.2 unknown command").await?;
            }
        }
    }
}

enum Data {
    Message(Vec<u8>),
    TooLarge,
    TimedOut,
    Closed,
}

/// Read a `DATA` transfer up to the lone `.`, undoing dot-stuffing.
async fn read_data<R: AsyncBufRead + Unpin>(input: &mut R, config: &MailConfig) -> io::Result<Data> {
    let limits = &config.smtp;
    let deadline = Instant::now() + limits.data_timeout;
    let max = config.max_message_bytes;
    let mut message = Vec::new();
    let mut too_large = false;
    loop {
        let wait = deadline.saturating_duration_since(Instant::now()).min(limits.command_timeout);
        // A line may be as long as the whole message limit, plus its ending and a stuffed dot.
        let line = match timeout(wait, read_line(input, max + 3)).await {
            Err(_) => return Ok(Data::TimedOut),
            Ok(line) => line?,
        };
        let bytes = match line {
            Line::Closed => return Ok(Data::Closed),
            Line::TooLong => {
                too_large = true;
                continue;
            }
            Line::Text(bytes) => bytes,
        };
        let content = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
        let content = content.strip_suffix(b"\r").unwrap_or(content);
        if content == b"." {
            return Ok(if too_large { Data::TooLarge } else { Data::Message(message) });
        }
        if too_large {
            continue;
        }
        let unstuffed = bytes.strip_prefix(b".").unwrap_or(&bytes);
        if message.len() + unstuffed.len() > max {
            too_large = true;
            message = Vec::new();
            continue;
        }
        message.extend_from_slice(unstuffed);
    }
}

/// Parse `FROM:<path> PARAMS` (or `TO:`); the path without brackets, and the parameters.
fn parse_path<'a>(arg: &'a str, prefix: &str) -> Result<(String, Vec<&'a str>), String> {
    let head = arg.get(..prefix.len()).filter(|h| h.eq_ignore_ascii_case(prefix));
    let Some(_) = head else {
        return Err(format!("syntax: {prefix}<address>"));
    };
    let rest = arg[prefix.len()..].trim_start();
    let (path, params) = if let Some(inner) = rest.strip_prefix('<') {
        let end = inner.find('>').ok_or_else(|| format!("syntax: {prefix}<address>"))?;
        (&inner[..end], &inner[end + 1..])
    } else {
        match rest.split_once(' ') {
            Some((p, params)) => (p, params),
            None => (rest, ""),
        }
    };
    // A source route (`<@a,@b:user@c>`) names only hops; the mailbox is after the colon.
    let path = match path.split_once(':') {
        Some((route, mailbox)) if route.starts_with('@') => mailbox,
        _ => path,
    };
    if path.len() > MAX_PATH {
        return Err(format!("the address is longer than {MAX_PATH} characters"));
    }
    if path.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err("the address has spaces or control characters".into());
    }
    if !path.is_empty() && !path.contains('@') && !path.eq_ignore_ascii_case("postmaster") {
        return Err(format!("{path:?} is not an address"));
    }
    Ok((path.to_string(), params.split_whitespace().collect()))
}

/// A message safe to put on one SMTP reply line.
fn one_line(text: &str) -> String {
    let flat: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    flat.chars().take(400).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_parameters() {
        assert_eq!(
            parse_path("FROM:<ned@example.org> SIZE=100 BODY=8BITMIME", "FROM:").unwrap(),
            ("ned@example.org".to_string(), vec!["SIZE=100", "BODY=8BITMIME"])
        );
        assert_eq!(parse_path("from: <>", "FROM:").unwrap().0, "");
        assert_eq!(parse_path("TO:ted@example.org", "TO:").unwrap().0, "ted@example.org");
        assert_eq!(parse_path("TO:<@relay.example:ted@example.org>", "TO:").unwrap().0, "ted@example.org");
        assert_eq!(parse_path("TO:<Postmaster>", "TO:").unwrap().0, "Postmaster");
        assert!(parse_path("FROM ned@example.org", "FROM:").is_err());
        assert!(parse_path("FROM:<ned@example.org", "FROM:").is_err());
        assert!(parse_path("TO:<nobody>", "TO:").is_err());
        assert!(parse_path(&format!("TO:<{}@x.org>", "a".repeat(300)), "TO:").is_err());
    }

    #[tokio::test]
    async fn lines_are_limited_and_dot_stuffing_undone() {
        let config = MailConfig { max_message_bytes: 40, ..MailConfig::default() };
        let mut input: &[u8] = b"..leading dot\r\nplain\r\n.\r\nnext";
        let Data::Message(m) = read_data(&mut input, &config).await.unwrap() else { panic!() };
        assert_eq!(m, b".leading dot\r\nplain\r\n");
        let mut input: &[u8] = b"0123456789012345678901234567890123456789 too long\r\nx\r\n.\r\n";
        assert!(matches!(read_data(&mut input, &config).await.unwrap(), Data::TooLarge));
        let mut input: &[u8] = b"0123456789\r\n0123456789\r\n0123456789\r\n0123456789\r\n.\r\n";
        assert!(matches!(read_data(&mut input, &config).await.unwrap(), Data::TooLarge));
        let mut input: &[u8] = b"no end";
        assert!(matches!(read_data(&mut input, &config).await.unwrap(), Data::Closed));
        let mut input: &[u8] = b"abcdef\nrest\n";
        assert!(matches!(read_line(&mut input, 4).await.unwrap(), Line::TooLong));
        assert!(matches!(read_line(&mut input, 10).await.unwrap(), Line::Text(t) if t == b"rest\n"));
    }
}
