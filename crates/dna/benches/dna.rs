//! Speed of chunk removal and of nominations.
//!
//! `cargo bench -p tabula-dna --bench dna -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use tabula_dna::engine::{self, Remover};
use tabula_dna::{Dna, DnaMove, INFO};
use tabula_model::{Ctx, Options, Rules, Setup, rng_for};

fn random_dna(len: usize, seed: u64) -> Vec<u8> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    (0..len).map(|_| b"ACGT"[rng.random_range(0..4)]).collect()
}

/// `A^n C^n` minus `AC`: every pass of the literal rule removes one chunk.
fn nested(len: usize) -> Vec<u8> {
    let mut s = vec![b'A'; len / 2];
    s.resize(len, b'C');
    s
}

fn removal(c: &mut Criterion) {
    let mut group = c.benchmark_group("removal");
    for len in [36usize, 4096, 1 << 20] {
        let random = random_dna(len, 1);
        group.throughput(Throughput::Bytes(len as u64));
        let mut remover = Remover::new();
        let mut out = Vec::with_capacity(len);
        group.bench_with_input(BenchmarkId::new("fast/random/ACG", len), &random, |b, s| {
            b.iter(|| {
                let n = remover.run(black_box(s), b"ACG");
                out.clear();
                remover.write_result(s, &mut out);
                n
            })
        });
        let deep = nested(len);
        group.bench_with_input(BenchmarkId::new("fast/nested/AC", len), &deep, |b, s| {
            b.iter(|| {
                let n = remover.run(black_box(s), b"AC");
                out.clear();
                remover.write_result(s, &mut out);
                n
            })
        });
        if len <= 4096 {
            group.bench_with_input(BenchmarkId::new("reference/random/ACG", len), &random, |b, s| {
                b.iter(|| engine::remove_by_passes(black_box(s), b"ACG"))
            });
            group.bench_with_input(BenchmarkId::new("reference/nested/AC", len), &deep, |b, s| {
                b.iter(|| engine::remove_by_passes(black_box(s), b"AC"))
            });
        }
    }
    group.finish();
}

/// An 8-player game with 36-letter sequences, after set-up.
fn eight_player_game() -> Dna {
    let options = Options::parse::<&str>(&INFO, &[]).expect("default options");
    let players: Vec<String> = (0..8).map(|i| format!("p{i}")).collect();
    let setup = Setup { options: &options, players: &players, start: 0 };
    Dna::new(&setup, &mut rng_for(42, 0)).expect("game sets up")
}

fn nominations(c: &mut Criterion) {
    let game = eight_player_game();
    let tabula_model::Turn::Player(mover) = game.to_move() else { panic!("a player moves") };
    let legal = game.legal_moves(mover).expect("listed");
    let chosen = legal[legal.len() / 2].clone();
    let DnaMove::Nominate(letters) = &chosen else { panic!("a nomination") };
    let chunk = String::from_utf8_lossy(letters).into_owned();
    let mut group = c.benchmark_group("nomination/8 players x 36");
    group.bench_function("parse+check", |b| {
        b.iter(|| {
            let mv = game.parse_move(mover, black_box(&chunk)).expect("parses");
            game.check_move(mover, &mv).expect("legal")
        })
    });
    group.bench_function("clone", |b| b.iter(|| black_box(&game).clone()));
    group.bench_function("clone+apply", |b| {
        b.iter(|| {
            let mut next = game.clone();
            let mut rng = rng_for(1, 1);
            next.apply_move(mover, chosen.clone(), &mut Ctx { now: 0, rng: &mut rng, history: true })
        })
    });
    group.bench_function("legal_moves", |b| b.iter(|| game.legal_moves(black_box(mover))));
    group.bench_function("nominations with effects", |b| b.iter(|| game.nominations(black_box(mover))));
    group.finish();
}

criterion_group!(benches, removal, nominations);
criterion_main!(benches);
