//! Plain-text rendering of the bottleneck table (ASCII, deterministic).

use comfy_table::{presets::ASCII_MARKDOWN, ContentArrangement, Table};

use super::{fmt_lines, fmt_num, BoundRow, Bounds, RowState};

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

fn detail_cell(r: &BoundRow) -> String {
    let mut s = r.detail.clone();
    for i in &r.inputs {
        s.push_str(&format!("; {}: {}", i.name, i.value));
    }
    if !r.left_out.is_empty() {
        s.push_str(&format!(
            "; left out (no data): lines {}",
            fmt_lines(&r.left_out)
        ));
    }
    s
}

/// The bottleneck table with a headline: Limit, Cycles/iter (and % of the prediction),
/// Binds, Inputs/detail.
pub fn render_text(bounds: &Bounds, arch: &str) -> String {
    let mut out = String::new();
    match (bounds.predicted, bounds.bottleneck) {
        (Some(p), Some(b)) => out.push_str(&format!(
            "Bottleneck analysis ({}): at least {} cycles per iteration, bound by {}\n",
            arch,
            fmt_num(p),
            b.label().to_lowercase()
        )),
        _ => out.push_str(&format!("Bottleneck analysis ({}): no bound known\n", arch)),
    }
    let mut t = Table::new();
    t.load_preset(ASCII_MARKDOWN)
        .set_content_arrangement(ContentArrangement::Disabled);
    t.set_header(vec!["#", "Limit", "Cycles/iter", "Binds", "Inputs/detail"]);
    for r in &bounds.rows {
        t.add_row(vec![
            r.kind.number().to_string(),
            r.kind.label().to_string(),
            cycles_cell(r, bounds.predicted),
            binds_cell(r).to_string(),
            detail_cell(r),
        ]);
    }
    out.push_str(&t.to_string());
    out.push('\n');
    out
}
