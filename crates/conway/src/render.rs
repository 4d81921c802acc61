//! What players see: the view, the text board and the SVG picture.

use serde::Serialize;
use tabula_model::coords::column_name;
use tabula_model::svg::{self, NEUTRAL_COLOUR, escape, player_colour};
use tabula_model::{ClickMap, Lang, Seat, msg};

/// Where a player stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayerStatus {
    /// Still in the game.
    Playing,
    /// Eliminated: no pieces left after a generation.
    Out,
    /// Resigned.
    Resigned,
    /// Won.
    Won,
    /// Shared a draw.
    Drew,
    /// Lost (the game is over and someone else won).
    Lost,
}

impl PlayerStatus {
    /// What follows the player's line (` (out)`), in `lang`.
    fn note(self, lang: Lang) -> String {
        let word = match self {
            PlayerStatus::Playing | PlayerStatus::Lost => return String::new(),
            PlayerStatus::Out => msg!("conway-board-out"),
            PlayerStatus::Resigned => msg!("conway-board-resigned"),
            PlayerStatus::Won => msg!("conway-board-winner"),
            PlayerStatus::Drew => msg!("conway-board-draw"),
        };
        format!(" {}", word.render(lang))
    }
}

/// `3 pieces` in `lang`.
fn pieces(count: u64, lang: Lang) -> String {
    msg!("conway-board-pieces", pieces = count).render(lang)
}

/// `Move 3, generation 1` in `lang`.
fn move_line(view: &ConwayView, lang: Lang) -> String {
    msg!("conway-board-move", moves = view.moves.to_string(), generation = view.generation.to_string())
        .render(lang)
}

/// One line of the legend.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerLine {
    /// The player's letter on the board (`A` for the first player).
    pub letter: char,
    /// User id.
    pub user: String,
    /// Pieces on the board.
    pub pieces: u64,
    /// Where the player stands.
    pub status: PlayerStatus,
}

/// The board as everyone sees it (Conway has no secrets).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConwayView {
    /// Board side.
    pub size: usize,
    /// Rows top first (the top row is row `size`), one character per point:
    /// `.` empty, `#` neutral, `A`.. players.
    pub rows: Vec<String>,
    /// The players in turn order.
    pub players: Vec<PlayerLine>,
    /// Neutral pieces.
    pub neutral: u64,
    /// Moves made.
    pub moves: u64,
    /// Generations so far.
    pub generation: u64,
    /// Whose move it is, while the game runs.
    pub to_move: Option<Seat>,
    /// Pieces the next move may place (0 once over).
    pub allowed: u64,
    /// The `-place` option.
    pub place: u64,
    /// The `-max_turns` option, if set.
    pub max_turns: Option<u64>,
}

/// The text board: column letters above and below (stacked when past `z`),
/// row numbers on both sides with row 1 at the bottom, then the legend,
/// its words in `lang`.
pub fn text(view: &ConwayView, lang: Lang) -> String {
    let n = view.size;
    let names: Vec<String> = (0..n as u64).map(column_name).collect();
    let depth = names.iter().map(String::len).max().unwrap_or(1);
    let margin = n.to_string().len();
    let mut header = String::new();
    for level in 0..depth {
        header.push_str(&" ".repeat(margin + 1));
        for name in &names {
            let pad = depth - name.len();
            header.push(if level < pad { ' ' } else { name.as_bytes()[level - pad] as char });
        }
        header.push('\n');
    }
    let mut out = header.clone();
    for (i, row) in view.rows.iter().enumerate() {
        let number = n - i;
        out.push_str(&format!("{number:>margin$} {row} {number}\n"));
    }
    out.push_str(&header);
    out.push('\n');
    let width = view.players.iter().map(|p| p.user.len()).max().unwrap_or(0);
    for p in &view.players {
        out.push_str(&format!(
            "{} {:<width$} {}{}\n",
            p.letter,
            p.user,
            pieces(p.pieces, lang),
            p.status.note(lang)
        ));
    }
    let neutral = msg!("conway-board-neutral").render(lang);
    out.push_str(&format!("# {:<width$} {}\n", neutral, pieces(view.neutral, lang), width = width));
    out.push_str(&move_line(view, lang));
    if view.to_move.is_some() {
        out.push_str(&format!("; {}", msg!("conway-board-may-place", pieces = view.allowed).render(lang)));
    }
    // Only while the game runs: a finished game does not announce its end.
    if let Some(m) = view.max_turns
        && view.to_move.is_some()
    {
        out.push_str(&format!("; {}", msg!("conway-board-ends-after", moves = m.to_string()).render(lang)));
    }
    out.push('\n');
    out
}

/// Space around the board in the picture, for the coordinates.
const MARGIN: f64 = 28.0;

/// Side of one cell in the picture of a board of `n` columns: 24 up to 40
/// columns, else what fits 960 (at least 2).
fn cell_side(n: usize) -> f64 {
    if n <= 40 { 24.0 } else { (960.0 / n as f64).max(2.0) }
}

/// Where [`svg`] draws the points, for the web's clicks: a grid of named
/// points, as many a move as the view allows.
pub fn click_map(view: &ConwayView) -> Option<ClickMap> {
    let max = usize::try_from(view.allowed.max(1)).unwrap_or(usize::MAX);
    Some(ClickMap::Grid {
        x0: MARGIN,
        y0: MARGIN,
        cell: cell_side(view.size),
        columns: view.size,
        rows: view.size,
        max,
    })
}

/// The board as a standalone SVG document: the grid with coordinates, pieces
/// in player colours, neutral pieces grey, and the legend below, its words
/// in `lang`.
pub fn svg(view: &ConwayView, lang: Lang) -> String {
    let n = view.size;
    let cell = cell_side(n);
    let margin = MARGIN;
    let board = cell * n as f64;
    let legend = 22.0 * (view.players.len() + 2) as f64;
    let (w, h) = (board + 2.0 * margin, board + 2.0 * margin + legend);
    let mut out = svg::open(w, h);
    out.push_str(&format!("<rect width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>"));
    out.push_str(&format!(
        "<rect x=\"{margin}\" y=\"{margin}\" width=\"{board}\" height=\"{board}\" fill=\"#f4f1e8\" stroke=\"#888888\"/>"
    ));
    if cell >= 6.0 {
        for i in 1..n {
            let at = margin + cell * i as f64;
            out.push_str(&format!(
                "<line x1=\"{at}\" y1=\"{margin}\" x2=\"{at}\" y2=\"{}\" stroke=\"#d8d2c0\" stroke-width=\"0.5\"/>",
                margin + board
            ));
            out.push_str(&format!(
                "<line x1=\"{margin}\" y1=\"{at}\" x2=\"{}\" y2=\"{at}\" stroke=\"#d8d2c0\" stroke-width=\"0.5\"/>",
                margin + board
            ));
        }
    }
    let label_every = if cell >= 14.0 { 1 } else { (14.0 / cell).ceil() as usize };
    for i in (0..n).step_by(label_every) {
        let cx = margin + cell * (i as f64 + 0.5);
        out.push_str(&format!(
            "<text x=\"{cx}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{}</text>",
            margin - 8.0,
            column_name(i as u64)
        ));
        let cy = margin + cell * (i as f64 + 0.5) + 4.0;
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{cy}\" font-size=\"12\" text-anchor=\"end\">{}</text>",
            margin - 4.0,
            n - i
        ));
    }
    for (y, row) in view.rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let colour = match c {
                '#' => NEUTRAL_COLOUR,
                'A'..='Z' => player_colour(usize::from(c as u8 - b'A')),
                _ => continue,
            };
            let (px, py) = (margin + cell * x as f64, margin + cell * y as f64);
            let inset = if cell >= 6.0 { cell * 0.1 } else { 0.0 };
            out.push_str(&format!(
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"{colour}\"><title>{}{}</title></rect>",
                px + inset,
                py + inset,
                cell - 2.0 * inset,
                cell - 2.0 * inset,
                cell * 0.25,
                column_name(x as u64),
                n - y
            ));
        }
    }
    let mut ly = margin + board + 24.0;
    for (s, p) in view.players.iter().enumerate() {
        let turn = if view.to_move == Some(s) {
            format!(" {}", msg!("conway-board-to-move").render(lang))
        } else {
            String::new()
        };
        out.push_str(&format!(
            "<rect x=\"{margin}\" y=\"{}\" width=\"14\" height=\"14\" rx=\"3\" fill=\"{}\"/><text x=\"{}\" y=\"{}\" font-size=\"13\">{} {}: {}{}{}</text>",
            ly - 11.0,
            player_colour(s),
            margin + 20.0,
            ly,
            p.letter,
            escape(&p.user),
            escape(&pieces(p.pieces, lang)),
            escape(&p.status.note(lang)),
            escape(&turn)
        ));
        ly += 22.0;
    }
    out.push_str(&format!(
        "<rect x=\"{margin}\" y=\"{}\" width=\"14\" height=\"14\" rx=\"3\" fill=\"{NEUTRAL_COLOUR}\"/><text x=\"{}\" y=\"{ly}\" font-size=\"13\"># {}: {}</text>",
        ly - 11.0,
        margin + 20.0,
        escape(&msg!("conway-board-neutral").render(lang)),
        escape(&pieces(view.neutral, lang))
    ));
    ly += 22.0;
    out.push_str(&format!(
        "<text x=\"{margin}\" y=\"{ly}\" font-size=\"13\">{}</text>",
        escape(&move_line(view, lang))
    ));
    out.push_str("</svg>\n");
    out
}
