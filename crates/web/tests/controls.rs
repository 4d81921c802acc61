//! What a player can do from a game's page whatever the turn (answer an
//! offer, resign, ask to take back, replace a secret move), the games
//! waiting for a user, forms sent by the page script and answered in JSON,
//! and every account setting changed from the account page.

mod common;

use common::{Site, site};

async fn two_players(s: &Site) {
    s.ok("signup ned pw-ned").await;
    s.ok("signup ted pw-ted").await;
}

fn shown(html: &str, marker: &str) -> bool {
    // A control is on the page and not hidden.
    html.find(marker).is_some_and(|at| {
        let tag_end = html[at..].find('>').map_or(html.len(), |e| at + e);
        !html[at..tag_end].contains(" hidden")
    })
}

#[tokio::test]
async fn the_player_not_on_move_answers_a_draw_offer_and_resigns() {
    let s = site().await;
    two_players(&s).await;
    s.challenge("intervalo challenge ned ted -cells=8").await;
    let ned = s.browser("ned", "pw-ned").await;
    let ted = s.browser("ted", "pw-ted").await;
    // Ned moves, then offers a draw while it is ted's turn.
    let moved = s.post_form("/games/1/move", &ned.cookie, &[("csrf", &ned.csrf), ("text", "5")]).await;
    assert_eq!(moved.status, 303, "{}", moved.body);
    let ned_page = s.get("/games/1", &[("cookie", &ned.cookie)]).await.body;
    assert!(!shown(&ned_page, "id=\"move-form\""), "not ned's turn");
    assert!(shown(&ned_page, "data-action=\"resign\""), "ned may resign after moving");
    assert!(shown(&ned_page, "data-action=\"offer_undo\""), "and ask to take back");
    let offered = s.post_form("/games/1/move", &ned.cookie, &[("csrf", &ned.csrf), ("action", "draw")]).await;
    assert_eq!(offered.status, 303, "{}", offered.body);
    // Ted is on move, and answers from the page.
    let ted_page = s.get("/games/1", &[("cookie", &ted.cookie)]).await.body;
    assert!(shown(&ted_page, "id=\"offer\""), "the offer's buttons: {ted_page}");
    assert!(ted_page.contains("ned offers a draw."));
    let ned_page = s.get("/games/1", &[("cookie", &ned.cookie)]).await.body;
    assert!(!shown(&ned_page, "id=\"offer\""), "the one who offered does not answer");
    // Ted rejects; then ned (not on move) answers ted's own offer.
    let rejected =
        s.post_form("/games/1/move", &ted.cookie, &[("csrf", &ted.csrf), ("action", "reject")]).await;
    assert_eq!(rejected.status, 303, "{}", rejected.body);
    s.post_form("/games/1/move", &ted.cookie, &[("csrf", &ted.csrf), ("action", "draw")]).await;
    let ned_page = s.get("/games/1", &[("cookie", &ned.cookie)]).await.body;
    assert!(shown(&ned_page, "id=\"offer\""), "ned answers while not on move");
    let accepted =
        s.post_form("/games/1/move", &ned.cookie, &[("csrf", &ned.csrf), ("action", "accept")]).await;
    assert_eq!(accepted.status, 303, "{}", accepted.body);
    let game = s.get("/api/v1/games/1", &[]).await.json();
    assert_eq!(game["game"]["status"], "finished", "{game}");
    let over = s.get("/games/1", &[("cookie", &ned.cookie)]).await.body;
    assert!(!shown(&over, "id=\"controls\""), "no controls once over");
    assert!(shown(&over, "id=\"rematch\""), "a rematch instead");
    // The rematch: the same players, the other one first.
    let rematch = s.post_form("/games/1/rematch", &ned.cookie, &[("csrf", &ned.csrf)]).await;
    assert_eq!(rematch.location(), Some("/games/2"), "{}", rematch.body);
    let game = s.get("/api/v1/games/2", &[]).await.json();
    assert_eq!(game["game"]["players"], serde_json::json!(["ted", "ned"]));
    assert_eq!(game["game"]["options"], serde_json::json!(["-cells=8"]));
    // Resigning after moving, while the other is on move.
    s.post_form("/games/2/move", &ted.cookie, &[("csrf", &ted.csrf), ("text", "3")]).await;
    let resigned =
        s.post_form("/games/2/move", &ted.cookie, &[("csrf", &ted.csrf), ("action", "resign")]).await;
    assert_eq!(resigned.status, 303, "{}", resigned.body);
    let game = s.get("/api/v1/games/2", &[]).await.json();
    assert_eq!(game["game"]["status"], "finished");
}

#[tokio::test]
async fn a_secret_move_is_replaced_from_the_page() {
    let s = site().await;
    two_players(&s).await;
    s.challenge("rewrite challenge ned ted").await;
    let ned = s.browser("ned", "pw-ned").await;
    let sent = s.post_form("/games/1/move", &ned.cookie, &[("csrf", &ned.csrf), ("text", "goal atc")]).await;
    assert_eq!(sent.status, 303, "{}", sent.body);
    let page = s.get("/games/1", &[("cookie", &ned.cookie)]).await.body;
    assert!(shown(&page, "id=\"move-form\""), "the form stays to replace the goal");
    assert!(page.contains("Your move is in: you may replace it until everyone has moved</label>"));
    let again = s.post_form("/games/1/move", &ned.cookie, &[("csrf", &ned.csrf), ("text", "goal tca")]).await;
    assert_eq!(again.status, 303, "{}", again.body);
    let view = s.get("/api/v1/games/1", &[("cookie", &ned.cookie)]).await.body;
    assert!(view.contains("tca"), "{view}");
}

#[tokio::test]
async fn challenges_and_offers_wait_in_your_turn_and_are_counted() {
    let s = site().await;
    two_players(&s).await;
    s.ok("policy ted pw-ted ask").await;
    s.challenge("intervalo challenge ned ted").await;
    let ted = s.browser("ted", "pw-ted").await;
    let home = s.get("/", &[("cookie", &ted.cookie)]).await.body;
    let mine = &home[home.find("id=\"your-turn\"").unwrap()..home.find("<h1>Games</h1>").unwrap()];
    assert!(mine.contains("/games/1\"") && mine.contains("challenge: accept or reject"), "{mine}");
    assert!(home.contains("<title>(1) "), "counted in the title");
    assert!(
        home.contains(
            "<span class=\"count\" id=\"nav-count\">1<span class=\"visually-hidden\"> waiting</span></span>"
        ),
        "and in the navigation"
    );
    // Ned challenged: nothing waits for him.
    let ned = s.browser("ned", "pw-ned").await;
    let home = s.get("/", &[("cookie", &ned.cookie)]).await.body;
    assert!(home.contains("No game is waiting for you."));
    assert!(!home.contains("<title>("));
}

#[tokio::test]
async fn forms_sent_by_the_page_script_are_answered_in_json() {
    let s = site().await;
    two_players(&s).await;
    s.challenge("intervalo challenge ned ted -cells=8").await;
    let ned = s.browser("ned", "pw-ned").await;
    let post = |fields: Vec<(&'static str, String)>| {
        let cookie = ned.cookie.clone();
        let s = &s;
        async move {
            let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let body = common::form_body(&fields);
            s.request(
                axum::http::Method::POST,
                "/games/1/move",
                &[
                    ("content-type", "application/x-www-form-urlencoded"),
                    ("accept", "application/json"),
                    ("cookie", &cookie),
                ],
                body,
            )
            .await
        }
    };
    let refused = post(vec![("csrf", ned.csrf.clone()), ("text", "99".into())]).await;
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert_eq!(refused.json()["ok"], false);
    assert!(refused.json()["error"]["message"].as_str().unwrap().contains("99"));
    let taken = post(vec![("csrf", ned.csrf.clone()), ("text", "4".into())]).await;
    assert_eq!(taken.json(), serde_json::json!({"ok": true}));
    let forged = post(vec![("csrf", "c_nope".into()), ("text", "4".into())]).await;
    assert_eq!(forged.status, 403);
    assert_eq!(forged.json()["ok"], false);
    // A mail command pasted whole is refused and its password never shown.
    let pasted = s
        .post_form(
            "/games/1/move",
            &ned.cookie,
            &[("csrf", &ned.csrf), ("text", "intervalo move 1 ned secret-pw 4")],
        )
        .await;
    assert_eq!(pasted.status, 400);
    assert!(!pasted.body.contains("secret-pw"), "{}", pasted.body);
    // A reload of the refused form's address comes back to the game.
    assert_eq!(s.get("/games/1/move", &[]).await.location(), Some("/games/1"));
    let bad_at = s.get("/games/1?at=-1", &[]).await;
    assert_eq!(bad_at.status, 400);
    assert!(bad_at.body.contains("write a move number"), "{}", bad_at.body);
}

#[tokio::test]
async fn every_account_setting_changes_from_the_page() {
    let s = site().await;
    s.ok("signup ned pw-ned ned@example.org").await;
    let ned = s.browser("ned", "pw-ned").await;
    let set = |fields: &[(&'static str, &'static str)]| {
        let mut all = vec![("csrf", ned.csrf.as_str())];
        all.extend_from_slice(fields);
        let cookie = ned.cookie.clone();
        let s = &s;
        async move { s.post_form("/account/settings", &cookie, &all).await }
    };
    let user = |s: &Site| {
        let service = s.service.clone();
        async move { service.account("ned").await.unwrap() }
    };
    let done = set(&[("setting", "notify"), ("value", "off")]).await;
    assert_eq!(done.location(), Some("/account?done=notify"));
    assert!(!user(&s).await.notify);
    set(&[("setting", "vacation"), ("value", "10")]).await;
    assert!(user(&s).await.vacation_until.is_some());
    set(&[("setting", "vacation"), ("value", "")]).await;
    assert!(user(&s).await.vacation_until.is_none());
    set(&[("setting", "limit"), ("value", "7")]).await;
    assert_eq!(user(&s).await.game_limit, Some(7));
    let refused = set(&[("setting", "limit"), ("value", "seven")]).await;
    assert_eq!(refused.status, 400);
    assert!(refused.body.contains("id=\"error-limit\""), "the error at its form");
    set(&[("setting", "policy"), ("value", "ask")]).await;
    assert_eq!(user(&s).await.challenge_policy, "ask");
    let wrong = set(&[("setting", "emails"), ("emails", "n@example.org"), ("password", "nope")]).await;
    assert_eq!(wrong.status, 401);
    set(&[("setting", "emails"), ("emails", "n@example.org m@example.org"), ("password", "pw-ned")]).await;
    assert_eq!(user(&s).await.emails, vec!["n@example.org", "m@example.org"]);
    let page = s.get("/account?done=emails", &[("cookie", &ned.cookie)]).await.body;
    assert!(page.contains("Your addresses are changed."));
    assert!(page.contains("value=\"n@example.org m@example.org\""));
    let differ = set(&[
        ("setting", "password"),
        ("password", "pw-ned"),
        ("new_password", "pw-ned-2"),
        ("new_password2", "pw-ned-3"),
    ])
    .await;
    assert_eq!(differ.status, 400);
    let changed = set(&[
        ("setting", "password"),
        ("password", "pw-ned"),
        ("new_password", "pw-ned-2"),
        ("new_password2", "pw-ned-2"),
    ])
    .await;
    assert_eq!(changed.location(), Some("/account?done=password"), "{}", changed.body);
    // The browser goes on logged in, with a new session.
    let session = changed.cookie("tabula_session").expect("a new session");
    let cookie = format!("tabula_session={session}");
    let again = s.get("/account", &[("cookie", &cookie)]).await;
    assert_eq!(again.status, 200);
    let csrf = common::input_value(&again.body, "csrf").unwrap();
    let unticked = s
        .post_form(
            "/account/settings",
            &cookie,
            &[("csrf", &csrf), ("setting", "close"), ("password", "pw-ned-2")],
        )
        .await;
    assert_eq!(unticked.status, 400, "closing needs the box ticked");
    let closed = s
        .post_form(
            "/account/settings",
            &cookie,
            &[("csrf", &csrf), ("setting", "close"), ("password", "pw-ned-2"), ("confirm", "yes")],
        )
        .await;
    assert_eq!(closed.location(), Some("/"));
    assert!(s.service.account("ned").await.is_err(), "closed");
}
