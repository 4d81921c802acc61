//! The calculators players use to plan moves: `tabula dna remove`,
//! `tabula rewrite`, `tabula life run`. Each prints what the game's own
//! engine computes, so plans made with them hold in play.

use std::process::ExitCode;

use anyhow::Result;
use clap::Parser;

/// `tabula dna remove`: what nominating CHUNK does to SEQUENCE.
#[derive(Parser, Debug)]
#[command(
    name = "tabula dna remove",
    about = "Remove every instance of CHUNK from SEQUENCE by DNA's rule (left-to-right passes until one removes nothing)",
    after_help = "Any letters are allowed. Example: tabula dna remove TAAGAAGCGCCT AGC  prints TAT and removed 3."
)]
struct DnaRemove {
    /// Print each pass, with the removed chunks in brackets.
    #[arg(long)]
    trace: bool,
    /// Print {"sequence": "...", "removed": N} on one line.
    #[arg(long)]
    json: bool,
    /// The sequence to reduce.
    sequence: String,
    /// The chunk to remove.
    chunk: String,
}

/// Parse `args` (without the program name) for a tool and run it.
fn parse<T: Parser>(name: &str, args: &[String]) -> Result<T, ExitCode> {
    let argv = std::iter::once(name.to_string()).chain(args.iter().cloned());
    T::try_parse_from(argv).map_err(|e| {
        let code = if e.use_stderr() { 2 } else { 0 };
        let _ = e.print();
        ExitCode::from(code)
    })
}

fn finish(result: Result<String, String>) -> Result<ExitCode> {
    match result {
        Ok(out) => {
            print!("{out}");
            Ok(ExitCode::SUCCESS)
        }
        Err(msg) => {
            eprintln!("tabula: {msg}");
            Ok(ExitCode::from(1))
        }
    }
}

/// `tabula dna remove ...`
pub fn dna_remove(args: &[String]) -> Result<ExitCode> {
    let a: DnaRemove = match parse("tabula dna remove", args) {
        Ok(a) => a,
        Err(code) => return Ok(code),
    };
    finish(tabula_dna::calculator::remove_tool(&a.sequence, &a.chunk, a.trace, a.json))
}
