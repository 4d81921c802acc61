//! The `tabula rewrite run` tool: one round of rewriting, by hand.
//!
//! ```text
//! tabula rewrite run [--trace] [--json] --start STRING RULESFILE
//! ```
//!
//! RULESFILE holds rule sets, oldest first, one rule a line (`lhs=>rhs`, or
//! `owner: lhs=>rhs`), sets separated by a line `---`. Blank lines are
//! ignored. A line is split at its first `=>`; the part before it is read as
//! `owner: lhs` when it contains `": "` with a non-empty owner without
//! spaces before it, else it is all left side. Nothing else is trimmed: any
//! character, spaces included, may appear in a rule or the start string.
//!
//! One round is applied: the newest set first, down to the oldest. Plain
//! output is the result; `--trace` lists every pass with its applications
//! before the result; `--json` prints
//! `{"result": "...", "passes": [{"set": k, "output": "...", "applications": [{"owner": "...", "lhs": "...", "rhs": "...", "pos": n}]}]}`
//! where `set` is the 1-based number of the set in the file, `pos` the
//! position of the match in that pass's input, counted in characters, and
//! `owner` is empty for rules written without one.

use std::fmt::Write as _;

use crate::engine::{Application, Rule, RuleSet};

/// The longest string the calculator builds, in bytes.
pub const MAX_LENGTH: usize = 1 << 28;

/// The most rule sets in one rules file (each is one pass over the string).
pub const MAX_RULE_SETS: usize = 10_000;

/// The largest trace or JSON report, in bytes, as estimated before it is
/// written (every pass's input and output, and a line or object for each
/// application of a rule): a plain run keeps only the string of the moment,
/// a report all of them.
pub const MAX_REPORT_BYTES: usize = 1 << 26;

/// A report's size for `text`: JSON may escape a byte as six (`\u0000`).
fn report_bytes(text: &str, json: bool) -> usize {
    if json { text.len().saturating_mul(6) } else { text.len() }
}

/// One pass as the tool reports it.
struct PassReport {
    set: usize,
    input: String,
    output: String,
    applications: Vec<(usize, usize)>,
}

/// Run the tool on the start string and the text of the rules file;
/// returns exactly what `tabula rewrite run` prints (with its final newline).
///
/// Without a report, memory stays in proportion to the string: the string
/// of the moment and the pass's output, two buffers used in turn, with
/// neither the applications nor any other copy kept (the result is the
/// last output itself). Given a `String`, its buffer is the first input.
///
/// # Errors
///
/// A rules file that does not parse (the message names the line), a file
/// without rules, or a result longer than [`MAX_LENGTH`] bytes.
pub fn rewrite_tool(
    start: impl Into<String>,
    rules_file: &str,
    trace: bool,
    json: bool,
) -> Result<String, String> {
    run(start.into(), rules_file, trace, json, MAX_LENGTH)
}

fn run(start: String, rules_file: &str, trace: bool, json: bool, limit: usize) -> Result<String, String> {
    let sets = parse_rules_file(rules_file)?;
    let mut compiled = Vec::with_capacity(sets.len());
    for (k, rules) in sets.into_iter().enumerate() {
        compiled.push(RuleSet::new(rules).map_err(|e| format!("rule set {}: {e}", k + 1))?);
    }
    if !(trace || json) {
        return plain(start, &compiled, limit);
    }
    let mut text = start;
    let mut passes = Vec::new();
    let mut reported = 0usize;
    for (k, set) in compiled.iter().enumerate().rev() {
        let pass = set.pass(text.as_bytes(), limit);
        if pass.cut {
            return Err(too_long(k, limit));
        }
        let output = String::from_utf8(pass.output).map_err(|_| not_text(k))?;
        let applications = character_positions(&text, &pass.applications);
        let rules = set.rules();
        let listed = applications.iter().fold(0usize, |sum, &(rule, _)| {
            let r = &rules[rule];
            let texts =
                report_bytes(&r.owner, json) + report_bytes(&r.lhs, json) + report_bytes(&r.rhs, json);
            sum.saturating_add(64 + texts)
        });
        reported = reported
            .saturating_add(report_bytes(&text, json))
            .saturating_add(report_bytes(&output, json))
            .saturating_add(listed);
        if reported > MAX_REPORT_BYTES {
            let what = if json { "the JSON report" } else { "the trace" };
            return Err(format!(
                "rule set {}: {what} would be longer than {MAX_REPORT_BYTES} bytes; \
                 run without it for the result alone",
                k + 1
            ));
        }
        passes.push(PassReport { set: k + 1, input: text, output: output.clone(), applications });
        text = output;
    }
    Ok(if json { json_report(&text, &passes, &compiled) } else { trace_report(&text, &passes, &compiled) })
}

/// The round without a report: each pass writes into the buffer the pass
/// before read, and the last output, with its newline, is the answer.
fn plain(start: String, sets: &[RuleSet<String>], limit: usize) -> Result<String, String> {
    let mut text = start.into_bytes();
    // Room for an output a quarter longer than the input, reserved once:
    // a buffer grown by doubling is copied at each step, and the
    // allocator may keep the old block resident for a moment.
    let mut out = Vec::with_capacity(text.len().saturating_add(text.len() / 4).min(limit) + (1 << 16));
    for (k, set) in sets.iter().enumerate().rev() {
        if set.run(&text, limit, &mut out, |_| {}).cut {
            return Err(too_long(k, limit));
        }
        // Valid UTF-8 in and rules of valid UTF-8 make valid UTF-8 (see
        // `engine`); checked all the same, as the report's passes are.
        std::str::from_utf8(&out).map_err(|_| not_text(k))?;
        std::mem::swap(&mut text, &mut out);
    }
    drop(out);
    text.push(b'\n');
    String::from_utf8(text).map_err(|_| "the result is not UTF-8".to_string())
}

fn too_long(set: usize, limit: usize) -> String {
    format!("rule set {} makes the string longer than {limit} bytes; the calculator stops there", set + 1)
}

fn not_text(set: usize) -> String {
    format!("rule set {} produced text that is not UTF-8", set + 1)
}

/// Parse a rules file into rule sets, oldest first.
fn parse_rules_file(file: &str) -> Result<Vec<Vec<Rule<String>>>, String> {
    let mut sets: Vec<Vec<Rule<String>>> = Vec::new();
    let mut current: Vec<Rule<String>> = Vec::new();
    let mut line_no = 0;
    for raw in file.split('\n') {
        line_no += 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.trim().is_empty() {
            continue;
        }
        if line.trim() == "---" {
            if current.is_empty() {
                return Err(format!("line {line_no}: rule set {} has no rules", sets.len() + 1));
            }
            if sets.len() + 1 >= MAX_RULE_SETS {
                return Err(format!("line {line_no}: a rules file has at most {MAX_RULE_SETS} rule sets"));
            }
            sets.push(std::mem::take(&mut current));
            continue;
        }
        let (left, rhs) = line.split_once("=>").ok_or_else(|| {
            format!("line {line_no}: {line:?} is not a rule: write lhs=>rhs or owner: lhs=>rhs")
        })?;
        let (owner, lhs) = match left.split_once(": ") {
            Some((owner, lhs)) if !owner.is_empty() && !owner.contains(char::is_whitespace) => (owner, lhs),
            _ => ("", left),
        };
        if lhs.is_empty() {
            return Err(format!("line {line_no}: the left side of {line:?} is empty"));
        }
        current.push(Rule::new(owner.to_string(), lhs, rhs));
    }
    if current.is_empty() {
        return Err(if sets.is_empty() {
            "the rules file has no rules".to_string()
        } else {
            format!("line {line_no}: rule set {} (after the last ---) has no rules", sets.len() + 1)
        });
    }
    sets.push(current);
    Ok(sets)
}

/// `(rule, character position)` for each application, from byte positions.
fn character_positions(input: &str, applications: &[Application]) -> Vec<(usize, usize)> {
    let bytes = input.as_bytes();
    let mut at_byte = 0;
    let mut at_char = 0;
    applications
        .iter()
        .map(|a| {
            at_char += bytes[at_byte..a.pos].iter().filter(|&&b| (b & 0xC0) != 0x80).count();
            at_byte = a.pos;
            (a.rule, at_char)
        })
        .collect()
}

fn rule_text(rule: &Rule<String>) -> String {
    if rule.owner.is_empty() {
        format!("{}=>{}", rule.lhs, rule.rhs)
    } else {
        format!("{}: {}=>{}", rule.owner, rule.lhs, rule.rhs)
    }
}

fn trace_report(result: &str, passes: &[PassReport], sets: &[RuleSet<String>]) -> String {
    let mut s = String::new();
    for p in passes {
        let _ = writeln!(s, "set {}: {} -> {}", p.set, p.input, p.output);
        let rules = sets[p.set - 1].rules();
        for &(rule, pos) in &p.applications {
            let _ = writeln!(s, "  at {pos}: {}", rule_text(&rules[rule]));
        }
    }
    let _ = writeln!(s, "{result}");
    s
}

fn quoted(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}

fn json_report(result: &str, passes: &[PassReport], sets: &[RuleSet<String>]) -> String {
    let passes: Vec<String> = passes
        .iter()
        .map(|p| {
            let rules = sets[p.set - 1].rules();
            let applications: Vec<String> = p
                .applications
                .iter()
                .map(|&(rule, pos)| {
                    let r = &rules[rule];
                    format!(
                        "{{\"owner\": {}, \"lhs\": {}, \"rhs\": {}, \"pos\": {pos}}}",
                        quoted(&r.owner),
                        quoted(&r.lhs),
                        quoted(&r.rhs)
                    )
                })
                .collect();
            format!(
                "{{\"set\": {}, \"output\": {}, \"applications\": [{}]}}",
                p.set,
                quoted(&p.output),
                applications.join(", ")
            )
        })
        .collect();
    format!("{{\"result\": {}, \"passes\": [{}]}}\n", quoted(result), passes.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED_GAME: &str = "H: tcg=>ag\nY: t=>ac\nI: g=>tc\nG: at=>ta\nM: g=>at\n---\nH: ac=>aa\nY: tac=>atc\nI: ta=>ct\nG: c=>ac\nM: t=>tc\n---\nH: cg=>gg\nY: cg=>tctc\nI: g=>tc\nG: tac=>tac\nM: acg=>ca\n";

    #[test]
    fn plain_result_of_the_seed_round_three() {
        assert_eq!(rewrite_tool("tacg", SEED_GAME, false, false).unwrap(), "tacaccac\n");
    }

    #[test]
    fn trace_lists_every_pass() {
        let out = rewrite_tool("tacg", SEED_GAME, true, false).unwrap();
        assert_eq!(
            out,
            "set 3: tacg -> tactc\n  at 0: G: tac=>tac\n  at 3: I: g=>tc\n\
             set 2: tactc -> atctcac\n  at 0: Y: tac=>atc\n  at 3: M: t=>tc\n  at 4: G: c=>ac\n\
             set 1: atctcac -> tacaccac\n  at 0: G: at=>ta\n  at 3: Y: t=>ac\n\
             tacaccac\n"
        );
    }

    #[test]
    fn json_has_the_exact_schema() {
        let out = rewrite_tool("atcg", "H: tcg=>ag\nY: t=>ac\nI: g=>tc\nG: at=>ta\nM: g=>at\n", false, true)
            .unwrap();
        assert_eq!(
            out,
            "{\"result\": \"tacg\", \"passes\": [{\"set\": 1, \"output\": \"tacg\", \"applications\": [{\"owner\": \"G\", \"lhs\": \"at\", \"rhs\": \"ta\", \"pos\": 0}]}]}\n"
        );
        let value: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(value["passes"][0]["applications"][0]["pos"], 0);
    }

    #[test]
    fn json_positions_count_characters_and_escape() {
        let out = rewrite_tool("ää\"b", "b=>\\\n", false, true).unwrap();
        let value: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(value["result"], "ää\"\\");
        assert_eq!(value["passes"][0]["applications"][0]["pos"], 3);
        assert_eq!(value["passes"][0]["applications"][0]["owner"], "");
    }

    #[test]
    fn any_characters_and_spaces_are_kept() {
        assert_eq!(rewrite_tool("a b:c", "a b=>x\nb:c=>y\n", false, false).unwrap(), "x:c\n");
        // Split at the first "=>": the rule is "a=" => "=>".
        assert_eq!(rewrite_tool("a=>b", "a==>=>\n", false, false).unwrap(), "=>>b\n");
        assert_eq!(rewrite_tool("", "a=>b\n", false, false).unwrap(), "\n");
        assert_eq!(rewrite_tool("xy", "me: x=>z\r\n\r\n", false, false).unwrap(), "zy\n");
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(
            rewrite_tool("a", "a=>b\nnope\n", false, false).unwrap_err(),
            "line 2: \"nope\" is not a rule: write lhs=>rhs or owner: lhs=>rhs"
        );
        assert_eq!(
            rewrite_tool("a", "a=>b\n\nH: =>c\n", false, false).unwrap_err(),
            "line 3: the left side of \"H: =>c\" is empty"
        );
        assert_eq!(
            rewrite_tool("a", "---\na=>b\n", false, false).unwrap_err(),
            "line 1: rule set 1 has no rules"
        );
        assert_eq!(
            rewrite_tool("a", "a=>b\n---\n", false, false).unwrap_err(),
            "line 3: rule set 2 (after the last ---) has no rules"
        );
        assert_eq!(rewrite_tool("a", "\n \n", false, false).unwrap_err(), "the rules file has no rules");
    }

    #[test]
    fn a_rules_file_has_at_most_the_limit_of_rule_sets() {
        let most = vec!["a=>a"; MAX_RULE_SETS].join("\n---\n");
        assert_eq!(parse_rules_file(&most).map(|sets| sets.len()), Ok(MAX_RULE_SETS));
        let over = format!("{most}\n---\nb=>c");
        assert_eq!(
            rewrite_tool("ab", &over, false, false).unwrap_err(),
            format!("line {}: a rules file has at most {MAX_RULE_SETS} rule sets", 2 * MAX_RULE_SETS)
        );
    }

    #[test]
    fn growth_past_the_limit_is_an_error() {
        let doubling = ["a=>aaaa"; 6].join("\n---\n");
        assert_eq!(
            run("a".into(), &doubling, false, false, 4096).unwrap(),
            format!("{}\n", "a".repeat(4096))
        );
        let err = run("a".into(), &doubling, false, false, 4095).unwrap_err();
        assert_eq!(err, "rule set 1 makes the string longer than 4095 bytes; the calculator stops there");
    }

    #[test]
    fn a_report_holds_a_bounded_amount_of_intermediate_strings() {
        // Two passes to 64 MiB: the plain result is fine, a report of both
        // passes' strings and applications would be longer than its limit.
        let rules = ["a=>aaaaaaaaaaaaaaaa"; 2].join("\n---\n");
        let start = "a".repeat(1 << 18);
        let plain = rewrite_tool(&start, &rules, false, false).map(|r| r.len());
        assert_eq!(plain, Ok((1 << 26) + 1));
        // A small run is reported in full.
        assert!(rewrite_tool("aa", &rules, true, false).is_ok());
        // The JSON report counts escapes and objects, so it stops a pass
        // earlier (the newest set, 2, runs first).
        for (trace, json, set, what) in [(true, false, 1, "the trace"), (false, true, 2, "the JSON report")] {
            let err = rewrite_tool(&start, &rules, trace, json).map(|r| r.len());
            assert_eq!(
                err,
                Err(format!(
                    "rule set {set}: {what} would be longer than {MAX_REPORT_BYTES} bytes; run without it \
                     for the result alone"
                ))
            );
        }
    }

    #[test]
    fn the_sed_gotcha_cases() {
        let rules = "pupu=>su\npupusu=>ssp\nsu=>puupuu\n";
        assert_eq!(rewrite_tool("pupupusu", rules, false, false).unwrap(), "supupuupuu\n");
        assert_eq!(rewrite_tool("pupupusupupusu", rules, false, false).unwrap(), "supupuupuussp\n");
        assert_eq!(rewrite_tool("uuspusu", "s=>pu\nsu=>ss\npu=>su\n", false, false).unwrap(), "uupususs\n");
    }
}
