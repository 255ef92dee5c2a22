//! The prediction of one block: what BHive measures, the steady-state cycles of one copy of
//! the block unrolled.
//!
//! BHive times the block unrolled 100 and 200 times and reports
//! (cycles(200 copies) − cycles(100 copies)) / 100; the difference cancels the start-up and
//! drain of the pipeline. We do the same: the block is simulated as a loop body whose copies
//! follow each other with no taken back edge (the engine has no branch cost; loop-carried
//! dependencies connect copy k to copy k+1) for 2N copies, and the prediction is
//! (cycles(2N) − cycles(N)) / N. Total cycles / N would add the latency of one copy spread
//! over N — the error BHive's method avoids.
//!
//! cycles(N) is read off the 2N run: the cycle after the last instruction of the first N
//! copies completed. The engine mostly serves the oldest instruction first (front end in
//! order, ports chosen in program order), so later copies rarely delay earlier ones: on the
//! 1,217 BHive development blocks this equals a separate run of N copies for all but 2, which
//! differ by 0.03 and 0.01 cycles per iteration (`tests/batch_steady.rs`).
//! [`PredictOptions::two_runs`] makes the separate run instead. One run of 2N copies costs
//! 2N simulated copies, two runs 3N.

use thiserror::Error;

use super::model::ArchModel;
use crate::analysis::program;
use crate::bounds::{self, BoundKind, BoundOptions};
use crate::cfg::Cfg;
use crate::db::InstrDesc;
use crate::decode::{self, DecodeError};
use crate::deps::DepGraph;
use crate::input::{parse_hex, InputError};
use crate::ir::Instr;
use crate::sim::{simulate, InstRef, Observer, SimError, SimOptions, WhatIf};

/// How to predict.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PredictOptions {
    /// Copies in the shorter run (BHive: 100); the longer run has twice as many.
    pub copies: u32,
    /// Cap on simulated cycles per run (a pathological block fails instead of hanging).
    pub max_cycles: u64,
    /// Simulate N copies in a run of their own instead of reading cycles(N) off the 2N run
    /// (same result, 1.5× the work; kept to check the equivalence).
    pub two_runs: bool,
}

impl Default for PredictOptions {
    fn default() -> Self {
        PredictOptions {
            copies: 100,
            max_cycles: 200_000_000,
            two_runs: false,
        }
    }
}

/// Why a block has no prediction. Every variant is per block: a batch goes on.
#[derive(Debug, Error)]
pub enum BlockError {
    /// The input line itself is malformed.
    #[error("malformed input line: {0}")]
    Malformed(String),
    /// The arch of the row has no model.
    #[error("{0}")]
    Arch(String),
    /// The hex text is not hex.
    #[error("invalid hex: {0}")]
    Hex(#[from] InputError),
    /// The bytes are not valid x86-64 code.
    #[error("cannot decode: {0}")]
    Decode(#[from] DecodeError),
    /// No instruction of the block matched data of the arch.
    #[error("no instruction of the block has data for {arch}")]
    NoData {
        /// The arch.
        arch: String,
    },
    /// The simulation failed (cycle cap, too many µops, ...).
    #[error("simulation failed: {0}")]
    Sim(#[from] SimError),
}

/// The prediction of one block.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    /// Canonical arch name.
    pub arch: String,
    /// Decoded instructions.
    pub instructions: usize,
    /// Instructions without data (left out of the simulation).
    pub unsupported: usize,
    /// Steady-state cycles per copy: (cycles(2N) − cycles(N)) / N.
    pub cycles_per_iteration: f64,
    /// N, the copies of the shorter run.
    pub copies: u32,
    /// Simulated cycles of N copies.
    pub cycles_n: u64,
    /// Simulated cycles of 2N copies.
    pub cycles_2n: u64,
    /// The largest analytic bound (cycles per iteration), if known.
    pub bound_cycles: Option<f64>,
    /// Its kind.
    pub bottleneck: Option<BoundKind>,
}

/// Predicts the block written as `hex` (BHive's format; see [`crate::input::parse_hex`]).
pub fn predict(
    model: &ArchModel,
    hex: &str,
    opts: &PredictOptions,
) -> Result<Prediction, BlockError> {
    let bytes = parse_hex(hex)?;
    let instrs = decode::decode_bytes(&bytes, 0)?;
    predict_instrs(model, &instrs, opts)
}

/// Predicts decoded instructions (addresses as decoded, lines numbered from 0).
pub fn predict_instrs(
    model: &ArchModel,
    instrs: &[Instr],
    opts: &PredictOptions,
) -> Result<Prediction, BlockError> {
    let descs: Vec<Option<InstrDesc>> = instrs.iter().map(|i| model.db.describe(i).ok()).collect();
    let unsupported = descs.iter().filter(|d| d.is_none()).count();
    if unsupported == instrs.len() {
        return Err(BlockError::NoData {
            arch: model.name().to_string(),
        });
    }
    let start = instrs.first().map_or(0, |i| i.address);
    let end = instrs.last().map_or(0, |i| i.address + i.len() as u64);
    // Two iterations: the CFG gets the loop edge, so copy k+1 depends on copy k.
    let cfg = Cfg::build(instrs, start, end, 2);
    let deps = DepGraph::build(instrs, &cfg, true);
    let all: Vec<usize> = (0..instrs.len()).collect();
    let prog = program::build(&all, &descs, &deps);
    let n = opts.copies.max(1);
    let run = |copies: u32, observer: &mut FirstCopies| {
        let sim = SimOptions {
            iterations: copies,
            what_if: WhatIf::NONE,
            max_cycles: opts.max_cycles,
        };
        simulate(&prog, &model.machine.sim, &sim, observer).map(|o| o.cycles)
    };
    let mut first = FirstCopies { n, last: None };
    let cycles_2n = run(n.saturating_mul(2), &mut first)?;
    let cycles_n = if opts.two_runs {
        run(n, &mut FirstCopies { n, last: None })?
    } else {
        // `cycles` counts up to the end of the last completion cycle.
        first.last.map_or(0, |c| c + 1)
    };
    let b = bounds::compute(
        instrs,
        &descs,
        &deps,
        &model.machine.arch,
        &BoundOptions::default(),
    );
    Ok(Prediction {
        arch: model.name().to_string(),
        instructions: instrs.len(),
        unsupported,
        cycles_per_iteration: cycles_2n.saturating_sub(cycles_n) as f64 / f64::from(n),
        copies: n,
        cycles_n,
        cycles_2n,
        bound_cycles: b.predicted,
        bottleneck: b.bottleneck,
    })
}

/// Records when the first `n` copies have all completed.
struct FirstCopies {
    n: u32,
    /// Last completion cycle of an instruction of the first `n` copies.
    last: Option<u64>,
}

impl Observer for FirstCopies {
    fn completed(&mut self, cycle: u64, inst: InstRef) {
        if inst.iteration < self.n {
            self.last = Some(self.last.map_or(cycle, |l| l.max(cycle)));
        }
    }
}
