//! The rules: options, moves, the placement ramp, generations, elimination
//! and the end.

use rand::Rng;
use rand::seq::index::sample;
use tabula_life::{Life, Owner, Threads, Topology, Universe};
use tabula_model::coords::{Point, parse_points};
use tabula_model::{
    Applied, Ctx, Dynamics, GameInfo, GameRng, Lang, LogEntry, MoveError, OptionKind, OptionSpec, Outcome,
    Rules, Score, Seat, Setup, SetupError, Timestamp, Turn, Viewer, msg,
};

use crate::render::{self, ConwayView, PlayerLine, PlayerStatus};

/// Largest board side: columns run `a`..`zz`.
pub const MAX_SIZE: i64 = 702;

/// The game's static facts and options.
pub static INFO: GameInfo = GameInfo {
    kind: "conway",
    min_players: 2,
    max_players: 8,
    dynamics: Dynamics::Sequential,
    hidden_information: false,
    open_join: false,
    options: &[
        OptionSpec {
            name: "size",
            kind: OptionKind::Int { min: 5, max: MAX_SIZE },
            default: Some("10"),
            help: "the board is size x size points (columns past z are aa, ab, ..)",
        },
        OptionSpec {
            name: "place",
            kind: OptionKind::Int { min: 1, max: 64 },
            default: Some("4"),
            help: "most pieces a move may place; generations start at this move",
        },
        OptionSpec {
            name: "max_turns",
            kind: OptionKind::Int { min: 1, max: 100_000 },
            default: None,
            help: "after this many moves the player with the most pieces wins",
        },
    ],
};

/// A Conway move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConwayMove {
    /// Pieces on these points (`a1` is the bottom-left corner), in the order given.
    Place(Vec<Point>),
    /// No pieces.
    Pass,
    /// The allowed number of pieces on random empty points.
    Random,
}

/// Why a player left the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Gone {
    /// No pieces after a generation.
    Eliminated,
    /// Resigned.
    Resigned,
}

/// A game of Conway.
#[derive(Clone, Debug)]
pub struct Conway {
    size: i64,
    place: u64,
    max_turns: Option<u64>,
    users: Vec<String>,
    field: Universe,
    /// Moves made (placements, passes and random moves).
    moves: u64,
    generation: u64,
    next: Seat,
    had_turn: Vec<bool>,
    gone: Vec<Option<Gone>>,
    outcome: Option<Outcome>,
}

impl Conway {
    /// The board side.
    pub fn size(&self) -> i64 {
        self.size
    }

    /// Moves made so far.
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// Generations so far.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Pieces the next move may place: `min(m, P)` for move `m`.
    pub fn allowed(&self) -> u64 {
        (self.moves + 1).min(self.place)
    }

    /// Who owns the point (`a1` is `(0, 0)`), if anyone.
    pub fn at(&self, point: Point) -> Option<Owner> {
        self.on_board(point).then(|| self.field.get(point.x, self.size - 1 - point.y)).flatten()
    }

    /// Pieces of `seat`.
    pub fn pieces(&self, seat: Seat) -> u64 {
        Owner::player(seat).map_or(0, |o| self.field.population().of(o))
    }

    /// Neutral pieces.
    pub fn neutral_pieces(&self) -> u64 {
        self.field.population().neutral
    }

    fn on_board(&self, p: Point) -> bool {
        (0..self.size).contains(&p.x) && (0..self.size).contains(&p.y)
    }

    fn put(&mut self, p: Point, owner: Option<Owner>) {
        // Points are checked to be on the board before they get here.
        let _ = self.field.set(p.x, self.size - 1 - p.y, owner);
    }

    fn empty_points(&self) -> Vec<Point> {
        let mut taken = vec![false; (self.size * self.size) as usize];
        for c in self.field.live_cells() {
            taken[(c.y * self.size + c.x) as usize] = true;
        }
        (0..self.size * self.size)
            .filter(|&i| !taken[i as usize])
            .map(|i| Point { x: i % self.size, y: self.size - 1 - i / self.size })
            .collect()
    }

    fn active(&self) -> Vec<Seat> {
        (0..self.users.len()).filter(|&s| self.gone[s].is_none()).collect()
    }

    fn advance_turn(&mut self, from: Seat) {
        let n = self.users.len();
        if let Some(s) = (1..=n).map(|d| (from + d) % n).find(|&s| self.gone[s].is_none()) {
            self.next = s;
        }
    }

    /// After a generation: eliminations (once every player has had a turn)
    /// and the end.
    fn eliminate(&mut self, applied: &mut Applied) {
        if !self.had_turn.iter().all(|&t| t) {
            return;
        }
        let population = self.field.population();
        let vanished: Vec<Seat> = self
            .active()
            .into_iter()
            .filter(|&s| Owner::player(s).is_none_or(|o| population.of(o) == 0))
            .collect();
        for &s in &vanished {
            self.gone[s] = Some(Gone::Eliminated);
            applied.push(LogEntry::public(None, msg!("conway-history-out", user = &self.users[s])));
        }
        let active = self.active();
        match active.as_slice() {
            [] => {
                let names: Vec<&str> = vanished.iter().map(|&s| self.users[s].as_str()).collect();
                applied
                    .push(LogEntry::public(None, msg!("conway-history-vanished", users = names.join(", "))));
                self.outcome = Some(Outcome::draw(vanished, msg!("conway-outcome-vanished")));
            }
            [winner] if !vanished.is_empty() => {
                applied
                    .push(LogEntry::public(None, msg!("history-last-standing", user = &self.users[*winner])));
                self.outcome = Some(Outcome::win(*winner, msg!("outcome-last-standing")));
            }
            _ => {}
        }
    }

    /// The end after `-max_turns` moves: most pieces wins.
    fn end_by_count(&mut self, applied: &mut Applied) {
        let active = self.active();
        let counts: Vec<u64> = active.iter().map(|&s| self.pieces(s)).collect();
        let best = counts.iter().copied().max().unwrap_or(0);
        let leaders: Vec<Seat> =
            active.iter().zip(&counts).filter(|(_, c)| **c == best).map(|(s, _)| *s).collect();
        let scores = (0..self.users.len()).map(|s| Score::whole(self.pieces(s))).collect();
        let outcome = if let [winner] = leaders[..] {
            applied.push(LogEntry::public(
                None,
                msg!("conway-history-most-pieces", user = &self.users[winner], pieces = best),
            ));
            Outcome::win(winner, msg!("conway-outcome-most-pieces"))
        } else {
            let names: Vec<&str> = leaders.iter().map(|&s| self.users[s].as_str()).collect();
            applied.push(LogEntry::public(
                None,
                msg!("conway-history-equal-pieces", users = names.join(", "), pieces = best),
            ));
            Outcome::draw(leaders, msg!("conway-outcome-equal-pieces"))
        };
        self.outcome = Some(outcome.with_scores(scores));
    }

    fn describe(points: &[Point]) -> String {
        points.iter().map(Point::to_string).collect::<Vec<_>>().join(",")
    }
}

impl Rules for Conway {
    const EVALUATE: Option<tabula_model::Evaluation<Self>> = Some(crate::bot::evaluate);

    type Move = ConwayMove;
    type View = ConwayView;

    fn info() -> &'static GameInfo {
        &INFO
    }

    fn new(setup: &Setup<'_>, _rng: &mut GameRng) -> Result<Self, SetupError> {
        let size = setup.options.int("size").unwrap_or(10).clamp(5, MAX_SIZE);
        let place = setup.options.int("place").unwrap_or(4).max(1) as u64;
        let max_turns = setup.options.int("max_turns").map(|n| n.max(1) as u64);
        let mut field = Universe::new(Topology::Torus { width: size as u64, height: size as u64 })
            .map_err(|e| SetupError::contradiction(e.to_string()))?;
        // Games run side by side on the server: one thread each.
        field.set_threads(Threads::Single);
        let n = setup.players.len();
        Ok(Conway {
            size,
            place,
            max_turns,
            users: setup.players.to_vec(),
            field,
            moves: 0,
            generation: 0,
            next: 0,
            had_turn: vec![false; n],
            gone: vec![None; n],
            outcome: None,
        })
    }

    fn to_move(&self) -> Turn {
        if self.outcome.is_some() { Turn::Over } else { Turn::Player(self.next) }
    }

    fn parse_move(&self, _seat: Seat, text: &str) -> Result<ConwayMove, MoveError> {
        let t = text.trim();
        match t.to_ascii_lowercase().as_str() {
            "pass" => return Ok(ConwayMove::Pass),
            "random" => return Ok(ConwayMove::Random),
            "" => return Err(MoveError::malformed(msg!("conway-error-empty"))),
            _ => {}
        }
        let limit = (self.size * self.size) as usize;
        let points = parse_points(t, limit).map_err(MoveError::Malformed)?;
        Ok(ConwayMove::Place(points))
    }

    fn format_move(&self, mv: &ConwayMove) -> String {
        match mv {
            ConwayMove::Place(points) => Self::describe(points),
            ConwayMove::Pass => "pass".into(),
            ConwayMove::Random => "random".into(),
        }
    }

    fn check_move(&self, seat: Seat, mv: &ConwayMove) -> Result<(), MoveError> {
        if self.outcome.is_some() {
            return Err(MoveError::GameOver);
        }
        if seat != self.next {
            return Err(MoveError::not_your_turn(&self.users[self.next]));
        }
        let ConwayMove::Place(points) = mv else { return Ok(()) };
        let allowed = self.allowed();
        if points.len() as u64 > allowed {
            return Err(MoveError::illegal(msg!(
                "conway-error-too-many",
                move = (self.moves + 1).to_string(),
                allowed = allowed,
                given = points.len().to_string()
            )));
        }
        for (i, &p) in points.iter().enumerate() {
            if !self.on_board(p) {
                let last = Point { x: self.size - 1, y: self.size - 1 };
                return Err(MoveError::illegal(msg!(
                    "conway-error-off-board",
                    point = p.to_string(),
                    last = last.to_string()
                )));
            }
            if points[..i].contains(&p) {
                return Err(MoveError::illegal(msg!("conway-error-twice", point = p.to_string())));
            }
            if let Some(owner) = self.at(p) {
                let point = p.to_string();
                return Err(MoveError::illegal(match owner {
                    Owner::Player(q) => msg!(
                        "conway-error-taken",
                        point = point,
                        user = self.users.get(usize::from(q)).map_or("a", |u| u)
                    ),
                    Owner::Neutral => msg!("conway-error-taken-neutral", point = point),
                }));
            }
        }
        Ok(())
    }

    fn apply_move(&mut self, seat: Seat, mv: ConwayMove, ctx: &mut Ctx<'_>) -> Applied {
        let allowed = self.allowed() as usize;
        let (points, text) = match mv {
            ConwayMove::Place(points) => {
                let text = Self::describe(&points);
                (points, text)
            }
            ConwayMove::Pass => (Vec::new(), "pass".to_string()),
            ConwayMove::Random => {
                let empty = self.empty_points();
                let k = allowed.min(empty.len());
                let mut points: Vec<Point> =
                    sample(ctx.rng, empty.len(), k).into_iter().map(|i| empty[i]).collect();
                points.sort_by_key(|p| (p.y, p.x));
                let text = if points.is_empty() {
                    "pass*".to_string()
                } else {
                    format!("{}*", Self::describe(&points))
                };
                (points, text)
            }
        };
        let owner = Owner::player(seat);
        for &p in &points {
            self.put(p, owner);
        }
        self.moves += 1;
        self.had_turn[seat] = true;
        let mut applied = Applied::line(Some(seat), text);
        if self.moves >= self.place {
            self.field.step(1);
            self.generation += 1;
            self.eliminate(&mut applied);
        }
        if self.outcome.is_none() && self.max_turns.is_some_and(|n| self.moves >= n) {
            self.end_by_count(&mut applied);
        }
        if self.outcome.is_none() {
            self.advance_turn(seat);
        }
        applied
    }

    fn resign(&mut self, seat: Seat, _ctx: &mut Ctx<'_>) -> Applied {
        self.gone[seat] = Some(Gone::Resigned);
        self.had_turn[seat] = true;
        if let Some(owner) = Owner::player(seat) {
            for c in self.field.live_cells() {
                if c.owner == owner {
                    let _ = self.field.set(c.x, c.y, Some(Owner::Neutral));
                }
            }
        }
        let mut applied = Applied::line(Some(seat), msg!("history-resigns", user = &self.users[seat]));
        let active = self.active();
        if let [winner] = active[..] {
            applied.push(LogEntry::public(None, msg!("history-last-standing", user = &self.users[winner])));
            self.outcome = Some(Outcome::win(winner, msg!("outcome-last-standing")));
        } else if self.next == seat {
            self.advance_turn(seat);
        }
        applied
    }

    fn legal_moves(&self, seat: Seat) -> Option<Vec<ConwayMove>> {
        if self.outcome.is_some() || seat != self.next {
            return Some(Vec::new());
        }
        if self.allowed() > 1 {
            return None;
        }
        let mut moves: Vec<ConwayMove> =
            self.empty_points().into_iter().map(|p| ConwayMove::Place(vec![p])).collect();
        moves.push(ConwayMove::Pass);
        moves.push(ConwayMove::Random);
        moves.sort_by_key(|m| self.format_move(m));
        Some(moves)
    }

    fn random_move(&self, seat: Seat, rng: &mut GameRng) -> Option<ConwayMove> {
        if self.outcome.is_some() || seat != self.next {
            return None;
        }
        match rng.random_range(0..10) {
            0 => Some(ConwayMove::Pass),
            1 => Some(ConwayMove::Random),
            _ => {
                let empty = self.empty_points();
                let most = (self.allowed() as usize).min(empty.len());
                if most == 0 {
                    return Some(ConwayMove::Pass);
                }
                let k = rng.random_range(1..=most);
                Some(ConwayMove::Place(sample(rng, empty.len(), k).into_iter().map(|i| empty[i]).collect()))
            }
        }
    }

    /// The field and the players: a state counts its own data, as a cache
    /// holding thousands of games must know.
    fn memory(&self) -> usize {
        use std::mem::size_of;
        size_of::<Self>()
            + self.field.heap_bytes()
            + self.users.iter().map(|u| size_of::<String>() + u.capacity()).sum::<usize>()
            + self.had_turn.capacity()
            + self.gone.capacity() * size_of::<Option<Gone>>()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn view(&self, _viewer: Viewer, _now: Timestamp) -> ConwayView {
        let population = self.field.population();
        let winners = self.outcome.as_ref().map(|o| o.winners.clone()).unwrap_or_default();
        let players = self
            .users
            .iter()
            .enumerate()
            .map(|(s, user)| PlayerLine {
                letter: Owner::player(s).map_or('?', Owner::symbol),
                user: user.clone(),
                pieces: Owner::player(s).map_or(0, |o| population.of(o)),
                status: match self.gone[s] {
                    Some(Gone::Eliminated) if winners.contains(&s) => PlayerStatus::Drew,
                    Some(Gone::Eliminated) => PlayerStatus::Out,
                    Some(Gone::Resigned) => PlayerStatus::Resigned,
                    None if self.outcome.is_some() && winners.len() == 1 && winners[0] == s => {
                        PlayerStatus::Won
                    }
                    None if self.outcome.is_some() && winners.contains(&s) => PlayerStatus::Drew,
                    None if self.outcome.is_some() => PlayerStatus::Lost,
                    None => PlayerStatus::Playing,
                },
            })
            .collect();
        let mut rows = vec![vec!['.'; self.size as usize]; self.size as usize];
        for c in self.field.live_cells() {
            rows[c.y as usize][c.x as usize] = c.owner.symbol();
        }
        ConwayView {
            size: self.size as usize,
            rows: rows.into_iter().map(|r| r.into_iter().collect()).collect(),
            players,
            neutral: population.neutral,
            moves: self.moves,
            generation: self.generation,
            to_move: self.outcome.is_none().then_some(self.next),
            allowed: if self.outcome.is_none() { self.allowed() } else { 0 },
            place: self.place,
            max_turns: self.max_turns,
        }
    }

    fn render_text(view: &ConwayView, lang: Lang) -> String {
        render::text(view, lang)
    }

    fn render_svg(view: &ConwayView, lang: Lang) -> String {
        render::svg(view, lang)
    }

    fn click_map(view: &ConwayView) -> Option<tabula_model::ClickMap> {
        render::click_map(view)
    }

    fn is_active(&self, seat: Seat) -> bool {
        self.gone.get(seat).is_some_and(Option::is_none)
    }
}
