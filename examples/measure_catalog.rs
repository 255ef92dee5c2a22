//! Development aid: catalogue statistics on this host (`cargo run --example measure_catalog -- [SKELETON]`).
#![forbid(unsafe_code)]
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
fn main() {
    use suaca::measure::catalog::*;
    let skel = std::env::args().nth(1).map(|p| {
        let recs = suaca::uopsxml::read_file(
            std::path::Path::new(&p),
            &suaca::uopsxml::ArchFilter::default(),
        )
        .unwrap();
        Skeleton::new(recs)
    });
    let opts = CatalogOptions {
        masked: true,
        zeroing: false,
        broadcast: true,
    };
    let c = build(&HostFeatures::detect(), skel.as_ref(), &opts);
    let matched = c.variants.iter().filter(|v| v.from_skeleton).count();
    println!(
        "variants {} matched {} skipped {}",
        c.variants.len(),
        matched,
        c.skipped.len()
    );
    for (k, n) in c.skip_summary() {
        println!("  skip {n:5} {k}");
    }
    let mut un: Vec<_> = c
        .variants
        .iter()
        .filter(|v| !v.from_skeleton)
        .map(|v| v.record.string.clone())
        .collect();
    un.sort();
    for s in un.iter().step_by((un.len() / 60).max(1)) {
        println!("  unmatched {s}");
    }
}
#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
fn main() {}
