use serde::Serialize;
use tabula_model::{Arg, Message, Rules, Seat, Viewer, msg};

use crate::rules::Intervalo;

/// What one viewer may see of an Intervalo game: the strip, the scores, the
/// resolved turns, and whether each player has chosen this turn (but never
/// the other player's pending choice).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct IntervaloView {
    /// The players' user ids, in seat order.
    pub players: [String; 2],
    /// The seat of the viewer, if a player.
    pub viewer: Option<Seat>,
    /// One character per cell from cell 1: `.` empty, `#` neutral; for a
    /// player `x` their own piece and `o` the opponent's; for an observer
    /// `a` the first player's piece and `b` the second's.
    pub strip: String,
    /// Points, in seat order.
    pub scores: [u32; 2],
    /// The resolved turns, oldest first.
    pub history: Vec<TurnView>,
    /// Whether each seat has chosen in the current turn.
    pub chosen: [bool; 2],
    /// The viewer's own pending choice (a cell number), if any.
    pub my_choice: Option<usize>,
    /// The result once over (`"ned wins: more points"`, in English in the
    /// JSON view), else `None`.
    pub result: Option<Message>,
}

/// One resolved turn as shown to everyone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TurnView {
    /// The chosen cell numbers, in seat order.
    pub choices: [usize; 2],
    /// The seat that scored a point, if any.
    pub point: Option<Seat>,
}

impl IntervaloView {
    pub(crate) fn new(
        state: &Intervalo,
        viewer: Viewer,
        players: &[String; 2],
        pending: [Option<usize>; 2],
    ) -> Self {
        let seat = viewer.seat().filter(|&s| s < 2);
        let result = state.outcome().map(|o| match o.sole_winner() {
            Some(w) => msg!("intervalo-board-wins", user = &players[w], reason = Arg::from(o.reason.clone())),
            None => msg!("intervalo-board-draw", reason = Arg::from(o.reason.clone())),
        });
        IntervaloView {
            players: players.clone(),
            viewer: seat,
            strip: state.strip_for_viewer(viewer),
            scores: state.scores(),
            history: state.turns().iter().map(|t| TurnView { choices: t.choices, point: t.point }).collect(),
            chosen: [pending[0].is_some(), pending[1].is_some()],
            my_choice: seat.and_then(|s| pending[s]).map(|c| c + 1),
            result,
        }
    }
}
