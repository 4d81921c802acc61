//! One pass of each case of `benches/engine.rs` (same strings, same rules),
//! for counting instructions, which unlike time is repeatable on a busy
//! machine. Prints each case's applications, output length and a checksum
//! of the output, so that two versions of the engine can be compared.
//!
//! Run: `cargo build --release -p tabula-rewrite --example one_pass`, then
//! `valgrind --tool=callgrind --toggle-collect='*one_case*' target/release/examples/one_pass [CASE]`
//! where CASE is a case name such as `az_lhs4-8/500` or `memcpy` (no CASE:
//! every case, each counted separately in the output of `callgrind_annotate`).

use std::hint::black_box;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tabula_rewrite::engine::RuleSet;

#[path = "../benches/common/mod.rs"]
mod common;
use common::{random_rules, random_string};

const LEN: usize = 16 << 20;

/// One pass (or the copy when `set` is `None`), a function of its own so
/// that callgrind can count it alone; [`warm_up`] runs it once before,
/// uncounted, so that the counted pass reuses the buffer as the bench does.
#[inline(never)]
fn one_case(set: Option<&RuleSet<usize>>, input: &[u8], out: &mut Vec<u8>) -> u64 {
    match set {
        Some(set) => set.run(black_box(input), usize::MAX, out, |_| {}).applications,
        None => {
            out.clear();
            out.extend_from_slice(black_box(input));
            0
        }
    }
}

#[inline(never)]
fn warm_up(set: Option<&RuleSet<usize>>, input: &[u8], out: &mut Vec<u8>) {
    match set {
        Some(set) => drop(set.run(black_box(input), usize::MAX, out, |_| {})),
        None => out.extend_from_slice(black_box(input)),
    }
}

/// The CPU time of the calling thread, in nanoseconds.
fn thread_cpu_ns() -> u64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid, writable timespec for the call.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

/// With `ONE_PASS_REPS=n` in the environment, the median CPU time of `n`
/// more runs of the case, in milliseconds, for quick comparisons.
fn timed(set: Option<&RuleSet<usize>>, input: &[u8], out: &mut Vec<u8>) -> Option<f64> {
    let reps: usize = std::env::var("ONE_PASS_REPS").ok()?.parse().ok()?;
    let mut times: Vec<u64> = (0..reps.max(1))
        .map(|_| {
            let started = thread_cpu_ns();
            one_case(set, input, out);
            thread_cpu_ns() - started
        })
        .collect();
    times.sort_unstable();
    Some(times[times.len() / 2] as f64 / 1e6)
}

fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

fn main() {
    let only = std::env::args().nth(1);
    let wanted = |name: &str| only.as_deref().is_none_or(|o| o == name);
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let dna = random_string(&mut rng, b"atcg", LEN);
    let mut out = Vec::with_capacity(LEN * 2);
    if wanted("memcpy") {
        warm_up(None, &dna, &mut out);
        one_case(None, &dna, &mut out);
        if let Some(ms) = timed(None, &dna, &mut out) {
            println!("memcpy: {ms:.3} ms cpu");
        }
    }
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
            let name = format!("{name}/{count}");
            if !wanted(&name) {
                continue;
            }
            warm_up(Some(&set), input, &mut out);
            let applied = one_case(Some(&set), input, &mut out);
            println!(
                "{name}: {applied} applications, output {} bytes, checksum {:016x}",
                out.len(),
                checksum(&out)
            );
            if let Some(ms) = timed(Some(&set), input, &mut out) {
                println!("{name}: {ms:.3} ms cpu");
            }
        }
    }
}
