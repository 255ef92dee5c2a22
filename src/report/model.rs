//! The report as data: everything the text and JSON renderings show. Built by the analysis
//! from views; renderers only format it.

use serde::Serialize;

use super::graphs::Graphs;
use super::views::{LineDetail, LineRow, Timeline};
pub use crate::input::debug_lines::SourceLoc;

/// Version of the JSON wire format; bump on incompatible changes. 2: `source_line` is the
/// line of `source_file` (DWARF or `.loc`), no longer always a line of the input.
pub const SCHEMA_VERSION: u32 = 2;

/// Block throughput of one simulation run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunSummary {
    /// What-if switches of the run, as words (`""` for the plain run).
    pub what_if: String,
    /// Whether the perfect-front-end switch was set.
    pub perfect_frontend: bool,
    /// Whether the infinite-ports switch was set.
    pub infinite_ports: bool,
    /// Whether the no-dependencies switch was set.
    pub no_deps: bool,
    /// Total cycles.
    pub cycles: u64,
    /// Cycles per iteration.
    pub throughput: f64,
    /// µops per cycle.
    pub uops_per_cycle: f64,
    /// Whether `throughput` is the steady state over the second half of the iterations (a
    /// loop) rather than total cycles / iterations.
    pub steady_state: bool,
}

/// One line of the main table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableRow {
    /// Line in the region (0-based).
    pub line: u32,
    /// Line (1-based) in `source_file`, or in the input itself when `source_file` is
    /// `None` (assembly text without `.loc`).
    pub source_line: Option<u32>,
    /// The source file of `source_line` (DWARF line tables, `.loc` directives).
    pub source_file: Option<String>,
    /// Address of the instruction.
    pub address: u64,
    /// Intel-syntax text.
    pub text: String,
    /// Whether instruction data was found (IACA's `X` otherwise; left out of the accounting).
    pub supported: bool,
    /// XED iform of the matched variant.
    pub iform: Option<String>,
    /// uops.info string of the matched variant.
    pub uops_info: Option<String>,
    /// Simulation statistics (absent for unsupported lines and lines off the simulated path).
    pub stats: Option<LineRow>,
}

/// The main table of one run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Table {
    /// The run the table shows.
    pub run: RunSummary,
    /// Port names, in column order.
    pub ports: Vec<String>,
    /// Index of the divider port, when a divider column is shown.
    pub divider_port: Option<usize>,
    /// Rows in line order.
    pub rows: Vec<TableRow>,
    /// Sum of µops of the simulated lines.
    pub total_uops: u64,
}

/// Latencies between the detailed line and one related line (thesis §2.6).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LatencyPair {
    /// The related line.
    pub line: u32,
    /// Latency of the dependency from the detailed line to the related line.
    pub from_detailed: Option<u32>,
    /// Latency of the dependency from the related line to the detailed line.
    pub to_detailed: Option<u32>,
}

/// `--detail LINE` (thesis §2.6).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DetailReport {
    /// The line.
    pub line: u32,
    /// Its text.
    pub text: String,
    /// Its maximum latency.
    pub max_latency: f64,
    /// Latencies of its dependencies in both directions.
    pub latencies: Vec<LatencyPair>,
    /// Delays by dependencies and blocked ports.
    pub delays: LineDetail,
}

/// One side of the branch analysis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BranchSide {
    /// Lines on this path, in order (original line numbers).
    pub lines: Vec<u32>,
    /// The plain run and its what-if variants.
    pub runs: Vec<RunSummary>,
    /// The main table of this path.
    pub table: Table,
}

/// `-b` (thesis §2.7): the first conditional jump, both ways.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BranchReport {
    /// Line of the conditional jump.
    pub branch_line: u32,
    /// Not taken (fall-through).
    pub left: BranchSide,
    /// Taken.
    pub right: BranchSide,
}

/// Where a region came from.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RegionInfo {
    /// Index in file order.
    pub index: usize,
    /// Section name.
    pub section: String,
    /// Start address.
    pub address: u64,
    /// One-past-the-end address.
    pub end: u64,
    /// Enclosing symbol, if known.
    pub symbol: Option<String>,
    /// Number of instructions.
    pub instructions: usize,
    /// How the region repeats: `loop` (its last instruction branches back to its start,
    /// taken every iteration) or `unrolled` (copies follow each other).
    pub mode: RegionMode,
    /// The line of the loop's back branch in loop mode.
    pub loop_branch: Option<u32>,
    /// The loop this region is, when it was found without markers.
    pub found_loop: Option<FoundLoopInfo>,
    /// The front-end part that streams the loop (Intel, loop mode, the front-end unit):
    /// `lsd`, `dsb`, `dsb_then_mite` or `mite`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub front_end_source: Option<&'static str>,
    /// What the measuring harness (`--harness`) adds to each copy of unrolled code beyond the
    /// pipeline, included in the runs' throughput; absent when it adds nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub harness_pages: Option<HarnessPagesInfo>,
}

/// The pages a harness's timed run newly enters (docs/model.md, "The measurement harness's
/// values").
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HarnessPagesInfo {
    /// 4 KiB pages newly entered per iteration.
    pub pages_per_iteration: f64,
    /// Cycles each costs when its walk is alone.
    pub cycles_per_page: f64,
    /// Walks in flight on average (1: one at a time; up to the arch's
    /// `memory.page_walks_in_flight` where the copies enter pages faster than one walk
    /// lasts).
    pub walks_overlapping: f64,
    /// Cycles added to each iteration: pages × cycles per page / walks overlapping.
    pub cycles: f64,
}

/// A loop found in an unmarked input (see `crate::loops`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FoundLoopInfo {
    /// The function, demangled (`None`: code without symbols).
    pub function: Option<String>,
    /// The function's first address.
    pub function_address: u64,
    /// The region's start as an offset from the function's start.
    pub offset: u64,
    /// The region's end as an offset from the function's start.
    pub end_offset: u64,
    /// Address of the loop header.
    pub header: u64,
    /// Basic blocks of the loop.
    pub blocks: usize,
    /// Instructions inside the region's range that are not part of the loop.
    pub foreign_instructions: usize,
    /// The function is an IFUNC resolver; the loop is in an implementation it returns,
    /// which has no symbol (`function_address` is the implementation's).
    pub ifunc_implementation: bool,
}

/// Control flow of a region that the simulation does not follow: it runs the region as a
/// loop (or straight-line code), so these paths never happen in the numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FlowWarning {
    /// A `ret` at `line`: the region holds the end of a function.
    Return {
        /// The line.
        line: u32,
    },
    /// A branch at `line`, before the region's last instruction, leaves the region (to
    /// `target`; `None` for an indirect jump).
    BranchOut {
        /// The line.
        line: u32,
        /// The target address.
        target: Option<u64>,
    },
    /// A found loop of several basic blocks: simulated as one path in layout order.
    MultiBlockLoop {
        /// Basic blocks of the loop.
        blocks: usize,
        /// Instructions between them that are not part of the loop.
        foreign_instructions: usize,
    },
}

/// How a region is simulated.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RegionMode {
    /// The region ends in a branch back to its start, taken every iteration: the branch,
    /// its macro-fusion and the taken-branch limit count (uiCA's loop mode).
    Loop,
    /// Straight-line code whose copies follow each other (BHive's unrolled blocks).
    Unrolled,
}

/// The analysis of one region.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RegionReport {
    /// Where the region is.
    pub region: RegionInfo,
    /// The plain run first, then the what-if variants.
    pub runs: Vec<RunSummary>,
    /// The main table.
    pub table: Table,
    /// `--detail`.
    pub detail: Option<DetailReport>,
    /// `-b`.
    pub branches: Option<BranchReport>,
    /// The bottleneck table (speed limits, per iteration); in JSON with the rows' words.
    #[serde(serialize_with = "super::bounds::json::serialize")]
    pub bounds: crate::bounds::Bounds,
    /// Warnings about this region (unsupported instructions, ...); in JSON as messages.
    #[serde(serialize_with = "super::warning::serialize")]
    pub warnings: Vec<crate::analysis::Warning>,
    /// Control flow the simulation does not follow (returns, branches out, loops of
    /// several blocks).
    pub flow_warnings: Vec<FlowWarning>,
    /// The control-flow and dependency graphs.
    pub graphs: Graphs,
    /// `--timeline`: the first iterations of the table's run, cycle by cycle.
    pub timeline: Option<Timeline>,
}

impl RegionReport {
    /// Sets the source position of every row, node and timeline entry from
    /// `source_of(line)`.
    pub fn set_source_lines(&mut self, source_of: impl Fn(u32) -> Option<SourceLoc>) {
        let mut tables = vec![&mut self.table];
        if let Some(b) = &mut self.branches {
            tables.push(&mut b.left.table);
            tables.push(&mut b.right.table);
        }
        for t in tables {
            for row in &mut t.rows {
                (row.source_file, row.source_line) = split(source_of(row.line));
            }
        }
        for n in &mut self.graphs.nodes {
            (n.source_file, n.source_line) = split(source_of(n.line));
        }
        if let Some(t) = &mut self.timeline {
            for e in &mut t.entries {
                (e.source_file, e.source_line) = split(source_of(e.line));
            }
        }
    }
}

/// JSON: every field of every kind is written (`null` where the kind has none), like the
/// rest of the report.
impl Serialize for FlowWarning {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Flat {
            kind: &'static str,
            line: Option<u32>,
            target: Option<u64>,
            blocks: Option<usize>,
            foreign_instructions: Option<usize>,
        }
        let none = Flat {
            kind: "",
            line: None,
            target: None,
            blocks: None,
            foreign_instructions: None,
        };
        let flat = match *self {
            FlowWarning::Return { line } => Flat {
                kind: "return",
                line: Some(line),
                ..none
            },
            FlowWarning::BranchOut { line, target } => Flat {
                kind: "branch_out",
                line: Some(line),
                target,
                ..none
            },
            FlowWarning::MultiBlockLoop {
                blocks,
                foreign_instructions,
            } => Flat {
                kind: "multi_block_loop",
                blocks: Some(blocks),
                foreign_instructions: Some(foreign_instructions),
                ..none
            },
        };
        flat.serialize(serializer)
    }
}

/// A source position as the JSON fields `source_file`, `source_line`.
fn split(loc: Option<SourceLoc>) -> (Option<String>, Option<u32>) {
    match loc {
        Some(l) => (l.file, Some(l.line)),
        None => (None, None),
    }
}

/// What kind of input the report is about.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum InputKind {
    /// An object file, executable or library (IACA markers).
    Object,
    /// Assembly text, assembled with GNU as.
    Assembly,
    /// Raw bytes (`--raw`).
    Raw,
    /// A hex string (`--hex`).
    Hex,
}

/// The input of the report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InputInfo {
    /// The file as given (`-` read from standard input is `<stdin>`; hex input `<hex>`).
    pub name: String,
    /// Its kind.
    pub kind: InputKind,
}

/// Everything one invocation reports.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Wire-format version.
    pub schema_version: u32,
    /// suaca version.
    pub suaca_version: String,
    /// Microarchitecture.
    pub arch: String,
    /// Iterations simulated.
    pub iterations: u32,
    /// The pipeline details modelled: the pipeline details turned off (`no-macro-fusion`,
    /// ...; every one with `--model suaca`).
    pub model_disabled: Vec<String>,
    /// The input.
    pub input: InputInfo,
    /// Warnings not tied to a region (data sources, the assembler); in JSON as messages.
    #[serde(serialize_with = "super::warning::serialize")]
    pub warnings: Vec<crate::analysis::Warning>,
    /// Per region.
    pub regions: Vec<RegionReport>,
}
