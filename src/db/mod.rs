//! Instruction data for the simulation: each decoded instruction matched to its uops.info
//! variant and turned into an [`InstrDesc`] for one micro-architecture.
//!
//! Owns: the matcher (iced instruction → uops.info `string`), the operand mapping of the
//! matched variant to the instruction's registers/flags/memory, and the descriptor.
//! Must not touch: simulation state, the CLI, file I/O beyond what it is handed.
//! Facts from: uops.info `instructions.xml` attributes as XED-to-XML writes them
//! (docs/sources.md); each submodule names the ones it relies on.
//!
//! ```text
//! InstrRecord ─► form (compiled per arch) ─┐
//! ir::Instr ─► names (iclass candidates) ──┴► matcher (filters, preferences) ─► Match
//!                                           Match + measurement ─► latency ─► InstrDesc
//! ```

mod desc;
mod form;
mod instr_db;
mod latency;
pub(crate) mod matcher;
pub(crate) mod names;
mod opcode;
pub mod serializing;

pub use desc::{Endpoint, InstrDesc, LatVia, OpLatency, PortGroupDesc, Variant};
pub use instr_db::{uses_divider, InstrDb, Match};
pub use matcher::{signature, NoMatch};
pub use names::{xed_base_name, xed_name};

/// The XED iclasses whose records can match `instrs`: the candidates [`InstrDb::find`] looks
/// up. An [`InstrDb`] built from only the records of these iclasses
/// (`ArchData::records_with_iclass`) describes `instrs` exactly as one built from all
/// records; the analyzer relies on it, batch prediction uses all records
/// (`tests/model/db_match.rs` checks that both agree).
pub fn iclasses(instrs: &[crate::ir::Instr]) -> Vec<String> {
    let mut out: Vec<String> = instrs
        .iter()
        .flat_map(|i| names::iclass_candidates(&i.iced))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}
