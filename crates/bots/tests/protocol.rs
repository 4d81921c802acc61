//! The bot protocol as a bot sees it: a complete recorded game, the same
//! transcript `docs/bot-protocol.md` shows, and the message forms.

use std::path::PathBuf;

use serde_json::json;
use tabula_bots::protocol::{
    MAX_SEED, Message, ViewMode, intervalo_view, seat_seed, start_message, turn_message,
};
use tabula_bots::referee::{ExternalBot, Player, RefereeSettings, play_game};
use tabula_bots::{BotSpec, BuiltinBot};
use tabula_intervalo::{Intervalo, KIND};
use tabula_model::{Event, EventAction, Game, GameKind, Options, SeatResult};

fn recorder(log: &std::path::Path) -> Vec<String> {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "bots", "recorder.py"].iter().collect();
    let spec = BotSpec::parse(&format!("python3 '{}' '{}'", path.display(), log.display())).unwrap();
    match spec {
        BotSpec::Command { argv, .. } => argv,
        BotSpec::Builtin { .. } => unreachable!("a command line"),
    }
}

/// The transcript of one game of Intervalo on 5 cells, recorder bot in seat
/// 0 against the built-in centre bot, dynamic view: the block after the
/// heading "A complete game" of `docs/bot-protocol.md`.
fn documented_transcript() -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "..", "docs", "bot-protocol.md"].iter().collect();
    let text = std::fs::read_to_string(path).unwrap();
    let section = text.split("\n## A complete game\n").nth(1).expect("the section A complete game");
    let block = section.split("```\n").nth(1).expect("its transcript block");
    block.to_string()
}

#[test]
fn a_recorded_game_matches_the_documented_transcript() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("transcript.txt");
    let mut bot = ExternalBot::new(recorder(&log));
    let options = Options::parse(KIND.info(), &["-cells=5"]).unwrap();
    let settings = RefereeSettings { view: ViewMode::Dynamic, ..RefereeSettings::default() };
    let names = ["recorder".to_string(), "center".to_string()];
    let result = {
        let mut players = [Player::External(&mut bot), Player::Builtin(BuiltinBot::named("center").unwrap())];
        play_game(&KIND, &options, &mut players, &names, 42, &settings).unwrap()
    };
    bot.quit(std::time::Duration::from_secs(2));
    assert_eq!(result.results, [SeatResult::Loss, SeatResult::Win]);
    assert_eq!(result.scores, [tabula_model::Score::whole(0), tabula_model::Score::whole(1)]);
    assert_eq!(result.reason, "more points");
    assert_eq!(std::fs::read_to_string(&log).unwrap(), documented_transcript());
}

#[test]
fn the_static_view_is_exactly_the_strip() {
    let options = Options::parse(KIND.info(), &["-cells=6"]).unwrap();
    let mut game = Game::create(&KIND, options, vec!["a".into(), "b".into()], 1, 0).unwrap();
    for (seat, cell) in [(0, "2"), (1, "5"), (0, "3"), (1, "3")] {
        game.submit(Event { at: 0, seat: Some(seat), action: EventAction::Move(cell.into()) }).unwrap();
    }
    // Seat 0 has chosen in turn 3; seat 1 is asked: the pending choice is not shown.
    game.submit(Event { at: 0, seat: Some(0), action: EventAction::Move("6".into()) }).unwrap();
    let state = game.state().as_any().downcast_ref::<Intervalo>().unwrap();
    assert_eq!(intervalo_view(state, 0, ViewMode::Static), json!({"strip": ".x#.o."}));
    assert_eq!(intervalo_view(state, 1, ViewMode::Static), json!({"strip": ".o#.x."}));
    assert_eq!(
        intervalo_view(state, 1, ViewMode::Dynamic),
        json!({"strip": ".o#.x.", "history": [[5, 2], [3, 3]], "scores": [0, 0]})
    );
    let turn = turn_message(&game, 1, ViewMode::Static, 250).to_line();
    assert_eq!(turn, r#"{"type":"turn","view":{"strip":".o#.x."},"legal":["1","4","6"],"time_ms":250}"#);
    let start = start_message(&game, 1).to_line();
    let seed = seat_seed(1, 1);
    assert_eq!(
        start,
        format!(
            r#"{{"type":"start","protocol":1,"game":"intervalo","options":{{"cells":6}},"seat":1,"players":2,"seed":{seed}}}"#
        )
    );
}

#[test]
fn a_bot_is_never_sent_the_games_own_seed() {
    // Every draw of a game follows from its seed (a `random` DNA set-up, a
    // built-in bot's secret choice): a bot gets a seed of its seat's own.
    for game_seed in [0, 1, 42, MAX_SEED, u64::MAX] {
        let seeds: Vec<u64> = (0..4).map(|seat| seat_seed(game_seed, seat)).collect();
        for (seat, s) in seeds.iter().enumerate() {
            assert!(*s <= MAX_SEED);
            assert_ne!(*s, game_seed & MAX_SEED, "seat {seat} of game seed {game_seed}");
            assert_eq!(*s, seat_seed(game_seed, seat), "the same game deals the same seeds");
        }
        assert!(seeds.iter().enumerate().all(|(i, s)| !seeds[..i].contains(s)), "one per seat: {seeds:?}");
    }
}

#[test]
fn the_fast_turn_line_is_the_turn_message() {
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    for cells in ["2", "9", "64", "1001"] {
        let options = Options::parse(KIND.info(), &[format!("-cells={cells}")]).unwrap();
        let mut game = Game::create(&KIND, options, vec!["a".into(), "b".into()], 1, 0).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        while !game.is_over() {
            for seat in 0..2 {
                for mode in [ViewMode::Static, ViewMode::Dynamic] {
                    let slow = turn_message(&game, seat, mode, 77).to_line();
                    assert_eq!(tabula_bots::protocol::turn_line(&game, seat, mode, 77), slow);
                }
            }
            let seat = *[0, 1].choose(&mut rng).unwrap();
            let seat = if game.to_move().includes(seat) { seat } else { 1 - seat };
            let mv = game.state().random_move(seat, &mut rng).unwrap();
            game.submit(Event { at: 0, seat: Some(seat), action: EventAction::Move(mv) }).unwrap();
            if cells == "1001" && game.moves() > 40 {
                break;
            }
        }
    }
}

#[test]
fn legal_is_left_out_past_1000_moves() {
    let options = Options::parse(KIND.info(), &["-cells=1001"]).unwrap();
    let game = Game::create(&KIND, options, vec!["a".into(), "b".into()], 1, 0).unwrap();
    let Message::Turn { legal, .. } = turn_message(&game, 0, ViewMode::Static, 1000) else {
        panic!("a turn")
    };
    assert!(legal.is_none());
    let options = Options::parse(KIND.info(), &["-cells=1000"]).unwrap();
    let game = Game::create(&KIND, options, vec!["a".into(), "b".into()], 1, 0).unwrap();
    let Message::Turn { legal, .. } = turn_message(&game, 0, ViewMode::Static, 1000) else {
        panic!("a turn")
    };
    assert_eq!(legal.map(|l| l.len()), Some(1000));
}

#[test]
fn messages_parse_back() {
    for line in [
        r#"{"type":"end","result":"draw","scores":["3","3"]}"#,
        r#"{"type":"quit"}"#,
        r#"{"type":"turn","view":{"strip":".."},"time_ms":5}"#,
    ] {
        let message: Message = serde_json::from_str(line).unwrap();
        assert_eq!(message.to_line(), line);
    }
}

#[test]
fn end_scores_are_exact() {
    use tabula_bots::protocol::score_values;
    use tabula_model::Score;
    let scores = [Score::fraction(61, 3).unwrap(), Score::whole(30)];
    let end = Message::End { result: SeatResult::Win, scores: score_values(&scores) };
    assert_eq!(end.to_line(), r#"{"type":"end","result":"win","scores":["61/3","30"]}"#);
}
