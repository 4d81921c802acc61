//! What a bot writes back. The first line is read as a bot specification
//! (as `tabula tournament` takes them); every further line is what a bot
//! answered to a `turn`, handled as the referee does (lossy UTF-8, trimmed,
//! at most the protocol's line length) and played in a game of the registry
//! picked by the first byte. After each answer the
//! next `turn` message must still be valid JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula_bots::BotSpec;
use tabula_bots::ViewMode;
use tabula_bots::protocol::{self, MAX_LINE};
use tabula_model::{Event, EventAction, Game, Options, Turn};

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let mut lines = rest.split(|&b| b == b'\n');
    let spec_line = String::from_utf8_lossy(lines.next().unwrap_or_default());
    if let Ok(spec) = BotSpec::parse(&spec_line) {
        let again = BotSpec::parse(&spec.to_string()).expect("a bot's name does not parse back");
        assert_eq!(again.to_string(), spec.to_string(), "a bot specification changed in a round trip");
    }

    let kinds = tabula_games::all();
    let kind = kinds[usize::from(pick & 0x7f) % kinds.len()];
    let options = Options::parse::<&str>(kind.info(), &[]).expect("default options");
    let players = vec!["a".to_string(), "b".to_string()];
    let Ok(mut game) = Game::create(kind, options, players, 3, 0) else { return };
    let mode = if pick & 0x80 == 0 { ViewMode::Static } else { ViewMode::Dynamic };
    for (index, raw) in lines.take(64).enumerate() {
        let seat = match game.to_move() {
            Turn::Player(p) => p,
            Turn::Simultaneous(set) => set.nth(index % set.len()).unwrap_or_default(),
            Turn::Clock | Turn::Over => break,
        };
        let turn = protocol::turn_line(&game, seat, mode, 1000);
        let _: serde_json::Value = serde_json::from_str(&turn).expect("a turn line is not JSON");
        if raw.len() > MAX_LINE {
            continue;
        }
        let text = String::from_utf8_lossy(raw);
        let text = text.trim_end_matches('\r').trim();
        if text.is_empty() {
            continue;
        }
        let before = game.record().events.len();
        let event = Event { at: 0, seat: Some(seat), action: EventAction::Move(text.to_string()) };
        if game.submit(event).is_err() {
            assert_eq!(game.record().events.len(), before, "a refused answer was recorded");
        }
    }
});
