//! Every game's options and move syntax, through the games registry (see
//! `tabula_model::testing::fuzz_moves`: the first byte picks the game, the
//! second the number of players, then option words and moves).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    tabula_model::testing::fuzz_moves(tabula_games::all(), data);
});
