//! The built-in bots behind one interface over the common model.

use tabula_model::{Game, GameInfo, GameRng, Seat};

use crate::heuristics;
use crate::mcts::{self, MctsConfig};
use crate::spec::{BotSpec, Builtin, SpecError};

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
    #[error("{0:?} is not a built-in bot (random, greedy, center, mcts, mcts:N, mcts:Nms)")]
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

    /// Whether this bot can play the game described by `info`.
    pub fn supports(&self, info: &'static GameInfo) -> Result<(), BuiltinError> {
        let ok = match self.bot {
            Builtin::Random | Builtin::Mcts(_) => true,
            Builtin::Greedy => heuristics::has_greedy(info.kind),
            Builtin::Center => info.kind == "intervalo",
        };
        if ok {
            Ok(())
        } else {
            Err(BuiltinError::Unsupported { bot: self.bot.to_string(), game: info.title })
        }
    }

    /// The move of `seat` now, or `None` when it has none to make (not its
    /// turn, or no legal move).
    pub fn choose(&self, game: &Game, seat: Seat, rng: &mut GameRng) -> Option<String> {
        let state = game.state();
        if !game.to_move().includes(seat) {
            return None;
        }
        match self.bot {
            Builtin::Random => state.random_move(seat, rng),
            Builtin::Greedy => heuristics::greedy(game, seat, rng).or_else(|| state.random_move(seat, rng)),
            Builtin::Center => heuristics::center(game, seat, rng).or_else(|| state.random_move(seat, rng)),
            Builtin::Mcts(budget) => {
                let config = MctsConfig {
                    budget,
                    opponent_model: heuristics::opponent_model(game, seat),
                    playout_policy: heuristics::playout_policy(game.kind().info().kind),
                    ..MctsConfig::default()
                };
                mcts::search(state, game.players().len(), seat, &config, rng)
            }
        }
    }
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
    bot.supports(game.kind().info())?;
    Ok(bot.choose(game, seat, rng))
}
