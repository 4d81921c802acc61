//! Tournament pages and resources: a real round robin of built-in bots,
//! stored through the database store the way `tabula tournament` stores
//! it, must show its standings, matrix and charts on the pages and the
//! same figures in the API; an unfinished one shows the games so far.

mod common;

use common::{Site, site};
use tabula_bots::tournament::{build_report, unique_names};
use tabula_bots::{BotSpec, MemoryStore, TournamentConfig, TournamentReport, render_json, run_tournament};

fn config(seed: u64) -> TournamentConfig {
    let bots = ["random", "greedy", "center"].iter().map(|b| BotSpec::parse(b).unwrap()).collect();
    let mut config = TournamentConfig::new("intervalo", bots);
    config.options = vec!["-cells=12".into()];
    config.games_per_pair = 6;
    config.seed = seed;
    config.threads = 1;
    config
}

/// Play the tournament and store it; with `keep` games only (unfinished)
/// or all of them and the report (finished).
async fn stored(s: &Site, config: &TournamentConfig, keep: Option<usize>) -> (i64, TournamentReport) {
    let kind = tabula_games::find(&config.game).unwrap();
    let mut memory = MemoryStore::default();
    let report = run_tournament(config, kind, &mut memory, &|_| {}).unwrap();
    let store = &s.store;
    let fingerprint = tabula_bots::store::fingerprint(config).to_string();
    let full = serde_json::to_string(config).unwrap();
    let id = store.open_tournament(&fingerprint, &config.game, &full, 1_700_000_000_000).await.unwrap();
    let mut games = memory.games.clone();
    games.sort_by_key(|g| g.index);
    let kept = keep.unwrap_or(games.len());
    for g in &games[..kept] {
        store.save_tournament_game(id, g.index as i64, &serde_json::to_string(g).unwrap()).await.unwrap();
    }
    if keep.is_none() {
        store.finish_tournament(id, &render_json(&report), 1_700_000_100_000).await.unwrap();
        (id, report)
    } else {
        let partial =
            build_report(config, unique_names(&config.bots), games[..kept].to_vec(), Default::default());
        (id, partial)
    }
}

/// Equal JSON, numbers to 1e-9 (figures read back from stored JSON may
/// differ in the last bit).
fn assert_close(a: &serde_json::Value, b: &serde_json::Value) {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            assert!((x - y).abs() < 1e-9, "{x} != {y}");
        }
        (Value::Array(x), Value::Array(y)) => {
            assert_eq!(x.len(), y.len(), "{a} != {b}");
            x.iter().zip(y).for_each(|(x, y)| assert_close(x, y));
        }
        (Value::Object(x), Value::Object(y)) => {
            assert_eq!(x.keys().collect::<Vec<_>>(), y.keys().collect::<Vec<_>>(), "{a} != {b}");
            x.iter().for_each(|(k, v)| assert_close(v, &y[k]));
        }
        _ => assert_eq!(a, b),
    }
}

fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// The page shows every bot's line with the report's own figures, the
/// matrix cells and both charts.
fn assert_page_shows(html: &str, report: &TournamentReport) {
    for (rank, b) in report.bots.iter().enumerate() {
        let row = format!(
            "<td class=\"num\">{}</td><td class=\"bot\">{}</td><td class=\"num\">{}</td>\n        \
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\n        \
             <td class=\"num\">{}</td><td class=\"num interval\">{} – {}</td>\n        \
             <td class=\"num\">{:.0}</td>",
            rank + 1,
            b.name,
            b.games,
            b.wins,
            b.losses,
            b.draws,
            percent(b.win_rate),
            percent(b.ci95[0]),
            percent(b.ci95[1]),
            b.rating
        );
        assert!(html.contains(&row), "no standings row {row}\n{html}");
        // Both charts name the bot and print its figure.
        assert!(html.contains(&format!(">{:.0}</text>", b.rating)), "rating {} not charted", b.rating);
        assert!(html.contains(&format!(">{}</text>", percent(b.win_rate))), "win rate not charted");
    }
    for (i, row) in report.head_to_head.iter().enumerate() {
        for (j, c) in row.iter().enumerate() {
            if i != j && c.wins + c.losses + c.draws > 0 {
                let title = format!(
                    "{} against {}: {} won, {} lost, {} drawn\">{}-{}-{}</td>",
                    report.names[i], report.names[j], c.wins, c.losses, c.draws, c.wins, c.losses, c.draws
                );
                assert!(html.contains(&title), "no matrix cell {title}");
            }
        }
    }
    assert!(html.contains("id=\"rating-chart\"><svg"), "rating chart");
    assert!(html.contains("id=\"win-chart\"><svg"), "win rate chart");
}

#[tokio::test]
async fn a_finished_tournament_shows_its_report() {
    let s = site().await;
    let (id, report) = stored(&s, &config(42), None).await;
    assert_eq!(report.games.len(), 18);
    // The bots really played: the figures are not all equal.
    assert!(report.bots.iter().map(|b| b.wins).sum::<u64>() > 0);

    let list = s.get("/tournaments", &[]).await;
    assert_eq!(list.status, 200);
    assert!(list.body.contains(&format!("<a href=\"/tournaments/{id}\">#{id}</a>")), "{}", list.body);
    assert!(list.body.contains("random, greedy, center"));
    assert!(list.body.contains("18 / 18"));
    assert!(list.body.contains(&format!("won by <strong>{}</strong>", report.bots[0].name)));

    let page = s.get(&format!("/tournaments/{id}"), &[]).await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Intervalo tournament"), "{}", page.body);
    assert!(page.body.contains("Finished 2023-11-14 22:15 UTC: 18 games."), "{}", page.body);
    assert!(page.body.contains("<code>-cells=12</code>"));
    assert_page_shows(&page.body, &report);
    // Every game is listed with its winner and ending.
    let first = &report.games[0];
    assert!(page.body.contains(&first.seats.join(" – ")));

    let api = s.get("/api/v1/tournaments", &[]).await.json();
    assert_eq!(api["ok"], true);
    let t = &api["tournaments"][0];
    assert_eq!(
        (t["id"].as_i64(), t["games_done"].as_i64(), t["games_total"].as_i64()),
        (Some(id), Some(18), Some(18))
    );
    assert_eq!(t["leader"], report.bots[0].name.as_str());
    assert_eq!(t["bots"], serde_json::json!(["random", "greedy", "center"]));

    let one = s.get(&format!("/api/v1/tournaments/{id}"), &[]).await.json();
    let t = &one["tournament"];
    assert_eq!(t["partial"], false);
    assert_eq!(t["games_done"], 18);
    // The stored report's figures, as they read back.
    let stored: serde_json::Value = serde_json::from_str(&render_json(&report)).unwrap();
    assert_eq!(t["bots"], stored["bots"]);
    assert_eq!(t["head_to_head"], stored["head_to_head"]);
    assert!(t.get("games").is_none(), "games come paged, not with the standings");

    let games = s.get(&format!("/api/v1/tournaments/{id}/games?offset=5&limit=3"), &[]).await.json();
    assert_eq!(games["total"], 18);
    let indexes: Vec<i64> =
        games["games"].as_array().unwrap().iter().map(|g| g["index"].as_i64().unwrap()).collect();
    assert_eq!(indexes, vec![5, 6, 7]);
    assert_eq!(games["games"][0], stored["games"][5]);
}

#[tokio::test]
async fn an_unfinished_tournament_shows_the_games_so_far() {
    let s = site().await;
    let (id, partial) = stored(&s, &config(7), Some(8)).await;
    assert_eq!(partial.games.len(), 8);
    let page = s.get(&format!("/tournaments/{id}"), &[]).await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("8 of 18 games played"), "{}", page.body);
    assert_page_shows(&page.body, &partial);
    let list = s.get("/tournaments", &[]).await;
    assert!(list.body.contains("8 / 18") && list.body.contains("running"), "{}", list.body);
    let t = &s.get(&format!("/api/v1/tournaments/{id}"), &[]).await.json()["tournament"];
    assert_eq!(t["partial"], true);
    assert_eq!((t["games_done"].as_i64(), t["games_total"].as_i64()), (Some(8), Some(18)));
    assert_close(&t["bots"], &serde_json::to_value(&partial.bots).unwrap());
    let played: u64 = partial.bots.iter().map(|b| b.games).sum();
    assert_eq!(played, 16, "two bots a game");
}

#[tokio::test]
async fn unknown_tournaments_and_bad_queries_are_refused() {
    let s = site().await;
    let empty = s.get("/tournaments", &[]).await;
    assert!(empty.body.contains("No tournaments yet"));
    assert_eq!(s.get("/tournaments/9", &[]).await.status, 404);
    assert_eq!(s.get("/tournaments/x", &[]).await.status, 404);
    let api = s.get("/api/v1/tournaments/9", &[]).await;
    assert_eq!(api.status, 404);
    assert_eq!(api.json()["error"]["code"], "not_found");
    assert_eq!(s.get("/api/v1/tournaments?limit=0", &[]).await.status, 400);
    let (id, _) = stored(&s, &config(3), None).await;
    assert_eq!(s.get(&format!("/api/v1/tournaments/{id}/games?limit=5000"), &[]).await.status, 400);
    let past = s.get(&format!("/api/v1/tournaments/{id}/games?offset=100"), &[]).await.json();
    assert_eq!(past["games"], serde_json::json!([]));
}

/// A bot run as `sh /some/dir/bot.sh` names a file of the machine that ran
/// the tournament, in its name, its failures and its error output: neither
/// the pages nor any tournament resource of the API shows the directory,
/// only the file's name.
#[tokio::test]
async fn no_resource_shows_the_server_paths_of_a_bot() {
    let s = site().await;
    let dir = tempfile::tempdir().unwrap();
    let deep = dir.path().join("bots-of-the-server").join("private");
    std::fs::create_dir_all(&deep).unwrap();
    let script = deep.join("gives-up.sh");
    std::fs::write(&script, "#!/bin/sh\necho \"$0: no strategy here\" >&2\nexit 3\n").unwrap();
    let secret = dir.path().to_str().unwrap().to_string();
    let mut config = config(5);
    config.bots = vec![
        BotSpec::parse("greedy").unwrap(),
        BotSpec::parse(&format!("sh {} --depth=2", script.display())).unwrap(),
    ];
    config.games_per_pair = 2;
    let (finished, report) = stored(&s, &config, None).await;
    assert!(report.games.iter().any(|g| !g.failures.is_empty()), "the bot failed");
    assert!(render_json(&report).contains(&secret), "the stored report names the path");
    // Another seed: the same settings would resume the finished one.
    config.seed = 6;
    let (running, _) = stored(&s, &config, Some(1)).await;
    for id in [finished, running] {
        for path in [
            "/api/v1/tournaments".to_string(),
            format!("/api/v1/tournaments/{id}"),
            format!("/api/v1/tournaments/{id}/games"),
            "/tournaments".to_string(),
            format!("/tournaments/{id}"),
        ] {
            let answer = s.get(&path, &[]).await;
            assert_eq!(answer.status, 200, "{path}: {}", answer.body);
            assert!(!answer.body.contains(&secret), "{path} shows the server's path: {}", answer.body);
            assert!(!answer.body.contains("bots-of-the-server"), "{path}: {}", answer.body);
            assert!(
                answer.body.contains("sh gives-up.sh --depth=2"),
                "{path} names the bot: {}",
                answer.body
            );
        }
    }
    let games = s.get(&format!("/api/v1/tournaments/{finished}/games"), &[]).await.json();
    let failure = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["failures"].as_array().unwrap().iter())
        .next()
        .expect("a failure is listed")
        .clone();
    assert_eq!(failure["bot"], "sh gives-up.sh --depth=2");
    let message = failure["message"].as_str().unwrap();
    assert!(message.starts_with("sh gives-up.sh --depth=2 "), "{failure}");
    let one = s.get(&format!("/api/v1/tournaments/{finished}"), &[]).await.json();
    assert_eq!(one["tournament"]["names"], serde_json::json!(["greedy", "sh gives-up.sh --depth=2"]));
}
