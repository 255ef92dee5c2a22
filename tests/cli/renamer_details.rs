//! The renamer's details that come from the data (false dependencies on a destination,
//! high-8 merge µops) and single-port µops (fixture data: `testdata/xml/renamer.xml`, SKL, ICL).
#![forbid(unsafe_code)]

use crate::common::{suaca, testdata};
use crate::model_details::{near, throughput_on};

/// Block throughput of `hex` on `arch` with the fixture data (1000 iterations, `-p`).
fn throughput(arch: &str, hex: &str, extra: &[&str]) -> f64 {
    throughput_on("xml/renamer.xml", arch, hex, extra)
}

/// `popcnt rax, rbx` repeated: by hand, on SKL (the fixture's latency of 3 from the written
/// rax to itself, the erratum) each copy waits for the last one's rax: 3.00 a copy; without
/// the false dependency (`--no-false-deps`), or on ICL (no such latency), only port 1
/// binds: 1.00. `lzcnt rax, rbx` on SKL has that latency at 0 cycles (fixed there): 1.00.
/// The dependency graph names the new input.
#[test]
fn false_dependencies_come_from_the_data() {
    let popcnt = "f3480fb8c3";
    assert!(near(throughput("SKL", popcnt, &[]), 3.0));
    assert!(near(throughput("SKL", popcnt, &["--no-false-deps"]), 1.0));
    assert!(near(throughput("ICL", popcnt, &[]), 1.0));
    assert!(near(throughput("SKL", "f3480fbdc3", &[]), 1.0));
    let home = tempfile::tempdir().expect("tempdir");
    let xml = testdata("xml/renamer.xml");
    let out = suaca(
        &[
            "--uops-xml",
            xml.to_str().expect("utf-8"),
            "--arch",
            "SKL",
            "--json",
            "--hex",
            popcnt,
        ],
        home.path(),
    );
    assert!(out.status.success(), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let edges = v["regions"][0]["graphs"]["dependencies"]["edges"].to_string();
    assert!(edges.contains("\"rax\""), "{edges}");
}

/// `mov ah, bl; test eax, eax` ×3 unrolled on SKL: the first `test` reads rax whole after
/// the high byte was written alone, so one merge µop a copy (the later tests read the
/// merged register): 1 + 1 + 3 = 5 µops on p0156 and 5 issue slots a copy at 4 a cycle,
/// 1.25; without merges (`--no-high8-merge`) or on ICL (merged on write) 4 µops, 1.00.
/// `mov ah, bl; popcnt rax, rax`: the merge's cycle joins popcnt's chain, 3 + 1 = 4.00.
#[test]
fn a_whole_read_after_a_high_byte_write_gets_one_merge() {
    let tests = "88dc85c085c085c0";
    assert!(near(throughput("SKL", tests, &[]), 1.25));
    assert!(near(throughput("SKL", tests, &["--no-high8-merge"]), 1.0));
    assert!(near(throughput("ICL", tests, &[]), 1.0));
    assert!(near(throughput("SKL", "88dcf3480fb8c0", &[]), 4.0));
}

/// `vblendvps ymm0, ymm1, ymm2, ymm3; vblendvps ymm4, ymm1, ymm2, ymm3` unrolled on SKL
/// (fixture: two µops on p5 only each, independent): by hand four p5 µops a copy, one a
/// cycle: 4.00; with the thesis' rule (`--share-single-ports`) an instruction's two µops
/// share p5 in one cycle: 2.00.
#[test]
fn single_port_uops_take_a_cycle_each() {
    let blends = "c4e3754ac230c4e3754ae230";
    assert!(near(throughput("SKL", blends, &[]), 4.0));
    assert!(near(
        throughput("SKL", blends, &["--share-single-ports"]),
        2.0
    ));
}
