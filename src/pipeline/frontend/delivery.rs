//! The front end's delivery rate: the cycles per iteration its binding part needs — the µop
//! cache, or the legacy decoders (predecoder bytes, decoders, length-changing-prefix stalls),
//! the microcode sequencer, the loop stream detector and taken branches — from the front
//! end's rates ([`super::rates`], per the uiCA paper, arXiv 2107.14210, and SL §3.6–3.7;
//! the speed limits show the same rates). On Intel the front-end unit replaces the parts it
//! models: the legacy decoders for unrolled code, the LSD, µop cache and decoders for loops
//! ([`UnitCycles`]). The engine
//! then loads an iteration no sooner than the front end delivered it; the issue width stays
//! the engine's own limit.

use super::rates::FrontEndRates;
use super::{self as frontend, Branch, Item, Layout, LoopFrontEnd, LoopParams, Params, Source};
use crate::db::InstrDesc;
use crate::ir::{BranchKind, Instr};
use crate::pipeline::ModelOptions;
use crate::sim::Delivery;
use crate::uarch::{MicroArch, Vendor};

/// The front-end unit's cycles per iteration ([`crate::pipeline::frontend`]).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum UnitCycles {
    /// Unrolled code: the legacy decoders' (they stand in for the decoders' row).
    Legacy(f64),
    /// A loop: the part that streams it (it stands in for the µop cache, decoders,
    /// microcode and LSD; taken branches still bind unless the LSD streams).
    Loop(LoopFrontEnd),
}

impl UnitCycles {
    /// The legacy decoders' cycles of unrolled code.
    pub fn legacy(self) -> Option<f64> {
        match self {
            UnitCycles::Legacy(c) => Some(c),
            UnitCycles::Loop(_) => None,
        }
    }
}

/// Cycles per iteration of the binding front-end part, if any binds; `unit`, the front-end
/// unit's cycles, stands in for the parts it models (see [`UnitCycles`]).
pub fn period(fe: &FrontEndRates, unit: Option<UnitCycles>) -> Option<f64> {
    // Issue groups of a loop with a µop that splits at issue (Redwood Cove).
    let split = fe.lsd.split_groups.map(|g| g.cycles());
    if let Some(UnitCycles::Loop(l)) = unit {
        let taken = if l.source == Source::Lsd {
            None
        } else {
            fe.taken.binding()
        };
        return [Some(l.cycles), taken, split]
            .into_iter()
            .flatten()
            .reduce(f64::max);
    }
    // The decoders' part binds as the average rates have it; the unit says how fast.
    let mite = fe
        .mite
        .binding()
        .map(|c| unit.and_then(UnitCycles::legacy).unwrap_or(c));
    [
        fe.dsb.binding(),
        mite,
        fe.microcode.binding(),
        fe.taken.binding(),
        split,
    ]
    .into_iter()
    .flatten()
    .reduce(f64::max)
}

/// The delivery the engine enforces: the period, with the instruction queue as the distance
/// the front end may run ahead (queue µops / issue width cycles). `unit`: see [`period`].
pub fn delivery(
    fe: &FrontEndRates,
    arch: &MicroArch,
    unit: Option<UnitCycles>,
) -> Option<Delivery> {
    let p = period(fe, unit)?;
    let queue = arch.front_end.idq_uops.unwrap_or(arch.issue_width * 16);
    let ahead = u64::from(queue / arch.issue_width.max(1));
    Delivery::every(p, ahead)
}

/// The delivery of code unrolled with no loop (BHive's measurement, `suaca profile`): no
/// taken branch and no loop stream.
///
/// Which part streams the copies: on Intel the legacy decoders — the µop cache holds at most
/// 3 ways of 6 µops per 32-byte window, which unrolled dense code overflows (measured on the
/// BHive development split: MAPE 10.6% with the decoders against 12.4% with the µop cache
/// wherever the copies fit its capacity). On AMD the op cache, while the copies (`fused`
/// µops each) fit it: it has no such per-window limit in our descriptions, and our Zen 4
/// profile keeps the unrolled body within it. The microcode sequencer limits either way.
/// `legacy`, the front-end unit's cycles (which include the MS), replaces both on Intel.
pub fn unrolled_delivery(
    rates: &FrontEndRates,
    arch: &MicroArch,
    fused: u64,
    copies: u32,
    legacy: Option<f64>,
) -> Option<Delivery> {
    let fe = &arch.front_end;
    let op_cache = match (arch.vendor, fe.uop_cache_uops, fe.uop_cache_uops_per_cycle) {
        (Vendor::Amd, Some(cap), Some(rate))
            if rate > 0 && fused * u64::from(copies) <= u64::from(cap) =>
        {
            Some(fused as f64 / f64::from(rate))
        }
        _ => None,
    };
    let stream = op_cache.or_else(|| rates.mite.known());
    let p = match legacy {
        Some(l) if op_cache.is_none() => l,
        _ => [stream, rates.microcode.known()]
            .into_iter()
            .flatten()
            .reduce(f64::max)?,
    };
    let queue = fe.idq_uops.unwrap_or(arch.issue_width * 16);
    Delivery::every(p, u64::from(queue / arch.issue_width.max(1)))
}

/// The front-end unit's cycles per iteration for the region, if the model asks for the unit
/// and the arch has its parameters (Intel cores uiCA describes): the legacy decoders for
/// unrolled code; for a loop, the LSD, the µop cache or the decoders ([`frontend::loop_cycles`]).
pub fn unit_cycles(
    instrs: &[Instr],
    descs: &[Option<InstrDesc>],
    arch: &MicroArch,
    model: ModelOptions,
    layout: Layout,
) -> Option<UnitCycles> {
    if !(model.frontend && model.frontend_unit) {
        return None;
    }
    let items = legacy_items(instrs, descs, arch, model);
    // Blocks start at their address' offset in a 64-byte line (BHive's: 0, i.e. aligned),
    // or where the user puts them.
    let start = match model.alignment_offset {
        Some(o) => u64::from(o),
        None => instrs.first().map_or(0, |i| i.address % 64),
    };
    match layout {
        Layout::Unrolled => {
            let params = Params::of(arch)?;
            frontend::cycles_per_iteration(&items, start, layout, &params).map(UnitCycles::Legacy)
        }
        Layout::Loop => {
            let params = LoopParams::of(arch, model.dsb, model.jcc_erratum, model.lsd)?;
            frontend::loop_cycles(&items, start, &params).map(UnitCycles::Loop)
        }
    }
}

/// The legacy front end's view of the region's instructions (see [`crate::pipeline::frontend`]):
/// lengths and offsets, µops from the decoders and the MS, and the macro-fused pairs under
/// the same rule as the program's (uops.info `macro_fusible`).
pub fn legacy_items(
    instrs: &[Instr],
    descs: &[Option<InstrDesc>],
    arch: &MicroArch,
    model: ModelOptions,
) -> Vec<Item> {
    let start = instrs.first().map_or(0, |i| i.address);
    let fusion = model.macro_fusion && arch.fusion.macro_fusion != Some(false);
    let desc = |i: usize| descs.get(i).and_then(Option::as_ref);
    let mut items: Vec<Item> = instrs
        .iter()
        .enumerate()
        .map(|(i, instr)| {
            let (uops, ms, fusible) = desc(i).map_or((1, 0, false), |d| {
                let fused = d.fused_uops.unwrap_or(d.uops);
                (
                    d.uops_mite.unwrap_or(fused).max(1),
                    d.uops_ms.unwrap_or(0),
                    fusion && !d.macro_fusible_with.is_empty(),
                )
            });
            let complex = desc(i).is_some_and(InstrDesc::needs_complex_decoder);
            let simple_decoders = desc(i).and_then(|d| d.simple_decoders);
            Item {
                offset: (instr.address - start) as u32,
                len: instr.len() as u32,
                tail: u32::from(model.predecode_tail && instr.len() >= 2),
                lcp: instr.has_lcp(),
                uops,
                ms,
                complex,
                simple_decoders: simple_decoders.filter(|_| complex),
                fusible,
                fuses_with_next: false,
                branch: match instr.branch {
                    BranchKind::None => Branch::None,
                    BranchKind::Conditional { .. } => Branch::Conditional,
                    BranchKind::Jump { .. } | BranchKind::IndirectJump => Branch::Jump,
                    BranchKind::Call | BranchKind::Return => Branch::CallReturn,
                },
            }
        })
        .collect();
    if fusion {
        let mut i = 0;
        while i + 1 < instrs.len() {
            let pair = match (desc(i), desc(i + 1)) {
                (Some(first), Some(jcc)) => {
                    instrs[i + 1].branch.is_conditional()
                        && first.macro_fusible_with.contains(&jcc.string)
                }
                _ => false,
            };
            items[i].fuses_with_next = pair;
            i += if pair { 2 } else { 1 };
        }
    }
    items
}
