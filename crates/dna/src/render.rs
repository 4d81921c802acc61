//! The board as text (email, terminals) and as SVG (the web).

use std::fmt::Write;

use tabula_model::svg;

use crate::rules::Standing;
use crate::view::{DnaView, PlayerView};

/// The board in the seed's form, one line per player:
/// `ned (33): TCGCATGTACATTTTCAATCTTCGCCTTGAGAG`, with ` (out)` or
/// ` (resigned)` after players no longer in.
pub fn text(view: &DnaView) -> String {
    let mut out = String::new();
    for p in &view.players {
        let mark = match p.standing {
            Standing::In => "",
            Standing::Out => " (out)",
            Standing::Resigned => " (resigned)",
        };
        let line = match (&p.sequence, p.length) {
            (Some(s), _) if s.is_empty() => format!("{} (0):{mark}", p.name),
            (Some(s), _) => format!("{} ({}): {s}{mark}", p.name, s.len()),
            (None, Some(len)) => format!("{} ({len}): hidden{mark}", p.name),
            (None, None) if p.standing == Standing::In => format!("{}: no sequence yet", p.name),
            (None, None) => format!("{}: no sequence{mark}", p.name),
        };
        out.push_str(&line);
        out.push('\n');
    }
    if !view.opening_passes.is_empty() {
        let _ = writeln!(out, "No legal nomination at the start, passed: {}", view.opening_passes.join(", "));
    }
    out
}

const CELL: f64 = 16.0;
const ROW: f64 = 22.0;
const BEFORE_ROW: f64 = 12.0;
/// Width of one character of the 13-unit monospace label font.
const LABEL_CHAR: f64 = 8.0;
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

fn nucleotide_name(letter: char) -> &'static str {
    match letter {
        'A' => "adenine",
        'C' => "cytosine",
        'G' => "guanine",
        'T' => "thymine",
        _ => "",
    }
}

/// Text colour readable on the nucleotide's fill.
fn ink(letter: char) -> &'static str {
    if letter == 'G' { "#000000" } else { "#ffffff" }
}

/// Width of the label column: room for the longest `name (NN) (resigned)`.
fn label_width(view: &DnaView) -> f64 {
    let longest = view.players.iter().map(|p| label_text(p).chars().count()).max().unwrap_or(0);
    (longest as f64 * LABEL_CHAR + 24.0).max(120.0)
}

fn label_text(player: &PlayerView) -> String {
    let mark = match player.standing {
        Standing::In if player.to_move => " \u{25c0}",
        Standing::In => "",
        Standing::Out => " (out)",
        Standing::Resigned => " (resigned)",
    };
    let length = player.length.map(|l| format!(" ({l})")).unwrap_or_default();
    format!("{}{length}{mark}", player.name)
}

fn status_line(view: &DnaView) -> String {
    if view.over {
        return "Game over".into();
    }
    let waiting: Vec<&str> = view.players.iter().filter(|p| p.to_move).map(|p| p.name.as_str()).collect();
    if view.setting_up {
        format!("Set-up: waiting for {}", waiting.join(", "))
    } else {
        let round = if view.first_round { " (first round)" } else { "" };
        format!("{} to nominate{round}", waiting.join(", "))
    }
}

/// The board as a standalone SVG document: a strip of coloured nucleotides
/// per player; above each sequence the last nomination reduced, a thin strip
/// of how it was before, with the removed letters outlined; and a legend.
pub fn svg(view: &DnaView) -> String {
    let last = view.last.as_ref();
    let widest = view
        .players
        .iter()
        .enumerate()
        .map(|(s, p)| {
            let before = last.and_then(|l| l.before.get(s).cloned().flatten()).map_or(0, |b| b.len());
            p.length.unwrap_or(0).max(before)
        })
        .max()
        .unwrap_or(0);
    let label = label_width(view);
    let width = (label + widest as f64 * CELL + 2.0 * MARGIN).max(620.0);
    let mut y = MARGIN + 18.0;
    let mut body = String::new();

    let _ = write!(
        body,
        "<text x=\"{MARGIN}\" y=\"{y}\" font-size=\"15\" font-weight=\"bold\">DNA</text>\
         <text x=\"{}\" y=\"{y}\" font-size=\"13\">{}</text>",
        MARGIN + 50.0,
        svg::escape(&status_line(view))
    );
    y += 10.0;
    if let Some(l) = last {
        y += 16.0;
        let name = view.players.get(l.seat).map_or("", |p| p.name.as_str());
        let effects: Vec<String> = l
            .removed
            .iter()
            .enumerate()
            .filter_map(|(s, c)| {
                c.map(|c| format!("{} {c}", view.players.get(s).map_or("", |p| p.name.as_str())))
            })
            .collect();
        let _ = write!(
            body,
            "<text x=\"{MARGIN}\" y=\"{y}\" font-size=\"12\">Last: {} nominated {} ({})</text>",
            svg::escape(name),
            svg::escape(&l.chunk),
            svg::escape(&effects.join(", "))
        );
    }
    y += 10.0;

    for (seat, player) in view.players.iter().enumerate() {
        let before = last.and_then(|l| l.before.get(seat).cloned().flatten());
        if let (Some(before), Some(l)) = (&before, last) {
            let removed = l.positions.get(seat).map_or(&[][..], Vec::as_slice);
            body.push_str(&before_strip(before, removed, label, y, &l.chunk));
            y += BEFORE_ROW + 2.0;
        }
        body.push_str(&player_row(seat, player, label, y));
        y += ROW + 8.0;
    }

    y += 6.0;
    body.push_str(&legend(&view.alphabet, y));
    y += 20.0;
    let height = y + MARGIN;
    format!(
        "{}<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>{body}</svg>\n",
        svg::open(width, height)
    )
}

/// The sequence before the last nomination, removed letters outlined.
fn before_strip(before: &str, removed: &[usize], label: f64, y: f64, chunk: &str) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<text x=\"{}\" y=\"{}\" font-size=\"9\" fill=\"#555555\">before {}</text>",
        MARGIN + 12.0,
        y + BEFORE_ROW - 3.0,
        svg::escape(chunk)
    );
    let mut removed_iter = removed.iter().peekable();
    for (i, letter) in before.chars().enumerate() {
        let x = label + MARGIN + i as f64 * CELL;
        let gone = removed_iter.next_if(|&&p| p == i).is_some();
        let (opacity, stroke) =
            if gone { ("1", " stroke=\"#000000\" stroke-width=\"1.5\"") } else { ("0.3", "") };
        let _ = write!(
            out,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{BEFORE_ROW}\" fill=\"{}\" fill-opacity=\"{opacity}\"{stroke}/>",
            CELL - 1.0,
            nucleotide_colour(letter)
        );
        if gone {
            let _ = write!(
                out,
                "<line x1=\"{x}\" y1=\"{y}\" x2=\"{}\" y2=\"{}\" stroke=\"#000000\" stroke-width=\"1\"/>",
                x + CELL - 1.0,
                y + BEFORE_ROW
            );
        }
    }
    out
}

fn player_row(seat: usize, player: &PlayerView, label: f64, y: f64) -> String {
    let mut out = String::new();
    let faded = player.standing != Standing::In;
    let _ = write!(
        out,
        "<rect x=\"{MARGIN}\" y=\"{}\" width=\"8\" height=\"{}\" fill=\"{}\"/>\
         <text x=\"{}\" y=\"{}\" font-size=\"13\"{}>{}</text>",
        y + 3.0,
        ROW - 6.0,
        svg::player_colour(seat),
        MARGIN + 12.0,
        y + ROW - 7.0,
        if faded { " fill=\"#888888\"" } else { "" },
        svg::escape(&label_text(player)),
    );
    let group_opacity = if faded { " opacity=\"0.4\"" } else { "" };
    let _ = write!(out, "<g{group_opacity}>");
    match (&player.sequence, player.length) {
        (Some(sequence), _) => {
            for (i, letter) in sequence.chars().enumerate() {
                let x = label + MARGIN + i as f64 * CELL;
                let _ = write!(
                    out,
                    "<rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{ROW}\" fill=\"{}\"/>\
                     <text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" fill=\"{}\">{}</text>",
                    CELL - 1.0,
                    nucleotide_colour(letter),
                    x + (CELL - 1.0) / 2.0,
                    y + ROW - 7.0,
                    ink(letter),
                    svg::escape(&letter.to_string())
                );
            }
        }
        (None, Some(len)) => {
            for i in 0..len {
                let x = label + MARGIN + i as f64 * CELL;
                let _ = write!(
                    out,
                    "<rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{ROW}\" fill=\"#bbbbbb\"/>\
                     <text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" fill=\"#ffffff\">?</text>",
                    CELL - 1.0,
                    x + (CELL - 1.0) / 2.0,
                    y + ROW - 7.0
                );
            }
        }
        (None, None) => {
            let _ = write!(
                out,
                "<text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"#555555\">no sequence yet</text>",
                label + MARGIN,
                y + ROW - 7.0
            );
        }
    }
    out.push_str("</g>");
    out
}

fn legend(alphabet: &str, y: f64) -> String {
    let mut out = String::new();
    let mut x = MARGIN;
    for letter in alphabet.chars() {
        let _ = write!(
            out,
            "<rect x=\"{x}\" y=\"{y}\" width=\"12\" height=\"12\" fill=\"{}\"/>\
             <text x=\"{}\" y=\"{}\" font-size=\"11\">{letter} {}</text>",
            nucleotide_colour(letter),
            x + 16.0,
            y + 10.0,
            nucleotide_name(letter)
        );
        x += 90.0;
    }
    let _ = write!(
        out,
        "<rect x=\"{x}\" y=\"{y}\" width=\"12\" height=\"12\" fill=\"#cccccc\" stroke=\"#000000\" stroke-width=\"1.5\"/>\
         <line x1=\"{x}\" y1=\"{y}\" x2=\"{}\" y2=\"{}\" stroke=\"#000000\"/>\
         <text x=\"{}\" y=\"{}\" font-size=\"11\">removed by the last nomination</text>",
        x + 12.0,
        y + 12.0,
        x + 16.0,
        y + 10.0
    );
    out
}
