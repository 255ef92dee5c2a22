//! The loop stream detector: a loop held in the IDQ is replayed from there, unrolled by a
//! per-arch factor for small loops; it delivers at most the issue width per cycle and not
//! past the (unrolled) body's end in the same cycle, so an `n`-µop loop unrolled `u` times
//! takes ⌈n·u / width⌉ cycles per `u` iterations (`docs/model.md`, "Front end: loop mode";
//! the uiCA paper's parameter table; Intel's optimization manual, "Loop Stream Detector").

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
    Some((n * u).div_ceil(u64::from(p.width)) as f64 / u as f64)
}
