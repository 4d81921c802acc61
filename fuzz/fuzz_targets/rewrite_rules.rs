//! Rule files of `tabula rewrite run`: the first line is the start string, the
//! rest the rules file. Any input gives the rewritten string or a clear
//! error; the JSON report is valid JSON and agrees with the plain one.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula_rewrite::calculator::rewrite_tool;

/// A report may be refused for its size alone, before the pass that would
/// fail a plain run.
fn too_long(e: &str) -> bool {
    e.contains("would be longer than")
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (start, rules) = text.split_once('\n').unwrap_or((text, ""));
    let plain = rewrite_tool(start, rules, false, false);
    match &plain {
        Ok(out) => {
            assert!(out.ends_with('\n'), "the output lacks its final newline");
            match rewrite_tool(start, rules, false, true) {
                Ok(json) => {
                    let value: serde_json::Value =
                        serde_json::from_str(&json).expect("the JSON report is not JSON");
                    assert!(value.is_object(), "the JSON report is not an object");
                }
                Err(e) => assert!(too_long(&e), "plain run worked, JSON run failed: {e}"),
            }
            match rewrite_tool(start, rules, true, false) {
                Ok(trace) => assert!(!trace.is_empty()),
                Err(e) => assert!(too_long(&e), "plain run worked, trace run failed: {e}"),
            }
        }
        Err(message) => {
            assert!(!message.trim().is_empty(), "an error without a message");
            match rewrite_tool(start, rules, false, true) {
                Ok(_) => panic!("plain run failed ({message}), JSON run worked"),
                Err(e) => assert!(e == *message || too_long(&e), "plain: {message}; JSON: {e}"),
            }
        }
    }
});
