//! One region's analysis: graphs, simulation runs (plain and what-if), and the report data.
//!
//! Owns: the choice of runs (thesis §2.1: the plain run and the what-if variants, `-p` for no
//! extra runs), the main path and the branch paths (§2.7), the detail view (§2.6).
//! Must not touch: decoding, file formats, printing.

pub mod assembly;
pub mod budget;
mod flow;
pub(crate) mod graphs;
mod paths;
pub mod program;
mod warning;

pub use warning::Warning;

use thiserror::Error;

use crate::db::InstrDesc;
use crate::deps::{DepGraph, TooComplex};
use crate::ir::{BranchKind, Instr, Region};
use crate::pipeline::ModelOptions;
use crate::report::model::{
    BranchReport, BranchSide, DetailReport, HarnessPagesInfo, LatencyPair, RegionInfo, RegionMode,
    RegionReport, RunSummary, Table, TableRow,
};
use crate::report::views::{LineStats, Timeline, TimelineView};
use crate::sim::{
    simulate, Observer, OutcomeOnly, SimError, SimMachine, SimOptions, SimProgram, WhatIf,
};
use crate::uarch::MicroArch;
use assembly::{Assembly, HarnessPages, RegionModel};

/// The machine as the analysis needs it.
#[derive(Clone, Debug)]
pub struct Machine {
    /// Arch name (`SKL`).
    pub name: String,
    /// Engine parameters.
    pub sim: SimMachine,
    /// Port names in column order.
    pub port_names: Vec<String>,
    /// The full description (for the bottleneck table).
    pub arch: MicroArch,
}

impl Machine {
    /// The machine of `arch`.
    pub fn of(arch: &MicroArch) -> Machine {
        Machine {
            name: arch.name.clone(),
            sim: SimMachine {
                issue_width: arch.issue_width,
                // An arch file without a scheduler size still simulates: assume 16 cycles
                // of issue (the order of magnitude of every known core).
                scheduler_size: arch.rs_size.unwrap_or(arch.issue_width * 16),
                port_count: arch.ports.len(),
                divider_port: arch.divider_port(),
                fp_divider_port: arch
                    .fp_divider_port()
                    .filter(|&p| Some(p) != arch.divider_port()),
            },
            port_names: arch.ports.iter().map(|p| p.name.clone()).collect(),
            arch: arch.clone(),
        }
    }
}

/// What to compute.
#[derive(Clone, Debug)]
pub struct AnalysisOptions {
    /// Iterations (`--loop`).
    pub iterations: u32,
    /// The what-if switches the user gave (`-pf -ip -nd`).
    pub what_if: WhatIf,
    /// `-p`: no extra runs.
    pub performance: bool,
    /// `--detail LINE`.
    pub detail: Option<u32>,
    /// `-b`.
    pub branches: bool,
    /// Cap on simulated cycles per run.
    pub max_cycles: u64,
    /// `--timeline N`: record the first N iterations of the table's run.
    pub timeline: Option<u32>,
    /// Work units all runs of one path may cost ([`budget`]); above it the analysis
    /// fails with [`AnalysisError::OverBudget`] before simulating.
    pub work_budget: u64,
    /// The pipeline details modelled (`--model`, `--no-macro-fusion` ...).
    pub model: ModelOptions,
}

impl AnalysisOptions {
    /// Plain analysis with `iterations` iterations.
    pub fn new(iterations: u32) -> Self {
        AnalysisOptions {
            iterations,
            what_if: WhatIf::NONE,
            performance: false,
            detail: None,
            branches: false,
            max_cycles: SimOptions::new(1).max_cycles,
            timeline: None,
            work_budget: budget::WORK_BUDGET,
            model: ModelOptions::FULL,
        }
    }

    /// The runs to make, plain first; the last one is shown in the table.
    ///
    /// Without switches: the plain run and the three single what-ifs (thesis §2.1). With
    /// switches: the plain run and every combination of them. `-p`: only the run with the
    /// given switches.
    pub fn runs(&self) -> Vec<WhatIf> {
        if self.performance {
            return vec![self.what_if];
        }
        let mut runs = vec![WhatIf::NONE];
        if self.what_if.is_none() {
            runs.extend(
                WhatIf {
                    perfect_frontend: true,
                    infinite_ports: true,
                    no_deps: true,
                }
                .combinations()
                .into_iter()
                .take(3),
            );
        } else {
            runs.extend(self.what_if.combinations());
        }
        runs
    }

    /// The run whose per-line statistics the table shows.
    pub fn table_run(&self) -> WhatIf {
        self.what_if
    }
}

/// Why a region could not be analyzed.
#[derive(Debug, Error)]
pub enum AnalysisError {
    /// `--detail` names a line the region does not have.
    #[error("--detail {line} is out of range: the region has lines 0 to {last}")]
    DetailOutOfRange {
        /// Requested line.
        line: u32,
        /// Last line.
        last: usize,
    },
    /// No instruction of the region has data.
    #[error("no instruction of the region has data for {arch}; nothing to simulate")]
    NothingAccounted {
        /// The arch.
        arch: String,
    },
    /// The simulation failed.
    #[error(transparent)]
    Sim(#[from] SimError),
    /// The simulation would take too long.
    #[error(
        "simulating {} iterations of {} instructions ({} run{}) would take an estimated {} s, \
         more than the limit of {} s; {}",
        .0.iterations, .0.instructions, .0.runs, if .0.runs == 1 { "" } else { "s" },
        budget::seconds(.0.predicted), budget::seconds(.0.budget),
        if .0.max_iterations == 0 {
            "the region is too large to simulate".to_string()
        } else if .0.runs > 1 {
            format!("use --loop {} or fewer, or -p for a single run", .0.max_iterations)
        } else {
            format!("use --loop {} or fewer", .0.max_iterations)
        }
    )]
    OverBudget(budget::OverBudget),
    /// The dependency analysis would need too much time or memory.
    #[error(transparent)]
    Deps(#[from] TooComplex),
}

/// Statistics of one simulated path.
struct PathResult {
    runs: Vec<RunSummary>,
    table: Table,
    stats: LineStats,
    timeline: Option<Timeline>,
}

/// `out` as a report line. `doubled`: when the region is a loop, the cycles of a run of twice
/// the iterations; then the throughput is the steady state, (cycles(2N) − cycles(N)) / N as
/// BHive and `suaca profile` measure it, not the thesis' total cycles / iterations, which
/// counts filling and draining the pipeline once (docs/model.md, "Block throughput").
fn summary(w: WhatIf, out: &crate::sim::SimOutcome, doubled: Option<u64>) -> RunSummary {
    let steady = doubled.and_then(|c| {
        (c > out.cycles).then(|| (c - out.cycles) as f64 / f64::from(out.iterations))
    });
    let (throughput, uops_per_cycle) = match steady {
        Some(t) => {
            let per_iteration = out.uops as f64 / f64::from(out.iterations);
            (t, per_iteration / t)
        }
        None => (out.throughput(), out.uops_per_cycle()),
    };
    RunSummary {
        what_if: w.describe(),
        perfect_frontend: w.perfect_frontend,
        infinite_ports: w.infinite_ports,
        no_deps: w.no_deps,
        cycles: out.cycles,
        throughput,
        uops_per_cycle,
        steady_state: steady.is_some(),
    }
}

/// Adds the harness's page cost (`--harness bhive`) to every run of `path`, what-if runs
/// too: it is the measurement's, not the pipeline's, and each run's overlap of the walks
/// follows its own pipeline time. Returns the table run's pipeline cycles before the cost.
fn add_harness_cost(path: &mut PathResult, pages: Option<HarnessPages>) -> f64 {
    let pipeline = path.table.run.throughput;
    let Some(p) = pages else { return pipeline };
    for run in path.runs.iter_mut().chain([&mut path.table.run]) {
        let t = run.throughput + p.cycles(run.throughput);
        run.uops_per_cycle *= run.throughput / t;
        run.throughput = t;
    }
    pipeline
}

/// Fewest iterations for a steady-state throughput (one iteration asks for its latency).
const MIN_STEADY_ITERATIONS: u32 = 2;

/// Runs every requested variant of `program`; the table comes from the table run.
fn run_path(
    program: SimProgram,
    instrs: &[Instr],
    descs: &[Option<InstrDesc>],
    machine: &Machine,
    opts: &AnalysisOptions,
    lines_shown: &[usize],
    steady: bool,
) -> Result<PathResult, AnalysisError> {
    let table_run = opts.table_run();
    let all_runs = opts.runs();
    let max_cycles = match budget::check(
        &program,
        &machine.sim,
        table_run,
        opts.iterations,
        // A loop's runs each come with a run of twice the iterations.
        if steady {
            all_runs.len() * 3
        } else {
            all_runs.len()
        },
        opts.work_budget,
        opts.max_cycles,
    )? {
        budget::Verdict::Run { max_cycles } => max_cycles,
        budget::Verdict::Over(over) => return Err(AnalysisError::OverBudget(over)),
    };
    let sim_opts = |what_if| SimOptions {
        iterations: opts.iterations,
        what_if,
        max_cycles,
    };
    let mut stats = LineStats::new(&program, machine.sim.port_count);
    let mut timeline = opts.timeline.map(|n| TimelineView::new(&program, n));
    let table_out = match &mut timeline {
        Some(view) => {
            let observers: &mut [&mut dyn Observer] = &mut [&mut stats, view];
            simulate(&program, &machine.sim, &sim_opts(table_run), observers)?
        }
        None => simulate(&program, &machine.sim, &sim_opts(table_run), &mut stats)?,
    };
    let timeline =
        timeline.map(|view| view.finish(|line| (instrs[line as usize].text.clone(), None)));
    // A loop's steady state: a run of twice the iterations (outcome-only runs skip
    // repeated steady states, so this costs little).
    let doubled = |w: WhatIf| -> Result<Option<u64>, AnalysisError> {
        if !steady || opts.iterations < MIN_STEADY_ITERATIONS {
            return Ok(None);
        }
        let twice = SimOptions {
            iterations: opts.iterations.saturating_mul(2),
            what_if: w,
            max_cycles: max_cycles.saturating_mul(2),
        };
        // Past the cycle cap the report keeps total cycles / iterations.
        match simulate(&program, &machine.sim, &twice, &mut OutcomeOnly) {
            Ok(out) => Ok(Some(out.cycles)),
            Err(SimError::CycleLimit(_)) => Ok(None),
            Err(e) => Err(e.into()),
        }
    };
    let run = summary(table_run, &table_out, doubled(table_run)?);
    let mut runs = Vec::new();
    for w in all_runs {
        if w == table_run {
            runs.push(run.clone());
        } else {
            let out = simulate(&program, &machine.sim, &sim_opts(w), &mut OutcomeOnly)?;
            runs.push(summary(w, &out, doubled(w)?));
        }
    }
    // By line, first row wins: a search per shown line would be quadratic in the region size.
    let mut rows_stats: std::collections::HashMap<u32, _> = Default::default();
    for row in stats.rows(&program, opts.iterations) {
        rows_stats.entry(row.line).or_insert(row);
    }
    let rows = lines_shown
        .iter()
        .map(|&line| {
            let instr = &instrs[line];
            let desc = descs[line].as_ref();
            TableRow {
                line: line as u32,
                source_line: None,
                source_file: None,
                address: instr.address,
                text: instr.text.clone(),
                supported: desc.is_some(),
                iform: desc.map(|d| d.iform.clone()),
                uops_info: desc.map(|d| d.string.clone()),
                stats: rows_stats.get(&(line as u32)).cloned(),
            }
        })
        .collect();
    let divider_port = if stats.divider_used() {
        machine.sim.divider_port
    } else {
        None
    };
    let table = Table {
        run,
        ports: machine.port_names.clone(),
        divider_port,
        rows,
        total_uops: program.uops_per_iteration(),
    };
    Ok(PathResult {
        runs,
        table,
        stats,
        timeline,
    })
}

/// Analyzes one decoded region. `descs[i]` is the data of `instrs[i]` (`None`: no data).
pub fn analyze_region(
    region: &Region,
    instrs: &[Instr],
    descs: &[Option<InstrDesc>],
    machine: &Machine,
    opts: &AnalysisOptions,
) -> Result<RegionReport, AnalysisError> {
    if let Some(line) = opts.detail {
        if line as usize >= instrs.len() {
            return Err(AnalysisError::DetailOutOfRange {
                line,
                last: instrs.len().saturating_sub(1),
            });
        }
    }
    if descs.iter().all(Option::is_none) {
        return Err(AnalysisError::NothingAccounted {
            arch: machine.name.clone(),
        });
    }
    let assembly = Assembly {
        instrs,
        descs,
        arch: &machine.arch,
        model: opts.model,
        start: region.address,
        end: region.end_address(),
        iterations: opts.iterations,
        copies: opts.iterations,
        loop_mode: None,
    };
    let RegionModel {
        cfg,
        deps,
        bounds,
        program,
        loop_mode,
        front_end_source,
        memory,
        harness_pages,
    } = assembly::assemble(&assembly)?;
    let all: Vec<usize> = (0..instrs.len()).collect();
    let graphs = graphs::build(instrs, descs, &cfg, &deps, &memory);
    let mut main = run_path(program, instrs, descs, machine, opts, &all, loop_mode)?;
    let table_pipeline = add_harness_cost(&mut main, harness_pages);

    let mut warnings = Vec::new();
    for (instr, desc) in instrs.iter().zip(descs) {
        match desc {
            None => warnings.push(Warning::NoData {
                line: instr.line,
                text: instr.text.clone(),
                arch: machine.name.clone(),
            }),
            Some(d) if instr.iced.has_lock_prefix() && !d.string.contains("_LOCK") => warnings
                .push(Warning::LockIgnored {
                    line: instr.line,
                    text: instr.text.clone(),
                    arch: machine.name.clone(),
                }),
            Some(d) if d.div_cycles.is_none() && crate::db::uses_divider(&d.string) => warnings
                .push(Warning::NoDividerData {
                    line: instr.line,
                    text: instr.text.clone(),
                    arch: machine.name.clone(),
                }),
            Some(_) => {}
        }
    }
    warnings.extend(warning::x87_stack_unbalanced(instrs));
    let detail = opts
        .detail
        .map(|line| detail_report(line, instrs, descs, &deps, &main, opts.iterations));
    let branches = if opts.branches {
        match paths::first_conditional(instrs) {
            Some(b) => Some(branch_report(b, region, instrs, descs, machine, opts)?),
            None => {
                warnings.push(Warning::NoConditionalJump);
                None
            }
        }
    } else {
        None
    };
    Ok(RegionReport {
        region: RegionInfo {
            index: region.index,
            section: region.section.clone(),
            address: region.address,
            end: region.end_address(),
            symbol: region.symbol.clone(),
            instructions: instrs.len(),
            mode: if cfg.loop_branch().is_some() {
                RegionMode::Loop
            } else {
                RegionMode::Unrolled
            },
            loop_branch: cfg.loop_branch().map(|l| l as u32),
            found_loop: None,
            front_end_source: front_end_source.map(crate::pipeline::frontend::Source::key),
            harness_pages: harness_pages.map(|p| HarnessPagesInfo {
                pages_per_iteration: p.per_copy,
                cycles_per_page: p.cycles_per_page,
                walks_overlapping: p.overlap(table_pipeline),
                cycles: p.cycles(table_pipeline),
            }),
        },
        runs: main.runs,
        table: main.table,
        detail,
        branches,
        bounds,
        warnings,
        flow_warnings: flow::flow_warnings(
            instrs,
            region.address,
            region.end_address(),
            cfg.loop_branch().is_some(),
        ),
        graphs,
        timeline: main.timeline.take(),
    })
}

fn detail_report(
    line: u32,
    instrs: &[Instr],
    descs: &[Option<InstrDesc>],
    deps: &DepGraph,
    main: &PathResult,
    iterations: u32,
) -> DetailReport {
    let l = line as usize;
    let mut pairs: std::collections::BTreeMap<u32, LatencyPair> = Default::default();
    let offset = |p: usize, c: usize, loc| match (&descs[p], &descs[c]) {
        (Some(pd), Some(cd)) => Some(crate::pipeline::latency::edge_offset(pd, cd, loc)),
        _ => None,
    };
    // Each related line once, with the largest latency in each direction.
    let keep_max = |slot: &mut Option<u32>, o: u32| *slot = Some(slot.map_or(o, |x| x.max(o)));
    let consumers = deps.consumers_of(l).map(|(c, e)| (c, e, true));
    let producers = deps.producers_of(l).map(|(p, e)| (p, e, false));
    for (other, edge, from_detailed) in consumers.chain(producers) {
        let entry = pairs.entry(other as u32).or_insert(LatencyPair {
            line: other as u32,
            from_detailed: None,
            to_detailed: None,
        });
        let (p, c) = if from_detailed {
            (l, other)
        } else {
            (other, l)
        };
        if let Some(o) = offset(p, c, edge.loc) {
            let slot = if from_detailed {
                &mut entry.from_detailed
            } else {
                &mut entry.to_detailed
            };
            keep_max(slot, o);
        }
    }
    let delays = main
        .stats
        .detail(line, iterations)
        .unwrap_or(crate::report::views::LineDetail {
            line,
            dependencies: vec![],
            ports: vec![],
        });
    DetailReport {
        line,
        text: instrs[l].text.clone(),
        max_latency: descs[l].as_ref().map_or(0.0, |d| d.max_latency),
        latencies: pairs.into_values().collect(),
        delays,
    }
}

fn branch_report(
    branch: usize,
    region: &Region,
    instrs: &[Instr],
    descs: &[Option<InstrDesc>],
    machine: &Machine,
    opts: &AnalysisOptions,
) -> Result<BranchReport, AnalysisError> {
    let side = |taken: bool| -> Result<BranchSide, AnalysisError> {
        let lines = paths::path(instrs, branch, taken);
        // The path as a straight-line program: its own graphs, lines mapped back.
        let path_instrs: Vec<Instr> = lines
            .iter()
            .enumerate()
            .map(|(pos, &l)| {
                let mut i = instrs[l].clone();
                i.line = pos;
                i.branch = BranchKind::None;
                i
            })
            .collect();
        let path_descs: Vec<Option<InstrDesc>> = lines.iter().map(|&l| descs[l].clone()).collect();
        let model = assembly::assemble(&Assembly {
            instrs: &path_instrs,
            descs: &path_descs,
            arch: &machine.arch,
            model: opts.model,
            start: region.address,
            end: region.end_address(),
            iterations: opts.iterations,
            copies: opts.iterations,
            loop_mode: Some(crate::cfg::loop_branch(instrs, region.address).is_some()),
        })?;
        let loop_mode = model.loop_mode;
        let mut program = model.program;
        for ins in &mut program.instrs {
            ins.line = lines[ins.line as usize] as u32;
        }
        let path_opts = AnalysisOptions {
            detail: None,
            branches: false,
            timeline: None,
            ..opts.clone()
        };
        let mut result = run_path(
            program, instrs, descs, machine, &path_opts, &lines, loop_mode,
        )?;
        add_harness_cost(&mut result, model.harness_pages);
        Ok(BranchSide {
            lines: lines.iter().map(|&l| l as u32).collect(),
            runs: result.runs,
            table: result.table,
        })
    };
    Ok(BranchReport {
        branch_line: branch as u32,
        left: side(false)?,
        right: side(true)?,
    })
}
