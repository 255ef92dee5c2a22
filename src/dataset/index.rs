//! The per-arch binary index cache of an `instructions.xml`.
//!
//! Owns: the on-disk index format (`INDEX_FORMAT`), source identity, atomic writes, the build
//! lock. Must not touch: the XML schema (it stores `uopsxml` records as they are).
//!
//! Layout: `<cache>/uops-index/<16 hex of the source id>/` holds one `<ARCH>.bin` per arch and a
//! `archs.bin` manifest (arch → instruction count). Every file is
//! `MAGIC | u32 header length | postcard header | payload`, the payload being a table of
//! `count + 1` u32 offsets and then `count` postcard-encoded `InstrRecord`s (each with only
//! that arch's `<architecture>`), so single records decode on demand. The header
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

use crate::uopsxml::{ArchFilter, InstrReader};

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

/// An arch's encoded records inside a buffer: from `start`, `count + 1` little-endian u32
/// offsets (relative to the end of that table), then `count` postcard records.
pub(crate) struct Payload {
    pub bytes: Vec<u8>,
    pub start: usize,
    pub count: u32,
}

impl Payload {
    /// Splits the offset table: the byte range of each record in `bytes`.
    pub fn spans(&self) -> Result<Vec<(usize, usize)>, String> {
        let n = self.count as usize;
        let table_len = (n + 1)
            .checked_mul(4)
            .ok_or_else(|| "record count overflows".to_string())?;
        let data = self.bytes.get(self.start..).unwrap_or(&[]);
        if data.len() < table_len {
            return Err("offset table cut short".into());
        }
        let base = self.start + table_len;
        let off = |i: usize| {
            let b = &data[i * 4..i * 4 + 4];
            u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize
        };
        let mut spans = Vec::with_capacity(n);
        for i in 0..n {
            let (a, b) = (off(i), off(i + 1));
            if a > b || base + b > self.bytes.len() {
                return Err(format!("bad offsets for record {i}"));
            }
            spans.push((base + a, base + b));
        }
        if base + off(n) != self.bytes.len() {
            return Err("trailing bytes after the records".into());
        }
        Ok(spans)
    }
}

/// Per-arch encoder used while building.
#[derive(Default)]
struct Enc {
    offsets: Vec<u32>,
    recs: Vec<u8>,
}

impl Enc {
    fn finish(self) -> Payload {
        let count = self.offsets.len() as u32;
        let mut bytes = Vec::with_capacity((self.offsets.len() + 1) * 4 + self.recs.len());
        for o in &self.offsets {
            bytes.extend_from_slice(&o.to_le_bytes());
        }
        bytes.extend_from_slice(&(self.recs.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&self.recs);
        Payload {
            bytes,
            start: 0,
            count,
        }
    }
}

/// Reads one index file and checks it against `key`/`arch`.
fn probe_file(path: &Path, key: &SourceKey, arch: &str) -> Probe<Payload> {
    let bytes = match fs::read(path) {
        Ok(b) => b,
        // Not there, or the cache path is unusable: building will tell (and warn) if the
        // cache cannot be written.
        Err(_) => return Probe::Missing,
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
    let start = MAGIC.len() + 4 + hlen;
    let payload = &bytes[start..];
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
    Probe::Fresh(Payload {
        bytes,
        start,
        count: header.count,
    })
}

/// The encoded records of `arch` from a fresh index file (decoded lazily by `ArchData`).
pub(crate) fn probe_arch(dir: &Path, key: &SourceKey, arch: &str) -> Probe<Payload> {
    probe_file(&arch_file(dir, arch), key, arch)
}

/// The arch list of a fresh manifest.
pub(crate) fn probe_manifest(dir: &Path, key: &SourceKey) -> Probe<BTreeMap<String, u32>> {
    match probe_file(&dir.join(MANIFEST), key, "") {
        Probe::Fresh(p) => match postcard::from_bytes(&p.bytes[p.start..]) {
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
    /// arch → encoded records.
    pub archs: BTreeMap<String, Payload>,
}

impl Built {
    pub fn manifest(&self) -> BTreeMap<String, u32> {
        self.archs
            .iter()
            .map(|(a, p)| (a.clone(), p.count))
            .collect()
    }
}

/// Parses the source once and encodes every arch's records.
pub(crate) fn build(source: &DataSource) -> Result<Built, DatasetError> {
    let (reader, name) = super::open_source(source)?;
    let mut archs: BTreeMap<String, Enc> = BTreeMap::new();
    for rec in InstrReader::new(reader, &name, ArchFilter::All) {
        let mut rec = rec?;
        let all = std::mem::take(&mut rec.archs);
        // Re-use one record, swapping in one arch at a time: no clone of the operands.
        for a in all {
            if a.measurement.is_none() {
                continue;
            }
            let enc = archs.entry(a.name.clone()).or_default();
            rec.archs = vec![a];
            enc.offsets.push(enc.recs.len() as u32);
            enc.recs = postcard::to_extend(&rec, std::mem::take(&mut enc.recs)).map_err(|e| {
                DatasetError::Encode {
                    detail: e.to_string(),
                }
            })?;
        }
    }
    Ok(Built {
        archs: archs.into_iter().map(|(a, e)| (a, e.finish())).collect(),
    })
}

/// Writes all index files of `built` into `dir` (each atomically), then the manifest; removes
/// arch files the source no longer has.
pub(crate) fn write_all(dir: &Path, key: &SourceKey, built: &Built) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    for (arch, p) in &built.archs {
        write_file(
            &arch_file(dir, arch),
            key,
            arch,
            p.count,
            &p.bytes[p.start..],
        )?;
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
