//! From the functions of an object file to loop regions: decode each function, find its
//! innermost loops, cut each loop's bytes out as a [`Region`], numbered in address order.
//!
//! `--function NAME` matches the symbol as stored, its demangled form (C++ by
//! `cpp_demangle`, Rust by `rustc-demangle`) or the demangled form without its parameter
//! list. A named IFUNC (glibc's `memchr`, `strlen`, ...) is a resolver without loops: its
//! implementations are the code addresses it loads with RIP-relative `lea`, and their
//! extents come from `.eh_frame` (stripped libraries keep no symbols for them).

use thiserror::Error;

use super::{find_loops, FoundLoop};
use crate::decode::{decode_bytes, DecodeError};
use crate::input::{Function, ObjectCode};
use crate::ir::{Instr, Region};

/// What to search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoopSearch {
    /// Only the functions of this name (`--function`).
    pub function: Option<String>,
}

/// The function a loop was found in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionInfo {
    /// Its name, demangled; `None` for code without symbols.
    pub name: Option<String>,
    /// Its first address (offsets in titles are from here).
    pub address: u64,
    /// Reached through an IFUNC resolver of that name: the implementation has no symbol.
    pub ifunc_implementation: bool,
}

/// A found loop as a region to analyze.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopRegion {
    /// The loop's bytes (`symbol`: the function's name as stored).
    pub region: Region,
    /// Where it was found.
    pub function: FunctionInfo,
    /// The loop.
    pub found: FoundLoop,
}

/// Why no loop region came out.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SearchError {
    /// `--function NAME` names no function of the file.
    #[error("no function `{name}` in the symbol tables")]
    NoFunction {
        /// The name given.
        name: String,
    },
    /// The named function has no loop.
    #[error("function `{name}` has no loop{}", if *ifunc { " (it is an IFUNC resolver, and no implementation it returns has one either)" } else { "" })]
    NoLoopIn {
        /// The name given.
        name: String,
        /// The function is an IFUNC resolver.
        ifunc: bool,
    },
    /// Neither markers nor loops.
    #[error(
        "no IACA markers and no loops found; use --raw or --hex to analyze bytes without markers"
    )]
    NoLoops,
}

/// The innermost loops of `code` (of one function with `search.function`), in address
/// order, numbered from 0.
pub fn discover(code: &ObjectCode, search: &LoopSearch) -> Result<Vec<LoopRegion>, SearchError> {
    let mut found = Vec::new();
    match &search.function {
        None => {
            for f in &code.functions {
                found.extend(loops_of(code, f, display_name(f), false));
            }
            if found.is_empty() {
                return Err(SearchError::NoLoops);
            }
        }
        Some(wanted) => {
            // Mach-O prefixes C names with `_` (`_memchr`); the user names the C function.
            let macho = code.format == crate::input::Format::MachO;
            let is_wanted = |n: &str| {
                matches_name(n, wanted)
                    || (macho && n.strip_prefix('_').is_some_and(|n| matches_name(n, wanted)))
            };
            let named: Vec<&Function> = code
                .functions
                .iter()
                .filter(|f| f.name.as_deref().is_some_and(is_wanted))
                .collect();
            if named.is_empty() {
                return Err(SearchError::NoFunction {
                    name: wanted.clone(),
                });
            }
            for f in &named {
                found.extend(loops_of(code, f, display_name(f), false));
                if f.ifunc {
                    for target in ifunc_implementations(code, f) {
                        found.extend(loops_of(code, &target, display_name(f), true));
                    }
                }
            }
            if found.is_empty() {
                return Err(SearchError::NoLoopIn {
                    name: wanted.clone(),
                    ifunc: named.iter().any(|f| f.ifunc),
                });
            }
        }
    }
    found.sort_by_key(|l: &LoopRegion| (l.found.start, l.found.end));
    found.dedup_by_key(|l| (l.found.start, l.found.end));
    for (i, l) in found.iter_mut().enumerate() {
        l.region.index = i;
    }
    Ok(found)
}

/// The loops of one function as regions (index set by the caller).
fn loops_of(
    code: &ObjectCode,
    f: &Function,
    name: Option<String>,
    ifunc_implementation: bool,
) -> Vec<LoopRegion> {
    let Some(section) = code.sections.get(f.section) else {
        return Vec::new();
    };
    let Some(bytes) = section.slice(f.address, f.size) else {
        return Vec::new();
    };
    let instrs = decode_prefix(bytes, f.address);
    find_loops(&instrs)
        .into_iter()
        .filter_map(|found| {
            let bytes = section
                .slice(found.start, found.end - found.start)?
                .to_vec();
            Some(LoopRegion {
                region: Region {
                    index: 0,
                    section: section.name.clone(),
                    address: found.start,
                    bytes,
                    symbol: f.name.clone(),
                },
                function: FunctionInfo {
                    name: name.clone(),
                    address: f.address,
                    ifunc_implementation,
                },
                found,
            })
        })
        .collect()
}

/// The instructions up to the first that cannot be decoded (data or padding after code).
fn decode_prefix(bytes: &[u8], address: u64) -> Vec<Instr> {
    match decode_bytes(bytes, address) {
        Ok(instrs) => instrs,
        Err(DecodeError::Invalid { offset, .. } | DecodeError::Truncated { offset, .. }) => {
            decode_bytes(bytes.get(..offset).unwrap_or_default(), address).unwrap_or_default()
        }
    }
}

/// The code addresses an IFUNC resolver loads with RIP-relative `lea`, each as a function
/// whose extent is its `.eh_frame` entry (else up to the next function or the section end).
fn ifunc_implementations(code: &ObjectCode, resolver: &Function) -> Vec<Function> {
    let Some(bytes) = code
        .sections
        .get(resolver.section)
        .and_then(|s| s.slice(resolver.address, resolver.size))
    else {
        return Vec::new();
    };
    let mut targets: Vec<u64> = decode_prefix(bytes, resolver.address)
        .iter()
        .flat_map(|i| i.mem.iter())
        .filter(|m| m.agen && m.base == Some(iced_x86::Register::RIP))
        .map(|m| m.displacement as u64)
        .filter(|&t| t < resolver.address || t >= resolver.address + resolver.size)
        .collect();
    targets.sort_unstable();
    targets.dedup();
    targets
        .into_iter()
        .filter_map(|t| {
            let section = code.section_of(t)?;
            let s = &code.sections[section];
            let section_end = s.address + s.bytes.len() as u64;
            let size = match code.unwind_extents.get(&t) {
                Some(&len) => len,
                None => {
                    let next = code
                        .functions
                        .iter()
                        .map(|f| f.address)
                        .filter(|&a| a > t)
                        .min()
                        .unwrap_or(section_end);
                    next.min(section_end) - t
                }
            };
            Some(Function {
                name: resolver.name.clone(),
                section,
                address: t,
                size: size.min(section_end - t),
                ifunc: false,
            })
        })
        .collect()
}

/// The function's name for people: demangled when it is a C++ or Rust symbol.
fn display_name(f: &Function) -> Option<String> {
    f.name
        .as_deref()
        .map(|n| demangle(n).unwrap_or_else(|| n.to_owned()))
}

/// The demangled form of a C++ (Itanium ABI) or Rust symbol, `None` for a plain name.
pub fn demangle(name: &str) -> Option<String> {
    if let Ok(d) = rustc_demangle::try_demangle(name) {
        // `{:#}` leaves out the hash suffix.
        return Some(format!("{d:#}"));
    }
    if !name.starts_with("_Z") {
        return None;
    }
    let symbol = cpp_demangle::Symbol::new(name).ok()?;
    symbol.demangle().ok()
}

/// Whether the symbol `raw` is what the user called `wanted`: the stored name, the
/// demangled one, or the demangled one without its parameter list.
pub fn matches_name(raw: &str, wanted: &str) -> bool {
    if raw == wanted {
        return true;
    }
    let Some(d) = demangle(raw) else {
        return false;
    };
    d == wanted || d.split('(').next().is_some_and(|base| base == wanted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_mangled_demangled_and_without_parameters() {
        assert!(matches_name("memchr", "memchr"));
        assert!(!matches_name("memchr", "memch"));
        let cpp = "_ZN2ns3sumEPKll";
        assert_eq!(demangle(cpp).as_deref(), Some("ns::sum(long const*, long)"));
        assert!(matches_name(cpp, "ns::sum"));
        assert!(matches_name(cpp, "ns::sum(long const*, long)"));
        assert!(matches_name(cpp, cpp));
        assert!(!matches_name(cpp, "sum"));
        let rust = "_ZN4core3fmt5write17h0123456789abcdefE";
        assert_eq!(demangle(rust).as_deref(), Some("core::fmt::write"));
        assert!(matches_name(rust, "core::fmt::write"));
    }

    #[test]
    fn loops_of_two_functions_in_address_order() {
        // f: add; dec; jnz f+0; ret  |  g: nop; ret (no loop)
        let f = [0x48, 0x01, 0xd8, 0x48, 0xff, 0xc9, 0x75, 0xf8, 0xc3];
        let mut bytes = f.to_vec();
        bytes.extend([0x90, 0xc3]);
        let code = ObjectCode {
            format: crate::input::Format::Elf,
            sections: vec![crate::input::CodeBytes {
                name: ".text".into(),
                address: 0x100,
                bytes,
            }],
            functions: vec![
                Function {
                    name: Some("f".into()),
                    section: 0,
                    address: 0x100,
                    size: 9,
                    ifunc: false,
                },
                Function {
                    name: Some("g".into()),
                    section: 0,
                    address: 0x109,
                    size: 2,
                    ifunc: false,
                },
            ],
            unwind_extents: Default::default(),
        };
        let all = discover(&code, &LoopSearch::default()).unwrap();
        assert_eq!(all.len(), 1);
        assert_eq!((all[0].found.start, all[0].found.end), (0x100, 0x108));
        assert_eq!(all[0].region.bytes, f[..8].to_vec());
        assert_eq!(all[0].function.name.as_deref(), Some("f"));
        let search = |name: &str| {
            discover(
                &code,
                &LoopSearch {
                    function: Some(name.into()),
                },
            )
        };
        assert_eq!(search("f").unwrap().len(), 1);
        assert_eq!(
            search("g").unwrap_err(),
            SearchError::NoLoopIn {
                name: "g".into(),
                ifunc: false
            }
        );
        assert_eq!(
            search("h").unwrap_err(),
            SearchError::NoFunction { name: "h".into() }
        );
    }
}
