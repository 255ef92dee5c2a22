//! The uops.info `instructions.xml` schema: typed records, the port notation, a streaming
//! reader and a writer.
//!
//! Owns: every element and attribute name of the schema (`instructions.xml` in
//! docs/sources.md, SUACA thesis §1.5 for the 2018 form).
//! Must not touch: iced-x86, the simulator, the CLI, the environment. Unknown values are
//! `None`, never 0; unknown attributes are kept verbatim, unknown elements skipped.
//!
//! ```text
//! open(path) ─► BufRead (plain or zstd, by magic) ─► InstrReader (ArchFilter) ─► InstrRecord
//! InstrRecord ─► write_instructions ─► cpuBench-ordered XML
//! ```

mod error;
mod ports;
mod read;
mod schema;
mod write;

pub use error::{AttrContext, Pos, XmlError};
pub use ports::PortParseError;
pub use read::{
    list_archs, open, open_bytes, read_file, read_instructions, ArchFilter, InstrReader,
};
pub use schema::{
    ArchRecord, FlagAccess, InstrRecord, LatValue, Latency, MeasureValues, Measurement,
    OperandKind, OperandRecord, PortGroup, PortUsage,
};
pub use write::{write_instruction, write_instructions, WriteOptions};
