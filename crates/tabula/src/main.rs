//! The `tabula` binary: the definition of the command-line interface and
//! the glue between it and the service. Everything a command does happens
//! in the service; this file only parses arguments, opens the store and
//! prints replies.
//!
//! Exit status: 0 when the command succeeded, 1 when it was rejected (the
//! reason is printed), 2 on bad usage.

mod backup;
mod botcmd;
mod botplay;
mod cli;
mod help;
mod hosted;
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

unsafe extern "C" {
    /// mimalloc's option setter (in the library the `mimalloc` crate builds).
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

/// `mi_option_purge_delay` in the mimalloc the `mimalloc` crate builds (its
/// version 3, whose option list this is the 16th entry of).
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

fn main() -> ExitCode {
    cli::main()
}

/// Have freed pages given back to the system after 10 ms, for a
/// long-running server. With mimalloc's own delay (one second in its
/// version 3) a thread gives them back only on its next allocation after
/// the delay, and a blocking thread that replayed a 16 MiB Rewrite game
/// and then waited kept its pages: 12 replays with 30 event streams open
/// on such a game peaked at 273 to 283 MB resident (docs/reliability.md,
/// "Abuse"). Given back at once, every page the async workers freed
/// between two moves was a system call, a shootdown of the other cores'
/// address caches and a fresh page fault on the next move: the server
/// spent 6 to 13% more processor time per move under load than with a
/// delay. 10 ms keeps most of both (docs/benchmarks/server.md).
///
/// A process that runs one command keeps mimalloc's delay: it exits in
/// milliseconds. Called before the process starts any thread.
pub(crate) fn give_freed_pages_back_soon() {
    // SAFETY: sets one integer option while no other thread exists.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, 10) };
}
