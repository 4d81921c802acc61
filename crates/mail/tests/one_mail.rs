//! One message in, at most one mail out per recipient and board, through
//! real SMTP both ways: the challenger gets the reply and no "You are
//! challenged" besides; a comment ends the move's notification instead of
//! coming as a mail of its own; a message with two commands on a board
//! sends each other player one notification.

mod common;

use common::{Gateway, Got, mail_with, next_move};

/// `who` mails Tabula; what the relay then delivers.
async fn send(g: &mut Gateway, who: &str, subject: &str, body: &str) -> Vec<Got> {
    let raw = mail_with("", &format!("{who} <{who}@example.org>"), subject, None, body);
    g.send_raw(&format!("{who}@example.org"), raw).await;
    g.deliver().await
}

/// The mails to `who`.
fn to<'a>(got: &'a [Got], who: &str) -> Vec<&'a Got> {
    got.iter().filter(|m| m.to == format!("{who}@example.org")).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_by_mail_sends_the_challenger_the_reply_only() {
    let mut g = Gateway::start().await;
    g.world.signup(&["ned", "ted", "jed"]).await;
    g.deliver().await;
    let got = send(&mut g, "ned", "dna challenge ned ted jed", "Good luck!\n").await;
    let ned = to(&got, "ned");
    assert_eq!(ned.len(), 1, "ned gets the reply only: {got:#?}");
    assert!(ned[0].in_reply_to.is_some(), "{:#?}", ned[0]);
    assert_eq!(to(&got, "ted").len(), 1, "{got:#?}");
    assert_eq!(to(&got, "jed").len(), 1, "{got:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_comment_ends_the_moves_notification() {
    let mut g = Gateway::start().await;
    g.world.seed_game().await;
    g.deliver().await;
    let (player, mv) = next_move(&g.world, 1).await.expect("a move");
    let got =
        send(&mut g, &player, &format!("dna move 1 {player} pw-{player} {mv}"), "Your turn, Ted.\nNed\n")
            .await;
    assert_eq!(got.len(), 3, "one mail to each player: {got:#?}");
    assert_eq!(to(&got, &player).len(), 1, "{got:#?}");
    for other in ["ned", "ted", "jed"].into_iter().filter(|o| *o != player) {
        let mails = to(&got, other);
        assert_eq!(mails.len(), 1, "{other}: {got:#?}");
        let body = mails[0].body.trim_end();
        assert!(body.ends_with("Your turn, Ted.\nNed"), "{other}: {body}");
        assert!(body.contains(&format!("Comment from {player}:")), "{body}");
        assert!(!mails[0].subject.contains("chat"), "{:#?}", mails[0]);
    }
    // The board's chat keeps the comment (the web shows it).
    let history = g.world.run("dna history 1").await;
    assert!(history.contains("[chat] ned: Your turn, Ted."), "{history}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_commands_on_a_board_send_one_notification_to_each_other_player() {
    let mut g = Gateway::start().await;
    g.world.seed_game().await;
    g.deliver().await;
    let (player, mv) = next_move(&g.world, 1).await.expect("a move");
    let body = format!("dna move 1 {player} pw-{player} {mv}\ndna move 1 {player} pw-{player} propose\n");
    let got = send(&mut g, &player, "Two commands", &body).await;
    assert_eq!(to(&got, &player).len(), 1, "{got:#?}");
    assert!(!to(&got, &player)[0].subject.contains("error"), "{got:#?}");
    for other in ["ned", "ted", "jed"].into_iter().filter(|o| *o != player) {
        let mails = to(&got, other);
        assert_eq!(mails.len(), 1, "{other}: {got:#?}");
        // The one notification shows the board after both commands.
        assert!(mails[0].body.contains("propos"), "{other}: {}", mails[0].body);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_on_two_boards_in_one_message_send_each_other_player_one_mail() {
    let mut g = Gateway::start().await;
    g.world.seed_game().await;
    g.world.run("rewrite challenge ned ted jed").await;
    g.deliver().await;
    let (player, mv) = next_move(&g.world, 1).await.expect("a move");
    let body = format!(
        "dna move 1 {player} pw-{player} {mv}\nrewrite move 2 {player} pw-{player} goal aag\n\nTwo at once.\n"
    );
    let got = send(&mut g, &player, "Two boards", &body).await;
    assert_eq!(to(&got, &player).len(), 1, "the reply only: {got:#?}");
    for other in ["ned", "ted", "jed"].into_iter().filter(|o| *o != player) {
        let mails = to(&got, other);
        assert_eq!(mails.len(), 1, "{other} gets one mail for both boards: {got:#?}");
        let mail = mails[0];
        assert!(
            mail.subject.starts_with("DNA Board 1") && mail.subject.contains("; Rewrite Board 2"),
            "{mail:#?}"
        );
        let (dna, rewrite) = (mail.body.find("DNA Board 1"), mail.body.find("Rewrite Board 2"));
        assert!(dna.is_some() && rewrite > dna, "the boards one after the other: {}", mail.body);
        assert!(mail.body.contains(&format!("{player}: {mv}")), "{}", mail.body);
        assert!(
            mail.body.contains(&format!("{player} chose a goal")) || mail.body.contains("goal"),
            "{}",
            mail.body
        );
        assert_eq!(
            mail.body.matches("Two at once.").count(),
            1,
            "the comment once, at the end: {}",
            mail.body
        );
        assert!(mail.body.trim_end().ends_with("Two at once."), "{}", mail.body);
    }
}
