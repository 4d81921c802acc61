//! The unbounded plane as a hash map of 64x64 tiles. Only tiles with live
//! cells are stored, and a step visits only them and those neighbours their
//! border cells can reach. A tile is stepped by the same kernel as the dense
//! grid, with its 64 rows as the strip: each row word's left and right
//! neighbours are the same row of the tiles beside it, and the rows above and
//! below come from the tiles above and below.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use rayon::prelude::*;

use crate::kernel::{self, Around, Codes, Parity, Sums};
use crate::palette::Palette;
use crate::{Life, LifeError, LiveCell, Owner, Population, Rect, Threads, Topology};

const SIDE: i64 = 64;
const EMPTY: [u64; 64] = [0; 64];

/// Fewer tiles than this step on one thread.
const PARALLEL_TILES: usize = 64;

/// A tile: plane 0 is alive, then one plane per owner-code bit. Row `r`,
/// bit `b` is the cell `SIDE * tx + b`, `SIDE * ty + r`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Tile {
    planes: Vec<[u64; 64]>,
}

impl Tile {
    fn is_empty(&self) -> bool {
        self.planes[0].iter().all(|&w| w == 0)
    }
}

/// A fast multiplicative hash for tile keys (the default SipHash is slow
/// for the many small lookups of a step).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_i64(&mut self, n: i64) {
        self.write_u64(n as u64);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type Tiles = HashMap<(i64, i64), Tile, BuildHasherDefault<KeyHasher>>;

/// The unbounded plane, tiled. See the module docs.
#[derive(Clone, Debug, Default)]
pub struct SparsePlane {
    tiles: Tiles,
    palette: Palette,
    generation: u64,
    threads: Threads,
}

/// Scratch for stepping one tile.
struct Window {
    /// Per plane: the rows -1..=64 of the tiles left, here and right.
    strips: Vec<[Vec<u64>; 3]>,
    sums: Vec<Sums>,
    forms: Vec<Parity>,
    form_strips: [Vec<Vec<u64>>; 3],
}

impl Window {
    fn new(planes: usize, codes: Codes) -> Window {
        let forms = codes.forms().len();
        Window {
            strips: (0..planes).map(|_| std::array::from_fn(|_| vec![0; 66])).collect(),
            sums: (0..planes).map(|p| Sums::for_plane(p, 66)).collect(),
            forms: (0..forms).map(|_| Parity::new(66)).collect(),
            form_strips: std::array::from_fn(|_| (0..forms).map(|_| vec![0; 66]).collect()),
        }
    }
}

impl SparsePlane {
    /// An empty plane.
    pub fn new() -> SparsePlane {
        SparsePlane::default()
    }

    fn key(x: i64, y: i64) -> ((i64, i64), usize, u64) {
        ((x.div_euclid(SIDE), y.div_euclid(SIDE)), y.rem_euclid(SIDE) as usize, 1u64 << x.rem_euclid(SIDE))
    }

    fn planes(&self) -> usize {
        1 + self.palette.bits()
    }

    /// Tiles to compute next: the live ones and the neighbours their border
    /// cells touch.
    fn candidates(&self) -> Vec<(i64, i64)> {
        let mut keys: Vec<(i64, i64)> = self.tiles.keys().copied().collect();
        let mut fringe = Vec::new();
        for (&(tx, ty), tile) in &self.tiles {
            let a = &tile.planes[0];
            let left = a.iter().any(|w| w & 1 != 0);
            let right = a.iter().any(|w| w >> 63 != 0);
            let (top, bottom) = (a[0] != 0, a[63] != 0);
            let near = [
                (top, (0, -1)),
                (bottom, (0, 1)),
                (left, (-1, 0)),
                (right, (1, 0)),
                (a[0] & 1 != 0, (-1, -1)),
                (a[0] >> 63 != 0, (1, -1)),
                (a[63] & 1 != 0, (-1, 1)),
                (a[63] >> 63 != 0, (1, 1)),
            ];
            for (touch, (dx, dy)) in near {
                let key = (tx + dx, ty + dy);
                if touch && !self.tiles.contains_key(&key) {
                    fringe.push(key);
                }
            }
        }
        fringe.sort_unstable();
        fringe.dedup();
        keys.extend(fringe);
        keys
    }

    fn step_tile(&self, key: (i64, i64), window: &mut Window, codes: Codes) -> Option<Tile> {
        let (tx, ty) = key;
        let planes = self.planes();
        // The 3x3 tiles around this one, row by row.
        let near: [Option<&Tile>; 9] =
            std::array::from_fn(|i| self.tiles.get(&(tx + i as i64 % 3 - 1, ty + i as i64 / 3 - 1)));
        for p in 0..planes {
            let plane_of = |i: usize| near[i].map_or(&EMPTY, |t| &t.planes[p]);
            for column in 0..3 {
                let strip = &mut window.strips[p][column];
                strip[0] = plane_of(column)[63];
                strip[1..65].copy_from_slice(plane_of(3 + column));
                strip[65] = plane_of(6 + column)[0];
            }
        }
        if window.strips[0].iter().all(|s| s.iter().all(|&w| w == 0)) {
            return None;
        }
        for p in 0..planes {
            let [l, c, r] = &window.strips[p];
            if p == 0 {
                kernel::hsums(l, c, r, &mut window.sums[p]);
            } else {
                kernel::hsums_centre(l, c, r, &mut window.sums[p]);
            }
        }
        if !codes.forms().is_empty() {
            for column in 0..3 {
                let bits: Vec<&[u64]> = window.strips[1..].iter().map(|s| s[column].as_slice()).collect();
                kernel::form_rows(&bits, 0, 66, codes, &mut window.form_strips[column]);
            }
            for f in 0..codes.forms().len() {
                let [l, c, r] = &window.form_strips;
                kernel::hparity(&l[f], &c[f], &r[f], &mut window.forms[f]);
            }
        }
        let mut tile = Tile { planes: vec![[0; 64]; planes] };
        {
            let around = Around {
                sums: [&window.sums, &window.sums, &window.sums],
                forms: [&window.forms, &window.forms, &window.forms],
                offsets: [0, 1, 2],
            };
            let empty: &[u64] = &[];
            let centre: [&[u64]; 6] =
                std::array::from_fn(|p| window.strips.get(p).map_or(empty, |s| s[1].as_slice()));
            let mut planes_out = tile.planes.iter_mut();
            let mut out: [&mut [u64]; 6] =
                std::array::from_fn(|_| planes_out.next().map_or(&mut [][..], |p| p.as_mut_slice()));
            // Tiles are mostly empty space: skip blocks of rows with no live
            // cell near them.
            kernel::vertical(&around, &centre[..planes], 1, &mut out[..planes], 0, 64, !0, codes, true);
        }
        (!tile.is_empty()).then_some(tile)
    }

    fn step_once(&mut self) {
        let codes = Codes { bits: self.palette.bits(), neutral: self.palette.neutral() };
        let candidates = self.candidates();
        let planes = self.planes();
        let tiles: Vec<((i64, i64), Tile)> =
            if self.threads == Threads::Auto && candidates.len() >= PARALLEL_TILES {
                candidates
                    .par_iter()
                    .map_init(
                        || Window::new(planes, codes),
                        |w, &key| self.step_tile(key, w, codes).map(|t| (key, t)),
                    )
                    .flatten()
                    .collect()
            } else {
                let mut w = Window::new(planes, codes);
                candidates
                    .iter()
                    .filter_map(|&key| self.step_tile(key, &mut w, codes).map(|t| (key, t)))
                    .collect()
            };
        self.tiles = tiles.into_iter().collect();
        self.generation += 1;
    }

    fn code_at(tile: &Tile, row: usize, bit: u64) -> usize {
        (1..tile.planes.len()).fold(0, |c, j| c | (usize::from(tile.planes[j][row] & bit != 0) << (j - 1)))
    }
}

impl Life for SparsePlane {
    fn topology(&self) -> Topology {
        Topology::Unbounded
    }

    fn get(&self, x: i64, y: i64) -> Option<Owner> {
        if !crate::in_plane(x, y) {
            return None;
        }
        let (key, row, bit) = Self::key(x, y);
        let tile = self.tiles.get(&key)?;
        (tile.planes[0][row] & bit != 0).then(|| self.palette.owner(Self::code_at(tile, row, bit)))
    }

    fn set(&mut self, x: i64, y: i64, cell: Option<Owner>) -> Result<(), LifeError> {
        if !crate::in_plane(x, y) {
            return Err(LifeError::OutOfField { x, y });
        }
        let (key, row, bit) = Self::key(x, y);
        match cell {
            None => {
                if let Some(tile) = self.tiles.get_mut(&key) {
                    for plane in &mut tile.planes {
                        plane[row] &= !bit;
                    }
                    if tile.is_empty() {
                        self.tiles.remove(&key);
                    }
                }
            }
            Some(owner) => {
                let code = self.palette.ensure(owner.check()?);
                let planes = self.planes();
                // Every tile has the same planes, so one tells whether a new
                // owner added a plane to all of them.
                if self.tiles.values().next().is_some_and(|t| t.planes.len() < planes) {
                    for tile in self.tiles.values_mut() {
                        tile.planes.resize(planes, [0; 64]);
                    }
                }
                let tile = self.tiles.entry(key).or_insert_with(|| Tile { planes: vec![[0; 64]; planes] });
                tile.planes[0][row] |= bit;
                for j in 1..planes {
                    if (code >> (j - 1)) & 1 == 1 {
                        tile.planes[j][row] |= bit;
                    } else {
                        tile.planes[j][row] &= !bit;
                    }
                }
            }
        }
        Ok(())
    }

    fn step(&mut self, generations: u64) {
        for _ in 0..generations {
            if self.tiles.is_empty() {
                self.generation += 1;
                continue;
            }
            self.step_once();
        }
    }

    fn generation(&self) -> u64 {
        self.generation
    }

    fn population(&self) -> Population {
        let mut pop = Population::default();
        for code in 0..self.palette.len().max(1) {
            let mut n = 0u64;
            for tile in self.tiles.values() {
                for row in 0..64 {
                    let mut m = tile.planes[0][row];
                    for j in 1..tile.planes.len() {
                        let b = tile.planes[j][row];
                        m &= if (code >> (j - 1)) & 1 == 1 { b } else { !b };
                    }
                    n += u64::from(m.count_ones());
                }
            }
            if n > 0 {
                pop.add(self.palette.owner(code), n);
            }
        }
        pop
    }

    fn bounding_box(&self) -> Option<Rect> {
        let (mut x0, mut x1, mut y0, mut y1) = (i64::MAX, i64::MIN, i64::MAX, i64::MIN);
        for (&(tx, ty), tile) in &self.tiles {
            for (row, &w) in tile.planes[0].iter().enumerate() {
                if w != 0 {
                    let y = ty * SIDE + row as i64;
                    y0 = y0.min(y);
                    y1 = y1.max(y);
                    x0 = x0.min(tx * SIDE + i64::from(w.trailing_zeros()));
                    x1 = x1.max(tx * SIDE + 63 - i64::from(w.leading_zeros()));
                }
            }
        }
        (y0 != i64::MAX).then(|| Rect {
            x: x0,
            y: y0,
            width: (x1 - x0 + 1) as u64,
            height: (y1 - y0 + 1) as u64,
        })
    }

    fn live_cells(&self) -> Vec<LiveCell> {
        let mut cells = Vec::new();
        for (&(tx, ty), tile) in &self.tiles {
            for (row, &w) in tile.planes[0].iter().enumerate() {
                let mut w = w;
                while w != 0 {
                    let b = w.trailing_zeros();
                    w &= w - 1;
                    let owner = self.palette.owner(Self::code_at(tile, row, 1u64 << b));
                    cells.push(LiveCell { y: ty * SIDE + row as i64, x: tx * SIDE + i64::from(b), owner });
                }
            }
        }
        cells.sort();
        cells
    }

    fn clear(&mut self) {
        self.tiles.clear();
    }

    fn set_threads(&mut self, threads: Threads) {
        self.threads = threads;
    }
}
