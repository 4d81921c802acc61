//! A whole DNA game played by three users purely by email: every message in
//! goes through Tabula's SMTP listener, every reply and notification out
//! goes from the outbox through the SMTP relay to a real mail server on
//! loopback, where it is read back and checked: threading, subjects,
//! bodies, comments, secrets and passwords.
//!
//! Two mail servers receive: this crate's own SMTP listener with a
//! recording mailbox (always), and Python's `aiosmtpd` writing a maildir
//! (when the module is installed; required when `TABULA_REQUIRE_SMTP` is set).

mod common;

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use common::{JED, NED, Recorder, Server, TED, World, config, next_move};
use lettre::message::Mailbox;
use lettre::message::header::ContentType;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use mail_parser::MessageParser;
use tabula_mail::{GatewaySink, RelayConfig, SmtpRelay, drain_outbox};

/// Where received mail can be read back.
trait Capture {
    /// Messages that arrived since the last call.
    fn take_new(&mut self) -> Vec<Vec<u8>>;
}

struct RecorderCapture {
    recorder: Arc<Recorder>,
    seen: usize,
}

impl Capture for RecorderCapture {
    fn take_new(&mut self) -> Vec<Vec<u8>> {
        let all = self.recorder.received();
        let new = all[self.seen..].iter().map(|r| r.data.clone()).collect();
        self.seen = all.len();
        new
    }
}

/// A maildir written by `aiosmtpd`'s Mailbox handler.
struct Maildir {
    dir: PathBuf,
    seen: HashSet<String>,
}

impl Capture for Maildir {
    fn take_new(&mut self) -> Vec<Vec<u8>> {
        let mut new = Vec::new();
        let Ok(entries) = std::fs::read_dir(self.dir.join("new")) else { return new };
        let mut names: Vec<String> =
            entries.map(|e| e.expect("entry").file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        for name in names {
            if self.seen.insert(name.clone()) {
                new.push(std::fs::read(self.dir.join("new").join(&name)).expect("read mail"));
            }
        }
        new
    }
}

/// A received mail, parsed.
#[derive(Clone, Debug)]
struct Mail {
    to: String,
    subject: String,
    message_id: String,
    in_reply_to: Option<String>,
    /// `References`, oldest first.
    references: Vec<String>,
    auto_submitted: Option<String>,
    body: String,
    raw: String,
}

fn parse(raw: &[u8]) -> Mail {
    let m = MessageParser::default().parse(raw).expect("a message");
    Mail {
        to: m.to().and_then(|a| a.first()).and_then(|a| a.address()).expect("To").to_string(),
        subject: m.subject().expect("Subject").to_string(),
        message_id: m.message_id().expect("Message-ID").to_string(),
        in_reply_to: m.in_reply_to().as_text().map(str::to_string),
        references: match m.references() {
            mail_parser::HeaderValue::TextList(l) => l.iter().map(|s| s.to_string()).collect(),
            mail_parser::HeaderValue::Text(t) => vec![t.to_string()],
            _ => Vec::new(),
        },
        auto_submitted: m.header_raw("Auto-Submitted").map(|v| v.trim().to_string()),
        body: m.body_text(0).expect("a text body").replace("\r\n", "\n"),
        raw: String::from_utf8_lossy(raw).into_owned(),
    }
}

struct Player {
    name: &'static str,
    mailbox: Mailbox,
    password: String,
    /// The last mail received about the board, which the next message answers.
    last: Option<Mail>,
}

/// Tabula, its SMTP listener, the relay and the mail server that receives.
struct Table<C: Capture> {
    world: World,
    tabula_smtp: AsyncSmtpTransport<Tokio1Executor>,
    relay: SmtpRelay,
    capture: C,
    players: Vec<Player>,
    sent_ids: u32,
    /// Every mail received, for the final checks.
    all: Vec<Mail>,
}

impl<C: Capture> Table<C> {
    fn player(&self, name: &str) -> usize {
        self.players.iter().position(|p| p.name == name).expect("a player")
    }

    /// `who` sends a message to Tabula; returns its Message-ID.
    async fn send(&mut self, who: usize, subject: &str, body: &str) -> String {
        self.sent_ids += 1;
        let p = &self.players[who];
        let id = format!("{}-{}@example.org", p.name, self.sent_ids);
        let mut builder = lettre::Message::builder()
            .from(p.mailbox.clone())
            .to("Tabula <tabula@example.org>".parse().unwrap())
            .subject(subject)
            .message_id(Some(format!("<{id}>")))
            .header(ContentType::TEXT_PLAIN);
        if let Some(last) = &p.last {
            builder = builder
                .in_reply_to(format!("<{}>", last.message_id))
                .references(format!("<{}>", last.message_id));
        }
        let message = builder.body(body.to_string()).expect("a message");
        self.tabula_smtp.send(message).await.expect("Tabula's SMTP listener accepts it");
        id
    }

    /// Send the outbox through the relay; what each player received.
    async fn deliver(&mut self) -> Vec<Vec<Mail>> {
        let report = drain_outbox(&self.world.service, &self.relay, &config()).await.expect("drained");
        assert!(report.errors.is_empty(), "{report:?}");
        let mut by_player: Vec<Vec<Mail>> = vec![Vec::new(); self.players.len()];
        let received: Vec<Mail> = self.capture.take_new().iter().map(|raw| parse(raw)).collect();
        assert_eq!(received.len(), report.sent, "every message sent arrived, and nothing else");
        for mail in received {
            let who = self
                .players
                .iter()
                .position(|p| p.mailbox.email.to_string() == mail.to)
                .unwrap_or_else(|| panic!("mail to a stranger: {}", mail.to));
            self.all.push(mail.clone());
            by_player[who].push(mail);
        }
        by_player
    }

    /// A player's reply to the last board mail they got, in one of the
    /// shapes mail programs write: the command on top with the board quoted
    /// below, the board quoted first, or the command in the subject.
    fn compose(&self, who: usize, command: &str, comment: &str, style: usize) -> (String, String) {
        let p = &self.players[who];
        let last = p.last.as_ref().expect("a mail to answer");
        let quoted: String = last.body.lines().map(|l| format!("> {l}\n").replace("> \n", ">\n")).collect();
        let subject = format!("Re: {}", last.subject);
        match style % 3 {
            0 => (
                subject,
                format!(
                    "{command}\n\n{comment}\n\n-- \n{}\n\nOn Mon, 1 Jan 2024 at 10:00, Tabula <tabula@example.org> wrote:\n{quoted}",
                    p.name
                ),
            ),
            1 => (
                subject,
                format!(
                    "Tabula <tabula@example.org> writes:\n\n{quoted}\n{command}\n\n{comment}\n\nSent from my phone\n"
                ),
            ),
            _ => (
                command.to_string(),
                format!("{comment}\n\n-----Original Message-----\nFrom: Tabula\n\n{}", last.body),
            ),
        }
    }
}

/// Play the game and check every mail; `capture` sees what the relay delivered.
async fn play_dna_by_email<C: Capture>(relay_port: u16, capture: C) {
    let world = World::new().await;
    let sink = Arc::new(GatewaySink::new(world.service.clone(), config()));
    let tabula = Server::start(sink, config()).await;
    let tabula_smtp = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous("127.0.0.1")
        .port(tabula.addr.port())
        .timeout(Some(Duration::from_secs(30)))
        .build();
    let relay = SmtpRelay::new(&RelayConfig::plain("127.0.0.1", relay_port)).expect("relay");
    let players = [("ned", "Ned Flånders"), ("ted", "Ted Ærø"), ("jed", "Jed")]
        .into_iter()
        .map(|(name, display)| Player {
            name,
            mailbox: format!("{display} <{name}@example.org>").parse().unwrap(),
            password: format!("Secret-{name}-1"),
            last: None,
        })
        .collect();
    let mut t = Table { world, tabula_smtp, relay, capture, players, sent_ids: 0, all: Vec::new() };

    // Sign up by mail.
    for who in 0..3 {
        let (name, pw) = (t.players[who].name, t.players[who].password.clone());
        let id = t.send(who, &format!("signup {name} {pw} {name}@example.org"), "Hello!\n").await;
        let got = t.deliver().await;
        assert_eq!(got[who].len(), 1);
        assert_eq!(got[who][0].subject, "Welcome to Tabula");
        assert_eq!(got[who][0].in_reply_to.as_deref(), Some(id.as_str()));
        assert_eq!(got[who][0].auto_submitted.as_deref(), Some("auto-replied"));
        assert!(got.iter().enumerate().all(|(i, m)| i == who || m.is_empty()));
    }

    // ned challenges by mail: the reply tells him, the others are told.
    t.send(0, "dna challenge -manual ned ted jed", "Shall we?\n").await;
    let got = t.deliver().await;
    assert_eq!(got[0].len(), 1, "the reply only");
    assert!(got[0][0].subject == "DNA Board 1 ned ted jed" && got[0][0].in_reply_to.is_some());
    t.players[0].last = Some(got[0][0].clone());
    for (who, mails) in got.iter().enumerate().skip(1) {
        assert_eq!(mails.len(), 1);
        let notice = mails.iter().find(|m| m.in_reply_to.is_none()).expect("a challenge notice");
        assert!(notice.body.starts_with("You are challenged to DNA board 1."), "{}", notice.body);
        assert_eq!(notice.auto_submitted.as_deref(), Some("auto-generated"));
        t.players[who].last = Some(notice.clone());
    }

    // Each sets a secret sequence, answering the challenge notice.
    for (who, sequence) in [NED, TED, JED].into_iter().enumerate() {
        let command = format!("dna move 1 {} {} {sequence}", t.players[who].name, t.players[who].password);
        let (subject, body) = t.compose(who, &command, "Here is my sequence.", who);
        let id = t.send(who, &subject, &body).await;
        let got = t.deliver().await;
        let reply = got[who].iter().find(|m| m.in_reply_to.as_deref() == Some(id.as_str())).expect("a reply");
        assert!(reply.body.contains(sequence), "the mover sees their own sequence");
        for (other, mails) in got.iter().enumerate().filter(|(o, _)| *o != who) {
            assert_eq!(mails.len(), 1, "one notification, the comment at its end: {mails:#?}");
            let notice = &mails[0];
            assert!(notice.body.trim_end().ends_with("Here is my sequence."), "{}", notice.body);
            if who < 2 {
                // Secret until every sequence is set ...
                assert!(
                    !notice.body.contains(sequence),
                    "{} saw {}'s secret",
                    t.players[other].name,
                    t.players[who].name
                );
            } else {
                // ... then all are shown and play starts with ned.
                assert!([NED, TED, JED].iter().all(|s| notice.body.contains(s)), "{}", notice.body);
                assert_eq!(notice.subject, "DNA Board 1 ned");
            }
        }
        for (i, mails) in got.into_iter().enumerate() {
            if let Some(m) = mails.into_iter().find(|m| m.subject.starts_with("DNA Board 1")) {
                t.players[i].last = Some(m);
            }
        }
    }

    // Nominations until the game is over, each by mail, in turn.
    let mut moves = 0;
    let mut comments = 0;
    while let Some((name, nomination)) = next_move(&t.world, 1).await {
        moves += 1;
        assert!(moves <= 60, "the game ends");
        let who = t.player(&name);
        let command = format!("dna move 1 {name} {} {nomination}", t.players[who].password);
        let comment =
            if moves % 2 == 1 { format!("Move {moves}: {nomination}, ça va?") } else { String::new() };
        let (subject, body) = t.compose(who, &command, &comment, moves);
        let id = t.send(who, &subject, &body).await;
        let got = t.deliver().await;
        let heading =
            t.world.service.board_for(1, None, tabula_model::Lang::En).await.expect("board").subject;

        let reply = got[who].iter().find(|m| m.in_reply_to.as_deref() == Some(id.as_str())).expect("a reply");
        assert_eq!(reply.subject, heading);
        assert!(reply.body.starts_with(&format!("{heading}\n\n")), "{}", reply.body);
        assert!(
            reply.body.contains(&format!("{name}: {nomination}")),
            "the move list shows it:\n{}",
            reply.body
        );
        assert_eq!(got[who].len(), 1, "the mover gets only the reply");
        for (other, mails) in got.iter().enumerate().filter(|(o, _)| *o != who) {
            let notice = mails.iter().find(|m| m.subject == heading).expect("a board notification");
            assert!(notice.body.contains(&format!("{name}: {nomination}")), "{}", notice.body);
            assert_eq!(mails.len(), 1, "{mails:#?}");
            if comment.is_empty() {
                assert!(!notice.body.contains("Comment from"), "{}", notice.body);
            } else {
                assert!(
                    notice.body.ends_with(&format!("\n\nComment from {name}:\n\n{comment}\n")),
                    "{}",
                    notice.body
                );
            }
            t.players[other].last = Some(notice.clone());
        }
        if !comment.is_empty() {
            comments += 1;
            assert!(
                reply.body.ends_with("Your comment went to the other players of board 1 with the move.\n")
            );
        }
        t.players[who].last = Some(reply.clone());
    }
    let last = t.players[0].last.clone().expect("mail");
    assert_eq!(last.subject, "DNA Board 1 over");
    assert!(last.body.contains("Game won by ") || last.body.contains("Game drawn"), "{}", last.body);
    assert!(moves >= 3 && comments >= 2);
    eprintln!("the game took {moves} nominations by mail, {comments} with a comment");

    // A wrong password by mail changes nothing and is answered with the command masked:
    // all but the account's id, for the password may be any of its words.
    let version = t.world.version(1).await;
    t.send(1, "dna move 1 ted NotMyPassword AAA", "").await;
    let got = t.deliver().await;
    assert_eq!(got[1].len(), 1);
    assert_eq!(got[1][0].subject, "DNA error");
    assert!(got[1][0].body.contains("> dna move ******** ted ******** ********"), "{}", got[1][0].body);
    assert_eq!(t.world.version(1).await, version);

    // Every outbox row went out exactly once, with the Message-ID of its key; no password anywhere.
    let rows = t.world.outbox().await;
    assert!(rows.iter().all(|r| r.sent_at.is_some()), "everything was sent");
    assert_eq!(rows.len(), t.all.len());
    let ids: HashSet<&str> = t.all.iter().map(|m| m.message_id.as_str()).collect();
    assert_eq!(ids.len(), t.all.len(), "no message arrived twice");
    for row in &rows {
        let id = tabula_mail::message_id_for(&row.message.key, &row.message.subject, "example.org");
        assert!(ids.contains(id.as_str()), "{} did not arrive", row.message.key);
    }
    // Every mail about the board is in its thread: the board's root first,
    // then for a reply the player's message it answers, last.
    for mail in t.all.iter().filter(|m| m.subject.starts_with("DNA Board 1")) {
        assert_eq!(
            mail.references.first().map(String::as_str),
            Some("tabula.board1@example.org"),
            "{mail:#?}"
        );
        if let Some(parent) = &mail.in_reply_to {
            assert_eq!(mail.references.last(), Some(parent), "{mail:#?}");
            assert!(mail.references.len() >= 2, "{mail:#?}");
        }
    }
    for mail in &t.all {
        for p in &t.players {
            assert!(!mail.raw.contains(&p.password), "a password in a mail to {}", mail.to);
        }
    }
    tabula.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dna_game_by_email_through_our_own_smtp_server() {
    let recorder = Recorder::new();
    let mail_server = Server::start(recorder.clone(), config()).await;
    play_dna_by_email(mail_server.addr.port(), RecorderCapture { recorder, seen: 0 }).await;
    mail_server.stop().await;
}

/// `python3 -m aiosmtpd` on a free loopback port, stopped when dropped.
struct Aiosmtpd {
    child: Child,
    port: u16,
}

impl Drop for Aiosmtpd {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_aiosmtpd(maildir: &std::path::Path) -> Option<Aiosmtpd> {
    let importable = Command::new("python3")
        .args(["-c", "import aiosmtpd"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !importable {
        assert!(
            std::env::var_os("TABULA_REQUIRE_SMTP").is_none(),
            "TABULA_REQUIRE_SMTP is set but python3 cannot import aiosmtpd (pip install aiosmtpd)"
        );
        eprintln!("skipped: python3 cannot import aiosmtpd (pip install aiosmtpd to run this test)");
        return None;
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port").local_addr().unwrap().port();
    let child = Command::new("python3")
        .args(["-m", "aiosmtpd", "-n", "-l", &format!("127.0.0.1:{port}"), "-c", "aiosmtpd.handlers.Mailbox"])
        .arg(maildir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start aiosmtpd");
    let server = Aiosmtpd { child, port };
    for _ in 0..600 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Some(server);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("aiosmtpd did not start listening on port {port}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dna_game_by_email_through_aiosmtpd() {
    let dir = tempfile::tempdir().expect("temp dir");
    let maildir = dir.path().join("maildir");
    let Some(server) = start_aiosmtpd(&maildir) else { return };
    play_dna_by_email(server.port, Maildir { dir: maildir, seen: HashSet::new() }).await;
    drop(server);
}
