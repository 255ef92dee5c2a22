//! Writing user files without ever leaving a half-written one.
//!
//! Owns: the atomic write (temporary file in the same directory, fsync, rename, fsync of the
//! directory). Every file suaca writes goes through here: reports, DOT files, config,
//! batch output, measure output and checkpoint headers, imported data and the index cache.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

/// Whether an atomic write must survive a power loss once it returns.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Durability {
    /// fsync the file before the rename and the directory after it (user files).
    Synced,
    /// Rename only: a crash of the machine may lose the new file, but readers still never
    /// see a partial one. For caches whose files carry a checksum and are rebuilt.
    Unsynced,
}

/// Writes `bytes` to `path` atomically: readers see the old file or the new one, never a
/// mix, even if suaca is killed mid-write. The file gets mode 0644 (temporary files are
/// created 0600).
///
/// A path that is not a regular file (`/dev/null`, `/dev/stdout`, a FIFO) is written in
/// place: replacing it would destroy the device. A symbolic link is followed, so the link
/// stays and its target gets the new content.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_with(path, Durability::Synced, |w| w.write_all(bytes))
}

/// [`write_atomic`] for content produced by `write` (buffered), for files too large to hold
/// in memory first: the index cache, imported data.
pub fn write_atomic_with(
    path: &Path,
    durability: Durability,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    if let Ok(meta) = std::fs::metadata(path) {
        if !meta.is_file() {
            if meta.is_dir() {
                return Err(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    "is a directory",
                ));
            }
            let mut device = std::fs::OpenOptions::new().write(true).open(path)?;
            return write(&mut device);
        }
    }
    let resolved;
    let path = match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            resolved = std::fs::canonicalize(path)?;
            resolved.as_path()
        }
        _ => path,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".suaca-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    {
        let mut w = BufWriter::with_capacity(1 << 16, tmp.as_file_mut());
        write(&mut w)?;
        w.flush()?;
    }
    if durability == Durability::Synced {
        tmp.as_file().sync_all()?;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
    tmp.persist(path).map_err(|e| e.error)?;
    // Make the rename itself durable.
    if durability == Durability::Synced {
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_whole_files_and_leaves_no_temporaries() {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("out.dot");
        write_atomic(&p, b"first version, longer").expect("write");
        write_atomic(&p, b"second").expect("write");
        assert_eq!(std::fs::read(&p).expect("read"), b"second");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("dir")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&p).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o644);
        }
    }

    /// A test once "atomically" replaced /dev/null with a regular file: devices are written
    /// in place.
    #[test]
    #[cfg(unix)]
    fn devices_are_written_in_place() {
        use std::os::unix::fs::FileTypeExt;
        let null = Path::new("/dev/null");
        if !std::fs::metadata(null).is_ok_and(|m| m.file_type().is_char_device()) {
            eprintln!("skipped: /dev/null is not a character device here");
            return;
        }
        write_atomic(null, b"discarded").expect("write");
        let m = std::fs::metadata(null).expect("meta");
        assert!(m.file_type().is_char_device());
    }

    #[test]
    #[cfg(unix)]
    fn symlinks_are_followed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("real.dot");
        let link = dir.path().join("link.dot");
        std::fs::write(&target, b"old").expect("write");
        std::os::unix::fs::symlink(&target, &link).expect("symlink");
        write_atomic(&link, b"new").expect("write");
        assert!(std::fs::symlink_metadata(&link)
            .expect("meta")
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&target).expect("read"), b"new");
    }

    #[test]
    fn streamed_content_replaces_whole_files() {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("index.bin");
        write_atomic(&p, &[b'x'; 200_000]).expect("write");
        // Written in pieces larger and smaller than the buffer, without fsync.
        write_atomic_with(&p, Durability::Unsynced, |w| {
            w.write_all(b"head")?;
            w.write_all(&[b'y'; 100_000])?;
            w.write_all(b"tail")
        })
        .expect("write");
        let got = std::fs::read(&p).expect("read");
        assert_eq!(got.len(), 100_008);
        assert!(got.starts_with(b"head") && got.ends_with(b"tail"));
        // A failing writer leaves the old file and no temporary.
        let e = write_atomic_with(&p, Durability::Synced, |w| {
            w.write_all(b"partial")?;
            Err(io::Error::other("disk on fire"))
        })
        .expect_err("fails");
        assert_eq!(e.to_string(), "disk on fire");
        assert_eq!(std::fs::read(&p).expect("read"), got);
        assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 1);
    }

    #[test]
    fn directories_are_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert!(write_atomic(dir.path(), b"x").is_err());
    }

    #[test]
    fn missing_directory_is_an_error() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert!(write_atomic(&dir.path().join("no/such/dir/x"), b"x").is_err());
    }
}
