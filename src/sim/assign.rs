//! Port assignment at issue (docs/model.md, "Port assignment at issue"): the renamer binds
//! each µop to one port as it issues, from the µops already bound to each port and still
//! waiting, and the µop then dispatches on that port alone.
//!
//! The rule for one µop of an issue group, from the counts of earlier cycles only (the
//! group's own µops do not move the counts it sees):
//! `Pmin` is the allowed port with the fewest waiting µops, `Pmin2` the one with the second
//! fewest, ties going to the higher-numbered port; if `Pmin2` has 3 or more µops more than
//! `Pmin`, `Pmin2 := Pmin`. µops in even issue slots (0, 2, 4) get `Pmin`, odd ones `Pmin2`.

use super::ports::MAX_PORTS;
use super::program::IssueRule;

/// The port of `mask` a µop in issue slot `slot` gets, given the µops waiting on each port
/// (`waiting`). `mask` must name at least one port.
pub(crate) fn choose(mask: u32, slot: u32, waiting: &[u32; MAX_PORTS]) -> usize {
    // Ranked by (count, higher index first): the best two are Pmin and Pmin2.
    let key = |p: usize| (waiting[p], MAX_PORTS - p);
    let mut best: Option<usize> = None;
    let mut second: Option<usize> = None;
    let mut rest = mask;
    while rest != 0 {
        let p = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        match best {
            Some(b) if key(p) >= key(b) => {
                if second.is_none_or(|s| key(p) < key(s)) {
                    second = Some(p);
                }
            }
            _ => {
                second = best;
                best = Some(p);
            }
        }
    }
    let min = best.unwrap_or(0);
    let min2 = match second {
        Some(s) if waiting[s] - waiting[min] < 3 => s,
        _ => min,
    };
    if slot.is_multiple_of(2) {
        min
    } else {
        min2
    }
}

/// The counts the rule reads, kept across cycles.
#[derive(Clone, Debug)]
pub(crate) struct Assigner {
    rule: IssueRule,
    /// µops bound to each port by earlier cycles and still counted.
    waiting: [u32; MAX_PORTS],
    /// µops bound by the current issue group (added when the group ends).
    group: [u32; MAX_PORTS],
    /// Which port of the alternating pair the next such µop gets: 0 the lower, 1 the higher.
    turn: u8,
}

impl Assigner {
    pub(crate) fn new(rule: IssueRule) -> Self {
        Assigner {
            rule,
            waiting: [0; MAX_PORTS],
            group: [0; MAX_PORTS],
            turn: 0,
        }
    }

    /// Binds a µop allowed on `mask` (restricted to the machine's ports) in issue slot
    /// `slot` to a port, or `None` when the mask names no port of the machine.
    pub(crate) fn bind(&mut self, mask: u32, slot: u32) -> Option<usize> {
        if mask == 0 {
            return None;
        }
        let alternate = self.rule.alternate;
        let p = if alternate != 0 && mask == alternate {
            let low = alternate.trailing_zeros() as usize;
            let high = (31 - alternate.leading_zeros()) as usize;
            self.turn ^= 1;
            if self.turn == 1 {
                low
            } else {
                high
            }
        } else {
            choose(mask, slot, &self.waiting)
        };
        self.group[p] += 1;
        Some(p)
    }

    /// Whether a cycle issues only with room for a whole group ([`IssueRule::whole_groups`]).
    pub(crate) fn whole_groups(&self) -> bool {
        self.rule.whole_groups
    }

    /// The issue group of this cycle is complete: its µops count from the next cycle on.
    pub(crate) fn end_group(&mut self) {
        for (w, g) in self.waiting.iter_mut().zip(self.group.iter_mut()) {
            *w += *g;
            *g = 0;
        }
    }

    /// A µop bound to `port` dispatched (with `until_complete`, nothing happens).
    pub(crate) fn dispatched(&mut self, port: usize) {
        if !self.rule.until_complete {
            self.release(port);
        }
    }

    /// A µop bound to `port` belongs to an instruction that completed.
    pub(crate) fn completed(&mut self, port: usize) {
        if self.rule.until_complete {
            self.release(port);
        }
    }

    fn release(&mut self, port: usize) {
        self.waiting[port] = self.waiting[port].saturating_sub(1);
    }

    /// The state that decides future choices (for steady-state detection).
    pub(crate) fn state(&self) -> impl Iterator<Item = u64> + '_ {
        self.waiting
            .iter()
            .map(|&w| u64::from(w))
            .chain([u64::from(self.turn)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(pairs: &[(usize, u32)]) -> [u32; MAX_PORTS] {
        let mut w = [0; MAX_PORTS];
        for &(p, c) in pairs {
            w[p] = c;
        }
        w
    }

    const P0156: u32 = 0b110_0011;

    #[test]
    fn ties_go_to_the_highest_port_and_odd_slots_to_the_second() {
        let w = counts(&[]);
        // All equal: Pmin = 6, Pmin2 = 5.
        assert_eq!(choose(P0156, 0, &w), 6);
        assert_eq!(choose(P0156, 1, &w), 5);
        assert_eq!(choose(P0156, 2, &w), 6);
        assert_eq!(choose(P0156, 3, &w), 5);
        assert_eq!(choose(P0156, 4, &w), 6);
    }

    #[test]
    fn fewest_waiting_first() {
        // p0: 1, p1: 0, p5: 2, p6: 1 → Pmin = 1, Pmin2 = 6 (tie with 0, higher wins).
        let w = counts(&[(0, 1), (5, 2), (6, 1)]);
        assert_eq!(choose(P0156, 0, &w), 1);
        assert_eq!(choose(P0156, 1, &w), 6);
    }

    #[test]
    fn a_second_port_three_behind_is_not_used() {
        let w = counts(&[(0, 3), (1, 3), (5, 3)]);
        // Pmin = 6 (0), Pmin2 = 5 (3): 3 - 0 >= 3, so both slots get p6.
        assert_eq!(choose(P0156, 1, &w), 6);
        let w = counts(&[(0, 2), (1, 2), (5, 2)]);
        assert_eq!(choose(P0156, 1, &w), 5);
    }

    #[test]
    fn single_port_masks_get_their_port() {
        let w = counts(&[(0, 9)]);
        assert_eq!(choose(1, 1, &w), 0);
    }

    #[test]
    fn the_group_counts_from_the_next_cycle_and_dispatch_releases() {
        let mut a = Assigner::new(IssueRule::default());
        // One group of four p0156 µops: slots 0..3 see equal counts.
        let got: Vec<_> = (0..4).map(|s| a.bind(P0156, s).unwrap()).collect();
        assert_eq!(got, vec![6, 5, 6, 5]);
        a.end_group();
        // Next cycle: p5 and p6 hold 2 each, p0 and p1 none.
        assert_eq!(a.bind(P0156, 0), Some(1));
        assert_eq!(a.bind(P0156, 1), Some(0));
        a.end_group();
        a.dispatched(6);
        a.dispatched(6);
        // p6 is back to 0 µops, the fewest: Pmin.
        assert_eq!(a.bind(P0156, 0), Some(6));
    }

    #[test]
    fn loads_alternate_on_their_pair() {
        let rule = IssueRule {
            alternate: 0b1100,
            ..IssueRule::default()
        };
        let mut a = Assigner::new(rule);
        let got: Vec<_> = (0..4).map(|s| a.bind(0b1100, s % 2).unwrap()).collect();
        assert_eq!(got, vec![2, 3, 2, 3]);
        // Other masks follow the counts.
        assert_eq!(a.bind(0b1000_1100, 0), Some(7));
    }

    #[test]
    fn until_complete_keeps_the_count_past_dispatch() {
        let rule = IssueRule {
            until_complete: true,
            ..IssueRule::default()
        };
        let mut a = Assigner::new(rule);
        assert_eq!(a.bind(0b11, 0), Some(1));
        a.end_group();
        a.dispatched(1);
        assert_eq!(a.bind(0b11, 0), Some(0));
        a.end_group();
        a.completed(1);
        a.completed(0);
        assert_eq!(a.bind(0b11, 0), Some(1));
    }
}
