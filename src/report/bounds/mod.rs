//! The bottleneck table in words: the detail and named inputs of each row are made here from
//! the row's typed facts ([`crate::bounds::BoundFacts`]), once, for the text table
//! ([`text`]) and the JSON report ([`json`]).
//!
//! Owns: the row labels, the words of every limit, the number format of the table.
//! Must not touch: the computation of the limits (`crate::bounds`).

mod execution;
mod frontend;
pub mod json;
mod memory;
pub mod text;

pub use text::{render_styled, render_text, Style};

use crate::bounds::{BoundFacts, BoundKind, BoundRow};

/// A row in words: the formula and its result, and the named inputs as printed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RowWords {
    /// The formula and its result (critical ports, chain, ...).
    pub detail: String,
    /// `(name, value)` of each input (`fused µops` = `14`).
    pub inputs: Vec<(&'static str, String)>,
}

impl RowWords {
    fn new(detail: impl Into<String>) -> Self {
        RowWords {
            detail: detail.into(),
            inputs: Vec::new(),
        }
    }

    fn input(mut self, name: &'static str, value: impl ToString) -> Self {
        self.inputs.push((name, value.to_string()));
        self
    }
}

/// The row label as printed (`Issue width`).
pub fn label(kind: BoundKind) -> &'static str {
    match kind {
        BoundKind::IssueWidth => "Issue width",
        BoundKind::IssueInstructions => "Issue width (instructions)",
        BoundKind::Ports => "Port pressure",
        BoundKind::Divider => "Divider",
        BoundKind::Serializing => "Serializing",
        BoundKind::Loads => "Loads",
        BoundKind::Stores => "Stores",
        BoundKind::MemoryOps => "Memory ops (AGU)",
        BoundKind::ComplexAddressing => "Complex addressing",
        BoundKind::CacheBandwidth => "Cache bandwidth",
        BoundKind::DepChain => "Loop-carried chain",
        BoundKind::Dsb => "Front end: uop cache",
        BoundKind::Mite => "Front end: decoders",
        BoundKind::Microcode => "Front end: microcode",
        BoundKind::Lsd => "Front end: LSD",
        BoundKind::TakenBranches => "Taken branches",
        BoundKind::OooWindow => "OoO window",
    }
}

/// The detail and inputs of `row`.
pub fn words(row: &BoundRow) -> RowWords {
    // Rows that are unknown have no cycles; their words do not print them.
    let cycles = row.cycles.unwrap_or(0.0);
    match &row.facts {
        BoundFacts::IssueWidth(f) => execution::issue_width(f, cycles),
        BoundFacts::IssueInstructions {
            instructions,
            per_cycle,
        } => execution::issue_instructions(*instructions, *per_cycle, cycles),
        BoundFacts::Ports(f) => execution::ports(f, cycles),
        BoundFacts::Divider {
            no_data,
            cycles: total,
            lines,
        } => execution::divider(*no_data, *total, lines),
        BoundFacts::Serializing {
            cycles: total,
            lines,
        } => execution::serializing(row.state, *total, lines),
        BoundFacts::Loads {
            rate,
            lines,
            gathers,
        } => memory::loads(rate, lines, gathers, cycles),
        BoundFacts::Stores {
            rate,
            lines,
            commit_cycles,
        } => memory::stores(rate, lines, *commit_cycles, cycles),
        BoundFacts::MemoryOps { rate } => memory::memory_ops(rate, cycles),
        BoundFacts::ComplexAddressing(f) => memory::complex(f, cycles),
        BoundFacts::CacheBandwidth => RowWords::new("n/a (needs working-set level)")
            .input("unique lines per level", "not given"),
        BoundFacts::DepChain(f) => execution::chain(f, cycles),
        BoundFacts::Dsb(f) => frontend::dsb(f, cycles),
        BoundFacts::Mite(f) => frontend::mite(f),
        BoundFacts::Microcode(f) => frontend::microcode(f, cycles),
        BoundFacts::Lsd(f) => frontend::lsd(f),
        BoundFacts::TakenBranches(f) => {
            frontend::taken(&f.lines, f.per_cycle, f.single_backward, cycles)
        }
        BoundFacts::OooWindow(f) => execution::window(f),
    }
}

/// Formats a cycle count for inputs and details (`3.5`, `1.333`).
pub fn fmt_num(v: f64) -> String {
    // Integer thousandths: exact for the values the rows hold and much cheaper than float
    // formatting (which fell back to bignum arithmetic), as `suaca batch` formats every row.
    let milli = (v * 1000.0).round();
    if milli.is_finite() && milli.abs() < 1e15 {
        let m = milli as i64;
        let (int, frac) = (m.abs() / 1000, m.abs() % 1000);
        let sign = if m < 0 { "-" } else { "" };
        let s = format!("{sign}{int}.{frac:03}");
        return trim_zeros(&s);
    }
    trim_zeros(&format!("{v:.3}"))
}

/// `3.500` → `3.5`, `2.000` → `2`.
fn trim_zeros(s: &str) -> String {
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() || s == "-" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// `3, 7, 9` (0-based lines as in the reports).
fn fmt_lines(lines: &[usize]) -> String {
    lines
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// [`fmt_lines`], or `none`.
fn lines_or_none(lines: &[usize]) -> String {
    if lines.is_empty() {
        "none".into()
    } else {
        fmt_lines(lines)
    }
}

#[cfg(test)]
mod tests;
