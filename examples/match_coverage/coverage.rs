//! Matcher coverage over the BHive basic blocks: shared by `examples/match_coverage` and
//! `tests/model/db_coverage.rs`.
//!
//! An occurrence is one decoded instruction of one block on its arch. It is *matched* when
//! `InstrDb::describe` succeeds; *no data* when the matched variant exists in the XML skeleton
//! but has no measurement for that arch (uops.info never measured it there); every other
//! outcome (no iclass, no operand match, ambiguous, unusable data) is a *failure*.
//! Coverage = matched / (matched + failures).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use suaca::db::{signature, InstrDb, NoMatch};
use suaca::uopsxml::{self, ArchFilter, InstrRecord};

/// Counts of one coverage run.
#[derive(Debug, Default)]
pub struct Report {
    /// Blocks read and blocks that failed to decode.
    pub blocks: usize,
    pub undecodable_blocks: usize,
    /// Decoded instruction occurrences.
    pub occurrences: usize,
    pub matched: usize,
    pub no_data: usize,
    pub failed: usize,
    /// `arch mnemonic (signature): reason` → count, for failures.
    pub failures: BTreeMap<String, usize>,
    /// `arch string` → count, for no-data occurrences; the flag says whether another string
    /// of the same iform is measured on that arch (a hint that the match may be wrong).
    pub no_data_forms: BTreeMap<(String, bool), usize>,
    /// `arch iced-form → string` → count, for matched occurrences.
    pub matches: BTreeMap<String, usize>,
}

impl Report {
    /// Share of matched occurrences among those whose variant has data.
    pub fn coverage(&self) -> f64 {
        let denom = self.matched + self.failed;
        if denom == 0 {
            1.0
        } else {
            self.matched as f64 / denom as f64
        }
    }
}

fn hex_bytes(hex: &str) -> Option<Vec<u8>> {
    (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok())
        .collect()
}

fn reason(e: &NoMatch) -> String {
    match e {
        NoMatch::UnknownMnemonic { .. } => "unknown mnemonic".into(),
        NoMatch::NoOperandMatch { .. } => "no operand match".into(),
        NoMatch::Ambiguous { candidates } => format!("ambiguous: {}", candidates.join(" | ")),
        NoMatch::NoData { .. } => "no data".into(),
        NoMatch::BadData { reason, .. } => format!("bad data: {reason}"),
    }
}

/// Runs the matcher over every block of `csv` (columns `arch,case_id,hex,...`) with the
/// uops.info data in `xml` (plain or zstd).
pub fn run(xml: &Path, csv: &Path) -> Result<Report, String> {
    let text = std::fs::read_to_string(csv).map_err(|e| format!("{}: {e}", csv.display()))?;
    let blocks: Vec<(String, Vec<u8>)> = text
        .lines()
        .skip(1)
        .filter_map(|l| {
            let mut f = l.split(',');
            let arch = f.next()?.to_string();
            let hex = f.nth(1)?;
            Some((arch, hex_bytes(hex)?))
        })
        .collect();
    let mut archs: Vec<String> = blocks.iter().map(|b| b.0.clone()).collect();
    archs.sort();
    archs.dedup();

    // Keep the whole skeleton (also unmeasured variants) but only the archs we need.
    let reader = uopsxml::open(xml).map_err(|e| e.to_string())?;
    let mut records: Vec<InstrRecord> = Vec::new();
    for r in uopsxml::InstrReader::new(reader, &xml.display().to_string(), ArchFilter::All) {
        let mut r = r.map_err(|e| e.to_string())?;
        r.archs.retain(|a| archs.contains(&a.name));
        records.push(r);
    }

    let mut report = Report::default();
    for arch in &archs {
        let uarch = suaca::uarch::load(arch).map_err(|e| e.to_string())?;
        let db = InstrDb::new(&records, arch, |g| uarch.port_mask(g));
        let measured_iforms: HashMap<&str, usize> = records
            .iter()
            .filter(|r| r.arch(arch).is_some_and(|a| a.measurement.is_some()))
            .fold(HashMap::new(), |mut m, r| {
                *m.entry(r.iform.as_str()).or_default() += 1;
                m
            });
        for (_, bytes) in blocks.iter().filter(|b| &b.0 == arch) {
            report.blocks += 1;
            let Ok(instrs) = suaca::decode::decode_bytes(bytes, 0) else {
                report.undecodable_blocks += 1;
                continue;
            };
            for instr in &instrs {
                report.occurrences += 1;
                let form = format!("{:?} ({})", instr.iced.mnemonic(), signature(&instr.iced));
                match db.describe(instr) {
                    Ok(d) => {
                        report.matched += 1;
                        *report
                            .matches
                            .entry(format!("{arch} {form} → {}", d.string))
                            .or_default() += 1;
                    }
                    Err(NoMatch::NoData { string }) => {
                        report.no_data += 1;
                        let iform = db.iform_and_string(&instr.iced).map(|x| x.0).unwrap_or("");
                        let other = measured_iforms.contains_key(iform);
                        *report
                            .no_data_forms
                            .entry((format!("{arch} {string}"), other))
                            .or_default() += 1;
                    }
                    Err(e) => {
                        report.failed += 1;
                        let key = format!("{arch} {form}: {}", reason(&e));
                        *report.failures.entry(key).or_default() += 1;
                    }
                }
            }
        }
    }
    Ok(report)
}

/// `(key, count)` sorted by count (descending), then key.
pub fn sorted<K: Clone + Ord>(m: &BTreeMap<K, usize>) -> Vec<(K, usize)> {
    let mut v: Vec<(K, usize)> = m.iter().map(|(k, c)| (k.clone(), *c)).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}
