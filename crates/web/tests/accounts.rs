//! Accounts under attack: passwords stored only as argon2id hashes and
//! never echoed; wrong passwords slowed down per user id and per address;
//! CSRF tokens on every form; revoked tokens and expired sessions refused;
//! `Ned` and `ned` one account; and no command ever acts for a user on
//! another user's password or token.

mod common;

use axum::http::{Method, StatusCode};
use common::{Site, input_value, site, site_with_clock};
use serde_json::json;
use std::sync::Arc;

use tabula_service::Clock;
use tabula_service::auth::SESSION_LIFETIME_MS;
use tabula_service::store::GameFilter;

/// Every byte of the site's database files.
fn database_bytes(s: &Site) -> Vec<u8> {
    let mut all = Vec::new();
    for entry in std::fs::read_dir(s.dir.path()).unwrap() {
        all.extend(std::fs::read(entry.unwrap().path()).unwrap());
    }
    all
}

fn all_games() -> GameFilter {
    GameFilter { limit: 100, ..Default::default() }
}

/// The same site with a fresh application (so a fresh per-address count):
/// for tests that send more wrong passwords than one address may.
fn fresh(s: &Site) -> Site {
    Site {
        dir: tempfile::tempdir().unwrap(),
        service: s.service.clone(),
        store: s.store.clone(),
        app: tabula_web::app(s.service.clone()),
    }
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle.as_bytes())
}

#[tokio::test]
async fn passwords_are_argon2id_hashes_and_never_stored_or_echoed() {
    let s = site().await;
    let password = "Zq8-unique-Passw0rd";
    let new_password = "Yw7-other-Passw0rd";
    let wrong = "Xv6-wrong-Passw0rd";
    let mut answers = Vec::new();
    answers.push(s.ok(&format!("signup ned {password} ned@example.org")).await.to_string());
    s.ok("signup ted pw-ted").await;
    answers.push(s.command(&format!("notify ned {wrong} off"), None).await.body);
    answers.push(s.command(&format!("notify ted {password} off"), None).await.body);
    let token_page =
        s.post_json("/api/v1/tokens", &[], &json!({"user": "ned", "password": wrong, "name": "x"})).await;
    assert_eq!(token_page.status, StatusCode::UNAUTHORIZED);
    answers.push(token_page.body);
    let browser = s.browser("NED", password).await;
    answers.push(s.get("/account", &[("cookie", &browser.cookie)]).await.body);
    let token = s.token("ned", password).await;
    answers.push(s.command("intervalo challenge ned ted", Some(&token)).await.body);
    answers.push(s.command(&format!("change password ned {password} {new_password}"), None).await.body);
    answers.push(s.command(&format!("notify ned {password} on"), None).await.body);
    answers.push(s.ok(&format!("notify ned {new_password} on")).await.to_string());
    for a in &answers {
        for secret in [password, new_password, wrong] {
            assert!(!a.contains(secret), "an answer shows a password: {a}");
        }
    }
    let user = s.store.user("ned").await.unwrap().unwrap();
    assert!(user.password_hash.starts_with("$argon2id$v=19$"), "{}", user.password_hash);
    assert!(tabula_service::users::verify_password(new_password, &user.password_hash));
    let bytes = database_bytes(&s);
    assert!(contains(&bytes, "$argon2id$"), "the database files were read");
    for secret in [password, new_password, wrong, token.as_str()] {
        assert!(!contains(&bytes, secret), "{secret:?} is stored in the database");
    }
    // Session and form secrets are stored hashed too.
    let session = browser.cookie.trim_start_matches("tabula_session=");
    assert!(!contains(&bytes, session), "a session secret is stored as it is");
}

#[tokio::test]
async fn wrong_passwords_are_slowed_down_per_user_and_address() {
    // A fixed clock: no wait ever passes.
    let s = site_with_clock(Clock::Fixed(1_800_000_000_000)).await;
    s.ok("signup ned pw-ned").await;
    s.ok("signup ted pw-ted").await;
    for _ in 0..tabula_service::throttle::PAIR_FREE {
        let p = s.command("notify ned wrong off", None).await;
        assert_eq!(p.status, StatusCode::UNAUTHORIZED);
        assert!(p.json()["error"]["message"].as_str().unwrap().contains("wrong password"), "{}", p.body);
    }
    // From this address, even the right password waits, in every front end.
    let p = s.command("notify ned pw-ned off", None).await;
    assert_eq!(p.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(p.body.contains("too many wrong passwords for ned from your address: wait"), "{}", p.body);
    assert!(p.headers.get("retry-after").is_some());
    let p = s.post_json("/api/v1/tokens", &[], &json!({"user": "Ned", "password": "pw-ned"})).await;
    assert!(p.body.contains("too many wrong passwords for ned"), "{}", p.body);
    let form = s.get("/login", &[]).await;
    let cookie = format!("tabula_form={}", form.cookie("tabula_form").unwrap());
    let token = input_value(&form.body, "form_token").unwrap();
    let p = s
        .post_form("/login", &cookie, &[("form_token", &token), ("user", "ned"), ("password", "pw-ned")])
        .await;
    assert_eq!(p.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(p.body.contains("too many wrong passwords for ned"), "{}", p.body);
    assert!(p.cookie("tabula_session").is_none());
    // Another user is not slowed down by ned's failures...
    s.ok("notify ted pw-ted off").await;
    // ...nor is ned from anywhere else (here the command line).
    s.service.execute("notify ned pw-ned off", &tabula_service::Caller::Anonymous).await.unwrap();
    // A later service (time has passed) lets ned in from this address
    // again, and the success ends the count.
    let later = Clock::Fixed(1_800_000_000_000 + 3_600_000);
    let service = Arc::new(tabula_service::Service::new(s.store.clone(), later));
    let again = Site {
        dir: tempfile::tempdir().unwrap(),
        service: service.clone(),
        store: s.store.clone(),
        app: tabula_web::app(service),
    };
    again.ok("notify ned pw-ned on").await;
    assert_eq!(s.store.limit("login:ned:ip:0.0.0.0").await.unwrap(), None);
}

#[tokio::test]
async fn wrong_passwords_from_one_address_are_refused_for_a_while() {
    let s = site().await;
    let users = ["amy", "bob", "cat", "dan", "eve"];
    for u in users.iter().chain(&["fay"]) {
        s.ok(&format!("signup {u} pw-{u}")).await;
    }
    // Guesses spread over several user ids, each below its own limit.
    for i in 0..tabula_service::throttle::ORIGIN_FREE as usize {
        let p = s.command(&format!("notify {} guess{i} off", users[i % users.len()]), None).await;
        assert_eq!(p.status, StatusCode::UNAUTHORIZED, "{}", p.body);
    }
    // The address must wait now, even with a right password for a fresh user.
    let p = s.command("notify fay pw-fay off", None).await;
    assert_eq!(p.status, StatusCode::TOO_MANY_REQUESTS, "{}", p.body);
    assert_eq!(p.json()["error"]["code"], "too_many_requests");
    assert!(p.headers.get("retry-after").is_some());
    assert!(s.store.user("fay").await.unwrap().unwrap().notify, "nothing was done");
    let p = s.post_json("/api/v1/tokens", &[], &json!({"user": "fay", "password": "pw-fay"})).await;
    assert_eq!(p.status, StatusCode::TOO_MANY_REQUESTS);
    let form = s.get("/login", &[]).await;
    let cookie = format!("tabula_form={}", form.cookie("tabula_form").unwrap());
    let token = input_value(&form.body, "form_token").unwrap();
    let fields = [("form_token", token.as_str()), ("user", "fay"), ("password", "pw-fay")];
    let login = s.post_form("/login", &cookie, &fields).await;
    assert_eq!(login.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(login.body.contains("too many wrong passwords from your address"), "{}", login.body);
    // Reading is not refused.
    assert_eq!(s.get("/api/v1/kinds", &[]).await.status, StatusCode::OK);
}

/// Every form of a logged-in page: its path and fields (without `csrf`).
fn forms(board: i64, token_id: i64) -> Vec<(String, Vec<(&'static str, &'static str)>)> {
    vec![
        (format!("/games/{board}/move"), vec![("text", "5"), ("moveno", "1")]),
        (format!("/games/{board}/answer"), vec![("answer", "accept")]),
        ("/challenge/intervalo".into(), vec![("players", "ned ted")]),
        ("/logout".into(), vec![]),
        ("/account/tokens".into(), vec![("name", "t"), ("password", "pw-ned")]),
        (format!("/account/tokens/{token_id}/revoke"), vec![]),
    ]
}

#[tokio::test]
async fn every_form_needs_the_session_csrf_token() {
    let s = site().await;
    s.ok("signup ned pw-ned").await;
    s.ok("signup ted pw-ted").await;
    s.ok("policy ned pw-ned ask").await;
    let board = s.challenge("intervalo challenge ted ned").await["game"]["id"].as_i64().unwrap();
    let token = s.post_json("/api/v1/tokens", &[], &json!({"user": "ned", "password": "pw-ned"})).await;
    let token_id = token.json()["id"].as_i64().unwrap();
    let ned = s.browser("ned", "pw-ned").await;
    let other = s.browser("ted", "pw-ted").await;
    let before = s.store.game(board).await.unwrap().unwrap().summary;
    for (path, fields) in forms(board, token_id) {
        for csrf in [None, Some(""), Some("c_forged"), Some(other.csrf.as_str())] {
            let mut sent = fields.clone();
            if let Some(c) = csrf {
                sent.push(("csrf", c));
            }
            let p = s.post_form(&path, &ned.cookie, &sent).await;
            assert_eq!(p.status, StatusCode::FORBIDDEN, "{path} with csrf {csrf:?}: {}", p.body);
        }
    }
    // Nothing changed: the session lives, the game waits, the token is live, no new token.
    assert!(s.get("/", &[("cookie", &ned.cookie)]).await.body.contains("Log out"));
    let after = s.store.game(board).await.unwrap().unwrap().summary;
    assert_eq!((after.version, after.status), (before.version, before.status));
    let tokens = s.store.tokens("ned").await.unwrap();
    assert_eq!(tokens.len(), 1);
    assert!(tokens[0].revoked.is_none());
    assert_eq!(s.store.games(&all_games()).await.unwrap().len(), 1);
    // The login and sign-up forms need their own form token (double submit).
    for path in ["/login", "/signup"] {
        let fields = [("user", "ned"), ("password", "pw-ned"), ("password2", "pw-ned")];
        let p = s.post_form(path, "", &fields).await;
        assert_eq!(p.status, StatusCode::FORBIDDEN, "{path}: {}", p.body);
        let mut with_token = fields.to_vec();
        with_token.push(("form_token", "f_forged"));
        let p = s.post_form(path, "tabula_form=f_other", &with_token).await;
        assert_eq!(p.status, StatusCode::FORBIDDEN, "{path}: {}", p.body);
    }
    // The right token works, so the refusals above were about the token.
    let p = s
        .post_form(
            &format!("/games/{board}/answer"),
            &ned.cookie,
            &[("answer", "accept"), ("csrf", &ned.csrf)],
        )
        .await;
    assert!(p.status.is_redirection() || p.status.is_success(), "{}", p.body);
    // The API's changing requests never take the session cookie.
    let p = s
        .request(
            Method::DELETE,
            &format!("/api/v1/tokens/{token_id}"),
            &[("cookie", &ned.cookie)],
            String::new(),
        )
        .await;
    assert_eq!(p.status, StatusCode::UNAUTHORIZED, "{}", p.body);
}

#[tokio::test]
async fn revoked_tokens_and_expired_sessions_are_refused() {
    let t0 = 1_800_000_000_000;
    let s = site_with_clock(Clock::Fixed(t0)).await;
    s.ok("signup ned pw-ned").await;
    s.ok("signup ted pw-ted").await;
    s.challenge("intervalo challenge ned ted").await;
    let token = s.token("ned", "pw-ned").await;
    let ted_token = s.token("ted", "pw-ted").await;
    let auth = format!("Bearer {token}");
    let me = s.get("/api/v1/me", &[("authorization", &auth)]).await;
    assert_eq!(me.json()["user"], "ned");
    let id = s.get("/api/v1/tokens", &[("authorization", &auth)]).await.json()["tokens"][0]["id"]
        .as_i64()
        .unwrap();
    // Ted cannot revoke ned's token.
    let ted_auth = format!("Bearer {ted_token}");
    let p = s
        .request(
            Method::DELETE,
            &format!("/api/v1/tokens/{id}"),
            &[("authorization", &ted_auth)],
            String::new(),
        )
        .await;
    assert_ne!(p.status, StatusCode::OK, "{}", p.body);
    assert_eq!(s.get("/api/v1/me", &[("authorization", &auth)]).await.json()["user"], "ned");
    let p = s
        .request(Method::DELETE, &format!("/api/v1/tokens/{id}"), &[("authorization", &auth)], String::new())
        .await;
    assert_eq!(p.status, StatusCode::OK, "{}", p.body);
    for check in [
        s.get("/api/v1/me", &[("authorization", &auth)]).await,
        s.command("notify ned - off", Some(&token)).await,
        s.get("/api/v1/tokens", &[("authorization", &auth)]).await,
    ] {
        assert_eq!(check.status, StatusCode::UNAUTHORIZED, "{}", check.body);
    }
    // A session lasts its lifetime and not a moment longer.
    let ned = s.browser("ned", "pw-ned").await;
    let at = |t: i64| {
        let service = std::sync::Arc::new(tabula_service::Service::new(s.store.clone(), Clock::Fixed(t)));
        Site {
            dir: tempfile::tempdir().unwrap(),
            service: service.clone(),
            store: s.store.clone(),
            app: tabula_web::app(service),
        }
    };
    let nearly = at(t0 + SESSION_LIFETIME_MS - 1000);
    assert!(nearly.get("/", &[("cookie", &ned.cookie)]).await.body.contains("Log out"));
    let expired = at(t0 + SESSION_LIFETIME_MS + 1);
    assert!(!expired.get("/", &[("cookie", &ned.cookie)]).await.body.contains("Log out"));
    let p = expired
        .post_form("/challenge/intervalo", &ned.cookie, &[("players", "ned ted"), ("csrf", &ned.csrf)])
        .await;
    assert!(p.status.is_redirection(), "an expired session is sent to log in: {}", p.status);
    assert!(p.location().unwrap_or("").starts_with("/login"), "{:?}", p.location());
    assert_eq!(s.store.games(&all_games()).await.unwrap().len(), 1);
}

#[tokio::test]
async fn user_ids_differ_only_in_case_are_one_account() {
    let s = site().await;
    s.ok("signup Ned pw-ned").await;
    s.ok("signup ted pw-ted").await;
    for again in ["signup ned pw-other", "signup NED pw-other", "signup nEd pw-ned"] {
        let p = s.command(again, None).await;
        assert_eq!(p.status, StatusCode::CONFLICT, "{again}: {}", p.body);
        assert_eq!(p.json()["error"]["code"], "user_exists");
    }
    let form = s.get("/signup", &[]).await;
    let cookie = format!("tabula_form={}", form.cookie("tabula_form").unwrap());
    let token = input_value(&form.body, "form_token").unwrap();
    let fields =
        [("form_token", token.as_str()), ("user", "NeD"), ("password", "pw-x"), ("password2", "pw-x")];
    assert_eq!(s.post_form("/signup", &cookie, &fields).await.status, StatusCode::CONFLICT);
    let board = s.challenge("intervalo challenge NED Ted -cells=6").await["game"]["id"].as_i64().unwrap();
    assert_eq!(s.ok(&format!("intervalo show {board}")).await["game"]["players"], json!(["ned", "ted"]));
    // Moves in either case act for the same seat.
    s.ok(&format!("intervalo move {board} NED pw-ned 1")).await;
    let seen = s.ok(&format!("intervalo showas {board} ned pw-ned")).await;
    assert_eq!(seen["game"]["to_move"], json!(["ted"]), "{seen}");
    let token = s.token("nEd", "pw-ned").await;
    let me = s.get("/api/v1/me", &[("authorization", &format!("Bearer {token}"))]).await;
    assert_eq!(me.json()["user"], "ned");
    s.ok(&format!("intervalo move {board} TED pw-ted 3")).await;
    let p = s.command(&format!("intervalo move {board} Ned - 2"), Some(&token)).await;
    assert_eq!(p.status, StatusCode::OK, "{}", p.body);
    let ned = s.browser("NeD", "pw-ned").await;
    assert!(
        s.get("/", &[("cookie", &ned.cookie)]).await.body.contains("Log out <span class=\"who\">ned</span>")
    );
    assert_eq!(s.ok(&format!("intervalo show {board}")).await["game"]["moves"], 3);
    let history = s.ok(&format!("intervalo history {board}")).await["text"].as_str().unwrap().to_string();
    assert_eq!(history.matches("ned chooses cell 1").count(), 1, "{history}");
    assert!(!history.contains("Ned ") && !history.contains("NED"), "{history}");
    assert_eq!(s.store.user("ned").await.unwrap().unwrap().id, "ned");
}

/// Every command that acts for a user, written for `user` with `password`
/// (game commands on `board`, an Intervalo game of ned and ted).
fn acting_commands(user: &str, password: &str, board: i64, waiting: i64) -> Vec<String> {
    vec![
        format!("change password {user} {password} pw-new"),
        format!("change address {user} {password} evil@example.org"),
        format!("notify {user} {password} off"),
        format!("vacation {user} {password} 30"),
        format!("limit {user} {password} 1"),
        format!("policy {user} {password} ask"),
        format!("intervalo move {board} {user} {password} 4"),
        format!("intervalo move {board} {user} {password} resign"),
        format!("intervalo move {board} {user} {password} propose"),
        format!("intervalo queue {board} {user} {password} 4"),
        format!("intervalo submit {board} {user} {password} 4"),
        format!("intervalo confirm {board} {user} {password}"),
        format!("intervalo preview {board} {user} {password} 4"),
        format!("intervalo showas {board} {user} {password}"),
        format!("intervalo chat {board} {user} {password} hello"),
        format!("intervalo subscribe {board} {user} {password}"),
        format!("intervalo accept {waiting} {user} {password}"),
        format!("intervalo reject {waiting} {user} {password}"),
        format!("signoff {user} {password}"),
    ]
}

#[tokio::test]
async fn no_command_acts_for_another_user() {
    let s = site().await;
    for u in ["ned", "ted", "eve"] {
        s.ok(&format!("signup {u} pw-{u} {u}@example.org")).await;
    }
    let board = s.challenge("intervalo challenge ned ted -cells=8").await["game"]["id"].as_i64().unwrap();
    s.ok("policy ned pw-ned ask").await;
    let waiting = s.challenge("intervalo challenge ted ned -cells=8").await["game"]["id"].as_i64().unwrap();
    s.ok(&format!("intervalo move {board} ted pw-ted 7")).await;
    let eve = s.token("eve", "pw-eve").await;
    let ted_token = s.token("ted", "pw-ted").await;
    let snapshot = |s: &Site| {
        let store = s.store.clone();
        async move {
            let mut all = Vec::new();
            for u in ["ned", "ted"] {
                all.push(format!("{:?}", store.user(u).await.unwrap().unwrap()));
            }
            for b in [board, waiting] {
                let g = store.game(b).await.unwrap().unwrap();
                all.push(format!("{:?} {:?}", g.summary.version, g.summary.status));
                all.push(format!("{:?}", store.pending(b, "ned").await.unwrap()));
                all.push(format!("{:?}", store.queued_moves(b).await.unwrap()));
                all.push(format!("{:?}", store.chats(b).await.unwrap()));
            }
            all
        }
    };
    let before = snapshot(&s).await;
    // Each refusal counts against ned from this address, and against the
    // address; clearing the counts before every try keeps each refusal a
    // check of the password or token, not of the slow-downs.
    let refused = |line: String, token: Option<&str>| {
        let s = &s;
        let token = token.map(str::to_string);
        async move {
            s.store.clear_limit("login:ned:ip:0.0.0.0").await.unwrap();
            s.store.clear_limit("origin:ip:0.0.0.0").await.unwrap();
            let p = fresh(s).command(&line, token.as_deref()).await;
            assert_eq!(p.status, StatusCode::UNAUTHORIZED, "{line} (token {token:?}): {}", p.body);
            assert!(!p.body.contains("\"ok\":true"), "{}", p.body);
            assert!(!p.body.contains("too many"), "{line}: {}", p.body);
        }
    };
    for user in ["ned", "Ned"] {
        // Eve's password, with and without eve's token; eve's token with "-";
        // ted's token (a player of the same game) with "-".
        for line in acting_commands(user, "pw-eve", board, waiting) {
            for token in [None, Some(eve.as_str())] {
                refused(line.clone(), token).await;
            }
        }
        for line in acting_commands(user, "-", board, waiting) {
            for token in [None, Some(eve.as_str()), Some(ted_token.as_str())] {
                refused(line.clone(), token).await;
            }
        }
    }
    assert_eq!(snapshot(&s).await, before, "something was done for ned");
    // The same commands with ned's own password do act (so the refusals were real).
    s.ok(&format!("intervalo move {board} ned pw-ned 4")).await;
    s.ok(&format!("intervalo chat {board} ned pw-ned hello")).await;
}
