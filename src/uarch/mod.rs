//! Micro-architecture descriptions: widths, buffer sizes, ports and their roles.
//!
//! Owns: the `MicroArch` parameter struct loaded from `data/arch/*.toml` (public facts, a source
//! note per value) and the [`PortMask`] vocabulary of simulated ports.
//! Must not touch: instruction data, simulation state.

mod ports;

pub use ports::PortMask;
