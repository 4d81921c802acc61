//! Playing through the pages: a bot picked on the challenge form plays its
//! moves at once and a game against it runs to the end; chat lines from
//! the page reach the other players' event streams; Real-Time Life moves
//! are accepted from the page at any time; the games list pages.

mod common;

use common::{WAIT, site, site_with_bots};
use serde_json::Value;

/// The first empty cell of an Intervalo view's strip.
fn free_cell(view: &Value) -> usize {
    let strip = view["strip"].as_str().expect("a strip");
    strip.chars().position(|c| c == '.').expect("a free cell") + 1
}

#[tokio::test]
async fn a_bot_from_the_challenge_form_plays_to_the_end() {
    let s = site_with_bots().await;
    s.ok("signup ned pw-ned").await;
    let ned = s.browser("ned", "pw-ned").await;
    let form = s.get("/challenge/intervalo", &[("cookie", &ned.cookie)]).await;
    for bot in ["bot:random", "bot:greedy", "bot:center", "bot:mcts"] {
        assert!(
            form.body.contains(&format!("<option value=\"{bot}\">{bot}</option>")),
            "{bot}: {}",
            form.body
        );
    }
    // DNA has no centre bot.
    let dna = s.get("/challenge/dna", &[("cookie", &ned.cookie)]).await;
    assert!(dna.body.contains("value=\"bot:mcts\"") && !dna.body.contains("bot:center"));
    // Only bots on offer.
    let bad = s
        .post_form(
            "/challenge/intervalo",
            &ned.cookie,
            &[("csrf", &ned.csrf), ("players", "ned"), ("bot", "bot:nobody")],
        )
        .await;
    assert_eq!(bad.status, 400);
    assert!(bad.body.contains("There is no bot bot:nobody"), "{}", bad.body);

    let made = s
        .post_form(
            "/challenge/intervalo",
            &ned.cookie,
            &[("csrf", &ned.csrf), ("players", ""), ("bot", "bot:greedy"), ("opt_cells", "9")],
        )
        .await;
    assert_eq!(made.status, 303, "{}", made.body);
    let board: i64 = made.location().unwrap().rsplit('/').next().unwrap().parse().unwrap();
    let mut events = s.events(&format!("/api/v1/games/{board}/events"), &[("cookie", &ned.cookie)]).await;
    let first = events.next(WAIT).await.unwrap().json();
    assert_eq!(first["game"]["players"], serde_json::json!(["ned", "bot:greedy"]));
    assert_eq!(first["game"]["status"], "active");

    let mut moves = 0;
    loop {
        let g = s.get(&format!("/api/v1/games/{board}"), &[("cookie", &ned.cookie)]).await.json();
        if g["game"]["status"] == "finished" {
            break;
        }
        assert!(moves < 20, "the game does not end: {g}");
        let cell = free_cell(&g["game"]["view"]).to_string();
        let sent = s
            .post_form(
                &format!("/games/{board}/move"),
                &ned.cookie,
                &[("csrf", &ned.csrf), ("text", &cell), ("action", "move")],
            )
            .await;
        assert_eq!(sent.status, 303, "move {cell}: {}", sent.body);
        moves += 1;
        // The bot answered before the move was acknowledged: it is ned's
        // turn again (or the game is over), never the bot's.
        let after = s.get(&format!("/api/v1/games/{board}"), &[("cookie", &ned.cookie)]).await.json();
        assert!(
            after["game"]["to_move"] == serde_json::json!(["ned"]) || after["game"]["status"] == "finished",
            "{after}"
        );
    }
    let history = s.get(&format!("/api/v1/games/{board}/history"), &[]).await.json();
    let lines: Vec<&str> =
        history["history"].as_array().unwrap().iter().map(|h| h["entry"]["text"].as_str().unwrap()).collect();
    assert!(lines.iter().any(|l| l.contains("bot:greedy")), "{lines:?}");
    // The open stream saw the game end.
    events.until(WAIT, |e| e["game"]["status"] == "finished").await;
    let page = s.get(&format!("/games/{board}"), &[("cookie", &ned.cookie)]).await;
    assert!(page.body.contains("bot:greedy"));
    assert!(
        page.body.contains("id=\"move-form\" method=\"post\" action=\"/games/")
            && page.body.contains(" hidden>")
    );
}

#[tokio::test]
async fn chat_lines_reach_the_other_players_live() {
    let s = site().await;
    s.ok("signup ned pw-ned").await;
    s.ok("signup ted pw-ted").await;
    s.ok("signup amy pw-amy").await;
    let board = s.challenge("intervalo challenge ned ted").await["game"]["id"].as_i64().unwrap();
    let ned = s.browser("ned", "pw-ned").await;
    let ted = s.browser("ted", "pw-ted").await;
    let amy = s.browser("amy", "pw-amy").await;
    let page = s.get(&format!("/games/{board}"), &[("cookie", &ted.cookie)]).await;
    assert!(page.body.contains("id=\"chat-form\"") && page.body.contains("No messages yet."));
    assert!(page.body.contains("data-chat=\"0\""));
    let mut stream =
        s.events(&format!("/api/v1/games/{board}/events?chat=0"), &[("cookie", &ted.cookie)]).await;
    assert_eq!(stream.next(WAIT).await.unwrap().event, "snapshot");

    let sent = s
        .post_form(
            &format!("/games/{board}/chat"),
            &ned.cookie,
            &[("csrf", &ned.csrf), ("text", "  good  luck <b>ted</b>  ")],
        )
        .await;
    assert_eq!(sent.status, 303, "{}", sent.body);
    assert_eq!(sent.location(), Some(format!("/games/{board}#chat").as_str()));
    let line = stream.next(WAIT).await.expect("a chat event");
    assert_eq!(line.event, "chat");
    let line = line.json();
    assert_eq!((line["n"].as_i64(), line["user"].as_str()), (Some(0), Some("ned")));
    assert_eq!(line["text"], "good  luck <b>ted</b>", "spaces inside kept, the ends trimmed");

    // On the page, escaped; the count tells the stream where to go on.
    let page = s.get(&format!("/games/{board}"), &[("cookie", &ted.cookie)]).await;
    assert!(
        page.body.contains("good  luck &lt;b&gt;ted&lt;&#x2f;b&gt;")
            || page.body.contains("good  luck &lt;b&gt;ted&lt;/b&gt;"),
        "{}",
        page.body
    );
    assert!(page.body.contains("data-chat=\"1\""));
    // A stream opened after the first line starts with the lines it lacks only.
    let mut later = s.events(&format!("/api/v1/games/{board}/events?chat=1"), &[]).await;
    assert_eq!(later.next(WAIT).await.unwrap().event, "snapshot");
    s.post_form(&format!("/games/{board}/chat"), &ted.cookie, &[("csrf", &ted.csrf), ("text", "thanks")])
        .await;
    let next = later.next(WAIT).await.unwrap();
    assert_eq!((next.event.as_str(), next.json()["n"].as_i64()), ("chat", Some(1)));
    assert_eq!(next.json()["text"], "thanks");
    let all = s.events(&format!("/api/v1/games/{board}/events"), &[]).await;
    let mut all = all;
    all.next(WAIT).await.unwrap();
    assert_eq!(all.next(WAIT).await.unwrap().json()["text"], "good  luck <b>ted</b>");

    // Only players write; empty lines and forged forms are refused.
    let outsider = s.get(&format!("/games/{board}"), &[("cookie", &amy.cookie)]).await;
    assert!(!outsider.body.contains("id=\"chat-form\""));
    let refused = s
        .post_form(&format!("/games/{board}/chat"), &amy.cookie, &[("csrf", &amy.csrf), ("text", "hi")])
        .await;
    assert!(refused.status.is_client_error(), "{}", refused.status);
    let empty = s
        .post_form(&format!("/games/{board}/chat"), &ned.cookie, &[("csrf", &ned.csrf), ("text", " \n ")])
        .await;
    assert_eq!(empty.status, 400);
    assert!(empty.body.contains("Write something first."));
    let forged =
        s.post_form(&format!("/games/{board}/chat"), &ned.cookie, &[("csrf", "x"), ("text", "hi")]).await;
    assert_eq!(forged.status, 403);
    let history = s.get(&format!("/api/v1/games/{board}/history"), &[]).await.json();
    assert_eq!(history["chat"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn real_time_life_players_move_from_the_page_at_any_time() {
    let s = site().await;
    s.ok("signup ned pw-ned").await;
    s.ok("signup ted pw-ted").await;
    let board =
        s.challenge("rtlife challenge ned ted -width=12 -height=8 -start_cells=3").await["game"]["id"]
            .as_i64()
            .unwrap();
    let ned = s.browser("ned", "pw-ned").await;
    let page = s.get(&format!("/games/{board}"), &[("cookie", &ned.cookie)]).await;
    // No turns, yet the form is there and the field is clickable.
    assert!(page.body.contains("&quot;play&quot;:true"), "{}", page.body);
    assert!(
        !page.body.contains("id=\"move-form\" method=\"post\" action=\"/games/1/move\" hidden"),
        "{}",
        page.body
    );
    assert!(page.body.contains("&quot;type&quot;:&quot;field&quot;"), "{}", page.body);
    assert!(page.body.contains("&quot;placing&quot;:[&quot;ned&quot;,&quot;ted&quot;]"));
    let sent = s
        .post_form(
            &format!("/games/{board}/move"),
            &ned.cookie,
            &[("csrf", &ned.csrf), ("text", "place c3,d3,e3"), ("action", "move"), ("moveno", "")],
        )
        .await;
    assert_eq!(sent.status, 303, "{}", sent.body);
    let g = s.get(&format!("/api/v1/games/{board}"), &[]).await.json();
    assert_eq!(g["click"]["placing"], serde_json::json!(["ted"]));
    assert!(g["game"]["view"]["rows"].to_string().contains('A'), "{}", g["game"]["view"]);

    // Someone else joins the open game from its page with a first placement.
    s.ok("signup amy pw-amy").await;
    let amy = s.browser("amy", "pw-amy").await;
    let page = s.get(&format!("/games/{board}"), &[("cookie", &amy.cookie)]).await;
    assert!(
        page.body.contains("Join this game: your first move") && page.body.contains("&quot;join&quot;:true")
    );
    let joined = s
        .post_form(
            &format!("/games/{board}/move"),
            &amy.cookie,
            &[("csrf", &amy.csrf), ("text", "place h6,h7,h8"), ("action", "move"), ("moveno", "")],
        )
        .await;
    assert_eq!(joined.status, 303, "{}", joined.body);
    let g = s.get(&format!("/api/v1/games/{board}"), &[]).await.json();
    assert_eq!(g["game"]["players"], serde_json::json!(["ned", "ted", "amy"]));
    let page = s.get(&format!("/games/{board}"), &[("cookie", &amy.cookie)]).await;
    assert!(page.body.contains("&quot;join&quot;:false") && page.body.contains("id=\"chat-form\""));
}

#[tokio::test]
async fn the_games_list_pages_newest_first() {
    let s = site().await;
    s.ok("signup ned pw-ned").await;
    s.ok("signup ted pw-ted").await;
    let mut boards = Vec::new();
    for _ in 0..53 {
        boards
            .push(s.challenge("intervalo challenge ned ted -cells=4").await["game"]["id"].as_i64().unwrap());
    }
    s.challenge("dna challenge ted ned").await;
    // The API: pages of 20 following `next`.
    let mut seen = Vec::new();
    let mut uri = "/api/v1/games?kind=intervalo&limit=20".to_string();
    loop {
        let page = s.get(&uri, &[]).await.json();
        seen.extend(page["games"].as_array().unwrap().iter().map(|g| g["id"].as_i64().unwrap()));
        match page["next"].as_i64() {
            Some(next) => uri = format!("/api/v1/games?kind=intervalo&limit=20&before={next}"),
            None => break,
        }
    }
    boards.reverse();
    assert_eq!(seen, boards, "every board once, newest first");
    // The pages: 50 a page, the filters kept on the link to older games.
    let first = s.get("/?game=intervalo&player=ned&state=running", &[]).await;
    let older = format!("/?game=intervalo&amp;player=ned&amp;state=running&amp;before={}", boards[49]);
    assert!(first.body.contains(&older), "{}", first.body);
    assert_eq!(first.body.matches("<tr class=\"status-").count(), 50);
    let second =
        s.get(&format!("/?game=intervalo&player=ned&state=running&before={}", boards[49]), &[]).await;
    assert_eq!(second.body.matches("<tr class=\"status-").count(), 3);
    assert!(second.body.contains("Newest games") && !second.body.contains("id=\"older\""));
    assert!(!second.body.contains("<td>DNA</td>"), "filtered by game");
}

#[tokio::test]
async fn a_bot_on_the_clock_places_and_stays_in_the_game() {
    let s = site_with_bots().await;
    s.ok("signup ned pw-ned").await;
    let g = s.challenge("rtlife challenge ned bot:random -width=20 -height=12 -start_cells=3").await;
    let board = g["game"]["id"].as_i64().unwrap();
    let g = s.get(&format!("/api/v1/games/{board}"), &[]).await.json();
    let lines = g["game"]["history"].to_string();
    assert!(lines.contains("bot:random places"), "{lines}");
    assert!(!lines.contains("resigns"), "a bot with nothing to do on the clock waits: {lines}");
    assert_eq!(g["game"]["status"], "active");
}
