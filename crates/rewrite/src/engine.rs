//! The rewriting engine: one pass of a rule set over a string.
//!
//! # The semantics of a pass
//!
//! The pass scans its input from the start to the end. At each position it
//! looks at the rules whose left side matches there. Of those, the rule with
//! the longest left side is applied; among rules with that same left side,
//! the one with the shortest right side; if that still leaves more than one
//! rule (including the same rule written twice), none is applied at that
//! position. An applied rule writes its right side to the output and the scan
//! continues after its left side, so right sides are never rewritten again in
//! the same pass. Where no rule is applied, one character is copied and the
//! scan moves one position on. A match that starts earlier always wins over a
//! longer one that starts later and overlaps it ("leftmost beats longest").
//!
//! When the longest left side at a position is tied, nothing at all is
//! applied there: a rule with a shorter left side that also matches at that
//! position does not step in. The rules of the game choose *the* rule with
//! the longest left side and, failing a unique choice, apply none of "these
//! rules"; where no rule is applied one character is copied. Falling back to
//! a shorter rule would make the blocked rules' owners hand the position to a
//! third player, which the rules never describe.
//!
//! # Two implementations
//!
//! [`RuleSet::run`] is the fast one: the distinct left sides go into one
//! leftmost-longest Aho-Corasick automaton, the winner of each distinct left
//! side (or the fact that it is tied) is decided once when the set is built,
//! and the output is streamed into a buffer that never grows past the length
//! limit. [`reference_pass`] is a deliberately plain transcription of the
//! rules, kept as the oracle the fast engine is tested against.
//!
//! The engine works on bytes. With UTF-8 input and rules the result is the
//! same as working on characters: a left side that is valid UTF-8 can only
//! match at a character boundary, so copying a character byte by byte gives
//! what copying it whole would give. Positions are byte offsets.

use std::collections::HashMap;

use aho_corasick::{AhoCorasick, AhoCorasickKind, Input, MatchKind};
use thiserror::Error;

/// The most rules one set may hold.
pub const MAX_RULES: usize = 1_000_000;

/// One rewrite rule: `lhs => rhs`, written by `owner`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule<O> {
    /// Who wrote the rule (a seat in the game, a name in the calculator).
    pub owner: O,
    /// What is replaced; never empty.
    pub lhs: String,
    /// What it is replaced with; may be empty.
    pub rhs: String,
}

impl<O> Rule<O> {
    /// A rule.
    pub fn new(owner: O, lhs: impl Into<String>, rhs: impl Into<String>) -> Self {
        Rule { owner, lhs: lhs.into(), rhs: rhs.into() }
    }
}

/// Why a rule set could not be built.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EngineError {
    /// A rule with an empty left side would match everywhere.
    #[error("rule {index} has an empty left side")]
    EmptyLhs {
        /// The 0-based index of the rule in its set.
        index: usize,
    },
    /// More rules than [`MAX_RULES`].
    #[error("a rule set may hold at most {MAX_RULES} rules, not {0}")]
    TooManyRules(usize),
    /// The automaton could not be built (too large).
    #[error("the rule set is too large to build: {0}")]
    Build(String),
}

/// One application of a rule during a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Application {
    /// The index of the applied rule in its set.
    pub rule: usize,
    /// The byte offset of the match in the pass's input.
    pub pos: usize,
}

/// What a pass did besides writing its output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PassSummary {
    /// How many rules were applied.
    pub applications: u64,
    /// Whether the output was cut at the length limit: the full output would
    /// have been longer, and what was written is its first `limit` bytes.
    pub cut: bool,
}

/// A whole pass collected in memory: the output and every application.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Pass {
    /// The output (cut at the limit when `cut`).
    pub output: Vec<u8>,
    /// Every application, in scan order (so by increasing position).
    pub applications: Vec<Application>,
    /// Whether the output was cut at the length limit.
    pub cut: bool,
}

/// What happens when the longest left side at a position has been found.
#[derive(Clone, Copy, Debug)]
enum Choice {
    /// This rule applies.
    Apply(usize),
    /// Several rules tie: none applies, one byte is copied.
    Blocked,
}

/// A compiled rule set, ready to run passes.
#[derive(Clone, Debug)]
pub struct RuleSet<O> {
    rules: Vec<Rule<O>>,
    /// Over the distinct left sides; `None` for an empty set.
    automaton: Option<AhoCorasick>,
    /// What each distinct left side (by automaton pattern id) does.
    choices: Vec<Choice>,
}

impl<O> RuleSet<O> {
    /// Compile a rule set.
    ///
    /// # Errors
    ///
    /// A rule with an empty left side, more than [`MAX_RULES`] rules, or an
    /// automaton too large to build.
    pub fn new(rules: Vec<Rule<O>>) -> Result<Self, EngineError> {
        if rules.len() > MAX_RULES {
            return Err(EngineError::TooManyRules(rules.len()));
        }
        if let Some(index) = rules.iter().position(|r| r.lhs.is_empty()) {
            return Err(EngineError::EmptyLhs { index });
        }
        let mut pattern_of: HashMap<&str, usize> = HashMap::new();
        let mut patterns: Vec<&str> = Vec::new();
        // For each distinct left side: the shortest right side seen and the
        // rules that have it.
        let mut best: Vec<(usize, Vec<usize>)> = Vec::new();
        for (index, rule) in rules.iter().enumerate() {
            let id = *pattern_of.entry(rule.lhs.as_str()).or_insert_with(|| {
                patterns.push(rule.lhs.as_str());
                best.push((usize::MAX, Vec::new()));
                patterns.len() - 1
            });
            let (shortest, holders) = &mut best[id];
            if rule.rhs.len() < *shortest {
                *shortest = rule.rhs.len();
                holders.clear();
            }
            if rule.rhs.len() == *shortest {
                holders.push(index);
            }
        }
        let choices = best
            .iter()
            .map(|(_, holders)| match holders.as_slice() {
                [only] => Choice::Apply(*only),
                _ => Choice::Blocked,
            })
            .collect();
        let automaton = if patterns.is_empty() {
            None
        } else {
            Some(
                AhoCorasick::builder()
                    .match_kind(MatchKind::LeftmostLongest)
                    .kind(Some(AhoCorasickKind::DFA))
                    .build(&patterns)
                    .or_else(|_| {
                        // A DFA over very many long patterns may exceed its
                        // limits; the contiguous NFA is smaller and slower.
                        AhoCorasick::builder()
                            .match_kind(MatchKind::LeftmostLongest)
                            .kind(Some(AhoCorasickKind::ContiguousNFA))
                            .build(&patterns)
                    })
                    .map_err(|e| EngineError::Build(e.to_string()))?,
            )
        };
        Ok(RuleSet { rules, automaton, choices })
    }

    /// The rules, in the order given.
    pub fn rules(&self) -> &[Rule<O>] {
        &self.rules
    }

    /// Run one pass over `input`, appending the output to `out` (which the
    /// caller normally passes empty) and calling `on_apply` for every
    /// application in scan order. The output never grows past `limit` bytes
    /// in total (`out` included): a pass that would write more is cut there,
    /// and the summary says so.
    pub fn run(
        &self,
        input: &[u8],
        limit: usize,
        out: &mut Vec<u8>,
        mut on_apply: impl FnMut(Application),
    ) -> PassSummary {
        let mut sink = Sink::new(out, limit, input.len());
        let mut summary = PassSummary::default();
        let Some(automaton) = &self.automaton else {
            summary.cut = !sink.write(input);
            return summary;
        };
        let end = input.len();
        let mut pos = 0;
        while pos < end {
            let Some(m) = automaton.find(Input::new(input).span(pos..end)) else {
                summary.cut = !sink.write(&input[pos..]);
                return summary;
            };
            if !sink.write(&input[pos..m.start()]) {
                summary.cut = true;
                return summary;
            }
            match self.choices[m.pattern().as_usize()] {
                Choice::Apply(rule) => {
                    summary.applications += 1;
                    on_apply(Application { rule, pos: m.start() });
                    if !sink.write(self.rules[rule].rhs.as_bytes()) {
                        summary.cut = true;
                        return summary;
                    }
                    pos = m.end();
                }
                Choice::Blocked => {
                    if !sink.write(&input[m.start()..m.start() + 1]) {
                        summary.cut = true;
                        return summary;
                    }
                    pos = m.start() + 1;
                }
            }
        }
        summary
    }

    /// Run one pass and collect everything it did.
    pub fn pass(&self, input: &[u8], limit: usize) -> Pass {
        let mut output = Vec::new();
        let mut applications = Vec::new();
        let summary = self.run(input, limit, &mut output, |a| applications.push(a));
        Pass { output, applications, cut: summary.cut }
    }
}

/// An output buffer that never holds more than `limit` bytes, growing its
/// allocation only as needed and never past the limit.
struct Sink<'a> {
    out: &'a mut Vec<u8>,
    limit: usize,
}

impl<'a> Sink<'a> {
    fn new(out: &'a mut Vec<u8>, limit: usize, input_len: usize) -> Self {
        let want = out.len().saturating_add(input_len).min(limit);
        if want > out.capacity() {
            out.reserve_exact(want - out.len());
        }
        Sink { out, limit }
    }

    /// Append `bytes`; false (after writing what fits) when the limit is hit.
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> bool {
        let room = self.limit.saturating_sub(self.out.len());
        let fits = bytes.len() <= room;
        let take = if fits { bytes } else { &bytes[..room] };
        let needed = self.out.len() + take.len();
        if needed > self.out.capacity() {
            let grown = needed.max(self.out.capacity().saturating_mul(2)).min(self.limit);
            self.out.reserve_exact(grown - self.out.len());
        }
        self.out.extend_from_slice(take);
        fits
    }
}

/// The plain, slow transcription of the rules of a pass (see the module
/// documentation), kept as the oracle for [`RuleSet::run`]. At every position
/// it looks at every rule.
pub fn reference_pass<O>(rules: &[Rule<O>], input: &[u8], limit: usize) -> Pass {
    let mut pass = Pass::default();
    let mut pos = 0;
    while pos < input.len() {
        let rest = &input[pos..];
        let matching: Vec<usize> = (0..rules.len())
            .filter(|&i| !rules[i].lhs.is_empty() && rest.starts_with(rules[i].lhs.as_bytes()))
            .collect();
        let longest = matching.iter().map(|&i| rules[i].lhs.len()).max();
        let with_longest: Vec<usize> =
            matching.iter().copied().filter(|&i| Some(rules[i].lhs.len()) == longest).collect();
        let shortest_rhs = with_longest.iter().map(|&i| rules[i].rhs.len()).min();
        let chosen: Vec<usize> =
            with_longest.into_iter().filter(|&i| Some(rules[i].rhs.len()) == shortest_rhs).collect();
        let (piece, step) = if let [rule] = chosen.as_slice() {
            pass.applications.push(Application { rule: *rule, pos });
            (rules[*rule].rhs.as_bytes(), rules[*rule].lhs.len())
        } else {
            (&input[pos..pos + 1], 1)
        };
        for &byte in piece {
            if pass.output.len() == limit {
                pass.cut = true;
                return pass;
            }
            pass.output.push(byte);
        }
        pos += step;
    }
    pass
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn set(rules: &[(&str, &str)]) -> RuleSet<usize> {
        RuleSet::new(rules.iter().enumerate().map(|(i, (l, r))| Rule::new(i, *l, *r)).collect()).unwrap()
    }

    fn run(rules: &[(&str, &str)], input: &str) -> String {
        String::from_utf8(set(rules).pass(input.as_bytes(), usize::MAX).output).unwrap()
    }

    #[test]
    fn sed_gotcha_first_rule_set() {
        assert_eq!(run(&[("s", "pu"), ("su", "ss"), ("pu", "su")], "uuspusu"), "uupususs");
    }

    #[test]
    fn sed_gotcha_leftmost_beats_longest() {
        let rules = [("pupu", "su"), ("pupusu", "ssp"), ("su", "puupuu")];
        assert_eq!(run(&rules, "pupupusu"), "supupuupuu");
        assert_eq!(run(&rules, "pupupusupupusu"), "supupuupuussp");
    }

    #[test]
    fn worked_example_round_one_tie_copies_g() {
        let rules = [("tcg", "ag"), ("t", "ac"), ("g", "tc"), ("at", "ta"), ("g", "at")];
        let pass = set(&rules).pass(b"atcg", usize::MAX);
        assert_eq!(pass.output, b"tacg");
        assert_eq!(pass.applications, [Application { rule: 3, pos: 0 }]);
    }

    #[test]
    fn same_rule_twice_blocks_itself() {
        assert_eq!(run(&[("a", "b"), ("a", "b")], "aa"), "aa");
    }

    #[test]
    fn tied_longest_does_not_fall_back_to_a_shorter_rule() {
        // At position 0 "ab" is tied, so nothing applies there, not even
        // "a=>x"; the scan moves on to "b".
        assert_eq!(run(&[("ab", "1"), ("ab", "2"), ("a", "x"), ("b", "y")], "ab"), "ay");
    }

    #[test]
    fn shortest_rhs_breaks_a_lhs_tie() {
        assert_eq!(run(&[("a", "xyz"), ("a", "q")], "aba"), "qbq");
        let pass = set(&[("a", "xyz"), ("a", "q")]).pass(b"aba", usize::MAX);
        assert_eq!(pass.applications.iter().map(|a| a.rule).collect::<Vec<_>>(), [1, 1]);
    }

    #[test]
    fn empty_rhs_deletes() {
        assert_eq!(run(&[("ab", "")], "aabb"), "ab");
    }

    #[test]
    fn empty_lhs_is_refused() {
        assert_eq!(
            RuleSet::new(vec![Rule::new(0, "a", ""), Rule::new(1, "", "b")]).unwrap_err(),
            EngineError::EmptyLhs { index: 1 }
        );
    }

    #[test]
    fn empty_set_copies() {
        assert_eq!(run(&[], "abc"), "abc");
        let pass = set(&[]).pass(b"abc", 2);
        assert_eq!((pass.output.as_slice(), pass.cut), (&b"ab"[..], true));
    }

    #[test]
    fn cut_at_the_limit_keeps_a_prefix_and_records_the_cut_application() {
        let rules = [("a", "aaaa")];
        let pass = set(&rules).pass(b"aaa", 6);
        assert_eq!(pass.output, b"aaaaaa");
        assert!(pass.cut);
        assert_eq!(pass.applications.len(), 2);
        assert!(pass.output.capacity() <= 6);
        // Exactly at the limit is not a cut.
        let pass = set(&rules).pass(b"aa", 8);
        assert_eq!((pass.output.len(), pass.cut), (8, false));
        // Deletions after the limit is reached still happen and are no cut.
        let pass = set(&[("a", "bb"), ("c", "")]).pass(b"acc", 2);
        assert_eq!((pass.output.as_slice(), pass.cut, pass.applications.len()), (&b"bb"[..], false, 3));
    }

    #[test]
    fn utf8_is_rewritten_by_characters() {
        assert_eq!(run(&[("ä", "ö"), ("öö", "x")], "äöö€ä"), "öx€ö");
        assert_eq!(run(&[("€", "e"), ("€", "E")], "a€b"), "a€b");
    }

    fn rules_strategy() -> impl Strategy<Value = Vec<(String, String)>> {
        prop::collection::vec(("[ab]{1,4}", "[abc]{0,4}"), 0..8)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn fast_engine_agrees_with_the_reference(
            rules in rules_strategy(),
            duplicate in any::<bool>(),
            input in "[abc]{0,40}",
            limit in prop::option::of(0usize..60),
        ) {
            let mut rules: Vec<Rule<usize>> =
                rules.into_iter().enumerate().map(|(i, (l, r))| Rule::new(i, l, r)).collect();
            if duplicate && !rules.is_empty() {
                let copy = Rule { owner: rules.len(), ..rules[0].clone() };
                rules.push(copy);
            }
            let limit = limit.unwrap_or(usize::MAX);
            let expected = reference_pass(&rules, input.as_bytes(), limit);
            let fast = RuleSet::new(rules).unwrap().pass(input.as_bytes(), limit);
            prop_assert_eq!(fast, expected);
        }
    }
}
