//! The rate of each part of the front end — µop cache, legacy decoders, microcode
//! sequencer, loop stream detector, taken branches — as SL §3.6–3.7 and the uiCA paper
//! (arXiv 2107.14210) describe them, with the counts and parameters behind each. Computed
//! once per region: the engine's delivery ([`super::delivery`]) reads the parts that bind,
//! the speed limits (`crate::bounds`, rows 10–13) show them.
//!
//! Facts: SL §3.6 (DSB: one entry of ≤ 6 µops per cycle, a loop in two 32/64-byte windows
//! takes ≥ 2 cycles; MITE: 16 bytes, one decoder for multi-µop instructions; LSD disabled on
//! SKL-CFL), §3.7 (1 taken branch per 2 cycles, 1 per cycle for a tiny loop with a single
//! backward branch).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::ir::{BranchKind, Instr};
use crate::pipeline::counts::Counts;
use crate::uarch::MicroArch;

/// Whether a part limits the front end's rate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PartState {
    /// It limits the rate (its cycles are a lower bound).
    Binds,
    /// Computed but another part streams the code (informational).
    Info,
    /// Needs data or parameters that are missing.
    Unknown,
    /// The arch has no such part.
    NotApplicable,
}

/// One part's cycles per iteration and what they came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Part<F> {
    /// Whether it binds.
    pub state: PartState,
    /// Cycles per iteration, if known.
    pub cycles: Option<f64>,
    /// The counts and parameters behind them.
    pub facts: F,
}

impl<F> Part<F> {
    fn new(state: PartState, cycles: Option<f64>, facts: F) -> Self {
        Part {
            state,
            cycles,
            facts,
        }
    }

    /// The cycles if the part binds.
    pub fn binding(&self) -> Option<f64> {
        self.cycles.filter(|_| self.state == PartState::Binds)
    }

    /// The cycles if they are known and the arch has the part (binding or not).
    pub fn known(&self) -> Option<f64> {
        match self.state {
            PartState::Unknown | PartState::NotApplicable => None,
            PartState::Binds | PartState::Info => self.cycles,
        }
    }
}

/// The loop stream detector: whether it streams the loop.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LsdFacts {
    /// Whether the arch has an enabled LSD (`None`: unknown).
    pub enabled: Option<bool>,
    /// Its capacity in µops, if known.
    pub capacity: Option<u32>,
    /// Fused µops of one iteration.
    pub fused_uops: u64,
    /// The loop fits and streams from the µop queue.
    pub streams: bool,
    /// Cycles per iteration the issue groups of a loop with a µop that splits at issue take
    /// (`front_end.split_loop_groups`: [`super::SplitGroups`]); `None` elsewhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split_groups: Option<super::SplitGroups>,
}

/// Taken branches of one iteration.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TakenFacts {
    /// Lines assumed taken.
    pub lines: Vec<usize>,
    /// Taken branches per cycle, if known.
    pub per_cycle: Option<f64>,
    /// The only taken branch is the loop's backward branch (the small-loop rate).
    pub single_backward: bool,
}

/// Every part's rate for one region.
#[derive(Clone, Debug, PartialEq)]
pub struct FrontEndRates {
    /// The µop cache.
    pub dsb: Part<DsbFacts>,
    /// The legacy decoders.
    pub mite: Part<MiteFacts>,
    /// The microcode sequencer.
    pub microcode: Part<MicrocodeFacts>,
    /// The loop stream detector (informational: it streams or it does not).
    pub lsd: LsdFacts,
    /// Taken branches.
    pub taken: Part<TakenFacts>,
}

impl FrontEndRates {
    /// The rates of the region `instrs` (one iteration) with its per-line `c`ounts;
    /// `loop_issue`: it runs as a loop issued by the loop buffer's rules (loop mode, the LSD
    /// modelled), where Redwood Cove's split-loop groups apply.
    pub fn of(instrs: &[Instr], c: &Counts, arch: &MicroArch, loop_issue: bool) -> Self {
        let lsd = lsd_streams(c, arch);
        let fe = &arch.front_end;
        let has_dsb = fe.uop_cache_uops.is_some_and(|u| u > 0);
        let fits_dsb = fe
            .uop_cache_uops
            .is_some_and(|cap| c.fused_total() <= u64::from(cap));
        FrontEndRates {
            dsb: dsb(instrs, c, arch, lsd),
            mite: mite(instrs, c, arch, has_dsb && fits_dsb, lsd),
            microcode: microcode(c, arch),
            lsd: LsdFacts {
                enabled: fe.lsd,
                capacity: fe.lsd_uops,
                fused_uops: c.fused_total(),
                streams: lsd,
                split_groups: loop_issue.then(|| split_groups(c, arch)).flatten(),
            },
            taken: taken(instrs, arch),
        }
    }
}

/// Why a front-end row is informational only.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FrontEndSource {
    /// The loop streams from the LSD.
    Lsd,
    /// The loop runs from the µop cache.
    UopCache,
    /// The loop is larger than the µop cache.
    TooLargeForUopCache,
}

/// Row 10.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DsbFacts {
    /// No µop cache on the arch (or its size is unknown).
    NoCache,
    /// Its window or rate is unknown.
    ParametersUnknown,
    /// The windows the code touches.
    Windows {
        /// Fused µops per window, in address order.
        uops: Vec<u32>,
        /// Window size in bytes.
        window_bytes: u32,
        /// µops per cycle.
        per_cycle: u32,
        /// The region is a loop (else straight-line copies share windows).
        looped: bool,
        /// A loop's iteration takes whole cycles of `per_cycle` µops, at least one per
        /// window (`front_end.uop_cache_whole_cycles`), not a window's fraction.
        whole_cycles: bool,
        /// Why the row is informational, if it is.
        informational: Option<FrontEndSource>,
    },
}

/// One term of the decoders' `max(...)`, with its cycles.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "term", rename_all = "snake_case")]
pub enum MiteTerm {
    /// Bytes / bytes per cycle, plus length-changing-prefix stalls.
    Bytes {
        /// Code bytes.
        bytes: usize,
        /// Bytes decoded per cycle.
        per_cycle: u32,
        /// Instructions with a length-changing prefix.
        lcp: usize,
        /// Stall per LCP, cycles.
        lcp_penalty: u32,
        /// The term's cycles.
        cycles: f64,
    },
    /// Instructions / decoders.
    Instructions {
        /// Instructions, a macro-fused pair once.
        instructions: usize,
        /// Decoders.
        decoders: u32,
        /// The term's cycles.
        cycles: f64,
    },
    /// Instructions that need the complex decoder (more than one µop, microcoded, or marked
    /// by the data): one per cycle. (Its JSON name is the older `multi_uop`.)
    #[serde(rename = "multi_uop")]
    ComplexDecoder {
        /// Such instructions.
        instructions: usize,
        /// The term's cycles.
        cycles: f64,
    },
    /// µops / decoder µops per cycle.
    Uops {
        /// µops from the decoders.
        uops: u64,
        /// µops per cycle.
        per_cycle: u32,
        /// The term's cycles.
        cycles: f64,
    },
}

/// Row 11 (decoders).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MiteFacts {
    /// The terms of the maximum; empty when the decoder parameters are unknown.
    pub terms: Vec<MiteTerm>,
    /// Code bytes.
    pub bytes: usize,
    /// Instructions, a macro-fused pair once.
    pub instructions: usize,
    /// Instructions that need the complex decoder (see [`MiteTerm::ComplexDecoder`]; JSON
    /// `multi_uop`).
    #[serde(rename = "multi_uop")]
    pub complex_decoder: usize,
    /// Why the row is informational, if it is.
    pub informational: Option<FrontEndSource>,
}

/// Row 11 (microcode sequencer).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MicrocodeFacts {
    /// No line has data.
    pub no_data: bool,
    /// µops from the sequencer per iteration.
    pub uops: u64,
    /// Lines with sequencer µops.
    pub lines: Vec<usize>,
    /// Sequencer µops per cycle, if known.
    pub per_cycle: Option<u32>,
}

/// [`LsdFacts::split_groups`]: on an arch with `front_end.split_loop_groups`, where a line
/// takes more issue slots than the decoders' and the sequencer's µops (an un-laminated
/// load+op or store), for a region that runs as a loop ([`FrontEndRates::of`]).
fn split_groups(c: &Counts, arch: &MicroArch) -> Option<super::SplitGroups> {
    if arch.front_end.split_loop_groups != Some(true) {
        return None;
    }
    let splits = (0..c.n).any(|i| match (c.slots[i], c.mite[i], c.ms[i]) {
        (Some(s), Some(m), Some(ms)) => s > m + ms,
        _ => false,
    });
    if !splits {
        return None;
    }
    super::lsd::split_loop_groups(c.fused_total(), arch.issue_width)
}

/// Whether the loop streams from the LSD (enabled and small enough).
fn lsd_streams(c: &Counts, arch: &MicroArch) -> bool {
    arch.front_end.lsd == Some(true)
        && arch
            .front_end
            .lsd_uops
            .is_some_and(|cap| c.fused_total() <= u64::from(cap))
}

/// The µop cache: Σ over the code windows the loop touches of its µops' cycles.
fn dsb(instrs: &[Instr], c: &Counts, arch: &MicroArch, lsd: bool) -> Part<DsbFacts> {
    let fe = &arch.front_end;
    let has_dsb = fe.uop_cache_uops.is_some_and(|u| u > 0);
    let fits_dsb = fe
        .uop_cache_uops
        .is_some_and(|cap| c.fused_total() <= u64::from(cap));
    // DSB: Σ over the code windows the loop touches of ceil(µops in window / per cycle).
    match (fe.uop_cache_window_bytes, fe.uop_cache_uops_per_cycle) {
        _ if !has_dsb => Part::new(PartState::NotApplicable, None, DsbFacts::NoCache),
        (Some(win), Some(rate)) if win > 0 && rate > 0 => {
            let mut per_window: BTreeMap<u64, u32> = BTreeMap::new();
            for (i, instr) in instrs.iter().enumerate() {
                // An instruction belongs to the window of its first byte.
                *per_window
                    .entry(instr.address / u64::from(win))
                    .or_default() += c.slots[i].unwrap_or(0);
            }
            // At least one cycle per window (a window is read in its own cycle), and at most
            // `rate` µops per cycle. SL rounds to whole 6-µop entries (ceil); that would put
            // the 7-µop gcc loop of SL §3.3 at 2 cycles while it measures 1.81 on SKL, so the
            // bound keeps the fraction. Straight-line copies that follow each other (no
            // branch back to the start) share windows: a copy costs its share of a window.
            let looped = crate::cfg::is_loop(instrs);
            let whole_cycles = looped && fe.uop_cache_whole_cycles == Some(true);
            let cycles: f64 = if whole_cycles {
                // Zen 4 (measured): whole cycles of `rate` µops an iteration (the taken back
                // branch ends the last one), and a cycle for each window the loop touches.
                let uops: u32 = per_window.values().sum();
                f64::from(uops.div_ceil(rate)).max(per_window.len() as f64)
            } else if looped {
                per_window
                    .values()
                    .map(|&u| (f64::from(u) / f64::from(rate)).max(1.0))
                    .sum()
            } else {
                let bytes: usize = instrs.iter().map(|i| i.bytes.len()).sum();
                let uops: u32 = per_window.values().sum();
                (f64::from(uops) / f64::from(rate)).max(bytes as f64 / f64::from(win))
            };
            let informational = if lsd {
                Some(FrontEndSource::Lsd)
            } else if !fits_dsb {
                Some(FrontEndSource::TooLargeForUopCache)
            } else {
                None
            };
            let state = if informational.is_some() {
                PartState::Info
            } else {
                PartState::Binds
            };
            let facts = DsbFacts::Windows {
                uops: per_window.into_values().collect(),
                window_bytes: win,
                per_cycle: rate,
                looped,
                whole_cycles,
                informational,
            };
            Part::new(state, Some(cycles), facts)
        }
        _ => Part::new(PartState::Unknown, None, DsbFacts::ParametersUnknown),
    }
}

/// The legacy decoders: the largest of bytes, instructions, multi-µop instructions and µops
/// against their rates.
fn mite(instrs: &[Instr], c: &Counts, arch: &MicroArch, dsb: bool, lsd: bool) -> Part<MiteFacts> {
    let fe = &arch.front_end;
    let bytes: usize = instrs.iter().map(Instr::len).sum();
    let n = c.instructions();
    // µops from the decoders: `uops_MITE`, a macro-fused pair as its fused slots.
    let in_pair = |i: usize| c.is_fused_jcc(i) || c.fused_pairs.binary_search(&i).is_ok();
    let mite = |i: usize| {
        if in_pair(i) {
            c.slots[i]
        } else {
            c.mite[i]
        }
    };
    let uops: u64 = (0..c.n).filter_map(mite).map(u64::from).sum();
    // One decoder handles the complex instructions (and a macro-fused pair of more than one
    // µop): one of them per cycle.
    let complex = (0..c.n)
        .filter(|&i| {
            c.complex.binary_search(&i).is_ok() || (in_pair(i) && mite(i).is_some_and(|u| u > 1))
        })
        .count();
    let mut terms: Vec<MiteTerm> = Vec::new();
    // Length-changing prefixes stall the predecoder (uiCA paper, Agner Fog).
    let lcp = instrs.iter().filter(|i| i.has_lcp()).count();
    let penalty = fe.lcp_penalty.unwrap_or(0);
    if let Some(b) = fe.decode_bytes_per_cycle.filter(|&b| b > 0) {
        let stall = (lcp as u64 * u64::from(penalty)) as f64;
        terms.push(MiteTerm::Bytes {
            bytes,
            per_cycle: b,
            lcp,
            lcp_penalty: penalty,
            cycles: bytes as f64 / f64::from(b) + stall,
        });
    }
    if let Some(d) = fe.decoders.filter(|&d| d > 0) {
        terms.push(MiteTerm::Instructions {
            instructions: n,
            decoders: d,
            cycles: n as f64 / f64::from(d),
        });
    }
    if fe.decoders.is_some() {
        terms.push(MiteTerm::ComplexDecoder {
            instructions: complex,
            cycles: complex as f64,
        });
    }
    if let Some(r) = fe.mite_uops_per_cycle.filter(|&r| r > 0) {
        terms.push(MiteTerm::Uops {
            uops,
            per_cycle: r,
            cycles: uops as f64 / f64::from(r),
        });
    }
    let informational = if lsd {
        Some(FrontEndSource::Lsd)
    } else if dsb {
        Some(FrontEndSource::UopCache)
    } else {
        None
    };
    let (state, cycles) = if terms.is_empty() {
        (PartState::Unknown, None)
    } else if informational.is_some() {
        (PartState::Info, Some(max_term(&terms)))
    } else {
        (PartState::Binds, Some(max_term(&terms)))
    };
    let facts = MiteFacts {
        terms,
        bytes,
        instructions: n,
        complex_decoder: complex,
        informational,
    };
    Part::new(state, cycles, facts)
}

/// The largest term of the decoders' maximum.
fn max_term(terms: &[MiteTerm]) -> f64 {
    terms
        .iter()
        .map(|t| match t {
            MiteTerm::Bytes { cycles, .. }
            | MiteTerm::Instructions { cycles, .. }
            | MiteTerm::ComplexDecoder { cycles, .. }
            | MiteTerm::Uops { cycles, .. } => *cycles,
        })
        .fold(0.0, f64::max)
}

/// Microcode sequencer: Σ `uops_MS` / MS µops per cycle.
fn microcode(c: &Counts, arch: &MicroArch) -> Part<MicrocodeFacts> {
    let lines: Vec<usize> = (0..c.n)
        .filter(|&i| c.ms[i].is_some_and(|u| u > 0))
        .collect();
    let total: u64 = c.ms.iter().flatten().map(|&u| u64::from(u)).sum();
    let no_data = !c.any_data() && c.n > 0;
    let per_cycle = arch.front_end.ms_uops_per_cycle.filter(|&r| r > 0);
    let (state, cycles) = match per_cycle {
        _ if no_data => (PartState::Unknown, None),
        _ if total == 0 => (PartState::Binds, Some(0.0)),
        Some(r) => (PartState::Binds, Some(total as f64 / f64::from(r))),
        None => (PartState::Unknown, None),
    };
    let facts = MicrocodeFacts {
        no_data,
        uops: total,
        lines,
        per_cycle,
    };
    Part::new(state, cycles, facts)
}

/// How many taken branches one iteration has, and whether it is a single backward branch.
///
/// Unconditional jumps, calls, returns and indirect jumps are taken; a conditional branch is
/// assumed taken only when it goes backward (the loop branch); forward conditional branches are
/// assumed not taken (their outcome is not known statically).
fn taken_branches(instrs: &[Instr]) -> (usize, bool, Vec<usize>) {
    let mut lines = Vec::new();
    let mut single_backward = true;
    for (i, instr) in instrs.iter().enumerate() {
        let (taken, backward) = match instr.branch {
            BranchKind::None => (false, false),
            BranchKind::Conditional { target } => (target <= instr.address, true),
            BranchKind::Jump { target } => (true, target <= instr.address),
            BranchKind::IndirectJump | BranchKind::Call | BranchKind::Return => (true, false),
        };
        if taken {
            lines.push(i);
            single_backward &= backward;
        }
    }
    let single = lines.len() == 1 && single_backward;
    (lines.len(), single, lines)
}

/// Taken branches / per-cycle rate.
fn taken(instrs: &[Instr], arch: &MicroArch) -> Part<TakenFacts> {
    let fe = &arch.front_end;
    let (taken, single, lines) = taken_branches(instrs);
    let rate = if single {
        fe.small_loop_taken_branches_per_cycle
            .or(fe.taken_branches_per_cycle)
    } else {
        fe.taken_branches_per_cycle
    };
    let per_cycle = rate.filter(|r| *r > 0.0);
    let (state, cycles) = match per_cycle {
        _ if taken == 0 => (PartState::Binds, Some(0.0)),
        Some(r) => (PartState::Binds, Some(taken as f64 / r)),
        None => (PartState::Unknown, None),
    };
    let facts = TakenFacts {
        lines,
        per_cycle,
        single_backward: single,
    };
    Part::new(state, cycles, facts)
}
