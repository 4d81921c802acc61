//! `tabula backup`: a consistent copy of a SQLite database taken while
//! servers keep writing to it.
//!
//! `VACUUM INTO` reads the whole database in one read transaction, so the
//! copy is the database as it was at one commit: every write committed
//! before it began is in the copy, none made after. In WAL mode a reader
//! never blocks writers, so moves keep being acknowledged meanwhile. The
//! copy is written under a temporary name next to the destination, checked
//! with `PRAGMA integrity_check`, synced, and only then renamed into place,
//! so a file with the destination's name is always a whole, checked copy.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

use crate::store::{StoreError, StoreResult};

/// What a backup holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackupSummary {
    /// The copy's size in bytes.
    pub bytes: u64,
    /// Accounts in it.
    pub users: i64,
    /// Games in it.
    pub games: i64,
    /// Game events (moves, clock ticks ..) in it.
    pub events: i64,
}

/// Copy the SQLite database `from` to `to` (replaced if it exists), while
/// other processes may be writing to `from`.
///
/// Opens `from` without creating it or running migrations: a backup taken
/// by a newer binary than the server's changes nothing in the live database.
pub async fn backup(from: &Path, to: &Path) -> StoreResult<BackupSummary> {
    let partial = partial_name(to)?;
    let (source, copy) = (from.to_path_buf(), partial.clone());
    let summary = match tokio::task::spawn_blocking(move || copy_now(&source, &copy)).await {
        Ok(copied) => copied,
        Err(e) => Err(StoreError::Failed(format!("the backup's thread failed: {e}"))),
    };
    let summary = summary.inspect_err(|_| drop(std::fs::remove_file(&partial)))?;
    std::fs::rename(&partial, to).map_err(|e| io_error("renaming the copy into place", to, e))?;
    // The rename is durable once the directory is synced.
    if let Some(dir) = to.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::File::open(dir).and_then(|d| d.sync_all()).map_err(|e| io_error("syncing", dir, e))?;
    }
    Ok(summary)
}

/// A name next to `to` for the copy being written.
fn partial_name(to: &Path) -> StoreResult<PathBuf> {
    let name =
        to.file_name().ok_or_else(|| StoreError::Failed(format!("{} is not a file name", to.display())))?;
    let mut partial = name.to_os_string();
    partial.push(format!(".partial-{}", std::process::id()));
    Ok(to.with_file_name(partial))
}

fn io_error(what: &str, path: &Path, e: std::io::Error) -> StoreError {
    StoreError::Failed(format!("{what} {}: {e}", path.display()))
}

fn copy_now(from: &Path, partial: &Path) -> StoreResult<BackupSummary> {
    let _ = std::fs::remove_file(partial);
    let target = partial
        .to_str()
        .ok_or_else(|| StoreError::Failed(format!("{} is not a UTF-8 path", partial.display())))?;
    // Not opened read-only: a read-only connection to a database whose
    // pages are still all in the write-ahead log (a server that has not
    // checkpointed yet) copied an empty database. Nothing here writes to it.
    let source = super::connection(from, OpenFlags::SQLITE_OPEN_URI, super::BUSY_WAIT)?;
    source.execute("VACUUM INTO ?1", [target])?;
    drop(source);

    // The copy is a database of its own: check it whole before it counts.
    let copy = Connection::open_with_flags(
        partial,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    let problems: Vec<String> =
        copy.prepare("PRAGMA integrity_check")?.query_map([], |r| r.get(0))?.collect::<Result<_, _>>()?;
    if problems != ["ok"] {
        return Err(StoreError::Corrupt(format!(
            "the copy fails its integrity check: {}",
            problems.join("; ")
        )));
    }
    let (users, games, events) = copy.query_row(
        "SELECT (SELECT COUNT(*) FROM users), (SELECT COUNT(*) FROM games), (SELECT COUNT(*) FROM events)",
        [],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    drop(copy);
    // VACUUM INTO leaves the copy's durability to the caller.
    let file = std::fs::File::open(partial).map_err(|e| io_error("opening", partial, e))?;
    file.sync_all().map_err(|e| io_error("syncing", partial, e))?;
    let bytes = file.metadata().map_err(|e| io_error("reading", partial, e))?.len();
    Ok(BackupSummary { bytes, users, games, events })
}
