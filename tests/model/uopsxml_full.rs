//! Checks against the full reconstruction in `../shared/data/uops/` (skipped when absent).
//! Run with `cargo test --release --test model -- --include-ignored uopsxml_full::`.
#![forbid(unsafe_code)]

use std::collections::BTreeMap;
use std::path::PathBuf;

use suaca::uopsxml::{list_archs, open, read_file, write_instructions, ArchFilter, WriteOptions};

fn shared(rel: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/uops")
        .join(rel);
    if p.exists() {
        Some(p)
    } else {
        eprintln!("note: {} absent, test skipped", p.display());
        None
    }
}

#[test]
#[ignore = "reads the 72 MB reconstruction; run from CI with --include-ignored"]
fn full_reconstruction_counts() {
    let Some(path) = shared("instructions.xml.zst") else {
        return;
    };
    let recs = read_file(&path, &ArchFilter::All).unwrap();
    assert_eq!(recs.len(), 16_877);
    let measured = recs
        .iter()
        .filter(|r| r.archs.iter().any(|a| a.measurement.is_some()))
        .count();
    assert_eq!(measured, 13_853);
    let mut meas = 0;
    let mut lats = 0;
    for r in &recs {
        for a in &r.archs {
            if let Some(m) = &a.measurement {
                meas += 1;
                lats += m.latencies.len();
            }
        }
    }
    assert_eq!(meas, 143_829);
    assert_eq!(lats, 350_011);
    let counts: BTreeMap<String, usize> =
        list_archs(open(&path).unwrap(), &path.display().to_string()).unwrap();
    assert_eq!(counts.len(), 29);
    assert_eq!(counts["SKL"], 3768);
    assert_eq!(counts["ZEN3"], 3754);
    assert_eq!(counts["CLX"], 12979);
    assert_eq!(counts["ARL-P"], 3868);
    // Spot checks of values in the reconstruction of uops.info's instructions.xml (../shared).
    let get = |s: &str| recs.iter().find(|r| r.string == s).unwrap();
    let div = get("DIV (R64)")
        .arch("SKL")
        .unwrap()
        .measurement
        .as_ref()
        .unwrap();
    assert_eq!(div.base.uops, Some(33));
    assert_eq!(div.base.div_cycles, Some(7));
    let vadd = get("VADDSD (XMM, XMM, M64)").arch("SKL").unwrap();
    let m = vadd.measurement.as_ref().unwrap();
    assert_eq!(m.base.ports.as_ref().unwrap().to_string(), "1*p01+1*p23");
    // Nothing in the file is unknown to the reader.
    for r in &recs {
        for a in &r.archs {
            if let Some(m) = &a.measurement {
                assert!(m.extra.is_empty(), "{} {:?}", r.string, m.extra);
                for l in &m.latencies {
                    assert!(l.extra.is_empty(), "{} {:?}", r.string, l.extra);
                }
            }
        }
        for o in &r.operands {
            assert!(
                o.attrs.keys().all(|k| !k.starts_with("flag_")),
                "{}",
                r.string
            );
        }
    }
}

#[test]
#[ignore = "reads the 72 MB reconstruction; run from CI with --include-ignored"]
fn full_reconstruction_round_trip() {
    let Some(path) = shared("instructions.xml.zst") else {
        return;
    };
    let recs = read_file(&path, &ArchFilter::All).unwrap();
    let mut out = Vec::new();
    let opts = WriteOptions {
        date: Some("2026-11-21".into()),
    };
    write_instructions(&mut out, &recs, &opts).unwrap();
    let again = suaca::uopsxml::read_instructions(&out[..], &ArchFilter::All).unwrap();
    assert!(recs == again);
    // The writer reproduces the reconstruction byte for byte.
    let mut orig = Vec::new();
    std::io::Read::read_to_end(&mut open(&path).unwrap(), &mut orig).unwrap();
    // Byte for byte, except for empty `<extension name=…/>` groups, which hold no instruction
    // and so have no record.
    let orig = String::from_utf8(orig).unwrap();
    let kept: Vec<&str> = orig
        .trim_end()
        .lines()
        .filter(|l| !(l.starts_with("  <extension ") && l.ends_with("/>")))
        .collect();
    let ours = String::from_utf8(out).unwrap();
    let ours: Vec<&str> = ours.lines().collect();
    assert_eq!(kept.len(), ours.len());
    if let Some(i) = kept.iter().zip(&ours).position(|(a, b)| a != b) {
        panic!("line {i} differs:\n{}\n{}", kept[i], ours[i]);
    }
}
