//! Directories, environment and data sources as the binary sees them.

use std::path::{Path, PathBuf};

use suaca::dataset::{self, DataSource};

use crate::Failure;

/// Environment variable naming an instructions.xml.
pub const UOPS_XML_ENV: &str = "SUACA_UOPS_XML";

/// Data compiled into the binary (our own measurements; see `data/measured/README.md`).
pub const EMBEDDED: &[(&str, &[u8])] =
    &[("ZEN4", include_bytes!("../../data/measured/ZEN4.xml.zst"))];

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

/// The data sources in priority order.
pub fn sources(explicit: Option<&Path>, dirs: &Dirs) -> Vec<DataSource> {
    let env = std::env::var_os(UOPS_XML_ENV).map(PathBuf::from);
    dataset::resolve_with_embedded(explicit, env.as_deref(), &dirs.data, EMBEDDED)
}
