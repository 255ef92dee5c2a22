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
//! How cycles(N) and cycles(2N) are obtained without simulating 3N copies is in
//! [`super::steady`]: by default a short run extended along its periodic steady state, with
//! the full run as fallback; [`Method::TwoRuns`] is BHive's literal method.

use thiserror::Error;

use super::model::ArchModel;
use super::steady::{self, Method};
use crate::analysis::assembly::{self, Assembly, RegionModel};
use crate::bounds::BoundKind;
use crate::db::InstrDesc;
use crate::decode::{self, DecodeError};
use crate::deps::TooComplex;
use crate::input::{parse_hex, InputError};
use crate::ir::Instr;
use crate::pipeline::ModelOptions;
use crate::sim::SimError;

/// How to predict.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PredictOptions {
    /// Copies in the shorter run (BHive: 100); the longer run has twice as many.
    pub copies: u32,
    /// Cap on simulated cycles per run (a pathological block fails instead of hanging).
    pub max_cycles: u64,
    /// How cycles(N) and cycles(2N) are obtained.
    pub method: Method,
    /// The pipeline details modelled.
    pub model: ModelOptions,
}

impl Default for PredictOptions {
    fn default() -> Self {
        PredictOptions {
            copies: 100,
            max_cycles: 200_000_000,
            method: Method::Extrapolate,
            model: ModelOptions::FULL,
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
    /// The block's dependencies exceed the analysis limits (many branches joining before
    /// many reads); without the limit one such block took minutes and gigabytes.
    #[error("{0}")]
    TooComplex(#[from] TooComplex),
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
    /// The cycles of the bound that explains the prediction, else the largest bound, if
    /// known.
    pub bound_cycles: Option<f64>,
    /// What explains the prediction (`None`: no bound is known).
    pub bottleneck: Option<Bottleneck>,
}

/// What explains a predicted number.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bottleneck {
    /// A speed limit within [`crate::bounds::EXPLAINS`] of the prediction.
    Bound(BoundKind),
    /// The prediction is off every bound: scheduling, latency and front-end effects add up
    /// beyond any single limit (or the simulation does not model the largest one).
    Scheduling,
}

impl Bottleneck {
    /// The CSV and report word: the bound kind's JSON name, or `scheduling`.
    pub fn name(self) -> String {
        match self {
            Bottleneck::Bound(k) => super::output::kind_name(k),
            Bottleneck::Scheduling => "scheduling".into(),
        }
    }

    /// What explains `cycles` among `bounds`, and that bound's cycles (else the largest).
    pub fn of(bounds: &crate::bounds::Bounds, cycles: f64) -> (Option<Bottleneck>, Option<f64>) {
        match bounds.explaining(cycles) {
            Some(r) => (Some(Bottleneck::Bound(r.kind)), r.cycles),
            None => (
                bounds.predicted.map(|_| Bottleneck::Scheduling),
                bounds.predicted,
            ),
        }
    }
}

/// Predicts the block written as `hex` (BHive's format; see [`crate::input::parse_hex`]).
pub fn predict(
    model: &ArchModel,
    hex: &str,
    opts: &PredictOptions,
) -> Result<Prediction, BlockError> {
    let bytes = parse_hex(hex)?;
    let instrs = decode::decode_bytes(&bytes, 0)?;
    // Decoded right here from their bytes: the database's memo by encoding applies.
    let descs = instrs
        .iter()
        .map(|i| model.db.describe_decoded(i).ok())
        .collect();
    predict_described(model, &instrs, descs, opts)
}

/// Predicts decoded instructions (addresses as decoded, lines numbered from 0).
pub fn predict_instrs(
    model: &ArchModel,
    instrs: &[Instr],
    opts: &PredictOptions,
) -> Result<Prediction, BlockError> {
    let descs = instrs.iter().map(|i| model.db.describe(i).ok()).collect();
    predict_described(model, instrs, descs, opts)
}

/// [`predict_instrs`] with the instructions' data (`None`: no data).
fn predict_described(
    model: &ArchModel,
    instrs: &[Instr],
    descs: Vec<Option<InstrDesc>>,
    opts: &PredictOptions,
) -> Result<Prediction, BlockError> {
    let unsupported = descs.iter().filter(|d| d.is_none()).count();
    if unsupported == instrs.len() {
        return Err(BlockError::NoData {
            arch: model.name().to_string(),
        });
    }
    let start = instrs.first().map_or(0, |i| i.address);
    let end = instrs.last().map_or(0, |i| i.address + i.len() as u64);
    let n = opts.copies.max(1);
    // Two iterations: the CFG gets the loop edge, so copy k+1 depends on copy k. A region
    // ending in its own back branch (`suaca profile` of a loop) is a loop; BHive's blocks are
    // unrolled copies, 2N of them in the longer run.
    let RegionModel {
        bounds: b,
        program: prog,
        harness_pages,
        ..
    } = assembly::assemble(&Assembly {
        instrs,
        descs: &descs,
        arch: &model.machine.arch,
        model: opts.model,
        start,
        end,
        iterations: 2,
        copies: 2 * n,
        loop_mode: None,
    })?;
    let c = steady::cycles(&prog, &model.machine.sim, n, opts.method, opts.max_cycles)?;
    let (cycles_n, cycles_2n) = (c.n, c.two_n);
    let pipeline = cycles_2n.saturating_sub(cycles_n) as f64 / f64::from(n);
    // The bounds explain the pipeline's part; a harness's page cost comes on top of it.
    let (bottleneck, bound_cycles) = Bottleneck::of(&b, pipeline);
    let cycles_per_iteration = pipeline + harness_pages.map_or(0.0, |p| p.cycles(pipeline));
    Ok(Prediction {
        arch: model.name().to_string(),
        instructions: instrs.len(),
        unsupported,
        cycles_per_iteration,
        copies: n,
        cycles_n,
        cycles_2n,
        bound_cycles,
        bottleneck,
    })
}
