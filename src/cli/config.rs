//! The defaults stored by `--setup ARCH N` and shown by `--print-default` (thesis §2.8),
//! kept as TOML in the user config directory. Written atomically.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// File name inside the config directory.
pub const CONFIG_FILE: &str = "config.toml";

/// Stored defaults; absent values fall back to the built-in ones.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// Default microarchitecture.
    pub arch: Option<String>,
    /// Default iteration count.
    pub iterations: Option<u32>,
}

/// Problems with the config file.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The file is not valid TOML of the expected shape.
    #[error("{path}: not a valid suaca config file: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// What was wrong.
        message: String,
    },
}

impl Config {
    /// Reads the config from `dir`; a missing file gives the empty config.
    pub fn load(dir: &Path) -> Result<Config, ConfigError> {
        let path = dir.join(CONFIG_FILE);
        match std::fs::read_to_string(&path) {
            Ok(text) => toml::from_str(&text).map_err(|e| ConfigError::Parse {
                path,
                message: e.message().to_string(),
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Config::default()),
            Err(source) => Err(ConfigError::Io { path, source }),
        }
    }

    /// Writes the config to `dir` atomically (temporary file + rename).
    pub fn save(&self, dir: &Path) -> Result<PathBuf, ConfigError> {
        let path = dir.join(CONFIG_FILE);
        let io = |source| ConfigError::Io {
            path: path.clone(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(io)?;
        let text = toml::to_string(self).map_err(|e| ConfigError::Parse {
            path: path.clone(),
            message: e.to_string(),
        })?;
        crate::fsutil::write_atomic(&path, text.as_bytes()).map_err(io)?;
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_missing_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert_eq!(Config::load(dir.path()).expect("empty"), Config::default());
        let c = Config {
            arch: Some("SKL".into()),
            iterations: Some(500),
        };
        c.save(dir.path()).expect("saved");
        assert_eq!(Config::load(dir.path()).expect("loaded"), c);
    }

    #[test]
    fn corrupt_file_is_an_error() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join(CONFIG_FILE), "arch = [").expect("write");
        assert!(matches!(
            Config::load(dir.path()),
            Err(ConfigError::Parse { .. })
        ));
    }
}
