//! Port state: who holds each port this cycle, how often each port was used so far, and the
//! order in which ports are tried (thesis Algorithm 5: least used first).

use crate::uarch::PortMask;

/// Per-cycle port occupancy plus the usage-ordered port queue.
#[derive(Debug)]
pub(crate) struct Ports {
    /// Instance id holding each port in the current cycle.
    holder: Vec<Option<u64>>,
    /// µops assigned to each port since the start of the run.
    usage: Vec<u64>,
    /// Port indices sorted by (usage, index): the thesis' `port_queue`.
    order: Vec<usize>,
    /// `-ip`: a port never refuses a µop.
    infinite: bool,
}

/// Result of trying to place one µop.
pub(crate) enum Placement {
    /// The µop got this port.
    Placed(usize),
    /// Every allowed port was held by another instance.
    Blocked,
}

impl Ports {
    pub(crate) fn new(count: usize, infinite: bool) -> Self {
        Ports {
            holder: vec![None; count],
            usage: vec![0; count],
            order: (0..count).collect(),
            infinite,
        }
    }

    /// Tries the ports of `mask` in usage order; a port held by `owner` itself counts as free
    /// (an instruction never blocks itself, thesis §3.3).
    pub(crate) fn place(&mut self, mask: PortMask, owner: u64) -> Placement {
        let mut found = None;
        for (pos, &p) in self.order.iter().enumerate() {
            if !mask.contains(p) {
                continue;
            }
            match self.holder[p] {
                None => {}
                Some(h) if h == owner || self.infinite => {}
                Some(_) => continue,
            }
            found = Some((pos, p));
            break;
        }
        let Some((pos, p)) = found else {
            return Placement::Blocked;
        };
        self.holder[p] = Some(owner);
        self.usage[p] += 1;
        // Keep `order` sorted by (usage, index): the used port moves right past cheaper ones.
        let mut i = pos;
        while i + 1 < self.order.len() {
            let q = self.order[i + 1];
            if (self.usage[q], q) < (self.usage[p], p) {
                self.order.swap(i, i + 1);
                i += 1;
            } else {
                break;
            }
        }
        Placement::Placed(p)
    }

    /// Ports of `mask` held by instances other than `owner`, with their holders.
    pub(crate) fn blockers(
        &self,
        mask: PortMask,
        owner: u64,
    ) -> impl Iterator<Item = (usize, u64)> + '_ {
        mask.iter()
            .filter(|&p| p < self.holder.len())
            .filter_map(move |p| match self.holder[p] {
                Some(h) if h != owner => Some((p, h)),
                _ => None,
            })
    }

    /// Frees every port (thesis Algorithm 7: ports are pipelined).
    pub(crate) fn clear(&mut self) {
        self.holder.iter_mut().for_each(|h| *h = None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placed(p: Placement) -> Option<usize> {
        match p {
            Placement::Placed(p) => Some(p),
            Placement::Blocked => None,
        }
    }

    #[test]
    fn least_used_port_first_ties_by_index() {
        let mut ports = Ports::new(6, false);
        let m015 = PortMask(0b10_0011);
        assert_eq!(placed(ports.place(m015, 1)), Some(0));
        assert_eq!(placed(ports.place(m015, 2)), Some(1));
        assert_eq!(placed(ports.place(m015, 3)), Some(5));
        assert_eq!(placed(ports.place(m015, 4)), None);
        ports.clear();
        // All three used once: ties by index again.
        assert_eq!(placed(ports.place(m015, 5)), Some(0));
    }

    #[test]
    fn an_instruction_never_blocks_itself() {
        let mut ports = Ports::new(2, false);
        let p0 = PortMask::single(0);
        assert_eq!(placed(ports.place(p0, 7)), Some(0));
        assert_eq!(placed(ports.place(p0, 7)), Some(0));
        assert_eq!(placed(ports.place(p0, 8)), None);
        assert_eq!(ports.blockers(p0, 8).collect::<Vec<_>>(), vec![(0, 7)]);
    }

    #[test]
    fn infinite_ports_never_block() {
        let mut ports = Ports::new(1, true);
        let p0 = PortMask::single(0);
        assert_eq!(placed(ports.place(p0, 1)), Some(0));
        assert_eq!(placed(ports.place(p0, 2)), Some(0));
    }
}
