//! The what-if runs on the BHive development split: a perfect front end (`-pf`) is never
//! slower than the real one. With ports bound at issue (the Skylake family) it was on 117 of
//! the first 150 SKL blocks before the load of a whole scheduler was split into issue
//! groups (`Plan::group_width`). Needs `../shared` (run from `.ci/run`).
#![forbid(unsafe_code)]

use suaca::analysis::{analyze_region, AnalysisOptions};
use suaca::batch;
use suaca::dataset::DataSource;
use suaca::sim::WhatIf;

use crate::common;

#[test]
#[ignore = "needs ../shared; run from .ci/run"]
fn a_perfect_front_end_is_never_slower_on_skl_blocks() {
    let Some((xml, csv)) = common::bhive_dev() else {
        return;
    };
    let cache = tempfile::tempdir().unwrap();
    let mut loaded = batch::load_models(&["SKL"], &[DataSource::ExplicitPath(xml)], cache.path());
    let model = loaded
        .models
        .remove(&batch::LoadedModels::key("SKL"))
        .expect("SKL loads");
    let text = std::fs::read_to_string(csv).unwrap();
    let rows: Vec<_> = batch::parse_input(&text)
        .rows
        .into_iter()
        .filter(|r| r.arch.as_deref() == Some("SKL") && r.problem.is_none())
        .take(150)
        .collect();
    assert_eq!(rows.len(), 150);
    let opts = AnalysisOptions {
        what_if: WhatIf {
            perfect_frontend: true,
            infinite_ports: false,
            no_deps: false,
        },
        ..AnalysisOptions::new(100)
    };
    let mut slower = Vec::new();
    for r in &rows {
        let region = suaca::input::region_from_hex(&r.hex).unwrap();
        let instrs = suaca::decode::decode_region(&region).unwrap();
        let descs: Vec<_> = instrs.iter().map(|i| model.db.describe(i).ok()).collect();
        let Ok(a) = analyze_region(&region, &instrs, &descs, &model.machine, &opts) else {
            continue;
        };
        let run = |pf: bool| {
            a.runs
                .iter()
                .find(|r| r.perfect_frontend == pf && !r.infinite_ports && !r.no_deps)
                .map(|r| r.throughput)
                .expect("the run")
        };
        let (real, perfect) = (run(false), run(true));
        if perfect > real * 1.03 {
            slower.push(format!("{}: {real:.2} -> {perfect:.2}", r.hex));
        }
    }
    assert!(
        slower.is_empty(),
        "{} slower with -pf: {slower:?}",
        slower.len()
    );
}
