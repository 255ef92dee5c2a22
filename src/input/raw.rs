//! Raw byte input (`--raw FILE`): the whole file is the code to analyze.
//!
//! Owns: reading a file of bare machine code into the single region `<raw>`.
//! Must not touch: object formats, markers (none are needed or searched), decoding.
//! Facts: none beyond the file itself; the address is 0 because the bytes carry no load
//! address.

use std::path::Path;

use crate::input::InputError;
use crate::ir::Region;

/// Section name of a region that came from a raw file.
pub const RAW_SECTION: &str = "<raw>";

/// The whole file as one region: index 0, section `<raw>`, address 0.
pub fn region_from_raw(path: &Path) -> Result<Region, InputError> {
    let bytes = std::fs::read(path).map_err(|err| InputError::Io {
        path: path.to_owned(),
        err,
    })?;
    region_from_raw_bytes(path, bytes)
}

/// Like [`region_from_raw`] for bytes already in memory; `path` is only used in errors.
pub fn region_from_raw_bytes(path: &Path, bytes: Vec<u8>) -> Result<Region, InputError> {
    if bytes.is_empty() {
        return Err(InputError::EmptyFile {
            path: path.to_owned(),
        });
    }
    Ok(Region {
        index: 0,
        section: RAW_SECTION.to_owned(),
        address: 0,
        bytes,
        symbol: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_become_one_region() {
        let region = region_from_raw_bytes(Path::new("x.bin"), vec![0x48, 0x01, 0xd8]).unwrap();
        assert_eq!(region.index, 0);
        assert_eq!(region.section, "<raw>");
        assert_eq!(region.address, 0);
        assert_eq!(region.bytes, vec![0x48, 0x01, 0xd8]);
    }

    #[test]
    fn empty_file_is_an_error() {
        let err = region_from_raw_bytes(Path::new("x.bin"), vec![]).unwrap_err();
        assert_eq!(err.to_string(), "x.bin: file is empty");
    }
}
