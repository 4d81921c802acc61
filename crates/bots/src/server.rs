//! The built-in bots as players on the server (`dna challenge ned bot:mcts`):
//! the one [`tabula_service::BotPlayer`] that `tabula serve`, the command
//! line and the tests hand to the service.

/// Built-in bots playing on the server (`dna challenge ned bot:mcts`).
pub struct ServerBots;

impl tabula_service::BotPlayer for ServerBots {
    fn knows(&self, name: &str, kind: &str) -> bool {
        let Some(kind) = tabula_games::find(kind) else { return false };
        crate::BuiltinBot::named(name).is_ok_and(|b| b.supports(kind).is_ok())
    }

    fn choose(&self, name: &str, game: &tabula_model::Game, seat: tabula_model::Seat) -> Option<String> {
        // Seeded from the game, so a bot's move is reproducible; the move
        // itself goes into the record as text, so replay never re-runs the bot.
        let mut rng = tabula_model::rng_for(game.record().seed, 1 << 40 | game.record().events.len() as u64);
        crate::builtin_move(name, game, seat, &mut rng).ok().flatten()
    }

    fn names(&self, kind: &str) -> Vec<String> {
        let Some(kind) = tabula_games::find(kind) else { return Vec::new() };
        crate::builtin::NAMES
            .into_iter()
            .filter(|n| crate::BuiltinBot::named(n).is_ok_and(|b| b.supports(kind).is_ok()))
            .map(str::to_string)
            .collect()
    }
}
