//! The code of an object file read whole, for finding loops when it has no markers: its
//! executable sections and the functions in them.
//!
//! Owns: function extents from the symbol tables (and `.eh_frame` for code the symbol
//! tables do not name).
//! Must not touch: decoding, loop finding (see `crate::loops`), marker rules.
//! Facts: symbols through the `object` crate (static and dynamic tables, PE exports); a
//! symbol's extent is its size when the file states one, else up to the next symbol of the
//! section or the section's end; labels without a type inside a sized function are not
//! functions. `.eh_frame` FDEs (parsed by `gimli`) give each function's `[initial_address,
//! initial_address + len)` in linked files, where the static symbol table may be stripped.

use std::collections::BTreeMap;
use std::path::Path;

use ::object::{Object, ObjectKind, ObjectSection};

use super::object::{code_sections, code_symbols, parse, CodeSymbol};
use super::{Format, InputError};

/// One executable section's bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeBytes {
    /// Section name.
    pub name: String,
    /// Address of the first byte.
    pub address: u64,
    /// The bytes.
    pub bytes: Vec<u8>,
}

impl CodeBytes {
    /// The bytes of `address..address + size` when they lie inside this section.
    pub fn slice(&self, address: u64, size: u64) -> Option<&[u8]> {
        let start = usize::try_from(address.checked_sub(self.address)?).ok()?;
        let end = start.checked_add(usize::try_from(size).ok()?)?;
        self.bytes.get(start..end)
    }

    /// Whether `address` lies inside this section.
    pub fn contains(&self, address: u64) -> bool {
        address >= self.address && address - self.address < self.bytes.len() as u64
    }
}

/// A function: a named extent of code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// Symbol name as stored (mangled); `None` for a section without symbols.
    pub name: Option<String>,
    /// Index into [`ObjectCode::sections`].
    pub section: usize,
    /// Address of the first byte.
    pub address: u64,
    /// Size in bytes.
    pub size: u64,
    /// An ELF IFUNC: the code is a resolver that returns the implementation's address.
    pub ifunc: bool,
}

/// The code of an object file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectCode {
    /// The detected container format.
    pub format: Format,
    /// Executable sections with content, in section table order.
    pub sections: Vec<CodeBytes>,
    /// Functions in section order, then address order.
    pub functions: Vec<Function>,
    /// Function extents from `.eh_frame` (start → size); empty for relocatable objects.
    pub unwind_extents: BTreeMap<u64, u64>,
}

impl ObjectCode {
    /// The section holding `address`.
    pub fn section_of(&self, address: u64) -> Option<usize> {
        self.sections.iter().position(|s| s.contains(address))
    }
}

/// Reads the code sections and functions of the object file `data` (`path` for errors).
pub fn code_from_object(path: &Path, data: &[u8]) -> Result<ObjectCode, InputError> {
    let (format, file) = parse(path, data)?;
    let code = code_sections(path, &file)?;
    if code.is_empty() {
        return Err(InputError::NoExecutableSection {
            path: path.to_owned(),
        });
    }
    let symbols = code_symbols(&file, format, &code);
    let mut functions = Vec::new();
    for (i, section) in code.iter().enumerate() {
        let end = section.address + section.bytes.len() as u64;
        let mine: Vec<&CodeSymbol> = symbols
            .iter()
            .filter(|s| s.section == section.index && s.address >= section.address)
            .filter(|s| s.address < end)
            .collect();
        functions.extend(functions_of(&mine, i, section.address, end));
    }
    let unwind_extents = if file.kind() == ObjectKind::Relocatable {
        BTreeMap::new()
    } else {
        unwind_extents(&file)
    };
    let sections: Vec<CodeBytes> = code
        .iter()
        .map(|s| CodeBytes {
            name: s.name.clone(),
            address: s.address,
            bytes: s.bytes.to_vec(),
        })
        .collect();
    add_unnamed(&mut functions, &unwind_extents, &sections);
    Ok(ObjectCode {
        format,
        sections,
        functions,
        unwind_extents,
    })
}

/// The functions of one section `start..end` from its symbols (see the module doc).
fn functions_of(symbols: &[&CodeSymbol], section: usize, start: u64, end: u64) -> Vec<Function> {
    let mut sorted: Vec<&CodeSymbol> = symbols.to_vec();
    // At one address: functions, then global symbols, then the smaller name.
    sorted.sort_by(|a, b| {
        (a.address, !a.function, !a.global, &a.name).cmp(&(
            b.address,
            !b.function,
            !b.global,
            &b.name,
        ))
    });
    sorted.dedup_by_key(|s| s.address);
    let sized: Vec<(u64, u64)> = sorted
        .iter()
        .filter(|s| s.function && s.size > 0)
        .map(|s| (s.address, s.address.saturating_add(s.size)))
        .collect();
    sorted.retain(|s| s.function || !sized.iter().any(|&(a, e)| a < s.address && s.address < e));
    if sorted.is_empty() {
        return vec![Function {
            name: None,
            section,
            address: start,
            size: end - start,
            ifunc: false,
        }];
    }
    let mut out = Vec::new();
    for (k, s) in sorted.iter().enumerate() {
        let next = sorted.get(k + 1).map_or(end, |n| n.address);
        let stop = if s.size > 0 {
            s.address.saturating_add(s.size).min(end)
        } else {
            next
        };
        if stop > s.address {
            out.push(Function {
                name: Some(s.name.clone()),
                section,
                address: s.address,
                size: stop - s.address,
                ifunc: s.ifunc,
            });
        }
    }
    out
}

/// Adds the `.eh_frame` extents that no symbol covers as functions without a name (code of
/// a stripped file: glibc's `__memchr_avx2` and the like), keeping section and address order.
fn add_unnamed(
    functions: &mut Vec<Function>,
    extents: &BTreeMap<u64, u64>,
    sections: &[CodeBytes],
) {
    let covered = |a: u64, fs: &[Function]| {
        fs.iter()
            .any(|f| f.name.is_some() && a >= f.address && a - f.address < f.size)
    };
    let mut extra = Vec::new();
    for (&start, &size) in extents {
        let Some(section) = sections.iter().position(|s| s.contains(start)) else {
            continue;
        };
        if size == 0 || covered(start, functions) {
            continue;
        }
        let s = &sections[section];
        let end = (s.address + s.bytes.len() as u64).min(start.saturating_add(size));
        extra.push(Function {
            name: None,
            section,
            address: start,
            size: end - start,
            ifunc: false,
        });
    }
    if !extra.is_empty() {
        functions.extend(extra);
        functions.sort_by_key(|f| (f.section, f.address));
    }
}

/// `start → size` of every FDE in `.eh_frame`; unreadable entries are skipped (the table
/// only widens what can be searched).
fn unwind_extents(file: &::object::File<'_>) -> BTreeMap<u64, u64> {
    use gimli::UnwindSection as _;
    let mut out = BTreeMap::new();
    let Some(section) = file.section_by_name(".eh_frame") else {
        return out;
    };
    let Ok(data) = section.uncompressed_data() else {
        return out;
    };
    let mut eh = gimli::EhFrame::new(&data, gimli::LittleEndian);
    eh.set_address_size(8);
    let mut bases = gimli::BaseAddresses::default().set_eh_frame(section.address());
    if let Some(text) = file.section_by_name(".text") {
        bases = bases.set_text(text.address());
    }
    let mut entries = eh.entries(&bases);
    while let Ok(Some(entry)) = entries.next() {
        if let gimli::CieOrFde::Fde(partial) = entry {
            if let Ok(fde) = partial.parse(gimli::EhFrame::cie_from_offset) {
                out.insert(fde.initial_address(), fde.len());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::object::tests::sym;

    fn extents(symbols: &[CodeSymbol]) -> Vec<(String, u64, u64)> {
        let refs: Vec<&CodeSymbol> = symbols.iter().collect();
        functions_of(&refs, 0, 0, 0x100)
            .into_iter()
            .map(|f| (f.name.unwrap_or_default(), f.address, f.size))
            .collect()
    }

    #[test]
    fn sizes_and_next_symbols_bound_functions() {
        let got = extents(&[
            sym(0x10, 0x20, "f", true),
            sym(0x18, 0, ".L3", false),
            sym(0x40, 0, "g", false),
            sym(0x40, 0, "g_alias", true),
        ]);
        assert_eq!(
            got,
            vec![("f".into(), 0x10, 0x20), ("g_alias".into(), 0x40, 0xc0)]
        );
    }

    #[test]
    fn unwind_extents_no_symbol_covers_become_unnamed_functions() {
        let sections = [CodeBytes {
            name: ".text".into(),
            address: 0,
            bytes: vec![0x90; 0x100],
        }];
        let mut functions = vec![Function {
            name: Some("f".into()),
            section: 0,
            address: 0x40,
            size: 0x20,
            ifunc: false,
        }];
        let extents = BTreeMap::from([(0x10, 0x10), (0x40, 0x20), (0x80, 0x200)]);
        add_unnamed(&mut functions, &extents, &sections);
        let got: Vec<_> = functions
            .iter()
            .map(|f| (f.name.clone(), f.address, f.size))
            .collect();
        assert_eq!(
            got,
            vec![
                (None, 0x10, 0x10),
                (Some("f".into()), 0x40, 0x20),
                (None, 0x80, 0x80),
            ]
        );
    }

    #[test]
    fn a_section_without_symbols_is_one_function() {
        assert_eq!(extents(&[]), vec![(String::new(), 0, 0x100)]);
    }
}
