//! Tests that run generated code on this machine (`measure`, `profile`). They time code, so each takes `common::timing_lock`: one timed run at a time in this binary.
#![forbid(unsafe_code)]

#[path = "../common/mod.rs"]
mod common;

mod measure_accuracy;
mod measure_golden_cove;
mod measure_harness;
mod profile_cli;
