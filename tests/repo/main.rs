//! Resource bounds and repository hygiene: time and memory budgets, crash-safe files, licences, unsafe code.
#![forbid(unsafe_code)]

#[path = "../common/mod.rs"]
mod common;

mod r9_bounds;
mod r9_checkpoint;
mod r9_files;
mod r9_licences;
mod r9_memory;
mod r9_unsafe;
