//! Control-flow graph of a region: basic blocks, instruction-level successors, the loop edge.
//!
//! Owns: [`Cfg`] (built once per region by [`Cfg::build`]), [`BasicBlock`], [`Succ`],
//! [`EdgeKind`], [`CfgNote`].
//! Must not touch: latencies, ports, the simulator, files (`report::dot` draws the graph).
//! Facts: SUACA thesis §2.3 (Figure 2.1: the CFG, the dashed red back jump that exists only
//! when the analysis runs for at least two iterations) and §3.1 (Algorithm 2 walks instruction
//! nodes: successor 0 is the fall-through or only successor, successor 1 the taken target of a
//! conditional branch; backward branches are ignored).
//!
//! # Model
//!
//! Every instruction has at most two *forward* successors ([`Cfg::successors`]), in the order
//! Algorithm 2 reads them:
//!
//! | instruction                          | successors                        |
//! |--------------------------------------|-----------------------------------|
//! | no branch, `call`                    | `[next]`                          |
//! | `jcc t`, `t` forward in the region   | `[next, t]` (`[next]` if `t == next`) |
//! | `jcc t`, `t` backward in the region  | `[next]` (backward edge ignored)  |
//! | `jcc t`, `t` outside the region      | `[next, Exit]`                    |
//! | `jmp t`, `t` forward in the region   | `[t]`                             |
//! | `jmp t`, `t` = region start          | `[End]` (closes the iteration)    |
//! | `jmp t`, other backward `t`          | `[]` (noted)                      |
//! | `jmp t` outside, `jmp reg`, `ret`    | `[Exit]`                          |
//!
//! `next` of the last instruction, and a target equal to the region's end address, is
//! [`Succ::End`]: the end of one iteration. With `iterations >= 2` the end continues at the
//! first instruction over the loop edge ([`EdgeKind::Loop`], the red dashed edge of
//! Figure 2.1). [`Succ::Exit`] leaves the region: the path ends there and has no successor
//! (not even over the loop edge). A target inside the region that is not the start of an
//! instruction is treated as leaving the region and recorded in [`Cfg::notes`].
//!
//! The block graph ([`Cfg::graph`]) holds the same information per basic block; the exit is
//! not a node (blocks that can leave have [`BasicBlock::exits`] set).

mod build;
#[cfg(test)]
pub(crate) mod testprog;
#[cfg(test)]
mod tests;

use petgraph::graph::DiGraph;

use crate::ir::{BranchKind, Instr};

/// Where control goes after an instruction.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Succ {
    /// The instruction at this line.
    Line(usize),
    /// The end of the iteration (fall-through off the last instruction, or a jump to the
    /// region's end address, or a jump back to its start).
    End,
    /// Leaves the region: a target outside it or inside an instruction, an indirect jump, a
    /// return. The iteration's path ends.
    Exit,
}

/// Kind of a control-flow edge.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EdgeKind {
    /// To the next instruction.
    FallThrough,
    /// To a branch target.
    Taken,
    /// A backward branch inside the region: part of the control flow, ignored by the
    /// dependency analysis (thesis §3.1.1).
    Backward,
    /// From the end of the region back to its start; only with `iterations >= 2`. From the
    /// loop's own back branch it is that branch taken.
    Loop,
    /// The fall-through of the loop's conditional back branch: the loop ends.
    LoopExit,
}

/// A basic block: the lines `first..=last`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BasicBlock {
    /// First line.
    pub first: usize,
    /// Last line (inclusive).
    pub last: usize,
    /// Whether the last instruction can reach the end of the iteration ([`Succ::End`]).
    pub ends_iteration: bool,
    /// Whether the last instruction can leave the region ([`Succ::Exit`]).
    pub exits: bool,
}

impl BasicBlock {
    /// The lines of the block.
    pub fn lines(&self) -> std::ops::RangeInclusive<usize> {
        self.first..=self.last
    }
}

/// Something about the control flow that the analysis simplified.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CfgNote {
    /// The branch at `line` targets `target`, inside the region but not at an instruction
    /// start; treated as leaving the region.
    MidInstructionTarget {
        /// Line of the branch.
        line: usize,
        /// Target address.
        target: u64,
    },
    /// The branch at `line` goes backward to `target_line` inside the region; the dependency
    /// analysis ignores that edge (a `jmp` then ends the path).
    BackwardBranch {
        /// Line of the branch.
        line: usize,
        /// Line of the target.
        target_line: usize,
    },
    /// The instruction at `line` can leave the region (outside target, indirect jump,
    /// return).
    LeavesRegion {
        /// Line of the instruction.
        line: usize,
    },
}

/// Bytes before the region's start that a back branch may target and still be the loop's
/// own branch: IACA's start marker (`mov ebx, 111` and `64 67 90`, 8 bytes; MSVC's
/// `mov byte ptr gs:[111], 111`, 9 bytes) sits at the top of the loop body when it is
/// compiled in from C, so the loop's branch jumps back to the marker, not past it.
pub const MARKER_SLACK: u64 = 16;

/// The line of the region's loop branch: its last instruction, a conditional branch or jump
/// back to the region's first instruction (or into the [`MARKER_SLACK`] bytes before it).
/// Such a region is simulated as a loop whose branch is taken every iteration (loop mode);
/// any other region is one iteration of straight-line code repeated (unrolled mode).
pub fn loop_branch(instrs: &[Instr], region_start: u64) -> Option<usize> {
    let last = instrs.len().checked_sub(1)?;
    let target = match instrs[last].branch {
        BranchKind::Conditional { target } | BranchKind::Jump { target } => target,
        _ => return None,
    };
    (target <= region_start && region_start - target <= MARKER_SLACK).then_some(last)
}

/// Whether the region `instrs`, which starts at its first instruction, is a loop
/// ([`loop_branch`] from that instruction's address).
pub fn is_loop(instrs: &[Instr]) -> bool {
    instrs
        .first()
        .is_some_and(|f| loop_branch(instrs, f.address).is_some())
}

/// One instruction-level edge, as drawn in Figure 2.1.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InstrEdge {
    /// Source line.
    pub from: usize,
    /// Destination (`Succ::Line(0)` for the loop edge; never `Succ::End`).
    pub to: Succ,
    /// Kind of the edge.
    pub kind: EdgeKind,
}

/// Per-line control-flow facts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct LineFlow {
    /// Forward successors in Algorithm 2 order.
    succs: Vec<Succ>,
    /// The instruction is a branch whose target address is not after its own address.
    backward: bool,
    /// Line of an in-region backward target that the forward successors leave out.
    backward_target: Option<usize>,
    /// The loop's conditional back branch: falling through leaves the loop.
    loop_exit: bool,
}

/// The control-flow graph of one region.
#[derive(Clone, Debug)]
pub struct Cfg {
    lines: Vec<LineFlow>,
    blocks: Vec<BasicBlock>,
    block_of: Vec<usize>,
    graph: DiGraph<BasicBlock, EdgeKind>,
    iterations: u32,
    notes: Vec<CfgNote>,
    loop_branch: Option<usize>,
}

impl Cfg {
    /// Number of instructions.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether the region has no instructions.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The forward successors of `line` in Algorithm 2 order: index 0 is the fall-through (or
    /// only) successor, index 1 the taken target of a conditional branch. Backward edges are
    /// left out; the loop edge is not listed (it is [`Succ::End`]).
    pub fn successors(&self, line: usize) -> &[Succ] {
        &self.lines[line].succs
    }

    /// Whether the instruction at `line` branches to an address not after its own.
    pub fn is_backward_branch(&self, line: usize) -> bool {
        self.lines[line].backward
    }

    /// The number of iterations the graph was built for.
    pub fn iterations(&self) -> u32 {
        self.iterations
    }

    /// Whether the loop edge (end → start) exists: `iterations >= 2`.
    pub fn has_loop_edge(&self) -> bool {
        self.iterations >= 2
    }

    /// The basic blocks in address order; block `i` is node `i` of [`Cfg::graph`].
    pub fn blocks(&self) -> &[BasicBlock] {
        &self.blocks
    }

    /// Index of the block holding `line`.
    pub fn block_of(&self, line: usize) -> usize {
        self.block_of[line]
    }

    /// The block graph: node `i` is block `i`; edges carry their [`EdgeKind`] (fall-through,
    /// taken, backward, loop). Leaving the region is not an edge.
    pub fn graph(&self) -> &DiGraph<BasicBlock, EdgeKind> {
        &self.graph
    }

    /// The line of the loop's own back branch ([`loop_branch`]), if the region is a loop.
    pub fn loop_branch(&self) -> Option<usize> {
        self.loop_branch
    }

    /// Simplifications made while building, in line order.
    pub fn notes(&self) -> &[CfgNote] {
        &self.notes
    }

    /// All instruction-level edges, sorted: fall-through and taken edges, backward edges, the
    /// loop edge from every line that reaches the end (only with `iterations >= 2`) and edges
    /// to [`Succ::Exit`].
    pub fn instr_edges(&self) -> Vec<InstrEdge> {
        let mut out = Vec::new();
        for (from, flow) in self.lines.iter().enumerate() {
            for (i, &to) in flow.succs.iter().enumerate() {
                let kind = if to == Succ::Line(from + 1) && i == 0 {
                    EdgeKind::FallThrough
                } else {
                    EdgeKind::Taken
                };
                match to {
                    Succ::End if self.has_loop_edge() => out.push(InstrEdge {
                        from,
                        to: Succ::Line(0),
                        kind: EdgeKind::Loop,
                    }),
                    Succ::End => {}
                    _ => out.push(InstrEdge { from, to, kind }),
                }
            }
            if let Some(t) = flow.backward_target {
                out.push(InstrEdge {
                    from,
                    to: Succ::Line(t),
                    kind: EdgeKind::Backward,
                });
            }
            if flow.loop_exit {
                out.push(InstrEdge {
                    from,
                    to: Succ::Exit,
                    kind: EdgeKind::LoopExit,
                });
            }
        }
        out.sort();
        out.dedup();
        out
    }
}
