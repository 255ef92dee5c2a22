//! Row 14: the out-of-order window, informational (SL §3.8): how much of one iteration each
//! structure holds. When one iteration does not fit a structure, iterations cannot overlap
//! and the steady-state bounds above are optimistic.

use super::facts::{BoundFacts, Structure, WindowFacts, WindowUse};
use super::memory::MemCounts;
use super::{BoundKind, BoundRow, RowState};
use crate::ir::BranchKind;
use crate::pipeline::counts::Counts;
use crate::uarch::MicroArch;

/// Row 14.
pub(super) fn row(
    instrs: &[crate::ir::Instr],
    c: &Counts,
    m: &MemCounts,
    arch: &MicroArch,
) -> BoundRow {
    let branches = instrs
        .iter()
        .filter(|i| !matches!(i.branch, BranchKind::None))
        .count() as f64;
    let items: [(Structure, f64, Option<u32>); 5] = [
        (Structure::Rob, c.fused_total() as f64, arch.rob_size),
        (Structure::Scheduler, c.unfused_total() as f64, arch.rs_size),
        (Structure::LoadBuffer, m.loads, arch.load_buffer),
        (Structure::StoreBuffer, m.stores, arch.store_buffer),
        (
            Structure::BranchesInFlight,
            branches,
            arch.branches_in_flight,
        ),
    ];
    let mut tightest: Option<(Structure, f64)> = None;
    let mut exceeded = Vec::new();
    let mut uses = Vec::new();
    for (structure, used, size) in items {
        let size = size.filter(|&s| s > 0);
        if let Some(s) = size.map(f64::from) {
            // The scheduler holds only waiting µops: it does not cap the window.
            let window = structure != Structure::Scheduler;
            if used > s && window {
                exceeded.push(structure);
            }
            if window && used > 0.0 && tightest.is_none_or(|(_, t)| s / used < t) {
                tightest = Some((structure, s / used));
            }
        }
        uses.push(WindowUse {
            structure,
            used,
            size,
        });
    }
    let facts = WindowFacts {
        uses,
        exceeded,
        tightest,
    };
    BoundRow::new(
        BoundKind::OooWindow,
        RowState::Info,
        None,
        BoundFacts::OooWindow(facts),
    )
    .left_out(c.left_out.clone())
}
