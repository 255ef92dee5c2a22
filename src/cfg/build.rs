//! Builds a [`Cfg`] from decoded instructions: successors per line, leaders, blocks, edges.

use petgraph::graph::{DiGraph, NodeIndex};

use super::{BasicBlock, Cfg, CfgNote, EdgeKind, LineFlow, Succ};
use crate::ir::{BranchKind, Instr};

/// Where a direct branch target lands.
enum Target {
    /// At the start of this line.
    Line(usize),
    /// At the region's end address (after the last instruction).
    End,
    /// Inside the region but not at an instruction start.
    Mid,
    /// Outside the region.
    Outside,
}

fn locate(instrs: &[Instr], start: u64, end: u64, target: u64) -> Target {
    if target == end {
        Target::End
    } else if target < start || target > end {
        Target::Outside
    } else {
        match instrs.binary_search_by_key(&target, |i| i.address) {
            Ok(line) => Target::Line(line),
            Err(_) => Target::Mid,
        }
    }
}

impl Cfg {
    /// Builds the CFG of `instrs` (in address order, line `i` at index `i`) for the region
    /// `region_start..region_end`. `iterations >= 2` adds the loop edge from the end back to
    /// the first instruction.
    pub fn build(instrs: &[Instr], region_start: u64, region_end: u64, iterations: u32) -> Cfg {
        let n = instrs.len();
        let mut notes = Vec::new();
        let mut lines = Vec::with_capacity(n);
        let loop_branch = super::loop_branch(instrs, region_start);
        for (line, instr) in instrs.iter().enumerate() {
            if Some(line) == loop_branch {
                // The loop's own back branch: taken, it starts the next iteration (the loop
                // edge); falling through leaves the loop.
                lines.push(LineFlow {
                    succs: vec![Succ::End],
                    backward: true,
                    backward_target: None,
                    loop_exit: instr.branch.is_conditional(),
                });
                continue;
            }
            let next = if line + 1 < n {
                Succ::Line(line + 1)
            } else {
                Succ::End
            };
            let mut flow = LineFlow::default();
            let mut direct = |target: u64, conditional: bool, flow: &mut LineFlow| {
                flow.backward = target <= instr.address;
                match locate(instrs, region_start, region_end, target) {
                    Target::Line(t) if flow.backward => {
                        // Thesis §3.1.1: backward branches are ignored. A `jmp` to the first
                        // instruction is the loop's own back jump: it ends the iteration.
                        if !conditional && t == 0 {
                            Some(Succ::End)
                        } else {
                            flow.backward_target = Some(t);
                            notes.push(CfgNote::BackwardBranch {
                                line,
                                target_line: t,
                            });
                            None
                        }
                    }
                    Target::Line(t) => Some(Succ::Line(t)),
                    Target::End => Some(Succ::End),
                    Target::Mid => {
                        notes.push(CfgNote::MidInstructionTarget { line, target });
                        Some(Succ::Exit)
                    }
                    Target::Outside => Some(Succ::Exit),
                }
            };
            match instr.branch {
                BranchKind::None | BranchKind::Call => flow.succs.push(next),
                BranchKind::Conditional { target } => {
                    flow.succs.push(next);
                    if let Some(t) = direct(target, true, &mut flow) {
                        if t != next {
                            flow.succs.push(t);
                        }
                    }
                }
                BranchKind::Jump { target } => {
                    if let Some(t) = direct(target, false, &mut flow) {
                        flow.succs.push(t);
                    }
                }
                BranchKind::IndirectJump | BranchKind::Return => flow.succs.push(Succ::Exit),
            }
            if flow.succs.contains(&Succ::Exit) {
                notes.push(CfgNote::LeavesRegion { line });
            }
            lines.push(flow);
        }

        let (blocks, block_of) = blocks(instrs, &lines);
        let graph = block_graph(&lines, &blocks, &block_of, iterations >= 2);
        Cfg {
            lines,
            blocks,
            block_of,
            graph,
            iterations,
            notes,
            loop_branch,
        }
    }
}

/// Splits the lines into basic blocks. Leaders: the first instruction, every in-region branch
/// target (forward or backward), the instruction after a branch (`call` is not a branch here).
fn blocks(instrs: &[Instr], lines: &[LineFlow]) -> (Vec<BasicBlock>, Vec<usize>) {
    let n = lines.len();
    let mut leader = vec![false; n];
    if n > 0 {
        leader[0] = true;
    }
    for (line, flow) in lines.iter().enumerate() {
        let is_branch = !matches!(instrs[line].branch, BranchKind::None | BranchKind::Call);
        if is_branch && line + 1 < n {
            leader[line + 1] = true;
        }
        for &s in &flow.succs {
            if let Succ::Line(t) = s {
                if is_branch {
                    leader[t] = true;
                }
            }
        }
        if let Some(t) = flow.backward_target {
            leader[t] = true;
        }
    }
    let mut blocks: Vec<BasicBlock> = Vec::new();
    let mut block_of = Vec::with_capacity(n);
    for (line, &is_leader) in leader.iter().enumerate() {
        if is_leader {
            blocks.push(BasicBlock {
                first: line,
                last: line,
                ends_iteration: false,
                exits: false,
            });
        }
        let last = blocks.len() - 1;
        blocks[last].last = line;
        block_of.push(last);
    }
    for b in &mut blocks {
        let succs = &lines[b.last].succs;
        b.ends_iteration = succs.contains(&Succ::End);
        b.exits = succs.contains(&Succ::Exit);
    }
    (blocks, block_of)
}

fn block_graph(
    lines: &[LineFlow],
    blocks: &[BasicBlock],
    block_of: &[usize],
    loop_edge: bool,
) -> DiGraph<BasicBlock, EdgeKind> {
    let mut g = DiGraph::with_capacity(blocks.len(), blocks.len() * 2);
    for b in blocks {
        g.add_node(*b);
    }
    for (id, b) in blocks.iter().enumerate() {
        let from = NodeIndex::new(id);
        let flow = &lines[b.last];
        for (i, &s) in flow.succs.iter().enumerate() {
            match s {
                Succ::Line(t) => {
                    let kind = if i == 0 && t == b.last + 1 {
                        EdgeKind::FallThrough
                    } else {
                        EdgeKind::Taken
                    };
                    g.add_edge(from, NodeIndex::new(block_of[t]), kind);
                }
                Succ::End if loop_edge => {
                    g.add_edge(from, NodeIndex::new(0), EdgeKind::Loop);
                }
                Succ::End | Succ::Exit => {}
            }
        }
        if let Some(t) = flow.backward_target {
            g.add_edge(from, NodeIndex::new(block_of[t]), EdgeKind::Backward);
        }
    }
    g
}
