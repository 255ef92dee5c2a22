//! Batch prediction: many hex blocks in, one CSV row of prediction per block out, in input
//! order, in parallel (issue #6 item 2), plus the accuracy metrics of the benchmark
//! (`examples/accuracy.rs`, item 3).
//!
//! Owns: the batch input formats ([`input`]), the per-arch model shared by all threads
//! ([`ArchModel`]), the steady-state prediction of one block ([`predict`]), the parallel run
//! ([`run`]), the cheap steady state ([`steady`]), the CSV output ([`output`]), accuracy metrics ([`metrics`]) and block features
//! for error classes ([`features`]).
//! Must not touch: printing, the environment, exit codes (the `batch` command does those);
//! the simulator and the bounds (used as they are, never tuned here).
//! Facts from: BHive (Chen et al., IISWC 2019) for what a measurement means — the steady-state
//! cost of one copy of the block unrolled, (cycles(200 copies) − cycles(100 copies)) / 100 —
//! and for the CSV layout (`../shared/data/README.md` §3).
//!
//! ```text
//! text ─► input::parse ─► [InputRow] ─► run (rayon, order kept) ─► [BlockResult] ─► output
//!                                        └ per row: ArchModel of its arch ─► predict
//! ```

pub mod features;
pub mod input;
pub mod metrics;
mod model;
pub mod output;
mod predict;
mod run;
pub mod steady;

pub use input::{parse as parse_input, InputRow, ParsedInput};
pub use model::{load_models, ArchModel, LoadedModels};
pub use predict::{predict, predict_instrs, BlockError, Bottleneck, PredictOptions, Prediction};
pub use run::{run, BlockResult};
pub use steady::Method;
