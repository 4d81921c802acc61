//! DNA's static facts: the option table and player counts (its texts,
//! the rules and the move help among them, are in `locales/`).

use tabula_model::{Dynamics, GameInfo, OptionKind, OptionSpec};

/// Longest sequence a game may use. Long enough for any sensible game, and
/// small enough that listing every legal nomination stays fast.
pub const MAX_LENGTH: i64 = 200;

const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "length",
        kind: OptionKind::Int { min: 2, max: MAX_LENGTH },
        default: Some("36"),
        help: "sequence length",
    },
    OptionSpec {
        name: "chunk",
        kind: OptionKind::Int { min: 2, max: MAX_LENGTH },
        default: None,
        help: "chunk size (3 if no chunk option is given); sets both -min_chunk and -max_chunk",
    },
    OptionSpec {
        name: "min_chunk",
        kind: OptionKind::Int { min: 2, max: MAX_LENGTH },
        default: None,
        help: "smallest chunk size (at least 2)",
    },
    OptionSpec {
        name: "max_chunk",
        kind: OptionKind::Int { min: 2, max: MAX_LENGTH },
        default: None,
        help: "largest chunk size",
    },
    OptionSpec {
        name: "base",
        kind: OptionKind::Int { min: 2, max: 4 },
        default: Some("4"),
        help: "number of letters used: the first 2, 3 or 4 of A, C, G, T",
    },
    OptionSpec {
        name: "manual",
        kind: OptionKind::Flag,
        default: None,
        help: "players set their own sequences (or `random`), hidden until all are set",
    },
    OptionSpec {
        name: "non_incremental",
        kind: OptionKind::Flag,
        default: None,
        help: "no first-round limit on the chunks removed from an opponent",
    },
    OptionSpec {
        name: "need_not_own",
        kind: OptionKind::Flag,
        default: None,
        help: "a nominated chunk need not occur in the mover's own sequence",
    },
    OptionSpec {
        name: "no_reduce_self",
        kind: OptionKind::Flag,
        default: None,
        help: "a nomination does not reduce the mover's own sequence",
    },
    OptionSpec {
        name: "reduce_next",
        kind: OptionKind::Flag,
        default: None,
        help: "a nomination reduces only the next opponent in turn order",
    },
];

/// DNA's static facts.
pub static INFO: GameInfo = GameInfo {
    kind: "dna",
    min_players: 2,
    max_players: 8,
    dynamics: Dynamics::Sequential,
    hidden_information: true,
    open_join: false,
    options: OPTIONS,
};
