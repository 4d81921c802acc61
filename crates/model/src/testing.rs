//! The one random-playout test every game runs (OpenSpiel's
//! `RandomSimTest`): random legal games through the common model, checking
//! what every game must get right.

use rand::{Rng, SeedableRng};

use crate::{
    Event, EventAction, Game, GameKind, Lang, Options, Record, Seat, Timestamp, Turn, Viewer, rng_for,
};

/// Panics unless `viewer` sees `a` and `b` alike at `now`: the same board
/// text and picture in every language, and the same JSON view. Games that
/// differ only in what `viewer` may not see must pass it.
pub fn assert_seen_alike(a: &Game, b: &Game, viewer: Viewer, now: Timestamp) {
    for lang in Lang::ALL {
        assert_eq!(
            a.render_text(viewer, now, lang),
            b.render_text(viewer, now, lang),
            "{viewer:?}, {lang:?}"
        );
        assert_eq!(a.render_svg(viewer, now, lang), b.render_svg(viewer, now, lang), "{viewer:?}, {lang:?}");
    }
    assert_eq!(a.view_json(viewer, now), b.view_json(viewer, now), "{viewer:?}");
}

/// Panics unless `game`'s history and view, written as JSON from what the
/// game keeps (each history line's JSON, made once per line and language;
/// the view written without a JSON tree), are what serialising them
/// afresh gives, for every viewer in every language.
pub fn assert_kept_json_fresh(game: &Game, now: Timestamp) {
    for viewer in viewers(game) {
        for lang in Lang::ALL {
            // Twice: the second time every line's JSON is the kept one.
            for _ in 0..2 {
                let kept = game.history_json(viewer, lang);
                let fresh =
                    serde_json::to_string(&game.history_in(viewer, lang)).expect("a history serialises");
                assert_eq!(kept.get(), fresh, "{viewer:?}, {lang:?}: the kept history JSON differs");
            }
        }
        let (text, cut) = game.view_windowed(viewer, now);
        let view: serde_json::Value = serde_json::from_str(text.get()).expect("the view's text is JSON");
        // The view's tree with the strings cut where the text says.
        let mut whole = game.view_json(viewer, now);
        for c in &cut {
            let Some(serde_json::Value::String(s)) = whole.pointer_mut(&c.pointer) else {
                panic!("{viewer:?}: no string at the cut {}", c.pointer)
            };
            assert_eq!(s.len(), c.length, "{viewer:?}: the cut {}", c.pointer);
            s.truncate(c.shown);
        }
        assert_eq!(view, whole, "{viewer:?}: the view's text differs");
    }
}

/// What a random playout checks, and how long it may run.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// Option words for the game.
    pub options: Vec<String>,
    /// Number of players.
    pub players: usize,
    /// Number of games to play.
    pub games: u64,
    /// Events after which a game is cut off (clock games may never end).
    pub max_events: usize,
    /// Milliseconds between events (clock games advance by it).
    pub step_ms: Timestamp,
    /// Chance (out of 1000) that a player resigns instead of moving.
    pub resign_per_mille: u32,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            options: Vec::new(),
            players: 2,
            games: 20,
            max_events: 2000,
            step_ms: 1000,
            resign_per_mille: 5,
        }
    }
}

/// Play `config.games` random games of `kind` and check, at every step:
/// legal moves are sorted, each one checks, a random move is legal, both
/// renderers work for every viewer, a determinized state looks the same to
/// its seat; and at the end: the record survives a
/// JSON round trip and replays to identical views and history, and replaying
/// a prefix gives the state at that point.
///
/// # Panics
///
/// On any violation, with the seed and event that broke it.
pub fn random_sim(kind: &'static dyn GameKind, config: &SimConfig) {
    let info = kind.info();
    let options = Options::parse(info, &config.options).expect("valid options");
    for game_no in 0..config.games {
        let seed = 0x5eed_0000 + game_no;
        let players: Vec<String> = (0..config.players).map(|i| format!("p{i}")).collect();
        let mut game = Game::create(kind, options.clone(), players, seed, 0).expect("game sets up");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut now: Timestamp = 0;
        let mut snapshots: Vec<(usize, Timestamp, Vec<String>)> = Vec::new();
        for _ in 0..config.max_events {
            now += config.step_ms;
            game.advance_clock(now, 10_000);
            check_renders(&game, now);
            let seat: Seat = match game.to_move() {
                Turn::Over => break,
                Turn::Player(p) => p,
                Turn::Simultaneous(set) => set.nth(rng.random_range(0..set.len())).unwrap_or_default(),
                Turn::Clock => {
                    let active: Vec<Seat> =
                        (0..game.players().len()).filter(|&s| game.state().is_active(s)).collect();
                    if active.is_empty() {
                        continue;
                    }
                    active[rng.random_range(0..active.len())]
                }
            };
            let state = game.state();
            if let Some(legal) = state.legal_moves(seat) {
                let mut sorted = legal.clone();
                sorted.sort();
                assert_eq!(legal, sorted, "{}: legal moves not sorted (seed {seed})", info.kind);
                for mv in legal.iter().take(50) {
                    assert!(
                        state.check(seat, mv).is_ok(),
                        "{}: listed move {mv:?} does not check (seed {seed}): {:?}",
                        info.kind,
                        state.check(seat, mv)
                    );
                }
            }
            // A determinized state looks the same to the seat it was made for.
            let guess = state.determinize(seat, &mut rng);
            let me = Viewer::Player(seat);
            assert_eq!(
                guess.view_json(me, now),
                state.view_json(me, now),
                "{}: determinize changed what seat {seat} sees (seed {seed})",
                info.kind
            );
            snapshots.push((game.moves(), now, views(&game, now)));
            let action = if rng.random_range(0..1000) < config.resign_per_mille {
                EventAction::Resign { reason: None }
            } else {
                match state.random_move(seat, &mut rng) {
                    Some(mv) => {
                        let canonical = state.check(seat, &mv).unwrap_or_else(|e| {
                            panic!("{}: random move {mv:?} is illegal (seed {seed}): {e}", info.kind)
                        });
                        assert_eq!(
                            state.check(seat, &canonical).as_deref(),
                            Ok(canonical.as_str()),
                            "{}: canonical text does not parse back",
                            info.kind
                        );
                        EventAction::Move(canonical)
                    }
                    None => match game.to_move() {
                        // A clock game may leave a player nothing to do: let time pass.
                        Turn::Clock => continue,
                        _ => EventAction::Resign { reason: None },
                    },
                }
            };
            let event = Event { at: now, seat: Some(seat), action };
            game.submit(event.clone())
                .unwrap_or_else(|e| panic!("{}: event {event:?} refused (seed {seed}): {e}", info.kind));
        }
        check_renders(&game, now);
        assert_kept_json_fresh(&game, now);
        if game.is_over() {
            let outcome = game.outcome().unwrap_or_else(|| panic!("{}: over without an outcome", info.kind));
            // One representation of a draw for every game: its players, listed.
            assert!(!outcome.winners.is_empty(), "{}: an outcome names nobody (seed {seed})", info.kind);
        }

        let json = serde_json::to_string(game.record()).expect("record serialises");
        let back: Record = serde_json::from_str(&json).expect("record deserialises");
        assert_eq!(&back, game.record(), "{}: record JSON round trip", info.kind);
        let replayed = Game::replay(kind, back.clone()).expect("record replays");
        assert_eq!(views(&replayed, now), views(&game, now), "{}: replay differs (seed {seed})", info.kind);
        for viewer in viewers(&game) {
            assert_eq!(
                replayed.history_for(viewer),
                game.history_for(viewer),
                "{}: replayed history differs",
                info.kind
            );
        }
        assert_eq!(replayed.outcome(), game.outcome());
        // Every move opens one numbered line, numbered from 1 in order: the
        // numbers `show B#n` and a `#n` guard go by.
        let numbers: Vec<usize> = game
            .history_for(Viewer::Observer)
            .iter()
            .filter(|h| h.opens && !h.undone)
            .map(|h| h.number)
            .collect();
        assert_eq!(
            numbers,
            (1..=game.moves()).collect::<Vec<_>>(),
            "{}: history numbers (seed {seed})",
            info.kind
        );
        // A prefix replays to the state seen at that point: a snapshot taken
        // right before a move (a prefix of n moves holds everything up to the
        // next move, so also clock events and resignations after move n).
        let mid = snapshots.len() / 2;
        if let Some((moves, at, seen)) = snapshots.get(mid)
            && snapshots.get(mid + 1).map_or(game.moves(), |next| next.0) != *moves
        {
            let prefix = Game::replay_prefix(kind, back, *moves).expect("prefix replays");
            assert_eq!(prefix.moves(), *moves);
            assert_eq!(&views(&prefix, *at), seen, "{}: prefix replay differs (seed {seed})", info.kind);
        }
    }
}

fn viewers(game: &Game) -> Vec<Viewer> {
    let mut v: Vec<Viewer> = (0..game.players().len()).map(Viewer::Player).collect();
    v.push(Viewer::Observer);
    v
}

fn views(game: &Game, now: Timestamp) -> Vec<String> {
    viewers(game)
        .into_iter()
        .flat_map(|v| {
            [
                game.render_text(v, now, Lang::En),
                game.render_svg(v, now, Lang::En),
                game.view_json(v, now).to_string(),
            ]
        })
        .collect()
}

fn check_renders(game: &Game, now: Timestamp) {
    for v in viewers(game) {
        // Every language's words, which must leave the picture a document.
        for lang in Lang::ALL {
            let svg = game.render_svg(v, now, lang);
            assert!(
                svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
                "SVG is a standalone document"
            );
            let _ = game.render_text(v, now, lang);
        }
        let _ = game.view_json(v, now);
    }
}

/// Moves [`fuzz_moves`] tries per input, so that one input stays quick.
pub const FUZZ_MOVES: usize = 48;

/// One input of the `game_moves` fuzz target, over the games `kinds`: the
/// first byte picks the game, the second the number of players; the first
/// line holds the option words and every further line is a move of the
/// player to move (an empty line: a random legal move, to reach deeper
/// positions). Checked: a refused move changes nothing, an accepted move's
/// canonical text checks back to itself, both renderers work for every
/// seat, and the record survives a JSON round trip and replays to the same
/// views. Here rather than in the target, so that every game gets it
/// through the registry and a test can run it on a game of its own.
///
/// # Panics
///
/// On any violation, saying which.
pub fn fuzz_moves(kinds: &[&'static dyn GameKind], data: &[u8]) {
    let [pick, count, rest @ ..] = data else { return };
    if kinds.is_empty() {
        return;
    }
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
    for (index, line) in lines.take(FUZZ_MOVES).enumerate() {
        now += 1000;
        game.advance_clock(now, 100);
        let seat = match game.to_move() {
            Turn::Over => break,
            Turn::Player(p) => p,
            Turn::Simultaneous(set) => set.nth(index % set.len()).unwrap_or_default(),
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
        for lang in Lang::ALL {
            let _ = game.render_text(Viewer::Player(seat), now, lang);
            let svg = game.render_svg(Viewer::Player(seat), now, lang);
            assert!(svg.starts_with("<svg"), "the SVG is not a document");
        }
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
}
