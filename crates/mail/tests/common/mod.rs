//! A service over a SQLite database in a temporary directory, and messages
//! as mail programs send them.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tabula_mail::MailConfig;
use tabula_service::store::{Clients, OutboxRow, SqliteStore, Store};
use tabula_service::{Caller, Clock, Service};

/// The seed's sequences of ned, ted and jed.
pub const NED: &str = "TCGCATGTACAAAGTTTTCAATCTTCGCCTTGAGAG";
pub const TED: &str = "TCAGCGCGTTCCCGGAGTCGTCGTATTAAAGGGGAT";
pub const JED: &str = "GCCAATTATGGACTTGTTGTCAGATAGTTTCCGGCG";

/// The gateway's configuration in tests.
pub fn config() -> MailConfig {
    let mut c = MailConfig { address: "tabula@example.org".into(), ..MailConfig::default() };
    c.smtp.hostname = "tabula.example.org".into();
    c
}

/// A database in a temporary directory.
pub struct World {
    pub dir: tempfile::TempDir,
    pub db: PathBuf,
    pub service: Arc<Service>,
    /// The service's database, for what a test reads underneath it.
    pub store: Arc<Store>,
}

impl World {
    pub async fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("tabula.db");
        let store: Arc<Store> =
            Arc::new(SqliteStore::open(&db, Clients::Many).await.expect("open the database"));
        let service = Arc::new(Service::new(store.clone(), Clock::System));
        World { dir, db, service, store }
    }

    /// Run a command directly (set-up, not by mail).
    pub async fn run(&self, line: &str) -> String {
        match self.service.execute(line, &Caller::Anonymous).await {
            Ok(r) => format!("{}\n\n{}", r.subject, r.text),
            Err(e) => panic!("`{line}` failed: {}", e.message),
        }
    }

    pub async fn signup(&self, users: &[&str]) {
        for u in users {
            self.run(&format!("signup {u} pw-{u} {u}@example.org")).await;
        }
    }

    /// ned, ted and jed in board 1, a `-manual` DNA game with the seed's sequences set.
    pub async fn seed_game(&self) {
        self.signup(&["ned", "ted", "jed"]).await;
        self.run("dna challenge -manual ned ted jed").await;
        self.run(&format!("dna move 1 ned pw-ned {NED}")).await;
        self.run(&format!("dna move 1 ted pw-ted {TED}")).await;
        self.run(&format!("dna move 1 jed pw-jed {JED}")).await;
    }

    /// The outbox, oldest first.
    pub async fn outbox(&self) -> Vec<OutboxRow> {
        let mut rows = self.service.mailroom().outbox(100_000).await.expect("outbox");
        rows.reverse();
        rows
    }

    /// The number of events of board 1.
    pub async fn version(&self, board: i64) -> i64 {
        self.store.game(board).await.expect("version").map_or(0, |g| g.summary.version)
    }
}

/// A service over the database at `path`.
pub async fn open(path: &std::path::Path, clock: Clock) -> Service {
    let store = SqliteStore::open(path, Clients::Many).await.expect("open the database");
    Service::new(Arc::new(store), clock)
}

/// A service over the database `db` as `--db` names it: a SQLite file's
/// path or a `postgres://` URL.
pub async fn open_db(db: &str, clock: Clock) -> Service {
    let store = tabula_service::store::open(db, Clients::Many).await.expect("open the database");
    Service::new(store, clock)
}

/// A fresh, empty PostgreSQL schema's URL, if `TABULA_TEST_POSTGRES` names
/// a database (with `TABULA_REQUIRE_POSTGRES=1` a missing one fails the test).
pub async fn postgres_url() -> Option<String> {
    let base = match std::env::var("TABULA_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => url,
        _ => {
            assert!(
                std::env::var("TABULA_REQUIRE_POSTGRES").as_deref() != Ok("1"),
                "TABULA_REQUIRE_POSTGRES=1 but TABULA_TEST_POSTGRES names no database"
            );
            return None;
        }
    };
    let schema = format!("m{:016x}", rand_schema_suffix());
    let admin = sqlx::PgPool::connect(&base).await.expect("the test database answers");
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
        .execute(&admin)
        .await
        .expect("creating a test schema");
    admin.close().await;
    let sep = if base.contains('?') { '&' } else { '?' };
    Some(format!("{base}{sep}options[search_path]={schema}"))
}

/// A schema name unique enough for parallel test runs on one database.
fn rand_schema_suffix() -> u64 {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64;
    nanos ^ (u64::from(std::process::id()) << 32) ^ COUNTER.fetch_add(1, Ordering::Relaxed) as u64
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A plain-text message as a simple mail program sends it, with a fresh Message-ID.
pub fn mail(from: &str, subject: &str, body: &str) -> Vec<u8> {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let body = body.replace("\r\n", "\n").replace('\n', "\r\n");
    format!(
        "From: {from}\r\nTo: Tabula <tabula@example.org>\r\nSubject: {subject}\r\n\
         Date: Mon, 01 Jan 2024 10:00:00 +0000\r\nMessage-ID: <test-{n}-{}@example.org>\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{body}",
        std::process::id()
    )
    .into_bytes()
}

/// A corpus message.
pub fn corpus(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The next player of `board` and their first legal move (sorted), from
/// the stored record replayed; `None` once the game is over.
pub async fn next_move(world: &World, board: i64) -> Option<(String, String)> {
    let stored = world.store.game(board).await.expect("store").expect("the board");
    let kind = tabula_games::find(&stored.summary.kind).expect("a known game");
    let record = tabula_model::Record {
        kind: stored.summary.kind.clone(),
        options: stored.options.clone(),
        players: stored.initial_players.clone(),
        seed: stored.seed,
        created: stored.created,
        events: stored.events.clone(),
    };
    let game = tabula_model::Game::replay(kind, record).expect("replays");
    match game.to_move() {
        tabula_model::Turn::Player(seat) => {
            let moves = game.state().legal_moves(seat).expect("DNA lists its moves");
            Some((game.players()[seat].clone(), moves.first().expect("a legal move").clone()))
        }
        _ => None,
    }
}

/// What an SMTP sink received.
#[derive(Clone, Debug)]
pub struct Received {
    pub envelope: tabula_mail::Envelope,
    pub data: Vec<u8>,
}

/// A mail server's mailbox: records what it accepts, and can be told to
/// refuse (451) or to hang without answering after a number of messages.
pub struct Recorder {
    received: std::sync::Mutex<Vec<Received>>,
    accepted: AtomicUsize,
    refuse_after: AtomicUsize,
    hold_after: AtomicUsize,
    keep_held: std::sync::atomic::AtomicBool,
    pub held: AtomicUsize,
}

impl Recorder {
    pub fn new() -> Arc<Self> {
        Arc::new(Recorder {
            received: std::sync::Mutex::new(Vec::new()),
            accepted: AtomicUsize::new(0),
            refuse_after: AtomicUsize::new(usize::MAX),
            hold_after: AtomicUsize::new(usize::MAX),
            keep_held: std::sync::atomic::AtomicBool::new(false),
            held: AtomicUsize::new(0),
        })
    }

    /// Refuse for now every message after `n` accepted ones.
    pub fn refuse_after(&self, n: usize) {
        self.refuse_after.store(n, Ordering::SeqCst);
    }

    /// Never answer the message after `n` accepted ones; `keep` stores it
    /// first (a server that crashes between storing and answering).
    pub fn hold_after(&self, n: usize, keep: bool) {
        self.keep_held.store(keep, Ordering::SeqCst);
        self.hold_after.store(n, Ordering::SeqCst);
    }

    /// Back to accepting everything.
    pub fn accept_all(&self) {
        self.refuse_after.store(usize::MAX, Ordering::SeqCst);
        self.hold_after.store(usize::MAX, Ordering::SeqCst);
    }

    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

impl tabula_mail::MessageSink for Recorder {
    async fn deliver(
        &self,
        envelope: &tabula_mail::Envelope,
        data: Vec<u8>,
    ) -> Result<(), tabula_mail::SinkError> {
        let accepted = self.accepted.load(Ordering::SeqCst);
        if accepted >= self.refuse_after.load(Ordering::SeqCst) {
            return Err(tabula_mail::SinkError::transient("mailbox busy"));
        }
        if accepted >= self.hold_after.load(Ordering::SeqCst) {
            if self.keep_held.load(Ordering::SeqCst) {
                self.received
                    .lock()
                    .unwrap()
                    .push(Received { envelope: envelope.clone(), data: data.clone() });
            }
            self.held.fetch_add(1, Ordering::SeqCst);
            std::future::pending::<()>().await;
        }
        self.accepted.fetch_add(1, Ordering::SeqCst);
        self.received.lock().unwrap().push(Received { envelope: envelope.clone(), data });
        Ok(())
    }
}

/// An SMTP server of this crate running on a loopback port.
pub struct Server {
    pub addr: std::net::SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Server {
    pub async fn start<S: tabula_mail::MessageSink>(sink: Arc<S>, config: MailConfig) -> Server {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("address");
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(tabula_mail::serve_smtp_on(listener, sink, config, async move {
            let _ = stopped.await;
        }));
        Server { addr, stop: Some(stop), task }
    }

    /// Stop it and wait until it has.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        (&mut self.task).await.expect("server task").expect("server");
    }
}

/// Parse a message and give its header `name` (raw, trimmed) and body text.
pub fn header(data: &[u8], name: &str) -> Option<String> {
    let m = mail_parser::MessageParser::default().parse(data)?;
    m.header_raw(name).map(|v| v.trim().to_string())
}

/// The mail server outside Tabula that its relay hands mail to: Python's
/// `aiosmtpd` writing a maildir when python3 can import it (required when
/// `TABULA_REQUIRE_SMTP` is set), else this crate's own listener with a
/// recording mailbox.
pub enum Outside {
    Aiosmtpd {
        child: std::process::Child,
        port: u16,
        _dir: tempfile::TempDir,
        seen: std::collections::HashSet<String>,
    },
    Own {
        server: Server,
        recorder: Arc<Recorder>,
        seen: usize,
    },
}

impl Outside {
    pub async fn start() -> Outside {
        use std::process::{Command, Stdio};
        let importable = Command::new("python3")
            .args(["-c", "import aiosmtpd"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !importable {
            assert!(
                std::env::var_os("TABULA_REQUIRE_SMTP").is_none(),
                "TABULA_REQUIRE_SMTP is set but python3 cannot import aiosmtpd"
            );
            let recorder = Recorder::new();
            let server = Server::start(recorder.clone(), config()).await;
            return Outside::Own { server, recorder, seen: 0 };
        }
        let dir = tempfile::tempdir().expect("temp dir");
        let port =
            std::net::TcpListener::bind("127.0.0.1:0").expect("a free port").local_addr().unwrap().port();
        let child = Command::new("python3")
            .args([
                "-m",
                "aiosmtpd",
                "-n",
                "-l",
                &format!("127.0.0.1:{port}"),
                "-c",
                "aiosmtpd.handlers.Mailbox",
            ])
            .arg(dir.path().join("maildir"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start aiosmtpd");
        // Owned first, so that it is stopped (on drop) whatever happens next.
        let outside = Outside::Aiosmtpd { child, port, _dir: dir, seen: Default::default() };
        for _ in 0..600 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return outside;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!("aiosmtpd did not start listening on port {port}");
    }

    pub fn port(&self) -> u16 {
        match self {
            Outside::Aiosmtpd { port, .. } => *port,
            Outside::Own { server, .. } => server.addr.port(),
        }
    }

    /// The messages that arrived since the last call, in order of arrival.
    pub fn take_new(&mut self) -> Vec<Vec<u8>> {
        match self {
            Outside::Own { recorder, seen, .. } => {
                let all = recorder.received();
                let new = all[*seen..].iter().map(|r| r.data.clone()).collect();
                *seen = all.len();
                new
            }
            Outside::Aiosmtpd { _dir, seen, .. } => {
                let dir = _dir.path().join("maildir").join("new");
                let Ok(entries) = std::fs::read_dir(&dir) else { return Vec::new() };
                let mut files: Vec<(std::time::SystemTime, String)> = entries
                    .map(|e| {
                        let e = e.expect("entry");
                        (
                            e.metadata().and_then(|m| m.modified()).expect("mtime"),
                            e.file_name().to_string_lossy().into_owned(),
                        )
                    })
                    .filter(|(_, name)| !seen.contains(name))
                    .collect();
                files.sort();
                files
                    .into_iter()
                    .map(|(_, name)| {
                        seen.insert(name.clone());
                        std::fs::read(dir.join(&name)).expect("read mail")
                    })
                    .collect()
            }
        }
    }
}

impl Drop for Outside {
    fn drop(&mut self) {
        if let Outside::Aiosmtpd { child, .. } = self {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A received mail, parsed.
#[derive(Clone, Debug)]
pub struct Got {
    pub to: String,
    pub subject: String,
    pub message_id: String,
    pub in_reply_to: Option<String>,
    pub body: String,
}

pub fn parse_got(raw: &[u8]) -> Got {
    let m = mail_parser::MessageParser::default().parse(raw).expect("a message");
    Got {
        to: m.to().and_then(|a| a.first()).and_then(|a| a.address()).expect("To").to_string(),
        subject: m.subject().expect("Subject").to_string(),
        message_id: m.message_id().expect("Message-ID").to_string(),
        in_reply_to: m.in_reply_to().as_text().map(str::to_string),
        body: unflow(&m, m.body_text(0).map(|b| b.replace("\r\n", "\n")).unwrap_or_default()),
    }
}

/// The text as a mail program that reads format=flowed (RFC 3676) shows
/// it: a line that ends in a space goes on with the next; the space
/// stuffed before a line is dropped.
fn unflow(m: &mail_parser::Message<'_>, body: String) -> String {
    use mail_parser::MimeHeaders as _;
    let flowed = m
        .content_type()
        .and_then(|ct| ct.attribute("format"))
        .is_some_and(|f| f.eq_ignore_ascii_case("flowed"));
    if !flowed {
        return body;
    }
    let unstuffed: Vec<&str> = body.split('\n').map(|l| l.strip_prefix(' ').unwrap_or(l)).collect();
    unstuffed.join("\n").replace(" \n", " ")
}

/// Tabula with its SMTP listener, its relay, and the outside mail server
/// the relay delivers to.
pub struct Gateway {
    pub world: World,
    pub tabula: Server,
    pub outside: Outside,
    smtp: lettre::AsyncSmtpTransport<lettre::Tokio1Executor>,
    relay: tabula_mail::SmtpRelay,
}

impl Gateway {
    pub async fn start() -> Gateway {
        let world = World::new().await;
        let sink = Arc::new(tabula_mail::GatewaySink::new(world.service.clone(), config()));
        let tabula = Server::start(sink, config()).await;
        let smtp = lettre::AsyncSmtpTransport::<lettre::Tokio1Executor>::builder_dangerous("127.0.0.1")
            .port(tabula.addr.port())
            .timeout(Some(std::time::Duration::from_secs(30)))
            .build();
        let outside = Outside::start().await;
        let relay =
            tabula_mail::SmtpRelay::new(&tabula_mail::RelayConfig::plain("127.0.0.1", outside.port()))
                .expect("relay");
        Gateway { world, tabula, outside, smtp, relay }
    }

    /// Hand raw message bytes to Tabula's SMTP listener.
    pub async fn send_raw(&self, from: &str, raw: Vec<u8>) {
        use lettre::AsyncTransport;
        let envelope = lettre::address::Envelope::new(
            Some(from.parse().expect("an address")),
            vec!["tabula@example.org".parse().unwrap()],
        )
        .unwrap();
        self.smtp.send_raw(&envelope, &raw).await.expect("Tabula's SMTP listener takes it");
    }

    /// Send the outbox through the relay; what arrived outside.
    pub async fn deliver(&mut self) -> Vec<Got> {
        let service = self.world.service.clone();
        self.deliver_with(&service).await
    }

    /// [`Gateway::deliver`], the messages as they arrived (raw).
    pub async fn deliver_raw(&mut self) -> Vec<Vec<u8>> {
        let report =
            tabula_mail::drain_outbox(&self.world.service, &self.relay, &config()).await.expect("drained");
        assert!(report.errors.is_empty(), "{report:?}");
        let got = self.outside.take_new();
        assert_eq!(got.len(), report.sent, "every message sent arrived, and nothing else");
        got
    }

    /// [`Gateway::deliver`] by `service` (the same database at another time).
    pub async fn deliver_with(&mut self, service: &Service) -> Vec<Got> {
        let report = tabula_mail::drain_outbox(service, &self.relay, &config()).await.expect("drained");
        assert!(report.errors.is_empty(), "{report:?}");
        let got: Vec<Got> = self.outside.take_new().iter().map(|raw| parse_got(raw)).collect();
        assert_eq!(got.len(), report.sent, "every message sent arrived, and nothing else");
        got
    }
}

/// A message as a mail program writes it, with the headers given on top.
pub fn mail_with(headers: &str, from: &str, subject: &str, in_reply_to: Option<&str>, body: &str) -> Vec<u8> {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let threading =
        in_reply_to.map(|id| format!("In-Reply-To: <{id}>\r\nReferences: <{id}>\r\n")).unwrap_or_default();
    let body = body.replace("\r\n", "\n").replace('\n', "\r\n");
    format!(
        "{headers}From: {from}\r\nTo: Tabula <tabula@example.org>\r\nSubject: {subject}\r\n{threading}\
         Date: Mon, 01 Jan 2024 10:00:00 +0000\r\nMessage-ID: <t-{n}-{}@example.org>\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}",
        std::process::id()
    )
    .into_bytes()
}
