//! Fuzz target: see [`suaca_fuzz::Pipeline`](../src/lib.rs). The data is loaded once, in
//! libFuzzer's initialization (outside the per-input timeout: the full reconstruction takes
//! many seconds to read with sanitizers on).
#![no_main]
#![forbid(unsafe_code)]

use std::sync::OnceLock;

static PIPELINE: OnceLock<suaca_fuzz::Pipeline> = OnceLock::new();

libfuzzer_sys::fuzz_target!(
    init: {
        PIPELINE.get_or_init(suaca_fuzz::Pipeline::new);
    },
    |data: &[u8]| PIPELINE.get_or_init(suaca_fuzz::Pipeline::new).run(data)
);
