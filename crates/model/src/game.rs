use std::collections::BTreeSet;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use tabula_i18n::{Lang, Message, msg};

use crate::error::game_title;

use crate::{
    Applied, Ctx, DynState, GameKind, LogEntry, MoveError, Options, Outcome, ReplayError, Seat, Setup,
    SetupError, Timestamp, Turn, Viewer, rng_for,
};

/// Everything needed to rebuild a game exactly: the single source of truth.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The game's command word (`dna`).
    pub kind: String,
    /// Resolved options.
    pub options: Options,
    /// User ids at the start, in turn order (joins add more through events).
    pub players: Vec<String>,
    /// Seed of every random choice of the game.
    pub seed: u64,
    /// When the game was created.
    pub created: Timestamp,
    /// What happened, in order.
    pub events: Vec<Event>,
}

/// One thing that happened in a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// When.
    pub at: Timestamp,
    /// Who (`None` for the clock).
    pub seat: Option<Seat>,
    /// What.
    pub action: EventAction,
}

/// The kinds of event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventAction {
    /// A move, as canonical text.
    Move(String),
    /// A resignation; `reason` is set when the server resigned the player
    /// (a forfeit for not moving in time). Without a seat, the server
    /// resigns every player still in the game at once, and the game is
    /// drawn among them (all of them missed the time limit).
    Resign {
        /// Why, when not by the player's own choice.
        reason: Option<String>,
    },
    /// A clock event of a real-time game.
    Clock,
    /// A user joins an open game with a first move.
    Join {
        /// The joining user.
        user: String,
        /// The first move.
        text: String,
    },
    /// A proposal every other player must accept.
    Propose(ProposalKind),
    /// Acceptance of the pending proposal.
    Accept,
    /// Rejection of the pending proposal.
    Reject,
}

/// What a proposal asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProposalKind {
    /// End the game as a draw among the players still in it.
    Draw,
    /// Take back the last move.
    Undo,
}

/// A pending proposal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Proposal {
    /// What is proposed.
    pub kind: ProposalKind,
    /// Who proposed it.
    pub by: Seat,
    /// Who has accepted so far (the proposer included).
    pub accepted: BTreeSet<Seat>,
}

/// One line of a game's history (read back from a report's JSON by the
/// front ends that lay it out).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct HistoryEntry {
    /// The number of the move this line belongs to: the move that wrote it,
    /// or for a line that is no move (a resignation, a proposal, a clock
    /// event) the last move before it. Moves and joins are numbered;
    /// `show B#n` shows the game after the lines of number `n`, and a
    /// `#n` guard on a move expects it to be move `n`.
    pub number: usize,
    /// The first line a move wrote: the move list shows its number here.
    pub opens: bool,
    /// The move this line belongs to was taken back by an undo; the number
    /// is then used again by the move made instead.
    pub undone: bool,
    /// When.
    #[schema(value_type = i64)]
    pub at: Timestamp,
    /// The line, in words.
    pub entry: LogLine,
    /// A later secret line of the same author and reveal group replaced
    /// this one (a resubmitted secret move): it stays hidden from others
    /// when its group is revealed, until the game is over.
    #[serde(skip)]
    pub superseded: bool,
    /// The record event that wrote this line.
    #[serde(skip)]
    event: usize,
}

/// A history line in the words of one language (see [`Game::history_in`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct LogLine {
    /// Who acted (`None` for the game itself: automatic passes, clock ticks).
    #[schema(value_type = Option<usize>)]
    pub seat: Option<Seat>,
    /// The text the reader may see.
    pub text: String,
    /// Present while the entry is secret (only in the lines a move has
    /// just added, [`Game::submit`]; a viewer's history shows what the
    /// viewer may see instead).
    pub hidden: Option<HiddenLine>,
}

/// How a secret line looks to others, in words (see [`crate::Hidden`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct HiddenLine {
    /// The reveal group.
    pub key: u32,
    /// What others see until it is revealed.
    pub public: String,
}

/// One line of the history as the game keeps it: its texts still
/// messages, put into words only for the lines a reader is shown.
#[derive(Clone, Debug)]
struct Logged {
    number: usize,
    opens: bool,
    undone: bool,
    at: Timestamp,
    entry: LogEntry,
    superseded: bool,
    event: usize,
    words: Words,
}

/// A history line's texts once put into words, each with the line's
/// entry as JSON in those words: a game kept between moves (the service's
/// replay cache) renders and serialises each line once per language and
/// reader (its own text, or what others see while it is secret), not once
/// for every reply or board that shows it. Only the texts asked for are
/// kept: the first in the line itself, the others each in a link of a
/// chain after it (a fixed slot for every language and reader tripled a
/// cached game's size, and the cache counts its games by the byte). The
/// first text is not behind a pointer of its own because a reply reads it
/// for every line of a cached game, most of which the processor's caches
/// no longer hold: each pointer followed was one more wait for memory.
#[derive(Clone, Debug, Default)]
struct Words(OnceLock<Rendered>);

/// One text of a line, in one language, for its own readers or for others.
#[derive(Clone, Debug)]
struct Rendered {
    lang: Lang,
    public: bool,
    words: Box<str>,
    /// The line's [`HistoryEntry`] as JSON in these words: a reply writes
    /// the whole history, and serialising each line field by field for
    /// every reply was the largest part of a move's work.
    json: OnceLock<Box<RawValue>>,
    next: OnceLock<Box<Rendered>>,
}

impl Words {
    /// The text for `public` readers in `lang`, made by `make` (its bytes
    /// then added to `made`) if it was not made yet. Of two threads adding
    /// texts at once, one adds its link and the other goes on to the next.
    fn get(&self, lang: Lang, public: bool, make: impl Fn() -> String, made: &AtomicUsize) -> &Rendered {
        // The first text lives in the line, whose size the game counts
        // already; a further link counts its own.
        let link = |boxed: bool| {
            let words: Box<str> = make().into();
            let own = if boxed { std::mem::size_of::<Rendered>() } else { 0 };
            made.fetch_add(own + words.len(), Ordering::Relaxed);
            Rendered { lang, public, words, json: OnceLock::new(), next: OnceLock::new() }
        };
        let mut rendered = self.0.get_or_init(|| link(false));
        while rendered.lang != lang || rendered.public != public {
            rendered = rendered.next.get_or_init(|| Box::new(link(true)));
        }
        rendered
    }

    /// Forget the JSON made so far: a field it holds changed (an undo).
    /// The bytes it held.
    fn forget_json(&mut self) -> usize {
        let mut forgotten = 0;
        let mut link = self.0.get_mut();
        while let Some(rendered) = link {
            forgotten += rendered.json.take().map_or(0, |j| j.get().len());
            link = rendered.next.get_mut().map(|next| &mut **next);
        }
        forgotten
    }
}

/// The text of a move-list line as one viewer sees it: a history line of
/// the game, put into words (once per language) when shown, or a line
/// already in words.
#[derive(Clone, Copy, Debug)]
pub struct LineText<'a>(LineSource<'a>);

#[derive(Clone, Copy, Debug)]
enum LineSource<'a> {
    Logged { line: &'a Logged, public: bool, made: &'a AtomicUsize },
    Text(&'a str),
}

impl<'a> LineText<'a> {
    /// The text in `lang`.
    pub fn in_lang(self, lang: Lang) -> &'a str {
        match self.0 {
            LineSource::Logged { line, public, made } => line.words(public, lang, made),
            LineSource::Text(t) => t,
        }
    }
}

/// A line of the move list as one viewer sees it (see
/// [`Game::history_lines_for`]).
#[derive(Clone, Copy, Debug)]
pub struct MoveLine<'a> {
    /// See [`HistoryEntry::number`].
    pub number: usize,
    /// See [`HistoryEntry::opens`].
    pub opens: bool,
    /// See [`HistoryEntry::undone`].
    pub undone: bool,
    /// The text the viewer may see.
    pub text: LineText<'a>,
}

impl HistoryEntry {
    /// The entry as a move-list line.
    pub fn line(&self) -> MoveLine<'_> {
        MoveLine {
            number: self.number,
            opens: self.opens,
            undone: self.undone,
            text: LineText(LineSource::Text(&self.entry.text)),
        }
    }
}

impl Logged {
    /// The line in `lang`, its public text if `public` (what others see of
    /// a secret), else its own.
    fn in_lang(&self, public: bool, lang: Lang, made: &AtomicUsize) -> HistoryEntry {
        HistoryEntry {
            number: self.number,
            opens: self.opens,
            undone: self.undone,
            at: self.at,
            entry: LogLine {
                seat: self.entry.seat,
                text: self.words(public, lang, made).to_string(),
                hidden: None,
            },
            superseded: self.superseded,
            event: self.event,
        }
    }

    /// The words of the line's own text (or its public one) in `lang`,
    /// rendered the first time they are asked for (their bytes then added
    /// to `made`).
    fn words(&self, public: bool, lang: Lang, made: &AtomicUsize) -> &str {
        &self.rendered(public, lang, made).words
    }

    /// The line's JSON (its [`Logged::in_lang`] serialised), made the
    /// first time it is asked for (its bytes then added to `made`).
    fn json(&self, public: bool, lang: Lang, made: &AtomicUsize) -> &RawValue {
        self.rendered(public, lang, made).json.get_or_init(|| {
            let entry = self.in_lang(public, lang, made);
            let json = serde_json::value::to_raw_value(&entry).expect("a history entry serialises");
            made.fetch_add(json.get().len(), Ordering::Relaxed);
            json
        })
    }

    /// The line's own text, or what others see of it if `public` and the
    /// line has a secret, in `lang`; put into words the first time.
    fn rendered(&self, public: bool, lang: Lang, made: &AtomicUsize) -> &Rendered {
        match (public, &self.entry.hidden) {
            (true, Some(hidden)) => self.words.get(lang, true, || hidden.public.render(lang), made),
            _ => self.words.get(lang, false, || self.entry.text.render(lang), made),
        }
    }
}

/// A previewed move: the game as it would be (see [`Game::preview`]).
#[derive(Clone, Debug)]
pub struct Preview {
    /// The game with the move made, not stored anywhere.
    pub game: Game,
    /// The move would complete a simultaneous step: the game shows the
    /// mover's part alone, the others' secret moves of the step taken back.
    pub completes_step: bool,
}

/// A game: a record replayed into a state, plus what every game shares
/// (resignations, proposals, history with secret lines).
pub struct Game {
    kind: &'static dyn GameKind,
    record: Record,
    state: Box<dyn DynState>,
    history: Vec<Logged>,
    revealed: BTreeSet<u32>,
    proposal: Option<Proposal>,
    agreed: Option<Outcome>,
    /// Indices of record events in force (undo removes moves from it).
    effective: Vec<usize>,
    moves: usize,
    /// Players now: the record's initial players plus those who joined.
    players: Vec<String>,
    /// The heap bytes of the record's events and of the history's
    /// messages, counted as they are added: the cache counts a game on
    /// every move, and walking every line then cost as much as the move's
    /// own work.
    history_bytes: usize,
    /// The heap bytes of the words and JSON the history's lines made so
    /// far (each made the first time a reader asks for it, through `&self`).
    words_bytes: AtomicUsize,
}

impl Clone for Game {
    fn clone(&self) -> Self {
        Game {
            kind: self.kind,
            record: self.record.clone(),
            state: self.state.clone_box(),
            history: self.history.clone(),
            revealed: self.revealed.clone(),
            proposal: self.proposal.clone(),
            agreed: self.agreed.clone(),
            effective: self.effective.clone(),
            moves: self.moves,
            players: self.players.clone(),
            history_bytes: self.history_bytes,
            words_bytes: AtomicUsize::new(self.words_bytes.load(Ordering::Relaxed)),
        }
    }
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game").field("record", &self.record).finish_non_exhaustive()
    }
}

impl Game {
    /// Start a new game.
    pub fn create(
        kind: &'static dyn GameKind,
        options: Options,
        players: Vec<String>,
        seed: u64,
        created: Timestamp,
    ) -> Result<Game, SetupError> {
        check_seed(kind, &options)?;
        let record = Record {
            kind: kind.info().kind.to_string(),
            options,
            players,
            seed,
            created,
            events: Vec::new(),
        };
        Self::fresh(kind, record)
    }

    fn fresh(kind: &'static dyn GameKind, record: Record) -> Result<Game, SetupError> {
        let setup = Setup { options: &record.options, players: &record.players, start: record.created };
        let state = kind.new_state(&setup, &mut rng_for(record.seed, 0))?;
        let players = record.players.clone();
        Ok(Game {
            players,
            kind,
            record,
            state,
            history: Vec::new(),
            revealed: BTreeSet::new(),
            proposal: None,
            agreed: None,
            effective: Vec::new(),
            moves: 0,
            history_bytes: 0,
            words_bytes: AtomicUsize::new(0),
        })
    }

    /// Rebuild a game from its record.
    pub fn replay(kind: &'static dyn GameKind, record: Record) -> Result<Game, ReplayError> {
        Self::replay_prefix(kind, record, usize::MAX)
    }

    /// Rebuild a game as it stood after `moves` moves (`show board#N`).
    /// Events after that point are dropped from the returned game's record.
    pub fn replay_prefix(
        kind: &'static dyn GameKind,
        mut record: Record,
        moves: usize,
    ) -> Result<Game, ReplayError> {
        if record.kind != kind.info().kind {
            return Err(ReplayError::UnknownKind(record.kind));
        }
        let events = std::mem::take(&mut record.events);
        let mut game = Self::fresh(kind, record)?;
        for (index, event) in events.into_iter().enumerate() {
            if game.moves >= moves && counts_as_move(&event.action) {
                break;
            }
            game.submit(event).map_err(|error| ReplayError::Event { index, error })?;
        }
        Ok(game)
    }

    /// The record.
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// About how many bytes this game holds: its state, its record and its
    /// history (what a cache of replayed games counts; see [`crate::Rules::memory`]).
    pub fn memory(&self) -> usize {
        use std::mem::size_of;
        size_of::<Self>()
            + self.state.memory()
            + self.record.events.capacity() * size_of::<Event>()
            + self.history.capacity() * size_of::<Logged>()
            + self.history_bytes
            + self.words_bytes.load(Ordering::Relaxed)
            + self.effective.capacity() * size_of::<usize>()
            + self.players.iter().map(|p| size_of::<String>() + p.len()).sum::<usize>()
    }

    /// The game kind.
    pub fn kind(&self) -> &'static dyn GameKind {
        self.kind
    }

    /// The current state (for bots and tests; front ends use views).
    pub fn state(&self) -> &dyn DynState {
        &*self.state
    }

    /// The players' user ids in seat order (joins included).
    pub fn players(&self) -> &[String] {
        &self.players
    }

    /// The seat of `user` (case-insensitive), if a player.
    pub fn seat_of(&self, user: &str) -> Option<Seat> {
        self.players.iter().position(|p| p.eq_ignore_ascii_case(user))
    }

    /// Moves made so far (the `#moveno` of the last move).
    pub fn moves(&self) -> usize {
        self.moves
    }

    /// Who must act now.
    pub fn to_move(&self) -> Turn {
        if self.agreed.is_some() { Turn::Over } else { self.state.to_move() }
    }

    /// The outcome once over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.agreed.clone().or_else(|| self.state.outcome())
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.to_move() == Turn::Over
    }

    /// The pending proposal, if any.
    pub fn proposal(&self) -> Option<&Proposal> {
        self.proposal.as_ref()
    }

    /// The history as `viewer` may see it, in English: secret lines of
    /// others show their public text until revealed (everything is
    /// revealed at the end).
    pub fn history_for(&self, viewer: Viewer) -> Vec<HistoryEntry> {
        self.history_in(viewer, Lang::En)
    }

    /// [`Game::history_for`] in `lang`.
    pub fn history_in(&self, viewer: Viewer, lang: Lang) -> Vec<HistoryEntry> {
        self.history_from(viewer, 0, lang)
    }

    /// The lines from the `from`-th on of [`Game::history_in`]: only they
    /// are put into words.
    pub fn history_from(&self, viewer: Viewer, from: usize, lang: Lang) -> Vec<HistoryEntry> {
        let made = &self.words_bytes;
        let public = self.shows_public(viewer);
        self.history.iter().skip(from).map(|h| h.in_lang(public(h), lang, made)).collect()
    }

    /// [`Game::history_in`] as a JSON array, written from the JSON each
    /// line keeps: a reply carries the whole history, and building its
    /// entries anew (a copy of each text, then each serialised) was most of
    /// a move's work in the reply.
    pub fn history_json(&self, viewer: Viewer, lang: Lang) -> Box<RawValue> {
        let made = &self.words_bytes;
        let public = self.shows_public(viewer);
        let lines: Vec<&RawValue> = self.history.iter().map(|h| h.json(public(h), lang, made)).collect();
        // Written by serde_json, which copies each kept line as it is (a
        // string joined by hand would be parsed again to become a RawValue).
        serde_json::value::to_raw_value(&lines).expect("a history serialises")
    }

    /// How many lines the history has.
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// Each history line as `viewer` may see it, not yet in words: for a
    /// board's move list, which puts into words only the lines it shows.
    pub fn history_lines_for(&self, viewer: Viewer) -> impl ExactSizeIterator<Item = MoveLine<'_>> + '_ {
        let public = self.shows_public(viewer);
        self.history.iter().map(move |h| MoveLine {
            number: h.number,
            opens: h.opens,
            undone: h.undone,
            text: LineText(LineSource::Logged { line: h, public: public(h), made: &self.words_bytes }),
        })
    }

    /// Whether `viewer` sees only the public text of a line: a secret of
    /// another player, not revealed yet. Whether the game is over is asked
    /// of its rules once, not once per line.
    fn shows_public(&self, viewer: Viewer) -> impl Fn(&Logged) -> bool + '_ {
        let over = self.is_over();
        let seat = viewer.seat();
        move |h| {
            let Some(hidden) = &h.entry.hidden else { return false };
            let own = h.entry.seat.is_some() && h.entry.seat == seat;
            // A secret replaced or taken back stays hidden when its group is
            // revealed: only the one in force is shown then.
            let revealed = self.revealed.contains(&hidden.key) && !h.superseded && !h.undone;
            !(over || own || revealed)
        }
    }

    /// The viewer's view as text, its words in `lang`.
    pub fn render_text(&self, viewer: Viewer, now: Timestamp, lang: Lang) -> String {
        self.state.render_text(viewer, now, lang)
    }

    /// The viewer's view as SVG, its words in `lang`.
    pub fn render_svg(&self, viewer: Viewer, now: Timestamp, lang: Lang) -> String {
        self.state.render_svg(viewer, now, lang)
    }

    /// The viewer's picture with its click layout, drawn from one view,
    /// its words in `lang`.
    pub fn picture(&self, viewer: Viewer, now: Timestamp, lang: Lang) -> crate::Picture {
        self.state.picture(viewer, now, lang)
    }

    /// The viewer's view as JSON.
    pub fn view_json(&self, viewer: Viewer, now: Timestamp) -> serde_json::Value {
        self.state.view_json(viewer, now)
    }

    /// [`Game::view_json`] as JSON text, written without building the tree,
    /// its strings longer than [`crate::window::VIEW_WINDOW`] cut; what was cut.
    pub fn view_windowed(
        &self,
        viewer: Viewer,
        now: Timestamp,
    ) -> (Box<RawValue>, Vec<crate::window::CutText>) {
        self.state.view_windowed(viewer, now)
    }

    /// What the move `text` of `seat` would give at `at`, without playing
    /// it (`preview` and `submit`). The move is checked against the game as
    /// it is, so a preview refuses exactly what the move would. A move that
    /// would complete a simultaneous step is previewed with the other
    /// players' secret moves of that step taken back
    /// ([`Rules::without_others_pending`](crate::Rules::without_others_pending)):
    /// the step resolves only when the move is played, and the preview shows
    /// the mover's own part.
    pub fn preview(&self, seat: Seat, text: &str, at: Timestamp) -> Result<Preview, MoveError> {
        let event = Event { at, seat: Some(seat), action: EventAction::Move(text.to_string()) };
        let completes_step =
            matches!(self.to_move(), Turn::Simultaneous(set) if set.len() == 1 && set.contains(seat));
        let mut game = self.clone();
        if completes_step {
            self.check(&event)?;
            game.state = game.state.without_others_pending(seat);
        }
        game.submit(event)?;
        Ok(Preview { game, completes_step })
    }

    /// Check an event without applying it.
    pub fn check(&self, event: &Event) -> Result<(), MoveError> {
        let mut copy = self.clone();
        copy.submit(event.clone()).map(|_| ())
    }

    /// Validate and apply an event, appending it to the record. On error
    /// nothing changes. Returns the history lines it added.
    pub fn submit(&mut self, event: Event) -> Result<Vec<HistoryEntry>, MoveError> {
        let before = self.history.len();
        self.play(event)?;
        Ok(self.history[before.min(self.history.len())..]
            .iter()
            .map(|h| {
                let mut line = h.in_lang(false, Lang::En, &self.words_bytes);
                line.entry.hidden = h.entry.hidden.as_ref().map(|hidden| HiddenLine {
                    key: hidden.key,
                    public: h.words(true, Lang::En, &self.words_bytes).to_string(),
                });
                line
            })
            .collect())
    }

    /// [`Game::submit`] without putting the lines it adds into words, for
    /// a caller that does not read them (games between bots, clock
    /// catch-up).
    pub fn play(&mut self, event: Event) -> Result<(), MoveError> {
        let index = self.record.events.len();
        self.apply_event(index, &event)?;
        self.history_bytes += match &event.action {
            EventAction::Move(text) => text.len(),
            EventAction::Join { user, text } => user.len() + text.len(),
            EventAction::Resign { reason } => reason.as_ref().map_or(0, String::len),
            _ => 0,
        };
        self.record.events.push(event);
        Ok(())
    }

    /// Clock events due at or before `now`, applied and recorded, each at
    /// its due time. At most `limit` per call, so a long downtime is caught
    /// up in bounded steps.
    pub fn advance_clock(&mut self, now: Timestamp, limit: usize) -> usize {
        let mut done = 0;
        while done < limit && !self.is_over() {
            match self.state.next_clock() {
                Some(due) if due <= now => {
                    let event = Event { at: due, seat: None, action: EventAction::Clock };
                    if self.play(event).is_err() {
                        break;
                    }
                    done += 1;
                }
                _ => break,
            }
        }
        done
    }

    fn apply_event(&mut self, index: usize, event: &Event) -> Result<(), MoveError> {
        let mut rng = rng_for(self.record.seed, index as u64 + 1);
        let mut ctx = Ctx { now: event.at, rng: &mut rng, history: true };
        match &event.action {
            EventAction::Clock => {
                if event.seat.is_some() {
                    return Err(MoveError::malformed(msg!("move-error-clock-seat")));
                }
                match self.state.next_clock() {
                    Some(due) if due <= event.at && !self.is_over() => {}
                    _ => return Err(MoveError::illegal(msg!("move-error-no-clock"))),
                }
                let applied = self.state.clock(&mut ctx);
                self.record_applied(index, event.at, applied, false);
            }
            EventAction::Join { user, text } => {
                if self.is_over() {
                    return Err(MoveError::GameOver);
                }
                if self.seat_of(user).is_some() {
                    return Err(MoveError::illegal(msg!("move-error-already-in", user = user)));
                }
                let mut state = self.state.clone_box();
                let seat = state.join(user)?;
                if event.seat.is_some_and(|s| s != seat) {
                    return Err(MoveError::malformed(msg!("move-error-join-seat")));
                }
                let applied = state.apply(seat, text, &mut ctx)?;
                self.state = state;
                self.players.push(user.clone());
                self.proposal = None;
                self.record_applied(index, event.at, applied, true);
            }
            EventAction::Resign { reason } if event.seat.is_none() => {
                // The server resigns every player still in the game at once
                // (none of them moved within the time limit): nobody beat
                // anybody, so the game is drawn among them.
                if self.is_over() {
                    return Err(MoveError::GameOver);
                }
                let active: Vec<Seat> =
                    (0..self.players.len()).filter(|&s| self.state.is_active(s)).collect();
                let names: Vec<&str> = active.iter().map(|&s| self.players[s].as_str()).collect();
                let why = reason.as_deref().map_or_else(|| msg!("resign-reason-server"), resign_reason);
                self.proposal = None;
                // The reason stands once, in the line logged below.
                self.agreed = Some(Outcome::draw(active, msg!("outcome-forfeited")));
                self.log(
                    index,
                    event.at,
                    LogEntry::public(None, msg!("history-all-forfeit", users = names.join(", "), why = why)),
                    false,
                );
            }
            action => {
                let seat = event.seat.ok_or_else(|| MoveError::malformed(msg!("move-error-no-player")))?;
                if seat >= self.players.len() {
                    return Err(MoveError::malformed(msg!("move-error-no-seat")));
                }
                if self.is_over() {
                    return Err(MoveError::GameOver);
                }
                match action {
                    EventAction::Move(text) => {
                        if let Turn::Player(p) = self.to_move()
                            && p != seat
                        {
                            return Err(MoveError::not_your_turn(&self.players[p]));
                        }
                        if !self.state.is_active(seat) {
                            return Err(MoveError::illegal(msg!("move-error-not-in-game")));
                        }
                        let applied = self.state.apply(seat, text, &mut ctx)?;
                        self.proposal = None;
                        self.record_applied(index, event.at, applied, true);
                    }
                    EventAction::Resign { .. } => {
                        if !self.state.is_active(seat) {
                            return Err(MoveError::illegal(msg!("move-error-not-in-game")));
                        }
                        let mut applied = self.state.resign(seat, &mut ctx);
                        // The reason goes on the resignation's own line, once: the lines
                        // the game adds after it (the end, the winner) are about the game.
                        if let EventAction::Resign { reason: Some(reason) } = action
                            && let Some(line) = applied
                                .entries
                                .iter()
                                .position(|e| e.seat == Some(seat))
                                .or((!applied.entries.is_empty()).then_some(0))
                        {
                            let e = &mut applied.entries[line];
                            e.text = msg!(
                                "history-with-reason",
                                line = e.text.clone(),
                                reason = resign_reason(reason)
                            );
                        }
                        self.proposal = None;
                        // A resignation is no move: it takes no number.
                        self.record_applied(index, event.at, applied, false);
                    }
                    EventAction::Propose(kind) => self.propose(index, event.at, seat, *kind)?,
                    EventAction::Accept => self.accept(index, event.at, seat)?,
                    EventAction::Reject => {
                        if self.proposal.is_none() {
                            return Err(MoveError::illegal(msg!("move-error-nothing-proposed")));
                        }
                        if !self.state.is_active(seat) {
                            return Err(MoveError::illegal(msg!("move-error-not-in-game")));
                        }
                        let p = self
                            .proposal
                            .take()
                            .ok_or_else(|| MoveError::illegal(msg!("move-error-nothing-proposed")))?;
                        let name = &self.players[seat];
                        let what = proposal_word(p.kind);
                        self.log(
                            index,
                            event.at,
                            LogEntry::public(
                                Some(seat),
                                msg!("history-rejects", user = name, proposal = what),
                            ),
                            false,
                        );
                    }
                    EventAction::Clock | EventAction::Join { .. } => unreachable!("handled above"),
                }
            }
        }
        Ok(())
    }

    fn propose(
        &mut self,
        index: usize,
        at: Timestamp,
        seat: Seat,
        kind: ProposalKind,
    ) -> Result<(), MoveError> {
        if !self.state.is_active(seat) {
            return Err(MoveError::illegal(msg!("move-error-not-in-game")));
        }
        if let Some(p) = &self.proposal {
            return Err(MoveError::illegal(msg!(
                "move-error-already-proposed",
                user = &self.players[p.by],
                proposal = proposal_word(p.kind)
            )));
        }
        if kind == ProposalKind::Undo && self.last_undoable().is_none() {
            return Err(MoveError::illegal(msg!("move-error-nothing-to-undo")));
        }
        let name = &self.players[seat];
        let line = LogEntry::public(
            Some(seat),
            msg!("history-proposes", user = name, proposal = proposal_word(kind)),
        );
        self.log(index, at, line, false);
        self.proposal = Some(Proposal { kind, by: seat, accepted: BTreeSet::from([seat]) });
        self.settle_proposal(index, at);
        Ok(())
    }

    fn accept(&mut self, index: usize, at: Timestamp, seat: Seat) -> Result<(), MoveError> {
        if self.proposal.is_none() {
            return Err(MoveError::illegal(msg!("move-error-nothing-proposed")));
        }
        // Only players still in the game decide (see settle_proposal).
        if !self.state.is_active(seat) {
            return Err(MoveError::illegal(msg!("move-error-not-in-game")));
        }
        let p =
            self.proposal.as_mut().ok_or_else(|| MoveError::illegal(msg!("move-error-nothing-proposed")))?;
        if p.accepted.contains(&seat) {
            return Err(MoveError::illegal(msg!(
                "move-error-already-accepted",
                proposal = proposal_word(p.kind)
            )));
        }
        p.accepted.insert(seat);
        let what = proposal_word(p.kind);
        let name = &self.players[seat];
        self.log(
            index,
            at,
            LogEntry::public(Some(seat), msg!("history-accepts", user = name, proposal = what)),
            false,
        );
        self.settle_proposal(index, at);
        Ok(())
    }

    /// Carry out the pending proposal once every active player has accepted it.
    fn settle_proposal(&mut self, index: usize, at: Timestamp) {
        let Some(p) = &self.proposal else { return };
        let active: Vec<Seat> = (0..self.players.len()).filter(|&s| self.state.is_active(s)).collect();
        if !active.iter().all(|s| p.accepted.contains(s)) {
            return;
        }
        let kind = p.kind;
        self.proposal = None;
        match kind {
            ProposalKind::Draw => {
                self.agreed = Some(Outcome::draw(active, msg!("outcome-draw-agreed")));
                self.log(index, at, LogEntry::public(None, msg!("history-draw-agreed")), false);
            }
            ProposalKind::Undo => {
                if let Some(pos) = self.last_undoable() {
                    let undone = self.effective.remove(pos);
                    self.rebuild_after_undo(index, undone, at);
                }
            }
        }
    }

    /// Whether a move could be taken back now: an undo offer would be taken.
    pub fn can_undo(&self) -> bool {
        self.last_undoable().is_some()
    }

    fn last_undoable(&self) -> Option<usize> {
        self.effective.iter().rposition(|&i| {
            matches!(self.record.events.get(i).map(|e| &e.action), Some(EventAction::Move(_)))
        })
    }

    /// Replay the events still in force into a fresh state, keeping the
    /// history (with a line saying what was undone).
    fn rebuild_after_undo(&mut self, index: usize, undone: usize, at: Timestamp) {
        let setup = Setup {
            options: &self.record.options,
            players: &self.record.players,
            start: self.record.created,
        };
        let Ok(mut state) = self.kind.new_state(&setup, &mut rng_for(self.record.seed, 0)) else { return };
        let mut moves = 0;
        let mut revealed = BTreeSet::new();
        for &i in &self.effective {
            let event = &self.record.events[i];
            let mut rng = rng_for(self.record.seed, i as u64 + 1);
            let mut ctx = Ctx { now: event.at, rng: &mut rng, history: true };
            let applied = match (&event.action, event.seat) {
                (EventAction::Move(text), Some(seat)) => state.apply(seat, text, &mut ctx).ok(),
                (EventAction::Resign { .. }, Some(seat)) => Some(state.resign(seat, &mut ctx)),
                (EventAction::Clock, _) => Some(state.clock(&mut ctx)),
                (EventAction::Join { user, text }, _) => {
                    state.join(user).ok().and_then(|seat| state.apply(seat, text, &mut ctx).ok())
                }
                _ => None,
            };
            if let Some(a) = applied {
                revealed.extend(a.reveals);
                if counts_as_move(&event.action) {
                    moves += 1;
                }
            }
        }
        self.state = state;
        self.moves = moves;
        self.revealed = revealed;
        for h in self.history.iter_mut().filter(|h| h.event == undone) {
            h.undone = true;
            *self.words_bytes.get_mut() -= h.words.forget_json();
        }
        let who = self.record.events[undone].seat.map(|s| self.players[s].clone()).unwrap_or_default();
        let text = if self.history_is_secret(undone) {
            msg!("history-last-taken-back")
        } else {
            match &self.record.events[undone].action {
                EventAction::Move(t) => msg!("history-move-taken-back", user = who, move = t),
                _ => msg!("history-users-last-taken-back", user = who),
            }
        };
        self.log(index, at, LogEntry::public(None, text), false);
    }

    fn history_is_secret(&self, _event: usize) -> bool {
        self.state.info().hidden_information
    }

    fn record_applied(&mut self, index: usize, at: Timestamp, applied: Applied, is_move: bool) {
        if is_move {
            self.moves += 1;
        }
        self.effective.push(index);
        for (i, entry) in applied.entries.into_iter().enumerate() {
            self.log(index, at, entry, is_move && i == 0);
        }
        self.revealed.extend(applied.reveals);
    }

    fn log(&mut self, event: usize, at: Timestamp, entry: LogEntry, opens: bool) {
        if let (Some(seat), Some(hidden)) = (entry.seat, &entry.hidden) {
            let key = hidden.key;
            if !self.revealed.contains(&key) {
                for earlier in &mut self.history {
                    if earlier.entry.seat == Some(seat)
                        && earlier.entry.hidden.as_ref().is_some_and(|h| h.key == key)
                    {
                        earlier.superseded = true;
                    }
                }
            }
        }
        self.history_bytes +=
            entry.text.heap_size() + entry.hidden.as_ref().map_or(0, |hidden| hidden.public.heap_size());
        self.history.push(Logged {
            number: self.moves,
            opens,
            undone: false,
            at,
            entry,
            superseded: false,
            event,
            words: Words::default(),
        });
    }
}

/// Refuse a chosen `-seed` in a game that hides anything from its players.
/// The seed is public (it is one of the options), and every draw of the
/// game follows from it: a secret drawn at random would be no secret. Only
/// new games are checked; replays of stored games do not pass here.
pub fn check_seed(kind: &dyn GameKind, options: &Options) -> Result<(), SetupError> {
    if options.int("seed").is_some() && kind.hides_information(options) {
        return Err(SetupError::contradiction(msg!("setup-error-seed", game = game_title(kind.info().kind))));
    }
    Ok(())
}

/// Whether an event takes a move number. A resignation does not: it is
/// no move on the board (Conway's own move count, for one, leaves it out),
/// and numbering it made the history, `show B#n` and a game's "Move n"
/// disagree.
fn counts_as_move(action: &EventAction) -> bool {
    matches!(action, EventAction::Move(_) | EventAction::Join { .. })
}

fn proposal_word(kind: ProposalKind) -> &'static str {
    match kind {
        ProposalKind::Draw => "draw",
        ProposalKind::Undo => "undo",
    }
}

/// Why the server resigned a player, as the record keeps it (in English,
/// the words the service writes there), as a message: the service's own
/// reasons in each reader's language, anything else quoted as it is.
fn resign_reason(reason: &str) -> Message {
    match reason {
        "signed off" => return msg!("resign-reason-signed-off"),
        "the bot found no move" => return msg!("resign-reason-no-move"),
        _ => {}
    }
    // `forfeited: no move in 3 days` (the service's span: days, hours or minutes).
    let span = reason.strip_prefix("forfeited: no move in ").and_then(|written| {
        let (count, unit) = written.split_once(' ')?;
        let count: i64 = count.replace(',', "").parse().ok()?;
        let span = match unit {
            "day" | "days" => msg!("duration-days", days = count),
            "hour" | "hours" => msg!("duration-hours", hours = count),
            "minute" | "minutes" => msg!("duration-minutes", minutes = count),
            _ => return None,
        };
        // Only a span that reads back as written: anything else is quoted.
        (span.render(Lang::En) == written).then_some(span)
    });
    match span {
        Some(span) => msg!("resign-reason-forfeited", span = span),
        None => Message::from(reason),
    }
}
