//! Subcommand implementations: the only code that prints, reads the environment and writes
//! user files.

pub mod analyze;
pub mod batch;
pub mod completions;
pub mod data;
pub mod env;
pub mod fetch;
pub mod measure;
pub mod output;
pub mod profile;
pub mod profile_batch;
pub mod regions;
pub mod source;
