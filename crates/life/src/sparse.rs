//! The unbounded plane as 64x64 tiles. Only tiles with live cells are
//! stored, and a step visits only them and those neighbours their border
//! cells can reach.
//!
//! A tile keeps only its rows with a live cell: a mask of those rows (in
//! its edge record, below) and the rows themselves in order, one word per
//! plane each, all tiles' rows in one array (no allocation per tile). At the
//! density of a sparse field a tile holds a few cells, so it costs those
//! rows rather than a whole 1 KiB square; a full tile costs its 64 rows, as
//! before. A step writes the next generation's rows over the previous
//! generation's array, as the dense grid keeps its second buffer. An edit
//! that adds a row to a tile moves the tile to the end of the array when it
//! is not there already; the space it leaves is reclaimed once it is half the
//! array.
//!
//! What a step needs of a neighbour (its border rows and columns) is kept
//! beside, in a small record per tile, and found through a flat index over
//! the tiles' box when the tiles fill it well; the step then visits the
//! tiles in the order of that box (row of tiles after row of tiles), reading
//! the neighbours' records in turn, and writes them in that order, so the
//! next step reads the tiles' rows in turn too.
//!
//! Tiles of one or two owners step row by row, over the rows that have a
//! live cell in their 3-row window only: at the density of a sparse field a
//! tile holds a few cells and most of its rows stay empty. Tiles of more
//! owners (whose births may need the neutral code) step through the same
//! kernel as the dense grid, with the 64 rows as the strip: each row word's
//! left and right neighbours are the same row of the tiles beside it, and
//! the rows above and below come from the tiles above and below.

use std::collections::HashMap;

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

/// How many tiles ahead a step asks for a tile's rows (and twice as far
/// for where they are), and how many cache lines of them.
const PREFETCH_AHEAD: usize = 16;
const PREFETCH_LINES: usize = 3;

/// Asks the cache for the line at `at`, which need not be valid memory.
fn prefetch<T>(at: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE is part of the x86-64 baseline, and a prefetch reads
    // nothing (for an address outside any allocation it is only a hint).
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(at.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

/// The rows of one plane of a tile: row `r`, bit `b` is the cell
/// `SIDE * tx + b`, `SIDE * ty + r`.
type Plane = [u64; 64];

/// Scratch for stepping one tile.
struct Window {
    /// Per plane: the rows -1..=64 of the tiles left, here and right.
    strips: Vec<[Vec<u64>; 3]>,
    sums: Vec<Sums>,
    forms: Vec<Parity>,
    form_strips: [Vec<Vec<u64>>; 3],
    /// The tile's next generation, all 64 rows of each plane.
    next: Vec<Plane>,
}

impl Window {
    fn new(planes: usize, codes: Codes) -> Window {
        let forms = codes.forms().len();
        Window {
            strips: (0..planes).map(|_| std::array::from_fn(|_| vec![0; 66])).collect(),
            sums: (0..planes).map(|p| Sums::for_plane(p, 66)).collect(),
            forms: (0..forms).map(|_| Parity::new(66)).collect(),
            form_strips: std::array::from_fn(|_| (0..forms).map(|_| vec![0; 66]).collect()),
            next: vec![EMPTY; planes],
        }
    }
}

/// What a step reads of a tile's edges, kept up to date with its rows so
/// that a step reads nothing of a neighbour's rows: stepping a tile then
/// reads its own rows in turn and one small record per neighbour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Edges {
    /// Bit `r`: row `r` has a live cell (and is stored).
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

/// The edges of no tile.
const NO_EDGES: Edges = Edges { rows: 0, west: [0; 2], east: [0; 2], top: [0; 2], bottom: [0; 2] };

impl Edges {
    /// Takes row `r` as `row` (its word in each plane; all clear for an
    /// empty row).
    fn put(&mut self, r: usize, row: &[u64]) {
        let bit = 1u64 << r;
        self.rows = (self.rows & !bit) | (u64::from(row[0] != 0) << r);
        for p in 0..2 {
            let w = row.get(p).copied().unwrap_or(0);
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

/// The stored rows of one tile: bit `r` of `rows` tells whether row `r` is
/// stored, and the stored rows follow in `words` in order, `planes` words
/// each (alive, then the owner-code bits).
#[derive(Clone, Copy)]
struct Tile<'a> {
    rows: u64,
    words: &'a [u64],
    planes: usize,
}

impl Tile<'_> {
    const NONE: Tile<'static> = Tile { rows: 0, words: &[], planes: 1 };

    /// Where stored row `r` lies among the tile's rows.
    fn rank(rows: u64, r: usize) -> usize {
        (rows & ((1u64 << r) - 1)).count_ones() as usize
    }

    /// Row `r` of plane `p`.
    fn word(&self, p: usize, r: usize) -> u64 {
        if (self.rows >> r) & 1 == 0 { 0 } else { self.words[Self::rank(self.rows, r) * self.planes + p] }
    }

    /// Plane `p` as 64 rows.
    fn plane(&self, p: usize, out: &mut [u64]) {
        out.fill(0);
        let mut m = self.rows;
        for row in self.words.chunks_exact(self.planes) {
            out[m.trailing_zeros() as usize] = row[p];
            m &= m - 1;
        }
    }

    /// The stored rows with their numbers.
    fn iter(&self) -> impl Iterator<Item = (usize, &[u64])> + '_ {
        let mut m = self.rows;
        self.words.chunks_exact(self.planes).map(move |row| {
            let r = m.trailing_zeros() as usize;
            m &= m - 1;
            (r, row)
        })
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
    Hash(HashMap<(i64, i64), u32, foldhash::fast::FixedState>),
}

impl Default for Index {
    fn default() -> Index {
        Index::Hash(HashMap::default())
    }
}

impl Index {
    /// The bytes the index holds besides itself.
    fn heap_bytes(&self) -> usize {
        match self {
            Index::Flat { slots, .. } => slots.capacity() * std::mem::size_of::<u32>(),
            Index::Hash(map) => map.capacity() * std::mem::size_of::<((i64, i64), u32)>(),
        }
    }

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
    words: &'a [u64],
    start: &'a [usize],
    planes: usize,
    edges: &'a [Edges],
    index: &'a Index,
    /// With a flat index over a box the tiles fill well: every tile's
    /// edges at its slot, so that stepping the tiles in the order of their
    /// slots reads the neighbours' edges in turn too.
    grid: Vec<Edges>,
}

impl<'a> Layer<'a> {
    fn tile(&self, i: usize) -> Tile<'a> {
        self.tile_with(i, self.edges[i].rows)
    }

    /// Tile `i`, whose stored rows (from its edges) are `rows`.
    fn tile_with(&self, i: usize, rows: u64) -> Tile<'a> {
        let start = self.start[i];
        let words = &self.words[start..start + rows.count_ones() as usize * self.planes];
        Tile { rows, words, planes: self.planes }
    }

    fn new(plane: &'a SparsePlane) -> Layer<'a> {
        let (edges, index) = (&plane.edges, &plane.index);
        let grid = match index {
            Index::Flat { slots, .. } if slots.len() <= 4 * edges.len() => slots
                .iter()
                .map(|&i| if i == u32::MAX { Edges::default() } else { edges[i as usize] })
                .collect(),
            _ => Vec::new(),
        };
        Layer { words: &plane.words, start: &plane.start, planes: plane.planes(), edges, index, grid }
    }

    /// The edges of the 3x3 tiles around `key`, row by row (all clear
    /// where no tile lives: a live tile has a live row), from the grid.
    fn near_edges(&self, (tx, ty): (i64, i64)) -> Option<[&Edges; 9]> {
        match self.index {
            Index::Flat { x0, y0, width, height, .. } if !self.grid.is_empty() => {
                let (dx, dy) = (tx.wrapping_sub(*x0), ty.wrapping_sub(*y0));
                let at = |i: usize| {
                    let (x, y) = (dx + i as i64 % 3 - 1, dy + i as i64 / 3 - 1);
                    let inside = (0..*width).contains(&x) && (0..*height).contains(&y);
                    if inside { &self.grid[(y * width + x) as usize] } else { &NO_EDGES }
                };
                Some(std::array::from_fn(at))
            }
            _ => None,
        }
    }

    /// Asks the cache for tile `i`'s rows ahead of their use: in the order
    /// of the grid they are read at random the first time after a field is
    /// loaded, and a tile is small enough that a step would wait on each.
    fn prefetch(&self, i: usize) {
        let at = self.words.as_ptr().wrapping_add(self.start[i]);
        for line in 0..PREFETCH_LINES {
            prefetch(at.wrapping_add(8 * line));
        }
    }

    /// Asks the cache for where tile `i`'s rows are, ahead of [`Self::prefetch`].
    fn prefetch_start(&self, i: usize) {
        prefetch(self.start.as_ptr().wrapping_add(i));
    }

    /// The places of the 3x3 tiles around `key`, row by row.
    fn near(&self, (tx, ty): (i64, i64)) -> [Option<usize>; 9] {
        std::array::from_fn(|i| self.index.get((tx + i as i64 % 3 - 1, ty + i as i64 / 3 - 1)))
    }

    /// The live tiles in the order a step visits them: by their slots in
    /// the grid when there is one (so that the neighbours' records are read
    /// in turn, and the next generation is stored in that order), as stored
    /// otherwise.
    fn order(&self, keys: &[(i64, i64)]) -> Vec<((i64, i64), Option<usize>)> {
        match self.index {
            Index::Flat { x0, y0, width, slots, .. } if !self.grid.is_empty() => slots
                .iter()
                .enumerate()
                .filter(|&(_, &i)| i != u32::MAX)
                .map(|(s, &i)| ((x0 + s as i64 % width, y0 + s as i64 / width), Some(i as usize)))
                .collect(),
            _ => keys.iter().enumerate().map(|(i, &k)| (k, Some(i))).collect(),
        }
    }
}

/// The next generation's tiles as a step (or a part of one) writes them.
#[derive(Default)]
struct Next {
    keys: Vec<(i64, i64)>,
    words: Vec<u64>,
    start: Vec<usize>,
    edges: Vec<Edges>,
    /// Dead tiles that live tiles' border cells touch.
    fringe: Vec<(i64, i64)>,
}

impl Next {
    fn append(&mut self, part: Next) {
        let base = self.words.len();
        self.keys.extend(part.keys);
        self.words.extend(part.words);
        self.start.extend(part.start.iter().map(|s| s + base));
        self.edges.extend(part.edges);
        self.fringe.extend(part.fringe);
    }
}

/// The unbounded plane, tiled. See the module docs.
#[derive(Clone, Debug, Default)]
pub struct SparsePlane {
    /// Tile `i` is at `keys[i]`; `edges[i].rows` tells which of its rows
    /// are stored, and they lie from `words[start[i]]` on, one word per
    /// plane each (alive, then one per owner-code bit).
    keys: Vec<(i64, i64)>,
    words: Vec<u64>,
    start: Vec<usize>,
    /// Tile `i`'s edges.
    edges: Vec<Edges>,
    /// Words of `words` that belong to no tile (left by edits).
    garbage: usize,
    index: Index,
    /// The previous generation's words, written over by the next step.
    spare: Vec<u64>,
    palette: Palette,
    generation: u64,
    threads: Threads,
}

impl SparsePlane {
    /// The bytes the plane holds besides itself: what a cache of games
    /// counts.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.keys.capacity() * size_of::<(i64, i64)>()
            + (self.words.capacity() + self.spare.capacity()) * size_of::<u64>()
            + self.start.capacity() * size_of::<usize>()
            + self.edges.capacity() * size_of::<Edges>()
            + self.index.heap_bytes()
    }

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

    /// Tile `i`'s stored words.
    fn span(&self, i: usize) -> std::ops::Range<usize> {
        let start = self.start[i];
        start..start + self.edges[i].rows.count_ones() as usize * self.planes()
    }

    fn tile(&self, i: usize) -> Tile<'_> {
        Tile { rows: self.edges[i].rows, words: &self.words[self.span(i)], planes: self.planes() }
    }

    /// Writes the 64 rows of `next` as a tile to `out`, and tells its edges.
    fn push_rows(next: &[Plane], out: &mut Vec<u64>) -> Edges {
        let mut e = Edges::default();
        let mut row = [0u64; 6];
        for r in 0..64 {
            if next[0][r] != 0 {
                for (p, plane) in next.iter().enumerate() {
                    row[p] = plane[r];
                }
                out.extend_from_slice(&row[..next.len()]);
                e.put(r, &row[..next.len()]);
            }
        }
        e
    }

    /// One tile's next generation through the strip kernel: any number of
    /// owner-code planes, forms included.
    /// Pushes its rows to `out` and tells its edges (no live row if it
    /// dies out).
    fn step_tile(
        layer: &Layer<'_>,
        near: [Option<usize>; 9],
        window: &mut Window,
        codes: Codes,
        out: &mut Vec<u64>,
    ) -> Edges {
        let planes = 1 + codes.bits;
        // The 3x3 tiles around this one, row by row.
        let near: [Tile<'_>; 9] = near.map(|i| i.map_or(Tile::NONE, |i| layer.tile(i)));
        if near.iter().all(|t| t.rows == 0) {
            return Edges::default();
        }
        for p in 0..planes {
            for column in 0..3 {
                let strip = &mut window.strips[p][column];
                strip[0] = near[column].word(p, 63);
                near[3 + column].plane(p, &mut strip[1..65]);
                strip[65] = near[6 + column].word(p, 0);
            }
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
        window.next.fill(EMPTY);
        {
            let around = Around {
                sums: [&window.sums, &window.sums, &window.sums],
                forms: [&window.forms, &window.forms, &window.forms],
                offsets: [0, 1, 2],
            };
            let empty: &[u64] = &[];
            let centre: [&[u64]; 6] =
                std::array::from_fn(|p| window.strips.get(p).map_or(empty, |s| s[1].as_slice()));
            let mut planes_out = window.next.iter_mut();
            let mut out: [&mut [u64]; 6] =
                std::array::from_fn(|_| planes_out.next().map_or(&mut [][..], |p| p.as_mut_slice()));
            // Tiles are mostly empty space: skip blocks of rows with no live
            // cell near them.
            kernel::vertical(&around, &centre[..planes], 1, &mut out[..planes], 0, 64, !0, codes, true);
        }
        Self::push_rows(&window.next, out)
    }

    /// One tile's next generation row by row, for one owner or two (`B`
    /// code planes, 0 or 1: no births of three different owners, so no
    /// forms). Only rows whose 3-row window can hold a live cell next
    /// generation are computed: on a sparse field most rows of a tile have
    /// none, and the strip kernel would compute all 66.
    /// Pushes its rows to `out` and tells its edges (no live row if it
    /// dies out).
    fn step_tile_rows<const B: usize>(
        layer: &Layer<'_>,
        centre: Option<usize>,
        edges: [&Edges; 9],
        out: &mut Vec<u64>,
    ) -> Edges {
        let (left, right) = (edges[3], edges[5]);
        let mut e = Edges::default();
        // Rows -1..=64 of plane `p` as bits 0..66: the cells just left of
        // the tile's column, and just right of it.
        let beside = |p: usize| -> (u128, u128) {
            let west = (u128::from(left.east[p]) << 1)
                | u128::from(edges[0].east[p] >> 63)
                | (u128::from(edges[6].east[p] & 1) << 65);
            let east = (u128::from(right.west[p]) << 1)
                | u128::from(edges[2].west[p] >> 63)
                | (u128::from(edges[8].west[p] & 1) << 65);
            (west, east)
        };
        let (west, east) = beside(0);
        let (top, bottom) = (edges[1].bottom[0], edges[7].top[0]);
        let occupied = (u128::from(edges[4].rows) << 1)
            | u128::from(top != 0)
            | (u128::from(bottom != 0) << 65)
            | west
            | east;
        if occupied == 0 {
            return e;
        }
        let tile = centre.map_or(Tile::NONE, |i| layer.tile_with(i, edges[4].rows));
        // The alive plane's rows -1..=64, and which of them hold three live
        // cells side by side.
        let mut alive = [0u64; 66];
        (alive[0], alive[65]) = (top, bottom);
        let mut m = tile.rows;
        for row in tile.words.chunks_exact(B + 1) {
            alive[1 + m.trailing_zeros() as usize] = row[0];
            m &= m - 1;
        }
        let mut triple = 0u128;
        let mut m = (u128::from(tile.rows) << 1) | u128::from(top != 0) | (u128::from(bottom != 0) << 65);
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            let c = alive[k];
            let (l, r) = ((c << 1) | ((west >> k) as u64 & 1), (c >> 1) | (((east >> k) as u64 & 1) << 63));
            triple |= u128::from(l & c & r != 0) << k;
        }
        // A cell is live next generation only with three live cells in its
        // 3x3 block. When only one of the three rows around it has live
        // cells, that takes three side by side in that row; otherwise at
        // least two of the rows have live cells.
        let (up, down) = (occupied << 1, occupied >> 1);
        let candidates =
            (up & occupied) | (up & down) | (occupied & down) | triple | (triple << 1) | (triple >> 1);
        let mut need = (candidates >> 1) as u64;
        if need == 0 {
            return e;
        }
        // Row `k` (-1..=64 at 0..66) of a plane, its word `c`, summed across.
        let sums = |c: u64, west: u128, east: u128, k: usize| -> RowSums {
            let l = (c << 1) | ((west >> k) as u64 & 1);
            let r = (c >> 1) | (((east >> k) as u64 & 1) << 63);
            let (a, b) = (l ^ r, l & r);
            RowSums { c, p0: a, p1: b, s0: a ^ c, s1: b | (a & c) }
        };
        // The alive plane's rows r - 1, r and r + 1 summed; `last` is the
        // row they were summed for.
        let mut window = [RowSums::default(); 3];
        let mut last = -2i32;
        while need != 0 {
            let r = need.trailing_zeros() as usize;
            need &= need - 1;
            if r as i32 == last + 1 {
                window = [window[1], window[2], sums(alive[r + 2], west, east, r + 2)];
            } else {
                window = std::array::from_fn(|j| sums(alive[r + j], west, east, r + j));
            }
            last = r as i32;
            let [t, m, b] = window;
            // The same adder as `kernel::vertical`, one word at a time.
            let u0 = t.s0 ^ m.p0 ^ b.s0;
            let c0 = (t.s0 & m.p0) | (b.s0 & (t.s0 | m.p0));
            let (a, a2) = (t.s1 ^ m.p1, t.s1 & m.p1);
            let (bb, b2) = (b.s1 ^ c0, b.s1 & c0);
            let next = (a ^ bb) & !(a2 | b2) & (u0 | m.c);
            if next == 0 {
                continue;
            }
            let mut row = [next, 0];
            if B == 1 {
                // The code plane, summed only for rows with a live cell
                // next generation (few on a sparse field).
                let (west, east) = beside(1);
                let code = |k: usize| match k {
                    0 => edges[1].bottom[1],
                    65 => edges[7].top[1],
                    _ => tile.word(1, k - 1),
                };
                let [t, m, b] = std::array::from_fn(|j| sums(code(r + j), west, east, r + j));
                let c0 = (t.s0 & m.s0) | (b.s0 & (t.s0 | m.s0));
                // With exactly three parents the twos bit of the count is
                // the bitwise majority of their codes.
                let twos = t.s1 ^ m.s1 ^ b.s1 ^ c0;
                let live = window[1].c;
                row[1] = (m.c & next & live) | (next & !live & twos);
            }
            out.extend_from_slice(&row[..=B]);
            e.put(r, &row[..=B]);
        }
        e
    }

    /// Steps tile `i` (or, for `None`, the dead tile at `key`) into `next`,
    /// and adds to its fringe the dead tiles its border cells touch.
    fn step_into(
        layer: &Layer<'_>,
        codes: Codes,
        key: (i64, i64),
        i: Option<usize>,
        window: &mut Option<Window>,
        next: &mut Next,
    ) {
        let (tx, ty) = key;
        // `e`: this tile's edges.
        let fringe_of = |e: &Edges, present: &dyn Fn(usize) -> bool, fringe: &mut Vec<(i64, i64)>| {
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
        let base = next.words.len();
        let out = &mut next.words;
        let near_edges = if codes.bits <= 1 { layer.near_edges(key) } else { None };
        let edges = if let Some(near) = near_edges {
            // The centre's edges from the grid too, not from the tile's
            // place in storage, which the grid's order reads at random.
            fringe_of(near[4], &|n| near[n].rows != 0, &mut next.fringe);
            match codes.bits {
                0 => Self::step_tile_rows::<0>(layer, i, near, out),
                _ => Self::step_tile_rows::<1>(layer, i, near, out),
            }
        } else {
            let near = layer.near(key);
            let edges = near.map(|i| i.map_or(&NO_EDGES, |j| &layer.edges[j]));
            fringe_of(edges[4], &|n| near[n].is_some(), &mut next.fringe);
            match codes.bits {
                0 => Self::step_tile_rows::<0>(layer, i, edges, out),
                1 => Self::step_tile_rows::<1>(layer, i, edges, out),
                _ => {
                    let w = window.get_or_insert_with(|| Window::new(layer.planes, codes));
                    Self::step_tile(layer, near, w, codes, out)
                }
            }
        };
        if edges.rows != 0 {
            next.keys.push(key);
            next.start.push(base);
            next.edges.push(edges);
        }
    }

    fn step_once(&mut self) {
        let codes = Codes { bits: self.palette.bits(), neutral: self.palette.neutral() };
        self.index.compact(&self.keys);
        let mut next = Next { words: std::mem::take(&mut self.spare), ..Next::default() };
        next.words.clear();
        let layer = Layer::new(self);
        let parallel = self.threads == Threads::Auto && self.keys.len() >= PARALLEL_TILES;
        let run = |next: &mut Next, tiles: &[((i64, i64), Option<usize>)]| {
            let mut w = None;
            for (j, &(key, i)) in tiles.iter().enumerate() {
                if let Some(&(_, Some(ahead))) = tiles.get(j + PREFETCH_AHEAD) {
                    layer.prefetch(ahead);
                }
                if let Some(&(_, Some(ahead))) = tiles.get(j + 2 * PREFETCH_AHEAD) {
                    layer.prefetch_start(ahead);
                }
                Self::step_into(&layer, codes, key, i, &mut w, next);
            }
        };
        // The live tiles, then the dead ones their border cells touch.
        let mut tiles = layer.order(&self.keys);
        for pass in 0..2 {
            if parallel {
                let parts: Vec<Next> = tiles
                    .par_chunks(CHUNK_TILES)
                    .map(|chunk| {
                        let mut part = Next::default();
                        run(&mut part, chunk);
                        part
                    })
                    .collect();
                for part in parts {
                    next.append(part);
                }
            } else {
                run(&mut next, &tiles);
            }
            if pass == 0 {
                next.fringe.sort_unstable();
                next.fringe.dedup();
                tiles = next.fringe.drain(..).map(|k| (k, None)).collect();
            }
        }
        self.spare = std::mem::replace(&mut self.words, next.words);
        self.index = Index::new(&next.keys);
        self.keys = next.keys;
        self.start = next.start;
        self.edges = next.edges;
        self.garbage = 0;
        self.generation += 1;
    }

    fn code_at(row: &[u64], bit: u64) -> usize {
        (1..row.len()).fold(0, |c, j| c | (usize::from(row[j] & bit != 0) << (j - 1)))
    }

    /// Drops tile `i`, moving the last tile into its place.
    fn remove_tile(&mut self, i: usize) {
        self.garbage += self.span(i).len();
        let last = self.keys.len() - 1;
        self.index.remove(self.keys[i]);
        self.keys.swap_remove(i);
        self.start.swap_remove(i);
        self.edges.swap_remove(i);
        if i != last {
            self.index.insert(self.keys[i], i, &self.keys);
        }
    }

    /// Makes room for row `r` (not stored yet) in tile `i`: a row of zero
    /// words, marked as stored.
    fn add_row(&mut self, i: usize, r: usize) {
        let planes = self.planes();
        let span = self.span(i);
        let at = span.start + Tile::rank(self.edges[i].rows, r) * planes;
        if span.end == self.words.len() {
            self.words.splice(at..at, std::iter::repeat_n(0, planes));
        } else {
            // Move the tile to the end, where it can grow.
            let start = self.words.len();
            self.words.extend_from_within(span.start..at);
            self.words.resize(self.words.len() + planes, 0);
            self.words.extend_from_within(at..span.end);
            self.start[i] = start;
            self.garbage += span.len();
        }
        self.edges[i].rows |= 1 << r;
        if self.garbage > self.words.len() / 2 {
            self.collect();
        }
    }

    /// Drops row `r` (stored, now empty) of tile `i`.
    fn drop_row(&mut self, i: usize, r: usize) {
        let planes = self.planes();
        let span = self.span(i);
        let at = span.start + Tile::rank(self.edges[i].rows, r) * planes;
        self.words.copy_within(at + planes..span.end, at);
        if span.end == self.words.len() {
            self.words.truncate(span.end - planes);
        } else {
            self.garbage += planes;
        }
        self.edges[i].put(r, &[0]);
    }

    /// Rewrites the words with no garbage, tile after tile, from `old`
    /// words per row to `planes` (more when an owner added a code plane).
    fn rewrite(&mut self, old: usize, planes: usize) {
        let mut words = Vec::with_capacity((self.words.len() - self.garbage) / old * planes);
        for (start, e) in self.start.iter_mut().zip(&self.edges) {
            let span = *start..*start + e.rows.count_ones() as usize * old;
            *start = words.len();
            for row in self.words[span].chunks_exact(old) {
                words.extend_from_slice(row);
                words.resize(words.len() + planes - old, 0);
            }
        }
        self.words = words;
        self.garbage = 0;
    }

    /// Drops the garbage.
    fn collect(&mut self) {
        self.rewrite(self.planes(), self.planes());
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
        if (tile.rows >> row) & 1 == 0 {
            return None;
        }
        let at = Tile::rank(tile.rows, row) * tile.planes;
        let words = &tile.words[at..at + tile.planes];
        (words[0] & bit != 0).then(|| self.palette.owner(Self::code_at(words, bit)))
    }

    fn set(&mut self, x: i64, y: i64, cell: Option<Owner>) -> Result<(), LifeError> {
        if !crate::in_plane(x, y) {
            return Err(LifeError::OutOfField { x, y });
        }
        let (key, row, bit) = Self::key(x, y);
        match cell {
            None => {
                if let Some(i) = self.index.get(key)
                    && (self.edges[i].rows >> row) & 1 == 1
                {
                    let planes = self.planes();
                    let at = self.start[i] + Tile::rank(self.edges[i].rows, row) * planes;
                    let words = &mut self.words[at..at + planes];
                    for w in words.iter_mut() {
                        *w &= !bit;
                    }
                    if words[0] != 0 {
                        self.edges[i].put(row, words);
                    } else {
                        self.drop_row(i, row);
                        if self.edges[i].rows == 0 {
                            self.remove_tile(i);
                        }
                    }
                }
            }
            Some(owner) => {
                let old = self.planes();
                let code = self.palette.ensure(owner.check()?);
                let planes = self.planes();
                if planes != old {
                    // A new owner added a code plane to every row.
                    self.rewrite(old, planes);
                    self.spare = Vec::new();
                }
                let i = match self.index.get(key) {
                    Some(i) => i,
                    None => {
                        let i = self.keys.len();
                        self.keys.push(key);
                        self.start.push(self.words.len());
                        self.edges.push(Edges::default());
                        self.index.insert(key, i, &self.keys);
                        i
                    }
                };
                if (self.edges[i].rows >> row) & 1 == 0 {
                    self.add_row(i, row);
                }
                let at = self.start[i] + Tile::rank(self.edges[i].rows, row) * planes;
                let words = &mut self.words[at..at + planes];
                words[0] |= bit;
                for (j, w) in words.iter_mut().enumerate().skip(1) {
                    if (code >> (j - 1)) & 1 == 1 {
                        *w |= bit;
                    } else {
                        *w &= !bit;
                    }
                }
                self.edges[i].put(row, words);
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
        for code in 0..self.palette.len().max(1) {
            let mut n = 0u64;
            for i in 0..self.keys.len() {
                for (_, row) in self.tile(i).iter() {
                    let mut m = row[0];
                    for (j, &b) in row.iter().enumerate().skip(1) {
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
            for (r, row) in self.tile(i).iter() {
                let (y, w) = (ty * SIDE + r as i64, row[0]);
                y0 = y0.min(y);
                y1 = y1.max(y);
                x0 = x0.min(tx * SIDE + i64::from(w.trailing_zeros()));
                x1 = x1.max(tx * SIDE + 63 - i64::from(w.leading_zeros()));
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
            for (r, row) in self.tile(i).iter() {
                let mut w = row[0];
                while w != 0 {
                    let b = w.trailing_zeros();
                    w &= w - 1;
                    let owner = self.palette.owner(Self::code_at(row, 1u64 << b));
                    cells.push(LiveCell { y: ty * SIDE + r as i64, x: tx * SIDE + i64::from(b), owner });
                }
            }
        }
        cells.sort();
        cells
    }

    fn clear(&mut self) {
        self.keys.clear();
        self.words.clear();
        self.start.clear();
        self.edges.clear();
        self.garbage = 0;
        self.index = Index::default();
    }

    fn set_threads(&mut self, threads: Threads) {
        self.threads = threads;
    }
}
