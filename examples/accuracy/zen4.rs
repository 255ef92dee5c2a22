//! The ZEN4 block set: blocks of BHive's sources measured on this machine with `suaca profile
//! --batch`. Only our measurements are committed (`data/measured/zen4_blocks.csv`, keyed by
//! `suaca::profile::block_key` of the hex); the blocks' bytes are BHive's and are joined back
//! from `../shared/data/bhive/bhive_sources_and_may_alias.tar.xz` here.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::process::Command;

use suaca::profile::block_key;

/// Default location of BHive's block sources.
pub const TAR: &str = "../shared/data/bhive/bhive_sources_and_may_alias.tar.xz";
/// Our measurements, keyed.
pub const MEASURED: &str = "data/measured/zen4_blocks.csv";
/// Columns of the keyed measurement file.
pub const HEADER: [&str; 8] = [
    "key",
    "measured_cycles_per_iteration",
    "spread",
    "copies",
    "instructions",
    "status",
    "signal",
    "repeat_cycles_per_iteration",
];

/// The distinct blocks (lowercase hex, first-seen order) of `sources/*.csv` in the archive.
pub fn tar_blocks(tar: &Path) -> Result<Vec<String>, String> {
    let out = Command::new("tar")
        .args(["-xJOf"])
        .arg(tar)
        .args(["--wildcards", "sources/*.csv"])
        .output()
        .map_err(|e| format!("cannot run tar: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "tar -xJOf {}: {}",
            tar.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut seen = HashSet::new();
    let mut blocks = Vec::new();
    for line in text.lines() {
        let hex = line
            .split(',')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if hex.is_empty() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            continue;
        }
        if seen.insert(hex.clone()) {
            blocks.push(hex);
        }
    }
    Ok(blocks)
}

/// `count` blocks chosen by key (the smallest keys): deterministic and independent of the
/// archive's order. Blocks suaca cannot decode are passed over.
pub fn select(blocks: &[String], count: usize) -> Vec<String> {
    let mut keyed: Vec<(String, &String)> = blocks.iter().map(|h| (block_key(h), h)).collect();
    keyed.sort();
    keyed
        .into_iter()
        .filter(|(_, h)| {
            suaca::input::parse_hex(h)
                .ok()
                .is_some_and(|b| suaca::decode::decode_bytes(&b, 0).is_ok())
        })
        .take(count)
        .map(|(_, h)| h.clone())
        .collect()
}

/// One row of the keyed measurement file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Measured {
    /// Block key.
    pub key: String,
    /// Cycles per iteration (status ok).
    pub cycles: Option<f64>,
    /// Spread between processes.
    pub spread: Option<f64>,
    /// Copies of the two kernels (`100/200`).
    pub copies: String,
    /// Instructions of the block.
    pub instructions: String,
    /// `ok`, `fault`, `unsupported`, `refused`.
    pub status: String,
    /// Signal of a fault.
    pub signal: String,
    /// A second, independent measurement (subset).
    pub repeat: Option<f64>,
}

/// Reads the keyed measurement file (or a `suaca profile --batch` output, which has the same
/// column names and a `hex` column too).
pub fn read_measured(path: &Path) -> Result<Vec<Measured>, String> {
    let mut r = csv::Reader::from_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let headers = r.headers().map_err(|e| e.to_string())?.clone();
    let col = |name: &str| headers.iter().position(|h| h == name);
    let key = col("key").ok_or_else(|| format!("{}: no `key` column", path.display()))?;
    let (cycles, spread, copies, instructions, status, signal, repeat) = (
        col("measured_cycles_per_iteration"),
        col("spread"),
        col("copies"),
        col("instructions"),
        col("status"),
        col("signal"),
        col("repeat_cycles_per_iteration"),
    );
    let mut out = Vec::new();
    for rec in r.records() {
        let rec = rec.map_err(|e| format!("{}: {e}", path.display()))?;
        let get = |c: Option<usize>| c.and_then(|i| rec.get(i)).unwrap_or("").to_string();
        let num = |c: Option<usize>| get(c).parse::<f64>().ok();
        out.push(Measured {
            key: get(Some(key)),
            cycles: num(cycles),
            spread: num(spread),
            copies: get(copies),
            instructions: get(instructions),
            status: get(status),
            signal: get(signal),
            repeat: num(repeat),
        });
    }
    Ok(out)
}

/// How the join went.
#[derive(Debug, Default)]
pub struct JoinStats {
    /// Rows in the measurement file.
    pub rows: usize,
    /// Rows with a measurement, joined with their block.
    pub joined: usize,
    /// Rows by status other than `ok` (`fault: SIGSEGV`, `unsupported`).
    pub not_measured: BTreeMap<String, usize>,
    /// Measured rows whose key is in no block of the archive.
    pub unknown_keys: usize,
}

/// A BHive-layout CSV (`arch,case_id,hex,measured_cycles_per_iteration`) of the measured
/// blocks, hex taken from the archive.
pub fn join(measured: &Path, tar: &Path) -> Result<(String, JoinStats), String> {
    let rows = read_measured(measured)?;
    let by_key: BTreeMap<String, String> = tar_blocks(tar)?
        .into_iter()
        .map(|h| (block_key(&h), h))
        .collect();
    let mut stats = JoinStats {
        rows: rows.len(),
        ..JoinStats::default()
    };
    let mut csv = String::from("arch,case_id,hex,measured_cycles_per_iteration\n");
    for r in &rows {
        let Some(c) = r.cycles.filter(|_| r.status == "ok") else {
            let class = match r.status.as_str() {
                "fault" => format!("fault: {}", r.signal),
                s => s.to_string(),
            };
            *stats.not_measured.entry(class).or_default() += 1;
            continue;
        };
        match by_key.get(&r.key) {
            Some(hex) => {
                csv.push_str(&format!("ZEN4,zen4-{},{hex},{c}\n", r.key));
                stats.joined += 1;
            }
            None => stats.unknown_keys += 1,
        }
    }
    Ok((csv, stats))
}
