//! Instruction data for the simulation: each decoded instruction matched to its uops.info
//! variant and turned into an [`InstrDesc`] for one micro-architecture.
//!
//! Owns: the matcher (iced instruction → uops.info `string`) and the descriptor.
//! Must not touch: simulation state, the CLI, file I/O beyond what it is handed.

mod desc;

pub use desc::{Endpoint, InstrDesc, LatVia, OpLatency, PortGroupDesc, Variant};
