//! Assembly text input (issue #8 item 1): files and stdin, AT&T and Intel syntax, regions from
//! IACA bytes, llvm-mca and OSACA comments or the whole file, compiler output, source lines,
//! the assembler's errors. Skipped with a note when GNU as is not installed.
#![forbid(unsafe_code)]

use crate::common;

use crate::common::{suaca, testdata};
use serde_json::Value;

fn have_as() -> bool {
    let ok = std::process::Command::new("as")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("note: GNU as is not installed; skipping the assembly-text test");
    }
    ok
}

fn xml() -> String {
    testdata("xml/thesis.xml").to_str().unwrap().to_string()
}

fn path(rel: &str) -> String {
    testdata(rel).to_str().unwrap().to_string()
}

/// `suaca --json` on `args`; the parsed report.
fn json(args: &[&str]) -> Value {
    let home = tempfile::tempdir().unwrap();
    let x = xml();
    let mut all = vec!["--uops-xml", &x, "--arch", "SNB", "--json"];
    all.extend_from_slice(args);
    let out = suaca(&all, home.path());
    assert!(
        out.status.success(),
        "{all:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// (source line, text) of each row of region `r`.
fn rows(report: &Value, r: usize) -> Vec<(Option<u64>, String)> {
    report["regions"][r]["table"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            (
                row["source_line"].as_u64(),
                row["text"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The 1-based line `n` of a fixture.
fn source_line(rel: &str, n: u64) -> String {
    let text = std::fs::read_to_string(testdata(rel)).unwrap();
    text.lines().nth(n as usize - 1).unwrap().to_string()
}

#[test]
fn intel_source_with_iaca_bytes_matches_its_object_file() {
    if !have_as() {
        return;
    }
    let from_text = json(&[&path("asm/branchy.s")]);
    let from_object = json(&[&path("obj/elf/branchy.o")]);
    assert_eq!(from_text["input"]["kind"], "assembly");
    assert_eq!(from_object["input"]["kind"], "object");
    // Same bytes, same simulation (GNU as and llvm-mc encode these alike).
    assert_eq!(
        from_text["regions"][0]["runs"],
        from_object["regions"][0]["runs"]
    );
    assert_eq!(from_text["regions"][0]["region"]["symbol"], "branchy");
    let lines: Vec<Option<u64>> = rows(&from_text, 0).into_iter().map(|r| r.0).collect();
    assert_eq!(
        lines,
        [8, 9, 10, 11, 12, 14, 16].map(Some).to_vec(),
        "the instructions' lines in branchy.s"
    );
    assert!(rows(&from_object, 0).iter().all(|r| r.0.is_none()));
}

#[test]
fn every_row_maps_to_the_line_that_wrote_it() {
    if !have_as() {
        return;
    }
    for (file, mnemonics) in [
        ("text/att_mca.s", &["addq", "imulq", "addq"][..]),
        ("text/osaca.asm", &["add", "add"][..]),
        ("text/whole.s", &["movq", "addq", "addq"][..]),
        ("text/loop.txt", &["add", "add"][..]),
    ] {
        let report = json(&[&path(file)]);
        let got = rows(&report, 0);
        assert_eq!(got.len(), mnemonics.len(), "{file}: {got:?}");
        for ((line, text), m) in got.iter().zip(mnemonics) {
            let line = line.unwrap_or_else(|| panic!("{file}: no source line for {text}"));
            let src = source_line(file, line);
            assert_eq!(
                src.split_whitespace().next(),
                Some(*m),
                "{file}:{line} is `{src}`, the row is `{text}`"
            );
        }
    }
}

/// gcc's `.file 1 "sum.c"` and `.loc 1 5 ...` give the C line, not the `.s` line (issue #17).
#[test]
fn compiler_output_rows_map_to_c_lines_through_loc() {
    if !have_as() {
        return;
    }
    let report = json(&[&path("text/gcc_O2_g.s")]);
    let rows = report["regions"][0]["table"]["rows"].as_array().unwrap();
    let got: Vec<(&str, u64)> = rows
        .iter()
        .map(|r| {
            (
                r["source_file"].as_str().unwrap_or("-"),
                r["source_line"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    // movq and leaq: `.loc 1 5 19`, addq: `.loc 1 5 11` (`s += a[i] * 3` in sum.c).
    assert_eq!(got.len(), 3, "{got:?}");
    for (file, line) in got {
        assert!(file.ends_with("sum.c"), "{file}");
        assert_eq!(line, 5);
    }
}

#[test]
fn compiler_output_regions_come_from_llvm_mca_comments() {
    if !have_as() {
        return;
    }
    let report = json(&[&path("text/gcc_O2_g.s")]);
    let regions = report["regions"].as_array().unwrap();
    assert_eq!(regions.len(), 1);
    assert_eq!(regions[0]["region"]["symbol"], "sum");
    let att = json(&[&path("text/att_mca.s")]);
    assert_eq!(rows(&att, 0)[1].1, "imul rcx, rbx");
    // Without markers the whole section is the region.
    let whole = json(&[&path("text/whole.s")]);
    assert_eq!(whole["regions"][0]["region"]["section"], ".text");
    assert_eq!(whole["regions"][0]["region"]["instructions"], 3);
}

#[test]
fn stdin_reads_assembly_and_objects() {
    if !have_as() {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let x = xml();
    for (fixture, rows_expected) in [("text/whole.s", 3), ("obj/elf/branchy.o", 7)] {
        let out = assert_cmd::Command::cargo_bin("suaca")
            .unwrap()
            .env("SUACA_HOME", home.path())
            .args(["--uops-xml", &x, "--arch", "SNB", "--json", "-"])
            .write_stdin(std::fs::read(testdata(fixture)).unwrap())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["input"]["name"], "<stdin>");
        assert_eq!(rows(&v, 0).len(), rows_expected, "{fixture}");
    }
}

#[test]
fn text_table_shows_the_source_column() {
    if !have_as() {
        return;
    }
    let out = common::thesis(&["--arch", "SNB", &path("text/whole.s")]);
    assert!(out.contains("| Src |"), "{out}");
    assert_eq!(common::row(&out, 1)[10], "4");
    // Object files keep the thesis' columns.
    let obj = common::thesis(&["--arch", "SNB", &common::program("branchy")]);
    assert!(!obj.contains("Src"), "{obj}");
}

#[test]
fn assembler_errors_name_the_users_file_and_line() {
    if !have_as() {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let bad = path("text/bad.s");
    let out = suaca(&["--uops-xml", &xml(), &bad], home.path());
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("{bad}:4: Error: no such instruction")),
        "{err}"
    );
    assert!(!err.contains("suaca-as-"), "scratch paths leak: {err}");
    assert!(
        !err.contains("__suaca_line_"),
        "inserted labels leak: {err}"
    );
}

#[test]
fn a_missing_assembler_is_named() {
    let home = tempfile::tempdir().unwrap();
    let out = suaca(
        &[
            "--uops-xml",
            &xml(),
            "--assembler",
            "/nonexistent/as",
            &path("text/whole.s"),
        ],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`/nonexistent/as`"), "{err}");
    assert!(err.contains("GNU as"), "{err}");
}

#[test]
fn text_that_is_not_assembly_is_still_not_an_object() {
    let home = tempfile::tempdir().unwrap();
    let out = suaca(
        &["--uops-xml", &xml(), &path("errors/not_object.txt")],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not an object file"));
}
