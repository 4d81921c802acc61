//! Tournament results as a text table, JSON and CSV.

use std::fmt::Write;

use crate::tournament::TournamentReport;

fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn short(name: &str, width: usize) -> String {
    if name.chars().count() <= width {
        return name.to_string();
    }
    let kept: String = name.chars().take(width.saturating_sub(3)).collect();
    format!("{kept}...")
}

/// The results table (ranked by games won, as the seed ranks them) and the
/// head-to-head matrix (row's wins-losses-draws against the column).
pub fn render_text(report: &TournamentReport) -> String {
    let mut out = String::new();
    let total = report.games.len();
    let options =
        if report.options.is_empty() { String::new() } else { format!(" {}", report.options.join(" ")) };
    let _ = writeln!(
        out,
        "{}{options}: {} bots, {} players a game, {} games per {}, seed {}, {total} games",
        report.game,
        report.names.len(),
        report.players,
        report.games_per_pair,
        if report.players == 2 { "pair" } else { "combination" },
        report.seed,
    );
    let width = report.bots.iter().map(|b| b.name.chars().count()).max().unwrap_or(3).clamp(3, 40);
    let _ = writeln!(
        out,
        "{:>4}  {:<width$}  {:>6}  {:>6}  {:>6}  {:>6}  {:>7}  {:>17}  {:>6}  {:>8}",
        "rank", "bot", "games", "wins", "losses", "draws", "win %", "95% interval", "rating", "failures"
    );
    for (rank, b) in report.bots.iter().enumerate() {
        let interval = format!("[{}, {}]", percent(b.ci95[0]), percent(b.ci95[1]));
        let _ = writeln!(
            out,
            "{:>4}  {:<width$}  {:>6}  {:>6}  {:>6}  {:>6}  {:>7}  {:>17}  {:>6.0}  {:>8}",
            rank + 1,
            short(&b.name, width),
            b.games,
            b.wins,
            b.losses,
            b.draws,
            percent(b.win_rate),
            interval,
            b.rating,
            b.failures
        );
    }
    let order: Vec<usize> = report.bots.iter().map(|b| b.index).collect();
    let _ = writeln!(out, "\nHead to head (wins-losses-draws of the row's bot against the column's):");
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
        let _ = write!(out, "{:>4}  {:<width$}", rank + 1, short(&report.bots[rank].name, width));
        for cell in row {
            let _ = write!(out, "  {cell:>column$}");
        }
        out.push('\n');
    }
    let failures: Vec<_> =
        report.games.iter().flat_map(|g| g.failures.iter().map(move |f| (g.index, f))).collect();
    if !failures.is_empty() {
        let _ = writeln!(out, "\nFailures ({}):", failures.len());
        for (index, f) in failures.iter().take(20) {
            let _ = writeln!(out, "  game {index}: {}", f.message);
        }
        if failures.len() > 20 {
            let _ = writeln!(out, "  ... and {} more (see the JSON results)", failures.len() - 20);
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
