//! Inputs the `rewrite_rules` fuzz target found, kept as tests.

use tabula_rewrite::calculator::rewrite_tool;

/// Rule sets that grow the string pass after pass, with a start string of
/// control characters: a plain run is small, but the JSON report (every
/// pass's strings, escaped, and every application) took gigabytes before
/// reports had a size limit.
#[test]
fn a_report_of_a_growing_run_is_refused_for_its_size() {
    let input = std::str::from_utf8(include_bytes!("fuzz/report-too-long.bin")).unwrap();
    let (start, rules) = input.split_once('\n').unwrap();
    let plain = rewrite_tool(start, rules, false, false).map(|out| out.len());
    assert!(plain.is_ok(), "{plain:?}");
    for (trace, json) in [(true, false), (false, true)] {
        let report = rewrite_tool(start, rules, trace, json).map(|out| out.len());
        assert!(matches!(&report, Err(e) if e.contains("would be longer than 67108864 bytes")), "{report:?}");
    }
}
