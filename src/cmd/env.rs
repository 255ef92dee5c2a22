//! Directories, environment and data sources as the binary sees them, and the one choice
//! of the default arch that the analysis, `batch` and `profile` share.

use std::path::{Path, PathBuf};

use suaca::cli::Config;
use suaca::dataset::{self, DataSource, DatasetError};
use suaca::uarch::{self, host};

use crate::Failure;

/// Environment variable naming an instructions.xml.
pub const UOPS_XML_ENV: &str = "SUACA_UOPS_XML";

/// The per-user directories (overridable for tests with `SUACA_HOME`).
pub struct Dirs {
    /// Imported data.
    pub data: PathBuf,
    /// Index cache.
    pub cache: PathBuf,
    /// `--setup` defaults.
    pub config: PathBuf,
}

/// Resolves the user directories: `$SUACA_HOME/{data,cache,config}` when set, else the
/// platform's (XDG on Linux).
pub fn dirs() -> Result<Dirs, Failure> {
    if let Some(home) = std::env::var_os("SUACA_HOME") {
        let home = PathBuf::from(home);
        return Ok(Dirs {
            data: home.join("data"),
            cache: home.join("cache"),
            config: home.join("config"),
        });
    }
    let p = directories::ProjectDirs::from("org", "suaca", "suaca").ok_or_else(|| {
        Failure::input("cannot determine the user directories (no home directory); set SUACA_HOME")
    })?;
    Ok(Dirs {
        data: p.data_dir().to_path_buf(),
        cache: p.cache_dir().to_path_buf(),
        config: p.config_dir().to_path_buf(),
    })
}

/// The data sources in priority order, then the supplements.
pub fn sources(explicit: Option<&Path>, dirs: &Dirs) -> Vec<DataSource> {
    let env = std::env::var_os(UOPS_XML_ENV).map(PathBuf::from);
    let mut sources =
        dataset::resolve_with_embedded(explicit, env.as_deref(), &dirs.data, dataset::EMBEDDED);
    sources.extend(dataset::supplements());
    sources
}

/// Where to get data, for every message about missing data.
pub const DATA_HINT: &str = "get data with `suaca data fetch` (downloads uops.info's \
instructions.xml), `suaca data import FILE`, `--uops-xml FILE` or SUACA_UOPS_XML=FILE; \
`suaca data list` shows the archs that have data";

/// A data error as the user sees it: missing data comes with [`DATA_HINT`].
pub fn data_failure(e: DatasetError) -> Failure {
    match e {
        DatasetError::ArchAbsent { .. } | DatasetError::NoSource => {
            Failure::input(format!("{e}; {DATA_HINT}"))
        }
        other => Failure::input(other),
    }
}

/// Why a command uses the arch it uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ArchOrigin {
    /// `--arch`.
    Flag,
    /// `--setup`.
    Setup,
    /// The host's, which has data.
    Host,
    /// The embedded data's (the host's arch is unknown or has no data).
    Embedded,
}

/// The arch a command runs with and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchChoice {
    /// uops.info name.
    pub name: String,
    /// Where it came from.
    pub origin: ArchOrigin,
}

impl ArchChoice {
    /// The stderr note of a defaulted arch (`None` when the user chose it with `--arch`).
    pub fn note(&self) -> Option<String> {
        let why = match self.origin {
            ArchOrigin::Flag => return None,
            ArchOrigin::Setup => "the default set with --setup".to_string(),
            ArchOrigin::Host => format!("this CPU's{}", taken_as()),
            ArchOrigin::Embedded => match host::detect().and_then(uarch::names::canonical) {
                Some(h) => format!(
                    "the embedded data's; no data for this CPU's {h}{}",
                    taken_as()
                ),
                None => "the embedded data's; this CPU is not an arch suaca describes".to_string(),
            },
        };
        Some(format!(
            "suaca: note: arch {} ({why}); --arch chooses another",
            self.name
        ))
    }
}

/// Why the host is taken for another core than its CPUID model names, as a clause.
fn taken_as() -> String {
    host::mismatch().map_or_else(String::new, |why| format!(" — {why}"))
}

/// The arch of the analysis, `batch` and `profile` alike: `--arch`, else the `--setup` one,
/// else the host's when a data source has it, else the first embedded data set's (else SKL).
pub fn choose_arch(
    flag: Option<&str>,
    config: &Config,
    sources: &[DataSource],
    cache: &Path,
) -> Result<ArchChoice, Failure> {
    let choice = |name: &str, origin| -> Result<ArchChoice, Failure> {
        let name = uarch::canonical_name(name).map_err(Failure::input)?;
        Ok(ArchChoice {
            name: name.to_string(),
            origin,
        })
    };
    if let Some(name) = flag {
        return choice(name, ArchOrigin::Flag);
    }
    if let Some(name) = &config.arch {
        return choice(name, ArchOrigin::Setup);
    }
    // The host's arch only when suaca describes it and some source has its data.
    let described_host = host::detect().filter(|h| uarch::names::canonical(h).is_some());
    if let Some(h) = described_host.filter(|h| has_data(sources, h, cache)) {
        return choice(h, ArchOrigin::Host);
    }
    choice(
        dataset::EMBEDDED
            .first()
            .map_or(FALLBACK_ARCH, |(name, _)| name),
        ArchOrigin::Embedded,
    )
}

/// Arch when nothing is embedded (only in builds without embedded data).
const FALLBACK_ARCH: &str = "SKL";

/// Whether some source has measurements for `arch` (a broken source counts as not; a
/// supplement is no source on its own).
fn has_data(sources: &[DataSource], arch: &str, cache: &Path) -> bool {
    sources
        .iter()
        .filter(|s| !matches!(s, DataSource::Supplement(_)))
        .any(|s| dataset::available_archs(s, cache).is_ok_and(|archs| archs.contains_key(arch)))
}
