//! Resume support and atomic output: an append-only JSON-lines checkpoint of finished
//! variants (fsync'd after every batch) and write-to-temp-then-rename for final files.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde::{de::DeserializeOwned, Deserialize, Serialize};

use super::MeasureError;

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> MeasureError + '_ {
    move |source| MeasureError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// First line of a checkpoint: what was being measured (a resume must match).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// Architecture name written to the XML.
    pub arch: String,
    /// CPU model string.
    pub cpu: String,
    /// suaca version.
    pub version: String,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Line<T> {
    Header(Header),
    Variant { key: String, data: T },
}

/// An open checkpoint file.
pub struct Checkpoint {
    path: PathBuf,
    file: File,
}

/// Reads a checkpoint: its header and the finished records by key. A torn last line (killed
/// mid-write) is ignored.
pub fn load<T: DeserializeOwned>(
    path: &Path,
) -> Result<(Option<Header>, HashMap<String, T>), MeasureError> {
    let f = File::open(path).map_err(io_err(path))?;
    let mut header = None;
    let mut done = HashMap::new();
    for line in BufReader::new(f).lines() {
        let line = line.map_err(io_err(path))?;
        match serde_json::from_str::<Line<T>>(&line) {
            Ok(Line::Header(h)) => header = Some(h),
            Ok(Line::Variant { key, data }) => {
                done.insert(key, data);
            }
            Err(_) => {} // torn or foreign line
        }
    }
    Ok((header, done))
}

impl Checkpoint {
    /// Creates a new checkpoint (truncating) with `header`.
    pub fn create(path: &Path, header: &Header) -> Result<Self, MeasureError> {
        let file = File::create(path).map_err(io_err(path))?;
        let mut c = Checkpoint {
            path: path.to_path_buf(),
            file,
        };
        c.write_line(&serde_json::to_string(&Line::<()>::Header(header.clone())).expect("json"))?;
        c.sync()?;
        Ok(c)
    }

    /// Opens an existing checkpoint for appending.
    pub fn append_to(path: &Path) -> Result<Self, MeasureError> {
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(io_err(path))?;
        // Terminate a torn last line so the next record starts on its own line.
        let mut c = Checkpoint {
            path: path.to_path_buf(),
            file,
        };
        c.write_line("")?;
        Ok(c)
    }

    fn write_line(&mut self, s: &str) -> Result<(), MeasureError> {
        let p = self.path.clone();
        self.file.write_all(s.as_bytes()).map_err(io_err(&p))?;
        self.file.write_all(b"\n").map_err(io_err(&p))
    }

    /// Appends one finished record.
    pub fn push<T: Serialize>(&mut self, key: &str, data: &T) -> Result<(), MeasureError> {
        let line = serde_json::to_string(&Line::Variant {
            key: key.to_string(),
            data,
        })
        .expect("json");
        self.write_line(&line)
    }

    /// Flushes to disk (fsync).
    pub fn sync(&mut self) -> Result<(), MeasureError> {
        let p = self.path.clone();
        self.file.sync_data().map_err(io_err(&p))
    }
}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, fsync'd, then
/// renamed over `path`. Readers see the old file or the new one, never a partial one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), MeasureError> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io_err(path))?;
    tmp.write_all(bytes).map_err(io_err(path))?;
    tmp.as_file().sync_all().map_err(io_err(path))?;
    tmp.persist(path).map_err(|e| MeasureError::Io {
        path: path.to_path_buf(),
        source: e.error,
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            arch: "ZEN4".into(),
            cpu: "AMD EPYC".into(),
            version: "0.1.0".into(),
        }
    }

    #[test]
    fn resume_reads_finished_and_ignores_torn_line() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("ck.jsonl");
        let mut c = Checkpoint::create(&p, &header()).unwrap();
        c.push("ADD (R64, R64)", &1.5f64).unwrap();
        c.push("SUB (R64, R64)", &2.5f64).unwrap();
        c.sync().unwrap();
        drop(c);
        // Simulate a kill in the middle of a write.
        let mut f = OpenOptions::new().append(true).open(&p).unwrap();
        f.write_all(b"{\"kind\":\"variant\",\"key\":\"XOR").unwrap();
        drop(f);
        let (h, done) = load::<f64>(&p).unwrap();
        assert_eq!(h, Some(header()));
        assert_eq!(done.len(), 2);
        assert_eq!(done["SUB (R64, R64)"], 2.5);
        // Appending after the torn line still yields parseable records.
        let mut c = Checkpoint::append_to(&p).unwrap();
        c.push("XOR (R64, R64)", &3.0f64).unwrap();
        c.sync().unwrap();
        let (_, done) = load::<f64>(&p).unwrap();
        assert_eq!(done.len(), 3);
    }

    #[test]
    fn atomic_write_replaces() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.xml");
        write_atomic(&p, b"old").unwrap();
        write_atomic(&p, b"new").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new");
        // No temporary files left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
