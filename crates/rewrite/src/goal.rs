//! Goals: what each player secretly wants to see in the final string, and
//! how their hits are counted.
//!
//! A plain goal is a string of exactly `-goal_length` letters. With
//! `-regex_goals` a goal is a regular expression with at least
//! `-goal_length` letters of the alphabet (metacharacters not counted). The
//! accepted syntax is small on purpose, so that "letters" is unambiguous:
//! alphabet letters, `.`, classes `[..]` (with `^` and `-`), groups `(..)`
//! and `(?:..)`, alternation `|`, repetition `* + ? {m} {m,} {m,n}`, and the
//! anchors `^` and `$`. No escapes, flags or named groups.
//!
//! A hit is a position of the final string where a match of the goal
//! begins; overlapping hits all count. Counting runs one reverse DFA over
//! the string in overlapping mode, so it is linear in the string's length
//! whatever the goal.

use std::ops::Range;
use std::sync::Arc;

use regex_automata::dfa::{Automaton, OverlappingState, StartKind, dense};
use regex_automata::nfa::thompson;
use regex_automata::util::syntax;
use regex_automata::{Anchored, Input, MatchKind};
use tabula_model::{Message, msg};

/// The longest goal, in characters.
pub const MAX_GOAL_CHARS: usize = 64;

/// Memory allowed for each compiled goal.
const GOAL_SIZE_LIMIT: usize = 1 << 20;

/// A validated goal with its compiled matchers.
#[derive(Clone, Debug)]
pub struct Goal {
    text: String,
    is_pattern: bool,
    compiled: Arc<Compiled>,
}

#[derive(Debug)]
struct Compiled {
    /// For the right-side check.
    regex: regex::bytes::Regex,
    /// Reverse, overlapping: reports every position where a match begins.
    starts: dense::DFA<Vec<u32>>,
    /// Forward, anchored: finds where the shortest match from a start ends.
    ends: dense::DFA<Vec<u32>>,
}

impl PartialEq for Goal {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text && self.is_pattern == other.is_pattern
    }
}

impl Goal {
    /// Validate a goal for a game with these letters, `-goal_length` and
    /// `-regex_goals`. Errors name the rule of the game that is broken.
    pub fn parse(text: &str, alphabet: &str, goal_length: usize, pattern: bool) -> Result<Goal, Message> {
        if text.chars().count() > MAX_GOAL_CHARS {
            return Err(msg!("rewrite-error-goal-long", max = MAX_GOAL_CHARS.to_string()));
        }
        if pattern {
            check_pattern_syntax(text, alphabet, goal_length)?;
        } else {
            if let Some(c) = text.chars().find(|c| !alphabet.contains(*c)) {
                return Err(msg!("rewrite-error-letter", letter = format!("{c:?}"), alphabet = alphabet));
            }
            let n = text.chars().count();
            if n != goal_length {
                return Err(msg!(
                    "rewrite-error-goal-length",
                    length = goal_length.to_string(),
                    given = n.to_string()
                ));
            }
        }
        let compiled = compile(text)?;
        Ok(Goal { text: text.to_string(), is_pattern: pattern, compiled: Arc::new(compiled) })
    }

    /// The goal as the player wrote it.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether this goal is a regular expression.
    pub fn is_pattern(&self) -> bool {
        self.is_pattern
    }

    /// Whether a right side is forbidden to the goal's owner: it contains the
    /// goal (a plain goal) or has a match of it (a pattern).
    pub fn forbids(&self, rhs: &str) -> bool {
        if self.is_pattern { self.compiled.regex.is_match(rhs.as_bytes()) } else { rhs.contains(&self.text) }
    }

    /// The number of hits in `hay`, and the hit starts for which `keep` is
    /// true (ascending).
    pub fn hits(&self, hay: &[u8], keep: impl Fn(usize) -> bool) -> (u64, Vec<usize>) {
        let input = Input::new(hay);
        let mut state = OverlappingState::start();
        let mut count = 0;
        let mut starts = Vec::new();
        // The configuration never quits (no Unicode word boundaries, no quit
        // bytes) and the input is unanchored, which the DFA supports, so the
        // search cannot fail; an error would end the count early.
        while self.compiled.starts.try_search_overlapping_rev(&input, &mut state).is_ok() {
            let Some(hit) = state.get_match() else { break };
            count += 1;
            if keep(hit.offset()) {
                starts.push(hit.offset());
            }
        }
        starts.reverse();
        (count, starts)
    }

    /// Where the shortest match that begins at `start` ends, looking no
    /// further than `stop`; `None` when it ends past `stop`.
    pub fn shortest_end(&self, hay: &[u8], start: usize, stop: usize) -> Option<usize> {
        let input = Input::new(hay).range(start..stop.min(hay.len())).anchored(Anchored::Yes).earliest(true);
        self.compiled.ends.try_search_fwd(&input).ok().flatten().map(|m| m.offset())
    }

    /// Mark the hits of this goal in the part `range` of `hay`: a byte per
    /// position, true where some hit covers it.
    pub fn cover(&self, hay: &[u8], range: Range<usize>, starts: &[usize]) -> Vec<bool> {
        let mut covered = vec![false; range.len()];
        for &s in starts.iter().filter(|s| range.contains(s)) {
            let end = self.shortest_end(hay, s, range.end).unwrap_or(range.end);
            for c in &mut covered[s - range.start..end.max(s + 1).min(range.end) - range.start] {
                *c = true;
            }
        }
        covered
    }
}

fn check_pattern_syntax(text: &str, alphabet: &str, goal_length: usize) -> Result<(), Message> {
    if text.contains("(?") && text.split("(?").skip(1).any(|rest| !rest.starts_with(':')) {
        return Err(msg!("rewrite-error-pattern-group"));
    }
    let mut letters = 0;
    let mut in_braces = false;
    let mut prev = None;
    for c in text.chars() {
        match c {
            c if alphabet.contains(c) && !in_braces => letters += 1,
            '{' if !in_braces => in_braces = true,
            '}' if in_braces => in_braces = false,
            '0'..='9' | ',' if in_braces => {}
            '?' if prev == Some('(') => {}
            ':' if prev == Some('?') => {}
            '.' | '[' | ']' | '^' | '-' | '(' | ')' | '?' | '|' | '*' | '+' | '$' => {}
            c if c.is_ascii_alphabetic() => {
                return Err(msg!("rewrite-error-letter", letter = format!("{c:?}"), alphabet = alphabet));
            }
            c => {
                return Err(msg!(
                    "rewrite-error-pattern-char",
                    letter = format!("{c:?}"),
                    alphabet = alphabet
                ));
            }
        }
        prev = Some(c);
    }
    if letters < goal_length {
        return Err(msg!(
            "rewrite-error-pattern-letters",
            length = goal_length.to_string(),
            text = format!("{text:?}"),
            given = letters.to_string()
        ));
    }
    let hir = regex_syntax::ParserBuilder::new()
        .unicode(false)
        .utf8(false)
        .nest_limit(32)
        .build()
        .parse(text)
        .map_err(|e| {
            msg!("rewrite-error-pattern-invalid", text = format!("{text:?}"), problem = pattern_problem(&e))
        })?;
    if hir.properties().minimum_len() == Some(0) {
        return Err(msg!("rewrite-error-pattern-empty"));
    }
    if hir.properties().minimum_len().is_none() {
        return Err(msg!("rewrite-error-pattern-nothing"));
    }
    Ok(())
}

/// What is wrong with a pattern the parser refused, in the reader's
/// language. The letters and metacharacters a goal may use (checked
/// before parsing) leave only the problems named here; any other keeps
/// the parser's own English line, quoted (message `rewrite-regex-other`),
/// since the parser names no more than its kind and the code cannot
/// foresee what a new version of it adds.
fn pattern_problem(e: &regex_syntax::Error) -> Message {
    use regex_syntax::ast::ErrorKind as K;
    let regex_syntax::Error::Parse(parse) = e else {
        return msg!("rewrite-regex-other", detail = error_summary(&e.to_string()));
    };
    match parse.kind() {
        K::ClassUnclosed => msg!("rewrite-regex-class-unclosed"),
        K::ClassRangeInvalid => msg!("rewrite-regex-class-range"),
        K::ClassRangeLiteral => msg!("rewrite-regex-class-range-literal"),
        K::GroupUnclosed => msg!("rewrite-regex-group-unclosed"),
        K::GroupUnopened => msg!("rewrite-regex-group-unopened"),
        K::RepetitionMissing => msg!("rewrite-regex-repetition-missing"),
        K::RepetitionCountInvalid => msg!("rewrite-regex-count-range"),
        K::RepetitionCountUnclosed => msg!("rewrite-regex-count-unclosed"),
        K::RepetitionCountDecimalEmpty => msg!("rewrite-regex-count-empty"),
        K::DecimalEmpty => msg!("rewrite-regex-decimal-empty"),
        K::DecimalInvalid => msg!("rewrite-regex-decimal-invalid"),
        K::NestLimitExceeded(limit) => msg!("rewrite-regex-nesting", limit = limit.to_string()),
        _ => msg!("rewrite-regex-other", detail = error_summary(&e.to_string())),
    }
}

fn error_summary(text: &str) -> String {
    text.lines().rfind(|l| !l.trim().is_empty()).unwrap_or(text).trim().to_string()
}

fn compile(text: &str) -> Result<Compiled, Message> {
    let too_complex = |e: &dyn std::fmt::Display| {
        msg!("rewrite-error-goal-complex", text = format!("{text:?}"), problem = e.to_string())
    };
    let regex = regex::bytes::RegexBuilder::new(text)
        .unicode(false)
        .size_limit(GOAL_SIZE_LIMIT)
        .dfa_size_limit(GOAL_SIZE_LIMIT)
        .build()
        .map_err(|e| too_complex(&e))?;
    let syntax = syntax::Config::new().unicode(false).utf8(false);
    let dfa_config = |kind, start| {
        dense::Config::new()
            .match_kind(kind)
            .start_kind(start)
            .dfa_size_limit(Some(GOAL_SIZE_LIMIT))
            .determinize_size_limit(Some(GOAL_SIZE_LIMIT))
    };
    let starts = dense::Builder::new()
        .configure(dfa_config(MatchKind::All, StartKind::Unanchored))
        .syntax(syntax)
        .thompson(thompson::Config::new().reverse(true).utf8(false))
        .build(text)
        .map_err(|e| too_complex(&e))?;
    let ends = dense::Builder::new()
        .configure(dfa_config(MatchKind::LeftmostFirst, StartKind::Anchored))
        .syntax(syntax)
        .thompson(thompson::Config::new().utf8(false))
        .build(text)
        .map_err(|e| too_complex(&e))?;
    Ok(Compiled { regex, starts, ends })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn plain(text: &str) -> Goal {
        Goal::parse(text, "atcg", 3, false).unwrap()
    }

    fn pattern(text: &str) -> Goal {
        Goal::parse(text, "atcg", 3, true).unwrap()
    }

    #[test]
    fn plain_goals_count_overlapping_hits() {
        assert_eq!(plain("acc").hits(b"tacaccac", |_| false).0, 1);
        assert_eq!(plain("aaa").hits(b"aaaaa", |_| true), (3, vec![0, 1, 2]));
        assert_eq!(plain("tca").hits(b"tacaccac", |_| false).0, 0);
    }

    #[test]
    fn plain_goal_validation_names_the_rule() {
        assert_eq!(
            Goal::parse("aagt", "atcg", 3, false).unwrap_err().to_string(),
            "rule 1: a goal has exactly 3 letters (-goal_length), not 4"
        );
        assert_eq!(
            Goal::parse("axg", "atcg", 3, false).unwrap_err().to_string(),
            "-alphabet: 'x' is not one of the letters atcg"
        );
    }

    #[test]
    fn pattern_goals() {
        let g = pattern("a[tc]g");
        assert_eq!(g.hits(b"atgacgagg", |_| false).0, 2);
        assert!(g.forbids("ttacgt"));
        assert!(!g.forbids("aggt"));
        let g = pattern("^tac");
        assert_eq!(g.hits(b"tactac", |_| true), (1, vec![0]));
        let g = pattern("gat$");
        assert_eq!(g.hits(b"gatgat", |_| false).0, 1);
        // Overlapping starts of an unbounded pattern.
        let g = pattern("a+tcg");
        assert_eq!(g.hits(b"aaatcg", |_| false).0, 3);
        assert_eq!(g.shortest_end(b"aaatcg", 1, 6), Some(6));
        assert_eq!(g.shortest_end(b"aaatcg", 1, 4), None);
    }

    #[test]
    fn pattern_validation() {
        let err = |t: &str| Goal::parse(t, "atcg", 3, true).unwrap_err().to_string();
        assert!(err("a.g").contains("at least 3 letters"), "{}", err("a.g"));
        assert!(err("(?:aag)?").contains("empty string"));
        assert!(err("aag|").contains("empty string"));
        assert!(err("a\\dcg").contains("not allowed"));
        assert!(err("(?i)acg").contains("(?:"));
        assert!(err("acgx").contains("'x' is not one of the letters"));
        assert!(err("a[cg").contains("not a valid regular expression"));
        assert!(err("a1cg").contains("not allowed"));
        assert!(Goal::parse("a{2,3}cg", "atcg", 3, true).is_ok());
        assert!(Goal::parse("(?:ac)+g", "atcg", 3, true).is_ok());
        assert!(err(&"a".repeat(65)).contains("at most 64"));
        // The nesting limit keeps the parser's recursion bounded.
        assert!(Goal::parse(&format!("{}acg{}", "(".repeat(40), ")".repeat(40)), "atcg", 3, true).is_err());
    }

    #[test]
    fn what_is_wrong_with_a_pattern_reads_in_each_language() {
        use tabula_model::Lang;
        let err = |text: &str, lang: Lang| Goal::parse(text, "atcg", 3, true).unwrap_err().render(lang);
        // English as the parser words it.
        assert_eq!(
            err("a[cg", Lang::En),
            "\"a[cg\" is not a valid regular expression: error: unclosed character class"
        );
        assert_eq!(
            err("a[cg", Lang::Fi),
            "\"a[cg\" ei ole kelvollinen säännöllinen lauseke: merkkiluokan hakasulje [ jää sulkematta"
        );
        assert_eq!(
            err("(acg", Lang::Es),
            "\"(acg\" no es una expresión regular válida: falta cerrar un paréntesis ("
        );
        assert_eq!(
            err("acg)", Lang::Fi),
            "\"acg)\" ei ole kelvollinen säännöllinen lauseke: sulkeella ) ei ole alkua"
        );
        assert_eq!(
            err("*acg", Lang::Es),
            "\"*acg\" no es una expresión regular válida: un operador de repetición (* + ? {m,n}) no tiene nada \
             delante que repetir"
        );
    }

    #[test]
    fn cover_marks_shortest_matches() {
        let g = Goal::parse("a.?c", "atcg", 2, true).unwrap();
        let hay = b"taccac";
        let (n, starts) = g.hits(hay, |_| true);
        assert_eq!((n, starts.clone()), (2, vec![1, 4]));
        assert_eq!(g.cover(hay, 0..6, &starts), [false, true, true, false, true, true]);
        assert_eq!(g.cover(hay, 0..2, &starts), [false, true]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn hits_are_the_positions_where_a_match_begins(
            goal in "(a|c|t|g|\\.|\\[ac\\]|a\\*|c\\+|t\\?){3,6}",
            hay in "[atcg]{0,30}",
        ) {
            let Ok(g) = Goal::parse(&goal, "atcg", 3, true) else { return Ok(()) };
            let anchored = regex::bytes::Regex::new(&format!("^(?:{goal})")).unwrap();
            let expected: Vec<usize> = (0..hay.len())
                .filter(|&i| anchored.is_match(&hay.as_bytes()[i..]))
                .collect();
            let (count, starts) = g.hits(hay.as_bytes(), |_| true);
            prop_assert_eq!(count as usize, expected.len());
            prop_assert_eq!(starts, expected);
        }

        #[test]
        fn plain_hits_match_a_naive_count(goal in "[ac]{3}", hay in "[ac]{0,30}") {
            let g = plain(&goal);
            let naive = (0..hay.len()).filter(|&i| hay[i..].starts_with(&goal)).count();
            prop_assert_eq!(g.hits(hay.as_bytes(), |_| false).0 as usize, naive);
        }
    }
}
