//! Serializing and delaying instructions (`pause`, the fences, `cpuid`, `rdtsc`/`rdtscp`,
//! `serialize`): the core does not overlap one with the next, so each may start only when the
//! one before it has run for its measured throughput (the data's `TP_unrolled`, which
//! uops.info measures with the instruction repeated: Skylake's `pause` 140 cycles, `mfence`
//! 33, `cpuid` 100), and the first of an iteration after the last of the previous one
//! (docs/model.md, "Serializing instructions"; `--no-serializing`).

use super::InstrDesc;
use crate::ir::Instr;
use iced_x86::Mnemonic;

/// Whether `instr` is one the core runs one at a time.
pub fn is_serializing(instr: &Instr) -> bool {
    matches!(
        instr.iced.mnemonic(),
        Mnemonic::Pause
            | Mnemonic::Lfence
            | Mnemonic::Mfence
            | Mnemonic::Cpuid
            | Mnemonic::Rdtsc
            | Mnemonic::Rdtscp
            | Mnemonic::Serialize
    )
}

/// The cycles the next serializing instruction waits after `instr` started: its measured
/// throughput (`desc`), rounded, at least 1; `None` for an instruction that does not
/// serialize or has no throughput. The simulation and the bounds table both ask here.
pub fn hold_cycles(instr: &Instr, desc: Option<&InstrDesc>) -> Option<u32> {
    if !is_serializing(instr) {
        return None;
    }
    let tp = desc?.throughput?;
    (tp.is_finite() && tp > 0.0).then(|| (tp.round() as u32).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pause_fences_and_timers_serialize_adds_do_not() {
        let serial = |hex: &str| {
            let bytes = crate::input::parse_hex(hex).unwrap();
            let instrs = crate::decode::decode_bytes(&bytes, 0).unwrap();
            is_serializing(&instrs[0])
        };
        assert!(serial("f390")); // pause
        assert!(serial("0faee8")); // lfence
        assert!(serial("0faef0")); // mfence
        assert!(serial("0fa2")); // cpuid
        assert!(serial("0f31")); // rdtsc
        assert!(!serial("4801d8")); // add rax, rbx
        assert!(!serial("90")); // nop
    }
}
