//! The event stream of a game: a move made by another client arrives as a
//! snapshot for the listener, and streams end when the server shuts down.

mod common;

use std::time::Duration;

use common::{WAIT, site};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn history_texts(snapshot: &Value) -> Vec<String> {
    snapshot["game"]["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["entry"]["text"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn a_listener_receives_a_move_made_by_another_client() {
    let s = site().await;
    s.ok("signup ann pw-ann").await;
    s.ok("signup bob pw-bob").await;
    let board = s.challenge("dna challenge -manual -length=6 ann bob").await["game"]["id"].as_i64().unwrap();
    s.ok(&format!("dna move {board} ann pw-ann AAACCC")).await;
    s.ok(&format!("dna move {board} bob pw-bob AAAGGG")).await;

    let bob = s.token("bob", "pw-bob").await;
    let mut listener = s.events(&format!("/api/v1/games/{board}/events?token={bob}"), &[]).await;
    let first = listener.next(WAIT).await.expect("the board at once");
    assert_eq!(first.event, "snapshot");
    let first = first.json();
    assert_eq!(first["ok"], true);
    assert_eq!(first["game"]["to_move"], serde_json::json!(["ann"]));
    assert!(first["svg"].as_str().unwrap().starts_with("<svg"));
    let version = first["game"]["version"].as_i64().unwrap();

    // Another client (ann, with her password) nominates AAA.
    let moved = s.command(&format!("dna move {board} ann pw-ann AAA"), None).await;
    assert_eq!(moved.status, 200, "{}", moved.body);

    let seen = listener.until(WAIT, |v| history_texts(v).iter().any(|t| t.starts_with("ann: AAA"))).await;
    let last = seen.last().unwrap();
    let snapshot = last.json();
    assert!(snapshot["game"]["version"].as_i64().unwrap() > version);
    assert_eq!(last.id, snapshot["game"]["version"].to_string());
    assert_eq!(snapshot["game"]["to_move"], serde_json::json!(["bob"]));
    // Bob's own view: his sequence after the removal.
    assert!(snapshot["text"].as_str().unwrap().contains("bob (3): GGG"), "{}", snapshot["text"]);
}

#[tokio::test]
async fn observers_and_browsers_get_streams_too() {
    let s = site().await;
    s.ok("signup ann pw-ann").await;
    s.ok("signup bob pw-bob").await;
    let board = s.challenge("intervalo challenge ann bob -cells=6").await["game"]["id"].as_i64().unwrap();
    let mut observer = s.events(&format!("/api/v1/games/{board}/events"), &[]).await;
    let ann = s.browser("ann", "pw-ann").await;
    let mut browser = s.events(&format!("/api/v1/games/{board}/events"), &[("cookie", &ann.cookie)]).await;
    assert_eq!(observer.next(WAIT).await.unwrap().json()["game"]["view"]["viewer"], Value::Null);
    assert_eq!(browser.next(WAIT).await.unwrap().json()["game"]["view"]["viewer"], 0);

    s.ok(&format!("intervalo move {board} bob pw-bob 2")).await;
    let seen = observer.until(WAIT, |v| v["game"]["view"]["chosen"][1] == true).await;
    assert_eq!(seen.last().unwrap().json()["game"]["to_move"], serde_json::json!(["ann"]));
    browser.until(WAIT, |v| v["game"]["view"]["chosen"][1] == true).await;
}

#[tokio::test]
async fn a_stream_refuses_a_bad_token_and_an_unknown_board() {
    let s = site().await;
    s.ok("signup ann pw-ann").await;
    s.ok("signup bob pw-bob").await;
    s.challenge("intervalo challenge ann bob").await;
    let bad = s.get("/api/v1/games/1/events?token=tbl_nothing", &[]).await;
    assert_eq!(bad.status, 401);
    assert_eq!(bad.json()["error"]["code"], "wrong_password");
    let missing = s.get("/api/v1/games/99/events", &[]).await;
    assert_eq!(missing.status, 404);
    assert_eq!(missing.json()["error"]["code"], "unknown_board");
}

#[tokio::test]
async fn shutting_down_ends_open_streams() {
    let dir = tempfile::tempdir().unwrap();
    let store = tabula_service::store::SqliteStore::open(
        &dir.path().join("t.db"),
        tabula_service::store::Clients::Many,
    )
    .await
    .unwrap();
    let service = std::sync::Arc::new(tabula_service::Service::new(
        std::sync::Arc::new(store),
        tabula_service::Clock::System,
    ));
    for who in ["signup ann pw-ann", "signup bob pw-bob"] {
        service.execute(who, &tabula_service::Caller::Anonymous).await.unwrap();
    }
    service
        .execute("intervalo challenge ann bob -cells=4", &tabula_service::Caller::Anonymous)
        .await
        .unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(tabula_web::serve(service.clone(), addr, Default::default(), async move {
        let _ = stopped.await;
    }));
    let mut conn = None;
    for _ in 0..100 {
        if let Ok(c) = tokio::net::TcpStream::connect(addr).await {
            conn = Some(c);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut conn = conn.expect("the server listens");
    conn.write_all(b"GET /api/v1/games/1/events HTTP/1.1\r\nHost: localhost\r\n\r\n").await.unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&got).contains("event: snapshot") {
        let n = tokio::time::timeout(WAIT, conn.read(&mut buf)).await.expect("the first event").unwrap();
        assert!(n > 0, "the stream ended early");
        got.extend_from_slice(&buf[..n]);
    }
    stop.send(()).unwrap();
    let done = tokio::time::timeout(WAIT, server).await.expect("serve returns while a stream is open");
    done.unwrap().unwrap();
}
