//! Tournaments: the same seed gives the same games, an interrupted
//! tournament resumes from its store, results are ranked by games won, and
//! `mcts` is stronger than `random` and `greedy` (kept small enough for CI).

use std::path::PathBuf;
use std::sync::Mutex;

use tabula_bots::{
    BotSpec, JsonlStore, MemoryStore, StoreError, TournamentConfig, TournamentError, render_csv, render_json,
    render_text, run_tournament,
};

fn example_bot(name: &str) -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "..", "examples", "bots", name].iter().collect();
    format!("python3 '{}'", path.display())
}

fn config(bots: &[&str], games_per_pair: usize, seed: u64) -> TournamentConfig {
    let specs = bots.iter().map(|b| BotSpec::parse(b).unwrap()).collect();
    let mut config = TournamentConfig::new("intervalo", specs);
    config.options = vec!["-cells=12".into()];
    config.games_per_pair = games_per_pair;
    config.seed = seed;
    config.threads = 2;
    config
}

#[test]
fn the_same_seed_gives_the_same_games() {
    let random_py = example_bot("random_bot.py");
    let bots = ["random", "center", "greedy", "mcts:20", random_py.as_str()];
    let run = |seed| {
        run_tournament(&config(&bots, 4, seed), &tabula_intervalo::KIND, &mut MemoryStore::default(), &|_| {})
            .unwrap()
    };
    let first = run(11);
    let second = run(11);
    assert_eq!(first.games.len(), 10 * 4);
    assert_eq!(first.games, second.games);
    assert_eq!(first.bots, second.bots);
    let other = run(12);
    assert_ne!(first.games, other.games, "another seed plays other games");
}

#[test]
fn an_interrupted_tournament_resumes_from_its_store() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.jsonl");
    let config = config(&["random", "center", "greedy"], 6, 3);
    let full =
        run_tournament(&config, &tabula_intervalo::KIND, &mut MemoryStore::default(), &|_| {}).unwrap();

    // A first run that saved 7 games, the last one cut short mid-line.
    let mut store = JsonlStore::new(&path);
    run_tournament(&config, &tabula_intervalo::KIND, &mut store, &|_| {}).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + 18, "a header and one line per game");
    let mut cut = lines[..8].join("\n");
    cut.push('\n');
    cut.push_str(&lines[8][..lines[8].len() / 2]);
    std::fs::write(&path, cut).unwrap();

    let reports = Mutex::new(Vec::new());
    let mut store = JsonlStore::new(&path);
    let resumed = run_tournament(&config, &tabula_intervalo::KIND, &mut store, &|p| {
        reports.lock().unwrap().push((p.done, p.resumed, p.total));
    })
    .unwrap();
    let reports = reports.into_inner().unwrap();
    assert_eq!(reports.first(), Some(&(7, 7, 18)), "7 games were kept");
    assert_eq!(reports.last(), Some(&(18, 7, 18)));
    assert_eq!(reports.len(), 1 + 11, "only the 11 missing games were played");
    assert_eq!(resumed.games, full.games);
    assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 19);

    // A store of another tournament is refused, not mixed.
    let other = self::config(&["random", "center"], 6, 3);
    let error =
        run_tournament(&other, &tabula_intervalo::KIND, &mut JsonlStore::new(&path), &|_| {}).unwrap_err();
    assert!(matches!(error, TournamentError::Store(StoreError::Mismatch(_))), "{error}");
}

#[test]
fn results_are_ranked_by_games_won_and_rendered() {
    let report = run_tournament(
        &config(&["random", "center", "mcts:30"], 10, 9),
        &tabula_intervalo::KIND,
        &mut MemoryStore::default(),
        &|_| {},
    )
    .unwrap();
    let wins: Vec<u64> = report.bots.iter().map(|b| b.wins).collect();
    assert!(wins.windows(2).all(|w| w[0] >= w[1]), "{wins:?}");
    for b in &report.bots {
        assert_eq!(b.games, 20);
        assert_eq!(b.wins + b.losses + b.draws, 20);
        assert!(b.ci95[0] <= b.win_rate && b.win_rate <= b.ci95[1]);
        let h: u64 = report.head_to_head[b.index].iter().map(|c| c.wins).sum();
        assert_eq!(h, b.wins, "the matrix adds up");
    }
    let ratings: Vec<f64> = report.bots.iter().map(|b| b.rating).collect();
    assert!((ratings.iter().sum::<f64>() / 3.0 - 1500.0).abs() < 1e-6);

    let text = render_text(&report, tabula_model::Lang::En);
    assert!(
        text.starts_with(
            "intervalo -cells=12: 3 bots, 2 players a game, 10 games per pair, seed 9, 30 games"
        )
    );
    assert!(text.contains("Head to head"));
    let json: serde_json::Value = serde_json::from_str(&render_json(&report)).unwrap();
    for field in ["game", "seed", "games_per_pair", "bots", "games"] {
        assert!(json.get(field).is_some(), "{field}");
    }
    for field in ["name", "wins", "losses", "draws", "win_rate", "ci95", "rating"] {
        assert!(json["bots"][0].get(field).is_some(), "{field}");
    }
    for field in ["seats", "seed", "winner", "scores", "reason"] {
        assert!(json["games"][0].get(field).is_some(), "{field}");
    }
    let csv = render_csv(&report);
    assert_eq!(csv.lines().count(), 4);
    assert!(
        csv.starts_with("rank,bot,games,wins,losses,draws,win_rate,ci95_low,ci95_high,rating,failures\n")
    );
}

#[test]
fn bad_settings_are_refused_with_a_reason() {
    let mut c = config(&["random", "center"], 2, 1);
    c.players = 3;
    let e = run_tournament(&c, &tabula_intervalo::KIND, &mut MemoryStore::default(), &|_| {}).unwrap_err();
    assert_eq!(e.to_string(), "Intervalo is played by 2 to 2 players, not 3");
    let mut c = config(&["random", "center"], 2, 1);
    c.options = vec!["-cells=1".into()];
    let e = run_tournament(&c, &tabula_intervalo::KIND, &mut MemoryStore::default(), &|_| {}).unwrap_err();
    assert_eq!(e.to_string(), "-cells: must be between 2 and 4096, not 1");
    let c = config(&["random"], 2, 1);
    assert!(run_tournament(&c, &tabula_intervalo::KIND, &mut MemoryStore::default(), &|_| {}).is_err());
}

/// `mcts` against `random`, `greedy` and `center` on a 32-cell strip: in a
/// release build (as CI runs it) 40 games each, and the lower end of the 95%
/// interval of its win rate is above one half; an unoptimised build plays 10
/// games each and asks only for more wins than losses, to stay quick. The
/// full 100-games-per-pair tournaments are in docs/benchmarks/bots.md.
#[test]
fn mcts_beats_random_greedy_and_center() {
    let games = if cfg!(debug_assertions) { 10 } else { 40 };
    for opponent in ["random", "greedy", "center"] {
        let mut c = config(&["mcts:300", opponent], games, 77);
        c.options = vec!["-cells=32".into()];
        let report =
            run_tournament(&c, &tabula_intervalo::KIND, &mut MemoryStore::default(), &|_| {}).unwrap();
        let mcts = report.bots.iter().find(|b| b.name == "mcts:300").unwrap();
        if cfg!(debug_assertions) {
            assert!(mcts.wins > mcts.losses, "mcts against {opponent}: {mcts:?}");
        } else {
            assert!(mcts.ci95[0] > 0.5, "mcts against {opponent}: {mcts:?}");
        }
    }
}
