//! Memory renaming and store forwarding where Redwood Cove differs from Golden Cove
//! (`memory.renames_indexed`, `memory.loop_same_name_aliases`; fixture data
//! `testdata/xml/memory_renaming.xml`, the same numbers on both archs).
#![forbid(unsafe_code)]

use crate::model_details::{near, throughput_on};

/// Block throughput of `hex` on `arch` with the fixture data.
fn throughput(arch: &str, hex: &str) -> f64 {
    throughput_on("xml/memory_renaming.xml", arch, hex, &[])
}

/// `add qword ptr [rdi+rcx*8], 1` unrolled: every copy reads the last one's bytes (rcx
/// never changes). Renamed, the value is there at the data's memory-to-memory latency: 1.00
/// a copy on ADL-P. Redwood Cove renames no indexed access, so the value goes through store
/// forwarding, MTL-P's `store_forward_latency` of 6: 6.00 a copy. Through `[rdi]` alone both
/// rename: 1.00.
#[test]
fn redwood_cove_forwards_an_indexed_read_modify_write() {
    let indexed = "488304cf01";
    assert!(near(throughput("ADL-P", indexed), 1.0));
    assert!(near(throughput("MTL-P", indexed), 6.0));
    let base_only = "48830701";
    assert!(near(throughput("ADL-P", base_only), 1.0));
    assert!(near(throughput("MTL-P", base_only), 1.0));
}

/// A histogram loop, `mov rax, [rsi]; add qword ptr [rdi+rax*8], 1; add rsi, 8; cmp rsi,
/// rdx; jnz`: the bin is a loaded value, so whether one iteration's increment reads the
/// last one's is unknown. On ADL-P (loop policy: they never alias) nothing chains the
/// iterations: two loads at three a cycle, four fused µops at six, one taken branch a cycle
/// — 1.00. On MTL-P the same-named access is taken to alias (repeated bins, as in the
/// measured loop set's constant data): each increment waits for the last one's forwarded
/// store, 6 cycles — 6.00.
#[test]
fn a_loaded_bin_chains_increments_on_redwood_cove() {
    let histogram = "488b06488304c7014883c6084839d675ef";
    assert!(near(throughput("ADL-P", histogram), 1.0));
    assert!(near(throughput("MTL-P", histogram), 6.0));
}
