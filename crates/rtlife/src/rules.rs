//! The rules: options, placing and moving cells, the clock (movement points,
//! generations, scores, eliminations) and the end.

use std::collections::{HashMap, HashSet};

use rand::Rng;
use tabula_life::{Life, Owner, Threads, Topology, Universe};
use tabula_model::coords::{Point, parse_point, parse_points};
use tabula_model::{
    Applied, Arg, Ctx, Dynamics, GameInfo, GameRng, Lang, LogEntry, Message, MoveError, OptionKind,
    OptionSpec, Outcome, Rules, Seat, Setup, SetupError, Timestamp, Turn, Viewer, msg,
};

use crate::path::{Area, Route, route};
use crate::render::{self, RtLifeView};
use crate::score::Score;

/// Widest and tallest bounded field: columns run `a`..`zz`.
pub const MAX_SIDE: i64 = 702;

/// Largest absolute coordinate a player may place or move a cell to on the
/// unbounded plane.
pub const PLANE_LIMIT: i64 = 1_000_000_000;

/// Most points the path searches of one command visit together; longer
/// searches are refused with a request to move in shorter steps.
pub const MAX_SEARCH: usize = 1 << 18;

/// Most cell moves in one command.
pub const MAX_STEPS: usize = 100;

/// Most players (one letter each, `A`..`Z`).
pub const MAX_PLAYERS: usize = 26;

/// The game's static facts and options.
pub static INFO: GameInfo = GameInfo {
    kind: "rtlife",
    min_players: 1,
    max_players: MAX_PLAYERS,
    dynamics: Dynamics::RealTime,
    hidden_information: false,
    open_join: true,
    options: &[
        OptionSpec {
            name: "width",
            kind: OptionKind::Int { min: 3, max: MAX_SIDE },
            default: Some("72"),
            help: "columns of a bounded field (columns past z are aa, ab, ..)",
        },
        OptionSpec {
            name: "height",
            kind: OptionKind::Int { min: 3, max: MAX_SIDE },
            default: Some("36"),
            help: "rows of a bounded field",
        },
        OptionSpec {
            name: "edges",
            kind: OptionKind::Choice { choices: &["dead", "torus", "unbounded"] },
            default: Some("dead"),
            help: "dead: nothing lives outside the field; torus: it wraps; unbounded: the infinite plane",
        },
        OptionSpec {
            name: "tick",
            kind: OptionKind::Duration { min_secs: 1, max_secs: 30 * 86_400, unit: 's' },
            default: Some("1h"),
            help: "real time between two ticks (movement points are handed out every tick)",
        },
        OptionSpec {
            name: "gen_ticks",
            kind: OptionKind::Int { min: 1, max: 1000 },
            default: Some("12"),
            help: "ticks between two generations",
        },
        OptionSpec {
            name: "start_cells",
            kind: OptionKind::Int { min: 1, max: 100 },
            default: Some("10"),
            help: "cells a player places on joining, all connected",
        },
        OptionSpec {
            name: "generations",
            kind: OptionKind::Int { min: 1, max: 1_000_000 },
            default: None,
            help: "the game ends after this many generations; the highest score wins",
        },
        OptionSpec {
            name: "max_players",
            kind: OptionKind::Int { min: 1, max: MAX_PLAYERS as i64 },
            default: Some("26"),
            help: "most players, those joining later included",
        },
    ],
};

/// The shape of the field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edges {
    /// A bounded field; nothing lives outside it.
    Dead,
    /// A bounded field that wraps at every edge.
    Torus,
    /// The infinite plane.
    Unbounded,
}

impl Edges {
    /// The option word.
    pub fn word(self) -> &'static str {
        match self {
            Edges::Dead => "dead",
            Edges::Torus => "torus",
            Edges::Unbounded => "unbounded",
        }
    }
}

/// A Real-Time Life move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RtMove {
    /// The first move: cells on these points, in the order given.
    Place(Vec<Point>),
    /// Cells moved `from`-`to`, in order.
    Move(Vec<(Point, Point)>),
}

/// Why a player left the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Gone {
    /// No cells after a generation.
    Out,
    /// Resigned.
    Resigned,
}

#[derive(Clone, Debug)]
pub(crate) struct Player {
    pub(crate) user: String,
    /// Generations played before this player placed cells, once placed.
    pub(crate) placed_at: Option<u64>,
    pub(crate) points: u64,
    pub(crate) score: Score,
    pub(crate) gone: Option<Gone>,
    /// Whether the player joined after the start.
    joined: bool,
}

impl Player {
    fn new(user: &str, joined: bool) -> Player {
        Player { user: user.to_string(), placed_at: None, points: 0, score: Score::ZERO, gone: None, joined }
    }

    fn standing(&self) -> bool {
        self.placed_at.is_some() && self.gone.is_none()
    }
}

/// A game of Real-Time Life.
#[derive(Clone, Debug)]
pub struct RtLife {
    pub(crate) edges: Edges,
    pub(crate) width: i64,
    pub(crate) height: i64,
    pub(crate) tick_ms: i64,
    pub(crate) gen_ticks: u64,
    pub(crate) start_cells: usize,
    pub(crate) generations: Option<u64>,
    max_players: usize,
    pub(crate) start: Timestamp,
    pub(crate) players: Vec<Player>,
    pub(crate) field: Universe,
    pub(crate) ticks: u64,
    pub(crate) generation: u64,
    pub(crate) outcome: Option<Outcome>,
}

/// The eight king steps.
const KING: [(i64, i64); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];

impl RtLife {
    /// A game whose field already holds `cells` (owners by seat, or neutral),
    /// every player counted as having placed at the start: for tests,
    /// benchmarks and set positions. Placing rules (count, connection) do
    /// not apply to these cells.
    ///
    /// # Errors
    ///
    /// Bad options, a point off the field, a point given twice, or an owner
    /// that is not a player of the game.
    pub fn with_cells(setup: &Setup<'_>, cells: &[(Point, Owner)]) -> Result<RtLife, SetupError> {
        let mut game = Self::set_up(setup)?;
        let mut seen = HashSet::new();
        for &(p, owner) in cells {
            if !game.on_field(p) {
                return Err(SetupError::contradiction(msg!("rtlife-error-setup-off", point = p.to_string())));
            }
            if !seen.insert(p) {
                return Err(SetupError::contradiction(msg!(
                    "rtlife-error-setup-twice",
                    point = p.to_string()
                )));
            }
            if let Owner::Player(q) = owner
                && usize::from(q) >= game.players.len()
            {
                return Err(SetupError::contradiction(msg!(
                    "rtlife-error-setup-owner",
                    owner = owner.symbol().to_string()
                )));
            }
            game.put(p, Some(owner));
        }
        for player in &mut game.players {
            player.placed_at = Some(0);
        }
        Ok(game)
    }

    fn set_up(setup: &Setup<'_>) -> Result<RtLife, SetupError> {
        let o = setup.options;
        let contradiction = |m: Message| SetupError::Contradiction(m);
        let edges = match o.text("edges").unwrap_or("dead") {
            "torus" => Edges::Torus,
            "unbounded" => Edges::Unbounded,
            _ => Edges::Dead,
        };
        let width = o.int("width").unwrap_or(72).clamp(3, MAX_SIDE);
        let height = o.int("height").unwrap_or(36).clamp(3, MAX_SIDE);
        let start_cells = o.int("start_cells").unwrap_or(10).clamp(1, 100) as usize;
        let max_players = o.int("max_players").unwrap_or(26).clamp(1, MAX_PLAYERS as i64) as usize;
        if edges != Edges::Unbounded && ((width * height) as usize) < start_cells {
            return Err(contradiction(msg!(
                "rtlife-error-no-room",
                width = width.to_string(),
                height = height.to_string(),
                cells = start_cells.to_string()
            )));
        }
        if setup.players.len() > max_players {
            return Err(contradiction(msg!(
                "rtlife-error-max-players",
                max = max_players.to_string(),
                given = setup.players.len()
            )));
        }
        let topology = match edges {
            Edges::Dead => Topology::Dead { width: width as u64, height: height as u64 },
            Edges::Torus => Topology::Torus { width: width as u64, height: height as u64 },
            Edges::Unbounded => Topology::Unbounded,
        };
        let mut field = Universe::new(topology).map_err(|e| contradiction(e.to_string().into()))?;
        // Games run side by side on the server: one thread each.
        field.set_threads(Threads::Single);
        Ok(RtLife {
            edges,
            width,
            height,
            tick_ms: o.int("tick").unwrap_or(3600).clamp(1, 30 * 86_400) * 1000,
            gen_ticks: o.int("gen_ticks").unwrap_or(12).clamp(1, 1000) as u64,
            start_cells,
            generations: o.int("generations").map(|n| n.max(1) as u64),
            max_players,
            start: setup.start,
            players: setup.players.iter().map(|u| Player::new(u, false)).collect(),
            field,
            ticks: 0,
            generation: 0,
            outcome: None,
        })
    }

    /// The kind of edges.
    pub fn edges(&self) -> Edges {
        self.edges
    }

    /// Columns and rows of a bounded field (`None` on the unbounded plane).
    pub fn size(&self) -> Option<(i64, i64)> {
        (self.edges != Edges::Unbounded).then_some((self.width, self.height))
    }

    /// Ticks so far.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// Generations so far.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// When the game started (tick `n` is due `n` tick lengths later).
    pub fn start(&self) -> Timestamp {
        self.start
    }

    /// The length of a tick in milliseconds.
    pub fn tick_ms(&self) -> i64 {
        self.tick_ms
    }

    /// The number of players (joins included).
    pub fn player_count(&self) -> usize {
        self.players.len()
    }

    /// Who owns the point, if anyone (`a1` is `(0, 0)`, row 1 at the bottom).
    pub fn at(&self, point: Point) -> Option<Owner> {
        if !self.on_field(point) {
            return None;
        }
        let (x, y) = self.engine_xy(point);
        self.field.get(x, y)
    }

    /// Live cells of `seat`.
    pub fn cells(&self, seat: Seat) -> u64 {
        Owner::player(seat).map_or(0, |o| self.field.population().of(o))
    }

    /// Neutral cells.
    pub fn neutral_cells(&self) -> u64 {
        self.field.population().neutral
    }

    /// Movement points of `seat`.
    pub fn points(&self, seat: Seat) -> u64 {
        self.players.get(seat).map_or(0, |p| p.points)
    }

    /// The score of `seat`.
    pub fn score(&self, seat: Seat) -> Score {
        self.players.get(seat).map_or(Score::ZERO, |p| p.score)
    }

    /// Whether `seat` has placed cells.
    pub fn has_placed(&self, seat: Seat) -> bool {
        self.players.get(seat).is_some_and(|p| p.placed_at.is_some())
    }

    /// Every live cell in game coordinates, sorted by row from the top, then
    /// by column.
    pub fn live_cells(&self) -> Vec<(Point, Owner)> {
        self.field.live_cells().into_iter().map(|c| (self.game_point(c.x, c.y), c.owner)).collect()
    }

    /// What moving cells of `seat` `from`-`to`, in order, would cost, or why
    /// it is not allowed. Nothing changes.
    ///
    /// # Errors
    ///
    /// Any rule the moves break, as [`Rules::check_move`] reports it.
    pub fn move_cost(&self, seat: Seat, steps: &[(Point, Point)]) -> Result<u64, MoveError> {
        self.check_seat(seat)?;
        self.plan_moves(seat, steps)
    }

    /// When tick number `ticks` is due, if the clock can reach it.
    fn tick_due(&self, ticks: u64) -> Option<Timestamp> {
        let n = i64::try_from(ticks).ok()?;
        self.start.checked_add(n.checked_mul(self.tick_ms)?)
    }

    /// When the next generation is due, if any.
    pub(crate) fn next_generation_due(&self) -> Option<Timestamp> {
        if self.outcome.is_some() {
            return None;
        }
        let next = (self.ticks / self.gen_ticks + 1).checked_mul(self.gen_ticks)?;
        self.tick_due(next)
    }

    fn engine_xy(&self, p: Point) -> (i64, i64) {
        match self.edges {
            Edges::Unbounded => (p.x, -p.y),
            _ => (p.x, self.height - 1 - p.y),
        }
    }

    pub(crate) fn game_point(&self, x: i64, y: i64) -> Point {
        match self.edges {
            Edges::Unbounded => Point { x, y: -y },
            _ => Point { x, y: self.height - 1 - y },
        }
    }

    fn on_field(&self, p: Point) -> bool {
        match self.edges {
            Edges::Unbounded => p.x.abs() <= PLANE_LIMIT && p.y.abs() <= PLANE_LIMIT,
            _ => (0..self.width).contains(&p.x) && (0..self.height).contains(&p.y),
        }
    }

    fn off_field(&self, p: Point) -> MoveError {
        match self.edges {
            Edges::Unbounded => MoveError::illegal(msg!(
                "rtlife-error-too-far-out",
                point = p.to_string(),
                limit = PLANE_LIMIT.to_string()
            )),
            _ => {
                let last = Point { x: self.width - 1, y: self.height - 1 };
                MoveError::illegal(msg!(
                    "rtlife-error-off-field",
                    point = p.to_string(),
                    last = last.to_string()
                ))
            }
        }
    }

    fn put(&mut self, p: Point, owner: Option<Owner>) {
        let (x, y) = self.engine_xy(p);
        // Points are checked to be on the field before they get here.
        let _ = self.field.set(x, y, owner);
    }

    /// The king neighbours of `p` on the field (wrapped on a torus).
    fn neighbours(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        KING.iter().filter_map(move |&(dx, dy)| {
            let q = Point { x: p.x + dx, y: p.y + dy };
            match self.edges {
                Edges::Torus => Some(Point { x: q.x.rem_euclid(self.width), y: q.y.rem_euclid(self.height) }),
                _ => self.on_field(q).then_some(q),
            }
        })
    }

    fn describe_owner(&self, owner: Owner) -> Message {
        match owner {
            Owner::Player(q) => match self.players.get(usize::from(q)) {
                Some(p) => msg!("rtlife-owner-player", user = &p.user),
                None => msg!("rtlife-owner-someone"),
            },
            Owner::Neutral => msg!("rtlife-owner-neutral"),
        }
    }

    fn check_seat(&self, seat: Seat) -> Result<(), MoveError> {
        if self.outcome.is_some() {
            return Err(MoveError::GameOver);
        }
        match self.players.get(seat) {
            None => Err(MoveError::malformed(msg!("move-error-no-player-seat"))),
            Some(p) if p.gone.is_some() => Err(MoveError::illegal(msg!("move-error-not-in-game"))),
            Some(_) => Ok(()),
        }
    }

    fn check_place(&self, seat: Seat, points: &[Point]) -> Result<(), MoveError> {
        if self.players[seat].placed_at.is_some() {
            return Err(MoveError::illegal(msg!("rtlife-error-placed")));
        }
        if points.len() != self.start_cells {
            return Err(MoveError::illegal(msg!(
                "rtlife-error-place-count",
                cells = self.start_cells.to_string(),
                given = points.len().to_string()
            )));
        }
        let mut set = HashSet::new();
        for &p in points {
            if !self.on_field(p) {
                return Err(self.off_field(p));
            }
            if !set.insert(p) {
                return Err(MoveError::illegal(msg!("rtlife-error-twice", point = p.to_string())));
            }
            if let Some(owner) = self.at(p) {
                return Err(MoveError::illegal(msg!(
                    "rtlife-error-taken",
                    point = p.to_string(),
                    owner = self.describe_owner(owner)
                )));
            }
        }
        // All connected: a flood from the first point reaches every point.
        let mut reached = HashSet::from([points[0]]);
        let mut frontier = vec![points[0]];
        while let Some(p) = frontier.pop() {
            for q in self.neighbours(p) {
                if set.contains(&q) && reached.insert(q) {
                    frontier.push(q);
                }
            }
        }
        if let Some(&loose) = points.iter().find(|p| !reached.contains(p)) {
            return Err(MoveError::illegal(msg!(
                "rtlife-error-connected",
                loose = loose.to_string(),
                first = points[0].to_string()
            )));
        }
        Ok(())
    }

    /// Where a path may run now, given the points a plan has touched.
    fn search_area(&self, touched: impl Iterator<Item = Point>) -> Area {
        match self.edges {
            Edges::Dead => Area::Field { width: self.width, height: self.height, wrap: false },
            Edges::Torus => Area::Field { width: self.width, height: self.height, wrap: true },
            Edges::Unbounded => {
                let (mut x0, mut y0, mut x1, mut y1) = (i64::MAX, i64::MAX, i64::MIN, i64::MIN);
                let mut grow = |p: Point| {
                    x0 = x0.min(p.x);
                    x1 = x1.max(p.x);
                    y0 = y0.min(p.y);
                    y1 = y1.max(p.y);
                };
                if let Some(r) = self.field.bounding_box() {
                    grow(self.game_point(r.x, r.y));
                    grow(self.game_point(r.x + r.width as i64 - 1, r.y + r.height as i64 - 1));
                }
                touched.for_each(grow);
                Area::Window { x0: x0 - 1, y0: y0 - 1, x1: x1 + 1, y1: y1 + 1 }
            }
        }
    }

    /// The total cost of moving `steps` in order, each on the field as the
    /// earlier ones left it.
    fn plan_moves(&self, seat: Seat, steps: &[(Point, Point)]) -> Result<u64, MoveError> {
        if self.players[seat].placed_at.is_none() {
            return Err(MoveError::illegal(msg!(
                "rtlife-error-place-first",
                cells = self.start_cells.to_string()
            )));
        }
        let mine = Owner::player(seat);
        let points = self.players[seat].points;
        // Points changed by the earlier steps of this plan.
        let mut changed: HashMap<Point, Option<Owner>> = HashMap::new();
        let mut spent = 0u64;
        let mut nodes = MAX_SEARCH;
        let area = self.search_area(steps.iter().flat_map(|&(a, b)| [a, b]));
        for (i, &(from, to)) in steps.iter().enumerate() {
            for p in [from, to] {
                if !self.on_field(p) {
                    return Err(self.off_field(p));
                }
            }
            let occupant = |q: Point| changed.get(&q).copied().unwrap_or_else(|| self.at(q));
            match occupant(from) {
                None => {
                    return Err(MoveError::illegal(msg!("rtlife-error-from-empty", from = from.to_string())));
                }
                Some(o) if Some(o) != mine => {
                    return Err(MoveError::illegal(msg!(
                        "rtlife-error-not-yours",
                        from = from.to_string(),
                        owner = self.describe_owner(o)
                    )));
                }
                Some(_) => {}
            }
            if from == to {
                return Err(MoveError::illegal(msg!(
                    "rtlife-error-no-move",
                    from = from.to_string(),
                    to = to.to_string()
                )));
            }
            if let Some(o) = occupant(to) {
                return Err(MoveError::illegal(msg!(
                    "rtlife-error-taken",
                    point = to.to_string(),
                    owner = self.describe_owner(o)
                )));
            }
            let left = points - spent;
            let earlier = if i == 0 { "first" } else { "later" };
            match route(area, from, to, left, &mut nodes, |q| occupant(q).is_none()) {
                Route::Cost(cost) => spent += cost,
                Route::NoPath => {
                    return Err(MoveError::illegal(msg!(
                        "rtlife-error-blocked",
                        from = from.to_string(),
                        to = to.to_string()
                    )));
                }
                Route::OverBudget { at_least } => {
                    return Err(MoveError::illegal(msg!(
                        "rtlife-error-cost",
                        from = from.to_string(),
                        to = to.to_string(),
                        cost = at_least.to_string(),
                        left = left.to_string(),
                        step = earlier
                    )));
                }
                Route::TooFar => {
                    return Err(MoveError::illegal(msg!(
                        "rtlife-error-too-far",
                        from = from.to_string(),
                        to = to.to_string(),
                        max = MAX_SEARCH.to_string()
                    )));
                }
            }
            changed.insert(from, None);
            changed.insert(to, mine);
        }
        Ok(spent)
    }

    /// Seats still in the game.
    fn active(&self) -> Vec<Seat> {
        (0..self.players.len()).filter(|&s| self.players[s].gone.is_none()).collect()
    }

    fn standing(&self) -> Vec<Seat> {
        (0..self.players.len()).filter(|&s| self.players[s].standing()).collect()
    }

    fn placed_count(&self) -> usize {
        self.players.iter().filter(|p| p.placed_at.is_some()).count()
    }

    fn names(&self, seats: &[Seat]) -> String {
        seats.iter().map(|&s| self.players[s].user.as_str()).collect::<Vec<_>>().join(", ")
    }

    fn final_scores(&self) -> Vec<tabula_model::Score> {
        self.players.iter().map(|p| p.score.exact()).collect()
    }

    /// The highest score among `seats` wins; equal scores draw.
    /// `reason` is the id of the message saying why the game ended.
    fn end_by_score(&mut self, seats: &[Seat], reason: &'static str, applied: &mut Applied) {
        let reason = Message::new(reason);
        let best = seats.iter().map(|&s| self.players[s].score).max().unwrap_or(Score::ZERO);
        let leaders: Vec<Seat> = seats.iter().copied().filter(|&s| self.players[s].score == best).collect();
        let outcome = if let [winner] = leaders[..] {
            applied.push(LogEntry::public(
                None,
                msg!(
                    "rtlife-history-wins",
                    user = &self.players[winner].user,
                    score = Arg::decimal(best.to_string()),
                    reason = reason.clone()
                ),
            ));
            Outcome::win(winner, reason.clone())
        } else {
            applied.push(LogEntry::public(
                None,
                msg!(
                    "rtlife-history-draw",
                    users = self.names(&leaders),
                    score = Arg::decimal(best.to_string()),
                    reason = reason.clone()
                ),
            ));
            Outcome::draw(leaders, reason)
        };
        self.outcome = Some(outcome.with_scores(self.final_scores()));
    }

    /// The end after a generation (which eliminated `vanished`) or a
    /// resignation.
    fn settle(&mut self, vanished: &[Seat], after_generation: bool, applied: &mut Applied) {
        let standing = self.standing();
        let anyone_left = !self.active().is_empty();
        if self.placed_count() >= 2 && standing.len() == 1 {
            let winner = standing[0];
            applied.push(LogEntry::public(
                None,
                msg!("history-last-standing", user = &self.players[winner].user),
            ));
            let outcome = Outcome::win(winner, msg!("outcome-last-standing"));
            self.outcome = Some(outcome.with_scores(self.final_scores()));
        } else if standing.is_empty() && !vanished.is_empty() && (self.placed_count() >= 2 || !anyone_left) {
            self.end_by_score(vanished, "rtlife-outcome-vanished", applied);
        } else if !anyone_left {
            let placed: Vec<Seat> =
                (0..self.players.len()).filter(|&s| self.players[s].placed_at.is_some()).collect();
            let everyone: Vec<Seat> = (0..self.players.len()).collect();
            let seats = if placed.is_empty() { everyone } else { placed };
            self.end_by_score(&seats, "rtlife-outcome-nobody-left", applied);
        } else if after_generation && self.generations.is_some_and(|n| self.generation >= n) {
            // The players still on the field; if none is, those who were on
            // it and did not resign. A player who never placed cells has no
            // score to win with: only if nobody ever placed is the game a
            // draw among the players still in it.
            let seats = if !standing.is_empty() {
                standing
            } else {
                let fielded: Vec<Seat> = (0..self.players.len())
                    .filter(|&s| {
                        let p = &self.players[s];
                        p.placed_at.is_some() && p.gone != Some(Gone::Resigned)
                    })
                    .collect();
                if fielded.is_empty() { self.active() } else { fielded }
            };
            self.end_by_score(&seats, "rtlife-outcome-generation-limit", applied);
        }
    }

    fn generation_step(&mut self, applied: &mut Applied) {
        self.field.step(1);
        self.generation += 1;
        let population = self.field.population();
        let mut summary = Vec::new();
        for (s, player) in self.players.iter_mut().enumerate() {
            let (Some(placed_at), None) = (player.placed_at, player.gone) else { continue };
            let cells = Owner::player(s).map_or(0, |o| population.of(o));
            let in_game = self.generation - placed_at;
            if let Some(add) = Score::ratio(cells, in_game) {
                player.score = player.score.saturating_add(add);
            }
            summary.push(format!("{} {cells}", player.user));
        }
        let line = if summary.is_empty() && population.neutral == 0 {
            msg!("rtlife-history-generation-empty", generation = self.generation.to_string())
        } else {
            msg!(
                "rtlife-history-generation",
                generation = self.generation.to_string(),
                cells = summary.join(", "),
                neutral = population.neutral,
                players = if summary.is_empty() { "none" } else { "some" }
            )
        };
        applied.push(LogEntry::public(None, line));
        let vanished: Vec<Seat> = self
            .standing()
            .into_iter()
            .filter(|&s| Owner::player(s).is_none_or(|o| population.of(o) == 0))
            .collect();
        for &s in &vanished {
            self.players[s].gone = Some(Gone::Out);
            applied.push(LogEntry::public(None, msg!("rtlife-history-out", user = &self.players[s].user)));
        }
        self.settle(&vanished, true, applied);
    }

    fn random_place(&self, rng: &mut GameRng) -> Option<RtMove> {
        let n = self.start_cells;
        let cells = self.field.live_cells();
        for _ in 0..20 {
            let seed = match self.edges {
                Edges::Unbounded => {
                    let (cx, cy) = match cells.len() {
                        0 => (0, 0),
                        len => {
                            let c = cells[rng.random_range(0..len)];
                            let p = self.game_point(c.x, c.y);
                            (p.x, p.y)
                        }
                    };
                    Point { x: cx + rng.random_range(-12..=12), y: cy + rng.random_range(-12..=12) }
                }
                _ => Point { x: rng.random_range(0..self.width), y: rng.random_range(0..self.height) },
            };
            if !self.on_field(seed) || self.at(seed).is_some() {
                continue;
            }
            let mut blob = vec![seed];
            let mut taken = HashSet::from([seed]);
            let mut frontier: Vec<Point> = Vec::new();
            let grow_from = |p: Point, taken: &HashSet<Point>, frontier: &mut Vec<Point>| {
                for q in self.neighbours(p) {
                    if !taken.contains(&q) && !frontier.contains(&q) && self.at(q).is_none() {
                        frontier.push(q);
                    }
                }
            };
            grow_from(seed, &taken, &mut frontier);
            while blob.len() < n && !frontier.is_empty() {
                let q = frontier.swap_remove(rng.random_range(0..frontier.len()));
                taken.insert(q);
                blob.push(q);
                grow_from(q, &taken, &mut frontier);
            }
            if blob.len() == n {
                return Some(RtMove::Place(blob));
            }
        }
        None
    }

    fn random_step(&self, seat: Seat, rng: &mut GameRng) -> Option<RtMove> {
        let points = self.players[seat].points;
        if points == 0 {
            return None;
        }
        let mine: Vec<Point> = self
            .field
            .live_cells()
            .into_iter()
            .filter(|c| Some(c.owner) == Owner::player(seat))
            .map(|c| self.game_point(c.x, c.y))
            .collect();
        if mine.is_empty() {
            return None;
        }
        let reach = points.min(3) as i64;
        for _ in 0..30 {
            let from = mine[rng.random_range(0..mine.len())];
            let to = Point {
                x: from.x + rng.random_range(-reach..=reach),
                y: from.y + rng.random_range(-reach..=reach),
            };
            if to == from || !self.on_field(to) || self.at(to).is_some() {
                continue;
            }
            if self.plan_moves(seat, &[(from, to)]).is_ok() {
                return Some(RtMove::Move(vec![(from, to)]));
            }
        }
        None
    }

    fn format_points(points: &[Point]) -> String {
        points.iter().map(Point::to_string).collect::<Vec<_>>().join(",")
    }

    fn format_steps(steps: &[(Point, Point)]) -> String {
        steps.iter().map(|(a, b)| format!("{a}-{b}")).collect::<Vec<_>>().join(",")
    }

    /// Split `a-b,c-d` into pairs; `-` and `,` inside `(x,y)` belong to the point.
    fn parse_steps(text: &str) -> Result<Vec<(Point, Point)>, MoveError> {
        if text.trim().is_empty() {
            return Err(MoveError::malformed(msg!("rtlife-error-no-moves")));
        }
        let mut steps = Vec::new();
        for item in split_outside_parens(text, ',') {
            let item = item.trim();
            if item.is_empty() {
                return Err(MoveError::malformed(msg!("rtlife-error-commas")));
            }
            let parts = split_outside_parens(item, '-');
            let [from, to] = parts[..] else {
                return Err(MoveError::malformed(msg!("rtlife-error-from-to", text = format!("{item:?}"))));
            };
            let from = parse_point(from).map_err(MoveError::Malformed)?;
            let to = parse_point(to).map_err(MoveError::Malformed)?;
            steps.push((from, to));
            if steps.len() > MAX_STEPS {
                return Err(MoveError::malformed(msg!("rtlife-error-too-many", max = MAX_STEPS.to_string())));
            }
        }
        Ok(steps)
    }
}

/// `text` split at each `sep` not inside parentheses.
fn split_outside_parens(text: &str, sep: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut begin = 0;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            c if c == sep && depth == 0 => {
                parts.push(&text[begin..i]);
                begin = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&text[begin..]);
    parts
}

impl Rules for RtLife {
    type Move = RtMove;
    type View = RtLifeView;

    fn info() -> &'static GameInfo {
        &INFO
    }

    fn new(setup: &Setup<'_>, _rng: &mut GameRng) -> Result<Self, SetupError> {
        Self::set_up(setup)
    }

    fn to_move(&self) -> Turn {
        if self.outcome.is_some() { Turn::Over } else { Turn::Clock }
    }

    fn parse_move(&self, _seat: Seat, text: &str) -> Result<RtMove, MoveError> {
        let t = text.trim();
        let (verb, rest) = match t.split_once(char::is_whitespace) {
            Some((v, r)) => (v.to_ascii_lowercase(), r.trim()),
            None => (t.to_ascii_lowercase(), ""),
        };
        let place = |list: &str| -> Result<RtMove, MoveError> {
            if list.is_empty() {
                return Err(MoveError::malformed(msg!(
                    "rtlife-error-place-what",
                    cells = self.start_cells.to_string()
                )));
            }
            parse_points(list, self.start_cells).map(RtMove::Place).map_err(MoveError::Malformed)
        };
        match verb.as_str() {
            "" => Err(MoveError::malformed(msg!("rtlife-error-empty"))),
            "place" | "join" => place(rest),
            "move" => Self::parse_steps(rest).map(RtMove::Move),
            _ if split_outside_parens(t, '-').len() > 1 => Self::parse_steps(t).map(RtMove::Move),
            _ if t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '(') && !t.contains(' ') => place(t),
            _ => Err(MoveError::malformed(msg!(
                "rtlife-error-not-a-move",
                text = format!("{:?}", t.split_whitespace().next().unwrap_or(t))
            ))),
        }
    }

    fn format_move(&self, mv: &RtMove) -> String {
        match mv {
            RtMove::Place(points) => format!("place {}", Self::format_points(points)),
            RtMove::Move(steps) => format!("move {}", Self::format_steps(steps)),
        }
    }

    fn check_move(&self, seat: Seat, mv: &RtMove) -> Result<(), MoveError> {
        self.check_seat(seat)?;
        match mv {
            RtMove::Place(points) => self.check_place(seat, points),
            RtMove::Move(steps) => self.plan_moves(seat, steps).map(|_| ()),
        }
    }

    fn apply_move(&mut self, seat: Seat, mv: RtMove, _ctx: &mut Ctx<'_>) -> Applied {
        match mv {
            RtMove::Place(points) => {
                let owner = Owner::player(seat);
                for &p in &points {
                    self.put(p, owner);
                }
                let player = &mut self.players[seat];
                player.placed_at = Some(self.generation);
                let (user, cells) = (&player.user, Self::format_points(&points));
                let line = if player.joined {
                    msg!("rtlife-history-joins", user = user, cells = cells)
                } else {
                    msg!("rtlife-history-places", user = user, cells = cells)
                };
                Applied::line(Some(seat), line)
            }
            RtMove::Move(steps) => {
                // check_move accepted the plan, so it has a cost.
                let cost = self.plan_moves(seat, &steps).unwrap_or(0);
                for &(from, to) in &steps {
                    let (a, b) = (self.engine_xy(from), self.engine_xy(to));
                    let _ = self.field.move_cell(a, b);
                }
                let player = &mut self.players[seat];
                player.points = player.points.saturating_sub(cost);
                let text = msg!(
                    "rtlife-history-moves",
                    user = &player.user,
                    steps = Self::format_steps(&steps),
                    points = cost
                );
                Applied::line(Some(seat), text)
            }
        }
    }

    fn resign(&mut self, seat: Seat, _ctx: &mut Ctx<'_>) -> Applied {
        self.players[seat].gone = Some(Gone::Resigned);
        if let Some(owner) = Owner::player(seat) {
            for c in self.field.live_cells() {
                if c.owner == owner {
                    let _ = self.field.set(c.x, c.y, Some(Owner::Neutral));
                }
            }
        }
        let mut applied = Applied::line(Some(seat), msg!("history-resigns", user = &self.players[seat].user));
        self.settle(&[], false, &mut applied);
        applied
    }

    fn legal_moves(&self, _seat: Seat) -> Option<Vec<RtMove>> {
        None
    }

    fn random_move(&self, seat: Seat, rng: &mut GameRng) -> Option<RtMove> {
        self.check_seat(seat).ok()?;
        if self.players[seat].placed_at.is_none() {
            self.random_place(rng)
        } else {
            self.random_step(seat, rng)
        }
    }

    /// The field and the players: a state counts its own data, as a cache
    /// holding thousands of games must know.
    fn memory(&self) -> usize {
        use std::mem::size_of;
        size_of::<Self>()
            + self.field.heap_bytes()
            + self.players.iter().map(|p| size_of::<Player>() + p.user.capacity()).sum::<usize>()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn view(&self, viewer: Viewer, now: Timestamp) -> RtLifeView {
        render::view(self, viewer, now)
    }

    fn render_text(view: &RtLifeView, lang: Lang) -> String {
        render::text(view, lang)
    }

    fn render_svg(view: &RtLifeView, lang: Lang) -> String {
        render::svg(view, lang)
    }

    fn click_map(view: &RtLifeView) -> Option<tabula_model::ClickMap> {
        render::click_map(view)
    }

    fn is_active(&self, seat: Seat) -> bool {
        self.players.get(seat).is_some_and(|p| p.gone.is_none())
    }

    fn next_clock(&self) -> Option<Timestamp> {
        if self.outcome.is_some() {
            return None;
        }
        self.tick_due(self.ticks.checked_add(1)?)
    }

    fn clock(&mut self, _ctx: &mut Ctx<'_>) -> Applied {
        let mut applied = Applied::default();
        self.ticks += 1;
        let population = self.field.population();
        for (s, player) in self.players.iter_mut().enumerate() {
            if player.standing() {
                let cells = Owner::player(s).map_or(0, |o| population.of(o));
                player.points = player.points.saturating_add((cells / 10).max(1));
            }
        }
        if self.ticks.is_multiple_of(self.gen_ticks) {
            self.generation_step(&mut applied);
        }
        applied
    }

    fn join(&mut self, user: &str) -> Result<Seat, MoveError> {
        if self.outcome.is_some() {
            return Err(MoveError::GameOver);
        }
        if self.players.iter().any(|p| p.user.eq_ignore_ascii_case(user)) {
            return Err(MoveError::illegal(msg!("move-error-already-in", user = user)));
        }
        if self.players.len() >= self.max_players {
            return Err(MoveError::illegal(msg!(
                "rtlife-error-full",
                players = self.max_players.to_string()
            )));
        }
        self.players.push(Player::new(user, true));
        Ok(self.players.len() - 1)
    }
}
