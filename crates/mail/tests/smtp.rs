//! The SMTP listener spoken to on a loopback port: the protocol with a raw
//! client, its limits, and the gateway behind it with a real SMTP client.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::{Recorder, Server, World, config, corpus};
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use tabula_mail::{GatewaySink, MailConfig};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};

/// Longest wait for any answer, so that a broken server fails the test instead of hanging it.
const PATIENCE: Duration = Duration::from_secs(20);

struct Client {
    input: BufReader<OwnedReadHalf>,
    output: OwnedWriteHalf,
}

impl Client {
    async fn connect(addr: std::net::SocketAddr) -> (Client, String) {
        let stream = TcpStream::connect(addr).await.expect("connect");
        let (read, output) = stream.into_split();
        let mut client = Client { input: BufReader::new(read), output };
        let greeting = client.reply().await;
        (client, greeting)
    }

    async fn send(&mut self, text: &str) {
        self.output.write_all(text.as_bytes()).await.expect("write");
    }

    /// One reply, every line of a multi-line one; empty when the server closed.
    async fn reply(&mut self) -> String {
        let mut all = String::new();
        loop {
            let mut line = String::new();
            let n = tokio::time::timeout(PATIENCE, self.input.read_line(&mut line))
                .await
                .expect("the server answers")
                .expect("read");
            if n == 0 {
                return all;
            }
            all.push_str(&line);
            if line.as_bytes().get(3) != Some(&b'-') {
                return all;
            }
        }
    }

    async fn command(&mut self, line: &str) -> String {
        self.send(&format!("{line}\r\n")).await;
        self.reply().await
    }
}

#[tokio::test]
async fn a_session_with_dot_stuffing_reset_and_the_small_commands() {
    let recorder = Recorder::new();
    let server = Server::start(recorder.clone(), config()).await;
    let (mut c, greeting) = Client::connect(server.addr).await;
    assert!(greeting.starts_with("220 tabula.example.org "), "{greeting}");
    assert_eq!(c.command("MAIL FROM:<ned@example.org>").await, "503 5.5.1 say EHLO first\r\n");
    let ehlo = c.command("EHLO client.example.org").await;
    assert_eq!(
        ehlo,
        "250-tabula.example.org greets client.example.org\r\n250-SIZE 262144\r\n250-8BITMIME\r\n250-PIPELINING\r\n250 ENHANCEDSTATUSCODES\r\n"
    );
    assert!(c.command("mail from:<ned@example.org> SIZE=100").await.starts_with("250 "));
    assert!(c.command("RCPT TO:<tabula@example.org>").await.starts_with("250 "));
    assert!(c.command("RSET").await.starts_with("250 "));
    assert!(c.command("RCPT TO:<tabula@example.org>").await.starts_with("503 "), "RSET forgot the sender");
    assert!(c.command("DATA").await.starts_with("503 "));
    assert!(c.command("MAIL FROM:<ned@example.org>").await.starts_with("250 "));
    assert!(c.command("MAIL FROM:<ned@example.org>").await.starts_with("503 "), "one MAIL per message");
    assert!(c.command("RCPT TO:<tabula@example.org>").await.starts_with("250 "));
    assert!(c.command("RCPT TO:<other@example.org>").await.starts_with("250 "));
    assert!(c.command("DATA").await.starts_with("354 "));
    c.send("Subject: dots\r\n\r\n..a line that starts with a dot\r\n...\r\nlast\r\n.\r\n").await;
    assert!(c.reply().await.starts_with("250 "));
    assert!(c.command("NOOP").await.starts_with("250 "));
    assert!(c.command("VRFY ned").await.starts_with("252 "));
    assert!(c.command("HELP").await.starts_with("214 "));
    assert!(c.command("STARTTLS").await.starts_with("502 "));
    assert!(c.command("FROBNICATE").await.starts_with("500 "));
    assert!(c.command("QUIT").await.starts_with("221 "));
    assert_eq!(c.reply().await, "", "closed after QUIT");

    let got = recorder.received();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].data, b"Subject: dots\r\n\r\n.a line that starts with a dot\r\n..\r\nlast\r\n");
    assert_eq!(got[0].envelope.sender, "ned@example.org");
    assert_eq!(got[0].envelope.recipients, vec!["tabula@example.org", "other@example.org"]);
    assert_eq!(got[0].envelope.helo, "client.example.org");
    server.stop().await;
}

#[tokio::test]
async fn limits_on_lines_sizes_recipients_and_errors() {
    let recorder = Recorder::new();
    let mut cfg = MailConfig { max_message_bytes: 1000, ..config() };
    cfg.smtp.max_recipients = 2;
    cfg.smtp.max_command_line = 100;
    cfg.smtp.max_errors = 3;
    let server = Server::start(recorder.clone(), cfg).await;
    let (mut c, _) = Client::connect(server.addr).await;
    c.command("EHLO x.example.org").await;
    assert_eq!(c.command(&format!("NOOP {}", "x".repeat(200))).await, "500 5.5.2 line too long\r\n");
    assert!(c.command("MAIL FROM:<ned@example.org> SIZE=5000").await.starts_with("552 "));
    // Pipelined: three commands in one write, three answers in order.
    c.send("MAIL FROM:<ned@example.org>\r\nRCPT TO:<a@example.org>\r\nRCPT TO:<b@example.org>\r\n").await;
    for _ in 0..3 {
        assert!(c.reply().await.starts_with("250 "));
    }
    assert!(c.command("RCPT TO:<c@example.org>").await.starts_with("452 "), "at most 2 recipients");
    assert!(c.command("DATA").await.starts_with("354 "));
    for _ in 0..30 {
        c.send(&format!("{}\r\n", "y".repeat(70))).await;
    }
    c.send(".\r\n").await;
    assert!(c.reply().await.starts_with("552 5.3.4 messages are limited to 1000 bytes"));
    assert!(recorder.received().is_empty());
    // The session goes on after a refused message.
    assert!(c.command("MAIL FROM:<>").await.starts_with("250 "), "the null sender of bounces");
    assert!(c.command("RCPT TO:<a@example.org>").await.starts_with("250 "));
    assert!(c.command("DATA").await.starts_with("354 "));
    c.send("Subject: small\r\n\r\nok\r\n.\r\n").await;
    assert!(c.reply().await.starts_with("250 "));
    assert_eq!(recorder.received()[0].envelope.sender, "");
    // Too many errors close the connection.
    // One error so far (the long line); the fourth closes the connection.
    for _ in 0..3 {
        assert!(c.command("BOGUS").await.starts_with("500 "));
    }
    let last = c.reply().await;
    assert!(last.starts_with("421 4.7.0"), "{last}");
    assert_eq!(c.reply().await, "");
    server.stop().await;
}

#[tokio::test]
async fn idle_clients_time_out_extra_clients_are_turned_away_and_shutdown_says_so() {
    let mut cfg = config();
    cfg.smtp.max_connections = 1;
    let server = Server::start(Recorder::new(), cfg).await;
    let (_first, greeting) = Client::connect(server.addr).await;
    assert!(greeting.starts_with("220 "));
    let (_, busy) = Client::connect(server.addr).await;
    assert!(busy.starts_with("421 4.3.2 tabula.example.org too busy"), "{busy}");
    server.stop().await;

    let mut cfg = config();
    cfg.smtp.command_timeout = Duration::from_millis(300);
    let server = Server::start(Recorder::new(), cfg).await;
    let (mut idle, _) = Client::connect(server.addr).await;
    let timed_out = idle.reply().await;
    assert!(timed_out.starts_with("421 4.4.2 tabula.example.org timeout"), "{timed_out}");
    assert_eq!(idle.reply().await, "");
    server.stop().await;

    let server = Server::start(Recorder::new(), config()).await;
    let (mut idle, _) = Client::connect(server.addr).await;
    assert!(idle.command("EHLO x.example.org").await.starts_with("250"));
    let addr = server.addr;
    server.stop().await;
    assert!(idle.reply().await.starts_with("421 4.3.2 tabula.example.org shutting down"));
    assert!(TcpStream::connect(addr).await.is_err(), "no longer listening");
}

fn client(port: u16) -> AsyncSmtpTransport<Tokio1Executor> {
    AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous("127.0.0.1")
        .port(port)
        .timeout(Some(PATIENCE))
        .build()
}

fn envelope(from: Option<&str>) -> lettre::address::Envelope {
    lettre::address::Envelope::new(
        from.map(|f| f.parse().unwrap()),
        vec!["tabula@example.org".parse().unwrap()],
    )
    .unwrap()
}

#[tokio::test]
async fn the_gateway_behind_smtp_queues_one_threaded_reply_per_message() {
    let world = World::new().await;
    world.seed_game().await;
    let sink = Arc::new(GatewaySink::new(world.service.clone(), config()));
    let server = Server::start(sink, MailConfig { max_message_bytes: 4096, ..config() }).await;
    let smtp = client(server.addr.port());
    let before = world.outbox().await.len();

    let raw = corpus("01-subject-command-plain.eml");
    smtp.send_raw(&envelope(Some("ned@example.org")), &raw).await.expect("accepted");
    // The sending server tries again: the move is refused as not ned's turn, and no second reply is queued.
    smtp.send_raw(&envelope(Some("ned@example.org")), &raw).await.expect("accepted");
    // A bounce (null sender) is taken and not answered.
    smtp.send_raw(&envelope(None), &corpus("13-signature.eml")).await.expect("accepted");
    // Too large for this listener: refused for good.
    let err = smtp.send_raw(&envelope(Some("ned@example.org")), &corpus("25-attachment-oversized.eml")).await;
    assert!(err.as_ref().is_err_and(|e| e.is_permanent()), "{err:?}");

    let rows = world.outbox().await;
    let replies: Vec<_> = rows.iter().skip(before).filter(|r| r.message.key.starts_with("reply:")).collect();
    assert_eq!(replies.len(), 1, "{replies:#?}");
    assert!(replies[0].message.key.starts_with("reply:plain-01@mail.example.org "), "{replies:#?}");
    assert_eq!(replies[0].message.recipient, "ned@example.org");
    assert_eq!(replies[0].message.subject, "DNA Board 1 ted");
    assert_eq!(world.version(1).await, 4, "one move, made once");
    server.stop().await;
}
