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

/// What a step reads of a tile's edges, gathered once per generation so
/// that neighbours need not scan its rows.
#[derive(Clone, Copy, Debug, Default)]
struct Edges {
    /// Bit `r`: row `r` has a live cell.
    rows: u64,
    /// Planes 0 and 1, bit `r`: the cell in column 0 of row `r`.
    west: [u64; 2],
    /// Planes 0 and 1, bit `r`: the cell in column 63 of row `r`.
    east: [u64; 2],
}

impl Edges {
    fn of(tile: &Tile) -> Edges {
        let mut e = Edges::default();
        for (r, &w) in tile.planes[0].iter().enumerate() {
            e.rows |= u64::from(w != 0) << r;
        }
        for (p, plane) in tile.planes.iter().take(2).enumerate() {
            for (r, &w) in plane.iter().enumerate() {
                e.west[p] |= (w & 1) << r;
                e.east[p] |= (w >> 63) << r;
            }
        }
        e
    }
}

/// Where a live tile sits in a [`Layer`]: a flat array over the tiles'
/// bounding box when the tiles fill enough of it (a lookup is then one
/// read), a hash map otherwise.
enum Index {
    Flat { x0: i64, y0: i64, width: i64, height: i64, slots: Vec<u32> },
    Hash(HashMap<(i64, i64), u32, BuildHasherDefault<KeyHasher>>),
}

impl Index {
    fn new(keys: &[(i64, i64)]) -> Index {
        let (mut x0, mut x1, mut y0, mut y1) = (i64::MAX, i64::MIN, i64::MAX, i64::MIN);
        for &(x, y) in keys {
            (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
        }
        let width = i128::from(x1) - i128::from(x0) + 1;
        let height = i128::from(y1) - i128::from(y0) + 1;
        // A slot is 4 bytes against the map's ~24 per tile, so a box up to
        // 16 times the tiles (or small anyway) costs no more memory.
        if !keys.is_empty() && width * height <= 16 * keys.len() as i128 + 4096 {
            let (width, height) = (width as i64, height as i64);
            let mut slots = vec![u32::MAX; (width * height) as usize];
            for (i, &(x, y)) in keys.iter().enumerate() {
                slots[((y - y0) * width + (x - x0)) as usize] = i as u32;
            }
            Index::Flat { x0, y0, width, height, slots }
        } else {
            Index::Hash(keys.iter().enumerate().map(|(i, &k)| (k, i as u32)).collect())
        }
    }

    fn get(&self, (x, y): (i64, i64)) -> Option<usize> {
        match self {
            Index::Flat { x0, y0, width, height, slots } => {
                let (dx, dy) = (x.wrapping_sub(*x0), y.wrapping_sub(*y0));
                if !(0..*width).contains(&dx) || !(0..*height).contains(&dy) {
                    return None;
                }
                let i = slots[(dy * width + dx) as usize];
                (i != u32::MAX).then_some(i as usize)
            }
            Index::Hash(map) => map.get(&(x, y)).map(|&i| i as usize),
        }
    }
}

/// The live tiles of one generation, as a step reads them.
struct Layer<'a> {
    keys: Vec<(i64, i64)>,
    tiles: Vec<&'a Tile>,
    edges: Vec<Edges>,
    index: Index,
}

impl<'a> Layer<'a> {
    fn new(map: &'a Tiles) -> Layer<'a> {
        let (keys, tiles): (Vec<(i64, i64)>, Vec<&Tile>) = map.iter().map(|(&k, t)| (k, t)).unzip();
        let edges = tiles.iter().map(|t| Edges::of(t)).collect();
        let index = Index::new(&keys);
        Layer { keys, tiles, edges, index }
    }

    /// The places of the 3x3 tiles around `key`, row by row.
    fn near(&self, (tx, ty): (i64, i64)) -> [Option<usize>; 9] {
        std::array::from_fn(|i| self.index.get((tx + i as i64 % 3 - 1, ty + i as i64 / 3 - 1)))
    }
}

/// One row of a plane summed across (see `kernel::hsums`): the row itself,
/// the sums without the centre and with it.
#[derive(Clone, Copy, Debug, Default)]
struct RowSums {
    c: u64,
    p0: u64,
    p1: u64,
    s0: u64,
    s1: u64,
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
    fn candidates(layer: &Layer<'_>) -> Vec<(i64, i64)> {
        let mut keys = layer.keys.clone();
        let mut fringe = Vec::new();
        for (&(tx, ty), e) in layer.keys.iter().zip(&layer.edges) {
            let (west, east) = (e.west[0], e.east[0]);
            let near = [
                (e.rows & 1 != 0, (0, -1)),
                (e.rows >> 63 != 0, (0, 1)),
                (west != 0, (-1, 0)),
                (east != 0, (1, 0)),
                (west & 1 != 0, (-1, -1)),
                (east & 1 != 0, (1, -1)),
                (west >> 63 != 0, (-1, 1)),
                (east >> 63 != 0, (1, 1)),
            ];
            for (touch, (dx, dy)) in near {
                let key = (tx + dx, ty + dy);
                if touch && layer.index.get(key).is_none() {
                    fringe.push(key);
                }
            }
        }
        fringe.sort_unstable();
        fringe.dedup();
        keys.extend(fringe);
        keys
    }

    /// One tile's next generation through the strip kernel: any number of
    /// owner-code planes, forms included.
    fn step_tile(layer: &Layer<'_>, key: (i64, i64), window: &mut Window, codes: Codes) -> Option<Tile> {
        let planes = 1 + codes.bits;
        // The 3x3 tiles around this one, row by row.
        let near: [Option<&Tile>; 9] = layer.near(key).map(|i| i.map(|i| layer.tiles[i]));
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

    /// One tile's next generation row by row, for one owner or two (`B`
    /// code planes, 0 or 1: no births of three different owners, so no
    /// forms). Only rows with a live cell in their 3-row window are
    /// computed: on a sparse field most rows of a tile have none, and the
    /// strip kernel would compute (and its halo copy would fetch) all 66.
    fn step_tile_rows<const B: usize>(layer: &Layer<'_>, key: (i64, i64)) -> Option<Tile> {
        let near = layer.near(key);
        let edges = |i: usize| near[i].map_or(Edges::default(), |j| layer.edges[j]);
        let word = |i: usize, p: usize, row: usize| near[i].map_or(0, |j| layer.tiles[j].planes[p][row]);
        let (left, right) = (edges(3), edges(5));
        let centre_rows = near[4].map_or(0, |j| layer.edges[j].rows);
        // Rows 0..64 with a live cell in this tile's column or next to it,
        // then the rows just above and below the tile.
        let occupied = centre_rows | left.east[0] | right.west[0];
        let above = word(1, 0, 63) | (word(0, 0, 63) >> 63) | (word(2, 0, 63) & 1) != 0;
        let below = word(7, 0, 0) | (word(6, 0, 0) >> 63) | (word(8, 0, 0) & 1) != 0;
        let mut need = occupied | (occupied << 1) | (occupied >> 1) | u64::from(above) | (u64::from(below) << 63);
        if need == 0 {
            return None;
        }
        let centre: [&[u64; 64]; 2] =
            std::array::from_fn(|p| near[4].map_or(&EMPTY, |j| layer.tiles[j].planes.get(p).unwrap_or(&EMPTY)));
        // Plane `p`'s row `r` (-1..=64) with its neighbour bits, summed
        // across.
        let sums = |p: usize, r: i32| -> RowSums {
            let (c, west, east) = match r {
                -1 => (word(1, p, 63), word(0, p, 63) >> 63, word(2, p, 63) & 1),
                64 => (word(7, p, 0), word(6, p, 0) >> 63, word(8, p, 0) & 1),
                _ => (centre[p][r as usize], (left.east[p] >> r) & 1, (right.west[p] >> r) & 1),
            };
            let l = (c << 1) | west;
            let r = (c >> 1) | (east << 63);
            let (a, b) = (l ^ r, l & r);
            RowSums { c, p0: a, p1: b, s0: a ^ c, s1: b | (a & c) }
        };
        let mut tile: Option<Tile> = None;
        let mut window = [[RowSums::default(); 3]; 2];
        let mut last = -2i32;
        while need != 0 {
            let r = need.trailing_zeros() as i32;
            need &= need - 1;
            for (p, w) in window.iter_mut().enumerate().take(B + 1) {
                if r == last + 1 {
                    *w = [w[1], w[2], sums(p, r + 1)];
                } else {
                    *w = [sums(p, r - 1), sums(p, r), sums(p, r + 1)];
                }
            }
            last = r;
            let [t, m, b] = window[0];
            // The same adder as `kernel::vertical`, one word at a time.
            let u0 = t.s0 ^ m.p0 ^ b.s0;
            let c0 = (t.s0 & m.p0) | (b.s0 & (t.s0 | m.p0));
            let (a, a2) = (t.s1 ^ m.p1, t.s1 & m.p1);
            let (bb, b2) = (b.s1 ^ c0, b.s1 & c0);
            let next = (a ^ bb) & !(a2 | b2) & (u0 | m.c);
            if next == 0 {
                continue;
            }
            let tile = tile.get_or_insert_with(|| Tile { planes: vec![[0; 64]; B + 1] });
            tile.planes[0][r as usize] = next;
            if B == 1 {
                let [t, m, b] = window[1];
                let c0 = (t.s0 & m.s0) | (b.s0 & (t.s0 | m.s0));
                // With exactly three parents the twos bit of the count is
                // the bitwise majority of their codes.
                let twos = t.s1 ^ m.s1 ^ b.s1 ^ c0;
                let live = window[0][1].c;
                tile.planes[1][r as usize] = (m.c & next & live) | (next & !live & twos);
            }
        }
        tile
    }

    fn step_once(&mut self) {
        let codes = Codes { bits: self.palette.bits(), neutral: self.palette.neutral() };
        let layer = Layer::new(&self.tiles);
        let candidates = Self::candidates(&layer);
        let planes = self.planes();
        let step = |w: &mut Option<Window>, key: (i64, i64)| match codes.bits {
            0 => Self::step_tile_rows::<0>(&layer, key),
            1 => Self::step_tile_rows::<1>(&layer, key),
            _ => Self::step_tile(&layer, key, w.get_or_insert_with(|| Window::new(planes, codes)), codes),
        };
        let tiles: Vec<((i64, i64), Tile)> =
            if self.threads == Threads::Auto && candidates.len() >= PARALLEL_TILES {
                candidates
                    .par_iter()
                    .map_init(|| None, |w, &key| step(w, key).map(|t| (key, t)))
                    .flatten()
                    .collect()
            } else {
                let mut w = None;
                candidates.iter().filter_map(|&key| step(&mut w, key).map(|t| (key, t))).collect()
            };
        drop(layer);
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
