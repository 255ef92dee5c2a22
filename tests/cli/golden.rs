//! Whole outputs against golden files (`tests/cli/snapshots/`, reviewed with `cargo insta
//! review`): the thesis' programs on the thesis fixture data (text, JSON and both Graphviz
//! graphs) and representative loops on the embedded ZEN4 data. A change of any byte of these
//! outputs shows here as a diff; accept it with `cargo insta accept` when it is intended.
#![forbid(unsafe_code)]

use std::path::Path;

use crate::common::root;

/// Runs `suaca` from the repository root (paths in the output stay relative, so the golden
/// files hold on any clone) in a fresh home, and returns stdout; fails on a non-zero exit.
fn run(args: &[&str], home: &Path) -> String {
    let out = assert_cmd::Command::cargo_bin("suaca")
        .expect("binary built")
        .env("SUACA_HOME", home)
        .env_remove("SUACA_UOPS_XML")
        .env("NO_COLOR", "1")
        .current_dir(root())
        .args(args)
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "suaca {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

/// The thesis' model on the thesis data, as `common::thesis`, on `arch`.
fn thesis_args<'a>(arch: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut all = vec![
        "--uops-xml",
        "testdata/xml/thesis.xml",
        "--model",
        "suaca",
        "--arch",
        arch,
    ];
    all.extend_from_slice(extra);
    all
}

/// The thesis' programs, each on the arch its chapter uses.
const THESIS_PROGRAMS: [(&str, &str); 4] = [
    ("mov6", "SNB"),
    ("adc8", "SKL"),
    ("branchy", "SNB"),
    ("stencil", "IVB"),
];

#[test]
fn thesis_programs_text_reports() {
    for (name, arch) in THESIS_PROGRAMS {
        let home = tempfile::tempdir().unwrap();
        let obj = format!("testdata/obj/elf/{name}.o");
        let out = run(&thesis_args(arch, &["-p", "-b", &obj]), home.path());
        insta::assert_snapshot!(format!("thesis_{name}_text"), out);
    }
}

#[test]
fn thesis_programs_json_reports() {
    for (name, arch) in THESIS_PROGRAMS {
        let home = tempfile::tempdir().unwrap();
        let obj = format!("testdata/obj/elf/{name}.o");
        let out = run(&thesis_args(arch, &["--json", &obj]), home.path());
        insta::assert_snapshot!(format!("thesis_{name}_json"), out);
    }
}

#[test]
fn thesis_programs_graphs() {
    for (name, arch) in THESIS_PROGRAMS {
        let home = tempfile::tempdir().unwrap();
        let obj = format!("testdata/obj/elf/{name}.o");
        let cfg = home.path().join("cfg.dot");
        let dg = home.path().join("dg.dot");
        let (cfg_s, dg_s) = (cfg.to_str().unwrap(), dg.to_str().unwrap());
        run(
            &thesis_args(
                arch,
                &["--cfg", "--dg", "--cfg-out", cfg_s, "--dg-out", dg_s, &obj],
            ),
            home.path(),
        );
        for (kind, path) in [("cfg", &cfg), ("dg", &dg)] {
            let dot = std::fs::read_to_string(path)
                .unwrap_or_else(|e| panic!("{name}: no {kind} file {}: {e}", path.display()));
            insta::assert_snapshot!(format!("thesis_{name}_{kind}_dot"), dot);
        }
    }
}

/// Compiled loops on the embedded ZEN4 data, in loop mode: saxpy (AVX2, gcc), the loop
/// shapes of `loops.s`, and the vector-load pair.
#[test]
fn zen4_loops_text_and_json() {
    for file in ["loop_window", "loops", "vector_loads"] {
        let home = tempfile::tempdir().unwrap();
        let asm = format!("testdata/asm/{file}.s");
        let text = run(&["--arch", "ZEN4", "-p", &asm], home.path());
        insta::assert_snapshot!(format!("zen4_{file}_text"), text);
        let json = run(&["--arch", "ZEN4", "--json", &asm], home.path());
        insta::assert_snapshot!(format!("zen4_{file}_json"), json);
    }
}
