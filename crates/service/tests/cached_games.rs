//! A game is replayed from the store only when the service does not hold
//! it: one it has just made, and one it goes on changing, never are. Alone
//! in its test binary, since the replays are counted for the process.

mod common;

use tabula_service::Caller;
use tabula_service::metrics;

#[tokio::test]
async fn a_new_game_and_its_moves_replay_nothing_from_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let svc = common::aino_and_ned(&dir).await;
    let replays = metrics::keep().replays.get();
    let reply = svc.execute("intervalo challenge aino ned", &Caller::Anonymous).await.unwrap();
    let board = reply.game.as_ref().unwrap().id;
    for cell in 1..=6 {
        let user = if cell % 2 == 1 { "aino" } else { "ned" };
        svc.execute(&format!("intervalo move {board} {user} pw-{user} {cell}"), &Caller::Anonymous)
            .await
            .unwrap_or_else(|e| panic!("cell {cell} by {user} refused: {e}"));
        svc.execute(&format!("intervalo show {board}"), &Caller::Anonymous).await.unwrap();
    }
    assert_eq!(metrics::keep().replays.get(), replays, "games replayed from the store");
}
