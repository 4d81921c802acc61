//! No page, API answer or event stream shows a secret to anyone but its
//! owner before the game reveals it: DNA's -manual sequences until every
//! sequence is set, and Intervalo's pending choice until both have chosen.
//! Each check has its positive twin (the owner does see it, and everyone
//! does after the reveal), so the checks could fail.

mod common;

use common::{Browser, Events, Site, WAIT, site};
use serde_json::Value;

const SECRET: &str = "GATTACAGATTACA";

/// Everything one reader can get about `board`: the API view (bearer or
/// cookie or none), the history, the page and a replay of every position.
async fn everything(s: &Site, board: i64, token: Option<&str>, browser: Option<&Browser>) -> Vec<String> {
    let auth = token.map(|t| format!("Bearer {t}"));
    let mut headers: Vec<(&str, &str)> = Vec::new();
    if let Some(a) = &auth {
        headers.push(("authorization", a));
    }
    if let Some(b) = browser {
        headers.push(("cookie", &b.cookie));
    }
    let view = s.get(&format!("/api/v1/games/{board}"), &headers).await;
    assert_eq!(view.status, 200, "{}", view.body);
    let moves = view.json()["game"]["moves"].as_u64().unwrap();
    let mut out = vec![view.body];
    out.push(s.get(&format!("/api/v1/games/{board}/history"), &headers).await.body);
    let page = s.get(&format!("/games/{board}"), &headers).await;
    assert_eq!(page.status, 200);
    out.push(page.body);
    for at in 0..=moves {
        out.push(s.get(&format!("/api/v1/games/{board}?at={at}"), &headers).await.body);
        out.push(s.get(&format!("/games/{board}?at={at}"), &headers).await.body);
    }
    out
}

/// The text of every history line of a snapshot or history answer.
fn lines(history: &Value) -> String {
    history
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["entry"]["text"].as_str().unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

fn shows(texts: &[String], secret: &str) -> bool {
    texts.iter().any(|t| t.contains(secret))
}

async fn drain(events: &mut Events) -> Vec<Value> {
    let mut out = Vec::new();
    while let Some(e) = events.next(std::time::Duration::from_millis(300)).await {
        out.push(e.json());
    }
    out
}

#[tokio::test]
async fn dna_manual_sequences_stay_hidden_until_all_are_set() {
    let s = site().await;
    s.ok("signup ned pw-ned").await;
    s.ok("signup ted pw-ted").await;
    s.ok("signup zed pw-zed").await;
    let board = s.challenge("dna challenge -manual -length=14 ned ted").await["game"]["id"].as_i64().unwrap();
    let ted_token = s.token("ted", "pw-ted").await;
    let ned_token = s.token("ned", "pw-ned").await;
    let ted = s.browser("ted", "pw-ted").await;
    let ned = s.browser("ned", "pw-ned").await;
    let zed = s.browser("zed", "pw-zed").await;
    let stream = |q: String| format!("/api/v1/games/{board}/events{q}");
    let mut ted_by_token = s.events(&stream(format!("?token={ted_token}")), &[]).await;
    let mut ted_by_cookie = s.events(&stream(String::new()), &[("cookie", &ted.cookie)]).await;
    let mut observer = s.events(&stream(String::new()), &[]).await;
    let mut ned_stream = s.events(&stream(format!("?token={ned_token}")), &[]).await;

    // Ned sets his sequence through the page's move form.
    let moved = s
        .post_form(&format!("/games/{board}/move"), &ned.cookie, &[("csrf", &ned.csrf), ("text", SECRET)])
        .await;
    assert_eq!(moved.status, 303, "{}", moved.body);

    // Ted, a non-player and an observer see nothing of it anywhere.
    assert!(!shows(&everything(&s, board, Some(&ted_token), None).await, SECRET));
    assert!(!shows(&everything(&s, board, None, Some(&ted)).await, SECRET));
    assert!(!shows(&everything(&s, board, None, Some(&zed)).await, SECRET));
    assert!(!shows(&everything(&s, board, None, None).await, SECRET));
    let view = s.get(&format!("/api/v1/games/{board}"), &[("cookie", &ted.cookie)]).await.json();
    assert_eq!(view["game"]["view"]["players"][0]["sequence"], Value::Null);
    assert!(view["text"].as_str().unwrap().contains("ned (14): hidden"), "{}", view["text"]);
    for stream in [&mut ted_by_token, &mut ted_by_cookie, &mut observer] {
        let events = drain(stream).await;
        assert!(events.len() >= 2, "the initial board and ned's move");
        assert!(events.iter().all(|e| !e.to_string().contains(SECRET)));
        let last = events.last().unwrap();
        assert!(
            last["game"]["history"].to_string().contains("ned sets a sequence"),
            "the move itself is announced: {}",
            last["game"]["history"]
        );
    }
    // Ned sees his own, everywhere.
    assert!(shows(&everything(&s, board, Some(&ned_token), None).await, SECRET));
    assert!(s.get(&format!("/games/{board}"), &[("cookie", &ned.cookie)]).await.body.contains(SECRET));
    assert!(drain(&mut ned_stream).await.iter().any(|e| e.to_string().contains(SECRET)));

    // Once ted has set his, both are shown to everyone.
    s.ok(&format!("dna move {board} ted pw-ted CCCCCCCCCCCCCC")).await;
    assert!(shows(&everything(&s, board, Some(&ted_token), None).await, SECRET));
    assert!(shows(&everything(&s, board, None, None).await, SECRET));
    assert!(drain(&mut ted_by_token).await.iter().any(|e| e.to_string().contains(SECRET)));
    assert!(drain(&mut observer).await.iter().any(|e| e.to_string().contains(SECRET)));
}

#[tokio::test]
async fn an_intervalo_choice_stays_hidden_until_both_have_chosen() {
    let s = site().await;
    s.ok("signup ann pw-ann").await;
    s.ok("signup bob pw-bob").await;
    let board = s.challenge("intervalo challenge ann bob -cells=20").await["game"]["id"].as_i64().unwrap();
    let bob_token = s.token("bob", "pw-bob").await;
    let bob = s.browser("bob", "pw-bob").await;
    let auth = format!("Bearer {bob_token}");
    let before = s.get(&format!("/api/v1/games/{board}"), &[("authorization", &auth)]).await.json();
    let page_before = s.get(&format!("/games/{board}"), &[("cookie", &bob.cookie)]).await.body;
    let mut bob_stream = s.events(&format!("/api/v1/games/{board}/events?token={bob_token}"), &[]).await;
    let mut observer = s.events(&format!("/api/v1/games/{board}/events"), &[]).await;
    let mut ann_stream = s
        .events(&format!("/api/v1/games/{board}/events?token={}", s.token("ann", "pw-ann").await), &[])
        .await;

    s.ok(&format!("intervalo move {board} ann pw-ann 17")).await;

    // Bob's view changed only in that ann has chosen: the picture, the
    // strip, the history and the text are as before.
    let after = s.get(&format!("/api/v1/games/{board}"), &[("authorization", &auth)]).await.json();
    let mut expected = before["game"]["view"].clone();
    expected["chosen"][0] = Value::Bool(true);
    assert_eq!(after["game"]["view"], expected);
    assert_eq!(after["game"]["view"]["my_choice"], Value::Null);
    assert_eq!(after["svg"], before["svg"]);
    assert!(!after["text"].as_str().unwrap().contains("17"), "{}", after["text"]);
    assert!(!lines(&after["game"]["history"]).contains("17"));
    let history = s.get(&format!("/api/v1/games/{board}/history"), &[("authorization", &auth)]).await.json();
    assert!(!lines(&history["history"]).contains("17"));
    let page_after = s.get(&format!("/games/{board}"), &[("cookie", &bob.cookie)]).await.body;
    assert!(!page_after.contains("chose cell 17"));
    assert_eq!(
        page_before.matches("17").count(),
        page_after.matches("17").count(),
        "the page shows no new 17 (the board's own cell labels aside)"
    );
    for stream in [&mut bob_stream, &mut observer] {
        let events = drain(stream).await;
        let last = events.last().unwrap();
        assert_eq!(last["game"]["view"]["chosen"][0], true, "the stream saw ann's move");
        for e in &events {
            assert_eq!(e["game"]["view"]["my_choice"], Value::Null);
            assert_eq!(e["svg"], events[0]["svg"]);
            assert!(!lines(&e["game"]["history"]).contains("17"));
            assert!(!e["text"].as_str().unwrap().contains("chose cell 17"));
        }
    }
    // Ann sees her own choice.
    let ann_events = drain(&mut ann_stream).await;
    assert_eq!(ann_events.last().unwrap()["game"]["view"]["my_choice"], 17);
    assert!(ann_events.last().unwrap()["text"].as_str().unwrap().contains("you chose cell 17"));

    // Bob chooses: the turn is revealed to both.
    s.ok(&format!("intervalo move {board} bob pw-bob 3")).await;
    let seen = bob_stream
        .until(WAIT, |v| v["game"]["view"]["history"].as_array().is_some_and(|h| !h.is_empty()))
        .await;
    assert_eq!(
        seen.last().unwrap().json()["game"]["view"]["history"][0]["choices"],
        serde_json::json!([17, 3])
    );
}

#[tokio::test]
async fn a_rewrite_goal_is_shown_to_its_owner_only_until_the_end() {
    let s = site().await;
    s.ok("signup ann pw-ann").await;
    s.ok("signup bob pw-bob").await;
    let board = s.challenge("rewrite challenge ann bob -rounds=1").await["game"]["id"].as_i64().unwrap();
    let goal = "ttg";
    let bob_token = s.token("bob", "pw-bob").await;
    let ann_token = s.token("ann", "pw-ann").await;
    let bob = s.browser("bob", "pw-bob").await;
    let before = everything(&s, board, Some(&bob_token), None).await;
    assert!(!shows(&before, goal), "nothing shows it before it is chosen");
    let mut bob_stream = s.events(&format!("/api/v1/games/{board}/events?token={bob_token}"), &[]).await;
    let mut observer = s.events(&format!("/api/v1/games/{board}/events"), &[]).await;

    s.ok(&format!("rewrite move {board} ann pw-ann goal {goal}")).await;
    s.ok(&format!("rewrite move {board} bob pw-bob goal aac")).await;
    s.ok(&format!("rewrite move {board} ann pw-ann c=>g")).await;

    // Goals are in and a rule is written: bob sees his goal, never ann's.
    for texts in [
        everything(&s, board, Some(&bob_token), None).await,
        everything(&s, board, None, Some(&bob)).await,
        everything(&s, board, None, None).await,
    ] {
        for t in &texts {
            if let Some(i) = t.find(goal) {
                panic!("the goal shows: ...{}...", &t[i.saturating_sub(300)..(i + 100).min(t.len())]);
            }
        }
    }
    let view = s.get(&format!("/api/v1/games/{board}"), &[("cookie", &bob.cookie)]).await.json();
    assert_eq!(view["game"]["view"]["own_goal"], "aac");
    assert!(s.get(&format!("/games/{board}"), &[("cookie", &bob.cookie)]).await.body.contains("aac"));
    let version = view["game"]["version"].clone();
    for stream in [&mut bob_stream, &mut observer] {
        // Notices that pile up are answered with the latest board.
        let events = drain(stream).await;
        assert_eq!(events.last().unwrap()["game"]["version"], version, "the stream caught up");
        assert!(events.iter().all(|e| !e.to_string().contains(goal)));
    }
    // Ann sees her own.
    let ann_view =
        s.get(&format!("/api/v1/games/{board}"), &[("authorization", &format!("Bearer {ann_token}"))]).await;
    assert_eq!(ann_view.json()["game"]["view"]["own_goal"], goal);

    // The last rule ends the game: every goal is shown to all.
    s.ok(&format!("rewrite move {board} bob pw-bob t=>a")).await;
    assert!(shows(&everything(&s, board, Some(&bob_token), None).await, goal));
    assert!(drain(&mut observer).await.iter().any(|e| e.to_string().contains(goal)));
}
