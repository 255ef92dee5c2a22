//! Decoding errors: where the bytes stopped making sense, and which bytes they were.

use thiserror::Error;

/// Why a region could not be decoded.
///
/// Both variants carry the virtual address of the failing instruction, its offset from the
/// start of the region and the offending bytes as lower-case hex, so the message alone is
/// enough to find the spot in a disassembler.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum DecodeError {
    /// The bytes at `address` are not a valid 64-bit x86 instruction.
    #[error("invalid instruction at {address:#x} (offset {offset}): bytes {bytes}")]
    Invalid {
        /// Virtual address of the first byte.
        address: u64,
        /// Offset from the start of the region.
        offset: usize,
        /// The bytes iced-x86 consumed before giving up (at least one), as hex.
        bytes: String,
    },
    /// The region ends in the middle of an instruction.
    #[error("truncated instruction at {address:#x} (offset {offset}): the region ends after bytes {bytes}")]
    Truncated {
        /// Virtual address of the first byte.
        address: u64,
        /// Offset from the start of the region.
        offset: usize,
        /// The remaining bytes of the region, as hex.
        bytes: String,
    },
}

/// Formats bytes as space-separated lower-case hex (`48 01 c3`).
pub(crate) fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 3);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&format!("{b:02x}"));
    }
    out
}
