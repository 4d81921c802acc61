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
    let (idle, _) = common::next_move(&g.world.service, 1).await.expect("a move");
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
