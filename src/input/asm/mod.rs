//! Assembly text input: GNU `as` turns the text into an ELF object, whose regions are then
//! read like any object file's, and every instruction maps back to its source line.
//!
//! Owns: running the assembler (path given by the caller), mapping its messages to the
//! user's file and lines, the regions of assembly text (markers, region comments, or each
//! code section whole), [`SourceLines`].
//! Must not touch: printing, the environment, temporary directories (the caller gives a
//! scratch directory), decoding.
//! Facts: GNU as (binutils) command line `as --64 -o OUT IN`, AT&T syntax unless the text
//! says `.intel_syntax`; its messages are `FILE:LINE: Error: ...`. How lines are found:
//! `prep` puts a label `__suaca_line_N:` in front of each instruction line (same line, so
//! line numbers do not move); the labels land in the object's symbol table with their
//! section offsets.
//!
//! ```text
//! text ─► prep (labels, region comments → IACA bytes) ─► as --64 ─► ELF
//!      ─► object::regions_from_object (markers) | whole code sections ─► Region
//!      ─► symbol table ─► SourceLines (section, offset → line)
//! ```

mod prep;

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

use ::object::{Object, ObjectSection, ObjectSymbol, SectionKind, SymbolKind};
use thiserror::Error;

pub use self::prep::{looks_like_assembly, prepare, Prepared, LINE_LABEL_PREFIX};
use super::{regions_from_object, InputError};
use crate::ir::Region;

/// Where to assemble and how to name the input in messages.
#[derive(Clone, Copy, Debug)]
pub struct AsmOptions<'a> {
    /// The assembler to run (`as`, or a full path).
    pub assembler: &'a Path,
    /// An existing directory for the temporary source and object files.
    pub scratch: &'a Path,
    /// The input's name in messages (`loop.s`, `<stdin>`).
    pub name: &'a str,
}

/// Assembled text: its regions and where their instructions came from.
#[derive(Clone, Debug)]
pub struct Assembled {
    /// The regions, numbered in file order.
    pub regions: Vec<Region>,
    /// Source line of each labelled address.
    pub lines: SourceLines,
    /// How the regions were found.
    pub regions_from: RegionSource,
    /// The assembler's warnings, mapped to the user's file.
    pub warnings: Vec<String>,
    /// The object file `as` wrote (its code and `.loc` line tables are read again when the
    /// text has no markers).
    pub object: Vec<u8>,
}

/// How the regions of assembly text were delimited.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RegionSource {
    /// IACA/MSVC marker bytes, or `LLVM-MCA`/`OSACA` comments.
    Markers,
    /// No markers: each code section is one region (the caller looks for loops first).
    WholeSections,
}

/// Why assembly text could not be turned into regions.
#[derive(Debug, Error)]
pub enum AsmError {
    /// The assembler does not exist.
    #[error("cannot run the assembler `{}`: not found; reading assembly text needs GNU as (binutils)", tool.display())]
    AssemblerMissing {
        /// The program that was tried.
        tool: PathBuf,
    },
    /// The assembler could not be started for another reason.
    #[error("cannot run the assembler `{}`: {err}", tool.display())]
    AssemblerFailed {
        /// The program that was tried.
        tool: PathBuf,
        /// What the operating system said.
        err: io::Error,
    },
    /// The assembler rejected the text; `messages` are its lines, mapped to the user's file.
    #[error("{name}: the assembler rejected the input:\n{}", messages.join("\n"))]
    Rejected {
        /// The input's name.
        name: String,
        /// `name:LINE: Error: ...` lines.
        messages: Vec<String>,
    },
    /// The text is not UTF-8.
    #[error("{name}: not assembly text (not UTF-8)")]
    NotText {
        /// The input's name.
        name: String,
    },
    /// A scratch file could not be written or read.
    #[error("cannot use the scratch file {}: {err}", path.display())]
    Scratch {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        err: io::Error,
    },
    /// The object has no usable regions (marker errors, no code).
    #[error("{err}{}", line.map(|l| format!(" (source line {l})")).unwrap_or_default())]
    Regions {
        /// What the object reader found.
        err: InputError,
        /// The source line of the offending marker, when known.
        line: Option<u32>,
    },
}

/// Source lines of instruction addresses, per section name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceLines {
    /// Section name → address → 1-based line.
    by_section: BTreeMap<String, BTreeMap<u64, u32>>,
}

impl SourceLines {
    /// Records that the instruction at `address` of `section` comes from `line`.
    pub fn insert(&mut self, section: &str, address: u64, line: u32) {
        let m = self.by_section.entry(section.to_string()).or_default();
        // Several labels at one address: the first line wins (a prefix on its own line).
        let e = m.entry(address).or_insert(line);
        *e = (*e).min(line);
    }

    /// The source line of the instruction of `len` bytes at `address` in `section`: the
    /// first labelled address inside it.
    pub fn line_of(&self, section: &str, address: u64, len: u64) -> Option<u32> {
        let m = self.by_section.get(section)?;
        m.range(address..address.saturating_add(len.max(1)))
            .next()
            .map(|(_, &l)| l)
    }

    /// The line labelled at or before `address` (for marker errors).
    fn line_before(&self, section: &str, address: u64) -> Option<u32> {
        let m = self.by_section.get(section)?;
        m.range(..=address).next_back().map(|(_, &l)| l)
    }

    /// Whether no line was recorded.
    pub fn is_empty(&self) -> bool {
        self.by_section.is_empty()
    }
}

/// Assembles `source` and reads its regions (see the module doc).
pub fn assemble(source: &[u8], opts: &AsmOptions<'_>) -> Result<Assembled, AsmError> {
    let text = std::str::from_utf8(source).map_err(|_| AsmError::NotText {
        name: opts.name.to_string(),
    })?;
    let prepared = prepare(text);
    let src_path = opts.scratch.join("input.s");
    let obj_path = opts.scratch.join("input.o");
    std::fs::write(&src_path, prepared.text.as_bytes()).map_err(|err| AsmError::Scratch {
        path: src_path.clone(),
        err,
    })?;
    let output = Command::new(opts.assembler)
        .arg("--64")
        .arg("-o")
        .arg(&obj_path)
        .arg(&src_path)
        .output()
        .map_err(|err| match err.kind() {
            io::ErrorKind::NotFound => AsmError::AssemblerMissing {
                tool: opts.assembler.to_owned(),
            },
            _ => AsmError::AssemblerFailed {
                tool: opts.assembler.to_owned(),
                err,
            },
        })?;
    let messages = map_messages(
        &String::from_utf8_lossy(&output.stderr),
        &src_path,
        opts.name,
    );
    if !output.status.success() {
        return Err(AsmError::Rejected {
            name: opts.name.to_string(),
            messages,
        });
    }
    let object = std::fs::read(&obj_path).map_err(|err| AsmError::Scratch {
        path: obj_path.clone(),
        err,
    })?;
    let mut assembled = read_object(&object, opts.name)?;
    assembled.warnings = messages;
    assembled.object = object;
    Ok(assembled)
}

/// `as`'s stderr with the scratch path replaced by the user's name; the `Assembler
/// messages:` heading is dropped.
fn map_messages(stderr: &str, src_path: &Path, name: &str) -> Vec<String> {
    let scratch = src_path.display().to_string();
    stderr
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.ends_with("Assembler messages:"))
        .map(|l| l.replace(&scratch, name))
        .collect()
}

/// The regions and line map of the object `as` wrote.
fn read_object(data: &[u8], name: &str) -> Result<Assembled, AsmError> {
    let file = ::object::File::parse(data).map_err(|e| AsmError::Regions {
        err: InputError::Corrupt {
            path: name.into(),
            detail: e.to_string(),
        },
        line: None,
    })?;
    let mut lines = SourceLines::default();
    for symbol in file.symbols() {
        let (Ok(sym_name), Some(index)) = (symbol.name(), symbol.section_index()) else {
            continue;
        };
        let Some(line) = sym_name
            .strip_prefix(LINE_LABEL_PREFIX)
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if let Ok(section) = file.section_by_index(index) {
            let section_name = section.name().unwrap_or_default().to_string();
            lines.insert(&section_name, symbol.address(), line);
        }
    }
    let path = Path::new(name);
    let (regions, regions_from) = match regions_from_object(path, data) {
        Ok(r) => (r.regions, RegionSource::Markers),
        Err(InputError::NoMarkers { .. }) => {
            let whole = whole_sections(&file);
            if whole.is_empty() {
                return Err(AsmError::Regions {
                    err: InputError::NoExecutableSection { path: path.into() },
                    line: None,
                });
            }
            (whole, RegionSource::WholeSections)
        }
        Err(err) => {
            let line = marker_location(&err).and_then(|(s, o)| lines.line_before(s, o));
            return Err(AsmError::Regions { err, line });
        }
    };
    Ok(Assembled {
        regions,
        lines,
        regions_from,
        warnings: Vec::new(),
        object: Vec::new(),
    })
}

/// Section and offset named by a marker error.
fn marker_location(err: &InputError) -> Option<(&str, u64)> {
    match err {
        InputError::StartWithoutEnd {
            section, offset, ..
        }
        | InputError::EndBeforeStart {
            section, offset, ..
        }
        | InputError::NestedStart {
            section, offset, ..
        }
        | InputError::EmptyRegion {
            section, offset, ..
        } => Some((section, *offset)),
        _ => None,
    }
}

/// Every code section with content as one region, named after its first symbol.
fn whole_sections(file: &::object::File<'_>) -> Vec<Region> {
    let mut regions = Vec::new();
    for section in file.sections().filter(|s| s.kind() == SectionKind::Text) {
        let Ok(bytes) = section.data() else { continue };
        if bytes.is_empty() {
            continue;
        }
        let symbol = file
            .symbols()
            .filter(|s| s.section_index() == Some(section.index()))
            .filter(|s| !matches!(s.kind(), SymbolKind::Section | SymbolKind::File))
            .filter_map(|s| Some((s.address(), s.kind() != SymbolKind::Text, s.name().ok()?)))
            .filter(|(_, _, n)| !n.is_empty() && !n.starts_with(LINE_LABEL_PREFIX))
            .min()
            .map(|(_, _, n)| n.to_string());
        regions.push(Region {
            index: regions.len(),
            section: section.name().unwrap_or_default().to_string(),
            address: section.address(),
            bytes: bytes.to_vec(),
            symbol,
        });
    }
    regions
}
