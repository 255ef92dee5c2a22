//! Read-after-write edges along the CFG (thesis Algorithm 2), with the region doubled for
//! loop-carried edges (§3.1.2).
//!
//! Algorithm 2 walks every path of the forward CFG with its own last-writer map, forking at
//! each conditional branch and never joining. The set of edges it finds is: `p → c` on `loc`
//! iff some path from the start reaches `c` with `p` as a possible last writer of `loc`. That
//! is the reaching-definitions problem, which is distributive, so merging the maps at join
//! points (union of the writer sets) gives exactly the same edges (meet-over-paths equals the
//! fixed point) without the exponential number of paths of a chain of `if`s. Backward edges
//! are not in [`Cfg::successors`], so the forward CFG is acyclic and every successor has a
//! higher line: one pass in line order is the fixed point. `paths.rs` keeps the literal
//! path-forking walk as a test oracle.
//!
//! Writer sets: an unconditional write replaces the set of its loc, a conditional write
//! ([`AccessKind::CondWrite`]) adds itself, so a later reader depends on it *and* on the
//! writers before it. Per instruction all reads come first, then all writes (thesis: "first
//! read then write access").

use std::collections::{BTreeMap, BTreeSet};

use crate::cfg::{Cfg, Succ};
use crate::ir::{AccessKind, Instr, Loc};

/// Possible last writers (node ids) per location.
pub(crate) type Writers = BTreeMap<Loc, BTreeSet<usize>>;

/// A raw edge between node ids of the (possibly doubled) program: node `k * n + line` is
/// `line` in copy `k`.
pub(crate) type RawEdge = (usize, usize, Loc);

/// The successors of node `v` in a program made of `copies` back-to-back copies of the
/// region: [`Succ::End`] of copy `k` continues at the start of copy `k + 1`.
pub(crate) fn node_succs(cfg: &Cfg, copies: usize, v: usize) -> impl Iterator<Item = usize> + '_ {
    let n = cfg.len();
    let (k, line) = (v / n, v % n);
    cfg.successors(line).iter().filter_map(move |s| match *s {
        Succ::Line(t) => Some(k * n + t),
        Succ::End if k + 1 < copies => Some((k + 1) * n),
        Succ::End | Succ::Exit => None,
    })
}

/// Applies instruction `instr` at node `v` to `map`: reports an edge for every read, then
/// performs the writes.
pub(crate) fn step(instr: &Instr, v: usize, map: &mut Writers, edges: &mut BTreeSet<RawEdge>) {
    for a in instr.reads() {
        if let Some(ws) = map.get(&a.loc) {
            edges.extend(ws.iter().map(|&w| (w, v, a.loc)));
        }
    }
    for a in instr.writes() {
        let ws = map.entry(a.loc).or_default();
        if a.kind == AccessKind::Write {
            ws.clear();
        }
        ws.insert(v);
    }
}

/// Raw RAW edges of `copies` back-to-back copies of the region, by a forward pass in node
/// order with writer sets merged at join points.
#[cfg(test)]
pub(crate) fn raw_edges(instrs: &[Instr], cfg: &Cfg, copies: usize) -> BTreeSet<RawEdge> {
    raw_edges_limited(instrs, cfg, copies, &DepLimits::NONE).unwrap_or_default()
}

/// [`raw_edges`] that gives up once the edges or the writer-set work pass `limits`: many
/// branches that join before many reads make the edge set quadratic in the region size.
pub(crate) fn raw_edges_limited(
    instrs: &[Instr],
    cfg: &Cfg,
    copies: usize,
    limits: &DepLimits,
) -> Result<BTreeSet<RawEdge>, TooComplex> {
    let n = instrs.len();
    let total = n * copies;
    let mut edges = BTreeSet::new();
    // Writer-set elements copied or merged (the cost of the joins).
    let mut work: u64 = 0;
    let too_complex = || TooComplex {
        instructions: n,
        max_edges: limits.max_edges,
    };
    // `None`: not reached (yet) by any path from the start.
    let mut state: Vec<Option<Writers>> = vec![None; total];
    if total > 0 {
        state[0] = Some(Writers::new());
    }
    for v in 0..total {
        let Some(mut map) = state[v].take() else {
            continue;
        };
        step(&instrs[v % n], v, &mut map, &mut edges);
        if edges.len() > limits.max_edges {
            return Err(too_complex());
        }
        for s in node_succs(cfg, copies, v) {
            debug_assert!(s > v, "forward CFG edges go to higher lines");
            work += map.values().map(|ws| ws.len() as u64).sum::<u64>();
            if work > limits.max_work {
                return Err(too_complex());
            }
            match &mut state[s] {
                Some(into) => {
                    for (loc, ws) in &map {
                        into.entry(*loc).or_default().extend(ws);
                    }
                }
                slot @ None => *slot = Some(map.clone()),
            }
        }
    }
    Ok(edges)
}

/// Bounds on the dependency analysis of one region.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DepLimits {
    /// Most raw edges (of both copies with loop dependencies).
    pub max_edges: usize,
    /// Most writer-set elements copied or merged along CFG edges.
    pub max_work: u64,
}

impl DepLimits {
    /// No limit.
    pub const NONE: DepLimits = DepLimits {
        max_edges: usize::MAX,
        max_work: u64::MAX,
    };

    /// The limits for a region of `n` instructions: 16 edges per instruction on average
    /// (real code has 2 to 6, counting both copies) plus a floor for small regions, and 100
    /// times that in join work. A 100k-instruction region stays within seconds and a few
    /// hundred MB; a few thousand branches joining before a few thousand reads do not.
    pub fn for_len(n: usize) -> DepLimits {
        let max_edges = n.saturating_mul(16).saturating_add(1 << 20);
        DepLimits {
            max_edges,
            max_work: (max_edges as u64).saturating_mul(100),
        }
    }
}

/// The region's dependencies exceed [`DepLimits`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the region is too complex for the dependency analysis: its {instructions} instructions \
     have more than {max_edges} register dependencies (many branches join before many reads \
     of the same register); analyze a smaller region"
)]
pub struct TooComplex {
    /// Instructions in the region.
    pub instructions: usize,
    /// The edge limit.
    pub max_edges: usize,
}
