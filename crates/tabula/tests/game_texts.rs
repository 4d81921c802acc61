//! What the games themselves say, read through the command line with
//! `--lang`: how a game ended and the lines of its history, for each game.

mod common;

use common::Tabula;

/// Board 1 of `game` between aino and ned, ended by `moves` (`user move`).
fn finished(game: &str, moves: &[(&str, &str)]) -> Tabula {
    let t = Tabula::new();
    t.signup(&["aino", "ned"]);
    t.ok(&format!("{game} challenge aino ned"));
    for (user, mv) in moves {
        t.ok(&format!("{game} move 1 {user} pw-{user} {mv}"));
    }
    t
}

/// A game, the moves (user, move) that end it, and what `show` then says
/// in Finnish and in Spanish.
type Ended = (&'static str, &'static [(&'static str, &'static str)], [&'static str; 2]);

/// Each game ended, and what `show` then says in Finnish and in Spanish.
const GAMES: &[Ended] = &[
    (
        "dna",
        &[("ned", "resign")],
        [
            "Pelin voitti aino (viimeinen pelissä jäljellä oleva pelaaja).",
            "Partida ganada por aino (último jugador en pie).",
        ],
    ),
    (
        "rewrite",
        &[("ned", "resign")],
        [
            "Pelin voitti aino (kaikki muut pelaajat luovuttivat).",
            "Partida ganada por aino (todos los demás jugadores abandonaron).",
        ],
    ),
    (
        "intervalo",
        &[("aino", "5"), ("ned", "resign")],
        ["Pelin voitti aino (ned luovutti).", "Partida ganada por aino (ned abandonó)."],
    ),
    (
        "conway",
        &[("aino", "a1"), ("ned", "resign")],
        [
            "Pelin voitti aino (viimeinen pelissä jäljellä oleva pelaaja).",
            "Partida ganada por aino (último jugador en pie).",
        ],
    ),
    (
        "rtlife",
        &[("ned", "resign"), ("aino", "resign")],
        [
            "Peli päättyi tasan pelaajien aino ja ned kesken (pelissä ei ole enää ketään).",
            "Partida en tablas entre aino y ned (no queda nadie en la partida).",
        ],
    ),
];

#[test]
fn how_a_game_ended_reads_in_the_language_asked_for() {
    for (game, moves, [fi, es]) in GAMES {
        let t = finished(game, moves);
        let out = t.ok(&format!("--lang fi {game} show 1"));
        assert!(out.contains(fi), "{game}: {out}");
        let out = t.ok(&format!("--lang es {game} show 1"));
        assert!(out.contains(es), "{game}: {out}");
    }
}

/// A line of each game's history (from the endings above) in Finnish and
/// in Spanish, as `history` lists it.
const LINES: &[(&str, [&str; 2])] = &[
    (
        "dna",
        [
            "ned luovuttaa; hänen sekvenssinsä jää laudalle jäätyneenä",
            "ned abandona; su secuencia queda en el tablero, congelada",
        ],
    ),
    (
        "rewrite",
        [
            "aino voittaa: kaikki muut pelaajat luovuttivat.",
            "aino gana: todos los demás jugadores abandonaron.",
        ],
    ),
    ("intervalo", ["aino valitsee ruudun 5", "aino elige la casilla 5"]),
    ("conway", ["ned luovuttaa", "ned abandona"]),
    ("rtlife", ["aino luovuttaa", "aino abandona"]),
];

#[test]
fn the_history_reads_in_the_language_asked_for() {
    for ((game, moves, _), (same, [fi, es])) in GAMES.iter().zip(LINES) {
        assert_eq!(game, same);
        let t = finished(game, moves);
        for (lang, line) in [("fi", fi), ("es", es)] {
            for command in ["show", "history"] {
                let out = t.ok(&format!("--lang {lang} {game} {command} 1"));
                assert!(out.contains(&format!(" {line}\n")), "{game} {command}: {out}");
            }
        }
    }
}
