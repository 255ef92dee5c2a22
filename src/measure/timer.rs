//! Time base: core cycles read with `rdpmc` from a `perf_event_open` cycles counter when the
//! PMU is there and its mmap page allows user `rdpmc`, otherwise the TSC. Either clock is
//! calibrated against a dependent 1-cycle `add` chain (before and after every child run) and
//! cross-checked with a 3-cycle `imul` chain (with core cycles the ratio comes out at 1) and
//! with three independent `add` chains, one cycle for the three: a latency chain keeps its
//! speed when another thread shares the core, a kernel that needs three ALUs a cycle does not
//! (on this project's VM, loops read up to 1.9x slow while both chains were right).
//!
//! The acceptance logic is pure ([`Calibration::check`]) so it is unit-tested everywhere.

use serde::{Deserialize, Serialize};

/// Which clock the measurements use.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TimeBase {
    /// Core cycles: `rdpmc` in the generated code on a `perf_event_open` cycles counter.
    Rdpmc,
    /// TSC ticks converted with a calibration ratio. `perf_error` says why perf was not used.
    Tsc {
        /// Why the core-cycle counter is unavailable.
        perf_error: String,
    },
}

impl TimeBase {
    /// Short description for provenance attributes.
    pub fn describe(&self) -> String {
        match self {
            TimeBase::Rdpmc => {
                "core cycles read with rdpmc (perf_event_open), checked against a 1-cycle add and a 3-cycle imul chain and three independent add chains".into()
            }
            TimeBase::Tsc { .. } => {
                "TSC calibrated per child against a 1-cycle add chain, checked with a 3-cycle imul chain and three independent add chains (one cycle for three adds)"
                    .into()
            }
        }
    }
}

/// Limits of an acceptable calibration.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct CalibrationLimits {
    /// Maximum relative difference of the add chain before and after (0.02 = 2%).
    pub max_drift: f64,
    /// Expected imul chain latency in cycles.
    pub imul_expected: f64,
    /// Allowed deviation of the imul chain from `imul_expected`, in cycles.
    pub imul_tolerance: f64,
    /// Expected cycles of three independent add chains' three adds (every x86 core since
    /// Nehalem has at least three integer ALUs).
    pub alus_expected: f64,
    /// Allowed deviation of the three chains from `alus_expected`, relative.
    pub alus_tolerance: f64,
}

impl Default for CalibrationLimits {
    fn default() -> Self {
        CalibrationLimits {
            max_drift: 0.02,
            imul_expected: 3.0,
            imul_tolerance: 0.05,
            alus_expected: 1.0,
            alus_tolerance: 0.03,
        }
    }
}

/// One calibration: TSC ticks per link of the add chain before and after the benchmarks, and
/// ticks per link of the imul chain.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    /// Ticks per `add` (1 cycle) before.
    pub add_before: f64,
    /// Ticks per `add` after.
    pub add_after: f64,
    /// Ticks per `imul` (3 cycles).
    pub imul: f64,
    /// Ticks per three independent `add`s (1 cycle).
    pub alus: f64,
}

/// Why a calibration was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CalibrationError {
    /// The add chain drifted between before and after.
    #[error("core clock unstable: 1-cycle add chain took {before:.4} then {after:.4} TSC ticks ({drift:.1}% apart, limit {limit:.1}%)")]
    Drift {
        /// Ticks per add before.
        before: f64,
        /// Ticks per add after.
        after: f64,
        /// Relative drift in percent.
        drift: f64,
        /// Limit in percent.
        limit: f64,
    },
    /// The imul chain did not come out at 3 cycles.
    #[error("calibration cross-check failed: imul r64 chain measured {cycles:.3} cycles, expected {expected} ± {tol}")]
    Imul {
        /// Measured cycles.
        cycles: f64,
        /// Expected.
        expected: f64,
        /// Tolerance.
        tol: f64,
    },
    /// Three independent add chains did not run at three adds a cycle.
    #[error("the core's ALUs are shared: three independent add chains took {cycles:.3} cycles per three adds, expected {expected} ± {pct:.0}% (another thread on this core?)")]
    Contended {
        /// Measured cycles.
        cycles: f64,
        /// Expected.
        expected: f64,
        /// Tolerance in percent.
        pct: f64,
    },
    /// The processes' results for one block still disagreed after the extra processes: a
    /// host whose load came and went while it was timed.
    #[error("its {processes} processes disagreed ({low:.3} to {high:.3} cycles, more than {pct:.0}% apart, and no two agreed on the fastest): the host is busy")]
    Disagree {
        /// Fastest process's value.
        low: f64,
        /// Slowest process's value.
        high: f64,
        /// Processes run.
        processes: usize,
        /// Agreement tolerance in percent.
        pct: f64,
    },
    /// Non-positive or non-finite values.
    #[error("calibration produced no usable value (add {0:.4} ticks)")]
    Invalid(f64),
}

impl CalibrationError {
    /// A busy host rather than a broken clock: every reading is within a factor of two of
    /// what a quiet core gives (a thread sharing the core at most halves its ALUs; seen:
    /// three add chains 1.49 cycles, a frequency step of 6%). A broken clock (a zero, an
    /// overwritten mask) reads far off, and callers must not treat it as noise.
    pub fn is_noise(&self) -> bool {
        let near = |got: f64, want: f64| got.is_finite() && (0.5..=2.0).contains(&(got / want));
        match *self {
            CalibrationError::Drift { before, after, .. } => near(after, before),
            CalibrationError::Imul {
                cycles, expected, ..
            }
            | CalibrationError::Contended {
                cycles, expected, ..
            } => near(cycles, expected),
            // Each process passed its own clock check; only their results differ.
            CalibrationError::Disagree { .. } => true,
            CalibrationError::Invalid(_) => false,
        }
    }
}

/// Wait before the `n`-th retry of a refused calibration: 0.5 s, doubling up to 16 s, so a
/// burst of load elsewhere on the host can pass.
pub fn calibration_backoff(n: u32) -> std::time::Duration {
    std::time::Duration::from_millis(250 << n.clamp(1, 6))
}

impl Calibration {
    /// Core cycles per TSC tick when the calibration is acceptable.
    pub fn check(&self, lim: &CalibrationLimits) -> Result<f64, CalibrationError> {
        let ok = |x: f64| x.is_finite() && x > 0.0;
        if !ok(self.add_before) || !ok(self.add_after) || !ok(self.imul) || !ok(self.alus) {
            return Err(CalibrationError::Invalid(self.add_before));
        }
        let drift = (self.add_after - self.add_before).abs() / self.add_before;
        if drift > lim.max_drift {
            return Err(CalibrationError::Drift {
                before: self.add_before,
                after: self.add_after,
                drift: drift * 100.0,
                limit: lim.max_drift * 100.0,
            });
        }
        let ticks_per_cycle = (self.add_before + self.add_after) / 2.0;
        let imul_cycles = self.imul / ticks_per_cycle;
        if (imul_cycles - lim.imul_expected).abs() > lim.imul_tolerance {
            return Err(CalibrationError::Imul {
                cycles: imul_cycles,
                expected: lim.imul_expected,
                tol: lim.imul_tolerance,
            });
        }
        let alus_cycles = self.alus / ticks_per_cycle;
        if (alus_cycles / lim.alus_expected - 1.0).abs() > lim.alus_tolerance {
            return Err(CalibrationError::Contended {
                cycles: alus_cycles,
                expected: lim.alus_expected,
                pct: lim.alus_tolerance * 100.0,
            });
        }
        Ok(1.0 / ticks_per_cycle)
    }
}

/// The clock the generated code reads.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Clock {
    /// `rdtsc`.
    #[default]
    Tsc,
    /// `rdpmc` with the counter index stored in the data area.
    Rdpmc,
}

impl TimeBase {
    /// The clock kernels read.
    pub fn clock(&self) -> Clock {
        match self {
            TimeBase::Rdpmc => Clock::Rdpmc,
            TimeBase::Tsc { .. } => Clock::Tsc,
        }
    }
}

/// What the mmap page of a perf event (`struct perf_event_mmap_page`) says about user-space
/// `rdpmc`: the counter number to pass in ECX (`index − 1`), or why it cannot be used.
/// Layout: `index` is the u32 at byte 12, `capabilities` the u64 at byte 40 with
/// `cap_user_rdpmc` in bit 2, `pmc_width` the u16 at byte 48.
pub fn rdpmc_counter(page: &[u8]) -> Result<(u32, u32), super::RdpmcError> {
    if page.len() < 56 {
        return Err(super::RdpmcError::PageTooShort);
    }
    let u32_at = |o: usize| u32::from_le_bytes(page[o..o + 4].try_into().expect("4 bytes"));
    let caps = u64::from_le_bytes(page[40..48].try_into().expect("8 bytes"));
    let width = u16::from_le_bytes(page[48..50].try_into().expect("2 bytes")) as u32;
    if caps >> 2 & 1 == 0 {
        return Err(super::RdpmcError::NotAllowed);
    }
    match u32_at(12) {
        0 => Err(super::RdpmcError::Inactive),
        i => Ok((i - 1, width.clamp(1, 64))),
    }
}

/// Median of a non-empty slice (NaN-free); `None` if empty.
pub fn median(v: &[f64]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.total_cmp(b));
    let n = s.len();
    Some(if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    })
}

/// Relative spread `(max − min) / median` of per-process results.
pub fn spread(v: &[f64]) -> f64 {
    if v.len() < 2 {
        return 0.0;
    }
    let lo = v.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi = v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let m = median(v).unwrap_or(0.0).abs().max(1e-9);
    (hi - lo) / m
}

/// The value of per-process results, and whether it is settled. Noise (another process, an
/// interrupt, the other core's load) only slows a benchmark down, so a result is the median of
/// the values within `tol` (relative) of the smallest one, settled once a second value
/// confirms the smallest. Values that all agree keep their plain median. Unsettled: the
/// lowest confirmed cluster, else the median of all (the caller measures again).
pub fn consensus(v: &[f64], tol: f64) -> Option<(f64, bool)> {
    if v.len() < 2 || spread(v) <= tol {
        return median(v).map(|m| (m, true));
    }
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.total_cmp(b));
    for i in 0..s.len() - 1 {
        let band = s[i] + tol * s[i].abs();
        if s[i + 1] <= band {
            let cluster: Vec<f64> = s[i..].iter().copied().take_while(|x| *x <= band).collect();
            return median(&cluster).map(|m| (m, i == 0));
        }
    }
    median(&s).map(|m| (m, false))
}

/// Whether per-process results `v` are settled ([`consensus`]; none yet counts as settled).
pub fn settled(v: &[f64], tol: f64) -> bool {
    consensus(v, tol).is_none_or(|(_, ok)| ok)
}

/// Rounds like uops.info's `fancyRound`: to a multiple of 1/5, 1/4 or 1/3 when within 0.015
/// (tried in that order), otherwise to two decimals.
pub fn fancy_round(x: f64) -> f64 {
    for d in [5.0, 4.0, 3.0] {
        let r = (x * d).round() / d;
        if (r - x).abs() <= 0.015 {
            return r;
        }
    }
    (x * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calibration_backoff_grows_to_a_minute() {
        assert_eq!(calibration_backoff(1).as_millis(), 500);
        assert_eq!(calibration_backoff(2).as_millis(), 1000);
        assert_eq!(calibration_backoff(9).as_millis(), 16_000);
        let total: u128 = (1..=8).map(|n| calibration_backoff(n).as_millis()).sum();
        assert!((50_000..=80_000).contains(&total), "{total}");
    }

    /// What a busy VM host gave on a Zen 3 (family 25 model 1) is noise; a clock that reads
    /// near zero or ten times off is not.
    #[test]
    fn noise_is_told_from_a_broken_clock() {
        let lim = CalibrationLimits::default();
        let cal = |add_before, add_after, imul, alus| Calibration {
            add_before,
            add_after,
            imul,
            alus,
        };
        let noise = [
            cal(0.7503, 0.7752, 2.25, 0.75),
            cal(0.75, 0.75, 2.17, 0.75),
            cal(0.75, 0.75, 2.25, 0.88),
            cal(0.75, 0.75, 2.25, 1.115),
        ];
        for c in noise {
            let e = c.check(&lim).unwrap_err();
            assert!(e.is_noise(), "{e}");
        }
        // Processes that each passed their clock check and still disagree: a busy host.
        let disagree = CalibrationError::Disagree {
            low: 1.0,
            high: 1.73,
            processes: 9,
            pct: 2.0,
        };
        assert!(disagree.is_noise());
        assert!(disagree
            .to_string()
            .contains("9 processes disagreed (1.000 to 1.730"));
        let broken = [
            cal(0.0, 0.75, 2.25, 0.75),
            cal(0.75, 0.02, 2.25, 0.75),
            cal(0.75, 0.75, 22.5, 0.75),
            cal(0.75, 0.75, 2.25, 0.01),
            cal(0.75, 0.75, 2.25, 1.6),
        ];
        for c in broken {
            let e = c.check(&lim).unwrap_err();
            assert!(!e.is_noise(), "{e}");
        }
    }

    #[test]
    fn accepts_stable_calibration() {
        let c = Calibration {
            add_before: 0.7027,
            add_after: 0.7030,
            imul: 2.109,
            alus: 0.703,
        };
        let cpt = c.check(&CalibrationLimits::default()).unwrap();
        assert!((cpt - 1.4229).abs() < 0.001, "{cpt}");
    }

    #[test]
    fn refuses_drift() {
        let c = Calibration {
            add_before: 0.70,
            add_after: 0.73,
            imul: 2.1,
            alus: 0.70,
        };
        assert!(matches!(
            c.check(&CalibrationLimits::default()),
            Err(CalibrationError::Drift { .. })
        ));
    }

    #[test]
    fn refuses_bad_imul() {
        // Double-pumped ALU (X-Ray's Pentium 4 case): add appears at half a cycle.
        let c = Calibration {
            add_before: 0.35,
            add_after: 0.35,
            imul: 2.1,
            alus: 0.70,
        };
        let e = c.check(&CalibrationLimits::default()).unwrap_err();
        assert!(matches!(e, CalibrationError::Imul { .. }), "{e}");
        assert!(e.to_string().contains("imul"));
    }

    #[test]
    fn refuses_shared_alus() {
        // Both chains right, three independent chains at 1.9 cycles: the ALUs are shared.
        let c = Calibration {
            add_before: 0.7027,
            add_after: 0.7030,
            imul: 2.109,
            alus: 1.336,
        };
        let e = c.check(&CalibrationLimits::default()).unwrap_err();
        assert!(matches!(e, CalibrationError::Contended { .. }), "{e}");
        assert!(e.to_string().contains("1.901 cycles"), "{e}");
        // 2% slow passes.
        let ok = Calibration { alus: 0.717, ..c };
        assert!(ok.check(&CalibrationLimits::default()).is_ok());
    }

    #[test]
    fn refuses_garbage() {
        let c = Calibration {
            add_before: 0.0,
            add_after: 0.7,
            imul: 2.1,
            alus: 0.70,
        };
        assert!(c.check(&CalibrationLimits::default()).is_err());
    }

    #[test]
    fn median_and_spread() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[1.0, 2.0]), Some(1.5));
        assert_eq!(median(&[]), None);
        assert!((spread(&[1.0, 1.01, 1.02]) - 0.02 / 1.01).abs() < 1e-9);
    }

    #[test]
    fn consensus_of_processes() {
        // Agreeing values: the plain median.
        assert_eq!(consensus(&[1.0, 1.01, 1.005], 0.02), Some((1.005, true)));
        // Two of three slowed down: unsettled (their cluster for now).
        assert_eq!(consensus(&[0.5, 0.86, 0.87], 0.02), Some((0.865, false)));
        // More processes confirm the smallest: the fast cluster wins.
        let (v, ok) = consensus(&[0.5, 0.86, 0.87, 0.501, 0.502], 0.02).unwrap();
        assert!(ok && (v - 0.501).abs() < 1e-12);
        // A lone low value never confirmed: the lowest confirmed cluster, not settled.
        assert_eq!(
            consensus(&[0.3, 0.5, 0.502, 0.9], 0.02),
            Some((0.501, false))
        );
        assert_eq!(consensus(&[], 0.02), None);
        assert_eq!(consensus(&[2.0], 0.02), Some((2.0, true)));
        // The profiler's loop in CI on a busy Zen 3: two of three processes at 1.73.
        assert!(!settled(&[1.7295, 1.0, 1.73], 0.02));
        assert!(settled(&[1.7295, 1.0, 1.73, 1.003], 0.02));
        assert!(settled(&[], 0.02));
    }

    #[test]
    fn rdpmc_from_the_mmap_page() {
        let mut page = vec![0u8; 4096];
        assert!(rdpmc_counter(&page)
            .unwrap_err()
            .to_string()
            .contains("cap_user_rdpmc"));
        page[40] = 1 << 2; // cap_user_rdpmc
        assert!(rdpmc_counter(&page)
            .unwrap_err()
            .to_string()
            .contains("index 0"));
        page[12] = 0x21; // fixed counter 1 | 1<<30 would be the kernel's encoding; any index
        page[48] = 48;
        assert_eq!(rdpmc_counter(&page), Ok((0x20, 48)));
        assert!(rdpmc_counter(&page[..20]).is_err());
        assert_eq!(TimeBase::Rdpmc.clock(), Clock::Rdpmc);
        assert_eq!(
            TimeBase::Tsc {
                perf_error: "no PMU".into()
            }
            .clock(),
            Clock::Tsc
        );
    }

    #[test]
    fn fancy_rounding() {
        assert_eq!(fancy_round(0.251), 0.25);
        assert_eq!(fancy_round(0.334), 1.0 / 3.0);
        assert_eq!(fancy_round(0.198), 0.2);
        assert_eq!(fancy_round(0.4567), 0.46);
    }
}
