//! Start-up speed of a whole `suaca` run (issue #3): the release binary on a 20-instruction
//! region, `--arch SKL`, data from the full uops.info reconstruction in `../shared`.
//! Targets: warm (index cached) ≤ 30 ms wall, cold (first use: builds the per-arch indexes)
//! ≤ 3 s. Skips with a note when `../shared` is absent.
//!
//! The region (our own): `add rax, rbx; add rcx, rax; imul rdx, rcx; add rdx, 1;
//! cmp rdx, rsi; mov r8, [rdi]; add r8, [rdi+8]; mov [rdi+16], r8; vaddsd xmm0, xmm0,
//! [rsi]; vmulsd xmm1, xmm1, xmm0; vfmadd231sd xmm2, xmm1, xmm0; lea r9, [rdi+rsi*8+32];
//! xor r10d, r10d; shl r11, 3; or r11, r9; vmovsd [rdi+24], xmm2; add rdi, 8; sub rsi, 1;
//! test rsi, rsi; jnz`.
#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};

const REGION: &str = "4801d84801c1480fafd14883c2014839f24c8b074c0347084c894710c5fb5806c5f359c8c4e2f1b9d04c8d4cf7204531d249c1e3034d09cbc5fb1157184883c7084883ee014885f67500";

fn xml() -> Option<PathBuf> {
    let p =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/uops/instructions.xml.zst");
    p.exists().then_some(p)
}

fn run(home: &std::path::Path, xml: &std::path::Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_suaca"))
        .env("SUACA_HOME", home)
        .args(["--arch", "SKL", "--hex", REGION, "--uops-xml"])
        .arg(xml)
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn bench(c: &mut Criterion) {
    let Some(xml) = xml() else {
        eprintln!("startup bench skipped: ../shared/data/uops/instructions.xml.zst is absent");
        return;
    };
    let warm_home = tempfile::tempdir().expect("tempdir");
    run(warm_home.path(), &xml);
    c.bench_function("warm run, 20 instructions, SKL", |b| {
        b.iter(|| run(warm_home.path(), &xml))
    });
    let mut g = c.benchmark_group("cold");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    g.bench_function("cold run (builds the index), 20 instructions, SKL", |b| {
        b.iter_batched(
            || tempfile::tempdir().expect("tempdir"),
            |home| run(home.path(), &xml),
            criterion::BatchSize::PerIteration,
        )
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
