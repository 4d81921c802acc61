//! The shared random-playout test for many option sets.

use tabula_dna::KIND;
use tabula_model::testing::{SimConfig, random_sim};

fn sim(options: &[&str], players: usize, games: u64) {
    random_sim(
        &KIND,
        &SimConfig {
            options: options.iter().map(|o| o.to_string()).collect(),
            players,
            games,
            ..SimConfig::default()
        },
    );
}

#[test]
fn default_options_two_to_eight_players() {
    for players in 2..=8 {
        sim(&[], players, 4);
    }
}

#[test]
fn manual_set_up() {
    sim(&["-manual"], 3, 6);
    sim(&["-manual", "-length=12"], 8, 3);
}

#[test]
fn need_not_own() {
    sim(&["-need_not_own"], 4, 5);
}

#[test]
fn no_reduce_self() {
    sim(&["-no_reduce_self"], 3, 5);
}

#[test]
fn reduce_next() {
    sim(&["-reduce_next"], 5, 5);
    sim(&["-reduce_next", "-no_reduce_self"], 4, 5);
}

#[test]
fn two_letters() {
    sim(&["-base=2", "-chunk=2"], 3, 5);
    sim(&["-base=2"], 6, 3);
    sim(&["-base=3", "-length=20"], 4, 4);
}

#[test]
fn chunk_ranges() {
    sim(&["-min_chunk=2", "-max_chunk=4"], 4, 4);
    sim(&["-chunk=4", "-length=40"], 3, 4);
    sim(&["-min_chunk=2", "-max_chunk=5", "-need_not_own", "-non_incremental"], 3, 3);
}

#[test]
fn short_sequences_end_quickly() {
    sim(&["-length=6", "-chunk=2"], 2, 10);
    sim(&["-length=7", "-manual", "-non_incremental"], 4, 6);
}
