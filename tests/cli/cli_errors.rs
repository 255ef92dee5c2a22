//! Bad input never panics: one clear line naming the file and the problem, exit code 2
//! (usage/input) or 1 (analysis failed). Issues #2 item 8, #3 item 6, #4 item 6.
#![forbid(unsafe_code)]

use crate::common::{program, suaca, testdata};

/// Runs suaca and returns (exit code, stderr); asserts stdout is empty and stderr is one line.
fn fail(args: &[&str]) -> (i32, String) {
    let home = tempfile::tempdir().expect("tempdir");
    let out = suaca(args, home.path());
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(
        out.stdout.is_empty(),
        "stdout: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(stderr.starts_with("suaca: error: "), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    (out.status.code().expect("exit code"), stderr)
}

fn with_data(file: &str) -> (i32, String) {
    let xml = testdata("xml/thesis.xml");
    let f = testdata(file);
    fail(&[
        "--uops-xml",
        xml.to_str().expect("path"),
        "--arch",
        "SNB",
        f.to_str().expect("path"),
    ])
}

#[test]
fn input_errors_name_the_file_and_exit_2() {
    let cases = [
        ("errors/not_object.txt", "not an object file"),
        ("errors/truncated.o", "truncated or corrupt"),
        ("errors/corrupt_shdr.o", "corrupt"),
        ("errors/aarch64.o", "aarch64"),
        ("errors/start_no_end.o", "has no end marker"),
        ("errors/stray_end.o", "before any start marker"),
        ("errors/nested.o", "nested start marker"),
        ("errors/empty_region.o", "empty region"),
        ("errors/data_markers.o", "non-executable section"),
        ("errors/no_markers.o", "no IACA markers"),
        ("errors/no_code.o", "no executable section"),
        (
            "obj/elf/undecodable.o",
            "invalid instruction at 0xb (offset 3): bytes 06",
        ),
    ];
    for (file, needle) in cases {
        let (code, err) = with_data(file);
        assert_eq!(code, 2, "{file}: {err}");
        assert!(err.contains(file), "{file}: names the file: {err}");
        assert!(err.contains(needle), "{file}: {err}");
    }
}

#[test]
fn missing_file() {
    let (code, err) = with_data("does/not/exist.o");
    assert_eq!(code, 2);
    assert!(err.contains("exist.o"), "{err}");
}

fn analyze(extra: &[&str]) -> (i32, String) {
    let xml = testdata("xml/thesis.xml");
    let mut args = vec!["--uops-xml", xml.to_str().expect("path")];
    args.extend_from_slice(extra);
    fail(&args)
}

#[test]
fn detail_out_of_range() {
    let p = program("mov6");
    let (code, err) = analyze(&["--arch", "SNB", "--detail", "6", &p]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--detail 6 is out of range: the region has lines 0 to 5"),
        "{err}"
    );
}

#[test]
fn iteration_counts() {
    let p = program("mov6");
    let (code, err) = analyze(&["--arch", "SNB", "--loop", "0", &p]);
    assert_eq!(code, 2);
    assert!(err.contains("--loop must be at least 1"), "{err}");
    let (code, err) = analyze(&["--arch", "SNB", "--loop", "1000001", &p]);
    assert_eq!(code, 2);
    assert!(err.contains("at most 1000000"), "{err}");
    // clap's own usage errors keep clap's format (error line + hint), exit code 2.
    let home = tempfile::tempdir().expect("tempdir");
    let out = suaca(&["--arch", "SNB", "--loop", "many", &p], home.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid value 'many' for '--loop <N>'"));
}

#[test]
fn unknown_arch_lists_the_known_ones() {
    // Rejected while parsing the command line (clap's `error:` line), with both spellings.
    let home = tempfile::tempdir().expect("tempdir");
    let out = suaca(&["--arch", "P4", &program("mov6")], home.path());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty() && !err.contains("panicked"), "{err}");
    assert!(
        err.contains("`P4`") && err.contains("SKL (skylake)") && err.contains("ZEN4 (znver4)"),
        "{err}"
    );
}

#[test]
fn arch_without_data_lists_the_available_ones() {
    let (code, err) = analyze(&["--arch", "HSW", &program("mov6")]);
    assert_eq!(code, 2);
    assert!(
        err.contains("HSW") && err.contains("IVB") && err.contains("SNB"),
        "{err}"
    );
    // ... and how to get data (issue #17 item 4).
    assert!(
        err.contains("suaca data fetch") && err.contains("suaca data import FILE"),
        "{err}"
    );
}

#[test]
fn region_without_accounted_instructions() {
    // The fixture has no data for `mov rax, 6` on IVB.
    let (code, err) = analyze(&["--arch", "IVB", &program("mov6")]);
    assert_eq!(code, 1);
    assert!(
        err.contains("no instruction of the region has data for IVB"),
        "{err}"
    );
}

#[test]
fn region_selection() {
    let p = testdata("obj/elf/multi.o");
    let (code, err) = analyze(&["--arch", "SNB", "--region", "7", p.to_str().expect("path")]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--region 7 does not exist; the file has 2 region(s)"),
        "{err}"
    );
}

#[test]
fn bad_data_files() {
    let p = program("mov6");
    let not_xml = testdata("errors/not_object.txt");
    let (code, err) = fail(&[
        "--uops-xml",
        not_xml.to_str().expect("p"),
        "--arch",
        "SNB",
        &p,
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("not_object.txt"), "{err}");
    let (code, err) = fail(&["--uops-xml", "/nonexistent.xml", "--arch", "SNB", &p]);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent.xml"), "{err}");
}

#[test]
fn bad_hex() {
    let (code, err) = analyze(&["--arch", "SNB", "--hex", "48zz"]);
    assert_eq!(code, 2);
    assert!(err.contains("hex"), "{err}");
}

#[test]
fn usage_errors_exit_2() {
    let home = tempfile::tempdir().expect("tempdir");
    let out = suaca(&["--no-such-flag"], home.path());
    assert_eq!(out.status.code(), Some(2));
    let out = suaca(&[], home.path());
    assert_eq!(out.status.code(), Some(2));
    let out = suaca(&["--help"], home.path());
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Examples:"));
}
