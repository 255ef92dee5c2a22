//! The loop stream detector: a loop held in the IDQ is replayed from there, unrolled by a
//! per-arch factor for small loops; it delivers at most the issue width per cycle and not
//! past the (unrolled) body's end in the same cycle, so an `n`-µop loop unrolled `u` times
//! takes ⌈n·u / width⌉ cycles per `u` iterations (`docs/model.md`, "Front end: loop mode";
//! the uiCA paper's parameter table; Intel's optimization manual, "Loop Stream Detector").

use serde::Serialize;

use super::loop_mode::Unit;
use super::Branch;

/// The LSD's parameters of one arch (present only where it is enabled).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LsdParams {
    /// Largest loop (µops) it holds (the IDQ).
    pub capacity: u32,
    /// µops it delivers per cycle (the issue width).
    pub width: u32,
    /// `[max_uops, factor]` pairs, increasing.
    pub unrolling: Vec<[u32; 2]>,
}

/// The unroll factor of a loop of `uops` µops.
pub fn unroll(uops: u32, table: &[[u32; 2]]) -> u32 {
    table
        .iter()
        .find(|[max, _]| uops <= *max)
        .map_or(1, |[_, f]| (*f).max(1))
}

/// Cycles per iteration of a loop of `slots` issue slots, one of them from a µop that splits
/// at issue (`front_end.split_loop_groups`): issue groups of `width` slots stop at the end of
/// the body unrolled `u` times, `u` the least factor that leaves the last group at least half
/// full (1 when the body fills whole groups or its last one is half full already). Measured
/// on Redwood Cove (`testdata/asm/unlaminated_loops.s`): 4–6 slots 1.00, 7 slots 4/3 (u = 3),
/// 8 slots 3/2 (u = 2), 9–12 slots 2.00; `None` for an empty loop or no width.
pub fn split_loop_groups(slots: u64, width: u32) -> Option<SplitGroups> {
    let w = u64::from(width);
    if slots == 0 || w == 0 {
        return None;
    }
    let rest = slots % w;
    let unroll = if rest == 0 {
        1
    } else {
        (w / 2).div_ceil(rest).max(1)
    };
    Some(SplitGroups {
        slots,
        unroll: unroll as u32,
        width,
    })
}

/// Cycles per iteration of `n` slots a loop issues in groups of `width` over `u` unrolled
/// iterations: ⌈n·u / width⌉ / u.
fn unrolled_cycles(n: u64, u: u64, width: u32) -> f64 {
    (n * u).div_ceil(u64::from(width)) as f64 / u as f64
}

/// The issue groups of a split loop (`lsd::split_loop_groups`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SplitGroups {
    /// Issue slots of one iteration.
    pub slots: u64,
    /// Times the body is unrolled.
    pub unroll: u32,
    /// Slots per issue group (the issue width).
    pub width: u32,
}

impl SplitGroups {
    /// Cycles per iteration: `⌈slots · unroll / width⌉ / unroll`.
    pub fn cycles(&self) -> f64 {
        unrolled_cycles(self.slots, u64::from(self.unroll), self.width)
    }
}

/// Cycles per iteration if the LSD streams the loop: it fits, and has no microcoded
/// instruction, call or return (Intel's manual lists these among what the LSD cannot hold).
pub fn cycles(units: &[Unit], p: &LsdParams) -> Option<f64> {
    if units
        .iter()
        .any(|u| u.ms > 0 || u.branch == Branch::CallReturn)
    {
        return None;
    }
    let n: u64 = units.iter().map(|u| u64::from(u.uops)).sum();
    if n == 0 || n > u64::from(p.capacity) || p.width == 0 {
        return None;
    }
    let u = u64::from(unroll(n as u32, &p.unrolling));
    Some(unrolled_cycles(n, u, p.width))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Redwood Cove's loops with one indexed `vaddps ymm, ymm, [rsi+rax]` (2 slots), k nops
    /// and `add; cmp; jne` (testdata/asm/unlaminated_loops.s, the Intel host): by hand,
    /// 4–6 slots fill one group (1.00); 7 leave 1 slot, unrolled 3 times 21 slots in 4
    /// groups (measured 1.35); 8 leave 2, twice 16 in 3 (1.51); 9 leave 3, half a group
    /// (2.02); 13 slots 7/3 (2.35), 14 5/2 (2.52), 30 exactly 5 (5.02).
    #[test]
    fn split_loops_unroll_until_the_last_group_is_half_full() {
        let cycles = |n| split_loop_groups(n, 6).map(|g| g.cycles());
        for n in 4..=6 {
            assert_eq!(cycles(n), Some(1.0));
        }
        assert_eq!(split_loop_groups(7, 6).map(|g| g.unroll), Some(3));
        assert!((cycles(7).unwrap() - 4.0 / 3.0).abs() < 1e-9);
        assert_eq!(cycles(8), Some(1.5));
        assert_eq!(cycles(9), Some(2.0));
        assert_eq!(cycles(12), Some(2.0));
        assert!((cycles(13).unwrap() - 7.0 / 3.0).abs() < 1e-9);
        assert_eq!(cycles(14), Some(2.5));
        assert_eq!(cycles(30), Some(5.0));
        assert_eq!(split_loop_groups(0, 6), None);
        assert_eq!(split_loop_groups(5, 0), None);
    }
}
