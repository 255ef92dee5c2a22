//! The cheap steady-state methods agree with BHive's literal one, separate runs of N and 2N
//! copies (see `src/batch/steady.rs`), on the BHive development blocks of SKL, HSW and IVB
//! (every 4th block in debug builds, to keep the test short).
//!
//! Measured on all 1,217 blocks: the one-run method is identical for 1,215 and differs by
//! 0.03 and 0.01 cycles per iteration for the other two; the extrapolation is identical to
//! the one-run method for every block (before SKL bound ports at issue; since then one SKL
//! block of every 4th gives 3.00 for 3.02).
//!
//! Needs `../shared/data`; skips with a note otherwise.
#![forbid(unsafe_code)]

use crate::common;

use suaca::batch::{self, BlockResult, Method, PredictOptions};
use suaca::dataset::DataSource;

fn with(method: Method) -> PredictOptions {
    PredictOptions {
        method,
        ..PredictOptions::default()
    }
}

fn cycles(results: &[BlockResult]) -> Vec<(u64, u64, f64)> {
    results
        .iter()
        .map(|r| {
            let p = r.outcome.as_ref().expect("every dev block is predicted");
            (p.cycles_n, p.cycles_2n, p.cycles_per_iteration)
        })
        .collect()
}

/// The SKL, HSW and IVB models of the reference data `xml`.
fn intel_models(xml: std::path::PathBuf) -> batch::LoadedModels {
    let cache = tempfile::tempdir().unwrap();
    let models = batch::load_models(
        &["SKL", "HSW", "IVB"],
        &[DataSource::ExplicitPath(xml)],
        cache.path(),
    );
    assert!(models.failed.is_empty(), "{:?}", models.failed);
    models
}

#[test]
fn cheap_methods_equal_two_runs_on_bhive_dev() {
    let Some((xml, csv)) = common::bhive_dev() else {
        return;
    };
    let models = intel_models(xml);
    let text = std::fs::read_to_string(csv).unwrap();
    let step = if cfg!(debug_assertions) { 4 } else { 1 };
    let rows: Vec<_> = batch::parse_input(&text)
        .rows
        .into_iter()
        .step_by(step)
        .collect();
    let run = |m| cycles(&batch::run(rows.clone(), &models, "SKL", &with(m)));
    let (extrapolated, one, two) = (
        run(Method::Extrapolate),
        run(Method::OneRun),
        run(Method::TwoRuns),
    );
    assert!(two.len() > 250);
    // Exact but for rare blocks whose transient looks periodic (one SKL block of every 4th
    // with ports bound at issue: 3.00 instead of 3.02).
    let exact = extrapolated
        .iter()
        .zip(&one)
        .filter(|(a, b)| a == b)
        .count();
    assert!(exact * 100 >= one.len() * 99, "{exact} of {}", one.len());
    for (((_, _, e), (_, _, o)), row) in extrapolated.iter().zip(&one).zip(&rows) {
        assert!((e - o).abs() <= 0.01 * o, "{e} vs {o}: {}", row.hex);
    }
    let identical = one.iter().zip(&two).filter(|(a, b)| a == b).count();
    assert!(
        identical * 100 >= two.len() * 99,
        "{identical} of {}",
        two.len()
    );
    for ((_, b2n, s), (_, c2n, t)) in one.iter().zip(&two) {
        assert_eq!(b2n, c2n);
        assert!((s - t).abs() <= 0.01 * t, "{s} vs {t}");
    }
}

/// The extrapolation against one run of 2N copies on more blocks than the development
/// split: the hex-per-line file `SUACA_STEADY_BLOCKS` (default `target/batch-speed/blocks.txt`,
/// the 5,000 BHive blocks `scripts/batch_speed.sh` writes), SKL, HSW and IVB. Prints, per
/// arch, how many blocks are identical and the largest difference. Slow (a minute); run
/// with `cargo test --release --test model -- --ignored extrapolation_on_more_blocks
/// --nocapture`.
#[test]
#[ignore = "slow; needs a block file (scripts/batch_speed.sh writes one)"]
fn extrapolation_on_more_blocks() {
    let Some((xml, _)) = common::bhive_dev() else {
        return;
    };
    let path = std::env::var("SUACA_STEADY_BLOCKS")
        .unwrap_or_else(|_| "target/batch-speed/blocks.txt".to_string());
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipped: no block file {path} (run scripts/batch_speed.sh)");
        return;
    };
    let models = intel_models(xml);
    let rows = batch::parse_input(&text).rows;
    for arch in ["SKL", "HSW", "IVB"] {
        let run = |m| batch::run(rows.clone(), &models, arch, &with(m));
        let (extrapolated, one) = (run(Method::Extrapolate), run(Method::OneRun));
        let pairs: Vec<(f64, f64)> = extrapolated
            .iter()
            .zip(&one)
            .zip(&rows)
            .filter_map(|((e, o), row)| {
                let e = e.outcome.as_ref().ok()?.cycles_per_iteration;
                let o = o.outcome.as_ref().ok()?.cycles_per_iteration;
                if (e - o).abs() > 0.02 * o {
                    println!("{arch} {}: {e} against {o}", row.hex);
                }
                Some((e, o))
            })
            .collect();
        let identical = pairs.iter().filter(|(e, o)| e == o).count();
        let worst = pairs
            .iter()
            .map(|(e, o)| (e - o).abs() / o.max(1e-9))
            .fold(0.0, f64::max);
        println!(
            "{arch}: {identical} of {} identical, largest difference {:.1}%",
            pairs.len(),
            worst * 100.0
        );
        assert!(identical * 100 >= pairs.len() * 99, "{arch}");
    }
}
