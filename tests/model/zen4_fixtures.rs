//! Helpers of the tests that run the analyzer on our assembly fixtures measured on Zen 4
//! (`testdata/asm/*.s`): throughputs per region, the bottleneck lines, GNU as present.
#![forbid(unsafe_code)]

use crate::common::{root, suaca};

/// Each region's throughput `tps[k]` is `want[k]` within `tol` (a NaN leaves the region
/// out), and there are as many.
pub(crate) fn assert_regions(tps: &[f64], want: &[f64], tol: f64) {
    assert_eq!(tps.len(), want.len(), "{tps:?}");
    for (k, (got, want)) in tps.iter().zip(want).enumerate() {
        assert!(
            want.is_nan() || (got - want).abs() < tol,
            "region {k}: {got} against {want}: {tps:?}"
        );
    }
}

/// The "Bottleneck analysis" line of each region of a report.
pub(crate) fn bound_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.starts_with("Bottleneck analysis"))
        .collect()
}

/// Block throughputs of every region of the assembly fixture `name` (ZEN4, embedded data),
/// and the text; `None` (with a note) where GNU as, which reads assembly text, is missing.
pub(crate) fn region_throughputs(name: &str) -> Option<(Vec<f64>, String)> {
    region_throughputs_with(name, &["--arch", "ZEN4"])
}

/// The same with `args` (the arch, the data) before the file.
pub(crate) fn region_throughputs_with(name: &str, args: &[&str]) -> Option<(Vec<f64>, String)> {
    if !have_as(name) {
        return None;
    }
    let home = tempfile::tempdir().expect("tempdir");
    let file = root().join("testdata/asm").join(name);
    let mut all = args.to_vec();
    all.extend(["-p", file.to_str().expect("utf-8")]);
    let out = suaca(&all, home.path());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tps = text
        .lines()
        .filter_map(|l| l.strip_prefix("Block throughput: "))
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect();
    Some((tps, text))
}

/// The block throughputs of testdata/asm/`name` over 2,000 iterations (the thesis' total /
/// iterations, within 1% of the steady state), `None` without GNU as.
pub(crate) fn long_run(name: &str, extra: &[&str]) -> Option<Vec<f64>> {
    if !have_as(name) {
        return None;
    }
    let home = tempfile::tempdir().expect("tempdir");
    let file = root().join("testdata/asm").join(name);
    let mut args = vec!["--arch", "ZEN4", "-p", "--loop", "2000"];
    args.extend_from_slice(extra);
    args.push(file.to_str().expect("utf-8"));
    let out = suaca(&args, home.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.strip_prefix("Block throughput: "))
            .filter_map(|l| l.split_whitespace().next()?.parse().ok())
            .collect(),
    )
}

/// Whether GNU as, which reads the assembly fixtures, is installed (a note names the
/// skipped check `name` when not).
pub(crate) fn have_as(name: &str) -> bool {
    let ok = std::process::Command::new("as")
        .arg("--version")
        .output()
        .is_ok();
    if !ok {
        eprintln!("note: GNU as is not installed; skipping the {name} check");
    }
    ok
}
