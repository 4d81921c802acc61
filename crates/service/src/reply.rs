//! The text of replies, in pbmserv's shape: a heading (`DNA Board 4 ted`,
//! the mail subject), the status lines, the move list, the board as the
//! reader may see it.

use serde::Serialize;
use tabula_model::Lang;
use tabula_model::{Game, HistoryEntry, MoveLine, Outcome, Timestamp, Turn, Viewer};

use crate::store::GameStatus;

/// Most move-list lines a board reply shows (the `history` command shows all).
pub const MOVE_LIST_LINES: usize = 60;

/// Users' names joined as in English: `a`, `a and b`, `a, b and c`.
pub fn and_list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [a] => a.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The users who must act now.
pub fn to_move_users(game: &Game) -> Vec<String> {
    let players = game.players();
    match game.to_move() {
        Turn::Player(p) => vec![players[p].clone()],
        Turn::Simultaneous(set) => set.iter().map(|s| players[s].clone()).collect(),
        Turn::Clock | Turn::Over => Vec::new(),
    }
}

/// The heading / mail subject: `DNA Board 4 ted`.
pub fn heading(game: &Game, id: i64, status: GameStatus) -> String {
    let title = game.kind().info().title(Lang::En);
    match status {
        GameStatus::Finished => format!("{title} Board {id} over"),
        GameStatus::Cancelled => format!("{title} Board {id} cancelled"),
        _ => {
            let users = to_move_users(game);
            if users.is_empty() {
                format!("{title} Board {id}")
            } else {
                format!("{title} Board {id} {}", users.join(" "))
            }
        }
    }
}

/// `Game won by ted.` and friends.
pub fn outcome_line(game: &Game, outcome: &Outcome) -> String {
    let names: Vec<String> = outcome.winners.iter().map(|&s| game.players()[s].clone()).collect();
    match names.as_slice() {
        [w] => format!("Game won by {w} ({}).", outcome.reason),
        [] => format!("Game drawn ({}).", outcome.reason),
        many => format!("Game drawn between {} ({}).", and_list(many), outcome.reason),
    }
}

/// The status lines of a board.
pub fn status_lines(game: &Game, status: GameStatus, waiting_for: &[String]) -> Vec<String> {
    let mut lines = Vec::new();
    match status {
        GameStatus::Proposed => {
            lines.push(format!("This challenge waits for {} to accept it.", and_list(waiting_for)));
            return lines;
        }
        GameStatus::Cancelled => {
            lines.push("This challenge was rejected.".into());
            return lines;
        }
        _ => {}
    }
    match game.to_move() {
        Turn::Over => {
            if let Some(o) = game.outcome() {
                lines.push(outcome_line(game, &o));
            }
        }
        Turn::Player(p) => lines.push(format!("It is {}'s turn.", game.players()[p])),
        Turn::Simultaneous(_) => lines.push(format!(
            "Waiting for {} to move (moves stay secret until all are in).",
            and_list(&to_move_users(game))
        )),
        Turn::Clock => lines.push("The game runs on the clock: any player may move at any time.".into()),
    }
    if let Some(p) = game.proposal() {
        let others: Vec<String> = (0..game.players().len())
            .filter(|s| game.state().is_active(*s) && !p.accepted.contains(s))
            .map(|s| game.players()[s].clone())
            .collect();
        let what = match p.kind {
            tabula_model::ProposalKind::Draw => "a draw",
            tabula_model::ProposalKind::Undo => "to take back the last move",
        };
        lines.push(format!(
            "{} proposes {what}; waiting for {} to accept or reject.",
            game.players()[p.by],
            and_list(&others)
        ));
    }
    lines
}

/// The move list as a viewer may see it, numbered as pbmserv did, written
/// into `out` a line each (with at most `max_lines` of the last lines,
/// after a line saying how many were left out). A move's number stands on
/// its first line; a move taken back by an undo is marked so, without its
/// number, which the move made instead carries.
pub fn write_move_list<'a>(
    out: &mut String,
    lines: impl ExactSizeIterator<Item = MoveLine<'a>>,
    max_lines: usize,
) {
    use std::fmt::Write as _;
    let cut = lines.len().saturating_sub(max_lines);
    if cut > 0 {
        let _ = writeln!(out, "      ({cut} earlier lines: the history command shows them all)");
    }
    for (i, MoveLine { number, opens, undone, text }) in lines.enumerate() {
        if i >= cut {
            if opens && !undone {
                let _ = write!(out, "{number:>4}. ");
            } else {
                out.push_str("      ");
            }
            // A line's own line breaks would start lines of their own.
            for (j, part) in text.split('\n').enumerate() {
                if j > 0 {
                    out.push(' ');
                }
                out.push_str(part);
            }
            if opens && undone {
                out.push_str(" (taken back)");
            }
            out.push('\n');
        }
    }
}

/// A board as one reader sees it: heading, status, move list, board.
#[derive(Clone, Debug, Serialize)]
pub struct BoardText {
    /// The heading (mail subject).
    pub heading: String,
    /// The body.
    pub body: String,
}

/// Render a board reply for `viewer`.
pub fn board_text(
    game: &Game,
    id: i64,
    status: GameStatus,
    viewer: Viewer,
    now: Timestamp,
    waiting_for: &[String],
) -> BoardText {
    board_text_from(game, id, status, viewer, now, waiting_for, game.history_lines_for(viewer))
}

/// [`board_text`] with the history `viewer` sees given: a reply that also
/// reports the history needs not build it twice.
pub fn board_text_with(
    game: &Game,
    id: i64,
    status: GameStatus,
    viewer: Viewer,
    now: Timestamp,
    waiting_for: &[String],
    history: &[HistoryEntry],
) -> BoardText {
    let lines = history.iter().map(HistoryEntry::line);
    board_text_from(game, id, status, viewer, now, waiting_for, lines)
}

fn board_text_from<'a>(
    game: &Game,
    id: i64,
    status: GameStatus,
    viewer: Viewer,
    now: Timestamp,
    waiting_for: &[String],
    history: impl ExactSizeIterator<Item = MoveLine<'a>>,
) -> BoardText {
    let mut body = String::new();
    for line in status_lines(game, status, waiting_for) {
        body.push_str(&line);
        body.push('\n');
    }
    if history.len() > 0 {
        body.push_str("\nMoves:\n");
        write_move_list(&mut body, history, MOVE_LIST_LINES);
    }
    let board = game.render_text(viewer, now);
    if !board.trim().is_empty() {
        body.push('\n');
        body.push_str(board.trim_end_matches('\n'));
        body.push('\n');
    }
    BoardText { heading: heading(game, id, status), body }
}
