//! Row 14: the out-of-order window, informational (SL §3.8): how much of one iteration each
//! structure holds. When one iteration does not fit a structure, iterations cannot overlap
//! and the steady-state bounds above are optimistic.

use super::count::Counts;
use super::memory::MemCounts;
use super::{fmt_num, BoundKind, BoundRow, RowState};
use crate::ir::BranchKind;
use crate::uarch::MicroArch;

const SCHEDULER: &str = "scheduler (µops)";

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
    let items: [(&str, f64, Option<u32>); 5] = [
        ("ROB (fused µops)", c.fused_total() as f64, arch.rob_size),
        (SCHEDULER, c.unfused_total() as f64, arch.rs_size),
        ("load buffer", m.loads, arch.load_buffer),
        ("store buffer", m.stores, arch.store_buffer),
        ("branches in flight", branches, arch.branches_in_flight),
    ];
    let mut row = BoundRow::new(BoundKind::OooWindow, RowState::Info, None, String::new());
    let mut tightest: Option<(&str, f64)> = None;
    let mut exceeded = Vec::new();
    for (name, used, size) in items {
        match size.filter(|&s| s > 0) {
            Some(s) => {
                let s = f64::from(s);
                let text = if used > 0.0 {
                    format!(
                        "{}/{} ({} iterations)",
                        fmt_num(used),
                        fmt_num(s),
                        fmt_num(s / used)
                    )
                } else {
                    format!("0/{}", fmt_num(s))
                };
                if used > s && name != SCHEDULER {
                    exceeded.push(name);
                }
                // The scheduler holds only waiting µops: it does not cap the window.
                let window = name != SCHEDULER;
                if window && used > 0.0 && tightest.is_none_or(|(_, t)| s / used < t) {
                    tightest = Some((name, s / used));
                }
                row = row.input(name, text);
            }
            None => row = row.input(name, format!("{} / unknown size", fmt_num(used))),
        }
    }
    row.detail = if !exceeded.is_empty() {
        format!(
            "one iteration exceeds the {}: iterations cannot overlap, the bounds are optimistic",
            exceeded.join(", ")
        )
    } else if let Some((name, t)) = tightest {
        format!(
            "at most {} iterations in flight (limited by the {name})",
            fmt_num(t)
        )
    } else {
        "structure sizes unknown".to_string()
    };
    row.left_out(c.left_out.clone())
}
