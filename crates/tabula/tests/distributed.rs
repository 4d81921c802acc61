//! A tournament spread over worker processes on one PostgreSQL database,
//! one worker killed (`kill -9`) in the middle of a game, gives exactly the
//! results of the same tournament played by one process. Skipped without
//! `TABULA_TEST_POSTGRES` (failed with `TABULA_REQUIRE_POSTGRES=1`).

mod common;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{BIN, Tabula};
use serde_json::Value;

const TOURNAMENT: &[&str] = &[
    "tournament",
    "--game",
    "intervalo",
    "--bot",
    "random",
    "--bot",
    "greedy",
    "--bot",
    "mcts:60",
    "--games-per-pair",
    "4",
    "--seed",
    "11",
    "--quiet",
];

fn worker(db: &str) -> Child {
    Command::new(BIN)
        .args(["worker", "--db", db, "--threads", "1", "--lease", "1", "--exit-when-idle"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tabula worker starts")
}

/// The game `pid`'s worker holds and has not finished, if any.
async fn held_by(pool: &sqlx::PgPool, pid: u32) -> Option<i64> {
    sqlx::query_scalar("SELECT idx FROM tournament_jobs WHERE claimed_by LIKE $1 AND NOT done")
        .bind(format!("worker-{pid}-%"))
        .fetch_optional(pool)
        .await
        .unwrap()
}

#[test]
fn three_workers_one_killed_give_the_results_of_one_process() {
    let Some(db) = common::pg::fresh_database() else { return };
    let dir = tempfile::tempdir().unwrap();
    let shared_json = dir.path().join("shared.json");
    let local_json = dir.path().join("local.json");

    let organiser = Command::new(BIN)
        .args(["--db", &db])
        .args(TOURNAMENT)
        .args(["--distributed", "--json-file", shared_json.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let pool = rt.block_on(sqlx::PgPool::connect(&db)).unwrap();
    // Wait until the games are offered.
    let started = Instant::now();
    while rt
        .block_on(sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM tournament_jobs").fetch_one(&pool))
        .unwrap_or(0)
        < 12
    {
        assert!(started.elapsed() < Duration::from_secs(30), "the games were never offered");
        std::thread::sleep(Duration::from_millis(20));
    }

    let mut doomed = worker(&db);
    let others = [worker(&db), worker(&db)];
    // Kill the first worker while it is playing a game (after it has finished at least one).
    let pid = doomed.id();
    let started = Instant::now();
    let killed_game = loop {
        assert!(started.elapsed() < Duration::from_secs(60), "the first worker never played");
        let finished_one: i64 = rt
            .block_on(
                sqlx::query_scalar("SELECT COUNT(*) FROM tournament_jobs WHERE claimed_by LIKE $1 AND done")
                    .bind(format!("worker-{pid}-%"))
                    .fetch_one(&pool),
            )
            .unwrap();
        if finished_one > 0
            && let Some(game) = rt.block_on(held_by(&pool, pid))
        {
            doomed.kill().unwrap(); // SIGKILL
            break game;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    doomed.wait().unwrap();
    let was_unfinished: bool = rt
        .block_on(
            sqlx::query_scalar("SELECT NOT done FROM tournament_jobs WHERE idx = $1")
                .bind(killed_game)
                .fetch_one(&pool),
        )
        .unwrap();

    for w in others {
        let out = w.wait_with_output().unwrap();
        assert!(out.status.success(), "worker: {}", String::from_utf8_lossy(&out.stderr));
    }
    let out = organiser.wait_with_output().unwrap();
    assert!(out.status.success(), "tournament: {}", String::from_utf8_lossy(&out.stderr));
    let shared_text = String::from_utf8(out.stdout).unwrap();

    // The game the killed worker was playing was claimed again and finished.
    let (attempts, done): (i64, bool) = rt
        .block_on(
            sqlx::query_as("SELECT attempts, done FROM tournament_jobs WHERE idx = $1")
                .bind(killed_game)
                .fetch_one(&pool),
        )
        .unwrap();
    assert!(done, "game {killed_game} was never finished");
    eprintln!(
        "killed during game {killed_game} (unfinished: {was_unfinished}); it was claimed {attempts} times"
    );
    if was_unfinished {
        assert!(attempts >= 2, "game {killed_game} was not played again after its worker died");
    }
    let rows: i64 =
        rt.block_on(sqlx::query_scalar("SELECT COUNT(*) FROM tournament_games").fetch_one(&pool)).unwrap();
    assert_eq!(rows, 12, "one stored result per game");

    // The same tournament in one process.
    let local = Tabula::new();
    let out = local.command(TOURNAMENT).args(["--json-file", local_json.to_str().unwrap()]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let local_text = String::from_utf8(out.stdout).unwrap();

    let read = |p: &std::path::Path| -> Value { serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap() };
    let (mut shared, mut alone) = (read(&shared_json), read(&local_json));
    assert_eq!(shared["games"].as_array().unwrap().len(), 12);
    assert_eq!(shared["games"], alone["games"], "per-game results differ");
    shared["elapsed_seconds"] = Value::Null;
    alone["elapsed_seconds"] = Value::Null;
    assert_eq!(shared, alone, "the reports differ");
    assert_eq!(shared_text, local_text, "the printed results differ");
}

/// Kill `child` if it is still running after `limit`; its output.
fn finish_within(child: Child, limit: Duration, what: &str) -> std::process::Output {
    let pid = child.id();
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(child.wait_with_output());
    });
    match receiver.recv_timeout(limit) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("{what} did not end within {limit:?}");
        }
    }
}

/// Bots that never read their input lose their games on the workers too,
/// and the distributed tournament ends (before the referee's writes had
/// deadlines, a worker blocked on such a bot for ever and kept renewing its
/// claim, so no other worker could take the game).
#[test]
fn bots_that_never_read_lose_on_the_workers_and_the_tournament_ends() {
    let Some(db) = common::pg::fresh_database() else { return };
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("results.json");
    let deaf: std::path::PathBuf =
        [env!("CARGO_MANIFEST_DIR"), "..", "bots", "tests", "bots", "deaf.py"].iter().collect();
    let organiser = Command::new(BIN)
        .args(["--db", &db, "tournament", "--game", "rtlife", "--bot", "greedy", "--bot"])
        .arg(format!("python3 '{}'", deaf.display()))
        .args([
            "--bot",
            "yes pass",
            "--games-per-pair",
            "1",
            "--move-time",
            "500",
            "--distributed",
            "--quiet",
        ])
        .arg("--json-file")
        .arg(&json)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Workers that find nothing to do stop: start them once the games are offered.
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let pool = rt.block_on(sqlx::PgPool::connect(&db)).unwrap();
    let started = Instant::now();
    while rt
        .block_on(sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM tournament_jobs").fetch_one(&pool))
        .unwrap_or(0)
        < 3
    {
        assert!(started.elapsed() < Duration::from_secs(30), "the games were never offered");
        std::thread::sleep(Duration::from_millis(20));
    }
    let workers = [worker(&db), worker(&db)];
    let out = finish_within(organiser, Duration::from_secs(300), "the distributed tournament");
    assert!(out.status.success(), "tournament: {}", String::from_utf8_lossy(&out.stderr));
    for w in workers {
        let out = finish_within(w, Duration::from_secs(30), "a worker");
        assert!(out.status.success(), "worker: {}", String::from_utf8_lossy(&out.stderr));
    }
    let report: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let games = report["games"].as_array().unwrap();
    assert_eq!(games.len(), 3);
    for game in games {
        let seats = game["seats"].as_array().unwrap();
        for (seat, name) in seats.iter().enumerate() {
            let result = game["results"][seat].as_str().unwrap();
            if name == "greedy" {
                assert_eq!(result, "win", "{game}");
                continue;
            }
            assert_eq!(result, "loss", "{game}");
            let failure = game["failures"].as_array().unwrap().iter().find(|f| f["seat"] == seat).unwrap();
            assert_eq!(failure["kind"], "timed_out", "{game}");
            assert!(failure["message"].as_str().unwrap().contains("did not read its input within 500 ms"));
        }
    }
}
