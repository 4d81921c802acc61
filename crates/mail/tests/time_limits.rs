//! Time limits by mail, through real SMTP: a player forfeited for not
//! moving is told like every other player of the board.

mod common;

use common::{Gateway, open};
use tabula_service::Clock;

const DAY_MS: i64 = 86_400_000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forfeit_mails_every_player_the_forfeited_one_included() {
    let mut g = Gateway::start().await;
    g.world.seed_game().await;
    g.deliver().await;
    let (idle, _) = common::next_move(&g.world, 1).await.expect("a move");
    assert_eq!(idle, "ned");

    // Three weeks and a day later (the default forfeit is 21 days), the
    // scheduler runs: ned is warned first, and forfeited a day after.
    let start = g.world.service.now();
    let warned = open(&g.world.db, Clock::Fixed(start + 22 * DAY_MS)).await;
    let report = warned.run_time_limits().await.expect("time limits");
    assert_eq!((report.warnings, report.forfeits), (1, 0), "{report:?}");
    g.deliver_with(&warned).await;
    let later = open(&g.world.db, Clock::Fixed(start + 23 * DAY_MS)).await;
    let report = later.run_time_limits().await.expect("time limits");
    assert_eq!(report.forfeits, 1, "{report:?}");
    let got = g.deliver_with(&later).await;
    for player in ["ned", "ted", "jed"] {
        let mails: Vec<_> = got.iter().filter(|m| m.to == format!("{player}@example.org")).collect();
        assert_eq!(mails.len(), 1, "{player} gets one mail: {got:#?}");
        assert!(mails[0].subject.starts_with("DNA Board 1"), "{}", mails[0].subject);
        assert!(mails[0].body.contains("ned resigns"), "{}", mails[0].body);
        assert!(mails[0].body.contains("(forfeited: no move in 21 days)"), "{}", mails[0].body);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_players_of_a_simultaneous_game_idle_past_the_limit_draw_and_are_both_told() {
    let mut g = Gateway::start().await;
    g.world.signup(&["ned", "ted"]).await;
    // The sequences of a -manual DNA game are set at the same time, in secret.
    g.world.run("dna challenge -manual ned ted -forfeit=5d").await;
    g.deliver().await;

    let start = g.world.service.now();
    let warned = open(&g.world.db, Clock::Fixed(start + 6 * DAY_MS)).await;
    assert_eq!(warned.run_time_limits().await.expect("time limits").warnings, 2);
    g.deliver_with(&warned).await;
    let later = open(&g.world.db, Clock::Fixed(start + 7 * DAY_MS)).await;
    let report = later.run_time_limits().await.expect("time limits");
    assert_eq!(report.forfeits, 2, "{report:?}");
    let board = later.execute("dna show 1", &tabula_service::Caller::Anonymous).await.expect("shown");
    assert!(
        board.text.contains("ned, ted all forfeit (forfeited: no move in 5 days): the game is drawn."),
        "{}",
        board.text
    );
    let result = g.world.store.game(1).await.unwrap().unwrap().summary.result.unwrap_or_default();
    assert!(!result.contains("won by"), "{result}");
    assert!(result.to_lowercase().contains("draw"), "{result}");

    let got = g.deliver_with(&later).await;
    for player in ["ned", "ted"] {
        let mails: Vec<_> = got.iter().filter(|m| m.to == format!("{player}@example.org")).collect();
        assert_eq!(mails.len(), 1, "{player} gets one mail: {got:#?}");
        assert!(mails[0].subject.starts_with("DNA Board 1"), "{}", mails[0].subject);
        assert!(mails[0].body.contains("the game is drawn"), "{}", mails[0].body);
        assert_eq!(mails[0].body.matches("forfeited: no move in 5 days").count(), 1, "{}", mails[0].body);
    }
    // Nothing left to forfeit, nobody told twice.
    assert_eq!(later.run_time_limits().await.expect("time limits").forfeits, 0);
    assert!(g.deliver_with(&later).await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_jump_past_the_warning_day_still_warns_before_the_forfeit() {
    let mut g = Gateway::start().await;
    g.world.seed_game().await;
    g.deliver().await;
    let start = g.world.service.now();
    // The server was down from before the warning day until past the forfeit.
    let back = open(&g.world.db, Clock::Fixed(start + 30 * DAY_MS)).await;
    let report = back.run_time_limits().await.expect("time limits");
    assert_eq!((report.warnings, report.forfeits), (1, 0), "{report:?}");
    let got = g.deliver_with(&back).await;
    assert_eq!(got.len(), 1, "{got:#?}");
    assert_eq!(got[0].to, "ned@example.org");
    assert_eq!(got[0].subject, "DNA Board 1 ned: forfeit in 1 day", "{:#?}", got[0]);
    assert!(
        got[0].body.contains("If you do not move within 1 day, you forfeit the game."),
        "{}",
        got[0].body
    );
    // Not before the warning's day is out ...
    let soon = open(&g.world.db, Clock::Fixed(start + 31 * DAY_MS - 60_000)).await;
    assert_eq!(soon.run_time_limits().await.expect("time limits").forfeits, 0);
    // ... then the forfeit, and every player told.
    let then = open(&g.world.db, Clock::Fixed(start + 31 * DAY_MS)).await;
    assert_eq!(then.run_time_limits().await.expect("time limits").forfeits, 1);
    assert_eq!(g.deliver_with(&then).await.len(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_nag_after_a_vacation_counts_from_its_end_and_counts_only_what_it_queued() {
    let mut g = Gateway::start().await;
    g.world.seed_game().await;
    let set = g.world.run("vacation ned pw-ned 10").await;
    // The answer gives the end date, not only a count of days.
    let (_, until) = set.split_once("for 10 days, until ").expect("an end date");
    let (date, _) = until.split_once(" UTC: no reminders or forfeits until then.").expect("a time");
    assert!(date.split_whitespace().count() == 5 && date.contains(", "), "{set}");
    g.deliver().await;
    let start = g.world.service.now();
    // Two days after a ten-day vacation: no reminder (the nag is 7 days).
    let after = open(&g.world.db, Clock::Fixed(start + 12 * DAY_MS)).await;
    let report = after.run_time_limits().await.expect("time limits");
    assert_eq!((report.nags, report.warnings, report.forfeits), (0, 0, 0), "{report:?}");
    assert!(g.deliver_with(&after).await.is_empty());
    // Eight days after it: one reminder, counting from the vacation's end.
    let later = open(&g.world.db, Clock::Fixed(start + 18 * DAY_MS)).await;
    assert_eq!(later.run_time_limits().await.expect("time limits").nags, 1);
    assert_eq!(later.run_time_limits().await.expect("time limits").nags, 0, "queued once, counted once");
    let got = g.deliver_with(&later).await;
    assert_eq!(got.len(), 1, "{got:#?}");
    assert!(got[0].body.starts_with("Reminder: it has been 8 days since"), "{}", got[0].body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notify_off_stops_chat_mail_too() {
    let mut g = Gateway::start().await;
    g.world.seed_game().await;
    g.world.run("notify ted pw-ted off").await;
    g.deliver().await;
    g.world.run("dna chat 1 ned pw-ned Hello all").await;
    let got = g.deliver().await;
    assert_eq!(got.iter().map(|m| m.to.as_str()).collect::<Vec<_>>(), ["jed@example.org"], "{got:#?}");
}

/// Every game's end by forfeit, mailed: the reason stands once in each
/// mail (it used to be repeated on every line the resignation logged).
/// Real-Time Life has no turns to miss, so no forfeits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forfeit_gives_its_reason_once_in_every_games_end_mail() {
    const REASON: &str = "forfeited: no move in 2 days";
    // A first move of ned's in each game, so that only ted is idle.
    for (kind, first) in
        [("dna", None), ("rewrite", Some("goal aag")), ("intervalo", Some("17")), ("conway", Some("pass"))]
    {
        let mut g = Gateway::start().await;
        g.world.signup(&["ned", "ted"]).await;
        g.world.run(&format!("{kind} challenge ned ted -forfeit=2d")).await;
        let first = match first {
            Some(m) => m.to_string(),
            None => common::next_move(&g.world, 1).await.expect("a move").1,
        };
        g.world.run(&format!("{kind} move 1 ned pw-ned {first}")).await;
        g.deliver().await;
        let start = g.world.service.now();
        for day in [2, 3, 4] {
            let later = open(&g.world.db, Clock::Fixed(start + day * DAY_MS)).await;
            later.run_time_limits().await.expect("time limits");
            let got = g.deliver_with(&later).await;
            for mail in got.iter().filter(|m| m.subject.ends_with(" over")) {
                assert_eq!(mail.body.matches(REASON).count(), 1, "{kind}: {}", mail.body);
            }
        }
        let board = g.world.run(&format!("{kind} show 1")).await;
        assert!(board.contains(" over"), "{kind}: ted was forfeited: {board}");
        assert_eq!(board.matches(REASON).count(), 1, "{kind}: {board}");
    }
}
