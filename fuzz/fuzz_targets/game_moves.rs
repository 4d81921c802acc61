//! Every game's options and move syntax, through the games registry. The
//! first byte picks the game, the second the number of players; the first
//! line holds the option words and every further line is a move of the
//! player to move (an empty line: a random legal move, to reach deeper
//! positions). Checked: a refused move changes nothing, an accepted move's
//! canonical text checks back to itself, and the record survives a JSON
//! round trip and replays to the same views.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula_model::{Event, EventAction, Game, Options, Record, Turn, Viewer, rng_for};

/// Moves tried per input, so that one input stays quick.
const MAX_MOVES: usize = 48;

fuzz_target!(|data: &[u8]| {
    let [pick, count, rest @ ..] = data else { return };
    let kinds = tabula_games::all();
    let kind = kinds[usize::from(*pick) % kinds.len()];
    let info = kind.info();
    let most = info.max_players.min(info.min_players.max(4));
    let players = info.min_players + usize::from(*count) % (most - info.min_players + 1);
    let text = String::from_utf8_lossy(rest);
    let mut lines = text.split('\n');
    let words: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
    let Ok(options) = Options::parse(info, &words) else { return };
    let names: Vec<String> = (0..players).map(|i| format!("p{i}")).collect();
    let Ok(mut game) = Game::create(kind, options, names, 7, 0) else { return };
    let mut rng = rng_for(11, 1);
    let mut now = 0;
    for (index, line) in lines.take(MAX_MOVES).enumerate() {
        now += 1000;
        game.advance_clock(now, 100);
        let seat = match game.to_move() {
            Turn::Over => break,
            Turn::Player(p) => p,
            Turn::Simultaneous(set) => set[index % set.len()],
            Turn::Clock => index % game.players().len(),
        };
        let text = if line.is_empty() {
            match game.state().random_move(seat, &mut rng) {
                Some(m) => m,
                None => continue,
            }
        } else {
            line.to_string()
        };
        let checked = game.state().check(seat, &text);
        if let Ok(canonical) = &checked {
            assert_eq!(
                game.state().check(seat, canonical).as_ref(),
                Ok(canonical),
                "the canonical text of {text:?} does not check back to itself"
            );
        }
        let record = game.record().clone();
        let seen = game.view_json(Viewer::Observer, now);
        let event = Event { at: now, seat: Some(seat), action: EventAction::Move(text.clone()) };
        match game.submit(event) {
            Ok(_) => {
                if let Err(e) = checked {
                    panic!("{text:?} was applied but does not check: {e}");
                }
            }
            Err(error) => {
                assert!(!error.to_string().trim().is_empty(), "a refusal without a message");
                assert_eq!(game.record(), &record, "a refused move {text:?} changed the record");
                assert_eq!(
                    game.view_json(Viewer::Observer, now),
                    seen,
                    "a refused move {text:?} changed the view"
                );
            }
        }
    }
    for seat in 0..game.players().len() {
        let _ = game.render_text(Viewer::Player(seat), now);
        let svg = game.render_svg(Viewer::Player(seat), now);
        assert!(svg.starts_with("<svg"), "the SVG is not a document");
    }
    let json = serde_json::to_string(game.record()).expect("the record serialises");
    let back: Record = serde_json::from_str(&json).expect("the record deserialises");
    assert_eq!(&back, game.record(), "the record changed in a JSON round trip");
    let replayed = Game::replay(kind, back).unwrap_or_else(|e| panic!("the record does not replay: {e}"));
    assert_eq!(
        replayed.view_json(Viewer::Observer, now),
        game.view_json(Viewer::Observer, now),
        "the replayed game looks different"
    );
    assert_eq!(replayed.moves(), game.moves());
});
