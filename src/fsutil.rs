//! Writing user files without ever leaving a half-written one.
//!
//! Owns: the atomic write (temporary file in the same directory, fsync, rename, fsync of the
//! directory). Every file suaca writes for the user goes through here.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

/// Writes `bytes` to `path` atomically: readers see the old file or the new one, never a
/// mix, even if suaca is killed mid-write. The file gets mode 0644 (temporary files are
/// created 0600).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".suaca-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
    tmp.persist(path).map_err(|e| e.error)?;
    // Make the rename itself durable.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
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

    #[test]
    fn missing_directory_is_an_error() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert!(write_atomic(&dir.path().join("no/such/dir/x"), b"x").is_err());
    }
}
