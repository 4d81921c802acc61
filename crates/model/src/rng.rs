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

/// The streams of one seed, for a caller that opens one per event (games
/// played at machine speed): the seed is expanded into the generator's key
/// once, not for every event. [`GameStreams::stream`] draws exactly what
/// [`rng_for`] of the same seed and stream draws.
#[derive(Clone, Debug)]
pub struct GameStreams {
    key: <GameRng as SeedableRng>::Seed,
}

impl GameStreams {
    /// The streams of `seed`.
    pub fn new(seed: u64) -> GameStreams {
        GameStreams { key: ChaCha8Rng::seed_from_u64(seed).get_seed() }
    }

    /// The generator of stream `stream`, as [`rng_for`] makes it.
    pub fn stream(&self, stream: u64) -> GameRng {
        let mut rng = ChaCha8Rng::from_seed(self.key);
        rng.set_stream(stream);
        rng
    }

    /// Make `rng` what [`GameStreams::stream`] of `stream` would give, in
    /// place. Most events of most games draw nothing: a generator of this
    /// seed that nothing has been drawn from only needs its stream number
    /// changed, which is far cheaper than building a new one.
    pub fn reset(&self, rng: &mut GameRng, stream: u64) {
        // Word position 0 means no block was generated: the state is the
        // key, a block counter of 0 and the stream, so the new stream
        // number alone makes it a fresh generator of that stream.
        if rng.get_word_pos() == 0 && rng.get_seed() == self.key {
            rng.set_stream(stream);
        } else {
            *rng = self.stream(stream);
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::Rng;

    use super::{GameStreams, rng_for};

    #[test]
    fn a_reset_generator_draws_what_a_new_one_draws() {
        let streams = GameStreams::new(7);
        let mut rng = streams.stream(0);
        for (stream, draws) in [(1, 0), (2, 3), (3, 0), (4, 0), (5, 200), (6, 1), (7, 0)] {
            streams.reset(&mut rng, stream);
            let mut fresh = rng_for(7, stream);
            for _ in 0..draws {
                assert_eq!(rng.random::<u32>(), fresh.random::<u32>(), "stream {stream}");
            }
        }
        // A generator of another seed is replaced.
        let mut other = rng_for(8, 1);
        streams.reset(&mut other, 9);
        assert_eq!(other.random::<u64>(), rng_for(7, 9).random::<u64>());
    }

    #[test]
    fn streams_draw_what_rng_for_draws() {
        for seed in [0, 1, 2026, u64::MAX] {
            let streams = GameStreams::new(seed);
            for stream in [0, 1, 2, 77, u64::MAX] {
                let (mut a, mut b) = (rng_for(seed, stream), streams.stream(stream));
                let a: Vec<u64> = (0..40).map(|_| a.random()).collect();
                let b: Vec<u64> = (0..40).map(|_| b.random()).collect();
                assert_eq!(a, b, "seed {seed}, stream {stream}");
            }
        }
    }
}
