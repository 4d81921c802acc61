use std::fmt::Write;

use tabula_model::svg;

use crate::view::IntervaloView;

/// Cells per line of the text strip and per row of the SVG picture.
const ROW: usize = 64;

/// The letters of the two seats as this viewer sees them: the viewer is `X`.
fn letters(view: &IntervaloView) -> [char; 2] {
    match view.viewer {
        Some(0) => ['X', 'O'],
        Some(_) => ['O', 'X'],
        None => ['A', 'B'],
    }
}

fn display_char(c: char) -> char {
    match c {
        'x' | 'o' | 'a' | 'b' => c.to_ascii_uppercase(),
        other => other,
    }
}

/// The board part of a reply: the strip with a ruler, the score, the last
/// turn's choices, and the state of the current turn.
pub(crate) fn text(view: &IntervaloView) -> String {
    let cells: Vec<char> = view.strip.chars().map(display_char).collect();
    let width = cells.len().to_string().len();
    let mut out = String::new();
    for (row, chunk) in cells.chunks(ROW).enumerate() {
        let first = row * ROW + 1;
        let numbers = first..first + chunk.len();
        let tens: String =
            numbers.clone().map(|n| if n % 10 == 0 { digit((n / 10) % 10) } else { ' ' }).collect();
        let units: String = numbers.map(|n| digit(n % 10)).collect();
        let _ = writeln!(out, "{:width$} {}", "", tens.trim_end());
        let _ = writeln!(out, "{:width$} {units}", "");
        let _ = writeln!(out, "{first:>width$} {}", chunk.iter().collect::<String>());
    }
    let l = letters(view);
    let [p0, p1] = &view.players;
    let [s0, s1] = view.scores;
    let _ = writeln!(out, "Score: {} {p0} {s0}, {} {p1} {s1}", l[0], l[1]);
    if let Some(last) = view.history.last() {
        let [c0, c1] = last.choices;
        let what = match (c0 == c1, last.point) {
            (true, _) => "both chose the same cell: neutral".to_string(),
            (false, Some(s)) => format!("{} scores", view.players[s]),
            (false, None) => "no point".to_string(),
        };
        let _ = writeln!(out, "Last turn ({}): {p0} {c0}, {p1} {c1}: {what}", view.history.len());
    }
    match &view.result {
        Some(result) => {
            let _ = writeln!(out, "{result}");
        }
        None => {
            let waiting: Vec<&str> =
                (0..2).filter(|&s| !view.chosen[s]).map(|s| view.players[s].as_str()).collect();
            let mut line = format!("Turn {}: waiting for {}", view.history.len() + 1, waiting.join(" and "));
            if let Some(mine) = view.my_choice {
                let _ = write!(line, "; you chose cell {mine}");
            }
            let _ = writeln!(out, "{line}");
        }
    }
    out
}

fn digit(n: usize) -> char {
    char::from_digit((n % 10) as u32, 10).unwrap_or('?')
}

/// The strip as a row of squares (wrapped every 64 cells), the last turn's
/// interval highlighted, the scores beneath.
pub(crate) fn svg(view: &IntervaloView) -> String {
    const SIZE: f64 = 14.0;
    const MARGIN: f64 = 10.0;
    let cells: Vec<char> = view.strip.chars().collect();
    let rows = cells.len().div_ceil(ROW).max(1);
    let cols = cells.len().min(ROW);
    let row_height = SIZE + 16.0;
    let l = letters(view);
    let [s0, s1] = view.scores;
    let mut line = format!("{} {} {s0} · {} {} {s1}", l[0], view.players[0], l[1], view.players[1]);
    if let Some(result) = &view.result {
        let _ = write!(line, " · {result}");
    }
    // Wide enough for the scores line as well as the strip: a short strip
    // would cut the players' names off (about 0.6 em a character at 12 px).
    let line_width = line.chars().count() as f64 * 7.2;
    let width = MARGIN * 2.0 + (cols as f64 * SIZE).max(line_width);
    let line = svg::escape(&line);
    let height = MARGIN * 2.0 + rows as f64 * row_height + 36.0;
    let at = |i: usize| (MARGIN + (i % ROW) as f64 * SIZE, MARGIN + 12.0 + (i / ROW) as f64 * row_height);
    let mut out = svg::open(width, height);
    out.push_str("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>");
    // The seat whose colour this viewer's `x` stands for.
    let seat_of = |c: char| -> Option<usize> {
        match (c, view.viewer) {
            ('a', _) => Some(0),
            ('b', _) => Some(1),
            ('x', Some(s)) => Some(s),
            ('o', Some(s)) => Some(1 - s),
            _ => None,
        }
    };
    if let Some(last) = view.history.last() {
        let lo = last.choices[0].min(last.choices[1]).saturating_sub(1);
        let hi = last.choices[0].max(last.choices[1]).saturating_sub(1);
        for i in lo..=hi.min(cells.len().saturating_sub(1)) {
            let (x, y) = at(i);
            let _ = write!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{SIZE}\" height=\"{}\" fill=\"#ffe08a\"/>",
                x,
                y - 3.0,
                SIZE + 6.0
            );
        }
    }
    for (i, &c) in cells.iter().enumerate() {
        let (x, y) = at(i);
        let fill = match c {
            '#' => svg::NEUTRAL_COLOUR,
            '.' => "#f4f4f4",
            other => seat_of(other).map(svg::player_colour).unwrap_or("#f4f4f4"),
        };
        let _ = write!(
            out,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{}\" fill=\"{fill}\" stroke=\"#999999\" stroke-width=\"0.5\"><title>{}</title></rect>",
            SIZE - 1.0,
            SIZE - 1.0,
            i + 1
        );
        if (i + 1) % 10 == 0 || i == 0 {
            let _ = write!(
                out,
                "<text x=\"{}\" y=\"{}\" font-size=\"8\" text-anchor=\"middle\">{}</text>",
                x + SIZE / 2.0,
                y - 4.0,
                i + 1
            );
        }
    }
    let y = MARGIN + rows as f64 * row_height + 16.0;
    let _ = write!(out, "<text x=\"{MARGIN}\" y=\"{y}\" font-size=\"12\">{line}</text>");
    for seat in 0..2 {
        let _ = write!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"8\" height=\"8\" fill=\"{}\"/>",
            MARGIN + seat as f64 * 12.0,
            y + 8.0,
            svg::player_colour(seat)
        );
    }
    out.push_str("</svg>");
    out
}
