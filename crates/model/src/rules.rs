use std::fmt;
use std::marker::PhantomData;

use serde::Serialize;

use crate::{
    ClickMap, GameInfo, GameRng, Lang, Message, MoveError, Options, Outcome, Picture, Seat, SetupError,
    Timestamp, Turn, Viewer,
};

/// What a game is set up from.
#[derive(Clone, Debug)]
pub struct Setup<'a> {
    /// Resolved options.
    pub options: &'a Options,
    /// User ids in turn order.
    pub players: &'a [String],
    /// When the game was created.
    pub start: Timestamp,
}

/// What an event may use besides the state: its time and its own generator.
pub struct Ctx<'a> {
    /// When the event happened.
    pub now: Timestamp,
    /// The event's random stream (see [`crate::rng_for`]).
    pub rng: &'a mut GameRng,
    /// Whether the caller keeps the history lines of [`Applied`]. When it
    /// does not (a search bot's playouts, games between built-in bots), the
    /// rules may leave them and their reveal groups out rather than format
    /// text no one reads; the state must come out the same either way.
    pub history: bool,
}

/// A line for the game's history. Secret lines show their `public` text to
/// everyone but their author until the game reveals their key. Its texts
/// are catalogue messages, put into words in each reader's language when
/// the history is shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntry {
    /// Who acted (`None` for the game itself: automatic passes, clock ticks).
    pub seat: Option<Seat>,
    /// The full text, as the author (and everyone after the reveal) sees it.
    pub text: Message,
    /// Present while the entry is secret.
    pub hidden: Option<Hidden>,
}

/// How a secret history line looks to others, and what reveals it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hidden {
    /// The reveal group: [`Applied::reveals`] with this key makes it public.
    pub key: u32,
    /// What others see until then (`"ted submitted a rule"`).
    pub public: Message,
}

impl LogEntry {
    /// A public line.
    pub fn public(seat: Option<Seat>, text: impl Into<Message>) -> Self {
        LogEntry { seat, text: text.into(), hidden: None }
    }

    /// A secret line in reveal group `key`.
    pub fn secret(seat: Seat, text: impl Into<Message>, key: u32, public: impl Into<Message>) -> Self {
        LogEntry { seat: Some(seat), text: text.into(), hidden: Some(Hidden { key, public: public.into() }) }
    }
}

/// What an applied event changed, for the history and for notifications.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// Lines to add to the history, in order.
    pub entries: Vec<LogEntry>,
    /// Reveal groups this event makes public (all groups are public once the game is over).
    pub reveals: Vec<u32>,
}

impl Applied {
    /// One public line.
    pub fn line(seat: Option<Seat>, text: impl Into<Message>) -> Self {
        Applied { entries: vec![LogEntry::public(seat, text)], reveals: Vec::new() }
    }

    /// Add a line.
    pub fn push(&mut self, entry: LogEntry) {
        self.entries.push(entry);
    }
}

/// A game's evaluation of a position for a seat ([`Rules::EVALUATE`]).
pub type Evaluation<R> = fn(&R, Seat) -> f64;

/// A game's heuristic move for a seat in search bots' playouts
/// ([`Rules::PLAYOUT`]).
pub type Playout<R> = fn(&R, Seat, &mut GameRng) -> Option<<R as Rules>::Move>;

/// The rules of one game: pure, deterministic, I/O-free.
///
/// The model follows OpenSpiel's `State`: the caller asks who acts
/// ([`Rules::to_move`]), parses and checks a move, and applies it; randomness
/// comes only from the [`Ctx`] generator. Callers never apply a move that
/// [`Rules::check_move`] refused, so [`Rules::apply_move`] need not re-check.
/// Hidden information leaves the state only through [`Rules::view`], and the
/// renderers see nothing but the view.
pub trait Rules: Clone + Send + Sync + 'static {
    /// A move of this game.
    type Move: Clone + fmt::Debug + PartialEq;
    /// What one viewer may see; serialised for the API and bots.
    type View: Serialize;

    /// Static facts and the option table.
    fn info() -> &'static GameInfo;

    /// Set up a new game. Option combinations that contradict each other are
    /// refused here with a message naming them.
    fn new(setup: &Setup<'_>, rng: &mut GameRng) -> Result<Self, SetupError>;

    /// Whether a game set up with `options` keeps anything from some player
    /// (a secret move, a sequence drawn at random and not yet shown). Such a
    /// game refuses a chosen `-seed`, from which anyone could work out its
    /// hidden draws. By default, whether the game has hidden information at
    /// all; a game whose secrets come only with some options says which.
    fn hides_information(_options: &Options) -> bool {
        Self::info().hidden_information
    }

    /// Who must act now.
    fn to_move(&self) -> Turn;

    /// Parse `text` as a move by `seat`. Errors say what is wrong with the text.
    fn parse_move(&self, seat: Seat, text: &str) -> Result<Self::Move, MoveError>;

    /// The canonical text of a move; `parse_move` of it gives the move back.
    fn format_move(&self, mv: &Self::Move) -> String;

    /// [`Rules::format_move`] appended to `out`. Games whose moves are
    /// written often (a tournament between built-in bots writes every move
    /// a bot chooses) write them in place, without a new string each time.
    fn write_move(&self, mv: &Self::Move, out: &mut String) {
        out.push_str(&self.format_move(mv));
    }

    /// Whether `seat` may make `mv` now, and if not which rule forbids it.
    fn check_move(&self, seat: Seat, mv: &Self::Move) -> Result<(), MoveError>;

    /// Apply a move that `check_move` accepted.
    fn apply_move(&mut self, seat: Seat, mv: Self::Move, ctx: &mut Ctx<'_>) -> Applied;

    /// `seat` resigns. Called only for a seat still in a running game.
    fn resign(&mut self, seat: Seat, ctx: &mut Ctx<'_>) -> Applied;

    /// Every legal move of `seat`, sorted by canonical text, or `None` when
    /// there are too many to list (bots then use [`Rules::random_move`]).
    fn legal_moves(&self, seat: Seat) -> Option<Vec<Self::Move>>;

    /// A uniformly random legal move of `seat`, if it has any.
    fn random_move(&self, seat: Seat, rng: &mut GameRng) -> Option<Self::Move>;

    /// The outcome once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// What `viewer` may see at time `now`. After the end, everything.
    fn view(&self, viewer: Viewer, now: Timestamp) -> Self::View;

    /// The view as plain text, for email and terminals, its words in
    /// `lang`.
    fn render_text(view: &Self::View, lang: Lang) -> String;

    /// The view as a standalone SVG picture, for the web, its words in
    /// `lang`.
    fn render_svg(view: &Self::View, lang: Lang) -> String;

    /// The clickable layout of the picture [`Rules::render_svg`] draws from
    /// `view`, for games whose moves name points or cells of a board: the
    /// web turns a click into a move with it. Written next to the drawing
    /// code, with the same numbers. `None` (the default): moves are typed.
    fn click_map(_view: &Self::View) -> Option<ClickMap> {
        None
    }

    /// The game's evaluation of a position for a seat, higher is better:
    /// what bots that look ahead maximise (the built-in `greedy` makes each
    /// candidate move on a copy and keeps the best by it). It must read only
    /// what the seat may see. Without one (the default) a game is played by
    /// the bots that need none (`random`, `mcts`).
    const EVALUATE: Option<Evaluation<Self>> = None;

    /// The game's quick heuristic move for a seat, which search bots follow
    /// in most of their playouts instead of random moves (the built-in
    /// `mcts` nine moves in ten). `None` (the default): random playouts.
    const PLAYOUT: Option<Playout<Self>> = None;

    /// Whether `seat` is still in the game (not eliminated or resigned).
    fn is_active(&self, seat: Seat) -> bool;

    /// A state that `seat` cannot tell apart from this one, with everything
    /// hidden from `seat` (others' goals, unrevealed sequences, pending secret
    /// moves) replaced by a random guess consistent with what `seat` has
    /// seen. Search bots plan on such states so they never peek. Games
    /// without secrets return a copy.
    fn determinize(&self, _seat: Seat, _rng: &mut GameRng) -> Self {
        self.clone()
    }

    /// This state with the secret moves that players other than `seat`
    /// have made in the current simultaneous step taken back, as if not yet
    /// made. A preview of a move of `seat` that would complete the step is
    /// made on it, so that the preview never resolves the step with the
    /// others' secrets. Games with simultaneous secret moves must override
    /// this; for the others the default copy is right.
    fn without_others_pending(&self, _seat: Seat) -> Self {
        self.clone()
    }

    /// Whether `seat`, its secret move of the current simultaneous step in,
    /// may still send another in its place (the step has not resolved).
    /// Front ends keep the move form open for it; most games take one move
    /// per step.
    fn may_replace(&self, _seat: Seat) -> bool {
        false
    }

    /// For games on the wall clock: when the next clock event is due.
    fn next_clock(&self) -> Option<Timestamp> {
        None
    }

    /// Apply the clock event that [`Rules::next_clock`] announced.
    fn clock(&mut self, _ctx: &mut Ctx<'_>) -> Applied {
        Applied::default()
    }

    /// For open games: add a player. Refused where the game is not open.
    fn join(&mut self, _user: &str) -> Result<Seat, MoveError> {
        Err(MoveError::illegal(tabula_i18n::msg!(
            "move-error-no-join",
            game = crate::error::game_title(Self::info().kind)
        )))
    }

    /// About how many bytes this state holds, what it points to included:
    /// what a cache of replayed games counts. Games whose state can grow
    /// large (long strings, big boards) count what they keep.
    fn memory(&self) -> usize {
        std::mem::size_of::<Self>()
    }
}

/// A game's state behind a trait object: what the service and front ends
/// use. Moves cross this boundary as text; [`Kind`] implements it for every
/// [`Rules`] type.
pub trait DynState: Send + Sync {
    /// Static facts.
    fn info(&self) -> &'static GameInfo;
    /// Who must act now.
    fn to_move(&self) -> Turn;
    /// Parse and check a move without applying it; returns its canonical text.
    fn check(&self, seat: Seat, text: &str) -> Result<String, MoveError>;
    /// Parse, check and apply a move.
    fn apply(&mut self, seat: Seat, text: &str, ctx: &mut Ctx<'_>) -> Result<Applied, MoveError>;
    /// `seat` resigns.
    fn resign(&mut self, seat: Seat, ctx: &mut Ctx<'_>) -> Applied;
    /// Legal moves as canonical text, sorted, or `None` when too many.
    fn legal_moves(&self, seat: Seat) -> Option<Vec<String>>;
    /// A random legal move as text.
    fn random_move(&self, seat: Seat, rng: &mut GameRng) -> Option<String>;
    /// [`DynState::random_move`] written into `out` (emptied first), for a
    /// caller that reuses one buffer for every move; false (and `out`
    /// empty) when there is none.
    fn random_move_into(&self, seat: Seat, rng: &mut GameRng, out: &mut String) -> bool;
    /// The outcome once over.
    fn outcome(&self) -> Option<Outcome>;
    /// Whether `seat` is still in the game.
    fn is_active(&self, seat: Seat) -> bool;
    /// The viewer's view as JSON.
    fn view_json(&self, viewer: Viewer, now: Timestamp) -> serde_json::Value;
    /// The viewer's view as JSON text, written straight from the view with
    /// its long strings cut (see [`crate::window`]): what a reply sends.
    fn view_windowed(
        &self,
        viewer: Viewer,
        now: Timestamp,
    ) -> (Box<serde_json::value::RawValue>, Vec<crate::window::CutText>);
    /// The viewer's view as text, its words in `lang`.
    fn render_text(&self, viewer: Viewer, now: Timestamp, lang: Lang) -> String;
    /// The viewer's view as SVG, its words in `lang`.
    fn render_svg(&self, viewer: Viewer, now: Timestamp, lang: Lang) -> String;
    /// The viewer's picture and its click layout, drawn from one view,
    /// its words in `lang`.
    fn picture(&self, viewer: Viewer, now: Timestamp, lang: Lang) -> Picture;
    /// The game's evaluation for `seat` (see [`Rules::EVALUATE`]); `None`
    /// where the game has none.
    fn evaluate(&self, seat: Seat) -> Option<f64>;
    /// The game's heuristic move for `seat` (see [`Rules::PLAYOUT`]), as
    /// text; `None` where the game has none or it finds no move.
    fn playout_move(&self, seat: Seat, rng: &mut GameRng) -> Option<String>;
    /// When the next clock event is due.
    fn next_clock(&self) -> Option<Timestamp>;
    /// Apply the due clock event.
    fn clock(&mut self, ctx: &mut Ctx<'_>) -> Applied;
    /// Add a player to an open game.
    fn join(&mut self, user: &str) -> Result<Seat, MoveError>;
    /// A copy.
    fn clone_box(&self) -> Box<dyn DynState>;
    /// See [`Rules::determinize`].
    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Box<dyn DynState>;
    /// See [`Rules::without_others_pending`].
    fn without_others_pending(&self, seat: Seat) -> Box<dyn DynState>;
    /// See [`Rules::memory`].
    fn memory(&self) -> usize;
    /// See [`Rules::may_replace`].
    fn may_replace(&self, seat: Seat) -> bool;
    /// The typed [`Rules`] state, for code that knows the game (bots, tests):
    /// `state.as_any().downcast_ref::<Dna>()`.
    fn as_any(&self) -> &dyn std::any::Any;
}

impl Clone for Box<dyn DynState> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A kind of game: its static facts and a factory for new states. The
/// registry of games is a table of these.
pub trait GameKind: Send + Sync {
    /// Static facts.
    fn info(&self) -> &'static GameInfo;
    /// A new state.
    fn new_state(&self, setup: &Setup<'_>, rng: &mut GameRng) -> Result<Box<dyn DynState>, SetupError>;
    /// Whether a game set up with `options` keeps anything from some player
    /// (see [`Rules::hides_information`]).
    fn hides_information(&self, _options: &Options) -> bool {
        self.info().hidden_information
    }
    /// Whether the game evaluates positions for bots ([`Rules::EVALUATE`]).
    fn evaluates(&self) -> bool {
        false
    }
    /// Whether the game has a playout heuristic ([`Rules::PLAYOUT`]).
    fn has_playout(&self) -> bool {
        false
    }
}

/// Adapter from a [`Rules`] type to [`GameKind`] and [`DynState`].
pub struct Kind<R>(PhantomData<fn() -> R>);

impl<R> Kind<R> {
    /// The adapter (a zero-sized value, usable in `static` tables).
    pub const fn new() -> Self {
        Kind(PhantomData)
    }
}

impl<R> Default for Kind<R> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: Rules> GameKind for Kind<R> {
    fn info(&self) -> &'static GameInfo {
        R::info()
    }

    fn hides_information(&self, options: &Options) -> bool {
        R::hides_information(options)
    }

    fn evaluates(&self) -> bool {
        R::EVALUATE.is_some()
    }

    fn has_playout(&self) -> bool {
        R::PLAYOUT.is_some()
    }

    fn new_state(&self, setup: &Setup<'_>, rng: &mut GameRng) -> Result<Box<dyn DynState>, SetupError> {
        let info = R::info();
        let n = setup.players.len();
        if n < info.min_players || n > info.max_players {
            return Err(SetupError::PlayerCount {
                game: info.kind,
                min: info.min_players,
                max: info.max_players,
                given: n,
            });
        }
        for (i, p) in setup.players.iter().enumerate() {
            if setup.players[..i].iter().any(|q| q.eq_ignore_ascii_case(p)) {
                return Err(SetupError::DuplicatePlayer(p.clone()));
            }
        }
        Ok(Box::new(Erased(R::new(setup, rng)?)))
    }
}

/// A [`Rules`] state behind [`DynState`]. A wrapper rather than a blanket
/// impl, so that calling the typed methods on a game never clashes with the
/// text-based ones.
#[derive(Clone)]
pub struct Erased<R>(pub R);

impl<R: Rules> DynState for Erased<R> {
    fn info(&self) -> &'static GameInfo {
        R::info()
    }

    fn to_move(&self) -> Turn {
        Rules::to_move(&self.0)
    }

    fn check(&self, seat: Seat, text: &str) -> Result<String, MoveError> {
        let mv = self.0.parse_move(seat, text)?;
        self.0.check_move(seat, &mv)?;
        Ok(self.0.format_move(&mv))
    }

    fn apply(&mut self, seat: Seat, text: &str, ctx: &mut Ctx<'_>) -> Result<Applied, MoveError> {
        let mv = self.0.parse_move(seat, text)?;
        self.0.check_move(seat, &mv)?;
        Ok(self.0.apply_move(seat, mv, ctx))
    }

    fn resign(&mut self, seat: Seat, ctx: &mut Ctx<'_>) -> Applied {
        Rules::resign(&mut self.0, seat, ctx)
    }

    fn legal_moves(&self, seat: Seat) -> Option<Vec<String>> {
        Rules::legal_moves(&self.0, seat).map(|ms| {
            let mut v: Vec<String> = ms.iter().map(|m| self.0.format_move(m)).collect();
            v.sort();
            v
        })
    }

    fn random_move(&self, seat: Seat, rng: &mut GameRng) -> Option<String> {
        Rules::random_move(&self.0, seat, rng).map(|m| self.0.format_move(&m))
    }

    fn random_move_into(&self, seat: Seat, rng: &mut GameRng, out: &mut String) -> bool {
        out.clear();
        match Rules::random_move(&self.0, seat, rng) {
            Some(m) => {
                self.0.write_move(&m, out);
                true
            }
            None => false,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        Rules::outcome(&self.0)
    }

    fn is_active(&self, seat: Seat) -> bool {
        Rules::is_active(&self.0, seat)
    }

    fn view_json(&self, viewer: Viewer, now: Timestamp) -> serde_json::Value {
        serde_json::to_value(self.0.view(viewer, now)).unwrap_or(serde_json::Value::Null)
    }

    fn view_windowed(
        &self,
        viewer: Viewer,
        now: Timestamp,
    ) -> (Box<serde_json::value::RawValue>, Vec<crate::window::CutText>) {
        crate::window::write_windowed(&self.0.view(viewer, now))
    }

    fn render_text(&self, viewer: Viewer, now: Timestamp, lang: Lang) -> String {
        R::render_text(&self.0.view(viewer, now), lang)
    }

    fn render_svg(&self, viewer: Viewer, now: Timestamp, lang: Lang) -> String {
        R::render_svg(&self.0.view(viewer, now), lang)
    }

    fn picture(&self, viewer: Viewer, now: Timestamp, lang: Lang) -> Picture {
        let view = self.0.view(viewer, now);
        Picture { svg: R::render_svg(&view, lang), click: R::click_map(&view) }
    }

    fn evaluate(&self, seat: Seat) -> Option<f64> {
        R::EVALUATE.map(|evaluate| evaluate(&self.0, seat))
    }

    fn playout_move(&self, seat: Seat, rng: &mut GameRng) -> Option<String> {
        let playout = R::PLAYOUT?;
        playout(&self.0, seat, rng).map(|m| self.0.format_move(&m))
    }

    fn next_clock(&self) -> Option<Timestamp> {
        Rules::next_clock(&self.0)
    }

    fn clock(&mut self, ctx: &mut Ctx<'_>) -> Applied {
        Rules::clock(&mut self.0, ctx)
    }

    fn join(&mut self, user: &str) -> Result<Seat, MoveError> {
        Rules::join(&mut self.0, user)
    }

    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn std::any::Any {
        &self.0
    }

    fn memory(&self) -> usize {
        self.0.memory()
    }

    fn may_replace(&self, seat: Seat) -> bool {
        self.0.may_replace(seat)
    }

    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Box<dyn DynState> {
        Box::new(Erased(self.0.determinize(seat, rng)))
    }

    fn without_others_pending(&self, seat: Seat) -> Box<dyn DynState> {
        Box::new(Erased(self.0.without_others_pending(seat)))
    }
}
