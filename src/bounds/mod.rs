//! The analytic bottleneck table: one row per "speed limit", each a lower bound on the cycles
//! per loop iteration, computed from the static instructions, their data and the arch tables
//! without simulation.
//!
//! Owns: [`compute`] and the row types ([`Bounds`], [`BoundRow`], [`BoundKind`], and the
//! typed [`BoundFacts`] of each row: counts, rates, port sets, line numbers).
//! Must not touch: the simulator, decoding, the data matcher, words, printing or files (the
//! text and JSON words of a row are made from its facts in `crate::report::bounds`).
//! Facts from: Travis Downs, "Performance Speed Limits" (SL; the row list is in
//! docs/sources.md), uops.info's port-usage LP (uops.info §5.3.2, solved exactly by the max-density
//! port set), the SUACA thesis' dependency graph (via [`DepGraph`]) and the simulator's edge
//! latencies ([`crate::pipeline::latency::edge_offset`]) so that the chain bound and the
//! simulation agree.
//!
//! # Conventions
//!
//! - Every row is a bound in cycles per iteration in steady state. The prediction is the
//!   maximum of the rows in state [`RowState::Bound`]; rows within 2% of it *bind*.
//! - Lines without data (`descs[line] == None`) are left out of the rows that need data and
//!   listed in each [`BoundRow`]'s `left_out`; rows that only need the decoder (memory, branches,
//!   instruction bytes) count every line.
//! - Rows that cannot be computed are [`RowState::Unknown`] or [`RowState::NotApplicable`],
//!   never silently 0.

mod chain;
pub mod facts;
mod frontend;
mod memory;
mod ports;
mod window;

#[cfg(test)]
mod tests;

use serde::Serialize;

use crate::db::InstrDesc;
use crate::deps::DepGraph;
use crate::ir::Instr;
use crate::pipeline::counts::{CountOptions, Counts};
use crate::pipeline::frontend::rates::FrontEndRates;
use crate::uarch::MicroArch;

pub use chain::max_cycle_ratio;
pub use facts::*;
pub use ports::{port_pressure, PortPressure};

/// Which speed limit a row is (row numbers of docs/sources.md in [`BoundKind::number`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BoundKind {
    /// Issue/rename width in fused µops (macro-ops on AMD).
    IssueWidth,
    /// Instructions per cycle at dispatch, where separate (AMD Zen).
    IssueInstructions,
    /// Port pressure: the port-usage LP over the loop body.
    Ports,
    /// The non-pipelined divider.
    Divider,
    /// Serializing instructions (`pause`, fences, `cpuid`, `rdtsc`), one at a time.
    Serializing,
    /// Loads per cycle.
    Loads,
    /// Stores per cycle.
    Stores,
    /// Loads + stores per cycle (AGUs).
    MemoryOps,
    /// Stores with complex addressing cannot use the simple store AGU (SKL family).
    ComplexAddressing,
    /// Cache / memory bandwidth (needs the working set).
    CacheBandwidth,
    /// The loop-carried dependency chain (maximum cycle ratio).
    DepChain,
    /// Front end: the µop cache (DSB).
    Dsb,
    /// Front end: the legacy decoders (MITE).
    Mite,
    /// Front end: the microcode sequencer (MS).
    Microcode,
    /// Front end: the loop stream detector (informational).
    Lsd,
    /// Taken branches per cycle.
    TakenBranches,
    /// Out-of-order window (informational).
    OooWindow,
}

impl BoundKind {
    /// The row number (docs/sources.md, "Bottleneck rows").
    pub fn number(self) -> u8 {
        match self {
            BoundKind::IssueWidth | BoundKind::IssueInstructions => 1,
            BoundKind::Ports => 2,
            BoundKind::Divider | BoundKind::Serializing => 3,
            BoundKind::Loads => 4,
            BoundKind::Stores => 5,
            BoundKind::MemoryOps => 6,
            BoundKind::ComplexAddressing => 7,
            BoundKind::CacheBandwidth => 8,
            BoundKind::DepChain => 9,
            BoundKind::Dsb => 10,
            BoundKind::Mite | BoundKind::Microcode => 11,
            BoundKind::Lsd => 12,
            BoundKind::TakenBranches => 13,
            BoundKind::OooWindow => 14,
        }
    }
}

/// Whether a row takes part in the prediction.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RowState {
    /// A bound that counts towards the prediction.
    Bound,
    /// Shown for information (e.g. the decoders when the loop runs from the µop cache).
    Info,
    /// The limit does not exist on this arch or needs inputs the analysis does not have.
    NotApplicable,
    /// The limit exists but its inputs are unknown (missing arch or instruction data).
    Unknown,
}

/// One speed limit.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoundRow {
    /// Which limit.
    pub kind: BoundKind,
    /// Whether the row counts, is informational, not applicable or unknown.
    pub state: RowState,
    /// Cycles per iteration; `None` when unknown or not applicable.
    pub cycles: Option<f64>,
    /// Within 2% of the prediction (only [`RowState::Bound`] rows bind).
    pub binds: bool,
    /// What the formula used and found (its variant matches `kind`).
    pub facts: BoundFacts,
    /// Lines left out for want of instruction data.
    pub left_out: Vec<usize>,
}

impl BoundRow {
    fn new(kind: BoundKind, state: RowState, cycles: Option<f64>, facts: BoundFacts) -> Self {
        BoundRow {
            kind,
            state,
            cycles,
            binds: false,
            facts,
            left_out: Vec::new(),
        }
    }

    fn left_out(mut self, lines: Vec<usize>) -> Self {
        self.left_out = lines;
        self
    }
}

/// µops per iteration on one port in an optimal (balanced) assignment.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PortLoad {
    /// Port name (`0`, `ALU1`).
    pub port: String,
    /// µops per iteration.
    pub load: f64,
}

/// The critical loop-carried dependency cycle.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Chain {
    /// Lines on the cycle, in dependency order, starting at its smallest line.
    pub lines: Vec<usize>,
    /// The location of each edge (`lines[i]` → `lines[i + 1]`, the last edge closing the
    /// cycle), e.g. `cf`, `rax`.
    pub locs: Vec<String>,
    /// Σ edge latencies around the cycle, cycles.
    pub latency: u64,
    /// Σ iteration distances around the cycle.
    pub distance: u64,
}

/// The whole table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bounds {
    /// Rows in row-number order (docs/sources.md).
    pub rows: Vec<BoundRow>,
    /// Max of the known [`RowState::Bound`] rows, cycles per iteration.
    pub predicted: Option<f64>,
    /// The first row (in table order) reaching `predicted` (none when it is 0).
    pub bottleneck: Option<BoundKind>,
    /// Per-port µops of an optimal assignment (every port of the arch, in port order).
    pub port_loads: Vec<PortLoad>,
    /// The critical port set Q\* of the port-pressure row.
    pub critical_ports: Vec<String>,
    /// The critical loop-carried chain, if any.
    pub chain: Option<Chain>,
}

/// A store→load dependency through memory as the simulation has it (the address analysis'
/// edge and its latency offset: memory renaming or store forwarding).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MemoryEdge {
    /// The storing line.
    pub store: usize,
    /// The loading line.
    pub load: usize,
    /// Iterations from the store to the load.
    pub distance: u32,
    /// Cycles from the store's start to the load's.
    pub latency: u32,
    /// The value comes by plain store forwarding (not renamed, not partial).
    pub forwarded: bool,
}

/// Relative distance within which a bound explains a simulated figure.
pub const EXPLAINS: f64 = 0.05;

impl Bounds {
    /// The counted limit that explains `simulated` cycles per iteration: the known
    /// [`RowState::Bound`] row closest to it, if within [`EXPLAINS`] (the first in table
    /// order on a tie); `None` when the simulation is off every bound.
    pub fn explaining(&self, simulated: f64) -> Option<&BoundRow> {
        let off = |r: &BoundRow| r.cycles.map(|c| (c - simulated).abs());
        self.rows
            .iter()
            .filter(|r| r.state == RowState::Bound)
            .filter(|r| off(r).is_some_and(|d| d <= EXPLAINS * simulated.max(1e-9)))
            .fold(None, |best: Option<&BoundRow>, r| match best {
                Some(b) if off(b) <= off(r) => Some(b),
                _ => Some(r),
            })
    }

    /// The row of `kind`, if present.
    pub fn row(&self, kind: BoundKind) -> Option<&BoundRow> {
        self.rows.iter().find(|r| r.kind == kind)
    }

    /// The cycles of the row of `kind`, if present and known.
    pub fn cycles(&self, kind: BoundKind) -> Option<f64> {
        self.row(kind).and_then(|r| r.cycles)
    }
}

/// Switches of the analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundOptions {
    /// Count macro-fused flag-writer + Jcc pairs once (`--no-macro-fusion` turns it off).
    pub macro_fusion: bool,
    /// Count slots as the simulation does with micro-fusion (`--no-micro-fusion`: one per
    /// unfused µop).
    pub micro_fusion: bool,
    /// Add the expected cost of cache-line splits for unknown alignment ((N−1)/line per
    /// N-byte access, SL §3.3) instead of assuming aligned accesses.
    pub expected_line_splits: bool,
    /// The chain row follows the simulation's pipeline details: the stack engine drops the
    /// implicit rsp chain of push/pop/call/ret, eliminated moves and zero idioms cost 0.
    pub stack_engine: bool,
    /// See `stack_engine`.
    pub move_elim: bool,
    /// See `stack_engine`: a pointer walk's load is a cycle faster where the arch says so.
    pub pointer_chasing: bool,
    /// See `stack_engine`: a load store forwarding serves may give its value sooner.
    pub fast_forwarding: bool,
    /// See `stack_engine`: an explicit rsp reader after push/pop waits for a sync µop.
    pub stack_sync: bool,
    /// The stores row counts commit cycles by cache line where the arch commits so
    /// (`memory.store_line_pairs`).
    pub store_commit: bool,
    /// Loads and stores across a line cost their split cost by the address analysis (the
    /// simulation's `line_splits`): load-port slots in the loads row, commit cycles in the
    /// stores row.
    pub line_splits: bool,
    /// NOPs take no issue slot where the arch dispatches none for them.
    pub free_nops: bool,
    /// Moves from the vector unit into a GPR hold every integer ALU where the arch says so
    /// (the simulation's `transfer_alus`).
    pub transfer_alus: bool,
    /// Serializing instructions run one at a time (the simulation's `serializing`).
    pub serializing: bool,
    /// High-8 merge µops (the simulation's `high8_merge`).
    pub high8_merge: bool,
    /// A result the vector bypass makes late on every port its instruction may take counts
    /// a cycle more on its edges (the simulation's `vector_bypass`).
    pub vector_bypass: bool,
    /// 256-bit register writes load the arch's vector-write ports in the port row (the
    /// simulation's data paths).
    pub vector_writes: bool,
    /// The measurement harness whose values decide which addresses are equal (the
    /// simulation's `harness`).
    pub harness: Option<crate::pipeline::memory::harness::Harness>,
    /// The region runs as a loop whose issue follows the loop buffer's rules (loop mode,
    /// without `--no-lsd`): Redwood Cove's split-loop groups count
    /// (`front_end.split_loop_groups`).
    pub loop_issue: bool,
}

impl BoundOptions {
    /// The switches the per-line counts follow.
    pub fn counting(&self) -> CountOptions {
        CountOptions {
            macro_fusion: self.macro_fusion,
            micro_fusion: self.micro_fusion,
            free_nops: self.free_nops,
            transfer_alus: self.transfer_alus,
            vector_writes: self.vector_writes,
        }
    }

    /// The options that follow the model's switches, as the simulation uses them.
    pub fn of(model: &crate::pipeline::ModelOptions) -> Self {
        BoundOptions {
            macro_fusion: model.macro_fusion,
            micro_fusion: model.micro_fusion,
            stack_engine: model.stack_engine,
            move_elim: model.move_elim,
            pointer_chasing: model.pointer_chasing,
            fast_forwarding: model.fast_forwarding,
            stack_sync: model.stack_engine && model.stack_sync,
            store_commit: model.data_paths && model.store_commit,
            line_splits: model.line_splits,
            free_nops: model.free_nops,
            transfer_alus: model.transfer_alus,
            serializing: model.serializing,
            high8_merge: model.high8_merge,
            vector_bypass: model.vector_bypass,
            vector_writes: model.data_paths,
            harness: model.harness,
            ..BoundOptions::default()
        }
    }
}

impl Default for BoundOptions {
    fn default() -> Self {
        BoundOptions {
            macro_fusion: true,
            micro_fusion: true,
            expected_line_splits: false,
            stack_engine: false,
            move_elim: false,
            pointer_chasing: false,
            fast_forwarding: false,
            stack_sync: false,
            store_commit: false,
            line_splits: false,
            free_nops: false,
            transfer_alus: false,
            serializing: false,
            high8_merge: false,
            vector_bypass: false,
            vector_writes: false,
            harness: None,
            loop_issue: false,
        }
    }
}

/// Rows within this fraction of the maximum bind.
const BIND_TOLERANCE: f64 = 0.02;

/// Computes every speed limit of the loop body `instrs` (one iteration).
///
/// `descs[line]` is the data of `instrs[line]` (`None`: no data); `deps` is the dependency
/// graph of the same instructions (with loop-carried edges for the chain row); `memory`, the
/// store→load dependencies the simulation follows, which the chain row follows too.
pub fn compute(
    instrs: &[Instr],
    descs: &[Option<InstrDesc>],
    deps: &DepGraph,
    memory: &[MemoryEdge],
    arch: &MicroArch,
    opts: &BoundOptions,
) -> Bounds {
    let counts = Counts::new(instrs, descs, arch, opts.counting());
    let front_end = FrontEndRates::of(instrs, &counts, arch, opts.loop_issue);
    let code = Code {
        instrs,
        descs,
        deps,
        memory,
    };
    observe(&code, arch, opts, &counts, &front_end)
}

/// The region the speed limits describe: its instructions, their data, the dependency graph
/// and the memory dependencies (see [`compute`]).
pub struct Code<'a> {
    /// One iteration's instructions.
    pub instrs: &'a [Instr],
    /// Their data (`None`: no data).
    pub descs: &'a [Option<InstrDesc>],
    /// The dependency graph with loop-carried edges.
    pub deps: &'a DepGraph,
    /// The simulation's store→load dependencies.
    pub memory: &'a [MemoryEdge],
}

/// The speed limits of `code` from the per-line `counts` and the front end's rates the model
/// computed ([`compute`] computes them itself).
pub fn observe(
    code: &Code,
    arch: &MicroArch,
    opts: &BoundOptions,
    counts: &Counts,
    front_end: &FrontEndRates,
) -> Bounds {
    let Code {
        instrs,
        descs,
        deps,
        memory,
    } = *code;
    let mem = memory::MemCounts::new(instrs, arch, opts);
    let mut rows = frontend::width_rows(counts, arch);
    let pressure = ports::row(counts, descs, arch);
    rows.push(pressure.row);
    rows.push(ports::divider_row(counts, descs));
    rows.push(ports::serializing_row(instrs, descs, opts));
    rows.extend(memory::rows(&mem, arch));
    rows.push(BoundRow::new(
        BoundKind::CacheBandwidth,
        RowState::NotApplicable,
        None,
        BoundFacts::CacheBandwidth,
    ));
    let (chain_row, chain) = chain::row(instrs, descs, deps, memory, arch, opts);
    rows.push(chain_row);
    rows.extend(frontend::front_end_rows(front_end, counts));
    rows.push(frontend::taken_row(front_end));
    rows.push(window::row(instrs, counts, &mem, arch));
    finish(rows, pressure.loads, pressure.critical, chain)
}

fn finish(
    mut rows: Vec<BoundRow>,
    port_loads: Vec<PortLoad>,
    critical_ports: Vec<String>,
    chain: Option<Chain>,
) -> Bounds {
    let predicted = rows
        .iter()
        .filter(|r| r.state == RowState::Bound)
        .filter_map(|r| r.cycles)
        .filter(|c| c.is_finite())
        .reduce(f64::max);
    let mut bottleneck = None;
    if let Some(max) = predicted {
        for r in &mut rows {
            let Some(c) = r.cycles.filter(|_| r.state == RowState::Bound) else {
                continue;
            };
            r.binds = c >= max * (1.0 - BIND_TOLERANCE);
            if bottleneck.is_none() && c == max && max > 0.0 {
                bottleneck = Some(r.kind);
            }
        }
    }
    Bounds {
        rows,
        predicted,
        bottleneck,
        port_loads,
        critical_ports,
        chain,
    }
}
