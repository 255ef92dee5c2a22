//! Graphviz DOT rendering of a [`Cfg`] (the CLI writes it to `controlflow.dot`).
//!
//! Nodes are instructions, as in thesis Figure 2.1 (label `line: text`); the loop edge (end →
//! start, only with `iterations >= 2`) is dashed red like the figure's back jump. Backward
//! branches inside the region, which the dependency analysis ignores, are dotted grey; a
//! branch that leaves the region points at a single `exit` node (present only when needed).
//! Output is deterministic: nodes in line order, edges sorted.
//!
//! ```text
//! digraph controlflow {
//!   node [shape=box, fontname="monospace"];
//!   n0 [label="0: mov rax, 0x1"];
//!   ...
//!   n2 -> n3;
//!   n2 -> n5 [label="taken"];
//!   n6 -> n0 [style=dashed, color=red];
//! }
//! ```

use std::fmt::Write;

use super::{Cfg, EdgeKind, Succ};
use crate::ir::Instr;

/// Escapes `s` for a double-quoted DOT string (backslashes, quotes, newlines).
pub fn escape(s: &str) -> String {
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

/// Writes one node per instruction: `  n<line> [label="<line>: <text>"];`.
pub(crate) fn write_instr_nodes(out: &mut String, instrs: &[Instr]) {
    for (line, i) in instrs.iter().enumerate() {
        // Writing to a String cannot fail.
        let _ = writeln!(out, "  n{line} [label=\"{line}: {}\"];", escape(&i.text));
    }
}

/// Renders `cfg` (built from `instrs`) as DOT text.
pub fn render(cfg: &Cfg, instrs: &[Instr]) -> String {
    let mut out = String::from("digraph controlflow {\n");
    out.push_str("  node [shape=box, fontname=\"monospace\"];\n");
    write_instr_nodes(&mut out, instrs);
    let edges = cfg.instr_edges();
    let looped = cfg.loop_branch();
    if edges.iter().any(|e| e.to == Succ::Exit) {
        out.push_str("  exit [label=\"exit\", shape=ellipse];\n");
    }
    for e in edges {
        let to = match e.to {
            Succ::Line(l) => format!("n{l}"),
            Succ::Exit | Succ::End => "exit".to_string(),
        };
        let attrs = match e.kind {
            EdgeKind::FallThrough => "",
            EdgeKind::Taken => " [label=\"taken\"]",
            EdgeKind::Backward => " [label=\"backward (ignored)\", style=dotted, color=gray]",
            EdgeKind::Loop if Some(e.from) == looped => {
                " [label=\"taken → start\", style=dashed, color=red]"
            }
            EdgeKind::Loop => " [style=dashed, color=red]",
            EdgeKind::LoopExit => " [label=\"exit\"]",
        };
        let _ = writeln!(out, "  n{} -> {to}{attrs};", e.from);
    }
    out.push_str("}\n");
    out
}
