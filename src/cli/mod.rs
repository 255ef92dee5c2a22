//! The command line: clap definitions (SUACA's flags and long forms), the rewriting of
//! SUACA's multi-letter single-dash flags, and the `--setup` defaults file.
//!
//! Owns: the argument vocabulary. Must not print, exit or read the environment: `main.rs`
//! does that with what this module returns.

mod arch_arg;
mod args;
mod config;
mod habits;
mod model_args;

pub use arch_arg::ArchParser;
pub use args::{
    rewrite_suaca_flags, AnalyzeArgs, BatchArgs, Cli, Command, DataCommand, InputSelection,
    MeasureArgs, OutputFormat, ProfileArgs, EXAMPLES,
};
pub use config::{Config, ConfigError};
pub use habits::{translate, Translated};
pub use model_args::{ModelArgs, ModelChoice};
