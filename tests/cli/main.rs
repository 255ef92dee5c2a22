//! End-to-end tests of the `suaca` command line: reports, JSON, graphs, errors, set-up, data commands, the man page and the terminal.
#![forbid(unsafe_code)]

#[path = "../common/mod.rs"]
mod common;

mod asm_input;
mod batch_cli;
mod cli_errors;
mod cli_habits;
mod cli_setup;
mod data_cmd;
mod front_end_details;
mod golden;
mod graphs_cli;
mod json_output;
mod man_page;
mod model_details;
mod redwood_cove;
mod renamer_details;
mod terminal;
mod thesis_examples;
mod timeline_trace;
mod unmarked_loops;
