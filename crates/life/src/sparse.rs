//! The unbounded plane as 64x64 tiles. Only tiles with live cells are
//! stored, and a step visits only them and those neighbours their border
//! cells can reach. The tiles' rows sit in one array (no allocation per
//! tile), which a step reads in turn, tile after tile as stored; what it
//! needs of a neighbour (its border rows and columns) is kept beside, in a
//! small record per tile, and found through a flat index over the tiles'
//! box when the tiles fill it well. Once the plane has stepped, the previous
//! generation's array is kept and written over, as the dense grid keeps its
//! second buffer.
//!
//! Tiles of one or two owners step row by row, over the rows that have a
//! live cell in their 3-row window only: at the density of a sparse field a
//! tile holds a few cells and most of its rows stay empty. Tiles of more
//! owners (whose births may need the neutral code) step through the same
//! kernel as the dense grid, with the 64 rows as the strip: each row word's
//! left and right neighbours are the same row of the tiles beside it, and
//! the rows above and below come from the tiles above and below.

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

/// Tiles stepped together by one thread.
const CHUNK_TILES: usize = 256;

/// The rows of one plane of a tile: row `r`, bit `b` is the cell
/// `SIDE * tx + b`, `SIDE * ty + r`.
type Plane = [u64; 64];

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

/// What a step reads of a tile's edges, kept up to date with its rows so
/// that a step reads nothing of a neighbour's rows: stepping a tile then
/// reads its own rows in turn and one small record per neighbour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Edges {
    /// Bit `r`: row `r` has a live cell.
    rows: u64,
    /// Planes 0 and 1, bit `r`: the cell in column 0 of row `r`.
    west: [u64; 2],
    /// Planes 0 and 1, bit `r`: the cell in column 63 of row `r`.
    east: [u64; 2],
    /// Planes 0 and 1: row 0.
    top: [u64; 2],
    /// Planes 0 and 1: row 63.
    bottom: [u64; 2],
}

impl Edges {
    fn of(tile: &[Plane]) -> Edges {
        let mut e = Edges::default();
        for r in 0..64 {
            e.row(tile, r);
        }
        e
    }

    /// Reads row `r` of `tile` again.
    fn row(&mut self, tile: &[Plane], r: usize) {
        let bit = 1u64 << r;
        self.rows = (self.rows & !bit) | (u64::from(tile[0][r] != 0) << r);
        for (p, plane) in tile.iter().take(2).enumerate() {
            let w = plane[r];
            self.west[p] = (self.west[p] & !bit) | ((w & 1) << r);
            self.east[p] = (self.east[p] & !bit) | ((w >> 63) << r);
            if r == 0 {
                self.top[p] = w;
            }
            if r == 63 {
                self.bottom[p] = w;
            }
        }
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

/// Where each live tile sits in the plane's array: a flat array over the
/// tiles' bounding box when the tiles fill enough of it (a lookup is then
/// one read), a hash map otherwise.
#[derive(Clone, Debug)]
enum Index {
    Flat { x0: i64, y0: i64, width: i64, height: i64, slots: Vec<u32> },
    Hash(HashMap<(i64, i64), u32, BuildHasherDefault<KeyHasher>>),
}

impl Default for Index {
    fn default() -> Index {
        Index::Hash(HashMap::default())
    }
}

impl Index {
    fn new(keys: &[(i64, i64)]) -> Index {
        match Self::flat_box(keys) {
            Some(b) => Self::flat(keys, b),
            None => Index::Hash(keys.iter().enumerate().map(|(i, &k)| (k, i as u32)).collect()),
        }
    }

    /// The tiles' box `(x0, y0, width, height)` when a flat index fits.
    fn flat_box(keys: &[(i64, i64)]) -> Option<(i64, i64, i64, i64)> {
        let (mut x0, mut x1, mut y0, mut y1) = (i64::MAX, i64::MIN, i64::MAX, i64::MIN);
        for &(x, y) in keys {
            (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
        }
        let width = i128::from(x1) - i128::from(x0) + 1;
        let height = i128::from(y1) - i128::from(y0) + 1;
        // A slot is 4 bytes against the map's ~24 per tile, so a box up to
        // 16 times the tiles (or small anyway) costs no more memory.
        (!keys.is_empty() && width * height <= 16 * keys.len() as i128 + 4096).then_some((
            x0,
            y0,
            width as i64,
            height as i64,
        ))
    }

    fn flat(keys: &[(i64, i64)], (x0, y0, width, height): (i64, i64, i64, i64)) -> Index {
        let mut slots = vec![u32::MAX; (width * height) as usize];
        for (i, &(x, y)) in keys.iter().enumerate() {
            slots[((y - y0) * width + (x - x0)) as usize] = i as u32;
        }
        Index::Flat { x0, y0, width, height, slots }
    }

    /// A map turned flat when the tiles now fill enough of their box (as
    /// after loading a field cell by cell).
    fn compact(&mut self, keys: &[(i64, i64)]) {
        if matches!(self, Index::Hash(_))
            && let Some(b) = Self::flat_box(keys)
        {
            *self = Self::flat(keys, b);
        }
    }

    /// The flat slot of `(x, y)`, if inside the box.
    fn slot(x0: i64, y0: i64, width: i64, height: i64, (x, y): (i64, i64)) -> Option<usize> {
        let (dx, dy) = (x.wrapping_sub(x0), y.wrapping_sub(y0));
        ((0..width).contains(&dx) && (0..height).contains(&dy)).then(|| (dy * width + dx) as usize)
    }

    fn get(&self, key: (i64, i64)) -> Option<usize> {
        match self {
            Index::Flat { x0, y0, width, height, slots } => {
                let i = slots[Self::slot(*x0, *y0, *width, *height, key)?];
                (i != u32::MAX).then_some(i as usize)
            }
            Index::Hash(map) => map.get(&key).map(|&i| i as usize),
        }
    }

    /// Puts tile `i` at `key`; `keys` (with `key` at `i` already) rebuilds
    /// the index as a map when `key` is outside a flat box.
    fn insert(&mut self, key: (i64, i64), i: usize, keys: &[(i64, i64)]) {
        match self {
            Index::Flat { x0, y0, width, height, slots } => {
                match Self::slot(*x0, *y0, *width, *height, key) {
                    Some(s) => slots[s] = i as u32,
                    None => {
                        *self = Index::Hash(keys.iter().enumerate().map(|(i, &k)| (k, i as u32)).collect())
                    }
                }
            }
            Index::Hash(map) => {
                map.insert(key, i as u32);
            }
        }
    }

    fn remove(&mut self, key: (i64, i64)) {
        match self {
            Index::Flat { x0, y0, width, height, slots } => {
                if let Some(s) = Self::slot(*x0, *y0, *width, *height, key) {
                    slots[s] = u32::MAX;
                }
            }
            Index::Hash(map) => {
                map.remove(&key);
            }
        }
    }
}

/// The live tiles of one generation, as a step reads them.
struct Layer<'a> {
    rows: &'a [Plane],
    stride: usize,
    edges: &'a [Edges],
    index: &'a Index,
    /// With a flat index over a box the tiles fill well: every tile's
    /// edges at its slot, so that stepping the tiles in the order of their
    /// slots reads the neighbours' edges in turn too.
    grid: Vec<Edges>,
}

impl<'a> Layer<'a> {
    fn tile(&self, i: usize) -> &[Plane] {
        &self.rows[i * self.stride..(i + 1) * self.stride]
    }

    fn new(rows: &'a [Plane], stride: usize, edges: &'a [Edges], index: &'a Index) -> Layer<'a> {
        let grid = match index {
            Index::Flat { slots, .. } if slots.len() <= 4 * edges.len() => slots
                .iter()
                .map(|&i| if i == u32::MAX { Edges::default() } else { edges[i as usize] })
                .collect(),
            _ => Vec::new(),
        };
        Layer { rows, stride, edges, index, grid }
    }

    /// The edges of the 3x3 tiles around `key`, row by row (all clear
    /// where no tile lives: a live tile has a live row), from the grid.
    fn near_edges(&self, (tx, ty): (i64, i64)) -> Option<[Edges; 9]> {
        match self.index {
            Index::Flat { x0, y0, width, height, .. } if !self.grid.is_empty() => {
                let (dx, dy) = (tx.wrapping_sub(*x0), ty.wrapping_sub(*y0));
                let at = |i: usize| {
                    let (x, y) = (dx + i as i64 % 3 - 1, dy + i as i64 / 3 - 1);
                    let inside = (0..*width).contains(&x) && (0..*height).contains(&y);
                    if inside { self.grid[(y * width + x) as usize] } else { Edges::default() }
                };
                Some(std::array::from_fn(at))
            }
            _ => None,
        }
    }

    /// The places of the 3x3 tiles around `key`, row by row.
    fn near(&self, (tx, ty): (i64, i64)) -> [Option<usize>; 9] {
        std::array::from_fn(|i| self.index.get((tx + i as i64 % 3 - 1, ty + i as i64 / 3 - 1)))
    }
}

/// The unbounded plane, tiled. See the module docs.
#[derive(Clone, Debug, Default)]
pub struct SparsePlane {
    /// Tile `i` is at `keys[i]`, its planes (alive, then one per owner-code
    /// bit) at `rows[i * stride..(i + 1) * stride]`.
    keys: Vec<(i64, i64)>,
    rows: Vec<Plane>,
    /// Tile `i`'s edges.
    edges: Vec<Edges>,
    index: Index,
    /// The previous generation's rows, written over by the next step.
    spare: Vec<Plane>,
    palette: Palette,
    generation: u64,
    threads: Threads,
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

    fn tile(&self, i: usize) -> &[Plane] {
        let stride = self.planes();
        &self.rows[i * stride..(i + 1) * stride]
    }

    /// One tile's next generation through the strip kernel: any number of
    /// owner-code planes, forms included.
    /// Pushes its planes to `out` unless it dies out, and tells which.
    fn step_tile(
        layer: &Layer<'_>,
        near: [Option<usize>; 9],
        window: &mut Window,
        codes: Codes,
        out: &mut Vec<Plane>,
    ) -> bool {
        let planes = 1 + codes.bits;
        // The 3x3 tiles around this one, row by row.
        let near: [Option<&[Plane]>; 9] = near.map(|i| i.map(|i| layer.tile(i)));
        for p in 0..planes {
            let plane_of = |i: usize| near[i].map_or(&EMPTY, |t| &t[p]);
            for column in 0..3 {
                let strip = &mut window.strips[p][column];
                strip[0] = plane_of(column)[63];
                strip[1..65].copy_from_slice(plane_of(3 + column));
                strip[65] = plane_of(6 + column)[0];
            }
        }
        if window.strips[0].iter().all(|s| s.iter().all(|&w| w == 0)) {
            return false;
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
        let base = out.len();
        out.resize(base + planes, EMPTY);
        {
            let around = Around {
                sums: [&window.sums, &window.sums, &window.sums],
                forms: [&window.forms, &window.forms, &window.forms],
                offsets: [0, 1, 2],
            };
            let empty: &[u64] = &[];
            let centre: [&[u64]; 6] =
                std::array::from_fn(|p| window.strips.get(p).map_or(empty, |s| s[1].as_slice()));
            let mut planes_out = out[base..].iter_mut();
            let mut out: [&mut [u64]; 6] =
                std::array::from_fn(|_| planes_out.next().map_or(&mut [][..], |p| p.as_mut_slice()));
            // Tiles are mostly empty space: skip blocks of rows with no live
            // cell near them.
            kernel::vertical(&around, &centre[..planes], 1, &mut out[..planes], 0, 64, !0, codes, true);
        }
        if out[base].iter().all(|&w| w == 0) {
            out.truncate(base);
            return false;
        }
        true
    }

    /// One tile's next generation row by row, for one owner or two (`B`
    /// code planes, 0 or 1: no births of three different owners, so no
    /// forms). Only rows with a live cell in their 3-row window are
    /// computed: on a sparse field most rows of a tile have none, and the
    /// strip kernel would compute (and its halo copy would fetch) all 66.
    /// Pushes its planes to `out` unless it dies out, and tells which.
    fn step_tile_rows<const B: usize>(
        layer: &Layer<'_>,
        centre: Option<usize>,
        edges: [Edges; 9],
        out: &mut Vec<Plane>,
    ) -> bool {
        let (left, right) = (&edges[3], &edges[5]);
        // Row -1 and row 64 of plane `p`: the word, and the bits left and
        // right of it (the corner tiles' corner cells).
        let above = |p: usize| (edges[1].bottom[p], edges[0].east[p] >> 63, edges[2].west[p] >> 63);
        let below = |p: usize| (edges[7].top[p], edges[6].east[p] & 1, edges[8].west[p] & 1);
        // Rows 0..64 with a live cell in this tile's column or next to it,
        // then the rows just above and below the tile.
        let occupied = edges[4].rows | left.east[0] | right.west[0];
        let (a, b) = (above(0), below(0));
        let above_live = a.0 | a.1 | a.2 != 0;
        let below_live = b.0 | b.1 | b.2 != 0;
        let mut need = occupied
            | (occupied << 1)
            | (occupied >> 1)
            | u64::from(above_live)
            | (u64::from(below_live) << 63);
        if need == 0 {
            return false;
        }
        let centre: [&[u64; 64]; 2] =
            std::array::from_fn(|p| centre.map_or(&EMPTY, |j| layer.tile(j).get(p).unwrap_or(&EMPTY)));
        // Plane `p`'s row `r` (-1..=64) with its neighbour bits, summed
        // across.
        let sums = |p: usize, r: i32| -> RowSums {
            let (c, west, east) = match r {
                -1 => above(p),
                64 => below(p),
                _ => (centre[p][r as usize], (left.east[p] >> r) & 1, (right.west[p] >> r) & 1),
            };
            let l = (c << 1) | west;
            let r = (c >> 1) | (east << 63);
            let (a, b) = (l ^ r, l & r);
            RowSums { c, p0: a, p1: b, s0: a ^ c, s1: b | (a & c) }
        };
        let base = out.len();
        let mut pushed = false;
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
            if !pushed {
                out.resize(base + B + 1, EMPTY);
                pushed = true;
            }
            out[base][r as usize] = next;
            if B == 1 {
                let [t, m, b] = window[1];
                let c0 = (t.s0 & m.s0) | (b.s0 & (t.s0 | m.s0));
                // With exactly three parents the twos bit of the count is
                // the bitwise majority of their codes.
                let twos = t.s1 ^ m.s1 ^ b.s1 ^ c0;
                let live = window[0][1].c;
                out[base + 1][r as usize] = (m.c & next & live) | (next & !live & twos);
            }
        }
        pushed
    }

    /// Steps tile `i` (or, for `None`, the dead tile at `key`) into `out`
    /// and `edges`, and adds to `fringe` the dead tiles its border cells
    /// touch.
    #[allow(clippy::too_many_arguments)]
    fn step_into(
        layer: &Layer<'_>,
        codes: Codes,
        key: (i64, i64),
        i: Option<usize>,
        window: &mut Option<Window>,
        keys: &mut Vec<(i64, i64)>,
        out: &mut Vec<Plane>,
        edges: &mut Vec<Edges>,
        fringe: &mut Vec<(i64, i64)>,
    ) {
        let (tx, ty) = key;
        let fringe_of = |present: &dyn Fn(usize) -> bool, fringe: &mut Vec<(i64, i64)>| {
            let Some(i) = i else { return };
            let e = &layer.edges[i];
            let (west, east) = (e.west[0], e.east[0]);
            let touch = [
                west & 1 != 0,
                e.rows & 1 != 0,
                east & 1 != 0,
                west != 0,
                false,
                east != 0,
                west >> 63 != 0,
                e.rows >> 63 != 0,
                east >> 63 != 0,
            ];
            for (n, &t) in touch.iter().enumerate() {
                if t && !present(n) {
                    fringe.push((tx + n as i64 % 3 - 1, ty + n as i64 / 3 - 1));
                }
            }
        };
        let base = out.len();
        let near_edges = if codes.bits <= 1 { layer.near_edges(key) } else { None };
        let live = if let Some(near) = near_edges {
            fringe_of(&|n| near[n].rows != 0, fringe);
            match codes.bits {
                0 => Self::step_tile_rows::<0>(layer, i, near, out),
                _ => Self::step_tile_rows::<1>(layer, i, near, out),
            }
        } else {
            let near = layer.near(key);
            fringe_of(&|n| near[n].is_some(), fringe);
            let edges = || near.map(|i| i.map_or(Edges::default(), |j| layer.edges[j]));
            match codes.bits {
                0 => Self::step_tile_rows::<0>(layer, i, edges(), out),
                1 => Self::step_tile_rows::<1>(layer, i, edges(), out),
                _ => {
                    let w = window.get_or_insert_with(|| Window::new(layer.stride, codes));
                    Self::step_tile(layer, near, w, codes, out)
                }
            }
        };
        if live {
            keys.push(key);
            edges.push(Edges::of(&out[base..]));
        }
    }

    fn step_once(&mut self) {
        let codes = Codes { bits: self.palette.bits(), neutral: self.palette.neutral() };
        self.index.compact(&self.keys);
        let layer = Layer::new(&self.rows, self.planes(), &self.edges, &self.index);
        let mut rows = std::mem::take(&mut self.spare);
        rows.clear();
        let (mut keys, mut edges, mut fringe) = (Vec::new(), Vec::new(), Vec::new());
        let live = &self.keys;
        let parallel = self.threads == Threads::Auto && live.len() >= PARALLEL_TILES;
        // The live tiles as stored (their rows read in turn), then the dead
        // ones their border cells touch.
        let run = |keys: &mut Vec<(i64, i64)>,
                   rows: &mut Vec<Plane>,
                   edges: &mut Vec<Edges>,
                   fringe: &mut Vec<(i64, i64)>,
                   tiles: &[((i64, i64), Option<usize>)]| {
            let mut w = None;
            for &(key, i) in tiles {
                Self::step_into(&layer, codes, key, i, &mut w, keys, rows, edges, fringe);
            }
        };
        let mut tiles: Vec<((i64, i64), Option<usize>)> =
            live.iter().enumerate().map(|(i, &k)| (k, Some(i))).collect();
        for pass in 0..2 {
            if parallel {
                let parts: Vec<_> = tiles
                    .par_chunks(CHUNK_TILES)
                    .map(|chunk| {
                        let mut part = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
                        run(&mut part.0, &mut part.1, &mut part.2, &mut part.3, chunk);
                        part
                    })
                    .collect();
                for (k, r, e, f) in parts {
                    keys.extend(k);
                    rows.extend(r);
                    edges.extend(e);
                    fringe.extend(f);
                }
            } else {
                run(&mut keys, &mut rows, &mut edges, &mut fringe, &tiles);
            }
            if pass == 0 {
                fringe.sort_unstable();
                fringe.dedup();
                tiles = fringe.drain(..).map(|k| (k, None)).collect();
            }
        }
        self.spare = std::mem::replace(&mut self.rows, rows);
        self.index = Index::new(&keys);
        self.keys = keys;
        self.edges = edges;
        self.generation += 1;
    }

    fn code_at(tile: &[Plane], row: usize, bit: u64) -> usize {
        (1..tile.len()).fold(0, |c, j| c | (usize::from(tile[j][row] & bit != 0) << (j - 1)))
    }

    /// Drops tile `i`, moving the last tile into its place.
    fn remove_tile(&mut self, i: usize) {
        let stride = self.planes();
        let last = self.keys.len() - 1;
        self.index.remove(self.keys[i]);
        if i != last {
            self.rows.copy_within(last * stride..(last + 1) * stride, i * stride);
            self.keys[i] = self.keys[last];
            self.edges[i] = self.edges[last];
            self.index.insert(self.keys[i], i, &self.keys);
        }
        self.keys.pop();
        self.edges.pop();
        self.rows.truncate(last * stride);
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
        let tile = self.tile(self.index.get(key)?);
        (tile[0][row] & bit != 0).then(|| self.palette.owner(Self::code_at(tile, row, bit)))
    }

    fn set(&mut self, x: i64, y: i64, cell: Option<Owner>) -> Result<(), LifeError> {
        if !crate::in_plane(x, y) {
            return Err(LifeError::OutOfField { x, y });
        }
        let (key, row, bit) = Self::key(x, y);
        match cell {
            None => {
                if let Some(i) = self.index.get(key) {
                    let stride = self.planes();
                    let tile = &mut self.rows[i * stride..(i + 1) * stride];
                    for plane in tile.iter_mut() {
                        plane[row] &= !bit;
                    }
                    if tile[0].iter().all(|&w| w == 0) {
                        self.remove_tile(i);
                    } else {
                        self.edges[i].row(tile, row);
                    }
                }
            }
            Some(owner) => {
                let old = self.planes();
                let code = self.palette.ensure(owner.check()?);
                let planes = self.planes();
                if planes != old {
                    // A new owner added a code plane to every tile.
                    let mut rows = Vec::with_capacity(self.keys.len() * planes);
                    for tile in self.rows.chunks(old) {
                        rows.extend_from_slice(tile);
                        rows.resize(rows.len() + planes - old, EMPTY);
                    }
                    self.rows = rows;
                    self.spare = Vec::new();
                }
                let i = match self.index.get(key) {
                    Some(i) => i,
                    None => {
                        let i = self.keys.len();
                        self.keys.push(key);
                        self.edges.push(Edges::default());
                        self.rows.resize(self.rows.len() + planes, EMPTY);
                        self.index.insert(key, i, &self.keys);
                        i
                    }
                };
                let tile = &mut self.rows[i * planes..(i + 1) * planes];
                tile[0][row] |= bit;
                for (j, plane) in tile.iter_mut().enumerate().skip(1) {
                    if (code >> (j - 1)) & 1 == 1 {
                        plane[row] |= bit;
                    } else {
                        plane[row] &= !bit;
                    }
                }
                self.edges[i].row(tile, row);
            }
        }
        Ok(())
    }

    fn step(&mut self, generations: u64) {
        for _ in 0..generations {
            if self.keys.is_empty() {
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
        let stride = self.planes();
        for code in 0..self.palette.len().max(1) {
            let mut n = 0u64;
            for tile in self.rows.chunks(stride) {
                for (row, &alive) in tile[0].iter().enumerate() {
                    let mut m = alive;
                    for (j, plane) in tile.iter().enumerate().skip(1) {
                        let b = plane[row];
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
        for (i, &(tx, ty)) in self.keys.iter().enumerate() {
            for (row, &w) in self.tile(i)[0].iter().enumerate() {
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
        for (i, &(tx, ty)) in self.keys.iter().enumerate() {
            let tile = self.tile(i);
            for (row, &w) in tile[0].iter().enumerate() {
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
        self.keys.clear();
        self.rows.clear();
        self.edges.clear();
        self.index = Index::default();
    }

    fn set_threads(&mut self, threads: Threads) {
        self.threads = threads;
    }
}
