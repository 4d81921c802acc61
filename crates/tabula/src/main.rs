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
/// splitting chunks shared between threads. mimalloc advises its heap for
/// transparent huge pages; whether the kernel may use them is decided per
/// process: see [`keep_the_heap_in_small_pages`].
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
    keep_the_heap_in_small_pages();
    cli::main()
}

/// Keep the kernel from backing this process's memory with 2 MiB pages,
/// whatever mimalloc advises and the system allows: pages partly used
/// count whole and are cleared whole, and with them the server's resident
/// size under load, that of `tabula rewrite run` on a long string and the
/// time of `tabula intervalo show` all grew, with nothing faster
/// (docs/benchmarks/server.md, "Huge pages only for the password check").
/// Bots started by this process inherit the setting; a kernel without it
/// changes nothing.
fn keep_the_heap_in_small_pages() {
    #[cfg(target_os = "linux")]
    let _ = rustix::thread::disable_transparent_huge_pages(true);
}

/// Let the kernel back this process's heap with 2 MiB pages again, in a
/// process that runs one command and is about to check or hash a password:
/// that fills 7 MiB of fresh memory (argon2's blocks), and faulting it in
/// 4 KiB pages was the larger part of a move by mail's time over a mapping
/// of our own in 2 MiB pages. Such a process exits in milliseconds, so its
/// resident size does not matter.
pub(crate) fn allow_huge_pages_for_the_password_check() {
    #[cfg(target_os = "linux")]
    let _ = rustix::thread::disable_transparent_huge_pages(false);
}

/// Have freed pages given back to the system after 10 ms, for a
/// long-running server. With mimalloc's own delay (a second) a thread gives
/// them back only on its next allocation after the delay, and a blocking
/// thread that replayed a long Rewrite game and then waited kept its pages:
/// the abuse test's peak went far past its bound. Given back at once, every
/// page the async workers freed between two moves was a system call, a
/// shootdown of the other cores' address caches and a fresh page fault on
/// the next move, several percent of the server's processor time. The
/// figures of both are in docs/reliability.md ("Abuse") and
/// docs/benchmarks/server.md.
///
/// A process that runs one command keeps mimalloc's delay: it exits in
/// milliseconds. Called before the process starts any thread.
pub(crate) fn give_freed_pages_back_soon() {
    // SAFETY: sets one integer option while no other thread exists.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, 10) };
}
