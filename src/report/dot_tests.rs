//! DOT text of hand-built programs' graphs: the thesis figures, escaping, the exit node and
//! memory edges.

use super::{controlflow, dependency};
use crate::analysis::graphs;
use crate::cfg::testprog::{bounds, check_with_graphviz, prog, ADC8, BRANCHY};
use crate::cfg::Cfg;
use crate::deps::DepGraph;
use crate::report::graphs::{DepEdgeOut, Graphs};

/// The report's graphs of `text` over `iterations` (≥ 2: loop-carried dependencies too).
fn graphs_of(text: &str, iterations: u32) -> Graphs {
    let instrs = prog(text);
    let (s, e) = bounds(&instrs);
    let cfg = Cfg::build(&instrs, s, e, iterations);
    let deps = DepGraph::build(&instrs, &cfg, iterations >= 2);
    graphs::build(&instrs, &vec![None; instrs.len()], &cfg, &deps, &[])
}

const NODES: &str = "  node [shape=box, fontname=\"monospace\"];
  n0 [label=\"0: mov rax, 0x1\"];
  n1 [label=\"1: cmp rcx, 0x0\"];
  n2 [label=\"2: jnz 0x7\"];
  n3 [label=\"3: add rbx, rax\"];
  n4 [label=\"4: jmp 0x5\"];
  n5 [label=\"5: add rbx, rax\"];
  n6 [label=\"6: add rbx, rbx\"];
";

#[test]
fn controlflow_matches_figure_2_1() {
    let text = controlflow(&graphs_of(BRANCHY, 2), None);
    let expected = format!(
        "digraph controlflow {{\n{NODES}  n0 -> n1;
  n1 -> n2;
  n2 -> n3;
  n2 -> n5 [label=\"taken\"];
  n3 -> n4;
  n4 -> n6 [label=\"taken\"];
  n5 -> n6;
  n6 -> n0 [style=dashed, color=red];
}}
"
    );
    assert_eq!(text, expected);
    check_with_graphviz(&text);
    // One iteration: no loop edge.
    assert!(!controlflow(&graphs_of(BRANCHY, 1), None).contains("red"));
}

#[test]
fn the_loops_own_branch_is_labelled_taken_to_start() {
    let g = graphs_of("dec rcx | r rcx | w rcx zf\njnz 0 | r zf | jcc 0", 2);
    let text = controlflow(&g, Some(1));
    assert!(
        text.contains("n1 -> n0 [label=\"taken → start\", style=dashed, color=red];"),
        "{text}"
    );
    assert!(text.contains("n1 -> exit [label=\"exit\"];"), "{text}");
    check_with_graphviz(&text);
}

#[test]
fn escapes_and_exit_node() {
    let text = controlflow(&graphs_of("mov \"a\\b\" | ret", 1), None);
    assert!(text.contains(r#"n0 [label="0: mov \"a\\b\""];"#), "{text}");
    assert!(text.contains("exit [label=\"exit\", shape=ellipse];"));
    assert!(text.contains("n0 -> exit [label=\"taken\"];"));
    check_with_graphviz(&text);
    let branches = "jz | r zf | jcc 3\ndec rcx | r rcx | w rcx zf\njnz 1 | r zf | jcc 1\nret | ret";
    let text = controlflow(&graphs_of(branches, 2), None);
    assert!(text.contains("style=dotted, color=gray"), "{text}");
    check_with_graphviz(&text);
}

#[test]
fn empty_region() {
    assert_eq!(
        dependency(&graphs_of("", 2)),
        "digraph dependency {\n  node [shape=box, fontname=\"monospace\"];\n}\n"
    );
}

#[test]
fn dependency_matches_figure_2_3() {
    let text = dependency(&graphs_of(BRANCHY, 2));
    let expected = format!(
        "digraph dependency {{\n{NODES}  n0 -> n3 [label=\"rax\"];
  n0 -> n5 [label=\"rax\"];
  n1 -> n2 [label=\"zf\"];
  n3 -> n6 [label=\"rbx\"];
  n5 -> n6 [label=\"rbx\"];
  n6 -> n3 [label=\"rbx\", style=dashed, color=red];
  n6 -> n5 [label=\"rbx\", style=dashed, color=red];
}}
"
    );
    assert_eq!(text, expected);
    check_with_graphviz(&text);
}

#[test]
fn adc8_has_one_line_per_edge_and_red_loops() {
    let text = dependency(&graphs_of(ADC8, 2));
    let edge_lines: Vec<_> = text.lines().filter(|l| l.contains("->")).collect();
    assert_eq!(edge_lines.len(), 16);
    let red = edge_lines
        .iter()
        .filter(|l| l.contains("style=dashed, color=red"))
        .count();
    assert_eq!(red, 9);
    assert!(text.contains("  n3 -> n3 [label=\"rdx\", style=dashed, color=red];"));
    check_with_graphviz(&text);
}

fn edge(from: u32, to: u32, loc: &str, address: Option<&str>, distance: u32) -> DepEdgeOut {
    DepEdgeOut {
        from,
        to,
        loc: loc.into(),
        address: address.map(String::from),
        distance,
        latency: None,
    }
}

#[test]
fn high8_edges_beside_the_full_register_are_not_drawn() {
    let mut g = graphs_of("mov rax, 0x1 | w rax\nadd rbx, rax | r rbx rax | w rbx", 1);
    g.dependencies.edges = vec![
        edge(0, 1, "rax", None, 0),
        edge(0, 1, "ah", None, 0),
        edge(0, 1, "bh", None, 0),
    ];
    let text = dependency(&g);
    assert!(text.contains("n0 -> n1 [label=\"rax\"];"), "{text}");
    assert!(!text.contains("\"ah\""), "{text}");
    assert!(text.contains("n0 -> n1 [label=\"bh\"];"), "{text}");
}

#[test]
fn memory_edges_are_blue_with_the_address() {
    let mut g = graphs_of("mov rax, 0x1 | w rax\nadd rbx, rax | r rbx rax | w rbx", 2);
    g.dependencies.edges = vec![
        edge(0, 1, "mem", Some("[rax+0x8]"), 0),
        edge(1, 0, "mem", Some("[rax-0x8]"), 1),
    ];
    let text = dependency(&g);
    assert!(
        text.contains("n0 -> n1 [label=\"mem [rax+0x8]\", style=dotted, color=blue];"),
        "{text}"
    );
    assert!(
        text.contains(
            "n1 -> n0 [label=\"mem [rax-0x8]\", style=dashed, color=blue, taillabel=\"1 iter\"];"
        ),
        "{text}"
    );
    check_with_graphviz(&text);
}
