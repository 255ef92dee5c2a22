//! The one place that assembles a region's pipeline (issue #15 item 3): from the decoded
//! instructions, their data, the arch and the model's switches come the control-flow graph,
//! the dependency graph, the speed limits and the engine's program with its front-end
//! delivery. The analyzer's main path, its branch sides and `suaca batch` all call
//! [`assemble`], so a block gets the same model whichever command asks.

use crate::bounds::{self, BoundOptions, Bounds, MemoryEdge};
use crate::cfg::Cfg;
use crate::db::InstrDesc;
use crate::deps::{DepGraph, DepLimits, TooComplex};
use crate::ir::Instr;
use crate::pipeline::frontend::{Layout, Source};
use crate::sim::SimProgram;
use crate::uarch::MicroArch;

use super::program;
use crate::pipeline::counts::Counts;
use crate::pipeline::frontend::delivery as frontend;
use crate::pipeline::frontend::rates::FrontEndRates;
use crate::pipeline::memory::dependencies::GraphEdge;
use crate::pipeline::memory::{address, dependencies, harness};
use crate::pipeline::renamer::false_deps;
use crate::pipeline::{Context, ModelOptions};

/// What a region's model is built from.
#[derive(Clone, Copy, Debug)]
pub struct Assembly<'a> {
    /// The instructions, `instrs[line]`, with their addresses.
    pub instrs: &'a [Instr],
    /// Their data (`None`: no data, left out of the program).
    pub descs: &'a [Option<InstrDesc>],
    /// The arch.
    pub arch: &'a MicroArch,
    /// The model's switches.
    pub model: ModelOptions,
    /// The region's first and end address (a loop's back branch targets `start`).
    pub start: u64,
    /// See `start`.
    pub end: u64,
    /// Iterations the control-flow graph unrolls; with 2 or more, dependencies cross
    /// iterations.
    pub iterations: u32,
    /// Copies of the region the simulation runs in unrolled mode: whether they fit the AMD
    /// op cache ([`frontend::unrolled_delivery`]).
    pub copies: u32,
    /// The region's mode when its instructions do not show it (a branch side's path has no
    /// branch left); `None`: a loop when the region ends in its own back branch.
    pub loop_mode: Option<bool>,
}

/// A region's model: the graphs, the speed limits and the program the engine runs.
#[derive(Debug)]
pub struct RegionModel {
    /// The control-flow graph over `iterations` copies.
    pub cfg: Cfg,
    /// The dependency graph the program follows.
    pub deps: DepGraph,
    /// The speed limits, always with loop-carried dependencies.
    pub bounds: Bounds,
    /// The engine's program, front-end delivery included.
    pub program: SimProgram,
    /// Loop mode: the back branch runs every iteration, taken.
    pub loop_mode: bool,
    /// The part of the front end that streams a loop, where the front-end unit modelled it.
    pub front_end_source: Option<Source>,
    /// The memory dependencies the dependency-graph dump shows (with `iterations` ≥ 2, across
    /// iterations too); empty with `--no-mem-deps`.
    pub memory: Vec<GraphEdge>,
    /// What the measuring harness adds to each copy of unrolled code beyond the pipeline:
    /// the pages its timed run newly enters (`harness_pages`); `None` without such a cost.
    pub harness_pages: Option<HarnessPages>,
}

/// Pages a harness's timed run newly enters, and what they cost it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HarnessPages {
    /// 4 KiB pages newly entered per copy.
    pub per_copy: f64,
    /// Cycles each costs when its walk is alone.
    pub cycles_per_page: f64,
    /// Walks that may overlap (the arch's `memory.page_walks_in_flight`; 1 with
    /// `--serial-page-walks`).
    pub walks_in_flight: u32,
}

impl HarnessPages {
    /// How many walks overlap on average when the pipeline alone takes `pipeline` cycles a
    /// copy: none while the copies enter pages at most once a walk's length; where they
    /// enter them faster, the next walk starts while one is in flight, up to the arch's
    /// walks in flight. Skylake's `add rsp, 0x818; pop ×4` enters 0.52 pages a copy at 2.00
    /// cycles: 2 walks, 2.00 + 0.52 × 8 / 2 = 4.08 (BHive: 4.00).
    pub fn overlap(&self, pipeline: f64) -> f64 {
        let serial = self.per_copy * self.cycles_per_page;
        if pipeline <= 0.0 {
            return f64::from(self.walks_in_flight.max(1));
        }
        (serial / pipeline).clamp(1.0, f64::from(self.walks_in_flight.max(1)))
    }

    /// Cycles added to each copy whose pipeline takes `pipeline` cycles.
    pub fn cycles(&self, pipeline: f64) -> f64 {
        self.per_copy * self.cycles_per_page / self.overlap(pipeline)
    }
}

/// The page cost of unrolled code under a harness that shows one (`--harness bhive`).
fn harness_pages(a: &Assembly, loop_mode: bool) -> Option<HarnessPages> {
    let harness = a.model.harness?;
    let cycles_per_page = harness.page_entry_cycles()?;
    if loop_mode || !a.model.harness_pages {
        return None;
    }
    let path: Vec<&Instr> = a.instrs.iter().collect();
    let map = address::AddressMap::build_in(&path, Some(harness));
    let per_copy = harness::pages_entered_per_copy(&map, &path, harness::BHIVE_COPIES);
    let walks_in_flight = match a.model.page_walk_overlap {
        true => a.arch.memory.page_walks_in_flight.unwrap_or(1),
        false => 1,
    };
    (per_copy > 0.0).then_some(HarnessPages {
        per_copy,
        cycles_per_page,
        walks_in_flight,
    })
}

/// Builds the model of the region `a` describes.
pub fn assemble(a: &Assembly) -> Result<RegionModel, TooComplex> {
    let looped = a.iterations >= 2;
    let cfg = Cfg::build(a.instrs, a.start, a.end, a.iterations);
    let limits = DepLimits::for_len(a.instrs.len());
    // The register dependencies the renamer sees: the decoder's, with the data's false
    // inputs (`popcnt`'s destination on the cores with the erratum).
    let dep_instrs = match a.model.false_deps {
        true => false_deps::with_false_inputs(a.instrs, a.descs),
        false => std::borrow::Cow::Borrowed(a.instrs),
    };
    let deps = DepGraph::try_build(&dep_instrs, &cfg, looped, &limits)?;
    let loop_mode = a.loop_mode.unwrap_or(cfg.loop_branch().is_some());
    let memory = memory_edges(a, looped, loop_mode);
    // The front end's per-line counts and rates, once: the delivery reads them, the speed
    // limits show them.
    // Redwood Cove's split groups are a loop's (in loop mode), and `--no-lsd` turns them off
    // with the loop buffer's other rules.
    let opts = BoundOptions {
        loop_issue: loop_mode && a.model.lsd,
        ..BoundOptions::of(&a.model)
    };
    let counts = Counts::new(a.instrs, a.descs, a.arch, opts.counting());
    let rates = FrontEndRates::of(a.instrs, &counts, a.arch, opts.loop_issue);
    let observe = |deps: &DepGraph, memory: &[GraphEdge]| {
        let memory = bounds_memory(memory);
        let code = bounds::Code {
            instrs: a.instrs,
            descs: a.descs,
            deps,
            memory: &memory,
        };
        bounds::observe(&code, a.arch, &opts, &counts, &rates)
    };
    // Speed limits are per iteration of the loop: always with loop-carried dependencies.
    let bounds = if looped {
        observe(&deps, &memory)
    } else {
        let cfg2 = Cfg::build(a.instrs, a.start, a.end, 2);
        let looped_deps = DepGraph::try_build(&dep_instrs, &cfg2, true, &limits)?;
        observe(&looped_deps, &memory_edges(a, true, loop_mode))
    };
    let all: Vec<usize> = (0..a.instrs.len()).collect();
    let mut program = program::build(&all, a.descs, &deps, &context(a, looped, loop_mode));
    let mut front_end_source = None;
    if a.model.frontend {
        let layout = if loop_mode {
            Layout::Loop
        } else {
            Layout::Unrolled
        };
        let unit = frontend::unit_cycles(a.instrs, a.descs, a.arch, a.model, layout);
        program.frontend = if loop_mode {
            if let Some(frontend::UnitCycles::Loop(l)) = unit {
                front_end_source = Some(l.source);
            }
            frontend::delivery(&rates, a.arch, unit)
        } else {
            let fused = program
                .instrs
                .iter()
                .map(|i| u64::from(i.slots.unwrap_or(i.uops.len() as u32)))
                .sum();
            let legacy = unit.and_then(frontend::UnitCycles::legacy);
            frontend::unrolled_delivery(&rates, a.arch, fused, a.copies, legacy)
        };
    }
    Ok(RegionModel {
        harness_pages: harness_pages(a, loop_mode),
        cfg,
        deps,
        bounds,
        program,
        loop_mode,
        front_end_source,
        memory,
    })
}

/// The simulation's memory dependencies with a latency, for the speed limits' chain row.
fn bounds_memory(memory: &[GraphEdge]) -> Vec<MemoryEdge> {
    memory
        .iter()
        .filter_map(|e| {
            Some(MemoryEdge {
                store: e.store,
                load: e.load,
                distance: e.distance,
                latency: e.latency?,
                forwarded: e.forwarded,
            })
        })
        .collect()
}

/// The address analysis' store→load edges with the simulation's latencies (`looped`: across
/// iterations too); none with `--no-mem-deps`.
fn memory_edges(a: &Assembly, looped: bool, loop_mode: bool) -> Vec<GraphEdge> {
    if !a.model.mem_deps {
        return Vec::new();
    }
    let all: Vec<usize> = (0..a.instrs.len()).collect();
    dependencies::graph_edges(&context(a, looped, loop_mode), &all, a.descs)
}

/// The program builder's view of `a`.
fn context<'a>(a: &Assembly<'a>, looped: bool, loop_mode: bool) -> Context<'a> {
    Context {
        instrs: a.instrs,
        arch: a.arch,
        model: a.model,
        looped,
        loop_mode,
    }
}

#[cfg(test)]
mod tests {
    use super::HarnessPages;

    fn pages(per_copy: f64, walks_in_flight: u32) -> HarnessPages {
        HarnessPages {
            per_copy,
            cycles_per_page: 8.0,
            walks_in_flight,
        }
    }

    /// By hand, 8 cycles a walk: 0.52 pages a copy at 2.00 cycles means a walk every 3.85
    /// cycles, shorter than one walk, so both of Skylake's walkers work: 0.52 × 8 / 2 = 2.08.
    /// 0.14 pages at 3.00 cycles is a walk every 21 cycles: alone, 1.12. 0.5 pages at 3.00 is
    /// a walk every 6 cycles, 4/3 walks in flight: 3.00 (the pipeline's own time, where the
    /// two ends meet). One walker never overlaps.
    #[test]
    fn walks_overlap_only_when_pages_come_faster_than_a_walk() {
        let skl = pages(0.52, 2);
        assert!((skl.overlap(2.0) - 2.0).abs() < 1e-9);
        assert!((skl.cycles(2.0) - 2.08).abs() < 1e-9);
        assert!((pages(0.14, 2).cycles(3.0) - 1.12).abs() < 1e-9);
        let between = pages(0.5, 2);
        assert!((between.overlap(3.0) - 4.0 / 3.0).abs() < 1e-9);
        assert!((between.cycles(3.0) - 3.0).abs() < 1e-9);
        assert!((pages(0.52, 1).cycles(2.0) - 4.16).abs() < 1e-9);
    }
}
