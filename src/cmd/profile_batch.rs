//! `suaca profile --batch FILE`: measure many hex blocks (BHive CSV or one per line) one
//! after the other and write one CSV row per block, in input order. A block that faults, that
//! cannot run, or a malformed line is a row with its status, never the end of the batch; nor
//! is a block whose clock check kept failing (a burst of noise from a VM's host): its row is
//! `refused`, and the blocks measured before and after it are kept.
//!
//! A block that ends with a conditional branch back to its first byte is a loop and runs as
//! one (`suaca::profile`); its row says so (`mode`, `loop_counter`, `loop_setup`).
//!
//! Owns: reading the blocks, the progress bar, the CSV (readable back by `suaca batch` and
//! the accuracy benchmark: `measured_cycles_per_iteration`), the summary on stderr.

use std::collections::BTreeMap;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use suaca::cli::ProfileArgs;
use suaca::measure::MeasureError;
use suaca::profile::{block_key, ProfileError, ProfileOptions, Profiler};

use super::batch::{read_input, write_output};
use crate::Failure;

/// The output header, in column order. `copies` holds a loop's iterations N/2N; the
/// `mode` (`block` or `loop`), `loop_counter` and `loop_setup` columns say how it ran.
pub const HEADER: [&str; 14] = [
    "line",
    "key",
    "hex",
    "measured_cycles_per_iteration",
    "spread",
    "copies",
    "instructions",
    "fault_pages",
    "status",
    "signal",
    "detail",
    "mode",
    "loop_counter",
    "loop_setup",
];

/// One output row.
#[derive(Default)]
struct Record {
    cycles: Option<f64>,
    spread: Option<f64>,
    copies: Option<(usize, usize)>,
    instructions: Option<usize>,
    fault_pages: Option<u32>,
    status: &'static str,
    signal: String,
    detail: String,
    mode: &'static str,
    loop_counter: String,
    loop_setup: String,
}

pub fn run(args: &ProfileArgs, opts: ProfileOptions) -> Result<(), Failure> {
    let input = args.batch.as_deref().unwrap_or("-".as_ref());
    let text = read_input(input)?;
    let parsed = suaca::batch::parse_input(&text);
    let mut profiler = Profiler::new(opts).map_err(Failure::analysis)?;
    let bar = ProgressBar::new(parsed.rows.len() as u64).with_style(
        ProgressStyle::with_template("[{elapsed_precise}] [{bar:40}] {pos}/{len} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    let start = Instant::now();
    let mut out = csv::Writer::from_writer(Vec::new());
    let csv_err = |e: csv::Error| Failure::analysis(format!("cannot format the CSV: {e}"));
    out.write_record(HEADER).map_err(csv_err)?;
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for row in &parsed.rows {
        let r = measure(&mut profiler, &row.hex, row.problem.as_deref())?;
        let class = match r.status {
            "fault" => format!("faulted: {}", r.signal),
            s => s.to_string(),
        };
        *counts.entry(class).or_default() += 1;
        let num =
            |v: Option<f64>, digits: usize| v.map_or(String::new(), |x| format!("{x:.digits$}"));
        out.write_record([
            row.line.to_string(),
            block_key(&row.hex),
            row.hex.clone(),
            num(r.cycles, 4),
            num(r.spread, 4),
            r.copies.map_or(String::new(), |(a, b)| format!("{a}/{b}")),
            r.instructions.map_or(String::new(), |n| n.to_string()),
            r.fault_pages.map_or(String::new(), |n| n.to_string()),
            r.status.to_string(),
            r.signal,
            r.detail,
            r.mode.to_string(),
            r.loop_counter,
            r.loop_setup,
        ])
        .map_err(csv_err)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    let bytes = out
        .into_inner()
        .map_err(|e| Failure::analysis(format!("cannot format the CSV: {e}")))?;
    write_output(&args.output, &bytes)?;
    let summary: Vec<String> = counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
    eprintln!(
        "suaca: profiled {} block(s) in {:.1} s on CPU {}: {}",
        parsed.rows.len(),
        start.elapsed().as_secs_f64(),
        profiler.cpu(),
        summary.join(", ")
    );
    Ok(())
}

/// Measures one row; only harness failures (not the block's) end the batch.
fn measure(profiler: &mut Profiler, hex: &str, problem: Option<&str>) -> Result<Record, Failure> {
    let invalid = |detail: String| Record {
        status: "invalid",
        detail,
        ..Record::default()
    };
    if let Some(p) = problem {
        return Ok(invalid(format!("malformed line: {p}")));
    }
    let instrs = match suaca::input::parse_hex(hex)
        .map_err(|e| e.to_string())
        .and_then(|b| suaca::decode::decode_bytes(&b, 0).map_err(|e| e.to_string()))
    {
        Ok(i) => i,
        Err(e) => return Ok(invalid(e)),
    };
    record_of(profiler.profile(&instrs), instrs.len())
}

/// The row of a profiled block; `Err` only for a harness failure that is not the block's and
/// would fail the next block too.
fn record_of(
    result: Result<suaca::profile::Measurement, ProfileError>,
    instructions: usize,
) -> Result<Record, Failure> {
    Ok(match result {
        Ok(m) => Record {
            cycles: Some(m.cycles_per_iteration),
            spread: Some(m.spread),
            copies: Some(m.copies),
            instructions: Some(m.instructions),
            fault_pages: Some(m.pages_mapped_on_fault),
            status: "ok",
            mode: if m.looped.is_some() { "loop" } else { "block" },
            loop_counter: m
                .looped
                .as_ref()
                .map_or(String::new(), |l| l.counter.clone()),
            loop_setup: m.looped.map_or(String::new(), |l| l.setup),
            ..Record::default()
        },
        Err(ProfileError::Fault(f)) => Record {
            instructions: Some(instructions),
            status: "fault",
            signal: f.signal.clone(),
            detail: f.to_string(),
            ..Record::default()
        },
        Err(ProfileError::Unsupported(why)) => Record {
            instructions: Some(instructions),
            status: "unsupported",
            detail: why,
            ..Record::default()
        },
        // A busy host may be quiet for the next block; a broken clock will not be.
        Err(ProfileError::Harness(MeasureError::Calibration(e))) if e.is_noise() => Record {
            instructions: Some(instructions),
            status: "refused",
            detail: format!("the host was too busy to time it: {e}"),
            ..Record::default()
        },
        Err(ProfileError::Harness(e)) => return Err(Failure::analysis(e)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use suaca::measure::CalibrationError;

    /// A block whose clock check kept failing on a busy host, or whose processes never
    /// agreed, is a `refused` row with the reason; a broken clock and other harness failures
    /// still end the batch.
    #[test]
    fn a_refused_clock_check_is_a_row_not_the_end() {
        let drift = CalibrationError::Drift {
            before: 0.70,
            after: 0.77,
            drift: 9.0,
            limit: 2.0,
        };
        let disagree = CalibrationError::Disagree {
            low: 1.0,
            high: 1.7,
            processes: 9,
            pct: 2.0,
        };
        for (e, why) in [
            (drift, "core clock unstable"),
            (disagree, "its 9 processes disagreed"),
        ] {
            let r = record_of(Err(MeasureError::Calibration(e).into()), 3)
                .unwrap_or_else(|_| panic!("a row"));
            assert_eq!(r.status, "refused");
            assert_eq!(r.instructions, Some(3));
            assert!(r.detail.starts_with("the host was too busy to time it: "));
            assert!(r.detail.contains(why), "{}", r.detail);
            assert!(r.cycles.is_none());
        }
        let harness = MeasureError::Harness(suaca::measure::HarnessError::IncompleteResult);
        assert!(record_of(Err(harness.into()), 3).is_err());
        let broken = MeasureError::Calibration(CalibrationError::Invalid(0.0));
        assert!(record_of(Err(broken.into()), 3).is_err());
    }
}
