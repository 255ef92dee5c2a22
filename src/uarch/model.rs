//! The typed micro-architecture description (`MicroArch`) and its parts.
//!
//! Every field that is not known from a public source is `None` (or an empty list); nothing is
//! filled with a guessed default. Units are given in each field's documentation and in
//! `data/arch/README.md`.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::PortMask;
use crate::uopsxml::PortGroup;

/// CPU vendor.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Vendor {
    /// Intel.
    Intel,
    /// AMD.
    Amd,
}

/// What an execution port (Intel) or pipe (AMD) can do. A port usually has several roles.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// General integer ALU (add, logic, compare).
    Alu,
    /// Scalar integer multiply (`imul`).
    Mul,
    /// Integer divider (not pipelined; blocked for `div_cycles`).
    Divider,
    /// Floating-point / vector divider and square root.
    FpDivider,
    /// Integer shifts and rotates.
    Shift,
    /// Branch execution (taken and not-taken jumps).
    Branch,
    /// The port that executes taken branches where only one does (Haswell to Cascade Lake:
    /// port 6, "the primary branch unit"); a loop's back branch runs there.
    TakenBranch,
    /// Load (address generation and data read).
    Load,
    /// Store-address generation.
    StoreAddress,
    /// The port's AGU only handles simple addressing (`[base + disp]`, Intel port 7).
    SimpleAddressingOnly,
    /// Store data.
    StoreData,
    /// Vector load data: loads into vector registers take one of these as well as a load
    /// port (Zen: two vector loads per cycle, three loads of other kinds).
    VectorLoad,
    /// Any SIMD / floating-point execution.
    Vector,
    /// Floating-point multiply and FMA.
    FpMul,
    /// Floating-point add.
    FpAdd,
    /// Vector shuffles / permutes.
    Shuffle,
    /// Floating-point store data and FP-to-integer transfers (Zen 3/4 pipes FP4/FP5).
    FpStore,
    /// Two writes of 256-bit registers (a ymm load's data, a ymm result) a cycle each.
    VectorWrite,
}

impl Role {
    /// Every role, in declaration order.
    pub const ALL: [Role; 18] = [
        Role::Alu,
        Role::Mul,
        Role::Divider,
        Role::FpDivider,
        Role::Shift,
        Role::Branch,
        Role::TakenBranch,
        Role::Load,
        Role::StoreAddress,
        Role::SimpleAddressingOnly,
        Role::StoreData,
        Role::VectorLoad,
        Role::Vector,
        Role::FpMul,
        Role::FpAdd,
        Role::Shuffle,
        Role::FpStore,
        Role::VectorWrite,
    ];
}

/// One simulated execution port.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Port {
    /// Name as reports print it: `0`..`11` (Intel), `ALU0`, `AGU1`, `BR1`, `FP3` (AMD).
    pub name: String,
    /// What the port can execute.
    pub roles: Vec<Role>,
}

impl Port {
    /// Whether the port has `role`.
    pub fn has(&self, role: Role) -> bool {
        self.roles.contains(&role)
    }
}

/// One scheduler queue of a distributed scheduler (AMD), or the unified RS (Intel).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchedulerQueue {
    /// Queue name (`ALU0`, `AGQ`, `FP`, `NSQ`...).
    pub name: String,
    /// Capacity in µops / macro-ops.
    pub entries: u32,
    /// Ports fed by this queue (names from `ports`); empty for a non-scheduling queue.
    #[serde(default)]
    pub ports: Vec<String>,
}

/// How one uops.info port prefix maps onto this arch's ports.
///
/// A group `<prefix><chars>` names, for every char `c`, the port called
/// `port_prefix + aliases.get(c).unwrap_or(c)`. Intel: prefix `p`, no port prefix, `A`→`10`
/// and `B`→`11` on ADL-P/MTL-P. Zen: prefix `FP`, port prefix `FP`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotationRule {
    /// The prefix in the XML (`p`, `FP`).
    pub prefix: String,
    /// Prepended to each char (or alias) to form the port name.
    #[serde(default)]
    pub port_prefix: String,
    /// Chars standing for a longer port name (`A` → `10`).
    #[serde(default)]
    pub aliases: BTreeMap<String, String>,
}

/// Front-end parameters.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrontEnd {
    /// Number of legacy decoders (instructions decoded per cycle).
    pub decoders: Option<u32>,
    /// Instruction bytes the legacy decode path handles per cycle.
    pub decode_bytes_per_cycle: Option<u32>,
    /// µops per cycle delivered by the legacy decoders (MITE).
    pub mite_uops_per_cycle: Option<u32>,
    /// µops per cycle delivered by the microcode sequencer (MSROM).
    pub ms_uops_per_cycle: Option<u32>,
    /// µop cache (DSB / op cache) capacity in µops; `None` if unknown or absent.
    pub uop_cache_uops: Option<u32>,
    /// µops per cycle delivered by the µop cache.
    pub uop_cache_uops_per_cycle: Option<u32>,
    /// Code window one µop-cache line set covers, in bytes (32 up to CLX, 64 from ICL).
    pub uop_cache_window_bytes: Option<u32>,
    /// Whether a loop's iteration takes whole cycles of the op cache: max(⌈µops / per
    /// cycle⌉, windows touched) (Zen 4, measured: the taken back branch ends the last
    /// read), not the fraction the bound keeps otherwise.
    pub uop_cache_whole_cycles: Option<bool>,
    /// Capacity of the µop queue (IDQ) in µops.
    pub idq_uops: Option<u32>,
    /// Whether the loop stream detector is enabled.
    pub lsd: Option<bool>,
    /// Largest loop (µops) the LSD can stream.
    pub lsd_uops: Option<u32>,
    /// Sustained taken branches per cycle for general loops (SL: Intel 1 per 2 cycles).
    pub taken_branches_per_cycle: Option<f64>,
    /// Cycles the predecoder stalls on an instruction with a length-changing prefix.
    pub lcp_penalty: Option<u32>,
    /// Taken branches per cycle for tiny loops with a single backward branch.
    pub small_loop_taken_branches_per_cycle: Option<f64>,
    /// Instructions the predecoder marks per cycle within one fetch block
    /// (`decode_bytes_per_cycle` bytes, aligned).
    pub predecode_width: Option<u32>,
    /// Cycles from predecode until an instruction may be decoded.
    pub predecode_decode_delay: Option<u32>,
    /// Instruction queue (between predecoder and decoders) capacity in instructions.
    pub iq_entries: Option<u32>,
    /// Whether the first instruction of a macro-fused pair may go to the last decoder of a
    /// cycle (`false` on Sandy Bridge to Broadwell).
    pub macro_fusion_on_last_decoder: Option<bool>,
    /// Whether NOPs take no dispatch slot (Zen 4, measured: a block of two instructions and
    /// a NOP dispatches in the cycles of the two).
    pub nops_take_no_slot: Option<bool>,
    /// Ways of the µop cache one code window may fill (a window needing more is not cached).
    pub uop_cache_ways_per_window: Option<u32>,
    /// µops one µop-cache way holds.
    pub uop_cache_uops_per_way: Option<u32>,
    /// Branches one µop-cache way holds.
    pub uop_cache_branches_per_way: Option<u32>,
    /// Whether a 32-byte window is cached only if the other half of its 64-byte line is
    /// cacheable too (Skylake family).
    pub uop_cache_coupled_halves: Option<bool>,
    /// Whether a jump (or macro-fused pair) that crosses or ends on a 32-byte boundary keeps
    /// its window out of the µop cache (the JCC-erratum microcode update).
    pub jcc_erratum: Option<bool>,
    /// Cycles the µop cache stalls when it hands over to the microcode sequencer.
    pub uop_cache_ms_stall: Option<u32>,
    /// Cycles lost switching from the µop cache to the legacy decoders.
    pub uop_cache_mite_switch: Option<u32>,
    /// LSD unrolling: `[max_uops, factor]` pairs in increasing order; a loop of `n` µops is
    /// unrolled by the factor of the first pair with `n <= max_uops`, else 1.
    pub lsd_unrolling: Option<Vec<[u32; 2]>>,
    /// A loop with a µop that splits at issue (un-laminated: more issue slots than the
    /// decoders' µops) is issued in groups that stop at the end of its body unrolled `u`
    /// times, `u` the least factor whose last group is at least half full (Redwood Cove,
    /// measured; absent: no such limit).
    pub split_loop_groups: Option<bool>,
}

/// Load/store units and caches.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Memory {
    /// Loads per cycle (any width up to the native vector width unless stated otherwise).
    pub loads_per_cycle: Option<u32>,
    /// Vector (≥ 128-bit) loads per cycle, when lower than `loads_per_cycle`.
    pub vector_loads_per_cycle: Option<u32>,
    /// Stores per cycle.
    pub stores_per_cycle: Option<u32>,
    /// Vector stores per cycle, when lower than `stores_per_cycle`.
    pub vector_stores_per_cycle: Option<u32>,
    /// Memory operations (loads + stores) per cycle: the AGU limit.
    pub mem_ops_per_cycle: Option<u32>,
    /// Whether stores with complex addressing cannot use the simple store AGU, so that
    /// `(loads + complex stores) / load-AGUs` is a limit (SKL-family port 7).
    pub complex_addressing_limit: Option<bool>,
    /// Largest displacement the simple store AGU accepts (`[base + 0..=n]`).
    pub simple_store_max_offset: Option<u32>,
    /// L1D load-to-use latency for an integer load with simple addressing, cycles.
    pub l1_latency: Option<u32>,
    /// L2 load-to-use latency, cycles.
    pub l2_latency: Option<u32>,
    /// Store-to-load forwarding latency, cycles.
    pub store_forward_latency: Option<u32>,
    /// Cycles from a read-modify-write's start until a later load or read-modify-write of
    /// its bytes has the value by store forwarding, where the data's memory-to-memory
    /// latency is lower (a floor; absent: the data alone).
    pub rmw_round_trip: Option<u32>,
    /// Cycles from a plain load's start to its value when store forwarding serves it, where
    /// that is sooner than the data's load latency (absent: the data's latency).
    pub forwarded_load_latency: Option<u32>,
    /// Cycles between loads that store forwarding cannot serve (a load reading bytes of an
    /// in-flight store and others): each waits for its store to commit (absent: no penalty
    /// beyond the dependency).
    pub store_forward_fail_cycles: Option<u32>,
    /// Loads a cycle that the store queue serves (forwarded or renamed values; absent: no
    /// limit beyond the load ports). Only 1 is modelled (the loads in a chain a cycle apart).
    pub forwarded_loads_per_cycle: Option<u32>,
    /// Banks per 64-byte L1 line where two loads in one cycle conflict when they touch a
    /// common bank of different lines (Sandy Bridge, Ivy Bridge: 16, bank = address bits
    /// 5:2); absent: no bank conflicts.
    pub l1_banks_per_line: Option<u32>,
    /// Loads a cycle that one L1 bank (`l1_banks_per_line`) serves, whatever their lines:
    /// loads touching a common bank share that many load ports (Redwood Cove: 2 of its 3;
    /// loads of one address count). Absent: Sandy Bridge's rule, loads of different lines
    /// that touch a common bank read one a cycle.
    pub l1_loads_per_bank: Option<u32>,
    /// Page walks the core keeps in flight at once (Skylake: 2); absent: one at a time.
    /// Only a harness's page cost uses it (`--harness bhive`, docs/model.md "The
    /// measurement harness's values").
    pub page_walks_in_flight: Option<u32>,
    /// Fast pointer chasing: a load `[base + disp]` (no index, 0 ≤ disp < 2048) whose base
    /// another load wrote reaches its result a cycle sooner than the data's latency says
    /// (Intel Sandy Bridge to Cascade Lake).
    pub fast_pointer_chasing: Option<bool>,
    /// Bytes a load port's data path reads per cycle: a wider load holds it longer (the
    /// "D" columns of IACA and the thesis).
    pub load_port_bytes: Option<u32>,
    /// Bytes the store-data path writes per cycle.
    pub store_data_bytes: Option<u32>,
    /// Whether stores commit to L1 at one cache line per cycle: two stores in a cycle only
    /// when they are consecutive, scalar and write the same aligned block of
    /// `store_pair_bytes` (Zen 4, measured).
    pub store_line_pairs: Option<bool>,
    /// The aligned block two stores must share to commit in one cycle under
    /// `store_line_pairs` (Zen 4: 32, measured; 64 when not given).
    pub store_pair_bytes: Option<u32>,
    /// Whether two stores of vector data (up to 16 bytes) pair under `store_line_pairs` like
    /// any two (Redwood Cove, measured); absent or false, they never share a cycle (Zen 4).
    pub store_vector_pairs: Option<bool>,
    /// Bytes one commit slot writes under `store_line_pairs` (absent: 16, Zen 4): a store up
    /// to this size takes one of the two slots of a cycle and may pair, a wider one takes a
    /// slot per this many bytes and pairs with none (Redwood Cove: 32, measured).
    pub store_slot_bytes: Option<u32>,
    /// Whether memory renaming serves an access whose address has an index register (absent:
    /// yes; Redwood Cove: no, such a read-modify-write chains through store forwarding).
    pub renames_indexed: Option<bool>,
    /// Whether, in loop mode, a load and a store whose address difference is unknown (a
    /// loaded index) depend when the instructions name them the same way, as in unrolled
    /// mode (absent: they never depend; docs/model.md "Unknown provenance").
    pub loop_same_name_aliases: Option<bool>,
    /// Whether a push read back by a pop (or a plain `mov` load) of the same slot gets its
    /// value by memory renaming, like a renamed `mov` store (Zen 4, measured).
    pub stack_renaming: Option<bool>,
    /// Bytes a vector-load port (role `vector_load`) reads per cycle.
    pub vector_load_bytes: Option<u32>,
    /// A load crossing a boundary of this many bytes is split.
    pub load_split_bytes: Option<u32>,
    /// Load slots a split load costs.
    pub load_split_cost: Option<u32>,
    /// A store crossing a boundary of this many bytes is split.
    pub store_split_bytes: Option<u32>,
    /// Store slots (cycles at 1 store/cycle) a split store costs.
    pub store_split_cost: Option<u32>,
}

/// Register-move elimination at rename.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveElimination {
    /// General-purpose register moves can be eliminated.
    pub gpr: Option<bool>,
    /// Vector register moves can be eliminated.
    pub vector: Option<bool>,
    /// Physical registers that general-purpose moves may share at once; a move that finds
    /// none free executes on an ALU (docs/model.md, "Move elimination limits"). Absent:
    /// unlimited.
    pub gpr_slots: Option<u32>,
    /// The same for vector moves.
    pub vector_slots: Option<u32>,
    /// Cycles after the renaming of the instruction that frees a slot before the slot
    /// serves another move.
    pub slot_release_cycles: Option<u32>,
    /// A slot is freed only once every register sharing it was written again (`false`: once
    /// all but one were).
    pub slot_frees_with_all_aliases: Option<bool>,
}

/// The renamer's rules beyond move elimination.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Renamer {
    /// Whether `ah`..`dh` are renamed apart from their full register, so that a read of the
    /// wider register after a write of the high byte alone gets a merge µop (Sandy Bridge
    /// to Cascade Lake; absent: no merge µops).
    pub high8_merge_uops: Option<bool>,
}

/// When a µop allowed on several ports is bound to one of them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PortBinding {
    /// At issue, by the renamer, from the µops waiting on each port (Intel, uiCA's rule).
    Issue,
    /// At dispatch, on the least used free port (SUACA's rule).
    Dispatch,
}

/// The scheduler.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scheduler {
    /// When µops get their ports (absent: at dispatch).
    pub port_assignment: Option<PortBinding>,
    /// Whether an instruction that moves a value from the vector unit into a general-purpose
    /// register (`movd r32, xmm`, `pextrd`, `cvttsd2si`) holds every integer ALU for a cycle.
    pub vector_to_gpr_holds_alus: Option<bool>,
    /// Whether a shift or rotate by CL waits for the flags it leaves alone when the count is
    /// 0 (absent: yes, Intel's flag merge; Zen 4: no, measured).
    pub cl_shifts_read_flags: Option<bool>,
    /// Whether an instruction's issue slots dispatch in one cycle: a two-slot instruction
    /// that finds one slot left in the cycle waits for the next (absent: no, slots split).
    pub whole_instruction_dispatch: Option<bool>,
    /// With ports bound at issue: whether the renamer issues only when the scheduler has
    /// room for a whole issue group (`issue_width` µops), so the groups the binding rule
    /// sees stay whole when the scheduler is full (absent: no, as many µops as fit).
    pub whole_issue_groups: Option<bool>,
    /// Whether the µops of one instruction may take the same port in one cycle (absent:
    /// yes, thesis §3.3; Zen 4: no, each µop of the measured port counts is a port cycle).
    pub uops_share_ports: Option<bool>,
    /// Vector results that cross between the FP units and the vector ALUs come a cycle late
    /// (absent: never; docs/model.md "Vector bypass").
    pub vector_bypass: Option<VectorBypass>,
}

/// The units of the vector bypass rule, each as a uops.info port string (`p01`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VectorBypass {
    /// A vector µop of latency 2 or more on these ports (or some of them) is an FMA unit's.
    pub fma: String,
    /// A vector µop of latency 2 or more on exactly these ports is an FP adder's.
    pub fadd: String,
    /// A one-cycle vector µop that may run on each of these ports is a vector ALU's.
    pub alu: String,
}

/// When a micro-fused load+op µop with an indexed address is un-laminated at issue.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unlamination {
    /// Every micro-fused µop with indexed addressing is un-laminated (SNB, IVB).
    IndexedAlways,
    /// Indexed forms stay fused only for 2-operand instructions whose destination is also a
    /// source (`add rax, [rbx+rcx]`); other indexed forms un-laminate (HSW and later).
    IndexedUnlessRmwTwoOperand,
    /// Only a store of a general-purpose register or an immediate with an indexed address
    /// takes two slots (`mov [rdi+rax*4], ecx`); loads, load+ops, read-modify-writes and
    /// vector stores stay fused (Zen 4, measured).
    IndexedIntegerStores,
    /// No un-lamination.
    Never,
}

/// Macro- and micro-fusion capabilities.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fusion {
    /// Whether a flag-setting instruction and a following Jcc fuse into one µop.
    pub macro_fusion: Option<bool>,
    /// Mnemonics that can be the first instruction of a macro-fused pair (uops.info's
    /// per-instruction `macro_fusible` attribute is authoritative where present).
    #[serde(default)]
    pub macro_fusion_first: Vec<String>,
    /// Whether load+op instructions are micro-fused in the decoders.
    pub micro_fusion: Option<bool>,
    /// Un-lamination rule for indexed addressing.
    pub unlaminate_indexed: Option<Unlamination>,
    /// Whether a macro-fused pair whose first instruction writes a register (`dec rcx; jnz`,
    /// not `cmp; jne`) runs on that instruction's ALU ports instead of the branch's own.
    pub fused_writer_on_alu: Option<bool>,
}

/// A full micro-architecture description, loaded from `data/arch/<NAME>.toml` with its `base`
/// chain resolved.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MicroArch {
    /// uops.info name (`SKL`, `ZEN+`).
    pub name: String,
    /// Long name (`Skylake (client)`).
    pub full_name: String,
    /// Vendor.
    pub vendor: Vendor,
    /// Core family (`Skylake`, `Sunny Cove`, `Zen 3`).
    pub family: String,
    /// The arch this one inherits from (already applied).
    pub base: Option<String>,
    /// Paths removed from the inherited values (already applied).
    #[serde(default)]
    pub unset: Vec<String>,
    /// Rename/allocate (issue) width per cycle: fused-domain µops (Intel) or macro-ops (AMD).
    pub issue_width: u32,
    /// Instructions per cycle, when this is a separate limit (AMD: SL §3.1).
    pub issue_width_instructions: Option<u32>,
    /// Retire width, fused µops / macro-ops per cycle.
    pub retire_width: Option<u32>,
    /// Reorder buffer entries.
    pub rob_size: Option<u32>,
    /// Total scheduler entries (unified RS on Intel; sum of scheduling queues on AMD).
    pub rs_size: Option<u32>,
    /// Individual scheduler queues, where the scheduler is distributed.
    #[serde(default)]
    pub scheduler_queues: Vec<SchedulerQueue>,
    /// Load buffer (load queue) entries.
    pub load_buffer: Option<u32>,
    /// Store buffer (store queue) entries.
    pub store_buffer: Option<u32>,
    /// Integer physical registers.
    pub int_prf: Option<u32>,
    /// Vector / FP physical registers.
    pub vec_prf: Option<u32>,
    /// Branches in flight (branch order buffer).
    pub branches_in_flight: Option<u32>,
    /// Calls in flight.
    pub calls_in_flight: Option<u32>,
    /// Front end.
    #[serde(default)]
    pub front_end: FrontEnd,
    /// Loads, stores, caches.
    #[serde(default)]
    pub memory: Memory,
    /// Move elimination.
    #[serde(default)]
    pub move_elimination: MoveElimination,
    /// Macro/micro-fusion.
    #[serde(default)]
    pub fusion: Fusion,
    /// The renamer's rules beyond move elimination.
    #[serde(default)]
    pub renamer: Renamer,
    /// Scheduler policies.
    #[serde(default)]
    pub scheduler: Scheduler,
    /// Simulated ports in index order (bit `i` of a [`PortMask`] = `ports[i]`).
    pub ports: Vec<Port>,
    /// uops.info port notation → ports.
    #[serde(default)]
    pub port_notation: Vec<NotationRule>,
    /// Ports assumed for µops the XML gives no port data for (Zen integer instructions), by
    /// role (`alu`, `load`, `store_address`, `store_data`, `branch`, `mul`, `divider`).
    /// An approximation, documented in `data/arch/README.md`.
    #[serde(default)]
    pub default_ports: BTreeMap<Role, Vec<String>>,
    /// Field path (`rob_size`, `memory.l1_latency`, `ports`) → where the value comes from.
    #[serde(default)]
    pub sources: BTreeMap<String, String>,
}

impl MicroArch {
    /// Index of the port called `name`.
    pub fn port_index(&self, name: &str) -> Option<usize> {
        self.ports.iter().position(|p| p.name == name)
    }

    /// Name of port `i`.
    pub fn port_name(&self, i: usize) -> Option<&str> {
        self.ports.get(i).map(|p| p.name.as_str())
    }

    /// Every port.
    pub fn all_ports(&self) -> PortMask {
        PortMask((0..self.ports.len()).fold(0, |m, i| m | (1 << i)))
    }

    /// The ports having `role`.
    pub fn ports_with_role(&self, role: Role) -> PortMask {
        self.mask_where(|p| p.has(role))
    }

    /// The port hosting the integer divider (Intel: port 0; Zen: an ALU).
    pub fn divider_port(&self) -> Option<usize> {
        self.ports.iter().position(|p| p.has(Role::Divider))
    }

    /// The port hosting the FP/vector divider (Intel: port 0; Zen: an FP pipe).
    pub fn fp_divider_port(&self) -> Option<usize> {
        self.ports.iter().position(|p| p.has(Role::FpDivider))
    }

    /// The ports names (in index order) of a mask, e.g. `["0", "1", "5", "6"]`.
    pub fn port_names(&self, mask: PortMask) -> Vec<&str> {
        mask.iter().filter_map(|i| self.port_name(i)).collect()
    }

    /// Mask of the named ports; `None` if a name is not a port of this arch.
    pub fn mask_of_names<S: AsRef<str>>(&self, names: &[S]) -> Option<PortMask> {
        names.iter().try_fold(PortMask::EMPTY, |m, n| {
            self.port_index(n.as_ref())
                .map(|i| m.union(PortMask::single(i)))
        })
    }

    /// Ports assumed for a µop of kind `role` that has no port data in the XML (see
    /// `default_ports`); `None` when the arch file gives no such rule.
    pub fn default_port_mask(&self, role: Role) -> Option<PortMask> {
        self.default_ports
            .get(&role)
            .and_then(|names| self.mask_of_names(names))
    }

    /// Converts a uops.info port group (`prefix` `p`/`FP`, `ports` like `0156` or `23A`) into
    /// this arch's ports. `None` if the prefix is unknown here, the group names no port, or a
    /// char names no port of this arch.
    pub fn port_mask(&self, group: &PortGroup) -> Option<PortMask> {
        self.mask_for(&group.prefix, &group.ports)
    }

    /// Like [`MicroArch::port_mask`] for a port string without count, e.g. `p0156`, `FP23`,
    /// `p23A` (a leading `N*` is ignored).
    pub fn parse_port_mask(&self, s: &str) -> Option<PortMask> {
        let s = s.split_once('*').map_or(s, |(_, rest)| rest);
        // Longest matching prefix wins (`FP` before `F`...).
        let rule = self
            .port_notation
            .iter()
            .filter(|r| s.starts_with(&r.prefix))
            .max_by_key(|r| r.prefix.len())?;
        self.mask_for(&rule.prefix, &s[rule.prefix.len()..])
    }

    fn mask_for(&self, prefix: &str, chars: &str) -> Option<PortMask> {
        let rule = self.port_notation.iter().find(|r| r.prefix == prefix)?;
        if chars.is_empty() {
            return None;
        }
        let mut mask = PortMask::EMPTY;
        let mut buf = [0u8; 4];
        for c in chars.chars() {
            let key: &str = c.encode_utf8(&mut buf);
            let base = rule.aliases.get(key).map_or(key, String::as_str);
            let name = format!("{}{}", rule.port_prefix, base);
            mask = mask.union(PortMask::single(self.port_index(&name)?));
        }
        Some(mask)
    }

    /// The source note for `field` (a dotted path), or for its nearest ancestor.
    pub fn source(&self, field: &str) -> Option<&str> {
        let mut path = field;
        loop {
            if let Some(s) = self.sources.get(path) {
                return Some(s);
            }
            path = &path[..path.rfind('.')?];
        }
    }

    fn mask_where(&self, f: impl Fn(&Port) -> bool) -> PortMask {
        self.ports
            .iter()
            .enumerate()
            .filter(|(_, p)| f(p))
            .fold(PortMask::EMPTY, |m, (i, _)| m.union(PortMask::single(i)))
    }
}
