//! The calculators players use to plan moves: `tabula dna remove`,
//! `tabula rewrite run`, `tabula life run`. Each prints what the game's own
//! engine computes, so plans made with them hold in play. `--json` (the
//! global option) prints their results as JSON.

use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, Parser, Subcommand};

use crate::cli::Global;

/// `tabula dna remove`: what nominating CHUNK does to SEQUENCE.
#[derive(Parser, Debug)]
#[command(
    name = "tabula dna remove",
    about = "Remove every instance of CHUNK from SEQUENCE by DNA's rule (left-to-right passes until one removes nothing)",
    after_help = "Any letters are allowed. Example: tabula dna remove TAAGAAGCGCCT AGC  prints TAT and removed 3.\nWith --json: {\"sequence\": \"...\", \"removed\": N} on one line."
)]
struct DnaRemove {
    /// Print each pass, with the removed chunks in brackets.
    #[arg(long)]
    trace: bool,
    /// The sequence to reduce.
    sequence: String,
    /// The chunk to remove.
    chunk: String,
}

/// Parse `args` (without the program name) for the tool `name`, its help
/// in the reader's language.
fn parse<T: Parser>(name: &str, args: &[String], global: &Global) -> Result<T, ExitCode> {
    let argv = std::iter::once(name.to_string()).chain(args.iter().cloned());
    crate::help::parse::<T>(argv, &name.replace(' ', "-"), global.lang()).map_err(|e| {
        let code = if e.use_stderr() { 2 } else { 0 };
        crate::help::print(e);
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

/// The calculators' parsers, with their paths (see [`crate::help`]).
#[cfg(test)]
pub(crate) fn parsers() -> Vec<(&'static str, clap::Command)> {
    use clap::CommandFactory;
    vec![("tabula-dna-remove", DnaRemove::command()), ("tabula-rewrite-run", RewriteTool::command())]
}

/// `tabula dna remove ...`
pub fn dna_remove(global: &Global, args: &[String]) -> Result<ExitCode> {
    let a: DnaRemove = match parse("tabula dna remove", args, global) {
        Ok(a) => a,
        Err(code) => return Ok(code),
    };
    finish(tabula_dna::calculator::remove_tool(&a.sequence, &a.chunk, a.trace, global.json))
}

/// `tabula rewrite run`: one round of rewriting, as the game applies it.
#[derive(Parser, Debug)]
#[command(
    name = "tabula rewrite run",
    about = "Apply rule sets to a string as one round of Rewrite does: the newest set first, down to the oldest",
    after_help = "RULESFILE holds the rule sets oldest first, one rule a line (lhs=>rhs, or owner: lhs=>rhs), sets separated by a line ---. Any characters are allowed. `-` reads the file from standard input.\nWith --json: the result and every pass as JSON.\nExample: tabula rewrite run --start pupupusu rules.txt"
)]
struct RewriteTool {
    /// Print every pass with its applications.
    #[arg(long)]
    trace: bool,
    /// The start string.
    #[arg(long, conflicts_with = "start_file", required_unless_present = "start_file")]
    start: Option<String>,
    /// Read the start string from FILE (`-` for standard input; a final newline is not part of it).
    #[arg(long, value_name = "FILE")]
    start_file: Option<std::path::PathBuf>,
    /// The rule sets.
    rules_file: std::path::PathBuf,
}

/// Largest input file the tools read.
const MAX_TOOL_INPUT: u64 = 256 << 20;

fn read_input(path: &std::path::Path) -> Result<String, String> {
    use std::io::Read;
    let mut text = String::new();
    let shown = path.display();
    if path.as_os_str() == "-" {
        std::io::stdin()
            .take(MAX_TOOL_INPUT + 1)
            .read_to_string(&mut text)
            .map_err(|e| format!("reading standard input: {e}"))?;
    } else {
        let file = std::fs::File::open(path).map_err(|e| format!("{shown}: {e}"))?;
        // Sized once from the file's length: grown by doubling while
        // reading, a 16 MiB file took 32 MiB and a copy of itself.
        if let Ok(meta) = file.metadata() {
            text.reserve_exact(meta.len().min(MAX_TOOL_INPUT) as usize + 1);
        }
        file.take(MAX_TOOL_INPUT + 1).read_to_string(&mut text).map_err(|e| format!("{shown}: {e}"))?;
    }
    if text.len() as u64 > MAX_TOOL_INPUT {
        return Err(format!("{shown}: larger than {} MiB", MAX_TOOL_INPUT >> 20));
    }
    Ok(text)
}

/// `tabula rewrite run ...`
pub fn rewrite(global: &Global, args: &[String]) -> Result<ExitCode> {
    let a: RewriteTool = match parse("tabula rewrite run", args, global) {
        Ok(a) => a,
        Err(code) => return Ok(code),
    };
    if a.start_file.as_deref().is_some_and(|p| p.as_os_str() == "-") && a.rules_file.as_os_str() == "-" {
        return finish(Err("only one of --start-file and RULESFILE can be standard input".into()));
    }
    let start = match (&a.start, &a.start_file) {
        (Some(s), _) => s.clone(),
        (None, Some(path)) => match read_input(path) {
            Ok(mut s) => {
                if s.ends_with('\n') {
                    s.pop();
                    if s.ends_with('\r') {
                        s.pop();
                    }
                }
                s
            }
            Err(e) => return finish(Err(e)),
        },
        (None, None) => unreachable!("clap requires one of them"),
    };
    let rules = match read_input(&a.rules_file) {
        Ok(r) => r,
        Err(e) => return finish(Err(e)),
    };
    finish(tabula_rewrite::calculator::rewrite_tool(start, &rules, a.trace, global.json))
}

/// Evolve a board by the multi-colour Life rule (see `tabula life run --help`)
#[derive(Args, Debug)]
pub struct LifeArgs {
    #[command(subcommand)]
    command: LifeCommand,
}

#[derive(Subcommand, Debug)]
enum LifeCommand {
    Run(LifeRun),
}

/// `tabula life run`: evolve a board with the multi-colour Life rule.
#[derive(Args, Debug)]
#[command(
    about = "Evolve a board by the multi-colour Life rule of Conway and Real-Time Life and print it",
    after_help = "FILE holds rows of `.` (empty), `#` (neutral) and `A`..`Z` (players), top row first; the grid size is the file's. `-` reads standard input. With --edges unbounded the plane grows as needed and the printout is the bounding box, after a line `#offset X Y` giving its top-left corner relative to the input's."
)]
struct LifeRun {
    /// Generations to run.
    #[arg(long)]
    generations: u64,
    /// torus (default), dead (nothing lives outside the grid) or unbounded.
    #[arg(long, default_value = "torus")]
    edges: String,
    /// The board file (`-` for standard input).
    file: std::path::PathBuf,
}

/// `tabula life ...`
pub fn life(args: LifeArgs) -> Result<ExitCode> {
    let LifeCommand::Run(a) = args.command;
    let board = match read_input(&a.file) {
        Ok(b) => b,
        Err(e) => return finish(Err(e)),
    };
    finish(tabula_life::tool::life_tool(&board, a.generations, &a.edges))
}
