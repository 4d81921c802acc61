//! A centre-seeking Intervalo bot speaking the Tabula bot protocol v1:
//! JSON lines in, one move line out per `turn`.
//!
//! Build with `cargo build --release` in this directory, then use
//! `examples/bots/rust-center/target/release/rust-center` as a bot command.

use std::io::{self, BufRead, Write};

use serde_json::Value;

/// The empty cell (1-based) nearest the middle of the strip; the lower one
/// of two equally near.
fn choose(strip: &str) -> Option<usize> {
    let n = strip.len();
    strip
        .bytes()
        .enumerate()
        .filter(|&(_, c)| c == b'.')
        .min_by_key(|&(i, _)| ((2 * i + 1).abs_diff(n), i))
        .map(|(i, _)| i + 1)
}

fn main() -> io::Result<()> {
    let stdin = io::stdin();
    let mut stdout = io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line?;
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            eprintln!("not JSON: {line}");
            continue;
        };
        match message["type"].as_str() {
            Some("turn") => {
                let strip = message["view"]["strip"].as_str().unwrap_or("");
                match choose(strip) {
                    Some(cell) => writeln!(stdout, "{cell}")?,
                    None => writeln!(stdout, "1")?,
                }
                stdout.flush()?;
            }
            Some("quit") => break,
            _ => {}
        }
    }
    Ok(())
}
