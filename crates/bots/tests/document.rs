//! `docs/bot-protocol.md` says what the referee sends: every message the
//! document shows is a protocol message, and has the fields the referee
//! really sends in that game (recorded from the wire of real games), the
//! minimal bot it prints is `examples/bots/minimal.py`, and that bot plays
//! every game to its end without a failure.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;
use tabula_bots::protocol::{MAX_SEED, Message, ViewMode};
use tabula_bots::{BotLimits, BotSpec, MemoryStore, TournamentConfig, run_tournament};
use tabula_model::GameKind;

fn repository() -> PathBuf {
    [env!("CARGO_MANIFEST_DIR"), "..", ".."].iter().collect()
}

fn document() -> String {
    std::fs::read_to_string(repository().join("docs/bot-protocol.md")).unwrap()
}

/// The game of each `###` section of the document, by its heading.
fn game_of_heading(heading: &str) -> Option<&'static str> {
    [
        ("Intervalo", "intervalo"),
        ("DNA", "dna"),
        ("Conway", "conway"),
        ("Rewrite", "rewrite"),
        ("Real-Time Life", "rtlife"),
    ]
    .into_iter()
    .find(|(title, _)| heading.starts_with(title))
    .map(|(_, game)| game)
}

/// A fenced block of the document: the `###` section it is in, its
/// language tag and its lines.
struct Block {
    section: String,
    tag: String,
    lines: Vec<String>,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut section = String::new();
    let mut open: Option<Block> = None;
    for line in text.lines() {
        if let Some(block) = open.as_mut() {
            if line.trim_start().starts_with("```") {
                blocks.extend(open.take());
            } else {
                block.lines.push(line.to_string());
            }
        } else if let Some(tag) = line.trim_start().strip_prefix("```") {
            open = Some(Block { section: section.clone(), tag: tag.trim().to_string(), lines: Vec::new() });
        } else if let Some(heading) = line.strip_prefix("### ") {
            section = heading.trim().to_string();
        } else if line.starts_with("## ") {
            section.clear();
        }
    }
    assert!(open.is_none(), "a code block is not closed");
    blocks
}

/// Every message of the document (lines of its blocks that are JSON
/// objects, after a `> ` transcript marker), with the game it is from:
/// the `start` before it in the same block, or the block's section.
fn documented_messages(text: &str) -> Vec<(String, Value)> {
    let mut found = Vec::new();
    for block in blocks(text) {
        let mut game = game_of_heading(&block.section).map(str::to_string);
        for line in &block.lines {
            let line = line.strip_prefix("> ").unwrap_or(line).trim();
            if !line.starts_with('{') {
                continue;
            }
            let value: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("not JSON in the document ({e}): {line}"));
            if value["type"] == "start" {
                game = value["game"].as_str().map(str::to_string);
            }
            let game = game.clone().unwrap_or_else(|| panic!("no game known for the document's {line}"));
            found.push((game, value));
        }
    }
    found
}

/// The paths of an object's fields, nested objects and objects in arrays
/// included (`view.players[].letter`); null values say nothing of a field's
/// form, so only their own path is kept.
fn paths(value: &Value, prefix: &str, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                let path = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
                out.insert(path.clone());
                paths(v, &path, out);
            }
        }
        Value::Array(items) => {
            for item in items {
                paths(item, &format!("{prefix}[]"), out);
            }
        }
        _ => {}
    }
}

fn keys(value: &Value) -> BTreeSet<String> {
    value.as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default()
}

fn test_bot(name: &str) -> PathBuf {
    [env!("CARGO_MANIFEST_DIR"), "tests", "bots", name].iter().collect()
}

/// The games the wire is recorded from: each kind with small options.
fn games() -> Vec<(&'static dyn GameKind, Vec<&'static str>, ViewMode)> {
    vec![
        (&tabula_intervalo::KIND, vec!["-cells=12"], ViewMode::Static),
        (&tabula_intervalo::KIND, vec!["-cells=12"], ViewMode::Dynamic),
        (&tabula_dna::KIND, vec!["-length=16"], ViewMode::Static),
        (&tabula_dna::KIND, vec!["-length=8", "-manual"], ViewMode::Static),
        (&tabula_conway::KIND, vec!["-size=6"], ViewMode::Static),
        (&tabula_rewrite::KIND, vec!["-rounds=2"], ViewMode::Static),
        (&tabula_rewrite::KIND, vec!["-rounds=1", "-regex_goals"], ViewMode::Static),
        (
            &tabula_rtlife::KIND,
            vec!["-width=12", "-height=6", "-gen_ticks=2", "-generations=3", "-start_cells=5"],
            ViewMode::Static,
        ),
    ]
}

/// The minimal bot of `examples/bots/` against `random`, one game in each
/// seat, every line it reads and writes logged to `log`; no game of it may
/// fail.
fn play_minimal(kind: &'static dyn GameKind, options: &[&str], view: ViewMode, log: &Path) {
    let minimal = repository().join("examples/bots/minimal.py");
    let command =
        format!("python3 '{}' '{}' '{}'", test_bot("wire.py").display(), log.display(), minimal.display());
    let bots = vec![BotSpec::parse("random").unwrap(), BotSpec::parse(&command).unwrap()];
    let mut config = TournamentConfig::new(kind.info().kind, bots);
    config.options = options.iter().map(|o| o.to_string()).collect();
    config.games_per_pair = 2;
    config.seed = 5;
    config.threads = 1;
    config.view = view;
    config.move_time = std::time::Duration::from_secs(5);
    config.limits = BotLimits { startup_time: std::time::Duration::from_secs(10), ..BotLimits::default() };
    let report = run_tournament(&config, kind, &mut MemoryStore::default(), &|_| {}).unwrap();
    assert_eq!(report.games.len(), 2);
    for game in &report.games {
        assert!(
            game.failures.is_empty(),
            "the minimal bot failed in {} {options:?}: {game:?}",
            kind.info().kind
        );
    }
}

/// The wire of the minimal bot in every game: each message the referee
/// sent, by game.
fn recorded_wire() -> BTreeMap<String, Vec<Value>> {
    let dir = tempfile::tempdir().unwrap();
    // Bots may run as another user (the referee as root): they must be
    // able to write their log.
    std::fs::set_permissions(dir.path(), std::os::unix::fs::PermissionsExt::from_mode(0o777)).unwrap();
    let mut wire: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for (i, (kind, options, view)) in games().into_iter().enumerate() {
        let log = dir.path().join(format!("{i}.log"));
        play_minimal(kind, &options, view, &log);
        let text = std::fs::read_to_string(&log).unwrap();
        let messages = wire.entry(kind.info().kind.to_string()).or_default();
        for line in text.lines().filter_map(|l| l.strip_prefix("> ")) {
            messages.push(serde_json::from_str(line).unwrap());
        }
    }
    wire
}

#[test]
fn the_document_shows_what_the_referee_sends() {
    let text = document();
    let documented = documented_messages(&text);
    let wire = recorded_wire();

    // What the wire itself must be, whatever the document says.
    for (game, messages) in &wire {
        assert!(messages.iter().any(|m| m["type"] == "end"), "{game}: no game ended");
        for m in messages {
            let parsed: Message = serde_json::from_value(m.clone()).unwrap();
            assert_eq!(
                &serde_json::to_value(&parsed).unwrap(),
                m,
                "{game}: a message with a field unknown here"
            );
            if m["type"] == "start" {
                assert!(m["seed"].as_u64().unwrap() <= MAX_SEED, "{game}: a seed past 2^53: {m}");
            }
            if m["type"] == "turn" && game == "intervalo" {
                let legal: Vec<u64> = m["legal"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c.as_str().unwrap().parse().unwrap())
                    .collect();
                assert!(legal.is_sorted(), "Intervalo's legal cells are not in the strip's order: {legal:?}");
            }
        }
    }
    let expected_games: BTreeSet<&str> = wire.keys().map(String::as_str).collect();
    let shown_games: BTreeSet<&str> =
        documented.iter().filter(|(_, m)| m["type"] == "turn").map(|(g, _)| g.as_str()).collect();
    assert_eq!(shown_games, expected_games, "the document shows a turn of every game");

    for (game, shown) in &documented {
        let parsed: Message = serde_json::from_value(shown.clone())
            .unwrap_or_else(|e| panic!("the document's {shown} is no protocol message: {e}"));
        assert_eq!(
            &serde_json::to_value(&parsed).unwrap(),
            shown,
            "the document's message has unknown fields"
        );
        let sent: Vec<&Value> = wire[game].iter().filter(|m| m["type"] == shown["type"]).collect();
        assert!(!sent.is_empty(), "{game}: the referee never sent a {}", shown["type"]);
        match shown["type"].as_str() {
            Some("start") => {
                assert!(
                    sent.iter().any(|m| keys(&m["options"]) == keys(&shown["options"])),
                    "{game}: the document's start has options {:?}, the referee sends {:?}",
                    keys(&shown["options"]),
                    keys(&sent[0]["options"])
                );
            }
            Some("turn") => {
                // A turn of the same kind: the view with the same fields,
                // `legal` sent or not as shown, in the same phase.
                let alike = |m: &&&Value| {
                    keys(&m["view"]) == keys(&shown["view"])
                        && m.get("legal").is_some() == shown.get("legal").is_some()
                        && m.get("clock").is_some() == shown.get("clock").is_some()
                        && m["view"].get("phase") == shown["view"].get("phase")
                };
                assert!(
                    sent.iter().any(|m| alike(&m)),
                    "{game}: the referee never sends a turn like the document's:\n{shown}\nit sends for example:\n{}",
                    sent[0]
                );
                let mut real = BTreeSet::new();
                sent.iter().for_each(|m| paths(m, "", &mut real));
                let mut claimed = BTreeSet::new();
                paths(shown, "", &mut claimed);
                let unknown: Vec<&String> = claimed.difference(&real).collect();
                assert!(unknown.is_empty(), "{game}: the document shows fields never sent: {unknown:?}");
            }
            _ => {}
        }
    }
}

#[test]
fn the_documented_minimal_bot_is_the_example() {
    let text = document();
    let minimal = std::fs::read_to_string(repository().join("examples/bots/minimal.py")).unwrap();
    let shown: Vec<String> = blocks(&text)
        .into_iter()
        .filter(|b| b.tag == "python")
        .map(|b| b.lines.iter().map(|l| format!("{l}\n")).collect())
        .collect();
    assert!(shown.contains(&minimal), "the document's minimal bot is not examples/bots/minimal.py");
}
