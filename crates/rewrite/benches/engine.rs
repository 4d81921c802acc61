//! One pass of the rewriting engine over a 16 MiB string, against a plain
//! copy of the same 16 MiB measured in the same run.
//!
//! Every case is measured twice: in wall-clock time (`pass_16MiB`) and in
//! the CPU time of the benchmarking thread (`pass_16MiB_cpu`). On a shared
//! machine the wall-clock ratio is inflated for the long passes, which are
//! preempted where a short copy is not; CPU time is not.
//!
//! Run: `cargo bench -p tabula-rewrite --bench engine -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

mod common;
use common::{random_rules, random_string};

const LEN: usize = 16 << 20;

/// The CPU time of the calling thread, in nanoseconds.
struct ThreadCpu;

fn thread_cpu_ns() -> u64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid, writable timespec for the call.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

impl Measurement for ThreadCpu {
    type Intermediate = u64;
    type Value = u64;

    fn start(&self) -> u64 {
        thread_cpu_ns()
    }

    fn end(&self, started: u64) -> u64 {
        thread_cpu_ns().saturating_sub(started)
    }

    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }

    fn zero(&self) -> u64 {
        0
    }

    fn to_f64(&self, value: &u64) -> f64 {
        *value as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        &CpuFormatter
    }
}

/// Shows CPU nanoseconds as milliseconds and bytes per CPU second as MiB/s.
struct CpuFormatter;

impl ValueFormatter for CpuFormatter {
    fn scale_values(&self, _typical: f64, values: &mut [f64]) -> &'static str {
        for v in values {
            *v /= 1e6;
        }
        "ms cpu"
    }

    fn scale_throughputs(&self, _typical: f64, throughput: &Throughput, values: &mut [f64]) -> &'static str {
        let bytes = match *throughput {
            Throughput::Bytes(b) | Throughput::BytesDecimal(b) => b as f64,
            Throughput::Elements(e) => e as f64,
            Throughput::Bits(b) => b as f64 / 8.0,
        };
        for v in values {
            *v = bytes * 1e9 / *v / (1024.0 * 1024.0);
        }
        "MiB/s cpu"
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

fn cases<M: Measurement>(c: &mut Criterion<M>, group: &str, report: bool) {
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let mut group = c.benchmark_group(group);
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
                    let summary = set.run(black_box(input), usize::MAX, &mut out, |_| {});
                    applied = summary.applications;
                    black_box(out.len())
                })
            });
            if report {
                eprintln!("{name}/{count}: {applied} applications, output {} bytes", out.len());
            }
        }
    }
    group.finish();
}

fn wall(c: &mut Criterion) {
    cases(c, "pass_16MiB", true);
}

fn cpu(c: &mut Criterion<ThreadCpu>) {
    cases(c, "pass_16MiB_cpu", false);
}

criterion_group!(wall_clock, wall);
criterion_group! {
    name = cpu_time;
    config = Criterion::default().with_measurement(ThreadCpu);
    targets = cpu
}
criterion_main!(wall_clock, cpu_time);
