//! Issue #9, `unsafe` audit: `unsafe` code lives only in the files that run generated machine
//! code (the measurement JIT and its child-process runner), and every `unsafe` block, fn or
//! impl there has a `// SAFETY:` comment right above it. Everything else forbids or denies
//! `unsafe_code` at the crate root.
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

/// The only files that may contain `unsafe` (relative to the repository root).
const ALLOWED: &[&str] = &["src/measure/jit.rs", "src/measure/child.rs"];

/// How many lines above an `unsafe` a `// SAFETY:` comment may start (attributes and a
/// multi-line comment sit in between).
const SAFETY_WINDOW: usize = 8;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n == "target") {
                continue;
            }
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Lines that use `unsafe` as code (not in a comment, a string of this test, or a lint name).
fn unsafe_lines(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let code = l.split("//").next().unwrap_or_default();
            let code = code.replace("unsafe_code", "");
            [
                "unsafe {",
                "unsafe fn",
                "unsafe impl",
                "unsafe extern",
                "unsafe trait",
            ]
            .iter()
            .any(|k| code.contains(k))
        })
        .map(|(i, _)| i)
        .collect()
}

#[test]
fn r9_unsafe_only_where_machine_code_runs_and_always_justified() {
    let mut files = Vec::new();
    for dir in [
        "src",
        "tests",
        "examples",
        "benches",
        "fuzz/src",
        "fuzz/fuzz_targets",
    ] {
        rust_files(&root().join(dir), &mut files);
    }
    assert!(files.len() > 50, "found only {} files", files.len());
    let mut problems = Vec::new();
    for f in &files {
        let rel = f
            .strip_prefix(root())
            .expect("under the root")
            .to_string_lossy()
            .replace('\\', "/");
        if rel == "tests/repo/r9_unsafe.rs" {
            continue;
        }
        let text = std::fs::read_to_string(f).expect("reads");
        let lines: Vec<&str> = text.lines().collect();
        for i in unsafe_lines(&text) {
            if !ALLOWED.contains(&rel.as_str()) {
                problems.push(format!("{rel}:{}: `unsafe` outside {ALLOWED:?}", i + 1));
                continue;
            }
            let justified = lines[i.saturating_sub(SAFETY_WINDOW)..i]
                .iter()
                .chain(std::iter::once(&lines[i]))
                .any(|l| l.contains("SAFETY:"));
            if !justified {
                problems.push(format!("{rel}:{}: `unsafe` without `// SAFETY:`", i + 1));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn r9_crate_roots_forbid_or_deny_unsafe_code() {
    let mut roots = vec![
        root().join("src/lib.rs"),
        root().join("src/main.rs"),
        root().join("fuzz/src/lib.rs"),
    ];
    for dir in ["tests", "examples", "benches", "fuzz/fuzz_targets"] {
        for e in std::fs::read_dir(root().join(dir)).expect("dir").flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "rs") {
                roots.push(p);
            } else if p.join("main.rs").is_file() {
                roots.push(p.join("main.rs"));
            }
        }
    }
    let missing: Vec<String> = roots
        .iter()
        .filter(|p| {
            let text = std::fs::read_to_string(p).expect("reads");
            !text.contains("#![forbid(unsafe_code)]") && !text.contains("#![deny(unsafe_code)]")
        })
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        missing.is_empty(),
        "crate roots without the lint: {missing:?}"
    );
}
