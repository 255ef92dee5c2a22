//! Reading the date of and writing a measured file, for the examples that rewrite one.

use std::path::Path;

/// The `date` attribute of BASE's `<root>` (read from the first kilobytes).
pub fn root_date(path: &str) -> Result<Option<String>, String> {
    use std::io::Read;
    let mut head = vec![0u8; 4096];
    let mut r = suaca::uopsxml::open(Path::new(path)).map_err(|e| format!("{path}: {e}"))?;
    let n = r.read(&mut head).map_err(|e| format!("{path}: {e}"))?;
    let text = String::from_utf8_lossy(&head[..n]);
    let Some(root) = text.find("<root") else {
        return Ok(None);
    };
    let tag = &text[root..text[root..].find('>').map_or(text.len(), |e| root + e)];
    Ok(tag
        .split("date=\"")
        .nth(1)
        .and_then(|d| d.split('"').next())
        .map(str::to_string))
}

/// Writes `recs` to `out` (`.zst`: compressed) atomically, with `base`'s `<root date>`.
pub fn write_records(
    base: &str,
    out: &str,
    recs: &[suaca::uopsxml::InstrRecord],
) -> Result<(), String> {
    let date = root_date(base)?;
    let mut xml = Vec::new();
    suaca::uopsxml::write_instructions(&mut xml, recs, &suaca::uopsxml::WriteOptions { date })
        .map_err(|e| format!("{out}: {e}"))?;
    let bytes = if out.ends_with(".zst") {
        zstd::encode_all(&xml[..], 19).map_err(|e| format!("{out}: {e}"))?
    } else {
        xml
    };
    suaca::fsutil::write_atomic(Path::new(out), &bytes).map_err(|e| format!("{out}: {e}"))
}

/// Runs `body`, printing its error as `name: error` with a failing exit.
pub fn run(name: &str, body: impl FnOnce() -> Result<(), String>) -> std::process::ExitCode {
    match body() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{name}: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
