//! The timing protocol inside the pinned child: a [`Pair`] of runs timed with iterations
//! chosen for `sample_ticks`, warm-up, the minimum of `reps` samples (docs/measurement.md).

use serde::{Deserialize, Serialize};

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
use super::jit::{DataMem, ExecMem, FnHandle};
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
use super::layout::{DATA_BASE, OFF_CLOCK_MASK, OFF_T0, OFF_T1};

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
/// A timed comparison of two runs: `(t(b, L·b_mult) − t(a, L·a_mult)) / (L · units)`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Pair {
    /// Shorter run.
    pub a: FnHandle,
    /// Longer run.
    pub b: FnHandle,
    /// Iteration multiplier of `a`.
    pub a_mult: u64,
    /// Iteration multiplier of `b`.
    pub b_mult: u64,
    /// Work units (e.g. extra body copies) per unit of `L`.
    pub units: f64,
}

/// Raw outcome of one [`Pair`] in one process.
#[derive(Copy, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PairRaw {
    /// Minimum ticks of `a`.
    pub min_a: u64,
    /// Minimum ticks of `b`.
    pub min_b: u64,
    /// Base iteration count L.
    pub iters: u64,
    /// Work units (copied from the pair).
    pub units: f64,
}

impl PairRaw {
    /// Ticks per work unit (the differenced result).
    pub fn ticks_per_unit(&self) -> f64 {
        (self.min_b as f64 - self.min_a as f64) / (self.iters as f64 * self.units)
    }
}

/// Timing parameters.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Protocol {
    /// Target duration of the longer sample, in TSC ticks.
    pub sample_ticks: u64,
    /// Warm-up runs of each function.
    pub warmup: u32,
    /// Timed repetitions of each function (minimum taken).
    pub reps: u32,
}

impl Default for Protocol {
    fn default() -> Self {
        Protocol {
            sample_ticks: 100_000,
            warmup: 3,
            reps: 21,
        }
    }
}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
/// Runs `f` with `iters` iterations and returns the elapsed TSC ticks stored by the kernel.
pub fn time_once(exec: &ExecMem, data: &DataMem, f: FnHandle, iters: u64) -> u64 {
    time_once_with(exec, data, f, iters, ExecMem::call)
}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
/// How a kernel is called: [`ExecMem::call`] for generated instruction kernels,
/// [`ExecMem::call_block_kernel`] for user blocks (block profiling).
pub type CallFn = fn(&ExecMem, FnHandle, u64, &DataMem);

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
/// [`time_once`] with an explicit way of calling the kernel.
pub fn time_once_with(
    exec: &ExecMem,
    data: &DataMem,
    f: FnHandle,
    iters: u64,
    call: CallFn,
) -> u64 {
    call(exec, f, iters, data);
    let t0 = data.read_u64((DATA_BASE as i64 + OFF_T0) as usize);
    let t1 = data.read_u64((DATA_BASE as i64 + OFF_T1) as usize);
    let mask = data.read_u64((DATA_BASE as i64 + OFF_CLOCK_MASK) as usize);
    t1.wrapping_sub(t0) & mask
}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
/// Measures one pair (to be called in the pinned child).
pub fn measure_pair(exec: &ExecMem, data: &DataMem, p: &Pair, proto: &Protocol) -> PairRaw {
    measure_pair_with(exec, data, p, proto, ExecMem::call)
}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
/// [`measure_pair`] with an explicit way of calling the kernels.
pub fn measure_pair_with(
    exec: &ExecMem,
    data: &DataMem,
    p: &Pair,
    proto: &Protocol,
    call: CallFn,
) -> PairRaw {
    let time_once = |f: FnHandle, iters: u64| time_once_with(exec, data, f, iters, call);
    // Choose L from a probe of the longer run.
    let mut probe = u64::MAX;
    for _ in 0..3 {
        probe = probe.min(time_once(p.b, p.b_mult));
    }
    let per = probe.max(1);
    let iters = (proto.sample_ticks / per).clamp(1, 10_000_000);
    for _ in 0..proto.warmup {
        time_once(p.a, iters * p.a_mult);
        time_once(p.b, iters * p.b_mult);
    }
    let (mut min_a, mut min_b) = (u64::MAX, u64::MAX);
    for _ in 0..proto.reps {
        min_a = min_a.min(time_once(p.a, iters * p.a_mult));
        min_b = min_b.min(time_once(p.b, iters * p.b_mult));
    }
    PairRaw {
        min_a,
        min_b,
        iters,
        units: p.units,
    }
}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
/// Measures one pair and reads the counters `fds` around every call (Mode B). Returns the
/// timing and, per counter, the counts per work unit `(min_b − min_a) / (iters · units)`.
pub fn measure_pair_counted(
    exec: &ExecMem,
    data: &DataMem,
    p: &Pair,
    proto: &Protocol,
    fds: &[i32],
) -> (PairRaw, Vec<f64>) {
    let raw = measure_pair(exec, data, p, proto);
    let read = |fds: &[i32]| -> Vec<u64> {
        fds.iter()
            .map(|fd| super::child::perf_read(*fd).unwrap_or(0))
            .collect()
    };
    let mut min_a = vec![u64::MAX; fds.len()];
    let mut min_b = vec![u64::MAX; fds.len()];
    for _ in 0..proto.reps.clamp(1, 5) {
        for (f, mult, mins) in [(p.a, p.a_mult, &mut min_a), (p.b, p.b_mult, &mut min_b)] {
            let before = read(fds);
            exec.call(f, raw.iters * mult, data);
            let after = read(fds);
            for (m, (x, y)) in mins.iter_mut().zip(before.iter().zip(&after)) {
                *m = (*m).min(y.wrapping_sub(*x));
            }
        }
    }
    let per = (raw.iters as f64 * raw.units).max(1.0);
    let counts = min_a
        .iter()
        .zip(&min_b)
        .map(|(a, b)| (*b as f64 - *a as f64) / per)
        .collect();
    (raw, counts)
}
