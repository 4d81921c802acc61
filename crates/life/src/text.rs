//! Text boards: rows of `.` (empty), `#` (neutral) and `A`..`Z` (players),
//! top row first, every row the same length. The board of the unbounded
//! plane may start with a line `#offset X Y`: the position of its top-left
//! cell.

use thiserror::Error;

use crate::{Life, LifeError, Owner, Rect};

/// Most cells a text board may have.
pub const MAX_BOARD_CELLS: usize = 1 << 24;

/// Longest row or column of a text board.
pub const MAX_BOARD_SIDE: usize = 1 << 16;

/// Why a text board was refused. Lines and columns count from 1.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BoardError {
    /// No rows at all.
    #[error("the board is empty: give rows of '.', '#' and 'A'..'Z'")]
    Empty,
    /// A row of another length than the first.
    #[error(
        "line {line}: a row of {found} cells, but the first row has {expected}: every row must be as long"
    )]
    Ragged {
        /// The line.
        line: usize,
        /// Length of the first row.
        expected: usize,
        /// Length of this row.
        found: usize,
    },
    /// A character that is not a cell.
    #[error("line {line}, column {column}: {found:?} is not a cell: use '.', '#' or 'A'..'Z'")]
    BadCell {
        /// The line.
        line: usize,
        /// The column.
        column: usize,
        /// The character.
        found: char,
    },
    /// A malformed `#offset X Y` line.
    #[error("line {line}: write the offset as '#offset X Y' with whole numbers")]
    BadOffset {
        /// The line.
        line: usize,
    },
    /// Too many rows, columns or cells.
    #[error("the board is too large: at most {MAX_BOARD_SIDE} rows or columns and {MAX_BOARD_CELLS} cells")]
    TooLarge,
}

/// A rectangle of cells read from or written as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Position of the top-left cell (from a `#offset` line; else 0, 0).
    pub offset: (i64, i64),
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Cells row by row, top row first.
    pub cells: Vec<Option<Owner>>,
}

impl Board {
    /// An empty board.
    pub fn empty(width: usize, height: usize) -> Board {
        Board { offset: (0, 0), width, height, cells: vec![None; width * height] }
    }

    /// Parse a text board.
    ///
    /// # Errors
    ///
    /// No rows, rows of different lengths, characters that are not cells, a
    /// bad `#offset` line, or a board above the size limits.
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        let mut offset = (0, 0);
        let mut width = None;
        let mut height = 0;
        let mut cells = Vec::new();
        let mut lines = text.lines().enumerate().peekable();
        if let Some((i, line)) = lines.peek().copied()
            && let Some(rest) = line.strip_prefix("#offset")
        {
            let nums: Vec<&str> = rest.split_whitespace().collect();
            let parse = |s: &str| s.parse::<i64>().ok().filter(|n| n.abs() <= crate::MAX_COORD);
            match nums[..] {
                [x, y] => {
                    offset = (
                        parse(x).ok_or(BoardError::BadOffset { line: i + 1 })?,
                        parse(y).ok_or(BoardError::BadOffset { line: i + 1 })?,
                    )
                }
                _ => return Err(BoardError::BadOffset { line: i + 1 }),
            }
            lines.next();
        }
        let rows: Vec<(usize, &str)> =
            lines.map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l))).collect();
        // Blank lines at the end are the file's ending, not rows.
        let last = rows.iter().rposition(|(_, l)| !l.is_empty()).map_or(0, |p| p + 1);
        for &(line, row) in &rows[..last] {
            let mut n = 0;
            for (column, c) in row.chars().enumerate() {
                let cell = match c {
                    '.' => None,
                    c => Some(Owner::from_symbol(c).ok_or(BoardError::BadCell {
                        line,
                        column: column + 1,
                        found: c,
                    })?),
                };
                n += 1;
                if n > MAX_BOARD_SIDE || cells.len() >= MAX_BOARD_CELLS {
                    return Err(BoardError::TooLarge);
                }
                cells.push(cell);
            }
            match width {
                None => width = Some(n),
                Some(w) if w != n => return Err(BoardError::Ragged { line, expected: w, found: n }),
                Some(_) => {}
            }
            height += 1;
            if height > MAX_BOARD_SIDE {
                return Err(BoardError::TooLarge);
            }
        }
        match width {
            Some(w) if w > 0 => Ok(Board { offset, width: w, height, cells }),
            _ => Err(BoardError::Empty),
        }
    }

    /// The cell at column `x`, row `y` (from the top-left).
    pub fn get(&self, x: usize, y: usize) -> Option<Owner> {
        if x < self.width { self.cells.get(y * self.width + x).copied().flatten() } else { None }
    }

    /// The board as text (with its `#offset` line when `with_offset`).
    pub fn to_text(&self, with_offset: bool) -> String {
        let mut out = String::with_capacity((self.width + 1) * self.height + 32);
        if with_offset {
            out.push_str(&format!("#offset {} {}\n", self.offset.0, self.offset.1));
        }
        for row in self.cells.chunks(self.width.max(1)) {
            out.extend(row.iter().map(|c| c.map_or('.', Owner::symbol)));
            out.push('\n');
        }
        out
    }

    /// Put every live cell of the board into `life`, the top-left cell at
    /// `(x, y)` plus the board's offset.
    ///
    /// # Errors
    ///
    /// A cell that falls outside the field.
    pub fn place(&self, life: &mut dyn Life, x: i64, y: i64) -> Result<(), LifeError> {
        for (i, cell) in self.cells.iter().enumerate() {
            if cell.is_some() {
                let (cx, cy) = ((i % self.width) as i64, (i / self.width) as i64);
                life.set(x + self.offset.0 + cx, y + self.offset.1 + cy, *cell)?;
            }
        }
        Ok(())
    }

    /// The cells of `life` within `rect`, as a board whose offset is the
    /// rectangle's corner.
    ///
    /// # Errors
    ///
    /// A rectangle above the size limits.
    pub fn capture(life: &dyn Life, rect: Rect) -> Result<Board, BoardError> {
        let (w, h) = (rect.width as usize, rect.height as usize);
        if w > MAX_BOARD_SIDE || h > MAX_BOARD_SIDE || w * h > MAX_BOARD_CELLS {
            return Err(BoardError::TooLarge);
        }
        let mut board = Board::empty(w, h);
        board.offset = (rect.x, rect.y);
        for cell in life.live_cells() {
            let (dx, dy) = (cell.x - rect.x, cell.y - rect.y);
            if dx >= 0 && dy >= 0 && (dx as usize) < w && (dy as usize) < h {
                board.cells[dy as usize * w + dx as usize] = Some(cell.owner);
            }
        }
        Ok(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        let b = Board::parse(".A#\nB..\n\n").unwrap();
        assert_eq!((b.width, b.height), (3, 2));
        assert_eq!(b.get(1, 0), Some(Owner::Player(0)));
        assert_eq!(b.get(2, 0), Some(Owner::Neutral));
        assert_eq!(b.get(0, 1), Some(Owner::Player(1)));
        assert_eq!(b.to_text(false), ".A#\nB..\n");
        assert_eq!(b.to_text(true), "#offset 0 0\n.A#\nB..\n");
        let c = Board::parse("#offset -3 7\r\n.Z\r\n").unwrap();
        assert_eq!(c.offset, (-3, 7));
        assert_eq!(c.get(1, 0), Some(Owner::Player(25)));
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(Board::parse(""), Err(BoardError::Empty));
        assert_eq!(Board::parse("\n\n"), Err(BoardError::Empty));
        assert_eq!(Board::parse("..\n...\n"), Err(BoardError::Ragged { line: 2, expected: 2, found: 3 }));
        assert_eq!(Board::parse("..\n\n..\n"), Err(BoardError::Ragged { line: 2, expected: 2, found: 0 }));
        assert_eq!(Board::parse("..\n.x\n"), Err(BoardError::BadCell { line: 2, column: 2, found: 'x' }));
        assert_eq!(Board::parse("#offset 1\n.\n"), Err(BoardError::BadOffset { line: 1 }));
        let e = Board::parse("..\n.x\n").unwrap_err().to_string();
        assert_eq!(e, "line 2, column 2: 'x' is not a cell: use '.', '#' or 'A'..'Z'");
        let wide = ".".repeat(MAX_BOARD_SIDE + 1);
        assert_eq!(Board::parse(&wide), Err(BoardError::TooLarge));
    }

    proptest::proptest! {
        #[test]
        fn parsing_never_panics(s in "[.#A-Za-z0-9 \\n\\r-]{0,80}") {
            let _ = Board::parse(&s);
        }

        #[test]
        fn print_parses_back(w in 1usize..12, h in 1usize..12, seed: u64) {
            let mut b = Board::empty(w, h);
            let mut s = seed;
            for c in &mut b.cells {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                *c = match (s >> 33) % 5 { 0 => Some(Owner::Neutral), 1 | 2 => None, k => Owner::player((s >> 40) as usize % 26).filter(|_| k > 0) };
            }
            proptest::prop_assert_eq!(Board::parse(&b.to_text(false)).unwrap(), b);
        }
    }
}
