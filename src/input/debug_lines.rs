//! Source lines from DWARF line tables: objects compiled with `-g`, and assembly text whose
//! `.loc` directives GNU as turned into `.debug_line`.
//!
//! Owns: loading the DWARF sections (with their relocations in relocatable objects) and
//! answering "which file:line is the instruction at this address of this section".
//! Must not touch: printing, decoding.
//! Facts: the line tables are read by `addr2line` over `gimli`. In a relocatable object
//! (`.o`, and what `as` writes) every code section starts at address 0 and the line tables'
//! addresses are relocations against the sections; each code section gets its own base here
//! (the sections laid out one after the other, as a linker would) so that addresses of
//! different sections never collide. Only absolute relocations occur in DWARF sections.

use std::collections::HashMap;
use std::sync::Arc;

use ::object::{
    Object, ObjectKind, ObjectSection, ObjectSymbol, RelocationKind, RelocationTarget, SectionKind,
};

/// A source position: file (as the line table names it) and 1-based line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SourceLoc {
    /// The file, when the line table names one.
    pub file: Option<String>,
    /// The line.
    pub line: u32,
}

/// Relocated values by offset in one DWARF section: `(value, add the stored value)`.
#[derive(Clone, Debug, Default)]
struct Relocs(Arc<HashMap<usize, (u64, bool)>>);

impl gimli::Relocate<usize> for Relocs {
    fn relocate_address(&self, offset: usize, value: u64) -> gimli::Result<u64> {
        Ok(match self.0.get(&offset) {
            Some(&(v, implicit)) => v.wrapping_add(if implicit { value } else { 0 }),
            None => value,
        })
    }

    fn relocate_offset(&self, offset: usize, value: usize) -> gimli::Result<usize> {
        let relocated = self.relocate_address(offset, value as u64)?;
        usize::try_from(relocated).map_err(|_| gimli::Error::UnsupportedOffset)
    }
}

type Reader = gimli::RelocateReader<gimli::EndianArcSlice<gimli::RunTimeEndian>, Relocs>;

/// The line tables of one object file.
pub struct DebugLines {
    context: addr2line::Context<Reader>,
    /// Base added to a section's addresses before looking them up (relocatable objects).
    bases: HashMap<String, u64>,
}

impl std::fmt::Debug for DebugLines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DebugLines")
            .field("bases", &self.bases)
            .finish_non_exhaustive()
    }
}

impl DebugLines {
    /// The line tables of the object file `data`; `None` when it is no object file or has no
    /// `.debug_line` (unreadable debug information is treated as absent: lines are extra).
    pub fn load(data: &[u8]) -> Option<DebugLines> {
        let file = ::object::File::parse(data).ok()?;
        file.section_by_name(".debug_line")?;
        let bases = section_bases(&file);
        let endian = if file.is_little_endian() {
            gimli::RunTimeEndian::Little
        } else {
            gimli::RunTimeEndian::Big
        };
        let relocatable = file.kind() == ObjectKind::Relocatable;
        let load = |id: gimli::SectionId| -> Result<Reader, gimli::Error> {
            let (bytes, relocs) = match file.section_by_name(id.name()) {
                Some(section) => {
                    let bytes: Arc<[u8]> = section
                        .uncompressed_data()
                        .map(|d| Arc::from(d.as_ref()))
                        .unwrap_or_else(|_| Arc::from(&[][..]));
                    let relocs = if relocatable {
                        relocations(&file, &section, &bases)
                    } else {
                        Relocs::default()
                    };
                    (bytes, relocs)
                }
                None => (Arc::from(&[][..]), Relocs::default()),
            };
            Ok(gimli::RelocateReader::new(
                gimli::EndianArcSlice::new(bytes, endian),
                relocs,
            ))
        };
        let dwarf = gimli::Dwarf::load(load).ok()?;
        let context = addr2line::Context::from_dwarf(dwarf).ok()?;
        let bases = bases
            .into_iter()
            .filter_map(|(index, base)| {
                let name = file.section_by_index(index).ok()?.name().ok()?.to_owned();
                Some((name, base))
            })
            .collect();
        Some(DebugLines { context, bases })
    }

    /// The source position of the instruction at `address` of `section`.
    pub fn locate(&self, section: &str, address: u64) -> Option<SourceLoc> {
        let probe = self
            .bases
            .get(section)
            .copied()
            .unwrap_or(0)
            .wrapping_add(address);
        let loc = self.context.find_location(probe).ok()??;
        let line = loc.line.filter(|&l| l > 0)?;
        Some(SourceLoc {
            file: loc.file.map(str::to_owned),
            line,
        })
    }
}

/// Per code section of a relocatable object, the base its addresses are moved to: the
/// sections one after the other, 16-byte aligned. Linked files keep their addresses.
fn section_bases(file: &::object::File<'_>) -> HashMap<::object::SectionIndex, u64> {
    let mut bases = HashMap::new();
    if file.kind() != ObjectKind::Relocatable {
        return bases;
    }
    let mut next = 0u64;
    for section in file.sections().filter(|s| s.kind() == SectionKind::Text) {
        bases.insert(section.index(), next);
        next = next.saturating_add(section.size()).saturating_add(15) & !15;
    }
    bases
}

/// The absolute relocations of `section`, each resolved to its target's (rebased) address.
fn relocations(
    file: &::object::File<'_>,
    section: &::object::Section<'_, '_>,
    bases: &HashMap<::object::SectionIndex, u64>,
) -> Relocs {
    let mut map = HashMap::new();
    for (offset, reloc) in section.relocations() {
        if reloc.kind() != RelocationKind::Absolute {
            continue;
        }
        let (section_index, address) = match reloc.target() {
            RelocationTarget::Symbol(index) => match file.symbol_by_index(index) {
                Ok(symbol) => (symbol.section_index(), symbol.address()),
                Err(_) => continue,
            },
            RelocationTarget::Section(index) => (Some(index), 0),
            _ => continue,
        };
        let base = section_index
            .and_then(|i| bases.get(&i))
            .copied()
            .unwrap_or(0);
        let value = base
            .wrapping_add(address)
            .wrapping_add(reloc.addend() as u64);
        if let Ok(offset) = usize::try_from(offset) {
            map.insert(offset, (value, reloc.has_implicit_addend()));
        }
    }
    Relocs(Arc::new(map))
}
