//! What the games themselves say, read through the command line with
//! `--lang`: how a game ended, the lines of its history and its board, for
//! each game.

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

/// A game, the moves (user, move) that bring it where its board is looked
/// at, words its board shows in Finnish and in Spanish, and the English
/// words those stand for, which neither may show.
type Board = (
    &'static str,
    &'static [(&'static str, &'static str)],
    [&'static [&'static str]; 2],
    &'static [&'static str],
);

/// Each game running and over, its board as `show` gives it to an observer.
const BOARDS: &[Board] = &[
    (
        "dna -manual",
        &[],
        [&["aino: ei vielä sekvenssiä", "ned: ei vielä sekvenssiä"], &["aino: aún sin secuencia"]],
        &["no sequence"],
    ),
    ("dna", &[("ned", "resign")], [&["(luovuttanut)"], &["(abandonó)"]], &["(resigned)"]),
    (
        "rewrite",
        &[],
        [
            &[
                "Merkkikorvauspeli, aakkosto",
                "tavoitteiden valinta",
                "Pöydän merkkijono:",
                "Odotetaan: aino, ned",
            ],
            &["alfabeto", "eligiendo objetivos", "Cadena de la mesa:", "Se espera a: aino, ned"],
        ],
        &["alphabet", "choosing goals", "Table string", "Waiting for"],
    ),
    (
        "rewrite -rounds=1",
        &[("aino", "goal aag"), ("ned", "goal acc"), ("aino", "tcg=>ag"), ("ned", "c=>t")],
        [
            &[
                "Säännöt:",
                "Tavoitteet ja osumat lopullisessa merkkijonossa:",
                "Kierros 1 säännöstö kerrallaan:",
            ],
            &["Reglas:", "Objetivos y aciertos en la cadena final:", "Ronda 1, conjunto a conjunto:"],
        ],
        &["Rules:", "Goals and hits", "set 1:", " hit", "pass by pass", "application"],
    ),
    (
        "intervalo",
        &[("aino", "5")],
        [
            &["Pisteet: A aino 0, B ned 0", "Vuoro 1: vielä valitsemassa: ned"],
            &["Puntos: A aino 0", "Turno 1: se espera a ned"],
        ],
        &["Score:", "waiting for"],
    ),
    (
        "intervalo",
        &[("aino", "5"), ("ned", "6"), ("aino", "7"), ("ned", "resign")],
        [
            &["Edellinen vuoro (1): aino 5, ned 6: ", "aino voittaa: ned luovutti"],
            &["Último turno (1): aino 5, ned 6: ", "gana aino: ned abandonó"],
        ],
        &["Last turn", " wins: ", "Turn 2"],
    ),
    (
        "conway",
        &[("aino", "a1")],
        [
            &["1 nappula", "Siirto 1, sukupolvi 0; seuraava siirto voi asettaa enintään 2 nappulaa"],
            &["1 ficha", "Jugada 1, generación 0; la próxima jugada puede colocar hasta 2 fichas"],
        ],
        &["piece", "Move 1", "generation", "the next move"],
    ),
    (
        "conway",
        &[("aino", "a1"), ("ned", "resign")],
        [&["(voittaja)", "(luovuttanut)"], &["(ganador)", "(abandonó)"]],
        &["(winner)", "(resigned)", "piece"],
    ),
    (
        "rtlife",
        &[],
        [
            &[
                "Sukupolvi 0, jakso 0",
                "Seuraava jakso ",
                " kuluttua)",
                "pistemäärä 0,00",
                "(ei vielä asettanut soluja)",
            ],
            &["Generación 0, tic 0", "Próximo tic: ", "(dentro de ", "puntuación 0,00", "(aún sin colocar)"],
        ],
        &["Generation", "Next tick", "score", "not placed", "cells"],
    ),
    (
        "rtlife",
        &[("ned", "resign"), ("aino", "resign")],
        [
            &["Peli on päättynyt: pelissä ei ole enää ketään.", "(tasapeli)", "0 solua"],
            &["La partida ha terminado: no queda nadie en la partida.", "(tablas)", "0 células"],
        ],
        &["The game is over", "(draw)", "score", "cells"],
    ),
];

#[test]
fn the_board_reads_in_the_language_asked_for() {
    for (challenge, moves, [fi, es], english) in BOARDS {
        let game = challenge.split_whitespace().next().unwrap();
        let t = Tabula::new();
        t.signup(&["aino", "ned"]);
        let (kind, options) = challenge.split_once(' ').unwrap_or((challenge, ""));
        t.ok(&format!("{kind} challenge aino ned {options}"));
        for (user, mv) in *moves {
            t.ok(&format!("{game} move 1 {user} pw-{user} {mv}"));
        }
        for (lang, words) in [("fi", fi), ("es", es)] {
            let out = t.ok(&format!("--lang {lang} {game} show 1"));
            for word in *words {
                assert!(out.contains(word), "{challenge} {moves:?} in {lang}: {word:?} missing from\n{out}");
            }
            for word in *english {
                assert!(!out.contains(word), "{challenge} {moves:?} in {lang}: {word:?} in\n{out}");
            }
        }
        // The English board says what the others translate.
        let out = t.ok(&format!("{game} show 1"));
        assert!(english.iter().any(|w| out.contains(w)), "{challenge} {moves:?} in English:\n{out}");
    }
}
