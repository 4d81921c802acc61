//! The board as plain text and as SVG, drawn from a view only.

use tabula_model::{Lang, Message, msg, svg};

use crate::view::{RewriteView, shown};

/// Applications of a pass drawn on the board (the view holds more).
const STEPS_SHOWN: usize = 24;
const STEPS_PER_LINE: usize = 6;

/// A piece of a line: text, and the seat whose colour it takes (if any) and
/// whether it is a highlighted hit.
struct Piece {
    text: String,
    seat: Option<usize>,
    hit: bool,
}

fn plain(text: impl Into<String>) -> Piece {
    Piece { text: text.into(), seat: None, hit: false }
}

fn owned(text: impl Into<String>, seat: usize) -> Piece {
    Piece { text: text.into(), seat: Some(seat), hit: false }
}

/// Split a marked string (hits in upper case) into plain and hit pieces.
fn marked(text: &str, seat: usize) -> Vec<Piece> {
    let mut pieces: Vec<Piece> = Vec::new();
    for c in text.chars() {
        let hit = c.is_ascii_uppercase();
        match pieces.last_mut() {
            Some(p) if p.hit == hit => p.text.push(c),
            _ => pieces.push(Piece { text: c.to_string(), seat: hit.then_some(seat), hit }),
        }
    }
    pieces
}

fn names(view: &RewriteView, seats: &[usize]) -> String {
    seats.iter().map(|&s| view.players[s].as_str()).collect::<Vec<_>>().join(", ")
}

/// The board as lines of pieces, its words in `lang`; both renderers draw
/// these.
fn lines(view: &RewriteView, lang: Lang) -> Vec<Vec<Piece>> {
    let words = |m: Message| m.render(lang);
    let mut out: Vec<Vec<Piece>> = Vec::new();
    let (round, rounds) = (view.round.to_string(), view.rounds.to_string());
    let status = match view.phase {
        "goals" => msg!("rewrite-board-choosing-goals"),
        "rules" => msg!("rewrite-board-writing-rules", round = &round, rounds = &rounds),
        _ => msg!("rewrite-board-over", round = &round, rounds = &rounds),
    };
    out.push(vec![plain(words(msg!("rewrite-board-heading", alphabet = &view.alphabet, status = status)))]);
    out.push(vec![plain(words(msg!("rewrite-board-table")))]);
    for (i, t) in view.tables.iter().enumerate() {
        let label = if i == 0 {
            words(msg!("rewrite-board-start"))
        } else {
            words(msg!("rewrite-board-round", round = i.to_string()))
        };
        let cut = if t.cut {
            format!("  {}", words(msg!("rewrite-board-cut", letters = view.max_length.to_string())))
        } else {
            String::new()
        };
        out.push(vec![plain(format!("  {label:<8} {}{cut}", words(shown(&t.text, t.length))))]);
    }
    if !view.sets.is_empty() {
        out.push(vec![plain(words(msg!("rewrite-board-rules")))]);
        for (i, set) in view.sets.iter().enumerate() {
            let mut line =
                vec![plain(format!("  {}", words(msg!("rewrite-board-set", round = (i + 1).to_string()))))];
            for (k, r) in set.iter().enumerate() {
                line.push(plain(if k == 0 { " " } else { ", " }));
                line.push(owned(format!("{} {}=>{}", view.players[r.owner], r.lhs, r.rhs), r.owner));
            }
            out.push(line);
        }
    }
    if let Some(trace) = &view.last_round {
        out.push(vec![plain(words(msg!("rewrite-board-trace", round = trace.round.to_string())))]);
        for p in &trace.passes {
            let pass = msg!(
                "rewrite-board-pass",
                set = p.set.to_string(),
                input = shown(&p.input, p.input_length),
                output = shown(&p.output, p.output_length),
                applications = p.applications,
                cut = if p.cut { "yes" } else { "no" }
            );
            out.push(vec![plain(format!("  {}", words(pass)))]);
            for chunk in p.steps[..p.steps.len().min(STEPS_SHOWN)].chunks(STEPS_PER_LINE) {
                let mut line = vec![plain("   ")];
                for (k, s) in chunk.iter().enumerate() {
                    line.push(plain(if k == 0 { " " } else { "; " }));
                    let step = msg!(
                        "rewrite-board-step",
                        user = &view.players[s.owner],
                        rule = format!("{}=>{}", s.lhs, s.rhs),
                        pos = s.pos.to_string()
                    );
                    line.push(owned(words(step), s.owner));
                }
                out.push(line);
            }
            let shown = p.steps.len().min(STEPS_SHOWN) as u64;
            if p.applications > shown {
                let more = msg!("rewrite-board-more", count = (p.applications - shown).to_string());
                out.push(vec![plain(format!("    {}", words(more)))]);
            }
        }
    }
    if let Some(goal) = &view.own_goal {
        out.push(vec![plain(words(msg!("rewrite-board-your-goal", goal = goal)))]);
    }
    if let Some(rule) = &view.own_rule {
        out.push(vec![plain(words(msg!("rewrite-board-your-rule", round = &round, rule = rule)))]);
    }
    if !view.waiting.is_empty() {
        out.push(vec![plain(words(msg!("rewrite-board-waiting", users = names(view, &view.waiting))))]);
    }
    if view.results.iter().any(Option::is_some) {
        out.push(vec![plain(words(msg!("rewrite-board-results")))]);
        for (seat, r) in view.results.iter().enumerate() {
            let user = &view.players[seat];
            let Some(r) = r else {
                out.push(vec![plain(format!("  {}", words(msg!("rewrite-board-no-goal", user = user))))]);
                continue;
            };
            let goal = msg!("rewrite-board-goal", user = user, goal = &r.goal, hits = r.hits);
            let mut line = vec![owned(format!("  {}: ", words(goal)), seat)];
            line.extend(marked(&r.marked, seat));
            out.push(line);
        }
    }
    out
}

/// The board as plain text, its words in `lang`.
pub fn text(view: &RewriteView, lang: Lang) -> String {
    let mut s = String::new();
    for line in lines(view, lang) {
        for piece in line {
            s.push_str(&piece.text);
        }
        s.push('\n');
    }
    s
}

/// `line` cut into lines of at most `width` characters, at a space where
/// the line has one late enough, each piece keeping its colour across the
/// cut; continuation lines are indented by four spaces.
fn wrap_line(line: Vec<Piece>, width: usize) -> Vec<Vec<Piece>> {
    const INDENT: &str = "    ";
    let chars: Vec<(char, usize)> =
        line.iter().enumerate().flat_map(|(k, p)| p.text.chars().map(move |c| (c, k))).collect();
    let mut out = Vec::new();
    let mut start = 0;
    let mut first = true;
    while start < chars.len() || first {
        let room = if first { width } else { width - INDENT.len() };
        let mut end = (start + room).min(chars.len());
        if end < chars.len() {
            // Cut after the last space of the line if it is not too early.
            if let Some(space) = (start + room / 2..end).rev().find(|&i| chars[i].0 == ' ') {
                end = space + 1;
            }
        }
        let mut pieces: Vec<Piece> = Vec::new();
        if !first {
            pieces.push(plain(INDENT));
        }
        for &(c, k) in &chars[start..end] {
            match pieces.last_mut() {
                Some(last) if last.seat == line[k].seat && last.hit == line[k].hit => last.text.push(c),
                _ => pieces.push(Piece { text: c.to_string(), seat: line[k].seat, hit: line[k].hit }),
            }
        }
        out.push(pieces);
        start = end;
        first = false;
    }
    out
}

/// The board as a standalone SVG document, its lines wrapped to a phone's
/// width in a readable monospace size, its words in `lang`.
pub fn svg(view: &RewriteView, lang: Lang) -> String {
    const ROW: f64 = 20.0;
    const CHAR: f64 = 8.0;
    // 42 characters of 8 units and the margins: the phone width.
    const WRAP: usize = 42;
    const MARGIN: f64 = 12.0;
    let lines: Vec<Vec<Piece>> =
        lines(view, lang).into_iter().flat_map(|line| wrap_line(line, WRAP)).collect();
    let widest =
        lines.iter().map(|l| l.iter().map(|p| p.text.chars().count()).sum::<usize>()).max().unwrap_or(0);
    let width = (widest as f64 * CHAR + 2.0 * MARGIN).max(svg::PHONE_WIDTH);
    let height = lines.len() as f64 * ROW + 2.0 * MARGIN;
    let mut s = svg::open(width, height);
    s.push_str(&format!("<rect width=\"{width}\" height=\"{height}\" fill=\"#fdfdf8\"/>"));
    for (i, line) in lines.iter().enumerate() {
        let y = MARGIN + (i as f64 + 0.75) * ROW;
        s.push_str(&format!("<text x=\"{MARGIN}\" y=\"{y}\" font-size=\"13\" xml:space=\"preserve\">"));
        for piece in line {
            let text = svg::escape(&piece.text);
            match (piece.seat, piece.hit) {
                (Some(seat), true) => s.push_str(&format!(
                    "<tspan fill=\"{}\" font-weight=\"bold\" text-decoration=\"underline\">{text}</tspan>",
                    svg::player_colour(seat)
                )),
                (Some(seat), false) => {
                    s.push_str(&format!("<tspan fill=\"{}\">{text}</tspan>", svg::player_colour(seat)))
                }
                (None, _) => s.push_str(&format!("<tspan>{text}</tspan>")),
            }
        }
        s.push_str("</text>");
    }
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapped_lines_keep_their_colours_and_fit() {
        let line = vec![plain("  round 1: "), owned("alice ab=>ba", 0), plain(", "), owned("bob x=>yy", 1)];
        let text: String = line.iter().map(|p| p.text.as_str()).collect();
        let wrapped = wrap_line(line, 16);
        assert!(wrapped.len() > 1);
        let mut again = String::new();
        for (k, l) in wrapped.iter().enumerate() {
            let joined: String = l.iter().map(|p| p.text.as_str()).collect();
            assert!(joined.chars().count() <= 16, "{joined:?}");
            again.push_str(if k == 0 { &joined } else { &joined[4..] });
        }
        assert_eq!(again, text);
        // "bob" is still in seat 1's colour on its own line.
        let bob = wrapped.iter().flatten().find(|p| p.text.contains("bob")).unwrap();
        assert_eq!(bob.seat, Some(1));
        // A string with no space is cut at the width.
        let long = wrap_line(vec![plain("x".repeat(40))], 16);
        assert_eq!(long.len(), 3, "16, then 12 after the indent, then 12");
    }
}
