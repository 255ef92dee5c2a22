//! Reading the input the user selected into regions: object files, assembly text (from a
//! file or standard input, assembled in a temporary directory), raw bytes, hex strings.
//!
//! Owns: the choice between object and assembly text (extension `.s`/`.S`/`.asm`, else the
//! object magic, else content sniffing), stdin, the scratch directory of the assembler.
//! Must not touch: the analysis, output.

use std::io::Read as _;
use std::path::Path;

use suaca::cli::InputSelection;
use suaca::input::asm::{self, AsmError, AsmOptions, SourceLines};
use suaca::input::{self, InputError};
use suaca::ir::{Instr, Region};
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
            input: InputInfo { name, kind },
            warnings: Vec::new(),
        }
    }

    /// The source line of each instruction of `region` (`None` without assembly text).
    pub fn source_lines(&self, region: &Region, instrs: &[Instr]) -> Vec<Option<u32>> {
        instrs
            .iter()
            .map(|i| {
                self.lines
                    .as_ref()
                    .and_then(|l| l.line_of(&region.section, i.address, i.len() as u64))
            })
            .collect()
    }
}

/// Reads `selection`; assembly text is assembled with `assembler`.
pub fn load(selection: &InputSelection, assembler: &Path) -> Result<Loaded, Failure> {
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
                object(Path::new(STDIN_NAME), &data)
            } else {
                assembly(&data, STDIN_NAME, assembler)
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
                assembly(&data, &name, assembler)
            } else {
                object(p, &data)
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

fn object(path: &Path, data: &[u8]) -> Result<Loaded, Failure> {
    input::regions_from_object(path, data)
        .map(|o| Loaded::plain(o.regions, path.display().to_string(), InputKind::Object))
        .map_err(Failure::input)
}

fn assembly(data: &[u8], name: &str, assembler: &Path) -> Result<Loaded, Failure> {
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
    Ok(Loaded {
        regions: assembled.regions,
        lines: Some(assembled.lines),
        input: InputInfo {
            name: name.to_string(),
            kind: InputKind::Assembly,
        },
        warnings: assembled.warnings,
    })
}
