//! `suaca batch` end to end (issue #6 items 2 and 5): input formats, order, per-block errors,
//! malformed lines with their numbers, the steady-state prediction, determinism across thread
//! counts. Uses only our own fixtures (`testdata/batch`, `testdata/xml/thesis.xml`).
#![forbid(unsafe_code)]

use std::path::Path;

use crate::common::{suaca, testdata};

fn batch(extra: &[&str], home: &Path) -> (bool, String, String) {
    let xml = testdata("xml/thesis.xml");
    let mut args = vec!["batch", "--uops-xml", xml.to_str().unwrap()];
    args.extend_from_slice(extra);
    let out = suaca(&args, home);
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The CSV as records of fields (the csv crate undoes the quoting).
fn records(text: &str) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

fn column(header: &[String], name: &str) -> usize {
    header.iter().position(|h| h == name).unwrap()
}

#[test]
fn bhive_csv_in_order_with_errors_as_rows() {
    let home = tempfile::tempdir().unwrap();
    let input = testdata("batch/blocks.csv");
    let (ok, out, err) = batch(&["-i", input.to_str().unwrap()], home.path());
    assert!(ok, "a batch with bad rows still succeeds: {err}");
    let rows = records(&out);
    let h = &rows[0];
    assert_eq!(
        &h[..4],
        &["hex", "arch", "cycles_per_iteration", "bottleneck"]
    );
    let (case, line, error) = (column(h, "case_id"), column(h, "line"), column(h, "error"));
    let cases: Vec<&str> = rows[1..].iter().map(|r| r[case].as_str()).collect();
    assert_eq!(
        cases,
        [
            "adc-chain",
            "add",
            "mov6",
            "badhex",
            "undecodable",
            "nodata",
            "malformed",
            "unknown-arch",
            "partial"
        ],
        "input order"
    );
    let by_case = |c: &str| rows.iter().find(|r| r[case] == c).unwrap();
    assert!(by_case("badhex")[error].contains("invalid hex"));
    assert!(by_case("undecodable")[error].contains("cannot decode"));
    assert!(by_case("nodata")[error].contains("no instruction of the block has data"));
    assert!(by_case("unknown-arch")[error].contains("XYZ"));
    let bad = by_case("malformed");
    assert_eq!(bad[line], "9", "the blank line 7 counts");
    assert!(bad[error].contains("malformed"));
    assert!(
        err.contains("line 9:"),
        "malformed lines are warned with their number: {err}"
    );
    // A block with one instruction without data is predicted, and says so.
    let partial = by_case("partial");
    assert_eq!(partial[error], "");
    assert_eq!(partial[column(h, "unsupported")], "1");
    assert_eq!(partial[column(h, "instructions")], "2");
    // Measurements are echoed per iteration (BHive's value / 100).
    assert_eq!(
        by_case("mov6")[column(h, "measured_cycles_per_iteration")],
        "1.5"
    );
}

#[test]
fn prediction_is_the_steady_state_difference() {
    let home = tempfile::tempdir().unwrap();
    let input = testdata("batch/blocks.csv");
    let (_, out, _) = batch(
        &["-i", input.to_str().unwrap(), "--loop", "50"],
        home.path(),
    );
    let rows = records(&out);
    let h = &rows[0];
    let c = |r: &Vec<String>, n: &str| r[column(h, n)].parse::<f64>().unwrap();
    let mut predicted = 0;
    for r in rows[1..]
        .iter()
        .filter(|r| r[column(h, "error")].is_empty())
    {
        let steady = (c(r, "sim_cycles_2n") - c(r, "sim_cycles_n")) / 50.0;
        assert!(
            (c(r, "cycles_per_iteration") - steady).abs() < 1e-4,
            "{r:?}"
        );
        predicted += 1;
    }
    assert_eq!(predicted, 4);
    let adc = rows.iter().find(|r| r[column(h, "case_id")] == "adc-chain");
    // Two dependent `adc rax, 1` per copy on SKL (thesis data: 1 cycle each): the chain.
    let adc = adc.unwrap();
    assert_eq!(adc[column(h, "cycles_per_iteration")], "2");
    assert_eq!(adc[column(h, "bottleneck")], "dep_chain");
}

#[test]
fn plain_lines_from_stdin_and_thread_count_does_not_matter() {
    let home = tempfile::tempdir().unwrap();
    let xml = testdata("xml/thesis.xml");
    let text = "# one block per line\n4801d8\n\n48 01 d8\n4801\n";
    let run = |jobs: &str| {
        let out = assert_cmd::Command::cargo_bin("suaca")
            .unwrap()
            .env("SUACA_HOME", home.path())
            .env_remove("SUACA_UOPS_XML")
            .args(["batch", "--uops-xml", xml.to_str().unwrap()])
            .args(["--arch", "snb", "--jobs", jobs])
            .write_stdin(text)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let one = run("1");
    assert_eq!(one, run("2"), "deterministic, in input order");
    let rows = records(&one);
    let lines: Vec<&str> = rows[1..].iter().map(|r| r[6].as_str()).collect();
    assert_eq!(lines, ["2", "4", "5"]);
    assert_eq!(rows[1][1], "SNB");
    assert_eq!(rows[1][2], "1");
    assert!(rows[3][12].contains("cannot decode"), "{:?}", rows[3]);
}

#[test]
fn output_file_and_bad_options() {
    let home = tempfile::tempdir().unwrap();
    let input = testdata("batch/blocks.csv");
    let out_path = home.path().join("out.csv");
    let (ok, stdout, _) = batch(
        &[
            "-i",
            input.to_str().unwrap(),
            "-o",
            out_path.to_str().unwrap(),
        ],
        home.path(),
    );
    assert!(ok && stdout.is_empty());
    assert_eq!(
        records(&std::fs::read_to_string(&out_path).unwrap()).len(),
        10
    );
    let out = suaca(&["batch", "--loop", "0"], home.path());
    assert_eq!(out.status.code(), Some(2));
    let out = suaca(&["batch", "-i", "/nonexistent/blocks.csv"], home.path());
    assert_eq!(out.status.code(), Some(2));
}

/// One pipeline assembly (issue #15 item 3): `suaca batch` and the analyzer build a block's
/// model in the same place, so N copies simulate to the same cycles either way (the
/// analyzer's plain run at `--loop N` against the batch's `sim_cycles_n`), on the embedded
/// ZEN4 data: straight-line blocks (a load chain, stores, a long one past the legacy
/// decoders) and a loop ending in its own back branch.
#[test]
fn batch_and_the_analyzer_simulate_the_same_model() {
    let home = tempfile::tempdir().unwrap();
    let blocks = [
        "488b6b684989c5488b7d6040f6c701",
        "48890389ac24d0000000c744245000000000",
        "4863c531d248637424644885c04d89f9480f48c2",
        "4801c84883c0014839d075f4",
    ];
    let input = home.path().join("blocks.txt");
    std::fs::write(&input, blocks.join("\n") + "\n").unwrap();
    let out = suaca(
        &[
            "batch",
            "--arch",
            "ZEN4",
            "--loop",
            "50",
            "-i",
            input.to_str().unwrap(),
        ],
        home.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = records(&String::from_utf8(out.stdout).unwrap());
    let col = |name: &str| rows[0].iter().position(|c| c == name).unwrap();
    for (row, hex) in rows[1..].iter().zip(blocks) {
        let batch_n: u64 = row[col("sim_cycles_n")].parse().unwrap();
        let out = suaca(
            &[
                "--arch", "ZEN4", "--loop", "50", "-p", "--json", "--hex", hex,
            ],
            home.path(),
        );
        assert!(out.status.success(), "{hex}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let cycles = v["regions"][0]["runs"][0]["cycles"].as_u64().unwrap();
        assert_eq!(cycles, batch_n, "{hex}");
    }
}

/// The `bottleneck` column names the limit that explains the predicted number (within 5%),
/// else `scheduling`, and `bound_cycles` is that limit's figure: four loads and moves are
/// issue-bound (4 macro-ops / 6 = 0.67, predicted 0.67); `sub dword ptr [rsp+0x5c], 1` chains
/// through memory at 1.00 a copy, the chain row following the simulation's memory edge; the
/// program entry (`xor ebp, ebp; mov r9, rdx; pop rsi; mov rdx, rsp; and rsp, -16; push
/// rax; push rsp; ...`) runs at 2.00 and is bound by its chain through rsp: `mov rdx, rsp`
/// syncs rsp from the previous copy's `and rsp` (1 cycle), the `and` reads that synced rsp
/// (1 more); before the chain row followed readers after a sync, the entry was above every
/// bound (1.67) and named `scheduling`.
#[test]
fn bottleneck_names_the_limit_that_explains_the_prediction() {
    let home = tempfile::tempdir().unwrap();
    let input = home.path().join("blocks.txt");
    let entry = "31ed4989d15e4889e24883e4f0505449c7c00089410048c7c19088410048c7c720124000";
    std::fs::write(
        &input,
        format!("488b6b684989c5488b7d6040f6c701\n836c245c01\n{entry}\n"),
    )
    .unwrap();
    let out = suaca(
        &["batch", "--arch", "ZEN4", "-i", input.to_str().unwrap()],
        home.path(),
    );
    assert!(out.status.success());
    let rows = records(&String::from_utf8(out.stdout).unwrap());
    let col = |name: &str| rows[0].iter().position(|c| c == name).unwrap();
    let got: Vec<(&str, &str, &str)> = rows[1..]
        .iter()
        .map(|r| {
            (
                r[col("cycles_per_iteration")].as_str(),
                r[col("bottleneck")].as_str(),
                r[col("bound_cycles")].as_str(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("0.67", "issue_width", "0.6667"),
            ("1", "dep_chain", "1"),
            ("2", "dep_chain", "2")
        ]
    );
}
