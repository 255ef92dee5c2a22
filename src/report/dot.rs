//! Graphviz DOT text of a region's graphs (`-cfg` → `controlflow.dot`, `-dg` →
//! `dependency.dot`), drawn from the report's [`Graphs`]: the graphs the model ran on, the
//! same facts the JSON report lists.
//!
//! As thesis Figures 2.1, 2.2, 2.3 and 4.1: one node per instruction (label `line: text`).
//! Control flow: the loop edge (end → start, only with ≥ 2 iterations) is dashed red like the
//! figure's back jump, labelled "taken → start" when it is the loop's own back branch;
//! backward branches inside the region, which the dependency analysis ignores, are dotted
//! grey; a branch that leaves the region points at one `exit` node (present only when needed).
//! Dependencies: an edge from producer to consumer labelled with the location (`rax`, `zf`),
//! loop-carried edges dashed red; store→load edges through memory blue and labelled `mem`
//! with the address (dotted within an iteration, dashed with the iteration distance across).
//! Deterministic: nodes in line order, edges in the report's order.
//!
//! ```text
//! digraph controlflow {
//!   node [shape=box, fontname="monospace"];
//!   n0 [label="0: mov rax, 0x1"];
//!   ...
//!   n2 -> n5 [label="taken"];
//!   n6 -> n0 [style=dashed, color=red];
//! }
//! ```

use std::fmt::Write;

use super::graphs::{CfgEdgeKind, DepEdgeOut, Graphs};

/// The control-flow graph of `g`; `loop_branch` is the line of the region's own back branch.
pub fn controlflow(g: &Graphs, loop_branch: Option<u32>) -> String {
    let mut out = header("controlflow", g);
    let edges = &g.cfg.edges;
    if edges.iter().any(|e| e.to.is_none()) {
        out.push_str("  exit [label=\"exit\", shape=ellipse];\n");
    }
    for e in edges {
        let to = e.to.map_or_else(|| "exit".to_string(), |l| format!("n{l}"));
        let attrs = match e.kind {
            CfgEdgeKind::FallThrough => "",
            CfgEdgeKind::Taken => " [label=\"taken\"]",
            CfgEdgeKind::Backward => " [label=\"backward (ignored)\", style=dotted, color=gray]",
            CfgEdgeKind::Loop if Some(e.from) == loop_branch => {
                " [label=\"taken → start\", style=dashed, color=red]"
            }
            CfgEdgeKind::Loop => " [style=dashed, color=red]",
            CfgEdgeKind::LoopExit => " [label=\"exit\"]",
        };
        // Writing to a String cannot fail.
        let _ = writeln!(out, "  n{} -> {to}{attrs};", e.from);
    }
    out.push_str("}\n");
    out
}

/// The dependency graph of `g`, memory edges included.
pub fn dependency(g: &Graphs) -> String {
    let mut out = header("dependency", g);
    let edges = &g.dependencies.edges;
    for e in edges.iter().filter(|e| !covered_high8(e, edges)) {
        let style = match (&e.address, e.distance) {
            (None, 0) => String::new(),
            (None, _) => ", style=dashed, color=red".to_string(),
            (Some(_), 0) => ", style=dotted, color=blue".to_string(),
            (Some(_), d) => format!(", style=dashed, color=blue, taillabel=\"{d} iter\""),
        };
        let label = match &e.address {
            Some(a) => format!("mem {a}"),
            None => e.loc.clone(),
        };
        let _ = writeln!(
            out,
            "  n{} -> n{} [label=\"{}\"{style}];",
            e.from,
            e.to,
            escape(&label)
        );
    }
    out.push_str("}\n");
    out
}

/// A high-8 edge (`ah`) beside the full register's edge (`rax`) of the same pair: reading
/// RAX also reads AH, so the thesis figures draw only `rax`.
fn covered_high8(e: &DepEdgeOut, all: &[DepEdgeOut]) -> bool {
    let full = match e.loc.as_str() {
        "ah" => "rax",
        "bh" => "rbx",
        "ch" => "rcx",
        "dh" => "rdx",
        _ => return false,
    };
    all.iter()
        .any(|o| o.from == e.from && o.to == e.to && o.distance == e.distance && o.loc == full)
}

/// `digraph <name> {`, the node style and one node per instruction.
fn header(name: &str, g: &Graphs) -> String {
    let mut out = format!("digraph {name} {{\n");
    out.push_str("  node [shape=box, fontname=\"monospace\"];\n");
    for n in &g.nodes {
        let _ = writeln!(
            out,
            "  n{} [label=\"{}: {}\"];",
            n.line,
            n.line,
            escape(&n.text)
        );
    }
    out
}

/// Escapes `s` for a double-quoted DOT string (backslashes, quotes, newlines).
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
#[path = "dot_tests.rs"]
mod tests;
