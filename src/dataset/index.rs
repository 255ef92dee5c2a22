//! The per-arch binary index cache of an `instructions.xml`.
//!
//! Owns: source identity, building the index (one pass over the XML), the manifest, the build
//! lock. Must not touch: the XML schema (it stores `uopsxml` records as they are), the byte
//! layout of a file (`layout`) or of the key directory (`directory`).
//!
//! Layout: `<cache>/uops-index/<16 hex of the source id>/` holds one `<ARCH>.bin` per arch and a
//! `archs.bin` manifest (arch → instruction count). An arch file has four sections, the key
//! tables of `string`, `iform` and `iclass` (`directory`) and the record table, then the
//! postcard-encoded `InstrRecord`s (each with only that arch's `<architecture>`); the
//! manifest has one section, the postcard map. Format,
//! suaca version and source identity in the header make a stale file rebuilt; checksums of
//! the header, each section and each record make a damaged one found, never trusted.
//!
//! Writers put each file in a unique temp file in the same directory and rename it into place,
//! so readers never see a partial file; an advisory lock (`.lock`) makes concurrent suaca
//! processes build the index once instead of racing.

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, BufReader, Read, Seek, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::fsutil::Durability;
use crate::uopsxml::{ArchFilter, InstrReader};

use super::checksum::checksum;
use super::directory::{DirectoryBuilder, KeyKind};
use super::layout::{self, ArchFile, Blob, Header, TableBuilder};
use super::{DataSource, DatasetError, EmbeddedData};

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

/// What reading one index file gave.
pub(crate) enum Probe<T> {
    Fresh(T),
    Missing,
    Stale,
    Corrupt(String),
}

/// The key of data compiled into the binary: its name and a hash of its bytes.
fn compiled_in_key(kind: &str, e: &EmbeddedData) -> SourceKey {
    SourceKey {
        id: format!("{kind}:{}", e.name),
        size: e.zstd_xml.len() as u64,
        mtime_ns: 0,
        content: checksum(e.zstd_xml),
    }
}

pub(crate) fn source_key(source: &DataSource) -> Result<SourceKey, DatasetError> {
    match source {
        DataSource::Embedded(e) => Ok(compiled_in_key("embedded", e)),
        DataSource::Supplement(e) => Ok(compiled_in_key("supplement", e)),
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

/// The record table's section in an arch file; sections `KeyKind as usize` are the key
/// tables.
const TABLE_SECTION: usize = 3;

/// An opened arch file (header and record table checked).
fn arch_index(opened: layout::Opened) -> Result<ArchFile, String> {
    if opened.header.sections.len() != TABLE_SECTION + 1 {
        return Err("an arch file has four sections".into());
    }
    ArchFile::new(opened, TABLE_SECTION)
}

fn checked(p: Probe<layout::Opened>) -> Probe<ArchFile> {
    match p {
        Probe::Fresh(o) => match arch_index(o) {
            Ok(a) => Probe::Fresh(a),
            Err(reason) => Probe::Corrupt(reason),
        },
        Probe::Missing => Probe::Missing,
        Probe::Stale => Probe::Stale,
        Probe::Corrupt(e) => Probe::Corrupt(e),
    }
}

/// `arch`'s fresh index file, opened (records are read on demand by `ArchData`).
pub(crate) fn probe_arch(dir: &Path, key: &SourceKey, arch: &str) -> Probe<ArchFile> {
    checked(layout::open_file(&arch_file(dir, arch), key, arch))
}

/// The arch list of a fresh manifest.
pub(crate) fn probe_manifest(dir: &Path, key: &SourceKey) -> Probe<BTreeMap<String, u32>> {
    match layout::open_file(&dir.join(MANIFEST), key, "") {
        Probe::Fresh(o) => match o.section(0) {
            Ok(map) => match postcard::from_bytes(&map) {
                Ok(m) => Probe::Fresh(m),
                Err(e) => Probe::Corrupt(e.to_string()),
            },
            Err(e) => Probe::Corrupt(e),
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
    /// Only `arch`, as an index file in memory: for a cache that cannot be written.
    Memory {
        /// The arch to keep.
        arch: &'a str,
        /// The source identity (the in-memory file is checked like one on disk).
        key: &'a SourceKey,
    },
}

/// What one pass over the XML produced.
pub(crate) struct Built {
    /// arch → instructions with a measurement on it (every arch of the source).
    pub manifest: BTreeMap<String, u32>,
    /// The index of the [`Target::Memory`] arch, if the source has it.
    pub memory: Option<ArchFile>,
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

fn too_big() -> BuildError {
    BuildError::Source(DatasetError::Encode {
        detail: "one arch has more than 4 GiB of records".into(),
    })
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
    fn new(spill: Option<io::BufWriter<fs::File>>) -> ArchSink {
        ArchSink {
            offsets: Vec::new(),
            len: 0,
            spill,
            memory: Vec::new(),
        }
    }

    fn push(&mut self, encoded: &[u8]) -> Result<(), BuildError> {
        // Offsets are u32 in the record table: an arch with more than 4 GiB of records
        // cannot be indexed.
        let offset = u32::try_from(self.len).map_err(|_| too_big())?;
        self.offsets.push(offset);
        self.len += encoded.len() as u64;
        if self.len > u64::from(u32::MAX) {
            return Err(too_big());
        }
        match &mut self.spill {
            Some(w) => w.write_all(encoded)?,
            None => self.memory.extend_from_slice(encoded),
        }
        Ok(())
    }

    /// Writes this arch's index file to `w`: one pass over the records for the key tables
    /// and the record table, then the file with the records copied after them (a spill file
    /// is read twice, sequentially, just after the OS cached it).
    fn write(self, w: &mut dyn Write, key: &SourceKey, arch: &str) -> io::Result<()> {
        let count = self.offsets.len();
        let mut records: Box<dyn ReadSeek> = match self.spill {
            Some(s) => Box::new(s.into_inner().map_err(|e| e.into_error())?),
            None => Box::new(io::Cursor::new(self.memory)),
        };
        records.seek(io::SeekFrom::Start(0))?;
        // Sized up front: a large arch's tables then never hold twice their size.
        let mut keys = DirectoryBuilder::with_capacity(count);
        let mut table = TableBuilder::with_capacity(count);
        {
            let mut r = BufReader::with_capacity(1 << 16, &mut records);
            let mut buf = Vec::new();
            for i in 0..count {
                let end = self.offsets.get(i + 1).map_or(self.len, |&o| u64::from(o));
                buf.resize((end - u64::from(self.offsets[i])) as usize, 0);
                r.read_exact(&mut buf)?;
                table.push(&buf)?;
                // `InstrRecord` serializes `string`, `asm`, `iform`, `iclass` first (postcard
                // writes struct fields in declaration order).
                let ((string, _asm, iform, iclass), _) =
                    postcard::take_from_bytes::<(&str, &str, &str, &str)>(&buf)
                        .map_err(io::Error::other)?;
                keys.add(i as u32, string, iform, iclass)?;
            }
        }
        let keys = keys.finish();
        let (table, records_len) = table.finish();
        let header = Header {
            suaca: env!("CARGO_PKG_VERSION").to_string(),
            source: key.clone(),
            arch: arch.to_string(),
            count: count as u32,
            sections: Vec::new(),
            records_len,
        };
        records.seek(io::SeekFrom::Start(0))?;
        layout::write(
            w,
            header,
            &[
                (keys.encoded_len(KeyKind::String), &|w: &mut dyn Write| {
                    keys.write_to(KeyKind::String, w)
                }),
                (keys.encoded_len(KeyKind::Iform), &|w: &mut dyn Write| {
                    keys.write_to(KeyKind::Iform, w)
                }),
                (keys.encoded_len(KeyKind::Iclass), &|w: &mut dyn Write| {
                    keys.write_to(KeyKind::Iclass, w)
                }),
                (table.len() as u64, &|w: &mut dyn Write| w.write_all(&table)),
            ],
            |w| {
                let copied = io::copy(&mut (&mut records).take(records_len), w)?;
                if copied != records_len {
                    return Err(io::Error::other("spill file cut short"));
                }
                Ok(())
            },
        )
    }
}

trait ReadSeek: Read + Seek {}
impl<T: Read + Seek> ReadSeek for T {}

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
                Target::Memory { arch, .. } if a.name != *arch => continue,
                Target::Memory { .. } => sinks
                    .entry(a.name.clone())
                    .or_insert_with(|| ArchSink::new(None)),
                Target::Cache { dir, .. } => match sinks.get_mut(&a.name) {
                    Some(s) => s,
                    None => {
                        fs::create_dir_all(dir)?;
                        let spill = io::BufWriter::new(tempfile::tempfile_in(dir)?);
                        sinks
                            .entry(a.name.clone())
                            .or_insert(ArchSink::new(Some(spill)))
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
        Target::Memory { arch, key } => {
            let memory = match sinks.remove(*arch) {
                None => None,
                Some(sink) => {
                    let mut bytes = Vec::new();
                    sink.write(&mut bytes, key, arch)?;
                    match checked(layout::open(Blob::Memory(bytes), key, arch)) {
                        Probe::Fresh(a) => Some(a),
                        _ => {
                            return Err(BuildError::Source(DatasetError::Encode {
                                detail: "the index built in memory does not read back".into(),
                            }))
                        }
                    }
                }
            };
            Ok(Built { manifest, memory })
        }
        Target::Cache { dir, key } => {
            for (arch, sink) in sinks {
                crate::fsutil::write_atomic_with(
                    &arch_file(dir, &arch),
                    Durability::Unsynced,
                    |w| sink.write(w, key, &arch),
                )?;
            }
            write_manifest(dir, key, &manifest)?;
            Ok(Built {
                manifest,
                memory: None,
            })
        }
    }
}

/// Writes the manifest, then removes arch files the source no longer has.
fn write_manifest(dir: &Path, key: &SourceKey, manifest: &BTreeMap<String, u32>) -> io::Result<()> {
    let map = postcard::to_allocvec(manifest).map_err(io::Error::other)?;
    let header = Header {
        suaca: env!("CARGO_PKG_VERSION").to_string(),
        source: key.clone(),
        arch: String::new(),
        count: manifest.len() as u32,
        sections: Vec::new(),
        records_len: 0,
    };
    crate::fsutil::write_atomic_with(&dir.join(MANIFEST), Durability::Unsynced, |w| {
        layout::write(
            w,
            header,
            &[(map.len() as u64, &|w: &mut dyn Write| w.write_all(&map))],
            |_| Ok(()),
        )
    })?;
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
    use crate::dataset::directory::KeyTable;
    use crate::uopsxml::{read_file, InstrRecord};

    fn basic() -> (DataSource, SourceKey) {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/xml/basic.xml");
        let source = DataSource::ExplicitPath(path);
        let key = source_key(&source).unwrap();
        (source, key)
    }

    fn direct(arch: &str) -> Vec<InstrRecord> {
        let (source, _) = basic();
        read_file(source.path().unwrap(), &ArchFilter::only([arch])).unwrap()
    }

    fn all(ix: &ArchFile) -> Result<Vec<InstrRecord>, String> {
        (0..ix.count() as usize).map(|i| ix.read(i)).collect()
    }

    /// Every key table of `ix`, read and checked.
    fn tables(ix: &ArchFile) -> Result<Vec<KeyTable>, String> {
        KeyKind::ALL
            .iter()
            .map(|&k| KeyTable::decode(ix.section(k as usize)?, ix.count()))
            .collect()
    }

    /// The SKL index file of `basic.xml`, as bytes.
    fn skl_file() -> Vec<u8> {
        let (source, key) = basic();
        let tmp = tempfile::tempdir().unwrap();
        let target = Target::Cache {
            dir: tmp.path(),
            key: &key,
        };
        assert!(build(&source, &target).is_ok());
        fs::read(arch_file(tmp.path(), "SKL")).unwrap()
    }

    fn open_bytes(bytes: Vec<u8>) -> Probe<ArchFile> {
        let (_, key) = basic();
        checked(layout::open(Blob::Memory(bytes), &key, "SKL"))
    }

    #[test]
    fn round_trip_on_disk_and_in_memory() {
        let (source, key) = basic();
        let tmp = tempfile::tempdir().unwrap();
        let target = Target::Cache {
            dir: tmp.path(),
            key: &key,
        };
        let Ok(built) = build(&source, &target) else {
            panic!("builds")
        };
        assert_eq!(built.manifest.get("SKL"), Some(&5));
        let Probe::Fresh(disk) = probe_arch(tmp.path(), &key, "SKL") else {
            panic!("fresh")
        };
        let Probe::Fresh(manifest) = probe_manifest(tmp.path(), &key) else {
            panic!("fresh manifest")
        };
        assert_eq!(manifest, built.manifest);
        let Ok(Built {
            memory: Some(memory),
            ..
        }) = build(
            &source,
            &Target::Memory {
                arch: "SKL",
                key: &key,
            },
        )
        else {
            panic!("builds in memory")
        };
        for ix in [disk, memory] {
            assert_eq!(all(&ix).unwrap(), direct("SKL"));
            let iclasses = &tables(&ix).unwrap()[KeyKind::Iclass as usize];
            let add: Vec<usize> = iclasses.ids("ADD").collect();
            assert_eq!(add.len(), 1);
            assert_eq!(ix.read(add[0]).unwrap().string, "ADD_01 (R64, R64)");
        }
        // Another arch of the same file, another key: stale, never mixed up.
        let other = SourceKey {
            size: key.size + 1,
            ..key.clone()
        };
        assert!(matches!(
            probe_arch(tmp.path(), &other, "SKL"),
            Probe::Stale
        ));
        assert!(matches!(
            probe_arch(tmp.path(), &key, "NOPE"),
            Probe::Missing
        ));
    }

    #[test]
    fn every_damaged_byte_is_found_at_open_or_at_read() {
        let good = skl_file();
        assert!(matches!(open_bytes(good.clone()), Probe::Fresh(_)));
        for at in 0..good.len() {
            let mut bad = good.clone();
            bad[at] ^= 0x10;
            match open_bytes(bad) {
                Probe::Corrupt(_) => {}
                // The format word: another format is stale, not damaged.
                Probe::Stale => assert!((8..12).contains(&at), "byte {at}: stale"),
                Probe::Missing => panic!("byte {at}: missing"),
                Probe::Fresh(ix) => {
                    let found = all(&ix).is_err() || tables(&ix).is_err();
                    assert!(found, "byte {at}: damage not found");
                }
            }
        }
        for len in [0, 7, 8, 12, 16, 40, good.len() / 2, good.len() - 1] {
            assert!(
                matches!(open_bytes(good[..len].to_vec()), Probe::Corrupt(_)),
                "cut at {len}"
            );
        }
        let mut longer = good.clone();
        longer.push(0);
        assert!(matches!(open_bytes(longer), Probe::Corrupt(_)));
    }

    #[test]
    fn a_format_1_file_is_stale() {
        // Format 1: MAGIC | u32 header length | postcard header (format first) | payload.
        #[derive(Serialize)]
        struct HeaderV1 {
            format: u32,
            suaca: String,
            source: SourceKey,
            arch: String,
            count: u32,
            payload_len: u64,
            checksum: u64,
        }
        let (_, key) = basic();
        let header = postcard::to_allocvec(&HeaderV1 {
            format: 1,
            suaca: env!("CARGO_PKG_VERSION").into(),
            source: key,
            arch: "SKL".into(),
            count: 0,
            payload_len: 4,
            checksum: checksum(&[0; 4]),
        })
        .unwrap();
        let mut v1 = b"SUACAIX\0".to_vec();
        v1.extend_from_slice(&(header.len() as u32).to_le_bytes());
        v1.extend_from_slice(&header);
        v1.extend_from_slice(&[0; 4]);
        assert!(matches!(open_bytes(v1), Probe::Stale));
    }
}
