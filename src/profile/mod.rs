//! `suaca profile`: time a marked region on this machine the way BHive measures blocks, so a
//! prediction can be checked against the CPU it runs on (issue #6 item 1).
//!
//! Owns: what a block needs to run on its own ([`block`]), the generated function and memory
//! around it ([`kernel`]), the forked, pinned, calibrated runs and the mapping of a fault back
//! to the block's instruction (`runner`).
//! Must not touch: printing, the prediction (the CLI puts suaca's beside the measurement).
//! Reuses: `measure`'s child runner, timing protocol and time base (TSC calibrated against a
//! dependent `add` chain, checked with an `imul` chain, per child).
//!
//! ```text
//! [Instr] ─► block::plan (registers, RIP-relative operands, counter register | why not)
//!         ─► kernel::assemble × 2 (copies a = 100, b = 200, fewer for large blocks)
//!         ─► runner: per process fork ─► pin ─► calibrate ─► min over reps of a and b
//!             ─► (t(b) − t(a)) / (b − a) ticks × cycles/tick ─► median over processes
//! ```
//!
//! Loops (issue #14): a region ending in a conditional branch back to its start runs as
//! itself, N and 2N iterations ([`loop_shape`] finds the counter, [`trip`] and [`placement`]
//! its initial values, [`loop_kernel`] the function), repeated to fill a sample; cycles per
//! iteration = (t(2N) − t(N)) / N.
//!
//! ```text
//! [Instr] ─► loop_shape::detect (back branch, flag-setter, counter, register motion)
//!         ─► block::plan_loop ─► placement::plan (N; values for N and 2N; trip::solve)
//!         ─► loop_kernel::assemble × 2 ─► runner (as above, units = N iterations)
//! ```
//!
//! Method: BHive (Chen et al., IISWC 2019): the steady-state cycles of one copy of the block
//! unrolled, (cycles(200 copies) − cycles(100 copies)) / 100; docs/measurement.md for
//! the protocol.

pub mod block;
pub mod flags;
pub mod kernel;
pub mod loop_kernel;
pub mod loop_shape;
pub mod placement;
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
mod runner;
pub mod trip;

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
pub use runner::Profiler;

use crate::measure::MeasureError;

/// How blocks are timed.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ProfileOptions {
    /// CPU the children pin to (default: the last one this process may use).
    pub cpu: Option<usize>,
    /// Child processes per block; the median of their results is kept. Up to six more run
    /// while no two agree within 2% on the fastest; if still none do, the block is refused as
    /// timed on a busy host.
    pub processes: u32,
    /// Relative tolerance within which two processes' results agree.
    pub agree: f64,
    /// At most this many more processes when the fastest result is not confirmed by a
    /// second one within `agree` (a busy host only slows a run down).
    pub extra_processes: u32,
    /// Timed repetitions of each kernel per process (the minimum is kept).
    pub reps: u32,
    /// Copies in the shorter kernel (BHive: 100); the longer one has twice as many.
    pub copies: usize,
    /// Most instructions in the longer kernel's unrolled body: Zen 4's op cache holds ~4k
    /// macro-ops and a 6-wide stream keeps its rate up to ~3000 (docs/measurement.md).
    pub max_unrolled: usize,
    /// Seconds before a child is killed (SIGALRM).
    pub timeout_s: u32,
    /// Refused clock checks retried per block (waiting 0.5 s, doubling up to 16 s) before
    /// the block is refused as timed on a busy host.
    pub calib_retries: u32,
    /// Map a page at an unmapped address the block computed and retry, as BHive does (one
    /// physical page behind all of them), instead of reporting SIGSEGV.
    pub map_fault_pages: bool,
    /// The loop counter GPR (number), instead of the one the exit test suggests.
    pub counter: Option<usize>,
    /// Iterations N of a loop's shorter run, instead of the placement's choice.
    pub iterations: Option<u64>,
}

impl Default for ProfileOptions {
    fn default() -> Self {
        ProfileOptions {
            cpu: None,
            processes: 3,
            agree: 0.02,
            extra_processes: 6,
            reps: 51,
            copies: 100,
            max_unrolled: 3000,
            timeout_s: 20,
            calib_retries: 4,
            map_fault_pages: true,
            counter: None,
            iterations: None,
        }
    }
}

impl ProfileOptions {
    /// Copies in the shorter and the longer kernel for a block of `n` instructions: `copies`
    /// and twice that, or fewer (still one to two) when the longer body would exceed
    /// `max_unrolled` instructions.
    pub fn copies_for(&self, n: usize) -> (usize, usize) {
        let n = n.max(1);
        let b = (2 * self.copies.max(1)).min(self.max_unrolled / n);
        let b = (b / 2 * 2).max(2);
        (b / 2, b)
    }
}

/// One block's measurement.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// Steady-state core cycles per copy: (cycles(b copies) − cycles(a copies)) / (b − a),
    /// median over processes.
    pub cycles_per_iteration: f64,
    /// (max − min) / median over processes.
    pub spread: f64,
    /// Each process's value.
    pub per_process: Vec<f64>,
    /// Copies in the shorter and longer kernel.
    pub copies: (usize, usize),
    /// Instructions of the block.
    pub instructions: usize,
    /// Loop passes per timed sample (first process).
    pub iterations: u64,
    /// Core cycles per TSC tick (median of the processes' calibrations).
    pub cycles_per_tick: f64,
    /// Pages mapped at addresses the block computed outside the buffer (most of any
    /// process; 0 when it stayed inside).
    pub pages_mapped_on_fault: u32,
    /// How a loop region was run (`None`: a block, unrolled).
    pub looped: Option<LoopRun>,
}

/// A loop region's run: `copies` of the [`Measurement`] are its iterations N and 2N.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopRun {
    /// The counter register (`rcx`).
    pub counter: String,
    /// How the counter (and the register it is compared with) were set.
    pub setup: String,
    /// Line of the back branch.
    pub branch_line: usize,
}

/// A fault of the block: the signal and, when it happened inside the block, the line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fault {
    /// `SIGSEGV`, `SIGILL`, `SIGFPE`, `SIGBUS`, `SIGTRAP`, `SIGALRM (timeout)`.
    pub signal: String,
    /// The faulting data address (SIGSEGV, SIGBUS).
    pub address: Option<u64>,
    /// A SIGSEGV from a general-protection fault (a non-canonical address): no address.
    pub general_protection: bool,
    /// The region line (0-based, as in the analysis report) of the faulting instruction.
    pub line: Option<usize>,
    /// Its disassembly.
    pub instruction: Option<String>,
    /// Why, when not at one instruction.
    pub why: Option<String>,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.signal)?;
        if let Some(a) = self.address {
            write!(f, " (address {a:#x})")?;
        } else if self.general_protection {
            write!(f, " (general protection: a non-canonical address)")?;
        }
        match (self.line, &self.instruction) {
            (Some(l), Some(t)) => write!(f, " at line {l}: {t}"),
            _ if self.why.is_some() => write!(f, ": {}", self.why.as_deref().unwrap_or("")),
            _ if self.signal.contains("timeout") => write!(f, ": the block did not finish"),
            _ => write!(f, " outside the block (in the harness)"),
        }
    }
}

/// Why a block has no measurement.
#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    /// The block cannot be run on its own (control flow, system calls, ...).
    #[error("cannot be profiled: {0}")]
    Unsupported(String),
    /// The block faulted.
    #[error("the block faulted with {0}")]
    Fault(Fault),
    /// The harness failed (memory, fork, calibration): not the block's fault.
    #[error(transparent)]
    Harness(#[from] MeasureError),
}

/// A short, stable key of a hex block (FNV-1a 64 of its lowercase hex text): lets our own
/// measurements of third-party blocks be published without the blocks' bytes.
pub fn block_key(hex: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in hex.trim().bytes() {
        h ^= u64::from(b.to_ascii_lowercase());
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Profiling needs x86-64 Linux.
#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
pub struct Profiler;

#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
impl Profiler {
    /// Always fails: profiling needs x86-64 Linux.
    pub fn new(_opts: ProfileOptions) -> Result<Profiler, MeasureError> {
        Err(MeasureError::Unsupported(format!(
            "{}-{}",
            std::env::consts::ARCH,
            std::env::consts::OS
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_follow_bhive_and_shrink_for_large_blocks() {
        let o = ProfileOptions::default();
        assert_eq!(o.copies_for(1), (100, 200));
        assert_eq!(o.copies_for(15), (100, 200));
        assert_eq!(o.copies_for(16), (93, 186));
        assert_eq!(o.copies_for(100), (15, 30));
        assert_eq!(o.copies_for(1499), (1, 2));
        assert_eq!(o.copies_for(5000), (1, 2));
    }

    #[test]
    fn keys_are_stable_and_case_blind() {
        assert_eq!(block_key("4801d8"), block_key("4801D8\n"));
        assert_ne!(block_key("4801d8"), block_key("4801c8"));
        // FNV-1a 64 of the empty string.
        assert_eq!(block_key(""), "cbf29ce484222325");
    }

    #[test]
    fn faults_read_as_one_line() {
        let f = Fault {
            signal: "SIGSEGV".into(),
            address: Some(0x10),
            general_protection: false,
            line: Some(1),
            instruction: Some("mov rbx, qword ptr [rax]".into()),
            why: None,
        };
        assert_eq!(
            f.to_string(),
            "SIGSEGV (address 0x10) at line 1: mov rbx, qword ptr [rax]"
        );
        let t = Fault {
            signal: "SIGALRM (timeout)".into(),
            ..Fault::default()
        };
        assert_eq!(t.to_string(), "SIGALRM (timeout): the block did not finish");
    }
}
