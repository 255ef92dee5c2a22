//! `-cfg` / `-dg` (issue #2 item 6): DOT files in the working directory or where
//! `--cfg-out`/`--dg-out` say, drawn from the graphs the model ran on (issue #15 item 3); the
//! same source gives the same graphs in every format.
#![forbid(unsafe_code)]

use crate::common::{suaca, testdata};

/// Writes the graphs of `obj` (with the embedded ZEN4 data, which covers every line) and
/// returns (controlflow.dot, dependency.dot).
fn graphs(obj: &str, extra: &[&str]) -> (String, String) {
    let home = tempfile::tempdir().expect("tempdir");
    let obj = testdata(obj);
    let mut args = vec!["--arch", "ZEN4", "-p", "-cfg", "-dg"];
    args.extend_from_slice(extra);
    args.push(obj.to_str().expect("p"));
    let out = suaca(&args, home.path());
    assert!(out.status.success(), "{out:?}");
    let read = |n: &str| std::fs::read_to_string(home.path().join(n)).expect(n);
    (read("controlflow.dot"), read("dependency.dot"))
}

#[test]
fn branchy_graphs_match_the_thesis_figures() {
    let (cfg, dg) = graphs("obj/elf/branchy.o", &["--loop", "200"]);
    assert!(cfg.starts_with("digraph"), "{cfg}");
    assert!(
        cfg.contains("style=dashed") && cfg.contains("color=red"),
        "{cfg}"
    );
    // Figure 2.3: rbx loop dependencies into lines 3 and 5, dashed red.
    let loop_edges: Vec<&str> = dg.lines().filter(|l| l.contains("dashed")).collect();
    assert_eq!(loop_edges.len(), 2, "{dg}");
    assert!(
        loop_edges
            .iter()
            .all(|l| l.contains("rbx") && l.contains("red")),
        "{dg}"
    );
    assert!(
        dg.contains("zf"),
        "the jump's flag dependency is labelled: {dg}"
    );
    // One iteration: no loop edges at all (Figure 2.2).
    let (cfg1, dg1) = graphs("obj/elf/branchy.o", &["--loop", "1"]);
    assert!(
        !cfg1.contains("dashed") && !dg1.contains("dashed"),
        "{cfg1}\n{dg1}"
    );
}

#[test]
fn adc_chain_has_a_cf_edge_into_every_instruction_and_self_loops() {
    let (_, dg) = graphs("obj/elf/adc8.o", &["--loop", "2"]);
    let cf = dg
        .lines()
        .filter(|l| l.contains("->") && l.contains("\"cf\""))
        .count();
    assert_eq!(cf, 8, "7 forward + 1 loop-carried cf edge: {dg}");
    for n in 0..8 {
        assert!(
            dg.contains(&format!("n{n} -> n{n} ")),
            "self loop on {n}: {dg}"
        );
    }
}

#[test]
fn every_format_gives_the_same_graphs() {
    for prog in ["branchy", "stencil", "adc8", "operands"] {
        let elf = graphs(&format!("obj/elf/{prog}.o"), &[]);
        let coff = graphs(&format!("obj/coff/{prog}.obj"), &[]);
        let macho = graphs(&format!("obj/macho/{prog}.o"), &[]);
        assert_eq!(elf, coff, "{prog}: ELF vs COFF");
        assert_eq!(elf, macho, "{prog}: ELF vs Mach-O");
    }
}

#[test]
fn chosen_paths_and_several_regions() {
    let home = tempfile::tempdir().expect("tempdir");
    let obj = testdata("obj/elf/multi.o");
    let cfg = home.path().join("sub-cfg.dot");
    let dg = home.path().join("sub-dg.dot");
    let out = suaca(
        &[
            "--arch",
            "ZEN4",
            "-p",
            "-cfg",
            "-dg",
            "--cfg-out",
            cfg.to_str().expect("p"),
            "--dg-out",
            dg.to_str().expect("p"),
            obj.to_str().expect("p"),
        ],
        home.path(),
    );
    assert!(out.status.success(), "{out:?}");
    for n in [
        "sub-cfg-0.dot",
        "sub-cfg-1.dot",
        "sub-dg-0.dot",
        "sub-dg-1.dot",
    ] {
        assert!(home.path().join(n).exists(), "{n}");
    }
}

#[test]
fn a_region_without_data_gets_an_error_and_no_graph() {
    // The thesis fixture has no SNB record for `adc`: no model, so nothing is drawn.
    let home = tempfile::tempdir().expect("tempdir");
    let xml = testdata("xml/thesis.xml");
    let obj = testdata("obj/elf/adc8.o");
    let out = suaca(
        &[
            "--uops-xml",
            xml.to_str().expect("p"),
            "--arch",
            "SNB",
            "-cfg",
            "-dg",
            obj.to_str().expect("p"),
        ],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no instruction of the region has data"),
        "{err}"
    );
    assert!(!home.path().join("controlflow.dot").exists());
    assert!(!home.path().join("dependency.dot").exists());
}
