//! Development aid: prints the planned kernels of one variant (`-- "MOV (R64, M64)"`).
#![forbid(unsafe_code)]
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
fn main() {
    use suaca::measure::catalog::*;
    use suaca::measure::harness::Spec;
    use suaca::measure::plan::*;
    let name = std::env::args().nth(1).unwrap();
    let c = build(&HostFeatures::detect(), None, &CatalogOptions::default());
    let v = c.variants.iter().find(|v| v.record.string == name).unwrap();
    let p = phase1(v, &Basics::from_values(&[])).unwrap();
    let blockers: Vec<(Blocker, bool)> = zen_candidates().into_iter().map(|b| (b, true)).collect();
    let req = Phase2Request {
        tp: 0.5,
        ..Phase2Request::default()
    };
    let p2 = phase2(v, &req, &blockers).unwrap();
    let p3 = phase3(v, 0.5).unwrap_or_default();
    for (s, r) in p.iter().chain(p2.iter()).chain(p3.iter().take(2)) {
        let (k, ca, cb) = match s {
            Spec::Unrolled {
                kernel,
                copies_a,
                copies_b,
            } => (kernel, *copies_a, *copies_b),
            Spec::Loop { kernel, copies } => (kernel, *copies, 0),
        };
        println!(
            "{r:?} copies {ca}/{cb} init {:?}",
            k.init.iter().map(|i| i.to_string()).collect::<Vec<_>>()
        );
        for i in k.body.iter().take(14) {
            println!("    {i}");
        }
    }
}
#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
fn main() {}
