//! `suaca measure`: regenerate uops.info-style instruction data on the machine it runs on.
//!
//! Owns: the instruction catalogue built from iced-x86, microbenchmark generation, the
//! forked-child timing harness, inference of µops/ports without counters, machine parameters,
//! the checkpointed run and its XML/TOML output.
//! Must not touch: the CLI (it drives [`run`] with a [`Progress`] implementation), printing,
//! the environment.
//!
//! ```text
//! catalog (iced Code × operand forms, named after the uops.info skeleton)
//!   └► plan (TP / latency / µop / port kernels) ─► engine (fork, pin, calibrate, min, diff)
//!        └► infer (µops, ports, latencies) ─► checkpoint (JSON lines) ─► XML (atomic)
//! machine (X-Ray style parameters) ─► arch TOML
//! ```
//!
//! Method: uops.info (Mode A: timing only; Mode B: per-port counters), X-Ray for machine
//! parameters (docs/sources.md), and `docs/measurement.md` for the timing protocol.

pub mod catalog;
pub mod checkpoint;
pub mod counters;
pub mod cpus;
mod error;
pub mod harness;
pub mod infer;
pub mod layout;
pub mod machine;
pub mod plan;
pub mod portcount;
pub mod timer;
pub mod timing;

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
mod child;
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
pub mod engine;
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
pub mod jit;

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
mod run;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

pub use catalog::CatalogOptions;
pub use error::{
    CalibrationError, ConfigError, CounterError, EncodeError, HarnessError, MeasureError,
    RdpmcError,
};
pub use machine::MachineParams;

/// What [`run`] measures and where it writes.
#[derive(Clone, Debug)]
pub struct MeasureConfig {
    /// Output XML (`.xml`, or `.xml.zst` for zstd), written atomically.
    pub out: PathBuf,
    /// Only variants whose uops.info string matches this regex.
    pub filter: Option<String>,
    /// Continue from the checkpoint instead of starting over.
    pub resume: bool,
    /// Checkpoint file (default: `<out>.checkpoint.jsonl`).
    pub checkpoint: Option<PathBuf>,
    /// uops.info / XED-to-XML skeleton to take names and `<operand>` lists from (plain or
    /// zstd XML); generated names when `None`.
    pub skeleton: Option<PathBuf>,
    /// Architecture name for `<architecture name=…>` (default: from CPUID, e.g. `ZEN4`).
    pub arch: Option<String>,
    /// CPU to pin the benchmark children to (default: the last allowed CPU).
    pub cpu: Option<usize>,
    /// Child processes per batch; the median of their minima is kept (protocol: 3).
    pub processes: u32,
    /// Timed repetitions per kernel (minimum kept; protocol: ≥ 21).
    pub reps: u32,
    /// Target length of one timed sample in TSC ticks.
    pub sample_ticks: u64,
    /// Variants per batch (one fork + calibration per batch and process).
    pub batch: usize,
    /// Which EVEX forms to generate.
    pub catalog: CatalogOptions,
    /// Also measure machine parameters and write this arch TOML.
    pub machine_out: Option<PathBuf>,
    /// Stop after this many variants (testing).
    pub limit: Option<usize>,
    /// Refused clock checks retried per batch (waiting 0.5 s, doubling up to 16 s) before
    /// the run stops as timed on a busy host.
    pub calib_retries: u32,
}

impl Default for MeasureConfig {
    fn default() -> Self {
        MeasureConfig {
            out: PathBuf::from("measured.xml"),
            filter: None,
            resume: false,
            checkpoint: None,
            skeleton: None,
            arch: None,
            cpu: None,
            processes: 3,
            reps: 21,
            sample_ticks: 100_000,
            batch: 16,
            catalog: CatalogOptions {
                masked: true,
                zeroing: true,
                broadcast: true,
            },
            machine_out: None,
            limit: None,
            calib_retries: 8,
        }
    }
}

/// Progress reporting (the CLI drives an indicatif bar with it).
pub trait Progress {
    /// The number of variants to measure is known.
    fn begin(&mut self, total: u64);
    /// `done` variants finished; `current` is being measured next (may be empty).
    fn advance(&mut self, done: u64, current: &str);
    /// A status line (calibration, phases).
    fn message(&mut self, msg: &str);
    /// Whether the user asked to stop (Ctrl-C); checked between batches. The checkpoint is
    /// synced and a partial XML written before [`run`] returns.
    fn interrupted(&self) -> bool {
        false
    }
}

/// A [`Progress`] that ignores everything.
pub struct NoProgress;

impl Progress for NoProgress {
    fn begin(&mut self, _total: u64) {}
    fn advance(&mut self, _done: u64, _current: &str) {}
    fn message(&mut self, _msg: &str) {}
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct MeasureSummary {
    /// Architecture name written.
    pub arch: String,
    /// CPU model string.
    pub cpu: String,
    /// Variants in the catalogue (host-supported).
    pub catalogue: usize,
    /// iced codes left out of the catalogue, by reason.
    pub skipped: BTreeMap<String, usize>,
    /// Variants selected by the filter/limit.
    pub selected: usize,
    /// Variants with at least one measured value (including resumed ones).
    pub measured: usize,
    /// Variants taken from the checkpoint.
    pub resumed: usize,
    /// Selected variants without any value, by reason (fault signal, planning).
    pub failed: BTreeMap<String, usize>,
    /// Stopped early by [`Progress::interrupted`].
    pub interrupted: bool,
    /// Wall time of this invocation.
    pub wall: Duration,
    /// XML written.
    pub out: PathBuf,
    /// Checkpoint used.
    pub checkpoint: PathBuf,
    /// Machine parameters, when requested.
    pub machine: Option<MachineParams>,
    /// Time base description.
    pub time_base: String,
    /// Last calibration ratio.
    pub cycles_per_tsc_tick: Option<f64>,
}

/// Measures the host: see [`MeasureConfig`]. Library entry point of `suaca measure`.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
pub fn run(
    config: MeasureConfig,
    progress: &mut dyn Progress,
) -> Result<MeasureSummary, MeasureError> {
    run::run(config, progress)
}

/// Measures the host (unsupported on this platform).
#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
pub fn run(
    _config: MeasureConfig,
    _progress: &mut dyn Progress,
) -> Result<MeasureSummary, MeasureError> {
    Err(MeasureError::Unsupported(
        std::env::consts::ARCH.to_string(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_the_protocol() {
        let c = MeasureConfig::default();
        assert!(c.reps >= 21 && c.processes == 3);
    }
}
