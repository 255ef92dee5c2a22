//! Natural loops from dominators (Aho, Lam, Sethi, Ullman, "Compilers", §9.6): an edge
//! `u → h` whose head `h` dominates its tail `u` is a back edge; its loop is `h` plus every
//! block that reaches `u` without passing `h`. Back edges with the same header make one loop.
//! Retreating edges of irreducible control flow (no dominating head) form no loop.

use std::collections::{BTreeMap, BTreeSet};

use petgraph::algo::dominators;
use petgraph::graph::NodeIndex;
use petgraph::Direction;

use super::blocks::FlowGraph;

/// A natural loop: its header block and all its blocks (header included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct NaturalLoop {
    pub header: usize,
    pub body: BTreeSet<usize>,
}

/// Every natural loop of the graph (entry: node 0), one per header, in header order. Only
/// blocks reachable from the entry take part.
pub(crate) fn natural_loops(flow: &FlowGraph) -> Vec<NaturalLoop> {
    let g = &flow.graph;
    if g.node_count() == 0 {
        return Vec::new();
    }
    let doms = dominators::simple_fast(g, NodeIndex::new(0));
    let mut bodies: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    for edge in g.edge_indices() {
        let Some((tail, head)) = g.edge_endpoints(edge) else {
            continue;
        };
        let dominated = doms
            .dominators(tail)
            .is_some_and(|mut ds| ds.any(|d| d == head));
        if !dominated {
            continue;
        }
        let body = bodies.entry(head.index()).or_default();
        body.insert(head.index());
        let mut stack = vec![tail];
        // The header is in already, so the walk never goes past it; blocks the entry never
        // reaches (padding after a jump, code reached only indirectly) are left out.
        while let Some(n) = stack.pop() {
            if doms.dominators(n).is_some() && body.insert(n.index()) {
                stack.extend(g.neighbors_directed(n, Direction::Incoming));
            }
        }
    }
    bodies
        .into_iter()
        .map(|(header, body)| NaturalLoop { header, body })
        .collect()
}

/// The loops that hold no other loop's header: the innermost ones.
pub(crate) fn innermost(loops: &[NaturalLoop]) -> Vec<NaturalLoop> {
    loops
        .iter()
        .filter(|l| {
            !loops
                .iter()
                .any(|other| other.header != l.header && l.body.contains(&other.header))
        })
        .cloned()
        .collect()
}
