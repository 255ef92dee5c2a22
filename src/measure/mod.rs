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
//! Method: uops.info (seed digest §1, §4a Mode A/B), X-Ray for machine parameters, and
//! `docs/host-measurement.md` for the protocol on this host.

use thiserror::Error;

pub mod catalog;
pub mod checkpoint;
pub mod counters;
pub mod harness;
pub mod infer;
pub mod plan;
pub mod timer;

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
mod child;
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
pub mod engine;
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
pub mod jit;

/// Errors of the measure subsystem.
#[derive(Debug, Error)]
pub enum MeasureError {
    /// The host cannot run generated code (not x86-64 Linux).
    #[error("measuring needs x86-64 Linux; this host is {0}")]
    Unsupported(String),
    /// mmap/fork/pipe failures.
    #[error("harness: {0}")]
    Harness(String),
    /// iced-x86 could not encode a kernel.
    #[error("encoding: {0}")]
    Encode(String),
    /// The time base could not be calibrated (clock unstable or not what it should be).
    #[error("refusing to measure: {0}. Make the machine quieter (no frequency scaling, no other load) and retry.")]
    Calibration(String),
    /// Reading or writing files.
    #[error("{path}: {source}")]
    Io {
        /// File.
        path: std::path::PathBuf,
        /// Cause.
        source: std::io::Error,
    },
    /// Bad configuration (filter regex, CPU number...).
    #[error("configuration: {0}")]
    Config(String),
    /// Reading the skeleton XML.
    #[error("skeleton: {0}")]
    Skeleton(String),
}
