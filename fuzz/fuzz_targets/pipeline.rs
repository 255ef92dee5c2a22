//! Fuzz target: see [`suaca_fuzz::Pipeline`](../src/lib.rs). The data is loaded once.
#![no_main]
#![forbid(unsafe_code)]

use std::sync::OnceLock;

static PIPELINE: OnceLock<suaca_fuzz::Pipeline> = OnceLock::new();

libfuzzer_sys::fuzz_target!(|data: &[u8]| PIPELINE
    .get_or_init(suaca_fuzz::Pipeline::new)
    .run(data));
