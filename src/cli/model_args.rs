//! The pipeline-detail switches shared by the analyzer and `suaca batch` (issue #7).

use clap::{Args, ValueEnum};

use crate::pipeline::memory::harness::Harness;
use crate::pipeline::ModelOptions;

/// Which model to start from.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ModelChoice {
    /// Every pipeline detail (fusion, move elimination, stack engine, memory dependencies,
    /// front end).
    #[default]
    Full,
    /// SUACA's model of the thesis: none of them.
    Suaca,
}

/// `--model` and the `--no-*` switches.
#[derive(Debug, Clone, Copy, Default, Args, PartialEq, Eq)]
pub struct ModelArgs {
    /// Pipeline model: `full` (default) or `suaca` (the thesis' model, every detail off).
    #[arg(long, value_enum, value_name = "MODEL", default_value_t = ModelChoice::Full)]
    pub model: ModelChoice,
    /// Do not fuse a flag-setting instruction with the following Jcc.
    #[arg(long)]
    pub no_macro_fusion: bool,
    /// Count issue width in unfused µops (no micro-fusion).
    #[arg(long)]
    pub no_micro_fusion: bool,
    /// Execute zero idioms and register moves on ports, with their latency.
    #[arg(long)]
    pub no_move_elim: bool,
    /// Eliminate every register move, without the renamer's limit on moves in flight.
    #[arg(long)]
    pub unlimited_move_elim: bool,
    /// Front end limited only by the issue width (no decoders, µop cache, microcode, LCP).
    #[arg(long)]
    pub simple_frontend: bool,
    /// Front end as average rates of its parts (before issue #15), not the cycle-level
    /// legacy decode unit (predecoder blocks, instruction queue, decoders).
    #[arg(long)]
    pub average_frontend: bool,
    /// Loops are not streamed from the µop cache (DSB) but from the legacy decoders.
    #[arg(long)]
    pub no_dsb: bool,
    /// No JCC erratum: on the Skylake family a jump crossing or ending on a 32-byte boundary
    /// may stay in the µop cache.
    #[arg(long)]
    pub no_jcc_erratum: bool,
    /// Loops are not streamed by the loop stream detector (LSD), and Redwood Cove's loops
    /// with a µop that splits at issue are not issued in whole groups
    /// (`front_end.split_loop_groups`).
    #[arg(long)]
    pub no_lsd: bool,
    /// Offset (0–63) of the region's first byte in a 64-byte cache line for the Intel front
    /// end (predecode blocks, µop-cache windows, JCC erratum); default: its address' offset
    /// (0 for --hex and batch input).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..64))]
    pub alignment_offset: Option<u8>,
    /// No dependencies from a store to a later load of the same address.
    #[arg(long)]
    pub no_mem_deps: bool,
    /// No fast pointer chasing (a load whose base another load wrote is a cycle faster on
    /// Sandy Bridge to Cascade Lake).
    #[arg(long)]
    pub no_fast_pointer_chasing: bool,
    /// A load store forwarding serves takes the data's load latency (Skylake's forwarded
    /// loads give their value a cycle sooner).
    #[arg(long)]
    pub no_fast_forwarding: bool,
    /// No stack-synchronization µops (an explicit rsp reader after push/pop/call/ret).
    #[arg(long)]
    pub no_stack_sync: bool,
    /// Stores commit as the arch's store ports allow, whatever their addresses (Zen 4
    /// commits two in a cycle only when they write one aligned 32-byte block).
    #[arg(long)]
    pub no_store_commit: bool,
    /// NOPs take a dispatch slot like any instruction (Zen 4 dispatches none for them).
    #[arg(long)]
    pub no_free_nops: bool,
    /// Bind µops to ports when they dispatch, on the least used free port (SUACA), not at
    /// issue where the arch does that (Skylake to Cascade Lake).
    #[arg(long)]
    pub dispatch_port_assignment: bool,
    /// A move from the vector unit into a general-purpose register (`movd r32, xmm`,
    /// `cvttsd2si`) takes its own ALU µop only (Zen 4 holds every integer ALU for it).
    #[arg(long)]
    pub no_transfer_alus: bool,
    /// An instruction's dispatch slots may split across cycles (Zen 4 dispatches a
    /// two-slot instruction in one cycle or waits).
    #[arg(long)]
    pub no_whole_dispatch: bool,
    /// The µops of one instruction may share a port in one cycle (thesis §3.3), as on
    /// every arch before Zen 4's measured port counts.
    #[arg(long)]
    pub no_port_cycles: bool,
    /// Serializing and delaying instructions (`pause`, fences, `cpuid`, `rdtsc`) overlap
    /// like any other instead of running one at a time for their measured throughput.
    #[arg(long)]
    pub no_serializing: bool,
    /// Loads run two a cycle whatever L1 banks they touch (no bank conflicts on Sandy and
    /// Ivy Bridge).
    #[arg(long)]
    pub no_bank_conflicts: bool,
    /// Loads and stores across a cache line cost what aligned ones do (no split cost in
    /// load-port time or store commit cycles).
    #[arg(long)]
    pub no_line_splits: bool,
    /// An instruction that reaches into the next 16-byte fetch block by its last byte alone
    /// is carried to the next block like any crossing instruction (the legacy front end's
    /// rule before 2026-11-27), instead of being predecoded with its own block.
    #[arg(long)]
    pub carry_last_byte: bool,
    /// With `--harness bhive`, the harness's timed run costs nothing for the 4 KiB pages
    /// its copies newly enter (8 cycles a page by default, as BHive's measurements show).
    #[arg(long)]
    pub no_harness_pages: bool,
    /// With `--harness bhive`, the page walks of the pages its copies enter never overlap
    /// (by default they do, up to the arch's walks in flight, where the copies enter pages
    /// faster than one walk lasts).
    #[arg(long)]
    pub serial_page_walks: bool,
    /// `popcnt`, `lzcnt` and `tzcnt` do not wait for their destination's old value where
    /// the data measures that they do (the false dependency of several Intel cores).
    #[arg(long)]
    pub no_false_deps: bool,
    /// The µops of one instruction that are allowed on a single port share it in one cycle
    /// (the thesis' rule; by default each takes a cycle of that port).
    #[arg(long)]
    pub share_single_ports: bool,
    /// No merge µop for a read of a whole register after a write of its high byte alone
    /// (`mov ah, bl; add eax, ecx` on Sandy Bridge to Cascade Lake).
    #[arg(long)]
    pub no_high8_merge: bool,
    /// Vector results that cross between the FP units and the vector ALUs take no extra
    /// cycle (Redwood Cove's bypass delay: `vmulpd` into `vpminsd`).
    #[arg(long)]
    pub no_vector_bypass: bool,
    /// Predict what this measurement harness reads: its starting register and memory
    /// values decide which addresses are one location (`bhive`: every register and every
    /// loaded pointer 0x2324000, so `[rax+16]` and `[rbx+16]` alias; `profile`: `suaca
    /// profile`'s register windows, loaded pointers all one value).
    #[arg(long, value_enum, value_name = "HARNESS")]
    pub harness: Option<Harness>,
}

impl ModelArgs {
    /// The model the switches select.
    pub fn options(&self) -> ModelOptions {
        let base = match self.model {
            ModelChoice::Full => ModelOptions::FULL,
            ModelChoice::Suaca => ModelOptions::SUACA,
        };
        ModelOptions {
            macro_fusion: base.macro_fusion && !self.no_macro_fusion,
            micro_fusion: base.micro_fusion && !self.no_micro_fusion,
            move_elim: base.move_elim && !self.no_move_elim,
            move_elim_limits: base.move_elim_limits && !self.unlimited_move_elim,
            frontend: base.frontend && !self.simple_frontend,
            frontend_unit: base.frontend_unit && !self.simple_frontend && !self.average_frontend,
            dsb: base.dsb && !self.no_dsb,
            jcc_erratum: base.jcc_erratum && !self.no_jcc_erratum,
            lsd: base.lsd && !self.no_lsd,
            alignment_offset: self.alignment_offset,
            mem_deps: base.mem_deps && !self.no_mem_deps,
            stack_engine: base.stack_engine,
            data_paths: base.data_paths,
            pointer_chasing: base.pointer_chasing && !self.no_fast_pointer_chasing,
            fast_forwarding: base.fast_forwarding && !self.no_fast_forwarding,
            stack_sync: base.stack_sync && !self.no_stack_sync,
            store_commit: base.store_commit && !self.no_store_commit,
            free_nops: base.free_nops && !self.no_free_nops,
            issue_ports: base.issue_ports && !self.dispatch_port_assignment,
            transfer_alus: base.transfer_alus && !self.no_transfer_alus,
            whole_dispatch: base.whole_dispatch && !self.no_whole_dispatch,
            port_cycles: base.port_cycles && !self.no_port_cycles,
            serializing: base.serializing && !self.no_serializing,
            bank_conflicts: base.bank_conflicts && !self.no_bank_conflicts,
            line_splits: base.line_splits && !self.no_line_splits,
            predecode_tail: base.predecode_tail && !self.carry_last_byte,
            harness_pages: base.harness_pages && !self.no_harness_pages,
            page_walk_overlap: base.page_walk_overlap && !self.serial_page_walks,
            false_deps: base.false_deps && !self.no_false_deps,
            single_port_cycles: base.single_port_cycles && !self.share_single_ports,
            high8_merge: base.high8_merge && !self.no_high8_merge,
            vector_bypass: base.vector_bypass && !self.no_vector_bypass,
            harness: self.harness,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_switch_turns_one_detail_off() {
        let full = ModelArgs::default().options();
        assert_eq!(full, ModelOptions::FULL);
        let suaca = ModelArgs {
            model: ModelChoice::Suaca,
            ..ModelArgs::default()
        };
        assert_eq!(suaca.options(), ModelOptions::SUACA);
        let one = |a: ModelArgs| a.options().disabled();
        let d = ModelArgs::default;
        assert_eq!(
            one(ModelArgs {
                no_macro_fusion: true,
                ..d()
            }),
            ["no-macro-fusion"]
        );
        assert_eq!(
            one(ModelArgs {
                no_micro_fusion: true,
                ..d()
            }),
            ["no-micro-fusion"]
        );
        assert_eq!(
            one(ModelArgs {
                no_move_elim: true,
                ..d()
            }),
            ["no-move-elim"]
        );
        assert_eq!(
            one(ModelArgs {
                unlimited_move_elim: true,
                ..d()
            }),
            ["unlimited-move-elim"]
        );
        assert_eq!(
            one(ModelArgs {
                simple_frontend: true,
                ..d()
            }),
            ["simple-frontend"]
        );
        assert_eq!(
            one(ModelArgs {
                average_frontend: true,
                ..d()
            }),
            ["average-frontend"]
        );
        assert_eq!(
            one(ModelArgs {
                no_dsb: true,
                ..d()
            }),
            ["no-dsb"]
        );
        assert_eq!(
            one(ModelArgs {
                no_jcc_erratum: true,
                ..d()
            }),
            ["no-jcc-erratum"]
        );
        assert_eq!(
            one(ModelArgs {
                no_lsd: true,
                ..d()
            }),
            ["no-lsd"]
        );
        assert_eq!(
            one(ModelArgs {
                no_mem_deps: true,
                ..d()
            }),
            ["no-mem-deps"]
        );
        assert_eq!(
            one(ModelArgs {
                no_fast_pointer_chasing: true,
                ..d()
            }),
            ["no-fast-pointer-chasing"]
        );
        assert_eq!(
            one(ModelArgs {
                no_fast_forwarding: true,
                ..d()
            }),
            ["no-fast-forwarding"]
        );
        assert_eq!(
            one(ModelArgs {
                no_stack_sync: true,
                ..d()
            }),
            ["no-stack-sync"]
        );
        assert_eq!(
            one(ModelArgs {
                no_store_commit: true,
                ..d()
            }),
            ["no-store-commit"]
        );
        assert_eq!(
            one(ModelArgs {
                no_free_nops: true,
                ..d()
            }),
            ["no-free-nops"]
        );
        assert_eq!(
            one(ModelArgs {
                dispatch_port_assignment: true,
                ..d()
            }),
            ["dispatch-port-assignment"]
        );
        assert_eq!(
            one(ModelArgs {
                no_transfer_alus: true,
                ..d()
            }),
            ["no-transfer-alus"]
        );
        assert_eq!(
            one(ModelArgs {
                no_whole_dispatch: true,
                ..d()
            }),
            ["no-whole-dispatch"]
        );
        assert_eq!(
            one(ModelArgs {
                no_port_cycles: true,
                ..d()
            }),
            ["no-port-cycles"]
        );
        assert_eq!(
            one(ModelArgs {
                no_serializing: true,
                ..d()
            }),
            ["no-serializing"]
        );
        assert_eq!(
            one(ModelArgs {
                no_bank_conflicts: true,
                ..d()
            }),
            ["no-bank-conflicts"]
        );
        assert_eq!(
            one(ModelArgs {
                no_line_splits: true,
                ..d()
            }),
            ["no-line-splits"]
        );
        assert_eq!(
            one(ModelArgs {
                carry_last_byte: true,
                ..d()
            }),
            ["carry-last-byte"]
        );
        assert_eq!(
            one(ModelArgs {
                no_harness_pages: true,
                ..d()
            }),
            ["no-harness-pages"]
        );
        assert_eq!(
            one(ModelArgs {
                serial_page_walks: true,
                ..d()
            }),
            ["serial-page-walks"]
        );
        assert_eq!(
            one(ModelArgs {
                no_false_deps: true,
                ..d()
            }),
            ["no-false-deps"]
        );
        assert_eq!(
            one(ModelArgs {
                share_single_ports: true,
                ..d()
            }),
            ["share-single-ports"]
        );
        assert_eq!(
            one(ModelArgs {
                no_high8_merge: true,
                ..d()
            }),
            ["no-high8-merge"]
        );
        assert_eq!(
            one(ModelArgs {
                no_vector_bypass: true,
                ..d()
            }),
            ["no-vector-bypass"]
        );
    }
}
