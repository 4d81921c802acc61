//! The registry: one explicit table of every game Tabula hosts. The service,
//! the bots and the front ends find games here by their command word.

use tabula_model::GameKind;

/// Every game, in the order `list` shows them.
pub fn all() -> &'static [&'static dyn GameKind] {
    REGISTRY
}

static REGISTRY: &[&dyn GameKind] = &[
    &tabula_dna::KIND,
    &tabula_rewrite::KIND,
    &tabula_intervalo::KIND,
    &tabula_conway::KIND,
    &tabula_rtlife::KIND,
];

/// The game whose command word is `kind` (case-insensitive).
pub fn find(kind: &str) -> Option<&'static dyn GameKind> {
    all().iter().copied().find(|k| k.info().kind.eq_ignore_ascii_case(kind))
}

#[cfg(test)]
mod tests {
    use tabula_model::Seats;

    #[test]
    fn every_game_seats_no_more_than_a_set_of_seats_holds() {
        // `Turn::Simultaneous` lists the seats to move in a `Seats`.
        for kind in super::all() {
            assert!(kind.info().max_players <= Seats::CAPACITY, "{}", kind.info().kind);
        }
    }
}
