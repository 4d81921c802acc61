//! The count of bot programs a process runs, which `/metrics` reports as
//! `tabula_bot_processes`: one more for each program started, one less as
//! each is dropped (and with it stopped). Alone in its test binary, so no
//! other test's programs are counted.

use tabula_bots::BotLimits;
use tabula_bots::process::{BotProcess, running};

#[test]
fn running_bot_programs_are_counted_until_dropped() {
    assert_eq!(running(), 0);
    let cat = || BotProcess::spawn(&["cat".to_string()], &BotLimits::default()).expect("cat starts");
    let first = cat();
    assert_eq!(running(), 1);
    let second = cat();
    assert_eq!(running(), 2);
    drop(first);
    assert_eq!(running(), 1);
    drop(second);
    assert_eq!(running(), 0);
    // A program that cannot start is not counted.
    let missing = BotProcess::spawn(&["/nonexistent/bot".to_string()], &BotLimits::default());
    assert!(missing.is_err());
    assert_eq!(running(), 0);
}
