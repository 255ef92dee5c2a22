//! Development aid: prints catalogue names matching a regex (`-- REGEX [SKELETON]`).
#![forbid(unsafe_code)]
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
fn main() {
    use suaca::measure::catalog::*;
    let re = regex::Regex::new(&std::env::args().nth(1).unwrap()).unwrap();
    let skel = std::env::args().nth(2).map(|p| {
        Skeleton::new(
            suaca::uopsxml::read_file(
                std::path::Path::new(&p),
                &suaca::uopsxml::ArchFilter::default(),
            )
            .unwrap(),
        )
    });
    let c = build(
        &HostFeatures::detect(),
        skel.as_ref(),
        &CatalogOptions {
            masked: true,
            zeroing: false,
            broadcast: true,
        },
    );
    for v in &c.variants {
        if re.is_match(&v.record.string) {
            println!(
                "{} [{:?}] skel={}",
                v.record.string, v.code, v.from_skeleton
            );
        }
    }
}
#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
fn main() {}
