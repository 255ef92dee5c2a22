//! The block graph of one whole function, for finding its loops: unlike [`crate::cfg`] (one
//! region, forward edges only, as the thesis' Algorithm 2 reads them), every in-function
//! branch is an edge here, backward ones included.

use petgraph::graph::{DiGraph, NodeIndex};

use crate::ir::{BranchKind, Instr};

/// A basic block: instructions `first..=last` (indices into the function's instructions).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Block {
    /// First instruction.
    pub first: usize,
    /// Last instruction (inclusive).
    pub last: usize,
}

/// The blocks of a function in address order; node `i` of `graph` is block `i`, node 0 the
/// entry.
#[derive(Clone, Debug)]
pub(crate) struct FlowGraph {
    pub blocks: Vec<Block>,
    pub graph: DiGraph<(), ()>,
}

/// The direct branch target of `instr`, if any.
fn target(instr: &Instr) -> Option<u64> {
    match instr.branch {
        BranchKind::Conditional { target } | BranchKind::Jump { target } => Some(target),
        _ => None,
    }
}

/// Whether control may continue at the next instruction.
fn falls_through(instr: &Instr) -> bool {
    matches!(
        instr.branch,
        BranchKind::None | BranchKind::Call | BranchKind::Conditional { .. }
    )
}

/// Whether the instruction ends a block (any branch; calls return to the next instruction).
fn ends_block(instr: &Instr) -> bool {
    !matches!(instr.branch, BranchKind::None | BranchKind::Call)
}

/// Splits `instrs` (one function, address order) into blocks and links them. Branch targets
/// outside the function or inside an instruction leave it: no edge.
pub(crate) fn build(instrs: &[Instr]) -> FlowGraph {
    let line_at = |address: u64| instrs.binary_search_by_key(&address, |i| i.address).ok();
    let n = instrs.len();
    let mut leader = vec![false; n];
    if let Some(first) = leader.first_mut() {
        *first = true;
    }
    for (line, instr) in instrs.iter().enumerate() {
        if ends_block(instr) && line + 1 < n {
            leader[line + 1] = true;
        }
        if let Some(t) = target(instr).and_then(line_at) {
            leader[t] = true;
        }
    }
    let mut blocks: Vec<Block> = Vec::new();
    let mut block_of = vec![0; n];
    for line in 0..n {
        if leader[line] {
            blocks.push(Block {
                first: line,
                last: line,
            });
        } else if let Some(b) = blocks.last_mut() {
            b.last = line;
        }
        block_of[line] = blocks.len().saturating_sub(1);
    }
    let mut graph = DiGraph::with_capacity(blocks.len(), blocks.len() * 2);
    for _ in &blocks {
        graph.add_node(());
    }
    for (b, block) in blocks.iter().enumerate() {
        let last = &instrs[block.last];
        let from = NodeIndex::new(b);
        if falls_through(last) && block.last + 1 < n {
            graph.update_edge(from, NodeIndex::new(block_of[block.last + 1]), ());
        }
        if let Some(t) = target(last).and_then(line_at) {
            graph.update_edge(from, NodeIndex::new(block_of[t]), ());
        }
    }
    FlowGraph { blocks, graph }
}
