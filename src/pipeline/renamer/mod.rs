//! The renamer: the dependencies it removes before the scheduler sees them — same-register
//! idioms by vendor, flags a CL shift leaves alone, the stack engine's rsp updates — and its
//! details in the submodules: eliminated moves, stack-synchronization µops, fast pointer
//! chasing, false dependencies on a destination, high-8 merge µops.
//!
//! Owns: which inputs the renamer drops and what it adds. Must not touch: the engine.

pub mod elimination;
pub mod false_deps;
pub mod high8_merge;
pub mod pointer_chase;
pub mod stack_sync;

use super::Context;
use crate::ir::{Instr, Loc};
use crate::uarch::MicroArch;

/// Whether `instr` moves rsp implicitly, which the stack engine handles in the front end.
pub fn is_stack_op(instr: &Instr) -> bool {
    use iced_x86::Mnemonic;
    matches!(
        instr.iced.mnemonic(),
        Mnemonic::Push | Mnemonic::Pop | Mnemonic::Call | Mnemonic::Ret
    )
}

/// Whether `consumer` is `sbb r, r` and `loc` its register on an AMD core, whose renamer
/// knows the result is 0 or -1 by CF alone; Intel cores wait for the register (Agner Fog's
/// microarchitecture manual, "Dependency-breaking instructions"; the uiCA paper's error
/// anatomy: HSW `cmp eax, 1; sbb ebp, ebp; and bpl, 0x73; add ebp, 0x10a` runs at 4 cycles).
pub fn sbb_drops(arch: &MicroArch, consumer: &Instr, loc: Loc) -> bool {
    arch.vendor == crate::uarch::Vendor::Amd
        && consumer.iced.mnemonic() == iced_x86::Mnemonic::Sbb
        && crate::decode::idioms::same_sources(&consumer.iced)
        && matches!(loc, Loc::Reg(r) | Loc::High8(r)
            if r.full_register() == consumer.iced.op0_register().full_register())
}

/// Whether a shift or rotate by CL (`consumer`) does not wait for the flag `loc` on `arch`
/// (`scheduler.cl_shifts_read_flags = false`): the flags it leaves alone when the count is
/// 0 are no input there, unlike Intel's flag merge; a flag it reads anyway (`rcl`'s CF)
/// stays. Zen 4 (testdata/asm/cl_shifts.s): `shl r9, cl; shl r10, cl` unrolled 1.00 cycle per
/// copy, 2.00 through the flags.
pub fn cl_shift_flags_drop(arch: &MicroArch, consumer: &Instr, loc: Loc) -> bool {
    let Loc::Flag(f) = loc else {
        return false;
    };
    arch.scheduler.cl_shifts_read_flags == Some(false)
        && crate::decode::flag_kept_by_cl_shift(&consumer.iced, f)
}

/// Whether the renamer of `arch` drops `consumer`'s dependency through `loc` ([`sbb_drops`],
/// [`cl_shift_flags_drop`]; with `high8`, the high-8 rules on, [`high8_merge::write_alone`]).
pub fn renamer_drops(arch: &MicroArch, consumer: &Instr, loc: Loc, high8: bool) -> bool {
    sbb_drops(arch, consumer, loc)
        || cl_shift_flags_drop(arch, consumer, loc)
        || (high8 && high8_merge::write_alone(arch, consumer, loc))
}

/// Whether the dependency of a consumer on `producer` through `loc` disappears with the
/// stack engine: an rsp update of push/pop/call/ret is known in the front end.
pub fn stack_engine_drops(cx: &Context, producer: usize, loc: Loc) -> bool {
    cx.model.stack_engine
        && matches!(loc, Loc::Reg(iced_x86::Register::RSP))
        && cx.instrs.get(producer).is_some_and(is_stack_op)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode_bytes;
    use crate::input::parse_hex;

    /// `sbb ebp, ebp` depends on ebp on Intel, on CF alone on AMD.
    #[test]
    fn sbb_same_register_is_independent_of_it_on_amd_only() {
        let i = decode_bytes(&parse_hex("19ed").unwrap(), 0).unwrap();
        let rbp = Loc::Reg(iced_x86::Register::RBP);
        let amd = crate::uarch::load("ZEN4").unwrap();
        let intel = crate::uarch::load("HSW").unwrap();
        assert!(sbb_drops(&amd, &i[0], rbp));
        assert!(!sbb_drops(&intel, &i[0], rbp));
        // sbb ebp, eax reads both on any vendor.
        let i = decode_bytes(&parse_hex("19c5").unwrap(), 0).unwrap();
        assert!(!sbb_drops(&amd, &i[0], rbp));
    }

    /// `shl r9, cl` waits for the flags on Intel, not on Zen 4; `rcl r9, cl` keeps CF there.
    #[test]
    fn cl_shifts_skip_the_flags_on_zen4_only() {
        use crate::ir::Flag;
        let zen4 = crate::uarch::load("ZEN4").unwrap();
        let intel = crate::uarch::load("SKL").unwrap();
        let shl = decode_bytes(&parse_hex("49d3e1").unwrap(), 0).unwrap();
        assert!(cl_shift_flags_drop(&zen4, &shl[0], Loc::Flag(Flag::ZF)));
        assert!(renamer_drops(&zen4, &shl[0], Loc::Flag(Flag::CF), true));
        assert!(!cl_shift_flags_drop(&intel, &shl[0], Loc::Flag(Flag::ZF)));
        // Not a flag, not a CL shift, a flag read anyway.
        assert!(!cl_shift_flags_drop(
            &zen4,
            &shl[0],
            Loc::Reg(iced_x86::Register::R9)
        ));
        let shl_imm = decode_bytes(&parse_hex("49c1e102").unwrap(), 0).unwrap();
        assert!(!cl_shift_flags_drop(
            &zen4,
            &shl_imm[0],
            Loc::Flag(Flag::ZF)
        ));
        let rcl = decode_bytes(&parse_hex("49d3d1").unwrap(), 0).unwrap();
        assert!(!cl_shift_flags_drop(&zen4, &rcl[0], Loc::Flag(Flag::CF)));
        assert!(cl_shift_flags_drop(&zen4, &rcl[0], Loc::Flag(Flag::OF)));
    }
}
