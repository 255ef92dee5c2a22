//! How much of an instruction one cycle's issue group takes, and the group position of
//! each of its µops (the slots that port assignment at issue reads); kept apart from the
//! cycle loop in `engine.rs`.

use super::super::plan::Op;

/// Slots and µops the instance (`slots` and `loaded` so far) can load with `budget` slots
/// and `space` scheduler entries left: as many slots as fit, whose µops fit too; all of a
/// [`Op::whole`] instruction's slots or none.
#[inline]
pub(super) fn step(op: &Op, slots: u32, loaded: u32, budget: u32, space: u32) -> (u32, u32) {
    let mut s = (op.slots - slots).min(budget);
    loop {
        let d = op.uops_at(slots + s) - loaded;
        if d <= space {
            if op.whole && slots == 0 && s > 0 && s < op.slots {
                return (0, 0);
            }
            return (s, d);
        }
        if s == 0 {
            return (0, 0);
        }
        s -= 1;
    }
}

/// The position in its cycle's issue group of µop `u` of `op`, whose load this cycle covers
/// the instruction's slots `slots_before..slots_before + slots` from group position `first`:
/// one µop per slot, the rest with the last slot; µops of an instruction without slots (the
/// Jcc of a macro-fused pair) ride with the slot before.
#[inline]
pub(super) fn issue_slot(op: &Op, u: u32, slots_before: u32, slots: u32, first: u32) -> u32 {
    if op.slots == 0 || slots == 0 {
        return first.saturating_sub(1);
    }
    let own = u.min(op.slots - 1).saturating_sub(slots_before);
    first + own.min(slots - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::plan::Op;

    fn op(uops: u32, slots: u32) -> Op {
        Op {
            line: 0,
            uops,
            all: (1 << uops) - 1,
            first_mask: 0,
            latency: 1,
            div_uop: crate::sim::plan::NO_DIV,
            div_cycles: 0,
            inputs: (0, 0),
            slots,
            whole: false,
            late_on: 0,
        }
    }

    /// Issue-group positions: a micro-fused load+op shares its slot, a slotless Jcc rides with
    /// the slot before, and an instruction split over two cycles restarts at the group's
    /// first slot.
    #[test]
    fn issue_slots_of_fused_slotless_and_split_instructions() {
        // Load+op (2 µops, 1 slot) loaded at group position 1: both in slot 1.
        let fused = op(2, 1);
        assert_eq!(issue_slot(&fused, 0, 0, 1, 1), 1);
        assert_eq!(issue_slot(&fused, 1, 0, 1, 1), 1);
        // The Jcc of a macro-fused pair (no slot) after a slot at position 2.
        assert_eq!(issue_slot(&op(1, 0), 0, 0, 0, 3), 2);
        // 3 µops in 3 slots: two at positions 2, 3 of one cycle, the third at 0 of the next.
        let three = op(3, 3);
        assert_eq!(issue_slot(&three, 0, 0, 2, 2), 2);
        assert_eq!(issue_slot(&three, 1, 0, 2, 2), 3);
        assert_eq!(issue_slot(&three, 2, 2, 1, 0), 0);
        // 4 µops in 2 slots (the rest with the last): µops 1..3 share slot 1.
        let wide = op(4, 2);
        assert_eq!(issue_slot(&wide, 3, 0, 2, 0), 1);
    }
}
