//! Writing the report: text tables (coloured and sized for the terminal), JSON, the HTML
//! trace; and how failures look in JSON mode.
//!
//! Owns: the terminal decisions (colour only on a terminal and never with `NO_COLOR`; the
//! table width: the terminal's, or 100 columns when piped, so piped output is
//! deterministic), the JSON error object.
//! Must not touch: the report's content.

use std::io::{IsTerminal as _, Write};
use std::path::Path;

use suaca::cli::{AnalyzeArgs, OutputFormat};
use suaca::fsutil::Durability;
use suaca::report::model::InputInfo;
use suaca::report::text::{render, TextOptions};
use suaca::report::{trace, Report};

use crate::Failure;

/// Table width when standard output is not a terminal.
pub const PIPE_WIDTH: u16 = 100;

/// Colour and width of text output, from the environment.
pub fn text_style() -> (bool, u16) {
    let tty = std::io::stdout().is_terminal();
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let width = if tty {
        // comfy-table asks the terminal for its size.
        comfy_table::Table::new().width().unwrap_or(PIPE_WIDTH)
    } else {
        PIPE_WIDTH
    };
    (tty && !no_color, width.max(40))
}

/// Writes `report` as the user asked (stdout or `-o FILE`), and the trace file if requested.
pub fn write(report: &Report, args: &AnalyzeArgs) -> Result<(), Failure> {
    if let Some(path) = &args.trace {
        let html = trace::render_html(report);
        suaca::fsutil::write_atomic(path, html.as_bytes())
            .map_err(|e| Failure::input(format!("cannot write {}: {e}", path.display())))?;
    }
    let json = args.output_format() == OutputFormat::Json;
    if !json {
        for w in &report.warnings {
            eprintln!("suaca: warning: {w}");
        }
    }
    let file = output_file(args);
    // A file gets what a pipe gets: no colour, 100 columns unless --width says.
    let (color, width) = if file.is_some() {
        (false, PIPE_WIDTH)
    } else {
        text_style()
    };
    let text = TextOptions {
        iform: args.iform,
        color,
        width: match args.width {
            Some(0) => None,
            Some(w) => Some(w),
            None => Some(width),
        },
        timeline: args.timeline.is_some(),
    };
    let emit = |out: &mut dyn Write| -> std::io::Result<()> {
        if json {
            // Serialized first so that a closed pipe stays an io::Error of its own kind.
            let text = serde_json::to_string_pretty(report).map_err(std::io::Error::other)?;
            writeln!(out, "{text}")
        } else {
            render(report, &text, out)
        }
    };
    match file {
        // Atomic: an existing FILE is replaced by a complete report or left as it was.
        Some(path) => suaca::fsutil::write_atomic_with(path, Durability::Synced, emit)
            .map_err(|e| Failure::input(format!("cannot write {}: {e}", path.display()))),
        None => {
            let mut out = std::io::stdout().lock();
            match emit(&mut out).and_then(|()| out.flush()) {
                Ok(()) => Ok(()),
                // A closed pipe (`suaca … | head`) is not an error.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                Err(e) => Err(Failure::analysis(format!("cannot write the report: {e}"))),
            }
        }
    }
}

/// `-o FILE`, unless it is `-` (standard output).
fn output_file(args: &AnalyzeArgs) -> Option<&Path> {
    args.output.as_deref().filter(|p| *p != Path::new("-"))
}

/// Refuses `-o` naming the input file: the report would replace the code it describes.
pub fn check_target(args: &AnalyzeArgs, input: &InputInfo) -> Result<(), Failure> {
    let Some(out) = output_file(args) else {
        return Ok(());
    };
    let same = |a: &Path| match (std::fs::canonicalize(a), std::fs::canonicalize(out)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    };
    let inputs = [args.file.as_deref(), args.raw.as_deref()];
    if inputs.into_iter().flatten().any(same) {
        return Err(Failure::input(format!(
            "-o {}: that is the input ({}); choose another file for the report",
            out.display(),
            input.name
        )));
    }
    Ok(())
}

/// `{"error": {"message": ..., "code": N}}`: a failure in JSON mode (one line, stderr).
pub fn json_error(message: &str, code: u8) -> String {
    serde_json::json!({ "error": { "message": message, "code": code } }).to_string()
}

/// Whether the raw command line asks for JSON (also when clap cannot parse it).
pub fn wants_json(argv: &[std::ffi::OsString]) -> bool {
    let mut prev_format = false;
    for a in argv {
        match a.to_str() {
            Some("--") => return false,
            Some("--json" | "--format=json") => return true,
            Some("json") if prev_format => return true,
            Some(s) => prev_format = s == "--format",
            None => prev_format = false,
        }
    }
    false
}
