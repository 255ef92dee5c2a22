//! Matcher coverage over the BHive development blocks (issue #3 item 4: ≥ 99.5% of the
//! occurrences whose variant has data must match).
//!
//! ```text
//! cargo run --release --example match_coverage [-- XML CSV] [--matches]
//! ```
//! Defaults: `../shared/data/uops/instructions.xml.zst` and
//! `../shared/data/bhive/bhive_dev.csv`. `--matches` also lists every matched form.
#![forbid(unsafe_code)]

mod coverage;

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let show_matches = args.iter().any(|a| a == "--matches");
    let paths: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let xml = paths.first().map_or_else(
        || PathBuf::from("../shared/data/uops/instructions.xml.zst"),
        PathBuf::from,
    );
    let csv = paths.get(1).map_or_else(
        || PathBuf::from("../shared/data/bhive/bhive_dev.csv"),
        PathBuf::from,
    );
    let report = match coverage::run(&xml, &csv) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("match_coverage: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("blocks:                       {}", report.blocks);
    println!(
        "undecodable blocks:           {}",
        report.undecodable_blocks
    );
    println!("occurrences:                  {}", report.occurrences);
    println!("matched:                      {}", report.matched);
    println!("unmatched, no data for arch:  {}", report.no_data);
    println!("unmatched, should match:      {}", report.failed);
    println!(
        "coverage:                     {:.2}%",
        100.0 * report.coverage()
    );
    println!("\nforms that did not match:");
    for (k, c) in coverage::sorted(&report.failures) {
        println!("{c:6}  {k}");
    }
    println!(
        "\nmatched variants without data for the arch (* = iform measured under another string):"
    );
    for ((k, other), c) in coverage::sorted(&report.no_data_forms) {
        println!("{c:6}  {k}{}", if other { "  *" } else { "" });
    }
    if show_matches {
        println!("\nmatches:");
        for (k, c) in coverage::sorted(&report.matches) {
            println!("{c:6}  {k}");
        }
    }
    ExitCode::SUCCESS
}
