//! Typed records of the uops.info XML. Everything that was not in the file is `None`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One `<instruction>` element: an instruction variant (key: `string`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct InstrRecord {
    /// Unique key, e.g. `ADD_01 (R64, R64)`.
    pub string: String,
    /// Assembly mnemonic as uops.info prints it (`ADD`, `{load} MOV`).
    pub asm: String,
    /// XED iform, e.g. `ADD_GPRv_GPRv_01`.
    pub iform: String,
    /// XED iclass, e.g. `ADD`.
    pub iclass: String,
    /// XED extension (`BASE`, `AVX`, ...).
    pub extension: String,
    /// XED isa-set.
    pub isa_set: String,
    /// XED category.
    pub category: String,
    /// Every other attribute (`eosz`, `vex`, `evex`, `mask`, `high8`, `locked`, `agen`,
    /// `immzero`, `rep`, `rm`, `sae`, `zeroing`, `bcast`, `roundc`, ...), verbatim.
    pub attrs: BTreeMap<String, String>,
    /// `<operand>` children in document order.
    pub operands: Vec<OperandRecord>,
    /// `<architecture>` children with measurements, in document order.
    pub archs: Vec<ArchRecord>,
}

impl InstrRecord {
    /// An optional attribute.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.get(name).map(String::as_str)
    }

    /// The measurement for `arch`, if any.
    pub fn arch(&self, arch: &str) -> Option<&ArchRecord> {
        self.archs.iter().find(|a| a.name == arch)
    }
}

/// Kind of an `<operand>` (`type` attribute; the 2018 form writes `flag`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OperandKind {
    /// Register.
    Reg,
    /// Memory.
    Mem,
    /// RFLAGS bits (`flags`, or `flag` in the 2018 form).
    Flags,
    /// Immediate.
    Imm,
    /// Address generation (LEA).
    Agen,
    /// Relative branch target.
    Relbr,
    /// Anything else, verbatim.
    Other(String),
}

/// Access of one flag by a flags operand (`flag_CF="r/w"` style values: `r`, `w`, `cw`,
/// `undef`, joined by `/`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FlagAccess {
    /// Read (`r`).
    pub read: bool,
    /// Written (`w`).
    pub write: bool,
    /// Conditionally written (`cw`).
    pub cond_write: bool,
    /// Undefined after the instruction (`undef`; `u` is accepted on input).
    pub undefined: bool,
}

/// One `<operand>` element.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OperandRecord {
    /// `idx` attribute: the operand number latencies refer to.
    pub idx: u32,
    /// `name` (`REG0`, `MEM0`, `IMM0`, ...), if present.
    pub name: Option<String>,
    /// `type`.
    pub kind: Option<OperandKind>,
    /// `r="1"`.
    pub read: bool,
    /// `w="1"`.
    pub write: bool,
    /// `conditionalWrite="1"`.
    pub cond_write: bool,
    /// `suppressed="1"`: implicit operand.
    pub suppressed: bool,
    /// `width` in bits.
    pub width: Option<u32>,
    /// `xtype` (`i32`, `f64`, `u8`...).
    pub xtype: Option<String>,
    /// Allowed registers (text of a `reg` operand), e.g. `["RAX", "RCX", ...]`; for an
    /// immediate operand with a fixed value the text is kept in `text`.
    pub registers: Vec<String>,
    /// Raw element text when it is not a register list (e.g. an immediate `1`).
    pub text: Option<String>,
    /// Per-flag access of a `flags` operand, keyed by flag name (`CF`, `ZF`, ...).
    pub flags: BTreeMap<String, FlagAccess>,
    /// Every other attribute (`base`, `index`, `VSIB`, `opmask`, `memory-prefix`, `moffs`,
    /// `optional`, `implicit`...), verbatim.
    pub attrs: BTreeMap<String, String>,
}

/// One group of a port usage, e.g. `3*p015` → `count = 3`, `prefix = "p"`, `ports = "015"`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PortGroup {
    /// Number of µops.
    pub count: u32,
    /// Port prefix: `p` (Intel), `FP` (AMD FP pipes), or a µop-type name on hybrid cores.
    pub prefix: String,
    /// Port characters after the prefix, sorted (`0156`, `23A`).
    pub ports: String,
}

/// A parsed `ports` attribute: µops per port combination.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PortUsage {
    /// The groups in the file's order.
    pub groups: Vec<PortGroup>,
}

/// A latency value: exact (`cycles`), or a range (`min_cycles`/`max_cycles`), possibly only an
/// upper bound (`_is_upper_bound`).
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LatValue {
    /// Lower bound (equal to `max` for exact values).
    pub min: f64,
    /// Upper bound.
    pub max: f64,
    /// The value is an upper bound only (`…_is_upper_bound="1"`).
    pub upper_bound: bool,
}

impl LatValue {
    /// An exact value.
    pub fn exact(cycles: f64) -> Self {
        LatValue {
            min: cycles,
            max: cycles,
            upper_bound: false,
        }
    }
}

/// One `<latency>` element: latency from operand `start_op` to operand `target_op`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Latency {
    /// `start_op` (2018: `startOp`).
    pub start_op: u32,
    /// `target_op` (2018: `targetOp`).
    pub target_op: u32,
    /// Register/flag/memory value to target (`cycles` / `min_cycles`+`max_cycles`).
    pub cycles: Option<LatValue>,
    /// Same, when the start and target operands are the same register.
    pub cycles_same_reg: Option<LatValue>,
    /// From an address (base) register of a memory start operand.
    pub cycles_addr: Option<LatValue>,
    /// From the index register of a memory start operand.
    pub cycles_addr_index: Option<LatValue>,
    /// From the memory value (store-to-load round trip) of a memory start operand.
    pub cycles_mem: Option<LatValue>,
    /// `cycles_addr` when the address register is also the target (`cycles_addr_same_reg`).
    pub cycles_addr_same_reg: Option<LatValue>,
    /// `cycles_mem_same_reg`.
    pub cycles_mem_same_reg: Option<LatValue>,
    /// Latency attributes this reader cannot place (e.g. `cycles_addr_index_same_reg`, or a
    /// `min_cycles` next to an exact `cycles`), verbatim.
    pub extra: BTreeMap<String, String>,
}

/// One group of measured values: the plain attributes, or those with suffix `_same_reg` or
/// `_indexed`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MeasureValues {
    /// `uops` (2018: `total_uops`): unfused µops executed.
    pub uops: Option<u32>,
    /// `uops_retire_slots`: fused-domain µops (may be negative in uops.info? kept signed).
    pub uops_retire_slots: Option<i32>,
    /// `uops_MITE`: µops from the legacy decoders.
    pub uops_mite: Option<i32>,
    /// `uops_MS`: µops from the microcode sequencer.
    pub uops_ms: Option<i32>,
    /// `complex_decoder="1"`: needs the complex decoder.
    pub complex_decoder: Option<bool>,
    /// `available_simple_decoders`.
    pub available_simple_decoders: Option<u32>,
    /// `TP_unrolled` (cycles per instruction).
    pub tp_unrolled: Option<f64>,
    /// `TP_loop` (cycles per instruction).
    pub tp_loop: Option<f64>,
    /// `TP_ports` (LP bound from `ports`).
    pub tp_ports: Option<f64>,
    /// `ports` (2018: `portNN="k"` attributes, converted).
    pub ports: Option<PortUsage>,
    /// `div_cycles` (2018: `div-cycles`/`div_cycles`): divider busy cycles.
    pub div_cycles: Option<u32>,
    /// `macro_fusible`: `;`-separated instruction strings this one fuses with.
    pub macro_fusible: Option<Vec<String>>,
}

/// One `<architecture>/<measurement>`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    /// The plain attributes.
    pub base: MeasureValues,
    /// Attributes with suffix `_same_reg` (the variant with identical registers).
    pub same_reg: Option<MeasureValues>,
    /// Attributes with suffix `_indexed` (the variant with an indexed address).
    pub indexed: Option<MeasureValues>,
    /// `<latency>` children.
    pub latencies: Vec<Latency>,
    /// Attributes this reader does not know (e.g. our own `ports_inferred`), verbatim.
    pub extra: BTreeMap<String, String>,
}

/// One `<architecture name=…>` element with its measurement.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ArchRecord {
    /// uops.info arch name (`SKL`, `ZEN3`, ...).
    pub name: String,
    /// Attributes of `<architecture>` other than `name` (e.g. provenance), verbatim.
    pub attrs: BTreeMap<String, String>,
    /// The measurement, if the element has one (arch nodes with only `<IACA>`/`<doc>` have none).
    pub measurement: Option<Measurement>,
}
