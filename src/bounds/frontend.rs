//! Row 1 (issue width) from the per-line counts, and rows 10–13 (µop cache, decoders,
//! microcode, LSD, taken branches) as the front end's rates have them
//! ([`crate::pipeline::frontend::rates`]): this table shows them, the engine's delivery reads
//! the same rates.
//!
//! Facts: SL §3.1 (width in fused µops; AMD: macro-ops and instructions).

use super::facts::{BoundFacts, IssueWidthFacts};
use super::{BoundKind, BoundRow, RowState};
use crate::pipeline::counts::Counts;
use crate::pipeline::frontend::rates::{FrontEndRates, Part, PartState};
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

/// A front-end part as a row.
fn row_of<F>(kind: BoundKind, part: &Part<F>, facts: impl FnOnce(F) -> BoundFacts) -> BoundRow
where
    F: Clone,
{
    let state = match part.state {
        PartState::Binds => RowState::Bound,
        PartState::Info => RowState::Info,
        PartState::Unknown => RowState::Unknown,
        PartState::NotApplicable => RowState::NotApplicable,
    };
    BoundRow::new(kind, state, part.cycles, facts(part.facts.clone()))
}

/// Rows 10–12: µop cache, decoders, microcode sequencer, LSD. Lines without data are left
/// out of every row that counts µops.
pub(super) fn front_end_rows(fe: &FrontEndRates, c: &Counts) -> Vec<BoundRow> {
    let counted = |r: BoundRow, counts: bool| {
        if counts {
            r.left_out(c.left_out.clone())
        } else {
            r
        }
    };
    let windows = matches!(fe.dsb.facts, super::DsbFacts::Windows { .. });
    vec![
        counted(row_of(BoundKind::Dsb, &fe.dsb, BoundFacts::Dsb), windows),
        counted(
            row_of(BoundKind::Mite, &fe.mite, BoundFacts::Mite),
            fe.mite.state != PartState::Unknown,
        ),
        counted(
            row_of(BoundKind::Microcode, &fe.microcode, BoundFacts::Microcode),
            true,
        ),
        {
            // It binds only as Redwood Cove's split-loop groups; elsewhere it informs.
            let (state, cycles) = match fe.lsd.split_groups {
                Some(g) => (RowState::Bound, Some(g.cycles())),
                None => (RowState::Info, None),
            };
            BoundRow::new(
                BoundKind::Lsd,
                state,
                cycles,
                BoundFacts::Lsd(fe.lsd.clone()),
            )
        },
    ]
}

/// Row 13: taken branches / per-cycle rate.
pub(super) fn taken_row(fe: &FrontEndRates) -> BoundRow {
    row_of(
        BoundKind::TakenBranches,
        &fe.taken,
        BoundFacts::TakenBranches,
    )
}
