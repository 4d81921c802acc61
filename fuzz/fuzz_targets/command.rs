//! The command language: any line parses to a command or a clear error,
//! never a panic, and the same line always parses the same way.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula_service::command::MAX_LINE;
use tabula_service::{Command, Service};

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    let games = Service::game_words();
    let first = Command::parse(&line, &games);
    let again = Command::parse(&line, &games);
    match (&first, &again) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "the same line parsed two ways"),
        (Err(a), Err(b)) => {
            assert_eq!(a.message, b.message, "the same line failed two ways");
            assert!(!a.message.trim().is_empty(), "an error without a message for {line:?}");
            // Errors may quote the line, but never grow without bound.
            assert!(
                a.message.len() <= line.len().min(MAX_LINE) + 4096,
                "an error of {} bytes",
                a.message.len()
            );
        }
        _ => panic!("the same line parsed once and failed once: {line:?}"),
    }
    if line.len() > MAX_LINE {
        assert!(first.is_err(), "a line over {MAX_LINE} bytes was accepted");
    }
});
