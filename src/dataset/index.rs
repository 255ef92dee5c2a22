//! The per-arch binary index cache of an `instructions.xml`.
//!
//! Layout: `<cache>/uops-index/<16 hex of the source id>/` holds one `<ARCH>.bin` per arch and a
//! `archs.bin` manifest (arch → instruction count). Every file is
//! `MAGIC | u32 header length | postcard header | payload`, the payload being `count`
//! postcard-encoded `InstrRecord`s (each with only that arch's `<architecture>`). The header
//! carries the format version, suaca's version, the source identity and a payload checksum,
//! so a stale or damaged file is detected and rebuilt, never trusted.
//!
//! Writers put each file in a unique temp file in the same directory and rename it into place,
//! so readers never see a partial file; an advisory lock (`.lock`) makes concurrent suaca
//! processes build the index once instead of racing.

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::uopsxml::{ArchFilter, InstrReader, InstrRecord};

use super::{DataSource, DatasetError};

/// Bump when the on-disk layout or the record types change.
pub const INDEX_FORMAT: u32 = 1;
const MAGIC: &[u8; 8] = b"SUACAIX\0";
const MANIFEST: &str = "archs.bin";

/// Identity of a data source: when any field changes, its index is stale.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct SourceKey {
    /// Canonical path, or `embedded:<name>`.
    pub id: String,
    /// Size in bytes.
    pub size: u64,
    /// Modification time in ns since the epoch (files), 0 for embedded data.
    pub mtime_ns: u128,
    /// Content hash (embedded data only; hashing a 72 MB file on every run is not cheap).
    pub content: u64,
}

#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Header {
    format: u32,
    suaca: String,
    source: SourceKey,
    /// Arch of the records, or empty for the manifest.
    arch: String,
    count: u32,
    payload_len: u64,
    checksum: u64,
}

/// What reading one index file gave.
pub(crate) enum Probe<T> {
    Fresh(T),
    Missing,
    Stale,
    Corrupt(String),
}

pub(crate) fn source_key(source: &DataSource) -> Result<SourceKey, DatasetError> {
    match source {
        DataSource::Embedded(e) => Ok(SourceKey {
            id: format!("embedded:{}", e.name),
            size: e.zstd_xml.len() as u64,
            mtime_ns: 0,
            content: checksum(e.zstd_xml),
        }),
        _ => {
            let path = source.path().unwrap_or(Path::new(""));
            let io_err = |e| DatasetError::Io {
                path: path.to_path_buf(),
                action: "read the metadata of",
                source: e,
            };
            let canon = fs::canonicalize(path).map_err(io_err)?;
            let meta = fs::metadata(&canon).map_err(io_err)?;
            let mtime_ns = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            Ok(SourceKey {
                id: canon.to_string_lossy().into_owned(),
                size: meta.len(),
                mtime_ns,
                content: 0,
            })
        }
    }
}

/// The cache directory of one source.
pub(crate) fn index_dir(cache_dir: &Path, key: &SourceKey) -> PathBuf {
    cache_dir
        .join("uops-index")
        .join(format!("{:016x}", checksum(key.id.as_bytes())))
}

/// `ZEN+` → `ZEN_2b.bin`: arch names become portable file names.
pub(crate) fn arch_file(dir: &Path, arch: &str) -> PathBuf {
    let mut name = String::new();
    for b in arch.bytes() {
        if b.is_ascii_alphanumeric() || b == b'-' {
            name.push(b as char);
        } else {
            name.push_str(&format!("_{b:02x}"));
        }
    }
    name.push_str(".bin");
    dir.join(name)
}

/// A 64-bit checksum over 8-byte words: each step is a bijection of the state, so any single
/// changed word changes the result. Not cryptographic, only for damage detection and naming.
pub(crate) fn checksum(data: &[u8]) -> u64 {
    const P: u64 = 0x0000_0100_0000_01b3;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ data.len() as u64;
    let mut chunks = data.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = (h ^ u64::from_le_bytes(w)).wrapping_mul(P).rotate_left(29);
    }
    for &b in chunks.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(P);
    }
    h ^ (h >> 31)
}

fn suaca_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Reads one index file and checks it against `key`/`arch`; returns the payload bytes.
fn probe_file(path: &Path, key: &SourceKey, arch: &str) -> Probe<(u32, Vec<u8>)> {
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Probe::Missing,
        Err(e) => return Probe::Corrupt(format!("unreadable: {e}")),
    };
    let Some(rest) = bytes.strip_prefix(MAGIC.as_slice()) else {
        return Probe::Corrupt("bad magic".into());
    };
    if rest.len() < 4 {
        return Probe::Corrupt("short header".into());
    }
    let hlen = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]) as usize;
    let rest = &rest[4..];
    if rest.len() < hlen {
        return Probe::Corrupt("short header".into());
    }
    let header: Header = match postcard::from_bytes(&rest[..hlen]) {
        Ok(h) => h,
        // An older format may not even decode: that is staleness, not damage, if the
        // magic matched. We cannot tell them apart, so call it stale.
        Err(_) => return Probe::Stale,
    };
    if header.format != INDEX_FORMAT || header.suaca != suaca_version() || header.source != *key {
        return Probe::Stale;
    }
    if header.arch != arch {
        return Probe::Corrupt(format!("holds arch `{}`", header.arch));
    }
    let payload = &rest[hlen..];
    if payload.len() as u64 != header.payload_len {
        return Probe::Corrupt(format!(
            "payload is {} bytes, header says {}",
            payload.len(),
            header.payload_len
        ));
    }
    if checksum(payload) != header.checksum {
        return Probe::Corrupt("checksum mismatch".into());
    }
    Probe::Fresh((header.count, payload.to_vec()))
}

/// Decodes `count` records from a payload.
pub(crate) fn decode_records(count: u32, mut payload: &[u8]) -> Result<Vec<InstrRecord>, String> {
    let mut out = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let (rec, rest) = postcard::take_from_bytes::<InstrRecord>(payload)
            .map_err(|e| format!("record {}: {e}", out.len()))?;
        out.push(rec);
        payload = rest;
    }
    if !payload.is_empty() {
        return Err(format!("{} trailing bytes", payload.len()));
    }
    Ok(out)
}

/// The records of `arch` from a fresh index file.
pub(crate) fn probe_arch(dir: &Path, key: &SourceKey, arch: &str) -> Probe<Vec<InstrRecord>> {
    match probe_file(&arch_file(dir, arch), key, arch) {
        Probe::Fresh((count, payload)) => match decode_records(count, &payload) {
            Ok(recs) => Probe::Fresh(recs),
            Err(e) => Probe::Corrupt(e),
        },
        Probe::Missing => Probe::Missing,
        Probe::Stale => Probe::Stale,
        Probe::Corrupt(e) => Probe::Corrupt(e),
    }
}

/// The arch list of a fresh manifest.
pub(crate) fn probe_manifest(dir: &Path, key: &SourceKey) -> Probe<BTreeMap<String, u32>> {
    match probe_file(&dir.join(MANIFEST), key, "") {
        Probe::Fresh((_, payload)) => match postcard::from_bytes(&payload) {
            Ok(m) => Probe::Fresh(m),
            Err(e) => Probe::Corrupt(e.to_string()),
        },
        Probe::Missing => Probe::Missing,
        Probe::Stale => Probe::Stale,
        Probe::Corrupt(e) => Probe::Corrupt(e),
    }
}

/// Everything one pass over the XML produced.
pub(crate) struct Built {
    /// arch → (record count, payload).
    pub archs: BTreeMap<String, (u32, Vec<u8>)>,
}

impl Built {
    pub fn manifest(&self) -> BTreeMap<String, u32> {
        self.archs
            .iter()
            .map(|(a, (n, _))| (a.clone(), *n))
            .collect()
    }
}

/// Parses the source once and encodes every arch's records.
pub(crate) fn build(source: &DataSource) -> Result<Built, DatasetError> {
    let (reader, name) = super::open_source(source)?;
    let mut archs: BTreeMap<String, (u32, Vec<u8>)> = BTreeMap::new();
    for rec in InstrReader::new(reader, &name, ArchFilter::All) {
        let mut rec = rec?;
        let all = std::mem::take(&mut rec.archs);
        // Re-use one record, swapping in one arch at a time: no clone of the operands.
        for a in all {
            if a.measurement.is_none() {
                continue;
            }
            let entry = archs.entry(a.name.clone()).or_default();
            rec.archs = vec![a];
            entry.1 = postcard::to_extend(&rec, std::mem::take(&mut entry.1)).map_err(|e| {
                DatasetError::Encode {
                    detail: e.to_string(),
                }
            })?;
            entry.0 += 1;
        }
    }
    Ok(Built { archs })
}

/// Writes all index files of `built` into `dir` (each atomically), then the manifest; removes
/// arch files the source no longer has.
pub(crate) fn write_all(dir: &Path, key: &SourceKey, built: &Built) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    for (arch, (count, payload)) in &built.archs {
        write_file(&arch_file(dir, arch), key, arch, *count, payload)?;
    }
    let manifest = built.manifest();
    let payload = postcard::to_allocvec(&manifest).map_err(io::Error::other)?;
    write_file(
        &dir.join(MANIFEST),
        key,
        "",
        manifest.len() as u32,
        &payload,
    )?;
    let keep: Vec<PathBuf> = built.archs.keys().map(|a| arch_file(dir, a)).collect();
    for entry in fs::read_dir(dir)?.flatten() {
        let p = entry.path();
        let is_index = p.extension().is_some_and(|e| e == "bin");
        if is_index && p.file_name().is_some_and(|n| n != MANIFEST) && !keep.contains(&p) {
            let _ = fs::remove_file(&p);
        }
    }
    Ok(())
}

fn write_file(
    path: &Path,
    key: &SourceKey,
    arch: &str,
    count: u32,
    payload: &[u8],
) -> io::Result<()> {
    let header = Header {
        format: INDEX_FORMAT,
        suaca: suaca_version(),
        source: key.clone(),
        arch: arch.to_string(),
        count,
        payload_len: payload.len() as u64,
        checksum: checksum(payload),
    };
    let hbytes = postcard::to_allocvec(&header).map_err(io::Error::other)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    {
        let mut w = io::BufWriter::new(tmp.as_file_mut());
        w.write_all(MAGIC)?;
        w.write_all(&(hbytes.len() as u32).to_le_bytes())?;
        w.write_all(&hbytes)?;
        w.write_all(payload)?;
        w.flush()?;
    }
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Holds the build lock of a cache directory until dropped (closing the file releases it).
pub(crate) struct BuildLock {
    _file: fs::File,
}

pub(crate) fn lock(dir: &Path) -> io::Result<BuildLock> {
    fs::create_dir_all(dir)?;
    let file = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(".lock"))?;
    fs4::FileExt::lock(&file)?;
    Ok(BuildLock { _file: file })
}
