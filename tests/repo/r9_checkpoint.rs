//! Issue #9, `suaca measure` killed and resumed: the checkpoint (JSON lines, appended and
//! synced per batch) cut at any byte — what a kill leaves — and resumed gives exactly the
//! records of an uninterrupted run. Tests `measure::checkpoint` as `measure::run` uses it
//! (load the finished keys, `append_to`, push the rest); a kill of the real command on real
//! hardware is not part of `cargo test` (it needs the measuring CPU).
#![forbid(unsafe_code)]

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use suaca::measure::checkpoint::{self, Checkpoint, Header};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Rec {
    uops: u32,
    ports: String,
    latency: Option<f64>,
}

fn header() -> Header {
    Header {
        arch: "ZEN4".into(),
        cpu: "test".into(),
        version: "0".into(),
    }
}

fn records() -> Vec<(String, Rec)> {
    (0..40u32)
        .map(|i| {
            (
                format!("VARIANT_{i} (R64, M64)"),
                Rec {
                    uops: i % 5 + 1,
                    ports: format!("{}*p{}", i % 3 + 1, i % 4),
                    latency: (i % 7 != 0).then_some(f64::from(i) / 4.0),
                },
            )
        })
        .collect()
}

/// Runs "the measurement" from whatever `path` holds: resume when it exists, push every
/// record not finished yet, syncing every 3 records (a batch).
fn run(path: &std::path::Path) -> HashMap<String, Rec> {
    let (mut cp, done): (Checkpoint, HashMap<String, Rec>) = if path.exists() {
        let (h, done) = checkpoint::load(path).expect("loads");
        match h {
            Some(h) => {
                assert_eq!(h, header());
                (Checkpoint::append_to(path).expect("appends"), done)
            }
            // Killed before the header was whole: start over.
            None => (
                Checkpoint::create(path, &header()).expect("creates"),
                HashMap::new(),
            ),
        }
    } else {
        (
            Checkpoint::create(path, &header()).expect("creates"),
            HashMap::new(),
        )
    };
    for (n, (key, rec)) in records().iter().enumerate() {
        if done.contains_key(key) {
            continue;
        }
        cp.push(key, rec).expect("pushes");
        if n % 3 == 2 {
            cp.sync().expect("syncs");
        }
    }
    cp.sync().expect("syncs");
    checkpoint::load(path).expect("loads").1
}

#[test]
fn r9_measure_checkpoint_killed_anywhere_resumes_to_the_same_result() {
    let dir = tempfile::tempdir().expect("tempdir");
    let full_path = dir.path().join("full.jsonl");
    let expected: HashMap<String, Rec> = records().into_iter().collect();
    assert_eq!(run(&full_path), expected);
    let bytes = std::fs::read(&full_path).expect("reads");
    // A kill can stop a write at any byte: cut around every line end (torn, whole, whole
    // plus a torn start) and at a stride in between; then a second kill after the resume.
    // (Every byte works too, but each run syncs: that takes minutes.)
    let mut cuts: Vec<usize> = (0..=bytes.len()).step_by(41).collect();
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'\n' {
            cuts.extend([i, i + 1, i + 2]);
        }
    }
    cuts.push(bytes.len());
    cuts.retain(|&c| c <= bytes.len());
    cuts.sort_unstable();
    cuts.dedup();
    for cut in cuts {
        let path = dir.path().join("cut.jsonl");
        std::fs::write(&path, &bytes[..cut]).expect("writes");
        assert_eq!(run(&path), expected, "cut at byte {cut}");
        // Killed again mid-resume: cut the resumed file somewhere in its tail.
        let resumed = std::fs::read(&path).expect("reads");
        let again = cut + (resumed.len() - cut) / 2;
        std::fs::write(&path, &resumed[..again]).expect("writes");
        assert_eq!(run(&path), expected, "cut at {cut}, then at {again}");
    }
}
