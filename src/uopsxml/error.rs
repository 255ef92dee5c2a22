//! Errors of the XML reader, with the file and position they refer to.
//!
//! Owns: `XmlError`, `Pos`, `AttrContext`. Must not touch: recovery (the reader stops at the
//! first error; callers decide). Lines are counted from the newlines the parser consumed.

use std::fmt;
use std::path::PathBuf;

/// A position in the (decompressed) XML text: 1-based line and 0-based byte offset.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    /// 1-based line.
    pub line: u64,
    /// 0-based byte offset in the decompressed text.
    pub byte: u64,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, byte {}", self.line, self.byte)
    }
}

/// Where a bad value sits: element, the enclosing instruction and arch if known.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AttrContext {
    /// Element name (`measurement`, `latency`, ...).
    pub element: String,
    /// `string` of the enclosing `<instruction>`, if already known.
    pub instruction: Option<String>,
    /// `name` of the enclosing `<architecture>`, if any.
    pub arch: Option<String>,
}

impl fmt::Display for AttrContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<{}>", self.element)?;
        if let Some(i) = &self.instruction {
            write!(f, " of instruction `{i}`")?;
        }
        if let Some(a) = &self.arch {
            write!(f, " (arch {a})")?;
        }
        Ok(())
    }
}

/// Everything that can go wrong reading an `instructions.xml`.
#[derive(Debug, thiserror::Error)]
pub enum XmlError {
    /// The file cannot be opened or its first bytes cannot be read.
    #[error("cannot open uops.info XML `{}`: {source}", path.display())]
    Open {
        /// The path given.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// Reading (or zstd-decompressing) failed in the middle of the file.
    #[error("{name}: read error at {pos}: {source}")]
    Io {
        /// File name or `<input>`.
        name: String,
        /// Position reached.
        pos: Pos,
        /// The I/O or decompression error.
        #[source]
        source: std::io::Error,
    },
    /// The input is not an XML document at all.
    #[error("{name}: not an XML document ({detail}) at {pos}")]
    NotXml {
        /// File name or `<input>`.
        name: String,
        /// Position.
        pos: Pos,
        /// What was found.
        detail: String,
    },
    /// The XML is malformed (quick-xml syntax or well-formedness error).
    #[error("{name}: malformed XML at {pos}: {detail}")]
    Syntax {
        /// File name or `<input>`.
        name: String,
        /// Position.
        pos: Pos,
        /// The parser's message.
        detail: String,
    },
    /// The file ends inside an element: it was cut off.
    #[error("{name}: truncated XML: end of file at {pos} inside <{open}> (opened at {opened})")]
    Truncated {
        /// File name or `<input>`.
        name: String,
        /// Where the input ended.
        pos: Pos,
        /// Innermost open element path, e.g. `root/extension/instruction`.
        open: String,
        /// Where that innermost element started.
        opened: Pos,
    },
    /// The document is XML but of another schema.
    #[error("{name}: not a uops.info instructions.xml: {detail}")]
    WrongSchema {
        /// File name or `<input>`.
        name: String,
        /// E.g. "root element is `<project>`, expected `<root>`".
        detail: String,
    },
    /// An attribute value has the wrong format.
    #[error("{name}: {ctx} at {pos}: attribute `{attr}`=\"{value}\": expected {expected}")]
    BadAttr {
        /// File name or `<input>`.
        name: String,
        /// Start of the element.
        pos: Pos,
        /// Element/instruction/arch (boxed to keep `Result`s small).
        ctx: Box<AttrContext>,
        /// Attribute name.
        attr: String,
        /// The value found.
        value: String,
        /// What was expected.
        expected: String,
    },
    /// A required attribute is missing.
    #[error("{name}: {ctx} at {pos}: missing attribute `{attr}`")]
    MissingAttr {
        /// File name or `<input>`.
        name: String,
        /// Start of the element.
        pos: Pos,
        /// Element/instruction/arch (boxed to keep `Result`s small).
        ctx: Box<AttrContext>,
        /// Attribute name.
        attr: String,
    },
}

impl XmlError {
    /// The position the error refers to, if it has one.
    pub fn pos(&self) -> Option<Pos> {
        match self {
            XmlError::Io { pos, .. }
            | XmlError::NotXml { pos, .. }
            | XmlError::Syntax { pos, .. }
            | XmlError::Truncated { pos, .. }
            | XmlError::BadAttr { pos, .. }
            | XmlError::MissingAttr { pos, .. } => Some(*pos),
            XmlError::Open { .. } | XmlError::WrongSchema { .. } => None,
        }
    }
}
