//! Writes the inputs of the engine bench's `atcg_lhs3-8/500` case as files
//! for `tabula rewrite`, so that the tool's memory and time are measured on
//! the string and rules the engine's figure is measured on:
//!
//!     cargo run --release -p tabula-rewrite --example tool_inputs -- DIR
//!     /usr/bin/time -f '%M KiB %e s' target/release/tabula rewrite \
//!         --start-file DIR/start.txt DIR/rules.txt >/dev/null
//!
//! `DIR/start.txt` holds the 16 MiB string (no final newline) and
//! `DIR/rules.txt` the 500 rules, one `lhs=>rhs` a line.

use std::io::Write;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[path = "../benches/common/mod.rs"]
mod common;
use common::{random_rules, random_string};

const LEN: usize = 16 << 20;

fn main() -> std::io::Result<()> {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: tool_inputs DIR");
        std::process::exit(2);
    };
    let dir = std::path::PathBuf::from(dir);
    std::fs::create_dir_all(&dir)?;
    // The bench's order of draws from one generator: the 4-letter string,
    // the 26-letter string, then the 4-letter case's 10 and 500 rules.
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let dna = random_string(&mut rng, b"atcg", LEN);
    let letters: Vec<u8> = (b'a'..=b'z').collect();
    let _text = random_string(&mut rng, &letters, LEN);
    let _ten = random_rules(&mut rng, b"atcg", 10, (3, 8));
    let set = random_rules(&mut rng, b"atcg", 500, (3, 8));
    std::fs::write(dir.join("start.txt"), &dna)?;
    let mut rules = std::io::BufWriter::new(std::fs::File::create(dir.join("rules.txt"))?);
    for rule in set.rules() {
        writeln!(rules, "{}=>{}", rule.lhs, rule.rhs)?;
    }
    rules.flush()
}
