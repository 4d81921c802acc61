//! The built-in bots behind one interface over the common model.

use tabula_model::Lang;
use tabula_model::{DynState, Game, GameKind, GameRng, Options, Seat, Turn};

use crate::heuristics;
use crate::mcts::{self, MctsConfig};
use crate::spec::{BotSpec, Builtin, SpecError};

/// The built-in bots' names, weakest first (`mcts` also takes a budget:
/// `mcts:2000`, `mcts:250ms`).
pub const NAMES: [&str; 5] = ["random", "greedy", "center", "nash", "mcts"];

/// A built-in bot: chooses a move from the game as its seat may know it.
/// Every built-in draws its randomness only from the generator it is
/// given, so a seeded game is reproducible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuiltinBot {
    bot: Builtin,
}

/// Why a built-in bot cannot play a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BuiltinError {
    /// The name is not a built-in bot.
    #[error("{0:?} is not a built-in bot (random, greedy, center, nash, mcts, mcts:N, mcts:Nms)")]
    Unknown(String),
    /// The bot does not play this game.
    #[error("the {bot} bot does not play {game}")]
    Unsupported {
        /// The bot's name.
        bot: String,
        /// The game's title.
        game: &'static str,
    },
    /// A malformed budget.
    #[error(transparent)]
    Spec(#[from] SpecError),
}

impl BuiltinBot {
    /// The bot named `name` (`random`, `greedy`, `center`, `mcts`, `mcts:N`).
    pub fn named(name: &str) -> Result<BuiltinBot, BuiltinError> {
        match Builtin::parse(name.trim())? {
            Some(bot) => Ok(BuiltinBot { bot }),
            None => Err(BuiltinError::Unknown(name.to_string())),
        }
    }

    /// The bot of a built-in spec; `None` for external commands.
    pub fn from_spec(spec: &BotSpec) -> Option<BuiltinBot> {
        match spec {
            BotSpec::Builtin { bot } => Some(BuiltinBot { bot: *bot }),
            BotSpec::Command { .. } => None,
        }
    }

    /// Which built-in this is.
    pub fn kind(&self) -> Builtin {
        self.bot
    }

    /// Whether this bot can play games of `kind`: `random` and `mcts` play
    /// every game; `greedy` every game that evaluates positions for bots
    /// ([`tabula_model::Rules::EVALUATE`]) and those this crate has a
    /// heuristic of its own for (Intervalo, Real-Time Life); `center` and
    /// `nash` are Intervalo strategies.
    pub fn supports(&self, kind: &dyn GameKind) -> Result<(), BuiltinError> {
        let ok = match self.bot {
            Builtin::Random | Builtin::Mcts(_) => true,
            Builtin::Greedy => kind.evaluates() || heuristics::has_own_greedy(kind),
            Builtin::Center | Builtin::Nash => heuristics::is_game(kind, &tabula_intervalo::KIND),
        };
        if ok {
            Ok(())
        } else {
            Err(BuiltinError::Unsupported { bot: self.bot.to_string(), game: kind.info().title(Lang::En) })
        }
    }

    /// The move of `seat` now, or `None` when it has none to make (not its
    /// turn, or no legal move; in a game on the clock, a pass).
    pub fn choose(&self, game: &Game, seat: Seat, rng: &mut GameRng) -> Option<String> {
        self.choose_at(Position::of(game), seat, rng)
    }

    /// [`BuiltinBot::choose`] on a bare position.
    pub fn choose_at(&self, position: Position<'_>, seat: Seat, rng: &mut GameRng) -> Option<String> {
        let mut out = String::new();
        self.choose_into(position, seat, rng, &mut out).then_some(out)
    }

    /// [`BuiltinBot::choose_at`] written into `out` (emptied first): false,
    /// and `out` empty, when the seat has no move to make. The same choice
    /// from the same draws; a referee playing many games between built-in
    /// bots reuses one buffer for every move instead of a string for each.
    pub fn choose_into(
        &self,
        position: Position<'_>,
        seat: Seat,
        rng: &mut GameRng,
        out: &mut String,
    ) -> bool {
        out.clear();
        let state = position.state;
        let turn = state.to_move();
        if !turn.includes(seat) || !state.is_active(seat) {
            return false;
        }
        let clocked = turn == Turn::Clock;
        let chosen = match self.bot {
            Builtin::Random => return state.random_move_into(seat, rng, out),
            // On the clock the heuristic passes when it sees nothing better.
            Builtin::Greedy if clocked => heuristics::greedy(state, seat, rng),
            Builtin::Greedy => heuristics::greedy(state, seat, rng).or_else(|| state.random_move(seat, rng)),
            Builtin::Center => {
                return heuristics::center_into(state, seat, rng, out)
                    || state.random_move_into(seat, rng, out);
            }
            Builtin::Nash => {
                let Some(game) = state.as_any().downcast_ref::<tabula_intervalo::Intervalo>() else {
                    return false;
                };
                let other = 1 - seat.min(1);
                let history: Vec<[usize; 2]> =
                    game.turns().iter().map(|t| [t.choices[seat.min(1)], t.choices[other]]).collect();
                crate::intervalo::choose(&game.strip_for(seat), &history, rng)
                    .map(|cell| (cell + 1).to_string())
            }
            // Real-Time Life moves pay off at a generation: between two, the
            // search bot keeps its points for the tick before the next.
            Builtin::Mcts(_) if clocked && !crate::rtlife::time_to_act(state, seat, rng) => None,
            Builtin::Mcts(budget) => {
                let config = mcts_config(position, seat, budget);
                mcts::search(state, position.players, seat, &config, rng)
            }
        };
        match chosen {
            Some(text) => {
                out.push_str(&text);
                true
            }
            None => false,
        }
    }
}

/// What a built-in bot chooses from: the position and the game's settings.
#[derive(Clone, Copy)]
pub struct Position<'a> {
    /// The game's state.
    pub state: &'a dyn DynState,
    /// The game's kind.
    pub kind: &'static dyn GameKind,
    /// The game's options.
    pub options: &'a Options,
    /// Players in the game.
    pub players: usize,
}

impl<'a> Position<'a> {
    /// The position of a game now.
    pub fn of(game: &'a Game) -> Position<'a> {
        Position {
            state: game.state(),
            kind: game.kind(),
            options: &game.record().options,
            players: game.players().len(),
        }
    }
}

/// The search settings of `mcts` for `seat` at `position`: the game's
/// cheap heuristics where it has them.
pub fn mcts_config(position: Position<'_>, seat: Seat, budget: mcts::Budget) -> MctsConfig {
    let mut config = MctsConfig {
        budget,
        opponent_model: heuristics::opponent_model(position.state, seat),
        ..MctsConfig::default()
    };
    if position.kind.has_playout() {
        // Epsilon-greedy playouts: nine moves in ten by the game's own
        // heuristic (DNA's nomination that hurts the others most), the rest
        // at random.
        config.playout_policy = Some(|state, seat, rng| state.playout_move(seat, rng));
        config.policy_share = 0.9;
    }
    // Real-Time Life has a search of its own in this crate.
    if heuristics::is_game(position.kind, &tabula_rtlife::KIND) {
        // Playouts show how the position evolves with nobody moving,
        // for a few generations, then the standings are compared.
        config.policy_share = 1.0;
        // Others place as the heuristic would, in the tree too: a
        // placement is only as good as the best reply to it.
        config.opponent_model = Some(crate::rtlife::playout);
        config.model_share = 1.0;
        config.sampled_moves = 8;
        config.candidates = Some(crate::rtlife::candidates);
        config.estimate = Some(crate::rtlife::estimate);
        let gen_ticks = position.options.int("gen_ticks").unwrap_or(12).clamp(1, 1000) as usize;
        config.clock_horizon = gen_ticks * crate::rtlife::SEARCH_HORIZON;
        // The bot moves only on the tick before a generation (and places
        // once): below the root every seat plays as modelled.
        config.max_depth = Some(1);
        // A placement is played as far ahead as the heuristic plays it,
        // then the position is estimated: as strong in checks as
        // playouts to the end, and much cheaper (a pattern's far future
        // changes anyway with every cell its owner moves).
        if crate::rtlife::game_of(position.state).is_some_and(|life| !life.has_placed(seat)) {
            config.clock_horizon = gen_ticks * crate::rtlife::PLACE_HORIZON;
        }
    }
    config
}

/// The move the built-in bot `bot` makes for `seat` in `game` now, for the
/// server (`dna challenge ned bot:mcts`). `Ok(None)` when the seat has no
/// move to make.
///
/// # Errors
///
/// An unknown bot name, or a bot that does not play this game.
pub fn builtin_move(
    bot: &str,
    game: &Game,
    seat: Seat,
    rng: &mut GameRng,
) -> Result<Option<String>, BuiltinError> {
    let bot = BuiltinBot::named(bot)?;
    bot.supports(game.kind())?;
    Ok(bot.choose(game, seat, rng))
}
