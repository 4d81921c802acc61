//! No text for people is left as a string literal in the front ends that
//! speak through the catalogues: what a reader sees there comes from
//! `t!`/`msg!` in the reader's language.
//!
//! The rules, over each listed file's code outside its `#[cfg(test)]`
//! module and outside comments:
//!
//! - **builders**: an error or reply is never built from a literal:
//!   `CommandError::new`, `::usage`, `::too_many`, `Reply::plain`
//!   followed by a string literal or `format!` are refused (the catalogue's
//!   `CommandError::says` and `t!` are what they take).
//! - **prose**: in the files whose every text goes through the catalogues,
//!   no string literal holds two words of letters in a row (`"is over"`):
//!   keys, protocol words (`"resign"`), separators and format strings of
//!   arguments alone (`"{}\n\n{}"`) pass; log lines (`tracing::`) and
//!   invariants (`expect`, `panic!`) are for the operator, not the reader.
//!   What prose is the protocol's own (the command syntax) is listed in
//!   [`ALLOWED`].

use std::path::{Path, PathBuf};

/// Files where no error or reply is built from a literal.
const BUILDER_FILES: &[&str] = &[
    "crates/mail/src/gateway.rs",
    "crates/service/src/auth.rs",
    "crates/service/src/command/account.rs",
    "crates/service/src/command/game.rs",
    "crates/service/src/command/mod.rs",
    "crates/service/src/command/syntax.rs",
    "crates/service/src/digest.rs",
    "crates/service/src/error.rs",
    "crates/service/src/help.rs",
    "crates/service/src/limits.rs",
    "crates/service/src/reply.rs",
    "crates/service/src/service/accounts.rs",
    "crates/service/src/service/automatic.rs",
    "crates/service/src/service/boards.rs",
    "crates/service/src/service/bots.rs",
    "crates/service/src/service/cache.rs",
    "crates/service/src/service/challenges.rs",
    "crates/service/src/service/commit.rs",
    "crates/service/src/service/dispatch.rs",
    "crates/service/src/service/mod.rs",
    "crates/service/src/service/reads.rs",
    "crates/service/src/service/standings.rs",
    "crates/service/src/throttle.rs",
    "crates/service/src/users.rs",
    "crates/tabula/src/backup.rs",
    "crates/tabula/src/botcmd.rs",
    "crates/tabula/src/botplay.rs",
    "crates/tabula/src/cli.rs",
    "crates/tabula/src/help.rs",
    "crates/tabula/src/mail.rs",
    "crates/tabula/src/serve.rs",
    "crates/tabula/src/worker.rs",
];

/// The games' boards as text and as pictures: what a player reads of a
/// game comes from the game's own catalogue, so no prose is left in their
/// drawing code either (it builds no errors or replies). Every crate with
/// catalogues of its own is a game; its `render.rs` and `view.rs` are
/// checked, so a new game is held to it without being listed here.
fn game_files(root: &Path) -> Vec<String> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(root.join("crates")).expect("the crates folder") {
        let dir = entry.expect("a crate").path();
        if !dir.join("locales").is_dir() || dir.ends_with("i18n") {
            continue;
        }
        for name in ["render.rs", "view.rs"] {
            if dir.join("src").join(name).is_file() {
                let relative = dir.join("src").join(name);
                files.push(relative.strip_prefix(root).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    files.sort();
    files
}

/// Of [`BUILDER_FILES`], those that hold prose of the protocol's own (the
/// command syntax, the command line's usage) and so are not held to the
/// prose rule; every other listed file's text for people goes through the
/// catalogues.
const NOT_PROSE_FILES: &[&str] = &["crates/service/src/command/syntax.rs", "crates/tabula/src/cli.rs"];

/// Literals with words that are not prose for a reader: the protocol's
/// (command names, a syntax line), the reasons kept with a game's record
/// (stored once, as the games' own reasons are), and texts for the
/// operator's log or an internal error that begin on a line of their own.
const ALLOWED: &[&str] = &[
    "change password",
    "change address",
    "  {} challenge USERID USERID .. [OPTIONS]\\n\\n",
    "signed off",
    "forfeited: no move in {}",
    "the bot found no move",
    "time limits",
    "error reply not sent: the address had its error replies for the hour",
    "the body cannot be encoded",
];

/// Lines whose literals are for the operator or the programmer (an
/// internal error is logged; its reader gets the catalogue's message).
const NOT_FOR_READERS: &[&str] = &[
    "tracing::",
    "internal(",
    "expect(",
    "panic!(",
    "unreachable!(",
    "debug_assert",
    "assert!(",
    "assert_eq!(",
];

/// Lines of clap's attributes: the command's name is the protocol's, and
/// its texts are the English of `cli-help.ftl`, whence `tabula`'s help
/// puts them into the reader's language (its unit test holds the two
/// alike).
const CLAP_ATTRIBUTES: &[&str] =
    &["#[command(name = \"tabula ", "name = \"tabula ", "about = \"", "after_help = \""];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// `source` without its test module and with comments blanked.
fn code(source: &str) -> String {
    let source = match source.find("#[cfg(test)]") {
        Some(at) => &source[..at],
        None => source,
    };
    source
        .lines()
        .map(|line| if line.trim_start().starts_with("//") { "" } else { line })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The string literals of `code` with the line each starts on (plain and
/// raw strings; character literals are skipped).
fn literals(code: &str) -> Vec<(usize, String)> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => line += 1,
            b'\'' => {
                // A character literal ('"', '\'') or a lifetime: skip the former whole.
                if bytes.get(i + 2) == Some(&b'\'') {
                    i += 2;
                } else if bytes.get(i + 1) == Some(&b'\\')
                    && let Some(end) = code[i + 2..].find('\'')
                {
                    i += end + 2;
                }
            }
            b'r' if (bytes.get(i + 1) == Some(&b'"') || bytes.get(i + 1) == Some(&b'#'))
                && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_')) =>
            {
                let hashes = code[i + 1..].bytes().take_while(|&b| b == b'#').count();
                if bytes.get(i + 1 + hashes) == Some(&b'"') {
                    let start = i + 2 + hashes;
                    let close = format!("\"{}", "#".repeat(hashes));
                    if let Some(end) = code[start..].find(&close) {
                        let text = &code[start..start + end];
                        out.push((line, text.to_string()));
                        line += text.matches('\n').count();
                        i = start + end + close.len();
                        continue;
                    }
                }
            }
            b'"' => {
                let start = i + 1;
                let mut j = start;
                while j < bytes.len() && bytes[j] != b'"' {
                    if bytes[j] == b'\\' {
                        j += 1;
                    }
                    j += 1;
                }
                let text = &code[start..j.min(code.len())];
                out.push((line, text.to_string()));
                line += text.matches('\n').count();
                i = j + 1;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// Whether `text` reads as prose: two words of letters in a row, outside
/// `{placeholders}`.
fn is_prose(text: &str) -> bool {
    let mut plain = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            c if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    let words: Vec<&str> = plain.split([' ', '\n']).collect();
    words.windows(2).any(|pair| pair.iter().all(|w| w.len() >= 2 && w.chars().all(|c| c.is_alphabetic())))
}

/// The builders' calls from a literal in `code`: their lines.
fn literal_builders(code: &str) -> Vec<usize> {
    const BUILDERS: &[&str] =
        &["CommandError::new(", "CommandError::usage(", "CommandError::too_many(", "Reply::plain("];
    let mut out = Vec::new();
    for builder in BUILDERS {
        for (at, _) in code.match_indices(builder) {
            let rest = code[at + builder.len()..].trim_start();
            // The message follows the code, if the builder takes one.
            let rest = match rest.strip_prefix("ErrorCode::") {
                Some(r) => r.split_once(',').map_or("", |(_, m)| m.trim_start()),
                None => rest,
            };
            if rest.starts_with('"') || rest.starts_with("format!(") {
                out.push(code[..at].matches('\n').count() + 1);
            }
        }
    }
    out
}

fn problems(path: &str, source: &str, prose: bool) -> Vec<String> {
    let code = code(source);
    let lines: Vec<&str> = code.lines().collect();
    let mut out: Vec<String> = literal_builders(&code)
        .into_iter()
        .map(|line| format!("{path}:{line}: an error or reply built from a literal: use the catalogues"))
        .collect();
    if prose {
        for (line, text) in literals(&code) {
            let shown = lines.get(line - 1).copied().unwrap_or_default();
            if is_prose(&text)
                && !ALLOWED.contains(&text.as_str())
                && !NOT_FOR_READERS.iter().any(|w| shown.contains(w))
                && !CLAP_ATTRIBUTES.iter().any(|w| shown.trim_start().starts_with(w))
            {
                out.push(format!("{path}:{line}: text for people as a literal: {text:?}"));
            }
        }
    }
    out
}

#[test]
fn no_text_for_people_is_a_literal_in_the_converted_front_ends() {
    let root = root();
    let mut found = Vec::new();
    for file in BUILDER_FILES {
        let source = std::fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        found.extend(problems(file, &source, !NOT_PROSE_FILES.contains(file)));
    }
    let games = game_files(&root);
    assert!(games.len() >= 5, "every game draws its board: {games:?}");
    for file in &games {
        let source = std::fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        found.extend(problems(file, &source, true));
    }
    found.sort();
    assert!(found.is_empty(), "texts for people outside the catalogues:\n{}", found.join("\n"));
}

#[test]
fn the_check_finds_what_it_is_for() {
    let source = r##"
fn f() -> Result<(), CommandError> {
    // A comment says "what it likes" freely.
    tracing::info!("the log is for the operator");
    let key = format!("game:{board}:v{}", 3);
    let word = "resign";
    let x = t!(lang, "board-title", board = "7");
    Err(CommandError::new(ErrorCode::Refused, format!("board {board} is over")))?;
    Err(CommandError::usage("empty command"))?;
    Ok(Reply::plain("Vacation", text))
}
let shown = "it is your turn";
let raw = r#"the rules"#;
#[cfg(test)]
mod tests { const T: &str = "a test may say anything"; }
"##;
    let found = problems("x.rs", source, true);
    assert_eq!(
        found,
        [
            "x.rs:8: an error or reply built from a literal: use the catalogues",
            "x.rs:9: an error or reply built from a literal: use the catalogues",
            "x.rs:10: an error or reply built from a literal: use the catalogues",
            "x.rs:8: text for people as a literal: \"board {board} is over\"",
            "x.rs:9: text for people as a literal: \"empty command\"",
            "x.rs:12: text for people as a literal: \"it is your turn\"",
            "x.rs:13: text for people as a literal: \"the rules\"",
        ]
    );
    assert!(problems("x.rs", "let a = format!(\"{}\\n\\n{}\", b, c);", true).is_empty());
}
