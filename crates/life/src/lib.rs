//! Multi-colour Life for Tabula: the generation step shared by Conway,
//! Real-Time Life and the `tabula life` tool.
//!
//! The rule: the neighbours of a cell are the 8 cells around it, whatever
//! their owner. A live cell with 2 or 3 neighbours survives and keeps its
//! owner; every other live cell dies. An empty cell with exactly 3 neighbours
//! is born, owned by the owner (a player or neutral) of at least 2 of the 3
//! parents, or neutral if all three parents have different owners. With one
//! owner this is plain Life (B3/S23); with two it is "Immigration".
//!
//! Like Golly's `lifealgo`, every engine sits behind one plain interface,
//! [`Life`]: set and get cells, step generations, population per owner,
//! bounding box, live cells. Behind it:
//!
//! - [`DenseGrid`]: a bounded grid (torus or dead edges), 64 cells per `u64`
//!   word, neighbour counts bit-sliced across whole rows so the compiler can
//!   vectorise them, owners as bit planes of a small code, bands of rows on
//!   several threads for large fields;
//! - [`SparsePlane`]: the unbounded plane as 64x64 tiles stepped by the same
//!   kernel, where only tiles near live cells cost memory and time;
//! - [`Reference`]: a deliberately simple per-cell engine kept as the oracle
//!   the fast engines are tested against.
//!
//! [`Universe`] picks the fast engine for a [`Topology`]. Coordinates are
//! `x` to the right and `y` downwards, as in a text board printed top row
//! first; bounded grids span `0..width` and `0..height`.

mod dense;
mod error;
mod kernel;
mod palette;
mod reference;
pub mod rle;
mod sparse;
pub mod text;
pub mod tool;

pub use dense::DenseGrid;
pub use error::LifeError;
pub use reference::Reference;
pub use sparse::SparsePlane;

/// Most players a field can hold (`A` to `Z`).
pub const MAX_PLAYERS: usize = 26;

/// Largest width or height of a bounded grid.
pub const MAX_SIDE: u64 = 1 << 20;

/// Most cells of a bounded grid (width times height): 1 GiB of bits per plane.
pub const MAX_CELLS: u64 = 1 << 33;

/// Largest absolute coordinate on the unbounded plane.
pub const MAX_COORD: i64 = 1 << 40;

/// Who owns a live cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Owner {
    /// A player, by index `0..MAX_PLAYERS` (shown as `A`..`Z`).
    Player(u8),
    /// Nobody: born of three parents with three different owners, or left by
    /// a player who resigned (shown as `#`).
    Neutral,
}

impl Owner {
    /// The player with index `index`, if there can be one.
    pub fn player(index: usize) -> Option<Owner> {
        (index < MAX_PLAYERS).then_some(Owner::Player(index as u8))
    }

    /// The character of a text board: `A`..`Z` for players, `#` for neutral.
    pub fn symbol(self) -> char {
        match self {
            Owner::Player(p) => (b'A' + p) as char,
            Owner::Neutral => '#',
        }
    }

    /// The owner shown by `c` on a text board (`A`..`Z` or `#`).
    pub fn from_symbol(c: char) -> Option<Owner> {
        match c {
            '#' => Some(Owner::Neutral),
            'A'..='Z' => Some(Owner::Player(c as u8 - b'A')),
            _ => None,
        }
    }

    fn check(self) -> Result<Owner, LifeError> {
        match self {
            Owner::Player(p) if usize::from(p) >= MAX_PLAYERS => Err(LifeError::BadOwner(p)),
            o => Ok(o),
        }
    }
}

/// The shape of a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Topology {
    /// `width` x `height`, wrapping at every edge.
    Torus {
        /// Cells across.
        width: u64,
        /// Cells down.
        height: u64,
    },
    /// `width` x `height`; nothing lives outside.
    Dead {
        /// Cells across.
        width: u64,
        /// Cells down.
        height: u64,
    },
    /// The infinite plane.
    Unbounded,
}

impl Topology {
    /// The topology for an edge word (`torus`, `dead`, `unbounded`) and a grid size
    /// (ignored for `unbounded`).
    pub fn from_edges(edges: &str, width: u64, height: u64) -> Result<Topology, LifeError> {
        match edges.trim().to_ascii_lowercase().as_str() {
            "torus" => Ok(Topology::Torus { width, height }),
            "dead" => Ok(Topology::Dead { width, height }),
            "unbounded" => Ok(Topology::Unbounded),
            _ => Err(LifeError::BadEdges(edges.to_string())),
        }
    }

    /// Width and height of a bounded field.
    pub fn size(self) -> Option<(u64, u64)> {
        match self {
            Topology::Torus { width, height } | Topology::Dead { width, height } => Some((width, height)),
            Topology::Unbounded => None,
        }
    }

    fn validate(self) -> Result<Topology, LifeError> {
        if let Some((width, height)) = self.size()
            && (width == 0
                || height == 0
                || width > MAX_SIDE
                || height > MAX_SIDE
                || width.saturating_mul(height) > MAX_CELLS)
        {
            return Err(LifeError::BadSize { width, height });
        }
        Ok(self)
    }
}

/// A rectangle of cells: `x..x+width`, `y..y+height`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rect {
    /// Leftmost column.
    pub x: i64,
    /// Top row.
    pub y: i64,
    /// Columns.
    pub width: u64,
    /// Rows.
    pub height: u64,
}

/// Live cells per owner.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Population {
    /// Cells of each player, by index.
    pub players: [u64; MAX_PLAYERS],
    /// Neutral cells.
    pub neutral: u64,
}

impl Population {
    /// Cells of `owner`.
    pub fn of(&self, owner: Owner) -> u64 {
        match owner {
            Owner::Player(p) => self.players.get(usize::from(p)).copied().unwrap_or(0),
            Owner::Neutral => self.neutral,
        }
    }

    /// All live cells.
    pub fn total(&self) -> u64 {
        self.players.iter().sum::<u64>() + self.neutral
    }

    fn add(&mut self, owner: Owner, n: u64) {
        match owner {
            Owner::Player(p) => self.players[usize::from(p)] += n,
            Owner::Neutral => self.neutral += n,
        }
    }
}

/// One live cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LiveCell {
    /// Row (compared first, so sorted cells run row by row).
    pub y: i64,
    /// Column.
    pub x: i64,
    /// Owner.
    pub owner: Owner,
}

/// How many threads a step may use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Threads {
    /// Every core (rayon's pool) for fields large enough to gain from it.
    #[default]
    Auto,
    /// The calling thread only (benchmarks, and callers running many fields at once).
    Single,
}

/// One interface for every Life engine, after Golly's `lifealgo`.
pub trait Life: Send + Sync {
    /// The field's shape.
    fn topology(&self) -> Topology;

    /// The cell at `(x, y)`: its owner, or `None` if empty. Outside a dead-edged
    /// grid everything is empty; on a torus coordinates wrap.
    fn get(&self, x: i64, y: i64) -> Option<Owner>;

    /// Put `cell` at `(x, y)` (`None` empties it). On a torus coordinates wrap.
    ///
    /// # Errors
    ///
    /// A point outside a dead-edged grid or beyond [`MAX_COORD`], or a player
    /// index of [`MAX_PLAYERS`] or more.
    fn set(&mut self, x: i64, y: i64, cell: Option<Owner>) -> Result<(), LifeError>;

    /// Move the cell at `from` to the empty point `to`, keeping its owner
    /// (Real-Time Life's moves; the path rule is the game's business).
    ///
    /// # Errors
    ///
    /// `from` empty, `to` occupied, or either point outside the field. Nothing
    /// changes then.
    fn move_cell(&mut self, from: (i64, i64), to: (i64, i64)) -> Result<(), LifeError> {
        let owner = self.get(from.0, from.1).ok_or(LifeError::EmptyCell { x: from.0, y: from.1 })?;
        if self.get(to.0, to.1).is_some() {
            return Err(LifeError::Occupied { x: to.0, y: to.1 });
        }
        self.set(to.0, to.1, Some(owner))?;
        self.set(from.0, from.1, None)
    }

    /// Advance `generations` generations.
    fn step(&mut self, generations: u64);

    /// Generations stepped since creation.
    fn generation(&self) -> u64;

    /// Live cells per owner.
    fn population(&self) -> Population;

    /// The smallest rectangle holding every live cell, `None` if there are none.
    /// On a torus the rectangle is taken in grid coordinates, without wrapping.
    fn bounding_box(&self) -> Option<Rect>;

    /// Every live cell, sorted row by row (by `y`, then `x`).
    fn live_cells(&self) -> Vec<LiveCell>;

    /// Empty the field (the generation count stays).
    fn clear(&mut self);

    /// Choose how many threads a step may use.
    fn set_threads(&mut self, threads: Threads);
}

/// The fast engine for a topology: [`DenseGrid`] for bounded grids,
/// [`SparsePlane`] for the unbounded plane.
#[derive(Clone, Debug)]
pub enum Universe {
    /// A torus or a dead-edged grid.
    Dense(DenseGrid),
    /// The unbounded plane.
    Sparse(SparsePlane),
}

impl Universe {
    /// The bytes the field holds besides itself: what a cache of games
    /// counts.
    pub fn heap_bytes(&self) -> usize {
        match self {
            Universe::Dense(grid) => grid.heap_bytes(),
            Universe::Sparse(plane) => plane.heap_bytes(),
        }
    }

    /// An empty field of this shape.
    ///
    /// # Errors
    ///
    /// A bounded size of 0 or above [`MAX_SIDE`] or [`MAX_CELLS`].
    pub fn new(topology: Topology) -> Result<Universe, LifeError> {
        Ok(match topology.validate()? {
            Topology::Unbounded => Universe::Sparse(SparsePlane::new()),
            t => Universe::Dense(DenseGrid::new(t)?),
        })
    }

    fn engine(&self) -> &dyn Life {
        match self {
            Universe::Dense(g) => g,
            Universe::Sparse(p) => p,
        }
    }

    fn engine_mut(&mut self) -> &mut dyn Life {
        match self {
            Universe::Dense(g) => g,
            Universe::Sparse(p) => p,
        }
    }
}

impl Life for Universe {
    fn topology(&self) -> Topology {
        self.engine().topology()
    }
    fn get(&self, x: i64, y: i64) -> Option<Owner> {
        self.engine().get(x, y)
    }
    fn set(&mut self, x: i64, y: i64, cell: Option<Owner>) -> Result<(), LifeError> {
        self.engine_mut().set(x, y, cell)
    }
    fn step(&mut self, generations: u64) {
        self.engine_mut().step(generations)
    }
    fn generation(&self) -> u64 {
        self.engine().generation()
    }
    fn population(&self) -> Population {
        self.engine().population()
    }
    fn bounding_box(&self) -> Option<Rect> {
        self.engine().bounding_box()
    }
    fn live_cells(&self) -> Vec<LiveCell> {
        self.engine().live_cells()
    }
    fn clear(&mut self) {
        self.engine_mut().clear()
    }
    fn set_threads(&mut self, threads: Threads) {
        self.engine_mut().set_threads(threads)
    }
}

/// The owner of a cell born of parents owned by `a`, `b` and `c`: the owner
/// of at least two of them, else neutral.
pub fn birth_owner(a: Owner, b: Owner, c: Owner) -> Owner {
    if a == b || a == c {
        a
    } else if b == c {
        b
    } else {
        Owner::Neutral
    }
}

/// Place `(x, y)` on a bounded grid of `width` x `height`: wrapped on a
/// torus, `None` outside dead edges.
fn locate(topology: Topology, x: i64, y: i64) -> Option<(usize, usize)> {
    match topology {
        Topology::Torus { width, height } => {
            let wrap =
                |v: i64, n: u64| if (v as u64) < n { v as usize } else { v.rem_euclid(n as i64) as usize };
            Some((wrap(x, width), wrap(y, height)))
        }
        Topology::Dead { width, height } => (x >= 0 && y >= 0 && (x as u64) < width && (y as u64) < height)
            .then_some((x as usize, y as usize)),
        Topology::Unbounded => None,
    }
}

/// Whether `(x, y)` is within the reach of the unbounded plane.
fn in_plane(x: i64, y: i64) -> bool {
    x.abs() <= MAX_COORD && y.abs() <= MAX_COORD
}
