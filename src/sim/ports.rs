//! Port state: who holds each port this cycle and how often each port was used so far
//! (thesis Algorithm 5: the least used allowed port is tried first, ties by index).
//!
//! Bit sets instead of lists: "held this cycle" and "taken by the instance being placed"
//! (kept by the caller, in a register) are `u32` masks, so freeing all ports and finding
//! the free ones are single operations.
//! The least used free port is the minimum of `(usage, index)` over the free bits, which is
//! exactly the first free port of the thesis' usage-sorted `port_queue`.

use super::event::InstRef;

/// Ports a [`crate::uarch::PortMask`] can name.
pub(crate) const MAX_PORTS: usize = 32;

/// Per-cycle port occupancy plus per-port usage counts.
#[derive(Debug)]
pub(crate) struct Ports {
    /// The instance holding each port; meaningful where the port is taken.
    holder: [InstRef; MAX_PORTS],
    /// Ports taken this cycle.
    held: u32,
    /// µops assigned to each port since the start of the run.
    usage: [u64; MAX_PORTS],
    /// The machine's ports; bits of a mask beyond them name no port.
    valid: u32,
    /// `-ip`: a port never refuses a µop.
    infinite: bool,
}

const NOBODY: InstRef = InstRef {
    iteration: 0,
    index: 0,
    line: 0,
};

impl Ports {
    pub(crate) fn new(count: usize, infinite: bool) -> Self {
        Ports {
            holder: [NOBODY; MAX_PORTS],
            held: 0,
            usage: [0; MAX_PORTS],
            valid: if count >= MAX_PORTS {
                u32::MAX
            } else {
                (1 << count) - 1
            },
            infinite,
        }
    }

    /// Puts a µop allowed on `mask` on the least used free port and returns it, or `None`
    /// if every allowed port is held by another instance. `own`: the ports `owner` took
    /// this cycle so far (an instruction never blocks itself, thesis §3.3); updated.
    #[inline]
    pub(crate) fn place(&mut self, mask: u32, owner: InstRef, own: &mut u32) -> Option<usize> {
        let mut free = mask & self.valid;
        if !self.infinite {
            free &= !self.held | *own;
        }
        if free == 0 {
            return None;
        }
        let mut best = free.trailing_zeros() as usize;
        let mut rest = free & (free - 1);
        while rest != 0 {
            let p = rest.trailing_zeros() as usize;
            // Strictly less: on equal usage the lower index (seen first) wins.
            if self.usage[p] < self.usage[best] {
                best = p;
            }
            rest &= rest - 1;
        }
        let bit = 1 << best;
        self.held |= bit;
        *own |= bit;
        self.holder[best] = owner;
        self.usage[best] += 1;
        Some(best)
    }

    /// Ports of `mask` held by instances other than the one that took `own`, ascending,
    /// with their holders.
    pub(crate) fn blockers(
        &self,
        mask: u32,
        own: u32,
    ) -> impl Iterator<Item = (usize, InstRef)> + '_ {
        let mut rest = mask & self.valid & self.held & !own;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let p = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            Some((p, self.holder[p]))
        })
    }

    /// µops placed on each port so far.
    pub(crate) fn usage(&self) -> &[u64; MAX_PORTS] {
        &self.usage
    }

    /// Adds µops to the ports' usage counts (skipping a steady state).
    pub(crate) fn add_usage(&mut self, extra: impl Fn(usize) -> u64) {
        for (p, u) in self.usage.iter_mut().enumerate() {
            *u += extra(p);
        }
    }

    /// Ports taken this cycle.
    #[inline]
    pub(crate) fn held(&self) -> u32 {
        self.held
    }

    /// Whether ports never refuse a µop (`-ip`).
    #[inline]
    pub(crate) fn is_infinite(&self) -> bool {
        self.infinite
    }

    /// Frees every port (thesis Algorithm 7: ports are pipelined).
    pub(crate) fn clear(&mut self) {
        self.held = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inst(i: u32) -> InstRef {
        InstRef {
            iteration: i,
            index: 0,
            line: 0,
        }
    }

    #[test]
    fn least_used_port_first_ties_by_index() {
        let mut ports = Ports::new(6, false);
        let m015 = 0b10_0011;
        for (i, want) in [(1, Some(0)), (2, Some(1)), (3, Some(5)), (4, None)] {
            assert_eq!(ports.place(m015, inst(i), &mut 0), want);
        }
        ports.clear();
        // All three used once: ties by index again.
        assert_eq!(ports.place(m015, inst(5), &mut 0), Some(0));
    }

    #[test]
    fn an_instruction_never_blocks_itself() {
        let mut ports = Ports::new(2, false);
        let mut own = 0;
        assert_eq!(ports.place(1, inst(7), &mut own), Some(0));
        assert_eq!(ports.place(1, inst(7), &mut own), Some(0));
        assert_eq!(ports.place(1, inst(8), &mut 0), None);
        assert_eq!(ports.blockers(1, 0).collect::<Vec<_>>(), vec![(0, inst(7))]);
        assert_eq!(ports.blockers(1, own).count(), 0);
    }

    #[test]
    fn infinite_ports_never_block() {
        let mut ports = Ports::new(1, true);
        assert_eq!(ports.place(1, inst(1), &mut 0), Some(0));
        assert_eq!(ports.place(1, inst(2), &mut 0), Some(0));
    }

    #[test]
    fn ports_beyond_the_machine_never_fit() {
        let mut ports = Ports::new(2, true);
        assert_eq!(ports.place(0b100, inst(1), &mut 0), None);
        assert_eq!(ports.blockers(0b100, 0).count(), 0);
    }
}
