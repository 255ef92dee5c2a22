//! Plain-text rendering of the bottleneck table (ASCII, deterministic).

use comfy_table::{presets::ASCII_MARKDOWN, Attribute, Cell, Color, Table};

use super::{fmt_lines, fmt_num, label, words};
use crate::bounds::{BoundRow, Bounds, RowState};

fn cycles_cell(r: &BoundRow, predicted: Option<f64>) -> String {
    match (r.cycles, r.state) {
        (Some(c), RowState::Bound) => match predicted.filter(|p| *p > 0.0) {
            Some(p) => format!("{:.2} ({:.0}%)", c, 100.0 * c / p),
            None => format!("{c:.2}"),
        },
        (Some(c), _) => format!("({c:.2})"),
        (None, RowState::Unknown) => "unknown".into(),
        (None, _) => "n/a".into(),
    }
}

fn binds_cell(r: &BoundRow) -> &'static str {
    match r.state {
        RowState::Bound if r.binds => "yes",
        RowState::Bound => "",
        RowState::Info => "info",
        RowState::NotApplicable | RowState::Unknown => "",
    }
}

/// The detail, then `; name: value` per input, then the lines left out.
fn detail_cell(r: &BoundRow) -> String {
    let w = words(r);
    let mut s = w.detail;
    for (name, value) in &w.inputs {
        s.push_str(&format!("; {name}: {value}"));
    }
    if !r.left_out.is_empty() {
        s.push_str(&format!(
            "; left out (no data): lines {}",
            fmt_lines(&r.left_out)
        ));
    }
    s
}

/// How [`render_styled`] lays the table out.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Wrap the table to this many columns (the Inputs/detail column wraps).
    pub width: Option<u16>,
    /// ANSI colour: the headline and the binding rows.
    pub color: bool,
}

/// ANSI bold red on, and reset.
const HEADLINE_ON: &str = "\x1b[1;31m";
const HEADLINE_OFF: &str = "\x1b[0m";

/// The bottleneck table with a headline: Limit, Cycles/iter (and % of the prediction),
/// Binds, Inputs/detail. No colour, no wrapping.
pub fn render_text(bounds: &Bounds, arch: &str) -> String {
    render_styled(bounds, arch, &Style::default())
}

/// [`render_text`] wrapped to `style.width` and coloured when `style.color`.
pub fn render_styled(bounds: &Bounds, arch: &str, style: &Style) -> String {
    let mut out = String::new();
    if style.color {
        out.push_str(HEADLINE_ON);
    }
    match (bounds.predicted, bounds.bottleneck) {
        (Some(p), Some(b)) => out.push_str(&format!(
            "Bottleneck analysis ({}): at least {} cycles per iteration, bound by {}\n",
            arch,
            fmt_num(p),
            label(b).to_lowercase()
        )),
        _ => out.push_str(&format!("Bottleneck analysis ({}): no bound known\n", arch)),
    }
    if style.color {
        // The reset goes before the newline so a pager never carries the colour over.
        out.pop();
        out.push_str(HEADLINE_OFF);
        out.push('\n');
    }
    let mut t = Table::new();
    t.load_style(ASCII_MARKDOWN);
    if style.color {
        t.enforce_styling();
    } else {
        t.force_no_tty();
    }
    t.set_header(vec!["#", "Limit", "Cycles/iter", "Binds", "Inputs/detail"]);
    // Rows are numbered in the order shown, once each (the speed-limit numbers of
    // `BoundKind::number` share 11 between the decoders and the microcode sequencer).
    for (n, r) in bounds.rows.iter().enumerate() {
        let mut binds = Cell::new(binds_cell(r));
        if style.color && r.binds {
            binds = binds.fg(Color::Red).add_attribute(Attribute::Bold);
        }
        t.add_row(vec![
            Cell::new(n + 1),
            Cell::new(label(r.kind)),
            Cell::new(cycles_cell(r, bounds.predicted)),
            binds,
            Cell::new(detail_cell(r)),
        ]);
    }
    super::super::fit::fit(&mut t, style.width, 4);
    out.push_str(&t.to_string());
    out.push('\n');
    out
}
