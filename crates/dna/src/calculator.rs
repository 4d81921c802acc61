//! The removal calculator behind `tabula dna remove [--trace] [--json]
//! SEQUENCE CHUNK`: players use it to see what a nomination does to a
//! sequence before they make it.
//!
//! # Format
//!
//! Without flags, two lines: the sequence left over (`(empty)` when nothing
//! is left) and the number of chunks removed:
//!
//! ```text
//! TAT
//! removed 3
//! ```
//!
//! `--trace` first prints one line per pass that removed something, the
//! removed instances in brackets, as in the rules:
//!
//! ```text
//! pass 1: TAAGA[AGC]GCCT
//! pass 2: TAAG[AGC]CT
//! pass 3: TA[AGC]T
//! TAT
//! removed 3
//! ```
//!
//! `--json` prints exactly one line: `{"sequence": "TAT", "removed": 3}`.
//!
//! Any letters and digits are allowed, compared exactly (so `a` is not
//! `A`): the calculator is not tied to one game's alphabet.

use crate::engine;

/// Longest sequence or chunk accepted, in bytes (1 MiB).
pub const MAX_INPUT_BYTES: usize = 1 << 20;

/// Longest sequence `--trace` accepts, in bytes: the trace prints the
/// sequence once per pass, and there may be a pass per chunk removed.
pub const MAX_TRACE_BYTES: usize = 4096;

/// What `tabula dna remove` prints for these arguments: the whole standard
/// output, ending in a newline.
///
/// # Errors
///
/// A message naming the bad argument: an empty chunk, a character that is
/// not a letter or digit, an input over [`MAX_INPUT_BYTES`], a trace of a
/// sequence over [`MAX_TRACE_BYTES`], or `--trace` with `--json`.
///
/// ```
/// use tabula_dna::calculator::remove_tool;
/// assert_eq!(remove_tool("TAAGAAGCGCCT", "AGC", false, false).unwrap(), "TAT\nremoved 3\n");
/// assert_eq!(
///     remove_tool("AACACACA", "ACA", false, true).unwrap(),
///     "{\"sequence\": \"AC\", \"removed\": 2}\n"
/// );
/// ```
pub fn remove_tool(sequence: &str, chunk: &str, trace: bool, json: bool) -> Result<String, String> {
    if trace && json {
        return Err("--trace and --json cannot be combined: --json prints a single line".into());
    }
    check_argument("SEQUENCE", sequence)?;
    check_argument("CHUNK", chunk)?;
    if chunk.is_empty() {
        return Err("CHUNK is empty: give the letters to remove".into());
    }
    if trace && sequence.len() > MAX_TRACE_BYTES {
        return Err(format!(
            "--trace takes a SEQUENCE of at most {MAX_TRACE_BYTES} bytes, since it prints the sequence once per pass; \
             this one has {} (leave out --trace)",
            sequence.len()
        ));
    }

    let mut out = String::new();
    let removal = if trace {
        let passes = engine::passes(sequence.as_bytes(), chunk.as_bytes());
        for (number, pass) in passes.iter().enumerate() {
            out.push_str(&format!(
                "pass {}: {}\n",
                number + 1,
                bracketed(&pass.input, &pass.starts, chunk.len())
            ));
        }
        engine::remove_by_passes(sequence.as_bytes(), chunk.as_bytes())
    } else {
        engine::remove(sequence.as_bytes(), chunk.as_bytes())
    };
    // Instances of a valid UTF-8 chunk start and end on character
    // boundaries, so what is left is valid UTF-8 as well.
    let left = String::from_utf8_lossy(&removal.sequence);
    if json {
        let quoted = serde_json::to_string(&left).map_err(|e| format!("cannot write JSON: {e}"))?;
        out.push_str(&format!("{{\"sequence\": {quoted}, \"removed\": {}}}\n", removal.removed));
    } else {
        let shown = if left.is_empty() { "(empty)" } else { &left };
        out.push_str(&format!("{shown}\nremoved {}\n", removal.removed));
    }
    Ok(out)
}

fn check_argument(name: &str, value: &str) -> Result<(), String> {
    if value.len() > MAX_INPUT_BYTES {
        return Err(format!(
            "{name} is {} bytes long; the calculator takes at most {MAX_INPUT_BYTES} (1 MiB)",
            value.len()
        ));
    }
    if let Some((position, c)) = value.chars().enumerate().find(|(_, c)| !c.is_alphanumeric()) {
        return Err(format!(
            "{name} may contain only letters and digits; found {c:?} at position {}",
            position + 1
        ));
    }
    Ok(())
}

/// The pass input with each removed instance in brackets.
fn bracketed(input: &[u8], starts: &[usize], chunk_len: usize) -> String {
    let mut out = Vec::with_capacity(input.len() + 2 * starts.len());
    let mut at = 0;
    for &start in starts {
        out.extend_from_slice(&input[at..start]);
        out.push(b'[');
        out.extend_from_slice(&input[start..start + chunk_len]);
        out.push(b']');
        at = start + chunk_len;
    }
    out.extend_from_slice(&input[at..]);
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_output() {
        assert_eq!(remove_tool("TAAGAAGCGCCT", "AGC", false, false).unwrap(), "TAT\nremoved 3\n");
        assert_eq!(remove_tool("AACACACA", "ACA", false, false).unwrap(), "AC\nremoved 2\n");
        assert_eq!(remove_tool("ACGT", "TTT", false, false).unwrap(), "ACGT\nremoved 0\n");
        assert_eq!(remove_tool("ACGACG", "ACG", false, false).unwrap(), "(empty)\nremoved 2\n");
        assert_eq!(remove_tool("", "A", false, false).unwrap(), "(empty)\nremoved 0\n");
    }

    #[test]
    fn trace_shows_each_pass_like_the_rules() {
        assert_eq!(
            remove_tool("TAAGAAGCGCCT", "AGC", true, false).unwrap(),
            "pass 1: TAAGA[AGC]GCCT\npass 2: TAAG[AGC]CT\npass 3: TA[AGC]T\nTAT\nremoved 3\n"
        );
        assert_eq!(
            remove_tool("AACACACA", "ACA", true, false).unwrap(),
            "pass 1: A[ACA]C[ACA]\nAC\nremoved 2\n"
        );
        assert_eq!(remove_tool("ACGT", "GA", true, false).unwrap(), "ACGT\nremoved 0\n");
    }

    #[test]
    fn json_is_exact() {
        assert_eq!(
            remove_tool("TAAGAAGCGCCT", "AGC", false, true).unwrap(),
            "{\"sequence\": \"TAT\", \"removed\": 3}\n"
        );
        assert_eq!(remove_tool("ACG", "ACG", false, true).unwrap(), "{\"sequence\": \"\", \"removed\": 1}\n");
        let line = remove_tool("xyzxyz", "yz", false, true).unwrap();
        let parsed: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(parsed, serde_json::json!({"sequence": "xx", "removed": 2}));
    }

    #[test]
    fn any_letters_compared_exactly() {
        assert_eq!(remove_tool("hellohello", "ll", false, false).unwrap(), "heoheo\nremoved 2\n");
        assert_eq!(remove_tool("aAgAAG", "AAG", false, false).unwrap(), "aAg\nremoved 1\n");
        assert_eq!(remove_tool("äääbbb", "äb", false, false).unwrap(), "(empty)\nremoved 3\n");
        assert_eq!(remove_tool("0110", "01", false, false).unwrap(), "10\nremoved 1\n");
    }

    #[test]
    fn bad_input_is_named() {
        assert_eq!(
            remove_tool("ACGT", "", false, false).unwrap_err(),
            "CHUNK is empty: give the letters to remove"
        );
        assert_eq!(
            remove_tool("AC GT", "A", false, false).unwrap_err(),
            "SEQUENCE may contain only letters and digits; found ' ' at position 3"
        );
        assert!(remove_tool("ACGT", "A-", false, false).unwrap_err().starts_with("CHUNK may contain only"));
        let huge = "A".repeat(MAX_INPUT_BYTES + 1);
        assert!(
            remove_tool(&huge, "A", false, false).unwrap_err().starts_with("SEQUENCE is 1048577 bytes long")
        );
        assert!(
            remove_tool("A", &huge, false, false).unwrap_err().starts_with("CHUNK is 1048577 bytes long")
        );
        let long = "A".repeat(MAX_TRACE_BYTES + 1);
        assert!(remove_tool(&long, "A", true, false).unwrap_err().starts_with("--trace takes a SEQUENCE"));
        assert!(remove_tool("A", "A", true, true).unwrap_err().starts_with("--trace and --json"));
    }

    #[test]
    fn a_mebibyte_is_fast_enough_to_accept() {
        // Deeply nested: every pass of the literal rule would remove one chunk.
        let half = 1 << 19;
        let sequence = format!("{}{}", "A".repeat(half), "C".repeat(half));
        assert_eq!(remove_tool(&sequence, "AC", false, false).unwrap(), format!("(empty)\nremoved {half}\n"));
    }
}
