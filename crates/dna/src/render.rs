//! The board as text (email, terminals) and as SVG (the web).

use std::fmt::Write;

use tabula_model::{Lang, msg, svg};

use crate::rules::Standing;
use crate::view::{DnaView, PlayerView};

/// The board in the seed's form, one line per player:
/// `ned (33): TCGCATGTACATTTTCAATCTTCGCCTTGAGAG`, with ` (out)` or
/// ` (resigned)` after players no longer in; its words in `lang`.
pub fn text(view: &DnaView, lang: Lang) -> String {
    let mut out = String::new();
    for p in &view.players {
        let mark = standing_mark(p.standing, lang);
        let line = match (&p.sequence, p.length) {
            (Some(s), _) if s.is_empty() => format!("{} (0):{mark}", p.name),
            (Some(s), _) => format!("{} ({}): {s}{mark}", p.name, s.len()),
            (None, Some(len)) => {
                let hidden = msg!("dna-board-hidden", name = &p.name, length = len.to_string()).render(lang);
                format!("{hidden}{mark}")
            }
            (None, None) if p.standing == Standing::In => {
                msg!("dna-board-no-sequence-yet", name = &p.name).render(lang)
            }
            (None, None) => format!("{}{mark}", msg!("dna-board-no-sequence", name = &p.name).render(lang)),
        };
        out.push_str(&line);
        out.push('\n');
    }
    if !view.opening_passes.is_empty() {
        let passed = msg!("dna-board-opening-passes", users = view.opening_passes.join(", ")).render(lang);
        let _ = writeln!(out, "{passed}");
    }
    out
}

/// ` (out)` or ` (resigned)` after a player no longer in, in `lang`.
fn standing_mark(standing: Standing, lang: Lang) -> String {
    let word = match standing {
        Standing::In => return String::new(),
        Standing::Out => msg!("dna-board-out"),
        Standing::Resigned => msg!("dna-board-resigned"),
    };
    format!(" {}", word.render(lang))
}

const CELL: f64 = 16.0;
const ROW: f64 = 22.0;
const BEFORE_ROW: f64 = 12.0;
const MARGIN: f64 = 10.0;

/// Fill colour of a nucleotide cell.
fn nucleotide_colour(letter: char) -> &'static str {
    match letter {
        'A' => "#2e7d32",
        'C' => "#1565c0",
        'G' => "#f9a825",
        'T' => "#c62828",
        _ => svg::NEUTRAL_COLOUR,
    }
}

fn nucleotide_name(letter: char, lang: Lang) -> String {
    let name = match letter {
        'A' => msg!("dna-board-adenine"),
        'C' => msg!("dna-board-cytosine"),
        'G' => msg!("dna-board-guanine"),
        'T' => msg!("dna-board-thymine"),
        _ => return String::new(),
    };
    name.render(lang)
}

/// Text colour readable on the nucleotide's fill.
fn ink(letter: char) -> &'static str {
    if letter == 'G' { "#000000" } else { "#ffffff" }
}

fn label_text(player: &PlayerView, lang: Lang) -> String {
    let mark = match player.standing {
        Standing::In if player.to_move => " \u{25c0}".to_string(),
        standing => standing_mark(standing, lang),
    };
    let length = player.length.map(|l| format!(" ({l})")).unwrap_or_default();
    format!("{}{length}{mark}", player.name)
}

fn status_line(view: &DnaView, lang: Lang) -> String {
    if view.over {
        return msg!("dna-board-over").render(lang);
    }
    let waiting: Vec<&str> = view.players.iter().filter(|p| p.to_move).map(|p| p.name.as_str()).collect();
    let users = waiting.join(", ");
    if view.setting_up {
        msg!("dna-board-setting-up", users = users).render(lang)
    } else {
        let round = if view.first_round { "first" } else { "later" };
        msg!("dna-board-to-nominate", users = users, round = round).render(lang)
    }
}

/// Cells of a strip per row: strips wrap to a phone's width.
const PER_ROW: usize = 20;

/// The board as a standalone SVG document, drawn for a phone first: a
/// strip of coloured nucleotides per player, wrapped in rows of
/// [`PER_ROW`]; above a sequence the last nomination reduced, a thin strip
/// of how it was before, with the removed letters outlined; and a legend.
pub fn svg(view: &DnaView, lang: Lang) -> String {
    let last = view.last.as_ref();
    let width = svg::PHONE_WIDTH;
    let mut y = MARGIN;
    let mut body = String::new();
    let line = |body: &mut String, y: &mut f64, size: f64, extra: &str, text: &str| {
        // 0.6 em a character in monospace.
        let chars = ((width - 2.0 * MARGIN) / (size * 0.6)).floor() as usize;
        for part in svg::wrap(text, chars) {
            *y += size + 5.0;
            let _ = write!(
                body,
                "<text x=\"{MARGIN}\" y=\"{y}\" font-size=\"{size}\"{extra}>{}</text>",
                svg::escape(&part)
            );
        }
    };
    line(&mut body, &mut y, 15.0, " font-weight=\"bold\"", &msg!("dna-title").render(lang));
    line(&mut body, &mut y, 13.0, "", &status_line(view, lang));
    if let Some(l) = last {
        let name = view.players.get(l.seat).map_or("", |p| p.name.as_str());
        let effects: Vec<String> = l
            .removed
            .iter()
            .enumerate()
            .filter_map(|(s, c)| {
                c.map(|c| format!("{} {c}", view.players.get(s).map_or("", |p| p.name.as_str())))
            })
            .collect();
        let text =
            msg!("dna-board-last", user = name, chunk = &l.chunk, effects = effects.join(", ")).render(lang);
        line(&mut body, &mut y, 12.0, "", &text);
    }
    y += 10.0;

    for (seat, player) in view.players.iter().enumerate() {
        y = player_label(&mut body, seat, player, y, lang);
        let before = last.and_then(|l| l.before.get(seat).cloned().flatten());
        if let (Some(before), Some(l)) = (&before, last) {
            let removed = l.positions.get(seat).map_or(&[][..], Vec::as_slice);
            y = before_strip(&mut body, before, removed, y, &l.chunk, lang);
        }
        y = player_strip(&mut body, player, y, lang) + 8.0;
    }

    y += 4.0;
    y = legend(&mut body, &view.alphabet, y, lang);
    let height = y + MARGIN;
    format!(
        "{}<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>{body}</svg>\n",
        svg::open(width, height)
    )
}

/// Where cell `i` of a strip starting at `y` goes, rows `row` high.
fn cell_at(i: usize, y: f64, row: f64) -> (f64, f64) {
    (MARGIN + (i % PER_ROW) as f64 * CELL, y + (i / PER_ROW) as f64 * (row + 4.0))
}

/// The height of a strip of `len` cells in rows `row` high.
fn strip_height(len: usize, row: f64) -> f64 {
    len.div_ceil(PER_ROW).max(1) as f64 * (row + 4.0)
}

/// The sequence before the last nomination, removed letters outlined;
/// returns where the next part starts.
fn before_strip(out: &mut String, before: &str, removed: &[usize], y: f64, chunk: &str, lang: Lang) -> f64 {
    let _ = write!(
        out,
        "<text x=\"{MARGIN}\" y=\"{}\" font-size=\"12\" fill=\"#555555\">{}</text>",
        y + 12.0,
        svg::escape(&msg!("dna-board-before", chunk = chunk).render(lang))
    );
    let y = y + 17.0;
    let mut removed_iter = removed.iter().peekable();
    for (i, letter) in before.chars().enumerate() {
        let (x, cy) = cell_at(i, y, BEFORE_ROW);
        let gone = removed_iter.next_if(|&&p| p == i).is_some();
        let (opacity, stroke) =
            if gone { ("1", " stroke=\"#000000\" stroke-width=\"1.5\"") } else { ("0.3", "") };
        let _ = write!(
            out,
            "<rect x=\"{x}\" y=\"{cy}\" width=\"{}\" height=\"{BEFORE_ROW}\" fill=\"{}\" fill-opacity=\"{opacity}\"{stroke}/>",
            CELL - 1.0,
            nucleotide_colour(letter)
        );
        if gone {
            let _ = write!(
                out,
                "<line x1=\"{x}\" y1=\"{cy}\" x2=\"{}\" y2=\"{}\" stroke=\"#000000\" stroke-width=\"1\"/>",
                x + CELL - 1.0,
                cy + BEFORE_ROW
            );
        }
    }
    y + strip_height(before.chars().count(), BEFORE_ROW)
}

/// A player's name, length and standing beside their colour; returns where
/// the next part starts.
fn player_label(out: &mut String, seat: usize, player: &PlayerView, y: f64, lang: Lang) -> f64 {
    let faded = player.standing != Standing::In;
    let _ = write!(
        out,
        "<rect x=\"{MARGIN}\" y=\"{}\" width=\"8\" height=\"14\" fill=\"{}\"/>\
         <text x=\"{}\" y=\"{}\" font-size=\"13\"{}>{}</text>",
        y + 3.0,
        svg::player_colour(seat),
        MARGIN + 12.0,
        y + 14.0,
        if faded { " fill=\"#595959\"" } else { "" },
        svg::escape(&label_text(player, lang)),
    );
    y + 20.0
}

/// A player's strip, wrapped; returns where it ends.
fn player_strip(out: &mut String, player: &PlayerView, y: f64, lang: Lang) -> f64 {
    let faded = player.standing != Standing::In;
    let group_opacity = if faded { " opacity=\"0.4\"" } else { "" };
    let _ = write!(out, "<g{group_opacity}>");
    let cells = match (&player.sequence, player.length) {
        (Some(sequence), _) => {
            for (i, letter) in sequence.chars().enumerate() {
                let (x, cy) = cell_at(i, y, ROW);
                let _ = write!(
                    out,
                    "<rect x=\"{x}\" y=\"{cy}\" width=\"{}\" height=\"{ROW}\" fill=\"{}\"/>\
                     <text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" fill=\"{}\">{}</text>",
                    CELL - 1.0,
                    nucleotide_colour(letter),
                    x + (CELL - 1.0) / 2.0,
                    cy + ROW - 7.0,
                    ink(letter),
                    svg::escape(&letter.to_string())
                );
            }
            sequence.chars().count()
        }
        (None, Some(len)) => {
            for i in 0..len {
                let (x, cy) = cell_at(i, y, ROW);
                let _ = write!(
                    out,
                    "<rect x=\"{x}\" y=\"{cy}\" width=\"{}\" height=\"{ROW}\" fill=\"#767676\"/>\
                     <text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" fill=\"#ffffff\">?</text>",
                    CELL - 1.0,
                    x + (CELL - 1.0) / 2.0,
                    cy + ROW - 7.0
                );
            }
            len
        }
        (None, None) => {
            let _ = write!(
                out,
                "<text x=\"{MARGIN}\" y=\"{}\" font-size=\"12\" fill=\"#555555\">{}</text>",
                y + ROW - 7.0,
                svg::escape(&msg!("dna-board-no-strip").render(lang))
            );
            0
        }
    };
    out.push_str("</g>");
    y + strip_height(cells, ROW)
}

/// The nucleotides' colours two to a row, then the mark of a removed
/// letter; returns where the legend ends.
fn legend(out: &mut String, alphabet: &str, y: f64, lang: Lang) -> f64 {
    let mut y = y;
    for (k, letter) in alphabet.chars().enumerate() {
        let x = MARGIN + (k % 2) as f64 * 170.0;
        let _ = write!(
            out,
            "<rect x=\"{x}\" y=\"{y}\" width=\"12\" height=\"12\" fill=\"{}\"/>\
             <text x=\"{}\" y=\"{}\" font-size=\"12\">{letter} {}</text>",
            nucleotide_colour(letter),
            x + 16.0,
            y + 10.0,
            svg::escape(&nucleotide_name(letter, lang))
        );
        if k % 2 == 1 {
            y += 18.0;
        }
    }
    if alphabet.chars().count() % 2 == 1 {
        y += 18.0;
    }
    let x = MARGIN;
    let _ = write!(
        out,
        "<rect x=\"{x}\" y=\"{y}\" width=\"12\" height=\"12\" fill=\"#cccccc\" stroke=\"#000000\" stroke-width=\"1.5\"/>\
         <line x1=\"{x}\" y1=\"{y}\" x2=\"{}\" y2=\"{}\" stroke=\"#000000\"/>\
         <text x=\"{}\" y=\"{}\" font-size=\"12\">{}</text>",
        x + 12.0,
        y + 12.0,
        x + 16.0,
        y + 10.0,
        svg::escape(&msg!("dna-board-removed").render(lang))
    );
    y + 18.0
}
