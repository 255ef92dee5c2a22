//! Sets of simulated execution ports.

use std::fmt;

/// A set of execution ports of one micro-architecture, as a bitmask over the arch's port
/// indices (bit `i` = the `i`-th port of `MicroArch::ports`, at most 32 ports).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PortMask(pub u32);

impl PortMask {
    /// The empty set.
    pub const EMPTY: PortMask = PortMask(0);

    /// The set holding port `i` only.
    pub fn single(i: usize) -> PortMask {
        PortMask(1 << i)
    }

    /// Whether port `i` is in the set.
    pub fn contains(self, i: usize) -> bool {
        self.0 & (1 << i) != 0
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of ports in the set.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether every port of `self` is in `other`.
    pub fn is_subset(self, other: PortMask) -> bool {
        self.0 & !other.0 == 0
    }

    /// Union.
    pub fn union(self, other: PortMask) -> PortMask {
        PortMask(self.0 | other.0)
    }

    /// Port indices in ascending order.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        (0..32).filter(move |&i| self.contains(i))
    }
}

impl fmt::Display for PortMask {
    /// Prints port indices, e.g. `{0,1,5}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{")?;
        for (n, i) in self.iter().enumerate() {
            if n > 0 {
                write!(f, ",")?;
            }
            write!(f, "{i}")?;
        }
        write!(f, "}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let a = PortMask(0b0110_0011);
        assert_eq!(a.len(), 4);
        assert!(a.contains(5) && !a.contains(2));
        assert!(PortMask::single(1).is_subset(a));
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![0, 1, 5, 6]);
        assert_eq!(a.to_string(), "{0,1,5,6}");
    }
}
