//! `<root date="…">` of a measured file, for the examples that rewrite one.

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
