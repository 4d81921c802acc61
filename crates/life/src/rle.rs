//! Run-length encoded patterns, the format Golly reads and writes, with
//! multi-state cells: `b`/`.` dead, `o` state 1 (two-state rules), `A`..`X`
//! states 1 to 24 and `pA`.. beyond; `$` ends a row, `!` the pattern. The
//! optional `#CXRLE Pos=X,Y` line gives the top-left corner.

use thiserror::Error;

/// Most cells a pattern's header may announce.
pub const MAX_RLE_CELLS: u64 = 1 << 34;

/// Why a pattern was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RleError {
    /// No `x = .., y = ..` header line.
    #[error("no header line 'x = W, y = H, rule = R'")]
    NoHeader,
    /// A header that does not parse.
    #[error("line {line}: bad header: {problem}")]
    BadHeader {
        /// The line.
        line: usize,
        /// What is wrong.
        problem: String,
    },
    /// A character that is not part of the encoding.
    #[error("line {line}: unexpected {found:?} in the pattern")]
    BadChar {
        /// The line.
        line: usize,
        /// The character.
        found: char,
    },
    /// A multi-state letter past the last state a pattern can hold.
    #[error("line {line}: state {state} is past 255, the last state a pattern can hold")]
    BadState {
        /// The line.
        line: usize,
        /// The state the letters name.
        state: u16,
    },
    /// A cell outside the announced size.
    #[error("line {line}: a cell at ({x},{y}) lies outside the pattern's {width}x{height}")]
    OutOfBounds {
        /// The line.
        line: usize,
        /// Column.
        x: u64,
        /// Row.
        y: u64,
        /// Announced width.
        width: u64,
        /// Announced height.
        height: u64,
    },
    /// A size above [`MAX_RLE_CELLS`].
    #[error("the pattern is too large")]
    TooLarge,
}

/// A pattern: its size, rule, position and live cells.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rle {
    /// Width from the header.
    pub width: u64,
    /// Height from the header.
    pub height: u64,
    /// The rule text (`B3/S23`, `Immigration:T64,64`), empty if absent.
    pub rule: String,
    /// Top-left corner from a `#CXRLE Pos=` line.
    pub pos: Option<(i64, i64)>,
    /// Live cells as `(x, y, state)`, relative to the top-left corner, row by row.
    pub cells: Vec<(u64, u64, u8)>,
}

impl Rle {
    /// Parse a pattern.
    ///
    /// # Errors
    ///
    /// A missing or malformed header, characters outside the encoding, cells
    /// outside the announced size, or a size above [`MAX_RLE_CELLS`].
    pub fn parse(text: &str) -> Result<Rle, RleError> {
        let mut rle = Rle::default();
        let mut header = false;
        let (mut x, mut y) = (0u64, 0u64);
        let mut run: Option<u64> = None;
        let mut prefix: Option<u8> = None;
        'lines: for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = line.trim();
            if !header {
                if let Some(rest) = line.strip_prefix("#CXRLE") {
                    for word in rest.split_whitespace() {
                        if let Some(pos) = word.strip_prefix("Pos=") {
                            let (a, b) = pos.split_once(',').unwrap_or(("", ""));
                            if let (Ok(a), Ok(b)) = (a.parse(), b.parse()) {
                                rle.pos = Some((a, b));
                            }
                        }
                    }
                    continue;
                }
                if line.starts_with('#') || line.is_empty() {
                    continue;
                }
                rle.parse_header(line, line_no)?;
                header = true;
                continue;
            }
            for c in line.chars() {
                match c {
                    '0'..='9' => {
                        let d = u64::from(c as u8 - b'0');
                        let n = run.unwrap_or(0).checked_mul(10).and_then(|n| n.checked_add(d));
                        run = Some(n.filter(|&n| n <= MAX_RLE_CELLS).ok_or(RleError::TooLarge)?);
                    }
                    '!' => break 'lines,
                    '$' => {
                        y = y.saturating_add(run.take().unwrap_or(1));
                        x = 0;
                    }
                    'p'..='y' if prefix.is_none() => prefix = Some(c as u8 - b'p' + 1),
                    'b' | '.' | 'o' | 'A'..='X' => {
                        let state = match c {
                            'b' | '.' => 0,
                            'o' => 1,
                            _ => {
                                let prefix = u16::from(prefix.take().unwrap_or(0));
                                let state = u16::from(c as u8 - b'A' + 1) + prefix * 24;
                                u8::try_from(state)
                                    .map_err(|_| RleError::BadState { line: line_no, state })?
                            }
                        };
                        let n = run.take().unwrap_or(1);
                        if state != 0 {
                            if x.saturating_add(n) > rle.width || y >= rle.height {
                                return Err(RleError::OutOfBounds {
                                    line: line_no,
                                    x: x.saturating_add(n.max(1)) - 1,
                                    y,
                                    width: rle.width,
                                    height: rle.height,
                                });
                            }
                            rle.cells.extend((x..x + n).map(|cx| (cx, y, state)));
                        }
                        x = x.saturating_add(n);
                    }
                    c if c.is_whitespace() => {}
                    c => return Err(RleError::BadChar { line: line_no, found: c }),
                }
            }
        }
        if !header {
            return Err(RleError::NoHeader);
        }
        Ok(rle)
    }

    fn parse_header(&mut self, line: &str, line_no: usize) -> Result<(), RleError> {
        let bad = |problem: &str| RleError::BadHeader { line: line_no, problem: problem.to_string() };
        let (mut w, mut h) = (None, None);
        for part in line.split(',') {
            let (key, value) = part.split_once('=').ok_or_else(|| bad("expected key = value"))?;
            let value = value.trim();
            match key.trim() {
                "x" => w = Some(value.parse::<u64>().map_err(|_| bad("x is not a number"))?),
                "y" => h = Some(value.parse::<u64>().map_err(|_| bad("y is not a number"))?),
                "rule" => {
                    // The rule may itself contain a comma (`:T64,32`).
                    let at = line.find("rule").unwrap_or(0);
                    let rest = &line[at..];
                    self.rule = rest.split_once('=').map_or("", |(_, r)| r).trim().to_string();
                    break;
                }
                _ => return Err(bad("unknown key")),
            }
        }
        self.width = w.ok_or_else(|| bad("missing x"))?;
        self.height = h.ok_or_else(|| bad("missing y"))?;
        if self.width.saturating_mul(self.height) > MAX_RLE_CELLS {
            return Err(RleError::TooLarge);
        }
        Ok(())
    }

    /// The pattern as text, in Golly's style (multi-state letters when
    /// `multistate`, else `b`/`o`; lines of at most 70 characters).
    pub fn to_text(&self, multistate: bool) -> String {
        let mut out = String::new();
        if let Some((x, y)) = self.pos {
            out.push_str(&format!("#CXRLE Pos={x},{y}\n"));
        }
        out.push_str(&format!("x = {}, y = {}, rule = {}\n", self.width, self.height, self.rule));
        let mut cells = self.cells.clone();
        cells.sort_by_key(|&(x, y, _)| (y, x));
        let mut tokens: Vec<String> = Vec::new();
        let mut push = |n: u64, sym: String| {
            tokens.push(if n > 1 { format!("{n}{sym}") } else { sym });
        };
        let symbol = |s: u8| -> String {
            match (multistate, s) {
                (false, 0) => "b".into(),
                (false, _) => "o".into(),
                (true, 0) => ".".into(),
                (true, s) if s <= 24 => ((b'A' + s - 1) as char).to_string(),
                (true, s) => {
                    let hi = (s - 25) / 24;
                    // The letter's offset first: `b'A' + s` overflows past state 190.
                    format!("{}{}", (b'p' + hi) as char, (b'A' - 1 + (s - (hi + 1) * 24)) as char)
                }
            }
        };
        let (mut cx, mut cy) = (0u64, 0u64);
        let mut i = 0;
        while i < cells.len() {
            let (x, y, s) = cells[i];
            if y > cy {
                push(y - cy, "$".into());
                cy = y;
                cx = 0;
            }
            if x > cx {
                push(x - cx, symbol(0));
            }
            let mut n = 1;
            while i + n < cells.len() && cells[i + n] == (x + n as u64, y, s) {
                n += 1;
            }
            push(n as u64, symbol(s));
            cx = x + n as u64;
            i += n;
        }
        tokens.push("!".into());
        let mut len = 0;
        for t in tokens {
            if len + t.len() > 70 {
                out.push('\n');
                len = 0;
            }
            len += t.len();
            out.push_str(&t);
        }
        out.push('\n');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golly_output_parses() {
        let r = Rle::parse("x = 3, y = 3, rule = ImmTest:T7,5\n.2A$2AB$.2B!\n").unwrap();
        assert_eq!(r.rule, "ImmTest:T7,5");
        assert_eq!((r.width, r.height), (3, 3));
        assert_eq!(
            r.cells,
            vec![(1, 0, 1), (2, 0, 1), (0, 1, 1), (1, 1, 1), (2, 1, 2), (1, 2, 2), (2, 2, 2)]
        );
        let g = Rle::parse("#C glider\nx = 3, y = 3, rule = B3/S23\nbob$2bo$3o!").unwrap();
        assert_eq!(g.cells.len(), 5);
        let p = Rle::parse("#CXRLE Pos=-4,7\nx = 2, y = 1\npA2.!").unwrap();
        assert_eq!(p.pos, Some((-4, 7)));
        assert_eq!(p.cells, vec![(0, 0, 25)]);
    }

    #[test]
    fn errors() {
        assert_eq!(
            Rle::parse("bo!"),
            Err(RleError::BadHeader { line: 1, problem: "expected key = value".into() })
        );
        assert_eq!(Rle::parse("#C only\n"), Err(RleError::NoHeader));
        assert!(matches!(Rle::parse("x = 1, y = 1\n2o!"), Err(RleError::OutOfBounds { .. })));
        assert!(matches!(Rle::parse("x = 1, y = 1\nz!"), Err(RleError::BadChar { .. })));
    }

    proptest::proptest! {
        #[test]
        fn round_trip(cells in proptest::collection::btree_map((0u64..40, 0u64..30), 1u8..60, 0..80)) {
            let r = Rle {
                width: 40,
                height: 30,
                rule: "R".into(),
                pos: Some((1, -2)),
                cells: cells.iter().map(|(&(x, y), &s)| (x, y, s)).collect(),
            };
            let mut back = Rle::parse(&r.to_text(true)).unwrap();
            let mut want = r.cells.clone();
            want.sort_by_key(|&(x, y, _)| (y, x));
            back.cells.sort_by_key(|&(x, y, _)| (y, x));
            proptest::prop_assert_eq!(back.cells, want);
            proptest::prop_assert_eq!(back.pos, r.pos);
        }

        #[test]
        fn parsing_never_panics(s in "[xy=, 0-9a-zA-Z$!.#\\n]{0,60}") {
            let _ = Rle::parse(&s);
        }
    }
}
