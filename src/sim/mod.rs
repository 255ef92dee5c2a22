//! The cycle-level simulation of SUACA (thesis chapter 3): front end, scheduler, ports and
//! divider.
//!
//! Owns: the cycle loop ([`engine`]), the static program it runs ([`SimProgram`]), the what-if
//! switches ([`SimOptions`]) and the closed set of events it emits (the methods of
//! [`Observer`]).
//! Must not touch: report formatting (views observe events), the XML, decoding.
//! Facts: thesis Algorithms 3–7 and §3.6; the refinements (per-operand-pair latencies) follow
//! issue #4 and the uops.info latency definition (uops.info §4.1).
//!
//! Order of work inside one cycle (thesis Algorithm 7):
//! ```text
//! load (front end → scheduler) ─► choose ports (program order) ─► execute (count latency,
//! release children) ─► free ports
//! ```

mod assign;
#[doc(hidden)]
pub mod benchmark;
pub mod engine;
mod event;
mod options;
mod plan;
mod ports;
mod program;
mod window;

pub use engine::{simulate, SimError, SimOutcome, MAX_UOPS_PER_INSTR};
pub use event::{InstRef, Observer, OutcomeOnly, WaitCause};
pub use options::{SimOptions, WhatIf};
pub use program::{
    Delivery, EliminableMove, IssueRule, MoveSlots, PortAssignment, PortSharing, Rename, SimInput,
    SimInstr, SimMachine, SimProgram,
};

#[cfg(test)]
mod equivalence;
#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;
