//! Fills the report's graph data ([`crate::report::graphs`]) from a region's [`Cfg`] and
//! [`DepGraph`].
//!
//! Owns: the mapping only. Latencies are the simulator's ([`crate::pipeline::latency::edge_offset`]).

use crate::cfg::{Cfg, CfgNote, EdgeKind, Succ};
use crate::db::InstrDesc;
use crate::deps::DepGraph;
use crate::ir::Instr;
use crate::pipeline::memory::dependencies::GraphEdge;
use crate::report::graphs::{
    CfgEdge, CfgEdgeKind, CfgGraph, DepEdgeOut, DepGraphOut, GraphBlock, GraphNode, Graphs,
};

/// The graphs of `instrs` (with `descs` for the latencies).
pub fn build(
    instrs: &[Instr],
    descs: &[Option<InstrDesc>],
    cfg: &Cfg,
    deps: &DepGraph,
    memory: &[GraphEdge],
) -> Graphs {
    let nodes = instrs
        .iter()
        .enumerate()
        .map(|(line, i)| GraphNode {
            line: line as u32,
            source_line: None,
            source_file: None,
            address: i.address,
            text: i.text.clone(),
            block: cfg.block_of(line) as u32,
        })
        .collect();
    let blocks = cfg
        .blocks()
        .iter()
        .map(|b| GraphBlock {
            first: b.first as u32,
            last: b.last as u32,
            ends_iteration: b.ends_iteration,
            exits: b.exits,
        })
        .collect();
    let edges = cfg
        .instr_edges()
        .into_iter()
        .map(|e| CfgEdge {
            from: e.from as u32,
            to: match e.to {
                Succ::Line(l) => Some(l as u32),
                Succ::End | Succ::Exit => None,
            },
            kind: match e.kind {
                EdgeKind::FallThrough => CfgEdgeKind::FallThrough,
                EdgeKind::Taken => CfgEdgeKind::Taken,
                EdgeKind::Backward => CfgEdgeKind::Backward,
                EdgeKind::Loop => CfgEdgeKind::Loop,
                EdgeKind::LoopExit => CfgEdgeKind::LoopExit,
            },
        })
        .collect();
    let notes = cfg.notes().iter().map(note).collect();
    let dep_edges = deps
        .edges()
        .map(|(from, to, e)| DepEdgeOut {
            from: from as u32,
            to: to as u32,
            loc: instrs[to].read_label(e.loc),
            address: None,
            distance: e.distance,
            latency: match (&descs[from], &descs[to]) {
                (Some(p), Some(c)) => Some(crate::pipeline::latency::edge_offset(p, c, e.loc)),
                _ => None,
            },
        })
        .chain(memory.iter().map(|m| DepEdgeOut {
            from: m.store as u32,
            to: m.load as u32,
            loc: "mem".into(),
            address: Some(m.address.label()),
            distance: m.distance,
            latency: m.latency,
        }))
        .collect();
    Graphs {
        nodes,
        cfg: CfgGraph {
            blocks,
            edges,
            notes,
        },
        dependencies: DepGraphOut {
            loop_carried: deps.has_loop_deps(),
            edges: dep_edges,
        },
    }
}

fn note(n: &CfgNote) -> String {
    match *n {
        CfgNote::MidInstructionTarget { line, target } => format!(
            "line {line}: target {target:#x} is inside an instruction; treated as leaving the region"
        ),
        CfgNote::BackwardBranch { line, target_line } => format!(
            "line {line}: backward branch to line {target_line}; ignored by the dependency analysis"
        ),
        CfgNote::LeavesRegion { line } => format!("line {line}: can leave the region"),
    }
}
