//! The static description of one instruction instance on one micro-architecture.

use crate::ir::Loc;
use crate::uarch::PortMask;

/// Which measurement variant of the uops.info entry was used.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// The plain attributes.
    Plain,
    /// `_same_reg` attributes (the instruction uses the same register for two operands).
    SameReg,
    /// `_indexed` attributes (the memory operand has an index register).
    Indexed,
}

/// µops that may execute on one set of ports (`3*p015` → `count = 3`, `ports = {0,1,5}`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PortGroupDesc {
    /// Number of µops.
    pub count: u32,
    /// Ports any of which can execute each of these µops.
    pub ports: PortMask,
}

/// One end of a latency: a register/flag location, or the value of memory operand `n`
/// (index into `Instr::mem`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Endpoint {
    /// A register, high-8 register or flag.
    Loc(Loc),
    /// The memory value of `Instr::mem[n]`.
    Mem(u8),
}

/// How the start of a latency is used.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LatVia {
    /// The start is a register/flag value (`cycles`, `cycles_same_reg`).
    Value,
    /// The start is the base register of a memory operand (`cycles_addr`).
    Address,
    /// The start is the index register of a memory operand (`cycles_addr_index`).
    AddressIndex,
    /// The start is the memory value (`cycles_mem`).
    Memory,
}

/// Latency from one input of the instruction to one output, in cycles.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct OpLatency {
    /// The input.
    pub from: Endpoint,
    /// How the input is used.
    pub via: LatVia,
    /// The output.
    pub to: Endpoint,
    /// Cycles from `from` ready to `to` ready (lower bound of a measured range).
    pub cycles: f64,
    /// The value is only an upper bound (uops.info `_is_upper_bound`).
    pub upper_bound: bool,
}

/// Everything the simulation and the reports need about one instruction on one arch.
#[derive(Clone, Debug, PartialEq)]
pub struct InstrDesc {
    /// uops.info `string` of the matched variant, e.g. `ADD_01 (R64, R64)`.
    pub string: String,
    /// XED iform, e.g. `ADD_GPRv_GPRv_01`.
    pub iform: String,
    /// Which measurement attributes were used.
    pub variant: Variant,
    /// Unfused µops executed (`uops`).
    pub uops: u32,
    /// µops per port set (`ports`); may hold fewer µops than `uops` when some µops use no port
    /// (e.g. eliminated moves, NOPs).
    pub port_groups: Vec<PortGroupDesc>,
    /// Fused-domain µops (`uops_retire_slots`), if measured.
    pub fused_uops: Option<u32>,
    /// µops from the legacy decoders (`uops_MITE`), if measured.
    pub uops_mite: Option<u32>,
    /// µops from the microcode sequencer (`uops_MS`), if measured.
    pub uops_ms: Option<u32>,
    /// Must be decoded by the complex decoder (`complex_decoder`), if measured.
    pub complex_decoder: Option<bool>,
    /// Simple decoders that still work in its cycle when it is on the complex decoder
    /// (`available_simple_decoders`), if measured.
    pub simple_decoders: Option<u32>,
    /// Divider occupancy in cycles (`div_cycles`, or `TP_unrolled` where smaller).
    pub div_cycles: Option<u32>,
    /// uops.info strings of the Jcc variants this instruction macro-fuses with.
    pub macro_fusible_with: Vec<String>,
    /// Measured throughput (cycles per instruction), if known (`TP_unrolled`, else `TP_ports`).
    pub throughput: Option<f64>,
    /// Per-operand-pair latencies, resolved to this instruction's registers, flags and memory.
    pub latencies: Vec<OpLatency>,
    /// Maximum over `latencies`, or 1 when none were measured (SUACA's default).
    pub max_latency: f64,
}

impl InstrDesc {
    /// Whether the legacy decoders must take it on decoder 0: where uops.info marks it
    /// (`complex_decoder`, some single-µop instructions too), else when they emit more than
    /// one µop; microcoded instructions always.
    pub fn needs_complex_decoder(&self) -> bool {
        let mite = self
            .uops_mite
            .unwrap_or(self.fused_uops.unwrap_or(self.uops));
        self.complex_decoder.unwrap_or(mite > 1) || self.uops_ms.unwrap_or(0) > 0
    }
}
