//! The data area every kernel addresses through r14: where the control slots (timestamps,
//! MXCSR, clock mask, profile's saved rsp) sit below r14, and the values it starts with.

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
use super::jit::DataMem;

/// Offset of r14 inside the data mapping (room for negative displacements below).
pub const DATA_BASE: usize = 1 << 20;
/// Start timestamp slot (relative to r14).
pub const OFF_T0: i64 = -64;
/// End timestamp slot.
pub const OFF_T1: i64 = -56;
/// MXCSR value loaded by every kernel.
pub const OFF_MXCSR: i64 = -48;
/// Mask register initial value (all ones).
pub const OFF_KINIT: i64 = -40;
/// Counter number `rdpmc` reads (u32), set by the benchmark process.
pub const OFF_PMC: i64 = -32;
/// Mask of valid clock bits (all ones for the TSC, the counter width for `rdpmc`).
pub const OFF_CLOCK_MASK: i64 = -24;
/// The caller's rsp while a profiled block runs on its private stack (`suaca profile`).
pub const OFF_SAVED_RSP: i64 = -16;
/// The default MXCSR a profiled block's kernel restores (`suaca profile`).
pub const OFF_MXCSR_DEFAULT: i64 = -8;
/// Passes left of a profiled loop's outer repetition (`suaca profile` on a loop region,
/// which may use every GPR).
pub const OFF_OUTER: i64 = -72;

/// Every control slot below r14, 8 bytes each: they must not overlap (a profile slot that
/// once shared the clock mask's offset masked every timestamp to garbage).
pub const CONTROL_SLOTS: [i64; 9] = [
    OFF_T0,
    OFF_T1,
    OFF_MXCSR,
    OFF_KINIT,
    OFF_PMC,
    OFF_CLOCK_MASK,
    OFF_SAVED_RSP,
    OFF_MXCSR_DEFAULT,
    OFF_OUTER,
];
/// 64-byte vector initial value.
pub const OFF_VINIT: i64 = -256;
/// Extra per-kernel constants (vector values for divisions etc.), 64 bytes per slot.
pub const OFF_CONST: i64 = -4096;
/// The lane offsets a gather's or scatter's index register is loaded from (`plan::vsib`),
/// 64 bytes.
pub const OFF_VSIB: i64 = -8192;
/// Benign lane value: a double close to 1.0 whose halves are the floats 1.0 and 1.875.
pub const BENIGN: u64 = 0x3FF0_0000_3F80_0000;
/// Size of the benchmark memory window used by instruction memory operands (from r14).
pub const MEM_WINDOW: usize = 1 << 20;
/// MXCSR: all exceptions masked, flush-to-zero and denormals-are-zero.
pub const MXCSR: u32 = 0x9FC0;

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
/// Initialises the shared data area: constants, benign memory contents.
pub fn init_data(data: &mut DataMem) {
    let base = DATA_BASE;
    let bytes = data.bytes_mut();
    // Whole area: the benign pattern (memory operands read plausible FP values).
    for chunk in bytes.chunks_exact_mut(8) {
        chunk.copy_from_slice(&BENIGN.to_le_bytes());
    }
    let put = |bytes: &mut [u8], off: i64, v: u64| {
        let o = (base as i64 + off) as usize;
        bytes[o..o + 8].copy_from_slice(&v.to_le_bytes());
    };
    put(bytes, OFF_T0, 0);
    put(bytes, OFF_T1, 0);
    put(bytes, OFF_MXCSR, MXCSR as u64);
    put(bytes, OFF_KINIT, u64::MAX);
    put(bytes, OFF_PMC, 0);
    put(bytes, OFF_CLOCK_MASK, u64::MAX);
}

#[cfg(test)]
mod control_slot_tests {
    use super::*;

    #[test]
    fn control_slots_do_not_overlap() {
        let mut v = CONTROL_SLOTS.to_vec();
        v.sort_unstable();
        for w in v.windows(2) {
            assert!(w[1] - w[0] >= 8, "{w:?}");
        }
        assert!(v
            .iter()
            .all(|o| *o < 0 && *o + 8 <= 0 && *o > OFF_VINIT + 64));
    }
}
