//! The pages in their reader's language: a signed-in user's own setting
//! (made on the account page, or by the footer's switch) chooses it on
//! every page whatever the browser sends, a visitor's browser chooses it,
//! and a board's text and status lines come in it, the line saying whose
//! turn it is addressed to the player on move in every language.

mod common;

use axum::http::StatusCode;
use common::{Browser, Site, WAIT, site};
use tabula_model::Lang;

/// The page's language, as its `<html lang>` says.
fn html_lang(body: &str) -> &str {
    let at = body.find("<html lang=\"").expect("an html element") + 12;
    &body[at..at + body[at..].find('"').unwrap()]
}

/// The status lines of a game's page, as shown.
fn status_of(body: &str) -> Vec<String> {
    let at = body.find("id=\"status\"").expect("a status");
    let section = &body[at..at + body[at..].find("</div>").unwrap()];
    section.split("<p>").skip(1).map(|p| p[..p.find("</p>").unwrap()].replace("&#x27;", "'")).collect()
}

/// `path` as `browser` (or a visitor) gets it, its browser asking for `accept`.
async fn page(s: &Site, path: &str, browser: Option<&Browser>, accept: &str) -> common::Page {
    let mut headers = vec![("accept-language", accept)];
    if let Some(b) = browser {
        headers.push(("cookie", &b.cookie));
    }
    let page = s.get(path, &headers).await;
    assert_eq!(page.status, StatusCode::OK, "{path}: {}", page.body);
    page
}

/// The page's title.
fn title_of(body: &str) -> &str {
    let at = body.find("<title>").expect("a title") + 7;
    &body[at..at + body[at..].find("</title>").unwrap()]
}

#[tokio::test]
async fn a_finnish_page_of_a_rewrite_board_speaks_finnish() {
    let s = site().await;
    s.ok("signup ann pw-ann").await;
    s.ok("signup bob pw-bob").await;
    let board = s.challenge("rewrite challenge ann bob -rounds=1").await["game"]["id"].as_i64().unwrap();
    s.ok(&format!("rewrite move {board} ann pw-ann goal ttg")).await;
    let path = format!("/games/{board}");
    let fi = "fi-FI,fi;q=0.9";
    let bob = s.browser("bob", "pw-bob").await;
    let ann = s.browser("ann", "pw-ann").await;

    // Rewrite's moves are made at once: its status names who is awaited.
    let waiting = "Odotetaan siirtoja: bob (siirrot pysyvät salassa, kunnes kaikki ovat tulleet).";
    for browser in [Some(&bob), Some(&ann), None] {
        let p = page(&s, &path, browser, fi).await;
        assert_eq!(html_lang(&p.body), "fi");
        assert_eq!(status_of(&p.body), [waiting]);
        // The board's text is the Finnish reply's.
        let text = &p.body[p.body.find("id=\"text-board\"").unwrap()..];
        assert!(text.starts_with(&format!("id=\"text-board\">{waiting}\n\nSiirrot:\n")), "{text}");
    }
    // The player on move is told so, in Finnish.
    let mine = page(&s, &path, Some(&bob), fi).await;
    assert!(
        title_of(&mine.body).starts_with("(1) Sinun vuorosi · Merkkikorvauspeli, lauta 1 ·"),
        "{}",
        title_of(&mine.body)
    );
    assert!(!title_of(&page(&s, &path, Some(&ann), fi).await.body).contains("Sinun vuorosi"));
    // In English as before.
    let en = page(&s, &path, Some(&bob), "en").await;
    assert_eq!(status_of(&en.body), ["Waiting for bob to move (moves stay secret until all are in)."]);

    // The live stream speaks the page's language.
    let stream = format!("/api/v1/games/{board}/events");
    let mut events = s.events(&stream, &[("cookie", &bob.cookie), ("accept-language", fi)]).await;
    let first = events.next(WAIT).await.expect("a snapshot").json();
    assert_eq!(first["status_lines"], serde_json::json!([waiting]));
    assert!(first["subject"].as_str().unwrap().starts_with("Merkkikorvauspeli lauta"), "{first}");
}

#[tokio::test]
async fn the_turn_line_is_addressed_to_the_player_on_move_in_every_language() {
    let s = site().await;
    s.ok("signup ann pw-ann").await;
    s.ok("signup bob pw-bob").await;
    let board = s.challenge("dna challenge -manual -length=6 ann bob").await["game"]["id"].as_i64().unwrap();
    s.ok(&format!("dna move {board} ann pw-ann AAACCC")).await;
    s.ok(&format!("dna move {board} bob pw-bob AAAGGG")).await;
    let path = format!("/games/{board}");
    let ann = s.browser("ann", "pw-ann").await;
    let bob = s.browser("bob", "pw-bob").await;

    for (accept, yours, theirs) in [
        ("fi", "On sinun vuorosi.", "Vuorossa on ann."),
        ("es", "Es tu turno.", "Es el turno de ann."),
        ("en", "It is your turn.", "It is ann's turn."),
    ] {
        assert_eq!(status_of(&page(&s, &path, Some(&ann), accept).await.body), [yours], "{accept}");
        assert_eq!(status_of(&page(&s, &path, Some(&bob), accept).await.body), [theirs], "{accept}");
        assert_eq!(status_of(&page(&s, &path, None, accept).await.body), [theirs], "{accept}");
        // A past position is an observer's.
        let past = page(&s, &format!("{path}?at=1"), Some(&ann), accept).await;
        assert_ne!(status_of(&past.body), [yours], "{accept}");
    }

    // The live stream: the listener's own setting, whatever the browser
    // asks for, the line addressed to them.
    s.ok("language ann pw-ann es").await;
    let stream = format!("/api/v1/games/{board}/events");
    let mut events = s.events(&stream, &[("cookie", &ann.cookie), ("accept-language", "fi")]).await;
    let first = events.next(WAIT).await.expect("a snapshot").json();
    assert_eq!(first["status_lines"], serde_json::json!(["Es tu turno."]));
    assert!(first["text"].as_str().unwrap().starts_with("Es el turno de ann.\n"), "{first}");
    // And so do the past positions the page script reads, as an observer's.
    let past = s.get(&format!("/api/v1/games/{board}?at=1"), &[("cookie", &ann.cookie)]).await.json();
    assert!(past["text"].as_str().unwrap().starts_with("Esperando las jugadas de bob"), "{past}");
    // Asked for no language, the API answers in English as before.
    let api = s.get(&format!("/api/v1/games/{board}"), &[]).await.json();
    assert!(api["text"].as_str().unwrap().starts_with("It is ann's turn.\n"), "{api}");
}

#[tokio::test]
async fn a_signed_in_user_reads_every_page_in_their_own_language() {
    let s = site().await;
    s.ok("signup kim pw-kim").await;
    let kim = s.browser("kim", "pw-kim").await;
    // No setting yet: the browser's language.
    assert_eq!(html_lang(&page(&s, "/", Some(&kim), "en-GB,en;q=0.9").await.body), "en");
    let account = page(&s, "/account", Some(&kim), "en").await;
    assert!(account.body.contains("id=\"set-language\""), "the account page has the setting");

    // The account page's form, CSRF-checked like the others.
    let set = |value: &'static str, csrf: String| {
        let s = &s;
        let cookie = kim.cookie.clone();
        async move {
            s.post_form(
                "/account/settings",
                &cookie,
                &[("csrf", &csrf), ("setting", "language"), ("value", value)],
            )
            .await
        }
    };
    let forged = set("fi", "wrong".into()).await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
    assert_eq!(s.service.language("kim").await.unwrap(), None);
    let bad = set("de", kim.csrf.clone()).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert!(bad.body.contains("is not a language Tabula speaks"), "{}", bad.body);
    let done = set("fi", kim.csrf.clone()).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    assert_eq!(done.location(), Some("/account?done=language"));
    assert_eq!(s.service.language("kim").await.unwrap(), Some(Lang::Fi));

    // Whatever the browser says, and whatever it remembers.
    let account = page(&s, "/account?done=language", Some(&kim), "en-GB,en;q=0.9").await;
    assert_eq!(html_lang(&account.body), "fi");
    assert!(account.body.contains("Kielesi on tallennettu."));
    assert!(account.body.contains("value=\"fi\" checked"), "the setting is shown");
    for path in ["/", "/challenge", "/tournaments", "/users/kim"] {
        let cookie = format!("{}; tabula_lang=es", kim.cookie);
        let p = s.get(path, &[("cookie", &cookie), ("accept-language", "en")]).await;
        assert_eq!(html_lang(&p.body), "fi", "{path}");
    }
    // A visitor still follows the browser.
    assert_eq!(html_lang(&page(&s, "/", None, "es-ES").await.body), "es");
    assert_eq!(html_lang(&page(&s, "/", None, "en").await.body), "en");

    // The footer's switch, followed on this site, changes the setting.
    let switch =
        [("cookie", kim.cookie.as_str()), ("accept-language", "en"), ("sec-fetch-site", "same-origin")];
    let p = s.get("/challenge?lang=es", &switch).await;
    assert_eq!(html_lang(&p.body), "es");
    assert_eq!(s.service.language("kim").await.unwrap(), Some(Lang::Es));
    assert_eq!(html_lang(&page(&s, "/", Some(&kim), "fi").await.body), "es");
    // A link from another site shows its page in its language and changes
    // nothing.
    let cross =
        [("cookie", kim.cookie.as_str()), ("accept-language", "en"), ("sec-fetch-site", "cross-site")];
    assert_eq!(html_lang(&s.get("/challenge?lang=en", &cross).await.body), "en");
    assert_eq!(s.service.language("kim").await.unwrap(), Some(Lang::Es));
    assert_eq!(html_lang(&page(&s, "/", Some(&kim), "en").await.body), "es");
    // Logged out, the browser's language again.
    assert_eq!(html_lang(&page(&s, "/", None, "en").await.body), "en");
}

/// The message of the error `line` gets when `user` sends it in `lang`,
/// straight from the service.
async fn refusal(s: &Site, line: &str, user: Option<&str>, lang: Lang) -> String {
    let caller = user.map_or(tabula_service::Caller::Anonymous, |u| tabula_service::Caller::User(u.into()));
    let context = tabula_service::Context::new(caller, tabula_service::Origin::Local).in_lang(lang);
    s.service.execute(line, context).await.expect_err("refused").message
}

#[tokio::test]
async fn errors_come_in_the_reader_s_language_from_forms_the_api_and_missing_pages() {
    let s = site().await;
    s.ok("signup kim pw-kim").await;
    s.ok("signup lea pw-lea").await;
    s.ok("language kim pw-kim fi").await;
    let board = s.challenge("dna challenge -manual -length=6 kim lea").await["game"]["id"].as_i64().unwrap();
    let kim = s.browser("kim", "pw-kim").await;
    let bad_move = format!("dna move {board} kim - XYZ");
    let finnish = refusal(&s, &bad_move, Some("kim"), Lang::Fi).await;
    let english = refusal(&s, &bad_move, Some("kim"), Lang::En).await;
    assert_ne!(finnish, english);

    // A refused move on the game's page: in kim's setting, though the
    // browser asks for nothing.
    let form = [("csrf", kim.csrf.as_str()), ("action", "move"), ("text", "XYZ")];
    let p = s.post_form(&format!("/games/{board}/move"), &kim.cookie, &form).await;
    assert_eq!(p.status, StatusCode::BAD_REQUEST, "{}", p.body);
    assert_eq!(html_lang(&p.body), "fi");
    let shown = finnish.replace('&', "&amp;").replace('"', "&quot;").replace('\'', "&#x27;");
    assert!(p.body.contains(&shown), "{shown:?} not in {}", p.body);

    // The API with kim's token: the same text, the same code.
    let token = s.token("kim", "pw-kim").await;
    let auth = format!("Bearer {token}");
    let line = serde_json::json!({ "line": bad_move });
    let headers = [("authorization", auth.as_str()), ("accept-language", "en")];
    let api = s.post_json("/api/v1/commands", &headers, &line).await.json();
    assert_eq!(api["error"]["message"], finnish.as_str(), "{api}");
    assert_eq!(api["error"]["code"], "malformed_move", "{api}");
    // Anonymous, the browser's language: a board that does not exist.
    let missing = "dna move 999 kim pw-kim AAAAAA";
    let spanish = refusal(&s, missing, None, Lang::Es).await;
    let line = serde_json::json!({ "line": missing });
    let api = s.post_json("/api/v1/commands", &[("accept-language", "es")], &line).await.json();
    assert_eq!(api["error"]["message"], spanish.as_str(), "{api}");
    assert_eq!(api["error"]["code"], "unknown_board", "{api}");

    // The API's own errors: once the caller is known, the token owner's
    // language; else the browser's.
    let past = format!("/api/v1/games/{board}?at=9");
    let p = s.get(&past, &[("authorization", auth.as_str()), ("accept-language", "es")]).await;
    assert_eq!(p.json()["error"]["message"], format!("laudalla {board} on vain 0 siirtoa"));
    let p = s.get("/api/v1/games/abc", &[("accept-language", "es")]).await;
    assert_eq!(p.json()["error"]["message"], "\"abc\" no es un número de tablero");
    let p = s.get("/api/v1/nothing", &[]).await;
    assert_eq!(p.json()["error"]["message"], "no API resource /api/v1/nothing");

    // A page that does not exist, for kim: in Finnish.
    let p = s.get("/no/such/page", &[("cookie", &kim.cookie), ("accept-language", "en")]).await;
    assert_eq!(p.status, StatusCode::NOT_FOUND);
    assert_eq!(html_lang(&p.body), "fi");
    assert!(p.body.contains("Tällaista sivua ei ole."), "{}", p.body);
    let p = s.get("/no/such/page", &[("accept-language", "en")]).await;
    assert!(p.body.contains("There is no such page."), "{}", p.body);
}
