//! Board coordinates shared by the grid games: `a1` style, with
//! spreadsheet-style columns past `z` (`aa`, `ab`, ..), row 1 at the bottom,
//! and `(x,y)` pairs for the unbounded plane.
//!
//! A [`Point`] is zero-based: `a1` is `(0, 0)`, `b3` is `(1, 2)`. The pair
//! form `(x,y)` gives the point directly, so `(0,0)` is `a1` and negative
//! numbers reach beyond it.

use std::fmt;

use tabula_i18n::{Message, msg};

/// A point of a grid: column `x` (0 = `a`), row `y` (0 = row 1, the bottom).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub struct Point {
    /// Column, 0 = `a`.
    pub x: i64,
    /// Row, 0 = row 1 (the bottom row of a bounded board).
    pub y: i64,
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.x >= 0 && self.y >= 0 {
            write!(f, "{}{}", column_name(self.x as u64), self.y + 1)
        } else {
            write!(f, "({},{})", self.x, self.y)
        }
    }
}

/// The letters of column `index` (0 = `a`, 25 = `z`, 26 = `aa`).
pub fn column_name(index: u64) -> String {
    let mut n = index + 1;
    let mut out = Vec::new();
    while n > 0 {
        n -= 1;
        out.push(b'a' + (n % 26) as u8);
        n /= 26;
    }
    out.reverse();
    String::from_utf8(out).expect("ascii letters")
}

/// The index of a column written in letters (case-insensitive).
pub fn parse_column(letters: &str) -> Option<u64> {
    if letters.is_empty() || letters.len() > 6 {
        return None;
    }
    let mut n: u64 = 0;
    for b in letters.bytes() {
        if !b.is_ascii_alphabetic() {
            return None;
        }
        n = n * 26 + u64::from(b.to_ascii_lowercase() - b'a') + 1;
    }
    Some(n - 1)
}

/// Parse one point: `c5`, `AB12` or `(-3,12)`.
pub fn parse_point(text: &str) -> Result<Point, Message> {
    let t = text.trim();
    if let Some(inner) = t.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        let (xs, ys) =
            inner.split_once(',').ok_or_else(|| msg!("point-error-xy", text = format!("{t:?}")))?;
        let parse = |s: &str| -> Result<i64, Message> {
            let s = s.trim();
            let whole = || msg!("point-error-whole", text = format!("{t:?}"));
            if s.is_empty() || s.len() > 10 {
                return Err(whole());
            }
            s.parse::<i64>().map_err(|_| whole())
        };
        return Ok(Point { x: parse(xs)?, y: parse(ys)? });
    }
    let split = t.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(t.len());
    let (letters, digits) = t.split_at(split);
    let bad = || msg!("point-error-letter-number", text = format!("{t:?}"));
    let x = parse_column(letters).ok_or_else(bad)?;
    if digits.is_empty() || digits.len() > 9 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let row: i64 = digits.parse().map_err(|_| bad())?;
    if row < 1 {
        return Err(msg!("point-error-row", text = format!("{t:?}")));
    }
    Ok(Point { x: x as i64, y: row - 1 })
}

/// Parse a comma-separated list of points (`a1,b2,(3,-4)`), at most `max`.
pub fn parse_points(text: &str, max: usize) -> Result<Vec<Point>, Message> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let end = if rest.starts_with('(') {
            rest.find(')')
                .map(|i| i + 1)
                .ok_or_else(|| msg!("point-error-paren", text = format!("{rest:?}")))?
        } else {
            rest.find(',').unwrap_or(rest.len())
        };
        let (item, tail) = rest.split_at(end);
        out.push(parse_point(item)?);
        if out.len() > max {
            return Err(msg!("point-error-too-many", max = max.to_string()));
        }
        rest = tail.trim_start();
        if let Some(t) = rest.strip_prefix(',') {
            rest = t.trim_start();
            if rest.is_empty() {
                return Err(msg!("point-error-trailing-comma"));
            }
        } else if !rest.is_empty() {
            return Err(msg!("point-error-commas", text = format!("{rest:?}")));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_round_trip() {
        assert_eq!(column_name(0), "a");
        assert_eq!(column_name(25), "z");
        assert_eq!(column_name(26), "aa");
        assert_eq!(column_name(27), "ab");
        assert_eq!(column_name(701), "zz");
        assert_eq!(column_name(702), "aaa");
        for i in 0..2000 {
            assert_eq!(parse_column(&column_name(i)), Some(i));
        }
    }

    #[test]
    fn points() {
        assert_eq!(parse_point("a1"), Ok(Point { x: 0, y: 0 }));
        assert_eq!(parse_point("C5"), Ok(Point { x: 2, y: 4 }));
        assert_eq!(parse_point("aa10"), Ok(Point { x: 26, y: 9 }));
        assert_eq!(parse_point("(-3,12)"), Ok(Point { x: -3, y: 12 }));
        assert!(parse_point("a0").is_err());
        assert!(parse_point("5a").is_err());
        assert!(parse_point("").is_err());
        assert_eq!(Point { x: 26, y: 9 }.to_string(), "aa10");
        assert_eq!(Point { x: -1, y: 2 }.to_string(), "(-1,2)");
        assert_eq!(
            parse_points("a1, b2,(3,-4)", 10).unwrap(),
            vec![Point { x: 0, y: 0 }, Point { x: 1, y: 1 }, Point { x: 3, y: -4 }]
        );
        assert!(parse_points("a1,", 10).is_err());
        assert!(parse_points("a1,b1,c1", 2).is_err());
    }

    proptest::proptest! {
        #[test]
        fn point_parsing_never_panics(s in "\\PC{0,20}") {
            let _ = parse_points(&s, 100);
        }

        #[test]
        fn display_parses_back(x in -1000i64..100000, y in -1000i64..100000) {
            let p = Point { x, y };
            proptest::prop_assert_eq!(parse_point(&p.to_string()), Ok(p));
        }
    }
}
