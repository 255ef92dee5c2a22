//! The errors of `measure` (and of `profile`, which runs code through the same harness): typed
//! data, rendered in English only by `Display`.

use std::path::PathBuf;

use thiserror::Error;

pub use super::timer::CalibrationError;

/// Errors of the measure subsystem.
#[derive(Debug, Error)]
pub enum MeasureError {
    /// The host cannot run generated code (not x86-64 Linux).
    #[error("measuring needs x86-64 Linux; this host is {0}")]
    Unsupported(String),
    /// mmap/fork/pipe failures, a benchmark process that ended wrongly.
    #[error("harness: {0}")]
    Harness(#[from] HarnessError),
    /// A kernel could not be encoded.
    #[error("encoding: {0}")]
    Encode(#[from] EncodeError),
    /// The time base could not be calibrated (clock unstable or not what it should be).
    #[error("refusing to measure: {0}. Make the machine quieter (no frequency scaling, no other load) and retry.")]
    Calibration(#[from] CalibrationError),
    /// Reading or writing files.
    #[error("{path}: {source}")]
    Io {
        /// File.
        path: PathBuf,
        /// Cause.
        source: std::io::Error,
    },
    /// Bad configuration (filter regex, unknown CPU, checkpoint of another host).
    #[error("configuration: {0}")]
    Config(#[from] ConfigError),
    /// Reading the skeleton XML.
    #[error("skeleton: {0}")]
    Skeleton(String),
}

impl MeasureError {
    /// A calibration refused because the host was busy, not because its clock is broken
    /// ([`CalibrationError::is_noise`]): the same run may succeed later.
    pub fn is_busy(&self) -> bool {
        matches!(self, MeasureError::Calibration(c) if c.is_noise())
    }
}

/// What failed in the harness: system calls, executable memory, the benchmark child.
#[derive(Debug, Error)]
pub enum HarnessError {
    /// A system call (`pipe`, `fork`, `waitpid`) failed.
    #[error("{call}: {source}")]
    Os {
        /// The call.
        call: &'static str,
        /// The OS error.
        source: std::io::Error,
    },
    /// Mapping memory failed.
    #[error("mmap of {len} bytes{} failed: {source}", at_suffix(*at))]
    Mmap {
        /// Bytes asked for.
        len: usize,
        /// The fixed address asked for, if any.
        at: Option<u64>,
        /// The OS error.
        source: std::io::Error,
    },
    /// A fixed-address mapping landed elsewhere (kernels that treat the flag as a hint).
    #[error("mmap of {len} bytes at {at:#x}: the address range is in use")]
    AddressInUse {
        /// Bytes asked for.
        len: usize,
        /// The address asked for.
        at: u64,
    },
    /// mmap returned a null pointer.
    #[error("mmap returned null")]
    MmapNull,
    /// The executable mapping has no room for another kernel.
    #[error("executable memory full")]
    ExecFull,
    /// The benchmark process cannot read core cycles with `rdpmc`.
    #[error("rdpmc unavailable in the benchmark process")]
    NoRdpmc,
    /// The benchmark process could not open the per-port counters.
    #[error("per-port counters did not open in the benchmark process")]
    NoPortCounters,
    /// The benchmark child exited normally without its calibration.
    #[error("child sent no calibration")]
    NoCalibration,
    /// The benchmark child exited normally with part of its result missing.
    #[error("the child sent an incomplete result")]
    IncompleteResult,
    /// A calibration kernel before the benchmarks died.
    #[error("calibration kernel died: {end}")]
    CalibrationDied {
        /// How the child ended (`SIGSEGV`, `child exit 3`).
        end: String,
    },
    /// The calibration after the benchmarks died.
    #[error("final calibration died: {end}")]
    FinalCalibrationDied {
        /// How the child ended.
        end: String,
    },
    /// The benchmark child exited with a status the protocol does not use.
    #[error("the benchmark child exited with status {0}")]
    ChildExit(i32),
    /// A calibration spec that is not an unrolled kernel (a bug in the caller).
    #[error("calibration spec not unrolled")]
    CalibrationNotUnrolled,
}

/// Why a kernel could not be encoded.
#[derive(Debug, Error)]
pub enum EncodeError {
    /// iced-x86 refused an instruction or the assembly.
    #[error(transparent)]
    Iced(#[from] iced_x86::IcedError),
    /// A branch of the kernel cannot reach its target with this displacement width.
    #[error("the back branch's {bits}-bit reach")]
    BranchReach {
        /// Displacement width.
        bits: u8,
    },
    /// A RIP-relative operand's target is more than 2 GiB away.
    #[error("RIP-relative operand out of 32-bit reach")]
    RipRelativeReach,
    /// The copies of a push/pop body move the stack too far for the benchmark process.
    #[error("the kernel moves the stack by {bytes} bytes per pass (limit {limit})")]
    StackMove {
        /// Bytes per pass (pushes negative).
        bytes: i64,
        /// The limit.
        limit: i64,
    },
}

/// A configuration `measure` cannot run with.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// `--filter` is not a regular expression.
    #[error("filter: {0}")]
    Filter(#[from] regex::Error),
    /// CPUID names no arch and none was given.
    #[error("unknown CPU: pass an architecture name")]
    UnknownCpu,
    /// `--resume` with a checkpoint of another arch or CPU.
    #[error("checkpoint {} is for {} on {}, not {} on {}", path.display(), found.0, found.1, wanted.0, wanted.1)]
    CheckpointMismatch {
        /// The checkpoint.
        path: PathBuf,
        /// (arch, CPU) in the checkpoint.
        found: (String, String),
        /// (arch, CPU) of this run.
        wanted: (String, String),
    },
}

/// Why performance counters cannot be used here (the caller then falls back to the TSC or to
/// inferring ports).
#[derive(Debug, Error)]
pub enum CounterError {
    /// perf_event_open refused an event.
    #[error("perf_event_open(raw {config:#x}): {source}")]
    Open {
        /// The raw event configuration.
        config: u64,
        /// The OS error.
        source: std::io::Error,
    },
    /// No per-port events are known for the arch.
    #[error("no port counters known for {0}")]
    NoEvents(String),
    /// The event's first page could not be mapped.
    #[error("mmap of the perf event: {0}")]
    Mmap(std::io::Error),
    /// The mapped page does not allow `rdpmc`.
    #[error(transparent)]
    Rdpmc(#[from] RdpmcError),
}

/// What the perf event's mapped page says against user-space `rdpmc`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RdpmcError {
    /// Fewer bytes than the fields read.
    #[error("perf mmap page too short")]
    PageTooShort,
    /// `cap_user_rdpmc` is clear.
    #[error("the kernel does not allow user rdpmc (cap_user_rdpmc = 0)")]
    NotAllowed,
    /// The event has no hardware counter (index 0).
    #[error("the counter is not active (index 0)")]
    Inactive,
}

/// ` at 0x…` for a fixed-address mapping.
fn at_suffix(at: Option<u64>) -> String {
    at.map(|a| format!(" at {a:#x}")).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_as_before() {
        let died = HarnessError::FinalCalibrationDied {
            end: "SIGILL".into(),
        };
        assert_eq!(died.to_string(), "final calibration died: SIGILL");
        let e = MeasureError::from(EncodeError::BranchReach { bits: 8 });
        assert_eq!(e.to_string(), "encoding: the back branch's 8-bit reach");
        let e = HarnessError::AddressInUse {
            len: 4096,
            at: 0x1000,
        };
        assert_eq!(
            e.to_string(),
            "mmap of 4096 bytes at 0x1000: the address range is in use"
        );
    }
}
