//! Shortest king-move paths through empty points: what a move costs.
//!
//! A* with the king distance (Chebyshev, wrapped on a torus) as heuristic,
//! which is exact on an empty field, so unobstructed moves settle only the
//! points along one straight-ish line. Nodes whose estimate exceeds the
//! mover's points are never expanded, so the search is bounded by what the
//! player can afford as well as by the area and a node limit.

use std::cmp::Reverse;
use std::collections::hash_map::Entry;
use std::collections::{BinaryHeap, HashMap};

use tabula_model::coords::Point;

/// Where a path may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Area {
    /// The field `0..width` x `0..height`, wrapping at the edges if `wrap`.
    Field {
        /// Columns.
        width: i64,
        /// Rows.
        height: i64,
        /// Whether the field is a torus.
        wrap: bool,
    },
    /// A rectangle of the unbounded plane, corners included. Outside the
    /// occupied box everything is empty, so the box grown by one point holds
    /// a shortest path whenever there is one (clamping a path into it keeps
    /// every step a king step through empty points).
    Window {
        /// Leftmost column.
        x0: i64,
        /// Bottom row.
        y0: i64,
        /// Rightmost column.
        x1: i64,
        /// Top row.
        y1: i64,
    },
}

impl Area {
    fn contains(self, p: Point) -> bool {
        match self {
            Area::Field { width, height, .. } => (0..width).contains(&p.x) && (0..height).contains(&p.y),
            Area::Window { x0, y0, x1, y1 } => (x0..=x1).contains(&p.x) && (y0..=y1).contains(&p.y),
        }
    }

    /// The point one king step from `p` in direction `(dx, dy)`, if inside.
    fn step(self, p: Point, dx: i64, dy: i64) -> Option<Point> {
        let q = Point { x: p.x + dx, y: p.y + dy };
        match self {
            Area::Field { width, height, wrap: true } => {
                Some(Point { x: q.x.rem_euclid(width), y: q.y.rem_euclid(height) })
            }
            _ => self.contains(q).then_some(q),
        }
    }

    /// King moves from `a` to `b` on an empty field: a lower bound of every
    /// path, and its exact length when nothing is in the way.
    pub fn king_distance(self, a: Point, b: Point) -> u64 {
        let (dx, dy) = (a.x.abs_diff(b.x), a.y.abs_diff(b.y));
        match self {
            Area::Field { width, height, wrap: true } => {
                let (w, h) = (width.unsigned_abs(), height.unsigned_abs());
                (dx % w).min(w - dx % w).max((dy % h).min(h - dy % h))
            }
            _ => dx.max(dy),
        }
    }
}

/// What a path search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// The shortest path has this many steps.
    Cost(u64),
    /// No path through empty points exists.
    NoPath,
    /// Every path costs more than the budget; the least it could cost.
    OverBudget {
        /// A lower bound of the cheapest path.
        at_least: u64,
    },
    /// The search reached its node limit before finding a path.
    TooFar,
}

/// The shortest king-move path from `from` to `to` within `area`, stepping
/// only on points where `empty` holds (`from` itself is where the mover
/// stands; `to` must be empty). Paths longer than `budget` are not searched,
/// and the points visited are taken from the allowance `nodes` (shared by
/// the moves of one command, so a long command cannot search without end).
pub fn route(
    area: Area,
    from: Point,
    to: Point,
    budget: u64,
    nodes: &mut usize,
    empty: impl Fn(Point) -> bool,
) -> Route {
    if from == to {
        return Route::Cost(0);
    }
    if !area.contains(from) || !area.contains(to) || !empty(to) {
        return Route::NoPath;
    }
    let estimate = area.king_distance(from, to);
    if estimate > budget {
        return Route::OverBudget { at_least: estimate };
    }
    let mut best: HashMap<Point, u64, foldhash::fast::FixedState> = HashMap::default();
    // Ordered by estimate, then by the longest path so far (deepest first
    // among equals, which reaches the goal sooner on open ground).
    let mut open = BinaryHeap::new();
    best.insert(from, 0);
    open.push(Reverse((estimate, Reverse(0u64), from.x, from.y)));
    let mut cheapest_cut: Option<u64> = None;
    while let Some(Reverse((_, Reverse(cost), x, y))) = open.pop() {
        let here = Point { x, y };
        if here == to {
            *nodes = nodes.saturating_sub(best.len());
            return Route::Cost(cost);
        }
        if best.get(&here).is_some_and(|&c| c < cost) {
            continue;
        }
        for (dx, dy) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
            let Some(next) = area.step(here, dx, dy) else { continue };
            if next == from || !empty(next) {
                continue;
            }
            let next_cost = cost + 1;
            let guess = next_cost + area.king_distance(next, to);
            if guess > budget {
                cheapest_cut = Some(cheapest_cut.map_or(guess, |c| c.min(guess)));
                continue;
            }
            match best.entry(next) {
                Entry::Occupied(mut e) if *e.get() > next_cost => {
                    e.insert(next_cost);
                }
                Entry::Occupied(_) => continue,
                Entry::Vacant(e) => {
                    e.insert(next_cost);
                }
            }
            open.push(Reverse((guess, Reverse(next_cost), next.x, next.y)));
        }
        if best.len() > *nodes {
            *nodes = 0;
            return Route::TooFar;
        }
    }
    *nodes -= best.len();
    match cheapest_cut {
        Some(at_least) => Route::OverBudget { at_least },
        None => Route::NoPath,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn p(x: i64, y: i64) -> Point {
        Point { x, y }
    }

    const FIELD: Area = Area::Field { width: 20, height: 20, wrap: false };

    fn blocked(cells: &[Point]) -> impl Fn(Point) -> bool + '_ {
        move |q| !cells.contains(&q)
    }

    #[test]
    fn open_ground_costs_the_king_distance() {
        assert_eq!(route(FIELD, p(2, 2), p(7, 4), 100, &mut 10_000, |_| true), Route::Cost(5));
        assert_eq!(route(FIELD, p(2, 2), p(2, 3), 100, &mut 10_000, |_| true), Route::Cost(1));
        assert_eq!(route(FIELD, p(0, 0), p(19, 19), 100, &mut 10_000, |_| true), Route::Cost(19));
        // The allowance shrinks by the points visited.
        let mut allowance = 10_000;
        route(FIELD, p(0, 0), p(19, 19), 100, &mut allowance, |_| true);
        assert!((9_900..10_000).contains(&allowance), "{allowance}");
    }

    #[test]
    fn a_wall_forces_a_detour() {
        // A vertical wall x = 5 from y = 0 to y = 8: from (3,4) to (7,4)
        // the straight line would cost 4; around the top end (5,9) it costs
        // 5 up to the gap and 5 down again.
        let wall: Vec<Point> = (0..=8).map(|y| p(5, y)).collect();
        assert_eq!(route(FIELD, p(3, 4), p(7, 4), 100, &mut 10_000, blocked(&wall)), Route::Cost(10));
        // Too few points for the detour, though enough for the straight line.
        assert_eq!(
            route(FIELD, p(3, 4), p(7, 4), 9, &mut 10_000, blocked(&wall)),
            Route::OverBudget { at_least: 10 }
        );
        assert_eq!(route(FIELD, p(3, 4), p(7, 4), 10, &mut 10_000, blocked(&wall)), Route::Cost(10));
    }

    #[test]
    fn a_sealed_cell_cannot_move() {
        let ring: Vec<Point> = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]
            .map(|(dx, dy)| p(5 + dx, 5 + dy))
            .to_vec();
        assert_eq!(route(FIELD, p(5, 5), p(9, 9), 100, &mut 10_000, blocked(&ring)), Route::NoPath);
    }

    #[test]
    fn diagonal_gaps_are_passable() {
        // Cells at (1,0) and (0,1): the step (0,0) -> (1,1) lands on an
        // empty point, so it is allowed.
        let cells = [p(1, 0), p(0, 1)];
        assert_eq!(route(FIELD, p(0, 0), p(1, 1), 10, &mut 1000, blocked(&cells)), Route::Cost(1));
    }

    #[test]
    fn the_torus_wraps() {
        let torus = Area::Field { width: 10, height: 10, wrap: true };
        assert_eq!(route(torus, p(0, 0), p(9, 9), 10, &mut 1000, |_| true), Route::Cost(1));
        assert_eq!(torus.king_distance(p(1, 5), p(8, 5)), 3);
        // A full column cannot be crossed, but on a torus the path goes the
        // other way round, across the edge.
        let wall: Vec<Point> = (0..10).map(|y| p(5, y)).collect();
        assert_eq!(route(torus, p(3, 3), p(7, 3), 100, &mut 1000, blocked(&wall)), Route::Cost(6));
        let dead = Area::Field { width: 10, height: 10, wrap: false };
        assert_eq!(route(dead, p(3, 3), p(7, 3), 100, &mut 1000, blocked(&wall)), Route::NoPath);
    }

    #[test]
    fn windows_bound_the_plane() {
        let window = Area::Window { x0: -3, y0: -3, x1: 3, y1: 3 };
        let wall: Vec<Point> = (-2..=2).map(|y| p(0, y)).collect();
        assert_eq!(route(window, p(-2, 0), p(2, 0), 100, &mut 1000, blocked(&wall)), Route::Cost(6));
        assert_eq!(route(window, p(-2, 0), p(5, 0), 100, &mut 1000, |_| true), Route::NoPath);
    }

    #[test]
    fn the_node_limit_stops_the_search() {
        // A closed box with the goal outside makes the search visit every
        // point inside before it gives up.
        let mut cells = Vec::new();
        for i in 0..=10 {
            cells.extend([p(i, 0), p(i, 10), p(0, i), p(10, i)]);
        }
        let set: HashSet<Point> = cells.into_iter().collect();
        let inside = |q: Point| !set.contains(&q);
        assert_eq!(route(FIELD, p(5, 5), p(15, 15), 100, &mut 20, inside), Route::TooFar);
        assert_eq!(route(FIELD, p(5, 5), p(15, 15), 100, &mut 10_000, inside), Route::NoPath);
    }

    proptest::proptest! {
        /// On random obstacles the cost equals a plain breadth-first search.
        #[test]
        fn agrees_with_breadth_first_search(
            cells in proptest::collection::hash_set((0i64..12, 0i64..12), 0..60),
            from in (0i64..12, 0i64..12),
            to in (0i64..12, 0i64..12),
            wrap in proptest::bool::ANY,
        ) {
            let area = Area::Field { width: 12, height: 12, wrap };
            let occupied: HashSet<Point> = cells.iter().map(|&(x, y)| p(x, y)).collect();
            let (from, to) = (p(from.0, from.1), p(to.0, to.1));
            let empty = |q: Point| !occupied.contains(&q) || q == from;
            let expected = bfs(area, from, to, &empty);
            let found = route(area, from, to, 1000, &mut 100_000, |q| empty(q) && q != from);
            let found = match found { Route::Cost(c) => Some(c), _ => None };
            let expected = if from != to && occupied.contains(&to) { None } else { expected };
            proptest::prop_assert_eq!(found, expected);
        }
    }

    fn bfs(area: Area, from: Point, to: Point, empty: &dyn Fn(Point) -> bool) -> Option<u64> {
        let mut seen = HashSet::from([from]);
        let mut frontier = vec![from];
        let mut d = 0;
        while !frontier.is_empty() {
            if frontier.contains(&to) {
                return Some(d);
            }
            let mut next = Vec::new();
            for q in frontier {
                for dx in -1..=1 {
                    for dy in -1..=1 {
                        if let Some(r) = area.step(q, dx, dy)
                            && (dx, dy) != (0, 0)
                            && empty(r)
                            && seen.insert(r)
                        {
                            next.push(r);
                        }
                    }
                }
            }
            frontier = next;
            d += 1;
        }
        None
    }
}
