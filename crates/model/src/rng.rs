use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The only source of randomness a game may use: ChaCha, seeded from the
/// record. Replays draw the same numbers, so they are exact.
pub type GameRng = ChaCha8Rng;

/// The generator for one stream of a game: stream 0 is the set-up, stream
/// `i + 1` belongs to event `i` of the record. Separate streams keep each
/// event's draws independent of how many numbers earlier events used, so an
/// undo or a replay of a prefix draws exactly what the full game drew.
pub fn rng_for(seed: u64, stream: u64) -> GameRng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(stream);
    rng
}
