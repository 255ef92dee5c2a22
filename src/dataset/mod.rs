//! Where instruction data comes from, and a fast per-arch index of it.
//!
//! Owns: the data-source priority (`--uops-xml` > `SUACA_UOPS_XML` > imported files > embedded
//! data; `sources`), our own measurements compiled in (`ours`) and the supplements that fill
//! forms a source lacks (`supplement`), `import` into the user data directory, and the
//! binary index cache (`index`).
//! Must not touch: the environment (the CLI reads `SUACA_UOPS_XML` and passes the path in),
//! stdout/stderr (problems with the cache are returned as `DatasetWarning` values), the XML
//! schema itself (`uopsxml`).
//! Facts from: the size of uops.info's `instructions.xml` (file sizes and counts that set the performance targets:
//! 72 MB, 29 archs, 3,768 SKL measurements).
//!
//! ```text
//! resolve(explicit, env, data_dir) ─► [DataSource] ─► load_first(arch, cache_dir)
//!   └► load_arch: <cache>/uops-index/<id>/<ARCH>.bin fresh? ─yes─► open (warm, ms)
//!                 └ no ─► lock, parse the XML once, write every arch's index ─► open
//! ```

mod checksum;
mod directory;
mod index;
mod layout;
mod ours;
mod sources;
mod supplement;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::{self, BufRead};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use crate::uopsxml::{self, InstrRecord, Measurement, XmlError};
use directory::{DirectoryBuilder, KeyKind, KeyTable};
use layout::ArchFile;

pub use layout::INDEX_FORMAT;
pub use ours::{embedded, supplements, EMBEDDED, SUPPLEMENTS};
pub use sources::{imported_dir, resolve, resolve_with_embedded, DataSource, EmbeddedData};

/// Errors of the dataset layer.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    /// The XML could not be read (boxed: it is large and rare).
    #[error(transparent)]
    Xml(Box<XmlError>),
    /// A file operation failed.
    #[error("cannot {action} `{}`: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What we tried, e.g. "write".
        action: &'static str,
        /// The OS error.
        #[source]
        source: io::Error,
    },
    /// The arch has no measurements in any source.
    #[error("no measurements for arch `{arch}` in {sources}; available archs: {}",
        if available.is_empty() { "(none)".to_string() } else { available.join(", ") })]
    ArchAbsent {
        /// The arch asked for.
        arch: String,
        /// The source(s) searched.
        sources: String,
        /// Archs those sources do have, sorted.
        available: Vec<String>,
    },
    /// No data source at all.
    #[error("no instruction data source (no explicit path, no environment path, nothing imported, nothing embedded)")]
    NoSource,
    /// An imported file has instructions but no measurement at all.
    #[error("`{}` has no <measurement> for any arch; refusing to import it", path.display())]
    NoMeasurements {
        /// The file.
        path: PathBuf,
    },
    /// Index encoding failed (should not happen).
    #[error("cannot encode the index: {detail}")]
    Encode {
        /// The encoder's message.
        detail: String,
    },
}

impl From<XmlError> for DatasetError {
    fn from(e: XmlError) -> Self {
        DatasetError::Xml(Box::new(e))
    }
}

/// Something went wrong with the cache, but the data is fine (worded by
/// `crate::report::warning::dataset_message`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DatasetWarning {
    /// An index file was damaged; it was rebuilt.
    CorruptIndex {
        /// The file.
        path: PathBuf,
        /// What was wrong.
        reason: String,
    },
    /// A part of an index file (a record or a key table) was damaged, found when it was
    /// first read (they are checked then, not at load): the arch's data came from the source
    /// instead, and the file was removed so the next run rebuilds it.
    DamagedOnRead {
        /// The file.
        path: PathBuf,
        /// What was wrong.
        reason: String,
    },
    /// The index could not be written (read-only cache?); data came straight from the XML.
    CacheNotWritten {
        /// The cache directory.
        dir: PathBuf,
        /// The OS error.
        reason: String,
    },
    /// A supplement of our own measurements could not be read; the source alone was used.
    SupplementUnread {
        /// The supplement, as `DataSource` displays it.
        source: String,
        /// Why.
        reason: String,
    },
}

/// Why the index was (re)built.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BuildReason {
    /// No index yet.
    Missing,
    /// The source file or suaca changed.
    Stale,
    /// The index file was damaged.
    Corrupt,
}

/// Whether `load_arch` used the cache.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CacheStatus {
    /// Read from a fresh index.
    Hit,
    /// Parsed the XML (and, unless warned, wrote the index).
    Built(BuildReason),
}

/// The instructions measured on one arch, keyed by `string`, with lookups by `iform` and
/// `iclass`.
///
/// Each record keeps only this arch's `<architecture>` (others are dropped to save memory).
/// Records from the index are read, checked and decoded on first access: a run that analyses
/// 20 instructions reads about 20 of thousands of records, which keeps a warm load in the low
/// milliseconds and its memory small. The keys are searched in the index's own sorted
/// tables, each read on the first lookup of its kind, without building maps.
#[derive(Clone, Debug)]
pub struct ArchData {
    /// The arch.
    pub arch: String,
    /// Where the data came from.
    pub source: DataSource,
    /// Whether the index cache was used.
    pub cache: CacheStatus,
    /// Cache problems found while loading ([`ArchData::damage`] tells of later ones).
    pub warnings: Vec<DatasetWarning>,
    /// The index file: record table checked, key tables and records read on demand;
    /// `None` when built from records in memory (all in `cells` and `keys`).
    file: Option<Arc<ArchFile>>,
    /// The file's path, if it is one on disk.
    path: Option<PathBuf>,
    /// The key tables, by `KeyKind`; `None` inside if the file's table is damaged.
    keys: [OnceLock<Option<Arc<KeyTable>>>; 3],
    cells: Vec<OnceLock<Option<Box<InstrRecord>>>>,
    /// Forms a supplement added (`supplement`), looked up after the source's own; none of
    /// their strings is the source's.
    filled: Vec<InstrRecord>,
    /// Set when a key table or record turned out damaged: the data read from the source
    /// instead.
    damage: OnceLock<Damage>,
}

/// A damaged key table or record was found after loading.
#[derive(Clone, Debug)]
struct Damage {
    warning: DatasetWarning,
    /// This arch read from the source, `None` if that failed too (or no longer matches).
    fallback: Option<Box<ArchData>>,
}

impl ArchData {
    /// Keeps the records measured on `arch` (and only that arch's node in each), in order.
    pub fn from_records(arch: &str, source: DataSource, records: Vec<InstrRecord>) -> Self {
        let mut kept = Vec::with_capacity(records.len());
        for mut r in records {
            r.archs
                .retain(|a| a.name == arch && a.measurement.is_some());
            r.archs.truncate(1);
            if !r.archs.is_empty() {
                kept.push(r);
            }
        }
        let mut keys = DirectoryBuilder::default();
        for (i, r) in kept.iter().enumerate() {
            // Only past 4 GiB of keys, which records in memory cannot reach first.
            let _ = keys.add(i as u32, &r.string, &r.iform, &r.iclass);
        }
        let keys = keys.finish();
        let count = kept.len() as u32;
        let table = |k| {
            // Built here from records in memory: well-formed, so never `None`.
            OnceLock::from(KeyTable::decode(keys.to_bytes(k), count).ok().map(Arc::new))
        };
        ArchData {
            keys: KeyKind::ALL.map(table),
            cells: kept
                .into_iter()
                .map(|r| OnceLock::from(Some(Box::new(r))))
                .collect(),
            ..ArchData::empty(arch, source)
        }
    }

    fn empty(arch: &str, source: DataSource) -> Self {
        ArchData {
            arch: arch.to_string(),
            source,
            cache: CacheStatus::Built(BuildReason::Missing),
            warnings: Vec::new(),
            file: None,
            path: None,
            keys: Default::default(),
            cells: Vec::new(),
            filled: Vec::new(),
            damage: OnceLock::new(),
        }
    }

    /// From an opened index: nothing of the keys or records is read yet.
    fn from_file(arch: &str, source: DataSource, file: ArchFile, path: Option<PathBuf>) -> Self {
        ArchData {
            cells: (0..file.count()).map(|_| OnceLock::new()).collect(),
            file: Some(Arc::new(file)),
            path,
            ..ArchData::empty(arch, source)
        }
    }

    /// The key table of `kind`, read and checked on first use; the source's if the file's is
    /// damaged.
    fn table(&self, kind: KeyKind) -> Option<&KeyTable> {
        let own = self.keys[kind as usize].get_or_init(|| {
            let file = self.file.as_ref()?;
            let read = file
                .section(kind as usize)
                .and_then(|b| KeyTable::decode(b, file.count()));
            match read {
                Ok(t) => Some(Arc::new(t)),
                Err(reason) => {
                    self.fallback(reason);
                    None
                }
            }
        });
        match own {
            Some(t) => Some(t),
            None => self.damage.get()?.fallback.as_ref()?.table(kind),
        }
    }

    fn rec(&self, i: usize) -> Option<&InstrRecord> {
        self.cells
            .get(i)?
            .get_or_init(|| match self.file.as_ref()?.read(i) {
                Ok(r) => Some(Box::new(r)),
                Err(reason) => {
                    let fallback = self.fallback(reason)?;
                    fallback.rec(i).cloned().map(Box::new)
                }
            })
            .as_deref()
    }

    /// This arch read from the source, once, when a part of the index file turned out
    /// damaged (`reason` of the first); the damaged file is removed so that the next run
    /// rebuilds it.
    fn fallback(&self, reason: String) -> Option<&ArchData> {
        let damage = self.damage.get_or_init(|| {
            let path = self.path.clone().unwrap_or_default();
            // Another process may have replaced the file by a good one meanwhile: removing
            // that costs one rebuild, never wrong data.
            let _ = fs::remove_file(&path);
            let fallback = index::source_key(&self.source).ok().and_then(|key| {
                let target = index::Target::Memory {
                    arch: &self.arch,
                    key: &key,
                };
                let file = index::build(&self.source, &target).ok()?.memory?;
                // Record ids are positions in the source: the same source has the same ones.
                (file.count() as usize == self.len()).then(|| {
                    Box::new(ArchData::from_file(
                        &self.arch,
                        self.source.clone(),
                        file,
                        None,
                    ))
                })
            });
            Damage {
                warning: DatasetWarning::DamagedOnRead { path, reason },
                fallback,
            }
        });
        damage.fallback.as_deref()
    }

    /// Damage found since loading (key tables and records are checked when first read):
    /// the data then comes from the source. Callers report it after reading the records.
    pub fn damage(&self) -> Option<&DatasetWarning> {
        self.damage.get().map(|d| &d.warning)
    }

    /// The record with this `string` (e.g. `ADD_01 (R64, R64)`); the first one if the data
    /// has the string twice.
    pub fn get(&self, string: &str) -> Option<&InstrRecord> {
        let own = self
            .table(KeyKind::String)
            .and_then(|t| t.ids(string).next())
            .and_then(|i| self.rec(i));
        own.or_else(|| self.supplemented(string))
    }

    /// This arch's measurement of the instruction `string`.
    pub fn measurement(&self, string: &str) -> Option<&Measurement> {
        self.get(string)?.archs.first()?.measurement.as_ref()
    }

    /// All variants with this XED iform, in document order (a supplement's after).
    pub fn by_iform(&self, iform: &str) -> Vec<&InstrRecord> {
        let own = self.table(KeyKind::Iform).into_iter();
        own.flat_map(|t| t.ids(iform))
            .filter_map(|i| self.rec(i))
            .chain(
                self.supplemented_records()
                    .iter()
                    .filter(|r| r.iform == iform),
            )
            .collect()
    }

    /// The records of the XED iclasses `iclasses` (exact names), in document order; decodes
    /// only those. A single analysis needs a few dozen of the thousands of records. The
    /// matcher looks variants up by iclass (`crate::db::InstrDb::find`), so a database built
    /// from these records describes an instruction exactly as one built from all records,
    /// also for records without an `iform` (variants `suaca measure` names itself).
    pub fn records_with_iclass<'a>(
        &'a self,
        iclasses: &'a [String],
    ) -> impl Iterator<Item = &'a InstrRecord> + 'a {
        let t = self.table(KeyKind::Iclass);
        let mut wanted: Vec<usize> = iclasses
            .iter()
            .flat_map(|c| t.into_iter().flat_map(move |t| t.ids(c)))
            .collect();
        wanted.sort_unstable();
        wanted.dedup();
        let filled = self.supplemented_records().iter();
        wanted
            .into_iter()
            .filter_map(|i| self.rec(i))
            .chain(filled.filter(|r| iclasses.contains(&r.iclass)))
    }

    /// All records, in document order (decodes every record on first use, read at once
    /// where none was read yet), then a supplement's.
    pub fn records(&self) -> impl Iterator<Item = &InstrRecord> + '_ {
        self.read_all_at_once();
        (0..self.cells.len())
            .filter_map(|i| self.rec(i))
            .chain(self.supplemented_records())
    }

    /// Fills every record's cell from one read of the file's record area when no cell is
    /// filled yet; on any damage it leaves them to `rec`, which reads one at a time and
    /// falls back to the source.
    fn read_all_at_once(&self) {
        let Some(file) = self.file.as_ref() else {
            return;
        };
        if self.cells.iter().any(|c| c.get().is_some()) {
            return;
        }
        if let Ok(all) = file.read_all() {
            for (cell, r) in self.cells.iter().zip(all) {
                let _ = cell.set(Some(Box::new(r)));
            }
        }
    }

    /// The distinct `string` keys of the source's records, sorted, without decoding any
    /// record (a supplement's are not among them).
    pub fn strings(&self) -> impl Iterator<Item = &str> + '_ {
        self.table(KeyKind::String)
            .into_iter()
            .flat_map(KeyTable::keys)
    }

    /// Number of instruction variants measured on this arch (a supplement's included).
    pub fn len(&self) -> usize {
        self.cells.len() + self.filled.len()
    }

    /// No instruction at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Result of [`import`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportReport {
    /// Where the data now lives (`<data_dir>/uops/<stem>.xml.zst`).
    pub path: PathBuf,
    /// Instructions with measurements per arch.
    pub archs: BTreeMap<String, usize>,
}

/// Validates `xml_path` (plain or zstd), then stores it zstd-compressed in
/// `<data_dir>/uops/<stem>.xml.zst` with a `<stem>.archs.json` list of its archs. Both files
/// appear atomically; importing a file of the same name again replaces it.
pub fn import(xml_path: &Path, data_dir: &Path) -> Result<ImportReport, DatasetError> {
    let name = xml_path.display().to_string();
    let archs = uopsxml::list_archs(uopsxml::open(xml_path)?, &name)?;
    if archs.is_empty() {
        return Err(DatasetError::NoMeasurements {
            path: xml_path.to_path_buf(),
        });
    }
    let dir = imported_dir(data_dir);
    let io_err = |path: &Path, action: &'static str| {
        let path = path.to_path_buf();
        move |source| DatasetError::Io {
            path,
            action,
            source,
        }
    };
    fs::create_dir_all(&dir).map_err(io_err(&dir, "create"))?;
    let file_name = xml_path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("instructions");
    let stem = file_name.strip_suffix(".zst").unwrap_or(file_name);
    let stem = stem.strip_suffix(".xml").unwrap_or(stem);
    let stem = if stem.is_empty() {
        "instructions"
    } else {
        stem
    };
    let dest = dir.join(format!("{stem}.xml.zst"));

    let mut src = io::BufReader::new(fs::File::open(xml_path).map_err(io_err(xml_path, "open"))?);
    let is_zstd = src
        .fill_buf()
        .map_err(io_err(xml_path, "read"))?
        .starts_with(&[0x28, 0xB5, 0x2F, 0xFD]);
    // Imported data outlives the run: durable before it replaces an older import.
    crate::fsutil::write_atomic_with(&dest, crate::fsutil::Durability::Synced, |w| {
        if is_zstd {
            io::copy(&mut src, w).map(drop)
        } else {
            // Level 3: a 72 MB file compresses in well under a second.
            zstd::stream::copy_encode(&mut src, w, 3)
        }
    })
    .map_err(io_err(&dest, "write"))?;

    let json = serde_json::json!({ "source": name, "archs": archs });
    let archs_path = dir.join(format!("{stem}.archs.json"));
    let text = serde_json::to_string_pretty(&json).map_err(|e| DatasetError::Encode {
        detail: e.to_string(),
    })?;
    crate::fsutil::write_atomic(&archs_path, text.as_bytes())
        .map_err(io_err(&archs_path, "write"))?;
    Ok(ImportReport { path: dest, archs })
}

/// Opens a source's XML stream and names it for error messages.
pub(crate) fn open_source(
    source: &DataSource,
) -> Result<(Box<dyn BufRead + Send>, String), DatasetError> {
    match source {
        DataSource::Embedded(e) | DataSource::Supplement(e) => Ok((
            uopsxml::open_bytes(e.zstd_xml)?,
            format!("<embedded {}>", e.name),
        )),
        _ => {
            let p = source.path().unwrap_or(Path::new(""));
            Ok((uopsxml::open(p)?, p.display().to_string()))
        }
    }
}

/// A fresh index's records, or why the index must be built.
type Probed = Result<ArchData, BuildReason>;

/// Loads `arch` from one source through the index cache in `cache_dir`.
///
/// Warm (fresh index): reads only `<ARCH>.bin`. Cold, stale or damaged: parses the XML once
/// and writes every arch's index, so switching arch later is warm too. A damaged index is
/// never an error: it is rebuilt and reported in `ArchData::warnings`.
pub fn load_arch(
    source: &DataSource,
    arch: &str,
    cache_dir: &Path,
) -> Result<ArchData, DatasetError> {
    use index::Probe;
    let key = index::source_key(source)?;
    let dir = index::index_dir(cache_dir, &key);
    let mut warnings = Vec::new();
    let absent = |available: Vec<String>| DatasetError::ArchAbsent {
        arch: arch.to_string(),
        sources: source.to_string(),
        available,
    };

    // Fast path, and the reason to rebuild otherwise.
    let probe = |warnings: &mut Vec<DatasetWarning>| -> Result<Probed, DatasetError> {
        let path = index::arch_file(&dir, arch);
        let reason = match index::probe_arch(&dir, &key, arch) {
            Probe::Fresh(ix) => {
                return Ok(Ok(ArchData::from_file(
                    arch,
                    source.clone(),
                    ix,
                    Some(path),
                )))
            }
            Probe::Missing => BuildReason::Missing,
            Probe::Stale => BuildReason::Stale,
            Probe::Corrupt(reason) => {
                warnings.push(DatasetWarning::CorruptIndex { path, reason });
                return Ok(Err(BuildReason::Corrupt));
            }
        };
        // No (fresh) arch file: a fresh manifest can still tell that the arch is absent.
        if let Probe::Fresh(m) = index::probe_manifest(&dir, &key) {
            if !m.contains_key(arch) {
                return Err(absent(m.into_keys().collect()));
            }
        }
        Ok(Err(reason))
    };

    let reason = match probe(&mut warnings)? {
        Ok(d) => return Ok(finish(d, CacheStatus::Hit, warnings)),
        Err(reason) => reason,
    };

    // Build under the directory lock; another process may have finished meanwhile.
    let lock = match index::lock(&dir) {
        Ok(l) => Some(l),
        Err(e) => {
            warnings.push(DatasetWarning::CacheNotWritten {
                dir: dir.clone(),
                reason: e.to_string(),
            });
            None
        }
    };
    if lock.is_some() && reason != BuildReason::Corrupt {
        let mut ignored = Vec::new();
        if let Ok(d) = probe(&mut ignored)? {
            return Ok(finish(d, CacheStatus::Hit, warnings));
        }
    }
    if lock.is_some() {
        let target = index::Target::Cache {
            dir: &dir,
            key: &key,
        };
        match index::build(source, &target) {
            Ok(built) => {
                if !built.manifest.contains_key(arch) {
                    return Err(absent(built.manifest.into_keys().collect()));
                }
                // Read back what was just written: only this arch is ever in memory.
                match index::probe_arch(&dir, &key, arch) {
                    Probe::Fresh(ix) => {
                        drop(lock);
                        let path = Some(index::arch_file(&dir, arch));
                        let d = ArchData::from_file(arch, source.clone(), ix, path);
                        return Ok(finish(d, CacheStatus::Built(reason), warnings));
                    }
                    _ => warnings.push(DatasetWarning::CacheNotWritten {
                        dir: dir.clone(),
                        reason: "the index just written does not read back".into(),
                    }),
                }
            }
            Err(index::BuildError::Source(e)) => return Err(e),
            Err(index::BuildError::Cache(e)) => warnings.push(DatasetWarning::CacheNotWritten {
                dir: dir.clone(),
                reason: e.to_string(),
            }),
        }
    }
    drop(lock);
    // No usable cache: this arch only, in memory.
    let built = match index::build(source, &index::Target::Memory { arch, key: &key }) {
        Ok(b) => b,
        Err(index::BuildError::Source(e)) => return Err(e),
        Err(index::BuildError::Cache(e)) => {
            return Err(DatasetError::Encode {
                detail: e.to_string(),
            })
        }
    };
    let Some(ix) = built.memory else {
        return Err(absent(built.manifest.into_keys().collect()));
    };
    let d = ArchData::from_file(arch, source.clone(), ix, None);
    Ok(finish(d, CacheStatus::Built(reason), warnings))
}

fn finish(mut d: ArchData, cache: CacheStatus, warnings: Vec<DatasetWarning>) -> ArchData {
    d.cache = cache;
    d.warnings = warnings;
    d
}

/// The archs of a source with their instruction counts (builds the index if needed).
pub fn available_archs(
    source: &DataSource,
    cache_dir: &Path,
) -> Result<BTreeMap<String, u32>, DatasetError> {
    let key = index::source_key(source)?;
    let dir = index::index_dir(cache_dir, &key);
    if let index::Probe::Fresh(m) = index::probe_manifest(&dir, &key) {
        return Ok(m);
    }
    let lock = index::lock(&dir).ok();
    if lock.is_some() {
        let target = index::Target::Cache {
            dir: &dir,
            key: &key,
        };
        match index::build(source, &target) {
            Ok(built) => return Ok(built.manifest),
            Err(index::BuildError::Source(e)) => return Err(e),
            // A cache we cannot write is not an error here either.
            Err(index::BuildError::Cache(_)) => {}
        }
    }
    match index::build(
        source,
        &index::Target::Memory {
            arch: "",
            key: &key,
        },
    ) {
        Ok(built) => Ok(built.manifest),
        Err(index::BuildError::Source(e)) => Err(e),
        Err(index::BuildError::Cache(e)) => Err(DatasetError::Encode {
            detail: e.to_string(),
        }),
    }
}

/// Tries the sources in order; the first that has `arch` wins, with the forms it lacks
/// filled from a supplement of the arch (`DataSource::Supplement`, never a source alone).
/// Other errors (unreadable or malformed file) stop the search: a broken `--uops-xml` must
/// not be silently replaced.
pub fn load_first(
    sources: &[DataSource],
    arch: &str,
    cache_dir: &Path,
) -> Result<ArchData, DatasetError> {
    let (supplements, sources): (Vec<&DataSource>, Vec<&DataSource>) = sources
        .iter()
        .partition(|s| matches!(s, DataSource::Supplement(_)));
    if sources.is_empty() {
        return Err(DatasetError::NoSource);
    }
    let mut available = BTreeSet::new();
    for s in &sources {
        match load_arch(s, arch, cache_dir) {
            Ok(d) => return Ok(supplement::fill(d, &supplements, cache_dir)),
            Err(DatasetError::ArchAbsent { available: a, .. }) => available.extend(a),
            Err(e) => return Err(e),
        }
    }
    Err(DatasetError::ArchAbsent {
        arch: arch.to_string(),
        sources: sources
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        // Only archs `--arch` accepts are offered.
        available: available
            .into_iter()
            .filter(|a| crate::uarch::names::canonical(a).is_some())
            .collect(),
    })
}
