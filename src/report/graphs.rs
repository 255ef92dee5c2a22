//! The control-flow and dependency graphs as data (node and edge lists) for the JSON report;
//! the same facts the DOT files (`-cfg`, `-dg`) draw.
//!
//! Owns: the serialized shape of both graphs.
//! Must not touch: building the graphs (`analysis::graphs` fills these from `cfg` and
//! `deps`).
//! Facts: SUACA thesis §2.3 (CFG, loop edge only with ≥ 2 iterations) and §2.4 (RAW
//! dependencies per location, loop-carried edges).

use serde::Serialize;

/// One instruction node (shared by both graphs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GraphNode {
    /// Line in the region.
    pub line: u32,
    /// Line in `source_file` (or in the input, when that is `None`).
    pub source_line: Option<u32>,
    /// The source file of `source_line`, when debug information names it.
    pub source_file: Option<String>,
    /// Address.
    pub address: u64,
    /// Intel-syntax text.
    pub text: String,
    /// Index of the basic block holding the line.
    pub block: u32,
}

/// A basic block: lines `first..=last`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GraphBlock {
    /// First line.
    pub first: u32,
    /// Last line (inclusive).
    pub last: u32,
    /// The block's last instruction can end the iteration.
    pub ends_iteration: bool,
    /// The block's last instruction can leave the region.
    pub exits: bool,
}

/// Kind of a control-flow edge.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CfgEdgeKind {
    /// To the next instruction.
    FallThrough,
    /// To a branch target (or out of the region).
    Taken,
    /// A backward branch inside the region (ignored by the dependency analysis).
    Backward,
    /// From the end of the iteration back to line 0 (only with ≥ 2 iterations); from the
    /// loop's own back branch, that branch taken.
    Loop,
    /// The loop's back branch falling through: the loop ends.
    LoopExit,
}

/// One instruction-level control-flow edge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CfgEdge {
    /// Source line.
    pub from: u32,
    /// Destination line; `None` when the edge leaves the region.
    pub to: Option<u32>,
    /// Kind.
    pub kind: CfgEdgeKind,
}

/// The control-flow graph.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CfgGraph {
    /// Basic blocks in address order.
    pub blocks: Vec<GraphBlock>,
    /// Instruction-level edges, sorted.
    pub edges: Vec<CfgEdge>,
    /// Simplifications the analysis made (backward branches, targets mid-instruction, ...).
    pub notes: Vec<String>,
}

/// One read-after-write dependency.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DepEdgeOut {
    /// Producer line.
    pub from: u32,
    /// Consumer line.
    pub to: u32,
    /// Location: register (`rax`), high-8 register (`ah`), flag (`cf`) or `mem` for a
    /// store→load dependency through memory.
    pub loc: String,
    /// For `mem` edges: the address as the load names it (`[rax-0x20]`); else `None`.
    pub address: Option<String>,
    /// Iteration distance (0 within an iteration, 1 loop-carried).
    pub distance: u32,
    /// Cycles from the producer's start until the consumer can use the value, as simulated;
    /// `None` when either line has no data.
    pub latency: Option<u32>,
}

/// The dependency graph.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DepGraphOut {
    /// Whether loop-carried edges were computed (≥ 2 iterations).
    pub loop_carried: bool,
    /// Edges sorted by producer, consumer, distance, location.
    pub edges: Vec<DepEdgeOut>,
}

/// Both graphs of a region.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Graphs {
    /// One node per instruction, in line order.
    pub nodes: Vec<GraphNode>,
    /// The control-flow graph.
    pub cfg: CfgGraph,
    /// The dependency graph.
    pub dependencies: DepGraphOut,
}
