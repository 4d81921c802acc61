//! Shared helpers for the DNA tests.
#![allow(dead_code)]

use tabula_dna::{Dna, INFO, KIND};
use tabula_model::{Event, EventAction, Game, HistoryEntry, MoveError, Options, Seat, Viewer};

/// The seed's three sequences.
pub const NED: &str = "TCGCATGTACAAAGTTTTCAATCTTCGCCTTGAGAG";
pub const TED: &str = "TCAGCGCGTTCCCGGAGTCGTCGTATTAAAGGGGAT";
pub const JED: &str = "GCCAATTATGGACTTGTTGTCAGATAGTTTCCGGCG";

/// A new game with these option words and players.
pub fn create(options: &[&str], players: &[&str]) -> Game {
    let options = Options::parse(&INFO, options).expect("valid options");
    Game::create(&KIND, options, players.iter().map(|p| p.to_string()).collect(), 7, 0).expect("game sets up")
}

/// A `-manual` game (the flag is added) where every player has set the given sequence.
pub fn manual(options: &[&str], players: &[(&str, &str)]) -> Game {
    let mut words = options.to_vec();
    words.push("-manual");
    let names: Vec<&str> = players.iter().map(|(n, _)| *n).collect();
    let mut game = create(&words, &names);
    for (seat, (_, sequence)) in players.iter().enumerate() {
        play(&mut game, seat, sequence).expect("sequence accepted");
    }
    game
}

/// The seed's game: ned, ted and jed with the seed's sequences.
pub fn seed_game(options: &[&str]) -> Game {
    manual(options, &[("ned", NED), ("ted", TED), ("jed", JED)])
}

/// Submit a move.
pub fn play(game: &mut Game, seat: Seat, text: &str) -> Result<Vec<HistoryEntry>, MoveError> {
    game.submit(Event { at: 0, seat: Some(seat), action: EventAction::Move(text.to_string()) })
}

/// Submit a resignation.
pub fn resign(game: &mut Game, seat: Seat) -> Vec<HistoryEntry> {
    game.submit(Event { at: 0, seat: Some(seat), action: EventAction::Resign { reason: None } })
        .expect("resignation accepted")
}

/// The board as an observer sees it.
pub fn board(game: &Game) -> String {
    game.render_text(Viewer::Observer, 0, tabula_model::Lang::En)
}

/// The history lines as `viewer` sees them.
pub fn history(game: &Game, viewer: Viewer) -> Vec<String> {
    game.history_for(viewer).into_iter().map(|h| h.entry.text).collect()
}

/// The typed state.
pub fn dna(game: &Game) -> &Dna {
    game.state().as_any().downcast_ref::<Dna>().expect("a DNA game")
}

/// The current sequence of `seat` as text.
pub fn sequence(game: &Game, seat: Seat) -> String {
    String::from_utf8_lossy(dna(game).sequence(seat).unwrap_or_default()).into_owned()
}

/// The message of a refused move.
pub fn refusal(game: &mut Game, seat: Seat, text: &str) -> String {
    let before = game.record().clone();
    let error = play(game, seat, text).expect_err("move refused");
    assert_eq!(game.record(), &before, "a refused move changes nothing");
    error.to_string()
}
