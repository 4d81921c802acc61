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
}

/// Per-cell parities of one form plane over a strip: `p` without the centre,
/// `s` with it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Parity {
    p: Vec<u64>,
    s: Vec<u64>,
}

impl Parity {
    pub(crate) fn new(n: usize) -> Parity {
        Parity { p: vec![0; n], s: vec![0; n] }
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

/// The horizontal parities of a strip (see [`hsums`]).
pub(crate) fn hparity(left: &[u64], centre: &[u64], right: &[u64], out: &mut Parity) {
    let n = centre.len();
    let (left, right) = (&left[..n], &right[..n]);
    let (p, s) = (&mut out.p[..n], &mut out.s[..n]);
    for k in 0..n {
        let c = centre[k];
        let l = (c << 1) | (left[k] >> 63);
        let r = (c >> 1) | (right[k] << 63);
        p[k] = l ^ r;
        s[k] = l ^ r ^ c;
    }
}

/// The words of a form plane: the XOR over the form's pairs of products of
/// code bits. Dead cells have all code bits clear, so they read as zero.
/// `bits[j][at..]` is code bit `j` of the strip.
pub(crate) fn form_words(bits: &[&[u64]], at: usize, form: &[(u8, u8)], out: &mut [u64]) {
    out.fill(0);
    for &(j, k) in form {
        let n = out.len();
        let (a, b) = (&bits[usize::from(j)][at..at + n], &bits[usize::from(k)][at..at + n]);
        for i in 0..n {
            out[i] ^= a[i] & b[i];
        }
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

/// Scratch for the vertical step.
#[derive(Clone, Debug, Default)]
pub(crate) struct Work {
    birth: Vec<u64>,
    survive: Vec<u64>,
    differ: Vec<u64>,
    flag: Vec<u64>,
    parity: Vec<Vec<u64>>,
}

impl Work {
    pub(crate) fn new(n: usize, bits: usize) -> Work {
        Work {
            birth: vec![0; n],
            survive: vec![0; n],
            differ: vec![0; n],
            flag: vec![0; n],
            parity: vec![vec![0; n]; bits],
        }
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

type Strips<'a> = (&'a [u64], &'a [u64], &'a [u64], &'a [u64], &'a [u64], &'a [u64]);

impl<'a> Around<'a> {
    /// Ones and twos of plane `p` above (with centre), at (without) and below (with).
    fn plane(&self, p: usize, n: usize) -> Strips<'a> {
        let [ot, om, ob] = self.offsets;
        let (t, m, b) = (&self.sums[0][p], &self.sums[1][p], &self.sums[2][p]);
        (
            &t.s0[ot..ot + n],
            &t.s1[ot..ot + n],
            &m.p0[om..om + n],
            &m.p1[om..om + n],
            &b.s0[ob..ob + n],
            &b.s1[ob..ob + n],
        )
    }
}

/// One generation of a strip of `n` words. `centre[i][centre_at..]` is plane
/// `i` of the strip itself, `out[i][out_at..]` receives it a generation
/// later; `last_mask` clears cells past the field's width in the last word.
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
    work: &mut Work,
) {
    let birth = &mut work.birth[..n];
    let survive = &mut work.survive[..n];
    {
        let (t0, t1, m0, m1, b0, b1) = around.plane(0, n);
        let alive = &centre[0][centre_at..centre_at + n];
        let next = &mut out[0][out_at..out_at + n];
        for k in 0..n {
            let u0 = t0[k] ^ m0[k] ^ b0[k];
            let c0 = (t0[k] & m0[k]) | (b0[k] & (t0[k] | m0[k]));
            let a = t1[k] ^ m1[k];
            let a2 = t1[k] & m1[k];
            let bb = b1[k] ^ c0;
            let b2 = b1[k] & c0;
            // Exactly one of the four "twos": the count is 2 or 3.
            let two_or_three = (a ^ bb) & !(a2 | b2);
            let live = alive[k];
            let nx = two_or_three & (u0 | live);
            next[k] = nx;
            birth[k] = nx & !live;
            survive[k] = nx & live;
        }
        if n > 0 {
            next[n - 1] &= last_mask;
            birth[n - 1] &= last_mask;
        }
    }
    for j in 0..codes.bits {
        let (t0, t1, m0, m1, b0, b1) = around.plane(j + 1, n);
        let own = &centre[j + 1][centre_at..centre_at + n];
        let next = &mut out[j + 1][out_at..out_at + n];
        let parity = &mut work.parity[j][..n];
        let (birth, survive) = (&birth[..n], &survive[..n]);
        for k in 0..n {
            let c0 = (t0[k] & m0[k]) | (b0[k] & (t0[k] | m0[k]));
            let twos = t1[k] ^ m1[k] ^ b1[k] ^ c0;
            parity[k] = t0[k] ^ m0[k] ^ b0[k];
            next[k] = (own[k] & survive[k]) | (birth[k] & twos);
        }
    }
    let forms = codes.forms();
    if forms.is_empty() {
        return;
    }
    let differ = &mut work.differ[..n];
    let flag = &mut work.flag[..n];
    differ.fill(0);
    for (f, form) in forms.iter().enumerate() {
        let [ot, om, ob] = around.offsets;
        let ts = &around.forms[0][f].s[ot..ot + n];
        let mp = &around.forms[1][f].p[om..om + n];
        let bs = &around.forms[2][f].s[ob..ob + n];
        for k in 0..n {
            flag[k] = ts[k] ^ mp[k] ^ bs[k];
        }
        for &(j, l) in form.iter() {
            let (pj, pl) = (&work.parity[usize::from(j)][..n], &work.parity[usize::from(l)][..n]);
            for k in 0..n {
                flag[k] ^= pj[k] & pl[k];
            }
        }
        for k in 0..n {
            differ[k] |= flag[k];
        }
    }
    let birth = &work.birth[..n];
    for k in 0..n {
        differ[k] &= birth[k];
    }
    for j in 0..codes.bits {
        let next = &mut out[j + 1][out_at..out_at + n];
        if (codes.neutral >> j) & 1 == 1 {
            for k in 0..n {
                next[k] |= differ[k];
            }
        } else {
            for k in 0..n {
                next[k] &= !differ[k];
            }
        }
    }
}
