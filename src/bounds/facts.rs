//! What each row found, as data: one [`BoundFacts`] variant per [`super::BoundKind`], with
//! the counts, rates, port sets and line numbers its formula used. The words (the detail and
//! the named inputs of the text and JSON reports) are made from these in
//! `crate::report::bounds`; nothing here is prose.

use serde::Serialize;

use super::BoundKind;
pub use crate::pipeline::frontend::rates::{
    DsbFacts, FrontEndSource, LsdFacts, MicrocodeFacts, MiteFacts, MiteTerm, TakenFacts,
};

/// The facts behind one row, one variant per limit.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BoundFacts {
    /// Row 1: fused µops / issue width.
    IssueWidth(IssueWidthFacts),
    /// Row 1 (AMD): instructions / instructions per cycle.
    IssueInstructions {
        /// Instructions, a macro-fused pair counted once.
        instructions: usize,
        /// Instructions per cycle (0: unknown).
        per_cycle: u32,
    },
    /// Row 2: the port-usage LP.
    Ports(PortFacts),
    /// Row 3: the non-pipelined divider.
    Divider {
        /// No line has data.
        no_data: bool,
        /// Σ divider cycles.
        cycles: u64,
        /// Lines that use the divider.
        lines: Vec<usize>,
    },
    /// Row 3: serializing instructions, one at a time.
    Serializing {
        /// Σ cycles each holds the next (its measured throughput).
        cycles: u64,
        /// The serializing lines.
        lines: Vec<usize>,
    },
    /// Row 4.
    Loads {
        /// Loads against the load rate.
        rate: MemRate,
        /// Lines with a load.
        lines: Vec<usize>,
        /// Gathers and scatters: `(line, elements)`.
        gathers: Vec<(usize, u32)>,
    },
    /// Row 5.
    Stores {
        /// Stores against the store rate.
        rate: MemRate,
        /// Lines with a store.
        lines: Vec<usize>,
        /// Cycles to commit the stores by cache line, where the arch commits so.
        commit_cycles: Option<f64>,
    },
    /// Row 6: loads + stores against the AGUs.
    MemoryOps {
        /// Loads + stores against the memory-op rate.
        rate: MemRate,
    },
    /// Row 7.
    ComplexAddressing(ComplexAddressing),
    /// Row 8: needs the working set, which the analysis does not have.
    CacheBandwidth,
    /// Row 9: the loop-carried chain.
    DepChain(ChainFacts),
    /// Row 10: the µop cache.
    Dsb(DsbFacts),
    /// Row 11: the legacy decoders.
    Mite(MiteFacts),
    /// Row 11: the microcode sequencer.
    Microcode(MicrocodeFacts),
    /// Row 12: the loop stream detector.
    Lsd(LsdFacts),
    /// Row 13.
    TakenBranches(TakenFacts),
    /// Row 14.
    OooWindow(WindowFacts),
}

impl BoundFacts {
    /// The limit these facts belong to (a row's `kind`).
    pub fn kind(&self) -> BoundKind {
        match self {
            BoundFacts::IssueWidth(_) => BoundKind::IssueWidth,
            BoundFacts::IssueInstructions { .. } => BoundKind::IssueInstructions,
            BoundFacts::Ports(_) => BoundKind::Ports,
            BoundFacts::Divider { .. } => BoundKind::Divider,
            BoundFacts::Serializing { .. } => BoundKind::Serializing,
            BoundFacts::Loads { .. } => BoundKind::Loads,
            BoundFacts::Stores { .. } => BoundKind::Stores,
            BoundFacts::MemoryOps { .. } => BoundKind::MemoryOps,
            BoundFacts::ComplexAddressing(_) => BoundKind::ComplexAddressing,
            BoundFacts::CacheBandwidth => BoundKind::CacheBandwidth,
            BoundFacts::DepChain(_) => BoundKind::DepChain,
            BoundFacts::Dsb(_) => BoundKind::Dsb,
            BoundFacts::Mite(_) => BoundKind::Mite,
            BoundFacts::Microcode(_) => BoundKind::Microcode,
            BoundFacts::Lsd(_) => BoundKind::Lsd,
            BoundFacts::TakenBranches(_) => BoundKind::TakenBranches,
            BoundFacts::OooWindow(_) => BoundKind::OooWindow,
        }
    }
}

/// Row 1.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct IssueWidthFacts {
    /// No line has data.
    pub no_data: bool,
    /// Fused µops of one iteration (a macro-fused pair once).
    pub fused_uops: u64,
    /// Issue width in fused µops per cycle (0: unknown).
    pub width: u32,
    /// First lines of macro-fused pairs (the Jcc is the next line).
    pub macro_fused_pairs: Vec<usize>,
    /// Lines without retire-slot data, counted by their unfused µops.
    pub estimated_lines: Vec<usize>,
}

/// µops on one port set (`3*p0156`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PortGroup {
    /// Port names of the set, in port order.
    pub ports: Vec<String>,
    /// µops per iteration that may use exactly this set.
    pub uops: u64,
}

/// Row 2.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PortFacts {
    /// No line has data.
    pub no_data: bool,
    /// µops per port set, in port-mask order.
    pub usage: Vec<PortGroup>,
    /// µops that need no port.
    pub without_port: u64,
    /// The optimum, when some µop needs a port.
    pub solution: Option<PortSolution>,
}

/// The optimum of the port LP.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PortSolution {
    /// The critical port set Q\*.
    pub critical: Vec<String>,
    /// µops confined to Q\*.
    pub confined: u64,
    /// µops per port (every port of the arch) in a balanced optimal assignment.
    pub loads: Vec<super::PortLoad>,
}

/// A count against a per-cycle rate (rows 4–6).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MemRate {
    /// Accesses per iteration (gather elements and expected splits included).
    pub count: f64,
    /// Accesses per cycle, if known.
    pub per_cycle: Option<u32>,
    /// `(vector accesses, vector accesses per cycle)` when that limit is the tighter one.
    pub vector: Option<(f64, u32)>,
}

/// Row 7.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ComplexAddressing {
    /// The arch has the simple store AGU.
    Applies {
        /// Loads per iteration.
        loads: f64,
        /// Stores not of the form `[base + 0..=max]`.
        complex_stores: f64,
        /// Lines with such stores.
        lines: Vec<usize>,
        /// Load AGUs.
        load_agus: usize,
        /// The largest offset of a simple store.
        simple_max_offset: u32,
    },
    /// The arch has the limit but its AGUs or offset range are unknown.
    ParametersUnknown,
    /// Every store AGU handles complex addressing.
    NotApplicable,
    /// Whether the arch has the limit is unknown.
    Unknown,
}

/// Row 9.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChainFacts {
    /// The dependency graph has no loop-carried edges.
    NotComputed,
    /// No line has data.
    NoData,
    /// No cycle through a loop-carried edge.
    NoCycle {
        /// Loop-carried edges (parallel edges merged).
        carried_edges: usize,
    },
    /// The critical cycle.
    Cycle {
        /// Its edges in dependency order, starting at the smallest line.
        steps: Vec<ChainStep>,
        /// Σ edge latencies, cycles.
        latency: u64,
        /// Σ iteration distances.
        distance: u64,
        /// Loop-carried edges (parallel edges merged).
        carried_edges: usize,
        /// Heads of the loop-carried edges (nodes of the reduced graph).
        heads: usize,
    },
}

/// One edge of the critical chain.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChainStep {
    /// The producing line.
    pub line: usize,
    /// Its instruction (Intel syntax).
    pub text: String,
    /// The location the edge goes through (`rax`, `cf`, `?` when unknown).
    pub loc: String,
    /// Whether the edge crosses into the next iteration.
    pub carried: bool,
}

/// A structure of the out-of-order window.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Structure {
    /// The reorder buffer (fused µops).
    Rob,
    /// The scheduler (unfused µops; holds only waiting µops, so it does not cap the window).
    Scheduler,
    /// The load buffer.
    LoadBuffer,
    /// The store buffer.
    StoreBuffer,
    /// Branches in flight.
    BranchesInFlight,
}

/// How much of one structure one iteration takes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WindowUse {
    /// The structure.
    pub structure: Structure,
    /// Entries one iteration takes.
    pub used: f64,
    /// Its size, if known.
    pub size: Option<u32>,
}

/// Row 14.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WindowFacts {
    /// Every structure, in table order.
    pub uses: Vec<WindowUse>,
    /// Structures one iteration does not fit (the scheduler excepted).
    pub exceeded: Vec<Structure>,
    /// The structure allowing the fewest iterations in flight, and how many.
    pub tightest: Option<(Structure, f64)>,
}
