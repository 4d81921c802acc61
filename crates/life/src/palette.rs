//! Owner codes: the fast engines store each live cell's owner as a small
//! binary code spread over bit planes, so a field with few owners pays for
//! few planes. Codes are handed out in order of first use and never change,
//! so a new owner only ever adds a plane of zeros.

use crate::Owner;

/// Quadratic forms (XORs of products of code bits) whose parities over three
/// parents differ from their value on the parents' XOR exactly when the three
/// codes are pairwise different, indexed by the number of code bits. Any set
/// of alternating forms with no common isotropic plane works; these are small
/// ones (all pairs for 2 and 3 bits, 4 forms for 4 bits, 7 for 5).
pub(crate) static FORMS: [&[&[(u8, u8)]]; 6] = [
    &[],
    &[],
    &[&[(0, 1)]],
    &[&[(0, 1)], &[(0, 2)], &[(1, 2)]],
    &[&[(0, 1), (1, 2), (2, 3)], &[(1, 2), (1, 3)], &[(0, 2), (1, 3), (2, 3)], &[(0, 1), (0, 3), (1, 2)]],
    &[
        &[(1, 4), (2, 3), (2, 4)],
        &[(0, 1), (1, 4), (2, 3), (2, 4), (3, 4)],
        &[(0, 1), (0, 2), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4)],
        &[(0, 2), (0, 3), (1, 2), (1, 3), (3, 4)],
        &[(0, 2), (0, 3), (0, 4), (1, 3), (1, 4), (2, 3)],
        &[(0, 1), (1, 3), (1, 4), (2, 4)],
        &[(0, 3), (0, 4), (1, 3), (1, 4), (2, 3)],
    ],
];

/// [`FORMS`] as bit masks over the pairs `(j, k)`, `j < k < bits`, in
/// lexicographic order, so the kernel can compute every product once.
pub(crate) const fn form_masks(bits: usize) -> &'static [u16] {
    match bits {
        2 => &[1],
        3 => &[1, 2, 4],
        4 => &[41, 24, 50, 13],
        5 => &[448, 961, 507, 566, 238, 353, 236],
        _ => &[],
    }
}

/// The owners a field has used, by code.
#[derive(Clone, Debug, Default)]
pub(crate) struct Palette {
    owners: Vec<Owner>,
}

impl Palette {
    /// The code of `owner`, if it has one.
    pub(crate) fn code_of(&self, owner: Owner) -> Option<usize> {
        self.owners.iter().position(|&o| o == owner)
    }

    /// The owner of `code`.
    pub(crate) fn owner(&self, code: usize) -> Owner {
        self.owners.get(code).copied().unwrap_or(Owner::Neutral)
    }

    /// Number of codes in use.
    pub(crate) fn len(&self) -> usize {
        self.owners.len()
    }

    /// The code of `owner`, adding it if new. With three or more owners,
    /// neutral gets a code too, since births can then produce it.
    pub(crate) fn ensure(&mut self, owner: Owner) -> usize {
        let code = match self.code_of(owner) {
            Some(c) => c,
            None => {
                self.owners.push(owner);
                self.owners.len() - 1
            }
        };
        if self.owners.len() >= 3 && self.code_of(Owner::Neutral).is_none() {
            self.owners.push(Owner::Neutral);
        }
        code
    }

    /// Bit planes needed for the codes.
    pub(crate) fn bits(&self) -> usize {
        bits_for(self.owners.len())
    }

    /// The neutral code (only needed, and present, with three or more owners).
    pub(crate) fn neutral(&self) -> usize {
        self.code_of(Owner::Neutral).unwrap_or(0)
    }
}

/// Bits needed for `n` codes.
pub(crate) fn bits_for(n: usize) -> usize {
    if n <= 1 { 0 } else { (usize::BITS - (n - 1).leading_zeros()) as usize }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_grow_with_owners() {
        assert_eq!(bits_for(0), 0);
        assert_eq!(bits_for(1), 0);
        assert_eq!(bits_for(2), 1);
        assert_eq!(bits_for(3), 2);
        assert_eq!(bits_for(4), 2);
        assert_eq!(bits_for(5), 3);
        assert_eq!(bits_for(27), 5);
        let mut p = Palette::default();
        assert_eq!(p.ensure(Owner::Player(3)), 0);
        assert_eq!(p.ensure(Owner::Player(1)), 1);
        assert_eq!(p.len(), 2);
        assert_eq!(p.ensure(Owner::Player(0)), 2);
        assert_eq!(p.len(), 4, "neutral joins the third owner");
        assert_eq!(p.neutral(), 3);
        assert_eq!(p.ensure(Owner::Player(3)), 0);
    }

    #[test]
    fn masks_are_the_forms() {
        for (bits, forms) in FORMS.iter().enumerate() {
            let pairs: Vec<(u8, u8)> =
                (0..bits as u8).flat_map(|j| (j + 1..bits as u8).map(move |k| (j, k))).collect();
            let masks: Vec<u16> = forms
                .iter()
                .map(|f| f.iter().map(|p| 1u16 << pairs.iter().position(|q| q == p).unwrap()).sum())
                .collect();
            assert_eq!(masks, form_masks(bits), "{bits} bits");
        }
    }

    /// The forms detect three pairwise different codes and nothing else, for
    /// every triple of codes of every width.
    #[test]
    fn forms_detect_exactly_all_different_triples() {
        for (bits, forms) in FORMS.iter().enumerate().skip(2) {
            let n = 1u32 << bits;
            let q = |v: u32, form: &[(u8, u8)]| {
                form.iter().fold(0, |acc, &(j, k)| acc ^ ((v >> j) & (v >> k) & 1))
            };
            for a in 0..n {
                for b in 0..n {
                    for c in 0..n {
                        let x = a ^ b ^ c;
                        let flagged = forms.iter().any(|f| q(a, f) ^ q(b, f) ^ q(c, f) != q(x, f));
                        let distinct = a != b && b != c && a != c;
                        assert_eq!(flagged, distinct, "bits {bits}: {a} {b} {c}");
                    }
                }
            }
        }
    }
}
