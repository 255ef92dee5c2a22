//! What suaca says: views that observe simulation events and the renderers that format them.
//!
//! Owns: the per-line statistics (had/caused to wait, port use, divider), the detail view of
//! one line, the timeline, the graphs as data, and the text, JSON (serde, schema in
//! `docs/suaca-report.schema.json`) and HTML trace renderings.
//! Must not touch: simulation state (views see only events and the static program).

pub mod bounds;
pub mod dot;
pub mod fit;
pub mod graphs;
mod line_table;
pub mod model;
pub mod region_list;
pub mod text;
pub mod timeline_text;
pub mod titles;
pub mod trace;
pub mod views;
pub mod warning;

pub use model::Report;
