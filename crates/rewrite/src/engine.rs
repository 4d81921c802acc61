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
//! [`RuleSet::run`] is the fast one. The winner of each distinct left side
//! (or the fact that it is tied) is decided once when the set is built, and
//! the output is streamed into a buffer that never grows past the length
//! limit. To find the longest left side at each scan position it uses the
//! `aho-corasick` crate in one of two ways:
//!
//! - a leftmost-longest search over the distinct left sides, whose
//!   prefilters skip quickly over text where nothing can match (sets of up
//!   to 64 left sides start with it, and it is the only way for left sides
//!   longer than 1024 bytes);
//! - blocks: a complete automaton over the *reversed* left sides scans each
//!   16 KiB block backwards (four interleaved scans, to hide the latency of
//!   each scan's chain of look-ups), which yields for every position the
//!   longest left side starting there and the nearest position where one
//!   starts; the block is then rewritten forwards with one dependent load
//!   per step. A pass switches to blocks where matches are dense.
//!
//! [`reference_pass`] is a deliberately plain transcription of the rules,
//! kept as the oracle the fast engine is tested against.
//!
//! The engine works on bytes. With UTF-8 input and rules the result is the
//! same as working on characters: a left side that is valid UTF-8 can only
//! match at a character boundary, so copying a character byte by byte gives
//! what copying it whole would give. Positions are byte offsets.

use std::collections::HashMap;

use aho_corasick::{AhoCorasick, Input, MatchKind};
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

/// What happens where a distinct left side is the longest match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Choice {
    /// This rule applies.
    Apply(usize),
    /// Several rules tie: none applies, one byte is copied.
    Blocked,
}

/// What a distinct left side does, kept small (24 bytes) because the
/// forward rewrite reads one per application.
#[derive(Clone, Debug)]
struct Pattern {
    /// The rule applied, or [`BLOCKED`].
    rule: u32,
    rhs_len: u32,
    /// The right side of the applied rule, padded to a fixed 16-byte chunk
    /// so that short writes are one fixed-size copy (unused when longer).
    chunk: [u8; CHUNK],
}

/// [`Pattern::rule`] of a tied left side.
const BLOCKED: u32 = u32::MAX;

/// Short copies are done as one fixed copy of this many bytes.
const CHUNK: usize = 16;
/// Longest left side for the block strategy; longer sets use the plain
/// leftmost-longest search.
const BLOCK_MAX_LHS: usize = 1024;
/// Most transition-table entries for the block strategy.
const BLOCK_MAX_ENTRIES: usize = 1 << 22;
/// Independent reverse scans interleaved, to hide the latency of each
/// scan's chain of table look-ups.
const STREAMS: usize = 4;
/// The length of each interleaved scan.
const STREAM_LEN: usize = 4096;
/// "No left side starts here": a scan code is never 0 otherwise, since its
/// advance is at least 1. Zero lets the scan test for a code with the flags
/// of the instruction that extracts it.
const NONE: u32 = 0;
/// A scan code packs a pattern id in its low bits (there are at most
/// [`MAX_RULES`] < 2^20 patterns) and how far the scan advances past the
/// pattern's position in the bits above ([`BLOCK_MAX_LHS`] < 2^11).
const PATTERN_BITS: u32 = 20;
const PATTERN_MASK: u32 = (1 << PATTERN_BITS) - 1;
const ADVANCE_MASK: u32 = (1 << 11) - 1;

/// A transition-table entry, which also serves as a scan's state and, in the
/// `next` array of a block, as the nearest match: the state (or an offset in
/// the block) in the low bits, the scan code of a match above them. Two
/// widths: 8 bytes for any set, 4 bytes for the usual small sets, whose
/// table then takes half the cache.
trait Entry: Copy + Default {
    /// The entry with its state or offset (any bits) as an index.
    fn index(self) -> usize;
    /// The nearest match at offset `at`, given the table entry that led
    /// there and the nearest match after it (see [`next_entry`]).
    fn next_entry(self, at: usize, after: Self) -> Self;
    /// The offset of a nearest-match entry.
    fn offset(self) -> usize;
    /// How far the scan moves past the match (0: no match).
    fn advance(self) -> usize;
    /// The pattern of the match.
    fn pattern(self) -> usize;
    /// An entry from a state or offset and a code ([`NONE`] or the pattern
    /// and advance as packed in a wide entry's high half).
    fn from_parts(state: usize, code: u32) -> Self;
}

impl Entry for u64 {
    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }
    #[inline(always)]
    fn next_entry(self, at: usize, after: Self) -> Self {
        next_entry(self, at, after)
    }
    #[inline(always)]
    fn offset(self) -> usize {
        self as u32 as usize
    }
    #[inline(always)]
    fn advance(self) -> usize {
        ((self >> (32 + PATTERN_BITS)) as u32 & ADVANCE_MASK) as usize
    }
    #[inline(always)]
    fn pattern(self) -> usize {
        ((self >> 32) as u32 & PATTERN_MASK) as usize
    }
    fn from_parts(state: usize, code: u32) -> Self {
        (u64::from(code) << 32) | state as u64
    }
}

/// The narrow entry: state or offset in the low [`NARROW_STATE_BITS`],
/// then the advance in [`NARROW_ADVANCE_BITS`], then the pattern.
const NARROW_STATE_BITS: u32 = 17;
const NARROW_ADVANCE_BITS: u32 = 4;
const NARROW_PATTERN_BITS: u32 = 32 - NARROW_STATE_BITS - NARROW_ADVANCE_BITS;

impl Entry for u32 {
    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }
    #[inline(always)]
    fn next_entry(self, at: usize, after: Self) -> Self {
        let code = self & !((1 << NARROW_STATE_BITS) - 1);
        if code != 0 { code + at as u32 } else { after }
    }
    #[inline(always)]
    fn offset(self) -> usize {
        (self & ((1 << NARROW_STATE_BITS) - 1)) as usize
    }
    #[inline(always)]
    fn advance(self) -> usize {
        ((self >> NARROW_STATE_BITS) & ((1 << NARROW_ADVANCE_BITS) - 1)) as usize
    }
    #[inline(always)]
    fn pattern(self) -> usize {
        (self >> (NARROW_STATE_BITS + NARROW_ADVANCE_BITS)) as usize
    }
    fn from_parts(state: usize, code: u32) -> Self {
        let advance = code >> PATTERN_BITS;
        let pattern = code & PATTERN_MASK;
        (pattern << (NARROW_STATE_BITS + NARROW_ADVANCE_BITS)) | (advance << NARROW_STATE_BITS) | state as u32
    }
}

/// How a set finds the longest left side at each position.
#[derive(Clone, Debug)]
enum Search {
    /// No rules: a pass copies.
    Empty,
    /// Blocks of the input are scanned backwards by an automaton over the
    /// reversed left sides, which yields the longest left side starting at
    /// every position of the block; then the block is rewritten forwards.
    /// With few left sides, a pass starts with the leftmost-longest search
    /// (whose prefilters skip fast over text where nothing matches) and
    /// switches to blocks where matches turn out to be dense.
    Blocks(Box<ReverseTable>, Option<Sparse>),
    /// Leftmost-longest search from each scan position (long left sides or
    /// automata too large for a table).
    Leftmost(AhoCorasick),
}

/// The leftmost-longest search tried first on a set with few left sides.
#[derive(Clone, Debug)]
struct Sparse {
    automaton: AhoCorasick,
    /// Bytes over which the match rate is judged.
    window: usize,
}

/// At most this many distinct left sides get a [`Sparse`] search first.
const SPARSE_MAX_PATTERNS: usize = 64;
/// Matches closer than this on average over a window make a pass switch
/// from the search to blocks (a search costs tens of nanoseconds per
/// match, blocks about one per byte).
const SPARSE_MIN_GAP: usize = 128;
const SPARSE_WINDOW: usize = 1 << 14;

/// A complete automaton over the reversed distinct left sides, as a table:
/// each entry packs the next state (premultiplied by the stride) in its low
/// bits and the scan code of the longest left side matched there (or
/// [`NONE`]) above them (see [`Entry`]).
#[derive(Clone, Debug)]
struct ReverseTable {
    classes: [u16; 256],
    trans: Trans,
    /// The table's length - 1; the length is a power of two.
    mask: usize,
    start: u32,
    max_lhs: usize,
    stream_len: usize,
}

/// The transitions of a [`ReverseTable`], in narrow entries where they fit.
#[derive(Clone, Debug)]
enum Trans {
    Wide(Vec<u64>),
    Narrow(Vec<u32>),
}

/// A compiled rule set, ready to run passes.
#[derive(Clone, Debug)]
pub struct RuleSet<O> {
    rules: Vec<Rule<O>>,
    patterns: Vec<Pattern>,
    strategy: Search,
    /// The longest right side when every applied right side fits in a
    /// chunk (else `None`): what one position can write at most.
    short_rhs: Option<usize>,
}

impl<O> RuleSet<O> {
    /// Compile a rule set.
    ///
    /// # Errors
    ///
    /// A rule with an empty left side, more than [`MAX_RULES`] rules, or an
    /// automaton too large to build.
    pub fn new(rules: Vec<Rule<O>>) -> Result<Self, EngineError> {
        Self::build(rules, None)
    }

    fn build(rules: Vec<Rule<O>>, force_leftmost: Option<bool>) -> Result<Self, EngineError> {
        if rules.len() > MAX_RULES {
            return Err(EngineError::TooManyRules(rules.len()));
        }
        if let Some(index) = rules.iter().position(|r| r.lhs.is_empty()) {
            return Err(EngineError::EmptyLhs { index });
        }
        let mut pattern_of: HashMap<&str, usize> = HashMap::new();
        let mut lhs_texts: Vec<&str> = Vec::new();
        // For each distinct left side: the shortest right side and the rules that have it.
        let mut best: Vec<(usize, Vec<usize>)> = Vec::new();
        for (index, rule) in rules.iter().enumerate() {
            let id = *pattern_of.entry(rule.lhs.as_str()).or_insert_with(|| {
                lhs_texts.push(rule.lhs.as_str());
                best.push((usize::MAX, Vec::new()));
                lhs_texts.len() - 1
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
        let patterns: Vec<Pattern> = best
            .iter()
            .map(|(_, holders)| {
                let choice = match holders.as_slice() {
                    [only] => Choice::Apply(*only),
                    _ => Choice::Blocked,
                };
                let rhs = match choice {
                    Choice::Apply(rule) => rules[rule].rhs.as_bytes(),
                    Choice::Blocked => &[],
                };
                let mut chunk = [0; CHUNK];
                if rhs.len() <= CHUNK {
                    chunk[..rhs.len()].copy_from_slice(rhs);
                }
                let rule = match choice {
                    Choice::Apply(rule) => rule as u32,
                    Choice::Blocked => BLOCKED,
                };
                Pattern { rule, rhs_len: rhs.len() as u32, chunk }
            })
            .collect();
        let strategy = if lhs_texts.is_empty() {
            Search::Empty
        } else {
            let table = match force_leftmost {
                Some(true) => None,
                _ => ReverseTable::build(&lhs_texts, &patterns),
            };
            let leftmost = || {
                AhoCorasick::builder()
                    .match_kind(MatchKind::LeftmostLongest)
                    .build(&lhs_texts)
                    .map_err(|e| EngineError::Build(e.to_string()))
            };
            match table {
                Some(table) => {
                    let sparse = if lhs_texts.len() <= SPARSE_MAX_PATTERNS {
                        Some(Sparse { automaton: leftmost()?, window: SPARSE_WINDOW })
                    } else {
                        None
                    };
                    Search::Blocks(Box::new(table), sparse)
                }
                None => Search::Leftmost(leftmost()?),
            }
        };
        let short_rhs = patterns
            .iter()
            .map(|p| p.rhs_len as usize)
            .try_fold(1, |most: usize, n| (n <= CHUNK).then_some(most.max(n)));
        Ok(RuleSet { rules, patterns, strategy, short_rhs })
    }

    /// The same set with the given strategy, interleaved scan length and
    /// table width, so that tests reach every code path on short inputs.
    #[cfg(test)]
    fn for_test(rules: Vec<Rule<O>>, leftmost: bool, stream_len: usize, wide: bool) -> Self {
        let mut set = Self::build(rules, Some(leftmost)).unwrap();
        if let Search::Blocks(table, sparse) = &mut set.strategy {
            table.stream_len = stream_len;
            if let (true, Trans::Narrow(narrow)) = (wide, &table.trans) {
                let wide = narrow.iter().map(|&e| {
                    let code = if e.advance() == 0 {
                        NONE
                    } else {
                        ((e.advance() as u32) << PATTERN_BITS) | e.pattern() as u32
                    };
                    u64::from_parts(e.offset(), code)
                });
                table.trans = Trans::Wide(wide.collect());
            }
            if let Some(sparse) = sparse {
                sparse.window = 8;
            }
        }
        set
    }

    /// The rules, in the order given.
    pub fn rules(&self) -> &[Rule<O>] {
        &self.rules
    }

    /// About how many bytes the compiled set holds, its rules and automata
    /// included.
    pub fn memory(&self) -> usize {
        use std::mem::size_of;
        let rules: usize = self.rules.iter().map(|r| size_of::<Rule<O>>() + r.lhs.len() + r.rhs.len()).sum();
        let search = match &self.strategy {
            Search::Empty => 0,
            Search::Blocks(table, sparse) => {
                let trans = match &table.trans {
                    Trans::Wide(t) => t.len() * size_of::<u64>(),
                    Trans::Narrow(t) => t.len() * size_of::<u32>(),
                };
                size_of::<ReverseTable>() + trans + sparse.as_ref().map_or(0, |s| s.automaton.memory_usage())
            }
            Search::Leftmost(automaton) => automaton.memory_usage(),
        };
        size_of::<Self>() + rules + self.patterns.len() * size_of::<Pattern>() + search
    }

    /// Run one pass over `input`, writing the output to `out` (its previous
    /// contents are replaced; its allocation is reused) and calling
    /// `on_apply` for every application in scan order. The output never
    /// grows past `limit` bytes: a pass that would write more is cut there,
    /// and the summary says so. The buffer's allocation stays within
    /// `limit` plus a few bytes.
    pub fn run(
        &self,
        input: &[u8],
        limit: usize,
        out: &mut Vec<u8>,
        mut on_apply: impl FnMut(Application),
    ) -> PassSummary {
        // Each strategy keeps its writer and counters local, so that they
        // live in registers rather than behind a reference.
        match &self.strategy {
            Search::Empty => {
                let mut writer = Writer::new(out, limit);
                let cut = !writer.write(input);
                writer.finish();
                PassSummary { applications: 0, cut }
            }
            Search::Leftmost(automaton) => self.run_leftmost(automaton, input, limit, out, &mut on_apply),
            Search::Blocks(table, sparse) => {
                self.run_blocks(table, sparse.as_ref(), input, limit, out, &mut on_apply)
            }
        }
    }

    /// Run one pass and collect everything it did.
    pub fn pass(&self, input: &[u8], limit: usize) -> Pass {
        let mut output = Vec::new();
        let mut applications = Vec::new();
        let summary = self.run(input, limit, &mut output, |a| applications.push(a));
        Pass { output, applications, cut: summary.cut }
    }

    /// Do what the longest left side found at `at` says: write the rule's
    /// right side, or copy the one byte at `at` when the side is tied.
    /// False when the output was cut.
    #[inline(always)]
    fn apply(
        &self,
        pattern: &Pattern,
        input: &[u8],
        at: usize,
        writer: &mut Writer<'_>,
        summary: &mut PassSummary,
        on_apply: &mut impl FnMut(Application),
    ) -> bool {
        if pattern.rule == BLOCKED {
            return writer.write(&input[at..at + 1]);
        }
        let rule = pattern.rule as usize;
        summary.applications += 1;
        on_apply(Application { rule, pos: at });
        if pattern.rhs_len as usize <= CHUNK {
            writer.write_chunk(&pattern.chunk, pattern.rhs_len as usize)
        } else {
            writer.write(self.rules[rule].rhs.as_bytes())
        }
    }

    /// The forward rewrite of one block from `pos` when the output cannot
    /// reach the limit within it ([`Writer::reserve_block`] said so) and every
    /// right side fits in a chunk: no limit or room checks per write.
    /// Returns the scan position after the block.
    ///
    /// Not inlined: inside the whole pass the compiler ran out of registers
    /// and kept the output offset on the stack, so that every write went
    /// through a store and a reload on the loop's critical path.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn rewrite_block<E: Entry>(
        &self,
        input: &[u8],
        next: &[E],
        start: usize,
        pos: usize,
        end: usize,
        writer: &mut Writer<'_>,
        summary: &mut PassSummary,
        on_apply: &mut impl FnMut(Application),
    ) -> usize {
        let out = &mut writer.buf[..];
        let mut w = writer.len;
        let mut applications = 0;
        // Offsets within the block, so that the chain of dependent steps
        // (load an entry, add its advance) has no base to add or subtract.
        let len = end - start;
        let next = &next[..len];
        // `end + CHUNK <= input.len()`, and the buffer has a chunk of slack
        // past the block's largest output.
        let input = &input[start..end + CHUNK];
        let mut p = pos - start;
        while p < len {
            let packed = next[p];
            let found = packed.offset();
            let advance = packed.advance();
            let gap = found - p;
            if gap <= CHUNK {
                out[w..w + CHUNK].copy_from_slice(&input[p..p + CHUNK]);
            } else {
                out[w..w + gap].copy_from_slice(&input[p..found]);
            }
            w += gap;
            p = found;
            if advance == 0 {
                // The end of the block, or of one interleaved scan.
                continue;
            }
            // The table has no code for a tied left side (see
            // `ReverseTable::build`), so every code here is a rule applied.
            let pattern = &self.patterns[packed.pattern()];
            applications += 1;
            on_apply(Application { rule: pattern.rule as usize, pos: start + found });
            out[w..w + CHUNK].copy_from_slice(&pattern.chunk);
            w += pattern.rhs_len as usize;
            p = found + advance;
        }
        let pos = start + p;
        writer.len = w;
        summary.applications += applications;
        pos
    }

    /// Copy the unmatched `input[from..to]`; false when cut.
    #[inline(always)]
    fn copy_gap(input: &[u8], from: usize, to: usize, writer: &mut Writer<'_>) -> bool {
        let gap = to - from;
        match input.get(from..from + CHUNK) {
            Some(chunk) if gap <= CHUNK => {
                let mut bytes = [0; CHUNK];
                bytes.copy_from_slice(chunk);
                writer.write_chunk(&bytes, gap)
            }
            _ => writer.write(&input[from..to]),
        }
    }

    fn run_leftmost(
        &self,
        automaton: &AhoCorasick,
        input: &[u8],
        limit: usize,
        out: &mut Vec<u8>,
        on_apply: &mut impl FnMut(Application),
    ) -> PassSummary {
        let mut writer = Writer::new(out, limit);
        let mut summary = PassSummary::default();
        summary.cut = !matches!(
            self.run_leftmost_into(automaton, input, 0, None, &mut writer, &mut summary, on_apply),
            Ok(true)
        );
        writer.finish();
        summary
    }

    #[inline(always)]
    /// The pass from `pos` on by leftmost-longest search: `Ok(false)` when
    /// cut. With a `window`, gives up with `Err(position)` once matches are
    /// denser than one per [`SPARSE_MIN_GAP`] bytes over a window.
    #[allow(clippy::too_many_arguments)]
    fn run_leftmost_into(
        &self,
        automaton: &AhoCorasick,
        input: &[u8],
        mut pos: usize,
        window: Option<usize>,
        writer: &mut Writer<'_>,
        summary: &mut PassSummary,
        on_apply: &mut impl FnMut(Application),
    ) -> Result<bool, usize> {
        let end = input.len();
        let mut window_start = pos;
        let mut matches = 0;
        while pos < end {
            if let Some(window) = window
                && pos - window_start >= window
            {
                if matches * SPARSE_MIN_GAP > pos - window_start {
                    return Err(pos);
                }
                window_start = pos;
                matches = 0;
            }
            let Some(m) = automaton.find(Input::new(input).span(pos..end)) else {
                return Ok(writer.write(&input[pos..]));
            };
            if !writer.write(&input[pos..m.start()]) {
                return Ok(false);
            }
            let pattern = &self.patterns[m.pattern().as_usize()];
            if !self.apply(pattern, input, m.start(), writer, summary, on_apply) {
                return Ok(false);
            }
            matches += 1;
            pos = if pattern.rule == BLOCKED { m.start() + 1 } else { m.end() };
        }
        Ok(true)
    }

    fn run_blocks(
        &self,
        table: &ReverseTable,
        sparse: Option<&Sparse>,
        input: &[u8],
        limit: usize,
        out: &mut Vec<u8>,
        on_apply: &mut impl FnMut(Application),
    ) -> PassSummary {
        let mut writer = Writer::new(out, limit);
        let mut summary = PassSummary::default();
        let from = match sparse {
            Some(sparse) => self.run_leftmost_into(
                &sparse.automaton,
                input,
                0,
                Some(sparse.window),
                &mut writer,
                &mut summary,
                on_apply,
            ),
            None => Err(0),
        };
        summary.cut = match from {
            Ok(done) => !done,
            Err(pos) => !match &table.trans {
                Trans::Wide(trans) => {
                    self.run_blocks_into(table, trans, input, pos, &mut writer, &mut summary, on_apply)
                }
                Trans::Narrow(trans) => {
                    self.run_blocks_into(table, trans, input, pos, &mut writer, &mut summary, on_apply)
                }
            },
        };
        writer.finish();
        summary
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn run_blocks_into<E: Entry>(
        &self,
        table: &ReverseTable,
        trans: &[E],
        input: &[u8],
        from: usize,
        writer: &mut Writer<'_>,
        summary: &mut PassSummary,
        on_apply: &mut impl FnMut(Application),
    ) -> bool {
        let block_len = table.stream_len * STREAMS;
        // Per position of the block: where the nearest left side at or after
        // it starts, packed with that match's pattern and advance.
        let mut next = vec![E::default(); block_len.min(input.len())];
        let mut pos = from;
        while pos < input.len() {
            let start = pos;
            let end = (start + block_len).min(input.len());
            table.scan(trans, input, start, end, &mut next);
            if let Some(most) = self.short_rhs
                && end + CHUNK <= input.len()
                && writer.reserve_block((end - pos) * most + CHUNK)
            {
                pos = self.rewrite_block(input, &next, start, pos, end, writer, summary, on_apply);
                continue;
            }
            while pos < end {
                // One dependent load per step keeps the critical path short.
                let packed = next[pos - start];
                let found = start + packed.offset();
                let advance = packed.advance();
                // Copying an empty gap is cheaper than a branch that is
                // hard to predict when matches are dense.
                if !Self::copy_gap(input, pos, found, writer) {
                    return false;
                }
                pos = found;
                if found == end || advance == 0 {
                    // The end of the block, or of one interleaved scan.
                    continue;
                }
                let pattern = &self.patterns[packed.pattern()];
                if !self.apply(pattern, input, found, writer, summary, on_apply) {
                    return false;
                }
                pos = found + advance;
            }
        }
        true
    }
}

impl ReverseTable {
    /// The table for these distinct left sides, or `None` when a left side
    /// is too long or the table would be too large.
    fn build(lhs: &[&str], patterns: &[Pattern]) -> Option<ReverseTable> {
        use aho_corasick::automaton::{Automaton, StateID};
        use aho_corasick::nfa::noncontiguous::NFA;

        let max_lhs = lhs.iter().map(|l| l.len()).max()?;
        if max_lhs > BLOCK_MAX_LHS {
            return None;
        }
        // Bytes that occur in no left side all behave alike: class 0.
        let mut used = [false; 256];
        for l in lhs {
            for b in l.bytes() {
                used[usize::from(b)] = true;
            }
        }
        let mut classes = [0u16; 256];
        let mut representatives: Vec<u8> = Vec::new();
        if let Some(unused) = (0..=255u8).find(|&b| !used[usize::from(b)]) {
            representatives.push(unused);
        }
        for b in 0..=255u8 {
            if used[usize::from(b)] {
                classes[usize::from(b)] = representatives.len() as u16;
                representatives.push(b);
            }
        }
        let stride = representatives.len();
        let most_states = lhs.iter().map(|l| l.len()).sum::<usize>() + 1;
        if most_states.saturating_mul(stride) > BLOCK_MAX_ENTRIES {
            return None;
        }
        let reversed: Vec<Vec<u8>> = lhs.iter().map(|l| l.bytes().rev().collect()).collect();
        let nfa = NFA::builder().match_kind(MatchKind::Standard).build(&reversed).ok()?;
        let first = nfa.start_state(aho_corasick::Anchored::No).ok()?;
        let mut index: HashMap<StateID, usize> = HashMap::from([(first, 0)]);
        let mut states = vec![first];
        let mut i = 0;
        while i < states.len() {
            let sid = states[i];
            i += 1;
            for &b in &representatives {
                let to = nfa.next_state(aho_corasick::Anchored::No, sid, b);
                index.entry(to).or_insert_with(|| {
                    states.push(to);
                    states.len() - 1
                });
            }
        }
        if states.len().saturating_mul(stride) > BLOCK_MAX_ENTRIES {
            return None;
        }
        // The longest left side matched in each state (its match set holds
        // every reversed left side that ends there, failure matches included).
        // Where that side is tied, a pass copies one byte and moves on, just
        // as where no side starts at all: so the table gives no code there,
        // and the forward rewrite never meets a tied side.
        let longest = |sid: StateID| -> u32 {
            (0..nfa.match_len(sid))
                .map(|k| nfa.match_pattern(sid, k))
                .max_by_key(|&pid| nfa.pattern_len(pid))
                .filter(|pid| patterns[pid.as_usize()].rule != BLOCKED)
                .map_or(NONE, |pid| ((lhs[pid.as_usize()].len() as u32) << PATTERN_BITS) | pid.as_u32())
        };
        let mut trans = vec![0u64; states.len() * stride];
        for (from, &sid) in states.iter().enumerate() {
            for (class, &b) in representatives.iter().enumerate() {
                let to = nfa.next_state(aho_corasick::Anchored::No, sid, b);
                let packed_to = (index[&to] * stride) as u64;
                trans[from * stride + class] = (u64::from(longest(to)) << 32) | packed_to;
            }
        }
        // A power-of-two table lets every look-up be masked instead of
        // bounds-checked; the padding is never reached.
        let mask = trans.len().next_power_of_two() - 1;
        trans.resize(mask + 1, 0);
        // Narrow entries need room for every state, advance and pattern,
        // and for every offset in a block (sentinels included).
        let narrow = mask < 1 << NARROW_STATE_BITS
            && max_lhs < 1 << NARROW_ADVANCE_BITS
            && lhs.len() <= 1 << NARROW_PATTERN_BITS
            && STREAM_LEN * STREAMS < 1 << NARROW_STATE_BITS;
        let trans = if narrow {
            Trans::Narrow(
                trans.iter().map(|&e| u32::from_parts(e as u32 as usize, (e >> 32) as u32)).collect(),
            )
        } else {
            Trans::Wide(trans)
        };
        Some(ReverseTable { classes, trans, mask, start: 0, max_lhs, stream_len: STREAM_LEN })
    }

    #[inline(always)]
    /// The entry after `entry`'s state reads `byte`. The whole entry serves
    /// as the state: the mask (below 2^32) drops its code, and the state
    /// plus a class stays below 2^32, so no instruction has to cut it.
    fn step<E: Entry>(&self, trans: &[E], entry: E, byte: u8) -> E {
        trans[(entry.index() + usize::from(self.classes[usize::from(byte)])) & self.mask]
    }

    /// The state after reading `input[from..to]` backwards from the start.
    fn warm_up<E: Entry>(&self, trans: &[E], input: &[u8], from: usize, to: usize) -> E {
        input[from..to]
            .iter()
            .rev()
            .fold(E::from_parts(self.start as usize, NONE), |state, &b| self.step(trans, state, b))
    }

    /// Fill `next[i]` with the packed `next` entry of position `start + i`:
    /// the offset of the nearest position at or after it where a left side
    /// starts (in the low 32 bits) and that position's scan code (high
    /// bits); or, where none starts before the end of its interleaved scan,
    /// that end with a code of 0 (advance 0).
    fn scan<E: Entry>(&self, trans: &[E], input: &[u8], start: usize, end: usize, next: &mut [E]) {
        let trans = &trans[..=self.mask];
        if end - start == self.stream_len * STREAMS {
            // The usual stream length is a constant, so that the four scans
            // address memory from one base and fit in registers.
            match self.stream_len {
                STREAM_LEN => return self.scan_streams::<E, STREAM_LEN>(trans, input, start, next),
                #[cfg(test)]
                3 => return self.scan_streams::<E, 3>(trans, input, start, next),
                _ => {}
            }
        }
        let len = end - start;
        let mut state = self.warm_up(trans, input, end, self.lookahead(input, end));
        let mut nearest = E::from_parts(len, NONE);
        for i in (0..len).rev() {
            state = self.step(trans, state, input[start + i]);
            nearest = state.next_entry(i, nearest);
            next[i] = nearest;
        }
    }

    fn lookahead(&self, input: &[u8], to: usize) -> usize {
        (to + self.max_lhs - 1).min(input.len())
    }

    /// [`ReverseTable::scan`] of a full block as four interleaved scans of
    /// `S` positions each.
    fn scan_streams<E: Entry, const S: usize>(
        &self,
        trans: &[E],
        input: &[u8],
        start: usize,
        next: &mut [E],
    ) {
        let warm = |k: usize| {
            let to = start + (k + 1) * S;
            self.warm_up(trans, input, to, self.lookahead(input, to))
        };
        let (mut s0, mut s1, mut s2, mut s3) = (warm(0), warm(1), warm(2), warm(3));
        let sentinel = |k: usize| E::from_parts((k + 1) * S, NONE);
        let (mut m0, mut m1, mut m2, mut m3) = (sentinel(0), sentinel(1), sentinel(2), sentinel(3));
        let input = &input[start..start + STREAMS * S];
        let next = &mut next[..STREAMS * S];
        for i in (0..S).rev() {
            s0 = self.step(trans, s0, input[i]);
            s1 = self.step(trans, s1, input[i + S]);
            s2 = self.step(trans, s2, input[i + 2 * S]);
            s3 = self.step(trans, s3, input[i + 3 * S]);
            m0 = s0.next_entry(i, m0);
            m1 = s1.next_entry(i + S, m1);
            m2 = s2.next_entry(i + 2 * S, m2);
            m3 = s3.next_entry(i + 3 * S, m3);
            next[i] = m0;
            next[i + S] = m1;
            next[i + 2 * S] = m2;
            next[i + 3 * S] = m3;
        }
    }
}

/// The `next` entry at offset `at`, given the table entry that led there and
/// the `next` entry after it. Both keep the scan code in the high half, so
/// the code is masked out once and the offset added to it (one `lea` with
/// the interleaved scan's offset as a constant), and the mask's zero flag
/// says whether there is a code at all: no per-scan offset and no constant
/// has to live in a register, which the four interleaved scans lack.
#[inline(always)]
fn next_entry(entry: u64, at: usize, after: u64) -> u64 {
    let code = entry & !u64::from(u32::MAX);
    // `+` rather than `|` (the same here) so that it can be an `lea`.
    if code != 0 { code + at as u64 } else { after }
}

/// Bytes kept initialised past the logical end of the output, so that a
/// short write can always be one fixed-size copy.
const SLACK: usize = CHUNK;

/// The output of a pass: a buffer that never holds more than `limit` bytes
/// of output and never allocates much past it. Its `Vec` length is the
/// initialised area; the logical length is `len`.
struct Writer<'a> {
    buf: &'a mut Vec<u8>,
    len: usize,
    limit: usize,
}

impl<'a> Writer<'a> {
    fn new(buf: &'a mut Vec<u8>, limit: usize) -> Self {
        Writer { buf, len: 0, limit }
    }

    /// Make sure `extra` more bytes plus the slack are initialised.
    #[inline(always)]
    fn room(&mut self, extra: usize) {
        let need = self.len + extra + SLACK;
        if need > self.buf.len() {
            Self::grow(self.buf, need, self.limit);
        }
    }

    /// Not a method, so that the writer's fields can stay in registers
    /// around this rarely taken call.
    #[cold]
    #[inline(never)]
    fn grow(buf: &mut Vec<u8>, need: usize, limit: usize) {
        let most = limit.saturating_add(SLACK);
        // The allocation doubles, but only a little more than is needed is
        // initialised: a reused buffer keeps its allocation across passes
        // while its length is cut back to each pass's output, and zeroing
        // up to twice that again on every pass costs as much as a copy.
        let target = need.saturating_add(1 << 16).min(most).max(need);
        if buf.capacity() < target {
            // Reserved exactly, so that `resize` does not grow the
            // allocation past the limit on its own.
            let capacity = buf.capacity().saturating_mul(2).min(most).max(target);
            buf.reserve_exact(capacity - buf.len());
        }
        buf.resize(target, 0);
    }

    /// Make room for `most` more bytes plus the slack if they stay within
    /// the limit; false (changing nothing) when they might not.
    #[inline(always)]
    fn reserve_block(&mut self, most: usize) -> bool {
        if self.len + most > self.limit {
            return false;
        }
        self.room(most);
        true
    }

    /// Append `bytes`; false (after writing what fits) when the limit is hit.
    #[inline(always)]
    fn write(&mut self, bytes: &[u8]) -> bool {
        let room = self.limit - self.len;
        let (take, fits) = if bytes.len() <= room { (bytes, true) } else { (&bytes[..room], false) };
        self.room(take.len());
        self.buf[self.len..self.len + take.len()].copy_from_slice(take);
        self.len += take.len();
        fits
    }

    /// Append the first `n` bytes of `chunk` (`n <= CHUNK`) with one fixed copy.
    #[inline(always)]
    fn write_chunk(&mut self, chunk: &[u8; CHUNK], n: usize) -> bool {
        if n > self.limit - self.len {
            return self.write(&chunk[..n]);
        }
        self.room(n);
        self.buf[self.len..self.len + CHUNK].copy_from_slice(chunk);
        self.len += n;
        true
    }

    fn finish(self) {
        self.buf.truncate(self.len);
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
        assert!(pass.output.capacity() <= 6 + SLACK);
        // Exactly at the limit is not a cut.
        let pass = set(&rules).pass(b"aa", 8);
        assert_eq!((pass.output.len(), pass.cut), (8, false));
        // Deletions after the limit is reached still happen and are no cut.
        let pass = set(&[("a", "bb"), ("c", "")]).pass(b"acc", 2);
        assert_eq!((pass.output.as_slice(), pass.cut, pass.applications.len()), (&b"bb"[..], false, 3));
    }

    #[test]
    fn the_allocation_stays_within_the_limit_while_the_output_grows_in_steps() {
        let input = vec![b'a'; 50_000];
        for limit in [70_000, 100_000, 150_000, 199_999] {
            let pass = set(&[("a", "aaaa")]).pass(&input, limit);
            assert_eq!((pass.output.len(), pass.cut), (limit, true));
            assert!(pass.output.capacity() <= limit + SLACK, "{limit}: {}", pass.output.capacity());
        }
        // A reused buffer keeps its allocation and gives the same output.
        let mut out = Vec::new();
        let rules = set(&[("a", "aaaa")]);
        for _ in 0..2 {
            rules.run(&input, usize::MAX, &mut out, |_| {});
            assert_eq!(out.len(), 200_000);
            assert!(out.iter().all(|&b| b == b'a'));
        }
    }

    #[test]
    fn utf8_is_rewritten_by_characters() {
        assert_eq!(run(&[("ä", "ö"), ("öö", "x")], "äöö€ä"), "öx€ö");
        assert_eq!(run(&[("€", "e"), ("€", "E")], "a€b"), "a€b");
    }

    fn rules_strategy() -> impl Strategy<Value = Vec<(String, String)>> {
        prop::collection::vec(("[ab]{1,4}", "[abc]{0,4}|[abc]{15,20}"), 0..8)
    }

    #[test]
    fn long_inputs_through_every_strategy() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for round in 0..6 {
            let input: Vec<u8> = (0..40_000).map(|_| b"atcg"[rng.random_range(0..4)]).collect();
            let rules: Vec<Rule<usize>> = (0..rng.random_range(1..40))
                .map(|i| {
                    let l: String = (0..rng.random_range(1..6))
                        .map(|_| "atcg".as_bytes()[rng.random_range(0..4)] as char)
                        .collect();
                    let r: String = (0..rng.random_range(0..20))
                        .map(|_| "atcg".as_bytes()[rng.random_range(0..4)] as char)
                        .collect();
                    Rule::new(i, l, r)
                })
                .collect();
            let limit = if round % 3 == 0 { 30_000 } else { usize::MAX };
            let expected = reference_pass(&rules, &input, limit);
            assert_eq!(RuleSet::new(rules.clone()).unwrap().pass(&input, limit), expected);
            assert_eq!(RuleSet::for_test(rules.clone(), true, 0, false).pass(&input, limit), expected);
            assert_eq!(RuleSet::for_test(rules.clone(), false, 3, false).pass(&input, limit), expected);
            assert_eq!(RuleSet::for_test(rules, false, 3, true).pass(&input, limit), expected);
        }
    }

    #[test]
    fn strategy_choice() {
        assert!(matches!(set(&[("a", "b")]).strategy, Search::Blocks(_, Some(_))));
        let many: Vec<(String, String)> = (0..100).map(|i| (format!("a{i}"), String::new())).collect();
        let many: Vec<(&str, &str)> = many.iter().map(|(l, r)| (l.as_str(), r.as_str())).collect();
        assert!(matches!(set(&many).strategy, Search::Blocks(_, None)));
        let long = "a".repeat(BLOCK_MAX_LHS + 1);
        assert!(matches!(set(&[(&long, "b")]).strategy, Search::Leftmost(_)));
        assert!(matches!(set(&[]).strategy, Search::Empty));
        let narrow = |set: RuleSet<usize>| match set.strategy {
            Search::Blocks(table, _) => matches!(table.trans, Trans::Narrow(_)),
            _ => panic!("not blocks"),
        };
        assert!(narrow(set(&[("abc", "d")])));
        let longest_narrow = "a".repeat((1 << NARROW_ADVANCE_BITS) - 1);
        assert!(narrow(set(&[(&longest_narrow, "d")])));
        assert!(!narrow(set(&[(&format!("{longest_narrow}a"), "d")])));
        let patterns: Vec<(String, String)> =
            (0..=1 << NARROW_PATTERN_BITS).map(|i| (format!("{i:05}"), String::new())).collect();
        let patterns: Vec<(&str, &str)> = patterns.iter().map(|(l, r)| (l.as_str(), r.as_str())).collect();
        assert!(narrow(set(&patterns[..1 << NARROW_PATTERN_BITS])));
        assert!(!narrow(set(&patterns)));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn fast_engine_agrees_with_the_reference(
            rules in rules_strategy(),
            duplicate in any::<bool>(),
            input in "[abc]{0,40}",
            limit in prop::option::of(0usize..60),
            stream_len in prop::sample::select(vec![1usize, 2, 3, 3, 3, 5]),
            wide in any::<bool>(),
        ) {
            let mut rules: Vec<Rule<usize>> =
                rules.into_iter().enumerate().map(|(i, (l, r))| Rule::new(i, l, r)).collect();
            if duplicate && !rules.is_empty() {
                let copy = Rule { owner: rules.len(), ..rules[0].clone() };
                rules.push(copy);
            }
            let limit = limit.unwrap_or(usize::MAX);
            let expected = reference_pass(&rules, input.as_bytes(), limit);
            let fast = RuleSet::new(rules.clone()).unwrap().pass(input.as_bytes(), limit);
            prop_assert_eq!(&fast, &expected);
            let leftmost = RuleSet::for_test(rules.clone(), true, 0, false).pass(input.as_bytes(), limit);
            prop_assert_eq!(&leftmost, &expected);
            let streams = RuleSet::for_test(rules, false, stream_len, wide).pass(input.as_bytes(), limit);
            prop_assert_eq!(&streams, &expected);
        }
    }
}
