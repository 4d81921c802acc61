use rand::Rng;
use tabula_model::{
    Applied, Ctx, Dynamics, GameInfo, GameRng, Lang, LogEntry, MoveError, OptionKind, OptionSpec, Outcome,
    Rules, Score, Seat, Setup, SetupError, Timestamp, Turn, Viewer, msg,
};

use crate::view::IntervaloView;

/// The largest strip accepted by `-cells`.
pub const MAX_CELLS: usize = 4096;

static OPTIONS: [OptionSpec; 1] = [OptionSpec {
    name: "cells",
    kind: OptionKind::Int { min: 2, max: MAX_CELLS as i64 },
    default: Some("64"),
    help: "number of cells of the strip",
}];

static INFO: GameInfo = GameInfo {
    kind: "intervalo",
    min_players: 2,
    max_players: 2,
    dynamics: Dynamics::Simultaneous,
    hidden_information: true,
    open_join: false,
    options: &OPTIONS,
};

/// What lies on one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Nothing yet.
    Empty,
    /// A piece of this seat.
    Piece(Seat),
    /// A neutral piece (both chose this cell in the same turn).
    Neutral,
}

/// One resolved turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnRecord {
    /// The cell numbers (1-based) chosen, in seat order.
    pub choices: [usize; 2],
    /// Who scored a point this turn, if anyone.
    pub point: Option<Seat>,
}

/// The state of an Intervalo game.
#[derive(Clone, Debug)]
pub struct Intervalo {
    players: [String; 2],
    cells: Vec<Cell>,
    empty: usize,
    /// Choices of the current turn not yet resolved (0-based cell indices).
    pending: [Option<usize>; 2],
    scores: [u32; 2],
    turns: Vec<TurnRecord>,
    resigned: Option<Seat>,
}

impl Intervalo {
    /// Number of cells of the strip.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Always false: a strip has at least two cells.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The cells, cell 1 first.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// Points per seat.
    pub fn scores(&self) -> [u32; 2] {
        self.scores
    }

    /// The resolved turns, oldest first.
    pub fn turns(&self) -> &[TurnRecord] {
        &self.turns
    }

    /// Number of empty cells.
    pub fn empty_cells(&self) -> usize {
        self.empty
    }

    /// Whether `seat` has chosen a cell in the current turn (the choice
    /// itself stays secret).
    pub fn has_chosen(&self, seat: Seat) -> bool {
        self.pending.get(seat).is_some_and(Option::is_some)
    }

    /// The strip as the protocol's static view shows it to `seat`: one
    /// character per cell, `.` empty, `x` the seat's piece, `o` the
    /// opponent's, `#` neutral. Pending choices are not on the strip.
    pub fn strip_for(&self, seat: Seat) -> String {
        self.cells
            .iter()
            .map(|c| match c {
                Cell::Empty => '.',
                Cell::Neutral => '#',
                Cell::Piece(s) if *s == seat => 'x',
                Cell::Piece(_) => 'o',
            })
            .collect()
    }

    pub(crate) fn strip_for_viewer(&self, viewer: Viewer) -> String {
        match viewer {
            Viewer::Player(seat) => self.strip_for(seat),
            Viewer::Observer => self
                .cells
                .iter()
                .map(|c| match c {
                    Cell::Empty => '.',
                    Cell::Neutral => '#',
                    Cell::Piece(0) => 'a',
                    Cell::Piece(_) => 'b',
                })
                .collect(),
        }
    }

    /// Who would score if the two different empty cells `a` and `b`
    /// (0-based) were chosen now: the seat with more pieces strictly between
    /// them, since the two new pieces count one each. `None` for no point.
    pub fn interval_leader(&self, a: usize, b: usize) -> Option<Seat> {
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        let mut count = [0usize; 2];
        for c in self.cells.get(lo + 1..hi).unwrap_or(&[]) {
            if let Cell::Piece(s) = c {
                count[*s] += 1;
            }
        }
        match count[0].cmp(&count[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The cells (0-based) `seat` may choose now, in the order of their
    /// text as the model sorts moves ("10" before "2").
    pub fn legal_cells(&self, seat: Seat) -> Vec<usize> {
        if self.is_over() || seat > 1 || self.pending[seat].is_some() {
            return Vec::new();
        }
        text_order(self.cells.len()).map(|n| n - 1).filter(|&i| self.cells[i] == Cell::Empty).collect()
    }

    fn is_over(&self) -> bool {
        self.resigned.is_some() || self.empty == 0
    }

    fn resolve(&mut self, choices: [usize; 2]) -> TurnRecord {
        let [a, b] = choices;
        let point = if a == b {
            self.cells[a] = Cell::Neutral;
            None
        } else {
            self.cells[a] = Cell::Piece(0);
            self.cells[b] = Cell::Piece(1);
            let (lo, hi) = if a < b { (a, b) } else { (b, a) };
            let mut count = [0u32; 2];
            for c in &self.cells[lo..=hi] {
                if let Cell::Piece(s) = c {
                    count[*s] += 1;
                }
            }
            match count[0].cmp(&count[1]) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => None,
            }
        };
        self.empty -= if a == b { 1 } else { 2 };
        if let Some(s) = point {
            self.scores[s] += 1;
        }
        let record = TurnRecord { choices: [a + 1, b + 1], point };
        self.turns.push(record);
        self.pending = [None, None];
        record
    }

    fn cell_is_choosable(&self, cell: usize) -> bool {
        self.cells.get(cell) == Some(&Cell::Empty)
    }
}

/// Append the move text of the 0-based cell `cell` (its 1-based number) to
/// `out`: what [`Rules::format_move`] writes, digit by digit, without the
/// formatting machinery (built-in bots write a move this way many thousand
/// times a second).
pub fn write_cell(cell: usize, out: &mut String) {
    let mut n = cell.wrapping_add(1);
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[start..] {
        out.push(char::from(d));
    }
}

/// The numbers 1 to `n` in the order of their decimal text (1, 10, 100,
/// 11, ..., 2, 20, ...), without building the texts.
fn text_order(n: usize) -> impl Iterator<Item = usize> {
    let mut current = 1;
    (0..n).map(move |_| {
        let this = current;
        if current * 10 <= n {
            current *= 10;
        } else {
            while current % 10 == 9 || current + 1 > n {
                current /= 10;
            }
            current += 1;
        }
        this
    })
}

impl Rules for Intervalo {
    /// A 0-based cell index (the text is the 1-based cell number).
    type Move = usize;
    type View = IntervaloView;

    fn info() -> &'static GameInfo {
        &INFO
    }

    fn new(setup: &Setup<'_>, _rng: &mut GameRng) -> Result<Self, SetupError> {
        let n = setup.options.int("cells").unwrap_or(64);
        let n = usize::try_from(n).ok().filter(|n| (2..=MAX_CELLS).contains(n)).ok_or_else(|| {
            SetupError::contradiction(msg!(
                "intervalo-error-cells",
                max = MAX_CELLS.to_string(),
                given = n.to_string()
            ))
        })?;
        let [first, second] = setup.players else {
            return Err(SetupError::PlayerCount {
                game: INFO.kind,
                min: 2,
                max: 2,
                given: setup.players.len(),
            });
        };
        Ok(Intervalo {
            players: [first.clone(), second.clone()],
            cells: vec![Cell::Empty; n],
            empty: n,
            pending: [None, None],
            scores: [0, 0],
            // A turn fills one or two cells, so there are at most n turns:
            // reserved at once rather than regrown through a game.
            turns: Vec::with_capacity(n),
            resigned: None,
        })
    }

    fn to_move(&self) -> Turn {
        if self.is_over() {
            return Turn::Over;
        }
        Turn::Simultaneous((0..2).filter(|&s| self.pending[s].is_none()).collect())
    }

    fn parse_move(&self, _seat: Seat, text: &str) -> Result<usize, MoveError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(MoveError::malformed(msg!("intervalo-error-empty")));
        }
        if t.len() > 9 || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(MoveError::malformed(msg!("intervalo-error-not-a-number", text = format!("{t:?}"))));
        }
        let n: usize = t
            .parse()
            .map_err(|_| MoveError::malformed(msg!("intervalo-error-not-a-cell", text = format!("{t:?}"))))?;
        // A number is a cell number: one off the strip breaks a rule of
        // this game, it is not a mistake of writing.
        if n == 0 || n > self.cells.len() {
            return Err(MoveError::illegal(msg!(
                "intervalo-error-no-cell",
                cell = n.to_string(),
                cells = self.cells.len().to_string()
            )));
        }
        Ok(n - 1)
    }

    fn format_move(&self, mv: &usize) -> String {
        (mv + 1).to_string()
    }

    fn write_move(&self, mv: &usize, out: &mut String) {
        write_cell(*mv, out);
    }

    fn check_move(&self, seat: Seat, mv: &usize) -> Result<(), MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        if seat > 1 {
            return Err(MoveError::malformed(msg!("move-error-no-seat")));
        }
        if self.pending[seat].is_some() {
            return Err(MoveError::NotYourTurn(msg!("intervalo-error-chosen")));
        }
        match self.cells.get(*mv) {
            None => Err(MoveError::illegal(msg!(
                "intervalo-error-no-cell",
                cell = (mv + 1).to_string(),
                cells = self.cells.len().to_string()
            ))),
            Some(Cell::Empty) => Ok(()),
            Some(_) => Err(MoveError::illegal(msg!("intervalo-error-taken", cell = (mv + 1).to_string()))),
        }
    }

    fn apply_move(&mut self, seat: Seat, mv: usize, ctx: &mut Ctx<'_>) -> Applied {
        let turn = self.turns.len() as u32 + 1;
        let name = &self.players[seat];
        let mut applied = Applied::default();
        if ctx.history {
            applied.push(LogEntry::secret(
                seat,
                msg!("intervalo-history-chooses", user = name, cell = (mv + 1).to_string()),
                turn,
                msg!("intervalo-history-chosen", user = name),
            ));
        }
        self.pending[seat] = Some(mv);
        if let [Some(a), Some(b)] = self.pending {
            let record = self.resolve([a, b]);
            // The reveal group only names the history lines above.
            if !ctx.history {
                return applied;
            }
            applied.reveals.push(turn);
            let [p0, p1] = &self.players;
            let [c0, c1] = record.choices;
            let [s0, s1] = self.scores;
            let line = if c0 == c1 {
                msg!("intervalo-history-neutral", cell = c0.to_string())
            } else {
                let (c0, c1) = (c0.to_string(), c1.to_string());
                match record.point {
                    Some(s) => msg!(
                        "intervalo-history-scores",
                        p0 = p0,
                        c0 = c0,
                        p1 = p1,
                        c1 = c1,
                        user = &self.players[s]
                    ),
                    None => msg!("intervalo-history-no-point", p0 = p0, c0 = c0, p1 = p1, c1 = c1),
                }
            };
            let line = msg!(
                "intervalo-history-turn",
                turn = turn.to_string(),
                what = line,
                p0 = p0,
                s0 = s0.to_string(),
                p1 = p1,
                s1 = s1.to_string()
            );
            applied.push(LogEntry::public(None, line));
        }
        applied
    }

    fn resign(&mut self, seat: Seat, _ctx: &mut Ctx<'_>) -> Applied {
        self.resigned = Some(seat);
        self.pending = [None, None];
        Applied::line(Some(seat), msg!("history-resigns", user = &self.players[seat]))
    }

    fn legal_moves(&self, seat: Seat) -> Option<Vec<usize>> {
        Some(self.legal_cells(seat))
    }

    fn random_move(&self, seat: Seat, rng: &mut GameRng) -> Option<usize> {
        if self.is_over() || seat > 1 || self.pending[seat].is_some() || self.empty == 0 {
            return None;
        }
        let k = rng.random_range(0..self.empty);
        self.cells.iter().enumerate().filter(|(_, c)| **c == Cell::Empty).nth(k).map(|(i, _)| i)
    }

    /// The strip and the turns played: a state counts its own data, as a
    /// cache holding thousands of games must know.
    fn memory(&self) -> usize {
        use std::mem::size_of;
        size_of::<Self>()
            + self.players.iter().map(String::capacity).sum::<usize>()
            + self.cells.capacity() * size_of::<Cell>()
            + self.turns.capacity() * size_of::<TurnRecord>()
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(loser) = self.resigned {
            let winner = 1 - loser;
            return Some(
                Outcome::win(winner, msg!("intervalo-outcome-resigned", user = &self.players[loser]))
                    .with_scores(self.scores.iter().map(|&s| Score::from(s)).collect()),
            );
        }
        if self.empty > 0 {
            return None;
        }
        let scores = self.scores.iter().map(|&s| Score::from(s)).collect();
        let [a, b] = self.scores;
        let outcome = match a.cmp(&b) {
            std::cmp::Ordering::Greater => Outcome::win(0, msg!("intervalo-outcome-more-points")),
            std::cmp::Ordering::Less => Outcome::win(1, msg!("intervalo-outcome-more-points")),
            std::cmp::Ordering::Equal => Outcome::draw(vec![0, 1], msg!("intervalo-outcome-equal-points")),
        };
        Some(outcome.with_scores(scores))
    }

    fn view(&self, viewer: Viewer, _now: Timestamp) -> IntervaloView {
        IntervaloView::new(self, viewer, &self.players, self.pending)
    }

    fn render_text(view: &IntervaloView, lang: Lang) -> String {
        crate::render::text(view, lang)
    }

    fn render_svg(view: &IntervaloView, lang: Lang) -> String {
        crate::render::svg(view, lang)
    }

    fn click_map(view: &IntervaloView) -> Option<tabula_model::ClickMap> {
        crate::render::click_map(view)
    }

    fn is_active(&self, seat: Seat) -> bool {
        self.resigned != Some(seat)
    }

    fn without_others_pending(&self, seat: Seat) -> Self {
        let mut mine = self.clone();
        mine.pending[1 - seat.min(1)] = None;
        mine
    }

    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self {
        let mut guess = self.clone();
        let other = 1 - seat.min(1);
        if self.pending[other].is_some() {
            // Any empty cell is as likely as the one really chosen.
            let empties: Vec<usize> = (0..self.cells.len()).filter(|&i| self.cell_is_choosable(i)).collect();
            if !empties.is_empty() {
                guess.pending[other] = Some(empties[rng.random_range(0..empties.len())]);
            }
        }
        guess
    }
}

#[cfg(test)]
mod tests {
    use super::text_order;

    #[test]
    fn a_written_cell_is_its_formatted_number() {
        for cell in [0, 8, 9, 10, 63, 98, 99, 4095, usize::MAX - 1] {
            let mut out = String::from("x");
            super::write_cell(cell, &mut out);
            assert_eq!(out, format!("x{}", cell + 1));
        }
    }

    #[test]
    fn text_order_sorts_like_text() {
        for n in [1, 2, 9, 10, 11, 64, 99, 100, 101, 1000, 4096] {
            let mut expected: Vec<usize> = (1..=n).collect();
            expected.sort_by_key(|k| k.to_string());
            assert_eq!(text_order(n).collect::<Vec<_>>(), expected, "n = {n}");
        }
    }
}
