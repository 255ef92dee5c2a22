//! Fuzz target: see [`suaca_fuzz::xml`](../src/lib.rs).
#![no_main]
#![forbid(unsafe_code)]

libfuzzer_sys::fuzz_target!(|data: &[u8]| suaca_fuzz::xml(data));
