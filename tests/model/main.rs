//! Library-level tests of the model: instruction data (uops.info XML, the embedded index), matching, bounds, input formats, and the accuracy benchmarks (BHive blocks, compiled loops; their long runs are ignored by default and run from `.ci/run`).
#![forbid(unsafe_code)]

#[path = "../common/mod.rs"]
mod common;

// The benchmark programs' modules (examples/), shared by the accuracy tests; they refer to
// one another from the crate root, as in their examples.
#[path = "../../examples/loop_set/accuracy.rs"]
#[allow(dead_code)]
mod accuracy;
#[path = "../../examples/accuracy/bench.rs"]
#[allow(dead_code)]
mod bench;
#[path = "../../examples/accuracy/mca.rs"]
#[allow(dead_code)]
mod mca;
#[path = "../../examples/loop_set/pick.rs"]
#[allow(dead_code)]
mod pick;
#[path = "../../examples/accuracy/plot.rs"]
#[allow(dead_code)]
mod plot;
#[path = "../../examples/loop_set/predict.rs"]
#[allow(dead_code)]
mod predict;
#[path = "../../examples/accuracy/report.rs"]
#[allow(dead_code)]
mod report;
#[path = "../../examples/loop_set/set.rs"]
#[allow(dead_code)]
mod set;
#[path = "../../examples/accuracy/zen4.rs"]
#[allow(dead_code)]
mod zen4;

mod batch_accuracy;
mod batch_steady;
mod bounds_examples;
mod dataset_full;
mod dataset_index;
mod dataset_sources;
mod db_coverage;
mod db_desc;
mod db_match;
mod input_formats;
mod loop_set;
mod matcher_paths;
mod measured_mtl_p;
mod measured_zen4;
mod measured_zen4_frontend;
mod measured_zen4_ports;
mod uarch_load;
mod uarch_sources;
mod uopsxml_full;
mod uopsxml_ports;
mod uopsxml_read;
mod uopsxml_write;
mod what_if_dev;
mod zen4_fixtures;
