//! The habits users bring from IACA and llvm-mca, messages that lead somewhere, and one
//! default arch for every command (issue #17 items 3–5), through the binary.
#![forbid(unsafe_code)]

use crate::common;

use std::path::Path;
use std::process::Output;

use crate::common::{program, suaca, testdata};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn thesis_xml() -> String {
    testdata("xml/thesis.xml").to_str().expect("utf-8").into()
}

/// Runs suaca on the thesis data, asserting success; returns (stdout, stderr).
fn ok(args: &[&str], home: &Path) -> (String, String) {
    let xml = thesis_xml();
    let mut all = vec!["--uops-xml", xml.as_str()];
    all.extend_from_slice(args);
    let out = suaca(&all, home);
    assert!(
        out.status.success(),
        "{all:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (text(&out.stdout), text(&out.stderr))
}

/// Runs `suaca ARGS` with `input` on standard input.
fn with_stdin(args: &[&str], input: &str, home: &Path) -> Output {
    assert_cmd::Command::cargo_bin("suaca")
        .expect("binary")
        .env("SUACA_HOME", home)
        .env_remove("SUACA_UOPS_XML")
        .current_dir(home)
        .args(args)
        .write_stdin(input)
        .output()
        .expect("runs")
}

#[test]
fn iaca_and_llvm_mca_spellings_give_the_same_report() {
    let home = tempfile::tempdir().unwrap();
    let p = program("branchy");
    let (want, _) = ok(&["--arch", "SNB", "--loop", "7", "-p", &p], home.path());
    assert!(want.contains("Analysis for architecture: SNB"), "{want}");
    for spelling in [
        vec!["-arch", "SNB", "--loop", "7"],
        vec!["-arch=snb", "--loop=7"],
        vec!["-mcpu=sandybridge", "-iterations=7"],
        vec!["--mcpu", "SandyBridge", "--iterations", "7"],
        vec!["--arch", "sandybridge", "-iterations", "7"],
    ] {
        let mut args = spelling.clone();
        args.extend(["-p", &p]);
        let (got, err) = ok(&args, home.path());
        assert_eq!(got, want, "{spelling:?}");
        assert!(err.is_empty(), "{spelling:?}: {err}");
    }
}

#[test]
fn llvm_and_uops_info_names_are_both_accepted() {
    let home = tempfile::tempdir().unwrap();
    // `--setup` checks the name and prints the canonical one; it needs no data.
    for (name, canonical) in [
        ("skylake", "SKL"),
        ("skylake-avx512", "SKX"),
        ("icelake-client", "ICL"),
        ("icelake-server", "ICL"),
        ("haswell", "HSW"),
        ("broadwell", "BDW"),
        ("ivybridge", "IVB"),
        ("sandybridge", "SNB"),
        ("cascadelake", "CLX"),
        ("alderlake", "ADL-P"),
        ("znver2", "ZEN2"),
        ("znver3", "ZEN3"),
        ("znver4", "ZEN4"),
        ("SKL", "SKL"),
        ("cfl", "CFL"),
        ("Zen4", "ZEN4"),
    ] {
        let out = suaca(&["--setup", name, "100"], home.path());
        let shown = text(&out.stdout);
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
        assert!(
            shown.contains(&format!("architecture {canonical}, 100 iterations")),
            "{name}: {shown}"
        );
    }
}

#[test]
fn unknown_arch_lists_the_accepted_names_in_every_command() {
    let home = tempfile::tempdir().unwrap();
    let p = program("branchy");
    for args in [
        vec!["--arch", "pentium4", p.as_str()],
        vec!["batch", "--arch", "pentium4"],
        vec!["profile", "--arch", "pentium4", "--hex", "90"],
    ] {
        let out = suaca(&args, home.path());
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty());
        assert!(err.contains("unknown arch `pentium4`"), "{err}");
        for accepted in ["SNB (sandybridge)", "SKL (skylake)", "CFL", "ZEN4 (znver4)"] {
            assert!(err.contains(accepted), "{args:?} lacks {accepted}: {err}");
        }
    }
    // A core suaca knows of but has not described is named as such.
    let out = suaca(&["--arch", "znver5", p.as_str()], home.path());
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        err.contains("`znver5` (Zen 5) has no pipeline description"),
        "{err}"
    );
}

#[test]
fn llvm_mca_options_without_meaning_are_accepted_and_said_so() {
    let home = tempfile::tempdir().unwrap();
    let p = program("branchy");
    let (want, _) = ok(&["--arch", "SNB", "-p", &p], home.path());
    let (got, err) = ok(
        &[
            "-mtriple=x86_64-unknown-linux-gnu",
            "-march",
            "x86-64",
            "--all-views",
            "--arch",
            "SNB",
            "-p",
            &p,
        ],
        home.path(),
    );
    assert_eq!(got, want);
    let notes: Vec<&str> = err.lines().collect();
    assert_eq!(notes.len(), 3, "{err}");
    assert!(
        notes[0].starts_with("suaca: note: `-mtriple=x86_64-unknown-linux-gnu`")
            && notes[0].contains("ignored"),
        "{err}"
    );
    assert!(notes[1].contains("`-march x86-64`"), "{err}");
    // In JSON mode stderr stays clean and the report's warnings say it.
    let (json, err) = ok(&["-all-stats", "--arch", "SNB", "--json", &p], home.path());
    assert!(err.is_empty(), "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let warnings = v["warnings"].to_string();
    assert!(
        warnings.contains("`-all-stats`") && warnings.contains("ignored"),
        "{warnings}"
    );
}

#[test]
fn output_file_is_the_report_written_atomically() {
    use std::os::unix::fs::MetadataExt;
    let home = tempfile::tempdir().unwrap();
    let p = program("branchy");
    let report = home.path().join("report.txt");
    let r = report.to_str().unwrap();
    let (piped, _) = ok(&["--arch", "SNB", "-p", &p], home.path());
    let old = "old contents\n".repeat(10_000);
    std::fs::write(&report, &old).unwrap();
    let inode = std::fs::metadata(&report).unwrap().ino();
    let (stdout, _) = ok(&["--arch", "SNB", "-p", "-o", r, &p], home.path());
    assert!(stdout.is_empty(), "{stdout}");
    assert_eq!(std::fs::read_to_string(&report).unwrap(), piped);
    assert_ne!(std::fs::metadata(&report).unwrap().ino(), inode, "replaced");
    // JSON too, and `-o -` is standard output.
    let (_, _) = ok(&["--arch", "SNB", "--json", "--output", r, &p], home.path());
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(v["arch"], "SNB");
    let (stdout, _) = ok(&["--arch", "SNB", "-p", "-o", "-", &p], home.path());
    assert_eq!(stdout, piped);
    // A failed analysis leaves the file as it was.
    std::fs::write(&report, &old).unwrap();
    let xml = thesis_xml();
    let out = suaca(
        &[
            "--uops-xml",
            &xml,
            "--arch",
            "SNB",
            "--detail",
            "99",
            "-o",
            r,
            &p,
        ],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&report).unwrap(), old);
    // The input is never overwritten by its report.
    let input = home.path().join("branchy.o");
    std::fs::copy(&p, &input).unwrap();
    let before = std::fs::read(&input).unwrap();
    let i = input.to_str().unwrap();
    let out = suaca(
        &["--uops-xml", &xml, "--arch", "SNB", "-o", i, i],
        home.path(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("that is the input"), "{out:?}");
    assert_eq!(std::fs::read(&input).unwrap(), before);
    // Nothing left behind but the two files.
    let mut names: Vec<String> = std::fs::read_dir(home.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    names.sort();
    assert!(names.is_empty(), "temporary files left: {names:?}");
}

#[test]
fn completion_scripts_complete_arch_names() {
    let home = tempfile::tempdir().unwrap();
    for shell in ["bash", "zsh", "fish"] {
        let out = suaca(&["completions", shell], home.path());
        assert!(out.status.success());
        let script = text(&out.stdout);
        for name in ["ZEN4", "skylake", "icelake-server", "ADL-P", "znver4"] {
            assert!(script.contains(name), "{shell} lacks {name}");
        }
        // Only accepted names are offered.
        assert!(
            !script.contains("ARL-P") && !script.contains("znver5"),
            "{shell}"
        );
    }
}

#[test]
fn man_page_and_help_document_the_habits() {
    let page = std::fs::read_to_string(common::root().join("man/suaca.1")).unwrap();
    for needle in [
        "\\-\\-output",
        "LLVM CPU name",
        "\\-mcpu",
        "\\-\\-iterations",
    ] {
        assert!(page.contains(needle), "man/suaca.1 lacks {needle}");
    }
    let home = tempfile::tempdir().unwrap();
    let help = text(&suaca(&["--help"], home.path()).stdout);
    for needle in ["--mcpu", "--iterations", "-o, --output", "-mcpu=skylake"] {
        assert!(help.contains(needle), "--help lacks {needle}");
    }
}

#[test]
fn shipped_marker_header_has_iacas_bytes() {
    let header = common::root().join("include/iacaMarks.h");
    let source = std::fs::read_to_string(&header).expect("include/iacaMarks.h");
    for needle in [
        "IACA_START",
        "IACA_END",
        "0x64, 0x67, 0x90",
        "__writegsbyte",
    ] {
        assert!(source.contains(needle), "lacks {needle}");
    }
    let Some(cc) = ["cc", "gcc", "clang"].into_iter().find(|c| {
        std::process::Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    }) else {
        eprintln!("note: no C compiler; skipping the compiled-marker check");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("loop.c");
    std::fs::write(
        &src,
        "#include \"iacaMarks.h\"\n\
         void f(double *a, const double *b, long n) {\n\
           for (long i = 0; i < n; i++) { IACA_START a[i] = a[i] * 2.0 + b[i]; }\n\
           IACA_END\n}\n",
    )
    .unwrap();
    let obj = dir.path().join("loop.o");
    for syntax in ["-masm=att", "-masm=intel"] {
        let built = std::process::Command::new(cc)
            .args(["-O2", "-c", syntax, "-I"])
            .arg(common::root().join("include"))
            .arg(&src)
            .arg("-o")
            .arg(&obj)
            .output()
            .unwrap();
        assert!(built.status.success(), "{cc} {syntax}: {built:?}");
        let bytes = std::fs::read(&obj).unwrap();
        let has = |seq: &[u8]| bytes.windows(seq.len()).any(|w| w == seq);
        assert!(
            has(&[0xbb, 0x6f, 0, 0, 0, 0x64, 0x67, 0x90]),
            "start marker"
        );
        assert!(has(&[0xbb, 0xde, 0, 0, 0, 0x64, 0x67, 0x90]), "end marker");
        // suaca finds the marked loop.
        let home = tempfile::tempdir().unwrap();
        let out = suaca(&["--list-regions", obj.to_str().unwrap()], home.path());
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(text(&out.stdout).contains("| 0 "), "{}", text(&out.stdout));
    }
}

#[test]
fn missing_data_says_how_to_get_it_and_those_commands_exist() {
    let home = tempfile::tempdir().unwrap();
    // A fresh home has only the embedded ZEN4 data.
    let out = suaca(&["--arch", "skylake", &program("branchy")], home.path());
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    for needle in [
        "no measurements for arch `SKL`",
        "suaca data fetch",
        "suaca data import FILE",
        "--uops-xml FILE",
        "SUACA_UOPS_XML",
    ] {
        assert!(err.contains(needle), "lacks {needle}: {err}");
    }
    // batch says the same in its warning.
    let out = with_stdin(&["batch", "--arch", "SKL"], "4801d8\n", home.path());
    assert!(text(&out.stderr).contains("suaca data fetch"), "{out:?}");
    // The message only names what exists.
    for args in [
        vec!["data", "fetch", "--help"],
        vec!["data", "import", "--help"],
        vec!["data", "list"],
    ] {
        assert!(suaca(&args, home.path()).status.success(), "{args:?}");
    }
    let help = text(&suaca(&["--help"], home.path()).stdout);
    assert!(help.contains("--uops-xml"));
    // SUACA_UOPS_XML is read: the thesis data gives SNB.
    let out = assert_cmd::Command::cargo_bin("suaca")
        .unwrap()
        .env("SUACA_HOME", home.path())
        .env("SUACA_UOPS_XML", thesis_xml())
        .args(["--arch", "SNB", "-p", &program("branchy")])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn offline_fetch_suggests_downloading_elsewhere_and_importing() {
    let home = tempfile::tempdir().unwrap();
    // Nothing listens on this port (bound and dropped).
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/instructions.xml");
    let out = suaca(&["data", "fetch", "--url", &url], home.path());
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot download"), "{err}");
    assert!(
        err.contains("on another machine") && err.contains("suaca data import instructions.xml"),
        "{err}"
    );
}

/// Our own fixture: `add r64, r64` measured on SNB and on ARL-P, which suaca does not
/// describe.
const TWO_ARCH_XML: &str = r#"<?xml version="1.0" ?>
<root date="2026-11-25">
  <extension name="BASE">
    <instruction asm="ADD" category="BINARY" extension="BASE" iclass="ADD" iform="ADD_GPRv_GPRv_01" isa-set="I86" string="ADD_01 (R64, R64)">
      <operand idx="1" name="REG0" r="1" type="reg" w="1" width="64">RAX,RBX,RCX,RDX</operand>
      <operand idx="2" name="REG1" r="1" type="reg" width="64">RAX,RBX,RCX,RDX</operand>
      <operand flag_AF="w" flag_CF="w" flag_OF="w" flag_PF="w" flag_SF="w" flag_ZF="w" idx="3" name="REG2" suppressed="1" type="flags" w="1" />
      <architecture name="SNB"><measurement uops="1" ports="1*p015"><latency start_op="1" target_op="1" cycles="1" /></measurement></architecture>
      <architecture name="ARL-P"><measurement uops="1" ports="1*ALU"><latency start_op="1" target_op="1" cycles="1" /></measurement></architecture>
    </instruction>
  </extension>
</root>
"#;

#[test]
fn data_list_and_arch_lists_offer_only_accepted_archs() {
    let home = tempfile::tempdir().unwrap();
    let xml = home.path().join("two.xml");
    std::fs::write(&xml, TWO_ARCH_XML).unwrap();
    let out = suaca(&["data", "import", xml.to_str().unwrap()], home.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let list = text(&suaca(&["data", "list"], home.path()).stdout);
    let offered: Vec<String> = list
        .lines()
        .skip(2)
        .filter(|l| l.starts_with('|'))
        .filter_map(|l| l.split('|').nth(1).map(|c| c.trim().to_string()))
        .collect();
    assert!(offered.contains(&"SNB".to_string()), "{list}");
    assert!(list.contains("| SNB  | sandybridge"), "{list}");
    assert!(!offered.contains(&"ARL-P".to_string()), "{list}");
    assert!(list.contains("Not usable with --arch") && list.contains("ARL-P"));
    // Every offered arch is accepted by --arch.
    for arch in &offered {
        let out = suaca(&["--setup", arch, "10"], home.path());
        assert!(out.status.success(), "{arch}: {}", text(&out.stderr));
    }
    // The list of an arch without data offers the same ones.
    let out = suaca(&["--arch", "HSW", &program("branchy")], home.path());
    let err = text(&out.stderr);
    assert!(err.contains("available archs: SNB, ZEN4;"), "{err}");
}

/// The note a defaulted arch prints, the same in every command.
fn default_note(arch: &str) -> String {
    format!("suaca: note: arch {arch} (")
}

#[test]
fn analysis_batch_and_profile_pick_the_same_default_and_say_so() {
    // A fresh home: no --setup, only the embedded ZEN4 data. The default is the host's arch
    // when it is ZEN4, else the embedded data's (ZEN4 too); the note says which.
    let host = suaca::uarch::host::detect();
    let why = if host == Some("ZEN4") {
        "this CPU's"
    } else {
        "the embedded data's"
    };
    let home = tempfile::tempdir().unwrap();
    let analysis = suaca(&["-p", "--hex", "4801d8"], home.path());
    let (out, err) = (text(&analysis.stdout), text(&analysis.stderr));
    assert!(analysis.status.success(), "{err}");
    assert!(out.contains("Analysis for architecture: ZEN4"), "{out}");
    assert!(
        err.starts_with(&default_note("ZEN4")) && err.contains(why),
        "{err}"
    );
    let note = err.lines().next().unwrap().to_string();
    let batch = with_stdin(&["batch"], "4801d8\n", home.path());
    assert!(batch.status.success());
    assert!(text(&batch.stdout).contains("4801d8,ZEN4,"));
    assert_eq!(text(&batch.stderr).lines().next(), Some(note.as_str()));
    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    {
        let profile = suaca(
            &[
                "profile",
                "--hex",
                "4801d8",
                "--reps",
                "21",
                "--processes",
                "1",
                "--retries",
                "0",
            ],
            home.path(),
        );
        let err = text(&profile.stderr);
        if err.contains("refusing to measure") {
            eprintln!("note: this host's clock refused the calibration; profile not checked");
        } else {
            assert!(profile.status.success(), "{err}");
            assert!(text(&profile.stdout).contains("suaca ZEN4"));
            assert_eq!(err.lines().next(), Some(note.as_str()));
        }
    }
    // With --setup, all three take that arch and say so.
    let xml = thesis_xml();
    assert!(suaca(&["--setup", "snb", "50"], home.path())
        .status
        .success());
    let analysis = suaca(&["--uops-xml", &xml, "-p", "--hex", "4801d8"], home.path());
    let err = text(&analysis.stderr);
    assert!(text(&analysis.stdout).contains("Analysis for architecture: SNB"));
    assert!(
        err.starts_with(&default_note("SNB")) && err.contains("--setup"),
        "{err}"
    );
    let batch = with_stdin(&["batch", "--uops-xml", &xml], "4801d8\n", home.path());
    assert!(text(&batch.stdout).contains("4801d8,SNB,"));
    assert!(text(&batch.stderr).starts_with(err.lines().next().unwrap()));
    // --arch: no note.
    let analysis = suaca(
        &["--uops-xml", &xml, "--arch", "SNB", "-p", "--hex", "4801d8"],
        home.path(),
    );
    assert!(text(&analysis.stderr).is_empty());
}

#[test]
fn batch_fails_only_when_every_row_failed() {
    let home = tempfile::tempdir().unwrap();
    let xml = thesis_xml();
    let args = ["batch", "--uops-xml", &xml, "--arch", "SNB"];
    let all_bad = with_stdin(&args, "zz\n4801\n", home.path());
    assert_eq!(all_bad.status.code(), Some(1));
    // The rows are still written, with their errors.
    assert_eq!(text(&all_bad.stdout).lines().count(), 3);
    assert!(
        text(&all_bad.stderr).contains("none of the 2 block(s) has a prediction"),
        "{}",
        text(&all_bad.stderr)
    );
    let some_good = with_stdin(&args, "zz\n4801d8\n", home.path());
    assert_eq!(some_good.status.code(), Some(0));
    assert!(text(&some_good.stderr).contains("1 of 2 block(s) have no prediction"));
}
