//! Resume support and atomic output: an append-only JSON-lines checkpoint of finished
//! variants (fsync'd after every batch), and final files written through
//! [`crate::fsutil::write_atomic`].
//!
//! Why a kill at any byte loses at most the records after the last sync, and never corrupts
//! the ones before it:
//! - The header is written atomically ([`Checkpoint::create`]): the path holds the old file
//!   or the whole new header, never a torn header over a truncated older checkpoint.
//! - Every record is one line, written with a single `write` of `json + "\n"` at the end of
//!   the file (append mode). A kill leaves the file a prefix of what was written: whole lines
//!   and at most one torn last line.
//! - A torn line is a proper prefix of a JSON object, which is never valid JSON (the object's
//!   closing brace is its last byte), so [`load`] skips it; a line torn just before its
//!   `"\n"` is the whole record and loads as such.
//! - [`Checkpoint::append_to`] ends a torn last line with `"\n"` before appending, so the
//!   next record starts on its own line; a second kill repeats the same argument.
//!
//! `tests/repo/r9_checkpoint.rs` cuts a checkpoint around every line end and at a stride in
//! between, resumes, cuts again, and gets exactly the records of an uninterrupted run.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
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
    // Bytes, not `str` lines: a line torn inside a multi-byte character is not UTF-8.
    for line in BufReader::new(f).split(b'\n') {
        let line = line.map_err(io_err(path))?;
        match serde_json::from_slice::<Line<T>>(&line) {
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
    /// Creates a new checkpoint holding `header`, replacing any file at `path` atomically
    /// (durable once this returns).
    pub fn create(path: &Path, header: &Header) -> Result<Self, MeasureError> {
        let mut line = serde_json::to_string(&Line::<()>::Header(header.clone())).expect("json");
        line.push('\n');
        write_atomic(path, line.as_bytes())?;
        Self::open_append(path)
    }

    /// Opens an existing checkpoint for appending. A torn last line (killed mid-write) is
    /// ended first, so the next record starts on its own line.
    pub fn append_to(path: &Path) -> Result<Self, MeasureError> {
        let mut c = Self::open_append(path)?;
        let mut f = File::open(path).map_err(io_err(path))?;
        let len = f.seek(SeekFrom::End(0)).map_err(io_err(path))?;
        let mut last = [b'\n'];
        if len > 0 {
            f.seek(SeekFrom::End(-1)).map_err(io_err(path))?;
            f.read_exact(&mut last).map_err(io_err(path))?;
        }
        if last[0] != b'\n' {
            c.write_raw(b"\n")?;
        }
        Ok(c)
    }

    fn open_append(path: &Path) -> Result<Self, MeasureError> {
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(io_err(path))?;
        Ok(Checkpoint {
            path: path.to_path_buf(),
            file,
        })
    }

    /// The whole line and its newline in one `write_all`: a kill tears at most this line.
    fn write_raw(&mut self, bytes: &[u8]) -> Result<(), MeasureError> {
        let p = self.path.clone();
        self.file.write_all(bytes).map_err(io_err(&p))
    }

    /// Appends one finished record.
    pub fn push<T: Serialize>(&mut self, key: &str, data: &T) -> Result<(), MeasureError> {
        let line = serde_json::to_string(&Line::Variant {
            key: key.to_string(),
            data,
        })
        .expect("json");
        let mut bytes = line.into_bytes();
        bytes.push(b'\n');
        self.write_raw(&bytes)
    }

    /// Flushes to disk (fsync).
    pub fn sync(&mut self) -> Result<(), MeasureError> {
        let p = self.path.clone();
        self.file.sync_data().map_err(io_err(&p))
    }
}

/// Writes `bytes` to `path` atomically through [`crate::fsutil::write_atomic`]: readers see
/// the old file or the new one, never a partial one (devices such as `/dev/null` are written
/// in place, symbolic links followed).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), MeasureError> {
    crate::fsutil::write_atomic(path, bytes).map_err(io_err(path))
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
    fn a_line_torn_inside_a_character_is_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("ck.jsonl");
        let mut c = Checkpoint::create(&p, &header()).unwrap();
        c.push("MOV (R64, R64)", &"1 µop".to_string()).unwrap();
        c.push("ADD (R64, R64)", &"2 µops".to_string()).unwrap();
        c.sync().unwrap();
        drop(c);
        let bytes = std::fs::read(&p).unwrap();
        // Cut between the two bytes of the last `µ`.
        let mu = bytes.windows(2).rposition(|w| w == "µ".as_bytes()).unwrap();
        std::fs::write(&p, &bytes[..=mu]).unwrap();
        let (h, done) = load::<String>(&p).unwrap();
        assert_eq!((h, done.len()), (Some(header()), 1));
        // Resuming ends the torn line once; a whole file gets no empty lines.
        let mut c = Checkpoint::append_to(&p).unwrap();
        c.push("ADD (R64, R64)", &"2 µops".to_string()).unwrap();
        c.sync().unwrap();
        drop(c);
        let (_, done) = load::<String>(&p).unwrap();
        assert_eq!(done["ADD (R64, R64)"], "2 µops");
        let before = std::fs::read(&p).unwrap();
        drop(Checkpoint::append_to(&p).unwrap());
        assert_eq!(std::fs::read(&p).unwrap(), before);
    }

    #[test]
    fn create_replaces_an_older_checkpoint_whole() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("ck.jsonl");
        let mut c = Checkpoint::create(&p, &header()).unwrap();
        c.push("ADD (R64, R64)", &1.0f64).unwrap();
        c.sync().unwrap();
        drop(c);
        let other = Header {
            arch: "ZEN5".into(),
            ..header()
        };
        drop(Checkpoint::create(&p, &other).unwrap());
        let (h, done) = load::<f64>(&p).unwrap();
        assert_eq!((h, done.len()), (Some(other), 0));
        // No temporary file left next to it.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
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
