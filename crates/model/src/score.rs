//! Exact scores: a non-negative rational, carried as a reduced fraction.

use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A final score, exact: `numerator / denominator`, reduced. Games with
/// whole scores have denominator 1; Real-Time Life's are fractions.
///
/// It travels as its exact text, `33` or `61/3` (a JSON string, which any
/// language reads back exactly: Python's `Fraction("61/3")`), and shows
/// with two decimals where it is not whole (`20.33`, see [`Score::decimal`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Score {
    numerator: u128,
    denominator: u128,
}

const fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

impl Score {
    /// Zero.
    pub const ZERO: Score = Score { numerator: 0, denominator: 1 };

    /// A whole score.
    pub fn whole(n: u64) -> Score {
        Score { numerator: u128::from(n), denominator: 1 }
    }

    /// `numerator / denominator`, reduced; `None` for a zero denominator.
    pub fn fraction(numerator: u128, denominator: u128) -> Option<Score> {
        if denominator == 0 {
            return None;
        }
        let g = gcd(numerator, denominator);
        Some(Score { numerator: numerator / g, denominator: denominator / g })
    }

    /// The numerator of the reduced fraction.
    pub fn numerator(self) -> u128 {
        self.numerator
    }

    /// The denominator of the reduced fraction (1 for a whole score).
    pub fn denominator(self) -> u128 {
        self.denominator
    }

    /// The nearest float, for arithmetic where exactness does not matter
    /// (search heuristics, charts); compare and show scores as [`Score`].
    pub fn to_f64(self) -> f64 {
        let whole = self.numerator / self.denominator;
        let rest = self.numerator % self.denominator;
        whole as f64 + rest as f64 / self.denominator as f64
    }

    /// The exact text: `33`, or `61/3`.
    pub fn exact(self) -> String {
        self.to_string()
    }

    /// For display: a whole score as itself, any other with two decimals,
    /// rounded half up (`33`, `20.33`, `0.67`).
    pub fn decimal(self) -> String {
        let whole = self.numerator / self.denominator;
        if self.denominator == 1 {
            return whole.to_string();
        }
        // Hundredths of the fraction by long division, one digit at a time
        // (rest < denominator, so rest * 10 overflows only for a
        // denominator above u128::MAX / 10; those are halved first, which
        // moves the third decimal at most).
        let (mut rest, mut d) = (self.numerator % self.denominator, self.denominator);
        while d > u128::MAX / 10 {
            rest /= 2;
            d /= 2;
        }
        let mut thousandths = 0u128;
        for _ in 0..3 {
            rest *= 10;
            thousandths = thousandths * 10 + rest / d;
            rest %= d;
        }
        let cents = (thousandths + 5) / 10;
        let (whole, cents) = if cents >= 100 { (whole + 1, 0) } else { (whole, cents) };
        format!("{whole}.{cents:02}")
    }

    /// Parse the exact text (`33`, `61/3`; a fraction need not be reduced).
    pub fn parse(text: &str) -> Option<Score> {
        let text = text.trim();
        match text.split_once('/') {
            Some((n, d)) => Score::fraction(n.trim().parse().ok()?, d.trim().parse().ok()?),
            None => Some(Score { numerator: text.parse().ok()?, denominator: 1 }),
        }
    }
}

impl From<u32> for Score {
    fn from(n: u32) -> Score {
        Score::whole(u64::from(n))
    }
}

impl From<usize> for Score {
    fn from(n: usize) -> Score {
        Score::whole(n as u64)
    }
}

impl From<u64> for Score {
    fn from(n: u64) -> Score {
        Score::whole(n)
    }
}

/// The exact text: `33`, or `61/3`.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.denominator == 1 {
            write!(f, "{}", self.numerator)
        } else {
            write!(f, "{}/{}", self.numerator, self.denominator)
        }
    }
}

impl Serialize for Score {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Reads the exact text, and also a plain JSON number, as results written
/// before scores were exact hold (a whole number exactly; any other to
/// the nearest millionth).
impl<'de> Deserialize<'de> for Score {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Score, D::Error> {
        struct ScoreVisitor;
        impl Visitor<'_> for ScoreVisitor {
            type Value = Score;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a score: a whole number or a fraction such as \"61/3\"")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Score, E> {
                Score::parse(v).ok_or_else(|| E::custom(format!("{v:?} is not a score")))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Score, E> {
                Ok(Score::whole(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Score, E> {
                u64::try_from(v).map(Score::whole).map_err(|_| E::custom("a score is not negative"))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Score, E> {
                if !(0.0..1e18).contains(&v) {
                    return Err(E::custom(format!("{v} is not a score")));
                }
                Score::fraction((v * 1e6).round() as u128, 1_000_000).ok_or_else(|| E::custom("not a score"))
            }
        }
        deserializer.deserialize_any(ScoreVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::Score;

    #[test]
    fn exact_text_and_two_decimals() {
        let s = Score::fraction(61, 3).unwrap();
        assert_eq!((s.exact(), s.decimal()), ("61/3".to_string(), "20.33".to_string()));
        assert_eq!(Score::fraction(122, 6), Some(s), "reduced");
        assert_eq!(Score::whole(33).exact(), "33");
        assert_eq!(Score::whole(33).decimal(), "33");
        assert_eq!(Score::fraction(2, 3).unwrap().decimal(), "0.67");
        assert_eq!(Score::fraction(1999, 200).unwrap().decimal(), "10.00", "9.995 rounds up");
        assert_eq!(Score::fraction(1, 0), None);
        let huge = Score::fraction(u128::MAX - 1, u128::MAX).unwrap();
        assert_eq!(huge.decimal(), "1.00");
    }

    #[test]
    fn it_travels_as_its_exact_text() {
        let s = Score::fraction(61, 3).unwrap();
        assert_eq!(serde_json::to_string(&s).unwrap(), "\"61/3\"");
        assert_eq!(serde_json::from_str::<Score>("\"61/3\"").unwrap(), s);
        assert_eq!(serde_json::from_str::<Score>("\"122/6\"").unwrap(), s);
        assert_eq!(serde_json::from_str::<Score>("33").unwrap(), Score::whole(33));
        assert_eq!(serde_json::from_str::<Score>("6.0").unwrap(), Score::whole(6));
        assert_eq!(serde_json::from_str::<Score>("0.5").unwrap(), Score::fraction(1, 2).unwrap());
        for bad in ["\"x\"", "\"1/0\"", "-1", "\"-1\"", "null"] {
            assert!(serde_json::from_str::<Score>(bad).is_err(), "{bad}");
        }
    }
}
