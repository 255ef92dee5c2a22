//! The words of rows built from hand-made facts, and the table of a computed one.

use super::*;
use crate::bounds::{
    self, BoundOptions, ChainFacts, ChainStep, IssueWidthFacts, MemRate, PortFacts, PortGroup,
    PortLoad, PortSolution, RowState, Structure, WindowFacts, WindowUse,
};

fn row(kind: BoundKind, cycles: Option<f64>, facts: BoundFacts) -> BoundRow {
    BoundRow {
        kind,
        state: RowState::Bound,
        cycles,
        binds: false,
        facts,
        left_out: Vec::new(),
    }
}

fn names(s: &[&str]) -> Vec<String> {
    s.iter().map(|n| n.to_string()).collect()
}

#[test]
fn numbers_drop_trailing_zeros() {
    assert_eq!(fmt_num(3.5), "3.5");
    assert_eq!(fmt_num(2.0), "2");
    assert_eq!(fmt_num(1.0 / 3.0), "0.333");
    assert_eq!(fmt_num(4.0 / 3.0), "1.333");
    assert_eq!(fmt_num(0.0), "0");
    assert_eq!(fmt_num(-0.25), "-0.25");
}

#[test]
fn issue_width_names_pairs_and_estimated_lines() {
    let f = IssueWidthFacts {
        no_data: false,
        fused_uops: 14,
        width: 4,
        macro_fused_pairs: vec![13],
        estimated_lines: vec![2, 5],
    };
    let w = words(&row(
        BoundKind::IssueWidth,
        Some(3.5),
        BoundFacts::IssueWidth(f),
    ));
    assert_eq!(w.detail, "14 fused µops / 4 per cycle = 3.5");
    assert_eq!(
        w.inputs,
        vec![
            ("fused µops", "14".to_string()),
            ("issue width", "4".to_string()),
            ("macro-fused pairs", "13+14".to_string()),
            (
                "no retire-slot data (unfused µops used)",
                "lines 2, 5".to_string()
            ),
        ]
    );
}

#[test]
fn port_sets_print_intel_and_amd_names() {
    let f = PortFacts {
        no_data: false,
        usage: vec![
            PortGroup {
                ports: names(&["0", "1", "5", "6"]),
                uops: 3,
            },
            PortGroup {
                ports: names(&["ALU0", "ALU1"]),
                uops: 2,
            },
        ],
        without_port: 1,
        solution: Some(PortSolution {
            critical: names(&["ALU0", "ALU1"]),
            confined: 2,
            loads: vec![PortLoad {
                port: "ALU0".into(),
                load: 1.0,
            }],
        }),
    };
    let w = words(&row(BoundKind::Ports, Some(1.0), BoundFacts::Ports(f)));
    assert_eq!(
        w.detail,
        "Q* = {ALU0,ALU1}: 2 µops confined to 2 port(s) = 1; loads: pALU0 1"
    );
    assert_eq!(w.inputs[0], ("port usage", "3*p0156+2*{ALU0,ALU1}".into()));
    assert_eq!(w.inputs[1], ("µops without a port", "1".into()));
}

#[test]
fn long_chains_show_their_first_twelve_steps() {
    let steps: Vec<ChainStep> = (0..14)
        .map(|line| ChainStep {
            line,
            text: format!("add r{line}, 1"),
            loc: "rax".into(),
            carried: line == 13,
        })
        .collect();
    let facts = ChainFacts::Cycle {
        steps,
        latency: 14,
        distance: 1,
        carried_edges: 1,
        heads: 1,
    };
    let w = words(&row(
        BoundKind::DepChain,
        Some(14.0),
        BoundFacts::DepChain(facts),
    ));
    assert!(w.detail.starts_with("0 -rax-> 1 -rax-> "), "{}", w.detail);
    assert!(
        w.detail
            .contains("11 -rax-> ... (2 more) -> 0 (latency 14 over 1 iteration(s) = 14)"),
        "{}",
        w.detail
    );
    assert!(w.detail.ends_with("[11] add r11, 1; ..."), "{}", w.detail);
    assert_eq!(
        w.inputs[0],
        (
            "chain lines",
            "0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, ... (14 lines)".into()
        )
    );
    assert_eq!(
        w.inputs.last(),
        Some(&(
            "memory dependencies",
            "as simulated, up to one iteration apart".into()
        ))
    );
}

#[test]
fn vector_rate_replaces_the_scalar_formula_when_tighter() {
    let rate = MemRate {
        count: 2.0,
        per_cycle: Some(2),
        vector: Some((2.0, 1)),
    };
    let f = BoundFacts::Loads {
        rate,
        lines: vec![],
        gathers: vec![(3, 8)],
    };
    let w = words(&row(BoundKind::Loads, Some(2.0), f));
    assert_eq!(w.detail, "2 vector loads / 1 per cycle = 2");
    assert_eq!(w.inputs[2], ("load lines", "none".into()));
    assert_eq!(w.inputs[3], ("gather/scatter", "line 3: 8 elements".into()));
}

#[test]
fn window_names_the_tightest_structure() {
    let f = WindowFacts {
        uses: vec![
            WindowUse {
                structure: Structure::Rob,
                used: 4.0,
                size: Some(224),
            },
            WindowUse {
                structure: Structure::LoadBuffer,
                used: 0.0,
                size: Some(72),
            },
            WindowUse {
                structure: Structure::StoreBuffer,
                used: 1.0,
                size: None,
            },
        ],
        exceeded: vec![],
        tightest: Some((Structure::Rob, 56.0)),
    };
    let w = words(&row(BoundKind::OooWindow, None, BoundFacts::OooWindow(f)));
    assert_eq!(
        w.detail,
        "at most 56 iterations in flight (limited by the ROB (fused µops))"
    );
    assert_eq!(
        w.inputs,
        vec![
            ("ROB (fused µops)", "4/224 (56 iterations)".into()),
            ("load buffer", "0/72".into()),
            ("store buffer", "1 / unknown size".into()),
        ]
    );
}

#[test]
fn empty_region_renders_every_row() {
    let skl = crate::uarch::load("SKL").expect("SKL");
    let cfg = crate::cfg::Cfg::build(&[], 0, 0, 2);
    let deps = crate::deps::DepGraph::build(&[], &cfg, true);
    let b = bounds::compute(&[], &[], &deps, &[], &skl, &BoundOptions::default());
    let t = render_text(&b, &skl.name);
    assert!(t.contains("Cycles/iter"), "{t}");
    assert!(t.contains("n/a (needs working-set level)"), "{t}");
    for r in &b.rows {
        assert!(t.contains(label(r.kind)), "{:?} missing:\n{t}", r.kind);
    }
}
