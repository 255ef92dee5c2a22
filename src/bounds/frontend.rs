//! Rows 1 (issue width), 10–12 (µop cache, decoders, microcode, LSD) and 13 (taken branches).
//!
//! Facts: SL §3.1 (width in fused µops; AMD: macro-ops and instructions), §3.6 (DSB: one entry
//! of ≤ 6 µops per cycle, a loop in two 32/64-byte windows takes ≥ 2 cycles; MITE: 16 bytes,
//! one decoder for multi-µop instructions; LSD disabled on SKL-CFL), §3.7 (1 taken branch per
//! 2 cycles, 1 per cycle for a tiny loop with a single backward branch).

use std::collections::BTreeMap;

use super::count::Counts;
use super::facts::{
    BoundFacts, DsbFacts, FrontEndSource, IssueWidthFacts, MicrocodeFacts, MiteFacts, MiteTerm,
};
use super::{BoundKind, BoundRow, RowState};
use crate::ir::{BranchKind, Instr};
use crate::uarch::MicroArch;

/// Row 1: fused µops / W, and on AMD instructions / W_instr.
pub(super) fn width_rows(c: &Counts, arch: &MicroArch) -> Vec<BoundRow> {
    let mut rows = Vec::new();
    let fused = c.fused_total();
    let w = arch.issue_width;
    let no_data = !c.any_data() && c.n > 0;
    let (state, cycles) = if no_data || w == 0 {
        (RowState::Unknown, None)
    } else {
        (RowState::Bound, Some(fused as f64 / f64::from(w)))
    };
    let facts = BoundFacts::IssueWidth(IssueWidthFacts {
        no_data,
        fused_uops: fused,
        width: w,
        macro_fused_pairs: c.fused_pairs.clone(),
        estimated_lines: c.estimated.clone(),
    });
    rows.push(
        BoundRow::new(BoundKind::IssueWidth, state, cycles, facts).left_out(c.left_out.clone()),
    );
    if let Some(wi) = arch.issue_width_instructions {
        // Every decoded line counts here, with or without data.
        let n = c.instructions();
        let (state, cycles) = if wi == 0 {
            (RowState::Unknown, None)
        } else {
            (RowState::Bound, Some(n as f64 / f64::from(wi)))
        };
        let facts = BoundFacts::IssueInstructions {
            instructions: n,
            per_cycle: wi,
        };
        rows.push(BoundRow::new(
            BoundKind::IssueInstructions,
            state,
            cycles,
            facts,
        ));
    }
    rows
}

/// Whether the loop streams from the LSD (enabled and small enough).
fn lsd_streams(c: &Counts, arch: &MicroArch) -> bool {
    arch.front_end.lsd == Some(true)
        && arch
            .front_end
            .lsd_uops
            .is_some_and(|cap| c.fused_total() <= u64::from(cap))
}

/// Rows 10–12: µop cache, decoders, microcode sequencer, LSD.
pub(super) fn front_end_rows(instrs: &[Instr], c: &Counts, arch: &MicroArch) -> Vec<BoundRow> {
    let fe = &arch.front_end;
    let lsd = lsd_streams(c, arch);
    let has_dsb = fe.uop_cache_uops.is_some_and(|u| u > 0);
    let fits_dsb = fe
        .uop_cache_uops
        .is_some_and(|cap| c.fused_total() <= u64::from(cap));
    let mut rows = Vec::new();

    // DSB: Σ over the code windows the loop touches of ceil(µops in window / per cycle).
    let dsb = match (fe.uop_cache_window_bytes, fe.uop_cache_uops_per_cycle) {
        _ if !has_dsb => BoundRow::new(
            BoundKind::Dsb,
            RowState::NotApplicable,
            None,
            BoundFacts::Dsb(DsbFacts::NoCache),
        ),
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
                RowState::Info
            } else {
                RowState::Bound
            };
            let facts = DsbFacts::Windows {
                uops: per_window.into_values().collect(),
                window_bytes: win,
                per_cycle: rate,
                looped,
                whole_cycles,
                informational,
            };
            BoundRow::new(BoundKind::Dsb, state, Some(cycles), BoundFacts::Dsb(facts))
                .left_out(c.left_out.clone())
        }
        _ => BoundRow::new(
            BoundKind::Dsb,
            RowState::Unknown,
            None,
            BoundFacts::Dsb(DsbFacts::ParametersUnknown),
        ),
    };
    rows.push(dsb);
    rows.push(mite_row(instrs, c, arch, has_dsb && fits_dsb, lsd));
    rows.push(ms_row(c, arch));
    rows.push(lsd_row(c, arch, lsd));
    rows
}

fn mite_row(instrs: &[Instr], c: &Counts, arch: &MicroArch, dsb: bool, lsd: bool) -> BoundRow {
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
    // One decoder handles multi-µop (and microcoded) instructions: one of them per cycle.
    let complex = (0..c.n)
        .filter(|&i| mite(i).is_some_and(|u| u > 1) || c.ms[i].is_some_and(|u| u > 0))
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
        terms.push(MiteTerm::MultiUop {
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
    let (state, cycles, left_out) = if terms.is_empty() {
        (RowState::Unknown, None, Vec::new())
    } else if informational.is_some() {
        (RowState::Info, Some(max_term(&terms)), c.left_out.clone())
    } else {
        (RowState::Bound, Some(max_term(&terms)), c.left_out.clone())
    };
    let facts = MiteFacts {
        terms,
        bytes,
        instructions: n,
        multi_uop: complex,
        informational,
    };
    BoundRow::new(BoundKind::Mite, state, cycles, BoundFacts::Mite(facts)).left_out(left_out)
}

/// The largest term of the decoders' maximum.
fn max_term(terms: &[MiteTerm]) -> f64 {
    terms
        .iter()
        .map(|t| match t {
            MiteTerm::Bytes { cycles, .. }
            | MiteTerm::Instructions { cycles, .. }
            | MiteTerm::MultiUop { cycles, .. }
            | MiteTerm::Uops { cycles, .. } => *cycles,
        })
        .fold(0.0, f64::max)
}

/// Microcode sequencer: Σ `uops_MS` / MS µops per cycle.
fn ms_row(c: &Counts, arch: &MicroArch) -> BoundRow {
    let lines: Vec<usize> = (0..c.n)
        .filter(|&i| c.ms[i].is_some_and(|u| u > 0))
        .collect();
    let total: u64 = c.ms.iter().flatten().map(|&u| u64::from(u)).sum();
    let no_data = !c.any_data() && c.n > 0;
    let per_cycle = arch.front_end.ms_uops_per_cycle.filter(|&r| r > 0);
    let (state, cycles) = match per_cycle {
        _ if no_data => (RowState::Unknown, None),
        _ if total == 0 => (RowState::Bound, Some(0.0)),
        Some(r) => (RowState::Bound, Some(total as f64 / f64::from(r))),
        None => (RowState::Unknown, None),
    };
    let facts = MicrocodeFacts {
        no_data,
        uops: total,
        lines,
        per_cycle,
    };
    BoundRow::new(
        BoundKind::Microcode,
        state,
        cycles,
        BoundFacts::Microcode(facts),
    )
    .left_out(c.left_out.clone())
}

fn lsd_row(c: &Counts, arch: &MicroArch, streams: bool) -> BoundRow {
    let fe = &arch.front_end;
    let facts = BoundFacts::Lsd {
        enabled: fe.lsd,
        capacity: fe.lsd_uops,
        fused_uops: c.fused_total(),
        streams,
    };
    BoundRow::new(BoundKind::Lsd, RowState::Info, None, facts)
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

/// Row 13: taken branches / per-cycle rate.
pub(super) fn taken_row(instrs: &[Instr], _c: &Counts, arch: &MicroArch) -> BoundRow {
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
        _ if taken == 0 => (RowState::Bound, Some(0.0)),
        Some(r) => (RowState::Bound, Some(taken as f64 / r)),
        None => (RowState::Unknown, None),
    };
    let facts = BoundFacts::TakenBranches {
        lines,
        per_cycle,
        single_backward: single,
    };
    BoundRow::new(BoundKind::TakenBranches, state, cycles, facts)
}
