//! Issue #3 item 4: over the BHive development blocks (SKL, HSW, IVB), ≥ 99.5% of the
//! instruction occurrences whose uops.info variant has data for the block's arch must match.
//!
//! Needs the shared data next to the worktree (`../shared/data`); skips with a note otherwise.
#![forbid(unsafe_code)]

use crate::common;

#[path = "../../examples/match_coverage/coverage.rs"]
#[allow(dead_code)]
mod coverage;

#[test]
fn bhive_dev_coverage_at_least_99_5_percent() {
    let Some((xml, csv)) = common::bhive_dev() else {
        return;
    };
    let report = coverage::run(&xml, &csv).expect("coverage run");
    assert_eq!(report.undecodable_blocks, 0);
    assert!(report.occurrences > 6000, "{report:?}");
    assert!(
        report.coverage() >= 0.995,
        "coverage {:.3}%, failures: {:#?}",
        100.0 * report.coverage(),
        coverage::sorted(&report.failures)
    );
}
