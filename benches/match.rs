//! Matcher throughput: `InstrDb::describe` over the SKL BHive development blocks with the full
//! uops.info reconstruction when `../shared/data` exists, else over a few instructions with the
//! hand-written fixture.
//!
//! ```text
//! cargo bench --bench match
//! ```
#![forbid(unsafe_code)]

use std::path::Path;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use suaca::db::InstrDb;
use suaca::ir::Instr;
use suaca::uopsxml::{read_file, ArchFilter};

fn hex_bytes(hex: &str) -> Option<Vec<u8>> {
    (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok())
        .collect()
}

/// (xml, decoded instructions) for the benchmark.
fn inputs() -> (std::path::PathBuf, Vec<Instr>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/data");
    let csv = std::fs::read_to_string(shared.join("bhive/bhive_dev.csv")).unwrap_or_default();
    let instrs: Vec<Instr> = csv
        .lines()
        .filter(|l| l.starts_with("SKL,"))
        .filter_map(|l| hex_bytes(l.split(',').nth(2)?))
        .filter_map(|b| suaca::decode::decode_bytes(&b, 0).ok())
        .flatten()
        .collect();
    let xml = shared.join("uops/instructions.xml.zst");
    if xml.exists() && !instrs.is_empty() {
        return (xml, instrs);
    }
    let fixed: &[&[u8]] = &[
        &[0x48, 0x01, 0xd8],
        &[0x48, 0x03, 0x04, 0x8b],
        &[0x48, 0x8d, 0x43, 0x08],
        &[0x62, 0xf1, 0xed, 0x49, 0x58, 0xcb],
        &[0xf0, 0x48, 0x01, 0x18],
    ];
    let instrs = fixed
        .iter()
        .filter_map(|b| suaca::decode::decode_bytes(b, 0).ok())
        .flatten()
        .collect();
    (root.join("testdata/xml/match_forms.xml"), instrs)
}

fn bench(c: &mut Criterion) {
    let (xml, instrs) = inputs();
    let Ok(records) = read_file(&xml, &ArchFilter::All) else {
        eprintln!("match bench: cannot read {}", xml.display());
        return;
    };
    let Ok(skl) = suaca::uarch::load("SKL") else {
        return;
    };
    let db = InstrDb::new(&records, "SKL", |g| skl.port_mask(g));
    c.bench_function("describe", |b| {
        b.iter(|| {
            for i in &instrs {
                let _ = black_box(db.describe(black_box(i)));
            }
        })
    });
    c.bench_function("find", |b| {
        b.iter(|| {
            for i in &instrs {
                let _ = black_box(db.find(black_box(&i.iced)));
            }
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
