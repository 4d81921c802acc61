//! The text of replies, in pbmserv's shape: a heading (`DNA Board 4 ted`,
//! the mail subject), the status lines, the move list, the board as the
//! reader may see it.

use serde::Serialize;
use tabula_i18n::t;
use tabula_model::Lang;
use tabula_model::{Game, MoveLine, Outcome, Timestamp, Turn, Viewer};

use crate::store::GameStatus;

/// Most move-list lines a board reply shows (the `history` command shows all).
pub const MOVE_LIST_LINES: usize = 60;

/// Users' names joined as in English: `a`, `a and b`, `a, b and c`.
pub fn and_list(names: &[String]) -> String {
    tabula_i18n::and_list(Lang::En, names)
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

/// The heading / mail subject in `lang`: `DNA Board 4 ted`.
pub fn heading(game: &Game, id: i64, status: GameStatus, lang: Lang) -> String {
    let game_title = game.kind().info().title(lang);
    let board = id.to_string();
    match status {
        GameStatus::Finished => t!(lang, "heading-over", game = game_title, board = board),
        GameStatus::Cancelled => t!(lang, "heading-cancelled", game = game_title, board = board),
        _ => {
            let users = to_move_users(game);
            if users.is_empty() {
                t!(lang, "heading", game = game_title, board = board)
            } else {
                t!(lang, "heading-to-move", game = game_title, board = board, users = users.join(" "))
            }
        }
    }
}

/// `Game won by ted.` and friends, in `lang`.
pub fn outcome_line(game: &Game, outcome: &Outcome, lang: Lang) -> String {
    let names: Vec<String> = outcome.winners.iter().map(|&s| game.players()[s].clone()).collect();
    let reason = outcome.reason.render(lang);
    let reason = reason.as_str();
    match names.as_slice() {
        [w] => t!(lang, "outcome-won", winner = w.as_str(), reason = reason),
        [] => t!(lang, "outcome-drawn", reason = reason),
        many => {
            t!(lang, "outcome-drawn-between", players = tabula_i18n::and_list(lang, many), reason = reason)
        }
    }
}

/// One status line of a board and, for the line saying whose turn it is,
/// whose: a front end shows that line its own way to the player it names
/// ("It is your turn.") without reading the sentence, in any language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StatusLine {
    /// The line as the reply writes it.
    pub text: String,
    /// The one player this line says is to move, if it says so.
    pub turn_of: Option<String>,
}

impl From<String> for StatusLine {
    fn from(text: String) -> Self {
        StatusLine { text, turn_of: None }
    }
}

/// The status lines of a board, in `lang`.
pub fn status_lines(game: &Game, status: GameStatus, waiting_for: &[String], lang: Lang) -> Vec<String> {
    status_lines_with_turn(game, status, waiting_for, lang).into_iter().map(|l| l.text).collect()
}

/// [`status_lines`] with what each says (see [`StatusLine`]).
pub fn status_lines_with_turn(
    game: &Game,
    status: GameStatus,
    waiting_for: &[String],
    lang: Lang,
) -> Vec<StatusLine> {
    let mut lines: Vec<StatusLine> = Vec::new();
    let list = |names: &[String]| tabula_i18n::and_list(lang, names);
    match status {
        GameStatus::Proposed => {
            lines.push(t!(lang, "status-challenge-waits", users = list(waiting_for)).into());
            return lines;
        }
        GameStatus::Cancelled => {
            lines.push(t!(lang, "status-challenge-rejected").into());
            return lines;
        }
        _ => {}
    }
    match game.to_move() {
        Turn::Over => {
            if let Some(o) = game.outcome() {
                lines.push(outcome_line(game, &o, lang).into());
            }
        }
        Turn::Player(p) => {
            let user = game.players()[p].as_str();
            lines.push(StatusLine {
                text: t!(lang, "status-turn", user = user),
                turn_of: Some(user.to_string()),
            });
        }
        Turn::Simultaneous(_) => {
            lines.push(t!(lang, "status-simultaneous", users = list(&to_move_users(game))).into())
        }
        Turn::Clock => lines.push(t!(lang, "status-clock").into()),
    }
    if let Some(p) = game.proposal() {
        let others: Vec<String> = (0..game.players().len())
            .filter(|s| game.state().is_active(*s) && !p.accepted.contains(s))
            .map(|s| game.players()[s].clone())
            .collect();
        let by = game.players()[p.by].as_str();
        let line = match p.kind {
            tabula_model::ProposalKind::Draw => {
                t!(lang, "status-proposes-draw", user = by, others = list(&others))
            }
            tabula_model::ProposalKind::Undo => {
                t!(lang, "status-proposes-undo", user = by, others = list(&others))
            }
        };
        lines.push(line.into());
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
    lang: Lang,
) {
    use std::fmt::Write as _;
    let cut = lines.len().saturating_sub(max_lines);
    if cut > 0 {
        let _ = writeln!(out, "      {}", t!(lang, "moves-cut", lines = cut));
    }
    for (i, MoveLine { number, opens, undone, text }) in lines.enumerate() {
        if i >= cut {
            if opens && !undone {
                // `{number:>4}. `, written without `write!`: a board has many lines.
                let mut buffer = itoa::Buffer::new();
                let digits = buffer.format(number);
                out.extend(std::iter::repeat_n(' ', 4usize.saturating_sub(digits.len())));
                out.push_str(digits);
                out.push_str(". ");
            } else {
                out.push_str("      ");
            }
            // A line's own line breaks would start lines of their own.
            // Put into words here: only the lines shown are.
            for (j, part) in text.in_lang(lang).split('\n').enumerate() {
                if j > 0 {
                    out.push(' ');
                }
                out.push_str(part);
            }
            if opens && undone {
                out.push(' ');
                out.push_str(&t!(lang, "move-taken-back"));
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

/// Render a board reply for `viewer`, in `lang`: only the move-list lines
/// it shows are put into words.
pub fn board_text(
    game: &Game,
    id: i64,
    status: GameStatus,
    viewer: Viewer,
    now: Timestamp,
    waiting_for: &[String],
    lang: Lang,
) -> BoardText {
    let history = game.history_lines_for(viewer);
    let mut body = String::new();
    for line in status_lines(game, status, waiting_for, lang) {
        body.push_str(&line);
        body.push('\n');
    }
    if history.len() > 0 {
        body.push('\n');
        body.push_str(&t!(lang, "moves-heading"));
        body.push('\n');
        write_move_list(&mut body, history, MOVE_LIST_LINES, lang);
    }
    let board = game.render_text(viewer, now, lang);
    if !board.trim().is_empty() {
        body.push('\n');
        body.push_str(board.trim_end_matches('\n'));
        body.push('\n');
    }
    BoardText { heading: heading(game, id, status, lang), body }
}
