//! Where the referee keeps a game: the full game with its record and
//! history, or, when only built-in bots play, the bare state, advanced by
//! exactly the same steps with the same random streams (so a game comes out
//! the same either way) without writing a record or history lines.

use tabula_model::{
    Ctx, DynState, Event, EventAction, Game, GameKind, GameRng, GameStreams, MoveError, Options, Outcome,
    Seat, Setup, SetupError, Turn,
};

use crate::builtin::Position;

/// A refereed game.
pub(crate) enum Table<'a> {
    /// With its record: external bots are shown views of it.
    Full(Box<Game>),
    /// The state alone (boxed: it holds the event generator's buffer).
    Bare(Box<Bare<'a>>),
}

/// A game's state without a record: what [`Game`] keeps that changes the
/// play (the seed, the number of events so far for each event's random
/// stream, the time of the last clock event). The options are the
/// caller's, not a copy: a game between built-in bots takes microseconds,
/// and copying them cost a good part of that.
pub(crate) struct Bare<'a> {
    state: Box<dyn DynState>,
    kind: &'static dyn GameKind,
    options: &'a Options,
    players: usize,
    /// The random streams of the game's seed, one per event.
    streams: GameStreams,
    /// The last event's generator, reset to the next event's stream.
    rng: GameRng,
    events: u64,
    now: i64,
}

impl<'a> Table<'a> {
    /// A new game of `kind`; bare when `bare`.
    pub(crate) fn create(
        kind: &'static dyn GameKind,
        options: &'a Options,
        players: usize,
        seed: u64,
        bare: bool,
    ) -> Result<Table<'a>, SetupError> {
        let ids: Vec<String> = (0..players).map(|i| format!("seat{}", i + 1)).collect();
        if !bare {
            return Game::create(kind, options.clone(), ids, seed, 0).map(|game| Table::Full(Box::new(game)));
        }
        // As `Game::create` sets a game up.
        tabula_model::check_seed(kind, options)?;
        let setup = Setup { options, players: &ids, start: 0 };
        let streams = GameStreams::new(seed);
        let mut rng = streams.stream(0);
        let state = kind.new_state(&setup, &mut rng)?;
        let bare = Bare { state, kind, options, players, streams, rng, events: 0, now: 0 };
        Ok(Table::Bare(Box::new(bare)))
    }

    /// The full game, when kept.
    pub(crate) fn game(&self) -> Option<&Game> {
        match self {
            Table::Full(game) => Some(game.as_ref()),
            Table::Bare(_) => None,
        }
    }

    /// The state now.
    pub(crate) fn state(&self) -> &dyn DynState {
        match self {
            Table::Full(game) => game.state(),
            Table::Bare(bare) => &*bare.state,
        }
    }

    /// What a built-in bot sees.
    pub(crate) fn position(&self) -> Position<'_> {
        match self {
            Table::Full(game) => Position::of(game),
            Table::Bare(bare) => Position {
                state: &*bare.state,
                kind: bare.kind,
                options: bare.options,
                players: bare.players,
            },
        }
    }

    /// Who must act (no proposals are made here, so the state's word).
    pub(crate) fn to_move(&self) -> Turn {
        match self {
            Table::Full(game) => game.to_move(),
            Table::Bare(bare) => bare.state.to_move(),
        }
    }

    /// Whether the game is over.
    pub(crate) fn is_over(&self) -> bool {
        self.to_move() == Turn::Over
    }

    /// The outcome once over.
    pub(crate) fn outcome(&self) -> Option<Outcome> {
        match self {
            Table::Full(game) => game.outcome(),
            Table::Bare(bare) => bare.state.outcome(),
        }
    }

    /// The simulated time of a game on the clock: its last clock event's.
    pub(crate) fn now(&self) -> i64 {
        match self {
            Table::Full(game) => crate::protocol::clock_info(game).map_or(0, |c| c.now),
            Table::Bare(bare) => bare.now,
        }
    }

    /// `seat`'s move at time `at`, checked as [`Game::submit`] checks it.
    pub(crate) fn submit_move(&mut self, seat: Seat, text: &str, at: i64) -> Result<(), MoveError> {
        let bare = match self {
            Table::Full(game) => {
                return game.play(Event {
                    at,
                    seat: Some(seat),
                    action: EventAction::Move(text.to_string()),
                });
            }
            Table::Bare(bare) => bare,
        };
        if seat >= bare.players {
            return Err(MoveError::malformed(tabula_model::msg!("move-error-no-seat")));
        }
        match bare.state.to_move() {
            Turn::Over => return Err(MoveError::GameOver),
            Turn::Player(p) if p != seat => return Err(MoveError::not_your_turn("")),
            _ => {}
        }
        if !bare.state.is_active(seat) {
            return Err(MoveError::illegal(tabula_model::msg!("move-error-not-in-game")));
        }
        bare.streams.reset(&mut bare.rng, bare.events + 1);
        bare.state.apply(seat, text, &mut Ctx { now: at, rng: &mut bare.rng, history: false })?;
        bare.events += 1;
        Ok(())
    }

    /// `seat` resigns; false when the game refuses.
    pub(crate) fn resign(&mut self, seat: Seat, reason: Option<String>) -> bool {
        let bare = match self {
            Table::Full(game) => {
                let event = Event { at: 0, seat: Some(seat), action: EventAction::Resign { reason } };
                return game.play(event).is_ok();
            }
            Table::Bare(bare) => bare,
        };
        if seat >= bare.players || bare.state.to_move() == Turn::Over || !bare.state.is_active(seat) {
            return false;
        }
        bare.streams.reset(&mut bare.rng, bare.events + 1);
        bare.state.resign(seat, &mut Ctx { now: 0, rng: &mut bare.rng, history: false });
        bare.events += 1;
        true
    }

    /// Apply the clock event due at `due`; false when none is due.
    pub(crate) fn advance_clock(&mut self, due: i64) -> bool {
        let bare = match self {
            Table::Full(game) => return game.advance_clock(due, 1) == 1,
            Table::Bare(bare) => bare,
        };
        match bare.state.next_clock() {
            Some(next) if next <= due && bare.state.to_move() != Turn::Over => {
                bare.streams.reset(&mut bare.rng, bare.events + 1);
                bare.state.clock(&mut Ctx { now: next, rng: &mut bare.rng, history: false });
                bare.events += 1;
                bare.now = next;
                true
            }
            _ => false,
        }
    }
}
