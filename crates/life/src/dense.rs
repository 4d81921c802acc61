//! The bounded grid: a torus or a grid with dead edges.
//!
//! Each plane (alive, then one per owner-code bit) is `height + 2` rows of
//! `words + 2` words: a ghost row above and below and a ghost word at each
//! end of a row. Before every generation the ghosts are filled from the far
//! side of the grid (torus) or cleared (dead edges), including the bit just
//! past the last column when the width is not a multiple of 64, so the kernel
//! reads every neighbour from plain adjacent memory.

use rayon::prelude::*;

use crate::kernel::{self, Around, Codes, Parity, Sums};
use crate::palette::Palette;
use crate::{Life, LifeError, LiveCell, Owner, Population, Rect, Threads, Topology};

/// Fields with fewer words than this step on one thread.
const PARALLEL_WORDS: usize = 1 << 12;

/// A torus or a dead-edged grid, bit-parallel. See the module docs.
#[derive(Clone, Debug)]
pub struct DenseGrid {
    topology: Topology,
    width: usize,
    height: usize,
    words: usize,
    stride: usize,
    planes: Vec<Vec<u64>>,
    next: Vec<Vec<u64>>,
    palette: Palette,
    generation: u64,
    threads: Threads,
}

impl DenseGrid {
    /// The bytes the grid holds besides itself (its planes and the next
    /// generation's): what a cache of games counts.
    pub fn heap_bytes(&self) -> usize {
        let planes = |v: &Vec<Vec<u64>>| {
            v.capacity() * std::mem::size_of::<Vec<u64>>()
                + v.iter().map(|p| p.capacity() * std::mem::size_of::<u64>()).sum::<usize>()
        };
        planes(&self.planes) + planes(&self.next)
    }

    /// An empty grid.
    ///
    /// # Errors
    ///
    /// An unbounded topology, or a size the engines refuse.
    pub fn new(topology: Topology) -> Result<DenseGrid, LifeError> {
        let (width, height) = match topology.validate()? {
            Topology::Unbounded => return Err(LifeError::BadSize { width: 0, height: 0 }),
            t => t.size().unwrap_or((0, 0)),
        };
        let (width, height) = (width as usize, height as usize);
        let words = width.div_ceil(64);
        let stride = words + 2;
        let plane = vec![0u64; (height + 2) * stride];
        Ok(DenseGrid {
            topology,
            width,
            height,
            words,
            stride,
            planes: vec![plane.clone()],
            next: vec![plane],
            palette: Palette::default(),
            generation: 0,
            threads: Threads::Auto,
        })
    }

    fn index(&self, x: usize, y: usize) -> (usize, u64) {
        ((y + 1) * self.stride + 1 + x / 64, 1u64 << (x % 64))
    }

    fn last_mask(&self) -> u64 {
        match self.width % 64 {
            0 => !0,
            r => (1u64 << r) - 1,
        }
    }

    fn add_planes(&mut self) {
        while self.planes.len() < 1 + self.palette.bits() {
            let zero = vec![0u64; (self.height + 2) * self.stride];
            self.planes.push(zero.clone());
            self.next.push(zero);
        }
    }

    fn code_at(&self, word: usize, bit: u64) -> usize {
        (1..self.planes.len()).fold(0, |c, j| c | (usize::from(self.planes[j][word] & bit != 0) << (j - 1)))
    }

    /// Fill ghost words and rows of the current planes for the next step.
    fn fill_ghosts(&mut self) {
        let (w, h, s, words) = (self.width, self.height, self.stride, self.words);
        let torus = matches!(self.topology, Topology::Torus { .. });
        let last_mask = self.last_mask();
        for plane in &mut self.planes {
            for y in 0..h {
                let row = &mut plane[(y + 1) * s..(y + 2) * s];
                row[words] &= last_mask;
                row[words + 1] = 0;
                row[0] = 0;
                if torus {
                    let last = (row[1 + (w - 1) / 64] >> ((w - 1) % 64)) & 1;
                    let first = row[1] & 1;
                    row[0] = last << 63;
                    row[1 + w / 64] |= first << (w % 64);
                }
            }
            if torus {
                plane.copy_within((h) * s..(h + 1) * s, 0);
                plane.copy_within(s..2 * s, (h + 1) * s);
            } else {
                plane[..s].fill(0);
                plane[(h + 1) * s..].fill(0);
            }
        }
    }

    fn step_once(&mut self) {
        self.fill_ghosts();
        let codes = Codes { bits: self.palette.bits(), neutral: self.palette.neutral() };
        let (s, h, words) = (self.stride, self.height, self.words);
        let last_mask = self.last_mask();
        let parallel = self.threads == Threads::Auto && h * words >= PARALLEL_WORDS && h >= 8;
        let band_rows = if parallel { h.div_ceil(rayon::current_num_threads() * 4).max(4) } else { h };
        let planes: Vec<&[u64]> = self.planes.iter().map(Vec::as_slice).collect();
        // Split every output plane into the same bands of rows.
        let mut bands: Vec<(usize, Vec<&mut [u64]>)> = Vec::new();
        for plane in self.next.iter_mut() {
            for (b, chunk) in plane[s..(h + 1) * s].chunks_mut(band_rows * s).enumerate() {
                if bands.len() <= b {
                    bands.push((b * band_rows, Vec::new()));
                }
                bands[b].1.push(chunk);
            }
        }
        let run = |(first, mut out): (usize, Vec<&mut [u64]>)| {
            let rows = out[0].len() / s;
            step_band(&planes, s, words, first, rows, &mut out, last_mask, codes);
        };
        if parallel {
            bands.into_par_iter().for_each(run);
        } else {
            bands.into_iter().for_each(run);
        }
        std::mem::swap(&mut self.planes, &mut self.next);
        self.generation += 1;
    }
}

/// Scratch of one band: rolling horizontal sums for three rows.
struct Band {
    sums: [Vec<Sums>; 3],
    forms: [Vec<Parity>; 3],
    form_rows: Vec<Vec<u64>>,
}

/// Step rows `first..first + rows` of the grid whose planes (with ghosts) are
/// `planes`, into `out` (those rows only, ghost words included).
#[allow(clippy::too_many_arguments)]
fn step_band(
    planes: &[&[u64]],
    stride: usize,
    words: usize,
    first: usize,
    rows: usize,
    out: &mut [&mut [u64]],
    last_mask: u64,
    codes: Codes,
) {
    let nplanes = planes.len();
    let forms = codes.forms();
    let mut band = Band {
        sums: std::array::from_fn(|_| (0..nplanes).map(|p| Sums::for_plane(p, words)).collect()),
        forms: std::array::from_fn(|_| forms.iter().map(|_| Parity::new(words)).collect()),
        form_rows: forms.iter().map(|_| vec![0; stride]).collect(),
    };
    // Slot of stored row r (0 = the ghost row above) is r % 3.
    let fill = |band: &mut Band, stored: usize| {
        let slot = stored % 3;
        let at = stored * stride;
        for (p, plane) in planes.iter().enumerate() {
            let row = &plane[at..at + stride];
            let sums = &mut band.sums[slot][p];
            if p == 0 {
                kernel::hsums(&row[..words], &row[1..words + 1], &row[2..], sums);
            } else {
                kernel::hsums_centre(&row[..words], &row[1..words + 1], &row[2..], sums);
            }
        }
        if !forms.is_empty() {
            kernel::form_rows(&planes[1..], at, stride, codes, &mut band.form_rows);
            for (f, row) in band.form_rows.iter().enumerate() {
                kernel::hparity(&row[..words], &row[1..words + 1], &row[2..], &mut band.forms[slot][f]);
            }
        }
    };
    fill(&mut band, first);
    fill(&mut band, first + 1);
    for i in 0..rows {
        let stored = first + i + 1;
        fill(&mut band, stored + 1);
        let Band { sums, forms: form_sums, .. } = &mut band;
        let (up, here, down) = ((stored - 1) % 3, stored % 3, (stored + 1) % 3);
        let around = Around {
            sums: [&sums[up], &sums[here], &sums[down]],
            forms: [&form_sums[up], &form_sums[here], &form_sums[down]],
            offsets: [0, 0, 0],
        };
        kernel::vertical(
            &around,
            planes,
            stored * stride + 1,
            out,
            i * stride + 1,
            words,
            last_mask,
            codes,
            false,
        );
    }
}

impl Life for DenseGrid {
    fn topology(&self) -> Topology {
        self.topology
    }

    fn get(&self, x: i64, y: i64) -> Option<Owner> {
        let (x, y) = crate::locate(self.topology, x, y)?;
        let (word, bit) = self.index(x, y);
        (self.planes[0][word] & bit != 0).then(|| self.palette.owner(self.code_at(word, bit)))
    }

    fn set(&mut self, x: i64, y: i64, cell: Option<Owner>) -> Result<(), LifeError> {
        let (cx, cy) = crate::locate(self.topology, x, y).ok_or(LifeError::OutOfField { x, y })?;
        let (word, bit) = self.index(cx, cy);
        match cell {
            None => {
                for plane in &mut self.planes {
                    plane[word] &= !bit;
                }
            }
            Some(owner) => {
                let code = self.palette.ensure(owner.check()?);
                self.add_planes();
                self.planes[0][word] |= bit;
                for j in 1..self.planes.len() {
                    if (code >> (j - 1)) & 1 == 1 {
                        self.planes[j][word] |= bit;
                    } else {
                        self.planes[j][word] &= !bit;
                    }
                }
            }
        }
        Ok(())
    }

    fn step(&mut self, generations: u64) {
        for _ in 0..generations {
            self.step_once();
        }
    }

    fn generation(&self) -> u64 {
        self.generation
    }

    fn population(&self) -> Population {
        let mut pop = Population::default();
        let (s, words) = (self.stride, self.words);
        let last_mask = self.last_mask();
        for code in 0..self.palette.len().max(1) {
            let mut n = 0u64;
            for y in 0..self.height {
                let at = (y + 1) * s + 1;
                for k in 0..words {
                    let mut m = self.planes[0][at + k];
                    for j in 1..self.planes.len() {
                        let b = self.planes[j][at + k];
                        m &= if (code >> (j - 1)) & 1 == 1 { b } else { !b };
                    }
                    if k + 1 == words {
                        m &= last_mask;
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
        let (s, words) = (self.stride, self.words);
        let last_mask = self.last_mask();
        let (mut x0, mut x1, mut y0, mut y1) = (usize::MAX, 0, usize::MAX, 0);
        for y in 0..self.height {
            let row = &self.planes[0][(y + 1) * s + 1..(y + 1) * s + 1 + words];
            for (k, &w) in row.iter().enumerate() {
                let w = if k + 1 == words { w & last_mask } else { w };
                if w != 0 {
                    x0 = x0.min(k * 64 + w.trailing_zeros() as usize);
                    x1 = x1.max(k * 64 + 63 - w.leading_zeros() as usize);
                    y0 = y0.min(y);
                    y1 = y;
                }
            }
        }
        (y0 != usize::MAX).then(|| Rect {
            x: x0 as i64,
            y: y0 as i64,
            width: (x1 - x0 + 1) as u64,
            height: (y1 - y0 + 1) as u64,
        })
    }

    fn live_cells(&self) -> Vec<LiveCell> {
        let (s, words) = (self.stride, self.words);
        let last_mask = self.last_mask();
        let mut cells = Vec::new();
        for y in 0..self.height {
            for k in 0..words {
                let at = (y + 1) * s + 1 + k;
                let mut w = self.planes[0][at];
                if k + 1 == words {
                    w &= last_mask;
                }
                while w != 0 {
                    let b = w.trailing_zeros();
                    w &= w - 1;
                    let owner = self.palette.owner(self.code_at(at, 1u64 << b));
                    cells.push(LiveCell { y: y as i64, x: (k * 64) as i64 + i64::from(b), owner });
                }
            }
        }
        cells
    }

    fn clear(&mut self) {
        for plane in &mut self.planes {
            plane.fill(0);
        }
    }

    fn set_threads(&mut self, threads: Threads) {
        self.threads = threads;
    }
}
