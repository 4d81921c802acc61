//! Runs the real `tabula` binary against a database in a temporary directory.
#![allow(dead_code)]

pub mod pg;
pub mod tls;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const BIN: &str = env!("CARGO_BIN_EXE_tabula");

/// A database in a temporary directory and the binary to run on it.
pub struct Tabula {
    pub dir: tempfile::TempDir,
    pub db: PathBuf,
    pub now: Option<String>,
}

impl Tabula {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("tabula.db");
        Tabula { dir, db, now: None }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn command(&self, words: &[&str]) -> Command {
        let mut c = Command::new(BIN);
        // Replies are in the terminal's language: the tests read English
        // whatever the locale of the machine running them.
        c.env_remove("LC_ALL").env_remove("LC_MESSAGES").env("LANG", "C.UTF-8");
        c.arg("--db").arg(&self.db);
        if let Some(now) = &self.now {
            c.arg("--now").arg(now);
        }
        c.args(words);
        c
    }

    pub fn run(&self, line: &str) -> Output {
        let words: Vec<&str> = line.split_whitespace().collect();
        self.command(&words).output().expect("tabula runs")
    }

    /// Run a command that must succeed; its standard output.
    pub fn ok(&self, line: &str) -> String {
        let out = self.run(line);
        assert!(
            out.status.success(),
            "`{line}` failed ({:?}):\n{}{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("utf-8 output")
    }

    /// Run a command that must fail with `code`; its standard error.
    pub fn fails(&self, line: &str, code: i32) -> String {
        let out = self.run(line);
        assert_eq!(
            out.status.code(),
            Some(code),
            "`{line}` should exit {code}:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stderr).expect("utf-8 output")
    }

    /// `--json` output of a command that must succeed.
    pub fn json(&self, line: &str) -> serde_json::Value {
        let out = self.ok(&format!("--json {line}"));
        serde_json::from_str(&out).expect("JSON output")
    }

    pub fn signup(&self, users: &[&str]) {
        for u in users {
            self.ok(&format!("signup {u} pw-{u} {u}@example.org"));
        }
    }
}
