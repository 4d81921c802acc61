//! A service over a SQLite database in a temporary directory, and messages
//! as mail programs send them.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tabula_mail::MailConfig;
use tabula_service::store::{OutboxRow, SqliteStore};
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
}

impl World {
    pub async fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("tabula.db");
        let service = Arc::new(open(&db, Clock::System).await);
        World { dir, db, service }
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
        let mut rows = self.service.store().outbox(100_000).await.expect("outbox");
        rows.reverse();
        rows
    }

    /// The number of events of board 1.
    pub async fn version(&self, board: i64) -> i64 {
        self.service.store().game_version(board).await.expect("version").unwrap_or(0)
    }
}

/// A service over the database at `path`.
pub async fn open(path: &std::path::Path, clock: Clock) -> Service {
    let store = SqliteStore::open(path).await.expect("open the database");
    Service::new(Arc::new(store), clock)
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
