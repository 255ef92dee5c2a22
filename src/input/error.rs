//! The one error type of the `input` area.
//!
//! Owns: [`InputError`] and [`HexProblem`], with the context a user needs to find the problem
//! (file path, section, offset within the section, position in a hex string).
//! Must not touch: printing or exit codes; the CLI decides how errors are shown.
//! Facts: message style follows `docs/style-anchors.md` (lower case, no trailing period, one
//! line, the file first).

use std::fmt;
use std::io;
use std::path::PathBuf;

use thiserror::Error;

/// Why a file, raw input or hex string could not be turned into regions.
///
/// Every message is one line that starts with the file (hex input has none). Offsets are
/// byte offsets from the start of the named section, printed in hex as `section+0x1f`.
#[derive(Debug, Error)]
pub enum InputError {
    /// The file could not be read (missing, permissions, a directory, ...).
    #[error("{}: cannot read file: {err}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said. Kept out of `source()` because the message
        /// already shows it.
        err: io::Error,
    },
    /// The file's magic number is not one of a known object file format.
    #[error(
        "{}: not an object file (unrecognised format); use --raw to analyze its bytes as code",
        path.display()
    )]
    NotObject {
        /// The file.
        path: PathBuf,
    },
    /// A recognised container that holds no single object (archive, universal binary, ...).
    #[error("{}: unsupported file kind: {kind}; extract the x86-64 object first", path.display())]
    UnsupportedKind {
        /// The file.
        path: PathBuf,
        /// What the file is, e.g. `archive`.
        kind: &'static str,
    },
    /// The headers of an object file are cut short or inconsistent.
    #[error("{}: truncated or corrupt headers: {detail}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What the object reader found wrong.
        detail: String,
    },
    /// An executable section's bytes cannot be read (out of the file's bounds, bad address).
    #[error("{}: truncated or corrupt section {section}: {detail}", path.display())]
    CorruptSection {
        /// The file.
        path: PathBuf,
        /// The section's name.
        section: String,
        /// What was found wrong.
        detail: String,
    },
    /// A valid object file for another architecture.
    #[error("{}: unsupported architecture {arch}: only x86-64 code can be analyzed", path.display())]
    WrongArchitecture {
        /// The file.
        path: PathBuf,
        /// The file's architecture, e.g. `aarch64`.
        arch: String,
    },
    /// The object file has no executable section with content.
    #[error("{}: no executable section", path.display())]
    NoExecutableSection {
        /// The file.
        path: PathBuf,
    },
    /// The executable sections hold no IACA or MSVC marker.
    #[error(
        "{}: no IACA markers found; use --raw or --hex to analyze bytes without markers",
        path.display()
    )]
    NoMarkers {
        /// The file.
        path: PathBuf,
    },
    /// A start marker is not followed by an end marker in the same section.
    #[error("{}: start marker at {section}+{offset:#x} has no end marker", path.display())]
    StartWithoutEnd {
        /// The file.
        path: PathBuf,
        /// The section holding the start marker.
        section: String,
        /// Offset of the start marker's first byte.
        offset: u64,
    },
    /// An end marker with no open start marker before it.
    #[error(
        "{}: end marker at {section}+{offset:#x} comes before any start marker",
        path.display()
    )]
    EndBeforeStart {
        /// The file.
        path: PathBuf,
        /// The section holding the end marker.
        section: String,
        /// Offset of the end marker's first byte.
        offset: u64,
    },
    /// A second start marker before the first one's end marker.
    #[error(
        "{}: nested start marker at {section}+{offset:#x}: the start marker at {section}+{outer:#x} has no end marker yet",
        path.display()
    )]
    NestedStart {
        /// The file.
        path: PathBuf,
        /// The section holding both markers.
        section: String,
        /// Offset of the still open start marker.
        outer: u64,
        /// Offset of the second start marker.
        offset: u64,
    },
    /// An end marker directly after a start marker: nothing to analyze.
    #[error(
        "{}: empty region at {section}+{offset:#x}: the end marker directly follows the start marker",
        path.display()
    )]
    EmptyRegion {
        /// The file.
        path: PathBuf,
        /// The section holding the markers.
        section: String,
        /// Offset of the start marker.
        offset: u64,
    },
    /// Markers exist, but only outside executable sections (e.g. copied into `.data`).
    #[error(
        "{}: markers found only in non-executable section {section} (first at {section}+{offset:#x})",
        path.display()
    )]
    MarkersNotExecutable {
        /// The file.
        path: PathBuf,
        /// The first non-executable section with a marker.
        section: String,
        /// Offset of the first marker in it.
        offset: u64,
    },
    /// A raw input file with no bytes.
    #[error("{}: file is empty", path.display())]
    EmptyFile {
        /// The file.
        path: PathBuf,
    },
    /// A hex string that is not a sequence of bytes.
    #[error("invalid hex string at position {position}: {problem}")]
    InvalidHex {
        /// 1-based character position of the problem in the string.
        position: usize,
        /// What is wrong there.
        problem: HexProblem,
    },
    /// A hex string with no digits at all.
    #[error("invalid hex string: no bytes given")]
    EmptyHex,
}

/// What is wrong at a position of a hex string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HexProblem {
    /// A character that is neither a hex digit nor whitespace.
    NotHexDigit(char),
    /// A group (text between whitespace) with an odd number of digits.
    OddDigits,
    /// A `0x` prefix with no digits after it.
    EmptyPrefix,
}

impl fmt::Display for HexProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HexProblem::NotHexDigit(c) => write!(f, "{c:?} is not a hex digit"),
            HexProblem::OddDigits => f.write_str("odd number of hex digits in this group"),
            HexProblem::EmptyPrefix => f.write_str("0x prefix without digits"),
        }
    }
}

impl InputError {
    /// The file the error is about, when there is one (hex input has none).
    pub fn path(&self) -> Option<&std::path::Path> {
        match self {
            InputError::Io { path, .. }
            | InputError::NotObject { path }
            | InputError::UnsupportedKind { path, .. }
            | InputError::Corrupt { path, .. }
            | InputError::CorruptSection { path, .. }
            | InputError::WrongArchitecture { path, .. }
            | InputError::NoExecutableSection { path }
            | InputError::NoMarkers { path }
            | InputError::StartWithoutEnd { path, .. }
            | InputError::EndBeforeStart { path, .. }
            | InputError::NestedStart { path, .. }
            | InputError::EmptyRegion { path, .. }
            | InputError::MarkersNotExecutable { path, .. }
            | InputError::EmptyFile { path } => Some(path),
            InputError::InvalidHex { .. } | InputError::EmptyHex => None,
        }
    }
}
