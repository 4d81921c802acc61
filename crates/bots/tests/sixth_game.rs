//! A sixth game added the documented way (`docs/adding-a-game.md`): rules
//! behind `Rules`, a picture with its click layout, an evaluation for bots.
//! Nothing outside its own code names it, yet it gets what every game gets:
//! a clickable board, the built-in bots, the shared random playouts and the
//! move fuzzing of every game. A toy tic-tac-toe, small enough to read.

use rand::{Rng, SeedableRng};
use serde::Serialize;
use tabula_bots::BuiltinBot;
use tabula_model::testing::{SimConfig, fuzz_moves, random_sim};
use tabula_model::{
    Applied, ClickMap, Ctx, Dynamics, Event, EventAction, Game, GameInfo, GameKind, GameRng, Kind, MoveError,
    Options, Outcome, Rules, Seat, SeatResult, Setup, SetupError, Turn, Viewer,
};

static INFO: GameInfo = GameInfo {
    kind: "toy",
    min_players: 2,
    max_players: 2,
    dynamics: Dynamics::Sequential,
    hidden_information: false,
    open_join: false,
    options: &[],
};

static TOY: Kind<Toy> = Kind::new();

const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// Where the picture's grid starts and how big a point is: the drawing and
/// the click layout share them, as the real games do.
const ORIGIN: f64 = 10.0;
const SIDE: f64 = 30.0;

#[derive(Clone)]
struct Toy {
    /// Points `a1 b1 c1 a2 ..`: who claimed each.
    points: [Option<Seat>; 9],
    next: Seat,
    resigned: Option<Seat>,
}

#[derive(Serialize)]
struct ToyView {
    /// Rows from the top (row 3) down: `x`, `o` or `.`.
    rows: Vec<String>,
}

fn name(point: usize) -> String {
    format!("{}{}", (b'a' + (point % 3) as u8) as char, point / 3 + 1)
}

impl Toy {
    fn winner(&self) -> Option<Seat> {
        LINES.iter().find_map(|l| {
            let first = self.points[l[0]]?;
            l.iter().all(|&p| self.points[p] == Some(first)).then_some(first)
        })
    }

    fn empty(&self) -> Vec<usize> {
        (0..9).filter(|&p| self.points[p].is_none()).collect()
    }

    /// Lines still open to `seat` (none of the other's points), each worth
    /// the points it already holds squared; the opponent's subtracted.
    fn evaluate(&self, seat: Seat) -> f64 {
        let worth = |who: Seat| -> f64 {
            LINES
                .iter()
                .filter(|l| l.iter().all(|&p| self.points[p] != Some(1 - who)))
                .map(|l| {
                    let held = l.iter().filter(|&&p| self.points[p] == Some(who)).count() as f64;
                    1.0 + held * held
                })
                .sum()
        };
        worth(seat) - worth(1 - seat)
    }
}

impl Rules for Toy {
    type Move = usize;
    type View = ToyView;

    const EVALUATE: Option<tabula_model::Evaluation<Self>> = Some(Toy::evaluate);

    fn info() -> &'static GameInfo {
        &INFO
    }

    fn new(_setup: &Setup<'_>, _rng: &mut GameRng) -> Result<Self, SetupError> {
        Ok(Toy { points: [None; 9], next: 0, resigned: None })
    }

    fn to_move(&self) -> Turn {
        if self.outcome().is_some() { Turn::Over } else { Turn::Player(self.next) }
    }

    fn parse_move(&self, _seat: Seat, text: &str) -> Result<usize, MoveError> {
        match text.trim().as_bytes() {
            [c @ b'a'..=b'c', r @ b'1'..=b'3'] => Ok(usize::from(r - b'1') * 3 + usize::from(c - b'a')),
            _ => Err(MoveError::malformed(format!("{text:?} is not a point (a1 to c3)"))),
        }
    }

    fn format_move(&self, mv: &usize) -> String {
        name(*mv)
    }

    fn check_move(&self, _seat: Seat, mv: &usize) -> Result<(), MoveError> {
        match self.points.get(*mv) {
            Some(None) => Ok(()),
            _ => Err(MoveError::illegal(format!("{} is taken", name(*mv)))),
        }
    }

    fn apply_move(&mut self, seat: Seat, mv: usize, _ctx: &mut Ctx<'_>) -> Applied {
        self.points[mv] = Some(seat);
        self.next = 1 - seat;
        Applied::line(Some(seat), format!("claims {}", name(mv)))
    }

    fn resign(&mut self, seat: Seat, _ctx: &mut Ctx<'_>) -> Applied {
        self.resigned = Some(seat);
        Applied::line(Some(seat), "resigns")
    }

    fn legal_moves(&self, _seat: Seat) -> Option<Vec<usize>> {
        Some(self.empty())
    }

    fn random_move(&self, _seat: Seat, rng: &mut GameRng) -> Option<usize> {
        let empty = self.empty();
        (!empty.is_empty()).then(|| empty[rng.random_range(0..empty.len())])
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(loser) = self.resigned {
            return Some(Outcome::win(1 - loser, "the other resigned"));
        }
        if let Some(w) = self.winner() {
            return Some(Outcome::win(w, "three in a row"));
        }
        self.empty().is_empty().then(|| Outcome::draw(vec![0, 1], "the board is full"))
    }

    fn view(&self, _viewer: Viewer, _now: tabula_model::Timestamp) -> ToyView {
        let mark = |p: Option<Seat>| match p {
            Some(0) => 'x',
            Some(_) => 'o',
            None => '.',
        };
        ToyView {
            rows: (0..3).rev().map(|r| (0..3).map(|c| mark(self.points[r * 3 + c])).collect()).collect(),
        }
    }

    fn render_text(view: &ToyView, _lang: tabula_model::Lang) -> String {
        view.rows.join("\n")
    }

    fn render_svg(view: &ToyView, _lang: tabula_model::Lang) -> String {
        let mut out = String::from("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"110\" height=\"110\">");
        for (r, row) in view.rows.iter().enumerate() {
            for (c, mark) in row.chars().enumerate() {
                out.push_str(&format!(
                    "<rect x=\"{}\" y=\"{}\" width=\"{SIDE}\" height=\"{SIDE}\" fill=\"{}\"><title>{}</title></rect>",
                    ORIGIN + SIDE * c as f64,
                    ORIGIN + SIDE * r as f64,
                    if mark == '.' { "#eeeeee" } else { "#3366cc" },
                    name((2 - r) * 3 + c),
                ));
            }
        }
        out + "</svg>"
    }

    fn click_map(_view: &ToyView) -> Option<ClickMap> {
        Some(ClickMap::Grid { x0: ORIGIN, y0: ORIGIN, cell: SIDE, columns: 3, rows: 3, max: 1 })
    }

    fn is_active(&self, seat: Seat) -> bool {
        self.resigned != Some(seat)
    }
}

fn new_game(seed: u64) -> Game {
    let options = Options::parse::<&str>(TOY.info(), &[]).unwrap();
    Game::create(&TOY, options, vec!["ann".into(), "bob".into()], seed, 0).unwrap()
}

#[test]
fn its_board_is_clickable() {
    let mut game = new_game(1);
    game.submit(Event { at: 0, seat: Some(0), action: EventAction::Move("b2".into()) }).unwrap();
    let picture = game.picture(Viewer::Player(1), 0, tabula_model::Lang::En);
    let map = picture.click.expect("a click layout comes with the picture");
    let mut names = Vec::new();
    for part in picture.svg.split("<rect ").skip(1) {
        let attr = |a: &str| -> f64 {
            let from = part.find(&format!("{a}=\"")).unwrap() + a.len() + 2;
            part[from..from + part[from..].find('"').unwrap()].parse().unwrap()
        };
        let title = part.split("<title>").nth(1).unwrap().split("</title>").next().unwrap();
        let label = map.label_at(attr("x") + SIDE / 2.0, attr("y") + SIDE / 2.0);
        assert_eq!(label.as_deref(), Some(title), "a click on {title}");
        names.push(title.to_string());
    }
    assert_eq!(names.len(), 9);
    // What a click names is a move the game takes.
    assert!(game.state().check(1, "a3").is_ok());
    assert!(game.state().check(1, "b2").is_err());
}

#[test]
fn the_built_in_bots_play_it() {
    assert!(TOY.evaluates() && !TOY.has_playout());
    for name in ["random", "greedy", "mcts:200"] {
        BuiltinBot::named(name).unwrap().supports(&TOY).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    let refused = BuiltinBot::named("center").unwrap().supports(&TOY).unwrap_err();
    // Outside the registry the toy has no catalogue: its command word names it.
    assert_eq!(refused.to_string(), "the center bot does not play toy");

    // Greedy (the game's evaluation, one move ahead) against random, and
    // mcts against greedy: every move legal, every game to its end.
    for (first, second) in [("greedy", "random"), ("mcts:300", "greedy")] {
        let bots = [BuiltinBot::named(first).unwrap(), BuiltinBot::named(second).unwrap()];
        let mut score = 0i64;
        for seed in 0..20 {
            let mut game = new_game(seed);
            let mut rng = tabula_model::rng_for(seed, 0);
            // Alternate who opens.
            let opener = (seed % 2) as usize;
            while let Turn::Player(seat) = game.to_move() {
                let bot = &bots[seat ^ opener];
                let mv = bot.choose(&game, seat, &mut rng).expect("a move on an open board");
                game.submit(Event { at: 0, seat: Some(seat), action: EventAction::Move(mv.clone()) })
                    .unwrap_or_else(|e| panic!("{first} v {second}: {mv} refused: {e}"));
            }
            let outcome = game.outcome().expect("over");
            score += match outcome.result_for(opener) {
                SeatResult::Win => 1,
                SeatResult::Draw => 0,
                SeatResult::Loss => -1,
            };
        }
        eprintln!("{first} against {second}: {score:+} over 20 games");
        assert!(score > 0, "{first} did not outplay {second} ({score:+} over 20 games)");
    }
}

#[test]
fn it_runs_the_shared_playouts_and_fuzzing() {
    random_sim(&TOY, &SimConfig { games: 50, ..SimConfig::default() });
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let words = ["a1", "b2", "c3", "a3", "c1", "", "", "d4", "b", "resign", "b2 ", "\u{0}"];
    for _ in 0..2000 {
        let mut data = vec![rng.random::<u8>(), rng.random::<u8>()];
        let lines = rng.random_range(0..12);
        let text: Vec<&str> = (0..lines).map(|_| words[rng.random_range(0..words.len())]).collect();
        data.extend_from_slice(text.join("\n").as_bytes());
        fuzz_moves(&[&TOY], &data);
    }
}
