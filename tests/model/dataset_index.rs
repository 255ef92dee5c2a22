//! Index cache tests: cold build, warm hit, stale and corrupt rebuilds, a damaged record,
//! concurrent builders, absent arch. Uses only `testdata/xml/`.
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

use suaca::dataset::{
    load_arch, BuildReason, CacheStatus, DataSource, DatasetError, DatasetWarning, EmbeddedData,
};
use suaca::uopsxml::{read_file, ArchFilter};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/xml")
        .join(name)
}

/// A private copy of a fixture (tests modify sources).
fn copy_fixture(dir: &Path, name: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::copy(fixture(name), &p).unwrap();
    p
}

fn all(d: &suaca::dataset::ArchData) -> Vec<suaca::uopsxml::InstrRecord> {
    d.records().cloned().collect()
}

fn index_files(cache: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for d in std::fs::read_dir(cache.join("uops-index"))
        .unwrap()
        .flatten()
    {
        for f in std::fs::read_dir(d.path()).unwrap().flatten() {
            out.push(f.path());
        }
    }
    out.sort();
    out
}

fn arch_file(cache: &Path, arch: &str) -> PathBuf {
    index_files(cache)
        .into_iter()
        .find(|p| p.file_name().unwrap() == format!("{arch}.bin").as_str())
        .unwrap()
}

#[test]
fn cold_then_warm_and_all_archs_in_one_pass() {
    let tmp = tempfile::tempdir().unwrap();
    let src = DataSource::ExplicitPath(copy_fixture(tmp.path(), "basic.xml"));
    let cache = tmp.path().join("cache");
    let cold = load_arch(&src, "SKL", &cache).unwrap();
    assert_eq!(cold.cache, CacheStatus::Built(BuildReason::Missing));
    assert!(cold.warnings.is_empty());
    assert_eq!(cold.len(), 5);
    let warm = load_arch(&src, "SKL", &cache).unwrap();
    assert_eq!(warm.cache, CacheStatus::Hit);
    assert_eq!(all(&warm), all(&cold));
    // The other archs were indexed by the same pass.
    for arch in ["ZEN3", "MTL-P", "ARL-P"] {
        assert_eq!(
            load_arch(&src, arch, &cache).unwrap().cache,
            CacheStatus::Hit,
            "{arch}"
        );
    }
    // Same content as reading the XML directly, with only the wanted arch kept.
    let direct = read_file(src.path().unwrap(), &ArchFilter::only(["SKL"])).unwrap();
    assert_eq!(all(&warm), direct);
    // Lookups.
    let add = warm.get("ADD_01 (R64, R64)").unwrap();
    assert_eq!(add.archs.len(), 1);
    assert_eq!(add.archs[0].name, "SKL");
    assert_eq!(
        warm.measurement("DIV (R64)").unwrap().base.div_cycles,
        Some(6)
    );
    assert_eq!(warm.by_iform("XOR_GPRv_GPRv_31").len(), 1);
    assert!(warm.by_iform("NOPE").is_empty());
    assert!(
        warm.get("LEAVE").is_none(),
        "unmeasured instructions are dropped"
    );
    let zen = load_arch(&src, "ZEN3", &cache).unwrap();
    assert_eq!(zen.len(), 2);
    assert!(zen.records().all(|r| r.archs[0].name == "ZEN3"));
    // No temp files left behind.
    for f in index_files(&cache) {
        let n = f.file_name().unwrap().to_string_lossy().to_string();
        assert!(n.ends_with(".bin") || n == ".lock", "{n}");
    }
}

#[test]
fn stale_index_is_rebuilt() {
    let tmp = tempfile::tempdir().unwrap();
    let path = copy_fixture(tmp.path(), "basic.xml");
    let src = DataSource::ExplicitPath(path.clone());
    let cache = tmp.path().join("cache");
    assert_eq!(load_arch(&src, "SKL", &cache).unwrap().len(), 5);
    // Change the source: one instruction loses its SKL measurement.
    let text = std::fs::read_to_string(&path).unwrap();
    let changed = text.replacen(
        "<architecture name=\"SKL\">\n        <measurement uops_retire_slots=\"1\" uops_MITE=\"1\" uops_MS=\"0\" uops=\"1\" macro_fusible",
        "<architecture name=\"SKX\">\n        <measurement uops_retire_slots=\"1\" uops_MITE=\"1\" uops_MS=\"0\" uops=\"1\" macro_fusible",
        1,
    );
    assert_ne!(text, changed);
    // Also change the size: mtime alone may have a coarse granularity on some file systems.
    std::fs::write(&path, changed + "<!-- edited -->").unwrap();
    let d = load_arch(&src, "SKL", &cache).unwrap();
    assert_eq!(d.cache, CacheStatus::Built(BuildReason::Stale));
    assert_eq!(d.len(), 4);
    assert!(d.get("CMP_39 (R64, R64)").is_none());
    assert_eq!(
        load_arch(&src, "SKX", &cache).unwrap().cache,
        CacheStatus::Hit
    );
    assert_eq!(
        load_arch(&src, "SKL", &cache).unwrap().cache,
        CacheStatus::Hit
    );
}

/// The basic fixture's SKL data loaded once into a cache below `dir`: the source, the cache
/// directory, the data and the arch's index file.
fn skl_index(
    dir: &std::path::Path,
) -> (
    DataSource,
    std::path::PathBuf,
    suaca::dataset::ArchData,
    std::path::PathBuf,
) {
    let src = DataSource::ExplicitPath(copy_fixture(dir, "basic.xml"));
    let cache = dir.join("cache");
    let reference = load_arch(&src, "SKL", &cache).unwrap();
    let file = arch_file(&cache, "SKL");
    (src, cache, reference, file)
}

#[test]
fn corrupt_index_is_rebuilt_with_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    let (src, cache, reference, file) = skl_index(tmp.path());
    let good = std::fs::read(&file).unwrap();
    // Damage found when the file is opened: the header and the sections before the records
    // (index format 2 checks records when they are read, see the next test).
    let mut flipped = good.clone();
    flipped[30] ^= 0x5a;
    let damages: Vec<Vec<u8>> = vec![
        flipped,
        good[..good.len() / 2].to_vec(),
        b"garbage".to_vec(),
        Vec::new(),
        good[..10].to_vec(),
    ];
    for bad in damages {
        std::fs::write(&file, &bad).unwrap();
        let d = load_arch(&src, "SKL", &cache).unwrap();
        assert_eq!(d.cache, CacheStatus::Built(BuildReason::Corrupt));
        assert!(
            matches!(&d.warnings[..], [DatasetWarning::CorruptIndex { .. }]),
            "{:?}",
            d.warnings
        );
        assert!(suaca::report::warning::dataset_message(&d.warnings[0]).contains("SKL.bin"));
        assert_eq!(all(&d), all(&reference));
        let again = load_arch(&src, "SKL", &cache).unwrap();
        assert_eq!(again.cache, CacheStatus::Hit);
        assert!(again.warnings.is_empty());
    }
}

#[test]
fn a_damaged_record_is_read_from_the_source_and_its_index_rebuilt_next_time() {
    let tmp = tempfile::tempdir().unwrap();
    let (src, cache, reference, file) = skl_index(tmp.path());
    let mut bytes = std::fs::read(&file).unwrap();
    // The last record's last bytes: found only when that record is read.
    let n = bytes.len();
    bytes[n - 3] ^= 0x5a;
    std::fs::write(&file, &bytes).unwrap();
    let d = load_arch(&src, "SKL", &cache).unwrap();
    assert_eq!(d.cache, CacheStatus::Hit);
    assert!(d.damage().is_none(), "nothing read yet");
    // Reading it gives the source's record, never the damaged bytes, and says so.
    assert_eq!(all(&d), all(&reference));
    let Some(w @ DatasetWarning::DamagedOnRead { .. }) = d.damage() else {
        panic!("{:?}", d.damage())
    };
    let msg = suaca::report::warning::dataset_message(w);
    assert!(msg.contains("SKL.bin") && msg.contains("checksum"), "{msg}");
    assert!(!file.exists(), "the damaged index is removed");
    let again = load_arch(&src, "SKL", &cache).unwrap();
    assert_eq!(again.cache, CacheStatus::Built(BuildReason::Missing));
    assert_eq!(all(&again), all(&reference));
    assert!(again.damage().is_none());
}

#[test]
fn damage_anywhere_gives_the_right_data_or_a_rebuild_never_a_wrong_answer() {
    let tmp = tempfile::tempdir().unwrap();
    let (src, cache, reference, file) = skl_index(tmp.path());
    let good = std::fs::read(&file).unwrap();
    let iclass = |d: &suaca::dataset::ArchData| -> Vec<_> {
        d.records_with_iclass(&["ADD".to_string(), "XOR".to_string()])
            .cloned()
            .collect()
    };
    // Every 5th byte: header, the three key tables, the record table, the records.
    for at in (0..good.len()).step_by(5) {
        let mut bad = good.clone();
        bad[at] ^= 0x21;
        std::fs::write(&file, &bad).unwrap();
        let d = load_arch(&src, "SKL", &cache).unwrap();
        // Lookups of each kind of key first, then every record.
        assert_eq!(iclass(&d), iclass(&reference), "byte {at}");
        assert_eq!(
            d.get("ADD_01 (R64, R64)"),
            reference.get("ADD_01 (R64, R64)"),
            "byte {at}"
        );
        assert_eq!(
            d.by_iform("XOR_GPRv_GPRv_31"),
            reference.by_iform("XOR_GPRv_GPRv_31"),
            "byte {at}"
        );
        assert_eq!(all(&d), all(&reference), "byte {at}");
        assert_eq!(
            d.strings().collect::<Vec<_>>(),
            reference.strings().collect::<Vec<_>>()
        );
        let found = d.cache == CacheStatus::Built(BuildReason::Corrupt) || d.damage().is_some();
        let stale = d.cache == CacheStatus::Built(BuildReason::Stale);
        assert!(found || stale, "byte {at}: damage not found");
    }
}

#[test]
fn concurrent_builders_all_get_correct_data() {
    let tmp = tempfile::tempdir().unwrap();
    let src = DataSource::ExplicitPath(copy_fixture(tmp.path(), "basic.xml"));
    let reference = {
        let other = tempfile::tempdir().unwrap();
        load_arch(&src, "SKL", other.path()).unwrap()
    };
    for round in 0..3 {
        let cache = tmp.path().join(format!("cache{round}"));
        let handles: Vec<_> = (0..8)
            .map(|i| {
                let src = src.clone();
                let cache = cache.clone();
                std::thread::spawn(move || {
                    let arch = if i % 2 == 0 { "SKL" } else { "ZEN3" };
                    (arch, load_arch(&src, arch, &cache).unwrap())
                })
            })
            .collect();
        for h in handles {
            let (arch, d) = h.join().unwrap();
            assert!(d.warnings.is_empty(), "{:?}", d.warnings);
            if arch == "SKL" {
                assert_eq!(all(&d), all(&reference));
            } else {
                assert_eq!(d.len(), 2);
            }
        }
        for f in index_files(&cache) {
            let n = f.file_name().unwrap().to_string_lossy().to_string();
            assert!(n.ends_with(".bin") || n == ".lock", "leftover {n}");
        }
        assert_eq!(
            load_arch(&src, "SKL", &cache).unwrap().cache,
            CacheStatus::Hit
        );
    }
}

#[test]
fn absent_arch_lists_available_cold_and_warm() {
    let tmp = tempfile::tempdir().unwrap();
    let src = DataSource::ExplicitPath(copy_fixture(tmp.path(), "basic.xml"));
    let cache = tmp.path().join("cache");
    for _ in 0..2 {
        let e = load_arch(&src, "ZEN5", &cache).unwrap_err();
        assert!(matches!(e, DatasetError::ArchAbsent { .. }), "{e:?}");
        let msg = e.to_string();
        assert!(msg.contains("ZEN5"), "{msg}");
        assert!(msg.contains("ARL-P, MTL-P, SKL, ZEN3"), "{msg}");
    }
    // Arch nodes with only <IACA> do not count.
    assert!(load_arch(&src, "HSW", &cache).is_err());
}

#[test]
fn embedded_source_uses_the_cache_too() {
    static BYTES: &[u8] = include_bytes!("../../testdata/xml/basic.xml.zst");
    let tmp = tempfile::tempdir().unwrap();
    let src = DataSource::Embedded(EmbeddedData {
        name: "test",
        zstd_xml: BYTES,
    });
    let cold = load_arch(&src, "ZEN3", tmp.path()).unwrap();
    assert_eq!(cold.len(), 2);
    let warm = load_arch(&src, "ZEN3", tmp.path()).unwrap();
    assert_eq!(warm.cache, CacheStatus::Hit);
    assert_eq!(all(&warm), all(&cold));
}

#[test]
fn unwritable_cache_is_a_warning_not_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let src = DataSource::ExplicitPath(copy_fixture(tmp.path(), "basic.xml"));
    // A file where the cache directory should be.
    let cache = tmp.path().join("not-a-dir");
    std::fs::write(&cache, b"x").unwrap();
    let d = load_arch(&src, "SKL", &cache).unwrap();
    assert_eq!(d.len(), 5);
    assert!(
        matches!(&d.warnings[..], [DatasetWarning::CacheNotWritten { .. }]),
        "{:?}",
        d.warnings
    );
}

#[test]
fn source_errors_carry_the_path() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = DataSource::ExplicitPath(tmp.path().join("nope.xml"));
    let e = load_arch(&missing, "SKL", tmp.path()).unwrap_err();
    assert!(e.to_string().contains("nope.xml"), "{e}");
    let bad = tmp.path().join("bad.xml");
    std::fs::write(&bad, "<root><instruction string=\"A\"><architecture name=\"SKL\"><measurement uops=\"x\"/></architecture></instruction></root>").unwrap();
    let e = load_arch(&DataSource::ExplicitPath(bad), "SKL", tmp.path()).unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("bad.xml") && msg.contains("`uops`"), "{msg}");
}
