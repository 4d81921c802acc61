//! Cell-for-cell comparison with Golly's `bgolly`: random soups on tori of
//! several sizes (some not multiples of 64, some very flat), run for 1, 10
//! and 100 generations by bgolly's RuleLoader with the Immigration rule
//! tables in `tests/fixtures/`, and by QuickLife for plain one-colour Life.
//!
//! Without `bgolly` on the PATH the test says it was skipped, unless
//! `TABULA_REQUIRE_BGOLLY` is set, when it fails.
//!
//! bgolly places a pattern whose header size equals the torus with its
//! top-left cell at the torus's top-left corner, `(-(W/2), -(H/2))` in its
//! own coordinates. Its RLE output holds only the bounding box of the live
//! cells, without a position, so a second run of its test-script mode prints
//! the box's corner (`edges`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tabula_life::rle::Rle;
use tabula_life::{Life, Owner, Threads, Topology, Universe};

/// A rule as bgolly runs it.
struct GollyRule {
    /// Rule name for the pattern header.
    name: &'static str,
    /// `-a` algorithm.
    algorithm: &'static str,
    /// Players in the soup.
    players: usize,
    /// The state of neutral cells, if the rule has them.
    neutral: Option<u8>,
}

const RULES: [GollyRule; 3] = [
    GollyRule { name: "B3/S23", algorithm: "QuickLife", players: 1, neutral: None },
    GollyRule { name: "Immigration2", algorithm: "RuleLoader", players: 2, neutral: None },
    GollyRule { name: "Immigration4N", algorithm: "RuleLoader", players: 4, neutral: Some(5) },
];

/// Tori: square, not multiples of 64, flat, narrow, tiny.
const SIZES: [(u64, u64); 8] =
    [(64, 64), (100, 37), (130, 70), (257, 2), (3, 150), (200, 1), (1, 90), (7, 5)];

const GENERATIONS: [u64; 3] = [1, 10, 100];

fn find_bgolly() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join("bgolly")).find(|p| p.is_file())
}

fn state_of(rule: &GollyRule, owner: Owner) -> u8 {
    match owner {
        Owner::Player(p) => p + 1,
        Owner::Neutral => rule.neutral.expect("the rule has a neutral state"),
    }
}

fn owner_of(rule: &GollyRule, state: u8) -> Owner {
    if Some(state) == rule.neutral { Owner::Neutral } else { Owner::Player(state - 1) }
}

/// A 50% soup of the rule's owners (neutral included where it has one).
fn soup(rule: &GollyRule, width: u64, height: u64, seed: u64) -> Universe {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut life = Universe::new(Topology::Torus { width, height }).unwrap();
    life.set_threads(Threads::Single);
    let owners = rule.players + usize::from(rule.neutral.is_some());
    for y in 0..height as i64 {
        for x in 0..width as i64 {
            if rng.random_bool(0.5) {
                let k = rng.random_range(0..owners);
                let owner = if k == rule.players { Owner::Neutral } else { Owner::Player(k as u8) };
                life.set(x, y, Some(owner)).unwrap();
            }
        }
    }
    life
}

fn run(command: &mut Command) -> String {
    let out = command.output().expect("bgolly runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success() && !text.contains("Fatal error"), "bgolly failed: {text}");
    text
}

/// Run `pattern` for `generations` in bgolly; the live cells in our grid
/// coordinates.
fn golly_cells(
    bgolly: &Path,
    dir: &Path,
    rule: &GollyRule,
    pattern: &Path,
    generations: u64,
    (width, height): (u64, u64),
) -> BTreeSet<(i64, i64, Owner)> {
    let rules_dir = format!("{}/", dir.join("rules").display());
    let out = dir.join("out.rle");
    let _ = std::fs::remove_file(&out);
    run(Command::new(bgolly)
        .args(["-a", rule.algorithm, "-s", &rules_dir, "-m", &generations.to_string(), "-o"])
        .arg(&out)
        .arg(pattern));
    let rle = Rle::parse(&std::fs::read_to_string(&out).expect("bgolly wrote its output"))
        .expect("bgolly's RLE parses");
    if rle.cells.is_empty() {
        return BTreeSet::new();
    }
    let script = dir.join("script.txt");
    std::fs::write(&script, format!("{}edges\n", "step 1\n".repeat(generations as usize))).unwrap();
    let text = run(Command::new(bgolly)
        .args(["-a", rule.algorithm, "-s", &rules_dir, "--exec"])
        .arg(&script)
        .arg(pattern));
    let edges =
        text.lines().find_map(|l| l.strip_prefix("Bounding box ")).expect("bgolly prints the bounding box");
    let nums: Vec<i64> =
        edges.split([' ', '.']).filter(|s| !s.is_empty()).map(|s| s.parse().unwrap()).collect();
    let (left, top) = (nums[0], nums[1]);
    assert_eq!(
        (nums[2] - left + 1, nums[3] - top + 1),
        (rle.width as i64, rle.height as i64),
        "box sizes agree"
    );
    let (gx, gy) = ((width / 2) as i64, (height / 2) as i64);
    rle.cells
        .iter()
        .map(|&(x, y, s)| (left + x as i64 + gx, top + y as i64 + gy, owner_of(rule, s)))
        .collect()
}

#[test]
fn engine_matches_bgolly_cell_for_cell() {
    let Some(bgolly) = find_bgolly() else {
        if std::env::var_os("TABULA_REQUIRE_BGOLLY").is_some() {
            panic!("bgolly is not on the PATH but TABULA_REQUIRE_BGOLLY is set (install the golly package)");
        }
        eprintln!("skipped: bgolly is not on the PATH (install the golly package to run this comparison)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules");
    std::fs::create_dir(&rules).unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for name in ["Immigration2.rule", "Immigration4N.rule"] {
        std::fs::copy(fixtures.join(name), rules.join(name)).unwrap();
    }
    let mut compared = 0;
    for (r, rule) in RULES.iter().enumerate() {
        for (s, &(width, height)) in SIZES.iter().enumerate() {
            let start = soup(rule, width, height, (r * 100 + s) as u64);
            let mut rle = Rle {
                width,
                height,
                rule: format!("{}:T{width},{height}", rule.name),
                pos: None,
                cells: Vec::new(),
            };
            rle.cells = start
                .live_cells()
                .iter()
                .map(|c| (c.x as u64, c.y as u64, state_of(rule, c.owner)))
                .collect();
            let pattern = dir.path().join("in.rle");
            std::fs::write(&pattern, rle.to_text(rule.players > 1 || rule.neutral.is_some())).unwrap();
            for generations in GENERATIONS {
                let mut ours = start.clone();
                ours.step(generations);
                let mine: BTreeSet<(i64, i64, Owner)> =
                    ours.live_cells().iter().map(|c| (c.x, c.y, c.owner)).collect();
                let theirs = golly_cells(&bgolly, dir.path(), rule, &pattern, generations, (width, height));
                assert!(
                    mine == theirs,
                    "{} on a {width}x{height} torus after {generations} generations: {} cells here, {} in bgolly, first difference {:?}",
                    rule.name,
                    mine.len(),
                    theirs.len(),
                    mine.symmetric_difference(&theirs).next()
                );
                compared += 1;
            }
        }
    }
    eprintln!("{compared} runs matched bgolly cell for cell");
}
