//! The front end's delivery rate: the cycles per iteration its binding part needs — the µop
//! cache, or the legacy decoders (predecoder bytes, decoders, length-changing-prefix stalls),
//! the microcode sequencer, the loop stream detector and taken branches — taken from the
//! speed-limit rows, which model these parts per the uiCA paper (arXiv 2107.14210) and SL
//! §3.6–3.7. The engine then loads an iteration no sooner than the front end delivered it;
//! the issue width stays the engine's own limit.

use crate::bounds::{BoundKind, Bounds, RowState};
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

/// Cycles per iteration of the binding front-end row, if any binds.
pub fn period(bounds: &Bounds) -> Option<f64> {
    bounds
        .rows
        .iter()
        .filter(|r| FRONT_END.contains(&r.kind) && r.state == RowState::Bound)
        .filter_map(|r| r.cycles)
        .fold(None, |m: Option<f64>, c| Some(m.map_or(c, |m| m.max(c))))
}

/// The delivery the engine enforces: the period, with the instruction queue as the distance
/// the front end may run ahead (queue µops / issue width cycles).
pub fn delivery(bounds: &Bounds, arch: &MicroArch) -> Option<Delivery> {
    let p = period(bounds)?;
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
pub fn unrolled_delivery(
    bounds: &Bounds,
    arch: &MicroArch,
    fused: u64,
    copies: u32,
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
    let p = [stream, row(BoundKind::Microcode)]
        .into_iter()
        .flatten()
        .fold(None, |m: Option<f64>, c| {
            Some(m.map_or(c, |m: f64| m.max(c)))
        })?;
    let queue = fe.idq_uops.unwrap_or(arch.issue_width * 16);
    Delivery::every(p, u64::from(queue / arch.issue_width.max(1)))
}
