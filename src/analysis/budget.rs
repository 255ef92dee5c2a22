//! The simulation budget: a large region times a large `--loop` must fail fast with a clear
//! message instead of simulating for minutes (issue #9).
//!
//! Owns: the work estimate and the per-run cycle cap derived from it.
//! Must not touch: the engine (h/simfast's): the budget only calls [`simulate`] and sets
//! [`SimOptions::max_cycles`].
//!
//! The engine's time is proportional to the events it emits (a cycle, an instance loaded, an
//! instance that waits a cycle and its causes, a µop dispatched, ...) times a factor that
//! grows with the logarithm of the region size (the per-line statistics are looked up by
//! line), and the events per iteration of a loop are steady, so a short calibration run of a
//! few iterations predicts the whole run. Only the table's run reports every event; the
//! other what-if runs want only their outcome, and the engine skips their steady states, so
//! each counts a quarter. Events are counted, not timed, so whether a run fits is the same on
//! every machine; the seconds in the message are an estimate for a release build on the
//! reference machine (0.6 ns per unit: the 10k-instruction mix of `tests/repo/r9_bounds.rs`,
//! 200 iterations, takes 4.2 s for the table's run).

use crate::sim::{simulate, Observer, SimError, SimMachine, SimOptions, SimProgram, WhatIf};

/// Work units all runs of one path may cost: about a minute on the reference machine.
pub const WORK_BUDGET: u64 = 100_000_000_000;

/// Nanoseconds per work unit on the reference machine (only for the message).
const NS_PER_UNIT: f64 = 0.6;

/// Weighted instances (1 + µops + inputs each) below which no estimate is made: such runs
/// take milliseconds.
const SMALL: u64 = 1_000_000;

/// Instruction instances the calibration run simulates (at least one iteration).
const CALIBRATION_INSTANCES: u64 = 20_000;

/// The cycle cap is this many times the predicted cycles (plus [`CAP_SLACK`]): only a run
/// that is far from steady, never a normal one, meets it.
const CAP_FACTOR: u64 = 4;
const CAP_SLACK: u64 = 100_000;

/// Work units per engine event for a program of `n` instructions.
fn unit_weight(n: u64) -> u64 {
    3 + u64::from(u64::BITS - n.leading_zeros())
}

/// Estimated seconds for `units` (for messages).
pub fn seconds(units: u64) -> u64 {
    (units as f64 * NS_PER_UNIT / 1e9).ceil() as u64
}

/// The work would exceed the budget.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverBudget {
    /// Instructions in the simulated program.
    pub instructions: usize,
    /// Iterations asked for.
    pub iterations: u32,
    /// Runs of the path.
    pub runs: usize,
    /// Predicted work units of all runs.
    pub predicted: u64,
    /// The budget.
    pub budget: u64,
    /// The largest iteration count that fits (0: not even one).
    pub max_iterations: u32,
}

/// Counts engine events; a waiting instance also costs a check of each of its inputs.
struct Work {
    events: u64,
    inputs: Vec<u64>,
}

impl Observer for Work {
    fn cycle_started(&mut self, _: u64) {
        self.events += 1;
    }
    fn loaded(&mut self, _: u64, _: crate::sim::InstRef, _: u32) {
        self.events += 1;
    }
    fn waited(&mut self, _: u64, inst: crate::sim::InstRef, causes: &[crate::sim::WaitCause]) {
        let inputs = self.inputs.get(inst.index as usize).copied().unwrap_or(0);
        self.events += 1 + causes.len() as u64 + inputs;
    }
    fn uop_dispatched(&mut self, _: u64, _: crate::sim::InstRef, _: u32, _: Option<usize>) {
        self.events += 1;
    }
    fn completed(&mut self, _: u64, _: crate::sim::InstRef) {
        self.events += 1;
    }
}

/// What a check allows.
#[derive(Debug)]
pub enum Verdict {
    /// Run with this cycle cap per run.
    Run {
        /// `SimOptions::max_cycles` for each run of the path.
        max_cycles: u64,
    },
    /// Too much work.
    Over(OverBudget),
}

/// Checks `runs` runs of `iterations` iterations of `program` against `budget` work units;
/// `max_cycles` is the caller's own cap, never raised.
pub fn check(
    program: &SimProgram,
    machine: &SimMachine,
    what_if: WhatIf,
    iterations: u32,
    runs: usize,
    budget: u64,
    max_cycles: u64,
) -> Result<Verdict, SimError> {
    let n = program.instrs.len() as u64;
    let runs64 = runs.max(1) as u64;
    // Instances weighted by their µops and inputs: thousands of inputs per instruction (a
    // region where many branches join) make even a short run slow.
    let weight: u64 = program
        .instrs
        .iter()
        .map(|i| 1 + i.uops.len() as u64 + i.inputs.len() as u64)
        .sum();
    if weight
        .saturating_mul(u64::from(iterations))
        .saturating_mul(runs64)
        <= SMALL
    {
        return Ok(Verdict::Run { max_cycles });
    }
    let k = (CALIBRATION_INSTANCES / n.max(1)).clamp(1, u64::from(iterations)) as u32;
    let mut work = Work {
        events: 0,
        inputs: program
            .instrs
            .iter()
            .map(|i| i.inputs.len() as u64)
            .collect(),
    };
    let opts = SimOptions {
        iterations: k,
        what_if,
        max_cycles,
    };
    let out = simulate(program, machine, &opts, &mut work)?;
    let per_iteration = work
        .events
        .saturating_mul(unit_weight(n))
        .div_ceil(u64::from(k))
        .max(1);
    // In quarter runs: the table's run whole, every other run a quarter.
    let quarters = 4 + (runs64 - 1);
    let predicted4 = per_iteration
        .saturating_mul(u64::from(iterations))
        .saturating_mul(quarters);
    let predicted = predicted4 / 4;
    if predicted4 > budget.saturating_mul(4) {
        let max_iterations = (budget.saturating_mul(4) / per_iteration.saturating_mul(quarters))
            .min(u64::from(u32::MAX));
        return Ok(Verdict::Over(OverBudget {
            instructions: program.instrs.len(),
            iterations,
            runs,
            predicted,
            budget,
            max_iterations: max_iterations as u32,
        }));
    }
    let cycles = out
        .cycles
        .div_ceil(u64::from(k))
        .saturating_mul(u64::from(iterations));
    let cap = cycles.saturating_mul(CAP_FACTOR).saturating_add(CAP_SLACK);
    Ok(Verdict::Run {
        max_cycles: max_cycles.min(cap),
    })
}
