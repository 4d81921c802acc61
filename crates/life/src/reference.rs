//! The oracle: one cell at a time, straight from the rule's words. Slow on
//! purpose, so that it is obviously right; the fast engines are tested
//! against it.

use std::collections::{BTreeMap, BTreeSet};

use crate::{Life, LifeError, LiveCell, Owner, Population, Rect, Threads, Topology, birth_owner};

/// A per-cell engine for every topology. See the module docs.
#[derive(Clone, Debug)]
pub struct Reference {
    topology: Topology,
    cells: BTreeMap<(i64, i64), Owner>,
    generation: u64,
}

impl Reference {
    /// An empty field.
    ///
    /// # Errors
    ///
    /// A bounded size the engines refuse.
    pub fn new(topology: Topology) -> Result<Reference, LifeError> {
        Ok(Reference { topology: topology.validate()?, cells: BTreeMap::new(), generation: 0 })
    }

    /// Where `(x, y)` is stored, if it is on the field.
    fn place(&self, x: i64, y: i64) -> Option<(i64, i64)> {
        match self.topology {
            Topology::Unbounded => crate::in_plane(x, y).then_some((x, y)),
            t => crate::locate(t, x, y).map(|(x, y)| (x as i64, y as i64)),
        }
    }

    /// The 8 neighbours of a cell, one per direction (on a tiny torus two
    /// directions may reach the same cell, and then it counts twice).
    fn neighbours(&self, x: i64, y: i64) -> Vec<(i64, i64)> {
        let mut out = Vec::with_capacity(8);
        for dy in -1..=1 {
            for dx in -1..=1 {
                if (dx, dy) != (0, 0)
                    && let Some(p) = self.place(x + dx, y + dy)
                {
                    out.push(p);
                }
            }
        }
        out
    }

    fn step_once(&mut self) {
        let mut candidates = BTreeSet::new();
        for &(x, y) in self.cells.keys() {
            candidates.insert((x, y));
            candidates.extend(self.neighbours(x, y));
        }
        let mut next = BTreeMap::new();
        for (x, y) in candidates {
            let parents: Vec<Owner> =
                self.neighbours(x, y).into_iter().filter_map(|p| self.cells.get(&p).copied()).collect();
            match self.cells.get(&(x, y)) {
                Some(&owner) => {
                    if parents.len() == 2 || parents.len() == 3 {
                        next.insert((x, y), owner);
                    }
                }
                None => {
                    if let [a, b, c] = parents[..] {
                        next.insert((x, y), birth_owner(a, b, c));
                    }
                }
            }
        }
        self.cells = next;
        self.generation += 1;
    }
}

impl Life for Reference {
    fn topology(&self) -> Topology {
        self.topology
    }

    fn get(&self, x: i64, y: i64) -> Option<Owner> {
        self.place(x, y).and_then(|p| self.cells.get(&p).copied())
    }

    fn set(&mut self, x: i64, y: i64, cell: Option<Owner>) -> Result<(), LifeError> {
        let p = self.place(x, y).ok_or(LifeError::OutOfField { x, y })?;
        match cell {
            Some(owner) => {
                self.cells.insert(p, owner.check()?);
            }
            None => {
                self.cells.remove(&p);
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
        for &owner in self.cells.values() {
            pop.add(owner, 1);
        }
        pop
    }

    fn bounding_box(&self) -> Option<Rect> {
        let xs = self.cells.keys().map(|p| p.0);
        let (x0, x1) = (xs.clone().min()?, xs.max()?);
        let ys = self.cells.keys().map(|p| p.1);
        let (y0, y1) = (ys.clone().min()?, ys.max()?);
        Some(Rect { x: x0, y: y0, width: (x1 - x0 + 1) as u64, height: (y1 - y0 + 1) as u64 })
    }

    fn live_cells(&self) -> Vec<LiveCell> {
        let mut cells: Vec<LiveCell> =
            self.cells.iter().map(|(&(x, y), &owner)| LiveCell { y, x, owner }).collect();
        cells.sort();
        cells
    }

    fn clear(&mut self) {
        self.cells.clear();
    }

    fn set_threads(&mut self, _threads: Threads) {}
}
