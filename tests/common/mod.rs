//! Helpers shared by the integration tests: run the binary in a private home directory.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Output;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A test fixture path under `testdata/`.
pub fn testdata(rel: &str) -> PathBuf {
    root().join("testdata").join(rel)
}

/// Runs `suaca` with `args` in a fresh `SUACA_HOME` (no config, no imported data, empty
/// cache), in `cwd` (a temp dir when `None`).
pub fn suaca(args: &[&str], home: &Path) -> Output {
    assert_cmd::Command::cargo_bin("suaca")
        .expect("binary built")
        .env("SUACA_HOME", home)
        .env_remove("SUACA_UOPS_XML")
        .env_remove("NO_COLOR")
        .current_dir(home)
        .args(args)
        .output()
        .expect("runs")
}

/// Runs `suaca` on the thesis fixture data with SUACA's model (`--model suaca`: the thesis'
/// examples predate the pipeline details) and returns stdout, asserting success.
pub fn thesis(args: &[&str]) -> String {
    let home = tempfile::tempdir().expect("tempdir");
    let xml = testdata("xml/thesis.xml");
    let mut all = vec![
        "--uops-xml",
        xml.to_str().expect("utf-8 path"),
        "--model",
        "suaca",
    ];
    all.extend_from_slice(args);
    let out = suaca(&all, home.path());
    assert!(
        out.status.success(),
        "suaca {all:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

/// The object file of a thesis program.
pub fn program(name: &str) -> String {
    testdata(&format!("obj/elf/{name}.o"))
        .to_str()
        .expect("utf-8 path")
        .to_string()
}

/// The table row of `line`: its cells, trimmed.
pub fn row(output: &str, line: u32) -> Vec<String> {
    output
        .lines()
        .find(|l| l.starts_with(&format!("| {line} ")))
        .unwrap_or_else(|| panic!("no row {line} in\n{output}"))
        .split('|')
        .map(|c| c.trim().to_string())
        .skip(1)
        .collect()
}

/// The reconstructed `instructions.xml.zst` and BHive's development split in `../shared`,
/// or `None` (with a note on stderr) when either is missing: the test then skips.
pub fn bhive_dev() -> Option<(PathBuf, PathBuf)> {
    let data = root().join("../shared/data");
    let xml = data.join("uops/instructions.xml.zst");
    let csv = data.join("bhive/bhive_dev.csv");
    if xml.exists() && csv.exists() {
        Some((xml, csv))
    } else {
        eprintln!("skipped: {} or {} is missing", xml.display(), csv.display());
        None
    }
}
