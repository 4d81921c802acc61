//! The bit-sliced generation step shared by the dense grid and the sparse
//! tiles.
//!
//! A strip is a run of `n` 64-cell words (a row of a grid, or the 64 rows of
//! a tile). For every plane (alive, then each owner-code bit) the horizontal
//! step adds each cell's left and right neighbours and itself as 2-bit sums,
//! one strip at a time; the vertical step adds the sums of the strips above
//! and below to the middle strip's sum without its centre. Every loop runs
//! over plain slices of equal length, so the compiler vectorises it.
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
    let src: [&[u64]; 5] = std::array::from_fn(|j| if j < B { &bits[j][at..at + len] } else { &[][..] });
    let mut k = 0;
    while k + LANES <= len {
        form_block::<B, LANES>(&src, k, out);
        k += LANES;
    }
    while k < len {
        form_block::<B, 1>(&src, k, out);
        k += 1;
    }
}

/// Words processed together: fixed-size arrays of this many words compile
/// to vector instructions.
const LANES: usize = 4;

/// Products of every pair of the first `B` lane groups, in lexicographic order.
#[inline(always)]
fn pair_products_lanes<const B: usize, const L: usize>(v: &[[u64; L]; 5]) -> [[u64; L]; 10] {
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

#[inline(always)]
fn form_block<const B: usize, const L: usize>(src: &[&[u64]; 5], k: usize, out: &mut [Vec<u64>]) {
    let mut v = [[0u64; L]; 5];
    for j in 0..B {
        v[j].copy_from_slice(&src[j][k..k + L]);
    }
    let prod = pair_products_lanes::<B, L>(&v);
    for (f, &mask) in crate::palette::form_masks(B).iter().enumerate() {
        out[f][k..k + L].copy_from_slice(&form_value_lanes::<L>(mask, &prod));
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

/// The inputs of the vertical step for one strip, each sliced to its `n` words.
struct Inputs<'a> {
    /// Per plane: ones and twos above (with centre), at (without), below (with).
    sums: [[&'a [u64]; 6]; 6],
    /// Per plane: the strip itself.
    centre: [&'a [u64]; 6],
    /// Per form: parities above (with centre), at (without), below (with).
    forms: [[&'a [u64]; 3]; 7],
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
    let empty: &[u64] = &[];
    let forms = crate::palette::form_masks(B).len();
    let inputs = Inputs {
        sums: std::array::from_fn(|p| {
            if p <= B {
                let (t, m, b) = (&around.sums[0][p], &around.sums[1][p], &around.sums[2][p]);
                // The code planes have only sums with the centre (see
                // `hsums_centre`).
                let (m0, m1) = if p == 0 { (&m.p0, &m.p1) } else { (&m.s0, &m.s1) };
                [
                    &t.s0[ot..ot + n],
                    &t.s1[ot..ot + n],
                    &m0[om..om + n],
                    &m1[om..om + n],
                    &b.s0[ob..ob + n],
                    &b.s1[ob..ob + n],
                ]
            } else {
                [empty; 6]
            }
        }),
        centre: std::array::from_fn(|p| if p <= B { &centre[p][centre_at..centre_at + n] } else { empty }),
        forms: std::array::from_fn(|f| {
            if f < forms {
                [
                    &around.forms[0][f].s[ot..ot + n],
                    &around.forms[1][f].s[om..om + n],
                    &around.forms[2][f].s[ob..ob + n],
                ]
            } else {
                [empty; 3]
            }
        }),
    };
    let mut k = 0;
    while k + LANES <= n {
        block::<B, LANES, SKIP>(&inputs, out, out_at, k, neutral);
        k += LANES;
    }
    while k < n {
        block::<B, 1, SKIP>(&inputs, out, out_at, k, neutral);
        k += 1;
    }
}

#[inline(always)]
fn load<const L: usize>(s: &[u64], k: usize) -> [u64; L] {
    let mut v = [0u64; L];
    v.copy_from_slice(&s[k..k + L]);
    v
}

/// One block of `L` words: every plane's next generation, in registers.
#[inline(always)]
fn block<const B: usize, const L: usize, const SKIP: bool>(
    inputs: &Inputs<'_>,
    out: &mut [&mut [u64]],
    out_at: usize,
    k: usize,
    neutral: usize,
) {
    let s = &inputs.sums[0];
    let (t0, t1, m0, m1, b0, b1) = (
        load::<L>(s[0], k),
        load::<L>(s[1], k),
        load::<L>(s[2], k),
        load::<L>(s[3], k),
        load::<L>(s[4], k),
        load::<L>(s[5], k),
    );
    let live = load::<L>(inputs.centre[0], k);
    // No live neighbours: nothing survives and nothing is born.
    if SKIP && (0..L).all(|x| (t0[x] | t1[x] | m0[x] | m1[x] | b0[x] | b1[x]) == 0) {
        for plane in out.iter_mut().take(B + 1) {
            plane[out_at + k..out_at + k + L].fill(0);
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
    out[0][out_at + k..out_at + k + L].copy_from_slice(&next);
    if B == 0 {
        return;
    }
    let mut bits = [[0u64; L]; 5];
    let mut parity = [[0u64; L]; 5];
    for j in 0..B {
        let s = &inputs.sums[j + 1];
        let (t0, t1, m0, m1, b0, b1) = (
            load::<L>(s[0], k),
            load::<L>(s[1], k),
            load::<L>(s[2], k),
            load::<L>(s[3], k),
            load::<L>(s[4], k),
            load::<L>(s[5], k),
        );
        let own = load::<L>(inputs.centre[j + 1], k);
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
            let [t, m, b] = &inputs.forms[f];
            let (t, m, b) = (load::<L>(t, k), load::<L>(m, k), load::<L>(b, k));
            for x in 0..L {
                flag[x] |= t[x] ^ m[x] ^ b[x] ^ q[x];
            }
        }
        for j in 0..B {
            let set = (neutral >> j) & 1 == 1;
            for x in 0..L {
                let differ = flag[x] & birth[x];
                bits[j][x] = if set { bits[j][x] | differ } else { bits[j][x] & !differ };
            }
        }
    }
    for j in 0..B {
        out[j + 1][out_at + k..out_at + k + L].copy_from_slice(&bits[j]);
    }
}
