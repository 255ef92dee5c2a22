//! The pipeline's units and what each changes in the engine's program — the details SUACA
//! left as future work (thesis ch. 5, issue #7): the front end ([`frontend`]: the
//! cycle-level legacy decoders, the delivery rate, macro- and micro-fusion), the renamer
//! ([`renamer`]: zero idioms and eliminated moves, the stack engine, fast pointer chasing),
//! the ports ([`ports`]: data paths, port assignment at issue), memory ([`memory`]:
//! addresses as values, store→load dependencies, store commits, a harness's values) and the
//! edge latencies ([`latency`]). Each detail is a switch of [`ModelOptions`]; with all of
//! them off ([`ModelOptions::SUACA`]) the program is exactly SUACA's.
//!
//! Owns: what the units change in the program (slots, port masks, latencies, inputs, the
//! delivery rate, when ports are bound). Must not touch: the engine (it only sees the
//! result), the program builder (`analysis`) and the speed limits (`bounds`), which both
//! import these rules.

pub mod bypass;
pub mod counts;
pub mod frontend;
pub mod latency;
pub mod memory;
pub mod ports;
pub mod renamer;

use crate::ir::Instr;
use crate::uarch::MicroArch;

/// Which pipeline details the program models.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ModelOptions {
    /// A flag-setting instruction and a following Jcc issue and execute as one µop
    /// (`--no-macro-fusion`).
    pub macro_fusion: bool,
    /// Issue width is counted in fused-domain µops: a micro-fused load+op takes one slot,
    /// an un-laminated one two (`--no-micro-fusion`: one slot per unfused µop).
    pub micro_fusion: bool,
    /// Zero idioms and eliminated register moves use no port and have latency 0
    /// (`--no-move-elim`).
    pub move_elim: bool,
    /// With move elimination, a move is eliminated only while the renamer has a slot for it
    /// where the arch limits them (`move_elimination.gpr_slots`; `--unlimited-move-elim`).
    pub move_elim_limits: bool,
    /// The front end delivers iterations at the rate of its decoders, µop cache, microcode
    /// sequencer and taken branches (`--simple-frontend`: only the issue width).
    pub frontend: bool,
    /// On Intel cores with the parameters, the legacy decoders' rate comes from the
    /// cycle-level front-end unit ([`crate::pipeline::frontend`]: 16-byte predecode blocks, instruction
    /// queue, decoders, MS) instead of average rates (`--average-frontend`).
    pub frontend_unit: bool,
    /// With the unit, a loop is streamed from the µop cache where its windows fit
    /// (`--no-dsb`: from the legacy decoders).
    pub dsb: bool,
    /// With the unit, the JCC erratum keeps windows out of the µop cache on the Skylake
    /// family (`--no-jcc-erratum`).
    pub jcc_erratum: bool,
    /// With the unit, a small loop is streamed by the loop stream detector where the arch
    /// enables it (`--no-lsd`).
    pub lsd: bool,
    /// The region's first byte's offset in a 64-byte line for the front-end unit
    /// (`--alignment-offset`, uiCA's `-alignmentOffset`); `None`: its address' offset.
    pub alignment_offset: Option<u8>,
    /// A load depends on an earlier store to the same base, index and displacement
    /// (`--no-mem-deps`).
    pub mem_deps: bool,
    /// push/pop/call/ret update rsp in the front end (the stack engine), so the implicit
    /// rsp chain costs nothing (off only in the SUACA model).
    pub stack_engine: bool,
    /// Loads and stores wider than a port's data path hold it for more than a cycle (the
    /// thesis' "D" columns: a 256-bit load on Sandy Bridge; off only in the SUACA model).
    pub data_paths: bool,
    /// A pointer walk's load is a cycle faster where the arch has the fast path
    /// (`memory.fast_pointer_chasing`; `--no-fast-pointer-chasing`).
    pub pointer_chasing: bool,
    /// A plain load store forwarding serves gives its value sooner where the arch says so
    /// (`memory.forwarded_load_latency`; `--no-fast-forwarding`).
    pub fast_forwarding: bool,
    /// An explicit rsp reader after push/pop/call/ret gets a stack-sync µop
    /// (`--no-stack-sync`; only with the stack engine).
    pub stack_sync: bool,
    /// Stores commit to L1 one cache line per cycle where the arch does
    /// (`memory.store_line_pairs`; `--no-store-commit`: as many stores a cycle as the arch
    /// has store-data ports).
    pub store_commit: bool,
    /// NOPs take no dispatch slot where the arch says so (`front_end.nops_take_no_slot`;
    /// `--no-free-nops`).
    pub free_nops: bool,
    /// On arches whose description says so, µops get their ports at issue, not at dispatch
    /// (`--dispatch-port-assignment`).
    pub issue_ports: bool,
    /// A move from the vector unit into a general-purpose register holds every integer ALU
    /// where the arch says so (`scheduler.vector_to_gpr_holds_alus`; `--no-transfer-alus`).
    pub transfer_alus: bool,
    /// An instruction's issue slots dispatch in one cycle where the arch says so
    /// (`scheduler.whole_instruction_dispatch`; `--no-whole-dispatch`).
    pub whole_dispatch: bool,
    /// Each µop of an instruction takes a port cycle of its own where the arch says so
    /// (`scheduler.uops_share_ports = false`; `--no-port-cycles`: they may share a port in
    /// one cycle, thesis §3.3).
    pub port_cycles: bool,
    /// A µop allowed on one port only takes a cycle of it even where the instruction's
    /// other µops hold it (`vblendvps ymm`'s two p5 µops; `--share-single-ports`: thesis
    /// §3.3, an instruction never blocks itself).
    pub single_port_cycles: bool,
    /// Serializing and delaying instructions (`pause`, fences, `cpuid`, `rdtsc`) run one
    /// at a time, each for its measured throughput (`--no-serializing`).
    pub serializing: bool,
    /// Loads that touch a common L1 bank of different lines run one a cycle where the arch
    /// has banks (`memory.l1_banks_per_line`; `--no-bank-conflicts`).
    pub bank_conflicts: bool,
    /// A load or store across a cache line costs the arch's split cost in port time or
    /// commit cycles (`memory.load_split_cost`, `memory.store_split_cost`;
    /// `--no-line-splits`).
    pub line_splits: bool,
    /// An instruction that reaches into the next 16-byte fetch block by its last byte alone
    /// is predecoded with its own block (`--carry-last-byte`: with the next, as any
    /// instruction that crosses).
    pub predecode_tail: bool,
    /// A harness's timed run pays for the pages its unrolled copies newly enter, where the
    /// harness shows such a cost (`--harness bhive`; `--no-harness-pages`).
    pub harness_pages: bool,
    /// The harness's page walks overlap, up to the arch's `memory.page_walks_in_flight`,
    /// where its copies enter pages faster than one walk lasts (`--serial-page-walks`).
    pub page_walk_overlap: bool,
    /// A destination the data measures a latency from (`popcnt`, `lzcnt`, `tzcnt` on the
    /// Intel cores with the erratum) is an input (`--no-false-deps`).
    pub false_deps: bool,
    /// A read of a whole register after a write of its high byte alone gets a merge µop
    /// where the arch renames the high byte apart (`renamer.high8_merge_uops`;
    /// `--no-high8-merge`).
    pub high8_merge: bool,
    /// A vector result that crosses between the FP units and the vector ALUs comes a cycle
    /// late where the arch says so (`scheduler.vector_bypass`; `--no-vector-bypass`).
    pub vector_bypass: bool,
    /// The measurement harness whose starting register and memory values decide which
    /// addresses are equal (`--harness`); `None`: only what the code itself shows.
    pub harness: Option<memory::harness::Harness>,
}

impl ModelOptions {
    /// Every detail on: the default.
    pub const FULL: ModelOptions = ModelOptions {
        macro_fusion: true,
        micro_fusion: true,
        move_elim: true,
        move_elim_limits: true,
        frontend: true,
        frontend_unit: true,
        dsb: true,
        jcc_erratum: true,
        lsd: true,
        alignment_offset: None,
        mem_deps: true,
        stack_engine: true,
        data_paths: true,
        pointer_chasing: true,
        fast_forwarding: true,
        stack_sync: true,
        store_commit: true,
        free_nops: true,
        issue_ports: true,
        transfer_alus: true,
        whole_dispatch: true,
        port_cycles: true,
        single_port_cycles: true,
        serializing: true,
        bank_conflicts: true,
        line_splits: true,
        predecode_tail: true,
        harness_pages: true,
        page_walk_overlap: true,
        false_deps: true,
        high8_merge: true,
        vector_bypass: true,
        harness: None,
    };

    /// SUACA's model (thesis ch. 3), every detail off (`--model suaca`).
    pub const SUACA: ModelOptions = ModelOptions {
        macro_fusion: false,
        micro_fusion: false,
        move_elim: false,
        move_elim_limits: false,
        frontend: false,
        frontend_unit: false,
        dsb: false,
        jcc_erratum: false,
        lsd: false,
        alignment_offset: None,
        mem_deps: false,
        stack_engine: false,
        data_paths: false,
        pointer_chasing: false,
        fast_forwarding: false,
        stack_sync: false,
        store_commit: false,
        free_nops: false,
        issue_ports: false,
        transfer_alus: false,
        whole_dispatch: false,
        port_cycles: false,
        single_port_cycles: false,
        serializing: false,
        bank_conflicts: false,
        line_splits: false,
        predecode_tail: false,
        harness_pages: false,
        page_walk_overlap: false,
        false_deps: false,
        high8_merge: false,
        vector_bypass: false,
        harness: None,
    };

    /// Names of the details that are off, for reports (`no-macro-fusion` ...).
    pub fn disabled(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if !self.macro_fusion {
            out.push("no-macro-fusion");
        }
        if !self.micro_fusion {
            out.push("no-micro-fusion");
        }
        if !self.move_elim {
            out.push("no-move-elim");
        } else if !self.move_elim_limits {
            out.push("unlimited-move-elim");
        }
        if !self.frontend {
            out.push("simple-frontend");
        } else if !self.frontend_unit {
            out.push("average-frontend");
        } else {
            if !self.dsb {
                out.push("no-dsb");
            } else if !self.jcc_erratum {
                out.push("no-jcc-erratum");
            }
            if !self.lsd {
                out.push("no-lsd");
            }
        }
        if !self.mem_deps {
            out.push("no-mem-deps");
        }
        if !self.stack_engine {
            out.push("no-stack-engine");
        }
        if !self.data_paths {
            out.push("no-data-paths");
        }
        if !self.pointer_chasing {
            out.push("no-fast-pointer-chasing");
        }
        if !self.fast_forwarding {
            out.push("no-fast-forwarding");
        }
        if !self.stack_sync {
            out.push("no-stack-sync");
        }
        if !self.store_commit {
            out.push("no-store-commit");
        }
        if !self.free_nops {
            out.push("no-free-nops");
        }
        if !self.issue_ports {
            out.push("dispatch-port-assignment");
        }
        if !self.transfer_alus {
            out.push("no-transfer-alus");
        }
        if !self.whole_dispatch {
            out.push("no-whole-dispatch");
        }
        if !self.port_cycles {
            out.push("no-port-cycles");
        }
        if !self.single_port_cycles {
            out.push("share-single-ports");
        }
        if !self.serializing {
            out.push("no-serializing");
        }
        if !self.bank_conflicts {
            out.push("no-bank-conflicts");
        }
        if !self.line_splits {
            out.push("no-line-splits");
        }
        if !self.predecode_tail {
            out.push("carry-last-byte");
        }
        if !self.harness_pages {
            out.push("no-harness-pages");
        }
        if !self.page_walk_overlap {
            out.push("serial-page-walks");
        }
        if !self.false_deps {
            out.push("no-false-deps");
        }
        if !self.high8_merge {
            out.push("no-high8-merge");
        }
        if !self.vector_bypass {
            out.push("no-vector-bypass");
        }
        if let Some(h) = self.harness {
            out.push(h.flag());
        }
        out
    }
}

impl Default for ModelOptions {
    fn default() -> Self {
        ModelOptions::FULL
    }
}

/// What the program builder needs besides the data: the instructions (indexed like the
/// data, by line), the arch and the switches.
#[derive(Copy, Clone, Debug)]
pub struct Context<'a> {
    /// The decoded instructions, `instrs[line]`.
    pub instrs: &'a [Instr],
    /// The arch simulated.
    pub arch: &'a MicroArch,
    /// The details modelled.
    pub model: ModelOptions,
    /// Whether the program repeats (memory dependencies may cross iterations).
    pub looped: bool,
    /// Whether the region is a loop with its own back branch (loop mode), not BHive-style
    /// unrolled copies: decides the unknown-provenance policy of memory dependencies.
    pub loop_mode: bool,
}
