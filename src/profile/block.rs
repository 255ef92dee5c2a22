//! What a block needs to run on its own: its bytes, the registers it addresses memory with,
//! its RIP-relative operands, a register it leaves free for the loop counter — or why it
//! cannot be run at all.
//!
//! Pure (no memory is mapped, nothing runs), so it is unit-tested on every host.

use iced_x86::{
    Code, Decoder, DecoderOptions, EncodingKind, FlowControl, InstructionInfoFactory, Mnemonic,
    OpAccess, Register,
};

use crate::ir::Instr;

/// A set of general-purpose registers, bit i = the 64-bit GPR numbered i (rax 0 … r15 15).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct GprSet(pub u16);

impl GprSet {
    /// Adds the GPR containing `r` (al, eax → rax); other registers are ignored.
    pub fn add(&mut self, r: Register) {
        if let Some(i) = gpr_number(r) {
            self.0 |= 1 << i;
        }
    }

    /// Whether GPR number `i` is in the set.
    pub fn has(self, i: usize) -> bool {
        self.0 & (1 << i) != 0
    }

    /// The numbers in the set, ascending.
    pub fn numbers(self) -> impl Iterator<Item = usize> {
        (0..16).filter(move |&i| self.has(i))
    }
}

/// The number (0–15) of the 64-bit GPR containing `r`, if `r` is a GPR.
pub fn gpr_number(r: Register) -> Option<usize> {
    r.is_gpr().then(|| r.full_register().number())
}

/// The 64-bit GPR numbered `i` (0 = rax … 15 = r15).
pub fn gpr64(i: usize) -> Register {
    const ALL: [Register; 16] = [
        Register::RAX,
        Register::RCX,
        Register::RDX,
        Register::RBX,
        Register::RSP,
        Register::RBP,
        Register::RSI,
        Register::RDI,
        Register::R8,
        Register::R9,
        Register::R10,
        Register::R11,
        Register::R12,
        Register::R13,
        Register::R14,
        Register::R15,
    ];
    ALL[i]
}

/// The name of the 64-bit GPR numbered `i` (`rax` … `r15`).
pub fn gpr_name(i: usize) -> &'static str {
    const NAMES: [&str; 16] = [
        "rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12",
        "r13", "r14", "r15",
    ];
    NAMES.get(i).copied().unwrap_or("?")
}

/// The GPR number of a register name (`rax`, `eax`, `ax`, `al`, `r8d`, …), any case.
pub fn gpr_by_name(name: &str) -> Option<usize> {
    let n = name.trim().to_ascii_lowercase();
    Register::values()
        .filter(|r| r.is_gpr())
        .find(|r| format!("{r:?}").to_ascii_lowercase() == n)
        .and_then(gpr_number)
}

/// GPR number of rsp.
pub const RSP: usize = 4;

/// A RIP-relative displacement to rewrite in every copy, so the operand lands in the data
/// buffer wherever the copy sits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RipPatch {
    /// Offset of the 4-byte displacement in the block.
    pub disp_at: usize,
    /// Offset of the end of the instruction in the block (RIP-relative addressing counts
    /// from there).
    pub end: usize,
    /// Where in the RIP window the operand points: the original target modulo 64 KiB, so
    /// distinct globals stay distinct.
    pub window_offset: u32,
}

/// Which vector state the block needs initialised.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct VectorUse {
    /// Only legacy-SSE (or VEX.128 without ymm) instructions: start with clean upper halves
    /// (Zen 4 runs SSE at half rate with dirty ones).
    pub legacy_only: bool,
    /// MMX registers are used (`emms` at the end).
    pub mmx: bool,
}

/// A block ready for kernel generation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunnableBlock {
    /// The instructions' bytes, in order.
    pub bytes: Vec<u8>,
    /// Offset of each instruction in `bytes`.
    pub starts: Vec<usize>,
    /// RIP-relative displacements.
    pub rip_patches: Vec<RipPatch>,
    /// GPRs used as the base of a memory operand (rsp included when used).
    pub bases: GprSet,
    /// GPRs used only as an index, never as a base.
    pub index_only: GprSet,
    /// GPRs the block writes (rsp included for push/pop).
    pub written: GprSet,
    /// GPRs the block reads or writes, explicitly or implicitly.
    pub used: GprSet,
    /// A GPR the block never touches: the kernel's loop counter.
    pub counter: usize,
    /// Vector state.
    pub vector: VectorUse,
}

impl RunnableBlock {
    /// Number of instructions.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether the block has no instruction.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// The instruction whose bytes contain `offset` (an offset into one copy).
    pub fn instruction_at(&self, offset: usize) -> Option<usize> {
        if offset >= self.bytes.len() {
            return None;
        }
        Some(self.starts.partition_point(|&s| s <= offset) - 1)
    }
}

/// Order in which free GPRs are taken for the loop counter (callee-saved first: compiled
/// code uses them least in inner blocks).
const COUNTER_PREFERENCE: [usize; 15] = [15, 14, 13, 12, 11, 10, 9, 8, 3, 5, 6, 7, 1, 2, 0];

/// Why a block cannot be run on its own (`Display`: one line).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Nothing to run.
    #[error("the region has no instructions")]
    Empty,
    /// Every GPR is used, so the unrolled kernel has no register for its counter.
    #[error("the block uses every general-purpose register: none is left for the loop counter")]
    NoCounterRegister,
    /// An instruction that cannot run in the harness.
    #[error("{why} at line {line} ({text})")]
    Instruction {
        /// What it does.
        why: Refused,
        /// Source line.
        line: usize,
        /// Its text.
        text: String,
    },
    /// The RIP-relative displacement could not be found in the instruction's bytes.
    #[error("cannot locate the RIP-relative displacement of line {line} ({text})")]
    RipDisplacement {
        /// Source line.
        line: usize,
        /// Its text.
        text: String,
    },
}

/// What an instruction does that the harness cannot run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// `syscall` and friends.
    #[error("{0:?} (a system call) is not run")]
    SystemCall(Mnemonic),
    /// `cpuid`, `serialize`.
    #[error("{0:?} (serialising) is not run")]
    Serialising(Mnemonic),
    /// `wrfsbase`/`wrgsbase`.
    #[error("writing the fs/gs base would break the harness")]
    SegmentBase,
    /// `int n`.
    #[error("a software interrupt is not run")]
    Interrupt,
    /// Branches, calls, returns outside a loop's own shape.
    #[error(
        "control flow cannot be profiled (a block must be straight-line code, a loop must end \
         with a conditional branch back to its first instruction)"
    )]
    ControlFlow,
    /// A write to fs or gs.
    #[error("writing a segment register would break the harness,")]
    SegmentRegister,
    /// A store through fs or gs.
    #[error("a store through {0:?} would overwrite the thread's control block,")]
    SegmentStore(Register),
}

/// Plans `instrs` (one region, decoded) for running; `Err` says why the block cannot be
/// profiled.
pub fn plan(instrs: &[Instr]) -> Result<RunnableBlock, Refusal> {
    let mut b = plan_with(instrs, false)?;
    b.counter = COUNTER_PREFERENCE
        .into_iter()
        .find(|&r| !b.used.has(r))
        .ok_or(Refusal::NoCounterRegister)?;
    Ok(b)
}

/// Plans a loop region (`loop_shape` has checked its branches): branches are kept, and no
/// register is needed for the kernel's own counter (it counts in memory).
pub fn plan_loop(instrs: &[Instr]) -> Result<RunnableBlock, Refusal> {
    plan_with(instrs, true)
}

fn plan_with(instrs: &[Instr], looped: bool) -> Result<RunnableBlock, Refusal> {
    if instrs.is_empty() {
        return Err(Refusal::Empty);
    }
    let mut factory = InstructionInfoFactory::new();
    let mut b = RunnableBlock {
        bytes: Vec::new(),
        starts: Vec::new(),
        rip_patches: Vec::new(),
        bases: GprSet::default(),
        index_only: GprSet::default(),
        written: GprSet::default(),
        used: GprSet::default(),
        counter: 0,
        vector: VectorUse {
            legacy_only: true,
            mmx: false,
        },
    };
    let mut indexes = GprSet::default();
    for ins in instrs {
        let i = &ins.iced;
        let at = |why: Refused| Refusal::Instruction {
            why,
            line: ins.line,
            text: ins.text.clone(),
        };
        refuse_control(i, looped).map_err(at)?;
        let info = factory.info(i);
        for u in info.used_registers() {
            let r = u.register();
            if (r == Register::FS || r == Register::GS) && writes(u.access()) {
                return Err(at(Refused::SegmentRegister));
            }
            b.used.add(r);
            if writes(u.access()) {
                b.written.add(r);
            }
        }
        for m in info.used_memory() {
            if matches!(m.segment(), Register::FS | Register::GS) && writes(m.access()) {
                return Err(at(Refused::SegmentStore(m.segment())));
            }
            b.bases.add(m.base());
            b.used.add(m.base());
            indexes.add(m.index());
            b.used.add(m.index());
        }
        if i.is_ip_rel_memory_operand() {
            b.rip_patches.push(rip_patch(ins, b.bytes.len())?);
        }
        let enc = i.encoding();
        let wide = (0..i.op_count()).any(|o| {
            let r = i.op_register(o);
            r.is_ymm() || r.is_zmm() || r.is_k()
        });
        if !(enc == EncodingKind::Legacy || enc == EncodingKind::VEX && !wide) {
            b.vector.legacy_only = false;
        }
        if enc == EncodingKind::VEX && i.op_code().l() != 0 {
            b.vector.legacy_only = false;
        }
        if (0..i.op_count()).any(|o| i.op_register(o).is_mm()) {
            b.vector.mmx = true;
        }
        b.starts.push(b.bytes.len());
        b.bytes.extend_from_slice(&ins.bytes);
    }
    b.index_only = GprSet(indexes.0 & !b.bases.0);
    Ok(b)
}

fn writes(a: OpAccess) -> bool {
    matches!(
        a,
        OpAccess::Write | OpAccess::CondWrite | OpAccess::ReadWrite | OpAccess::ReadCondWrite
    )
}

/// Control flow and system calls cannot run inside an unrolled loop; faulting instructions
/// (ud2, int3) may: they are reported as faults. In a loop (`branches`), `loop_shape` has
/// already accepted or refused each branch.
fn refuse_control(i: &iced_x86::Instruction, branches: bool) -> Result<(), Refused> {
    let m = i.mnemonic();
    if matches!(
        m,
        Mnemonic::Syscall | Mnemonic::Sysenter | Mnemonic::Sysexit | Mnemonic::Sysret
    ) {
        return Err(Refused::SystemCall(m));
    }
    if matches!(m, Mnemonic::Cpuid | Mnemonic::Serialize) {
        // Serialising, and under a hypervisor a VM exit (cpuid: ~12,800 cycles here).
        return Err(Refused::Serialising(m));
    }
    if matches!(m, Mnemonic::Wrfsbase | Mnemonic::Wrgsbase) {
        return Err(Refused::SegmentBase);
    }
    match i.flow_control() {
        FlowControl::Next | FlowControl::Exception => Ok(()),
        FlowControl::ConditionalBranch | FlowControl::UnconditionalBranch if branches => Ok(()),
        FlowControl::Interrupt if matches!(i.code(), Code::Int3 | Code::Int1) => Ok(()),
        FlowControl::Interrupt => Err(Refused::Interrupt),
        _ => Err(Refused::ControlFlow),
    }
}

/// The displacement of `ins`'s RIP-relative operand, found by decoding its bytes again.
fn rip_patch(ins: &Instr, start: usize) -> Result<RipPatch, Refusal> {
    let mut d = Decoder::with_ip(64, &ins.bytes, ins.address, DecoderOptions::NONE);
    let i = d.decode();
    let off = d.get_constant_offsets(&i);
    if !off.has_displacement() || off.displacement_size() != 4 {
        return Err(Refusal::RipDisplacement {
            line: ins.line,
            text: ins.text.clone(),
        });
    }
    Ok(RipPatch {
        disp_at: start + off.displacement_offset(),
        end: start + ins.bytes.len(),
        window_offset: (i.ip_rel_memory_address() & 0xFFFF) as u32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode_bytes;
    use crate::input::parse_hex;

    fn planned(hex: &str) -> Result<RunnableBlock, String> {
        plan(&decode_bytes(&parse_hex(hex).unwrap(), 0).unwrap()).map_err(|e| e.to_string())
    }

    #[test]
    fn registers_by_role() {
        // mov rax, [rbx + rcx*8 + 8]; add rdi, 64; mov [rdi], rax
        let b = planned("488b44cb084883c740488907").unwrap();
        assert_eq!(b.len(), 3);
        assert_eq!(b.starts, vec![0, 5, 9]);
        assert!(b.bases.has(3) && b.bases.has(7) && !b.bases.has(1));
        assert!(b.index_only.has(1) && !b.index_only.has(3));
        assert!(b.written.has(0) && b.written.has(7) && !b.written.has(3));
        assert_eq!(b.counter, 15);
        assert!(b.vector.legacy_only && !b.vector.mmx);
        assert_eq!(b.instruction_at(0), Some(0));
        assert_eq!(b.instruction_at(6), Some(1));
        assert_eq!(b.instruction_at(11), Some(2));
        assert_eq!(b.instruction_at(12), None);
    }

    #[test]
    fn push_pop_use_rsp_and_counter_avoids_used_registers() {
        // push r15; pop r14
        let b = planned("4157415e").unwrap();
        assert!(b.bases.has(RSP) && b.written.has(RSP));
        assert_eq!(b.counter, 13);
    }

    #[test]
    fn rip_relative_operands_are_patched() {
        // add eax, [rip + 0x1000]; mov ecx, 1
        let b = planned("030500100000b901000000").unwrap();
        assert_eq!(
            b.rip_patches,
            vec![RipPatch {
                disp_at: 2,
                end: 6,
                window_offset: 0x1006,
            }]
        );
    }

    #[test]
    fn vector_state() {
        // vaddps ymm0, ymm1, ymm2
        assert!(!planned("c5f458c2").unwrap().vector.legacy_only);
        // addps xmm0, xmm1; vaddps xmm0, xmm1, xmm2
        assert!(planned("0f58c1c5f058c2").unwrap().vector.legacy_only);
        // paddd mm0, mm1
        assert!(planned("0ffec1").unwrap().vector.mmx);
    }

    #[test]
    fn refusals_say_why() {
        for (hex, why) in [
            ("4801d87500", "control flow"),
            ("0f05", "system call"),
            ("31c00fa2", "serialising"),
            ("cd80", "software interrupt"),
            ("644889042500000000", "thread's control block"),
        ] {
            let e = planned(hex).unwrap_err();
            assert!(e.contains(why), "{hex}: {e}");
        }
        // ud2 and int3 run (and fault).
        assert!(planned("0f0b").is_ok());
        assert!(planned("cc").is_ok());
    }

    #[test]
    fn loops_keep_their_branches_but_not_system_calls() {
        let loop_of = |hex: &str| plan_loop(&decode_bytes(&parse_hex(hex).unwrap(), 0).unwrap());
        // add rax, rcx; dec rdx; jnz 0
        let b = loop_of("4801c848ffca75f8").unwrap();
        assert_eq!(b.len(), 3);
        // syscall; dec rdx; jnz 0
        let e = loop_of("0f0548ffca75f9").unwrap_err().to_string();
        assert!(e.contains("system call"), "{e}");
        assert_eq!(gpr_by_name("R8D"), Some(8));
        assert_eq!(gpr_by_name("al"), Some(0));
        assert_eq!(gpr_by_name("xmm0"), None);
        assert_eq!(gpr_name(15), "r15");
    }

    #[test]
    fn no_register_left_for_the_counter() {
        // xchg of every GPR pair but rsp: rax..r15 all used.
        let hex = "4891\
                   4887d1\
                   4887de\
                   4887ef\
                   4d87c1\
                   4d87d3\
                   4d87e5\
                   4d87f7\
                   4c87c5";
        let e = planned(hex).unwrap_err();
        assert!(e.contains("loop counter"), "{e}");
    }
}
