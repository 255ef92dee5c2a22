//! Names of regions and source positions as people read them: the region headings of the
//! text report and the HTML trace, the `Src` column.

use super::model::{FlowWarning, FoundLoopInfo, RegionInfo, RegionReport, SourceLoc};

/// `file:line` with the file's last path component (the JSON keeps the whole path), or
/// the line alone when no file is named (a line of the assembly input).
pub fn short_source(file: Option<&str>, line: u32) -> String {
    match file {
        Some(f) => {
            let base = f.rsplit(['/', '\\']).next().unwrap_or(f);
            format!("{base}:{line}")
        }
        None => line.to_string(),
    }
}

/// [`short_source`] of a [`SourceLoc`].
pub fn short_loc(loc: &SourceLoc) -> String {
    short_source(loc.file.as_deref(), loc.line)
}

/// `memchr+0x40..+0x62`, `f[ifunc implementation 0x1000]+0x8..+0x20`: the function and the
/// loop's offsets in it.
pub fn function_range(f: &FoundLoopInfo) -> String {
    let name = match (&f.function, f.ifunc_implementation) {
        (Some(n), false) => n.clone(),
        (Some(n), true) => format!("{n}[ifunc implementation {:#x}]", f.function_address),
        (None, _) => format!("{:#x}", f.function_address),
    };
    format!("{name}+{:#x}..+{:#x}", f.offset, f.end_offset)
}

/// The heading of a region: `Loop 0: sum+0x10..+0x22 (.text 0x10..0x22), 5 instructions,
/// sum.c:5` for a found loop, `Region 0: .text 0x10..0x22 in sum, 5 instructions` else.
pub fn region_title(region: &RegionReport) -> String {
    let r = &region.region;
    match &r.found_loop {
        Some(f) => {
            let source = region
                .table
                .rows
                .first()
                .and_then(|row| row.source_line.map(|l| (row.source_file.as_deref(), l)))
                .map(|(file, line)| format!(", {}", short_source(file, line)))
                .unwrap_or_default();
            format!(
                "Loop {}: {} ({} {:#x}..{:#x}), {} instructions{source}",
                r.index,
                function_range(f),
                r.section,
                r.address,
                r.end,
                r.instructions
            )
        }
        None => plain_title(r),
    }
}

fn plain_title(r: &RegionInfo) -> String {
    let symbol = r
        .symbol
        .as_deref()
        .map(|s| format!(" in {s}"))
        .unwrap_or_default();
    format!(
        "Region {}: {} {:#x}..{:#x}{}, {} instructions",
        r.index, r.section, r.address, r.end, symbol, r.instructions
    )
}

/// A [`FlowWarning`] in words; `text_of(line)` gives an instruction's text.
pub fn flow_warning(w: &FlowWarning, text_of: impl Fn(u32) -> String) -> String {
    match w {
        FlowWarning::Return { line } => format!(
            "line {line} `{}` returns: the region holds the end of a function, which the \
             simulation runs through as if it continued",
            text_of(*line)
        ),
        FlowWarning::BranchOut { line, target } => format!(
            "line {line} `{}` branches out of the region{} before its end; the simulation \
             never takes that exit",
            text_of(*line),
            target.map(|t| format!(" (to {t:#x})")).unwrap_or_default()
        ),
        FlowWarning::MultiBlockLoop {
            blocks,
            foreign_instructions,
        } => {
            let foreign = if *foreign_instructions > 0 {
                format!(
                    ", with {foreign_instructions} instruction(s) between them that are not \
                     part of the loop"
                )
            } else {
                String::new()
            };
            format!(
                "the loop has {blocks} basic blocks{foreign}; they are simulated as one \
                 path in layout order"
            )
        }
    }
}
