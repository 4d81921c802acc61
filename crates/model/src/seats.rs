use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::Seat;

/// A set of seats, held in one machine word: what [`crate::Turn::Simultaneous`]
/// lists. `to_move` is asked several times a move by the service, the
/// referee and the bots, so the set is a copyable value rather than a list
/// on the heap. Seats iterate in increasing order.
///
/// It holds seats 0 to [`Seats::CAPACITY`]` - 1`, far more than any game
/// seats ([`crate::GameInfo::max_players`]); [`Seats::insert`] of a seat
/// past that refuses it rather than panic.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Seats(u64);

impl Seats {
    /// How many seats a set can hold: seats 0 to 63.
    pub const CAPACITY: usize = 64;

    /// The empty set.
    pub const fn new() -> Seats {
        Seats(0)
    }

    /// Add `seat`; false (and no change) when it is past [`Seats::CAPACITY`].
    pub fn insert(&mut self, seat: Seat) -> bool {
        if seat >= Self::CAPACITY {
            return false;
        }
        self.0 |= 1 << seat;
        true
    }

    /// Take `seat` out, if it is in.
    pub fn remove(&mut self, seat: Seat) {
        if seat < Self::CAPACITY {
            self.0 &= !(1 << seat);
        }
    }

    /// Whether `seat` is in the set.
    pub fn contains(&self, seat: Seat) -> bool {
        seat < Self::CAPACITY && self.0 & (1 << seat) != 0
    }

    /// How many seats are in the set.
    pub fn len(&self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }

    /// The lowest seat, if any.
    pub fn first(&self) -> Option<Seat> {
        (self.0 != 0).then(|| self.0.trailing_zeros() as Seat)
    }

    /// The `index`-th seat in increasing order (0 is the lowest), as
    /// indexing the list of seats would give it.
    pub fn nth(&self, index: usize) -> Option<Seat> {
        self.iter().nth(index)
    }

    /// The seats in increasing order.
    pub fn iter(&self) -> SeatsIter {
        SeatsIter(self.0)
    }

    /// The seats in increasing order, as a list.
    pub fn to_vec(&self) -> Vec<Seat> {
        self.iter().collect()
    }
}

/// The seats of a [`Seats`], lowest first.
#[derive(Clone, Debug)]
pub struct SeatsIter(u64);

impl Iterator for SeatsIter {
    type Item = Seat;

    fn next(&mut self) -> Option<Seat> {
        if self.0 == 0 {
            return None;
        }
        let seat = self.0.trailing_zeros() as Seat;
        // Clear the lowest set bit.
        self.0 &= self.0 - 1;
        Some(seat)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for SeatsIter {}

impl IntoIterator for Seats {
    type Item = Seat;
    type IntoIter = SeatsIter;

    fn into_iter(self) -> SeatsIter {
        self.iter()
    }
}

impl IntoIterator for &Seats {
    type Item = Seat;
    type IntoIter = SeatsIter;

    fn into_iter(self) -> SeatsIter {
        self.iter()
    }
}

impl FromIterator<Seat> for Seats {
    /// Seats past [`Seats::CAPACITY`] are left out.
    fn from_iter<I: IntoIterator<Item = Seat>>(seats: I) -> Seats {
        let mut set = Seats::new();
        for seat in seats {
            set.insert(seat);
        }
        set
    }
}

impl<const N: usize> From<[Seat; N]> for Seats {
    fn from(seats: [Seat; N]) -> Seats {
        seats.into_iter().collect()
    }
}

impl fmt::Debug for Seats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Serialised as the list of seats, as the list it replaced was.
impl Serialize for Seats {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Seats {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Seats, D::Error> {
        let seats = Vec::<Seat>::deserialize(deserializer)?;
        if let Some(&seat) = seats.iter().find(|&&s| s >= Seats::CAPACITY) {
            return Err(serde::de::Error::custom(format!(
                "seat {seat} is past the {} a set holds",
                Seats::CAPACITY
            )));
        }
        Ok(seats.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::Seats;

    #[test]
    fn a_set_of_seats_behaves_like_the_sorted_list() {
        let set: Seats = [5, 0, 63, 2].into();
        assert_eq!(set.to_vec(), [0, 2, 5, 63]);
        assert_eq!(set.len(), 4);
        assert!(set.contains(63) && !set.contains(1) && !set.contains(64) && !set.contains(usize::MAX));
        assert_eq!(set.first(), Some(0));
        assert_eq!(set.nth(2), Some(5));
        assert_eq!(set.nth(4), None);
        let mut set = set;
        assert!(!set.insert(64));
        set.remove(0);
        set.remove(99);
        assert_eq!(format!("{set:?}"), "[2, 5, 63]");
        assert_eq!(serde_json::to_string(&set).unwrap(), "[2,5,63]");
        assert_eq!(serde_json::from_str::<Seats>("[63,2,5]").unwrap(), set);
        assert!(serde_json::from_str::<Seats>("[64]").is_err());
        assert!(Seats::new().is_empty() && Seats::new().first().is_none());
    }
}
