//! One matcher path (issue #16 item 4): the analyzer builds its instruction database from the
//! records of the region's iclasses (`ArchData::records_with_iclass`), batch prediction from
//! all records; both must describe every instruction the same way. Before, the analyzer
//! selected records by iform prefix and missed the variants `suaca measure` names itself (no
//! iform), e.g. `movsd xmm0, [rdi+rax*8]` and `test r13b, 40` on ZEN4.
#![forbid(unsafe_code)]

use crate::zen4;

use crate::common::{root, suaca};
use suaca::dataset::{ArchData, DataSource};
use suaca::db::{iclasses, InstrDb};
use suaca::uopsxml::{read_file, ArchFilter};

/// The embedded ZEN4 data as `ArchData`.
fn zen4_data() -> ArchData {
    let path = root().join("data/measured/ZEN4.xml.zst");
    let records = read_file(&path, &ArchFilter::All).expect("ZEN4 data parses");
    ArchData::from_records("ZEN4", DataSource::ExplicitPath(path), records)
}

/// Per instruction of the block: the matched string or the reason for no data.
fn describe(db: &InstrDb, instrs: &[suaca::ir::Instr]) -> Vec<Result<String, String>> {
    instrs
        .iter()
        .map(|i| db.describe(i).map(|d| d.string).map_err(|e| e.to_string()))
        .collect()
}

/// Checks every block (hex) with both paths; returns (instructions, described).
fn same_coverage(data: &ArchData, blocks: &[String]) -> (usize, usize) {
    let zen4 = suaca::uarch::load("ZEN4").expect("ZEN4 arch");
    // The constructor both paths use, on the records each gives it.
    let all = InstrDb::for_arch(data.records(), &zen4);
    let (mut n, mut ok) = (0, 0);
    for hex in blocks {
        let Ok(bytes) = (0..hex.len() / 2)
            .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16))
            .collect::<Result<Vec<u8>, _>>()
        else {
            continue;
        };
        let Ok(instrs) = suaca::decode::decode_bytes(&bytes, 0) else {
            continue;
        };
        let names = iclasses(&instrs);
        let sub = InstrDb::for_arch(data.records_with_iclass(&names), &zen4);
        let (a, b) = (describe(&all, &instrs), describe(&sub, &instrs));
        assert_eq!(a, b, "block {hex}: batch path vs analyzer path");
        n += a.len();
        ok += a.iter().filter(|r| r.is_ok()).count();
    }
    (n, ok)
}

#[test]
fn movsd_load_and_test_r8_imm_have_data_on_both_paths() {
    let data = zen4_data();
    // movsd xmm0, [rdi+rax*8]; test r13b, 40
    let blocks = ["f20f1004c7".to_string(), "41f6c528".to_string()];
    assert_eq!(same_coverage(&data, &blocks), (2, 2));
    let home = tempfile::tempdir().unwrap();
    for hex in &blocks {
        let out = suaca(&["--arch", "ZEN4", "--hex", hex], home.path());
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{hex}: {text}");
        assert!(!text.contains("no data"), "{hex}: {text}");
    }
}

#[test]
fn batch_fixture_blocks_have_the_same_coverage_on_both_paths() {
    let csv = std::fs::read_to_string(root().join("testdata/batch/blocks.csv")).unwrap();
    let blocks: Vec<String> = csv
        .lines()
        .skip(1)
        .filter_map(|l| l.split(',').nth(2).map(str::to_string))
        .collect();
    let (n, ok) = same_coverage(&zen4_data(), &blocks);
    assert!(
        n >= blocks.len() && ok > 0,
        "{n} instructions, {ok} described"
    );
}

/// The committed ZEN4 block set joined with BHive's hex from `../shared`.
#[test]
#[ignore = "needs ../shared/data/bhive (run with --ignored)"]
fn zen4_block_set_has_the_same_coverage_on_both_paths() {
    let tar = root().join(zen4::TAR);
    assert!(tar.exists(), "{} is missing", tar.display());
    let (csv, stats) = zen4::join(&root().join(zen4::MEASURED), &tar).unwrap();
    let blocks: Vec<String> = csv
        .lines()
        .skip(1)
        .filter_map(|l| l.split(',').nth(2).map(str::to_string))
        .collect();
    assert_eq!(blocks.len(), stats.joined);
    let (n, ok) = same_coverage(&zen4_data(), &blocks);
    eprintln!(
        "{} blocks, {n} instructions, {ok} described ({:.2}%)",
        blocks.len(),
        100.0 * ok as f64 / n.max(1) as f64
    );
    assert!(blocks.len() > 1000 && ok > 0);
}
