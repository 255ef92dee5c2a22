//! Where instruction data comes from, and a fast per-arch index of it.
//!
//! Owns: the data-source priority (`--uops-xml` > `SUACA_UOPS_XML` > imported files > embedded
//! data), `import` into the user data directory, and the binary index cache (`index`).
//! Must not touch: the environment (the CLI reads `SUACA_UOPS_XML` and passes the path in),
//! stdout/stderr (problems with the cache are returned as `DatasetWarning` values), the XML
//! schema itself (`uopsxml`).
//! Facts from: the size of uops.info's `instructions.xml` (file sizes and counts that set the performance targets:
//! 72 MB, 29 archs, 3,768 SKL measurements).
//!
//! ```text
//! resolve(explicit, env, data_dir) ─► [DataSource] ─► load_first(arch, cache_dir)
//!   └► load_arch: <cache>/uops-index/<id>/<ARCH>.bin fresh? ─yes─► decode (warm, ms)
//!                 └ no ─► lock, parse the XML once, write every arch's index ─► decode
//! ```

mod index;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::fs;
use std::io::{self, BufRead};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::uopsxml::{self, InstrRecord, Measurement, XmlError};

pub use index::INDEX_FORMAT;

/// Instruction data compiled into the binary: one arch, zstd-compressed XML.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EmbeddedData {
    /// Arch (or data set) name, e.g. `SKL`.
    pub name: &'static str,
    /// zstd-compressed (or plain) `instructions.xml` bytes.
    pub zstd_xml: &'static [u8],
}

/// One place instruction data can come from, in the order [`resolve`] ranks them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DataSource {
    /// `--uops-xml PATH`.
    ExplicitPath(PathBuf),
    /// `SUACA_UOPS_XML` (read by the CLI, handed in here).
    EnvPath(PathBuf),
    /// A file `import`ed into `<data_dir>/uops/`.
    Imported(PathBuf),
    /// Data compiled into the binary.
    Embedded(EmbeddedData),
}

impl DataSource {
    /// The file behind the source, if it is a file.
    pub fn path(&self) -> Option<&Path> {
        match self {
            DataSource::ExplicitPath(p) | DataSource::EnvPath(p) | DataSource::Imported(p) => {
                Some(p)
            }
            DataSource::Embedded(_) => None,
        }
    }
}

impl fmt::Display for DataSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataSource::ExplicitPath(p) => write!(f, "{} (--uops-xml)", p.display()),
            DataSource::EnvPath(p) => write!(f, "{} (SUACA_UOPS_XML)", p.display()),
            DataSource::Imported(p) => write!(f, "{} (imported)", p.display()),
            DataSource::Embedded(e) => write!(f, "embedded data `{}`", e.name),
        }
    }
}

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
    /// The index could not be written (read-only cache?); data came straight from the XML.
    CacheNotWritten {
        /// The cache directory.
        dir: PathBuf,
        /// The OS error.
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

/// The instructions measured on one arch, keyed by `string`, with a lookup by `iform`.
///
/// Each record keeps only this arch's `<architecture>` (others are dropped to save memory).
/// Records from the index are decoded on first access: a run that analyses 20 instructions
/// decodes about 20 of 3,768 records, which keeps a warm load in the low milliseconds.
#[derive(Clone, Debug)]
pub struct ArchData {
    /// The arch.
    pub arch: String,
    /// Where the data came from.
    pub source: DataSource,
    /// Whether the index cache was used.
    pub cache: CacheStatus,
    /// Cache problems that did not prevent loading.
    pub warnings: Vec<DatasetWarning>,
    /// Encoded records (empty when built from records in memory).
    bytes: Vec<u8>,
    /// Byte range of each encoded record in `bytes`.
    spans: Vec<(usize, usize)>,
    /// Decoded records; `None` inside only if an encoded record does not decode, which a
    /// checksum-verified index of this suaca version cannot produce.
    cells: Vec<OnceLock<Option<InstrRecord>>>,
    by_string: HashMap<String, usize>,
    by_iform: HashMap<String, Vec<usize>>,
    by_iclass: HashMap<String, Vec<usize>>,
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
        let mut d = ArchData::empty(arch, source);
        for (i, r) in kept.iter().enumerate() {
            d.add_keys(i, &r.string, &r.iform, &r.iclass);
        }
        d.cells = kept.into_iter().map(|r| OnceLock::from(Some(r))).collect();
        d
    }

    fn empty(arch: &str, source: DataSource) -> Self {
        ArchData {
            arch: arch.to_string(),
            source,
            cache: CacheStatus::Built(BuildReason::Missing),
            warnings: Vec::new(),
            bytes: Vec::new(),
            spans: Vec::new(),
            cells: Vec::new(),
            by_string: HashMap::new(),
            by_iform: HashMap::new(),
            by_iclass: HashMap::new(),
        }
    }

    fn add_keys(&mut self, i: usize, string: &str, iform: &str, iclass: &str) {
        // `string` is unique in uops.info data; on a duplicate the first one wins.
        self.by_string.entry(string.to_string()).or_insert(i);
        self.by_iform.entry(iform.to_string()).or_default().push(i);
        self.by_iclass
            .entry(iclass.to_string())
            .or_default()
            .push(i);
    }

    /// From an index payload: reads only the keys now, the records on demand.
    fn from_payload(arch: &str, source: DataSource, p: index::Payload) -> Result<Self, String> {
        let spans = p.spans()?;
        let mut d = ArchData::empty(arch, source);
        d.by_string.reserve(spans.len());
        for (i, &(a, b)) in spans.iter().enumerate() {
            // `InstrRecord` serializes `string`, `asm`, `iform`, `iclass` first (postcard
            // writes struct fields in declaration order), so the keys decode without the rest.
            let ((string, _asm, iform, iclass), _) =
                postcard::take_from_bytes::<(&str, &str, &str, &str)>(&p.bytes[a..b])
                    .map_err(|e| format!("record {i}: {e}"))?;
            d.add_keys(i, string, iform, iclass);
        }
        d.cells = (0..spans.len()).map(|_| OnceLock::new()).collect();
        d.spans = spans;
        d.bytes = p.bytes;
        Ok(d)
    }

    fn rec(&self, i: usize) -> Option<&InstrRecord> {
        self.cells
            .get(i)?
            .get_or_init(|| {
                let &(a, b) = self.spans.get(i)?;
                postcard::from_bytes(self.bytes.get(a..b)?).ok()
            })
            .as_ref()
    }

    /// The record with this `string` (e.g. `ADD_01 (R64, R64)`).
    pub fn get(&self, string: &str) -> Option<&InstrRecord> {
        self.rec(*self.by_string.get(string)?)
    }

    /// This arch's measurement of the instruction `string`.
    pub fn measurement(&self, string: &str) -> Option<&Measurement> {
        self.get(string)?.archs.first()?.measurement.as_ref()
    }

    /// All variants with this XED iform, in document order.
    pub fn by_iform(&self, iform: &str) -> Vec<&InstrRecord> {
        self.by_iform
            .get(iform)
            .map(|v| v.iter().filter_map(|&i| self.rec(i)).collect())
            .unwrap_or_default()
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
        let mut wanted: Vec<usize> = iclasses
            .iter()
            .filter_map(|c| self.by_iclass.get(c))
            .flatten()
            .copied()
            .collect();
        wanted.sort_unstable();
        wanted.dedup();
        wanted.into_iter().filter_map(|i| self.rec(i))
    }

    /// All records, in document order (decodes every record on first use).
    pub fn records(&self) -> impl Iterator<Item = &InstrRecord> + '_ {
        (0..self.cells.len()).filter_map(|i| self.rec(i))
    }

    /// The `string` keys of all records, unordered, without decoding anything.
    pub fn strings(&self) -> impl Iterator<Item = &str> + '_ {
        self.by_string.keys().map(String::as_str)
    }

    /// Number of instruction variants measured on this arch.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// No instruction at all.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
}

/// The directory `import` copies files into.
pub fn imported_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("uops")
}

/// Sources in priority order: explicit path, environment path, imported files (newest first).
/// The first source that has the arch wins ([`load_first`]).
pub fn resolve(explicit: Option<&Path>, env: Option<&Path>, data_dir: &Path) -> Vec<DataSource> {
    resolve_with_embedded(explicit, env, data_dir, &[])
}

/// [`resolve`], then the data compiled into the binary, `(name, zstd-xml)` pairs.
pub fn resolve_with_embedded(
    explicit: Option<&Path>,
    env: Option<&Path>,
    data_dir: &Path,
    embedded: &[(&'static str, &'static [u8])],
) -> Vec<DataSource> {
    let mut out = Vec::new();
    if let Some(p) = explicit {
        out.push(DataSource::ExplicitPath(p.to_path_buf()));
    }
    if let Some(p) = env {
        out.push(DataSource::EnvPath(p.to_path_buf()));
    }
    let mut imported: Vec<(std::time::SystemTime, PathBuf)> = Vec::new();
    if let Ok(rd) = fs::read_dir(imported_dir(data_dir)) {
        for e in rd.flatten() {
            let p = e.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.ends_with(".xml.zst") || name.ends_with(".xml") {
                let mtime = e
                    .metadata()
                    .and_then(|m| m.modified())
                    .unwrap_or(std::time::UNIX_EPOCH);
                imported.push((mtime, p));
            }
        }
    }
    // Newest import first; ties by name so the order is deterministic.
    imported.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    out.extend(imported.into_iter().map(|(_, p)| DataSource::Imported(p)));
    out.extend(
        embedded
            .iter()
            .map(|&(name, zstd_xml)| DataSource::Embedded(EmbeddedData { name, zstd_xml })),
    );
    out
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
        DataSource::Embedded(e) => Ok((
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
        let reason = match index::probe_arch(&dir, &key, arch) {
            Probe::Fresh(p) => match ArchData::from_payload(arch, source.clone(), p) {
                Ok(d) => return Ok(Ok(d)),
                Err(reason) => {
                    warnings.push(DatasetWarning::CorruptIndex {
                        path: index::arch_file(&dir, arch),
                        reason,
                    });
                    return Ok(Err(BuildReason::Corrupt));
                }
            },
            Probe::Missing => BuildReason::Missing,
            Probe::Stale => BuildReason::Stale,
            Probe::Corrupt(reason) => {
                warnings.push(DatasetWarning::CorruptIndex {
                    path: index::arch_file(&dir, arch),
                    reason,
                });
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
                    Probe::Fresh(p) => {
                        drop(lock);
                        let d = ArchData::from_payload(arch, source.clone(), p)
                            .map_err(|detail| DatasetError::Encode { detail })?;
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
    let built = match index::build(source, &index::Target::Memory { arch }) {
        Ok(b) => b,
        Err(index::BuildError::Source(e)) => return Err(e),
        Err(index::BuildError::Cache(e)) => {
            return Err(DatasetError::Encode {
                detail: e.to_string(),
            })
        }
    };
    let Some(payload) = built.payload else {
        return Err(absent(built.manifest.into_keys().collect()));
    };
    let d = ArchData::from_payload(arch, source.clone(), payload)
        .map_err(|detail| DatasetError::Encode { detail })?;
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
    match index::build(source, &index::Target::Memory { arch: "" }) {
        Ok(built) => Ok(built.manifest),
        Err(index::BuildError::Source(e)) => Err(e),
        Err(index::BuildError::Cache(e)) => Err(DatasetError::Encode {
            detail: e.to_string(),
        }),
    }
}

/// Tries the sources in order; the first that has `arch` wins. Other errors (unreadable or
/// malformed file) stop the search: a broken `--uops-xml` must not be silently replaced.
pub fn load_first(
    sources: &[DataSource],
    arch: &str,
    cache_dir: &Path,
) -> Result<ArchData, DatasetError> {
    if sources.is_empty() {
        return Err(DatasetError::NoSource);
    }
    let mut available = BTreeSet::new();
    for s in sources {
        match load_arch(s, arch, cache_dir) {
            Ok(d) => return Ok(d),
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
