//! Dependency-breaking idioms: instructions whose result does not depend on their inputs.
//!
//! Sources: Intel 64 and IA-32 Architectures Optimization Reference Manual §3.5.1.7
//! ("Clearing Registers and Dependency Breaking Idioms") and §3.5.1.8; Agner Fog,
//! "The microarchitecture of Intel, AMD and VIA CPUs", sections "Dependency-breaking
//! instructions" (Sandy Bridge and later); llvm-mca's `X86/SkylakeClient/zero-idioms.s` test
//! (which notes that on SKL the ANDN variants, MMX and 8/16-bit forms are not eliminated at
//! rename; they still execute, but do not wait for their inputs).
//!
//! Recognised, with identical source registers (both operands of a two-operand form; the two
//! sources of a three-operand VEX/EVEX form; the destination may differ):
//!
//! | result | mnemonics |
//! |---|---|
//! | zero | `xor`, `sub` (32/64-bit GPRs only: 8/16-bit writes merge into the old value) |
//! | zero | `pxor xorps xorpd vpxor vxorps vxorpd vpxord vpxorq` |
//! | zero | `psubb psubw psubd psubq vpsubb vpsubw vpsubd vpsubq` |
//! | zero | `pcmpgtb pcmpgtw pcmpgtd pcmpgtq vpcmpgtb vpcmpgtw vpcmpgtd vpcmpgtq` (vector destination only) |
//! | zero | `pandn andnps andnpd vpandn vandnps vandnpd vpandnd vpandnq` |
//! | ones | `pcmpeqb pcmpeqw pcmpeqd pcmpeqq vpcmpeqb vpcmpeqw vpcmpeqd vpcmpeqq` (vector destination only) |
//!
//! Not idioms here: any form with an opmask (`{k1}` merges into, or is gated by, live state);
//! EVEX compares into a mask register; `vpternlogd x,x,x,0xff` (optional in issue #2 and
//! not in the Intel manual's list, so it keeps its register reads); `sbb r, r` (depends on
//! CF, and on Intel on the register too: the analysis drops the register on AMD,
//! `pipeline::renamer::sbb_drops`); `mov r, r` (move elimination, the simulator's business).

use iced_x86::{Instruction, Mnemonic, OpKind, Register};

use crate::ir::Idiom;

/// The idiom `instr` is, if any.
pub(crate) fn idiom(instr: &Instruction) -> Option<Idiom> {
    let result = result_of(instr.mnemonic())?;
    if instr.has_op_mask() || !same_sources(instr) {
        return None;
    }
    let dest = instr.op0_register();
    if dest.is_k() {
        return None;
    }
    if dest.is_gpr() && !(dest.is_gpr32() || dest.is_gpr64()) {
        return None;
    }
    Some(result)
}

/// Whether the instruction's two sources are the same register (see the module table).
pub(crate) fn same_sources(instr: &Instruction) -> bool {
    let (a, b) = match instr.op_count() {
        2 => (0, 1),
        3 => (1, 2),
        _ => return false,
    };
    instr.op_kind(a) == OpKind::Register
        && instr.op_kind(b) == OpKind::Register
        && instr.op_register(a) == instr.op_register(b)
        && instr.op_register(a) != Register::None
}

/// What the mnemonic produces when both sources are equal.
fn result_of(m: Mnemonic) -> Option<Idiom> {
    use Mnemonic::*;
    match m {
        Xor | Sub | Pxor | Xorps | Xorpd | Vpxor | Vxorps | Vxorpd | Vpxord | Vpxorq | Psubb
        | Psubw | Psubd | Psubq | Vpsubb | Vpsubw | Vpsubd | Vpsubq | Pcmpgtb | Pcmpgtw
        | Pcmpgtd | Pcmpgtq | Vpcmpgtb | Vpcmpgtw | Vpcmpgtd | Vpcmpgtq | Pandn | Andnps
        | Andnpd | Vpandn | Vandnps | Vandnpd | Vpandnd | Vpandnq => Some(Idiom::Zero),
        Pcmpeqb | Pcmpeqw | Pcmpeqd | Pcmpeqq | Vpcmpeqb | Vpcmpeqw | Vpcmpeqd | Vpcmpeqq => {
            Some(Idiom::Ones)
        }
        _ => None,
    }
}
