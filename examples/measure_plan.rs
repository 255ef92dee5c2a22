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
    for (s, r) in p
        .iter()
        .chain(phase2(v, 0.5, &zen_blockers()).unwrap().iter())
    {
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
