//! `--list-regions`: one row per region (marked or found loop) with where it is, its
//! function and offsets, its size and its first source line.

use std::io::{self, Write};

use comfy_table::{presets::ASCII_MARKDOWN, Table};

use super::model::{FoundLoopInfo, SourceLoc};
use super::titles::{function_range, short_loc};

/// One listed region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionEntry {
    /// Index (`--region N`).
    pub index: usize,
    /// Section name.
    pub section: String,
    /// Start address.
    pub start: u64,
    /// One past the end.
    pub end: u64,
    /// The enclosing symbol (marked regions).
    pub symbol: Option<String>,
    /// The loop, when it was found without markers.
    pub found_loop: Option<FoundLoopInfo>,
    /// Number of instructions.
    pub instructions: usize,
    /// Source position of the first instruction.
    pub source: Option<SourceLoc>,
}

/// Writes the list as a table.
pub fn render(entries: &[RegionEntry], out: &mut dyn Write) -> io::Result<()> {
    let mut t = Table::new();
    t.load_style(ASCII_MARKDOWN).force_no_tty().set_header(vec![
        "Region",
        "Section",
        "Start",
        "End",
        "Function",
        "Instructions",
        "Source",
    ]);
    for e in entries {
        let function = match (&e.found_loop, &e.symbol) {
            (Some(f), _) => function_range(f),
            (None, Some(s)) => s.clone(),
            (None, None) => "-".into(),
        };
        t.add_row(vec![
            e.index.to_string(),
            e.section.clone(),
            format!("{:#x}", e.start),
            format!("{:#x}", e.end),
            function,
            e.instructions.to_string(),
            e.source.as_ref().map_or("-".into(), short_loc),
        ]);
    }
    writeln!(out, "{t}")
}
