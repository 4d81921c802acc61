//! Every registered game, played with random legal moves through the
//! service into a real SQLite file, reloads and replays to identical
//! states and outputs: the record is the single source of truth.

use std::sync::Arc;

use rand::{Rng, SeedableRng};
use tabula_model::{Game, Record, Turn, Viewer};
use tabula_service::store::{Clients, SqliteStore, Store};
use tabula_service::{Caller, Clock, Service};

/// A service over the database at `path`, and the database itself (read
/// underneath the service to replay what it stored).
async fn service(path: &std::path::Path, now: i64) -> (Service, Arc<Store>) {
    let store: Arc<Store> = Arc::new(SqliteStore::open(path, Clients::Many).await.expect("store opens"));
    (Service::new(store.clone(), Clock::Fixed(now)), store)
}

async fn stored_game(store: &Arc<Store>, board: i64) -> Game {
    let g = store.game(board).await.unwrap().unwrap();
    let kind = tabula_games::find(&g.summary.kind).unwrap();
    let record = Record {
        kind: g.summary.kind.clone(),
        options: g.options,
        players: g.initial_players,
        seed: g.seed,
        created: g.created,
        events: g.events,
    };
    Game::replay(kind, record).expect("stored record replays")
}

async fn play_random_games(seed: u64) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let mut now = 1_700_000_000_000i64;
    let (svc, _) = service(&db, now).await;
    let players = ["ann", "bob", "cat"];
    for p in players {
        svc.execute(&format!("signup {p} pw-{p} {p}@example.org"), &Caller::Anonymous).await.unwrap();
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for kind in tabula_games::all() {
        let info = kind.info();
        let n = info.min_players.max(2).min(players.len());
        let names = players[..n].join(" ");
        let reply =
            svc.execute(&format!("{} challenge {names}", info.kind), &Caller::Anonymous).await.unwrap();
        let board = reply.game.as_ref().unwrap().id;
        for _ in 0..400 {
            now += 60_000;
            let (svc, store) = service(&db, now).await;
            let game = stored_game(&store, board).await;
            let seat = match game.to_move() {
                Turn::Over => break,
                Turn::Player(p) => p,
                Turn::Simultaneous(set) => set.nth(rng.random_range(0..set.len())).unwrap_or_default(),
                Turn::Clock => rng.random_range(0..game.players().len()),
            };
            let user = game.players()[seat].clone();
            let Some(mv) = game.state().random_move(seat, &mut rng) else { break };
            svc.execute(&format!("{} move {board} {user} pw-{user} {mv}", info.kind), &Caller::Anonymous)
                .await
                .unwrap_or_else(|e| panic!("{}: move {mv:?} by {user} refused: {e}", info.kind));
        }
        // A fresh service (no cache) shows exactly what a replay of the stored record shows.
        let (fresh, store) = service(&db, now).await;
        let shown = fresh.execute(&format!("{} show {board}", info.kind), &Caller::Anonymous).await.unwrap();
        let again = service(&db, now)
            .await
            .0
            .execute(&format!("{} show {board}", info.kind), &Caller::Anonymous)
            .await
            .unwrap();
        assert_eq!(shown.text, again.text);
        let replayed = stored_game(&store, board).await;
        for v in (0..n).map(Viewer::Player).chain([Viewer::Observer]) {
            assert_eq!(
                replayed.render_text(v, now, tabula_model::Lang::En),
                stored_game(&store, board).await.render_text(v, now, tabula_model::Lang::En),
                "{}: two replays differ",
                info.kind
            );
        }
        assert!(
            shown
                .text
                .contains(replayed.render_text(Viewer::Observer, now, tabula_model::Lang::En).trim_end()),
            "{}: show is the replayed board",
            info.kind
        );
        let json = serde_json::to_string(replayed.record()).unwrap();
        let back: Record = serde_json::from_str(&json).unwrap();
        assert_eq!(&back, replayed.record());
    }
}

#[tokio::test]
async fn random_games_replay_identically_after_storage() {
    for seed in 0..3 {
        play_random_games(seed).await;
    }
}
