//! Row 9: the loop-carried dependency chain, as the maximum cycle ratio
//! `Σ latency / Σ iteration distance` of the dependency graph.
//!
//! Edge latencies are [`edge_offset`], the simulator's. Distances are 0 or 1, and distance-0
//! edges go forward in line order, so every cycle has at least one loop-carried edge. The
//! graph is reduced to the heads of the loop-carried edges: an edge `b → b'` of weight
//! `longest distance-0 path b ⇝ a + w(a → b')` for every carried edge `a → b'`. Every reduced
//! edge has distance 1, so the ratio is the maximum cycle mean of the reduced graph, found
//! exactly with Karp's algorithm on integer weights, per strongly connected component. A critical cycle is then read off the
//! tight edges of the potentials under weights `w·q − p` (λ = p/q), and expanded back to
//! lines and locations.

use std::collections::BTreeMap;

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};

use super::facts::{BoundFacts, ChainFacts, ChainStep};
use super::BoundOptions;
use super::{BoundKind, BoundRow, Chain, MemoryEdge, RowState};
use crate::db::InstrDesc;
use crate::deps::DepGraph;
use crate::ir::{Instr, Loc};
use crate::pipeline::bypass::{self, Bypass};
use crate::pipeline::latency::{edge_offset, plain_edge_offset};
use crate::pipeline::memory::dependencies::forwarded_load_saving;
use crate::pipeline::renamer::elimination::eliminated;
use crate::pipeline::renamer::is_stack_op;
use crate::pipeline::renamer::{high8_merge, pointer_chase, renamer_drops, stack_sync};
use crate::uarch::MicroArch;

/// One merged edge: the heaviest of the parallel dependencies between two lines.
#[derive(Copy, Clone, Debug)]
struct Edge {
    from: usize,
    to: usize,
    weight: i64,
    /// `None` in graphs given without locations ([`max_cycle_ratio`]).
    loc: Option<Loc>,
}

/// An edge of the reduced graph over carried-edge heads.
#[derive(Copy, Clone, Debug)]
struct Reduced {
    from: usize,
    to: usize,
    weight: i64,
    /// The carried edge (index into the carried list) closing this reduced edge.
    carried: usize,
}

/// A maximum cycle ratio and a cycle reaching it, on a graph given as
/// `(from, to, weight, distance)` edges with distances 0 or 1 and every distance-0 edge going
/// from a lower to a higher node. Returns `(latency, distance, nodes of the cycle)`; `None`
/// without a cycle.
pub fn max_cycle_ratio(
    nodes: usize,
    edges: &[(usize, usize, u32, u32)],
) -> Option<(u64, u64, Vec<usize>)> {
    let list: Vec<(Edge, u32)> = edges
        .iter()
        .filter(|e| e.0 < nodes && e.1 < nodes)
        .map(|&(from, to, w, d)| {
            (
                Edge {
                    from,
                    to,
                    weight: i64::from(w),
                    loc: None,
                },
                d,
            )
        })
        .collect();
    let (cycle, _) = solve(nodes, &list)?;
    let latency: i64 = cycle.iter().map(|e| e.0.weight).sum();
    let distance = cycle.iter().filter(|e| e.1).count() as u64;
    let lines = cycle.iter().map(|e| e.0.from).collect();
    Some((latency.max(0) as u64, distance, lines))
}

/// The critical cycle as `(edge, carried)` in order, and the number of reduced nodes.
fn solve(nodes: usize, edges: &[(Edge, u32)]) -> Option<(Vec<(Edge, bool)>, usize)> {
    let mut fwd: Vec<Vec<Edge>> = vec![Vec::new(); nodes];
    let mut carried: Vec<Edge> = Vec::new();
    for &(e, d) in edges {
        if e.from >= nodes || e.to >= nodes {
            continue;
        }
        match d {
            0 if e.from < e.to => fwd[e.from].push(e),
            1 => carried.push(e),
            // Distances other than 0/1 and backward distance-0 edges do not occur.
            _ => {}
        }
    }
    if carried.is_empty() {
        return None;
    }
    let mut heads: Vec<usize> = carried.iter().map(|e| e.to).collect();
    heads.sort_unstable();
    heads.dedup();
    let index: BTreeMap<usize, usize> = heads.iter().enumerate().map(|(i, &h)| (h, i)).collect();
    let mut reduced: Vec<Reduced> = Vec::new();
    for (hi, &h) in heads.iter().enumerate() {
        let (dist, _) = longest_from(h, nodes, &fwd);
        let mut best: BTreeMap<usize, Reduced> = BTreeMap::new();
        for (ci, c) in carried.iter().enumerate() {
            let Some(base) = dist[c.from] else { continue };
            let to = index[&c.to];
            let r = Reduced {
                from: hi,
                to,
                weight: base + c.weight,
                carried: ci,
            };
            match best.get(&to) {
                Some(b) if b.weight >= r.weight => {}
                _ => {
                    best.insert(to, r);
                }
            }
        }
        reduced.extend(best.into_values());
    }
    let cycle = best_cycle(heads.len(), &reduced)?;
    // Expand: each reduced edge is the distance-0 path head ⇝ carried.from, then the carried
    // edge.
    let mut out = Vec::new();
    for r in cycle {
        let c = carried[r.carried];
        let (_, pred) = longest_from(heads[r.from], nodes, &fwd);
        let mut path = Vec::new();
        let mut v = c.from;
        while let Some(e) = pred[v] {
            path.push(e);
            v = e.from;
        }
        path.reverse();
        out.extend(path.into_iter().map(|e| (e, false)));
        out.push((c, true));
    }
    // Start at the smallest line for a stable presentation.
    if let Some(start) = (0..out.len()).min_by_key(|&i| out[i].0.from) {
        out.rotate_left(start);
    }
    Some((out, heads.len()))
}

/// The critical cycle of the reduced graph: Karp's algorithm per strongly connected
/// component (keeps the work proportional to the components that can hold cycles; a load
/// that reads a carried pointer is a head without a way back).
fn best_cycle(n: usize, reduced: &[Reduced]) -> Option<Vec<Reduced>> {
    let mut g: DiGraph<(), ()> = DiGraph::with_capacity(n, reduced.len());
    for _ in 0..n {
        g.add_node(());
    }
    for r in reduced {
        g.add_edge(NodeIndex::new(r.from), NodeIndex::new(r.to), ());
    }
    let mut comps: Vec<Vec<usize>> = tarjan_scc(&g)
        .into_iter()
        .map(|c| {
            let mut v: Vec<usize> = c.into_iter().map(NodeIndex::index).collect();
            v.sort_unstable();
            v
        })
        .collect();
    comps.sort();
    let mut best: Option<((i64, i64), Vec<Reduced>)> = None;
    let mut local = vec![usize::MAX; n];
    for comp in comps {
        for (i, &v) in comp.iter().enumerate() {
            local[v] = i;
        }
        let inside = |v: usize| local[v] != usize::MAX;
        let edges: Vec<Reduced> = reduced
            .iter()
            .filter(|r| inside(r.from) && inside(r.to))
            .map(|r| Reduced {
                from: local[r.from],
                to: local[r.to],
                ..*r
            })
            .collect();
        if !edges.is_empty() {
            if let Some(ratio) = karp(comp.len(), &edges) {
                if best.as_ref().is_none_or(|(b, _)| less(*b, ratio)) {
                    if let Some(c) = critical_cycle(comp.len(), &edges, ratio.0, ratio.1) {
                        let global = c
                            .into_iter()
                            .map(|r| Reduced {
                                from: comp[r.from],
                                to: comp[r.to],
                                ..r
                            })
                            .collect();
                        best = Some((ratio, global));
                    }
                }
            }
        }
        for &v in &comp {
            local[v] = usize::MAX;
        }
    }
    best.map(|b| b.1)
}

/// Longest distance-0 paths from `src` (nodes in line order form a DAG), with the edge into
/// each node on one longest path.
#[allow(clippy::type_complexity)]
fn longest_from(
    src: usize,
    nodes: usize,
    fwd: &[Vec<Edge>],
) -> (Vec<Option<i64>>, Vec<Option<Edge>>) {
    let mut dist: Vec<Option<i64>> = vec![None; nodes];
    let mut pred: Vec<Option<Edge>> = vec![None; nodes];
    dist[src] = Some(0);
    for v in src..nodes {
        let Some(d) = dist[v] else { continue };
        for e in &fwd[v] {
            let nd = d + e.weight;
            if dist[e.to].is_none_or(|old| nd > old) {
                dist[e.to] = Some(nd);
                pred[e.to] = Some(*e);
            }
        }
    }
    (dist, pred)
}

/// Karp's maximum cycle mean as an exact fraction `p / q` (q > 0).
fn karp(n: usize, edges: &[Reduced]) -> Option<(i64, i64)> {
    // d[k][v]: heaviest walk of exactly k edges ending at v (from any start).
    let mut d: Vec<Vec<Option<i64>>> = vec![vec![Some(0); n]];
    for k in 1..=n {
        let mut row = vec![None; n];
        for e in edges {
            if let Some(w) = d[k - 1][e.from] {
                let nw = w + e.weight;
                if row[e.to].is_none_or(|old| nw > old) {
                    row[e.to] = Some(nw);
                }
            }
        }
        d.push(row);
    }
    let mut best: Option<(i64, i64)> = None;
    for v in 0..n {
        let Some(dn) = d[n][v] else { continue };
        // min over k of (d[n][v] - d[k][v]) / (n - k)
        let mut worst: Option<(i64, i64)> = None;
        for (k, row) in d.iter().enumerate().take(n) {
            let Some(dk) = row[v] else { continue };
            let cand = (dn - dk, (n - k) as i64);
            if worst.is_none_or(|w| less(cand, w)) {
                worst = Some(cand);
            }
        }
        if let Some(w) = worst {
            if best.is_none_or(|b| less(b, w)) {
                best = Some(w);
            }
        }
    }
    best
}

/// `a < b` for fractions with positive denominators.
fn less(a: (i64, i64), b: (i64, i64)) -> bool {
    i128::from(a.0) * i128::from(b.1) < i128::from(b.0) * i128::from(a.1)
}

/// A cycle of mean `p / q`: under weights `w·q − p` no cycle is positive; the tight edges of
/// the longest-path potentials contain every critical cycle, and every cycle made of them is
/// critical.
fn critical_cycle(n: usize, edges: &[Reduced], p: i64, q: i64) -> Option<Vec<Reduced>> {
    let w = |e: &Reduced| e.weight * q - p;
    let mut pi = vec![0i64; n];
    for _ in 0..=n {
        let mut changed = false;
        for e in edges {
            let nv = pi[e.from] + w(e);
            if nv > pi[e.to] {
                pi[e.to] = nv;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut tight: Vec<Vec<&Reduced>> = vec![Vec::new(); n];
    for e in edges {
        if pi[e.from] + w(e) == pi[e.to] {
            tight[e.from].push(e);
        }
    }
    // Walk tight edges from each node until a node repeats; tight edges out of nodes on a
    // critical cycle exist, but a walk may also dead-end, hence the per-start search.
    for start in 0..n {
        if let Some(c) = find_cycle(start, &tight) {
            return Some(c);
        }
    }
    None
}

/// Depth-first search for a cycle in the tight subgraph reachable from `start`.
fn find_cycle(start: usize, tight: &[Vec<&Reduced>]) -> Option<Vec<Reduced>> {
    let n = tight.len();
    // 0 = unseen, 1 = on the stack, 2 = done.
    let mut state = vec![0u8; n];
    let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
    let mut path: Vec<Reduced> = Vec::new();
    state[start] = 1;
    while let Some(&mut (v, ref mut next)) = stack.last_mut() {
        if let Some(e) = tight[v].get(*next) {
            *next += 1;
            match state[e.to] {
                0 => {
                    state[e.to] = 1;
                    path.push(**e);
                    stack.push((e.to, 0));
                }
                1 => {
                    path.push(**e);
                    let from = path.iter().position(|r| r.from == e.to)?;
                    return Some(path[from..].to_vec());
                }
                _ => {}
            }
        } else {
            state[v] = 2;
            stack.pop();
            path.pop();
        }
    }
    None
}

/// The row and the chain.
/// Adds `cand` (at iteration distance `distance`) unless a heavier or equal edge between the
/// same lines and distance is there already (the first in the graph's order on ties).
fn keep_heaviest(merged: &mut BTreeMap<(usize, usize, u32), Edge>, cand: Edge, distance: u32) {
    let key = (cand.from, cand.to, distance);
    if merged.get(&key).is_none_or(|old| old.weight < cand.weight) {
        merged.insert(key, cand);
    }
}

pub(super) fn row(
    instrs: &[Instr],
    descs: &[Option<InstrDesc>],
    deps: &DepGraph,
    memory: &[MemoryEdge],
    arch: &MicroArch,
    opts: &BoundOptions,
) -> (BoundRow, Option<Chain>) {
    let n = instrs.len().min(deps.len());
    let left_out: Vec<usize> = (0..instrs.len())
        .filter(|&i| descs.get(i).is_none_or(Option::is_none))
        .collect();
    let desc = |i: usize| descs.get(i).and_then(Option::as_ref);
    let row = |state, cycles, facts| {
        BoundRow::new(
            BoundKind::DepChain,
            state,
            cycles,
            BoundFacts::DepChain(facts),
        )
        .left_out(left_out.clone())
    };
    if !deps.has_loop_deps() {
        return (row(RowState::Unknown, None, ChainFacts::NotComputed), None);
    }
    if n > 0 && left_out.len() == instrs.len() {
        return (row(RowState::Unknown, None, ChainFacts::NoData), None);
    }
    // Loads whose value plain store forwarding brings.
    let mut forwarded = vec![false; instrs.len()];
    for m in memory
        .iter()
        .filter(|m| m.forwarded && m.load < instrs.len())
    {
        forwarded[m.load] = true;
    }
    // Merge parallel edges (same lines and distance): the heaviest wins, the first loc in
    // the graph's order on ties.
    let mut merged: BTreeMap<(usize, usize, u32), Edge> = BTreeMap::new();
    // High-8 merge µops per line (the loop repeats), as the simulation.
    let high8_merges = match opts.high8_merge {
        true => {
            let refs: Vec<&Instr> = instrs[..n].iter().collect();
            high8_merge::merges(arch, &refs, true)
        }
        false => Vec::new(),
    };
    // Lines whose results the vector bypass makes late whatever port they take.
    let late = match Bypass::of(arch).filter(|_| opts.vector_bypass) {
        Some(b) => bypass::late_lines(&b, &instrs[..n], descs, deps, |l| {
            opts.move_elim && instrs.get(l).is_some_and(|i| eliminated(i, arch))
        }),
        None => Vec::new(),
    };
    for (from, to, e) in deps.edges() {
        let (Some(pd), Some(cd)) = (desc(from), desc(to)) else {
            continue;
        };
        let stack = opts.stack_engine
            && e.loc == Loc::Reg(iced_x86::Register::RSP)
            && instrs.get(from).is_some_and(is_stack_op);
        if stack {
            continue; // the stack engine resolves rsp in the front end
        }
        if instrs
            .get(to)
            .is_some_and(|c| renamer_drops(arch, c, e.loc, opts.high8_merge))
        {
            continue; // AMD: sbb r, r depends on CF alone; Zen 4's CL shifts not on the flags
        }
        let eliminated = opts.move_elim && instrs.get(from).is_some_and(|i| eliminated(i, arch));
        let weight = if eliminated {
            i64::from(plain_edge_offset(0, cd, e.loc))
        } else {
            let chase = match (opts.pointer_chasing, instrs.get(from), instrs.get(to)) {
                (true, Some(p), Some(c)) => pointer_chase::saving(arch, p, c, e.loc),
                _ => 0,
            };
            // As the simulation: a load store forwarding serves may give its value sooner.
            let forward = match instrs.get(from) {
                Some(l)
                    if opts.fast_forwarding && forwarded.get(from).copied().unwrap_or(false) =>
                {
                    forwarded_load_saving(arch, l, pd, e.loc)
                }
                _ => 0,
            };
            i64::from(edge_offset(pd, cd, e.loc).saturating_sub(chase.max(forward)))
        };
        // As the simulation: a high-8 merge µop before the reader, a cycle on its edges.
        let merge = high8_merges
            .get(to)
            .is_some_and(|&m| high8_merge::is_merged(e.loc, m));
        let surely_late = late.get(from).is_some_and(bypass::Late::surely);
        let weight = weight + i64::from(merge) + i64::from(surely_late);
        let cand = Edge {
            from,
            to,
            weight,
            loc: Some(e.loc),
        };
        keep_heaviest(&mut merged, cand, e.distance);
    }
    if opts.stack_engine {
        // rsp from the last explicit write: a stack operation's address, a stack-sync µop's
        // rebuild a cycle later (as the simulation, `program::build`).
        let refs: Vec<&Instr> = instrs[..n].iter().collect();
        let rsp = Loc::Reg(iced_x86::Register::RSP);
        let reads = stack_sync::reads(&refs, true, opts.stack_sync);
        for s in stack_sync::rsp_sources(&refs, &reads, true) {
            let (Some(pd), Some(cd)) = (desc(s.writer), desc(s.reader)) else {
                continue;
            };
            let cand = Edge {
                from: s.writer,
                to: s.reader,
                weight: i64::from(edge_offset(pd, cd, rsp) + s.extra),
                loc: Some(rsp),
            };
            keep_heaviest(&mut merged, cand, s.distance);
        }
    }
    // Through memory, as the simulation: the store's start to the load's (no location).
    // Edges spanning more iterations are left out: a chain spread that thin does not bind.
    for m in memory.iter().filter(|m| m.store < n && m.load < n) {
        let fits = m.distance == 1 || (m.distance == 0 && m.store < m.load);
        if !fits {
            continue;
        }
        let cand = Edge {
            from: m.store,
            to: m.load,
            weight: i64::from(m.latency),
            loc: None,
        };
        keep_heaviest(&mut merged, cand, m.distance);
    }
    let edges: Vec<(Edge, u32)> = merged.into_iter().map(|((_, _, d), e)| (e, d)).collect();
    let carried = edges.iter().filter(|e| e.1 == 1).count();
    let Some((cycle, heads)) = solve(n, &edges) else {
        let facts = ChainFacts::NoCycle {
            carried_edges: carried,
        };
        return (row(RowState::Bound, Some(0.0), facts), None);
    };
    let latency: i64 = cycle.iter().map(|e| e.0.weight).sum();
    let distance = cycle.iter().filter(|e| e.1).count() as u64;
    let latency = latency.max(0) as u64;
    let cycles = latency as f64 / distance.max(1) as f64;
    // A register as the consumer names it (`xmm1`, not the tracked `zmm1`).
    let label = |e: &Edge| match (e.loc, instrs.get(e.to)) {
        (Some(loc), Some(consumer)) => consumer.read_label(loc),
        (Some(loc), None) => loc.label(),
        (None, _) => "memory".to_string(),
    };
    let steps: Vec<ChainStep> = cycle
        .iter()
        .map(|(e, carried)| ChainStep {
            line: e.from,
            text: instrs
                .get(e.from)
                .map(|i| i.text.clone())
                .unwrap_or_default(),
            loc: label(e),
            carried: *carried,
        })
        .collect();
    let chain = Chain {
        lines: steps.iter().map(|s| s.line).collect(),
        locs: steps.iter().map(|s| s.loc.clone()).collect(),
        latency,
        distance,
    };
    let facts = ChainFacts::Cycle {
        steps,
        latency,
        distance,
        carried_edges: carried,
        heads,
    };
    (row(RowState::Bound, Some(cycles), facts), Some(chain))
}
