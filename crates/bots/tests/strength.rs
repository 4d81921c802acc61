//! The strongest Intervalo bot is not read and beaten by a simple outside
//! heuristic (before its opponent model and look-ahead, the block builder
//! of `examples/bots/neighbour.py` beat `mcts` 17-2-1 and drew a third of
//! its games against `nash`). The full figures, 200 games a pair, are in
//! `docs/benchmarks/bots.md`.

use std::path::PathBuf;

use tabula_bots::{BotLimits, BotSpec, MemoryStore, TournamentConfig, run_tournament};

#[test]
fn nash_beats_the_block_builder() {
    let neighbour: PathBuf =
        [env!("CARGO_MANIFEST_DIR"), "..", "..", "examples", "bots", "neighbour.py"].iter().collect();
    let outside = format!("python3 '{}'", neighbour.display());
    let bots = vec![BotSpec::parse("nash").unwrap(), BotSpec::parse(&outside).unwrap()];
    let mut config = TournamentConfig::new("intervalo", bots);
    config.games_per_pair = 10;
    config.seed = 2026;
    config.threads = 1;
    // Generous limits: the check is about the moves, not the machine's speed.
    config.move_time = std::time::Duration::from_secs(10);
    config.limits = BotLimits { startup_time: std::time::Duration::from_secs(10), ..BotLimits::default() };
    let report =
        run_tournament(&config, &tabula_intervalo::KIND, &mut MemoryStore::default(), &|_| {}).unwrap();
    let nash = report.bots.iter().find(|b| b.name == "nash").unwrap();
    assert_eq!(nash.failures, 0);
    assert!(nash.wins >= 9, "nash won {} of 10 ({} lost, {} drawn)", nash.wins, nash.losses, nash.draws);
}
