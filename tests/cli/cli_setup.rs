//! `--setup ARCH N`, `--print-default`, `--version` (issue #4 items 2–3).
#![forbid(unsafe_code)]

use crate::common::{program, suaca, testdata};

fn ok(args: &[&str], home: &std::path::Path) -> String {
    let out = suaca(args, home);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn setup_is_remembered_and_used() {
    let home = tempfile::tempdir().expect("tempdir");
    let shown = ok(&["--print-default"], home.path());
    assert!(shown.contains("Default architecture: not set"), "{shown}");
    assert!(
        shown.contains("Default number of iterations: 200"),
        "{shown}"
    );
    ok(&["--setup", "ivb", "1"], home.path());
    let shown = ok(&["--print-default"], home.path());
    assert!(shown.contains("Default architecture: IVB"), "{shown}");
    assert!(shown.contains("Default number of iterations: 1"), "{shown}");
    // The stencil with the defaults: IVB, one iteration (thesis Example 4).
    let xml = testdata("xml/thesis.xml");
    let out = ok(
        &["--uops-xml", xml.to_str().expect("p"), &program("stencil")],
        home.path(),
    );
    assert!(out.contains("Block throughput: 16.00 cycles"), "{out}");
    assert!(out.contains("Analysis for architecture: IVB"), "{out}");
    // --loop and --arch still win. The thesis' figure: its model has no front end (with
    // ours, 200 unrolled copies are fed by the legacy decoders: 5.05).
    let out = ok(
        &[
            "--uops-xml",
            xml.to_str().expect("p"),
            "--loop",
            "200",
            "--simple-frontend",
            &program("stencil"),
        ],
        home.path(),
    );
    assert!(out.contains("Block throughput: 3.07 cycles"), "{out}");
}

#[test]
fn setup_rejects_bad_values() {
    let home = tempfile::tempdir().expect("tempdir");
    for args in [
        ["--setup", "P4", "200"],
        ["--setup", "SKL", "0"],
        ["--setup", "SKL", "x"],
    ] {
        let out = suaca(&args, home.path());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    assert!(!home.path().join("config/config.toml").exists());
    // A damaged config file is an error that names it, not a silent reset.
    std::fs::create_dir_all(home.path().join("config")).expect("dir");
    std::fs::write(home.path().join("config/config.toml"), "arch = [").expect("write");
    let out = suaca(&["--print-default"], home.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("config.toml"));
}

#[test]
fn version() {
    let home = tempfile::tempdir().expect("tempdir");
    let out = ok(&["--version"], home.path());
    assert_eq!(out.trim(), format!("suaca {}", env!("CARGO_PKG_VERSION")));
}

/// Out of the box: our own measured ZEN4 data is embedded, so `--arch ZEN4` needs no data
/// file (issue #5 item 7).
#[test]
fn embedded_zen4_data_works_without_any_data_file() {
    let home = tempfile::tempdir().expect("tempdir");
    let out = ok(&["--arch", "ZEN4", "-p", &program("stencil")], home.path());
    assert!(out.contains("Analysis for architecture: ZEN4"), "{out}");
    assert!(out.contains("Block throughput:"), "{out}");
    let list = ok(&["data", "list"], home.path());
    assert!(list.contains("ZEN4") && list.contains("embedded"), "{list}");
}

#[test]
fn measure_has_a_cli() {
    let home = tempfile::tempdir().expect("tempdir");
    let help = ok(&["measure", "--help"], home.path());
    for flag in [
        "--filter",
        "--out",
        "--resume",
        "--skeleton",
        "--machine",
        "--retries",
    ] {
        assert!(help.contains(flag), "{help}");
    }
    // A bad filter is a clear usage error before anything runs.
    let out = suaca(&["measure", "--filter", "(", "--out", "x.xml"], home.path());
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!home.path().join("x.xml").exists());
}
