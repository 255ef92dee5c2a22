//! Observers of simulation events. Each collects one kind of fact; renderers format them.

mod lines;

pub use lines::{DepDelay, LineDetail, LineRow, LineStats, PortDelay};
