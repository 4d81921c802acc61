//! No password comes back by mail, nor goes into the logs, for any command
//! of the grammar in any order of its words: every line of the command
//! table (`SYNTAX`) is filled in with a real account's password, the words
//! after its name shuffled, and mailed to a real service.

mod common;

use std::io::Write;
use std::sync::{Arc, Mutex};

use common::{World, config, mail};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use tabula_mail::handle_message;
use tabula_service::command::SYNTAX;

/// The words of the command `syntax` with its placeholders filled in:
/// `PASSWORD` is `password`, `NEWPASSWORD` is `new_password`.
fn fill(syntax: &str, password: &str, new_password: &str) -> Vec<String> {
    let mut words = Vec::new();
    for token in syntax.split_whitespace() {
        let token = token.trim_matches(|c| c == '[' || c == ']');
        let word = match token {
            "GAME" => "dna",
            "BOARD" | "BOARD#MOVENO" => "1",
            "USERID" => "ned",
            "PASSWORD" => password,
            "NEWPASSWORD" => new_password,
            "EMAIL" => "ned@example.org",
            ".." => continue,
            "-OPTION[=VALUE" => "-manual",
            "MOVE#MOVENO" | "MOVE" => "TCT",
            "TEXT" => "hello",
            "on|off" => "off",
            "DAYS|off" => "3",
            "N|off" => "5",
            "open|ask" => "ask",
            "active|inactive|next|all" => "all",
            literal => literal,
        };
        words.push(word.to_string());
    }
    // A challenge names two players.
    if words.get(1).is_some_and(|w| w == "challenge") {
        words.push("ted".into());
    }
    words
}

/// Everything written to the logs, at every level.
#[derive(Clone, Default)]
struct Logs(Arc<Mutex<Vec<u8>>>);

impl Write for Logs {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn no_password_is_echoed_or_logged_for_any_command_in_any_word_order() {
    let logs = Logs::default();
    let writer = logs.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(move || writer.clone())
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();

    let lines: Vec<&str> = SYNTAX.iter().map(|(_, syntax, _)| *syntax).collect();
    // A signup's words are all new: whichever is in the password's place
    // is the password, so it has none out of place.
    let lines: Vec<&str> = lines.into_iter().filter(|s| !s.starts_with("signup")).collect();
    // Letters and digits mixed, so that no word of a reply's own text is
    // one in any case: a reply shows a password it lower-cased (as a user
    // id) as surely as one it quotes.
    let secret = "[A-Za-z]{2,5}[0-9%!]{1,3}[A-Za-z0-9%!]{2,5}".prop_filter("no word of the line", |p| {
        let p = p.to_ascii_lowercase();
        !["dna", "ned", "ted", "tct", "hello", "example"].iter().any(|w| p.contains(w))
    });
    let mut runner = TestRunner::new(Config { cases: 96, ..Config::default() });
    runner
        .run(&(0..lines.len(), secret.clone(), secret, any::<u64>()), |(i, password, new_password, seed)| {
            let mut words = fill(lines[i], &password, &new_password);
            // The words after the command's own (`dna move`, `signoff`,
            // `change password`), in any order.
            let fixed = if matches!(words[0].as_str(), "change" | "dna") { 2 } else { 1 };
            let mut rng = seed;
            for k in (fixed + 1..words.len()).rev() {
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                words.swap(k, fixed + (rng >> 33) as usize % (k + 1 - fixed));
            }
            let line = words.join(" ");
            logs.0.lock().unwrap().clear();
            let (reply, outbox) = rt.block_on(async {
                let world = World::new().await;
                world.run(&format!("signup ned {password} ned@example.org")).await;
                world.run("signup ted pw-ted ted@example.org").await;
                world.run("dna challenge -manual ned ted").await;
                let before = world.outbox().await.len();
                let raw = mail("ned@example.org", &line, "");
                let reply = handle_message(&world.service, &raw, &config()).await.expect("handled");
                let outbox: Vec<String> = world
                    .outbox()
                    .await
                    .into_iter()
                    .skip(before)
                    .map(|r| format!("{}\n{}", r.message.subject, r.message.body))
                    .collect();
                (reply, outbox)
            });
            let logged = String::from_utf8_lossy(&logs.0.lock().unwrap()).to_string();
            let reply = reply.map(|r| format!("{}\n{}", r.subject, r.body)).unwrap_or_default();
            for secret in [&password, &new_password] {
                let seen = |what: &str, text: &str| -> Result<(), TestCaseError> {
                    prop_assert!(
                        !text.to_ascii_lowercase().contains(&secret.to_ascii_lowercase()),
                        "{what} of `{line}` shows {secret}:\n{text}"
                    );
                    Ok(())
                };
                seen("the reply", &reply)?;
                for m in &outbox {
                    seen("a mail", m)?;
                }
                seen("the log", &logged)?;
            }
            Ok(())
        })
        .unwrap();
}
