//! The `tabula` binary: the definition of the command-line interface and
//! the glue between it and the service. Everything a command does happens
//! in the service; this file only parses arguments, opens the store and
//! prints replies.
//!
//! Exit status: 0 when the command succeeded, 1 when it was rejected (the
//! reason is printed), 2 on bad usage.

mod backup;
mod cli;
mod mail;
mod serve;
mod tools;
mod tournament;
mod worker;

use std::process::ExitCode;

/// mimalloc instead of the system allocator: a move through the server
/// allocates and frees hundreds of small blocks (the request, the reply's
/// JSON, the SQL rows), and glibc's malloc spent about a third of the
/// server's time on them under load, most of it consolidating and
/// splitting chunks shared between threads. Built without its advice for
/// transparent huge pages (the `no_thp` feature): with it, the server's
/// heap was backed by 2 MiB pages partly used, and its resident size under
/// the benchmark's load peaked at 180 to 185 MiB instead of 159 to 164.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    cli::main()
}
