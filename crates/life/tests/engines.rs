//! The fast engines against the per-cell reference, on every kind of edge,
//! for one to many owners with neutral cells, on sizes that are not
//! multiples of 64 and on very flat or narrow fields.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tabula_life::{Life, LiveCell, Owner, Reference, Threads, Topology, Universe};

/// A random field: each cell live with `density` percent, owned by one of
/// `players` players or (when `neutral`) neutral.
fn soup(width: u64, height: u64, players: usize, neutral: bool, density: u32, seed: u64) -> Vec<LiveCell> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut cells = Vec::new();
    for y in 0..height as i64 {
        for x in 0..width as i64 {
            if rng.random_range(0..100) < density {
                let k = rng.random_range(0..players + usize::from(neutral));
                let owner = if k == players { Owner::Neutral } else { Owner::Player(k as u8) };
                cells.push(LiveCell { y, x, owner });
            }
        }
    }
    cells
}

fn load(life: &mut dyn Life, cells: &[LiveCell], dx: i64, dy: i64) {
    for c in cells {
        life.set(c.x + dx, c.y + dy, Some(c.owner)).unwrap();
    }
}

/// Step both engines generation by generation and compare everything the
/// interface shows.
fn agree(
    topology: Topology,
    cells: &[LiveCell],
    generations: u64,
    dx: i64,
    dy: i64,
) -> Result<(), TestCaseError> {
    let mut fast = Universe::new(topology).unwrap();
    let mut slow = Reference::new(topology).unwrap();
    load(&mut fast, cells, dx, dy);
    load(&mut slow, cells, dx, dy);
    prop_assert_eq!(fast.live_cells(), slow.live_cells(), "as loaded");
    for g in 1..=generations {
        fast.step(1);
        slow.step(1);
        prop_assert_eq!(fast.live_cells(), slow.live_cells(), "{:?} generation {}", topology, g);
        prop_assert_eq!(fast.population(), slow.population());
        prop_assert_eq!(fast.bounding_box(), slow.bounding_box());
        prop_assert_eq!(fast.generation(), g);
    }
    Ok(())
}

/// Sizes weighted towards the awkward ones: 64 and its neighbours, flat and narrow.
fn size() -> impl Strategy<Value = (u64, u64)> {
    prop_oneof![
        (1u64..=140, 1u64..=70),
        (1u64..=3, 1u64..=150),
        (1u64..=200, 1u64..=3),
        (prop::sample::select(vec![63u64, 64, 65, 127, 128, 129]), 1u64..=20),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn torus_matches_reference(
        (w, h) in size(), players in 1usize..=8, neutral: bool, density in 20u32..60, seed: u64, gens in 1u64..6,
    ) {
        let cells = soup(w, h, players, neutral, density, seed);
        agree(Topology::Torus { width: w, height: h }, &cells, gens, 0, 0)?;
    }

    #[test]
    fn dead_edges_match_reference(
        (w, h) in size(), players in 1usize..=8, neutral: bool, density in 20u32..60, seed: u64, gens in 1u64..6,
    ) {
        let cells = soup(w, h, players, neutral, density, seed);
        agree(Topology::Dead { width: w, height: h }, &cells, gens, 0, 0)?;
    }

    #[test]
    fn unbounded_matches_reference(
        (w, h) in size(), players in 1usize..=8, neutral: bool, density in 20u32..60, seed: u64, gens in 1u64..6,
        dx in -200i64..200, dy in -200i64..200,
    ) {
        let cells = soup(w, h, players, neutral, density, seed);
        agree(Topology::Unbounded, &cells, gens, dx, dy)?;
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn many_players_match_reference(players in 9usize..=26, neutral: bool, seed: u64, edges in 0usize..3) {
        let cells = soup(70, 40, players, neutral, 45, seed);
        let topology = [Topology::Torus { width: 70, height: 40 }, Topology::Dead { width: 70, height: 40 }, Topology::Unbounded][edges];
        agree(topology, &cells, 4, 0, 0)?;
    }

    /// Editing cells between steps (as Real-Time Life does) keeps the engines in step.
    #[test]
    fn edits_between_steps(seed: u64, edges in 0usize..3) {
        let topology = [Topology::Torus { width: 67, height: 33 }, Topology::Dead { width: 67, height: 33 }, Topology::Unbounded][edges];
        let mut fast = Universe::new(topology).unwrap();
        let mut slow = Reference::new(topology).unwrap();
        let cells = soup(67, 33, 2, false, 40, seed);
        load(&mut fast, &cells, 0, 0);
        load(&mut slow, &cells, 0, 0);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xabc);
        for _ in 0..6 {
            for _ in 0..20 {
                let (x, y) = (rng.random_range(0..67), rng.random_range(0..33));
                let cell = match rng.random_range(0..4) {
                    0 => None,
                    1 => Some(Owner::Neutral),
                    k => Some(Owner::Player(k as u8 + 1)),
                };
                fast.set(x, y, cell).unwrap();
                slow.set(x, y, cell).unwrap();
            }
            fast.step(1);
            slow.step(1);
            prop_assert_eq!(fast.live_cells(), slow.live_cells());
        }
    }
}

/// Known patterns: a glider on a small torus comes back after crossing it.
#[test]
fn glider_crosses_the_torus() {
    for (w, h) in [(5u64, 5u64), (8, 6), (70, 9)] {
        let mut life = Universe::new(Topology::Torus { width: w, height: h }).unwrap();
        for (x, y) in [(1, 0), (2, 1), (0, 2), (1, 2), (2, 2)] {
            life.set(x, y, Some(Owner::Player(0))).unwrap();
        }
        let start = life.live_cells();
        // A glider moves one cell diagonally every 4 generations.
        life.step(4 * w * h / gcd(w, h));
        assert_eq!(life.live_cells(), start, "{w}x{h}");
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// A still life survives; lone cells die; every owner keeps their own block.
#[test]
fn blocks_keep_their_owners() {
    let mut life = Universe::new(Topology::Unbounded).unwrap();
    for (i, owner) in [Owner::Player(0), Owner::Player(25), Owner::Neutral].into_iter().enumerate() {
        let x0 = i as i64 * 10 - 70;
        for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            life.set(x0 + x, y - 3, Some(owner)).unwrap();
        }
    }
    life.set(100, 100, Some(Owner::Player(3))).unwrap();
    let before = life.population();
    life.step(10);
    let after = life.population();
    assert_eq!(after.of(Owner::Player(0)), 4);
    assert_eq!(after.of(Owner::Player(25)), 4);
    assert_eq!(after.of(Owner::Neutral), 4);
    assert_eq!(after.of(Owner::Player(3)), 0);
    assert_eq!(before.total(), 13);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Sparse fields on the plane: a few cells per tile over many tiles
    /// (the row-by-row step for one or two owners, the strip kernel for
    /// more), sometimes with a second group so far away that the tiles are
    /// found through a map rather than a flat index, and cells set, moved
    /// and cleared between steps (tiles appear, vanish and are renumbered).
    #[test]
    fn sparse_plane_matches_reference(
        players in 1usize..=4, neutral: bool, density in 1u32..6, seed: u64, far: bool, gens in 1u64..5,
    ) {
        let mut cells = soup(260, 190, players, neutral, density, seed);
        if far {
            cells.extend(soup(70, 70, players, neutral, 30, seed ^ 1).into_iter().map(|c| LiveCell {
                x: c.x + 90_000,
                y: c.y - 70_000,
                ..c
            }));
        }
        let mut fast = Universe::new(Topology::Unbounded).unwrap();
        fast.set_threads(Threads::Single);
        let mut many = Universe::new(Topology::Unbounded).unwrap();
        let mut slow = Reference::new(Topology::Unbounded).unwrap();
        for life in [&mut fast as &mut dyn Life, &mut many, &mut slow] {
            load(life, &cells, -100, -60);
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
        for g in 1..=gens {
            fast.step(1);
            many.step(1);
            slow.step(1);
            prop_assert_eq!(fast.live_cells(), slow.live_cells(), "generation {}", g);
            prop_assert_eq!(many.live_cells(), slow.live_cells(), "generation {} on threads", g);
            prop_assert_eq!(fast.population(), slow.population());
            prop_assert_eq!(fast.bounding_box(), slow.bounding_box());
            for _ in 0..30 {
                // Near the field, on tile borders, or far out.
                let (x, y) = match rng.random_range(0..3) {
                    0 => (rng.random_range(-110..170), rng.random_range(-70..140)),
                    1 => (64 * rng.random_range(-3..4) - rng.random_range(0..2), rng.random_range(-70..140)),
                    _ => (rng.random_range(-300_000..300_000), rng.random_range(-300_000..300_000)),
                };
                let cell = match rng.random_range(0..3) {
                    0 => None,
                    _ => Some(Owner::Player(rng.random_range(0..players) as u8)),
                };
                for life in [&mut fast as &mut dyn Life, &mut many, &mut slow] {
                    life.set(x, y, cell).unwrap();
                }
            }
            prop_assert_eq!(fast.live_cells(), slow.live_cells(), "edited {}", g);
        }
    }
}

/// Many threads and one give the same field.
#[test]
fn threads_agree() {
    for topology in [Topology::Torus { width: 700, height: 420 }, Topology::Unbounded] {
        let cells = soup(700, 420, 3, true, 35, 7);
        let mut one = Universe::new(topology).unwrap();
        one.set_threads(Threads::Single);
        let mut many = Universe::new(topology).unwrap();
        load(&mut one, &cells, 0, 0);
        load(&mut many, &cells, 0, 0);
        one.step(3);
        many.step(3);
        assert_eq!(one.live_cells(), many.live_cells());
    }
}

/// Moving a cell keeps its owner; bad moves change nothing.
#[test]
fn moving_cells() {
    for topology in
        [Topology::Torus { width: 9, height: 7 }, Topology::Dead { width: 9, height: 7 }, Topology::Unbounded]
    {
        let mut life = Universe::new(topology).unwrap();
        life.set(1, 1, Some(Owner::Player(4))).unwrap();
        life.set(2, 2, Some(Owner::Neutral)).unwrap();
        life.move_cell((1, 1), (5, 3)).unwrap();
        assert_eq!(life.get(1, 1), None);
        assert_eq!(life.get(5, 3), Some(Owner::Player(4)));
        assert_eq!(
            life.move_cell((1, 1), (0, 0)).unwrap_err().to_string(),
            "(1,1) is empty: there is no cell to move"
        );
        assert_eq!(life.move_cell((5, 3), (2, 2)).unwrap_err().to_string(), "(2,2) is taken");
        assert_eq!(life.population().total(), 2);
    }
    let mut dead = Universe::new(Topology::Dead { width: 9, height: 7 }).unwrap();
    dead.set(0, 0, Some(Owner::Player(0))).unwrap();
    assert!(dead.move_cell((0, 0), (9, 0)).is_err());
    assert_eq!(dead.get(0, 0), Some(Owner::Player(0)));
}

/// Bad input is refused and changes nothing.
#[test]
fn refusals() {
    assert!(Universe::new(Topology::Torus { width: 0, height: 5 }).is_err());
    assert!(Universe::new(Topology::Dead { width: 1 << 21, height: 1 }).is_err());
    let mut dead = Universe::new(Topology::Dead { width: 10, height: 10 }).unwrap();
    assert!(dead.set(10, 0, Some(Owner::Player(0))).is_err());
    assert!(dead.set(-1, 0, Some(Owner::Player(0))).is_err());
    assert!(dead.set(0, 0, Some(Owner::Player(26))).is_err());
    assert_eq!(dead.population().total(), 0);
    assert_eq!(dead.get(-1, 3), None);
    let mut torus = Universe::new(Topology::Torus { width: 10, height: 10 }).unwrap();
    torus.set(-1, 12, Some(Owner::Player(1))).unwrap();
    assert_eq!(torus.get(9, 2), Some(Owner::Player(1)));
    let mut plane = Universe::new(Topology::Unbounded).unwrap();
    assert!(plane.set(i64::MAX, 0, Some(Owner::Player(0))).is_err());
    plane.set(-5, -7, Some(Owner::Player(2))).unwrap();
    plane.set(-5, -7, None).unwrap();
    assert_eq!(plane.population().total(), 0);
    assert_eq!(plane.bounding_box(), None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// The plane stores only the rows of a tile that have live cells, and
    /// moves a tile to the end of its array when an edit adds a row. Many
    /// edits over a few tiles (rows added in the middle of tiles, rows and
    /// whole tiles emptied, owners added while tiles exist, so every row
    /// gains a code plane, and the room left behind reclaimed), with steps
    /// between them, keep it equal to the reference cell for cell.
    #[test]
    fn plane_edits_match_reference(seed: u64, owners in 1usize..=12, rounds in 1usize..4) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut fast = Universe::new(Topology::Unbounded).unwrap();
        fast.set_threads(Threads::Single);
        let mut slow = Reference::new(Topology::Unbounded).unwrap();
        for round in 0..rounds {
            for _ in 0..3000 {
                let (x, y) = (rng.random_range(-70..130), rng.random_range(-70..130));
                let cell = if rng.random_bool(0.3) {
                    None
                } else {
                    let k = rng.random_range(0..owners);
                    Some(if k == 8 { Owner::Neutral } else { Owner::Player(k as u8) })
                };
                fast.set(x, y, cell).unwrap();
                slow.set(x, y, cell).unwrap();
            }
            prop_assert_eq!(fast.live_cells(), slow.live_cells(), "edited {}", round);
            for _ in 0..200 {
                let (x, y) = (rng.random_range(-80..140), rng.random_range(-80..140));
                prop_assert_eq!(fast.get(x, y), slow.get(x, y));
            }
            prop_assert_eq!(fast.population(), slow.population());
            prop_assert_eq!(fast.bounding_box(), slow.bounding_box());
            fast.step(1);
            slow.step(1);
            prop_assert_eq!(fast.live_cells(), slow.live_cells(), "stepped {}", round);
        }
    }
}

/// Every pattern of one to four cells in a 3x3 block, placed all around a
/// tile corner: the plane skips rows whose 3-row window cannot hold a live
/// cell next generation, judged from which rows have live cells (the
/// neighbour tiles' border cells included) and from three live cells side
/// by side in a row.
#[test]
fn small_patterns_around_a_tile_corner() {
    for bits in 1u32..512 {
        if bits.count_ones() > 4 {
            continue;
        }
        for (dx, dy) in (60..=64).flat_map(|dx| (60..=64).map(move |dy| (dx, dy))) {
            let mut fast = Universe::new(Topology::Unbounded).unwrap();
            let mut slow = Reference::new(Topology::Unbounded).unwrap();
            for b in 0..9 {
                if bits >> b & 1 == 1 {
                    let owner = Some(Owner::Player((b % 2) as u8));
                    fast.set(dx + b % 3, dy + b / 3, owner).unwrap();
                    slow.set(dx + b % 3, dy + b / 3, owner).unwrap();
                }
            }
            for g in 1..=2 {
                fast.step(1);
                slow.step(1);
                assert_eq!(
                    fast.live_cells(),
                    slow.live_cells(),
                    "pattern {bits:#b} at ({dx},{dy}), generation {g}"
                );
            }
        }
    }
}
