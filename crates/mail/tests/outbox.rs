//! The outbox sender against a mail server that refuses, hangs or is gone,
//! and against `kill -9` in the middle of a batch: every message is
//! delivered, each key exactly once (by `Message-ID` when the server stored
//! a message it never acknowledged).

mod common;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::{Recorder, Server, config, header, open, open_db, postgres_url};
use tabula_mail::{MailConfig, RelayConfig, SmtpRelay, drain_outbox, message_id_for_key};
use tabula_service::Clock;
use tabula_service::store::{OutboxMessage, OutboxRow};

const T0: i64 = 1_700_000_000_000;

fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64
}

fn messages(n: usize) -> Vec<OutboxMessage> {
    (1..=n)
        .map(|i| OutboxMessage {
            key: format!("game:1:v{i}:ned"),
            recipient: "ned@example.org".into(),
            subject: format!("DNA Board 1 move {i}"),
            body: format!("Move {i}.\n"),
            game_id: Some(1),
        })
        .collect()
}

/// The messages a sender would take at `now` (at most `limit`), left due:
/// claimed with a lease that ends at once.
async fn due(service: &tabula_service::Service, now: i64, limit: i64) -> Vec<OutboxRow> {
    service.mailroom().claim_outbox(now, now, limit).await.unwrap()
}

fn relay(port: u16) -> SmtpRelay {
    let mut c = RelayConfig::plain("127.0.0.1", port);
    c.timeout = Duration::from_secs(120);
    SmtpRelay::new(&c).expect("relay")
}

/// The outbox key each received message was sent for, from its Message-ID.
fn received_keys(recorder: &Recorder, keys: &[String]) -> Vec<String> {
    let by_id: HashMap<String, &String> =
        keys.iter().map(|k| (format!("<{}>", message_id_for_key(k, "example.org")), k)).collect();
    recorder
        .received()
        .iter()
        .map(|r| {
            let id = header(&r.data, "Message-ID").expect("a Message-ID");
            by_id.get(&id).map(|k| k.to_string()).unwrap_or_else(|| panic!("unknown Message-ID {id}"))
        })
        .collect()
}

#[tokio::test]
async fn refusals_back_off_and_every_message_arrives_once_when_the_server_recovers() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tabula.db");
    let service = open(&db, Clock::Fixed(T0)).await;
    let batch = messages(12);
    let keys: Vec<String> = batch.iter().map(|m| m.key.clone()).collect();
    service.mailroom().enqueue(&batch, T0).await.unwrap();

    // The server takes five, then says "try again later".
    let recorder = Recorder::new();
    recorder.refuse_after(5);
    let server = Server::start(recorder.clone(), config()).await;
    let relay = relay(server.addr.port());
    let report = drain_outbox(&service, &relay, &config()).await.unwrap();
    assert_eq!((report.sent, report.deferred, report.given_up), (5, 7, 0), "{report:?}");
    assert!(!report.relay_unreachable);
    let rows = service.mailroom().outbox(100).await.unwrap();
    assert_eq!(rows.iter().filter(|r| r.sent_at.is_some()).count(), 5);
    for r in rows.iter().filter(|r| r.sent_at.is_none()) {
        assert_eq!(r.attempts, 1);
        assert!(r.last_error.as_deref().unwrap().contains("mailbox busy"), "{:?}", r.last_error);
    }
    // Backed off by a minute: not due before, due after.
    assert!(due(&service, T0 + 59_999, 100).await.is_empty());
    assert_eq!(due(&service, T0 + 60_000, 100).await.len(), 7);
    assert_eq!(drain_outbox(&service, &relay, &config()).await.unwrap().sent, 0, "nothing due yet");

    // Still refusing a minute later: the delay doubles.
    let later = open(&db, Clock::Fixed(T0 + 60_000)).await;
    let report = drain_outbox(&later, &relay, &config()).await.unwrap();
    assert_eq!((report.sent, report.deferred), (0, 7));
    assert!(due(&later, T0 + 60_000 + 119_999, 100).await.is_empty());

    // The server recovers; after the back-off every message goes out once.
    recorder.accept_all();
    let restarted = open(&db, Clock::Fixed(T0 + 60_000 + 120_000)).await;
    let report = drain_outbox(&restarted, &relay, &config()).await.unwrap();
    assert_eq!((report.sent, report.deferred), (7, 0), "{report:?}");
    let mut got = received_keys(&recorder, &keys);
    got.sort();
    let mut want = keys.clone();
    want.sort();
    assert_eq!(got, want, "each message exactly once");
    for r in recorder.received() {
        assert_eq!(header(&r.data, "References").as_deref(), Some("<tabula.board1@example.org>"));
        assert_eq!(header(&r.data, "Auto-Submitted").as_deref(), Some("auto-generated"));
        assert_eq!(header(&r.data, "In-Reply-To"), None);
    }
    assert!(restarted.mailroom().outbox(100).await.unwrap().iter().all(|r| r.sent_at.is_some()));
    server.stop().await;
}

#[tokio::test]
async fn an_unreachable_relay_stops_the_drain_and_hopeless_messages_are_given_up() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tabula.db");
    let service = open(&db, Clock::Fixed(T0)).await;
    let mut batch = messages(3);
    batch[0].recipient = "not an address".into();
    service.mailroom().enqueue(&batch, T0).await.unwrap();

    // Nothing listens on this port.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let report = drain_outbox(&service, &relay(port), &config()).await.unwrap();
    assert_eq!((report.sent, report.given_up, report.deferred), (0, 1, 1), "{report:?}");
    assert!(report.relay_unreachable);
    let rows = service.mailroom().outbox(10).await.unwrap();
    let by_key = |k: &str| rows.iter().find(|r| r.message.key == k).unwrap().clone();
    let hopeless = by_key("game:1:v1:ned");
    assert!(hopeless.last_error.as_deref().unwrap().starts_with("gave up after 1 attempts"), "{hopeless:?}");
    assert!(by_key("game:1:v2:ned").last_error.as_deref().unwrap().contains("cannot be reached"));
    assert_eq!(by_key("game:1:v3:ned").attempts, 0, "not tried while the relay is down");

    // A message that keeps failing is given up after max_attempts.
    let recorder = Recorder::new();
    recorder.refuse_after(0);
    let server = Server::start(recorder.clone(), config()).await;
    let relay = relay(server.addr.port());
    let cfg = MailConfig { max_attempts: 3, ..config() };
    let mut now = T0;
    let mut given_up = 0;
    for _ in 0..4 {
        now += 10 * 3_600_000;
        given_up += drain_outbox(&open(&db, Clock::Fixed(now)).await, &relay, &cfg).await.unwrap().given_up;
    }
    assert_eq!(given_up, 2);
    let rows = service.mailroom().outbox(10).await.unwrap();
    assert!(rows.iter().all(|r| r.sent_at.is_none()));
    assert!(rows.iter().all(|r| r.last_error.as_deref().unwrap().starts_with("gave up after")), "{rows:#?}");
    assert!(rows.iter().all(|r| r.gave_up_at.is_some() && r.sent_at.is_none()), "{rows:#?}");
    assert!(due(&service, i64::MAX - 1, 10).await.is_empty(), "never due again");
    server.stop().await;
}

/// Start this test binary as a child that drains the outbox of `db` into `port`.
fn spawn_drainer(db: &Path, port: u16) -> std::process::Child {
    spawn_drainer_with_lease(db.to_str().expect("a UTF-8 path"), port, config().claim_lease)
}

/// [`spawn_drainer`] on the database `db` (a SQLite path or a PostgreSQL
/// URL) with claims of `lease`.
fn spawn_drainer_with_lease(db: &str, port: u16, lease: Duration) -> std::process::Child {
    Command::new(std::env::current_exe().expect("the test binary"))
        .env("TABULA_MAIL_CHILD_LEASE_MS", lease.as_millis().to_string())
        .args(["--exact", "child_process_drains_the_outbox", "--ignored", "--test-threads=1"])
        .env("TABULA_MAIL_CHILD_DB", db)
        .env("TABULA_MAIL_CHILD_PORT", port.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start the child")
}

#[test]
#[ignore = "a child process of the kill -9 tests"]
fn child_process_drains_the_outbox() {
    let (Some(db), Some(port)) =
        (std::env::var_os("TABULA_MAIL_CHILD_DB"), std::env::var("TABULA_MAIL_CHILD_PORT").ok())
    else {
        return;
    };
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let service = open_db(db.to_str().expect("a UTF-8 database name"), Clock::System).await;
        let port: u16 = port.parse().unwrap();
        let mut cfg = config();
        if let Some(ms) = std::env::var("TABULA_MAIL_CHILD_LEASE_MS").ok().and_then(|v| v.parse().ok()) {
            cfg.claim_lease = Duration::from_millis(ms);
        }
        let _ = drain_outbox(&service, &relay(port), &cfg).await;
    });
}

/// Wait (bounded) until the mail server holds a message unanswered.
async fn wait_for_hold(recorder: &Recorder, child: &mut std::process::Child) {
    for _ in 0..3000 {
        if recorder.held.load(std::sync::atomic::Ordering::SeqCst) > 0 {
            return;
        }
        assert!(child.try_wait().unwrap().is_none(), "the child ended before it was killed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the child never reached the held message");
}

async fn kill_mid_batch(keep_held: bool) -> (std::sync::Arc<Recorder>, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tabula.db");
    let service = open(&db, Clock::System).await;
    let batch = messages(20);
    let keys: Vec<String> = batch.iter().map(|m| m.key.clone()).collect();
    service.mailroom().enqueue(&batch, service.now()).await.unwrap();

    let recorder = Recorder::new();
    recorder.hold_after(7, keep_held);
    // The held session never ends by itself: do not wait long for it at shutdown.
    let mut cfg = config();
    cfg.smtp.shutdown_grace = Duration::from_millis(200);
    let server = Server::start(recorder.clone(), cfg).await;
    let mut child = spawn_drainer(&db, server.addr.port());
    wait_for_hold(&recorder, &mut child).await;
    child.kill().expect("kill -9");
    child.wait().unwrap();

    let rows = service.mailroom().outbox(100).await.unwrap();
    assert_eq!(rows.iter().filter(|r| r.sent_at.is_some()).count(), 7, "marked up to the kill");

    // Restart: a new process opens the same database and drains again once
    // the dead sender's claim on its batch has run out.
    recorder.accept_all();
    let after_lease = now_ms() + config().claim_lease.as_millis() as i64 + 1;
    let restarted = open(&db, Clock::Fixed(after_lease)).await;
    let report = drain_outbox(&restarted, &relay(server.addr.port()), &config()).await.unwrap();
    assert_eq!((report.sent, report.deferred, report.given_up), (13, 0, 0), "{report:?}");
    assert!(restarted.mailroom().outbox(100).await.unwrap().iter().all(|r| r.sent_at.is_some()));
    server.stop().await;
    (recorder, keys)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_mid_batch_then_restart_delivers_every_message_exactly_once() {
    let (recorder, keys) = kill_mid_batch(false).await;
    let got = received_keys(&recorder, &keys);
    assert_eq!(got.len(), 20);
    assert_eq!(got.iter().collect::<HashSet<_>>().len(), 20, "no message twice");
    assert_eq!(got, keys, "in queue order");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_between_the_servers_acceptance_and_the_mark_resends_with_the_same_message_id() {
    // The mail server stored the eighth message but the sender died before
    // reading its answer: the sender cannot know, sends it again after the
    // restart, and the copy has the same Message-ID (at-least-once, the one
    // window SMTP leaves open).
    let (recorder, keys) = kill_mid_batch(true).await;
    let got = received_keys(&recorder, &keys);
    assert_eq!(got.len(), 21);
    let distinct: HashSet<&String> = got.iter().collect();
    assert_eq!(distinct.len(), 20, "every message, by Message-ID exactly once");
    let twice: Vec<&String> = keys.iter().filter(|k| got.iter().filter(|g| g == k).count() == 2).collect();
    assert_eq!(twice, vec![&keys[7]], "only the message in flight at the kill");
}

#[tokio::test]
async fn the_send_loop_drains_until_shutdown_and_replies_can_be_sent_directly() {
    let dir = tempfile::tempdir().unwrap();
    let service = std::sync::Arc::new(open(&dir.path().join("tabula.db"), Clock::System).await);
    service.mailroom().enqueue(&messages(3), service.now()).await.unwrap();
    let recorder = Recorder::new();
    let server = Server::start(recorder.clone(), config()).await;
    let url = format!("smtp://127.0.0.1:{}", server.addr.port());
    let relay = std::sync::Arc::new(SmtpRelay::from_spec(&url).expect("a relay URL"));
    relay.check().await.expect("the relay answers EHLO");
    let cfg = MailConfig { drain_interval: Duration::from_millis(20), ..config() };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let sender = tokio::spawn(tabula_mail::send_loop(service.clone(), relay.clone(), cfg, async move {
        let _ = stopped.await;
    }));
    for _ in 0..1500 {
        if recorder.received().len() == 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(recorder.received().len(), 3);
    stop.send(()).unwrap();
    sender.await.unwrap();

    // A reply sent at once, without the outbox, threaded like one from it.
    let mail = tabula_mail::OutgoingMail {
        to: "ned@example.org".into(),
        subject: "DNA Board 1 ted".into(),
        in_reply_to: Some("question@example.org".into()),
        references: vec!["older@example.org".into(), "question@example.org".into()],
        board: None,
        body: "It is ted's turn.\n".into(),
        message_id: message_id_for_key("reply:question@example.org", "example.org"),
        key: "reply:question@example.org".into(),
    };
    relay.send_reply(&mail, &config().from_mailbox()).await.expect("sent");
    let got = recorder.received().pop().unwrap();
    assert_eq!(got.envelope.recipients, vec!["ned@example.org"]);
    assert_eq!(got.envelope.sender, "tabula@example.org");
    assert_eq!(header(&got.data, "In-Reply-To").as_deref(), Some("<question@example.org>"));
    assert_eq!(
        header(&got.data, "References").as_deref(),
        Some("<older@example.org> <question@example.org>")
    );
    assert_eq!(header(&got.data, "From").as_deref(), Some("Tabula <tabula@example.org>"));
    assert!(SmtpRelay::from_spec("gopher://nowhere").is_err());
    server.stop().await;
}

#[tokio::test]
async fn two_senders_on_one_database_send_each_message_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tabula.db");
    let first = open(&db, Clock::System).await;
    let second = open(&db, Clock::System).await;
    let batch = messages(40);
    let keys: Vec<String> = batch.iter().map(|m| m.key.clone()).collect();
    first.mailroom().enqueue(&batch, now_ms()).await.unwrap();
    let recorder = Recorder::new();
    let server = Server::start(recorder.clone(), config()).await;
    let (a, b) = (relay(server.addr.port()), relay(server.addr.port()));
    let cfg = MailConfig { drain_batch: 3, ..config() };
    let (ra, rb) = tokio::join!(drain_outbox(&first, &a, &cfg), drain_outbox(&second, &b, &cfg));
    let (ra, rb) = (ra.unwrap(), rb.unwrap());
    assert_eq!(ra.sent + rb.sent, 40, "{ra:?} {rb:?}");
    let mut got = received_keys(&recorder, &keys);
    got.sort();
    let mut want = keys.clone();
    want.sort();
    assert_eq!(got, want, "each message exactly once");
    server.stop().await;
}

/// A relay that takes connections and never says a word (not even its
/// greeting), keeping every connection open until dropped.
struct SilentRelay {
    port: u16,
    task: tokio::task::JoinHandle<()>,
}

impl SilentRelay {
    async fn start() -> SilentRelay {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let port = listener.local_addr().unwrap().port();
        let task = tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((socket, _)) = listener.accept().await {
                held.push(socket);
            }
        });
        SilentRelay { port, task }
    }
}

impl Drop for SilentRelay {
    fn drop(&mut self) {
        self.task.abort();
    }
}

#[tokio::test]
async fn a_relay_that_never_answers_times_out_counts_the_attempt_and_holds_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tabula.db");
    let service = open(&db, Clock::Fixed(T0)).await;
    let batch = messages(5);
    let keys: Vec<String> = batch.iter().map(|m| m.key.clone()).collect();
    service.mailroom().enqueue(&batch, T0).await.unwrap();

    let silent = SilentRelay::start().await;
    let mut c = RelayConfig::plain("127.0.0.1", silent.port);
    c.timeout = Duration::from_millis(300);
    let stuck = SmtpRelay::new(&c).expect("relay");
    // Unbounded, the drain would wait for ever; the guard only turns that into a failure.
    let report = tokio::time::timeout(Duration::from_secs(60), drain_outbox(&service, &stuck, &config()))
        .await
        .expect("the drain ends although the relay never answers")
        .unwrap();
    assert_eq!((report.sent, report.deferred, report.given_up), (0, 1, 0), "{report:?}");
    assert!(report.relay_unreachable);
    assert_eq!(report.errors, vec!["#1: the relay did not answer within 0.3 s".to_string()]);
    let rows = service.mailroom().outbox(10).await.unwrap();
    let first = rows.iter().find(|r| r.message.key == keys[0]).unwrap();
    assert_eq!(first.attempts, 1, "a timed-out attempt counts");
    assert_eq!(first.last_error.as_deref(), Some("the relay did not answer within 0.3 s"));
    // The rest of the batch is not held behind it: due now, the first after its back-off.
    let due: Vec<String> = due(&service, T0, 10).await.into_iter().map(|r| r.message.key).collect();
    assert_eq!(due, keys[1..].to_vec());

    // Another relay that answers delivers them all, the timed-out one once its back-off is over.
    let recorder = Recorder::new();
    let server = Server::start(recorder.clone(), config()).await;
    let report = drain_outbox(&service, &relay(server.addr.port()), &config()).await.unwrap();
    assert_eq!((report.sent, report.deferred), (4, 0), "{report:?}");
    let later = open(&db, Clock::Fixed(T0 + 60_000)).await;
    let report = drain_outbox(&later, &relay(server.addr.port()), &config()).await.unwrap();
    assert_eq!((report.sent, report.deferred), (1, 0), "{report:?}");
    let mut got = received_keys(&recorder, &keys);
    got.sort();
    assert_eq!(got, keys, "every message, once");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_senders_claims_hold_and_a_dead_senders_are_taken_over_within_a_lease() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tabula.db");
    live_and_killed_senders(db.to_str().unwrap()).await;
}

/// Two servers sending from one PostgreSQL database, as several servers
/// run: one killed in the middle of an exchange, the other delivers the rest
/// within the lease (the multi-server figure of docs/reliability.md).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgresql_a_killed_senders_mail_is_taken_over_within_a_lease() {
    let Some(db) = postgres_url().await else { return };
    live_and_killed_senders(&db).await;
}

/// A sender that hangs in its eighth exchange and a second sender on the
/// database `db`: nothing twice while the first lives, everything within a
/// lease once it is killed, and the one message in flight at the kill twice
/// with one Message-ID.
async fn live_and_killed_senders(db: &str) {
    let service = std::sync::Arc::new(open_db(db, Clock::System).await);
    let batch = messages(20);
    let keys: Vec<String> = batch.iter().map(|m| m.key.clone()).collect();
    service.mailroom().enqueue(&batch, service.now()).await.unwrap();
    let lease = Duration::from_secs(2);

    // The first sender claims every message and hangs in the eighth
    // exchange, after the mail server stored it.
    let recorder = Recorder::new();
    recorder.hold_after(7, true);
    let mut cfg = config();
    cfg.smtp.shutdown_grace = Duration::from_millis(200);
    let server = Server::start(recorder.clone(), cfg).await;
    let mut child = spawn_drainer_with_lease(db, server.addr.port(), lease);
    wait_for_hold(&recorder, &mut child).await;

    // A second sender drains all along. While the first lives, its
    // heartbeat keeps its claims: nothing is sent twice, for three leases.
    let survivor_cfg =
        MailConfig { claim_lease: lease, drain_interval: Duration::from_millis(100), ..config() };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let url = format!("smtp://127.0.0.1:{}", server.addr.port());
    let survivor = tokio::spawn(tabula_mail::send_loop(
        service.clone(),
        std::sync::Arc::new(SmtpRelay::from_spec(&url).unwrap()),
        survivor_cfg,
        async move {
            let _ = stopped.await;
        },
    ));
    tokio::time::sleep(lease * 3).await;
    assert!(child.try_wait().unwrap().is_none(), "the first sender is still in its exchange");
    assert_eq!(recorder.received().len(), 8, "the live sender's messages are left alone");

    // kill -9: its claims run out within a lease and the survivor sends the rest.
    recorder.accept_all();
    child.kill().expect("kill -9");
    child.wait().unwrap();
    let killed = std::time::Instant::now();
    let mut delay = None;
    for _ in 0..3000 {
        if received_keys(&recorder, &keys).iter().collect::<HashSet<_>>().len() == 20 {
            delay = Some(killed.elapsed());
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let delay = delay.expect("every message delivered after the kill");
    let database = if db.starts_with("postgres") { "PostgreSQL" } else { "SQLite" };
    eprintln!("{database}: every message delivered {delay:?} after the kill (lease {lease:?})");
    assert!(delay < Duration::from_secs(30), "{delay:?}");
    stop.send(()).unwrap();
    survivor.await.unwrap();

    // The one message in flight at the kill arrived twice, with one Message-ID.
    let got = received_keys(&recorder, &keys);
    assert_eq!(got.len(), 21, "{got:?}");
    let twice: Vec<&String> = keys.iter().filter(|k| got.iter().filter(|g| g == k).count() == 2).collect();
    assert_eq!(twice, vec![&keys[7]]);
    server.stop().await;
}
