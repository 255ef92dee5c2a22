//! Development aid: planned kernels per catalogue class (cost estimate of a full run).
#![forbid(unsafe_code)]
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
fn main() {
    use suaca::measure::catalog::*;
    use suaca::measure::harness::Spec;
    use suaca::measure::plan::*;
    let c = build(
        &HostFeatures::detect(),
        None,
        &CatalogOptions {
            masked: true,
            zeroing: true,
            broadcast: true,
        },
    );
    let blockers: Vec<(Blocker, bool)> = zen_candidates().into_iter().map(|b| (b, true)).collect();
    let mut tot = std::collections::BTreeMap::<&str, (usize, usize, usize)>::new();
    let size = |s: &Spec| match s {
        Spec::Unrolled {
            kernel, copies_b, ..
        } => kernel.body.len() * copies_b,
        Spec::Loop { kernel, .. } => kernel.body.len(),
    };
    for v in &c.variants {
        let p1 = phase1(v, &Basics::from_values(&[])).unwrap_or_default();
        let p2 = phase2(
            v,
            &Phase2Request {
                tp: 0.5,
                ..Phase2Request::default()
            },
            &blockers,
        )
        .unwrap_or_default();
        let p3 = if fusion_candidate(v) { 7 } else { 0 };
        let class = if v.code.op_code().encoding() == iced_x86::EncodingKind::EVEX {
            "evex"
        } else if v.code.op_code().encoding() == iced_x86::EncodingKind::VEX {
            "vex"
        } else {
            "legacy"
        };
        let e = tot.entry(class).or_default();
        e.0 += 1;
        e.1 += p1.len() + p2.len() + p3;
        e.2 += p1
            .iter()
            .chain(p2.iter())
            .map(|(s, _)| size(s))
            .sum::<usize>();
    }
    for (k, (n, kernels, instrs)) in tot {
        println!(
            "{k:8} {n:6} variants {kernels:7} kernels ({:.1}/variant), {:.0} instrs/kernel",
            kernels as f64 / n as f64,
            instrs as f64 / kernels as f64
        );
    }
}
#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
fn main() {}
