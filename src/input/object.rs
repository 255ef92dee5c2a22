//! Object files (ELF, PE/COFF, Mach-O): the executable sections, their marked regions, and the
//! symbol that encloses each region.
//!
//! Owns: format detection, the x86-64 check, choosing code sections by kind, naming regions.
//! Must not touch: marker rules (delegated to [`markers`](super::markers)), decoding.
//! Facts: everything comes from the `object` crate's reader. Code sections are those it
//! classifies as [`SectionKind::Text`] (ELF `SHF_EXECINSTR`, COFF `IMAGE_SCN_CNT_CODE`, Mach-O
//! `S_ATTR_*_INSTRUCTIONS`), never chosen by name. Addresses are the ones the file states:
//! virtual addresses in linked files, section-relative (usually 0-based) in relocatable objects.

use std::cmp::Reverse;
use std::fmt;
use std::path::Path;

use ::object::{
    Architecture, FileKind, Object, ObjectSection, ObjectSymbol, SectionIndex, SectionKind,
    SymbolKind,
};

use super::markers::{self, Chunk, MarkerError};
use super::InputError;
use crate::ir::Region;

/// The container format of an object file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// ELF: executables, relocatable objects, shared libraries.
    Elf,
    /// COFF relocatable object (`.obj`).
    Coff,
    /// PE image (`.exe`, `.dll`).
    Pe,
    /// Mach-O: executables, objects, dylibs.
    MachO,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Elf => "ELF",
            Format::Coff => "COFF",
            Format::Pe => "PE",
            Format::MachO => "Mach-O",
        })
    }
}

/// The regions of an object file and the format they were read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectRegions {
    /// The detected container format.
    pub format: Format,
    /// The marked regions, numbered in file order (section table order, then offset).
    pub regions: Vec<Region>,
}

/// An executable section with content.
pub(super) struct CodeSection<'data> {
    pub(super) index: SectionIndex,
    pub(super) name: String,
    pub(super) address: u64,
    pub(super) bytes: &'data [u8],
}

/// A symbol that may name code.
pub(super) struct CodeSymbol {
    pub(super) section: SectionIndex,
    pub(super) address: u64,
    pub(super) size: u64,
    pub(super) name: String,
    pub(super) function: bool,
    pub(super) global: bool,
    /// An ELF `STT_GNU_IFUNC`: the code is a resolver that returns the implementation.
    pub(super) ifunc: bool,
}

/// ELF's `STT_GNU_IFUNC` symbol type.
const STT_GNU_IFUNC: u8 = 10;

/// Reads the marked regions of the object file `data`; `path` is only used in errors.
pub fn regions_from_object(path: &Path, data: &[u8]) -> Result<ObjectRegions, InputError> {
    let (format, file) = parse(path, data)?;

    let code = code_sections(path, &file)?;
    let symbols = code_symbols(&file, format, &code);
    let mut regions = Vec::new();
    for section in &code {
        let chunk = Chunk {
            name: &section.name,
            address: section.address,
            bytes: section.bytes,
        };
        let found = markers::regions_in_chunk(&chunk, regions.len())
            .map_err(|err| marker_error(path, &section.name, err))?;
        for mut region in found {
            region.symbol = enclosing_symbol(&symbols, section.index, region.address);
            regions.push(region);
        }
    }
    if !regions.is_empty() {
        return Ok(ObjectRegions { format, regions });
    }
    if let Some((section, offset)) = markers_outside_code(&file) {
        return Err(InputError::MarkersNotExecutable {
            path: path.to_owned(),
            section,
            offset,
        });
    }
    if code.is_empty() {
        Err(InputError::NoExecutableSection {
            path: path.to_owned(),
        })
    } else {
        Err(InputError::NoMarkers {
            path: path.to_owned(),
        })
    }
}

/// The container format, or why the file is not one we read.
/// The object file `data` parsed: its format, and the file once its architecture is
/// checked to be x86-64 (`path` for errors).
pub(super) fn parse<'d>(
    path: &Path,
    data: &'d [u8],
) -> Result<(Format, ::object::File<'d>), InputError> {
    let format = detect(path, data)?;
    let file = ::object::File::parse(data).map_err(|err| InputError::Corrupt {
        path: path.to_owned(),
        detail: lower_first(&err.to_string()),
    })?;
    check_architecture(path, file.architecture())?;
    Ok((format, file))
}

pub(super) fn detect(path: &Path, data: &[u8]) -> Result<Format, InputError> {
    let unsupported = |kind| InputError::UnsupportedKind {
        path: path.to_owned(),
        kind,
    };
    let kind = FileKind::parse(data).map_err(|_| InputError::NotObject {
        path: path.to_owned(),
    })?;
    match kind {
        FileKind::Elf32 | FileKind::Elf64 => Ok(Format::Elf),
        FileKind::Coff | FileKind::CoffBig => Ok(Format::Coff),
        FileKind::Pe32 | FileKind::Pe64 => Ok(Format::Pe),
        FileKind::MachO32 | FileKind::MachO64 => Ok(Format::MachO),
        FileKind::Archive => Err(unsupported("archive")),
        FileKind::MachOFat32 | FileKind::MachOFat64 => Err(unsupported("Mach-O universal binary")),
        FileKind::DyldCache => Err(unsupported("dyld shared cache")),
        FileKind::CoffImport => Err(unsupported("COFF short import library member")),
        FileKind::Xcoff32 | FileKind::Xcoff64 => Err(unsupported("XCOFF object")),
        _ => Err(unsupported("object format without x86-64 support")),
    }
}

pub(super) fn check_architecture(path: &Path, arch: Architecture) -> Result<(), InputError> {
    match arch {
        // x32 is the ILP32 ABI of x86-64: the instructions are 64-bit mode code.
        Architecture::X86_64 | Architecture::X86_64_X32 => Ok(()),
        other => Err(InputError::WrongArchitecture {
            path: path.to_owned(),
            arch: architecture_name(other),
        }),
    }
}

fn architecture_name(arch: Architecture) -> String {
    match arch {
        Architecture::I386 => "i386 (32-bit x86)".to_owned(),
        Architecture::Aarch64 => "aarch64".to_owned(),
        Architecture::Arm => "arm".to_owned(),
        Architecture::Unknown => "unknown".to_owned(),
        other => format!("{other:?}").to_lowercase(),
    }
}

/// Executable sections with content, in section table order.
pub(super) fn code_sections<'data>(
    path: &Path,
    file: &::object::File<'data>,
) -> Result<Vec<CodeSection<'data>>, InputError> {
    let mut code = Vec::new();
    for section in file.sections() {
        if section.kind() != SectionKind::Text {
            continue;
        }
        let name = section_name(&section);
        let corrupt = |detail: String| InputError::CorruptSection {
            path: path.to_owned(),
            section: name.clone(),
            detail,
        };
        let bytes = section
            .data()
            .map_err(|err| corrupt(lower_first(&err.to_string())))?;
        if bytes.is_empty() {
            continue;
        }
        let address = section.address();
        // Region addresses are section address + offset; keep them representable.
        if address.checked_add(bytes.len() as u64).is_none() {
            return Err(corrupt(format!(
                "address {address:#x} + size {:#x} overflows",
                bytes.len()
            )));
        }
        code.push(CodeSection {
            index: section.index(),
            name,
            address,
            bytes,
        });
    }
    Ok(code)
}

/// The first marker in a section that is not code, as (section name, offset). Only used to
/// explain why no region was found, so unreadable sections are skipped.
fn markers_outside_code(file: &::object::File<'_>) -> Option<(String, u64)> {
    file.sections()
        .filter(|section| section.kind() != SectionKind::Text)
        .find_map(|section| {
            let bytes = section.data().ok()?;
            let marker = markers::find_markers(bytes).into_iter().next()?;
            Some((section_name(&section), marker.offset as u64))
        })
}

fn section_name(section: &::object::Section<'_, '_>) -> String {
    match section.name() {
        Ok(name) if !name.is_empty() => name.to_owned(),
        // A corrupt or missing name must not stop the analysis; the index still locates it.
        _ => format!("<section {}>", section.index().0),
    }
}

/// Defined symbols that can name a place in code: the static and dynamic symbol tables, and
/// for PE images (which rarely keep a COFF symbol table) the export table.
pub(super) fn code_symbols(
    file: &::object::File<'_>,
    format: Format,
    code: &[CodeSection<'_>],
) -> Vec<CodeSymbol> {
    let mut symbols: Vec<CodeSymbol> = file
        .symbols()
        .chain(file.dynamic_symbols())
        .filter(|symbol| !symbol.is_undefined())
        .filter(|symbol| {
            // COFF and ELF code labels without a type show up as Data/Unknown; only kinds that
            // never name code are dropped.
            !matches!(
                symbol.kind(),
                SymbolKind::Section | SymbolKind::File | SymbolKind::Tls
            )
        })
        .filter_map(|symbol| {
            let section = symbol.section_index()?;
            // The line labels of assembly input (`asm`) never name a region.
            let name = symbol.name().ok().filter(|name| {
                !name.is_empty() && !name.starts_with(super::asm::LINE_LABEL_PREFIX)
            })?;
            Some(CodeSymbol {
                section,
                address: symbol.address(),
                size: symbol.size(),
                name: name.to_owned(),
                function: symbol.kind() == SymbolKind::Text,
                global: symbol.is_global(),
                ifunc: matches!(
                    symbol.flags(),
                    ::object::SymbolFlags::Elf { st_info, .. } if st_info.st_type().0 == STT_GNU_IFUNC
                ),
            })
        })
        .collect();
    if format == Format::Pe {
        // Symbols only name regions, so an unreadable export table is not an error.
        let exports = file
            .exports()
            .and_then(|e| e.collect::<Result<Vec<_>, _>>())
            .unwrap_or_default();
        symbols.extend(exports.iter().filter_map(|export| {
            // Named exports at an address of the image (not ordinals or forwarders).
            let object::NameOrOrdinal::Name(name) = export.name() else {
                return None;
            };
            let object::ExportTarget::Address { address } = export.target() else {
                return None;
            };
            let name = std::str::from_utf8(name).ok()?;
            let section = code
                .iter()
                .find(|s| address >= s.address && address - s.address < s.bytes.len() as u64)?;
            Some(CodeSymbol {
                section: section.index,
                address,
                size: 0,
                name: name.to_owned(),
                function: true,
                global: true,
                ifunc: false,
            })
        }));
    }
    symbols
}

/// The nearest symbol at or before `address` in `section` whose extent (when known) covers
/// it. Ties at one address prefer functions, then global symbols, then the smaller name, so
/// the choice does not depend on symbol table order.
fn enclosing_symbol(symbols: &[CodeSymbol], section: SectionIndex, address: u64) -> Option<String> {
    symbols
        .iter()
        .filter(|s| s.section == section && s.address <= address)
        .filter(|s| s.size == 0 || address - s.address < s.size)
        .max_by_key(|s| (s.address, s.function, s.global, Reverse(s.name.as_str())))
        .map(|s| s.name.clone())
}

fn marker_error(path: &Path, section: &str, err: MarkerError) -> InputError {
    let path = path.to_owned();
    let section = section.to_owned();
    match err {
        MarkerError::StartWithoutEnd { offset } => InputError::StartWithoutEnd {
            path,
            section,
            offset: offset as u64,
        },
        MarkerError::EndBeforeStart { offset } => InputError::EndBeforeStart {
            path,
            section,
            offset: offset as u64,
        },
        MarkerError::NestedStart { outer, offset } => InputError::NestedStart {
            path,
            section,
            outer: outer as u64,
            offset: offset as u64,
        },
        MarkerError::EmptyRegion { offset } => InputError::EmptyRegion {
            path,
            section,
            offset: offset as u64,
        },
    }
}

/// `object`'s messages start with a capital ("Invalid ELF header"); ours are lower case.
/// Acronyms ("ELF ...") are left alone.
pub(super) fn lower_first(message: &str) -> String {
    let mut chars = message.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if first.is_uppercase() && second.is_lowercase() => first
            .to_lowercase()
            .chain(message.chars().skip(1))
            .collect(),
        _ => message.to_owned(),
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A global symbol of section 1 (also for `input::code`'s tests).
    pub(in crate::input) fn sym(address: u64, size: u64, name: &str, function: bool) -> CodeSymbol {
        CodeSymbol {
            section: SectionIndex(1),
            address,
            size,
            name: name.to_owned(),
            function,
            global: true,
            ifunc: false,
        }
    }

    #[test]
    fn nearest_preceding_symbol() {
        let symbols = [sym(0, 0, "a", false), sym(0x10, 0, "b", false)];
        let at = |addr| enclosing_symbol(&symbols, SectionIndex(1), addr);
        assert_eq!(at(0x8).as_deref(), Some("a"));
        assert_eq!(at(0x10).as_deref(), Some("b"));
        assert_eq!(at(0x100).as_deref(), Some("b"));
        assert_eq!(enclosing_symbol(&symbols, SectionIndex(2), 0x8), None);
    }

    #[test]
    fn sized_symbol_does_not_reach_past_its_end() {
        let symbols = [sym(0, 4, "short", true)];
        assert_eq!(enclosing_symbol(&symbols, SectionIndex(1), 8), None);
        assert_eq!(
            enclosing_symbol(&symbols, SectionIndex(1), 3).as_deref(),
            Some("short")
        );
    }

    #[test]
    fn ties_prefer_functions_then_names() {
        let symbols = [
            sym(0, 0, "zlabel", false),
            sym(0, 0, "func", true),
            sym(0, 0, "alabel", false),
        ];
        assert_eq!(
            enclosing_symbol(&symbols, SectionIndex(1), 0).as_deref(),
            Some("func")
        );
        let labels = [sym(0, 0, "zlabel", false), sym(0, 0, "alabel", false)];
        assert_eq!(
            enclosing_symbol(&labels, SectionIndex(1), 0).as_deref(),
            Some("alabel")
        );
    }

    #[test]
    fn lower_first_keeps_acronyms() {
        assert_eq!(lower_first("Invalid ELF header"), "invalid ELF header");
        assert_eq!(lower_first("ELF header too short"), "ELF header too short");
        assert_eq!(lower_first(""), "");
    }

    #[test]
    fn garbage_is_not_an_object() {
        let err = regions_from_object(Path::new("g"), b"hello world").unwrap_err();
        assert!(matches!(err, InputError::NotObject { .. }), "{err}");
        let err = regions_from_object(Path::new("g"), b"").unwrap_err();
        assert!(matches!(err, InputError::NotObject { .. }), "{err}");
    }
}
