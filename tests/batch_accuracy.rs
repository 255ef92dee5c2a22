//! The accuracy benchmark (`examples/accuracy`) runs end to end on a slice of the BHive
//! development blocks, and its metrics are right on small known cases.
//!
//! The benchmark part needs the shared data next to the worktree (`../shared/data`); it skips
//! with a note otherwise. llvm-mca is left out here (its columns are tested by the example).
#![forbid(unsafe_code)]

#[path = "../examples/accuracy/bench.rs"]
#[allow(dead_code)]
mod bench;
#[path = "../examples/accuracy/mca.rs"]
#[allow(dead_code)]
mod mca;
#[path = "../examples/accuracy/plot.rs"]
#[allow(dead_code)]
mod plot;
#[path = "../examples/accuracy/report.rs"]
#[allow(dead_code)]
mod report;

use std::path::Path;

use suaca::analysis::details::ModelOptions;

use suaca::batch::metrics::{kendall_tau, median, Metrics};

#[test]
fn metrics_on_known_cases() {
    // Perfect ranking, one inversion, ties (τ-b): see also the unit tests in src/batch.
    let perfect = [(1.0, 2.0), (2.0, 4.0), (3.0, 6.0)];
    assert_eq!(kendall_tau(&perfect), Some(1.0));
    let one_inversion = [(1.0, 1.0), (2.0, 3.0), (3.0, 2.0)];
    assert!((kendall_tau(&one_inversion).unwrap() - 1.0 / 3.0).abs() < 1e-12);
    let m = Metrics::of(3, &[(1.0, 1.0), (3.0, 2.0), (0.9, 1.0)]);
    // APEs 0, 0.5, 0.1.
    assert!((m.mape - 0.2).abs() < 1e-12);
    assert!((m.median_ape - 0.1).abs() < 1e-12);
    assert!((m.within_10 - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(median(&[]), None);
}

#[test]
fn benchmark_runs_on_bhive_dev_slice() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    let xml = root.join("uops/instructions.xml.zst");
    let csv = root.join("bhive/bhive_dev.csv");
    if !xml.exists() || !csv.exists() {
        eprintln!("skipped: {} or {} is missing", xml.display(), csv.display());
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let opts = bench::Options {
        csvs: vec![(csv, "SKL".into())],
        xml,
        cache: out.path().join("cache"),
        mca: None,
        scratch: out.path().to_path_buf(),
        limit: Some(25),
        model: ModelOptions::FULL,
    };
    let o = bench::run(&opts).expect("benchmark runs");
    assert_eq!(o.blocks.len(), 75, "25 blocks of each of SKL, HSW, IVB");
    assert_eq!(o.archs().len(), 3);
    for arch in o.archs() {
        let m = o.metrics(bench::Tool::Suaca, |b| b.arch == arch);
        assert_eq!(m.blocks, 25);
        assert!(m.coverage() > 0.9, "{arch}: {m:?}");
        assert!(
            m.mape.is_finite() && m.kendall_tau.is_some(),
            "{arch}: {m:?}"
        );
    }
    let table = report::accuracy_table(&o);
    assert!(
        table.contains("Kendall tau") && table.contains("SKL"),
        "{table}"
    );
    assert!(report::class_tables(&o).contains("Block feature"));
    let png = out.path().join("scatter.png");
    plot::scatter(&o, bench::Tool::Suaca, &png).expect("plot");
    assert!(std::fs::metadata(&png).unwrap().len() > 1000);
}

/// The accuracy the pipeline details reached (issue #7) does not regress: on the whole BHive
/// development split, per arch, MAPE at most 12% and Kendall's tau at least 0.88 (measured
/// when written: SKL 9.6% / 0.907, HSW 9.6% / 0.902, IVB 11.1% / 0.891). SUACA's model stays
/// far behind, as the thesis' model does not know the stack engine (77% MAPE).
#[test]
fn full_model_accuracy_on_bhive_dev() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    let xml = root.join("uops/instructions.xml.zst");
    let csv = root.join("bhive/bhive_dev.csv");
    if !xml.exists() || !csv.exists() {
        eprintln!("skipped: {} or {} is missing", xml.display(), csv.display());
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let run = |model| {
        bench::run(&bench::Options {
            csvs: vec![(csv.clone(), "SKL".into())],
            xml: xml.clone(),
            cache: out.path().join("cache"),
            mca: None,
            scratch: out.path().to_path_buf(),
            limit: None,
            model,
        })
        .expect("benchmark runs")
    };
    let full = run(ModelOptions::FULL);
    for arch in full.archs() {
        let m = full.metrics(bench::Tool::Suaca, |b| b.arch == arch);
        assert!(m.mape <= 0.12, "{arch}: MAPE {}", m.mape);
        assert!(m.kendall_tau.unwrap_or(0.0) >= 0.88, "{arch}: {m:?}");
    }
    let suaca = run(ModelOptions::SUACA);
    let all = |o: &bench::Outcome| o.metrics(bench::Tool::Suaca, |_| true).mape;
    assert!(all(&suaca) > 3.0 * all(&full));
}
