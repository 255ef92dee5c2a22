//! Fitting comfy-tables into a width: a table that fits is left exactly as the thesis lays
//! it out; a wider one first wraps the header words of its other columns (widest slack
//! first), never their values, and only then wraps its one flexible column (the instruction
//! or detail text).
//!
//! Owns: the width decision for every table suaca prints (main, detail, bottleneck).

use comfy_table::{ColumnConstraint, ContentArrangement, Table, Width};

/// Content widths of `t`'s columns: `natural` with whole header lines, `least` with the
/// header wrapped at its words (values never wrap).
fn content_widths(t: &mut Table) -> (Vec<usize>, Vec<usize>) {
    let columns = t.column_count();
    let mut natural = vec![0usize; columns];
    let mut least = vec![0usize; columns];
    let longest = |s: &str| s.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    for row in t.row_iter() {
        for (i, cell) in row.cell_iter().enumerate().take(columns) {
            let w = longest(&cell.content());
            natural[i] = natural[i].max(w);
            least[i] = least[i].max(w);
        }
    }
    if let Some(header) = t.header() {
        for (i, cell) in header.cell_iter().enumerate().take(columns) {
            let text = cell.content();
            natural[i] = natural[i].max(longest(&text));
            let word = text.split_whitespace().map(|w| w.chars().count()).max();
            least[i] = least[i].max(word.unwrap_or(0));
        }
    }
    (natural, least)
}

/// Printed width of columns of these content widths: one space of padding on each side and
/// one border after each column, plus the first border.
fn total(widths: &[usize]) -> usize {
    widths.iter().map(|c| c + 3).sum::<usize>() + 1
}

/// Whether `t` fits `width` with only header words wrapped, column `flexible` whole.
pub fn fits_unwrapped(t: &mut Table, width: Option<u16>, flexible: usize) -> bool {
    let Some(width) = width else { return true };
    let (natural, mut least) = content_widths(t);
    if let (Some(l), Some(&n)) = (least.get_mut(flexible), natural.get(flexible)) {
        *l = n;
    }
    total(&least) <= usize::from(width)
}

/// Lays `t` out for `width` columns (`None`: no limit); `flexible` is the column that may
/// wrap its content (out of range: none). Must be called after every row was added.
pub fn fit(t: &mut Table, width: Option<u16>, flexible: usize) {
    t.set_content_arrangement(ContentArrangement::Disabled);
    let Some(width) = width else { return };
    let columns = t.column_count();
    let (natural, least) = content_widths(t);
    let mut widths = natural.clone();
    let limit = usize::from(width);
    if total(&widths) <= limit {
        return;
    }
    // Take one column from the column with the most slack until it fits.
    while total(&widths) > limit {
        let slack = (0..columns)
            .filter(|&i| i != flexible && widths[i] > least[i])
            .max_by_key(|&i| (widths[i] - least[i], std::cmp::Reverse(i)));
        match slack {
            Some(i) => widths[i] -= 1,
            None => break,
        }
    }
    if flexible < columns && total(&widths) > limit {
        let others = total(&widths) - widths[flexible];
        widths[flexible] = limit.saturating_sub(others).max(8);
    }
    for (i, w) in widths.into_iter().enumerate() {
        if let Some(c) = t.column_mut(i) {
            // The constraint counts the padding.
            let w = u16::try_from(w + 2).unwrap_or(u16::MAX);
            c.set_constraint(ColumnConstraint::Absolute(Width::Fixed(w)));
        }
    }
    t.set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(width);
}
