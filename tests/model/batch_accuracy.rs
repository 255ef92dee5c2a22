//! The accuracy benchmark (`examples/accuracy`) runs end to end on a slice of the BHive
//! development blocks, and its metrics are right on small known cases.
//!
//! The benchmark part needs the shared data next to the worktree (`../shared/data`); it skips
//! with a note otherwise. llvm-mca is left out here (its columns are tested by the example).
#![forbid(unsafe_code)]

use crate::{bench, plot, report, zen4};

use crate::common;

use std::path::Path;

use suaca::pipeline::ModelOptions;

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
    let Some((xml, csv)) = common::bhive_dev() else {
        return;
    };
    let out = tempfile::tempdir().unwrap();
    let opts = bench::Options {
        csvs: vec![bench::Measured::bhive(csv)],
        xml,
        cache: out.path().join("cache"),
        mca: None,
        scratch: out.path().to_path_buf(),
        limit: Some(25),
        model: ModelOptions::FULL,
        harnesses: true,
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

/// The accuracy the pipeline details (issue #7) and the front-end unit (issue #15) reached
/// does not regress: on the whole BHive development split, per arch, MAPE at most issue
/// #15's 5% and Kendall's tau at least its 0.94 (Skylake at most 4.9%, Haswell 3.8%, Ivy
/// Bridge 4.8%)
/// (measured when written: SKL 9.0% / 0.917, HSW 6.7% / 0.930,
/// IVB 8.5% / 0.911; with store forwarding counted once SKL 8.3% / 0.923, HSW 5.9% / 0.933,
/// IVB 6.8% / 0.919; with SKL's read-modify-write round trip and whole issue groups SKL
/// 7.57% / 0.926; 7.60% / 0.925 with readers of a synced rsp; 7.38% / 0.928 with serializing
/// instructions one at a time; SKL 7.04% / 0.933, HSW 5.86% / 0.934, IVB 6.42% / 0.920 with
/// failed store forwarding waiting for the commit; SKL 6.76% / 0.938, HSW 5.36% / 0.938, IVB
/// 5.86% / 0.926 with BHive's harness values; SKL 6.38% / 0.941, HSW 5.13% / 0.938, IVB
/// 5.73% / 0.925 with pointer chasing through rax..rdx and Skylake's forwarded loads; SKL
/// 6.14% / 0.941, HSW 4.73% / 0.941, IVB 5.53% / 0.926 with the pages BHive's timed run
/// enters; SKL 6.13% / 0.942, HSW 4.64% / 0.943, IVB 5.54% / 0.926 with move-elimination
/// slots; SKL 5.79% / 0.944, HSW 4.35% / 0.944, IVB 5.16% / 0.930 with the data's
/// complex-decoder marks; IVB 5.08% / 0.932 with L1 bank conflicts; SKL 5.69% / 0.944 with
/// read-modify-write chains at the memory-to-memory latency; SKL 5.58% / 0.945, HSW 4.23% /
/// 0.944, IVB 5.10% / 0.933 with loads through another page of BHive's one physical page
/// waiting for the store's commit; IVB 5.02% with each commit waited for once; SKL 5.01% /
/// 0.952, HSW 3.74% / 0.952, IVB 4.72% / 0.941 with a crossing last byte predecoded with its
/// block and Skylake's carry cycle; SKL 4.89% / 0.953 with Skylake's two page walks in
/// flight). SUACA's model stays far behind, as the thesis' model does
/// not know the stack engine (77% MAPE).
#[test]
fn full_model_accuracy_on_bhive_dev() {
    let Some((xml, csv)) = common::bhive_dev() else {
        return;
    };
    let out = tempfile::tempdir().unwrap();
    let run = |model| {
        bench::run(&bench::Options {
            csvs: vec![bench::Measured::bhive(csv.clone())],
            xml: xml.clone(),
            cache: out.path().join("cache"),
            mca: None,
            scratch: out.path().to_path_buf(),
            limit: None,
            model,
            harnesses: true,
        })
        .expect("benchmark runs")
    };
    let full = run(ModelOptions::FULL);
    for arch in full.archs() {
        let m = full.metrics(bench::Tool::Suaca, |b| b.arch == arch);
        assert!(m.mape <= 0.050, "{arch}: MAPE {}", m.mape);
        assert!(m.kendall_tau.unwrap_or(0.0) >= 0.940, "{arch}: {m:?}");
        let tighter = match arch.as_str() {
            "SKL" => 0.049,
            "HSW" => 0.038,
            "IVB" => 0.048,
            _ => 0.050,
        };
        assert!(m.mape <= tighter, "{arch}: MAPE {}", m.mape);
    }
    let suaca = run(ModelOptions::SUACA);
    let all = |o: &bench::Outcome| o.metrics(bench::Tool::Suaca, |_| true).mape;
    assert!(all(&suaca) > 3.0 * all(&full));
}

/// The ZEN4 block set (our measurements of BHive blocks on this project's Zen 4 host) against
/// the embedded ZEN4 data: MAPE at most 5.2% and Kendall's tau at least 0.932 (measured when
/// written: 10.8% / 0.892 on 1,924 blocks; llvm-mca-19: 67.0% / 0.786; 8.3% / 0.911 on 1,930
/// with store commit by cache line; 7.8% / 0.913 with NOPs taking no slot; 7.2% / 0.914 with
/// pushed values renamed; 7.0% / 0.916 with exact read-modify-write chains; 6.6% / 0.917
/// with partial loads merging in a cycle; 6.4% / 0.918 with 8-byte stores from xmm pairing;
/// 6.3% / 0.919 with CL shifts off the flags and stack slots renamed through rsp; 6.2% /
/// 0.919 with two-slot indexed stores; 6.17% / 0.919 with store forwarding counted once;
/// 6.12% / 0.920 with failed forwarding serialized; 6.14% / 0.921 with served loads one a
/// cycle; 5.93% / 0.925 with FP compares holding the ALUs; 5.90% / 0.925 with readers of a
/// synced rsp; 5.66% / 0.929 on the set measured again in three passes with line-aligned
/// base registers, 1,932 blocks; 5.62% / 0.929 with locked chains; 5.12% / 0.932 with
/// store commit by 32-byte block; 5.01% / 0.933 with loaded indexes named the same way;
/// 4.99% / 0.934 with 16-byte stores from xmm sharing a cycle; 4.94% / 0.934 with stack
/// operations on the last explicit rsp write and the L1 latency for loads without data;
/// 4.91% / 0.935 predicted with the profiler's harness values).
#[test]
fn zen4_block_set_accuracy() {
    let Some((xml, _)) = common::bhive_dev() else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tar = root.join(zen4::TAR);
    if !tar.exists() {
        eprintln!("skipped: {} is missing", tar.display());
        return;
    }
    let (joined, stats) = zen4::join(&root.join(zen4::MEASURED), &tar).expect("joins");
    assert!(stats.joined >= 1900, "{}", stats.joined);
    let out = tempfile::tempdir().unwrap();
    let csv = out.path().join("zen4.csv");
    std::fs::write(&csv, joined).unwrap();
    let o = bench::run(&bench::Options {
        csvs: vec![bench::Measured::own(csv, "ZEN4")],
        xml,
        cache: out.path().join("cache"),
        mca: None,
        scratch: out.path().to_path_buf(),
        limit: None,
        model: ModelOptions::FULL,
        harnesses: true,
    })
    .expect("benchmark runs");
    let m = o.metrics(bench::Tool::Suaca, |b| b.arch == "ZEN4");
    assert!(m.mape <= 0.052, "ZEN4: MAPE {}", m.mape);
    assert!(m.kendall_tau.unwrap_or(0.0) >= 0.932, "ZEN4: {m:?}");
}

/// The committed ZEN4 block set holds our measurements only: keys, no block bytes, and
/// every row is consistent with its status.
#[test]
fn zen4_block_set_is_keyed_without_block_bytes() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(zen4::MEASURED);
    let mut r = csv::Reader::from_path(&path).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    assert_eq!(header, zen4::HEADER, "no `hex` or disassembly column");
    let rows = zen4::read_measured(&path).unwrap();
    assert_eq!(rows.len(), 2000);
    let keys: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(keys.len(), rows.len(), "distinct blocks");
    for r in &rows {
        assert!(
            r.key.len() == 16 && r.key.bytes().all(|b| b.is_ascii_hexdigit()),
            "{r:?}"
        );
        match r.status.as_str() {
            "ok" => assert!(
                r.cycles.is_some_and(|c| c > 0.0) && r.signal.is_empty(),
                "{r:?}"
            ),
            "fault" => assert!(r.cycles.is_none() && r.signal.starts_with("SIG"), "{r:?}"),
            "unsupported" => assert!(r.cycles.is_none(), "{r:?}"),
            other => panic!("status {other}: {r:?}"),
        }
    }
    // The keys are the selection's: the smallest keys, in order.
    let mut sorted: Vec<&str> = rows.iter().map(|r| r.key.as_str()).collect();
    sorted.sort_unstable();
    assert!(rows.iter().map(|r| r.key.as_str()).eq(sorted));
}

/// Joined with BHive's sources, every measured key finds its block, and the benchmark
/// predicts the ZEN4 rows with the embedded ZEN4 data (needs `../shared`).
#[test]
#[ignore = "needs ../shared/data/bhive"]
fn zen4_block_set_joins_with_bhive_sources() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let measured = root.join(zen4::MEASURED);
    let tar = root.join(zen4::TAR);
    let xml = root.join("../shared/data/uops/instructions.xml.zst");
    let (csv, stats) = zen4::join(&measured, &tar).unwrap();
    let ok = zen4::read_measured(&measured)
        .unwrap()
        .iter()
        .filter(|r| r.status == "ok")
        .count();
    assert_eq!((stats.joined, stats.unknown_keys), (ok, 0));
    assert_eq!(stats.not_measured.values().sum::<usize>() + ok, stats.rows);
    let out = tempfile::tempdir().unwrap();
    let joined = out.path().join("zen4.csv");
    std::fs::write(&joined, csv).unwrap();
    let opts = bench::Options {
        csvs: vec![bench::Measured::own(joined, "ZEN4")],
        xml,
        cache: out.path().join("cache"),
        mca: None,
        scratch: out.path().to_path_buf(),
        limit: Some(100),
        model: ModelOptions::FULL,
        harnesses: true,
    };
    let o = bench::run(&opts).expect("benchmark runs");
    assert_eq!(o.archs(), ["ZEN4"]);
    let m = o.metrics(bench::Tool::Suaca, |_| true);
    assert_eq!(m.blocks, 100);
    assert!(m.coverage() > 0.9, "{m:?}");
}
