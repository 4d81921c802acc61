//! Every command of the language through `POST /api/v1/commands` answers
//! exactly what the command line's `--json` prints for it: the same reply
//! fields with `"ok": true`, or the same `{"ok": false, "error": ..}`.
//!
//! Two services over two databases with the same fixed clock run the same
//! script: one behind the API, one called as the `tabula` binary calls it
//! (`Service::execute` as an anonymous caller, the reply serialised with
//! `"ok": true`). Games whose set-up draws random sequences are avoided
//! (seeds differ between the two), so every answer must match exactly.

mod common;

use std::sync::Arc;

use common::site_with_clock;
use serde_json::{Value, json};
use tabula_service::store::{Clients, SqliteStore};
use tabula_service::{Caller, Clock, Service};

const NOW: i64 = 1_767_225_600_000; // 2026-01-01

/// The command line's `--json` output for `line`, and its exit status.
async fn cli_json(service: &Service, line: &str) -> (Value, u8) {
    match service.execute(line, &Caller::Anonymous).await {
        Ok(reply) => {
            let mut v = serde_json::to_value(&reply).unwrap();
            v["ok"] = Value::Bool(true);
            (v, 0)
        }
        Err(e) => {
            let code = if e.code == tabula_service::ErrorCode::Usage { 2 } else { 1 };
            (json!({"ok": false, "error": {"code": e.code.as_str(), "message": e.message}}), code)
        }
    }
}

/// (command line, the error code expected, or "" for success)
const SCRIPT: &[(&str, &str)] = &[
    ("help", ""),
    ("help dna", ""),
    ("help move", ""),
    ("list", ""),
    ("signup ned pw-ned ned@example.org", ""),
    ("signup ted pw-ted", ""),
    ("signup jed pw-jed jed@example.org", ""),
    ("signup ned other-pw", "user_exists"),
    ("signup Bad! pw", "bad_value"),
    ("change password jed pw-jed pw-jed2", ""),
    ("change address jed pw-jed2 jed@example.net", ""),
    ("notify jed pw-jed2 off", ""),
    ("vacation jed pw-jed2 3", ""),
    ("vacation jed pw-jed2 off", ""),
    ("limit jed pw-jed2 20", ""),
    ("limit jed pw-jed2 off", ""),
    ("policy jed pw-jed2 ask", ""),
    ("dna challenge -length=6 -manual ned ted", ""),
    ("dna challenge -length=1 ned ted", "bad_option"),
    ("dna challenge ned nobody", "unknown_user"),
    ("dna move 1 ned pw-ned AAACCC", ""),
    ("dna showas 1 ted pw-ted", ""),
    ("dna move 1 ted pw-ted AAAGGT", ""),
    ("dna show 1", ""),
    ("dna show 1#0", ""),
    ("dna show 1#9", "usage"),
    ("dna history 1", ""),
    ("dna preview 1 ned pw-ned AAA", ""),
    ("dna preview 1 AAA", ""),
    ("dna submit 1 ned pw-ned AAA", ""),
    ("dna confirm 1 ned pw-ned", ""),
    ("dna confirm 1 ned pw-ned", "refused"),
    ("dna move 1 ned pw-ned CCC", "not_your_turn"),
    ("dna move 1 ted pw-ted XYZ", "malformed_move"),
    ("dna move 1 ted pw-wrong GGT", "wrong_password"),
    ("dna move 1 ted pw-ted GGT#2", "stale_move"),
    ("dna move 1 jed pw-jed2 GGT", "not_a_player"),
    ("dna queue 1 ned pw-ned CCC", ""),
    ("dna move 1 ted pw-ted propose", ""),
    ("dna move 1 ned pw-ned reject", ""),
    ("dna move 1 ted pw-ted undo", ""),
    ("dna move 1 ned pw-ned accept", ""),
    ("dna chat 1 ned pw-ned good game", ""),
    ("dna subscribe 1 jed pw-jed2", ""),
    ("dna unsubscribe 1 jed pw-jed2", ""),
    ("dna challenge -manual -length=6 ned jed", ""),
    ("dna move 2 ned pw-ned AAACCC", "refused"),
    ("dna accept 2 jed pw-jed2", ""),
    ("dna challenge -manual -length=6 ted jed", ""),
    ("dna reject 3 jed pw-jed2", ""),
    ("dna move 1 ted pw-ted resign", ""),
    ("dna move 1 ned pw-ned CCC", "game_over"),
    ("dna games ned", ""),
    ("dna games ned all", ""),
    ("dna games ned inactive", ""),
    ("dna games ned next", ""),
    ("dna standings", ""),
    ("dna ratings", ""),
    ("dna help", ""),
    ("intervalo challenge ned ted -cells=4", ""),
    ("intervalo move 4 ned pw-ned 2", ""),
    ("intervalo showas 4 ned pw-ned", ""),
    ("intervalo queue 4 ted pw-ted 3", "refused"),
    ("intervalo move 4 ted pw-ted 3", ""),
    ("intervalo show 4", ""),
    ("intervalo history 4", ""),
    ("dna show 4", "unknown_board"),
    ("dna move 99 ned pw-ned AAA", "unknown_board"),
    ("frobnicate", "unknown_command"),
    ("dna move", "usage"),
    ("dna standings extra", "usage"),
    ("signoff ted pw-ted", ""),
    ("dna games ted", ""),
    ("dna games nobody", "unknown_user"),
];

#[tokio::test]
async fn every_command_answers_as_the_command_line_does() {
    let api = site_with_clock(Clock::Fixed(NOW)).await;
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&dir.path().join("cli.db"), Clients::Many).await.unwrap();
    let cli = Arc::new(Service::new(Arc::new(store), Clock::Fixed(NOW)));
    let mut failures = Vec::new();
    for (line, expect) in SCRIPT {
        // Over the network a challenge comes from its first player, logged
        // in; the command line is the operator's.
        let challenger = line
            .split_once(" challenge ")
            .and_then(|(_, rest)| rest.split_whitespace().find(|w| !w.starts_with('-')).map(str::to_string));
        let token = match challenger {
            Some(user) => Some(api.token(&user, &format!("pw-{user}")).await),
            None => None,
        };
        let page = api.command(line, token.as_deref()).await;
        let got = page.json();
        let (want, exit) = cli_json(&cli, line).await;
        if got != want {
            failures.push(format!("{line}: the API and the CLI differ:\n  api {got}\n  cli {want}"));
            continue;
        }
        let code = got["error"]["code"].as_str().unwrap_or("");
        if code != *expect {
            failures.push(format!("{line}: expected {expect:?}, got {code:?}: {}", got["error"]["message"]));
        }
        let status = page.status.as_u16();
        match (code, status) {
            ("", 200) => assert_eq!(exit, 0),
            ("", _) => failures.push(format!("{line}: status {status} for a success")),
            (c, s) => {
                assert!((400..600).contains(&s), "{line}: status {s} for {c}");
                assert_eq!(exit, if c == "usage" { 2 } else { 1 });
                assert!(got["error"]["message"].as_str().is_some_and(|m| !m.is_empty()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[tokio::test]
async fn the_answers_carry_the_game_and_the_secret_stays_with_its_owner() {
    let api = site_with_clock(Clock::Fixed(NOW)).await;
    api.ok("signup ned pw-ned").await;
    api.ok("signup ted pw-ted").await;
    let challenge = api.challenge("dna challenge -length=6 -manual ned ted").await;
    assert_eq!(challenge["subject"], "DNA Board 1 ned ted");
    assert_eq!(challenge["game"]["id"], 1);
    assert_eq!(challenge["game"]["options"], json!(["-length=6", "-manual"]));
    let moved = api.ok("dna move 1 ned pw-ned AAACCC").await;
    assert!(moved["text"].as_str().unwrap().contains("ned (6): AAACCC"), "{}", moved["text"]);
    let shown = api.ok("dna show 1").await;
    assert!(!shown.to_string().contains("AAACCC"), "an observer's show hides it");
    let showas = api.ok("dna showas 1 ted pw-ted").await;
    assert!(!showas.to_string().contains("AAACCC"), "ted's view hides it");
    assert!(api.ok("dna showas 1 ned pw-ned").await.to_string().contains("AAACCC"));
}

#[tokio::test]
async fn a_bearer_token_stands_for_the_password() {
    let api = site_with_clock(Clock::Fixed(NOW)).await;
    api.ok("signup ned pw-ned").await;
    api.ok("signup ted pw-ted").await;
    api.challenge("intervalo challenge ned ted -cells=4").await;
    let token = api.token("ned", "pw-ned").await;
    let moved = api.command("intervalo move 1 ned - 2", Some(&token)).await;
    assert_eq!(moved.status, 200, "{}", moved.body);
    assert_eq!(moved.json()["game"]["view"]["my_choice"], 2);
    // The token is ned's only: it does not let anyone act as ted.
    let as_ted = api.command("intervalo move 1 ted - 3", Some(&token)).await;
    assert_eq!(as_ted.json()["error"]["code"], "wrong_password");
    let bad = api.command("intervalo move 1 ted - 3", Some("tbl_forged")).await;
    assert_eq!((bad.status.as_u16(), bad.json()["error"]["code"].as_str()), (401, Some("wrong_password")));
    let malformed = api
        .request(
            axum::http::Method::POST,
            "/api/v1/commands",
            &[("authorization", "Basic x"), ("content-type", "application/json")],
            "{\"line\":\"list\"}".into(),
        )
        .await;
    assert_eq!(malformed.json()["error"]["code"], "unauthorized");
}
