//! The per-line table (the thesis' main table): µops, had/caused to wait, port use and the
//! instruction, one row per line.
//!
//! Owns: the columns of that table and the decision to split it. When the whole table does
//! not fit the width with the instruction column unwrapped (Zen's many ports, piped output),
//! it is printed as two tables joined by the line number: the lines with their instructions,
//! then the lines with their ports. An instruction cut into 8-character slices is unreadable;
//! two tables are not.

use std::io::{self, Write};

use comfy_table::{Attribute, Cell, CellAlignment, Color, Table};

use super::fit::{fit, fits_unwrapped};
use super::model::Table as ReportTable;
use super::text::{fmt1, with_words, TextOptions};
use super::titles::short_source;

/// One row's cells in three groups: the leading statistics, the ports, the trailing text.
struct RowCells {
    lead: Vec<Cell>,
    ports: Vec<Cell>,
    tail: Vec<Cell>,
}

/// Writes the per-line table of `table` for `arch`.
pub(super) fn render_table(
    table: &ReportTable,
    arch: &str,
    opts: &TextOptions,
    out: &mut dyn Write,
) -> io::Result<()> {
    if table.run.what_if.is_empty() {
        writeln!(out, "Analysis for architecture: {arch}")?;
    } else {
        writeln!(
            out,
            "Analysis for architecture: {arch} ({})",
            with_words(&table.run)
        )?;
    }
    writeln!(out)?;
    let shown = shown_ports(table);
    let with_source = table.rows.iter().any(|r| r.source_line.is_some());
    let lead_header: Vec<String> = ["Line", "Num Uops", "had to wait", "caused to wait"]
        .into_iter()
        .map(String::from)
        .collect();
    let port_header = port_header(table, &shown);
    let mut tail_header = Vec::new();
    if opts.iform {
        tail_header.extend(["iform".to_string(), "uops.info".to_string()]);
    }
    if with_source {
        tail_header.push("Src".into());
    }
    tail_header.push("Instruction".into());
    let rows: Vec<RowCells> = table
        .rows
        .iter()
        .map(|row| row_cells(table, row, &shown, with_source, opts))
        .collect();
    let any_unsupported = table.rows.iter().any(|r| r.stats.is_none() && !r.supported);

    let mut whole = joined(
        opts,
        &[&lead_header, &port_header, &tail_header],
        rows.iter()
            .map(|r| [&r.lead[..], &r.ports[..], &r.tail[..]]),
    );
    let last = whole.column_count().saturating_sub(1);
    if port_header.is_empty() || fits_unwrapped(&mut whole, opts.width, last) {
        let mut t = whole;
        fit(&mut t, opts.width, last);
        writeln!(out, "{t}")?;
    } else {
        let mut text = joined(
            opts,
            &[&lead_header, &tail_header],
            rows.iter().map(|r| [&r.lead[..], &r.tail[..]]),
        );
        let last = text.column_count().saturating_sub(1);
        fit(&mut text, opts.width, last);
        writeln!(out, "{text}")?;
        writeln!(out)?;
        writeln!(out, "Port use per line (cycles per iteration):")?;
        let line_header = vec!["Line".to_string()];
        let mut ports = joined(
            opts,
            &[&line_header, &port_header],
            rows.iter().map(|r| [&r.lead[..1], &r.ports[..]]),
        );
        fit(&mut ports, opts.width, usize::MAX);
        writeln!(out, "{ports}")?;
    }
    writeln!(out, "Total number of Uops: {}", table.total_uops)?;
    if any_unsupported {
        writeln!(
            out,
            "X - instruction not supported, was not accounted in the analysis"
        )?;
    }
    Ok(())
}

/// A table of the given header groups and row groups, side by side.
fn joined<'a, const N: usize>(
    opts: &TextOptions,
    headers: &[&Vec<String>],
    rows: impl Iterator<Item = [&'a [Cell]; N]>,
) -> Table {
    let mut t = opts.table();
    t.set_header(headers.iter().flat_map(|h| h.iter().cloned()));
    for groups in rows {
        t.add_row(groups.iter().flat_map(|g| g.iter().cloned()));
    }
    t
}

fn port_header(table: &ReportTable, shown: &[usize]) -> Vec<String> {
    let mut header = Vec::new();
    for &i in shown {
        let p = &table.ports[i];
        header.push(p.clone());
        if table.divider_port == Some(i) {
            header.push(format!("{p} - DV"));
        }
    }
    header
}

fn row_cells(
    table: &ReportTable,
    row: &super::model::TableRow,
    shown: &[usize],
    with_source: bool,
    opts: &TextOptions,
) -> RowCells {
    let mut lead = vec![Cell::new(row.line)];
    let mut ports = Vec::new();
    match &row.stats {
        Some(s) => {
            let wait = |v: f64| {
                if v > 0.0 {
                    fmt1(Some(v))
                } else {
                    String::new()
                }
            };
            lead.push(Cell::new(s.uops));
            lead.push(Cell::new(wait(s.had_to_wait)));
            lead.push(Cell::new(wait(s.caused_to_wait)));
            for &i in shown {
                ports.push(Cell::new(fmt1(s.ports.get(i).copied().flatten())));
                if table.divider_port == Some(i) {
                    ports.push(Cell::new(fmt1(s.divider)));
                }
            }
        }
        None => {
            let mark = Cell::new(if row.supported { "" } else { "X" });
            lead.push(if opts.color && !row.supported {
                mark.fg(Color::Red).add_attribute(Attribute::Bold)
            } else {
                mark
            });
            lead.push(Cell::new(""));
            lead.push(Cell::new(""));
            for &i in shown {
                ports.push(Cell::new(""));
                if table.divider_port == Some(i) {
                    ports.push(Cell::new(""));
                }
            }
        }
    }
    let mut tail = Vec::new();
    if opts.iform {
        tail.push(Cell::new(row.iform.as_deref().unwrap_or("-")));
        tail.push(Cell::new(row.uops_info.as_deref().unwrap_or("-")));
    }
    if with_source {
        tail.push(Cell::new(
            row.source_line
                .map(|l| short_source(row.source_file.as_deref(), l))
                .unwrap_or_default(),
        ));
    }
    let mut text = Cell::new(&row.text).set_alignment(CellAlignment::Left);
    if opts.color && !row.supported {
        text = text.fg(Color::Red);
    }
    tail.push(text);
    RowCells { lead, ports, tail }
}

/// Port columns to print: all of them as SUACA does, except on machines with many ports
/// (Zen: 18), where ports no line used are left out so the table stays readable.
fn shown_ports(table: &ReportTable) -> Vec<usize> {
    const MANY_PORTS: usize = 10;
    let all = 0..table.ports.len();
    if table.ports.len() <= MANY_PORTS {
        return all.collect();
    }
    all.filter(|&i| {
        table.divider_port == Some(i)
            || table
                .rows
                .iter()
                .filter_map(|r| r.stats.as_ref())
                .any(|s| s.ports.get(i).copied().flatten().is_some())
    })
    .collect()
}
