//! `tabula backup FILE`: a consistent copy of the SQLite database, taken
//! while servers keep serving.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;

use tabula_i18n::t;

use crate::cli::{Global, db_name, run_one_command};
use crate::help::lang;

/// Copy the SQLite database to FILE while servers keep serving
///
/// The copy is the database as it was at one moment: every move
/// acknowledged before the backup began is in it. Servers keep taking
/// moves meanwhile. The copy is checked (PRAGMA integrity_check) and synced
/// before it appears under FILE. To restore, stop the servers and put the
/// copy in place of the database file (removing the old file's -wal and
/// -shm files). A PostgreSQL database is backed up with pg_dump.
#[derive(Args, Debug)]
pub struct BackupArgs {
    /// Where the copy goes (a new file)
    file: PathBuf,
    /// Replace FILE if it exists
    #[arg(long)]
    force: bool,
}

pub fn run(global: &Global, args: BackupArgs) -> Result<ExitCode> {
    if tabula_service::store::is_postgres_url(&global.db) {
        eprintln!("tabula: {}", t!(lang(), "op-backup-postgres", db = db_name(&global.db)));
        return Ok(ExitCode::from(2));
    }
    if !std::path::Path::new(&global.db).is_file() {
        bail!(t!(lang(), "op-backup-no-file", db = global.db.as_str()));
    }
    if args.file.exists() && !args.force {
        bail!(t!(lang(), "op-backup-exists", file = args.file.display().to_string()));
    }
    let summary = run_one_command(async {
        tabula_service::store::backup(std::path::Path::new(&global.db), &args.file).await.with_context(|| {
            t!(lang(), "op-backing-up", db = global.db.as_str(), file = args.file.display().to_string())
        })
    })?;
    if global.json {
        println!(
            "{}",
            serde_json::json!({
                "ok": true,
                "file": args.file.display().to_string(),
                "bytes": summary.bytes,
                "users": summary.users,
                "games": summary.games,
                "events": summary.events,
            })
        );
    } else {
        let said = t!(
            lang(),
            "op-backed-up",
            db = db_name(&global.db),
            file = args.file.display().to_string(),
            users = summary.users,
            games = summary.games,
            events = summary.events,
            bytes = summary.bytes
        );
        println!("{said}");
    }
    Ok(ExitCode::SUCCESS)
}
