//! The uops.info `instructions.xml` schema: typed records, the port notation, a streaming
//! reader and a writer.
//!
//! Owns: every element and attribute name of the schema (seed digest §1.16, SUACA thesis §1.5
//! for the 2018 form).
//! Must not touch: iced-x86, the simulator, the CLI. Unknown values are `None`, never 0.

mod schema;

pub use schema::{
    ArchRecord, FlagAccess, InstrRecord, LatValue, Latency, MeasureValues, Measurement,
    OperandKind, OperandRecord, PortGroup, PortUsage,
};
