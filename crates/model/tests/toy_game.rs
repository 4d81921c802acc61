//! A small game that exercises the shared model: turns, secret moves with a
//! reveal, resignation, proposals, undo and replay.

use serde::Serialize;
use tabula_model::testing::{SimConfig, random_sim};
use tabula_model::*;

/// Players alternately take 1 to 3 from a pile; who takes the last wins.
/// Before the first take, each player secretly names a lucky number (a
/// simultaneous, hidden move revealed once both are in).
#[derive(Clone, Debug)]
struct Pile {
    pile: u32,
    lucky: Vec<Option<u32>>,
    next: Seat,
    resigned: Vec<bool>,
    winner: Option<Seat>,
}

#[derive(Serialize)]
struct PileView {
    pile: u32,
    lucky: Vec<Option<u32>>,
}

static INFO: GameInfo = GameInfo {
    kind: "pile",
    min_players: 2,
    max_players: 2,
    dynamics: Dynamics::Sequential,
    hidden_information: true,
    open_join: false,
    options: &[OptionSpec {
        name: "size",
        kind: OptionKind::Int { min: 1, max: 100 },
        default: Some("10"),
        help: "",
    }],
};

impl Rules for Pile {
    type Move = u32;
    type View = PileView;
    fn info() -> &'static GameInfo {
        &INFO
    }
    fn new(setup: &Setup<'_>, _rng: &mut GameRng) -> Result<Self, SetupError> {
        Ok(Pile {
            pile: setup.options.int("size").unwrap() as u32,
            lucky: vec![None; setup.players.len()],
            next: 0,
            resigned: vec![false; setup.players.len()],
            winner: None,
        })
    }
    fn to_move(&self) -> Turn {
        if self.winner.is_some() {
            return Turn::Over;
        }
        let missing: Seats = (0..2).filter(|&s| self.lucky[s].is_none()).collect();
        if missing.is_empty() { Turn::Player(self.next) } else { Turn::Simultaneous(missing) }
    }
    fn parse_move(&self, _seat: Seat, text: &str) -> Result<u32, MoveError> {
        text.trim().parse().map_err(|_| MoveError::malformed(format!("{text:?} is not a number")))
    }
    fn format_move(&self, mv: &u32) -> String {
        mv.to_string()
    }
    fn check_move(&self, seat: Seat, mv: &u32) -> Result<(), MoveError> {
        match self.to_move() {
            Turn::Simultaneous(set) if !set.contains(seat) => Err(MoveError::not_your_turn("")),
            Turn::Simultaneous(_) => Ok(()),
            _ if !(1..=3).contains(mv) || *mv > self.pile => Err(MoveError::illegal("take 1 to 3")),
            _ => Ok(()),
        }
    }
    fn apply_move(&mut self, seat: Seat, mv: u32, _ctx: &mut Ctx<'_>) -> Applied {
        if self.lucky.iter().any(Option::is_none) {
            self.lucky[seat] = Some(mv);
            let mut a = Applied::default();
            a.push(LogEntry::secret(seat, format!("lucky {mv}"), 1, "a lucky number"));
            if self.lucky.iter().all(Option::is_some) {
                a.reveals.push(1);
            }
            return a;
        }
        self.pile -= mv;
        if self.pile == 0 {
            self.winner = Some(seat);
        }
        self.next = 1 - seat;
        Applied::line(Some(seat), format!("takes {mv}"))
    }
    fn resign(&mut self, seat: Seat, _ctx: &mut Ctx<'_>) -> Applied {
        self.resigned[seat] = true;
        self.winner = Some(1 - seat);
        Applied::line(Some(seat), "resigns")
    }
    fn legal_moves(&self, seat: Seat) -> Option<Vec<u32>> {
        Some((1..=3).filter(|m| self.check_move(seat, m).is_ok()).collect())
    }
    fn random_move(&self, seat: Seat, rng: &mut GameRng) -> Option<u32> {
        use rand::seq::IndexedRandom;
        self.legal_moves(seat)?.choose(rng).copied()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.winner.map(|w| Outcome::win(w, "took the last stone"))
    }
    fn view(&self, viewer: Viewer, _now: Timestamp) -> PileView {
        let all_in = self.lucky.iter().all(Option::is_some);
        let lucky =
            (0..2).map(|s| if all_in || viewer.seat() == Some(s) { self.lucky[s] } else { None }).collect();
        PileView { pile: self.pile, lucky }
    }
    fn render_text(view: &PileView, _lang: tabula_model::Lang) -> String {
        format!("pile {} lucky {:?}", view.pile, view.lucky)
    }
    fn render_svg(view: &PileView, _lang: tabula_model::Lang) -> String {
        format!("{}<text>{}</text></svg>", svg::open(10.0, 10.0), view.pile)
    }
    fn is_active(&self, seat: Seat) -> bool {
        !self.resigned[seat]
    }
    fn without_others_pending(&self, seat: Seat) -> Self {
        let mut mine = self.clone();
        if self.lucky.iter().any(Option::is_none) {
            mine.lucky[1 - seat] = None;
        }
        mine
    }
}

static KIND: Kind<Pile> = Kind::new();

fn mv(seat: Seat, text: &str) -> Event {
    Event { at: 0, seat: Some(seat), action: EventAction::Move(text.into()) }
}

fn new_game() -> Game {
    let opts = Options::parse(&INFO, &["-size=5"]).unwrap();
    Game::create(&KIND, opts, vec!["ned".into(), "ted".into()], 7, 0).unwrap()
}

#[test]
fn secrets_are_hidden_until_revealed() {
    let mut g = new_game();
    g.submit(mv(0, "7")).unwrap();
    assert_eq!(g.history_for(Viewer::Player(1))[0].entry.text, "a lucky number");
    assert_eq!(g.history_for(Viewer::Player(0))[0].entry.text, "lucky 7");
    assert_eq!(g.render_text(Viewer::Player(1), 0, tabula_model::Lang::En), "pile 5 lucky [None, None]");
    // Replacing the secret is the game's business; here a second submission is refused.
    assert!(matches!(g.submit(mv(0, "8")), Err(MoveError::NotYourTurn(_))));
    g.submit(mv(1, "9")).unwrap();
    assert_eq!(g.history_for(Viewer::Observer)[0].entry.text, "lucky 7");
    assert_eq!(g.render_text(Viewer::Observer, 0, tabula_model::Lang::En), "pile 5 lucky [Some(7), Some(9)]");
}

#[test]
fn a_preview_that_completes_a_step_shows_the_movers_part_only() {
    let mut g = new_game();
    g.submit(mv(0, "7")).unwrap();
    let before = g.record().clone();
    let p = g.preview(1, "9", 0).unwrap();
    assert!(p.completes_step);
    for viewer in [Viewer::Player(1), Viewer::Observer] {
        let seen = format!(
            "{} {:?}",
            p.game.render_text(viewer, 0, tabula_model::Lang::En),
            p.game.history_for(viewer)
        );
        assert!(!seen.contains("lucky 7") && !seen.contains("Some(7)"), "{viewer:?} sees {seen}");
    }
    assert_eq!(
        p.game.render_text(Viewer::Player(1), 0, tabula_model::Lang::En),
        "pile 5 lucky [None, Some(9)]"
    );
    assert_eq!(p.game.history_for(Viewer::Player(1)).last().unwrap().entry.text, "lucky 9");
    assert_eq!(g.record(), &before, "a preview changes nothing");
    // A preview refuses what the move would refuse, with the same words.
    g.submit(mv(1, "9")).unwrap();
    assert_eq!(g.preview(1, "1", 0).unwrap_err().to_string(), "it is not your turn; it is ned's turn");
    // Out of simultaneous steps the preview is the move made on a copy.
    let p = g.preview(0, "2", 0).unwrap();
    assert!(!p.completes_step);
    assert_eq!(
        p.game.render_text(Viewer::Observer, 0, tabula_model::Lang::En),
        "pile 3 lucky [Some(7), Some(9)]"
    );
}

#[test]
fn turn_and_errors_change_nothing() {
    let mut g = new_game();
    g.submit(mv(0, "1")).unwrap();
    g.submit(mv(1, "1")).unwrap();
    let before = g.record().clone();
    let e = g.submit(mv(1, "2")).unwrap_err();
    assert_eq!(e.to_string(), "it is not your turn; it is ned's turn");
    assert_eq!(g.submit(mv(0, "4")).unwrap_err().to_string(), "take 1 to 3");
    assert_eq!(g.submit(mv(0, "x")).unwrap_err().to_string(), "\"x\" is not a number");
    assert_eq!(g.record(), &before);
    assert_eq!(g.moves(), 2);
}

#[test]
fn undo_needs_everyone_and_replays() {
    let mut g = new_game();
    for (s, t) in [(0, "1"), (1, "1"), (0, "3")] {
        g.submit(mv(s, t)).unwrap();
    }
    assert_eq!(g.render_text(Viewer::Observer, 0, tabula_model::Lang::En), "pile 2 lucky [Some(1), Some(1)]");
    // Every line's JSON is made and kept now, before the undo marks a line.
    tabula_model::testing::assert_kept_json_fresh(&g, 0);
    let propose = Event { at: 0, seat: Some(1), action: EventAction::Propose(ProposalKind::Undo) };
    g.submit(propose).unwrap();
    assert!(g.proposal().is_some());
    g.submit(Event { at: 0, seat: Some(0), action: EventAction::Accept }).unwrap();
    assert!(g.proposal().is_none());
    assert_eq!(g.render_text(Viewer::Observer, 0, tabula_model::Lang::En), "pile 5 lucky [Some(1), Some(1)]");
    assert_eq!(g.to_move(), Turn::Player(0));
    // The taken-back line's kept JSON says so, as the line does.
    tabula_model::testing::assert_kept_json_fresh(&g, 0);
    assert!(g.history_for(Viewer::Observer).iter().any(|h| h.undone));
    let replayed = Game::replay(&KIND, g.record().clone()).unwrap();
    assert_eq!(
        replayed.render_text(Viewer::Observer, 0, tabula_model::Lang::En),
        g.render_text(Viewer::Observer, 0, tabula_model::Lang::En)
    );
    assert_eq!(replayed.history_for(Viewer::Observer), g.history_for(Viewer::Observer));
}

#[test]
fn draw_by_agreement_and_rejection() {
    let mut g = new_game();
    g.submit(Event { at: 0, seat: Some(0), action: EventAction::Propose(ProposalKind::Draw) }).unwrap();
    g.submit(Event { at: 0, seat: Some(1), action: EventAction::Reject }).unwrap();
    assert!(!g.is_over());
    g.submit(Event { at: 0, seat: Some(0), action: EventAction::Propose(ProposalKind::Draw) }).unwrap();
    g.submit(Event { at: 0, seat: Some(1), action: EventAction::Accept }).unwrap();
    assert!(g.is_over());
    assert_eq!(g.outcome().unwrap().result_for(0), SeatResult::Draw);
}

#[test]
fn prefix_replay() {
    let mut g = new_game();
    for (s, t) in [(0, "1"), (1, "1"), (0, "3"), (1, "1")] {
        g.submit(mv(s, t)).unwrap();
    }
    let p = Game::replay_prefix(&KIND, g.record().clone(), 3).unwrap();
    assert_eq!(p.moves(), 3);
    assert_eq!(p.render_text(Viewer::Observer, 0, tabula_model::Lang::En), "pile 2 lucky [Some(1), Some(1)]");
}

#[test]
fn random_playouts() {
    random_sim(&KIND, &SimConfig { players: 2, games: 30, ..SimConfig::default() });
}

/// A game where a secret may be replaced until both are in: the replaced
/// secret is never revealed to the other player before the end.
mod replaceable {
    use super::*;

    #[derive(Clone, Debug)]
    struct Sealed {
        bids: Vec<Option<u32>>,
        done: bool,
    }

    #[derive(serde::Serialize)]
    struct SealedView;

    static INFO: GameInfo = GameInfo {
        kind: "sealed",
        min_players: 2,
        max_players: 2,
        dynamics: Dynamics::Simultaneous,
        hidden_information: true,
        open_join: false,
        options: &[],
    };

    impl Rules for Sealed {
        type Move = u32;
        type View = SealedView;
        fn info() -> &'static GameInfo {
            &INFO
        }
        fn new(_: &Setup<'_>, _: &mut GameRng) -> Result<Self, SetupError> {
            Ok(Sealed { bids: vec![None, None], done: false })
        }
        fn to_move(&self) -> Turn {
            if self.done {
                Turn::Over
            } else if self.bids.iter().all(Option::is_some) {
                // The bids are revealed and the game goes on.
                Turn::Player(0)
            } else {
                Turn::Simultaneous((0..2).filter(|&s| self.bids[s].is_none()).collect())
            }
        }
        fn parse_move(&self, _: Seat, text: &str) -> Result<u32, MoveError> {
            text.parse().map_err(|_| MoveError::malformed("a number"))
        }
        fn format_move(&self, mv: &u32) -> String {
            mv.to_string()
        }
        fn check_move(&self, seat: Seat, _: &u32) -> Result<(), MoveError> {
            if self.bids.iter().all(Option::is_some) && seat != 0 {
                return Err(MoveError::not_your_turn(""));
            }
            Ok(())
        }
        fn apply_move(&mut self, seat: Seat, mv: u32, _: &mut Ctx<'_>) -> Applied {
            self.bids[seat] = Some(mv);
            let mut a = Applied::default();
            a.push(LogEntry::secret(seat, format!("bid {mv}"), 7, "a bid"));
            if self.bids.iter().all(Option::is_some) {
                a.reveals.push(7);
            }
            a
        }
        fn resign(&mut self, _: Seat, _: &mut Ctx<'_>) -> Applied {
            self.done = true;
            Applied::line(None, "resigns")
        }
        fn legal_moves(&self, _: Seat) -> Option<Vec<u32>> {
            None
        }
        fn random_move(&self, _: Seat, _: &mut GameRng) -> Option<u32> {
            None
        }
        fn outcome(&self) -> Option<Outcome> {
            self.done.then(|| Outcome::draw(vec![], "bids in"))
        }
        fn view(&self, _: Viewer, _: Timestamp) -> SealedView {
            SealedView
        }
        fn render_text(_: &SealedView, _: tabula_model::Lang) -> String {
            String::new()
        }
        fn render_svg(_: &SealedView, _: tabula_model::Lang) -> String {
            String::new()
        }
        fn is_active(&self, _: Seat) -> bool {
            true
        }
    }

    static KIND: Kind<Sealed> = Kind::new();

    #[test]
    fn a_replaced_secret_is_never_revealed_before_the_end() {
        let mut g = Game::create(&KIND, Options::default(), vec!["a".into(), "b".into()], 1, 0).unwrap();
        g.submit(mv(0, "5")).unwrap();
        g.submit(mv(0, "6")).unwrap();
        let h = g.history_for(Viewer::Player(1));
        assert_eq!(h[0].entry.text, "a bid");
        assert_eq!(h[1].entry.text, "a bid");
        assert_eq!(g.history_for(Viewer::Player(0))[0].entry.text, "bid 5");
        // The game is still running when the group is revealed in this check.
        let mut copy = g.clone();
        copy.submit(mv(1, "9")).unwrap();
        assert!(!copy.is_over());
        let seen: Vec<String> =
            copy.history_for(Viewer::Player(1)).into_iter().map(|h| h.entry.text).collect();
        assert_eq!(seen, ["a bid", "bid 6", "bid 9"]);
        // At the end everything is shown.
        copy.submit(Event { at: 0, seat: Some(1), action: EventAction::Resign { reason: None } }).unwrap();
        let seen: Vec<String> =
            copy.history_for(Viewer::Player(1)).into_iter().map(|h| h.entry.text).collect();
        assert!(seen.contains(&"bid 5".to_string()));
    }
}
