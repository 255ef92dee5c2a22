//! The front end's delivery rate: the cycles per iteration its binding part needs — the µop
//! cache, or the legacy decoders (predecoder bytes, decoders, length-changing-prefix stalls),
//! the microcode sequencer, the loop stream detector and taken branches — taken from the
//! speed-limit rows, which model these parts per the uiCA paper (arXiv 2107.14210) and SL
//! §3.6–3.7. The engine then loads an iteration no sooner than the front end delivered it;
//! the issue width stays the engine's own limit.

use super::ModelOptions;
use crate::bounds::{BoundKind, Bounds, RowState};
use crate::db::InstrDesc;
use crate::frontend::{self, Item, Layout, Params};
use crate::ir::{BranchKind, Instr};
use crate::sim::Delivery;
use crate::uarch::{MicroArch, Vendor};

/// Rows that describe the front end.
const FRONT_END: [BoundKind; 5] = [
    BoundKind::Dsb,
    BoundKind::Mite,
    BoundKind::Microcode,
    BoundKind::Lsd,
    BoundKind::TakenBranches,
];

/// Cycles per iteration of the binding front-end row, if any binds; `legacy`, the
/// front-end unit's cycles, stands in for the decoders' row where that binds.
pub fn period(bounds: &Bounds, legacy: Option<f64>) -> Option<f64> {
    bounds
        .rows
        .iter()
        .filter(|r| FRONT_END.contains(&r.kind) && r.state == RowState::Bound)
        .filter_map(|r| match (r.kind, legacy) {
            (BoundKind::Mite, Some(l)) => Some(l),
            _ => r.cycles,
        })
        .fold(None, |m: Option<f64>, c| Some(m.map_or(c, |m| m.max(c))))
}

/// The delivery the engine enforces: the period, with the instruction queue as the distance
/// the front end may run ahead (queue µops / issue width cycles). `legacy`: see [`period`].
pub fn delivery(bounds: &Bounds, arch: &MicroArch, legacy: Option<f64>) -> Option<Delivery> {
    let p = period(bounds, legacy)?;
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
    bounds: &Bounds,
    arch: &MicroArch,
    fused: u64,
    copies: u32,
    legacy: Option<f64>,
) -> Option<Delivery> {
    let row = |kind| {
        bounds
            .row(kind)
            .filter(|r| r.state != RowState::Unknown && r.state != RowState::NotApplicable)
            .and_then(|r| r.cycles)
    };
    let fe = &arch.front_end;
    let op_cache = match (arch.vendor, fe.uop_cache_uops, fe.uop_cache_uops_per_cycle) {
        (Vendor::Amd, Some(cap), Some(rate))
            if rate > 0 && fused * u64::from(copies) <= u64::from(cap) =>
        {
            Some(fused as f64 / f64::from(rate))
        }
        _ => None,
    };
    let stream = op_cache.or_else(|| row(BoundKind::Mite));
    let p = match legacy {
        Some(l) if op_cache.is_none() => l,
        _ => [stream, row(BoundKind::Microcode)]
            .into_iter()
            .flatten()
            .fold(None, |m: Option<f64>, c| {
                Some(m.map_or(c, |m: f64| m.max(c)))
            })?,
    };
    let queue = fe.idq_uops.unwrap_or(arch.issue_width * 16);
    Delivery::every(p, u64::from(queue / arch.issue_width.max(1)))
}

/// Cycles per iteration of the legacy front end ([`crate::frontend`]) for the region, if the
/// model asks for the unit and the arch has its parameters (Intel cores uiCA describes).
pub fn legacy_cycles(
    instrs: &[Instr],
    descs: &[Option<InstrDesc>],
    arch: &MicroArch,
    model: ModelOptions,
    layout: Layout,
) -> Option<f64> {
    if !(model.frontend && model.frontend_unit) {
        return None;
    }
    let params = Params::of(arch)?;
    let items = legacy_items(instrs, descs, arch, model);
    // Blocks start at their address' offset in a 64-byte line (BHive's: 0, i.e. aligned).
    let start = instrs.first().map_or(0, |i| i.address % 64);
    frontend::cycles_per_iteration(&items, start, layout, &params)
}

/// The legacy front end's view of the region's instructions (see [`crate::frontend`]):
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
            Item {
                offset: (instr.address - start) as u32,
                len: instr.len() as u32,
                lcp: instr.has_lcp(),
                uops,
                ms,
                complex: uops > 1 || ms > 0,
                fusible,
                fuses_with_next: false,
            }
        })
        .collect();
    if fusion {
        let mut i = 0;
        while i + 1 < instrs.len() {
            let pair = match (desc(i), desc(i + 1)) {
                (Some(first), Some(jcc)) => {
                    matches!(instrs[i + 1].branch, BranchKind::Conditional { .. })
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
