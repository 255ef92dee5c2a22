//! Builds the ZEN4 block set (issue #6 item 3; `scripts/measure_zen4.sh` drives it).
//!
//! ```text
//! cargo run --example zen4_set -- select [--tar FILE] [--count N] --out blocks.txt
//!     N distinct blocks of BHive's sources (smallest keys first), one hex per line
//! cargo run --example zen4_set -- publish --measured run1.csv [--repeat run2.csv] --out FILE
//!     `suaca profile --batch` outputs → the keyed file we commit (no block bytes), and
//!     the counts and the reproducibility between the two runs on stdout
//! cargo run --example zen4_set -- publish --passes p1.csv,p2.csv,… --out FILE
//!     separate passes over the whole set: a block's value is the median of its passes,
//!     `spread` the passes' (max − min) / median, `repeat_cycles_per_iteration` the second
//!     pass (status, signal and copies are the first pass's)
//! cargo run --example zen4_set -- moved --old OLD.csv --new NEW.csv --predictions CSV
//!     two measurements of the set (keyed files) against suaca's predictions
//!     (`target/accuracy/predictions.csv` of `scripts/accuracy.sh`): the blocks whose value
//!     moved by more than 5%, and how many moved towards the prediction
//! ```
#![forbid(unsafe_code)]

#[path = "accuracy/zen4.rs"]
#[allow(dead_code)]
mod zen4;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    match real_main() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("zen4_set: {e}");
            ExitCode::from(1)
        }
    }
}

fn real_main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let cmd = args
        .next()
        .ok_or("usage: zen4_set select|publish|moved ...")?;
    let mut opts: BTreeMap<String, String> = BTreeMap::new();
    while let Some(flag) = args.next() {
        let v = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        opts.insert(flag, v);
    }
    let get = |k: &str| opts.get(k).cloned();
    if cmd == "moved" {
        let path = |k: &str| {
            get(k)
                .map(PathBuf::from)
                .ok_or(format!("{k} FILE is required"))
        };
        return moved(&path("--old")?, &path("--new")?, &path("--predictions")?);
    }
    let out: PathBuf = get("--out").ok_or("--out FILE is required")?.into();
    match cmd.as_str() {
        "select" => {
            let tar: PathBuf = get("--tar").unwrap_or_else(|| zen4::TAR.into()).into();
            let count: usize = get("--count")
                .unwrap_or_else(|| "2000".into())
                .parse()
                .map_err(|_| "bad --count")?;
            let blocks = zen4::tar_blocks(&tar)?;
            let chosen = zen4::select(&blocks, count);
            let mut text = chosen.join("\n");
            text.push('\n');
            suaca::fsutil::write_atomic(&out, text.as_bytes()).map_err(|e| e.to_string())?;
            println!(
                "{} of {} distinct blocks -> {}",
                chosen.len(),
                blocks.len(),
                out.display()
            );
            Ok(())
        }
        "publish" if get("--passes").is_some() => {
            let files = get("--passes").unwrap_or_default();
            let passes: Vec<Vec<zen4::Measured>> = files
                .split(',')
                .map(|p| zen4::read_measured(&PathBuf::from(p)))
                .collect::<Result<_, _>>()?;
            let merged = median_of_passes(&passes)?;
            let second = passes.get(1).cloned().unwrap_or_default();
            publish(&merged, &second, &out)
        }
        "publish" => {
            let first = zen4::read_measured(&PathBuf::from(
                get("--measured").ok_or("--measured FILE is required")?,
            ))?;
            let repeat = match get("--repeat") {
                Some(p) => zen4::read_measured(&PathBuf::from(p))?,
                None => Vec::new(),
            };
            publish(&first, &repeat, &out)
        }
        other => Err(format!("unknown command `{other}`")),
    }
}

/// The first pass's rows with each block's median over the passes that measured it, and the
/// spread between those passes; a block the first pass refused (its clock check failed) but
/// another pass measured is `ok` with the others' median.
fn median_of_passes(passes: &[Vec<zen4::Measured>]) -> Result<Vec<zen4::Measured>, String> {
    let first = passes.first().ok_or("--passes names no file")?;
    let by_key: Vec<BTreeMap<&str, f64>> = passes
        .iter()
        .map(|p| {
            p.iter()
                .filter(|r| r.status == "ok")
                .filter_map(|r| r.cycles.map(|c| (r.key.as_str(), c)))
                .collect()
        })
        .collect();
    Ok(first
        .iter()
        .map(|r| {
            let mut row = r.clone();
            let values: Vec<f64> = by_key
                .iter()
                .filter_map(|m| m.get(r.key.as_str()).copied())
                .collect();
            let measurable = r.status == "ok" || r.status == "refused";
            if let (true, Some(mid)) = (measurable, suaca::batch::metrics::median(&values)) {
                row.status = "ok".to_string();
                let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                row.cycles = Some(mid);
                if values.len() > 1 {
                    row.spread = Some((hi - lo) / mid);
                }
            }
            row
        })
        .collect())
}

fn publish(first: &[zen4::Measured], repeat: &[zen4::Measured], out: &Path) -> Result<(), String> {
    let again: BTreeMap<&str, f64> = repeat
        .iter()
        .filter_map(|r| r.cycles.map(|c| (r.key.as_str(), c)))
        .collect();
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(zen4::HEADER).map_err(|e| e.to_string())?;
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut diffs = Vec::new();
    let mut spreads = Vec::new();
    let num = |v: Option<f64>| v.map_or(String::new(), |x| format!("{x:.4}"));
    // The keyed file keeps what `suaca profile --batch` wrote, minus hex and detail (they
    // contain BHive's bytes and disassembly).
    for r in first {
        let class = match r.status.as_str() {
            "fault" => format!("fault {}", r.signal),
            s => s.to_string(),
        };
        *counts.entry(class).or_default() += 1;
        let rep = again
            .get(r.key.as_str())
            .copied()
            .filter(|_| r.cycles.is_some());
        if let (Some(a), Some(b)) = (r.cycles, rep) {
            diffs.push((b - a).abs() / a.max(1e-9));
        }
        if let Some(s) = r.spread {
            spreads.push(s);
        }
        w.write_record([
            r.key.clone(),
            num(r.cycles),
            num(r.spread),
            r.copies.clone(),
            r.instructions.clone(),
            r.status.clone(),
            r.signal.clone(),
            num(rep),
        ])
        .map_err(|e| e.to_string())?;
    }
    let bytes = w.into_inner().map_err(|e| e.to_string())?;
    suaca::fsutil::write_atomic(out, &bytes).map_err(|e| e.to_string())?;
    println!("{} blocks -> {}", first.len(), out.display());
    for (k, n) in &counts {
        println!("  {k}: {n}");
    }
    let share = |v: &[f64], lim: f64| {
        100.0 * v.iter().filter(|&&d| d <= lim).count() as f64 / v.len().max(1) as f64
    };
    println!(
        "spread (between processes; between passes with --passes): <= 1% {:.1}%, <= 2% {:.1}%, <= 5% {:.1}% of {} measured",
        share(&spreads, 0.01),
        share(&spreads, 0.02),
        share(&spreads, 0.05),
        spreads.len()
    );
    if !diffs.is_empty() {
        diffs.sort_by(f64::total_cmp);
        println!(
            "repeat run: {} blocks measured twice; |difference| median {:.2}%, <= 1% {:.1}%, \
             <= 2% {:.1}%, <= 5% {:.1}%, max {:.1}%",
            diffs.len(),
            100.0 * diffs[diffs.len() / 2],
            share(&diffs, 0.01),
            share(&diffs, 0.02),
            share(&diffs, 0.05),
            100.0 * diffs[diffs.len() - 1]
        );
    }
    Ok(())
}

/// Prints how many blocks measured in both files moved by more than 5%, and how many of
/// those towards suaca's prediction (the accuracy benchmark's `predictions.csv`, ZEN4 rows
/// `zen4-KEY`).
fn moved(old: &Path, new: &Path, predictions: &Path) -> Result<(), String> {
    let values = |p: &Path| -> Result<BTreeMap<String, f64>, String> {
        Ok(zen4::read_measured(p)?
            .into_iter()
            .filter(|r| r.status == "ok")
            .filter_map(|r| r.cycles.map(|c| (r.key, c)))
            .collect())
    };
    let (before, after) = (values(old)?, values(new)?);
    let mut r = csv::Reader::from_path(predictions)
        .map_err(|e| format!("{}: {e}", predictions.display()))?;
    let headers = r.headers().map_err(|e| e.to_string())?.clone();
    let col = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .ok_or(format!("{}: no `{name}` column", predictions.display()))
    };
    let (case, suaca) = (col("case_id")?, col("suaca")?);
    let mut predicted = BTreeMap::new();
    for rec in r.records() {
        let rec = rec.map_err(|e| e.to_string())?;
        if let (Some(key), Ok(p)) = (rec[case].strip_prefix("zen4-"), rec[suaca].parse::<f64>()) {
            predicted.insert(key.to_string(), p);
        }
    }
    let (mut both, mut moved, mut towards) = (0, 0, 0);
    for (key, &b) in &before {
        let Some(&a) = after.get(key) else { continue };
        both += 1;
        if (a / b - 1.0).abs() <= 0.05 {
            continue;
        }
        moved += 1;
        if predicted
            .get(key)
            .is_some_and(|&p| (p - a).abs() < (p - b).abs())
        {
            towards += 1;
        }
    }
    println!(
        "{both} blocks measured in both; {moved} moved by more than 5%, {towards} of them \
         towards suaca's prediction"
    );
    Ok(())
}
