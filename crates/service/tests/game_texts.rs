//! What the games themselves say, in the reader's language: how a game
//! ended (the outcome line and the report's reason) and the lines of its
//! history, for each of the five games, read through the service.

mod common;

use tabula_model::Lang;
use tabula_service::{Caller, Context, Origin, Reply, Service};

/// Board 1 of `game` between aino and ned, ended by `moves` (`user move`).
async fn finished(s: &Service, game: &str, moves: &[(&str, &str)]) {
    s.execute(&format!("{game} challenge aino ned"), &Caller::User("aino".into())).await.unwrap();
    for (user, mv) in moves {
        s.execute(&format!("{game} move 1 {user} pw-{user} {mv}"), &Caller::Anonymous).await.unwrap();
    }
}

async fn show(s: &Service, game: &str, lang: Lang) -> Reply {
    let reader = Context::new(Caller::Anonymous, Origin::Local).in_lang(lang);
    s.execute(&format!("{game} show 1"), reader).await.unwrap()
}

/// A game, the moves (user, move) that end it, and three texts of its end.
type Ending = (&'static str, &'static [(&'static str, &'static str)], [&'static str; 3]);

/// Each game ended, and the outcome line and reason read in each language.
const ENDINGS: &[Ending] = &[
    (
        "dna",
        &[("ned", "resign")],
        [
            "Game won by aino (last player standing).",
            "Pelin voitti aino (viimeinen pelissä jäljellä oleva pelaaja).",
            "Partida ganada por aino (último jugador en pie).",
        ],
    ),
    (
        "rewrite",
        &[("ned", "resign")],
        [
            "Game won by aino (every other player resigned).",
            "Pelin voitti aino (kaikki muut pelaajat luovuttivat).",
            "Partida ganada por aino (todos los demás jugadores abandonaron).",
        ],
    ),
    (
        "intervalo",
        &[("aino", "5"), ("ned", "resign")],
        [
            "Game won by aino (ned resigned).",
            "Pelin voitti aino (ned luovutti).",
            "Partida ganada por aino (ned abandonó).",
        ],
    ),
    (
        "conway",
        &[("aino", "a1"), ("ned", "resign")],
        [
            "Game won by aino (last player standing).",
            "Pelin voitti aino (viimeinen pelissä jäljellä oleva pelaaja).",
            "Partida ganada por aino (último jugador en pie).",
        ],
    ),
    (
        "rtlife",
        &[("ned", "resign"), ("aino", "resign")],
        [
            "Game drawn between aino and ned (nobody is left in the game).",
            "Peli päättyi tasan pelaajien aino ja ned kesken (pelissä ei ole enää ketään).",
            "Partida en tablas entre aino y ned (no queda nadie en la partida).",
        ],
    ),
];

#[tokio::test]
async fn how_a_game_ended_reads_in_each_language() {
    for (game, moves, lines) in ENDINGS {
        let dir = tempfile::tempdir().unwrap();
        let s = common::aino_and_ned(&dir).await;
        finished(&s, game, moves).await;
        for (lang, line) in Lang::ALL.into_iter().zip(lines) {
            let reply = show(&s, game, lang).await;
            assert!(reply.text.contains(line), "{game} {lang}: {}", reply.text);
            // The report's reason, in the same words as the line's.
            let report = reply.game.expect("a board's report");
            let reason = report.outcome.expect("an outcome")["reason"].as_str().unwrap().to_string();
            assert!(line.contains(&format!("({reason})")), "{game} {lang}: {reason}");
        }
    }
}

/// A line of each game's history (from the endings above), as each
/// language writes it.
const LINES: &[(&str, [&str; 3])] = &[
    (
        "dna",
        [
            "ned resigns; their sequence stays on the board, frozen",
            "ned luovuttaa; hänen sekvenssinsä jää laudalle jäätyneenä",
            "ned abandona; su secuencia queda en el tablero, congelada",
        ],
    ),
    (
        "rewrite",
        [
            "aino wins: every other player resigned.",
            "aino voittaa: kaikki muut pelaajat luovuttivat.",
            "aino gana: todos los demás jugadores abandonaron.",
        ],
    ),
    ("intervalo", ["aino chooses cell 5", "aino valitsee ruudun 5", "aino elige la casilla 5"]),
    (
        "conway",
        [
            "aino wins: last player standing",
            "aino voittaa: viimeinen pelissä jäljellä oleva pelaaja",
            "aino gana: último jugador en pie",
        ],
    ),
    (
        "rtlife",
        [
            "The game is a draw between aino, ned with 0.00 each: nobody is left in the game",
            "Peli päättyy tasan pelaajien aino, ned kesken, kullakin 0,00: pelissä ei ole enää ketään",
            "La partida termina en tablas entre aino, ned con 0,00 cada uno: no queda nadie en la partida",
        ],
    ),
];

#[tokio::test]
async fn the_history_reads_in_each_language() {
    for ((game, moves, _), (same, lines)) in ENDINGS.iter().zip(LINES) {
        assert_eq!(game, same);
        let dir = tempfile::tempdir().unwrap();
        let s = common::aino_and_ned(&dir).await;
        finished(&s, game, moves).await;
        for (lang, line) in Lang::ALL.into_iter().zip(lines) {
            // The move list of the board's text, and the report's history.
            let reply = show(&s, game, lang).await;
            assert!(reply.text.contains(&format!(" {line}\n")), "{game} {lang}: {}", reply.text);
            let history = reply.game.expect("a board's report").history_entries();
            assert!(history.iter().any(|h| h.entry.text == *line), "{game} {lang}: {history:?}");
            // The `history` command.
            let reader = Context::new(Caller::Anonymous, Origin::Local).in_lang(lang);
            let all = s.execute(&format!("{game} history 1"), reader).await.unwrap();
            assert!(all.text.contains(&format!(" {line}\n")), "{game} {lang}: {}", all.text);
        }
    }
}

#[tokio::test]
async fn the_board_and_its_picture_read_in_the_readers_language() {
    let dir = tempfile::tempdir().unwrap();
    let s = common::aino_and_ned(&dir).await;
    finished(&s, "intervalo", &[("aino", "5")]).await;
    // The reply's board, as mail and the command line show it.
    let reply = show(&s, "intervalo", Lang::Es).await;
    assert!(reply.text.contains("\nPuntos: A aino 0, B ned 0\nTurno 1: se espera a ned\n"), "{}", reply.text);
    assert!(!reply.text.contains("Score:") && !reply.text.contains("waiting for"), "{}", reply.text);
    let reply = show(&s, "intervalo", Lang::Fi).await;
    assert!(reply.text.contains("\nPisteet: A aino 0, B ned 0\n"), "{}", reply.text);
    // The web's picture of the same board, a player's and an observer's.
    let picture = s.snapshot(1, None, None, Lang::Es).await.unwrap().svg;
    assert!(picture.contains("<title>casilla 1: libre</title>"), "{picture}");
    assert!(picture.contains("el intervalo del último turno"), "{picture}");
    assert!(!picture.contains("empty") && !picture.contains("points"), "{picture}");
    let picture = s.snapshot(1, Some("aino"), None, Lang::Fi).await.unwrap().svg;
    assert!(picture.contains("X aino (sinä): 0 pistettä"), "{picture}");
    // English as it always was.
    let picture = s.snapshot(1, Some("aino"), None, Lang::En).await.unwrap().svg;
    assert!(picture.contains("<title>cell 1: empty</title>") && picture.contains("X aino (you): 0 points"));
}
