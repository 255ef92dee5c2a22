//! Test oracle: the thesis' Algorithm 2 taken literally. Every path of the forward CFG gets its
//! own writer map, copied at each conditional branch and never joined. Exponential in the
//! number of branches; used only to check that `build.rs` (maps merged at joins) finds the
//! same edges.

use std::collections::BTreeSet;

use super::build::{node_succs, step, RawEdge, Writers};
use crate::cfg::Cfg;
use crate::ir::Instr;

/// Raw edges of `copies` back-to-back copies of the region, path by path.
pub(crate) fn raw_edges_by_paths(instrs: &[Instr], cfg: &Cfg, copies: usize) -> BTreeSet<RawEdge> {
    let n = instrs.len();
    let mut edges = BTreeSet::new();
    if n == 0 {
        return edges;
    }
    // Pending forks: (node, the map of the path that reaches it).
    let mut pending = vec![(0usize, Writers::new())];
    while let Some((mut v, mut map)) = pending.pop() {
        loop {
            step(&instrs[v % n], v, &mut map, &mut edges);
            let succs: Vec<usize> = node_succs(cfg, copies, v).collect();
            match succs.as_slice() {
                [] => break,
                [next] => v = *next,
                [next, taken] => {
                    pending.push((*taken, map.clone()));
                    v = *next;
                }
                _ => unreachable!("at most two successors"),
            }
        }
    }
    edges
}
