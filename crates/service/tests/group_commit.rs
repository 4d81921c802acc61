//! Appends that arrive together share one SQLite transaction (group
//! commit): each is answered on its own, a version conflict fails only the
//! append that conflicts, and every acknowledged append is stored once.

use std::sync::Arc;

use tabula_model::{Event, EventAction, Options, SeatResult};
use tabula_service::store::{Clients, GameStatus, GameSummary, NewGame, SqliteStore, Store, StoreError};

fn new_game(n: usize) -> NewGame {
    let kind = tabula_games::find("intervalo").unwrap();
    NewGame {
        kind: "intervalo".into(),
        options: Options::parse::<&str>(kind.info(), &[]).unwrap(),
        players: vec![format!("a{n}"), format!("b{n}")],
        seed: n as u64,
        created: 1_700_000_000_000,
        status: GameStatus::Active,
        to_move: vec![format!("a{n}"), format!("b{n}")],
        accepted: vec![true, true],
        next_clock: None,
    }
}

fn summary(id: i64, version: i64, players: &[String]) -> GameSummary {
    GameSummary {
        id,
        kind: "intervalo".into(),
        players: players.to_vec(),
        status: GameStatus::Active,
        moves: version,
        to_move: players.to_vec(),
        version,
        updated: 1_700_000_000_000 + version,
        result: None,
        seat_results: vec![None, None],
        next_clock: None,
    }
}

fn choice(cell: usize) -> Event {
    Event { at: 1_700_000_000_000, seat: Some(0), action: EventAction::Move(cell.to_string()) }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_appends_commit_together_and_conflicts_stay_alone() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<Store> =
        Arc::new(SqliteStore::open(&dir.path().join("t.db"), Clients::Many).await.unwrap());
    let games = 40;
    let mut ids = Vec::new();
    for n in 0..games {
        ids.push((
            store.create_game(&new_game(n), Box::new(|_| Vec::new())).await.unwrap(),
            new_game(n).players,
        ));
    }
    // Eight rounds: in each, every game gets one good append and, for every
    // fourth game, three more against the same version that must conflict.
    for round in 0..8i64 {
        let mut tasks = Vec::new();
        for (n, (id, players)) in ids.iter().enumerate() {
            let racers = if n % 4 == 0 { 4 } else { 1 };
            for r in 0..racers {
                let store = store.clone();
                let id = *id;
                let s = summary(id, round + 1, players);
                tasks.push(tokio::spawn(async move {
                    let cell = (round as usize) * 10 + r + 1;
                    (id, store.append(round, &[choice(cell)], &s, &[]).await)
                }));
            }
        }
        let mut ok = std::collections::HashMap::new();
        for t in tasks {
            let (id, result) = t.await.unwrap();
            match result {
                Ok(()) => *ok.entry(id).or_insert(0) += 1,
                Err(StoreError::Conflict) => {}
                Err(e) => panic!("append on game {id} failed: {e}"),
            }
        }
        for (id, _) in &ids {
            assert_eq!(ok.get(id), Some(&1), "round {round}: game {id} took {:?} appends", ok.get(id));
        }
    }
    for (id, _) in &ids {
        let g = store.game(*id).await.unwrap().unwrap();
        assert_eq!(g.summary.version, 8);
        assert_eq!(g.events.len(), 8, "game {id}");
        // Each round's one acknowledged choice is there once, in order.
        for (round, e) in g.events.iter().enumerate() {
            let EventAction::Move(text) = &e.action else { panic!("not a move: {e:?}") };
            let cell: usize = text.parse().unwrap();
            assert_eq!((cell - 1) / 10, round, "game {id}: event {round} is {text}");
        }
        let head = store.game_head(*id).await.unwrap().unwrap();
        assert_eq!(head.summary, GameSummary { seat_results: vec![None, None], ..g.summary.clone() });
        assert_eq!(head.accepted, g.accepted);
    }
    assert!(store.game_head(9999).await.unwrap().is_none());
}

#[tokio::test]
async fn a_stale_append_fails_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db");
    let store = SqliteStore::open(&path, Clients::Many).await.unwrap();
    let id = store.create_game(&new_game(0), Box::new(|_| Vec::new())).await.unwrap();
    let players = new_game(0).players;
    // A stale version fails, and the next append at the right one succeeds.
    assert!(matches!(
        store.append(3, &[choice(1)], &summary(id, 4, &players), &[]).await,
        Err(StoreError::Conflict)
    ));
    store.append(0, &[choice(1)], &summary(id, 1, &players), &[]).await.unwrap();
    assert_eq!(store.game(id).await.unwrap().map(|g| g.summary.version), Some(1));
    // An append to a game that does not exist is a conflict too, and changes nothing.
    assert!(matches!(
        store.append(0, &[choice(1)], &summary(id + 1, 1, &players), &[]).await,
        Err(StoreError::Conflict)
    ));
    assert_eq!(store.game(id).await.unwrap().unwrap().events.len(), 1);
}

/// Appends to many games arriving together are written with one statement
/// per table: each stale one still fails alone, and each other one is
/// stored whole (summary, event, seats, mail).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_of_many_games_keeps_each_append_whole_or_absent() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<Store> =
        Arc::new(SqliteStore::open(&dir.path().join("t.db"), Clients::Many).await.unwrap());
    let mut ids = Vec::new();
    for n in 0..60 {
        ids.push((
            store.create_game(&new_game(n), Box::new(|_| Vec::new())).await.unwrap(),
            new_game(n).players,
        ));
    }
    let tasks: Vec<_> = ids
        .iter()
        .enumerate()
        .map(|(n, (id, players))| {
            let (store, id) = (store.clone(), *id);
            let mut s = summary(id, 1, players);
            if n % 3 == 0 {
                s.status = GameStatus::Finished;
                s.result = Some(format!("won by {}", players[0]));
                s.seat_results = vec![Some(SeatResult::Win), Some(SeatResult::Loss)];
            }
            let stale = n % 5 == 0;
            let mail = [tabula_service::store::SideEffect::Outbox(tabula_service::store::OutboxMessage {
                key: format!("game:{id}:v1"),
                recipient: format!("{}@example.org", players[1]),
                subject: format!("board {id}"),
                body: format!("move on \"board\" {id}\n\u{e9}"),
                game_id: Some(id),
            })];
            tokio::spawn(async move {
                let expected = if stale { 3 } else { 0 };
                (n, id, s.clone(), store.append(expected, &[choice(n + 1)], &s, &mail).await)
            })
        })
        .collect();
    let mut stored = 0;
    for t in tasks {
        let (n, id, s, result) = t.await.unwrap();
        let g = store.game(id).await.unwrap().unwrap();
        let head = store.game_head(id).await.unwrap().unwrap();
        if n % 5 == 0 {
            assert!(matches!(result, Err(StoreError::Conflict)), "game {id}: {result:?}");
            assert_eq!((g.summary.version, g.events.len()), (0, 0), "game {id}");
            assert_eq!(head.summary.seat_results, vec![None, None], "game {id}");
            continue;
        }
        result.unwrap();
        stored += 1;
        assert_eq!(g.events, [choice(n + 1)], "game {id}");
        assert_eq!(head.summary, s, "game {id}");
    }
    let outbox = store.mail().outbox(100).await.unwrap();
    assert_eq!(outbox.len(), stored);
    for row in &outbox {
        let id = row.message.game_id.unwrap();
        assert_eq!(row.message.body, format!("move on \"board\" {id}\n\u{e9}"));
        assert_eq!(row.created, 1_700_000_000_001);
    }
}
