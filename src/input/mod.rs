//! Which bytes to analyze: object files with IACA markers, raw byte files and hex strings,
//! turned into [`Region`]s.
//!
//! Owns: reading input files, format detection, the marker rules, the [`InputError`] type.
//! Must not touch: decoding (a region is bytes, not instructions), printing, exit codes, the
//! environment.
//! Facts: object formats through the `object` crate (see `object.rs`),
//! marker bytes from Intel's `iacaMarks.h` ([`markers`] module doc), the hex format from BHive.
//!
//! ```text
//! regions_from_file ─► object: sections of kind Text ─► markers ─► Vec<Region> (+ symbol)
//! region_from_raw   ─► whole file                               ─► Region "<raw>" at 0
//! region_from_hex   ─► hex digits                               ─► Region "<hex>" at 0
//! asm::assemble     ─► GNU as ─► object ─► markers | whole code sections ─► Region + lines
//! ```

pub mod asm;
mod code;
pub mod debug_lines;
mod error;
mod hex;
pub mod markers;
mod object;
mod raw;

use std::path::Path;

use crate::ir::Region;

pub use self::code::{code_from_object, CodeBytes, Function, ObjectCode};
pub use self::error::{HexProblem, InputError};
pub use self::hex::{parse_hex, region_from_hex, HEX_SECTION};
pub use self::object::{regions_from_object, Format, ObjectRegions};
pub use self::raw::{region_from_raw, region_from_raw_bytes, RAW_SECTION};

/// The marked regions of an object file, numbered from 0 in file order.
pub fn regions_from_file(path: &Path) -> Result<Vec<Region>, InputError> {
    Ok(load_object(path)?.regions)
}

/// Like [`regions_from_file`], also returning the detected format.
pub fn load_object(path: &Path) -> Result<ObjectRegions, InputError> {
    let data = std::fs::read(path).map_err(|err| InputError::Io {
        path: path.to_owned(),
        err,
    })?;
    regions_from_object(path, &data)
}
