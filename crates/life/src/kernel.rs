//! The bit-sliced generation step shared by the dense grid and the sparse
//! tiles.
//!
//! A strip is a run of `n` 64-cell words (a row of a grid, or the 64 rows of
//! a tile). For every plane (alive, then each owner-code bit) the horizontal
//! step adds each cell's left and right neighbours and itself as 2-bit sums,
//! one strip at a time; the vertical step adds the sums of the strips above
//! and below to the middle strip's sum without its centre. Every loop runs
//! over arrays of equal length, so the compiler vectorises it. The fused
//! blocks (the vertical step, the form rows) read some fifty arrays at once:
//! they take pointers made from slices checked once per strip. With slices
//! (a bounds check per array and block, the slices reloaded from the stack)
//! the nine-owner step ran about a third more instructions.
//!
//! The owner of a birth comes from the code bits: with exactly three parents,
//! the bitwise majority of their codes is the code shared by at least two of
//! them whenever there is one, and the twos bit of each bit plane's
//! neighbour count is that majority. Whether all three codes differ is told
//! by a few quadratic forms of the code bits (see [`crate::palette::FORMS`]):
//! their parity over the parents differs from their value on the parents'
//! XOR exactly when the three codes are pairwise different. Such births get
//! the neutral code.

// Loops over word indices read and write several equal-length arrays in
// step; written as index loops they compile to vector instructions.
#![allow(clippy::needless_range_loop)]

/// Per-cell 2-bit sums of one plane over a strip: `p` without the centre
/// (left + right), `s` with it (left + centre + right).
#[derive(Clone, Debug, Default)]
pub(crate) struct Sums {
    p0: Vec<u64>,
    p1: Vec<u64>,
    s0: Vec<u64>,
    s1: Vec<u64>,
}

impl Sums {
    pub(crate) fn new(n: usize) -> Sums {
        Sums { p0: vec![0; n], p1: vec![0; n], s0: vec![0; n], s1: vec![0; n] }
    }

    /// Sums for [`hsums_centre`]: no room for the sums without the centre,
    /// which keeps the scratch of a row small enough for the L1 cache.
    pub(crate) fn centre_only(n: usize) -> Sums {
        Sums { p0: Vec::new(), p1: Vec::new(), s0: vec![0; n], s1: vec![0; n] }
    }

    /// Sums for plane `p` (0 is alive, the others owner-code bits).
    pub(crate) fn for_plane(p: usize, n: usize) -> Sums {
        if p == 0 { Sums::new(n) } else { Sums::centre_only(n) }
    }
}

/// Per-cell parities of one form plane over a strip, centre included.
#[derive(Clone, Debug, Default)]
pub(crate) struct Parity {
    s: Vec<u64>,
}

impl Parity {
    pub(crate) fn new(n: usize) -> Parity {
        Parity { s: vec![0; n] }
    }
}

/// The horizontal sums of a strip: `centre[k]` is a word, `left[k]` the word
/// whose top bit is the cell left of its bit 0, `right[k]` the word whose
/// bit 0 is the cell right of its top bit.
pub(crate) fn hsums(left: &[u64], centre: &[u64], right: &[u64], out: &mut Sums) {
    let n = centre.len();
    let (left, right) = (&left[..n], &right[..n]);
    let (p0, p1, s0, s1) = (&mut out.p0[..n], &mut out.p1[..n], &mut out.s0[..n], &mut out.s1[..n]);
    for k in 0..n {
        let c = centre[k];
        let l = (c << 1) | (left[k] >> 63);
        let r = (c >> 1) | (right[k] << 63);
        let a = l ^ r;
        let b = l & r;
        p0[k] = a;
        p1[k] = b;
        s0[k] = a ^ c;
        s1[k] = b | (a & c);
    }
}

/// The horizontal sums of a strip with the centre only (`s`), for the
/// owner-code planes: a birth's centre is dead and has no code bits, so the
/// vertical step can use the middle strip's sums with the centre, and the
/// sums without it are never read.
pub(crate) fn hsums_centre(left: &[u64], centre: &[u64], right: &[u64], out: &mut Sums) {
    let n = centre.len();
    let (left, right) = (&left[..n], &right[..n]);
    let (s0, s1) = (&mut out.s0[..n], &mut out.s1[..n]);
    for k in 0..n {
        let c = centre[k];
        let l = (c << 1) | (left[k] >> 63);
        let r = (c >> 1) | (right[k] << 63);
        let a = l ^ r;
        s0[k] = a ^ c;
        s1[k] = (l & r) | (a & c);
    }
}

/// The horizontal parities of a strip with the centre (see [`hsums`] and
/// [`hsums_centre`]): forms of a dead cell are zero, so births need no
/// parities without the centre.
pub(crate) fn hparity(left: &[u64], centre: &[u64], right: &[u64], out: &mut Parity) {
    let n = centre.len();
    let (left, right) = (&left[..n], &right[..n]);
    let s = &mut out.s[..n];
    for k in 0..n {
        let c = centre[k];
        let l = (c << 1) | (left[k] >> 63);
        let r = (c >> 1) | (right[k] << 63);
        s[k] = l ^ r ^ c;
    }
}

/// The words of every form plane over a strip of `len` words: the XOR over
/// the form's pairs of products of code bits (`bits[j][at..]` is bit `j`).
/// Dead cells have all code bits clear, so they read as zero.
pub(crate) fn form_rows(bits: &[&[u64]], at: usize, len: usize, codes: Codes, out: &mut [Vec<u64>]) {
    match codes.bits {
        2 => form_rows_for::<2>(bits, at, len, out),
        3 => form_rows_for::<3>(bits, at, len, out),
        4 => form_rows_for::<4>(bits, at, len, out),
        5 => form_rows_for::<5>(bits, at, len, out),
        _ => {}
    }
}

fn form_rows_for<const B: usize>(bits: &[&[u64]], at: usize, len: usize, out: &mut [Vec<u64>]) {
    // Pointers to `len` words each (the slicing panics otherwise), so that
    // the blocks need no bounds check per word.
    let src: [*const u64; 5] =
        std::array::from_fn(|j| if j < B { bits[j][at..at + len].as_ptr() } else { std::ptr::null() });
    let forms = crate::palette::form_masks(B).len();
    let dst: [*mut u64; 7] =
        std::array::from_fn(|f| if f < forms { out[f][..len].as_mut_ptr() } else { std::ptr::null_mut() });
    let mut k = 0;
    while k + LANES <= len {
        // SAFETY: `src` has `B` and `dst` the forms' pointers to `len`
        // words, distinct slices, and `k + LANES <= len`.
        unsafe { form_block::<B, LANES>(&src, k, &dst) };
        k += LANES;
    }
    while k < len {
        // SAFETY: as above, with `k + 1 <= len`.
        unsafe { form_block::<B, 1>(&src, k, &dst) };
        k += 1;
    }
}

/// Words processed together: fixed-size arrays of this many words compile
/// to vector instructions.
const LANES: usize = 4;

/// Products of every pair of the first `B` lane groups, in lexicographic order.
#[inline(always)]
fn pair_products_lanes<const B: usize, const L: usize>(v: &[[u64; L]; B]) -> [[u64; L]; 10] {
    let mut prod = [[0u64; L]; 10];
    let mut i = 0;
    for j in 0..B {
        for l in j + 1..B {
            for x in 0..L {
                prod[i][x] = v[j][x] & v[l][x];
            }
            i += 1;
        }
    }
    prod
}

/// The value of form `mask` from the pair products, lane by lane.
#[inline(always)]
fn form_value_lanes<const L: usize>(mask: u16, prod: &[[u64; L]; 10]) -> [u64; L] {
    let mut q = [0u64; L];
    for (i, p) in prod.iter().enumerate() {
        if (mask >> i) & 1 == 1 {
            for x in 0..L {
                q[x] ^= p[x];
            }
        }
    }
    q
}

/// The forms of `B` code bits over words `k..k + L`.
///
/// # Safety
///
/// The first `B` pointers of `src` and the forms' pointers of `dst` must
/// point to at least `k + L` words, those of `dst` writable and distinct
/// from the others.
#[inline(always)]
unsafe fn form_block<const B: usize, const L: usize>(src: &[*const u64; 5], k: usize, dst: &[*mut u64; 7]) {
    // SAFETY (the loads and stores): the caller's promise.
    let v: [[u64; L]; B] = std::array::from_fn(|j| unsafe { load::<L>(src[j], k) });
    let prod = pair_products_lanes::<B, L>(&v);
    for (f, &mask) in crate::palette::form_masks(B).iter().enumerate() {
        unsafe { store::<L>(dst[f], k, form_value_lanes::<L>(mask, &prod)) };
    }
}

/// What the vertical step needs to know about the owner codes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Codes {
    /// Code bit planes.
    pub(crate) bits: usize,
    /// The neutral code.
    pub(crate) neutral: usize,
}

impl Codes {
    pub(crate) fn forms(self) -> &'static [&'static [(u8, u8)]] {
        crate::palette::FORMS[self.bits]
    }
}

/// The neighbour sums of one strip of targets: the sums of the strips above
/// (`[0]`), at (`[1]`) and below (`[2]`) it, each a slice of planes (index 0
/// alive, `1..=bits` the code bits) read from its offset, and the form
/// parities likewise.
pub(crate) struct Around<'a> {
    pub(crate) sums: [&'a [Sums]; 3],
    pub(crate) forms: [&'a [Parity]; 3],
    pub(crate) offsets: [usize; 3],
}

/// One generation of a strip of `n` words. `centre[i][centre_at..]` is plane
/// `i` of the strip itself, `out[i][out_at..]` receives it a generation
/// later; `last_mask` clears cells past the field's width in the last word.
/// With `skip_empty`, blocks of words with no live neighbour are written as
/// zeros without computing them (worth it on sparse tiles, not dense grids).
#[allow(clippy::too_many_arguments)]
pub(crate) fn vertical(
    around: &Around<'_>,
    centre: &[&[u64]],
    centre_at: usize,
    out: &mut [&mut [u64]],
    out_at: usize,
    n: usize,
    last_mask: u64,
    codes: Codes,
    skip_empty: bool,
) {
    let (c, a, o, m) = (centre_at, around, out_at, codes.neutral);
    match (codes.bits, skip_empty) {
        (0, false) => vertical_for::<0, false>(a, centre, c, out, o, n, m),
        (1, false) => vertical_for::<1, false>(a, centre, c, out, o, n, m),
        (2, false) => vertical_for::<2, false>(a, centre, c, out, o, n, m),
        (3, false) => vertical_for::<3, false>(a, centre, c, out, o, n, m),
        (4, false) => vertical_for::<4, false>(a, centre, c, out, o, n, m),
        (_, false) => vertical_for::<5, false>(a, centre, c, out, o, n, m),
        (0, true) => vertical_for::<0, true>(a, centre, c, out, o, n, m),
        (1, true) => vertical_for::<1, true>(a, centre, c, out, o, n, m),
        (2, true) => vertical_for::<2, true>(a, centre, c, out, o, n, m),
        (3, true) => vertical_for::<3, true>(a, centre, c, out, o, n, m),
        (4, true) => vertical_for::<4, true>(a, centre, c, out, o, n, m),
        (_, true) => vertical_for::<5, true>(a, centre, c, out, o, n, m),
    }
    if n > 0 {
        for plane in out.iter_mut() {
            plane[out_at + n - 1] &= last_mask;
        }
    }
}

/// The inputs and outputs of the vertical step for one strip, as pointers
/// to the first of `n` words each: built only from slices of at least `n`
/// words (see [`vertical_for`]), so that the blocks read and write them
/// without a bounds check per word.
struct Strip {
    /// Per plane: ones and twos above (with centre), at (without), below (with).
    sums: [[*const u64; 6]; 6],
    /// Per plane: the strip itself.
    centre: [*const u64; 6],
    /// Per form: parities above (with centre), at (without), below (with).
    forms: [[*const u64; 3]; 7],
    /// Per plane: where its next generation goes.
    out: [*mut u64; 6],
}

#[allow(clippy::too_many_arguments)]
fn vertical_for<const B: usize, const SKIP: bool>(
    around: &Around<'_>,
    centre: &[&[u64]],
    centre_at: usize,
    out: &mut [&mut [u64]],
    out_at: usize,
    n: usize,
    neutral: usize,
) {
    let [ot, om, ob] = around.offsets;
    let forms = crate::palette::form_masks(B).len();
    // Every pointer below comes from a slice of exactly `n` words (the
    // slicing panics otherwise), and those slices outlive the blocks.
    let words = |s: &[u64], at: usize| s[at..at + n].as_ptr();
    let none = std::ptr::null();
    let strip = Strip {
        sums: std::array::from_fn(|p| {
            if p <= B {
                let (t, m, b) = (&around.sums[0][p], &around.sums[1][p], &around.sums[2][p]);
                // The code planes have only sums with the centre (see
                // `hsums_centre`).
                let (m0, m1) = if p == 0 { (&m.p0, &m.p1) } else { (&m.s0, &m.s1) };
                [
                    words(&t.s0, ot),
                    words(&t.s1, ot),
                    words(m0, om),
                    words(m1, om),
                    words(&b.s0, ob),
                    words(&b.s1, ob),
                ]
            } else {
                [none; 6]
            }
        }),
        centre: std::array::from_fn(|p| if p <= B { words(centre[p], centre_at) } else { none }),
        forms: std::array::from_fn(|f| {
            if f < forms {
                [
                    words(&around.forms[0][f].s, ot),
                    words(&around.forms[1][f].s, om),
                    words(&around.forms[2][f].s, ob),
                ]
            } else {
                [none; 3]
            }
        }),
        out: std::array::from_fn(|p| {
            if p <= B { out[p][out_at..out_at + n].as_mut_ptr() } else { std::ptr::null_mut() }
        }),
    };
    let neutral: [u64; 5] = std::array::from_fn(|j| 0u64.wrapping_sub(((neutral >> j) & 1) as u64));
    let mut k = 0;
    while k + LANES <= n {
        // SAFETY: every pointer of `strip` for planes `0..=B` and the forms
        // of `B` bits is the start of `n` words, and `k + LANES <= n`.
        unsafe { block::<B, LANES, SKIP>(&strip, k, &neutral) };
        k += LANES;
    }
    while k < n {
        // SAFETY: as above, with `k + 1 <= n`.
        unsafe { block::<B, 1, SKIP>(&strip, k, &neutral) };
        k += 1;
    }
}

/// Words `k..k + L` from `p`.
///
/// # Safety
///
/// `p` must point to at least `k + L` readable words.
#[inline(always)]
unsafe fn load<const L: usize>(p: *const u64, k: usize) -> [u64; L] {
    // SAFETY: the caller's promise.
    unsafe { p.add(k).cast::<[u64; L]>().read_unaligned() }
}

/// Words `k..k + L` of a plane's six sums (see [`Strip::sums`]).
///
/// # Safety
///
/// Every pointer of `sums` must point to at least `k + L` readable words.
#[inline(always)]
unsafe fn load_sums<const L: usize>(sums: &[*const u64; 6], k: usize) -> [[u64; L]; 6] {
    // SAFETY: the caller's promise, for each pointer.
    std::array::from_fn(|i| unsafe { load::<L>(sums[i], k) })
}

/// Writes `v` to words `k..k + L` of `p`.
///
/// # Safety
///
/// `p` must point to at least `k + L` writable words that nothing else
/// reads or writes meanwhile.
#[inline(always)]
unsafe fn store<const L: usize>(p: *mut u64, k: usize, v: [u64; L]) {
    // SAFETY: the caller's promise.
    unsafe { p.add(k).cast::<[u64; L]>().write_unaligned(v) }
}

/// One block of `L` words: every plane's next generation, in registers.
///
/// # Safety
///
/// Every pointer of `strip` for planes `0..=B` and for the forms of `B`
/// code bits must point to at least `k + L` words, and the outputs must be
/// writable and distinct from the inputs.
#[inline(always)]
unsafe fn block<const B: usize, const L: usize, const SKIP: bool>(
    strip: &Strip,
    k: usize,
    neutral: &[u64; 5],
) {
    // SAFETY (every load and store below): the caller's promise.
    let [t0, t1, m0, m1, b0, b1] = unsafe { load_sums::<L>(&strip.sums[0], k) };
    let live = unsafe { load::<L>(strip.centre[0], k) };
    // No live neighbours: nothing survives and nothing is born.
    if SKIP && (0..L).all(|x| (t0[x] | t1[x] | m0[x] | m1[x] | b0[x] | b1[x]) == 0) {
        for p in 0..=B {
            unsafe { store::<L>(strip.out[p], k, [0; L]) };
        }
        return;
    }
    let mut next = [0u64; L];
    let mut birth = [0u64; L];
    let mut survive = [0u64; L];
    for x in 0..L {
        let u0 = t0[x] ^ m0[x] ^ b0[x];
        let c0 = (t0[x] & m0[x]) | (b0[x] & (t0[x] | m0[x]));
        let a = t1[x] ^ m1[x];
        let a2 = t1[x] & m1[x];
        let bb = b1[x] ^ c0;
        let b2 = b1[x] & c0;
        // Exactly one of the four "twos": the count is 2 or 3.
        let two_or_three = (a ^ bb) & !(a2 | b2);
        next[x] = two_or_three & (u0 | live[x]);
        birth[x] = next[x] & !live[x];
        survive[x] = next[x] & live[x];
    }
    unsafe { store::<L>(strip.out[0], k, next) };
    if B == 0 {
        return;
    }
    // Per code plane: the parents' parity, and the cell's next code bit
    // (its own for a survivor, the parents' majority for a birth).
    let mut parity = [[0u64; L]; B];
    let mut bits = [[0u64; L]; B];
    for j in 0..B {
        let [t0, t1, m0, m1, b0, b1] = unsafe { load_sums::<L>(&strip.sums[j + 1], k) };
        let own = unsafe { load::<L>(strip.centre[j + 1], k) };
        for x in 0..L {
            let c0 = (t0[x] & m0[x]) | (b0[x] & (t0[x] | m0[x]));
            // With exactly three parents the twos bit of the count is the
            // bitwise majority of their codes.
            let twos = t1[x] ^ m1[x] ^ b1[x] ^ c0;
            parity[j][x] = t0[x] ^ m0[x] ^ b0[x];
            bits[j][x] = (own[x] & survive[x]) | (birth[x] & twos);
        }
    }
    if B >= 2 {
        let prod = pair_products_lanes::<B, L>(&parity);
        let mut flag = [0u64; L];
        for (f, &mask) in crate::palette::form_masks(B).iter().enumerate() {
            let q = form_value_lanes::<L>(mask, &prod);
            let [t, m, b] = strip.forms[f];
            let (t, m, b) = unsafe { (load::<L>(t, k), load::<L>(m, k), load::<L>(b, k)) };
            for x in 0..L {
                flag[x] |= t[x] ^ m[x] ^ b[x] ^ q[x];
            }
        }
        for j in 0..B {
            // `neutral[j]` is all ones where the neutral code has bit j.
            for x in 0..L {
                let differ = flag[x] & birth[x];
                bits[j][x] = (bits[j][x] & !differ) | (differ & neutral[j]);
            }
        }
    }
    for j in 0..B {
        unsafe { store::<L>(strip.out[j + 1], k, bits[j]) };
    }
}
