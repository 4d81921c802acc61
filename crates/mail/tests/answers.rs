//! What a message gets back, through real SMTP both ways: mail never tried
//! goes out at once after an outage; a reused Message-ID with new content
//! is answered; a mixed result is not an "error"; a refusal shows the
//! board; long lines stay readable; `help` says how to write a mail.

mod common;

use common::{Gateway, Got, mail_with, parse_got};
use tabula_mail::{RelayConfig, SmtpRelay, drain_outbox};

/// `who` mails Tabula; what the relay then delivers.
async fn send(g: &mut Gateway, who: &str, subject: &str, body: &str) -> Vec<Got> {
    let raw = mail_with("", &format!("{who} <{who}@example.org>"), subject, None, body);
    g.send_raw(&format!("{who}@example.org"), raw).await;
    g.deliver().await
}

/// A message from `who` with the Message-ID `id`.
fn with_id(who: &str, id: &str, subject: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {who} <{who}@example.org>\r\nTo: Tabula <tabula@example.org>\r\nSubject: {subject}\r\n\
         Date: Mon, 01 Jan 2024 10:00:00 +0000\r\nMessage-ID: <{id}>\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}"
    )
    .into_bytes()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_an_outage_mail_never_tried_goes_out_at_once() {
    let mut g = Gateway::start().await;
    g.world.seed_game().await;
    let queued = g.world.outbox().await.iter().filter(|r| r.sent_at.is_none()).count();
    assert!(queued >= 3, "{queued}");
    // The relay is down: the first message fails, the drain stops.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let down = SmtpRelay::new(&RelayConfig::plain("127.0.0.1", closed)).expect("relay");
    let report = drain_outbox(&g.world.service, &down, &common::config()).await.expect("drained");
    assert!(report.relay_unreachable && report.sent == 0 && report.deferred == 1, "{report:?}");
    // Back at once: everything never tried goes now; the one tried waits its back-off.
    let got = g.deliver().await;
    assert_eq!(got.len(), queued - 1, "{got:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reused_message_id_with_new_content_is_answered() {
    let mut g = Gateway::start().await;
    g.world.seed_game().await;
    g.deliver().await;
    g.send_raw("ned@example.org", with_id("ned", "same@example.org", "dna show 1", "")).await;
    let first = g.deliver().await;
    assert_eq!(first.len(), 1, "{first:#?}");
    // The same bytes again: a second delivery, not answered twice.
    g.send_raw("ned@example.org", with_id("ned", "same@example.org", "dna show 1", "")).await;
    assert!(g.deliver().await.is_empty());
    // The same id on a new message: run and answered.
    let (player, mv) = common::next_move(&g.world, 1).await.expect("a move");
    assert_eq!(player, "ned");
    let raw = with_id("ned", "same@example.org", &format!("dna move 1 ned pw-ned {mv}"), "");
    g.send_raw("ned@example.org", raw).await;
    let got = g.deliver().await;
    let ned: Vec<_> = got.iter().filter(|m| m.to == "ned@example.org").collect();
    assert_eq!(ned.len(), 1, "{got:#?}");
    assert!(ned[0].body.contains(&format!("ned: {mv}")), "{}", ned[0].body);
    assert_eq!(ned[0].in_reply_to.as_deref(), Some("same@example.org"));
    assert_eq!(g.world.version(1).await, 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mixed_result_is_no_error_and_a_refusal_shows_the_board() {
    let mut g = Gateway::start().await;
    g.world.seed_game().await;
    g.deliver().await;
    let got =
        send(&mut g, "ned", "Two moves", "dna move 1 ned pw-ned TTG\ndna move 1 ned pw-ned AAG\n").await;
    let ned: Vec<_> = got.iter().filter(|m| m.to == "ned@example.org").collect();
    assert_eq!(ned.len(), 1);
    assert_eq!(ned[0].subject, "DNA Board 1 ted", "the move went through: {}", ned[0].body);
    assert!(ned[0].body.contains("was refused: TTG would remove"), "{}", ned[0].body);

    // Every command refused: an error, with the board as it stands.
    let got = send(&mut g, "ned", "dna move 1 ned pw-ned AAG", "").await;
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].subject, "DNA error");
    let body = &got[0].body;
    assert!(body.contains("The board as it stands:\n\nDNA Board 1 ted\n\nIt is ted's turn."), "{body}");
    assert!(body.contains("ned: AAG"), "the move list: {body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_lines_are_sent_readable_not_quoted_printable() {
    let mut g = Gateway::start().await;
    g.world.seed_game().await;
    g.deliver().await;
    let (player, mv) = common::next_move(&g.world, 1).await.expect("a move");
    let comment = "This comment is one long line that goes on well past seventy-eight characters, \
                   as people write = signs and all, and it must arrive as written.";
    let raw = mail_with(
        "",
        &format!("{player} <{player}@example.org>"),
        &format!("dna move 1 {player} pw-{player} {mv}"),
        None,
        &format!("{comment}\n"),
    );
    g.send_raw(&format!("{player}@example.org"), raw).await;
    let raws = g.deliver_raw().await;
    assert_eq!(raws.len(), 3);
    for raw in &raws {
        let text = String::from_utf8_lossy(raw);
        assert!(!text.to_ascii_lowercase().contains("quoted-printable"), "{text}");
        assert!(!text.contains("=3D"), "{text}");
        for line in text.lines() {
            assert!(line.len() <= 78, "{line:?} in {text}");
        }
        let got = parse_got(raw);
        if got.to != format!("{player}@example.org") {
            assert!(text.contains("format=flowed"), "{text}");
            // Joined again as RFC 3676 says (see `parse_got`).
            assert!(got.body.contains(comment), "{}", got.body);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn help_by_mail_says_how_to_write_a_mail() {
    let mut g = Gateway::start().await;
    g.world.signup(&["ned"]).await;
    g.deliver().await;
    let got = send(&mut g, "ned", "help", "").await;
    assert_eq!(got.len(), 1);
    let body = &got[0].body;
    for words in [
        "Writing to Tabula by mail",
        "in the subject, or on the first lines",
        "is a comment",
        "signature",
        "registered address",
    ] {
        assert!(body.contains(words), "{words}: {body}");
    }
}
