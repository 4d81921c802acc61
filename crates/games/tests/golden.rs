//! Golden playthroughs: one seeded game of every kind, and at every step
//! what each seat and a spectator see (the text view, the JSON view, the
//! SVG picture and the move list), checked in under `tests/golden/`. Any
//! change to what a player sees changes a file, and so shows up in review.
//!
//! After an intended change, write the files anew and read the diff:
//!
//!     TABULA_BLESS=1 cargo test --release --workspace --locked --test golden

use std::fmt::Write as _;
use std::path::PathBuf;

use tabula_model::{Event, EventAction, Game, GameKind, Options, Turn, Viewer, rng_for};

/// 2026-01-01 00:00 UTC.
const T0: i64 = 1_767_225_600_000;

/// Most steps of a playthrough.
const STEPS: usize = 40;

/// The playthrough of each game: small options that still show its secrets
/// (DNA's `-manual` set-up, Rewrite's goals and rules, Intervalo's choices)
/// and its end.
fn setups() -> Vec<(&'static str, Vec<&'static str>, Vec<&'static str>)> {
    vec![
        ("dna", vec!["-manual", "-length=9"], vec!["ned", "ted", "jed"]),
        ("rewrite", vec!["-rounds=2"], vec!["ann", "bob", "cid"]),
        ("intervalo", vec!["-cells=7"], vec!["ann", "bob"]),
        ("conway", vec!["-size=8", "-place=3", "-max_turns=8"], vec!["ann", "bob"]),
        (
            "rtlife",
            vec!["-width=10", "-height=6", "-tick=60s", "-gen_ticks=2", "-start_cells=4", "-generations=3"],
            vec!["ann", "bob"],
        ),
    ]
}

fn viewers(game: &Game) -> Vec<(String, Viewer)> {
    let mut v = vec![("the spectator".to_string(), Viewer::Observer)];
    v.extend(game.players().iter().enumerate().map(|(s, p)| (p.clone(), Viewer::Player(s))));
    v
}

/// What every viewer sees now.
fn snapshot(out: &mut String, game: &Game, now: i64) {
    let mut seen: Vec<(&str, String)> = Vec::new();
    for (name, viewer) in viewers(game) {
        let json = serde_json::to_string_pretty(&game.view_json(viewer, now)).expect("JSON");
        let history: String = game
            .history_for(viewer)
            .iter()
            .map(|h| {
                let no = if h.opens && !h.undone { format!("{:>3}.", h.number) } else { "    ".into() };
                format!("{no} {}\n", h.entry.text)
            })
            .collect();
        for (what, text) in [
            ("text", game.render_text(viewer, now, tabula_model::Lang::En)),
            ("json", json),
            ("svg", game.render_svg(viewer, now, tabula_model::Lang::En)),
            ("moves", history),
        ] {
            let _ = write!(out, "--- {what} as {name}");
            // A seat that sees what the spectator sees says so instead of
            // repeating it: what differs stands out.
            match seen.iter().find(|(w, t)| *w == what && *t == text) {
                Some(_) if viewer != Viewer::Observer => out.push_str(": the same as the spectator's\n"),
                _ => {
                    out.push('\n');
                    out.push_str(&text);
                    if !text.ends_with('\n') {
                        out.push('\n');
                    }
                }
            }
            if viewer == Viewer::Observer {
                seen.push((what, text));
            }
        }
    }
}

/// The playthrough of `kind`, as the golden file holds it.
fn playthrough(kind: &'static dyn GameKind, options: &[&str], players: &[&str]) -> String {
    let opts = Options::parse(kind.info(), options).expect("options");
    let names: Vec<String> = players.iter().map(|p| p.to_string()).collect();
    let mut game = Game::create(kind, opts, names, 7, T0).expect("a game");
    let mut rng = rng_for(7, 1000);
    let mut now = T0;
    let mut out =
        format!("{} {} {}\n\n=== the start\n", kind.info().kind, options.join(" "), players.join(" "));
    snapshot(&mut out, &game, now);
    for step in 1..=STEPS {
        if game.is_over() {
            break;
        }
        now += 1000;
        // One event a step: in a simultaneous step the first seat still to
        // move moves, so that the step half done shows too.
        let mover = match game.to_move() {
            Turn::Player(p) => Some(p),
            Turn::Simultaneous(set) => (0..game.players().len()).find(|&s| set.contains(s)),
            Turn::Clock => Some(step % game.players().len()).filter(|_| step % 2 == 1),
            Turn::Over => None,
        };
        let played = mover.and_then(|seat| {
            let text = game.state().random_move(seat, &mut rng)?;
            let event = Event { at: now, seat: Some(seat), action: EventAction::Move(text.clone()) };
            game.submit(event).ok()?;
            Some(format!("{} plays {text}", game.players()[seat]))
        });
        let what = match played {
            Some(what) => what,
            None => {
                let Some(due) = game.state().next_clock() else { break };
                now = now.max(due);
                game.advance_clock(now, 1);
                "the clock".to_string()
            }
        };
        let _ = writeln!(out, "\n=== step {step}: {what}");
        snapshot(&mut out, &game, now);
    }
    out
}

#[test]
fn every_game_plays_as_its_golden_file_shows() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let bless = std::env::var_os("TABULA_BLESS").is_some();
    let mut stale = Vec::new();
    assert_eq!(setups().len(), tabula_games::all().len(), "a golden playthrough for every game");
    for (kind, options, players) in setups() {
        let game = tabula_games::find(kind).expect("a game of the registry");
        let got = playthrough(game, &options, &players);
        let path = dir.join(format!("{kind}.txt"));
        if bless {
            std::fs::create_dir_all(&dir).expect("the golden directory");
            std::fs::write(&path, &got).expect("a golden file written");
            continue;
        }
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        if want != got {
            let line = want.lines().zip(got.lines()).position(|(a, b)| a != b).unwrap_or(0) + 1;
            stale.push(format!("{kind} (first difference on line {line})"));
        }
    }
    assert!(
        stale.is_empty(),
        "what players see changed in: {}. If intended, run TABULA_BLESS=1 cargo test -p tabula-games \
         --test golden and review the diff of tests/golden/.",
        stale.join(", ")
    );
}
