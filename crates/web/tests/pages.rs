//! The web pages: sign-up, log-in and log-out with cookies and CSRF tokens,
//! challenge forms made from option tables, the move form, lists, escaping,
//! size limits and the security headers.

mod common;

use common::{Site, input_value, site};

async fn two_players(s: &Site) {
    s.ok("signup ned pw-ned").await;
    s.ok("signup ted pw-ted").await;
}

#[tokio::test]
async fn signing_up_logs_in_and_needs_the_form_token() {
    let s = site().await;
    let form = s.get("/signup?next=/challenge", &[]).await;
    assert_eq!(form.status, 200);
    let cookie = form.cookie("tabula_form").expect("a form cookie");
    let set = form
        .headers
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .collect::<Vec<_>>();
    assert!(set[0].contains("HttpOnly") && set[0].contains("SameSite=Lax"), "{set:?}");
    let token = input_value(&form.body, "form_token").unwrap();
    assert_eq!(token, cookie);
    let fields = [
        ("form_token", token.as_str()),
        ("user", "Amy"),
        ("password", "pw-amy"),
        ("password2", "pw-amy"),
        ("email", ""),
        ("next", "/challenge"),
    ];
    // Without the cookie (a form posted from elsewhere): refused, nothing made.
    let forged = s.post_form("/signup", "", &fields).await;
    assert_eq!(forged.status, 403);
    assert!(s.command("signup amy pw-x", None).await.json()["ok"] == true, "amy was not made");
    let s = common::site().await;
    let form = s.get("/signup", &[]).await;
    let cookie = format!("tabula_form={}", form.cookie("tabula_form").unwrap());
    let token = input_value(&form.body, "form_token").unwrap();
    let mut fields = fields;
    fields[0].1 = &token;
    let differ = s
        .post_form(
            "/signup",
            &cookie,
            &[("form_token", &token), ("user", "amy"), ("password", "pw-amy"), ("password2", "pw-amz")],
        )
        .await;
    assert_eq!(differ.status, 400);
    assert!(differ.body.contains("The two passwords differ."));
    assert!(!differ.body.contains("pw-amy"), "a password is never echoed");
    let done = s.post_form("/signup", &cookie, &fields).await;
    assert_eq!(done.status, 303, "{}", done.body);
    assert_eq!(done.location(), Some("/challenge"));
    let session = done.cookie("tabula_session").expect("logged in");
    let home = s.get("/", &[("cookie", &format!("tabula_session={session}"))]).await;
    assert!(home.body.contains("Log out <span class=\"who\">amy</span>"), "{}", home.body);
    // The id is taken now.
    let again = s.post_form("/signup", &cookie, &fields).await;
    assert_eq!(again.status, 409);
    assert!(again.body.contains("the user id amy is taken"));
}

#[tokio::test]
async fn logging_in_and_out() {
    let s = site().await;
    two_players(&s).await;
    let form = s.get("/login", &[]).await;
    let cookie = format!("tabula_form={}", form.cookie("tabula_form").unwrap());
    let token = input_value(&form.body, "form_token").unwrap();
    for (user, password) in [("ned", "wrong"), ("nobody", "pw-ned")] {
        let refused = s
            .post_form("/login", &cookie, &[("form_token", &token), ("user", user), ("password", password)])
            .await;
        assert_eq!(refused.status, 401);
        assert!(refused.body.contains("Wrong user id or password."));
        assert!(refused.cookie("tabula_session").is_none());
    }
    let ned = s.browser("ned", "pw-ned").await;
    // The session's CSRF token guards logging out too.
    let forged = s.post_form("/logout", &ned.cookie, &[("csrf", "c_forged")]).await;
    assert_eq!(forged.status, 403);
    assert!(s.get("/", &[("cookie", &ned.cookie)]).await.body.contains("Log out"));
    let out = s.post_form("/logout", &ned.cookie, &[("csrf", &ned.csrf)]).await;
    assert_eq!(out.status, 303);
    assert_eq!(out.cookie("tabula_session").as_deref(), Some(""));
    let after = s.get("/", &[("cookie", &ned.cookie)]).await;
    assert!(!after.body.contains("Log out"), "the old cookie is dead");
    assert!(after.body.contains("href=\"/login\""));
}

#[tokio::test]
async fn a_challenge_form_comes_from_the_option_table_and_starts_the_game() {
    let s = site().await;
    two_players(&s).await;
    let ned = s.browser("ned", "pw-ned").await;
    for kind in tabula_games::all() {
        let info = kind.info();
        let form = s.get(&format!("/challenge/{}", info.kind), &[("cookie", &ned.cookie)]).await;
        assert_eq!(form.status, 200);
        for o in info.all_options() {
            assert!(form.body.contains(&format!("name=\"opt_{}\"", o.name)), "{}: -{}", info.kind, o.name);
            assert!(
                form.body.contains(o.help.split('\'').next().unwrap()),
                "{}: help of -{}",
                info.kind,
                o.name
            );
        }
        assert!(form.body.contains("value=\"ned \""), "the challenger is named first");
    }
    let fields = [
        ("csrf", ned.csrf.as_str()),
        ("players", "ned ted"),
        ("opt_length", "6"),
        ("opt_manual", "on"),
        ("opt_chunk", ""),
        ("opt_base", "4"),
        ("opt_nag", ""),
    ];
    let mut forged = fields;
    forged[0].1 = "c_nope";
    assert_eq!(s.post_form("/challenge/dna", &ned.cookie, &forged).await.status, 403);
    assert_eq!(
        s.post_form("/challenge/dna", "", &fields).await.location(),
        Some("/login?next=/challenge/dna")
    );
    let mut bad = fields;
    bad[2].1 = "1";
    let refused = s.post_form("/challenge/dna", &ned.cookie, &bad).await;
    assert_eq!(refused.status, 400);
    assert!(refused.body.contains("-length"), "the message names the option");
    assert!(refused.body.contains("value=\"1\""), "what was typed stays");
    let made = s.post_form("/challenge/dna", &ned.cookie, &fields).await;
    assert_eq!(made.status, 303, "{}", made.body);
    assert_eq!(made.location(), Some("/games/1"));
    let game = s.get("/api/v1/games/1", &[]).await.json();
    assert_eq!(game["game"]["options"], serde_json::json!(["-length=6", "-manual"]));
    assert_eq!(game["game"]["players"], serde_json::json!(["ned", "ted"]));
}

#[tokio::test]
async fn the_move_form_plays_for_the_player_to_move_only() {
    let s = site().await;
    two_players(&s).await;
    s.challenge("intervalo challenge ned ted -cells=8").await;
    let ned = s.browser("ned", "pw-ned").await;
    let page = s.get("/games/1", &[("cookie", &ned.cookie)]).await;
    assert!(
        page.body.contains("id=\"move-form\" method=\"post\" action=\"/games/1/move\" data-send>"),
        "shown"
    );
    assert!(page.body.contains("data-click=\"{&quot;type&quot;:&quot;strip&quot;"), "the strip is clickable");
    let observer = s.get("/games/1", &[]).await;
    assert!(!observer.body.contains("id=\"move-form\""));
    assert!(observer.body.contains("Log in</a> to play"));
    // A refused move keeps the text and says why.
    let refused =
        s.post_form("/games/1/move", &ned.cookie, &[("csrf", &ned.csrf), ("text", "<b>9</b>")]).await;
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(refused.body.contains("value=\"&lt;b&gt;9&lt;&#x2f;b&gt;\""), "kept, escaped");
    assert!(!refused.body.contains("<b>9</b>"), "never unescaped");
    let moved = s.post_form("/games/1/move", &ned.cookie, &[("csrf", &ned.csrf), ("text", "5")]).await;
    assert_eq!(moved.status, 303);
    let after = s.get("/games/1", &[("cookie", &ned.cookie)]).await;
    assert!(
        after.body.contains("id=\"move-form\" method=\"post\" action=\"/games/1/move\" data-send hidden>"),
        "not ned's turn now"
    );
    assert!(after.body.contains("you chose cell 5"));
    let again = s.post_form("/games/1/move", &ned.cookie, &[("csrf", &ned.csrf), ("text", "6")]).await;
    assert_eq!(again.status, 409);
    // Resigning through the form.
    let ted = s.browser("ted", "pw-ted").await;
    let resigned = s
        .post_form("/games/1/move", &ted.cookie, &[("csrf", &ted.csrf), ("text", ""), ("action", "resign")])
        .await;
    assert_eq!(resigned.status, 303);
    assert_eq!(s.get("/api/v1/games/1", &[]).await.json()["game"]["status"], "finished");
}

#[tokio::test]
async fn a_form_shown_before_the_board_moved_on_is_refused() {
    let s = site().await;
    two_players(&s).await;
    s.challenge("dna challenge -manual -length=9 ned ted").await;
    let ned = s.browser("ned", "pw-ned").await;
    let setup = s.get("/games/1", &[("cookie", &ned.cookie)]).await;
    assert_eq!(input_value(&setup.body, "moveno").as_deref(), Some(""), "both set up at once: no guard");
    s.ok("dna move 1 ted pw-ted AAAGGTCCA").await;
    s.ok("dna move 1 ned pw-ned AAACCCTTT").await;
    let page = s.get("/games/1", &[("cookie", &ned.cookie)]).await;
    assert_eq!(input_value(&page.body, "moveno").as_deref(), Some("3"));
    // Ned moves elsewhere, ted answers; the old page's form is stale.
    s.ok("dna move 1 ned pw-ned AAA").await;
    s.ok("dna move 1 ted pw-ted GGT").await;
    let stale = s
        .post_form("/games/1/move", &ned.cookie, &[("csrf", &ned.csrf), ("text", "CCC"), ("moveno", "3")])
        .await;
    assert_eq!(stale.status, 409, "{}", stale.body);
    assert!(stale.body.contains("look at the board again"), "{}", stale.body);
}

#[tokio::test]
async fn challenges_that_wait_are_answered_on_the_page() {
    let s = site().await;
    two_players(&s).await;
    s.ok("policy ted pw-ted ask").await;
    s.challenge("intervalo challenge ned ted").await;
    let ted = s.browser("ted", "pw-ted").await;
    let page = s.get("/games/1", &[("cookie", &ted.cookie)]).await;
    assert!(page.body.contains("You are challenged to this game."));
    let mut events = s.events("/api/v1/games/1/events", &[]).await;
    assert_eq!(events.next(common::WAIT).await.unwrap().json()["game"]["status"], "proposed");
    let answered =
        s.post_form("/games/1/answer", &ted.cookie, &[("csrf", &ted.csrf), ("answer", "accept")]).await;
    assert_eq!(answered.status, 303);
    // Open pages learn that the game started.
    let seen = events.until(common::WAIT, |v| v["game"]["status"] == "active").await;
    assert!(!seen.is_empty());
    let page = s.get("/games/1", &[("cookie", &ted.cookie)]).await;
    assert!(!page.body.contains("You are challenged to this game."));
}

#[tokio::test]
async fn lists_and_user_pages() {
    let s = site().await;
    two_players(&s).await;
    s.challenge("intervalo challenge ned ted -cells=4").await;
    s.challenge("dna challenge -manual -length=6 ted ned").await;
    let ned = s.browser("ned", "pw-ned").await;
    let all = s.get("/", &[("cookie", &ned.cookie)]).await;
    assert!(all.body.contains("href=\"/games/1\"") && all.body.contains("href=\"/games/2\""));
    assert!(all.body.contains("Your turn"));
    let dna = s.get("/?game=dna&player=&state=all", &[]).await;
    assert!(dna.body.contains("href=\"/games/2\"") && !dna.body.contains("href=\"/games/1\""));
    let over = s.get("/?state=over", &[]).await;
    assert!(over.body.contains("No games match."));
    let bad = s.get("/?state=sideways", &[]).await;
    assert!(bad.body.contains("is not a state"));
    let user = s.get("/users/ted", &[]).await;
    assert_eq!(user.status, 200);
    assert!(user.body.contains("href=\"/games/1\""));
    assert_eq!(s.get("/users/nobody", &[]).await.status, 404);
    let api = s.get("/api/v1/games?kind=dna&player=ned&status=running", &[]).await.json();
    assert_eq!(api["games"].as_array().unwrap().len(), 1);
    assert_eq!(api["games"][0]["id"], 2);
    let user = s.get("/api/v1/users/ned", &[]).await.json();
    assert_eq!(user["user"]["id"], "ned");
    assert_eq!(user["games"].as_array().unwrap().len(), 2);
    assert!(user["user"].get("emails").is_none());
}

#[tokio::test]
async fn tokens_are_made_shown_once_and_revoked() {
    let s = site().await;
    two_players(&s).await;
    let ned = s.browser("ned", "pw-ned").await;
    let made = s
        .post_form(
            "/account/tokens",
            &ned.cookie,
            &[("csrf", &ned.csrf), ("name", "my bot"), ("password", "pw-ned")],
        )
        .await;
    assert_eq!(made.status, 200, "{}", made.body);
    let start = made.body.find("id=\"new-token\">").unwrap() + 15;
    let secret = made.body[start..].split('<').next().unwrap().to_string();
    assert!(secret.starts_with("tbl_"));
    let auth = format!("Bearer {secret}");
    assert_eq!(s.get("/api/v1/me", &[("authorization", &auth)]).await.json()["user"], "ned");
    let account = s.get("/account", &[("cookie", &ned.cookie)]).await;
    assert!(account.body.contains("my bot") && !account.body.contains(&secret), "shown once");
    let list = s.get("/api/v1/tokens", &[("authorization", &auth)]).await.json();
    let id = list["tokens"][0]["id"].as_i64().unwrap();
    assert!(!list.to_string().contains(&secret));
    let revoke =
        s.post_form(&format!("/account/tokens/{id}/revoke"), &ned.cookie, &[("csrf", &ned.csrf)]).await;
    assert_eq!(revoke.status, 303);
    assert_eq!(s.get("/api/v1/me", &[("authorization", &auth)]).await.status, 401);
    // The API way.
    let token = s.token("ted", "pw-ted").await;
    let auth = format!("Bearer {token}");
    let list = s.get("/api/v1/tokens", &[("authorization", &auth)]).await.json();
    let id = list["tokens"][0]["id"].as_i64().unwrap();
    let gone = s
        .request(
            axum::http::Method::DELETE,
            &format!("/api/v1/tokens/{id}"),
            &[("authorization", &auth)],
            String::new(),
        )
        .await;
    assert_eq!(gone.json()["revoked"], id);
    assert_eq!(s.get("/api/v1/tokens", &[("authorization", &auth)]).await.status, 401);
    let wrong =
        s.post_json("/api/v1/tokens", &[], &serde_json::json!({"user": "ted", "password": "nope"})).await;
    assert_eq!(wrong.json()["error"]["code"], "wrong_password");
}

#[tokio::test]
async fn errors_limits_assets_and_headers() {
    let s = site().await;
    two_players(&s).await;
    let missing = s.get("/nowhere", &[]).await;
    assert_eq!(missing.status, 404);
    assert!(missing.body.contains("There is no such page."));
    let api = s.get("/api/v1/nowhere", &[]).await;
    assert_eq!((api.status.as_u16(), api.json()["error"]["code"].as_str()), (404, Some("not_found")));
    let method = s.request(axum::http::Method::DELETE, "/api/v1/games", &[], String::new()).await;
    assert_eq!(
        (method.status.as_u16(), method.json()["error"]["code"].as_str()),
        (405, Some("method_not_allowed"))
    );
    let board = s.get("/api/v1/games/abc", &[]).await;
    assert_eq!(board.json()["error"]["code"], "usage");
    assert_eq!(s.get("/api/v1/games/7", &[]).await.json()["error"]["code"], "unknown_board");
    assert_eq!(s.get("/games/7", &[]).await.status, 404);
    let big = "x".repeat(tabula_web::MAX_BODY + 10);
    let huge = s.post_json("/api/v1/commands", &[], &serde_json::json!({ "line": big })).await;
    assert_eq!(
        (huge.status.as_u16(), huge.json()["error"]["code"].as_str()),
        (413, Some("payload_too_large"))
    );
    let not_json = s
        .request(
            axum::http::Method::POST,
            "/api/v1/commands",
            &[("content-type", "application/json")],
            "{".into(),
        )
        .await;
    assert_eq!(not_json.json()["error"]["code"], "usage");
    let page = s.get("/", &[]).await;
    let csp = page.headers["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"));
    assert_eq!(page.headers["x-content-type-options"], "nosniff");
    let version = page.body.split("/static/app.js?v=").nth(1).unwrap().split('"').next().unwrap().to_string();
    let js = s.get(&format!("/static/app.js?v={version}"), &[]).await;
    assert!(js.headers["content-type"].to_str().unwrap().starts_with("text/javascript"));
    assert!(js.body.contains("EventSource"));
    assert!(s.get("/static/app.css", &[]).await.body.contains(".board"));
    let doc = s.get("/api/openapi.json", &[]).await.json();
    assert_eq!(doc["openapi"], "3.1.0");
    let kinds = s.get("/api/v1/kinds", &[]).await.json();
    assert_eq!(kinds["kinds"].as_array().unwrap().len(), tabula_games::all().len());
    assert_eq!(s.get("/api/v1/kinds/DNA", &[]).await.json()["kind"]["title"], "DNA");
    assert_eq!(s.get("/healthz", &[]).await.body, "ok");
}

#[tokio::test]
async fn replay_shows_past_positions_as_an_observer_saw_them() {
    let s = site().await;
    two_players(&s).await;
    s.challenge("dna challenge -manual -length=6 ned ted").await;
    s.ok("dna move 1 ned pw-ned AAACCC").await;
    s.ok("dna move 1 ted pw-ted AAAGGT").await;
    s.ok("dna move 1 ned pw-ned AAA").await;
    let now = s.get("/api/v1/games/1", &[]).await.json();
    let moves = now["game"]["moves"].as_u64().unwrap();
    assert_eq!(moves, 3);
    let start = s.get("/api/v1/games/1?at=0", &[]).await.json();
    assert!(start["svg"].as_str().unwrap().starts_with("<svg"));
    assert!(start["game"]["history"].as_array().unwrap().is_empty());
    let page = s.get("/games/1?at=2", &[]).await;
    assert!(page.body.contains("after move 2 of 3"));
    assert_eq!(s.get("/api/v1/games/1?at=9", &[]).await.json()["error"]["code"], "usage");
}
