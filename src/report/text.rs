//! Text rendering of a [`Report`], laid out like the thesis' tables (comfy-table, ASCII).

use std::io::{self, Write};

use comfy_table::{presets::ASCII_MARKDOWN, Table};

use super::fit::fit;
use super::line_table::render_table;
use super::model::{BranchSide, DetailReport, RegionMode, RegionReport, Report, RunSummary};
use super::titles::{flow_warning, region_title};

/// Rendering choices that are not part of the data.
#[derive(Copy, Clone, Debug, Default)]
pub struct TextOptions {
    /// Add the iform and uops.info string columns (`--iform`).
    pub iform: bool,
    /// ANSI colour (the bottleneck headline, unsupported `X` rows).
    pub color: bool,
    /// Fit tables and prose to this many columns (`None`: no limit, tables as in the thesis).
    pub width: Option<u16>,
    /// Show the timeline of each region (`--timeline`).
    pub timeline: bool,
}

impl TextOptions {
    /// A table with the thesis' preset, styled by these options (sized by [`fit`] once
    /// filled).
    pub(super) fn table(&self) -> Table {
        let mut t = Table::new();
        t.load_style(ASCII_MARKDOWN);
        if self.color {
            t.enforce_styling();
        } else {
            t.force_no_tty();
        }
        t
    }
}

/// Writes `text` wrapped at word boundaries to `width` columns (continuation lines indented
/// by `indent` spaces).
fn write_wrapped(
    out: &mut dyn Write,
    text: &str,
    width: Option<u16>,
    indent: usize,
) -> io::Result<()> {
    let Some(width) = width.map(usize::from) else {
        return writeln!(out, "{text}");
    };
    let mut line = String::new();
    for word in text.split(' ') {
        let len = line.chars().count();
        if len > indent && len + 1 + word.chars().count() > width {
            writeln!(out, "{line}")?;
            line = " ".repeat(indent);
        } else if len > indent || (len > 0 && indent == 0) {
            line.push(' ');
        }
        line.push_str(word);
    }
    writeln!(out, "{line}")
}

/// Writes the whole report.
pub fn render(report: &Report, opts: &TextOptions, out: &mut dyn Write) -> io::Result<()> {
    let many = report.regions.len() > 1;
    for (n, region) in report.regions.iter().enumerate() {
        if n > 0 {
            writeln!(out)?;
        }
        // A found loop is always named: the user did not choose its bytes.
        if many || region.region.found_loop.is_some() {
            writeln!(out, "{}", region_title(region))?;
            writeln!(out)?;
        }
        render_region(region, &report.arch, opts, out)?;
    }
    Ok(())
}

fn render_region(
    region: &RegionReport,
    arch: &str,
    opts: &TextOptions,
    out: &mut dyn Write,
) -> io::Result<()> {
    for w in &region.warnings {
        let line = format!("Warning: {}", super::warning::message(w));
        write_wrapped(out, &line, opts.width, 2)?;
    }
    let text_of = |line: u32| {
        region
            .table
            .rows
            .iter()
            .find(|r| r.line == line)
            .map_or(String::new(), |r| r.text.clone())
    };
    for w in &region.flow_warnings {
        let text = flow_warning(w, text_of);
        write_wrapped(out, &format!("Warning: {text}"), opts.width, 2)?;
    }
    if !region.warnings.is_empty() || !region.flow_warnings.is_empty() {
        writeln!(out)?;
    }
    render_runs(&region.runs, out)?;
    render_mode(region, out)?;
    writeln!(out)?;
    render_table(&region.table, arch, opts, out)?;
    writeln!(out)?;
    render_bounds(region, arch, opts, out)?;
    if let Some(detail) = &region.detail {
        writeln!(out)?;
        render_detail(detail, &region.table.ports, opts, out)?;
    }
    if let Some(b) = &region.branches {
        writeln!(out)?;
        writeln!(
            out,
            "Branch analysis of the jump in line {}:",
            b.branch_line
        )?;
        for (name, side) in [("Left", &b.left), ("Right", &b.right)] {
            writeln!(out)?;
            render_side(name, side, arch, opts, out)?;
        }
    }
    if let (true, Some(t)) = (opts.timeline, &region.timeline) {
        writeln!(out)?;
        super::timeline_text::render(t, opts.width, out)?;
    }
    Ok(())
}

/// The bottleneck table and how the simulation compares with its largest bound.
fn render_bounds(
    region: &RegionReport,
    arch: &str,
    opts: &TextOptions,
    out: &mut dyn Write,
) -> io::Result<()> {
    let b = &region.bounds;
    let style = super::bounds::Style {
        width: opts.width,
        color: opts.color,
    };
    write!(out, "{}", super::bounds::render_styled(b, arch, &style))?;
    let simulated = region.runs.first().map(|r| r.throughput);
    if let (Some(sim), Some(bound)) = (simulated, b.predicted) {
        let what = b
            .bottleneck
            .map(|k| super::bounds::label(k).to_lowercase())
            .unwrap_or_default();
        let mut line =
            format!("Simulated: {sim:.2} cycles per iteration; largest bound: {bound:.2} ({what})");
        if bound > 0.0 && (sim - bound).abs() / bound > 0.02 {
            if sim > bound {
                line.push_str(
                    ". The simulation is slower than every bound: scheduling, latency and \
                     front-end effects add up beyond any single limit",
                );
            } else {
                line.push_str(
                    ". The simulation is faster than this bound: it does not model that limit",
                );
            }
        }
        write_wrapped(out, &line, opts.width, 2)?;
    }
    Ok(())
}

fn render_side(
    name: &str,
    side: &BranchSide,
    arch: &str,
    opts: &TextOptions,
    out: &mut dyn Write,
) -> io::Result<()> {
    writeln!(out, "{name} branch analysis:")?;
    writeln!(out)?;
    render_runs(&side.runs, out)?;
    writeln!(out)?;
    render_table(&side.table, arch, opts, out)
}

/// The text of a JSON front-end source key.
fn source_text(key: &str) -> Option<&'static str> {
    use crate::pipeline::frontend::Source;
    [Source::Lsd, Source::Dsb, Source::DsbThenMite, Source::Mite]
        .into_iter()
        .find(|s| s.key() == key)
        .map(Source::describe)
}

/// Which way the region repeats.
fn render_mode(region: &RegionReport, out: &mut dyn Write) -> io::Result<()> {
    match (region.region.mode, region.region.loop_branch) {
        (RegionMode::Loop, Some(line)) => {
            let text = region
                .table
                .rows
                .iter()
                .find(|r| r.line == line)
                .map_or(String::new(), |r| format!(" `{}`", r.text));
            writeln!(
                out,
                "Mode: loop (line {line}{text} branches back to the start, taken every iteration){}",
                steady_words(&region.runs)
            )?;
            match region.region.front_end_source.and_then(source_text) {
                Some(d) => writeln!(out, "Front end streams the loop from: {d}"),
                None => Ok(()),
            }
        }
        _ => {
            writeln!(
                out,
                "Mode: unrolled (no branch back to the start: copies of the region follow each other)"
            )?;
            match &region.region.harness_pages {
                Some(p) if p.walks_overlapping > 1.0 => writeln!(
                    out,
                    "Harness: {:.2} new 4 KiB pages per iteration × {:.0} cycles / {:.2} walks overlapping = {:.2} cycles, included above",
                    p.pages_per_iteration, p.cycles_per_page, p.walks_overlapping, p.cycles
                ),
                Some(p) => writeln!(
                    out,
                    "Harness: {:.2} new 4 KiB pages per iteration × {:.0} cycles = {:.2} cycles, included above",
                    p.pages_per_iteration, p.cycles_per_page, p.cycles
                ),
                None => Ok(()),
            }
        }
    }
}

/// How a loop's throughput was obtained, after its mode line.
fn steady_words(runs: &[RunSummary]) -> &'static str {
    if runs.first().is_some_and(|r| r.steady_state) {
        "; steady-state throughput"
    } else {
        ""
    }
}

/// `Block throughput…` lines (thesis §2.1).
fn render_runs(runs: &[RunSummary], out: &mut dyn Write) -> io::Result<()> {
    for run in runs {
        if run.what_if.is_empty() {
            writeln!(out, "Block throughput: {:.2} cycles", run.throughput)?;
        } else {
            writeln!(
                out,
                "Block throughput {}: {:.2} cycles",
                with_words(run),
                run.throughput
            )?;
        }
    }
    if let Some(first) = runs.first() {
        writeln!(out, "Microops per cycle: {:.2}", first.uops_per_cycle)?;
    }
    Ok(())
}

/// The thesis' phrasing of a what-if run: "with perfect front-end", "without dependencies",
/// "with perfect front-end and infinitely usable ports and without dependencies".
pub(super) fn with_words(run: &RunSummary) -> String {
    let mut parts = Vec::new();
    if run.perfect_frontend {
        parts.push("perfect front-end");
    }
    if run.infinite_ports {
        parts.push("infinitely usable ports");
    }
    let with = if parts.is_empty() {
        String::new()
    } else {
        format!("with {}", parts.join(" and "))
    };
    match (run.no_deps, with.is_empty()) {
        (false, _) => with,
        (true, true) => "without dependencies".into(),
        (true, false) => format!("{with} and without dependencies"),
    }
}

pub(super) fn fmt1(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.1}")).unwrap_or_default()
}

fn render_detail(
    detail: &DetailReport,
    ports: &[String],
    opts: &TextOptions,
    out: &mut dyn Write,
) -> io::Result<()> {
    let l = detail.line;
    writeln!(
        out,
        "Detailed delay information for instruction: {} in line {l}",
        detail.text
    )?;
    writeln!(out)?;
    writeln!(out, "Maximum latency: {}", detail.max_latency)?;
    writeln!(out)?;
    writeln!(out, "Latencies for dependencies:")?;
    if detail.latencies.is_empty() {
        writeln!(out, "This instruction doesn't have any dependencies!")?;
    } else {
        let mut t = small_table(
            opts,
            vec![
                "Line".into(),
                format!("{l} -> Line"),
                format!("Line -> {l}"),
            ],
        );
        for p in &detail.latencies {
            t.add_row(vec![
                p.line.to_string(),
                p.from_detailed.map(|v| v.to_string()).unwrap_or_default(),
                p.to_detailed.map(|v| v.to_string()).unwrap_or_default(),
            ]);
        }
        fit(&mut t, opts.width, 0);
        writeln!(out, "{t}")?;
        writeln!(out)?;
        writeln!(out, "Delay caused by dependencies:")?;
        let mut t = small_table(
            opts,
            vec!["Line".into(), "was delayed".into(), "has delayed".into()],
        );
        for d in &detail.delays.dependencies {
            t.add_row(vec![
                d.line.to_string(),
                format!("{:.1}", d.was_delayed),
                format!("{:.1}", d.has_delayed),
            ]);
        }
        fit(&mut t, opts.width, 0);
        writeln!(out, "{t}")?;
    }
    writeln!(out)?;
    writeln!(out, "Delay caused by blocked ports:")?;
    let mut t = small_table(
        opts,
        vec!["Port".into(), "was delayed".into(), "has delayed".into()],
    );
    for p in &detail.delays.ports {
        t.add_row(vec![
            ports
                .get(p.port)
                .cloned()
                .unwrap_or_else(|| p.port.to_string()),
            format!("{:.1}", p.was_delayed),
            format!("{:.1}", p.has_delayed),
        ]);
    }
    fit(&mut t, opts.width, 0);
    writeln!(out, "{t}")
}

fn small_table(opts: &TextOptions, header: Vec<String>) -> Table {
    let mut t = opts.table();
    t.set_header(header);
    t
}
