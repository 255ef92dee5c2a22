//! The pipeline details SUACA left as future work (thesis ch. 5, issue #7): macro- and
//! micro-fusion, zero idioms and eliminated moves, the stack engine, memory dependencies, the
//! front end's delivery rate and port assignment at issue. Each is a switch of
//! [`ModelOptions`]; with all of them off ([`ModelOptions::SUACA`]) the program is exactly
//! SUACA's.
//!
//! Owns: what the details change in the engine's program (slots, port masks, latencies,
//! inputs, the delivery rate, when ports are bound). Must not touch: the engine (it only sees the result).

pub mod address;
#[cfg(test)]
mod address_tests;
pub mod elimination;
pub mod frontend;
pub mod fusion;
pub mod harness;
pub mod issue_ports;
pub mod memory;
pub mod pointer_chase;
pub mod ports;
pub mod stack_sync;
pub mod store_commit;

use crate::ir::{Instr, Loc};
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
    /// The front end delivers iterations at the rate of its decoders, µop cache, microcode
    /// sequencer and taken branches (`--simple-frontend`: only the issue width).
    pub frontend: bool,
    /// On Intel cores with the parameters, the legacy decoders' rate comes from the
    /// cycle-level front-end unit ([`crate::frontend`]: 16-byte predecode blocks, instruction
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
    /// Serializing and delaying instructions (`pause`, fences, `cpuid`, `rdtsc`) run one
    /// at a time, each for its measured throughput (`--no-serializing`).
    pub serializing: bool,
    /// A harness's timed run pays for the pages its unrolled copies newly enter, where the
    /// harness shows such a cost (`--harness bhive`; `--no-harness-pages`).
    pub harness_pages: bool,
    /// The measurement harness whose starting register and memory values decide which
    /// addresses are equal (`--harness`); `None`: only what the code itself shows.
    pub harness: Option<harness::Harness>,
}

impl ModelOptions {
    /// Every detail on: the default.
    pub const FULL: ModelOptions = ModelOptions {
        macro_fusion: true,
        micro_fusion: true,
        move_elim: true,
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
        serializing: true,
        harness_pages: true,
        harness: None,
    };

    /// SUACA's model (thesis ch. 3), every detail off (`--model suaca`).
    pub const SUACA: ModelOptions = ModelOptions {
        macro_fusion: false,
        micro_fusion: false,
        move_elim: false,
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
        serializing: false,
        harness_pages: false,
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
        if !self.serializing {
            out.push("no-serializing");
        }
        if !self.harness_pages {
            out.push("no-harness-pages");
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
/// [`cl_shift_flags_drop`]).
pub fn renamer_drops(arch: &MicroArch, consumer: &Instr, loc: Loc) -> bool {
    sbb_drops(arch, consumer, loc) || cl_shift_flags_drop(arch, consumer, loc)
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
        assert!(renamer_drops(&zen4, &shl[0], Loc::Flag(Flag::CF)));
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
