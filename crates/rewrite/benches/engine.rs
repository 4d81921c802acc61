//! One pass of the rewriting engine over a 16 MiB string, against a plain
//! copy of the same 16 MiB measured in the same run.
//!
//! Run: `cargo bench -p tabula-rewrite --bench engine -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tabula_rewrite::engine::{Rule, RuleSet};

const LEN: usize = 16 << 20;

fn random_string(rng: &mut ChaCha8Rng, alphabet: &[u8], len: usize) -> Vec<u8> {
    (0..len).map(|_| alphabet[rng.random_range(0..alphabet.len())]).collect()
}

/// `count` rules with distinct random left sides of `lhs_len` letters and
/// right sides of 0 to 8 letters, as players of the game write them.
fn random_rules(
    rng: &mut ChaCha8Rng,
    alphabet: &[u8],
    count: usize,
    lhs_len: (usize, usize),
) -> RuleSet<usize> {
    let mut seen = std::collections::HashSet::new();
    let mut rules = Vec::new();
    while rules.len() < count {
        let n = rng.random_range(lhs_len.0..=lhs_len.1);
        let lhs = String::from_utf8(random_string(rng, alphabet, n)).unwrap();
        if !seen.insert(lhs.clone()) {
            continue;
        }
        let m = rng.random_range(0..=8);
        let rhs = String::from_utf8(random_string(rng, alphabet, m)).unwrap();
        rules.push(Rule::new(rules.len(), lhs, rhs));
    }
    RuleSet::new(rules).unwrap()
}

fn bench(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let mut group = c.benchmark_group("pass_16MiB");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(LEN as u64));

    let dna = random_string(&mut rng, b"atcg", LEN);
    group.bench_function("memcpy", |b| {
        let mut out = Vec::with_capacity(LEN);
        b.iter(|| {
            out.clear();
            out.extend_from_slice(black_box(&dna));
            black_box(out.len())
        })
    });

    let letters: Vec<u8> = (b'a'..=b'z').collect();
    let text = random_string(&mut rng, &letters, LEN);
    let cases = [
        ("atcg_lhs3-8", &dna, b"atcg".as_slice(), (3, 8)),
        ("az_lhs2-4", &text, letters.as_slice(), (2, 4)),
        ("az_lhs4-8", &text, letters.as_slice(), (4, 8)),
    ];
    for (name, input, alphabet, lhs_len) in cases {
        for count in [10, 500] {
            let set = random_rules(&mut rng, alphabet, count, lhs_len);
            let mut out = Vec::with_capacity(LEN * 2);
            let mut applied = 0;
            group.bench_with_input(BenchmarkId::new(name, count), input, |b, input| {
                b.iter(|| {
                    out.clear();
                    let summary = set.run(black_box(input), usize::MAX, &mut out, |_| {});
                    applied = summary.applications;
                    black_box(out.len())
                })
            });
            eprintln!("{name}/{count}: {applied} applications, output {} bytes", out.len());
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
