//! What the catalogue leaves out, and why: [`SkipReason`] and the checks made on an iced code
//! before its operands are looked at.

use iced_x86::{Code, CpuidFeature, EncodingKind, FlowControl, Mnemonic};
use serde::{Deserialize, Serialize};

use super::HostFeatures;

/// Why an iced code was left out.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum SkipReason {
    /// Not valid in 64-bit mode.
    Not64Bit,
    /// Needs CPL 0 or is a system/privileged/VMX/SGX instruction.
    Privileged,
    /// I/O port access.
    InputOutput,
    /// Serializing instruction.
    Serializing,
    /// Branch, call, return, interrupt: would leave the harness.
    ControlFlow,
    /// Pushes/pops or otherwise moves RSP.
    Stack,
    /// x87 FPU.
    X87,
    /// String instruction (moves RSI/RDI).
    String,
    /// Save/restore of processor state (XSAVE...).
    SaveRestore,
    /// Encoding not measured here (XOP, 3DNow!, MVEX, MPX, AMX, segment/control registers).
    UnsupportedOperands(String),
    /// The host's CPUID lacks this feature.
    CpuidMissing(String),
    /// Changes the FP environment or process state in a way that breaks the harness.
    Environment(String),
    /// iced could not build an instruction for it.
    Build(String),
}

impl std::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SkipReason::Not64Bit => write!(f, "not valid in 64-bit mode"),
            SkipReason::Privileged => write!(f, "privileged/system instruction"),
            SkipReason::InputOutput => write!(f, "I/O port instruction"),
            SkipReason::Serializing => write!(f, "serializing instruction"),
            SkipReason::ControlFlow => write!(f, "control flow would leave the harness"),
            SkipReason::Stack => write!(f, "stack instruction (moves RSP)"),
            SkipReason::X87 => write!(f, "x87 instruction"),
            SkipReason::String => write!(f, "string instruction"),
            SkipReason::SaveRestore => write!(f, "processor state save/restore"),
            SkipReason::UnsupportedOperands(s) => write!(f, "operands not generated: {s}"),
            SkipReason::CpuidMissing(s) => write!(f, "host CPUID lacks {s}"),
            SkipReason::Environment(s) => write!(f, "changes process state: {s}"),
            SkipReason::Build(s) => write!(f, "cannot build: {s}"),
        }
    }
}

/// PUSH and POP of a general register, memory or an immediate: the harness balances the
/// stack pointer around their copies. Segment registers, flags, ENTER/LEAVE and the
/// control-flow stack instructions stay out.
pub fn plain_push_pop(code: Code) -> bool {
    matches!(
        code,
        Code::Push_r16
            | Code::Push_r64
            | Code::Push_rm16
            | Code::Push_rm64
            | Code::Push_imm16
            | Code::Pushw_imm8
            | Code::Pushq_imm8
            | Code::Pushq_imm32
            | Code::Pop_r16
            | Code::Pop_r64
            | Code::Pop_rm16
            | Code::Pop_rm64
    )
}

/// Direct near branches of 64-bit code (Jcc, JMP, LOOP/LOOPcc, JRCXZ with an 8- or 32-bit
/// displacement): measured with their target on the next instruction (`Slot::Rel`), so
/// taken or not the kernel goes on. Calls, returns, indirect and far branches stay out.
pub fn branch_to_next_form(code: Code) -> bool {
    use iced_x86::OpCodeOperandKind as K;
    matches!(
        code.flow_control(),
        FlowControl::ConditionalBranch | FlowControl::UnconditionalBranch
    ) && matches!(code.op_code().op_kinds(), [K::br64_1] | [K::br64_4])
        && code.op_code().mode64()
        && !matches!(code.mnemonic(), Mnemonic::Jmpe)
}

/// Why a code is skipped before operands are looked at.
pub(super) fn early_skip(code: Code, feats: &HostFeatures) -> Option<SkipReason> {
    let oc = code.op_code();
    if !oc.is_instruction() {
        return Some(SkipReason::Build("not an instruction".into()));
    }
    if !oc.mode64() {
        return Some(SkipReason::Not64Bit);
    }
    match oc.encoding() {
        EncodingKind::Legacy | EncodingKind::VEX | EncodingKind::EVEX => {}
        e => return Some(SkipReason::UnsupportedOperands(format!("{e:?} encoding"))),
    }
    let name = format!("{code:?}");
    let feats_needed = code.cpuid_features();
    if feats_needed.iter().any(|f| {
        matches!(
            f,
            CpuidFeature::FPU | CpuidFeature::FPU287 | CpuidFeature::FPU387
        )
    }) || name.starts_with('F') && oc.fwait()
    {
        return Some(SkipReason::X87);
    }
    if oc.is_privileged() || oc.must_be_cpl0() || !oc.cpl3() || oc.may_require_cpl0() {
        return Some(SkipReason::Privileged);
    }
    if oc.is_input_output() {
        return Some(SkipReason::InputOutput);
    }
    // The fences and `pause` run and time like other instructions (the analysis holds each
    // for its throughput: docs/model.md "Serializing instructions").
    if (oc.is_serializing_amd() || oc.is_serializing_intel()) && !is_fence(code) {
        return Some(SkipReason::Serializing);
    }
    if code.flow_control() != FlowControl::Next && !branch_to_next_form(code) {
        return Some(SkipReason::ControlFlow);
    }
    if (oc.is_stack_instruction() || code.is_stack_instruction()) && !plain_push_pop(code) {
        return Some(SkipReason::Stack);
    }
    if oc.is_save_restore() {
        return Some(SkipReason::SaveRestore);
    }
    let m = code.mnemonic();
    use Mnemonic as M;
    match m {
        M::Ldmxcsr | M::Vldmxcsr | M::Fxrstor | M::Fxrstor64 | M::Fxsave | M::Fxsave64 => {
            return Some(SkipReason::Environment("MXCSR/FP state".into()))
        }
        M::Std | M::Cld | M::Popf | M::Popfq | M::Pushf | M::Pushfq | M::Sahf | M::Lahf
            if matches!(m, M::Std) =>
        {
            return Some(SkipReason::Environment("direction flag".into()))
        }
        M::Lss | M::Lfs | M::Lgs | M::Lds | M::Les => {
            return Some(SkipReason::Environment("loads a segment register".into()))
        }
        M::Rdpmc
        | M::Rdpru
        | M::Rdmsr
        | M::Wrmsr
        | M::Xgetbv
        | M::Xsetbv
        | M::Clzero
        | M::Monitorx
        | M::Mwaitx
        | M::Monitor
        | M::Mwait
        | M::Wrfsbase
        | M::Wrgsbase
        | M::Ud0
        | M::Ud1
        | M::Ud2
        | M::Hlt
        | M::Xabort
        | M::Xbegin
        | M::Xend
        | M::Xtest
        | M::Rdseed
        | M::Rdrand
        | M::Cpuid
        | M::Endbr32
        | M::Endbr64 => {
            return Some(SkipReason::Environment(format!(
                "{m:?}: faults, traps or is excluded by uops.info's method"
            )))
        }
        _ => {}
    }
    if let Err(f) = feats.check(feats_needed) {
        return Some(SkipReason::CpuidMissing(format!("{f:?}")));
    }
    None
}

/// A fence or `pause`: no µop filler or blocker passes it, so `suaca measure` takes its
/// dispatch slots as one and its ports from the arch description (data/measured/README.md).
pub fn is_fence(code: Code) -> bool {
    matches!(
        code.mnemonic(),
        Mnemonic::Pause | Mnemonic::Lfence | Mnemonic::Mfence
    )
}
