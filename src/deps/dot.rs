//! Graphviz DOT rendering of a [`DepGraph`] (the CLI writes it to `dependency.dot`).
//!
//! As thesis Figures 2.2, 2.3 and 4.1: one node per instruction (label `line: text`), an edge
//! from producer to consumer labelled with the location (`rax`, `zf`, `cf`); loop-carried edges
//! are dashed red; store→load edges through memory are blue and labelled `mem` with the address
//! (dotted within an iteration, dashed with the iteration distance across). Deterministic: nodes in line order, edges in [`DepGraph::edges`] order.
//!
//! ```text
//! digraph dependency {
//!   node [shape=box, fontname="monospace"];
//!   n0 [label="0: mov rax, 0x1"];
//!   ...
//!   n0 -> n3 [label="rax"];
//!   n6 -> n3 [label="rbx", style=dashed, color=red];
//! }
//! ```

use std::fmt::Write;

use super::DepGraph;
use crate::cfg::dot::{escape, write_instr_nodes};
use crate::ir::{Instr, Loc};

/// A dependency the register graph does not hold: a store→load edge through memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryEdge {
    /// The store's line.
    pub from: usize,
    /// The load's line.
    pub to: usize,
    /// Iterations between them.
    pub distance: u32,
    /// The address (`[rax-0x20]`).
    pub address: String,
}

/// Renders `deps` (built from `instrs`) as DOT text, with the memory edges `memory`
/// (labelled `mem` and the address; dotted).
pub fn render(deps: &DepGraph, instrs: &[Instr], memory: &[MemoryEdge]) -> String {
    let mut out = String::from("digraph dependency {\n");
    out.push_str("  node [shape=box, fontname=\"monospace\"];\n");
    write_instr_nodes(&mut out, instrs);
    let edges: Vec<_> = deps.edges().collect();
    for &(from, to, e) in &edges {
        // A full-register edge already says it: reading RAX also reads AH, so the AH edge
        // beside the RAX edge of the same pair is not drawn (thesis figures show `rax`).
        if let Loc::High8(r) = e.loc {
            let covered = edges.iter().any(|&(f, t, o)| {
                f == from && t == to && o.distance == e.distance && o.loc == Loc::Reg(r)
            });
            if covered {
                continue;
            }
        }
        let style = if e.loop_carried {
            ", style=dashed, color=red"
        } else {
            ""
        };
        // Writing to a String cannot fail.
        let _ = writeln!(
            out,
            "  n{from} -> n{to} [label=\"{}\"{style}];",
            escape(&instrs[to].read_label(e.loc))
        );
    }
    for m in memory {
        let style = if m.distance > 0 {
            format!(
                ", style=dashed, color=blue, taillabel=\"{} iter\"",
                m.distance
            )
        } else {
            ", style=dotted, color=blue".to_string()
        };
        let _ = writeln!(
            out,
            "  n{} -> n{} [label=\"mem {}\"{style}];",
            m.from,
            m.to,
            escape(&m.address)
        );
    }
    out.push_str("}\n");
    out
}
