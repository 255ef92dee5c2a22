//! A decoded instruction and its accesses.

use iced_x86::Register;

use super::{FlagSet, Loc};

/// How an instruction touches a location.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AccessKind {
    /// Read (including the implicit read of a merging 8/16-bit write).
    Read,
    /// Unconditional write.
    Write,
    /// Write that may not happen (CMOVcc destination with a 32-bit operand, masked writes, ...).
    CondWrite,
}

/// Why an instruction touches a location: which of its operands the access belongs to.
///
/// The data matcher uses this to attach per-operand-pair latencies from uops.info
/// (`<latency start_op target_op>`) to the right accesses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Explicit operand `n` in iced's operand order (Intel order: destination first).
    Operand(u8),
    /// An implicit (suppressed) register operand, e.g. RAX/RDX of `div`, RSP of `push`.
    Implicit,
    /// A register used to form the address of memory operand `mem` (index into
    /// [`Instr::mem`]); `index` is true for the index register, false for the base.
    Address {
        /// Index into [`Instr::mem`].
        mem: u8,
        /// Whether this is the index register (else the base).
        index: bool,
    },
    /// RFLAGS bits.
    Flags,
}

/// One access of an instruction to a [`Loc`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Access {
    /// What is accessed.
    pub loc: Loc,
    /// Read, write or conditional write.
    pub kind: AccessKind,
    /// Which operand the access belongs to.
    pub role: Role,
    /// The register as the instruction names it (`EAX`, `AH`, `XMM1`); `None` for flags.
    pub reg: Option<Register>,
}

/// A memory operand.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MemOperand {
    /// Segment override or implicit segment (`fs:`, `gs:`), `None` for the default DS/SS.
    pub segment: Option<Register>,
    /// Base register (`RIP` for RIP-relative addressing).
    pub base: Option<Register>,
    /// Index register.
    pub index: Option<Register>,
    /// Index scale (1, 2, 4, 8).
    pub scale: u8,
    /// Displacement (sign-extended; for RIP-relative operands, the absolute target address).
    pub displacement: i64,
    /// Access size in bytes, 0 when unknown (e.g. `lea`, `xsave`).
    pub size: u32,
    /// The memory is read.
    pub read: bool,
    /// The memory is written.
    pub write: bool,
    /// `lea`-style address generation only: no memory access happens.
    pub agen: bool,
    /// The explicit operand index this memory operand is, `None` for implicit memory
    /// (`push`, `pop`, `call`, string instructions).
    pub operand: Option<u8>,
}

/// Whether an operand of this kind is an immediate (iced names each width and extension).
pub fn is_immediate(kind: iced_x86::OpKind) -> bool {
    use iced_x86::OpKind;
    matches!(
        kind,
        OpKind::Immediate8
            | OpKind::Immediate16
            | OpKind::Immediate32
            | OpKind::Immediate64
            | OpKind::Immediate8to16
            | OpKind::Immediate8to32
            | OpKind::Immediate8to64
            | OpKind::Immediate32to64
    )
}

impl MemOperand {
    /// The address as Intel syntax writes it (`[rdi+rax*4+0x10]`, `fs:[rax]`), for graph
    /// labels.
    pub fn label(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        let reg = |r: Register| format!("{r:?}").to_lowercase();
        if let Some(b) = self.base.filter(|&b| b != Register::RIP) {
            parts.push(reg(b));
        }
        if let Some(i) = self.index {
            parts.push(if self.scale > 1 {
                format!("{}*{}", reg(i), self.scale)
            } else {
                reg(i)
            });
        }
        let mut text = parts.join("+");
        let d = self.displacement;
        if self.base == Some(Register::RIP) || parts.is_empty() {
            text = format!("{d:#x}");
        } else if d > 0 {
            text.push_str(&format!("+{d:#x}"));
        } else if d < 0 {
            text.push_str(&format!("-{:#x}", d.unsigned_abs()));
        }
        match self.segment {
            Some(s) => format!("{}:[{text}]", reg(s)),
            None => format!("[{text}]"),
        }
    }
}

/// Control-flow effect of an instruction.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BranchKind {
    /// Falls through.
    None,
    /// Conditional direct jump (Jcc, LOOP, JRCXZ) to `target`.
    Conditional {
        /// Absolute target address.
        target: u64,
    },
    /// Unconditional direct jump to `target`.
    Jump {
        /// Absolute target address.
        target: u64,
    },
    /// Indirect jump (`jmp rax`, `jmp [mem]`): leaves the region.
    IndirectJump,
    /// Call (direct or indirect): modelled as falling through to the next instruction.
    Call,
    /// Return: leaves the region.
    Return,
}

impl BranchKind {
    /// Whether it is a conditional jump.
    pub fn is_conditional(self) -> bool {
        matches!(self, BranchKind::Conditional { .. })
    }
}

/// A dependency-breaking idiom: the instruction's result does not depend on its inputs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Idiom {
    /// Produces zero regardless of the input (`xor eax, eax`, `pxor xmm0, xmm0`, `vpcmpgtd x,x,x`...).
    Zero,
    /// Produces all ones regardless of the input (`pcmpeqd xmm0, xmm0`...).
    Ones,
}

/// A decoded instruction; immutable after decoding.
#[derive(Clone, Debug)]
pub struct Instr {
    /// 0-based position in the region ("Line" in the reports).
    pub line: usize,
    /// Virtual address.
    pub address: u64,
    /// Encoded bytes.
    pub bytes: Vec<u8>,
    /// Intel-syntax text as in the thesis tables (`add rbx, rax`, `jnz 0x7`).
    pub text: String,
    /// The iced-x86 instruction (code, operand kinds, prefixes) for data matching.
    pub iced: iced_x86::Instruction,
    /// Register and flag accesses, reads before writes for each operand.
    pub accesses: Vec<Access>,
    /// Memory operands (explicit and implicit).
    pub mem: Vec<MemOperand>,
    /// Control-flow effect.
    pub branch: BranchKind,
    /// Dependency-breaking idiom, if any (then `accesses` holds no reads of the idiom's sources).
    pub idiom: Option<Idiom>,
}

impl Instr {
    /// Whether a length-changing prefix stalls the legacy decoders on this instruction: the
    /// operand-size prefix turns an imm32 into an imm16 (Intel's "LCP stall").
    pub fn has_lcp(&self) -> bool {
        (0..self.iced.op_count()).any(|k| self.iced.op_kind(k) == iced_x86::OpKind::Immediate16)
            && self.bytes.contains(&0x66)
    }

    /// Encoded length in bytes.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether the instruction has no bytes (never true for decoded instructions).
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Accesses that read.
    pub fn reads(&self) -> impl Iterator<Item = &Access> {
        self.accesses.iter().filter(|a| a.kind == AccessKind::Read)
    }

    /// The label of `loc` as this instruction reads it: a vector register by the width the
    /// instruction names (`xmm1`, not the full `zmm1` the dependency analysis tracks), any
    /// other location as [`Loc::label`].
    pub fn read_label(&self, loc: Loc) -> String {
        let named = self
            .reads()
            .find(|a| a.loc == loc)
            .and_then(|a| a.reg)
            .filter(|r| r.is_vector_register());
        match named {
            Some(r) => format!("{r:?}").to_lowercase(),
            None => loc.label(),
        }
    }

    /// Whether the instruction moves a value from memory into a register as it is, or
    /// extended, without operating on it: `mov`, `movzx`, `movsx`, `movsxd` from memory.
    pub fn moves_from_memory(&self) -> bool {
        use iced_x86::Mnemonic;
        matches!(
            self.iced.mnemonic(),
            Mnemonic::Mov | Mnemonic::Movzx | Mnemonic::Movsx | Mnemonic::Movsxd
        ) && self.mem.iter().any(|m| m.read && !m.write && !m.agen)
    }

    /// Accesses that write or conditionally write.
    pub fn writes(&self) -> impl Iterator<Item = &Access> {
        self.accesses.iter().filter(|a| a.kind != AccessKind::Read)
    }

    /// Flags read by the instruction.
    pub fn flags_read(&self) -> FlagSet {
        self.reads().fold(FlagSet::empty(), |acc, a| match a.loc {
            Loc::Flag(f) => acc | f.set(),
            _ => acc,
        })
    }

    /// Flags written (or conditionally written) by the instruction.
    pub fn flags_written(&self) -> FlagSet {
        self.writes().fold(FlagSet::empty(), |acc, a| match a.loc {
            Loc::Flag(f) => acc | f.set(),
            _ => acc,
        })
    }
}
