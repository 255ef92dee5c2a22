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

/// Zen 4 reference values of issue #5 item 6: (instruction, what, expected cycles).
pub const ZEN4_REFERENCE: [(&str, &str, f64); 9] = [
    ("ADD_01 (R64, R64)", "lat 1->1", 1.0),
    ("IMUL (R64, R64)", "lat 1->1", 3.0),
    ("MOV (R64, M64)", "lat addr 2->1", 4.0),
    ("MULSD (XMM, XMM)", "lat 1->1", 3.0),
    ("VFMADD231PD (YMM, YMM, YMM)", "lat 1->1", 4.0),
    ("ADD_01 (R64, R64)", "tp", 0.25),
    ("IMUL (R64, R64)", "tp", 1.0),
    ("MOV (R64, M64)", "tp", 1.0 / 3.0),
    ("VADDPD (YMM, YMM, YMM)", "tp", 0.5),
];

/// The value `what` of `ZEN4_REFERENCE` for the variant `name` in measured records.
pub fn reference_value(
    recs: &[suaca::uopsxml::InstrRecord],
    name: &str,
    what: &str,
) -> Option<f64> {
    let r = recs.iter().find(|r| r.string == name)?;
    let m = r.archs.first()?.measurement.as_ref()?;
    let lat = |s: u32, t: u32| {
        m.latencies
            .iter()
            .find(|l| l.start_op == s && l.target_op == t)
    };
    Some(match what {
        "lat 1->1" => lat(1, 1)?.cycles?.min,
        "lat addr 2->1" => lat(2, 1)?.cycles_addr?.min,
        "tp" => m.base.tp_unrolled?,
        _ => unreachable!("unknown reference kind {what}"),
    })
}

/// The measure engine retries a refused calibration (twice in the tests, `calib_retries`).
/// Still refused as a busy host (every reading near a quiet core's), the test skips, saying
/// why; a broken clock or any other error fails it: skipping would hide it.
pub fn busy_or_panic<T>(e: suaca::measure::MeasureError) -> Option<T> {
    if !e.is_busy() {
        panic!("{e}");
    }
    eprintln!("skipped: the host was too busy to time: {e}");
    None
}

/// Refused clock checks the measure tests retry: 2 (1.5 s of back-off) instead of the
/// engine's 8 (a minute), so a busy host skips them quickly.
pub const BUSY_RETRIES: u32 = 2;

/// One timed run at a time in a test binary: the timing tests pin to the same CPU, and a
/// second run beside them would be measured too.
pub fn timing_lock() -> std::sync::MutexGuard<'static, ()> {
    static TIMING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    TIMING.lock().unwrap_or_else(|e| e.into_inner())
}
