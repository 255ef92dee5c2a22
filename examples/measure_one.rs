//! Development aid: measures the phase-2 kernels of one variant alone (`-- "MOV (M64, R64)"`).
#![forbid(unsafe_code)]
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
fn main() {
    use suaca::measure::catalog::*;
    use suaca::measure::engine::Engine;
    use suaca::measure::harness::Protocol;
    use suaca::measure::plan::*;
    let name = std::env::args().nth(1).unwrap();
    let tp: f64 = std::env::args().nth(2).map_or(0.5, |t| t.parse().unwrap());
    let c = build(&HostFeatures::detect(), None, &CatalogOptions::default());
    let v = c.variants.iter().find(|v| v.record.string == name).unwrap();
    let blockers: Vec<(Blocker, bool)> = zen_candidates().into_iter().map(|b| (b, true)).collect();
    let req = Phase2Request {
        tp,
        ..Phase2Request::default()
    };
    let p2 = match std::env::var("PHASE").as_deref() {
        Ok("1") => phase1(v, &Basics::from_values(&[])).unwrap(),
        Ok("3") => phase3(v, tp).unwrap(),
        _ => phase2(v, &req, &blockers).unwrap(),
    };
    let n = instances_of(v) as f64;
    let mut e = Engine::new(1, Protocol::default(), 3).unwrap();
    let specs: Vec<_> = p2.iter().map(|(s, _)| s.clone()).collect();
    let out = e.measure(&specs).unwrap();
    for ((_, r), o) in p2.iter().zip(&out) {
        println!("{r:?}: {:?}", o.value().map(|x| x / n));
    }
}
#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
fn main() {}
