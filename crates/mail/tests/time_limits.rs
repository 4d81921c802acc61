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

    // Three weeks and a day later (the default forfeit is 21 days), the scheduler runs.
    let later = open(&g.world.db, Clock::Fixed(g.world.service.now() + 22 * DAY_MS)).await;
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

    let later = open(&g.world.db, Clock::Fixed(g.world.service.now() + 6 * DAY_MS)).await;
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
    }
    // Nothing left to forfeit, nobody told twice.
    assert_eq!(later.run_time_limits().await.expect("time limits").forfeits, 0);
    assert!(g.deliver_with(&later).await.is_empty());
}
