//! Reading the input the user selected into regions: object files, assembly text (from a
//! file or standard input, assembled in a temporary directory), raw bytes, hex strings.
//!
//! Owns: the choice between object and assembly text (extension `.s`/`.S`/`.asm`, else the
//! object magic, else content sniffing), stdin, the scratch directory of the assembler, the
//! fallback to found loops when there are no markers (`crate::loops`), the source position
//! of each instruction (DWARF line tables first, else the line of the assembly text).
//! Must not touch: the analysis, output.

use std::io::Read as _;
use std::path::Path;

use suaca::cli::InputSelection;
use suaca::input::asm::{self, AsmError, AsmOptions, RegionSource, SourceLines};
use suaca::input::debug_lines::{DebugLines, SourceLoc};
use suaca::input::{self, InputError};
use suaca::ir::{Instr, Region};
use suaca::loops::{self, LoopRegion, LoopSearch, SearchError};
use suaca::report::model::{InputInfo, InputKind};

use crate::Failure;

/// Name of standard input in messages and reports.
pub const STDIN_NAME: &str = "<stdin>";

/// The regions of the input and what is known about their origin.
pub struct Loaded {
    /// Regions in file order.
    pub regions: Vec<Region>,
    /// Source lines, for assembly text.
    pub lines: Option<SourceLines>,
    /// DWARF line tables (`-g` objects, assembly text with `.loc`).
    pub debug: Option<DebugLines>,
    /// The loops found when the input has no markers; `loops[i].region` is `regions[i]`.
    pub loops: Vec<LoopRegion>,
    /// Name and kind of the input.
    pub input: InputInfo,
    /// The assembler's warnings.
    pub warnings: Vec<String>,
}

impl Loaded {
    fn plain(regions: Vec<Region>, name: String, kind: InputKind) -> Loaded {
        Loaded {
            regions,
            lines: None,
            debug: None,
            loops: Vec::new(),
            input: InputInfo { name, kind },
            warnings: Vec::new(),
        }
    }

    /// The source position of each instruction of `region`: from the DWARF line tables,
    /// else the line of the assembly text (`file: None`), else nothing.
    pub fn source_lines(&self, region: &Region, instrs: &[Instr]) -> Vec<Option<SourceLoc>> {
        instrs
            .iter()
            .map(|i| self.source_of(&region.section, i.address, i.len() as u64))
            .collect()
    }

    /// The source position of the instruction of `len` bytes at `address` in `section`.
    pub fn source_of(&self, section: &str, address: u64, len: u64) -> Option<SourceLoc> {
        let dwarf = self.debug.as_ref().and_then(|d| d.locate(section, address));
        dwarf.or_else(|| {
            let line = self.lines.as_ref()?.line_of(section, address, len)?;
            Some(SourceLoc { file: None, line })
        })
    }

    /// The found loop that `region` is, if it is one.
    pub fn found_loop(&self, region: &Region) -> Option<&LoopRegion> {
        self.loops.iter().find(|l| l.region.index == region.index)
    }
}

/// Reads `selection`; assembly text is assembled with `assembler`. Without markers, the
/// innermost loops of the functions `search` names are the regions.
pub fn load(
    selection: &InputSelection,
    assembler: &Path,
    search: &LoopSearch,
) -> Result<Loaded, Failure> {
    match selection {
        InputSelection::Raw(p) => input::region_from_raw(p)
            .map(|r| Loaded::plain(vec![r], p.display().to_string(), InputKind::Raw))
            .map_err(Failure::input),
        InputSelection::Hex(h) => input::region_from_hex(h)
            .map(|r| Loaded::plain(vec![r], "<hex>".into(), InputKind::Hex))
            .map_err(Failure::input),
        InputSelection::Stdin => {
            let mut data = Vec::new();
            std::io::stdin()
                .lock()
                .read_to_end(&mut data)
                .map_err(|e| Failure::input(format!("cannot read standard input: {e}")))?;
            if is_object(&data) {
                object(Path::new(STDIN_NAME), &data, search)
            } else {
                assembly(&data, STDIN_NAME, assembler, search)
            }
        }
        InputSelection::File(p) => {
            let data = std::fs::read(p).map_err(|err| {
                Failure::input(InputError::Io {
                    path: p.clone(),
                    err,
                })
            })?;
            let name = p.display().to_string();
            if has_assembly_extension(p) || (!is_object(&data) && asm::looks_like_assembly(&data)) {
                assembly(&data, &name, assembler, search)
            } else {
                object(p, &data, search)
            }
        }
    }
}

fn has_assembly_extension(p: &Path) -> bool {
    matches!(
        p.extension().and_then(|e| e.to_str()),
        Some("s" | "S" | "asm")
    )
}

fn is_object(data: &[u8]) -> bool {
    ::object::FileKind::parse(data).is_ok()
}

fn object(path: &Path, data: &[u8], search: &LoopSearch) -> Result<Loaded, Failure> {
    let name = path.display().to_string();
    let mut loaded = match input::regions_from_object(path, data) {
        Ok(o) => Loaded::plain(o.regions, name, InputKind::Object),
        Err(InputError::NoMarkers { .. }) => {
            let loops = find_loops(path, data, search)?;
            let mut loaded = Loaded::plain(Vec::new(), name, InputKind::Object);
            loaded.regions = loops.iter().map(|l| l.region.clone()).collect();
            loaded.loops = loops;
            loaded
        }
        Err(e) => return Err(Failure::input(e)),
    };
    loaded.debug = DebugLines::load(data);
    Ok(loaded)
}

/// The innermost loops of the object `data` (see [`loops::discover`]).
fn find_loops(path: &Path, data: &[u8], search: &LoopSearch) -> Result<Vec<LoopRegion>, Failure> {
    let code = input::code_from_object(path, data).map_err(Failure::input)?;
    loops::discover(&code, search).map_err(|e| Failure::input(format!("{}: {e}", path.display())))
}

fn assembly(
    data: &[u8],
    name: &str,
    assembler: &Path,
    search: &LoopSearch,
) -> Result<Loaded, Failure> {
    let scratch = tempfile::Builder::new()
        .prefix("suaca-as-")
        .tempdir()
        .map_err(|e| Failure::input(format!("cannot create a temporary directory: {e}")))?;
    let opts = AsmOptions {
        assembler,
        scratch: scratch.path(),
        name,
    };
    let assembled = asm::assemble(data, &opts).map_err(|e| match e {
        AsmError::AssemblerMissing { .. } => Failure::input(format!(
            "{e}; install binutils (apt-get install binutils) or give its path with --assembler PATH"
        )),
        other => Failure::input(other),
    })?;
    let mut loaded = Loaded {
        regions: assembled.regions,
        lines: Some(assembled.lines),
        debug: DebugLines::load(&assembled.object),
        loops: Vec::new(),
        input: InputInfo {
            name: name.to_string(),
            kind: InputKind::Assembly,
        },
        warnings: assembled.warnings,
    };
    if assembled.regions_from == RegionSource::WholeSections {
        // No markers: the loops, else (straight-line text) each code section whole.
        let code =
            input::code_from_object(Path::new(name), &assembled.object).map_err(Failure::input)?;
        match loops::discover(&code, search) {
            Ok(loops) => {
                loaded.regions = loops.iter().map(|l| l.region.clone()).collect();
                loaded.loops = loops;
            }
            Err(SearchError::NoLoops) => {}
            Err(e) => return Err(Failure::input(format!("{name}: {e}"))),
        }
    }
    Ok(loaded)
}
