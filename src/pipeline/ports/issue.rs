//! Port assignment at issue (docs/model.md, "Port assignment at issue"): on the arches whose
//! description says so (`scheduler.port_assignment = "issue"`), the renamer binds each µop
//! to a port as it issues; elsewhere, and with `--dispatch-port-assignment`, a µop takes the
//! least used free port when it dispatches (SUACA).

use crate::pipeline::Context;
use crate::sim::{IssueRule, PortAssignment};
use crate::uarch::{PortBinding, Role};

/// The engine's port assignment for the program of `cx`.
pub fn assignment(cx: &Context) -> PortAssignment {
    match cx.arch.scheduler.port_assignment {
        Some(PortBinding::Issue) if cx.model.issue_ports => {
            // Loads, allowed on exactly two ports, alternate between them (docs/model.md).
            let loads = cx.arch.ports_with_role(Role::Load).0;
            PortAssignment::Issue(IssueRule {
                until_complete: false,
                alternate: if loads.count_ones() == 2 { loads } else { 0 },
                whole_groups: cx.arch.scheduler.whole_issue_groups == Some(true),
            })
        }
        _ => PortAssignment::Dispatch,
    }
}
