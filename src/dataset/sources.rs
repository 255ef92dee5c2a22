//! Where instruction data can come from and in which order they are tried: the user's
//! files, the data compiled into the binary, and our own measurements that fill forms a
//! source lacks (`DataSource::Supplement`).

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

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
    /// Our own measurements of one arch compiled into the binary, never a source on their
    /// own: they fill in the forms the source that has the arch lacks
    /// ([`super::load_first`]). `name` is the arch.
    Supplement(EmbeddedData),
}

impl DataSource {
    /// The file behind the source, if it is a file.
    pub fn path(&self) -> Option<&Path> {
        match self {
            DataSource::ExplicitPath(p) | DataSource::EnvPath(p) | DataSource::Imported(p) => {
                Some(p)
            }
            DataSource::Embedded(_) | DataSource::Supplement(_) => None,
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
            DataSource::Supplement(e) => write!(f, "suaca's own `{}` measurements", e.name),
        }
    }
}

/// The directory `import` copies files into.
pub fn imported_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("uops")
}

/// Sources in priority order: explicit path, environment path, imported files (newest first).
/// The first source that has the arch wins ([`super::load_first`]).
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
