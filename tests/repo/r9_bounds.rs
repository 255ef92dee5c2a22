//! Issue #9, resource bounds: large regions and large iteration counts end in a result or a
//! clear message, never in minutes of simulation. The 100k-instruction and 10^6-iteration
//! runs are `#[ignore]`d (release build, `.ci/run`); the budget checks run in every build.
#![forbid(unsafe_code)]

use crate::common;

use std::path::Path;
use std::time::{Duration, Instant};

use suaca::analysis::budget::{self, Verdict};
use suaca::sim::{SimInput, SimInstr, SimMachine, SimProgram, WhatIf};
use suaca::uarch::PortMask;

/// `n` instructions that all have SKL data in `testdata/xml/match_forms.xml`: ALU, load,
/// shifts by `cl`, `cmov`, one-operand `imul`, `lea`, a forward `jnz`, a vector add.
fn mix(n: usize) -> Vec<u8> {
    const MIX: [&[u8]; 10] = [
        &[0x48, 0x01, 0xd8],       // add rax, rbx
        &[0x48, 0x8b, 0x46, 0x08], // mov rax, [rsi+8]
        &[0x48, 0xd3, 0xe0],       // shl rax, cl
        &[0x48, 0x0f, 0x45, 0xc3], // cmovnz rax, rbx
        &[0x48, 0xf7, 0xe9],       // imul rcx
        &[0x48, 0x83, 0xc1, 0x08], // add rcx, 8
        &[0x75, 0x00],             // jnz +0
        &[0x48, 0x8d, 0x53, 0x08], // lea rdx, [rbx+8]
        &[0xc5, 0xf1, 0x58, 0xc2], // vaddpd xmm0, xmm1, xmm2
        &[0x48, 0x31, 0xc9],       // xor rcx, rcx
    ];
    (0..n)
        .flat_map(|i| MIX[i % MIX.len()].iter().copied())
        .collect()
}

fn xml() -> String {
    common::testdata("xml/match_forms.xml")
        .to_str()
        .expect("utf-8")
        .to_string()
}

fn write_region(dir: &Path, n: usize) -> String {
    let p = dir.join(format!("mix-{n}.bin"));
    std::fs::write(&p, mix(n)).expect("write");
    p.to_str().expect("utf-8").to_string()
}

/// A chain of `n` one-µop instructions, each reading the previous one.
fn chain(n: u32) -> SimProgram {
    SimProgram {
        frontend: None,
        ports: Default::default(),
        whole_dispatch: false,
        port_sharing: suaca::sim::PortSharing::Any,
        move_slots: None,
        instrs: (0..n)
            .map(|i| SimInstr {
                slots: None,
                late_on: PortMask::EMPTY,
                line: i,
                uops: vec![PortMask(0b0110_0011)],
                latency: 1,
                div_cycles: 0,
                inputs: vec![SimInput {
                    producer: if i == 0 { n - 1 } else { i - 1 },
                    distance: u32::from(i == 0),
                    offset: 1,
                }],
            })
            .collect(),
    }
}

const MACHINE: SimMachine = SimMachine {
    issue_width: 4,
    scheduler_size: 97,
    port_count: 8,
    divider_port: Some(0),
    fp_divider_port: None,
};

#[test]
fn r9_budget_suggests_the_largest_loop_that_fits() {
    let program = chain(100);
    let budget = 5_000_000_000;
    let check = |iterations| {
        budget::check(
            &program,
            &MACHINE,
            WhatIf::NONE,
            iterations,
            4,
            budget,
            u64::MAX,
        )
        .expect("simulates")
    };
    let Verdict::Over(over) = check(1_000_000) else {
        panic!("10^6 iterations of 100 instructions must be over a small budget");
    };
    assert_eq!((over.instructions, over.runs), (100, 4));
    assert!(
        over.predicted > budget && over.max_iterations > 0,
        "{over:?}"
    );
    // The suggestion fits; one more iteration per run does not (the estimate is linear).
    assert!(matches!(check(over.max_iterations), Verdict::Run { .. }));
    assert!(matches!(check(over.max_iterations + 1), Verdict::Over(_)));
}

#[test]
fn r9_budget_caps_cycles_but_leaves_small_runs_alone() {
    let program = chain(10);
    match budget::check(&program, &MACHINE, WhatIf::NONE, 100, 4, u64::MAX, 7) {
        Ok(Verdict::Run { max_cycles }) => assert_eq!(max_cycles, 7, "caller's cap kept"),
        other => panic!("{other:?}"),
    }
    // A long run gets a cap of a few times its predicted cycles (1 cycle per instance).
    match budget::check(
        &program,
        &MACHINE,
        WhatIf::NONE,
        1_000_000,
        1,
        u64::MAX,
        u64::MAX,
    ) {
        Ok(Verdict::Run { max_cycles }) => {
            assert!(
                (10_000_000..=50_000_000).contains(&max_cycles),
                "{max_cycles}"
            )
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn r9_too_many_iterations_fail_fast_with_a_clear_message() {
    let home = tempfile::tempdir().expect("tempdir");
    let region = write_region(home.path(), 2000);
    let xml = xml();
    let start = Instant::now();
    let out = common::suaca(
        &[
            "--uops-xml",
            &xml,
            "--arch",
            "SKL",
            "--raw",
            &region,
            "--loop",
            "1000000",
        ],
        home.path(),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("simulating 1000000 iterations of 2000 instructions (4 runs)")
            && stderr.contains("more than the limit of 60 s")
            && stderr.contains("or fewer, or -p for a single run"),
        "{stderr}"
    );
    // The estimate costs a short calibration run, even in a debug build.
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{:?}",
        start.elapsed()
    );
}

/// Runs suaca and returns (stdout, seconds).
fn timed(args: &[&str], home: &Path) -> (String, f64) {
    let start = Instant::now();
    let out = common::suaca(args, home);
    let secs = start.elapsed().as_secs_f64();
    assert!(
        out.status.success(),
        "suaca {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (String::from_utf8(out.stdout).expect("utf-8"), secs)
}

#[test]
#[ignore = "release build: a 100k-instruction region (run by .ci/run)"]
fn r9_region_of_100k_instructions() {
    let home = tempfile::tempdir().expect("tempdir");
    let region = write_region(home.path(), 100_000);
    let xml = xml();
    let args = [
        "--uops-xml",
        &xml,
        "--arch",
        "SKL",
        "--raw",
        &region,
        "--loop",
        "2",
        "-p",
    ];
    let (out, secs) = timed(&args, home.path());
    assert!(out.contains("| 99999 "), "the table has every line");
    // About 8 s on the reference machine; quadratic steps would take minutes.
    assert!(secs < 60.0, "took {secs:.1} s");
    // JSON too, and the dependency graph as DOT.
    let dg = home.path().join("dg.dot");
    let mut json_args = args.to_vec();
    let dg_s = dg.to_str().expect("utf-8").to_string();
    json_args.extend(["--json", "-dg", "--dg-out", &dg_s]);
    let (json, secs) = timed(&json_args, home.path());
    assert!(json.starts_with('{') && secs < 60.0, "took {secs:.1} s");
    assert!(std::fs::metadata(&dg).expect("dg.dot").len() > 1_000_000);
}

#[test]
#[ignore = "release build: 10^6 iterations (run by .ci/run)"]
fn r9_a_million_iterations_of_a_small_loop_run() {
    let home = tempfile::tempdir().expect("tempdir");
    let xml = xml();
    // add rax, rbx; shl rax, cl; cmovnz rax, rbx: 10^6 iterations, 4 runs.
    let (out, secs) = timed(
        &[
            "--uops-xml",
            &xml,
            "--arch",
            "SKL",
            "--hex",
            "4801d8 48d3e0 480f45c3",
            "--loop",
            "1000000",
        ],
        home.path(),
    );
    assert!(out.contains("cycles per iteration"), "{out}");
    assert!(secs < 120.0, "took {secs:.1} s");
}

/// `k` times `jnz T; mov rax, rbx`, then at `T` `r` times `add rbx, rax`: every read of
/// `rax` depends on all `k` writes, so the dependency graph has `k * r` edges.
fn joins(k: usize, r: usize) -> Vec<u8> {
    let mov = [0x48, 0x89, 0xd8];
    let mut out = Vec::new();
    for i in 0..k {
        let rest = ((k - i - 1) * (6 + mov.len()) + mov.len()) as i32;
        out.extend([0x0f, 0x85]);
        out.extend(rest.to_le_bytes());
        out.extend(mov);
    }
    for _ in 0..r {
        out.extend([0x48, 0x01, 0xc3]);
    }
    out
}

#[test]
fn r9_many_joins_before_many_reads_fail_fast() {
    // Found while measuring: 1,000 joins before 2,000 reads took 49 s and 1.4 GB, 2,000
    // before 4,000 took 400 s and 5.5 GB. Now a clear error in milliseconds.
    let home = tempfile::tempdir().expect("tempdir");
    let region = home.path().join("joins.bin");
    std::fs::write(&region, joins(2000, 4000)).expect("write");
    let region = region.to_str().expect("utf-8").to_string();
    let xml = xml();
    let start = Instant::now();
    for extra in [&[][..], &["--loop", "1", "-p"], &["-dg", "--loop", "1"]] {
        let mut args = vec!["--uops-xml", &xml, "--arch", "SKL", "--raw", &region];
        args.extend_from_slice(extra);
        let out = common::suaca(&args, home.path());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{extra:?}: {stderr}");
        assert!(
            stderr.contains("too complex for the dependency analysis")
                && stderr.contains("its 8000 instructions"),
            "{stderr}"
        );
    }
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn r9_batch_rows_with_many_joins_fail_fast() {
    // Found by reading `batch::predict` (the analysis had the limit, batch did not): a
    // BHive-style row of 1,000 joins before 2,000 reads ran for minutes. Now that row is an
    // error row and the rows around it are predicted.
    let home = tempfile::tempdir().expect("tempdir");
    let hex: String = joins(2000, 4000)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let input = home.path().join("blocks.txt");
    std::fs::write(&input, format!("4801d8\n{hex}\n4801d8 48d3e0\n")).expect("write");
    let input = input.to_str().expect("utf-8").to_string();
    let xml = xml();
    let start = Instant::now();
    let (csv, _) = timed(
        &["batch", "--uops-xml", &xml, "--arch", "SKL", "-i", &input],
        home.path(),
    );
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{:?}",
        start.elapsed()
    );
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 3, "{csv}");
    assert!(rows[0].starts_with("4801d8,SKL,1,"), "{}", rows[0]);
    assert!(
        rows[1].ends_with(
            "the region is too complex for the dependency analysis: its 8000 instructions \
             have more than 1176576 register dependencies (many branches join before many \
             reads of the same register); analyze a smaller region"
        ),
        "{}",
        &rows[1][rows[1].len().saturating_sub(300)..]
    );
    assert!(rows[2].starts_with("4801d8 48d3e0,SKL,"), "{}", rows[2]);
}

#[test]
fn r9_moderate_joins_still_analyze() {
    // 100 joins before 200 reads: 20,000 edges, well within the limit.
    let home = tempfile::tempdir().expect("tempdir");
    let region = home.path().join("joins.bin");
    std::fs::write(&region, joins(100, 200)).expect("write");
    let region = region.to_str().expect("utf-8").to_string();
    let xml = xml();
    let out = common::suaca(
        &[
            "--uops-xml",
            &xml,
            "--arch",
            "SKL",
            "--raw",
            &region,
            "--loop",
            "20",
            "-p",
        ],
        home.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn r9_dependency_limits_scale_with_the_region() {
    use suaca::cfg::Cfg;
    use suaca::deps::{DepGraph, DepLimits};
    let code = joins(300, 300);
    let instrs = suaca::decode::decode_bytes(&code, 0).expect("decodes");
    let cfg = Cfg::build(&instrs, 0, code.len() as u64, 1);
    let g = DepGraph::try_build(&instrs, &cfg, false, &DepLimits::for_len(instrs.len()))
        .expect("90,000 edges are within the limit");
    assert!(g.edge_count() >= 300 * 300, "{}", g.edge_count());
    let tight = DepLimits {
        max_edges: 1000,
        max_work: u64::MAX,
    };
    let e = DepGraph::try_build(&instrs, &cfg, false, &tight).expect_err("over the limit");
    assert_eq!((e.instructions, e.max_edges), (900, 1000));
    let tight = DepLimits {
        max_edges: usize::MAX,
        max_work: 1000,
    };
    assert!(DepGraph::try_build(&instrs, &cfg, false, &tight).is_err());
}
