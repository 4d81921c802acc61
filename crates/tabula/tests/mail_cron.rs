//! A cron and pipe installation, as pbmserv ran, with no `tabula serve`:
//! the mail server pipes each message to `tabula mail --relay`, which
//! sends the reply and the notifications at once through a real SMTP
//! server (`python3 -m aiosmtpd`), and `tabula cron --relay` sends the
//! reminders it queued.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::Tabula;

/// `python3 -m aiosmtpd` writing a maildir, stopped when dropped.
struct Aiosmtpd {
    child: Child,
    port: u16,
    maildir: PathBuf,
}

impl Drop for Aiosmtpd {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Aiosmtpd {
    fn start(dir: &Path) -> Option<Aiosmtpd> {
        let importable = Command::new("python3")
            .args(["-c", "import aiosmtpd"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !importable {
            assert!(std::env::var_os("TABULA_REQUIRE_SMTP").is_none(), "python3 cannot import aiosmtpd");
            eprintln!("skipped: python3 cannot import aiosmtpd");
            return None;
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let maildir = dir.join("maildir");
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
            .arg(&maildir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start aiosmtpd");
        let server = Aiosmtpd { child, port, maildir };
        for _ in 0..600 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return Some(server);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("aiosmtpd did not start");
    }

    /// Every message received so far, as text.
    fn mails(&self) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(self.maildir.join("new")) else { return Vec::new() };
        entries.map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap()).collect()
    }
}

/// `tabula mail` with `message` on standard input.
fn pipe(t: &Tabula, args: &[&str], message: &str) -> std::process::Output {
    let mut child =
        t.command(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(message.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn mail_and_cron_send_what_they_queued_without_a_server() {
    let mut t = Tabula::new();
    let Some(smtp) = Aiosmtpd::start(t.path()) else { return };
    let relay = format!("127.0.0.1:{}", smtp.port);
    t.now = Some("2026-01-01T00:00:00Z".into());
    t.signup(&["ned", "ted"]);

    let message = "From: Ned <ned@example.org>\r\nTo: tabula@example.org\r\nSubject: dna challenge ned ted -nag=2d\r\n\
                   Message-ID: <c1@example.org>\r\n\r\nGood luck!\r\n";
    let out = pipe(&t, &["mail", "--from", "tabula@example.org", "--relay", &relay], message);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mails = smtp.mails();
    assert!(
        mails
            .iter()
            .any(|m| m.contains("To: ned@example.org") && m.contains("In-Reply-To: <c1@example.org>")),
        "ned's reply arrived: {mails:#?}"
    );
    assert!(mails.iter().any(|m| m.contains("To: ted@example.org")), "ted is told: {mails:#?}");
    assert!(t.ok("outbox").matches("[sent").count() >= 2, "{}", t.ok("outbox"));

    // Three days later cron queues a reminder and sends it.
    t.now = Some("2026-01-03T01:00:00Z".into());
    let report = t.ok(&format!("cron --relay {relay}"));
    assert!(
        report.contains("1 reminders") && report.contains("mail: 1 sent, 0 to retry, 0 given up"),
        "{report}"
    );
    let mails = smtp.mails();
    assert!(mails.iter().any(|m| m.contains("Subject: DNA Board 1 ned: your move")), "{mails:#?}");

    // A relay that is not there: the mail stays queued, the command succeeds.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    t.now = Some("2026-01-05T01:00:00Z".into());
    t.ok("dna challenge ted ned");
    let report = t.ok(&format!("cron --relay 127.0.0.1:{closed}"));
    assert!(report.contains("mail: 0 sent, 1 to retry"), "{report}");
    t.fails("cron --relay nowhere", 1);
}

const NED: &str = "TCGCATGTACAAAGTTTTCAATCTTCGCCTTGAGAG";
const TED: &str = "TCAGCGCGTTCCCGGAGTCGTCGTATTAAAGGGGAT";
const JED: &str = "GCCAATTATGGACTTGTTGTCAGATAGTTTCCGGCG";

/// The mails to `who` among `mails`.
fn to<'a>(mails: &'a [String], who: &str) -> Vec<&'a String> {
    mails.iter().filter(|m| m.contains(&format!("To: {who}"))).collect()
}

#[test]
fn a_kill_between_the_move_and_the_reply_still_delivers_the_reply_once() {
    let mut t = Tabula::new();
    let Some(smtp) = Aiosmtpd::start(t.path()) else { return };
    let relay = format!("127.0.0.1:{}", smtp.port);
    t.now = Some("2026-01-01T00:00:00Z".into());
    t.signup(&["ned", "ted", "jed"]);
    t.ok("dna challenge -manual ned ted jed");
    t.ok(&format!("dna move 1 ned pw-ned {NED}"));
    t.ok(&format!("dna move 1 ted pw-ted {TED}"));
    t.ok(&format!("dna move 1 jed pw-jed {JED}"));

    // The move commits, then the process is killed before it queues the reply.
    let message = "From: Ned <ned@example.org>\r\nTo: tabula@example.org\r\nSubject: dna move 1 ned pw-ned AAG\r\n\
                   Message-ID: <kill1@example.org>\r\n\r\nYour turn, Ted.\r\n";
    kill_after_commit(&t, message);
    assert!(t.ok("dna show 1").contains("It is ted's turn."), "the move was committed");

    // The mail server, seeing the pipe fail, delivers the message again.
    t.now = Some("2026-01-01T00:00:10Z".into());
    let out = pipe(&t, &["mail", "--from", "tabula@example.org", "--relay", &relay], message);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Later runs of cron send whatever is due.
    for at in ["2026-01-01T00:05:00Z", "2026-01-01T01:00:00Z"] {
        t.now = Some(at.into());
        t.ok(&format!("cron --relay {relay}"));
    }
    // The mails about the move (the maildir is not in order).
    let mails: Vec<String> = smtp.mails().into_iter().filter(|m| m.contains("4. ned: AAG")).collect();
    let ned = to(&mails, "ned@example.org");
    assert_eq!(ned.len(), 1, "ned's reply, once: {mails:#?}");
    assert!(ned[0].contains("In-Reply-To: <kill1@example.org>"), "{}", ned[0]);
    assert!(ned[0].contains("It is ted's turn."), "{}", ned[0]);
    assert!(!ned[0].contains("not your turn") && !ned[0].contains("error"), "{}", ned[0]);
    assert_eq!(to(&mails, "ted@example.org").len(), 1, "ted told once: {mails:#?}");
    assert_eq!(to(&mails, "jed@example.org").len(), 1, "jed told once: {mails:#?}");
}

/// Pipe `message` to `tabula mail` and kill the process (SIGKILL: nothing
/// runs after it) once its commands are committed, before it queues the
/// reply.
fn kill_after_commit(t: &Tabula, message: &str) {
    let flag = t.path().join("paused");
    let _ = std::fs::remove_file(&flag);
    let mut child = t
        .command(&["mail", "--from", "tabula@example.org"])
        .env("TABULA_TEST_PAUSE", format!("after-commit:{}", flag.display()))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(message.as_bytes()).unwrap();
    for _ in 0..1200 {
        if flag.exists() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(flag.exists(), "tabula mail reached the point after the commit");
    child.kill().unwrap();
    assert!(!child.wait().unwrap().success());
}

#[test]
fn a_kill_after_any_change_by_mail_still_answers_it_once_and_runs_it_once() {
    let mut t = Tabula::new();
    let Some(smtp) = Aiosmtpd::start(t.path()) else { return };
    let relay = format!("127.0.0.1:{}", smtp.port);
    t.now = Some("2026-01-01T00:00:00Z".into());
    t.signup(&["ted", "ann"]);
    // Ted's challenges wait for him to accept them.
    t.ok("policy ted pw-ted ask");
    // An open Real-Time Life game (board 1) that ned joins by mail.
    t.ok("rtlife challenge -tick=1h -gen_ticks=12 ann");
    t.ok("rtlife move 1 ann pw-ann place c3,d3,e3,c4,e4,c5,d5,e5,d6,d7");
    let messages = [
        from("ned", "signup ned pw-ned ned@example.org", "k1", "Hello!"),
        from("ned", "dna challenge ned ted", "k2", ""),
        from("ned", "vacation ned pw-ned 3", "k3", ""),
        from("ned", "rtlife move 1 ned pw-ned join p10,q10,r10,s10,t10,p11,q11,r11,s11,t11", "k4", ""),
        from("ted", "dna accept 2 ted pw-ted", "k5", ""),
        from("ned", "dna chat 2 ned pw-ned hello ted", "k6", ""),
    ];
    for message in &messages {
        t.now = Some("2026-01-01T00:00:00Z".into());
        kill_after_commit(&t, message);
        // The mail server, seeing the pipe fail, delivers it again: it was
        // handled with its change, so nothing runs twice.
        t.now = Some("2026-01-01T00:00:10Z".into());
        let out = pipe(&t, &["mail", "--from", "tabula@example.org", "--relay", &relay], message);
        assert!(out.status.success(), "{message}: {}", String::from_utf8_lossy(&out.stderr));
    }
    // Later runs of cron send the replies committed with the changes.
    for at in ["2026-01-01T00:05:00Z", "2026-01-01T01:00:00Z"] {
        t.now = Some(at.into());
        t.ok(&format!("cron --relay {relay}"));
    }
    let mails = smtp.mails();
    for (id, who, subject) in [
        ("k1", "ned", "Welcome to Tabula"),
        ("k2", "ned", "DNA Board 2 ned"),
        ("k3", "ned", "Vacation"),
        ("k4", "ned", "Real-Time Life Board 1"),
        ("k5", "ted", "DNA Board 2"),
        ("k6", "ned", "DNA Board 2 chat from ned"),
    ] {
        let replies: Vec<_> =
            mails.iter().filter(|m| m.contains(&format!("In-Reply-To: <{id}@example.org>"))).collect();
        assert_eq!(replies.len(), 1, "{id}: one reply: {mails:#?}");
        assert!(replies[0].contains(&format!("To: {who}@example.org")), "{id}: {}", replies[0]);
        assert!(replies[0].contains(&format!("Subject: {subject}")), "{id}: {}", replies[0]);
    }
    let ted = to(&mails, "ted@example.org");
    let challenged: Vec<_> =
        ted.iter().filter(|m| m.contains("You are challenged to DNA board 2.")).collect();
    assert_eq!(challenged.len(), 1, "{mails:#?}");
    let chats: Vec<_> = ted.iter().filter(|m| m.contains("hello ted")).collect();
    assert_eq!(chats.len(), 1, "the chat line mailed once: {mails:#?}");
    assert_eq!(t.ok("dna history 2").matches("[chat] ned: hello ted").count(), 1, "the chat line once");
    assert!(!t.ok("dna show 2").contains("waiting"), "accepted: {}", t.ok("dna show 2"));
    assert!(!mails.iter().any(|m| m.contains("error")), "{mails:#?}");
    t.fails("dna show 3", 1);
    assert_eq!(t.json("rtlife show 1")["game"]["players"], serde_json::json!(["ann", "ned"]), "joined once");
}

/// A mail from ned with `subject`, its Message-ID `<id@example.org>`.
fn from_ned(subject: &str, id: &str, body: &str) -> String {
    from("ned", subject, id, body)
}

/// A mail from `who` (`who@example.org`) with `subject`, its Message-ID `<id@example.org>`.
fn from(who: &str, subject: &str, id: &str, body: &str) -> String {
    format!(
        "From: {who} <{who}@example.org>\r\nTo: tabula@example.org\r\nSubject: {subject}\r\n\
         Message-ID: <{id}@example.org>\r\n\r\n{body}\r\n"
    )
}

/// What a cron and pipe installation does with a message: the mail server
/// pipes it to `tabula mail`, and the next cron run sends what it queued.
fn deliver(t: &Tabula, relay: &str, message: &str) {
    let out = pipe(t, &["mail", "--from", "tabula@example.org"], message);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    t.ok(&format!("cron --relay {relay}"));
}

/// The player to move on DNA board 1 and a nomination of theirs (the
/// first three letters of their own sequence that would remove at most one
/// chunk from each other player's, which the first round's limit always
/// allows), from `dna show 1`; `None` once the game is over.
fn dna_turn(t: &Tabula) -> Option<(String, String)> {
    let board = t.ok("dna show 1");
    if board.contains("Board 1 over") {
        return None;
    }
    let who =
        board.lines().find_map(|l| l.strip_prefix("It is")?.strip_suffix("'s turn."))?.trim().to_string();
    // "name (length): SEQUENCE" for every player.
    let sequences: Vec<(&str, &str)> = board
        .lines()
        .filter_map(|l| {
            let (name, rest) = l.split_once(" (")?;
            let (length, seq) = rest.split_once("): ")?;
            length.parse::<usize>().ok()?;
            Some((name, seq))
        })
        .collect();
    let own = sequences.iter().find(|(name, _)| *name == who)?.1;
    let allowed = |word: &str| sequences.iter().all(|(name, seq)| *name == who || removals(seq, word) <= 1);
    let first = own.get(..3)?.to_string();
    let nomination =
        (0..own.len().saturating_sub(2)).map(|i| &own[i..i + 3]).find(|w| allowed(w)).unwrap_or(&first);
    Some((who, nomination.to_string()))
}

/// How many chunks removing `chunk` takes from `seq`: whole left-to-right
/// passes of non-overlapping occurrences until a pass removes nothing.
fn removals(seq: &str, chunk: &str) -> usize {
    let mut rest = seq.to_string();
    let mut total = 0;
    loop {
        let pieces: Vec<&str> = rest.split(chunk).collect();
        let removed = pieces.len() - 1;
        if removed == 0 {
            return total;
        }
        total += removed;
        rest = pieces.concat();
    }
}

#[test]
fn a_game_against_a_bot_by_mail_sends_one_mail_a_message() {
    let mut t = Tabula::new();
    let Some(smtp) = Aiosmtpd::start(t.path()) else { return };
    let relay = format!("127.0.0.1:{}", smtp.port);
    t.now = Some("2026-01-01T00:00:00Z".into());
    t.signup(&["ned"]);
    // Piped in by the mail server; sent by the next cron run.
    deliver(&t, &relay, &from_ned("dna challenge ned bot:random", "b0", ""));
    assert_eq!(smtp.mails().len(), 1, "the challenge's reply only: {:#?}", smtp.mails());
    for n in 1..=40 {
        let Some((who, nomination)) = dna_turn(&t) else { break };
        assert_eq!(who, "ned", "the bot answers in the same run");
        let before = smtp.mails().len();
        deliver(&t, &relay, &from_ned(&format!("dna move 1 ned pw-ned {nomination}"), &format!("b{n}"), ""));
        let mails = smtp.mails();
        assert_eq!(mails.len(), before + 1, "one mail for move {n}: {mails:#?}");
    }
    assert!(t.ok("dna show 1").contains("DNA Board 1 over"), "{}", t.ok("dna show 1"));
    let mails = smtp.mails();
    assert!(mails.iter().all(|m| m.contains("To: ned@example.org")), "{mails:#?}");
}

#[test]
fn two_people_play_a_game_to_its_end_by_mail_through_pipe_and_cron() {
    let mut t = Tabula::new();
    let Some(smtp) = Aiosmtpd::start(t.path()) else { return };
    let relay = format!("127.0.0.1:{}", smtp.port);
    t.now = Some("2026-01-01T00:00:00Z".into());
    t.signup(&["ned", "ted"]);
    deliver(&t, &relay, &from("ned", "dna challenge ned ted", "h0", "Good luck, Ted."));
    let mails = smtp.mails();
    assert_eq!((to(&mails, "ned@").len(), to(&mails, "ted@").len()), (1, 1), "{mails:#?}");
    assert!(to(&mails, "ted@")[0].contains("You are challenged to DNA board 1."), "{mails:#?}");
    let mut moves = 0;
    while let Some((who, nomination)) = dna_turn(&t) {
        moves += 1;
        assert!(moves <= 80, "the game ends");
        let other = if who == "ned" { "ted" } else { "ned" };
        let before = smtp.mails();
        let id = format!("h{moves}");
        let comment = format!("Move {moves}.");
        deliver(&t, &relay, &from(&who, &format!("dna move 1 {who} pw-{who} {nomination}"), &id, &comment));
        let new: Vec<String> = smtp.mails().into_iter().filter(|m| !before.contains(m)).collect();
        // One mail to each: the mover's reply, the other's notification with the comment.
        let (reply, notice) = (to(&new, &format!("{who}@")), to(&new, &format!("{other}@")));
        assert_eq!((reply.len(), notice.len(), new.len()), (1, 1, 2), "move {moves}: {new:#?}");
        assert!(reply[0].contains(&format!("In-Reply-To: <{id}@example.org>")), "{}", reply[0]);
        assert!(reply[0].contains(&format!("{who}: {nomination}")), "{}", reply[0]);
        assert!(notice[0].contains(&format!("{who}: {nomination}")), "{}", notice[0]);
        assert!(
            notice[0].contains(&format!("Comment from {who}:")) && notice[0].contains(&comment),
            "{}",
            notice[0]
        );
        assert!(!new.iter().any(|m| m.contains(&format!("pw-{who}"))), "a password in a mail");
        // Hours pass between moves; cron runs meanwhile and sends nothing more.
        t.now = Some(format!("2026-01-01T{:02}:30:00Z", moves.min(23)));
        t.ok(&format!("cron --relay {relay}"));
    }
    assert!(moves >= 3, "{moves} moves");
    let mails = smtp.mails();
    for who in ["ned@", "ted@"] {
        assert!(
            to(&mails, who).iter().any(|m| m.contains("Subject: DNA Board 1 over")),
            "{who} hears the end: {mails:#?}"
        );
    }
    // Everything queued went out: nothing waits, nothing failed.
    let outbox = t.ok("outbox --limit 1000");
    assert!(outbox.lines().filter(|l| l.starts_with('#')).all(|l| l.ends_with("[sent]")), "{outbox}");
}

#[test]
fn a_delivery_while_the_first_is_at_work_is_handed_back_for_later() {
    let mut t = Tabula::new();
    let Some(smtp) = Aiosmtpd::start(t.path()) else { return };
    let relay = format!("127.0.0.1:{}", smtp.port);
    t.now = Some("2026-01-01T00:00:00Z".into());
    t.signup(&["ned", "ted"]);
    let message = from_ned("dna challenge ned ted", "busy1", "");
    // The first delivery stops right after claiming the message.
    let flag = t.path().join("claimed");
    let mut first = t
        .command(&["mail", "--mail-from", "tabula@example.org"])
        .env("TABULA_TEST_PAUSE", format!("after-claim:{}", flag.display()))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    first.stdin.take().unwrap().write_all(message.as_bytes()).unwrap();
    for _ in 0..1200 {
        if flag.exists() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(flag.exists(), "the first delivery claimed the message");
    // A second delivery meanwhile: EX_TEMPFAIL, so that the mail server tries again.
    let out = pipe(&t, &["mail", "--mail-from", "tabula@example.org", "--relay", &relay], &message);
    assert_eq!(out.status.code(), Some(75), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("being handled"), "{out:?}");
    assert!(smtp.mails().is_empty(), "{:#?}", smtp.mails());
    // The first dies; the mail server's later try is handled, once.
    first.kill().unwrap();
    first.wait().unwrap();
    t.now = Some("2026-01-01T00:11:00Z".into());
    let out = pipe(&t, &["mail", "--mail-from", "tabula@example.org", "--relay", &relay], &message);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(to(&smtp.mails(), "ned@example.org").len(), 1, "{:#?}", smtp.mails());
    assert!(t.ok("dna show 1").contains("DNA Board 1"));
    let out = pipe(&t, &["mail", "--mail-from", "tabula@example.org", "--relay", &relay], &message);
    assert!(out.status.success(), "handled: a later delivery is dropped quietly");
    assert_eq!(to(&smtp.mails(), "ned@example.org").len(), 1);
}

#[test]
fn mail_never_creates_a_database_where_the_mail_server_runs_it() {
    let t = Tabula::new();
    let cwd = tempfile::tempdir().unwrap();
    let message = from_ned("help", "nodb", "");
    for db in ["tabula.db", &t.db.display().to_string()] {
        let mut child = std::process::Command::new(common::BIN)
            .args(["--db", db, "mail", "--mail-from", "tabula@example.org"])
            .current_dir(cwd.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(message.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(75), "the mail server keeps the message: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("does not exist") && err.contains("--db"), "{err}");
        assert!(std::fs::read_dir(cwd.path()).unwrap().next().is_none(), "nothing created");
        assert!(!t.db.exists());
    }
    // Once the operator has made it, the message is handled.
    t.signup(&["ned"]);
    let out = pipe(&t, &["mail", "--mail-from", "tabula@example.org", "--reply-to-stdout"], &message);
    assert!(out.status.success(), "{out:?}");
    // The size limit can be set; a larger message is refused (65: bounced).
    let big = from_ned("help", "big", &"x".repeat(3000));
    let out = pipe(&t, &["mail", "--max-message-size", "2048"], &big);
    assert_eq!(out.status.code(), Some(65), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("at most 2048"), "{out:?}");
    t.fails("mail --max-message-size 10", 2);
}
