//! The catalogue: instruction variants from iced-x86, filtered to what user-mode 64-bit code on
//! this host can run, named after uops.info (`ADD_01 (R64, R64)`, `VADDPD (ZMM, K, ZMM, ZMM)`).
//!
//! Names: each variant gets a generated string `MNEMONIC (TOK, TOK)` with uops.info's operand
//! tokens (`R64`, `M64`, `I8`, `XMM`, `K`, `M64_1to8`, `CL`, `1`). When a uops.info/XED-to-XML
//! skeleton is available, the variant is matched to the record with the same mnemonic and
//! tokens (disambiguated by EVEX/mask/zeroing attributes and the opcode at the end of the XED
//! iform, e.g. `ADD_GPRv_GPRv_01`), and that record's `string`, `asm`, `iform`, attributes and
//! `<operand>` list are reused — encoding metadata, not measurements.

use std::collections::{BTreeMap, HashMap};

use iced_x86::{
    Code, CpuidFeature, EncodingKind, FlowControl, Instruction, InstructionInfoFactory,
    MemoryOperand, MemorySize, Mnemonic, OpAccess, OpCodeOperandKind, OpKind, Register,
};
use serde::{Deserialize, Serialize};

use crate::uopsxml::{FlagAccess, InstrRecord, OperandKind, OperandRecord};

/// Register classes the harness can allocate.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum RegClass {
    /// General purpose, with width in bits (8 = low byte).
    Gpr(u32),
    /// XMM (legacy/VEX: 0–15; EVEX: 0–31).
    Xmm,
    /// YMM.
    Ymm,
    /// ZMM.
    Zmm,
    /// Opmask k0–k7.
    K,
    /// MMX.
    Mm,
}

impl RegClass {
    /// Width in bits.
    pub fn width(self) -> u32 {
        match self {
            RegClass::Gpr(w) => w,
            RegClass::Xmm => 128,
            RegClass::Ymm => 256,
            RegClass::Zmm => 512,
            RegClass::K => 64,
            RegClass::Mm => 64,
        }
    }

    /// uops.info token.
    pub fn token(self) -> &'static str {
        match self {
            RegClass::Gpr(8) => "R8l",
            RegClass::Gpr(16) => "R16",
            RegClass::Gpr(32) => "R32",
            RegClass::Gpr(_) => "R64",
            RegClass::Xmm => "XMM",
            RegClass::Ymm => "YMM",
            RegClass::Zmm => "ZMM",
            RegClass::K => "K",
            RegClass::Mm => "MM",
        }
    }

    /// Whether this is a vector class.
    pub fn is_vec(self) -> bool {
        matches!(self, RegClass::Xmm | RegClass::Ymm | RegClass::Zmm)
    }

    /// Register number `n` of this class.
    pub fn reg(self, n: u32) -> Register {
        let base = match self {
            RegClass::Gpr(8) => {
                // AL, CL, DL, BL, SPL, BPL, SIL, DIL, R8L.. (iced order: AL..BH then SPL..R15L)
                return match n {
                    0..=3 => reg_from(Register::AL, n),
                    4..=15 => reg_from(Register::SPL, n - 4),
                    _ => Register::None,
                };
            }
            RegClass::Gpr(16) => Register::AX,
            RegClass::Gpr(32) => Register::EAX,
            RegClass::Gpr(_) => Register::RAX,
            RegClass::Xmm => Register::XMM0,
            RegClass::Ymm => Register::YMM0,
            RegClass::Zmm => Register::ZMM0,
            RegClass::K => Register::K0,
            RegClass::Mm => Register::MM0,
        };
        reg_from(base, n)
    }
}

/// `base + n` within a register class.
pub fn reg_from(base: Register, n: u32) -> Register {
    Register::values()
        .nth(base as usize + n as usize)
        .unwrap_or(Register::None)
}

/// One explicit operand slot of the iced instruction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Slot {
    /// A register chosen by the planner.
    Reg(RegClass),
    /// A register fixed by the encoding (AL, CL, RAX, DX...).
    Fixed(#[serde(with = "reg_serde")] Register),
    /// Memory `[r14 + disp]`, `bytes` wide; `bcst` for `{1toN}`.
    Mem {
        /// Bytes accessed (element size for broadcasts).
        bytes: u32,
        /// Embedded broadcast.
        bcst: bool,
    },
    /// Immediate of this iced kind.
    Imm(#[serde(with = "opkind_serde")] OpKind),
    /// The constant 1 of `SHL r, 1`.
    One,
}

mod reg_serde {
    use iced_x86::Register;
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(r: &Register, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(*r as u32)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Register, D::Error> {
        let n = u32::deserialize(d)?;
        Ok(super::reg_from(Register::None, n))
    }
}

mod opkind_serde {
    use iced_x86::OpKind;
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(k: &OpKind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(*k as u32)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<OpKind, D::Error> {
        let n = u32::deserialize(d)?;
        OpKind::values()
            .nth(n as usize)
            .ok_or_else(|| serde::de::Error::custom("op kind"))
    }
}

/// What an operand of the variant is, for latency planning.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum OpRef {
    /// Explicit iced operand `i`.
    Explicit(u32),
    /// The EVEX opmask.
    Mask,
    /// An implicit register (full 64-bit name for GPRs).
    Implicit(#[serde(with = "reg_serde")] Register),
    /// RFLAGS.
    Flags,
    /// Implicit memory (not planned).
    ImplicitMem,
}

/// One operand as the XML describes it, tied to how the harness reaches it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Operand {
    /// XML `idx`.
    pub idx: u32,
    /// How the harness reaches it.
    pub what: OpRef,
    /// Read.
    pub read: bool,
    /// Written (also conditionally).
    pub write: bool,
    /// Conditionally written.
    pub cond_write: bool,
}

/// One instruction variant to measure.
#[derive(Clone, Debug)]
pub struct Variant {
    /// iced code.
    pub code: Code,
    /// Explicit operand slots (iced order).
    pub slots: Vec<Slot>,
    /// Merge-masking with k1.
    pub masked: bool,
    /// Zeroing-masking.
    pub zeroing: bool,
    /// The XML record skeleton (no `<architecture>`): string, attributes, operands.
    pub record: InstrRecord,
    /// Whether `record` came from the uops.info skeleton (false: generated).
    pub from_skeleton: bool,
    /// Operands for planning.
    pub operands: Vec<Operand>,
    /// Registers the encoding uses implicitly (full GPR names), never to be rotated.
    pub implicit_regs: Vec<Register>,
    /// Implicitly read flags / written flags (iced RflagsBits).
    pub flags_read: u32,
    /// Written flags.
    pub flags_written: u32,
    /// Kind of division (values matter).
    pub divide: Option<DivKind>,
    /// The generated record (used when the skeleton name is taken by another variant).
    pub generated: InstrRecord,
    /// Operands of the generated record.
    pub generated_operands: Vec<Operand>,
}

/// Division-like instructions whose latency depends on operand values.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DivKind {
    /// DIV/IDIV of this operand width (bits).
    Int(u32),
    /// FP divide/sqrt, double precision elements.
    FpDouble,
    /// FP divide/sqrt, single precision elements.
    FpSingle,
}

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

/// Host CPU features, from raw CPUID.
#[derive(Clone, Debug, Default)]
pub struct HostFeatures {
    /// Supported iced features.
    pub supported: std::collections::HashSet<CpuidFeature>,
}

impl HostFeatures {
    /// Builds the set from CPUID words (leaf → [eax, ebx, ecx, edx]).
    pub fn from_cpuid(q: &dyn Fn(u32, u32) -> [u32; 4]) -> Self {
        use CpuidFeature as F;
        let bit = |w: u32, b: u32| w >> b & 1 == 1;
        let max = q(0, 0)[0];
        let maxe = q(0x8000_0000, 0)[0];
        let l1 = q(1, 0);
        let l7 = if max >= 7 { q(7, 0) } else { [0; 4] };
        let l71 = if max >= 7 { q(7, 1) } else { [0; 4] };
        let ld1 = if max >= 0xD { q(0xD, 1) } else { [0; 4] };
        let e1 = if maxe >= 0x8000_0001 {
            q(0x8000_0001, 0)
        } else {
            [0; 4]
        };
        let e8 = if maxe >= 0x8000_0008 {
            q(0x8000_0008, 0)
        } else {
            [0; 4]
        };
        let (c1, d1) = (l1[2], l1[3]);
        let (b7, c7, d7) = (l7[1], l7[2], l7[3]);
        let mut s = std::collections::HashSet::new();
        let mut put = |f: F, on: bool| {
            if on {
                s.insert(f);
            }
        };
        for f in [
            F::INTEL8086,
            F::INTEL186,
            F::INTEL286,
            F::INTEL386,
            F::INTEL486,
            F::X64,
            F::CPUID,
            F::MULTIBYTENOP,
            F::PAUSE,
        ] {
            put(f, true);
        }
        put(F::SSE3, bit(c1, 0));
        put(F::PCLMULQDQ, bit(c1, 1));
        put(F::MONITOR, bit(c1, 3));
        put(F::SSSE3, bit(c1, 9));
        put(F::FMA, bit(c1, 12));
        put(F::CMPXCHG16B, bit(c1, 13));
        put(F::SSE4_1, bit(c1, 19));
        put(F::SSE4_2, bit(c1, 20));
        put(F::MOVBE, bit(c1, 22));
        put(F::POPCNT, bit(c1, 23));
        put(F::AES, bit(c1, 25));
        put(F::XSAVE, bit(c1, 26));
        put(F::AVX, bit(c1, 28));
        put(F::F16C, bit(c1, 29));
        put(F::RDRAND, bit(c1, 30));
        put(F::FPU, bit(d1, 0));
        put(F::TSC, bit(d1, 4));
        put(F::CX8, bit(d1, 8));
        put(F::CMOV, bit(d1, 15));
        put(F::CLFSH, bit(d1, 19));
        put(F::MMX, bit(d1, 23));
        put(F::FXSR, bit(d1, 24));
        put(F::SSE, bit(d1, 25));
        put(F::SSE2, bit(d1, 26));
        put(F::FSGSBASE, bit(b7, 0));
        put(F::BMI1, bit(b7, 3));
        put(F::HLE, bit(b7, 4));
        put(F::AVX2, bit(b7, 5));
        put(F::BMI2, bit(b7, 8));
        put(F::RTM, bit(b7, 11));
        put(F::AVX512F, bit(b7, 16));
        put(F::AVX512DQ, bit(b7, 17));
        put(F::RDSEED, bit(b7, 18));
        put(F::ADX, bit(b7, 19));
        put(F::AVX512_IFMA, bit(b7, 21));
        put(F::CLFLUSHOPT, bit(b7, 23));
        put(F::CLWB, bit(b7, 24));
        put(F::AVX512CD, bit(b7, 28));
        put(F::SHA, bit(b7, 29));
        put(F::AVX512BW, bit(b7, 30));
        put(F::AVX512VL, bit(b7, 31));
        put(F::AVX512_VBMI, bit(c7, 1));
        put(F::PKU, bit(c7, 3));
        put(F::AVX512_VBMI2, bit(c7, 6));
        put(F::GFNI, bit(c7, 8));
        put(F::VAES, bit(c7, 9));
        put(F::VPCLMULQDQ, bit(c7, 10));
        put(F::AVX512_VNNI, bit(c7, 11));
        put(F::AVX512_BITALG, bit(c7, 12));
        put(F::AVX512_VPOPCNTDQ, bit(c7, 14));
        put(F::RDPID, bit(c7, 22));
        put(F::MOVDIRI, bit(c7, 27));
        put(F::MOVDIR64B, bit(c7, 28));
        put(F::AVX512_VP2INTERSECT, bit(d7, 8));
        put(F::SERIALIZE, bit(d7, 14));
        put(F::AVX512_FP16, bit(d7, 23));
        put(F::AVX_VNNI, bit(l71[0], 4));
        put(F::AVX512_BF16, bit(l71[0], 5));
        put(F::XSAVEOPT, bit(ld1[0], 0));
        put(F::XSAVEC, bit(ld1[0], 1));
        put(F::XSAVES, bit(ld1[0], 3));
        put(F::LZCNT, bit(e1[2], 5));
        put(F::SSE4A, bit(e1[2], 6));
        put(F::PREFETCHW, bit(e1[2], 8));
        put(F::XOP, bit(e1[2], 11));
        put(F::FMA4, bit(e1[2], 16));
        put(F::TBM, bit(e1[2], 21));
        put(F::MONITORX, bit(e1[2], 29));
        put(F::SYSCALL, bit(e1[3], 11));
        put(F::RDTSCP, bit(e1[3], 27));
        put(F::CLZERO, bit(e8[1], 0));
        put(F::RDPRU, bit(e8[1], 4));
        put(F::WBNOINVD, bit(e8[1], 9));
        HostFeatures { supported: s }
    }

    /// The running host.
    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    pub fn detect() -> Self {
        Self::from_cpuid(&|l, s| super::jit::cpuid(l, s))
    }

    /// Whether every feature is supported; otherwise the first missing one.
    pub fn check(&self, feats: &[CpuidFeature]) -> Result<(), String> {
        for f in feats {
            if !self.supported.contains(f) {
                return Err(format!("{f:?}"));
            }
        }
        Ok(())
    }
}

/// Options of [`build`].
#[derive(Clone, Debug, Default)]
pub struct CatalogOptions {
    /// Generate merge-masked EVEX forms (`(ZMM, K, ZMM, ZMM)`).
    pub masked: bool,
    /// Generate zero-masked EVEX forms (`_Z`).
    pub zeroing: bool,
    /// Generate broadcast memory forms (`M64_1to8`).
    pub broadcast: bool,
}

/// The catalogue: variants plus everything skipped, with reasons.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    /// Variants to measure, in iced code order.
    pub variants: Vec<Variant>,
    /// Skipped codes: (iced code name, reason).
    pub skipped: Vec<(String, SkipReason)>,
}

impl Catalog {
    /// Counts of skipped codes by reason (reason text → count).
    pub fn skip_summary(&self) -> BTreeMap<String, usize> {
        let mut m = BTreeMap::new();
        for (_, r) in &self.skipped {
            let key = match r {
                SkipReason::CpuidMissing(_) => "host CPUID lacks the feature".to_string(),
                SkipReason::UnsupportedOperands(_) => "operands not generated".to_string(),
                SkipReason::Environment(_) => "changes process state".to_string(),
                SkipReason::Build(_) => "cannot build".to_string(),
                r => r.to_string(),
            };
            *m.entry(key).or_insert(0) += 1;
        }
        m
    }
}

/// Index of a uops.info skeleton: (mnemonic, tokens) → records.
#[derive(Default)]
pub struct Skeleton {
    by_key: HashMap<(String, String), Vec<InstrRecord>>,
    /// Number of records read.
    pub len: usize,
}

/// Splits `ADD_01 (R64, R64)` into (`ADD_01`, `R64, R64`).
fn split_string(s: &str) -> (&str, &str) {
    match s.find(" (") {
        Some(p) => (&s[..p], s[p + 2..].trim_end_matches(')')),
        None => (s, ""),
    }
}

impl Skeleton {
    /// Indexes records (their `<architecture>` children are dropped).
    pub fn new(records: impl IntoIterator<Item = InstrRecord>) -> Self {
        let mut sk = Skeleton::default();
        for mut r in records {
            r.archs.clear();
            let (_, toks) = split_string(&r.string);
            let key = (r.iclass.to_uppercase(), toks.to_string());
            sk.by_key.entry(key).or_default().push(r);
            sk.len += 1;
        }
        sk
    }

    fn candidates(&self, mnem: &str, toks: &str) -> &[InstrRecord] {
        self.by_key
            .get(&(mnem.to_string(), toks.to_string()))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }
}

/// XED spelling of an iced mnemonic (condition codes differ: CMOVE → CMOVZ).
pub fn xed_mnemonic(m: Mnemonic) -> String {
    let s = format!("{m:?}").to_uppercase();
    for prefix in ["CMOV", "SET", "J"] {
        if let Some(cc) = s.strip_prefix(prefix) {
            let cc2 = match cc {
                "E" => "Z",
                "NE" => "NZ",
                "AE" => "NB",
                "A" => "NBE",
                "GE" => "NL",
                "G" => "NLE",
                _ => cc,
            };
            if cc2 != cc && (prefix != "J" || s.len() <= 4) {
                return format!("{prefix}{cc2}");
            }
        }
    }
    match s.as_str() {
        "XLATB" => "XLAT".into(),
        "NOPW" | "NOPD" | "NOPQ" => "NOP".into(),
        _ => s,
    }
}

fn gpr_width(k: OpCodeOperandKind) -> Option<u32> {
    use OpCodeOperandKind as K;
    Some(match k {
        K::r8_reg | K::r8_opcode => 8,
        K::r16_reg | K::r16_reg_mem | K::r16_rm | K::r16_opcode => 16,
        K::r32_reg | K::r32_reg_mem | K::r32_rm | K::r32_opcode | K::r32_vvvv => 32,
        K::r64_reg | K::r64_reg_mem | K::r64_rm | K::r64_opcode | K::r64_vvvv => 64,
        _ => return None,
    })
}

/// Operand "shapes" of a code: each explicit operand either a single slot or reg-or-mem.
enum Shape {
    One(Slot),
    RegOrMem(RegClass),
    MemOnly,
}

fn shape_of(k: OpCodeOperandKind) -> Result<Shape, String> {
    use OpCodeOperandKind as K;
    if let Some(w) = gpr_width(k) {
        return Ok(Shape::One(Slot::Reg(RegClass::Gpr(w))));
    }
    Ok(match k {
        K::r8_or_mem => Shape::RegOrMem(RegClass::Gpr(8)),
        K::r16_or_mem => Shape::RegOrMem(RegClass::Gpr(16)),
        K::r32_or_mem => Shape::RegOrMem(RegClass::Gpr(32)),
        K::r64_or_mem => Shape::RegOrMem(RegClass::Gpr(64)),
        K::mm_or_mem => Shape::RegOrMem(RegClass::Mm),
        K::xmm_or_mem => Shape::RegOrMem(RegClass::Xmm),
        K::ymm_or_mem => Shape::RegOrMem(RegClass::Ymm),
        K::zmm_or_mem => Shape::RegOrMem(RegClass::Zmm),
        K::k_or_mem => Shape::RegOrMem(RegClass::K),
        K::mem => Shape::MemOnly,
        K::k_reg | K::k_rm | K::k_vvvv => Shape::One(Slot::Reg(RegClass::K)),
        K::mm_reg | K::mm_rm => Shape::One(Slot::Reg(RegClass::Mm)),
        K::xmm_reg | K::xmm_rm | K::xmm_vvvv | K::xmm_is4 => Shape::One(Slot::Reg(RegClass::Xmm)),
        K::ymm_reg | K::ymm_rm | K::ymm_vvvv | K::ymm_is4 => Shape::One(Slot::Reg(RegClass::Ymm)),
        K::zmm_reg | K::zmm_rm | K::zmm_vvvv => Shape::One(Slot::Reg(RegClass::Zmm)),
        K::al => Shape::One(Slot::Fixed(Register::AL)),
        K::cl => Shape::One(Slot::Fixed(Register::CL)),
        K::ax => Shape::One(Slot::Fixed(Register::AX)),
        K::eax => Shape::One(Slot::Fixed(Register::EAX)),
        K::rax => Shape::One(Slot::Fixed(Register::RAX)),
        K::imm8 | K::imm8sex16 | K::imm8sex32 | K::imm8sex64 => Shape::One(Slot::Imm(match k {
            K::imm8 => OpKind::Immediate8,
            K::imm8sex16 => OpKind::Immediate8to16,
            K::imm8sex32 => OpKind::Immediate8to32,
            _ => OpKind::Immediate8to64,
        })),
        K::imm16 => Shape::One(Slot::Imm(OpKind::Immediate16)),
        K::imm32 => Shape::One(Slot::Imm(OpKind::Immediate32)),
        K::imm32sex64 => Shape::One(Slot::Imm(OpKind::Immediate32to64)),
        K::imm64 => Shape::One(Slot::Imm(OpKind::Immediate64)),
        K::imm8_const_1 => Shape::One(Slot::One),
        other => return Err(format!("{other:?}")),
    })
}

fn imm_token(k: OpKind) -> &'static str {
    match k {
        OpKind::Immediate8
        | OpKind::Immediate8to16
        | OpKind::Immediate8to32
        | OpKind::Immediate8to64 => "I8",
        OpKind::Immediate16 => "I16",
        OpKind::Immediate32 | OpKind::Immediate32to64 => "I32",
        _ => "I64",
    }
}

/// uops.info token of a slot (`mem_size` is the code's memory size).
fn slot_token(s: &Slot, mem_size: MemorySize, bcst_count: u32) -> String {
    match s {
        Slot::Reg(c) => c.token().to_string(),
        Slot::Fixed(r) => format!("{r:?}").to_uppercase(),
        Slot::Mem { bytes, bcst: false } => {
            let _ = mem_size;
            format!("M{}", bytes * 8)
        }
        Slot::Mem { bytes, bcst: true } => format!("M{}_1to{}", bytes * 8, bcst_count),
        Slot::Imm(k) => imm_token(*k).to_string(),
        Slot::One => "1".to_string(),
    }
}

/// Why a code is skipped before operands are looked at.
fn early_skip(code: Code, feats: &HostFeatures) -> Option<SkipReason> {
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
    if oc.is_serializing_amd() || oc.is_serializing_intel() {
        return Some(SkipReason::Serializing);
    }
    if code.flow_control() != FlowControl::Next {
        return Some(SkipReason::ControlFlow);
    }
    if oc.is_stack_instruction() || code.is_stack_instruction() {
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
        | M::Endbr64
        | M::Pause => {
            return Some(SkipReason::Environment(format!(
                "{m:?}: faults, traps or is excluded by uops.info's method"
            )))
        }
        _ => {}
    }
    if let Err(f) = feats.check(feats_needed) {
        return Some(SkipReason::CpuidMissing(f));
    }
    None
}

/// Builds the concrete instruction of a variant with registers/memory chosen by `pick`.
pub fn instantiate(
    v: &Variant,
    regs: &[Register],
    mem_disp: &[i64],
    imm: u64,
) -> Result<Instruction, String> {
    let mut ins = Instruction::default();
    ins.set_code(v.code);
    let (mut ri, mut mi) = (0usize, 0usize);
    for (i, s) in v.slots.iter().enumerate() {
        let i = i as u32;
        match s {
            Slot::Reg(_) => {
                let r = *regs.get(ri).ok_or("register list too short")?;
                ri += 1;
                ins.try_set_op_kind(i, OpKind::Register)
                    .map_err(|e| e.to_string())?;
                ins.try_set_op_register(i, r).map_err(|e| e.to_string())?;
            }
            Slot::Fixed(r) => {
                ins.try_set_op_kind(i, OpKind::Register)
                    .map_err(|e| e.to_string())?;
                ins.try_set_op_register(i, *r).map_err(|e| e.to_string())?;
            }
            Slot::Mem { bcst, .. } => {
                let d = *mem_disp.get(mi).ok_or("memory list too short")?;
                mi += 1;
                ins.try_set_op_kind(i, OpKind::Memory)
                    .map_err(|e| e.to_string())?;
                ins.set_memory_base(Register::R14);
                ins.set_memory_index(Register::None);
                ins.set_memory_index_scale(1);
                ins.set_memory_displacement64(d as u64);
                ins.set_memory_displ_size(if d == 0 {
                    0
                } else if (-128..128).contains(&d) {
                    1
                } else {
                    8
                });
                ins.set_is_broadcast(*bcst);
            }
            Slot::Imm(k) => {
                ins.try_set_op_kind(i, *k).map_err(|e| e.to_string())?;
                match k {
                    OpKind::Immediate8 => ins.set_immediate8(imm as u8),
                    OpKind::Immediate8to16 => ins.set_immediate8to16(imm as i16),
                    OpKind::Immediate8to32 => ins.set_immediate8to32(imm as i32),
                    OpKind::Immediate8to64 => ins.set_immediate8to64(imm as i64),
                    OpKind::Immediate16 => ins.set_immediate16(imm as u16),
                    OpKind::Immediate32 => ins.set_immediate32(imm as u32),
                    OpKind::Immediate32to64 => ins.set_immediate32to64(imm as i64),
                    _ => ins.set_immediate64(imm),
                }
            }
            Slot::One => {
                ins.try_set_op_kind(i, OpKind::Immediate8)
                    .map_err(|e| e.to_string())?;
                ins.set_immediate8(1);
            }
        }
    }
    if v.masked || v.zeroing {
        ins.set_op_mask(Register::K1);
        ins.set_zeroing_masking(v.zeroing);
    }
    Ok(ins)
}

/// Memory operand `[r14 + d]`.
pub fn mem_at(d: i64) -> MemoryOperand {
    MemoryOperand::with_base_displ(Register::R14, d)
}

/// Builds the catalogue.
pub fn build(feats: &HostFeatures, skel: Option<&Skeleton>, opts: &CatalogOptions) -> Catalog {
    let mut cat = Catalog::default();
    let mut factory = InstructionInfoFactory::new();
    for code in Code::values() {
        if let Some(r) = early_skip(code, feats) {
            if !matches!(r, SkipReason::Build(_)) {
                cat.skipped.push((format!("{code:?}"), r));
            }
            continue;
        }
        let oc = code.op_code();
        let mut shapes = Vec::new();
        let mut bad = None;
        for k in oc.op_kinds() {
            match shape_of(*k) {
                Ok(s) => shapes.push(s),
                Err(e) => {
                    bad = Some(e);
                    break;
                }
            }
        }
        if let Some(e) = bad {
            cat.skipped
                .push((format!("{code:?}"), SkipReason::UnsupportedOperands(e)));
            continue;
        }
        let mem_size = oc.memory_size();
        let mem_bytes = mem_size.size() as u32;
        let has_rm = shapes
            .iter()
            .any(|s| matches!(s, Shape::RegOrMem(_) | Shape::MemOnly));
        // Forms: register form (if any rm is reg-capable), memory form, broadcast form.
        let mut forms: Vec<(bool, bool)> = Vec::new(); // (memory, broadcast)
        let reg_ok = !shapes.iter().any(|s| matches!(s, Shape::MemOnly));
        if reg_ok {
            forms.push((false, false));
        }
        if has_rm {
            if mem_bytes == 0 && shapes.iter().any(|s| matches!(s, Shape::MemOnly)) {
                // e.g. LEA (agen), PREFETCH, CLFLUSH: memory of unknown size.
                if matches!(code.mnemonic(), Mnemonic::Lea) {
                    cat.skipped.push((
                        format!("{code:?}"),
                        SkipReason::UnsupportedOperands("LEA addressing forms".into()),
                    ));
                    continue;
                }
            }
            forms.push((true, false));
            if opts.broadcast && oc.can_broadcast() {
                forms.push((true, true));
            }
        }
        let vec_bits = shapes
            .iter()
            .filter_map(|s| match s {
                Shape::One(Slot::Reg(c)) | Shape::RegOrMem(c) if c.is_vec() => Some(c.width()),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        let mut masks: Vec<(bool, bool)> = Vec::new(); // (masked, zeroing)
        if oc.require_op_mask_register() {
            masks.push((true, false));
        } else {
            masks.push((false, false));
            if oc.can_use_op_mask_register() && opts.masked {
                masks.push((true, false));
            }
            if oc.can_use_zeroing_masking() && opts.zeroing {
                masks.push((true, true));
            }
        }
        for &(is_mem, bcst) in &forms {
            for &(masked, zeroing) in &masks {
                // Zeroing-masking with a memory destination is #UD.
                if zeroing
                    && is_mem
                    && matches!(shapes.first(), Some(Shape::RegOrMem(_) | Shape::MemOnly))
                {
                    continue;
                }
                let slots: Vec<Slot> = shapes
                    .iter()
                    .map(|s| match s {
                        Shape::One(sl) => sl.clone(),
                        Shape::RegOrMem(c) => {
                            if is_mem {
                                Slot::Mem {
                                    bytes: if bcst {
                                        oc.broadcast_memory_size().size() as u32
                                    } else if mem_bytes > 0 {
                                        mem_bytes
                                    } else {
                                        c.width() / 8
                                    },
                                    bcst,
                                }
                            } else {
                                Slot::Reg(*c)
                            }
                        }
                        Shape::MemOnly => Slot::Mem {
                            bytes: mem_bytes,
                            bcst,
                        },
                    })
                    .collect();
                match make_variant(code, slots, masked, zeroing, vec_bits, skel, &mut factory) {
                    Ok(v) => cat.variants.push(v),
                    Err(e) => cat.skipped.push((format!("{code:?}"), e)),
                }
            }
        }
    }
    dedup_names(&mut cat.variants);
    cat
}

/// Makes every `string` unique the way uops.info does: a skeleton name is kept by its first
/// variant; generated names that collide get `_EVEX` (EVEX twin of a VEX/legacy form), then the
/// opcode byte (`ADD_01`/`ADD_03`), then the iced code name.
fn dedup_names(vs: &mut [Variant]) {
    let mut taken: std::collections::HashSet<String> = std::collections::HashSet::new();
    for v in vs.iter_mut() {
        if v.from_skeleton && !taken.insert(v.record.string.clone()) {
            v.from_skeleton = false;
            v.record = v.generated.clone();
            v.operands = v.generated_operands.clone();
        }
    }
    let rename = |v: &Variant, suffix: &str| {
        let (base, toks) = split_string(&v.record.string);
        if toks.is_empty() {
            format!("{base}_{suffix}")
        } else {
            format!("{base}_{suffix} ({toks})")
        }
    };
    for round in 0..3 {
        let mut groups: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, v) in vs.iter().enumerate() {
            if !v.from_skeleton {
                groups.entry(v.record.string.clone()).or_default().push(i);
            }
        }
        for (name, idx) in groups {
            if idx.len() < 2 && !(taken.contains(&name) && round == 0) {
                continue;
            }
            let is_evex: Vec<bool> = idx
                .iter()
                .map(|i| vs[*i].code.op_code().encoding() == EncodingKind::EVEX)
                .collect();
            let mixed = is_evex.iter().any(|e| *e) && !is_evex.iter().all(|e| *e);
            for (k, &i) in idx.iter().enumerate() {
                let new = match round {
                    0 if mixed => {
                        if is_evex[k] {
                            rename(&vs[i], "EVEX")
                        } else {
                            continue;
                        }
                    }
                    0 => continue,
                    1 => rename(
                        &vs[i],
                        &format!("{:02X}", vs[i].code.op_code().op_code() & 0xFF),
                    ),
                    _ => rename(&vs[i], &format!("{:?}", vs[i].code)),
                };
                vs[i].record.string = new;
            }
        }
    }
    for v in vs.iter() {
        if !v.from_skeleton {
            taken.insert(v.record.string.clone());
        }
    }
}

fn make_variant(
    code: Code,
    slots: Vec<Slot>,
    masked: bool,
    zeroing: bool,
    vec_bits: u32,
    skel: Option<&Skeleton>,
    factory: &mut InstructionInfoFactory,
) -> Result<Variant, SkipReason> {
    let oc = code.op_code();
    let mnem = xed_mnemonic(code.mnemonic());
    let mut toks: Vec<String> = slots
        .iter()
        .map(|s| {
            let b = oc.broadcast_memory_size().size().max(1);
            let n = oc.memory_size().size().checked_div(b).unwrap_or(0) as u32;
            let _ = vec_bits;
            slot_token(s, oc.memory_size(), n)
        })
        .collect();
    if masked && !toks.is_empty() {
        toks.insert(1, "K".into());
    }
    let tok_str = toks.join(", ");
    let mut v = Variant {
        code,
        slots,
        masked,
        zeroing,
        record: InstrRecord::default(),
        from_skeleton: false,
        operands: Vec::new(),
        implicit_regs: Vec::new(),
        flags_read: 0,
        flags_written: 0,
        divide: None,
        generated: InstrRecord::default(),
        generated_operands: Vec::new(),
    };
    // A sample instance for iced's operand access information.
    let nregs = v.slots.iter().filter(|s| matches!(s, Slot::Reg(_))).count();
    let regs: Vec<Register> = v
        .slots
        .iter()
        .filter_map(|s| match s {
            Slot::Reg(c) => Some(*c),
            _ => None,
        })
        .enumerate()
        .map(|(i, c)| c.reg(sample_reg_number(c, i as u32)))
        .collect();
    debug_assert_eq!(regs.len(), nregs);
    let mems: Vec<i64> = (0..4).map(|i| i * 64).collect();
    let ins = instantiate(&v, &regs, &mems, 2).map_err(SkipReason::Build)?;
    let mut enc = iced_x86::Encoder::new(64);
    enc.encode(&ins, 0)
        .map_err(|e| SkipReason::Build(e.to_string()))?;
    let info = factory.info(&ins);
    let explicit_regs: Vec<Register> = (0..ins.op_count())
        .filter(|&i| ins.op_kind(i) == OpKind::Register)
        .map(|i| ins.op_register(i).full_register())
        .collect();
    let mut implicit = Vec::new();
    for ur in info.used_registers() {
        let r = ur.register();
        let full = r.full_register();
        if explicit_regs.contains(&full)
            || matches!(r, Register::R14 | Register::K1)
            || r.is_segment_register()
            || r == Register::None
        {
            continue;
        }
        if full == Register::RSP || full == Register::R15 {
            return Err(SkipReason::Stack);
        }
        if !implicit.contains(&full) {
            implicit.push(full);
        }
    }
    if info.used_memory().iter().any(|m| m.base() != Register::R14) {
        return Err(SkipReason::UnsupportedOperands(
            "implicit memory operand".into(),
        ));
    }
    v.implicit_regs = implicit;
    v.flags_read = ins.rflags_read();
    v.flags_written = ins.rflags_modified();
    v.divide = divide_kind(code, &v.slots);
    // Operands (generated form).
    let mut ops = Vec::new();
    let mut recs = Vec::new();
    let mut idx = 1u32;
    let access = |i: u32| info_access(&ins, i);
    for i in 0..ins.op_count() {
        if i == 1 && masked {
            ops.push(Operand {
                idx,
                what: OpRef::Mask,
                read: true,
                write: false,
                cond_write: false,
            });
            recs.push(OperandRecord {
                idx,
                name: Some(format!("REG{}", idx - 1)),
                kind: Some(OperandKind::Reg),
                read: true,
                width: Some(64),
                registers: (1..8).map(|k| format!("K{k}")).collect(),
                attrs: [("opmask".to_string(), "1".to_string())]
                    .into_iter()
                    .collect(),
                ..OperandRecord::default()
            });
            idx += 1;
        }
        let (r, w, cw) = access(i);
        ops.push(Operand {
            idx,
            what: OpRef::Explicit(i),
            read: r,
            write: w,
            cond_write: cw,
        });
        recs.push(generated_operand(&v.slots[i as usize], idx, r, w, cw));
        idx += 1;
    }
    for r in &v.implicit_regs {
        let acc = info
            .used_registers()
            .iter()
            .filter(|u| u.register().full_register() == *r)
            .map(|u| u.access())
            .collect::<Vec<_>>();
        let rd = acc.iter().any(|a| {
            matches!(
                a,
                OpAccess::Read | OpAccess::ReadWrite | OpAccess::ReadCondWrite | OpAccess::CondRead
            )
        });
        let wr = acc.iter().any(|a| {
            matches!(
                a,
                OpAccess::Write
                    | OpAccess::ReadWrite
                    | OpAccess::CondWrite
                    | OpAccess::ReadCondWrite
            )
        });
        let cw = acc
            .iter()
            .any(|a| matches!(a, OpAccess::CondWrite | OpAccess::ReadCondWrite));
        ops.push(Operand {
            idx,
            what: OpRef::Implicit(*r),
            read: rd,
            write: wr,
            cond_write: cw,
        });
        let width = info
            .used_registers()
            .iter()
            .filter(|u| u.register().full_register() == *r)
            .map(|u| u.register().size() as u32 * 8)
            .max()
            .unwrap_or(64);
        let name = info
            .used_registers()
            .iter()
            .find(|u| u.register().full_register() == *r && u.register().size() as u32 * 8 == width)
            .map(|u| format!("{:?}", u.register()).to_uppercase())
            .unwrap_or_else(|| format!("{r:?}").to_uppercase());
        recs.push(OperandRecord {
            idx,
            name: Some(format!("REG{}", idx - 1)),
            kind: Some(OperandKind::Reg),
            read: rd,
            write: wr,
            cond_write: cw,
            suppressed: true,
            width: Some(width),
            registers: vec![name],
            ..OperandRecord::default()
        });
        idx += 1;
    }
    if v.flags_read != 0 || v.flags_written != 0 {
        let mut flags = BTreeMap::new();
        use iced_x86::RflagsBits as F;
        for (bit, name) in [
            (F::CF, "CF"),
            (F::PF, "PF"),
            (F::AF, "AF"),
            (F::ZF, "ZF"),
            (F::SF, "SF"),
            (F::OF, "OF"),
        ] {
            let a = FlagAccess {
                read: v.flags_read & bit != 0,
                write: (ins.rflags_written() | ins.rflags_cleared() | ins.rflags_set()) & bit != 0,
                cond_write: false,
                undefined: ins.rflags_undefined() & bit != 0,
            };
            if a != FlagAccess::default() {
                flags.insert(name.to_string(), a);
            }
        }
        if !flags.is_empty() {
            let rd = v.flags_read != 0;
            let wr = v.flags_written != 0;
            ops.push(Operand {
                idx,
                what: OpRef::Flags,
                read: rd,
                write: wr,
                cond_write: false,
            });
            recs.push(OperandRecord {
                idx,
                name: Some(format!("REG{}", idx - 1)),
                kind: Some(OperandKind::Flags),
                read: rd,
                write: wr,
                suppressed: true,
                flags,
                ..OperandRecord::default()
            });
        }
    }
    // Name: the skeleton's record when one matches, else generated.
    let name = if v.zeroing {
        format!("{mnem}_Z")
    } else {
        mnem.clone()
    };
    v.generated = InstrRecord {
        string: if tok_str.is_empty() {
            name.clone()
        } else {
            format!("{name} ({tok_str})")
        },
        asm: mnem.clone(),
        iform: String::new(),
        iclass: mnem.clone(),
        extension: format!("{:?}", oc.encoding()).to_uppercase(),
        isa_set: code
            .cpuid_features()
            .first()
            .map(|f| format!("{f:?}"))
            .unwrap_or_default(),
        category: String::new(),
        attrs: generated_attrs(&v, code),
        operands: recs,
        archs: Vec::new(),
    };
    v.generated_operands = ops.clone();
    v.record = v.generated.clone();
    v.operands = ops.clone();
    let matched = skel.and_then(|sk| match_record(sk, &mnem, &tok_str, code, masked, zeroing));
    match matched {
        None => {}
        Some(rec) => {
            // Map planning operands onto the skeleton's operand indices: explicit operands
            // (and the mask) in order; implicit registers by name; flags to the flags operand.
            let mut explicit_idx = rec.operands.iter().filter(|o| !o.suppressed).map(|o| o.idx);
            let mut mapped = Vec::new();
            for o in &ops {
                let new_idx = match &o.what {
                    OpRef::Explicit(_) | OpRef::Mask => explicit_idx.next(),
                    OpRef::Implicit(r) => rec
                        .operands
                        .iter()
                        .find(|x| {
                            x.suppressed
                                && x.kind == Some(OperandKind::Reg)
                                && x.registers.len() == 1
                                && reg_name_full(&x.registers[0]) == Some(*r)
                        })
                        .map(|x| x.idx),
                    OpRef::Flags => rec
                        .operands
                        .iter()
                        .find(|x| x.kind == Some(OperandKind::Flags))
                        .map(|x| x.idx),
                    OpRef::ImplicitMem => None,
                };
                if let Some(n) = new_idx {
                    let mut o2 = o.clone();
                    o2.idx = n;
                    // Trust the skeleton's access flags for explicit operands.
                    if let Some(x) = rec.operands.iter().find(|x| x.idx == n) {
                        o2.read = x.read || o2.read && x.kind == Some(OperandKind::Flags);
                        o2.write = x.write;
                        o2.cond_write = x.cond_write;
                        if x.kind == Some(OperandKind::Flags) {
                            o2.read = x.flags.values().any(|f| f.read);
                            o2.write = x.flags.values().any(|f| f.write || f.cond_write);
                        }
                    }
                    mapped.push(o2);
                }
            }
            v.operands = mapped;
            v.record = rec;
            v.from_skeleton = true;
        }
    }
    Ok(v)
}

fn generated_attrs(v: &Variant, code: Code) -> BTreeMap<String, String> {
    let mut m = BTreeMap::new();
    match code.op_code().encoding() {
        EncodingKind::VEX => {
            m.insert("vex".into(), "1".into());
        }
        EncodingKind::EVEX => {
            m.insert("evex".into(), "1".into());
            m.insert("mask".into(), if v.masked { "1" } else { "0" }.into());
            m.insert("zeroing".into(), if v.zeroing { "1" } else { "0" }.into());
        }
        _ => {}
    }
    m.insert("iced_code".into(), format!("{code:?}"));
    m
}

/// Opcode byte when this reg-reg form has an alternative encoding (ADD 01 vs 03).
#[allow(dead_code)]
fn alternative_encoding(code: Code) -> Option<u32> {
    let oc = code.op_code();
    if oc.encoding() != EncodingKind::Legacy {
        return None;
    }
    let kinds = oc.op_kinds();
    let has_rm = kinds.iter().any(|k| format!("{k:?}").ends_with("_or_mem"));
    let has_reg = kinds.iter().any(|k| format!("{k:?}").ends_with("_reg"));
    (has_rm && has_reg && kinds.len() == 2).then(|| oc.op_code())
}

fn reg_name_full(name: &str) -> Option<Register> {
    Register::values()
        .find(|r| format!("{r:?}").eq_ignore_ascii_case(name))
        .map(|r| r.full_register())
}

fn sample_reg_number(c: RegClass, i: u32) -> u32 {
    match c {
        RegClass::K => 2 + i,
        RegClass::Gpr(_) => [1, 3, 6, 7, 8, 9][i as usize % 6],
        _ => 1 + i,
    }
}

fn info_access(ins: &Instruction, i: u32) -> (bool, bool, bool) {
    let mut f = InstructionInfoFactory::new();
    let info = f.info(ins);
    match info.op_access(i) {
        OpAccess::Read | OpAccess::CondRead => (true, false, false),
        OpAccess::Write => (false, true, false),
        OpAccess::CondWrite => (false, true, true),
        OpAccess::ReadWrite => (true, true, false),
        OpAccess::ReadCondWrite => (true, true, true),
        _ => (false, false, false),
    }
}

fn generated_operand(s: &Slot, idx: u32, r: bool, w: bool, cw: bool) -> OperandRecord {
    let mut o = OperandRecord {
        idx,
        read: r,
        write: w && !cw,
        cond_write: cw,
        ..OperandRecord::default()
    };
    if cw {
        o.write = true;
    }
    match s {
        Slot::Reg(c) => {
            o.kind = Some(OperandKind::Reg);
            o.name = Some(format!("REG{}", idx - 1));
            o.width = Some(c.width());
            let n = match c {
                RegClass::Zmm | RegClass::Ymm | RegClass::Xmm => 16,
                RegClass::K => 8,
                RegClass::Mm => 8,
                RegClass::Gpr(_) => 16,
            };
            o.registers = (0..n)
                .map(|k| format!("{:?}", c.reg(k)).to_uppercase())
                .collect();
        }
        Slot::Fixed(reg) => {
            o.kind = Some(OperandKind::Reg);
            o.name = Some(format!("REG{}", idx - 1));
            o.width = Some(reg.size() as u32 * 8);
            o.registers = vec![format!("{reg:?}").to_uppercase()];
        }
        Slot::Mem { bytes, bcst } => {
            o.kind = Some(OperandKind::Mem);
            o.name = Some("MEM0".into());
            o.width = Some(bytes * 8);
            if *bcst {
                o.attrs.insert("memory-suffix".into(), "{1toN}".into());
            }
        }
        Slot::Imm(k) => {
            o.kind = Some(OperandKind::Imm);
            o.name = Some("IMM0".into());
            o.width = Some(match imm_token(*k) {
                "I8" => 8,
                "I16" => 16,
                "I32" => 32,
                _ => 64,
            });
        }
        Slot::One => {
            o.kind = Some(OperandKind::Imm);
            o.name = Some("IMM0".into());
            o.width = Some(8);
            o.text = Some("1".into());
        }
    }
    o
}

fn match_record(
    sk: &Skeleton,
    mnem: &str,
    toks: &str,
    code: Code,
    masked: bool,
    zeroing: bool,
) -> Option<InstrRecord> {
    let oc = code.op_code();
    let evex = oc.encoding() == EncodingKind::EVEX;
    let vex = oc.encoding() == EncodingKind::VEX;
    let cands: Vec<&InstrRecord> = sk
        .candidates(mnem, toks)
        .iter()
        .filter(|r| (r.attr("evex") == Some("1")) == evex)
        .filter(|r| (r.attr("vex") == Some("1")) == vex || evex)
        .filter(|r| r.attr("immzero") != Some("1"))
        .filter(|r| r.attr("high8").is_none_or(str::is_empty))
        .filter(|r| r.attr("locked").is_none() && r.attr("rep").is_none())
        .filter(|r| (r.attr("zeroing") == Some("1")) == zeroing)
        .filter(|r| !masked || r.attr("mask") != Some("0"))
        .filter(|r| r.attr("roundc").is_none_or(|v| v == "0"))
        .filter(|r| r.attr("sae").is_none_or(|v| v == "0"))
        .collect();
    if cands.len() <= 1 {
        return cands.first().map(|r| (*r).clone());
    }
    // Disambiguate by the opcode at the end of the iform (ADD_GPRv_GPRv_01).
    let op = format!("_{:02X}", oc.op_code() & 0xFF);
    let by_op: Vec<&&InstrRecord> = cands
        .iter()
        .filter(|r| r.iform.ends_with(&op) || r.iform.contains(&format!("{op}r")))
        .collect();
    if by_op.len() == 1 {
        return Some((*by_op[0]).clone());
    }
    // Immediate width (eosz) or W: prefer the first candidate whose string has no suffix.
    let first = by_op
        .first()
        .copied()
        .or(cands.first())
        .map(|r| (*r).clone());
    first
}

fn divide_kind(code: Code, slots: &[Slot]) -> Option<DivKind> {
    use Mnemonic as M;
    let m = code.mnemonic();
    match m {
        M::Div | M::Idiv => {
            let w = slots
                .iter()
                .find_map(|s| match s {
                    Slot::Reg(RegClass::Gpr(w)) => Some(*w),
                    Slot::Mem { bytes, .. } => Some(bytes * 8),
                    _ => None,
                })
                .unwrap_or(64);
            Some(DivKind::Int(w))
        }
        _ => {
            let s = format!("{m:?}").to_uppercase();
            let is_div = s.contains("DIVP")
                || s.contains("DIVS")
                || s.contains("SQRTP")
                || s.contains("SQRTS");
            if !is_div || s.contains("RSQRT") {
                return None;
            }
            if s.ends_with('D') {
                Some(DivKind::FpDouble)
            } else if s.ends_with('S') {
                Some(DivKind::FpSingle)
            } else {
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_features() -> HostFeatures {
        HostFeatures::from_cpuid(&|_, _| [0xFFFF_FFFF; 4])
    }

    #[test]
    fn mnemonic_spelling() {
        assert_eq!(xed_mnemonic(Mnemonic::Cmove), "CMOVZ");
        assert_eq!(xed_mnemonic(Mnemonic::Setge), "SETNL");
        assert_eq!(xed_mnemonic(Mnemonic::Cmovg), "CMOVNLE");
        assert_eq!(xed_mnemonic(Mnemonic::Add), "ADD");
        assert_eq!(xed_mnemonic(Mnemonic::Vaddpd), "VADDPD");
    }

    #[test]
    fn split() {
        assert_eq!(split_string("ADD_01 (R64, R64)"), ("ADD_01", "R64, R64"));
        assert_eq!(split_string("CPUID"), ("CPUID", ""));
    }

    fn find<'a>(c: &'a Catalog, s: &str) -> &'a Variant {
        c.variants
            .iter()
            .find(|v| v.record.string == s)
            .unwrap_or_else(|| panic!("{s} missing"))
    }

    #[test]
    fn generated_names_follow_uops_info() {
        let opts = CatalogOptions {
            masked: true,
            zeroing: true,
            broadcast: true,
        };
        let c = build(&all_features(), None, &opts);
        find(&c, "ADD_01 (R64, R64)");
        find(&c, "ADD_03 (R64, R64)");
        find(&c, "ADD (M64, R64)");
        find(&c, "ADD (R64, M64)");
        find(&c, "MOV (R64, M64)");
        find(&c, "IMUL (R64, R64, I8)");
        find(&c, "VADDPD (YMM, YMM, YMM)");
        find(&c, "VADDPD (ZMM, K, ZMM, ZMM)");
        find(&c, "VADDPD_Z (ZMM, K, ZMM, ZMM)");
        find(&c, "VADDPD (ZMM, ZMM, M64_1to8)");
        find(&c, "SHL (R64, CL)");
        find(&c, "SHL (R64, 1)");
        let d = find(&c, "DIV (R64)");
        assert_eq!(d.divide, Some(DivKind::Int(64)));
        assert!(d.implicit_regs.contains(&Register::RAX));
        assert!(d.implicit_regs.contains(&Register::RDX));
        // Skips carry reasons.
        let s = c.skip_summary();
        assert!(s.keys().any(|k| k.contains("x87")), "{s:?}");
        assert!(s.keys().any(|k| k.contains("control flow")), "{s:?}");
        assert!(c.skipped.iter().any(|(n, _)| n.starts_with("Push")));
        // Unique strings.
        let mut seen = std::collections::HashSet::new();
        for v in &c.variants {
            assert!(seen.insert(v.record.string.clone()), "{}", v.record.string);
        }
    }

    #[test]
    fn operands_have_access_and_flags() {
        let c = build(&all_features(), None, &CatalogOptions::default());
        let v = find(&c, "ADD_01 (R64, R64)");
        let rec = &v.record;
        assert_eq!(rec.operands.len(), 3);
        assert!(rec.operands[0].read && rec.operands[0].write);
        assert!(rec.operands[1].read && !rec.operands[1].write);
        assert_eq!(rec.operands[2].kind, Some(OperandKind::Flags));
        assert!(rec.operands[2].suppressed);
        let adc = find(&c, "ADC_11 (R64, R64)");
        assert!(adc.flags_read != 0);
    }

    #[test]
    fn cpuid_filter() {
        let none = HostFeatures::from_cpuid(&|_, _| [0; 4]);
        let c = build(&none, None, &CatalogOptions::default());
        assert!(c
            .variants
            .iter()
            .all(|v| !v.record.string.starts_with("VADDPD")));
        assert!(c
            .skipped
            .iter()
            .any(|(_, r)| matches!(r, SkipReason::CpuidMissing(f) if f == "AVX")));
    }

    #[test]
    fn skeleton_names_win() {
        let rec = InstrRecord {
            string: "ADD_01 (R64, R64)".into(),
            asm: "{load} ADD".into(),
            iform: "ADD_GPRv_GPRv_01".into(),
            iclass: "ADD".into(),
            operands: vec![
                OperandRecord {
                    idx: 1,
                    read: true,
                    write: true,
                    kind: Some(OperandKind::Reg),
                    ..Default::default()
                },
                OperandRecord {
                    idx: 2,
                    read: true,
                    kind: Some(OperandKind::Reg),
                    ..Default::default()
                },
            ],
            ..Default::default()
        };
        let rec3 = InstrRecord {
            string: "ADD_03 (R64, R64)".into(),
            iform: "ADD_GPRv_GPRv_03".into(),
            ..rec.clone()
        };
        let sk = Skeleton::new(vec![rec, rec3]);
        let c = build(&all_features(), Some(&sk), &CatalogOptions::default());
        let v01 = c
            .variants
            .iter()
            .find(|v| {
                v.code == Code::Add_rm64_r64
                    && v.slots.iter().all(|s| !matches!(s, Slot::Mem { .. }))
            })
            .unwrap();
        assert!(v01.from_skeleton);
        assert_eq!(v01.record.string, "ADD_01 (R64, R64)");
        let v03 = c
            .variants
            .iter()
            .find(|v| {
                v.code == Code::Add_r64_rm64
                    && v.slots.iter().all(|s| !matches!(s, Slot::Mem { .. }))
            })
            .unwrap();
        assert_eq!(v03.record.string, "ADD_03 (R64, R64)");
    }
}
