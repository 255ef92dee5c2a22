//! Issue #9, dependency licences: every package in the resolved dependency graph (normal,
//! build and dev dependencies, from `cargo metadata --offline`) has an SPDX licence
//! expression that the allow-list satisfies. Prints the report (`-- --nocapture`).
//!
//! Policy: permissive licences are allowed; MPL-2.0 (file-level weak copyleft: modified MPL
//! files must stay open, nothing else is affected) is allowed and marked in the report; GPL,
//! LGPL, AGPL and anything unknown fail. A package without a `license` field fails too
//! (a `license-file` alone needs a human look and an entry in `REVIEWED`).
#![forbid(unsafe_code)]

use std::collections::BTreeMap;
use std::process::Command;

/// Licences a dependency may use.
const ALLOWED: &[&str] = &[
    "MIT",
    "MIT-0",
    "Apache-2.0",
    "BSD-2-Clause",
    "BSD-3-Clause",
    "ISC",
    "Zlib",
    "0BSD",
    "CC0-1.0",
    "Unlicense",
    "BSL-1.0",
    "Unicode-3.0",
    "Unicode-DFS-2016",
    "MPL-2.0",
    // Permissive licence for data: webpki-roots' CA certificates (for `suaca data fetch`).
    "CDLA-Permissive-2.0",
];

/// Licences allowed but worth a line in the report.
const WEAK_COPYLEFT: &[&str] = &["MPL-2.0"];

/// Exceptions (`WITH ...`) that only grant extra rights.
const EXCEPTIONS: &[&str] = &["LLVM-exception"];

/// Packages whose licence was checked by hand: (name, licence it is under).
const REVIEWED: &[(&str, &str)] = &[];

/// Whether an SPDX expression is satisfied by the allow-list: `OR` needs one side, `AND`
/// both, `WITH` an allowed exception; `/` is the old spelling of `OR`. Unknown syntax fails.
fn allowed(expr: &str) -> bool {
    let tokens: Vec<String> = expr
        .replace('(', " ( ")
        .replace(')', " ) ")
        .replace('/', " OR ")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let mut pos = 0;
    let ok = parse_or(&tokens, &mut pos);
    ok == Some(true) && pos == tokens.len()
}

fn parse_or(t: &[String], pos: &mut usize) -> Option<bool> {
    let mut v = parse_and(t, pos)?;
    while t.get(*pos).is_some_and(|s| s == "OR") {
        *pos += 1;
        v |= parse_and(t, pos)?;
    }
    Some(v)
}

fn parse_and(t: &[String], pos: &mut usize) -> Option<bool> {
    let mut v = parse_atom(t, pos)?;
    while t.get(*pos).is_some_and(|s| s == "AND") {
        *pos += 1;
        v &= parse_atom(t, pos)?;
    }
    Some(v)
}

fn parse_atom(t: &[String], pos: &mut usize) -> Option<bool> {
    let tok = t.get(*pos)?.clone();
    *pos += 1;
    let v = if tok == "(" {
        let v = parse_or(t, pos)?;
        if t.get(*pos).map(String::as_str) != Some(")") {
            return None;
        }
        *pos += 1;
        v
    } else if ["OR", "AND", "WITH", ")"].contains(&tok.as_str()) {
        return None;
    } else {
        ALLOWED.contains(&tok.trim_end_matches('+'))
    };
    if t.get(*pos).is_some_and(|s| s == "WITH") {
        let exception = t.get(*pos + 1)?;
        *pos += 2;
        return Some(v && EXCEPTIONS.contains(&exception.as_str()));
    }
    Some(v)
}

#[test]
fn r9_spdx_expressions() {
    for ok in [
        "MIT",
        "MIT OR Apache-2.0",
        "MIT/Apache-2.0",
        "Apache-2.0 WITH LLVM-exception OR MIT",
        "(MIT OR Apache-2.0) AND Unicode-3.0",
        "Unlicense OR MIT",
        "MPL-2.0",
    ] {
        assert!(allowed(ok), "{ok}");
    }
    for bad in [
        "GPL-3.0",
        "AGPL-3.0-only",
        "MIT AND GPL-2.0",
        "LGPL-2.1-or-later",
        "GPL-2.0 WITH LLVM-exception",
        "MIT WITH Made-up",
        "",
        "MIT OR",
        "(MIT",
    ] {
        assert!(!allowed(bad), "{bad}");
    }
    // A copyleft licence offered as an alternative is fine: we take the other one.
    assert!(allowed("MIT OR GPL-3.0"));
}

#[test]
fn r9_dependency_licences_are_allowed() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // Only the host's dependencies: offline, cargo cannot resolve crates that other
    // platforms need (e.g. macOS-only ones) and never downloaded.
    let host = Command::new("rustc")
        .arg("-vV")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|v| {
            v.lines()
                .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        })
        .unwrap_or_else(|| "x86_64-unknown-linux-gnu".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--offline", "--locked"])
        .args(["--filter-platform", &host])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata JSON");
    let resolved: std::collections::BTreeSet<&str> = meta["resolve"]["nodes"]
        .as_array()
        .expect("resolve nodes")
        .iter()
        .filter_map(|n| n["id"].as_str())
        .collect();
    let mut by_licence: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut problems = Vec::new();
    let mut notes = Vec::new();
    for p in meta["packages"].as_array().expect("packages") {
        let id = p["id"].as_str().unwrap_or_default();
        if !resolved.contains(id) {
            continue;
        }
        let name = p["name"].as_str().unwrap_or("?");
        let version = p["version"].as_str().unwrap_or("?");
        let who = format!("{name} {version}");
        let licence = match p["license"].as_str() {
            Some(l) => l.to_string(),
            None => match REVIEWED.iter().find(|(n, _)| *n == name) {
                Some((_, l)) => format!("{l} (reviewed)"),
                None => {
                    let file = p["license_file"].as_str().unwrap_or("no licence file");
                    problems.push(format!("{who}: no SPDX licence ({file})"));
                    continue;
                }
            },
        };
        let expr = licence.trim_end_matches(" (reviewed)");
        if !allowed(expr) {
            problems.push(format!("{who}: `{licence}` is not on the allow-list"));
        } else if WEAK_COPYLEFT.iter().any(|w| expr.contains(w)) && !allowed_without(expr) {
            notes.push(format!("{who}: {licence} (weak copyleft, allowed)"));
        }
        by_licence.entry(licence).or_default().push(who);
    }
    println!("dependency licences ({} packages):", resolved.len());
    for (licence, packages) in &by_licence {
        println!("  {licence} ({}): {}", packages.len(), packages.join(", "));
    }
    for n in &notes {
        println!("  note: {n}");
    }
    assert!(
        problems.is_empty(),
        "licence problems:\n{}",
        problems.join("\n")
    );
}

/// Whether `expr` is satisfied without the weak-copyleft licences.
fn allowed_without(expr: &str) -> bool {
    let mut e = expr.to_string();
    for w in WEAK_COPYLEFT {
        e = e.replace(w, "NOT-ALLOWED");
    }
    allowed(&e)
}
