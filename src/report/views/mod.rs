//! Observers of simulation events. Each collects one kind of fact; renderers format them.

mod lines;
mod timeline;

pub use lines::{DepDelay, LineDetail, LineRow, LineStats, PortDelay};
pub use timeline::{
    Timeline, TimelineEntry, TimelineView, DEFAULT_TIMELINE_ITERATIONS, MAX_TIMELINE_INSTANCES,
};
