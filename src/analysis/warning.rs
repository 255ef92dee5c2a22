//! What the analysis warns about, as data; the words are made in `crate::report::warning`
//! for the text report, standard error and the JSON `warnings` strings alike.

use crate::dataset::DatasetWarning;

/// One warning of a report or of one region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Warning {
    /// A line without instruction data for the arch: it is left out of the analysis.
    NoData {
        /// The line (0-based in its region).
        line: usize,
        /// Its instruction (Intel syntax).
        text: String,
        /// The arch.
        arch: String,
    },
    /// A LOCK-prefixed instruction whose arch data has only the plain form: the plain form's
    /// figures stand in, though a locked operation takes longer.
    LockIgnored {
        /// The line (0-based in its region).
        line: usize,
        /// Its instruction (Intel syntax).
        text: String,
        /// The arch.
        arch: String,
    },
    /// `-b` asked for the branch analysis of a region without a conditional jump.
    NoConditionalJump,
    /// A warning of the assembler, in its own words (mapped to the user's file).
    Assembler(String),
    /// The instruction data's cache could not be used as it is.
    Dataset(DatasetWarning),
    /// An option of another tool (llvm-mca, IACA) that has no meaning here was ignored; the
    /// note as the command line worded it.
    IgnoredOption(String),
}
