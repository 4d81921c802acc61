//! The storage suite, written once against `Store` and run on
//! every implementation: SQLite always, PostgreSQL when
//! `TABULA_TEST_POSTGRES` names a database (`postgres://user@host/db`; each
//! test gets a schema of its own). With `TABULA_REQUIRE_POSTGRES=1` a
//! missing database fails the suite instead of skipping PostgreSQL.

use std::collections::BTreeSet;
use std::sync::Arc;

use tabula_model::{Event, EventAction, Lang, Options, SeatResult};
use tabula_service::store::{
    self, Clients, GameFilter, GameStatus, GameSummary, NewGame, OutboxMessage, SideEffect, Store,
    StoreError, UserRow, Work,
};

const T0: i64 = 1_767_225_600_000;

/// A store to test, named for failure messages.
struct Backend {
    name: &'static str,
    store: Arc<Store>,
    /// Opens another handle on the same database (another process's view).
    reopen: String,
    _dir: Option<tempfile::TempDir>,
}

/// A fresh, empty PostgreSQL schema's URL, if a database is configured.
async fn postgres_url() -> Option<String> {
    let base = match std::env::var("TABULA_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => url,
        _ => {
            assert!(
                std::env::var("TABULA_REQUIRE_POSTGRES").as_deref() != Ok("1"),
                "TABULA_REQUIRE_POSTGRES=1 but TABULA_TEST_POSTGRES names no database"
            );
            return None;
        }
    };
    let schema = format!("t{:016x}", rand::random::<u64>());
    let admin = sqlx::PgPool::connect(&base).await.expect("the test database answers");
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
        .execute(&admin)
        .await
        .expect("creating a test schema");
    admin.close().await;
    let sep = if base.contains('?') { '&' } else { '?' };
    Some(format!("{base}{sep}options[search_path]={schema}"))
}

/// Every store this run tests, each empty.
async fn backends() -> Vec<Backend> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db").display().to_string();
    // A process that runs one command opens SQLite otherwise (the pool's
    // one connection and its group commit, not the server's own
    // connection): both are tested.
    let one_dir = tempfile::tempdir().unwrap();
    let one_path = one_dir.path().join("t.db").display().to_string();
    let mut out = vec![
        Backend {
            name: "sqlite",
            store: store::open(&path, Clients::Many).await.expect("SQLite opens"),
            reopen: path,
            _dir: Some(dir),
        },
        Backend {
            name: "sqlite, one client",
            store: store::open(&one_path, Clients::One).await.expect("SQLite opens for one client"),
            reopen: one_path,
            _dir: Some(one_dir),
        },
    ];
    if let Some(url) = postgres_url().await {
        out.push(Backend {
            name: "postgres",
            store: store::open(&url, Clients::Many).await.expect("PostgreSQL opens"),
            reopen: url,
            _dir: None,
        });
    }
    out
}

fn user(id: &str) -> UserRow {
    UserRow {
        id: id.into(),
        password_hash: format!("hash-{id}"),
        emails: vec![format!("{id}@example.org")],
        created: T0,
        notify: true,
        vacation_until: None,
        game_limit: None,
        challenge_policy: "open".into(),
        signed_off: false,
        language: None,
    }
}

fn new_game(players: &[&str], next_clock: Option<i64>) -> NewGame {
    let info = tabula_games::find("dna").unwrap().info();
    NewGame {
        kind: "dna".into(),
        options: Options::parse(info, &[] as &[&str]).unwrap(),
        players: players.iter().map(|p| p.to_string()).collect(),
        seed: u64::MAX - 7,
        created: T0,
        status: GameStatus::Active,
        to_move: vec![players[0].to_string()],
        accepted: vec![true; players.len()],
        next_clock,
    }
}

fn summary(id: i64, version: i64, to_move: &[&str]) -> GameSummary {
    GameSummary {
        id,
        kind: "dna".into(),
        players: vec!["ann".into(), "bob".into()],
        status: GameStatus::Active,
        moves: version,
        to_move: to_move.iter().map(|s| s.to_string()).collect(),
        version,
        updated: T0 + version,
        result: None,
        seat_results: vec![None, None],
        next_clock: None,
    }
}

fn mv(at: i64, seat: usize, text: &str) -> Event {
    Event { at, seat: Some(seat), action: EventAction::Move(text.into()) }
}

fn message(key: &str) -> OutboxMessage {
    OutboxMessage {
        key: key.into(),
        recipient: "ann@example.org".into(),
        subject: format!("about {key}"),
        body: "body".into(),
        game_id: None,
    }
}

#[tokio::test]
async fn users_are_created_once_updated_and_listed() {
    for b in backends().await {
        let s = &b.store;
        s.create_user(&user("ann"), &[], T0).await.unwrap();
        assert!(matches!(s.create_user(&user("ann"), &[], T0).await, Err(StoreError::Exists)), "{}", b.name);
        let mut ann = s.user("ann").await.unwrap().unwrap();
        assert_eq!(ann, user("ann"), "{}", b.name);
        ann.emails = vec!["a@x.org".into(), "b@x.org".into()];
        ann.vacation_until = Some(T0 + 5);
        ann.game_limit = Some(3);
        ann.notify = false;
        s.update_user(&ann, &[], T0).await.unwrap();
        assert_eq!(s.user("ann").await.unwrap().unwrap(), ann, "{}", b.name);
        assert!(
            matches!(s.update_user(&user("nobody"), &[], T0).await, Err(StoreError::NotFound)),
            "{}",
            b.name
        );
        assert!(s.user("nobody").await.unwrap().is_none());

        s.create_user(&user("bob"), &[], T0).await.unwrap();
        let mut cy = user("cy");
        cy.signed_off = true;
        s.create_user(&cy, &[], T0).await.unwrap();
        assert!(s.user("bob").await.unwrap().is_some_and(|u| !u.signed_off), "{}", b.name);
        assert!(s.user("cy").await.unwrap().is_some_and(|u| u.signed_off), "{}", b.name);
    }
}

#[tokio::test]
async fn accounts_are_found_by_a_registered_address_in_any_case() {
    for b in backends().await {
        let s = &b.store;
        let mut kim = user("kim");
        kim.emails = vec!["k.smith@example.org".into(), "Kim@Work.example".into()];
        s.create_user(&kim, &[], T0).await.unwrap();
        let mut lee = user("lee");
        lee.emails = vec!["kim@work.example".into()];
        s.create_user(&lee, &[], T0).await.unwrap();
        let mut cy = user("cy");
        cy.emails = vec!["k.smith@example.org".into()];
        cy.signed_off = true;
        s.create_user(&cy, &[], T0).await.unwrap();
        let ids =
            |rows: Vec<tabula_service::store::UserRow>| rows.into_iter().map(|u| u.id).collect::<Vec<_>>();
        assert_eq!(ids(s.users_at_address("K.Smith@example.ORG").await.unwrap()), ["kim"], "{}", b.name);
        assert_eq!(ids(s.users_at_address("kim@work.example").await.unwrap()), ["kim", "lee"], "{}", b.name);
        assert!(s.users_at_address("smith@example.org").await.unwrap().is_empty(), "{}", b.name);
        assert!(s.users_at_address("%").await.unwrap().is_empty(), "{}", b.name);
    }
}

#[tokio::test]
async fn appends_are_checked_against_the_version_with_their_side_effects() {
    for b in backends().await {
        let s = &b.store;
        let id = s.create_game(&new_game(&["ann", "bob"], None), Box::new(|_| Vec::new())).await.unwrap();
        let g = s.game(id).await.unwrap().unwrap();
        assert_eq!((g.summary.version, g.seed, g.events.len()), (0, u64::MAX - 7, 0), "{}", b.name);
        assert_eq!(g.initial_players, ["ann", "bob"]);

        s.queue_move(id, "bob", "AAG", T0, &[]).await.unwrap();
        s.set_pending(id, "ann", "CCT", T0, &[]).await.unwrap();
        let queued = s.queued_moves(id).await.unwrap();
        assert_eq!(queued.len(), 1);
        let effects = [
            SideEffect::Outbox(message("game:1:v1:bob")),
            SideEffect::DeleteQueued(queued[0].id),
            SideEffect::DeletePending { user: "ann".into() },
        ];
        s.append(0, &[mv(T0 + 1, 0, "CCT")], &summary(id, 1, &["bob"]), &effects).await.unwrap();
        assert!(s.queued_moves(id).await.unwrap().is_empty(), "{}", b.name);
        assert_eq!(s.pending(id, "ann").await.unwrap(), None, "{}", b.name);
        assert_eq!(s.mail().outbox(10).await.unwrap().len(), 1, "{}", b.name);

        // A stale version changes nothing: no event, no summary, no message.
        let stale = s
            .append(
                0,
                &[mv(T0 + 2, 1, "GGA")],
                &summary(id, 1, &["ann"]),
                &[SideEffect::Outbox(message("stale"))],
            )
            .await;
        assert!(matches!(stale, Err(StoreError::Conflict)), "{}: {stale:?}", b.name);
        assert_eq!(s.mail().outbox(10).await.unwrap().len(), 1, "{}", b.name);
        let g = s.game(id).await.unwrap().unwrap();
        assert_eq!(g.summary.version, 1);
        assert_eq!(g.summary.to_move, ["bob"], "{}", b.name);
        assert_eq!(g.events, [mv(T0 + 1, 0, "CCT")], "{}", b.name);

        // Several events at once, a clock event among them.
        let clock = Event { at: T0 + 3, seat: None, action: EventAction::Clock };
        s.append(1, &[mv(T0 + 2, 1, "GGA"), clock.clone()], &summary(id, 3, &["ann"]), &[]).await.unwrap();
        assert_eq!(s.game(id).await.unwrap().map(|g| g.summary.version), Some(3));
        assert_eq!(
            s.game(id).await.unwrap().unwrap().events[1..],
            [mv(T0 + 2, 1, "GGA"), clock],
            "{}",
            b.name
        );
        assert_eq!(s.game(id + 100).await.unwrap().map(|g| g.summary.version), None);
        assert!(s.game(id + 100).await.unwrap().is_none());

        // Finishing records the seat results.
        let mut done = summary(id, 4, &[]);
        done.status = GameStatus::Finished;
        done.result = Some("ann wins".into());
        done.seat_results = vec![Some(SeatResult::Win), Some(SeatResult::Loss)];
        s.append(3, &[mv(T0 + 4, 0, "resign")], &done, &[]).await.unwrap();
        let finished = s.finished(Some("dna")).await.unwrap();
        assert_eq!(finished.len(), 1, "{}", b.name);
        assert_eq!(finished[0].seat_results, done.seat_results, "{}", b.name);
        assert_eq!(finished[0].result.as_deref(), Some("ann wins"));
        assert!(s.finished(Some("rewrite")).await.unwrap().is_empty());
        assert_eq!(s.finished(None).await.unwrap().len(), 1);
    }
}

#[tokio::test]
async fn joins_add_players_after_the_initial_ones() {
    for b in backends().await {
        let s = &b.store;
        let id = s.create_game(&new_game(&["ann", "bob"], None), Box::new(|_| Vec::new())).await.unwrap();
        let join =
            Event { at: T0, seat: None, action: EventAction::Join { user: "cy".into(), text: "x".into() } };
        let mut sum = summary(id, 1, &["cy"]);
        sum.players.push("cy".into());
        sum.seat_results.push(None);
        s.append(0, &[join], &sum, &[]).await.unwrap();
        let g = s.game(id).await.unwrap().unwrap();
        assert_eq!(g.initial_players, ["ann", "bob"], "{}", b.name);
        assert_eq!(g.summary.players, ["ann", "bob", "cy"], "{}", b.name);
        assert_eq!(g.accepted, [true, true, true], "{}", b.name);
        let cy = GameFilter { player: Some("cy".into()), ..Default::default() };
        assert_eq!(s.games(&cy).await.unwrap().len(), 1, "{}", b.name);
    }
}

/// The ids of the games `s` lists for `f`, newest first, after checking
/// that counting them gives as many.
async fn listed(s: &Arc<Store>, f: &GameFilter, backend: &str) -> Vec<i64> {
    let ids: Vec<i64> = s.games(f).await.unwrap().into_iter().map(|g| g.id).collect();
    assert_eq!(s.count_games(f).await.unwrap(), ids.len(), "{backend}: count of {f:?}");
    ids
}

#[tokio::test]
async fn games_are_listed_by_filter_and_clocks_when_due() {
    for b in backends().await {
        let s = &b.store;
        let a = s
            .create_game(&new_game(&["ann", "bob"], Some(T0 + 100)), Box::new(|_| Vec::new()))
            .await
            .unwrap();
        let mut proposed = new_game(&["bob", "cy"], Some(T0 + 50));
        proposed.status = GameStatus::Proposed;
        proposed.accepted = vec![true, false];
        let c = s.create_game(&proposed, Box::new(|_| Vec::new())).await.unwrap();
        let all = GameFilter::default();
        assert_eq!(listed(s, &all, b.name).await, [c, a], "{}: newest first", b.name);
        let bob = GameFilter { player: Some("bob".into()), ..Default::default() };
        assert_eq!(listed(s, &bob, b.name).await, [c, a], "{}", b.name);
        let ann_next = GameFilter { to_move: Some("ann".into()), ..Default::default() };
        assert_eq!(listed(s, &ann_next, b.name).await, [a], "{}", b.name);
        let active =
            GameFilter { statuses: vec![GameStatus::Active], kind: Some("dna".into()), ..all.clone() };
        assert_eq!(listed(s, &active, b.name).await, [a], "{}", b.name);
        let both = GameFilter { statuses: vec![GameStatus::Active, GameStatus::Proposed], limit: 1, ..all };
        assert_eq!(listed(s, &both, b.name).await, [c], "{}", b.name);

        // Only active games' clocks run.
        assert!(s.due_clocks(T0 + 99, 10).await.unwrap().is_empty(), "{}", b.name);
        assert_eq!(s.due_clocks(T0 + 100, 10).await.unwrap(), [a], "{}", b.name);
        let g = s.game(c).await.unwrap().unwrap();
        assert_eq!(g.accepted, [true, false], "{}", b.name);
        s.set_acceptance(c, 1, true, GameStatus::Active, &[], T0).await.unwrap();
        let g = s.game(c).await.unwrap().unwrap();
        assert_eq!((g.accepted, g.summary.status), (vec![true, true], GameStatus::Active), "{}", b.name);
        assert_eq!(s.due_clocks(T0 + 100, 10).await.unwrap(), [c, a], "{}: earliest first", b.name);
        assert_eq!(s.due_clocks(T0 + 100, 1).await.unwrap(), [c], "{}", b.name);

        // A player's games combine with every other filter, newest first,
        // and a player who holds two seats of a game sees it once.
        let twice = s.create_game(&new_game(&["bob", "bob"], None), Box::new(|_| Vec::new())).await.unwrap();
        let bob = GameFilter { player: Some("bob".into()), ..Default::default() };
        assert_eq!(listed(s, &bob, b.name).await, [twice, c, a], "{}", b.name);
        let older = GameFilter { before: Some(twice), limit: 1, ..bob.clone() };
        assert_eq!(listed(s, &older, b.name).await, [c], "{}", b.name);
        let dna = GameFilter { kind: Some("dna".into()), statuses: vec![GameStatus::Active], ..bob.clone() };
        assert_eq!(listed(s, &dna, b.name).await, [twice, c, a], "{}", b.name);
        let other_kind = GameFilter { kind: Some("rewrite".into()), ..bob.clone() };
        assert!(listed(s, &other_kind, b.name).await.is_empty(), "{}", b.name);
        let ann_and_bob =
            GameFilter { player: Some("ann".into()), to_move: Some("ann".into()), ..bob.clone() };
        assert_eq!(listed(s, &ann_and_bob, b.name).await, [a], "{}", b.name);
        // The games waiting for a user are found from that user's seats:
        // once each, with the other filters, and for another player too.
        let bob_next = GameFilter { to_move: Some("bob".into()), ..Default::default() };
        assert_eq!(listed(s, &bob_next, b.name).await, [twice, c], "{}", b.name);
        let bob_next_active = GameFilter { statuses: vec![GameStatus::Active], limit: 1, ..bob_next };
        assert_eq!(listed(s, &bob_next_active, b.name).await, [twice], "{}", b.name);
        let cy_waits_for_bob = GameFilter { player: Some("cy".into()), to_move: Some("bob".into()), ..bob };
        assert_eq!(listed(s, &cy_waits_for_bob, b.name).await, [c], "{}", b.name);
    }
}

#[tokio::test]
async fn the_outbox_keeps_one_message_per_key_and_its_delivery_state() {
    for b in backends().await {
        let s = &b.store;
        s.mail().enqueue(&[message("a"), message("b"), message("a")], T0).await.unwrap();
        s.mail().enqueue(&[message("b")], T0 + 5).await.unwrap();
        let due = s.mail().claim_outbox(T0, T0, 10).await.unwrap();
        assert_eq!(due.iter().map(|r| r.message.key.as_str()).collect::<Vec<_>>(), ["a", "b"], "{}", b.name);
        assert_eq!(due[0].message, message("a"));
        assert!(s.mail().claim_outbox(T0 - 1, T0 - 1, 10).await.unwrap().is_empty());
        let (a, bb) = (due[0].id, due[1].id);
        s.mail().outbox_sent(a, T0 + 1).await.unwrap();
        s.mail().outbox_failed(bb, "refused for now", T0 + 60).await.unwrap();
        assert!(s.mail().claim_outbox(T0 + 59, T0 + 59, 10).await.unwrap().is_empty(), "{}", b.name);
        let retry = s.mail().claim_outbox(T0 + 60, T0 + 60, 10).await.unwrap();
        assert_eq!((retry.len(), retry[0].attempts), (1, 1), "{}", b.name);
        assert_eq!(retry[0].last_error.as_deref(), Some("refused for now"));
        s.mail().outbox_gave_up(bb, "no such user", T0 + 61).await.unwrap();
        assert!(
            s.mail().claim_outbox(i64::MAX - 1, i64::MAX - 1, 10).await.unwrap().is_empty(),
            "{}",
            b.name
        );
        let rows = s.mail().outbox(10).await.unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].gave_up_at, rows[0].attempts), (Some(T0 + 61), 2), "{}", b.name);
        assert_eq!(rows[1].sent_at, Some(T0 + 1), "{}", b.name);
        // A sent message stays sent.
        s.mail().outbox_gave_up(a, "late", T0 + 62).await.unwrap();
        assert_eq!(s.mail().outbox(10).await.unwrap()[1].gave_up_at, None, "{}", b.name);
    }
}

#[tokio::test]
async fn outbox_claims_are_leased_to_one_sender() {
    for b in backends().await {
        let s = &b.store;
        let msgs: Vec<OutboxMessage> = (0..10).map(|i| message(&format!("m{i}"))).collect();
        s.mail().enqueue(&msgs, T0).await.unwrap();
        let first = s.mail().claim_outbox(T0, T0 + 1000, 4).await.unwrap();
        let second = s.mail().claim_outbox(T0, T0 + 1000, 100).await.unwrap();
        assert_eq!((first.len(), second.len()), (4, 6), "{}", b.name);
        assert!(first.iter().all(|r| !second.iter().any(|o| o.id == r.id)), "{}: claimed twice", b.name);
        assert!(s.mail().claim_outbox(T0 + 999, T0 + 2000, 100).await.unwrap().is_empty(), "{}", b.name);
        // One sender records its outcome; the other dies: its rows come back after the lease.
        for r in &first {
            s.mail().outbox_sent(r.id, T0 + 10).await.unwrap();
        }
        let again = s.mail().claim_outbox(T0 + 1000, T0 + 2000, 100).await.unwrap();
        let ids = |v: &[tabula_service::store::OutboxRow]| v.iter().map(|r| r.id).collect::<Vec<_>>();
        assert_eq!(ids(&again), ids(&second), "{}", b.name);
    }
}

#[tokio::test]
async fn concurrent_outbox_claims_never_share_a_row() {
    for b in backends().await {
        let msgs: Vec<OutboxMessage> = (0..200).map(|i| message(&format!("m{i}"))).collect();
        b.store.mail().enqueue(&msgs, T0).await.unwrap();
        let mut tasks = Vec::new();
        for _ in 0..4 {
            let s = store::open(&b.reopen, Clients::Many).await.unwrap();
            tasks.push(tokio::spawn(async move {
                let mut mine = Vec::new();
                loop {
                    let got = s.mail().claim_outbox(T0, T0 + 60_000, 7).await.unwrap();
                    if got.is_empty() {
                        return mine;
                    }
                    mine.extend(got.into_iter().map(|r| r.id));
                }
            }));
        }
        let mut all = Vec::new();
        for t in tasks {
            all.extend(t.await.unwrap());
        }
        let distinct: BTreeSet<i64> = all.iter().copied().collect();
        assert_eq!((all.len(), distinct.len()), (200, 200), "{}", b.name);
    }
}

#[tokio::test]
async fn incoming_mail_is_claimed_once_unless_abandoned() {
    for b in backends().await {
        let s = &b.store;
        assert!(s.mail().claim_incoming("<m1@x>", T0, T0 - 100).await.unwrap(), "{}", b.name);
        assert!(
            !s.mail().claim_incoming("<m1@x>", T0 + 1, T0 - 100).await.unwrap(),
            "{}: being handled",
            b.name
        );
        assert!(s.mail().claim_incoming("<m1@x>", T0 + 500, T0 + 1).await.unwrap(), "{}: abandoned", b.name);
        s.mail().finish_incoming("<m1@x>", T0 + 501).await.unwrap();
        assert!(!s.mail().claim_incoming("<m1@x>", T0 + 9000, T0 + 8000).await.unwrap(), "{}: done", b.name);
    }
}

#[tokio::test]
async fn an_answer_queues_its_reply_and_closes_the_message_together() {
    for b in backends().await {
        let s = &b.store;
        assert!(s.mail().claim_incoming("<m2@x>", T0, T0 - 100).await.unwrap(), "{}", b.name);
        s.mail().answer_incoming("<m2@x>", &message("reply:<m2@x>"), T0 + 1).await.unwrap();
        let queued = s.mail().outbox(10).await.unwrap();
        assert_eq!(
            queued.iter().map(|r| r.message.key.as_str()).collect::<Vec<_>>(),
            ["reply:<m2@x>"],
            "{}",
            b.name
        );
        // Handled: not even an abandoned claim's age lets it run again.
        assert!(!s.mail().claim_incoming("<m2@x>", T0 + 9000, T0 + 8000).await.unwrap(), "{}: done", b.name);
        // A second answer (a redelivery racing the first) queues nothing more.
        s.mail().answer_incoming("<m2@x>", &message("reply:<m2@x>"), T0 + 2).await.unwrap();
        assert_eq!(s.mail().outbox(10).await.unwrap().len(), 1, "{}", b.name);
    }
}

#[tokio::test]
async fn subscriptions_chats_and_pending_moves() {
    for b in backends().await {
        let s = &b.store;
        let id = s.create_game(&new_game(&["ann", "bob"], None), Box::new(|_| Vec::new())).await.unwrap();
        s.subscribe(id, "cy", true, &[], T0).await.unwrap();
        s.subscribe(id, "cy", true, &[], T0).await.unwrap();
        s.subscribe(id, "abe", true, &[], T0).await.unwrap();
        assert_eq!(s.subscribers(id).await.unwrap(), ["abe", "cy"], "{}", b.name);
        s.subscribe(id, "cy", false, &[], T0).await.unwrap();
        assert_eq!(s.subscribers(id).await.unwrap(), ["abe"], "{}", b.name);

        s.chat(id, "ann", T0, "hello", &[SideEffect::Outbox(message("chat:1"))]).await.unwrap();
        s.chat(id, "bob", T0 + 1, "hi", &[]).await.unwrap();
        let chats = s.chats(id).await.unwrap();
        assert_eq!(chats.iter().map(|c| c.text.as_str()).collect::<Vec<_>>(), ["hello", "hi"], "{}", b.name);
        assert_eq!(s.mail().outbox(10).await.unwrap().len(), 1, "{}", b.name);

        s.set_pending(id, "ann", "AAG", T0, &[]).await.unwrap();
        s.set_pending(id, "ann", "CCT", T0 + 1, &[]).await.unwrap();
        assert_eq!(s.pending(id, "ann").await.unwrap().as_deref(), Some("CCT"), "{}", b.name);
        s.queue_move(id, "bob", "one", T0, &[]).await.unwrap();
        s.queue_move(id, "bob", "two", T0, &[]).await.unwrap();
        let q = s.queued_moves(id).await.unwrap();
        assert_eq!(q.iter().map(|m| m.text.as_str()).collect::<Vec<_>>(), ["one", "two"], "{}", b.name);
    }
}

#[tokio::test]
async fn rate_limits_count_across_handles_and_start_again_when_quiet() {
    for b in backends().await {
        let s = &b.store;
        // Another handle on the same database: another server.
        let other = store::open(&b.reopen, Clients::Many).await.unwrap();
        assert_eq!(s.limit("login:ann:ip:10.0.0.1").await.unwrap(), None, "{}", b.name);
        let one = s.count_limit("login:ann:ip:10.0.0.1", T0, T0 - 1000).await.unwrap();
        assert_eq!((one.hits, one.last_at), (1, T0), "{}", b.name);
        let two = other.count_limit("login:ann:ip:10.0.0.1", T0 + 1, T0 - 1000).await.unwrap();
        assert_eq!(two.hits, 2, "the other handle counts on: {}", b.name);
        assert_eq!(s.limit("login:ann:ip:10.0.0.1").await.unwrap().map(|c| c.hits), Some(2), "{}", b.name);
        assert_eq!(s.limit("login:ann:ip:10.0.0.2").await.unwrap(), None, "names are apart: {}", b.name);
        // Quiet since before `forget_before`: counting starts again.
        let again = s.count_limit("login:ann:ip:10.0.0.1", T0 + 5000, T0 + 2).await.unwrap();
        assert_eq!(again.hits, 1, "{}", b.name);
        s.clear_limit("login:ann:ip:10.0.0.1").await.unwrap();
        assert_eq!(s.limit("login:ann:ip:10.0.0.1").await.unwrap(), None, "{}", b.name);
        s.count_limit("old", T0, T0).await.unwrap();
        s.count_limit("new", T0 + 10, T0).await.unwrap();
        assert_eq!(s.prune_limits(T0 + 5).await.unwrap(), 1, "{}", b.name);
        assert!(s.limit("old").await.unwrap().is_none() && s.limit("new").await.unwrap().is_some());
    }
}

#[tokio::test]
async fn tokens_and_sessions() {
    for b in backends().await {
        let s = &b.store;
        let t1 = s.create_token("ann", "laptop", "h1", T0).await.unwrap();
        let t2 = s.create_token("ann", "bot", "h2", T0).await.unwrap();
        let owner = |(user, _): (String, _)| user;
        assert_eq!(
            s.token_account("h1", T0 + 5).await.unwrap().map(owner).as_deref(),
            Some("ann"),
            "{}",
            b.name
        );
        assert!(s.token_account("nope", T0).await.unwrap().is_none());
        assert!(!s.revoke_token("bob", t1, T0).await.unwrap(), "{}: not bob's", b.name);
        assert!(s.revoke_token("ann", t1, T0 + 6).await.unwrap());
        assert!(!s.revoke_token("ann", t1, T0 + 7).await.unwrap(), "{}: revoked already", b.name);
        assert!(s.token_account("h1", T0 + 8).await.unwrap().is_none(), "{}", b.name);
        let tokens = s.tokens("ann").await.unwrap();
        assert_eq!(tokens.iter().map(|t| t.id).collect::<Vec<_>>(), [t1, t2]);
        assert_eq!((tokens[0].last_used, tokens[0].revoked), (Some(T0 + 5), Some(T0 + 6)), "{}", b.name);

        s.create_session("sh", "ann", "csrf", T0, T0 + 100).await.unwrap();
        let sess = s.session("sh", T0 + 99).await.unwrap().unwrap();
        assert_eq!((sess.user.as_str(), sess.csrf.as_str(), sess.expires), ("ann", "csrf", T0 + 100));
        assert!(s.session("sh", T0 + 100).await.unwrap().is_none(), "{}: expired", b.name);
        s.delete_session("sh").await.unwrap();
        assert!(s.session("sh", T0).await.unwrap().is_none(), "{}", b.name);

        // Ending ann's logins, with a change of her account, ends every token and
        // session of hers, no one else's.
        s.create_session("s1", "ann", "c", T0, T0 + 100).await.unwrap();
        s.create_session("s2", "ann", "c", T0, T0 + 100).await.unwrap();
        s.create_session("s3", "bob", "c", T0, T0 + 100).await.unwrap();
        let t3 = s.create_token("bob", "bot", "h3", T0).await.unwrap();
        s.create_user(&user("ann"), &[], T0).await.unwrap();
        s.update_user(&user("ann"), &[SideEffect::EndLogins { user: "ann".into() }], T0 + 9).await.unwrap();
        assert!(s.token_account("h2", T0 + 10).await.unwrap().is_none(), "{}", b.name);
        assert_eq!(s.tokens("ann").await.unwrap()[1].revoked, Some(T0 + 9), "{}", b.name);
        assert!(s.session("s1", T0).await.unwrap().is_none() && s.session("s2", T0).await.unwrap().is_none());
        assert!(s.session("s3", T0).await.unwrap().is_some(), "{}: bob's session stays", b.name);
        assert_eq!(
            s.token_account("h3", T0 + 10).await.unwrap().map(owner).as_deref(),
            Some("bob"),
            "{}",
            b.name
        );
        assert_eq!(s.tokens("bob").await.unwrap()[0].id, t3);
    }
}

#[tokio::test]
async fn a_token_comes_with_its_owners_account() {
    for b in backends().await {
        let s = &b.store;
        s.create_user(&user("ann"), &[], T0).await.unwrap();
        let t = s.create_token("ann", "laptop", "h1", T0).await.unwrap();
        s.create_token("zed", "orphan", "h2", T0).await.unwrap();
        assert_eq!(
            s.token_account("h1", T0 + 5).await.unwrap(),
            Some(("ann".to_string(), Some(user("ann")))),
            "{}",
            b.name
        );
        assert_eq!(s.tokens("ann").await.unwrap()[0].last_used, Some(T0 + 5), "{}: use noted", b.name);
        assert_eq!(s.token_account("h2", T0).await.unwrap(), Some(("zed".to_string(), None)), "{}", b.name);
        assert_eq!(s.token_account("nope", T0).await.unwrap(), None, "{}", b.name);
        s.revoke_token("ann", t, T0 + 6).await.unwrap();
        assert_eq!(s.token_account("h1", T0 + 7).await.unwrap(), None, "{}: revoked", b.name);
    }
}

#[tokio::test]
async fn a_game_head_says_where_each_readers_mail_goes() {
    for b in backends().await {
        let s = &b.store;
        let quiet = UserRow { notify: false, ..user("bob") };
        let gone = UserRow { signed_off: true, ..user("cy") };
        let mute = UserRow { emails: Vec::new(), ..user("dee") };
        for u in [user("ann"), quiet, gone, mute] {
            s.create_user(&u, &[], T0).await.unwrap();
        }
        // A language chosen later is read back, and goes with the reader's mail.
        let finnish = UserRow { language: Some("fi".into()), ..user("ann") };
        s.update_user(&finnish, &[], T0).await.unwrap();
        assert_eq!(s.user("ann").await.unwrap(), Some(finnish), "{}", b.name);
        let id = s.create_game(&new_game(&["ann", "bob"], None), Box::new(|_| Vec::new())).await.unwrap();
        for sub in ["eve", "dee", "ann", "cy"] {
            s.subscribe(id, sub, true, &[], T0).await.unwrap();
        }
        let head = s.game_head(id).await.unwrap().unwrap();
        assert_eq!(head.summary.players, ["ann", "bob"], "{}", b.name);
        assert_eq!(head.accepted, [true, true], "{}", b.name);
        assert_eq!(head.summary.seat_results, [None, None], "{}", b.name);
        assert_eq!(head.subscribers, ["ann", "cy", "dee", "eve"], "{}", b.name);
        let recipients: Vec<(&str, Option<&str>)> =
            head.recipients.iter().map(|r| (r.user.as_str(), r.address.as_deref())).collect();
        assert_eq!(
            recipients,
            [("ann", Some("ann@example.org")), ("bob", None), ("cy", None), ("dee", None), ("eve", None)],
            "{}",
            b.name
        );
        let langs: Vec<Lang> = head.recipients.iter().map(|r| r.lang).collect();
        assert_eq!(langs, [Lang::Fi, Lang::En, Lang::En, Lang::En, Lang::En], "{}", b.name);
        let lone = s.create_game(&new_game(&["bot:x", "ann"], None), Box::new(|_| Vec::new())).await.unwrap();
        let head = s.game_head(lone).await.unwrap().unwrap();
        assert!(head.subscribers.is_empty(), "{}", b.name);
        assert_eq!(head.recipients.len(), 2, "{}", b.name);
        assert_eq!(head.recipients[0].address, None, "{}: a bot gets no mail", b.name);
        assert!(s.game_head(lone + 100).await.unwrap().is_none(), "{}", b.name);
    }
}

#[tokio::test]
async fn tournaments_resume_by_fingerprint() {
    for b in backends().await {
        let s = &b.store;
        let id = s.open_tournament("{\"f\":1}", "dna", "{}", T0).await.unwrap();
        assert_eq!(s.open_tournament("{\"f\":1}", "dna", "{}", T0 + 1).await.unwrap(), id, "{}", b.name);
        let other = s.open_tournament("{\"f\":2}", "dna", "{}", T0).await.unwrap();
        assert_ne!(other, id);
        s.save_tournament_game(id, 1, "r1").await.unwrap();
        s.save_tournament_game(id, 0, "r0").await.unwrap();
        s.save_tournament_game(id, 1, "r1b").await.unwrap();
        assert_eq!(s.tournament_games(id).await.unwrap(), ["r0", "r1b"], "{}", b.name);
        s.finish_tournament(id, "report", T0 + 9).await.unwrap();
        let t = s.tournament(id).await.unwrap().unwrap();
        assert_eq!((t.games_done, t.finished, t.report.as_deref()), (2, Some(T0 + 9), Some("report")));
        assert_eq!(s.tournaments(10).await.unwrap().iter().map(|t| t.id).collect::<Vec<_>>(), [other, id]);
        assert!(s.tournament(other + 1).await.unwrap().is_none(), "{}", b.name);
    }
}

/// Many writers on one game through separate handles: every append that
/// succeeded is in the record exactly once, in order, and none is lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_appends_never_lose_or_double_an_acknowledged_event() {
    for b in backends().await {
        let id =
            b.store.create_game(&new_game(&["ann", "bob"], None), Box::new(|_| Vec::new())).await.unwrap();
        let mut tasks = Vec::new();
        for writer in 0..6usize {
            let s = store::open(&b.reopen, Clients::Many).await.unwrap();
            tasks.push(tokio::spawn(async move {
                let mut acknowledged = Vec::new();
                for n in 0..15 {
                    let text = format!("w{writer}-{n}");
                    loop {
                        let version = s.game(id).await.unwrap().map(|g| g.summary.version).unwrap();
                        let event = mv(T0 + version, writer % 2, &text);
                        let effects = [SideEffect::Outbox(message(&format!("{id}:v{}", version + 1)))];
                        match s.append(version, &[event], &summary(id, version + 1, &[]), &effects).await {
                            Ok(()) => {
                                acknowledged.push(text);
                                break;
                            }
                            Err(StoreError::Conflict) => continue,
                            // SQLite may report a busy database under contention; retrying is what callers do.
                            Err(StoreError::Database(_)) => continue,
                            Err(e) => panic!("append failed: {e}"),
                        }
                    }
                }
                acknowledged
            }));
        }
        let mut acknowledged = Vec::new();
        for t in tasks {
            acknowledged.extend(t.await.unwrap());
        }
        let g = b.store.game(id).await.unwrap().unwrap();
        assert_eq!(g.summary.version, 90, "{}", b.name);
        let stored: Vec<String> = g
            .events
            .iter()
            .map(|e| match &e.action {
                EventAction::Move(t) => t.clone(),
                other => panic!("unexpected {other:?}"),
            })
            .collect();
        let mut sorted_stored = stored.clone();
        sorted_stored.sort();
        acknowledged.sort();
        assert_eq!(sorted_stored, acknowledged, "{}: stored events are the acknowledged ones", b.name);
        // Each event was validated against the version it was appended at.
        for (seq, e) in g.events.iter().enumerate() {
            assert_eq!(e.at, T0 + seq as i64, "{}", b.name);
        }
        assert_eq!(
            b.store.mail().outbox(1000).await.unwrap().len(),
            90,
            "{}: one message per append",
            b.name
        );
    }
}

#[tokio::test]
async fn claims_exclude_other_processes_only_on_a_shared_store() {
    for b in backends().await {
        let other = store::open(&b.reopen, Clients::Many).await.unwrap();
        let held = b.store.claim(Work::Clock(7)).await.unwrap().expect("free work is claimed");
        let second = other.claim(Work::Clock(7)).await.unwrap();
        let different = other.claim(Work::TimeLimits(7)).await.unwrap();
        assert!(different.is_some(), "{}: other work is free", b.name);
        if b.name == "postgres" {
            assert!(second.is_none(), "postgres: claimed work is not claimed again");
        } else {
            assert!(second.is_some(), "{}: one process, no exclusion needed", b.name);
        }
        held.release().await;
        let after = other.claim(Work::Clock(7)).await.unwrap();
        assert!(after.is_some(), "{}: released work is free again", b.name);
        after.unwrap().release().await;
        // A claim dropped without release (a cancelled task) still frees the work.
        drop(other.claim(Work::Clock(8)).await.unwrap());
        let mut freed = false;
        for _ in 0..50 {
            if let Some(c) = b.store.claim(Work::Clock(8)).await.unwrap() {
                c.release().await;
                freed = true;
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        assert!(freed, "{}: a dropped claim frees its work", b.name);
    }
}

#[tokio::test]
async fn other_processes_hear_of_committed_changes() {
    for b in backends().await {
        let other = store::open(&b.reopen, Clients::Many).await.unwrap();
        let Some(mut heard) = other.changes().await.unwrap() else {
            assert!(b.name.starts_with("sqlite"), "only the single-process store has no change feed");
            continue;
        };
        let mut own = b.store.changes().await.unwrap().expect("postgres has a change feed");
        let id =
            b.store.create_game(&new_game(&["ann", "bob"], None), Box::new(|_| Vec::new())).await.unwrap();
        b.store.append(0, &[mv(T0, 0, "CCT")], &summary(id, 1, &["bob"]), &[]).await.unwrap();
        // A conflicting append is rolled back and announces nothing.
        assert!(b.store.append(0, &[mv(T0, 0, "x")], &summary(id, 1, &[]), &[]).await.is_err());
        other.append(1, &[mv(T0, 1, "GGA")], &summary(id, 2, &["ann"]), &[]).await.unwrap();
        let a = next(&mut heard).await;
        let c = next(&mut heard).await;
        assert_eq!((a.board, a.version, c.board, c.version), (id, 0, id, 1));
        // Each process hears the other's change, never its own.
        let mine = next(&mut own).await;
        assert_eq!((mine.board, mine.version), (id, 2));
        assert!(heard.try_recv().is_err(), "the listener heard its own change");
    }
}

async fn next(rx: &mut tokio::sync::mpsc::Receiver<store::GameChange>) -> store::GameChange {
    tokio::time::timeout(std::time::Duration::from_secs(10), rx.recv())
        .await
        .expect("heard in time")
        .expect("feed open")
}

#[tokio::test]
async fn pruning_deletes_only_old_mail_that_is_done() {
    for b in backends().await {
        let s = &b.store;
        let msgs: Vec<OutboxMessage> =
            ["sent", "sent-late", "given-up", "waiting", "retrying"].iter().map(|k| message(k)).collect();
        s.mail().enqueue(&msgs, T0).await.unwrap();
        let id = |rows: &[tabula_service::store::OutboxRow], key: &str| {
            rows.iter().find(|r| r.message.key == key).map(|r| r.id).unwrap()
        };
        let rows = s.mail().outbox(10).await.unwrap();
        s.mail().outbox_sent(id(&rows, "sent"), T0 + 1).await.unwrap();
        s.mail().outbox_sent(id(&rows, "sent-late"), T0 + 100).await.unwrap();
        s.mail().outbox_gave_up(id(&rows, "given-up"), "no such user", T0 + 2).await.unwrap();
        s.mail().outbox_failed(id(&rows, "retrying"), "try later", T0 + 3).await.unwrap();
        assert_eq!(s.mail().prune_outbox(T0 + 50).await.unwrap(), 2, "{}", b.name);
        let mut left: Vec<String> =
            s.mail().outbox(10).await.unwrap().into_iter().map(|r| r.message.key).collect();
        left.sort();
        assert_eq!(left, ["retrying", "sent-late", "waiting"], "{}", b.name);
        // Mail not yet out is kept however old it is.
        assert_eq!(s.mail().prune_outbox(i64::MAX).await.unwrap(), 1, "{}", b.name);
        assert_eq!(s.mail().outbox(10).await.unwrap().len(), 2, "{}", b.name);
    }
}

/// An append that fails part way through (here a trigger refuses its mail
/// after its event was written) fails alone: the appends committed with it
/// in one batch are all stored, and nothing of the failed one is.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_append_failing_part_way_fails_alone_in_its_batch() {
    for one_client in [false, true] {
        append_failing_part_way(one_client).await;
    }
}

async fn append_failing_part_way(one_client: bool) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db");
    let db = path.display().to_string();
    let s: Arc<Store> =
        if one_client { store::open(&db, Clients::One).await } else { store::open(&db, Clients::Many).await }
            .unwrap();
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch(
            "CREATE TRIGGER refuse_poison BEFORE INSERT ON outbox WHEN NEW.key = 'poison' \
             BEGIN SELECT RAISE(ABORT, 'poisoned'); END",
        )
        .unwrap();
    let mut ids = Vec::new();
    for _ in 0..24 {
        ids.push(s.create_game(&new_game(&["ann", "bob"], None), Box::new(|_| Vec::new())).await.unwrap());
    }
    let tasks: Vec<_> = ids
        .iter()
        .enumerate()
        .map(|(n, &id)| {
            let s = s.clone();
            tokio::spawn(async move {
                let key = if n == 7 { "poison".to_string() } else { format!("m{n}") };
                let effects = [SideEffect::Outbox(message(&key))];
                s.append(0, &[mv(T0, 0, &format!("move {n}"))], &summary(id, 1, &[]), &effects).await
            })
        })
        .collect();
    for (n, t) in tasks.into_iter().enumerate() {
        let result = t.await.unwrap();
        let game = s.game(ids[n]).await.unwrap().unwrap();
        if n == 7 {
            assert!(result.is_err(), "the poisoned append fails");
            assert_eq!((game.summary.version, game.events.len()), (0, 0), "nothing of it is stored");
        } else {
            result.unwrap();
            assert_eq!((game.summary.version, game.events.len()), (1, 1), "append {n} is stored");
        }
    }
    assert_eq!(s.mail().outbox(100).await.unwrap().len(), 23);
}

/// The server's own SQLite connection keeps its pages cached between
/// reads; what another process commits must still be seen at once: a move
/// in the game's head, a revoked token refused.
#[tokio::test]
async fn reads_see_what_another_process_committed() {
    for b in backends().await {
        let other = store::open(&b.reopen, Clients::One).await.unwrap();
        let id =
            b.store.create_game(&new_game(&["ann", "bob"], None), Box::new(|_| Vec::new())).await.unwrap();
        assert_eq!(b.store.game_head(id).await.unwrap().unwrap().summary.version, 0, "{}", b.name);
        other.append(0, &[mv(T0, 0, "CCT")], &summary(id, 1, &["bob"]), &[]).await.unwrap();
        let head = b.store.game_head(id).await.unwrap().unwrap();
        assert_eq!(
            (head.summary.version, head.summary.to_move.clone()),
            (1, vec!["bob".to_string()]),
            "{}",
            b.name
        );

        b.store.create_user(&user("ann"), &[], T0).await.unwrap();
        let token = b.store.create_token("ann", "laptop", "hash-of-secret", T0).await.unwrap();
        let (owner, account) =
            b.store.token_account("hash-of-secret", T0).await.unwrap().expect("a live token");
        assert_eq!((owner.as_str(), account.map(|a| a.id)), ("ann", Some("ann".to_string())), "{}", b.name);
        assert!(other.revoke_token("ann", token, T0 + 1).await.unwrap(), "{}", b.name);
        assert!(
            b.store.token_account("hash-of-secret", T0 + 2).await.unwrap().is_none(),
            "{}: revoked elsewhere",
            b.name
        );
    }
}

/// A game read while another connection appends to it is one snapshot:
/// its summary, seats and events agree (a read of each in turn once found
/// a game with one event more than its version).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_game_read_during_appends_is_one_snapshot() {
    for b in backends().await {
        let id =
            b.store.create_game(&new_game(&["ann", "bob"], None), Box::new(|_| Vec::new())).await.unwrap();
        let writer = {
            let s = b.store.clone();
            tokio::spawn(async move {
                for v in 0..300i64 {
                    let to_move = if v % 2 == 0 { "bob" } else { "ann" };
                    let event = mv(T0 + v, (v % 2) as usize, &format!("m{v}"));
                    s.append(v, &[event], &summary(id, v + 1, &[to_move]), &[]).await.unwrap();
                }
            })
        };
        let mut reads = 0;
        while !writer.is_finished() {
            let g = b.store.game(id).await.unwrap_or_else(|e| panic!("{}: {e}", b.name)).unwrap();
            assert_eq!(g.events.len() as i64, g.summary.version, "{}", b.name);
            reads += 1;
        }
        writer.await.unwrap();
        assert!(reads > 0, "{}", b.name);
    }
}

/// A SQLite database made while the store ran on sqlx (its migrations
/// recorded in sqlx's table, not in `user_version`) opens as it is, keeps
/// its rows and takes new ones.
#[tokio::test]
async fn a_sqlite_database_migrated_by_sqlx_opens_and_keeps_working() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    let old = rusqlite::Connection::open(&path).unwrap();
    old.execute_batch(
        "PRAGMA journal_mode = WAL; CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, \
         description TEXT NOT NULL, installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, \
         success BOOLEAN NOT NULL, checksum BLOB NOT NULL, execution_time BIGINT NOT NULL)",
    )
    .unwrap();
    let names = ["initial", "tokens_sessions", "tournaments", "mail_delivery", "outbox_done"];
    for (version, name) in (1i64..).zip(names) {
        let file = format!("{}/migrations/sqlite/{version:04}_{name}.sql", env!("CARGO_MANIFEST_DIR"));
        old.execute_batch(&std::fs::read_to_string(file).unwrap()).unwrap();
        let record = "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
                      VALUES (?1, ?2, TRUE, x'00', 0)";
        old.execute(record, (version, name)).unwrap();
    }
    old.execute(
        "INSERT INTO users (id, password_hash, emails, created) VALUES ('ann', 'h', '[\"a@x.org\"]', 1)",
        [],
    )
    .unwrap();
    drop(old);

    let s = store::open(&path.display().to_string(), Clients::Many).await.expect("the old database opens");
    assert_eq!(s.user("ann").await.unwrap().expect("ann is kept").emails, ["a@x.org"]);
    s.create_user(&user("bob"), &[], T0).await.unwrap();
    let id = s.create_game(&new_game(&["ann", "bob"], None), Box::new(|_| Vec::new())).await.unwrap();
    s.append(0, &[mv(T0, 0, "CCT")], &summary(id, 1, &["bob"]), &[]).await.unwrap();
    assert_eq!(s.game(id).await.unwrap().unwrap().events.len(), 1);
    let version: i64 = rusqlite::Connection::open(&path)
        .unwrap()
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    // The carried-over record, and the migrations made since on opening.
    let all = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations/sqlite")).unwrap().count();
    assert_eq!(version, all as i64, "the migrations are recorded where the store now looks");
}

#[tokio::test]
async fn a_reply_committed_with_a_move_is_held_until_the_whole_reply_replaces_it() {
    for b in backends().await {
        let s = &b.store;
        let id = s.create_game(&new_game(&["ann", "bob"], None), Box::new(|_| Vec::new())).await.unwrap();
        assert!(s.mail().claim_incoming("<m3@x>", T0, T0 - 100).await.unwrap(), "{}", b.name);
        let mut interim = message("reply:<m3@x>");
        interim.body = "the move alone".into();
        let effects = [
            SideEffect::Held { message: interim.clone(), due: T0 + 60_000 },
            SideEffect::Handled("<m3@x>".into()),
        ];
        s.append(0, &[mv(T0 + 1, 0, "CCT")], &summary(id, 1, &["bob"]), &effects).await.unwrap();
        // Handled with the move: delivered again, the message is not run again.
        assert!(!s.mail().claim_incoming("<m3@x>", T0 + 9000, T0 + 8000).await.unwrap(), "{}", b.name);
        // Held: no sender takes it before its time.
        assert!(s.mail().claim_outbox(T0 + 10, T0 + 20_000, 10).await.unwrap().is_empty(), "{}", b.name);

        // The whole reply replaces it and is due at once.
        let mut whole = message("reply:<m3@x>");
        whole.body = "the move and the rest".into();
        s.mail().answer_incoming("<m3@x>", &whole, T0 + 20).await.unwrap();
        let due = s.mail().claim_outbox(T0 + 30, T0 + 20_000, 10).await.unwrap();
        assert_eq!(due.len(), 1, "{}", b.name);
        assert_eq!(due[0].message.body, "the move and the rest", "{}", b.name);
        s.mail().outbox_sent(due[0].id, T0 + 40).await.unwrap();

        // Once sent, nothing replaces it or sends it again.
        s.mail().answer_incoming("<m3@x>", &interim, T0 + 50).await.unwrap();
        let rows = s.mail().outbox(10).await.unwrap();
        assert_eq!(rows.len(), 1, "{}", b.name);
        assert_eq!(rows[0].message.body, "the move and the rest", "{}", b.name);
        assert!(
            s.mail().claim_outbox(T0 + 120_000, T0 + 140_000, 10).await.unwrap().is_empty(),
            "{}",
            b.name
        );

        // Nobody replacing it (the process died): it goes when the hold ends.
        let id2 = s.create_game(&new_game(&["ann", "bob"], None), Box::new(|_| Vec::new())).await.unwrap();
        let effects = [SideEffect::Held { message: message("reply:<m4@x>"), due: T0 + 60_000 }];
        let mut sum = summary(id2, 1, &["bob"]);
        sum.id = id2;
        s.append(0, &[mv(T0 + 1, 0, "CCT")], &sum, &effects).await.unwrap();
        assert!(s.mail().claim_outbox(T0 + 59_999, T0 + 80_000, 10).await.unwrap().is_empty(), "{}", b.name);
        assert_eq!(s.mail().claim_outbox(T0 + 60_000, T0 + 80_000, 10).await.unwrap().len(), 1, "{}", b.name);
    }
}

/// A game's head and its record name its seated bot accounts, read with
/// them so that no command's answer needs a query of its own for them
/// (one did, and cost the server a third of its moves per second); a bot
/// account that only follows the game is no player, and a person who
/// turns the flag off is shown as one at the next read.
#[tokio::test]
async fn a_games_head_and_record_name_its_seated_bot_accounts() {
    for b in backends().await {
        for id in ["ann", "bob", "cid"] {
            b.store.create_user(&user(id), &[], T0).await.unwrap();
        }
        b.store.set_bot("bob", true, T0, &[]).await.unwrap();
        b.store.set_bot("cid", true, T0, &[]).await.unwrap();
        let id =
            b.store.create_game(&new_game(&["ann", "bob"], None), Box::new(|_| Vec::new())).await.unwrap();
        b.store.subscribe(id, "cid", true, &[], T0).await.unwrap();
        let bob = vec!["bob".to_string()];
        assert_eq!(b.store.game_head(id).await.unwrap().unwrap().bot_accounts, bob, "{}", b.name);
        assert_eq!(b.store.game(id).await.unwrap().unwrap().bot_accounts, bob, "{}", b.name);

        b.store.set_bot("bob", false, T0 + 1, &[]).await.unwrap();
        assert!(b.store.game_head(id).await.unwrap().unwrap().bot_accounts.is_empty(), "{}", b.name);
        assert!(b.store.game(id).await.unwrap().unwrap().bot_accounts.is_empty(), "{}", b.name);
    }
}
