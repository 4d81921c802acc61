//! Chunk removal: the pass-based rule of the game, and a fast exact
//! simulation of it.
//!
//! # The rule
//!
//! Removing a chunk from a sequence is a series of passes. A pass scans the
//! sequence left to right and removes the leftmost non-overlapping instances
//! of the chunk, closing each gap; passes repeat until one removes nothing.
//! [`remove_by_passes`] is that rule written out literally, and it is kept
//! as the oracle the fast engine is tested against. The rule is not the
//! familiar stack algorithm ("push letters, pop the chunk whenever the top
//! matches"): for `AACACACA` minus `ACA` the rule leaves `AC`, the stack
//! leaves `CA`.
//!
//! # The fast engine
//!
//! [`Remover`] simulates the same passes, but after the first pass it only
//! looks where something can have changed. Two facts make that exact:
//!
//! 1. A pass destroys every instance of the chunk present before it. An
//!    instance the greedy scan skipped starts inside a removed instance, so
//!    it loses that letter.
//! 2. Hence every instance present after a pass spans a *junction*: a place
//!    where two letters became neighbours because the letters between them
//!    were removed. (An instance spanning no junction was already a
//!    substring before the pass, and so was destroyed by it.)
//!
//! So pass `t + 1` finds all instances of the chunk by searching, around each
//! junction made by pass `t`, the window of up to `k - 1` letters on either
//! side (`k` is the chunk length), and then applies the same greedy
//! leftmost non-overlapping choice to those instances in sequence order.
//! Letters live in a doubly linked list indexed by their original position,
//! so removal is O(k) per instance and positions keep their order. Every
//! junction comes from one removed instance and is searched once in O(k)
//! (a chunk of up to 8 letters is compared as one machine word, a longer one
//! with KMP), so the whole removal costs O(n + k · removed) = O(n) after the
//! first linear scan, where the literal rule may take O(n²/k) on nested
//! input. The exhaustive and property tests in this module check equality
//! with the oracle, including which positions are removed.

/// The outcome of removing every instance of a chunk from a sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Removal {
    /// The sequence left over.
    pub sequence: Vec<u8>,
    /// How many instances of the chunk were removed, summed over all passes.
    pub removed: usize,
}

/// One pass of the rule that removed something: what it scanned and where
/// the instances it removed start (indices into `input`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pass {
    /// The sequence at the start of the pass.
    pub input: Vec<u8>,
    /// Start of each removed instance, increasing.
    pub starts: Vec<usize>,
}

/// Remove every instance of `chunk` from `sequence` by the rule, using the
/// fast engine. An empty chunk removes nothing.
pub fn remove(sequence: &[u8], chunk: &[u8]) -> Removal {
    let mut remover = Remover::new();
    let removed = remover.run(sequence, chunk);
    let mut out = Vec::with_capacity(sequence.len());
    remover.write_result(sequence, &mut out);
    Removal { sequence: out, removed }
}

/// How many instances of `chunk` the rule removes from `sequence` (fast engine).
pub fn count_removals(sequence: &[u8], chunk: &[u8]) -> usize {
    Remover::new().run(sequence, chunk)
}

/// The starts of the leftmost non-overlapping instances of `chunk` in
/// `sequence`: what one pass of the rule removes.
pub fn one_pass(sequence: &[u8], chunk: &[u8]) -> Vec<usize> {
    let k = chunk.len();
    let mut starts = Vec::new();
    if k == 0 {
        return starts;
    }
    let mut i = 0;
    while i + k <= sequence.len() {
        if &sequence[i..i + k] == chunk {
            starts.push(i);
            i += k;
        } else {
            i += 1;
        }
    }
    starts
}

/// Remove every instance of `chunk` from `sequence` by applying the rule
/// literally, pass after pass. This is the specification the fast engine is
/// tested against; it takes O(n) per pass and up to n/k passes.
pub fn remove_by_passes(sequence: &[u8], chunk: &[u8]) -> Removal {
    let (sequence, removed, _) = reference_run(sequence, chunk, None);
    Removal { sequence, removed }
}

/// Every pass of the rule that removed something, in order (for `--trace`).
/// The literal rule is used, so keep inputs small.
pub fn passes(sequence: &[u8], chunk: &[u8]) -> Vec<Pass> {
    let mut trace = Vec::new();
    reference_run(sequence, chunk, Some(&mut trace));
    trace
}

/// The literal rule, also reporting which original positions were removed.
fn reference_run(
    sequence: &[u8],
    chunk: &[u8],
    mut trace: Option<&mut Vec<Pass>>,
) -> (Vec<u8>, usize, Vec<bool>) {
    let k = chunk.len();
    let mut removed_mask = vec![false; sequence.len()];
    let mut letters: Vec<(u8, usize)> = sequence.iter().copied().zip(0..).collect();
    let mut removed = 0;
    loop {
        let current: Vec<u8> = letters.iter().map(|&(c, _)| c).collect();
        let starts = one_pass(&current, chunk);
        if starts.is_empty() {
            return (current, removed, removed_mask);
        }
        removed += starts.len();
        let mut kept = Vec::with_capacity(letters.len());
        let mut next_start = starts.iter().copied().peekable();
        let mut i = 0;
        while i < letters.len() {
            if next_start.peek() == Some(&i) {
                next_start.next();
                for &(_, original) in &letters[i..i + k] {
                    removed_mask[original] = true;
                }
                i += k;
            } else {
                kept.push(letters[i]);
                i += 1;
            }
        }
        if let Some(trace) = trace.as_deref_mut() {
            trace.push(Pass { input: current, starts });
        }
        letters = kept;
    }
}

/// Up to 8 letters from `text[at..]`, the first in the lowest byte (zero
/// beyond the end).
#[inline]
fn letters_at(text: &[u8], at: usize) -> u64 {
    match text.get(at..at + 8) {
        Some(eight) => u64::from_le_bytes(eight.try_into().unwrap_or([0; 8])),
        None => text[at..].iter().rev().fold(0u64, |h, &c| (h << 8) | u64::from(c)),
    }
}

/// Finds instances of a chunk. A chunk of up to 8 letters is compared in
/// one step as a `u64`; longer chunks go through KMP.
#[derive(Clone, Debug, Default)]
struct Matcher {
    /// The chunk packed into the low bytes, and the mask of those bytes.
    packed: Option<(u64, u64)>,
    /// KMP failure function: `failure[i]` is the length of the longest
    /// proper prefix of `chunk[..=i]` that is also its suffix.
    failure: Vec<usize>,
}

impl Matcher {
    fn prepare(&mut self, chunk: &[u8]) {
        let k = chunk.len();
        if k <= 8 {
            let packed = letters_at(chunk, 0);
            let mask = if k == 8 { u64::MAX } else { (1u64 << (8 * k)) - 1 };
            self.packed = Some((packed, mask));
            return;
        }
        self.packed = None;
        self.failure.clear();
        self.failure.resize(k, 0);
        let mut q = 0;
        for i in 1..k {
            while q > 0 && chunk[q] != chunk[i] {
                q = self.failure[q - 1];
            }
            if chunk[q] == chunk[i] {
                q += 1;
            }
            self.failure[i] = q;
        }
    }

    /// Call `found` with the start of every instance in `text`, in order:
    /// all of them, or with `greedy` the leftmost non-overlapping ones.
    #[inline]
    fn scan(&self, chunk: &[u8], text: &[u8], greedy: bool, mut found: impl FnMut(usize)) {
        let k = chunk.len();
        if let Some((packed, mask)) = self.packed {
            // Each position is compared on its own (no chain of shifts), so
            // the loop runs at the speed of unaligned loads.
            let mut i = 0;
            while i + k <= text.len() {
                if letters_at(text, i) & mask == packed {
                    found(i);
                    if greedy {
                        i += k;
                        continue;
                    }
                }
                i += 1;
            }
            return;
        }
        let mut q = 0;
        for (i, &c) in text.iter().enumerate() {
            while q > 0 && chunk[q] != c {
                q = self.failure[q - 1];
            }
            if chunk[q] == c {
                q += 1;
            }
            if q == k {
                found(i + 1 - k);
                q = if greedy { 0 } else { self.failure[k - 1] };
            }
        }
    }
}

/// The fast removal engine, with buffers that are reused from one call to
/// the next (search bots call it millions of times).
///
/// ```
/// let mut remover = tabula_dna::engine::Remover::new();
/// assert_eq!(remover.run(b"TAAGAAGCGCCT", b"AGC"), 3);
/// let mut out = Vec::new();
/// remover.write_result(b"TAAGAAGCGCCT", &mut out);
/// assert_eq!(out, b"TAT");
/// ```
#[derive(Clone, Debug, Default)]
pub struct Remover {
    next: Vec<usize>,
    prev: Vec<usize>,
    alive: Vec<bool>,
    matcher: Matcher,
    chosen: Vec<usize>,
    junctions: Vec<usize>,
    window: Vec<u8>,
    window_nodes: Vec<usize>,
    candidates: Vec<(usize, usize)>,
    /// Length of the sequence of the last run.
    len: usize,
    /// Whether the last run removed anything (and so built the list).
    changed: bool,
}

impl Remover {
    /// A remover with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Remove every instance of `chunk` from `sequence` by the rule and
    /// return how many were removed. The result is read with
    /// [`Remover::write_result`] and [`Remover::is_removed`] until the next
    /// run. An empty chunk removes nothing.
    pub fn run(&mut self, sequence: &[u8], chunk: &[u8]) -> usize {
        let n = sequence.len();
        let k = chunk.len();
        self.len = n;
        self.changed = false;
        if k == 0 || k > n {
            return 0;
        }
        self.matcher.prepare(chunk);

        // The first pass scans everything.
        self.chosen.clear();
        let chosen = &mut self.chosen;
        self.matcher.scan(chunk, sequence, true, |start| chosen.push(start));
        if self.chosen.is_empty() {
            return 0;
        }
        self.changed = true;

        // Node `n` is the sentinel before the first and after the last letter.
        let sentinel = n;
        self.next.clear();
        self.next.extend(1..=n);
        self.next.push(0);
        self.prev.clear();
        self.prev.push(sentinel);
        self.prev.extend(0..n);
        self.prev[sentinel] = n - 1;
        self.alive.clear();
        self.alive.resize(n, true);

        let mut removed = 0;
        while !self.chosen.is_empty() {
            removed += self.chosen.len();
            self.junctions.clear();
            for &start in &self.chosen {
                let before = self.prev[start];
                let mut node = start;
                for _ in 0..k {
                    self.alive[node] = false;
                    node = self.next[node];
                }
                self.next[before] = node;
                self.prev[node] = before;
                if node != sentinel {
                    self.junctions.push(node);
                }
            }
            self.find_instances_at_junctions(sequence, chunk);
        }
        removed
    }

    /// Fill `chosen` with the instances the next pass removes: all instances
    /// spanning a junction (the only ones there are, see the module docs),
    /// chosen greedily leftmost and non-overlapping.
    fn find_instances_at_junctions(&mut self, sequence: &[u8], chunk: &[u8]) {
        let k = chunk.len();
        let sentinel = self.len;
        self.candidates.clear();
        for j in 0..self.junctions.len() {
            let right = self.junctions[j];
            // A junction whose right letter was removed later in the same
            // pass merged with the next one.
            if !self.alive[right] || self.prev[right] == sentinel {
                continue;
            }
            self.window_nodes.clear();
            let mut node = self.prev[right];
            while node != sentinel && self.window_nodes.len() < k - 1 {
                self.window_nodes.push(node);
                node = self.prev[node];
            }
            self.window_nodes.reverse();
            let mut node = right;
            let left_len = self.window_nodes.len();
            while node != sentinel && self.window_nodes.len() < left_len + k - 1 {
                self.window_nodes.push(node);
                node = self.next[node];
            }
            self.window.clear();
            self.window.extend(self.window_nodes.iter().map(|&i| sequence[i]));
            // Each side holds fewer than k letters, so every instance found
            // in the window spans the junction. Overlapping instances are
            // all candidates; the greedy choice below picks among them.
            let (nodes, candidates) = (&self.window_nodes, &mut self.candidates);
            self.matcher.scan(chunk, &self.window, false, |start| {
                candidates.push((nodes[start], nodes[start + k - 1]));
            });
        }
        // Original positions keep their order, so sorting by them is
        // sorting by position in the current sequence.
        self.candidates.sort_unstable();
        self.candidates.dedup();
        self.chosen.clear();
        let mut last_end: Option<usize> = None;
        for &(start, end) in &self.candidates {
            if last_end.is_none_or(|e| start > e) {
                self.chosen.push(start);
                last_end = Some(end);
            }
        }
    }

    /// Append the sequence left by the last run to `out`. `sequence` must be
    /// the sequence of that run.
    pub fn write_result(&self, sequence: &[u8], out: &mut Vec<u8>) {
        if !self.changed {
            out.extend_from_slice(sequence);
            return;
        }
        let sentinel = self.len;
        let mut node = self.next[sentinel];
        while node != sentinel {
            out.push(sequence[node]);
            node = self.next[node];
        }
    }

    /// Whether the last run removed the letter at original position `index`.
    pub fn is_removed(&self, index: usize) -> bool {
        self.changed && index < self.len && !self.alive[index]
    }

    /// The original positions the last run removed, increasing.
    pub fn removed_positions(&self) -> Vec<usize> {
        if !self.changed {
            return Vec::new();
        }
        (0..self.len).filter(|&i| !self.alive[i]).collect()
    }
}

/// The stack algorithm ("push each letter; whenever the top spells the
/// chunk, pop it"). It is NOT the rule; it is here so the tests can show
/// where the two differ.
#[cfg(test)]
fn remove_by_stack(sequence: &[u8], chunk: &[u8]) -> Removal {
    let mut stack: Vec<u8> = Vec::new();
    let mut removed = 0;
    for &c in sequence {
        stack.push(c);
        if !chunk.is_empty() && stack.ends_with(chunk) {
            stack.truncate(stack.len() - chunk.len());
            removed += 1;
        }
    }
    Removal { sequence: stack, removed }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn fast_with_mask(sequence: &[u8], chunk: &[u8]) -> (Vec<u8>, usize, Vec<bool>) {
        let mut remover = Remover::new();
        let removed = remover.run(sequence, chunk);
        let mut out = Vec::new();
        remover.write_result(sequence, &mut out);
        let mask = (0..sequence.len()).map(|i| remover.is_removed(i)).collect();
        (out, removed, mask)
    }

    fn assert_same(sequence: &[u8], chunk: &[u8]) {
        let expected = reference_run(sequence, chunk, None);
        let got = fast_with_mask(sequence, chunk);
        assert_eq!(
            got,
            expected,
            "{} minus {}",
            String::from_utf8_lossy(sequence),
            String::from_utf8_lossy(chunk)
        );
    }

    /// Every string over `alphabet` of each length in `lengths`.
    fn all_strings(alphabet: &[u8], lengths: std::ops::RangeInclusive<usize>) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for len in lengths {
            let total = alphabet.len().pow(len as u32);
            for mut code in 0..total {
                let mut s = Vec::with_capacity(len);
                for _ in 0..len {
                    s.push(alphabet[code % alphabet.len()]);
                    code /= alphabet.len();
                }
                out.push(s);
            }
        }
        out
    }

    #[test]
    fn seed_example() {
        let r = remove(b"TAAGAAGCGCCT", b"AGC");
        assert_eq!(r, Removal { sequence: b"TAT".to_vec(), removed: 3 });
        assert_eq!(remove_by_passes(b"TAAGAAGCGCCT", b"AGC"), r);
        let trace = passes(b"TAAGAAGCGCCT", b"AGC");
        let starts: Vec<_> = trace
            .iter()
            .map(|p| (String::from_utf8_lossy(&p.input).into_owned(), p.starts.clone()))
            .collect();
        assert_eq!(
            starts,
            [
                ("TAAGAAGCGCCT".to_string(), vec![5]),
                ("TAAGAGCCT".to_string(), vec![4]),
                ("TAAGCT".to_string(), vec![2])
            ]
        );
    }

    #[test]
    fn the_trap_differs_from_the_stack() {
        assert_eq!(remove_by_passes(b"AACACACA", b"ACA").sequence, b"AC");
        assert_eq!(remove(b"AACACACA", b"ACA"), Removal { sequence: b"AC".to_vec(), removed: 2 });
        assert_eq!(remove_by_stack(b"AACACACA", b"ACA").sequence, b"CA");
    }

    #[test]
    fn edge_cases() {
        assert_eq!(remove(b"", b"A"), Removal { sequence: Vec::new(), removed: 0 });
        assert_eq!(remove(b"ACG", b""), Removal { sequence: b"ACG".to_vec(), removed: 0 });
        assert_eq!(remove(b"AC", b"ACG"), Removal { sequence: b"AC".to_vec(), removed: 0 });
        assert_eq!(remove(b"ACG", b"ACG"), Removal { sequence: Vec::new(), removed: 1 });
        assert_eq!(remove(b"AAAA", b"A"), Removal { sequence: Vec::new(), removed: 4 });
        assert_eq!(remove(b"AAAAA", b"AA"), Removal { sequence: b"A".to_vec(), removed: 2 });
        // Fully nested: every pass removes the single middle instance.
        assert_eq!(remove(b"AAAACCCC", b"AC"), Removal { sequence: Vec::new(), removed: 4 });
    }

    /// The engine is reused across runs; stale state must not leak.
    #[test]
    fn reuse_gives_the_same_answers() {
        let mut remover = Remover::new();
        let cases: [(&[u8], &[u8]); 5] = [
            (b"TAAGAAGCGCCT", b"AGC"),
            (b"AC", b"ACG"),
            (b"AACACACA", b"ACA"),
            (b"GGGG", b"GG"),
            (b"", b"A"),
        ];
        for (s, c) in cases.iter().chain(cases.iter().rev()) {
            let n = remover.run(s, c);
            let mut out = Vec::new();
            remover.write_result(s, &mut out);
            assert_eq!(Removal { sequence: out, removed: n }, remove_by_passes(s, c));
        }
    }

    /// All strings up to length 10 over two letters, all chunks over the
    /// same two letters up to length 4: the engine agrees with the rule on
    /// the result, the count and the exact positions removed.
    #[test]
    fn exhaustive_two_letters_to_length_10() {
        let chunks = all_strings(b"AC", 1..=4);
        let mut stack_differs = 0;
        for s in all_strings(b"AC", 0..=10) {
            for c in &chunks {
                assert_same(&s, c);
                if remove_by_stack(&s, c) != remove_by_passes(&s, c) {
                    stack_differs += 1;
                }
            }
        }
        // The test would not notice a stack-based engine if no input told them apart.
        assert!(stack_differs > 0);
    }

    /// Three letters reach chunks the two-letter alphabet cannot spell
    /// (`ACG`, `AGCA`, ...).
    #[test]
    fn exhaustive_three_letters_to_length_8() {
        let chunks = all_strings(b"ACG", 1..=4);
        for s in all_strings(b"ACG", 0..=8) {
            for c in &chunks {
                assert_same(&s, c);
            }
        }
    }

    /// A sequence built by nesting instances of the chunk inside each other,
    /// the case where passes cascade.
    fn nested(chunk: &[u8], insert_points: &[usize], noise: &[u8]) -> Vec<u8> {
        let mut s = noise.to_vec();
        for &p in insert_points {
            let at = p % (s.len() + 1);
            s.splice(at..at, chunk.iter().copied());
        }
        s
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn long_random_strings(s in "[AC]{0,3000}", c in "[AC]{1,6}") {
            assert_same(s.as_bytes(), c.as_bytes());
        }

        #[test]
        fn long_random_dna(s in "[ACGT]{0,3000}", c in "[ACGT]{1,5}") {
            assert_same(s.as_bytes(), c.as_bytes());
        }

        #[test]
        fn nested_instances(
            c in "[ACG]{2,6}",
            points in proptest::collection::vec(0usize..10_000, 0..400),
            noise in "[ACG]{0,200}",
        ) {
            let s = nested(c.as_bytes(), &points, noise.as_bytes());
            assert_same(&s, c.as_bytes());
        }

        /// Chunks longer than 8 letters take the KMP path of the matcher.
        #[test]
        fn long_chunks(
            c in "[AC]{9,14}",
            points in proptest::collection::vec(0usize..10_000, 0..100),
            noise in "[AC]{0,300}",
        ) {
            let s = nested(c.as_bytes(), &points, noise.as_bytes());
            assert_same(&s, c.as_bytes());
        }

        #[test]
        fn long_periodic_chunks(period in "[AC]{1,4}", reps in 3usize..6, s in "[AC]{0,600}") {
            let c = period.repeat(reps);
            prop_assume!(c.len() > 8);
            let s = nested(c.as_bytes(), &[s.len() / 2, s.len() / 3, s.len() / 5], s.as_bytes());
            assert_same(&s, c.as_bytes());
        }

        #[test]
        fn periodic_chunks(period in "[AC]{1,3}", reps in 2usize..5, s in "[AC]{0,2000}") {
            let c = period.repeat(reps);
            let s = nested(c.as_bytes(), &[s.len() / 2, s.len() / 3], s.as_bytes());
            assert_same(&s, c.as_bytes());
        }
    }
}
