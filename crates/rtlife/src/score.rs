//! The cumulative score: a fixed-point number whose unit is 1 / lcm(1..=73).
//!
//! After each generation a player adds `cells / k`, where `k` is the number
//! of generations they have been in the game. An exact rational would need
//! the denominator lcm(1..=k), which outgrows any machine word after about 90
//! generations and keeps growing; the fixed-point unit below is divisible by
//! every `k` up to [`EXACT_GENERATIONS`], so the score is exact for a
//! player's first 73 generations, and each later term is rounded down by
//! less than 10^-32. Two decimals are shown, so the rounding never shows.

use std::cmp::Ordering;
use std::fmt;

/// A player's score is exact while they have been in the game for at most
/// this many generations (every denominator up to it divides the unit).
pub const EXACT_GENERATIONS: u64 = 73;

/// The number of units in 1: lcm(1, 2, .., 73), just under 2^109.
const UNIT: u128 = lcm_up_to(EXACT_GENERATIONS as u128);

// Hundredths of a fraction (`frac * 100`) and sums of two fractions must fit.
const _: () = assert!(UNIT < 1 << 109);

const fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

const fn lcm_up_to(n: u128) -> u128 {
    let mut l = 1;
    let mut k = 2;
    while k <= n {
        l = l / gcd(l, k) * k;
        k += 1;
    }
    l
}

/// A non-negative score: a whole part and a fraction in units of
/// 1 / lcm(1..=73). See the module docs for when it is exact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Score {
    whole: u64,
    /// Always below `UNIT`.
    frac: u128,
}

impl Score {
    /// Zero.
    pub const ZERO: Score = Score { whole: 0, frac: 0 };

    /// `numerator / denominator`, rounded down to the unit when the
    /// denominator does not divide it; `None` for a zero denominator.
    pub fn ratio(numerator: u64, denominator: u64) -> Option<Score> {
        if denominator == 0 {
            return None;
        }
        let k = u128::from(denominator);
        let rest = u128::from(numerator % denominator);
        // rest * UNIT / k without overflow: UNIT = a * k + b, with b < k.
        let (a, b) = (UNIT / k, UNIT % k);
        let frac = rest * a + rest * b / k;
        Some(Score { whole: numerator / denominator, frac })
    }

    /// The sum, saturating at the largest score.
    pub fn saturating_add(self, other: Score) -> Score {
        let mut frac = self.frac + other.frac;
        let mut whole = self.whole.saturating_add(other.whole);
        if frac >= UNIT {
            frac -= UNIT;
            whole = whole.saturating_add(1);
        }
        if whole == u64::MAX {
            frac = frac.min(UNIT - 1);
        }
        Score { whole, frac }
    }

    /// The whole part.
    pub fn whole(self) -> u64 {
        self.whole
    }

    /// The value as a float (for charts; compare scores as [`Score`],
    /// which is exact).
    pub fn to_f64(self) -> f64 {
        self.whole as f64 + self.frac as f64 / UNIT as f64
    }

    /// The same value as the model's exact score (a reduced fraction), as
    /// outcomes and every front end carry it. A whole part too large to
    /// carry beside a fraction of a 109-bit denominator (over half a
    /// million, which no game reaches in its first 73 generations) is
    /// carried to the nearest millionth below instead.
    pub fn exact(self) -> tabula_model::Score {
        let g = gcd(self.frac, UNIT);
        let (numerator, denominator) = (self.frac / g, UNIT / g);
        u128::from(self.whole)
            .checked_mul(denominator)
            .and_then(|w| w.checked_add(numerator))
            .and_then(|n| tabula_model::Score::fraction(n, denominator))
            .unwrap_or_else(|| {
                let millionths = self.frac / (UNIT / 1_000_000 + 1);
                tabula_model::Score::fraction(u128::from(self.whole) * 1_000_000 + millionths, 1_000_000)
                    .unwrap_or(tabula_model::Score::ZERO)
            })
    }

    /// Hundredths, rounded half up: (whole part, two decimals).
    fn cents(self) -> (u64, u8) {
        let cents = (self.frac * 100 + UNIT / 2) / UNIT;
        if cents >= 100 { (self.whole.saturating_add(1), 0) } else { (self.whole, cents as u8) }
    }
}

impl Ord for Score {
    fn cmp(&self, other: &Score) -> Ordering {
        (self.whole, self.frac).cmp(&(other.whole, other.frac))
    }
}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Score) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Two decimals, rounded half up (`10.00`, `0.33`, `0.67`).
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (whole, cents) = self.cents();
        write!(f, "{whole}.{cents:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_is_lcm_of_one_to_73() {
        for k in 1..=EXACT_GENERATIONS as u128 {
            assert_eq!(UNIT % k, 0, "{k}");
        }
    }

    #[test]
    fn the_seed_example_is_exact_and_equal() {
        let a = Score::ratio(100, 10).unwrap();
        let b = Score::ratio(10, 1).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.to_string(), "10.00");
    }

    #[test]
    fn thirds_add_up_to_one_exactly() {
        let third = Score::ratio(1, 3).unwrap();
        assert_eq!(third.to_string(), "0.33");
        assert_eq!(third.saturating_add(third).to_string(), "0.67");
        let one = third.saturating_add(third).saturating_add(third);
        assert_eq!(one, Score::ratio(1, 1).unwrap());
        assert_eq!(one.to_string(), "1.00");
    }

    #[test]
    fn harmonic_sum_to_73_is_exact() {
        // Adding 1/k for k = 1..=73 in two different orders gives the same
        // value, and cancelling with 73/73 - ... checks no rounding happened.
        let up = (1..=73).fold(Score::ZERO, |s, k| s.saturating_add(Score::ratio(1, k).unwrap()));
        let down = (1..=73).rev().fold(Score::ZERO, |s, k| s.saturating_add(Score::ratio(1, k).unwrap()));
        assert_eq!(up, down);
        assert_eq!(up.to_string(), "4.87");
        let twice = (1..=73).fold(Score::ZERO, |s, k| s.saturating_add(Score::ratio(2, k).unwrap()));
        assert_eq!(twice, up.saturating_add(up));
    }

    #[test]
    fn huge_denominators_round_down_by_less_than_a_unit() {
        let s = Score::ratio(5, 1_000_003).unwrap();
        assert_eq!(s.to_string(), "0.00");
        assert!((s.to_f64() - 5.0 / 1_000_003.0).abs() < 1e-15);
        let big = Score::ratio(u64::MAX, u64::MAX - 1).unwrap();
        assert_eq!(big.whole(), 1);
    }

    #[test]
    fn saturates_instead_of_overflowing() {
        let max = Score::ratio(u64::MAX, 1).unwrap();
        let s = max.saturating_add(max).saturating_add(Score::ratio(1, 2).unwrap());
        assert_eq!(s.whole(), u64::MAX);
        assert!(Score::ratio(1, 0).is_none());
    }

    proptest::proptest! {
        #[test]
        fn display_matches_the_rational(n in 0u64..1_000_000, k in 1u64..=73) {
            let s = Score::ratio(n, k).unwrap();
            // Hundredths of n/k, rounded half up, in integers.
            let cents = (u128::from(n) * 200 + u128::from(k)) / (2 * u128::from(k));
            proptest::prop_assert_eq!(s.to_string(), format!("{}.{:02}", cents / 100, cents % 100));
        }

        #[test]
        fn order_matches_the_rational(a in 0u64..10_000, k in 1u64..=73, b in 0u64..10_000, m in 1u64..=73) {
            let (x, y) = (Score::ratio(a, k).unwrap(), Score::ratio(b, m).unwrap());
            let exact = (u128::from(a) * u128::from(m)).cmp(&(u128::from(b) * u128::from(k)));
            proptest::prop_assert_eq!(x.cmp(&y), exact);
        }
    }
}
