//! Load-time benchmarks of the instruction data on the full uops.info reconstruction
//! (`../shared/data/uops/instructions.xml.zst`); skipped with a note when it is absent.
//!
//! Targets (issue #3): warm `load_arch(SKL)` ≤ 10 ms, cold build of all arch indexes ≤ 3 s.
#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use suaca::dataset::{load_arch, CacheStatus, DataSource};

fn full_xml() -> Option<PathBuf> {
    let p =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/uops/instructions.xml.zst");
    p.exists().then_some(p)
}

fn bench(c: &mut Criterion) {
    let Some(path) = full_xml() else {
        eprintln!("note: ../shared/data/uops/instructions.xml.zst absent; load benchmarks skipped");
        return;
    };
    let src = DataSource::ExplicitPath(path);
    let cache = tempfile::tempdir().expect("temp dir");

    let t = Instant::now();
    let cold = load_arch(&src, "SKL", cache.path()).expect("cold load");
    eprintln!(
        "cold load_arch(SKL), building all arch indexes: {:?} ({} instructions)",
        t.elapsed(),
        cold.len()
    );
    let t = Instant::now();
    let warm = load_arch(&src, "SKL", cache.path()).expect("warm load");
    assert_eq!(warm.cache, CacheStatus::Hit);
    eprintln!("first warm load_arch(SKL): {:?}", t.elapsed());

    c.bench_function("load_arch SKL warm", |b| {
        b.iter(|| load_arch(&src, "SKL", cache.path()).expect("warm load"))
    });
    c.bench_function("load_arch ICL warm (13,660 instructions)", |b| {
        b.iter(|| load_arch(&src, "ICL", cache.path()).expect("warm load"))
    });

    let mut g = c.benchmark_group("cold");
    g.sample_size(10);
    g.bench_function("build all indexes + load SKL", |b| {
        b.iter_batched(
            || tempfile::tempdir().expect("temp dir"),
            |dir| load_arch(&src, "SKL", dir.path()).expect("cold load"),
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
