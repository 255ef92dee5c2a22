//! The renamer's move-elimination slots ([`crate::sim::MoveSlots`]; docs/model.md, "Move
//! elimination limits"): which register moves find a slot at rename, in program order.
//!
//! Each eliminated move holds a slot of its class (general-purpose or vector) until its
//! destination — and, with `all_aliases`, its source too — has been written again by a
//! later instruction; the slot then serves another move `release_cycles` after that
//! instruction's renaming. A move that finds every slot of its class held executes.

use crate::sim::{MoveSlots, Rename};

/// Most slots tracked (a register's slots are bits of a `u64`).
const MAX_SLOTS: usize = 64;

/// One slot: the registers whose writing frees it, and when it serves again.
#[derive(Copy, Clone, Debug, Default)]
struct Slot {
    /// Bit per register; 0: the slot is not held.
    holders: u64,
    free_at: u64,
}

/// Slot state of one run.
#[derive(Clone, Debug)]
pub(super) struct MoveRenamer {
    /// Per register: bit `k` set when writing it concerns slot `k`.
    held_by: [u64; 64],
    /// The general-purpose slots, then the vector ones.
    slots: Vec<Slot>,
    gpr: Option<usize>,
    vector: Option<usize>,
    release_cycles: u64,
    all_aliases: bool,
}

impl MoveRenamer {
    pub(super) fn new(limits: &MoveSlots) -> Self {
        let gpr = limits.gpr.map(|n| (n as usize).min(MAX_SLOTS));
        let vector = limits
            .vector
            .map(|n| (n as usize).min(MAX_SLOTS - gpr.unwrap_or(0)));
        MoveRenamer {
            held_by: [0; 64],
            slots: vec![Slot::default(); gpr.unwrap_or(0) + vector.unwrap_or(0)],
            gpr,
            vector,
            release_cycles: u64::from(limits.release_cycles),
            all_aliases: limits.all_aliases,
        }
    }

    /// Renames one instance at `cycle`; returns whether it is a move that found no slot and
    /// executes.
    pub(super) fn rename(&mut self, cycle: u64, rename: &Rename) -> bool {
        let mut writes = rename.writes;
        while writes != 0 {
            let reg = writes.trailing_zeros() as usize;
            writes &= writes - 1;
            self.overwrite(reg, cycle);
        }
        let Some(m) = rename.eliminable else {
            return false;
        };
        let (first, limit) = if m.is_vector() {
            (self.gpr.unwrap_or(0), self.vector)
        } else {
            (0, self.gpr)
        };
        let Some(limit) = limit else {
            return false; // unlimited
        };
        let free = (first..first + limit)
            .find(|&k| self.slots[k].holders == 0 && self.slots[k].free_at <= cycle);
        let Some(k) = free else {
            return true;
        };
        let (dst, src) = (usize::from(m.dst) & 63, usize::from(m.src) & 63);
        let mut holders = 1 << dst;
        if self.all_aliases {
            holders |= 1 << src;
        }
        self.slots[k].holders = holders;
        self.held_by[dst] |= 1 << k;
        self.held_by[src] |= u64::from(self.all_aliases) << k;
        false
    }

    /// Register `reg` gets a new value: the slots it held free once nothing else holds them.
    fn overwrite(&mut self, reg: usize, cycle: u64) {
        let mut slots = std::mem::take(&mut self.held_by[reg]);
        while slots != 0 {
            let slot = &mut self.slots[slots.trailing_zeros() as usize];
            slots &= slots - 1;
            slot.holders &= !(1 << reg);
            if slot.holders == 0 {
                slot.free_at = cycle + self.release_cycles;
            }
        }
    }

    /// The state relative to `cycle`, for steady-state detection.
    pub(super) fn state(&self, cycle: u64, out: &mut Vec<u64>) {
        out.extend(self.held_by);
        for s in &self.slots {
            out.extend([s.holders, s.free_at.saturating_sub(cycle)]);
        }
    }

    /// Moves every pending release `cycles` later (skipping a steady state at `cycle`).
    pub(super) fn shift(&mut self, cycle: u64, cycles: u64) {
        for s in &mut self.slots {
            if s.free_at > cycle {
                s.free_at += cycles;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::EliminableMove;
    use crate::uarch::PortMask;

    fn mov(dst: u8, src: u8) -> Rename {
        Rename {
            writes: 1 << dst,
            eliminable: Some(EliminableMove {
                dst,
                src,
                executed: PortMask(1),
            }),
        }
    }

    fn renamer(slots: u32, release_cycles: u32, all_aliases: bool) -> MoveRenamer {
        MoveRenamer::new(&MoveSlots {
            gpr: Some(slots),
            vector: None,
            release_cycles,
            all_aliases,
            renames: Vec::new(),
        })
    }

    #[test]
    fn a_move_holds_its_slot_until_its_destination_is_written() {
        // `mov rax, rbx` repeated with one slot and no release delay: each copy's write of
        // rax frees the slot the previous copy held, so every copy is eliminated.
        let mut r = renamer(1, 0, false);
        for cycle in 0..5 {
            assert!(!r.rename(cycle, &mov(0, 3)), "cycle {cycle}");
        }
        // A release delay of 2 cycles: the slot freed at cycle 1 serves again at 3.
        let mut r = renamer(1, 2, false);
        assert!(!r.rename(0, &mov(0, 3)));
        assert!(r.rename(1, &mov(0, 3)), "freed at 1, serves at 3");
        assert!(!r.rename(3, &mov(0, 3)));
    }

    #[test]
    fn with_all_aliases_the_source_must_be_written_too() {
        // rbx (3) is never written: the slot stays held, and the second move executes.
        let mut r = renamer(1, 0, true);
        assert!(!r.rename(0, &mov(0, 3)));
        assert!(r.rename(1, &mov(0, 3)));
        // Writing rbx as well frees it.
        let write_rbx = Rename {
            writes: 1 << 3,
            eliminable: None,
        };
        assert!(!r.rename(2, &write_rbx));
        assert!(!r.rename(2, &mov(0, 3)));
    }

    #[test]
    fn moves_of_another_class_or_without_limit_always_find_one() {
        let mut r = renamer(0, 0, false);
        assert!(r.rename(0, &mov(0, 3)), "no general-purpose slot");
        assert!(!r.rename(0, &mov(16, 17)), "vector moves unlimited");
    }
}
