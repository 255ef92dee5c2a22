//! The dependency graph: read-after-write edges between instruction lines, per [`Loc`].
//!
//! Owns: [`DepGraph`] (built once per region by [`DepGraph::build`]), [`DepEdge`].
//! Must not touch: latencies (the db/simulator attach them per edge), ports, files
//! (`report::dot` draws the graph).
//! Facts: SUACA thesis §2.4 (RAW only; address registers are reads; flags per bit; no memory
//! or stack dependencies), §3.1.1 (Algorithm 2: control-flow sensitive, backward branches
//! ignored), §3.1.2 (loop dependencies from the program concatenated with itself), §4.3
//! (Figure 4.1: the `adc` chain with a self loop on every instruction).
//!
//! # Semantics
//!
//! - Locations are what the decoder put in [`Instr::accesses`](crate::ir::Instr): full
//!   registers, high-8 registers, single flags. Per instruction all reads come before all
//!   writes, so `add rbx, rbx` reads the previous `rbx`.
//! - A write replaces the possible last writers of its loc; a conditional write
//!   ([`AccessKind::CondWrite`](crate::ir::AccessKind)) adds itself to them, so a later reader
//!   depends on the conditional writer and on the writers before it.
//! - Paths follow [`Cfg::successors`]: a path that leaves the region ends there; backward
//!   branches are ignored.
//! - With loop dependencies, the region is analysed twice back to back (the end of the first
//!   copy continues at the start of the second, as if the program were concatenated with
//!   itself). An edge from the first copy into the second becomes a loop-carried edge
//!   (`distance = 1`) between the original lines; edges inside the second copy repeat those of
//!   the first and are dropped. A path that leaves the region does not reach the copy, and a
//!   branch target outside the region never lands in the copy.
//! - One edge per (producer, consumer, loc, distance): the same pair may be linked by several
//!   locs (the `adc` chain: `cf` next to a register), and by the same loc at distance 0 and 1
//!   when one path writes it inside the iteration and another does not.

mod build;
#[cfg(test)]
mod paths;
#[cfg(test)]
mod tests;

use petgraph::graph::{DiGraph, NodeIndex};

use crate::cfg::Cfg;
use crate::ir::{Instr, Loc};

pub use build::{DepLimits, TooComplex};

/// A read-after-write dependency on one location.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DepEdge {
    /// The location written by the producer and read by the consumer.
    pub loc: Loc,
    /// The consumer reads the value of the producer's previous iteration.
    pub loop_carried: bool,
    /// Iteration distance: 0 within an iteration, 1 for loop-carried edges.
    pub distance: u32,
}

/// One dependency: producer line, consumer line, edge data.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct Dep {
    from: usize,
    to: usize,
    edge: DepEdge,
}

impl Dep {
    /// Sort key: producer, consumer, in-iteration before loop-carried, loc.
    fn key(&self) -> (usize, usize, u32, Loc) {
        (self.from, self.to, self.edge.distance, self.edge.loc)
    }
}

/// Read-after-write dependencies between the lines of a region.
#[derive(Clone, Debug)]
pub struct DepGraph {
    len: usize,
    /// Sorted by [`Dep::key`].
    deps: Vec<Dep>,
    /// Indices into `deps` per consumer line, sorted by (loc, distance, producer).
    by_consumer: Vec<Vec<usize>>,
    /// Indices into `deps` per producer line, in `deps` order.
    by_producer: Vec<Vec<usize>>,
    graph: DiGraph<usize, DepEdge>,
    loop_deps: bool,
}

impl DepGraph {
    /// Builds the dependency graph of `instrs` along `cfg` (built from the same instructions).
    /// `with_loop_deps` adds the loop-carried edges (thesis: at least 2 iterations).
    ///
    /// # Panics
    ///
    /// If `cfg` was built for a different number of instructions.
    pub fn build(instrs: &[Instr], cfg: &Cfg, with_loop_deps: bool) -> DepGraph {
        match DepGraph::try_build(instrs, cfg, with_loop_deps, &DepLimits::NONE) {
            Ok(g) => g,
            // Unreachable without limits; an empty graph rather than a panic.
            Err(_) => DepGraph::from_deps(instrs.len(), Vec::new(), with_loop_deps),
        }
    }

    /// [`DepGraph::build`] within `limits` (see [`DepLimits::for_len`]); every analysis of
    /// user input uses this.
    ///
    /// # Panics
    ///
    /// If `cfg` was built for a different number of instructions.
    pub fn try_build(
        instrs: &[Instr],
        cfg: &Cfg,
        with_loop_deps: bool,
        limits: &DepLimits,
    ) -> Result<DepGraph, TooComplex> {
        assert_eq!(
            instrs.len(),
            cfg.len(),
            "the CFG belongs to other instructions"
        );
        let n = instrs.len();
        let copies = if with_loop_deps { 2 } else { 1 };
        let mut deps: Vec<Dep> = build::raw_edges_limited(instrs, cfg, copies, limits)?
            .into_iter()
            .filter_map(|(w, r, loc)| {
                let (from, to) = (w % n, r % n);
                let edge = match (w / n, r / n) {
                    (0, 0) => DepEdge {
                        loc,
                        loop_carried: false,
                        distance: 0,
                    },
                    (0, 1) => DepEdge {
                        loc,
                        loop_carried: true,
                        distance: 1,
                    },
                    // Inside the copy: a repetition of the first copy's edges.
                    _ => return None,
                };
                Some(Dep { from, to, edge })
            })
            .collect();
        deps.sort_by_key(Dep::key);
        deps.dedup();
        Ok(DepGraph::from_deps(n, deps, with_loop_deps))
    }

    fn from_deps(len: usize, deps: Vec<Dep>, loop_deps: bool) -> DepGraph {
        let mut by_consumer = vec![Vec::new(); len];
        let mut by_producer = vec![Vec::new(); len];
        let mut graph = DiGraph::with_capacity(len, deps.len());
        for line in 0..len {
            graph.add_node(line);
        }
        for (i, d) in deps.iter().enumerate() {
            by_consumer[d.to].push(i);
            by_producer[d.from].push(i);
            graph.add_edge(NodeIndex::new(d.from), NodeIndex::new(d.to), d.edge);
        }
        for v in &mut by_consumer {
            v.sort_by_key(|&i| (deps[i].edge.loc, deps[i].edge.distance, deps[i].from));
        }
        DepGraph {
            len,
            deps,
            by_consumer,
            by_producer,
            graph,
            loop_deps,
        }
    }

    /// Number of instruction nodes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the region has no instructions.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether loop-carried edges were computed.
    pub fn has_loop_deps(&self) -> bool {
        self.loop_deps
    }

    /// All edges as (producer, consumer, edge), sorted by producer, consumer, distance, loc.
    pub fn edges(&self) -> impl Iterator<Item = (usize, usize, &DepEdge)> + '_ {
        self.deps.iter().map(|d| (d.from, d.to, &d.edge))
    }

    /// Number of edges.
    pub fn edge_count(&self) -> usize {
        self.deps.len()
    }

    /// The producers `line` depends on, as (producer, edge), sorted by loc, distance,
    /// producer.
    pub fn producers_of(&self, line: usize) -> impl Iterator<Item = (usize, &DepEdge)> + '_ {
        self.by_consumer[line].iter().map(|&i| {
            let d = &self.deps[i];
            (d.from, &d.edge)
        })
    }

    /// The consumers that depend on `line`, as (consumer, edge), sorted by consumer, distance,
    /// loc.
    pub fn consumers_of(&self, line: usize) -> impl Iterator<Item = (usize, &DepEdge)> + '_ {
        self.by_producer[line].iter().map(|&i| {
            let d = &self.deps[i];
            (d.to, &d.edge)
        })
    }

    /// The possible producers of the value `line` reads from `loc`, as (producer line,
    /// distance): the simulator waits for the producer's instance `distance` iterations back.
    pub fn producers_for(&self, line: usize, loc: Loc) -> impl Iterator<Item = (usize, u32)> + '_ {
        self.producers_of(line)
            .filter(move |(_, e)| e.loc == loc)
            .map(|(p, e)| (p, e.distance))
    }

    /// The graph for petgraph algorithms: node `i` (weight `i`) is line `i`; parallel edges for
    /// different locs.
    pub fn graph(&self) -> &DiGraph<usize, DepEdge> {
        &self.graph
    }
}
