//! The renamer's details that come from the data (false dependencies on a destination,
//! high-8 merge µops), single-port µops, how the data is read (same-register latencies,
//! indexed forms) and Golden Cove's divider port (fixture data: `testdata/xml/renamer.xml`).
#![forbid(unsafe_code)]

use crate::model_details::{near, run_on, throughput_on};

/// Block throughput of `hex` on `arch` with the fixture data (1000 iterations, `-p`).
fn throughput(arch: &str, hex: &str, extra: &[&str]) -> f64 {
    throughput_on("xml/renamer.xml", arch, hex, extra)
}

/// The JSON report's region of `hex` on `arch` with the fixture data.
fn json_report(arch: &str, hex: &str) -> serde_json::Value {
    let out = run_on("xml/renamer.xml", arch, hex, &["--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    v["regions"][0].clone()
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
    let edges = json_report("SKL", popcnt)["graphs"]["dependencies"]["edges"].to_string();
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

/// `vpsubq ymm2, ymm2, ymm1` unrolled on SKL (fixture: latency 1, and 0 with one register
/// in every operand): each copy reads the last one's ymm2, 1.00 a copy; the same-register
/// value is the zero idiom's (`vpsubq ymm2, ymm1, ymm1`), which waits for nothing: the
/// issue width's 0.25, not a chain.
#[test]
fn same_register_latency_needs_every_operand_alike() {
    assert!(near(throughput("SKL", "c5edfbd1", &[]), 1.0));
    assert!(throughput("SKL", "c5f5fbd1", &[]) < 0.5);
}

/// `vpmovzxbd ymm0, qword ptr [rdi+rax]` on SKL: the fixture's indexed group lists only the
/// load of its two µops; the plain form's p5 µop stands in for the missing one, so the line
/// uses p5 a cycle a copy and the port bound is p5's 1.00 (the load alone: two load ports'
/// 0.50, with a µop left without a port).
#[test]
fn an_indexed_form_keeps_the_plain_forms_uops() {
    let region = json_report("SKL", "c4e27d310407");
    assert_eq!(
        region["table"]["rows"][0]["stats"]["ports"][5], 1.0,
        "{region}"
    );
    let ports = region["bounds"]["rows"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["kind"] == "ports"))
        .expect("port bound");
    assert_eq!(ports["cycles"], 1.0, "{ports}");
}

/// `div rcx` unrolled on ADL-P (fixture: three µops on p1, 10 divider cycles, no latency, so
/// the copies are independent): Golden Cove divides integers on port 1, so each copy holds
/// the divider 10 cycles: 10.00 a copy (with the divider on port 0, where the data puts no
/// µop, only p1's 3.00 would bind).
#[test]
fn golden_cove_divides_integers_on_port_1() {
    assert!(near(throughput("ADL-P", "48f7f1", &[]), 10.0));
}
