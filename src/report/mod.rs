//! What suaca says: views that observe simulation events and the renderers that format them.
//!
//! Owns: the per-line statistics (had/caused to wait, port use, divider), the detail view of
//! one line, and the text and JSON renderings.
//! Must not touch: simulation state (views see only events and the static program).

pub mod model;
pub mod text;
pub mod views;

pub use model::Report;
