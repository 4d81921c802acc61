//! What players see: the view, the text field and the SVG picture.

use serde::Serialize;
use tabula_life::{Life, Owner};
use tabula_model::coords::{Point, column_name};
use tabula_model::svg::{self, NEUTRAL_COLOUR, escape, player_colour};
use tabula_model::{Arg, ClickMap, Lang, Message, Timestamp, Viewer, format_datetime_seconds, msg};

use crate::rules::{Edges, Gone, RtLife};

/// Most columns of the unbounded plane a view shows (the occupied box is
/// clipped around its centre beyond this).
pub const VIEW_COLUMNS: u64 = 160;

/// Most rows of the unbounded plane a view shows.
pub const VIEW_ROWS: u64 = 80;

/// Most of a player's own cells listed in their view (`own_cells`).
pub const MAX_OWN_CELLS: usize = 4096;

/// Where a player stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerStatus {
    /// In the game, cells not placed yet.
    NotPlaced,
    /// In the game with cells on the field.
    Playing,
    /// Eliminated: no cells after a generation.
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
            PlayerStatus::NotPlaced => msg!("rtlife-board-not-placed"),
            PlayerStatus::Playing | PlayerStatus::Lost => return String::new(),
            PlayerStatus::Out => msg!("rtlife-board-out"),
            PlayerStatus::Resigned => msg!("rtlife-board-resigned"),
            PlayerStatus::Won => msg!("rtlife-board-winner"),
            PlayerStatus::Drew => msg!("rtlife-board-draw"),
        };
        format!(" {}", word.render(lang))
    }
}

/// One line of the legend.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerLine {
    /// The player's letter on the field (`A` for the first player).
    pub letter: char,
    /// User id.
    pub user: String,
    /// Live cells.
    pub cells: u64,
    /// Movement points.
    pub points: u64,
    /// The score with two decimals.
    pub score: String,
    /// The score exactly, as a reduced fraction (`61/3`) or a whole number.
    pub score_exact: String,
    /// Where the player stands.
    pub status: PlayerStatus,
}

/// A rectangle of the field in game coordinates: columns `left` to
/// `left + columns - 1`, rows `top` down to `top - rows + 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Window {
    /// Leftmost column (`x`, 0 = `a`).
    pub left: i64,
    /// Top row (`y`, 0 = row 1).
    pub top: i64,
    /// Columns.
    pub columns: u64,
    /// Rows.
    pub rows: u64,
}

/// The game as everyone sees it (Real-Time Life has no secrets).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RtLifeView {
    /// `dead`, `torus` or `unbounded`.
    pub edges: &'static str,
    /// Columns of a bounded field.
    pub width: Option<i64>,
    /// Rows of a bounded field.
    pub height: Option<i64>,
    /// Generations so far.
    pub generation: u64,
    /// Ticks so far.
    pub tick: u64,
    /// The length of a tick in seconds.
    pub tick_seconds: i64,
    /// Ticks between generations.
    pub gen_ticks: u64,
    /// Cells a player places on joining.
    pub start_cells: usize,
    /// The generation limit, if any.
    pub generations: Option<u64>,
    /// The time the view was made for.
    pub now: Timestamp,
    /// When the next tick is due, while the game runs.
    pub next_tick: Option<Timestamp>,
    /// When the next generation is due, while the game runs.
    pub next_generation: Option<Timestamp>,
    /// The part of the field shown in `rows` (on an empty plane, the
    /// points around the origin).
    pub window: Option<Window>,
    /// The rows of the window, top first, one character per point: `.`
    /// empty, `#` neutral, `A`.. players.
    pub rows: Vec<String>,
    /// The smallest rectangle holding every live cell.
    pub occupied: Option<Window>,
    /// Whether the window shows only part of the occupied box. The window
    /// is then centred on the viewer's own cells, or for anyone without
    /// cells on the field, on the middle live cell (by column and by row),
    /// so that it never shows an empty stretch between distant groups.
    pub clipped: bool,
    /// The viewer's own live cells as `[x, y]` game coordinates (`a1` is
    /// `[0, 0]`), at most [`MAX_OWN_CELLS`] of them, row by row from the
    /// top; empty for an observer.
    pub own_cells: Vec<[i64; 2]>,
    /// The smallest rectangle holding the viewer's own cells.
    pub own_box: Option<Window>,
    /// The players, by seat.
    pub players: Vec<PlayerLine>,
    /// Neutral cells.
    pub neutral: u64,
    /// How the game ended, once over (in English in the JSON view).
    pub result: Option<Message>,
}

pub(crate) fn view(game: &RtLife, viewer: Viewer, now: Timestamp) -> RtLifeView {
    let population = game.field.population();
    let outcome = game.outcome.as_ref();
    let winners = outcome.map(|o| o.winners.clone()).unwrap_or_default();
    let players = game
        .players
        .iter()
        .enumerate()
        .map(|(s, p)| {
            let won = outcome.is_some() && winners.len() == 1 && winners[0] == s;
            let drew = outcome.is_some() && winners.len() > 1 && winners.contains(&s);
            PlayerLine {
                letter: Owner::player(s).map_or('?', Owner::symbol),
                user: p.user.clone(),
                cells: Owner::player(s).map_or(0, |o| population.of(o)),
                points: p.points,
                score: p.score.to_string(),
                score_exact: p.score.exact().exact(),
                status: match p.gone {
                    _ if won => PlayerStatus::Won,
                    _ if drew => PlayerStatus::Drew,
                    Some(Gone::Out) => PlayerStatus::Out,
                    Some(Gone::Resigned) => PlayerStatus::Resigned,
                    None if outcome.is_some() => PlayerStatus::Lost,
                    None if p.placed_at.is_none() => PlayerStatus::NotPlaced,
                    None => PlayerStatus::Playing,
                },
            }
        })
        .collect();
    let occupied = game.field.bounding_box().map(|r| {
        let top_left = game.game_point(r.x, r.y);
        Window { left: top_left.x, top: top_left.y, columns: r.width, rows: r.height }
    });
    let mine = viewer.seat().and_then(Owner::player);
    let own: Vec<Point> = match mine {
        Some(me) => {
            let mut cells: Vec<Point> =
                game.live_cells().into_iter().filter(|&(_, o)| o == me).map(|(p, _)| p).collect();
            cells.sort_by_key(|p| (std::cmp::Reverse(p.y), p.x));
            cells
        }
        None => Vec::new(),
    };
    let own_box = bounding(&own);
    let (window, rows, clipped) = match game.edges {
        Edges::Unbounded => plane_rows(game, occupied, &own),
        _ => (
            Some(Window {
                left: 0,
                top: game.height - 1,
                columns: game.width as u64,
                rows: game.height as u64,
            }),
            field_rows(game),
            false,
        ),
    };
    let running = outcome.is_none();
    RtLifeView {
        edges: game.edges.word(),
        width: game.size().map(|s| s.0),
        height: game.size().map(|s| s.1),
        generation: game.generation,
        tick: game.ticks,
        tick_seconds: game.tick_ms / 1000,
        gen_ticks: game.gen_ticks,
        start_cells: game.start_cells,
        generations: game.generations,
        now,
        next_tick: if running { tabula_model::Rules::next_clock(game) } else { None },
        next_generation: game.next_generation_due(),
        window,
        rows,
        occupied,
        clipped,
        own_cells: own.iter().take(MAX_OWN_CELLS).map(|p| [p.x, p.y]).collect(),
        own_box,
        players,
        neutral: population.neutral,
        result: outcome.map(|o| o.reason.clone()),
    }
}

fn field_rows(game: &RtLife) -> Vec<String> {
    let mut grid = vec![vec!['.'; game.width as usize]; game.height as usize];
    for c in game.field.live_cells() {
        // Engine rows run from the top, as text rows do.
        grid[c.y as usize][c.x as usize] = c.owner.symbol();
    }
    grid.into_iter().map(|r| r.into_iter().collect()).collect()
}

/// The smallest window holding `points` (game coordinates).
fn bounding(points: &[Point]) -> Option<Window> {
    let left = points.iter().map(|p| p.x).min()?;
    let right = points.iter().map(|p| p.x).max()?;
    let top = points.iter().map(|p| p.y).max()?;
    let bottom = points.iter().map(|p| p.y).min()?;
    Some(Window { left, top, columns: (right - left + 1) as u64, rows: (top - bottom + 1) as u64 })
}

/// The middle value of `values` (the lower of the two middle ones).
fn median(mut values: Vec<i64>) -> Option<i64> {
    if values.is_empty() {
        return None;
    }
    let k = (values.len() - 1) / 2;
    Some(*values.select_nth_unstable(k).1)
}

/// Points of empty plane shown around the occupied box, so that a player
/// can place and move cells beyond it (by clicking on the web).
const PLANE_PAD: u64 = 5;
/// The smallest window of the plane a view shows (an empty plane shows
/// this much around the origin).
const PLANE_MIN: (u64, u64) = (20, 12);

/// The occupied box grown by [`PLANE_PAD`] points (at least [`PLANE_MIN`],
/// centred on the box; the origin's on an empty plane) when it fits a
/// view; otherwise a view-sized window centred on `own` (the viewer's
/// cells: their box when it fits, else their middle cell), or without own
/// cells on the middle live cell of the field. Clipped when the window
/// does not hold the occupied box grown by one point.
fn plane_rows(game: &RtLife, occupied: Option<Window>, own: &[Point]) -> (Option<Window>, Vec<String>, bool) {
    let b = occupied.unwrap_or(Window { left: 0, top: 0, columns: 1, rows: 1 });
    let (columns, rows) =
        ((b.columns + 2 * PLANE_PAD).max(PLANE_MIN.0), (b.rows + 2 * PLANE_PAD).max(PLANE_MIN.1));
    let (shown_columns, shown_rows) = (columns.min(VIEW_COLUMNS), rows.min(VIEW_ROWS));
    let fits = b.columns + 2 <= shown_columns && b.rows + 2 <= shown_rows;
    let (left, top) = if fits {
        (b.left - ((shown_columns - b.columns) / 2) as i64, b.top + ((shown_rows - b.rows) / 2) as i64)
    } else {
        let centre = match bounding(own) {
            Some(o) if o.columns + 2 <= shown_columns && o.rows + 2 <= shown_rows => {
                Some((o.left + (o.columns / 2) as i64, o.top - (o.rows / 2) as i64))
            }
            _ => median(own.iter().map(|p| p.x).collect()).zip(median(own.iter().map(|p| p.y).collect())),
        };
        let (cx, cy) = centre.unwrap_or_else(|| {
            let cells = game.live_cells();
            let x = median(cells.iter().map(|(p, _)| p.x).collect()).unwrap_or(b.left);
            let y = median(cells.iter().map(|(p, _)| p.y).collect()).unwrap_or(b.top);
            (x, y)
        });
        (cx - (shown_columns / 2) as i64, cy + (shown_rows / 2) as i64)
    };
    let window = Window { left, top, columns: shown_columns, rows: shown_rows };
    let lines = (0..shown_rows as i64)
        .map(|r| {
            (0..shown_columns as i64)
                .map(|c| game.field.get(left + c, -(top - r)).map_or('.', Owner::symbol))
                .collect()
        })
        .collect();
    (Some(window), lines, !fits)
}

/// `2026-01-02 18:00:00 UTC` for a time in milliseconds since the epoch,
/// `lang`'s way.
pub fn format_time(ms: Timestamp, lang: Lang) -> String {
    format_datetime_seconds(lang, ms)
}

/// A span of time, largest units first (`2d 3h`, `42m 10s`, `5s`; in
/// Finnish `2 pv 3 t`), `lang`'s way.
pub fn format_span(ms: i64, lang: Lang) -> String {
    let secs = ms.max(0).saturating_add(999) / 1000;
    let parts = [
        (secs / 86_400, msg!("rtlife-board-days", n = (secs / 86_400).to_string())),
        (secs / 3600 % 24, msg!("rtlife-board-hours", n = (secs / 3600 % 24).to_string())),
        (secs / 60 % 60, msg!("rtlife-board-minutes", n = (secs / 60 % 60).to_string())),
        (secs % 60, msg!("rtlife-board-seconds", n = (secs % 60).to_string())),
    ];
    let words: Vec<String> =
        parts.iter().filter(|(n, _)| *n > 0).map(|(_, unit)| unit.render(lang)).collect();
    if words.is_empty() { msg!("rtlife-board-seconds", n = "0").render(lang) } else { words.join(" ") }
}

fn when(due: Timestamp, now: Timestamp, lang: Lang) -> String {
    let time = format_time(due, lang);
    if due <= now {
        msg!("rtlife-board-due-now", time = time).render(lang)
    } else {
        msg!("rtlife-board-due-in", time = time, span = format_span(due - now, lang)).render(lang)
    }
}

/// `The game is over: REASON.` in `lang`.
fn over_line(reason: &Message, lang: Lang) -> String {
    msg!("rtlife-board-over", reason = reason.clone()).render(lang)
}

/// The status lines: generation and tick, then when the next ones are due.
fn status(view: &RtLifeView, lang: Lang) -> String {
    let mut out = msg!(
        "rtlife-board-generation",
        generation = view.generation.to_string(),
        tick = view.tick.to_string()
    )
    .render(lang);
    if let Some(n) = view.generations {
        out.push_str(&format!(
            " {}",
            msg!("rtlife-board-ends-after", generation = n.to_string()).render(lang)
        ));
    }
    out.push('\n');
    match (&view.result, view.next_tick, view.next_generation) {
        (Some(reason), _, _) => {
            out.push_str(&over_line(reason, lang));
            out.push('\n');
        }
        (None, Some(tick), generation) => {
            out.push_str(&msg!("rtlife-board-next-tick", when = when(tick, view.now, lang)).render(lang));
            out.push('\n');
            if let Some(g) = generation {
                out.push_str(
                    &msg!("rtlife-board-next-generation", when = when(g, view.now, lang)).render(lang),
                );
                out.push('\n');
            }
        }
        (None, None, _) => {}
    }
    out
}

/// A count's word (`cells`), padded to the longer of its singular and
/// plural so that columns line up.
fn padded_word(id: &'static str, count: u64, lang: Lang) -> String {
    let word = Message::new(id).arg("count", count).render(lang);
    let width =
        [1u64, 2].iter().map(|&n| Message::new(id).arg("count", n).render(lang).chars().count()).max();
    format!("{word:<width$}", width = width.unwrap_or(0))
}

/// The text view: the status lines, the field with coordinates (row 1 at the
/// bottom; on the unbounded plane the occupied box, with `x` and `y`
/// numbers), then a line per player; its words in `lang`.
pub fn text(view: &RtLifeView, lang: Lang) -> String {
    let mut out = status(view, lang);
    out.push('\n');
    let empty = || format!("{}\n", msg!("rtlife-board-empty").render(lang));
    match (view.edges, view.window) {
        (_, None) => out.push_str(&empty()),
        ("unbounded", Some(_)) if view.occupied.is_none() => out.push_str(&empty()),
        ("unbounded", Some(w)) => out.push_str(&plane_text(view, w, lang)),
        (_, Some(w)) => out.push_str(&field_text(view, w)),
    }
    out.push('\n');
    let neutral = msg!("rtlife-board-neutral").render(lang);
    let width = view.players.iter().map(|p| p.user.len()).max().unwrap_or(0).max(neutral.chars().count());
    for p in &view.players {
        let score = msg!("rtlife-board-score", score = Arg::decimal(&p.score)).render(lang);
        out.push_str(&format!(
            "{} {:<width$} {:>5} {} {:>5} {}  {score}{}\n",
            p.letter,
            p.user,
            p.cells,
            padded_word("rtlife-board-cells", p.cells, lang),
            p.points,
            padded_word("rtlife-board-points", p.points, lang),
            p.status.note(lang)
        ));
    }
    out.push_str(&format!(
        "# {:<width$} {:>5} {}\n",
        neutral,
        view.neutral,
        msg!("rtlife-board-cells", count = view.neutral).render(lang)
    ));
    out
}

fn field_text(view: &RtLifeView, w: Window) -> String {
    let names: Vec<String> = (0..w.columns).map(column_name).collect();
    let depth = names.iter().map(String::len).max().unwrap_or(1);
    let margin = w.rows.to_string().len();
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
        let number = w.top + 1 - i as i64;
        out.push_str(&format!("{number:>margin$} {row} {number}\n"));
    }
    out.push_str(&header);
    out
}

fn plane_text(view: &RtLifeView, w: Window, lang: Lang) -> String {
    let (right, bottom) = (w.left + w.columns as i64 - 1, w.top - w.rows as i64 + 1);
    let mut out = msg!(
        "rtlife-board-plane",
        left = w.left.to_string(),
        right = right.to_string(),
        top = w.top.to_string(),
        bottom = bottom.to_string()
    )
    .render(lang);
    if view.clipped
        && let Some(o) = view.occupied
    {
        let part = msg!(
            "rtlife-board-plane-part",
            left = o.left.to_string(),
            right = (o.left + o.columns as i64 - 1).to_string(),
            top = o.top.to_string(),
            bottom = (o.top - o.rows as i64 + 1).to_string()
        );
        out.push_str(&format!(" {}", part.render(lang)));
    }
    out.push_str(&format!("; {}\n", msg!("rtlife-board-plane-points").render(lang)));
    let margin = [w.top, bottom].iter().map(|y| y.to_string().len()).max().unwrap_or(1);
    // A ruler: each x divisible by 10 written from its column on.
    let mut ruler = vec![' '; w.columns as usize + 12];
    let mut free_from = 0;
    for c in 0..w.columns as usize {
        let x = w.left + c as i64;
        if x.rem_euclid(10) == 0 && c >= free_from {
            for (k, ch) in x.to_string().chars().enumerate() {
                ruler[c + k] = ch;
            }
            free_from = c + x.to_string().len() + 1;
        }
    }
    let ruler: String = ruler.into_iter().collect::<String>().trim_end().to_string();
    let ruler = format!("{} {ruler}\n", " ".repeat(margin));
    out.push_str(&ruler);
    for (i, row) in view.rows.iter().enumerate() {
        let y = w.top - i as i64;
        out.push_str(&format!("{y:>margin$} {row} {y}\n"));
    }
    out.push_str(&ruler);
    out
}

/// Space around the field in the picture, for the coordinates.
const MARGIN: f64 = 36.0;

/// Side of one cell in the picture of a window of `columns` by `rows`: 12
/// up to 80 on the longer side, else what fits 960 (at least 1).
fn cell_side(columns: usize, rows: usize) -> f64 {
    let longest = columns.max(rows);
    if longest <= 80 { 12.0 } else { (960.0 / longest as f64).max(1.0) }
}

/// Where [`svg`] draws the field's window, for the web's clicks; `None`
/// when no window is shown.
pub fn click_map(view: &RtLifeView) -> Option<ClickMap> {
    let window = view.window?;
    let (columns, rows) = (usize::try_from(window.columns).ok()?, usize::try_from(window.rows).ok()?);
    Some(ClickMap::Field {
        x0: MARGIN,
        y0: MARGIN,
        cell: cell_side(columns, rows),
        left: window.left,
        top: window.top,
        columns,
        rows,
        plane: view.edges == "unbounded",
        start_cells: view.start_cells,
        placing: view
            .players
            .iter()
            .filter(|p| p.status == PlayerStatus::NotPlaced)
            .map(|p| p.user.clone())
            .collect(),
    })
}

/// The view as a standalone SVG document: the field (or the occupied box
/// with a margin of one point) in player colours, coordinates along the
/// edges, and the legend below; its words in `lang`.
pub fn svg(view: &RtLifeView, lang: Lang) -> String {
    let (columns, rows) = view.window.map_or((10, 5), |w| (w.columns as usize, w.rows as usize));
    let cell = cell_side(columns, rows);
    let margin = MARGIN;
    let (field_w, field_h) = (cell * columns as f64, cell * rows as f64);
    let mut legend: Vec<(Option<&str>, String)> =
        vec![(None, status(view, lang).lines().next().unwrap_or_default().to_string())];
    for (s, p) in view.players.iter().enumerate() {
        let line = msg!(
            "rtlife-board-legend-player",
            letter = p.letter.to_string(),
            user = &p.user,
            cells = p.cells,
            points = p.points,
            score = Arg::decimal(&p.score)
        );
        legend.push((Some(player_colour(s)), format!("{}{}", line.render(lang), p.status.note(lang))));
    }
    legend
        .push((Some(NEUTRAL_COLOUR), msg!("rtlife-board-legend-neutral", cells = view.neutral).render(lang)));
    if let Some(reason) = &view.result {
        legend.push((None, over_line(reason, lang)));
    }
    // Wide enough for the longest legend line: 0.6 em a character at 12.
    let widest = legend.iter().map(|(_, t)| t.chars().count()).max().unwrap_or(0) as f64 * 7.2;
    let w = (field_w + 2.0 * margin).max(420.0).max(2.0 * margin + 18.0 + widest);
    let h = field_h + 2.0 * margin + 20.0 * (legend.len() + 1) as f64;
    let mut out = svg::open(w, h);
    out.push_str(&format!("<rect width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>"));
    out.push_str(&format!(
        "<rect x=\"{margin}\" y=\"{margin}\" width=\"{field_w}\" height=\"{field_h}\" fill=\"#f4f1e8\" stroke=\"#888888\"/>"
    ));
    if let Some(win) = view.window {
        let unbounded = view.edges == "unbounded";
        let every = if cell >= 14.0 { 1 } else { (14.0 / cell).ceil() as usize };
        let label_x = |c: usize| {
            let x = win.left + c as i64;
            if unbounded { x.to_string() } else { column_name(x as u64) }
        };
        let label_y = |r: usize| {
            let y = win.top - r as i64;
            if unbounded { y.to_string() } else { (y + 1).to_string() }
        };
        // Bounded fields label every column that fits; the plane labels
        // round numbers (multiples of 10 or more), so coordinates read easily.
        let step = if unbounded { every.div_ceil(10).max(1) * 10 } else { every };
        let labelled = |index: usize, value: i64| {
            if unbounded { value.rem_euclid(step as i64) == 0 } else { index.is_multiple_of(step) }
        };
        if cell >= 6.0 {
            for c in 1..columns {
                let at = margin + cell * c as f64;
                out.push_str(&format!(
                    "<line x1=\"{at}\" y1=\"{margin}\" x2=\"{at}\" y2=\"{}\" stroke=\"#e2ddd0\" stroke-width=\"0.5\"/>",
                    margin + field_h
                ));
            }
            for r in 1..rows {
                let at = margin + cell * r as f64;
                out.push_str(&format!(
                    "<line x1=\"{margin}\" y1=\"{at}\" x2=\"{}\" y2=\"{at}\" stroke=\"#e2ddd0\" stroke-width=\"0.5\"/>",
                    margin + field_w
                ));
            }
        }
        for c in (0..columns).filter(|&c| labelled(c, win.left + c as i64)) {
            out.push_str(&format!(
                "<text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\">{}</text>",
                margin + cell * (c as f64 + 0.5),
                margin - 6.0,
                label_x(c)
            ));
        }
        for r in (0..rows).filter(|&r| labelled(r, win.top - r as i64)) {
            out.push_str(&format!(
                "<text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"end\">{}</text>",
                margin - 4.0,
                margin + cell * (r as f64 + 0.5) + 3.5,
                label_y(r)
            ));
        }
        // One rectangle per run of equal cells in a row keeps big fields small.
        for (r, line) in view.rows.iter().enumerate() {
            let chars: Vec<char> = line.chars().collect();
            let mut c = 0;
            while c < chars.len() {
                let ch = chars[c];
                let run = chars[c..].iter().take_while(|&&d| d == ch).count();
                let colour = match ch {
                    '#' => Some(NEUTRAL_COLOUR),
                    'A'..='Z' => Some(player_colour(usize::from(ch as u8 - b'A'))),
                    _ => None,
                };
                if let Some(colour) = colour {
                    out.push_str(&format!(
                        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{cell}\" fill=\"{colour}\"/>",
                        margin + cell * c as f64,
                        margin + cell * r as f64,
                        cell * run as f64
                    ));
                }
                c += run;
            }
        }
    }
    let mut ly = margin + field_h + 24.0;
    let mut line = |out: &mut String, colour: Option<&str>, text: String| {
        if let Some(colour) = colour {
            out.push_str(&format!(
                "<rect x=\"{margin}\" y=\"{}\" width=\"12\" height=\"12\" rx=\"2\" fill=\"{colour}\"/>",
                ly - 10.0
            ));
        }
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{ly}\" font-size=\"12\">{}</text>",
            margin + 18.0,
            escape(&text)
        ));
        ly += 20.0;
    };
    for (colour, text) in legend {
        line(&mut out, colour, text);
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_and_spans() {
        let en = Lang::En;
        assert_eq!(format_time(0, en), "1970-01-01 00:00:00 UTC");
        assert_eq!(format_time(1_767_225_600_000, en), "2026-01-01 00:00:00 UTC");
        assert_eq!(format_time(1_709_208_000_000, en), "2024-02-29 12:00:00 UTC");
        assert_eq!(format_time(-1000, en), "1969-12-31 23:59:59 UTC");
        assert_eq!(format_span(0, en), "0s");
        assert_eq!(format_span(999, en), "1s");
        assert_eq!(format_span(3_600_000 * 27 + 61_000, en), "1d 3h 1m 1s");
        assert_eq!(format_span(-5, en), "0s");
        assert_eq!(format_time(1_709_208_000_000, Lang::Fi), "29.2.2024 klo 12.00.00 UTC");
        assert_eq!(format_span(3_600_000 * 27 + 61_000, Lang::Fi), "1 pv 3 t 1 min 1 s");
        assert_eq!(format_span(0, Lang::Es), "0 s");
    }
}
