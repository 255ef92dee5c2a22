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

use crate::fsutil::Durability;
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
    let mut sum = Checksum::new(data.len() as u64);
    sum.update(data);
    sum.finish()
}

/// [`checksum`] computed piecewise: the total length must be known up front.
pub(crate) struct Checksum {
    h: u64,
    pending: [u8; 8],
    filled: usize,
}

const CHECKSUM_PRIME: u64 = 0x0000_0100_0000_01b3;

impl Checksum {
    pub fn new(total_len: u64) -> Checksum {
        Checksum {
            h: 0xcbf2_9ce4_8422_2325 ^ total_len,
            pending: [0; 8],
            filled: 0,
        }
    }

    fn word(&mut self, w: [u8; 8]) {
        self.h = (self.h ^ u64::from_le_bytes(w))
            .wrapping_mul(CHECKSUM_PRIME)
            .rotate_left(29);
    }

    pub fn update(&mut self, mut data: &[u8]) {
        if self.filled > 0 {
            let take = (8 - self.filled).min(data.len());
            self.pending[self.filled..self.filled + take].copy_from_slice(&data[..take]);
            self.filled += take;
            data = &data[take..];
            if self.filled < 8 {
                return;
            }
            self.word(self.pending);
            self.filled = 0;
        }
        let mut chunks = data.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.word(w);
        }
        let rest = chunks.remainder();
        self.pending[..rest.len()].copy_from_slice(rest);
        self.filled = rest.len();
    }

    pub fn finish(self) -> u64 {
        let mut h = self.h;
        for &b in &self.pending[..self.filled] {
            h = (h ^ u64::from(b)).wrapping_mul(CHECKSUM_PRIME);
        }
        h ^ (h >> 31)
    }
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

/// Where [`build`] puts the encoded records.
pub(crate) enum Target<'a> {
    /// Every arch, written as index files into `dir` (the build lock must be held). The
    /// records are spilled to anonymous temporary files while the XML is read, so memory
    /// stays flat however large the XML is (a 1 GB file must not need gigabytes).
    Cache {
        /// The index directory of the source.
        dir: &'a Path,
        /// The source identity written into each header.
        key: &'a SourceKey,
    },
    /// Only `arch`, kept in memory: for a cache that cannot be written.
    Memory {
        /// The arch to keep.
        arch: &'a str,
    },
}

/// What one pass over the XML produced.
pub(crate) struct Built {
    /// arch → instructions with a measurement on it (every arch of the source).
    pub manifest: BTreeMap<String, u32>,
    /// The records of the [`Target::Memory`] arch, if the source has it.
    pub payload: Option<Payload>,
}

/// Why [`build`] failed: the source (fatal), or the cache (fall back to memory).
pub(crate) enum BuildError {
    Source(DatasetError),
    Cache(io::Error),
}

impl From<DatasetError> for BuildError {
    fn from(e: DatasetError) -> Self {
        BuildError::Source(e)
    }
}

impl From<io::Error> for BuildError {
    fn from(e: io::Error) -> Self {
        BuildError::Cache(e)
    }
}

/// One arch's records while building: offsets in memory (4 bytes per record), the records
/// themselves in memory or in a spill file.
struct ArchSink {
    offsets: Vec<u32>,
    len: u64,
    spill: Option<io::BufWriter<fs::File>>,
    memory: Vec<u8>,
}

impl ArchSink {
    fn push(&mut self, encoded: &[u8]) -> Result<(), BuildError> {
        // Offsets are u32 on disk: an arch with more than 4 GiB of records cannot be indexed.
        let offset = u32::try_from(self.len).map_err(|_| {
            BuildError::Source(DatasetError::Encode {
                detail: "one arch has more than 4 GiB of records".into(),
            })
        })?;
        self.offsets.push(offset);
        self.len += encoded.len() as u64;
        if self.len > u64::from(u32::MAX) {
            return Err(BuildError::Source(DatasetError::Encode {
                detail: "one arch has more than 4 GiB of records".into(),
            }));
        }
        match &mut self.spill {
            Some(w) => w.write_all(encoded)?,
            None => self.memory.extend_from_slice(encoded),
        }
        Ok(())
    }

    /// The offset table: `count + 1` little-endian u32.
    fn table(&self) -> Vec<u8> {
        let mut t = Vec::with_capacity((self.offsets.len() + 1) * 4);
        for o in &self.offsets {
            t.extend_from_slice(&o.to_le_bytes());
        }
        // `push` keeps `len` within u32.
        t.extend_from_slice(&(self.len as u32).to_le_bytes());
        t
    }

    fn into_payload(self) -> Payload {
        let mut bytes = self.table();
        bytes.extend_from_slice(&self.memory);
        Payload {
            bytes,
            start: 0,
            count: self.offsets.len() as u32,
        }
    }
}

/// Parses the source once: counts every arch's instructions and encodes the records the
/// target wants. [`Target::Cache`] writes every arch's index file and the manifest.
pub(crate) fn build(source: &DataSource, target: &Target<'_>) -> Result<Built, BuildError> {
    let (reader, name) = super::open_source(source)?;
    let mut manifest: BTreeMap<String, u32> = BTreeMap::new();
    let mut sinks: BTreeMap<String, ArchSink> = BTreeMap::new();
    let mut scratch = Vec::new();
    for rec in InstrReader::new(reader, &name, ArchFilter::All) {
        let mut rec = rec.map_err(DatasetError::from)?;
        let all = std::mem::take(&mut rec.archs);
        // Re-use one record, swapping in one arch at a time: no clone of the operands.
        for a in all {
            if a.measurement.is_none() {
                continue;
            }
            *manifest.entry(a.name.clone()).or_default() += 1;
            let sink = match target {
                Target::Memory { arch } if a.name != *arch => continue,
                Target::Memory { .. } => sinks.entry(a.name.clone()).or_insert(ArchSink {
                    offsets: Vec::new(),
                    len: 0,
                    spill: None,
                    memory: Vec::new(),
                }),
                Target::Cache { dir, .. } => match sinks.get_mut(&a.name) {
                    Some(s) => s,
                    None => {
                        fs::create_dir_all(dir)?;
                        let spill = io::BufWriter::new(tempfile::tempfile_in(dir)?);
                        sinks.entry(a.name.clone()).or_insert(ArchSink {
                            offsets: Vec::new(),
                            len: 0,
                            spill: Some(spill),
                            memory: Vec::new(),
                        })
                    }
                },
            };
            rec.archs = vec![a];
            scratch.clear();
            scratch = postcard::to_extend(&rec, scratch).map_err(|e| DatasetError::Encode {
                detail: e.to_string(),
            })?;
            sink.push(&scratch)?;
        }
    }
    match target {
        Target::Memory { arch } => Ok(Built {
            payload: sinks.remove(*arch).map(ArchSink::into_payload),
            manifest,
        }),
        Target::Cache { dir, key } => {
            for (arch, sink) in sinks {
                write_spilled(&arch_file(dir, &arch), key, &arch, sink)?;
            }
            write_manifest(dir, key, &manifest)?;
            Ok(Built {
                manifest,
                payload: None,
            })
        }
    }
}

/// Writes the manifest, then removes arch files the source no longer has.
fn write_manifest(dir: &Path, key: &SourceKey, manifest: &BTreeMap<String, u32>) -> io::Result<()> {
    let payload = postcard::to_allocvec(manifest).map_err(io::Error::other)?;
    let mut sum = Checksum::new(payload.len() as u64);
    sum.update(&payload);
    write_file(
        &dir.join(MANIFEST),
        key,
        "",
        manifest.len() as u32,
        (payload.len() as u64, sum.finish()),
        |w| w.write_all(&payload),
    )?;
    let keep: Vec<PathBuf> = manifest.keys().map(|a| arch_file(dir, a)).collect();
    for entry in fs::read_dir(dir)?.flatten() {
        let p = entry.path();
        let is_index = p.extension().is_some_and(|e| e == "bin");
        if is_index && p.file_name().is_some_and(|n| n != MANIFEST) && !keep.contains(&p) {
            let _ = fs::remove_file(&p);
        }
    }
    Ok(())
}

/// Writes one arch's index file from its spill file: one pass for the checksum, one to copy
/// (both sequential reads of a file the OS has just cached).
fn write_spilled(path: &Path, key: &SourceKey, arch: &str, sink: ArchSink) -> io::Result<()> {
    use std::io::{Read, Seek};
    let table = sink.table();
    let count = sink.offsets.len() as u32;
    let payload_len = table.len() as u64 + sink.len;
    let mut spill = match sink.spill {
        Some(w) => w.into_inner().map_err(|e| e.into_error())?,
        None => return Err(io::Error::other("records were not spilled")),
    };
    let mut sum = Checksum::new(payload_len);
    sum.update(&table);
    spill.seek(io::SeekFrom::Start(0))?;
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = spill.read(&mut buf)?;
        if n == 0 {
            break;
        }
        sum.update(&buf[..n]);
    }
    spill.seek(io::SeekFrom::Start(0))?;
    write_file(path, key, arch, count, (payload_len, sum.finish()), |w| {
        w.write_all(&table)?;
        let copied = io::copy(&mut (&mut spill).take(sink.len), w)?;
        if copied != sink.len {
            return Err(io::Error::other("spill file cut short"));
        }
        Ok(())
    })
}

/// Writes `MAGIC | header | payload` to `path` atomically ([`crate::fsutil::write_atomic_with`]),
/// so readers see the old file or the whole new one. `payload` writes
/// `len_and_sum.0` bytes whose checksum is `len_and_sum.1`. No fsync: a file torn by a
/// power loss fails its checksum and is rebuilt.
fn write_file(
    path: &Path,
    key: &SourceKey,
    arch: &str,
    count: u32,
    len_and_sum: (u64, u64),
    payload: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let header = Header {
        format: INDEX_FORMAT,
        suaca: suaca_version(),
        source: key.clone(),
        arch: arch.to_string(),
        count,
        payload_len: len_and_sum.0,
        checksum: len_and_sum.1,
    };
    let hbytes = postcard::to_allocvec(&header).map_err(io::Error::other)?;
    crate::fsutil::write_atomic_with(path, Durability::Unsynced, |w| {
        w.write_all(MAGIC)?;
        w.write_all(&(hbytes.len() as u32).to_le_bytes())?;
        w.write_all(&hbytes)?;
        payload(w)
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piecewise_checksum_equals_the_whole() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 + i / 13) as u8).collect();
        let whole = checksum(&data);
        for split in [
            &[0usize][..],
            &[1],
            &[3, 5],
            &[7, 8, 9],
            &[8, 16, 17],
            &[500, 999],
        ] {
            let mut sum = Checksum::new(data.len() as u64);
            let mut at = 0;
            for &s in split {
                sum.update(&data[at..s]);
                at = s;
            }
            sum.update(&data[at..]);
            assert_eq!(sum.finish(), whole, "split at {split:?}");
        }
        assert_ne!(checksum(&data[..999]), whole);
    }
}
