//! suaca: a static throughput analyzer for x86-64 machine code.
//!
//! ```text
//! file ─► input (object / raw / hex) ─► markers ─► Region
//!      ─► decode (iced-x86) ─► ir::Instr ─► cfg + deps (petgraph)
//! uops.info XML ─► uopsxml ─► db (Instr → InstrDesc);  data/arch ─► uarch::MicroArch
//!      ─► sim (cycle loop) ─► events ─► report views ─► text / JSON / dot
//! ```
//!
//! Library modules never print, exit or read the environment; the binary (`src/main.rs`,
//! `cli`) does.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod analysis;
pub mod batch;
pub mod bounds;
pub mod cfg;
pub mod cli;
pub mod dataset;
pub mod db;
pub mod decode;
pub mod deps;
pub mod fsutil;
pub mod input;
pub mod ir;
pub mod loops;
pub mod measure;
pub mod pipeline;
pub mod profile;
pub mod report;
pub mod sim;
pub mod uarch;
pub mod uopsxml;
