use std::fmt::Write;

use tabula_model::{ClickMap, Lang, and_list, msg, svg, t};

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
/// turn's choices, and the state of the current turn; its words in `lang`.
pub(crate) fn text(view: &IntervaloView, lang: Lang) -> String {
    // Written into one string as it goes, without a list of the cells or
    // strings of the ruler's lines: two boards a move.
    let cells = view.strip.chars().count();
    let width = cells.to_string().len();
    let mut out = String::with_capacity(4 * cells + 4 * width + 256);
    let mut strip = view.strip.chars().map(display_char);
    for first in (1..=cells).step_by(ROW) {
        let numbers = first..(first + ROW).min(cells + 1);
        pad(&mut out, width + 1);
        // The tens line ends at its last ten, without trailing spaces.
        let last_ten = numbers.clone().rev().find(|n| n % 10 == 0);
        if let Some(last_ten) = last_ten {
            out.extend((first..=last_ten).map(|n| if n % 10 == 0 { digit((n / 10) % 10) } else { ' ' }));
        }
        out.push('\n');
        pad(&mut out, width + 1);
        out.extend(numbers.clone().map(|n| digit(n % 10)));
        out.push('\n');
        let _ = write!(out, "{first:>width$} ");
        out.extend(strip.by_ref().take(numbers.len()));
        out.push('\n');
    }
    let l = letters(view);
    let [p0, p1] = &view.players;
    let [s0, s1] = view.scores;
    // Put into words at once (`t!`): two boards a move, every line of them.
    let (mut b0, mut b1) = ([0; 4], [0; 4]);
    let score = t!(
        lang,
        "intervalo-board-score",
        l0 = &*l[0].encode_utf8(&mut b0),
        p0 = p0,
        s0 = s0.to_string(),
        l1 = &*l[1].encode_utf8(&mut b1),
        p1 = p1,
        s1 = s1.to_string()
    );
    let _ = writeln!(out, "{score}");
    if let Some(last) = view.history.last() {
        let [c0, c1] = last.choices;
        let what = match (c0 == c1, last.point) {
            (true, _) => t!(lang, "intervalo-board-neutral"),
            (false, Some(s)) => t!(lang, "intervalo-board-scores", user = &view.players[s]),
            (false, None) => t!(lang, "intervalo-board-no-point"),
        };
        let line = t!(
            lang,
            "intervalo-board-last",
            turn = view.history.len().to_string(),
            p0 = p0,
            c0 = c0.to_string(),
            p1 = p1,
            c1 = c1.to_string(),
            what = what
        );
        let _ = writeln!(out, "{line}");
    }
    match &view.result {
        Some(result) => {
            let _ = writeln!(out, "{}", result.render(lang));
        }
        None => {
            let waiting: Vec<String> =
                (0..2).filter(|&s| !view.chosen[s]).map(|s| view.players[s].clone()).collect();
            let mut line = t!(
                lang,
                "intervalo-board-waiting",
                turn = (view.history.len() + 1).to_string(),
                users = and_list(lang, &waiting)
            );
            if let Some(mine) = view.my_choice {
                let _ = write!(line, "; {}", t!(lang, "intervalo-board-you-chose", cell = mine.to_string()));
            }
            let _ = writeln!(out, "{line}");
        }
    }
    out
}

fn pad(out: &mut String, spaces: usize) {
    out.extend(std::iter::repeat_n(' ', spaces));
}

fn digit(n: usize) -> char {
    char::from_digit((n % 10) as u32, 10).unwrap_or('?')
}

/// Cells per row of the SVG picture: rows of ten, numbered 1-10, 11-20..,
/// wrap the strip into a picture a phone shows at full size.
const SVG_ROW: usize = 10;
/// Distance from one cell to the next in a row of the picture.
const SVG_CELL: f64 = 34.0;
/// Distance from one row of the picture to the next.
const SVG_ROW_HEIGHT: f64 = 40.0;
/// Left and top edge of cell 1 in the picture.
const SVG_ORIGIN: (f64, f64) = (10.0, 10.0);

/// Where [`svg`] draws the cells, for the web's clicks: cells numbered from
/// 1 in rows of ten.
pub(crate) fn click_map(view: &IntervaloView) -> Option<ClickMap> {
    Some(ClickMap::Strip {
        x0: SVG_ORIGIN.0,
        y0: SVG_ORIGIN.1,
        cell: SVG_CELL,
        per_row: SVG_ROW,
        row_height: SVG_ROW_HEIGHT,
        count: view.strip.chars().count(),
    })
}

/// Text readable on a seat's colour: the first seat's blue takes white,
/// the second's orange black.
fn ink_on(seat: usize) -> &'static str {
    if seat == 0 { "#ffffff" } else { "#000000" }
}

/// The strip wrapped in rows of ten squares, each empty cell showing its
/// number and each taken one its player's letter, the last turn's interval
/// highlighted; beneath, a legend naming every colour and the scores, its
/// words in `lang`.
pub(crate) fn svg(view: &IntervaloView, lang: Lang) -> String {
    const LINE: f64 = 20.0;
    let (x0, y0) = SVG_ORIGIN;
    let cells: Vec<char> = view.strip.chars().collect();
    let rows = cells.len().div_ceil(SVG_ROW).max(1);
    let width = svg::PHONE_WIDTH.max(2.0 * x0 + SVG_ROW as f64 * SVG_CELL);
    let side = SVG_CELL - 2.0;
    let at = |i: usize| (x0 + (i % SVG_ROW) as f64 * SVG_CELL, y0 + (i / SVG_ROW) as f64 * SVG_ROW_HEIGHT);
    let l = letters(view);
    // The seat whose colour a cell's letter stands for.
    let seat_of = |c: char| -> Option<usize> {
        match (c, view.viewer) {
            ('a', _) => Some(0),
            ('b', _) => Some(1),
            ('x', Some(s)) => Some(s),
            ('o', Some(s)) => Some(1 - s),
            _ => None,
        }
    };
    let mut legend: Vec<(Option<&str>, String)> = Vec::new();
    for (seat, (letter, (name, score))) in l.iter().zip(view.players.iter().zip(view.scores)).enumerate() {
        let you = if view.viewer == Some(seat) { "you" } else { "other" };
        let line = msg!(
            "intervalo-board-legend-player",
            letter = letter.to_string(),
            user = name,
            you = you,
            points = score
        );
        legend.push((Some(svg::player_colour(seat)), line.render(lang)));
    }
    legend.push((Some(svg::NEUTRAL_COLOUR), msg!("intervalo-board-legend-neutral").render(lang)));
    legend.push((Some("#ffe08a"), msg!("intervalo-board-legend-interval").render(lang)));
    if let Some(result) = &view.result {
        legend.push((None, result.render(lang)));
    }
    let legend: Vec<(Option<&str>, String)> = legend
        .into_iter()
        .flat_map(|(swatch, text)| {
            svg::wrap(&text, svg::PHONE_CHARS - 3)
                .into_iter()
                .enumerate()
                .map(move |(k, line)| (if k == 0 { swatch } else { None }, line))
        })
        .collect();
    let strip_bottom = y0 + rows as f64 * SVG_ROW_HEIGHT;
    let height = strip_bottom + 8.0 + legend.len() as f64 * LINE + 10.0;
    let mut out = svg::open(width, height);
    out.push_str("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>");
    if let Some(last) = view.history.last() {
        let lo = last.choices[0].min(last.choices[1]).saturating_sub(1);
        let hi = last.choices[0].max(last.choices[1]).saturating_sub(1);
        for i in lo..=hi.min(cells.len().saturating_sub(1)) {
            let (x, y) = at(i);
            let _ = write!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{SVG_CELL}\" height=\"{}\" fill=\"#ffe08a\"/>",
                x - 1.0,
                y - 3.0,
                side + 6.0
            );
        }
    }
    for (i, &c) in cells.iter().enumerate() {
        let (x, y) = at(i);
        let seat = seat_of(c);
        let (fill, mark, ink, what) = match (c, seat) {
            ('#', _) => (
                svg::NEUTRAL_COLOUR,
                "#".to_string(),
                "#ffffff",
                msg!("intervalo-board-cell-neutral").render(lang),
            ),
            (_, Some(s)) => (
                svg::player_colour(s),
                l[s].to_string(),
                ink_on(s),
                format!("{} ({})", l[s], view.players[s]),
            ),
            _ => ("#f4f4f4", (i + 1).to_string(), "#444444", msg!("intervalo-board-cell-empty").render(lang)),
        };
        let taken = c != '.';
        let _ = write!(
            out,
            "<rect class=\"cell\" data-cell=\"{n}\" x=\"{x}\" y=\"{y}\" width=\"{side}\" height=\"{side}\" rx=\"3\" fill=\"{fill}\" stroke=\"#999999\" stroke-width=\"0.5\"><title>{what}</title></rect>\
             <text x=\"{}\" y=\"{}\" font-size=\"{}\"{} text-anchor=\"middle\" fill=\"{ink}\" pointer-events=\"none\">{}</text>",
            x + side / 2.0,
            y + side / 2.0 + if taken { 6.0 } else { 4.0 },
            if taken { 17 } else { 12 },
            if taken { " font-weight=\"bold\"" } else { "" },
            svg::escape(&mark),
            n = i + 1,
            what = svg::escape(
                &msg!("intervalo-board-cell", cell = (i + 1).to_string(), what = what).render(lang)
            ),
        );
    }
    for (k, (swatch, line)) in legend.iter().enumerate() {
        let y = strip_bottom + 8.0 + k as f64 * LINE;
        if let Some(colour) = swatch {
            let _ = write!(
                out,
                "<rect x=\"{x0}\" y=\"{}\" width=\"14\" height=\"14\" rx=\"2\" fill=\"{colour}\"/>",
                y + 2.0
            );
        }
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"13\">{}</text>",
            x0 + 22.0,
            y + 14.0,
            svg::escape(line)
        );
    }
    out.push_str("</svg>");
    out
}
