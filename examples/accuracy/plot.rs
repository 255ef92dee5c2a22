//! The scatter plot: predicted vs measured cycles per iteration, log axes, one colour per
//! arch, the y = x diagonal and ±10% lines. Text uses DejaVu Sans compiled in (the `dejavu`
//! crate through plotters' `ab_glyph` feature), so no system font is needed.

use std::path::Path;
use std::sync::Once;

use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};

use crate::bench::{Outcome, Tool};

const PALETTE: [RGBColor; 6] = [
    RGBColor(214, 39, 40),
    RGBColor(31, 119, 180),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
];

fn register() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bytes are a valid TTF shipped by the crate; a failure only loses the text.
        let _ = register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular());
    });
}

/// Writes the scatter plot of `tool`'s predictions to `path` (PNG), atomically: plotters
/// renders into a temporary file beside it, whose bytes then replace `path` whole.
pub fn scatter(o: &Outcome, tool: Tool, path: &Path) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let tmp = tempfile::Builder::new()
        .prefix(".scatter-")
        .suffix(".png")
        .tempfile_in(dir)
        .map_err(|e| err(&e))?;
    draw(o, tool, tmp.path()).map_err(|e| err(&e))?;
    let png = std::fs::read(tmp.path()).map_err(|e| err(&e))?;
    suaca::fsutil::write_atomic(path, &png).map_err(|e| err(&e))
}

/// Renders the plot into the PNG file `path`.
fn draw(o: &Outcome, tool: Tool, path: &Path) -> Result<(), String> {
    register();
    let err = |e: &dyn std::fmt::Display| e.to_string();
    let points: Vec<(String, f64, f64)> = o
        .blocks
        .iter()
        .filter_map(|b| tool.of(b).map(|p| (b.arch.clone(), b.measured, p)))
        .filter(|&(_, m, p)| m > 0.0 && p > 0.0)
        .collect();
    let lo = points
        .iter()
        .map(|&(_, m, p)| m.min(p))
        .fold(f64::INFINITY, f64::min)
        .min(1.0)
        * 0.8;
    let hi = points
        .iter()
        .map(|&(_, m, p)| m.max(p))
        .fold(0.0, f64::max)
        .max(2.0)
        * 1.25;
    let root = BitMapBackend::new(path, (900, 860)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "{}: predicted vs measured (cycles per iteration)",
                tool.name()
            ),
            ("sans-serif", 22),
        )
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(60)
        .build_cartesian_2d((lo..hi).log_scale(), (lo..hi).log_scale())
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("measured")
        .y_desc("predicted")
        .label_style(("sans-serif", 15))
        .axis_desc_style(("sans-serif", 17))
        .draw()
        .map_err(|e| err(&e))?;
    for (factor, style) in [
        (1.0, BLACK.stroke_width(1)),
        (1.1, BLACK.mix(0.3).stroke_width(1)),
        (1.0 / 1.1, BLACK.mix(0.3).stroke_width(1)),
    ] {
        chart
            .draw_series(LineSeries::new(
                [(lo, lo * factor), (hi, hi * factor)],
                style,
            ))
            .map_err(|e| err(&e))?;
    }
    for (k, arch) in o.archs().iter().enumerate() {
        let colour = PALETTE[k % PALETTE.len()];
        let mine: Vec<(f64, f64)> = points
            .iter()
            .filter(|(a, _, _)| a == arch)
            .map(|&(_, m, p)| (m, p))
            .collect();
        let label = format!("{arch} ({} blocks)", mine.len());
        chart
            .draw_series(
                mine.into_iter()
                    .map(move |xy| Circle::new(xy, 3, colour.mix(0.6).filled())),
            )
            .map_err(|e| err(&e))?
            .label(label)
            .legend(move |(x, y)| Circle::new((x + 10, y), 4, colour.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font(("sans-serif", 16))
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}
