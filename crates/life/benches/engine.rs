//! The engines alone: one generation of 50% soups on tori (two players, and
//! eight players with neutral cells, single thread), and the unbounded plane
//! against the torus on the dense bounding box of a sparse field.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tabula_life::{Life, Owner, Threads, Topology, Universe};

fn soup(topology: Topology, width: i64, height: i64, owners: usize, percent: u32, seed: u64) -> Universe {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut life = Universe::new(topology).unwrap();
    life.set_threads(Threads::Single);
    for y in 0..height {
        for x in 0..width {
            if rng.random_range(0..1000) < percent {
                let k = rng.random_range(0..owners);
                let owner = if k == 8 { Owner::Neutral } else { Owner::Player(k as u8) };
                life.set(x, y, Some(owner)).unwrap();
            }
        }
    }
    life
}

fn torus(c: &mut Criterion) {
    let mut group = c.benchmark_group("torus");
    for side in [1024u64, 4096] {
        group.throughput(Throughput::Elements(side * side));
        for (name, owners) in [("2 players", 2), ("8 players + neutral", 9)] {
            let mut life =
                soup(Topology::Torus { width: side, height: side }, side as i64, side as i64, owners, 500, 1);
            life.step(20);
            group
                .bench_function(format!("{side}x{side} {name}, one generation"), |b| b.iter(|| life.step(1)));
        }
    }
    group.finish();
}

/// A field of about 1M live cells spread over 20000x20000, in 7800
/// clusters (random 16x16 soups) or scattered uniformly: one generation on
/// the unbounded plane, and on a torus the size of the bounding box.
fn sparse(c: &mut Criterion) {
    let mut group = c.benchmark_group("sparse");
    group.sample_size(10);
    let side = 20_000i64;
    for layout in ["clustered", "scattered"] {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut plane = Universe::new(Topology::Unbounded).unwrap();
        plane.set_threads(Threads::Single);
        let mut dense = Universe::new(Topology::Torus { width: side as u64, height: side as u64 }).unwrap();
        dense.set_threads(Threads::Single);
        let mut put = |x: i64, y: i64, owner: Option<Owner>| {
            plane.set(x, y, owner).unwrap();
            dense.set(x, y, owner).unwrap();
        };
        if layout == "clustered" {
            // 7800 soups of 128 live cells on average.
            for _ in 0..7800 {
                let (x0, y0) = (rng.random_range(0..side - 16), rng.random_range(0..side - 16));
                for y in 0..16 {
                    for x in 0..16 {
                        if rng.random_bool(0.5) {
                            put(x0 + x, y0 + y, Some(Owner::Player(rng.random_range(0..2))));
                        }
                    }
                }
            }
        } else {
            for _ in 0..1_000_000 {
                put(
                    rng.random_range(0..side),
                    rng.random_range(0..side),
                    Some(Owner::Player(rng.random_range(0..2))),
                );
            }
        }
        group.throughput(Throughput::Elements(plane.population().total()));
        group.bench_function(format!("1M cells {layout} over 20000x20000, unbounded plane"), |b| {
            b.iter_batched(|| plane.clone(), |mut p| p.step(1), criterion::BatchSize::LargeInput)
        });
        group.bench_function(format!("1M cells {layout} over 20000x20000, torus of the box"), |b| {
            b.iter_batched(|| dense.clone(), |mut d| d.step(1), criterion::BatchSize::LargeInput)
        });
    }
    group.finish();
}

criterion_group!(benches, torus, sparse);
criterion_main!(benches);
