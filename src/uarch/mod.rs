//! Micro-architecture descriptions: widths, buffer sizes, ports and their roles.
//!
//! Owns: the [`MicroArch`] parameter struct, loaded from `data/arch/*.toml` (embedded in the
//! binary with `include_str!`, `base` inheritance resolved), and the [`PortMask`] vocabulary
//! of simulated ports, including the mapping from uops.info port groups (`p0156`, `p23A`,
//! `FP23`) to ports.
//! Must not touch: instruction data, simulation state, the CLI.
//! Facts from: public documentation only, one source note per value in each file's `sources`
//! table (Intel Optimization Reference Manual, AMD Software Optimization Guides, Agner Fog,
//! Travis Downs' "Performance Speed Limits", AnandTech, WikiChip, Chips and Cheese); see
//! `data/arch/README.md`. Unknown values are `None`, never guessed.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod host;
mod load;
mod model;
pub mod names;
mod ports;

pub use load::{canonical_name, embedded_toml, from_toml_str, load, names, UarchError};
pub use model::{
    FrontEnd, Fusion, Memory, MicroArch, MoveElimination, NotationRule, Port, PortBinding, Role,
    Scheduler, SchedulerQueue, Unlamination, VectorBypass, Vendor,
};
pub use ports::PortMask;
