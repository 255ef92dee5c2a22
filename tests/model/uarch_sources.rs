//! Every value in `data/arch/*.toml` carries a source note in the same file's `sources` table,
//! and every source note names a value of that file.
#![forbid(unsafe_code)]

use suaca::uarch;
use toml::Value;

/// Identification keys, not facts.
const EXEMPT: &[&str] = &["name", "full_name", "vendor", "family", "sources"];

/// Dotted paths of the file's values. Arrays (ports, lists of names) count as one value.
fn leaves(v: &Value, path: &str, out: &mut Vec<String>) {
    match v {
        Value::Table(t) => {
            for (k, v) in t {
                if path.is_empty() && EXEMPT.contains(&k.as_str()) {
                    continue;
                }
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                leaves(v, &p, out);
            }
        }
        _ => out.push(path.to_string()),
    }
}

fn covered(sources: &toml::Table, path: &str) -> bool {
    let mut p = path;
    loop {
        if sources.contains_key(p) {
            return true;
        }
        match p.rfind('.') {
            Some(i) => p = &p[..i],
            None => return false,
        }
    }
}

#[test]
fn every_value_has_a_source_note() {
    let mut missing = Vec::new();
    for name in uarch::names() {
        let text = uarch::embedded_toml(name).unwrap();
        let raw: toml::Table = text.parse().unwrap();
        let sources = raw
            .get("sources")
            .and_then(Value::as_table)
            .cloned()
            .unwrap_or_default();
        let mut paths = Vec::new();
        leaves(&Value::Table(raw.clone()), "", &mut paths);
        assert!(!paths.is_empty(), "{name}: no values");
        for p in &paths {
            if !covered(&sources, p) {
                missing.push(format!("{name}: {p}"));
            }
        }
        for (key, note) in &sources {
            let note = note.as_str().unwrap_or_default();
            assert!(
                note.trim().len() > 8,
                "{name}: empty source note for `{key}`"
            );
            assert!(
                paths
                    .iter()
                    .any(|p| p == key || p.starts_with(&format!("{key}."))),
                "{name}: source note for `{key}`, which the file does not set"
            );
        }
    }
    assert!(
        missing.is_empty(),
        "values without a source note:\n{}",
        missing.join("\n")
    );
}

#[test]
fn source_notes_cite_known_references() {
    // Every note names at least one reference abbreviation from data/arch/README.md, or says
    // that the value is our own approximation.
    let readme = include_str!("../../data/arch/README.md");
    let tag = regex::Regex::new(r"\[([A-Z0-9-]+)\]").unwrap();
    for name in uarch::names() {
        let a = uarch::load(name).unwrap();
        for (key, note) in &a.sources {
            let tags: Vec<_> = tag.captures_iter(note).map(|c| c[1].to_string()).collect();
            assert!(
                !tags.is_empty() || note.contains("Approximation (ours)"),
                "{name}.{key}: no reference in {note:?}"
            );
            for t in tags {
                assert!(
                    readme.contains(&format!("| `[{t}]` |")),
                    "{name}.{key}: reference [{t}] is not listed in data/arch/README.md"
                );
            }
        }
    }
}
