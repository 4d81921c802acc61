//! Tournament results as a text table, JSON and CSV.

use std::fmt::Write;
use std::path::Path;

use tabula_i18n::t;
use tabula_model::Lang;

use crate::tournament::TournamentReport;

/// `name` in at most `width` characters: whole, or its start and its end
/// (where a command line names its script) around `...`.
fn short(name: &str, width: usize) -> String {
    let chars: Vec<char> = name.chars().collect();
    if chars.len() <= width {
        return name.to_string();
    }
    let room = width.saturating_sub(3);
    let head = room / 3;
    let tail = room - head;
    let start: String = chars[..head].iter().collect();
    let end: String = chars[chars.len() - tail..].iter().collect();
    format!("{start}...{end}")
}

/// The names as shown in a column `width` wide ([`short`]); names that
/// would still look alike are numbered by their place in the list (`#2`).
fn display_names(names: &[String], width: usize) -> Vec<String> {
    let shown: Vec<String> = names.iter().map(|n| short(n, width)).collect();
    shown
        .iter()
        .enumerate()
        .map(|(i, s)| {
            if shown.iter().filter(|t| *t == s).count() == 1 {
                return s.clone();
            }
            let number = format!(" #{}", i + 1);
            format!("{}{number}", short(&names[i], width.saturating_sub(number.len())))
        })
        .collect()
}

/// The results table's columns: each heading's catalogue id and the
/// narrowest the column is (English's widths; a longer heading widens it).
const COLUMNS: [(&str, usize); 10] = [
    ("report-column-rank", 4),
    ("report-column-bot", 3),
    ("report-column-games", 6),
    ("report-column-wins", 6),
    ("report-column-losses", 6),
    ("report-column-draws", 6),
    ("report-column-win-rate", 7),
    ("report-column-interval", 17),
    ("report-column-rating", 6),
    ("report-column-failures", 8),
];

/// The results table (ranked by games won, as the seed ranks them) and the
/// head-to-head matrix (row's wins-losses-draws against the column), in
/// `lang`.
pub fn render_text(report: &TournamentReport, lang: Lang) -> String {
    let mut out = String::new();
    let total = report.games.len();
    let options =
        if report.options.is_empty() { String::new() } else { format!(" {}", report.options.join(" ")) };
    // The seed goes in as text: it may be larger than a number keeps exactly.
    let heading = t!(
        lang,
        "report-heading",
        game = format!("{}{options}", report.game),
        bots = report.names.len(),
        players = report.players,
        per_pair = report.games_per_pair,
        seed = report.seed.to_string(),
        games = total
    );
    let _ = writeln!(out, "{heading}");
    let headings: Vec<String> = COLUMNS.iter().map(|(id, _)| t!(lang, id)).collect();
    let mut widths: Vec<usize> =
        COLUMNS.iter().zip(&headings).map(|((_, least), h)| (*least).max(h.chars().count())).collect();
    let names = report.bots.iter().map(|b| b.name.chars().count()).max().unwrap_or(3).clamp(3, 40);
    widths[1] = widths[1].max(names);
    let shown = display_names(&report.names, widths[1]);
    let name_of = |index: usize| shown.get(index).map_or("", String::as_str);
    let row = |cells: [String; 10]| {
        let mut line = String::new();
        for (i, (cell, width)) in cells.iter().zip(&widths).enumerate() {
            let _ = match i {
                0 => write!(line, "{cell:>width$}"),
                1 => write!(line, "  {cell:<width$}"),
                _ => write!(line, "  {cell:>width$}"),
            };
        }
        line
    };
    let _ = writeln!(out, "{}", row(headings.clone().try_into().unwrap_or_default()));
    for (rank, b) in report.bots.iter().enumerate() {
        let percent = |x| tabula_i18n::format_percent(lang, x, 1);
        let interval = format!("[{}, {}]", percent(b.ci95[0]), percent(b.ci95[1]));
        let cells = [
            (rank + 1).to_string(),
            name_of(b.index).to_string(),
            b.games.to_string(),
            b.wins.to_string(),
            b.losses.to_string(),
            b.draws.to_string(),
            percent(b.win_rate),
            interval,
            format!("{:.0}", b.rating),
            b.failures.to_string(),
        ];
        let _ = writeln!(out, "{}", row(cells));
    }
    let width = widths[1];
    let order: Vec<usize> = report.bots.iter().map(|b| b.index).collect();
    let _ = writeln!(out, "\n{}", t!(lang, "report-head-to-head"));
    let cells: Vec<Vec<String>> = order
        .iter()
        .map(|&i| {
            order
                .iter()
                .map(|&j| {
                    if i == j {
                        "-".to_string()
                    } else {
                        let c = report.head_to_head[i][j];
                        format!("{}-{}-{}", c.wins, c.losses, c.draws)
                    }
                })
                .collect()
        })
        .collect();
    let column = cells.iter().flatten().map(String::len).max().unwrap_or(1).max(3);
    let _ = write!(out, "{:>4}  {:<width$}", "", "");
    for rank in 1..=order.len() {
        let _ = write!(out, "  {:>column$}", rank);
    }
    out.push('\n');
    for (rank, row) in cells.iter().enumerate() {
        let _ = write!(out, "{:>4}  {:<width$}", rank + 1, name_of(report.bots[rank].index));
        for cell in row {
            let _ = write!(out, "  {cell:>column$}");
        }
        out.push('\n');
    }
    let failures: Vec<_> =
        report.games.iter().flat_map(|g| g.failures.iter().map(move |f| (g.index, f))).collect();
    if !failures.is_empty() {
        let _ = writeln!(out, "\n{}", t!(lang, "report-failures", count = failures.len()));
        for (index, f) in failures.iter().take(20) {
            // Numbered from 1, as on the web pages.
            let _ = writeln!(
                out,
                "  {}",
                t!(lang, "report-failure", game = index + 1, message = f.describe(lang))
            );
            // The bot's last word on stderr usually says why (a script not
            // found, a traceback's last line); the rest is in the JSON.
            if let Some(last) = f.stderr.lines().map(str::trim).rfind(|l| !l.is_empty()) {
                let _ = writeln!(out, "    stderr: {}", clip_line(last, 160));
            }
        }
        if failures.len() > 20 {
            let _ = writeln!(out, "  {}", t!(lang, "report-more-failures", count = failures.len() - 20));
        }
    }
    out
}

/// The report as JSON: `game`, `seed`, `games_per_pair`, `bots` (name,
/// wins, losses, draws, win_rate, ci95, rating, ...), `head_to_head`, and
/// `games` (seats, seed, winner, scores, reason, failures, ...).
pub fn render_json(report: &TournamentReport) -> String {
    serde_json::to_string_pretty(report).unwrap_or_else(|e| format!("{{\"error\":{:?}}}", e.to_string()))
}

/// `text` cut to at most `max` characters, with `...` where it was cut.
fn clip_line(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// The standings as CSV, one bot a line, ranked.
pub fn render_csv(report: &TournamentReport) -> String {
    let mut out =
        String::from("rank,bot,games,wins,losses,draws,win_rate,ci95_low,ci95_high,rating,failures\n");
    for (rank, b) in report.bots.iter().enumerate() {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{:.4},{:.4},{:.4},{:.1},{}",
            rank + 1,
            csv_field(&b.name),
            b.games,
            b.wins,
            b.losses,
            b.draws,
            b.win_rate,
            b.ci95[0],
            b.ci95[1],
            b.rating,
            b.failures
        );
    }
    out
}

/// Check, before a tournament is played, that its results can be written
/// to `path` (its directory exists and may be written, and the file, if it
/// exists, may be replaced), so that a mistyped path does not waste every
/// game.
///
/// # Errors
///
/// What is wrong, in words.
pub fn check_output(path: &Path) -> Result<(), String> {
    use std::os::unix::ffi::OsStrExt;
    let shown = path.display();
    if path.is_dir() {
        return Err(format!("{shown} is a directory"));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(format!("{shown}: there is no directory {}", dir.display()));
    }
    let writable = |p: &Path, mode: libc::c_int| {
        std::ffi::CString::new(p.as_os_str().as_bytes())
            // SAFETY: a valid C string for the duration of the call.
            .is_ok_and(|c| unsafe { libc::access(c.as_ptr(), mode) } == 0)
    };
    if !writable(dir, libc::W_OK | libc::X_OK) {
        return Err(format!("{shown}: the directory {} may not be written", dir.display()));
    }
    if path.exists() && !writable(path, libc::W_OK) {
        return Err(format!("{shown} may not be written"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_keep_their_ends_and_stay_apart() {
        let names: Vec<String> = [
            "python3 /home/someone/projects/bots/intervalo/neighbour.py",
            "python3 /home/someone/projects/bots/intervalo/shadow.py",
            "mcts",
        ]
        .map(String::from)
        .to_vec();
        let shown = display_names(&names, 30);
        assert_eq!(shown[0], "python3 /...rvalo/neighbour.py");
        assert!(shown[1].ends_with("/shadow.py"), "{shown:?}");
        assert_eq!(shown[2], "mcts");
        assert!(shown.iter().all(|s| s.chars().count() <= 30), "{shown:?}");
        // Alike even at their ends: numbered.
        let same: Vec<String> =
            ["python3 bot.py --depth 1 --seed 1 --x", "python3 bot.py --depth 2 --seed 1 --x"]
                .map(String::from)
                .to_vec();
        let shown = display_names(&same, 20);
        assert_ne!(shown[0], shown[1], "{shown:?}");
        assert!(shown[0].ends_with(" #1") && shown[1].ends_with(" #2"), "{shown:?}");
    }
}
