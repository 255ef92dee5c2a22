//! The man pages in `man/` are current (regenerated from the clap definition and compared
//! with the committed files), shell completions are generated, and every example of
//! `--help` parses (issue #8 item 4).
#![forbid(unsafe_code)]

use crate::common;

#[path = "../../examples/gen_man.rs"]
mod gen_man;

use crate::common::suaca;
use clap::Parser;
use suaca::cli::{rewrite_suaca_flags, Cli, EXAMPLES};

#[test]
fn man_pages_are_current() {
    let dir = common::root().join("man");
    let pages = gen_man::pages().expect("renders");
    for (name, page) in &pages {
        let committed = std::fs::read(dir.join(name)).unwrap_or_default();
        assert!(
            committed == *page,
            "man/{name} is out of date: run `cargo run --example gen_man` and commit man/"
        );
    }
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".1"))
        .collect();
    on_disk.sort();
    let mut expected: Vec<String> = pages.into_iter().map(|(n, _)| n).collect();
    expected.sort();
    assert_eq!(on_disk, expected, "stale pages in man/");
}

#[test]
fn man_page_documents_the_new_options() {
    let page = String::from_utf8(gen_man::pages().unwrap().remove(0).1).unwrap();
    for needle in [
        "\\-\\-json",
        "\\-\\-timeline",
        "\\-\\-trace",
        "EXAMPLES",
        "NO_COLOR",
    ] {
        assert!(page.contains(needle), "suaca.1 lacks {needle}");
    }
}

#[test]
fn completions_for_each_shell() {
    let home = tempfile::tempdir().unwrap();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = suaca(&["completions", shell], home.path());
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        assert!(script.contains("timeline"), "{shell}: {script}");
        assert!(script.contains("suaca"), "{shell}");
    }
    let out = suaca(&["completions", "tcsh"], home.path());
    assert_eq!(out.status.code(), Some(2));
    // The bash script loads and registers a completion for suaca.
    let bash = std::process::Command::new("bash")
        .arg("-c")
        .arg("source /dev/stdin && complete -p suaca")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn();
    let Ok(mut bash) = bash else {
        eprintln!("note: bash is not installed; skipping the loading check");
        return;
    };
    let script = suaca(&["completions", "bash"], home.path()).stdout;
    use std::io::Write;
    bash.stdin.take().unwrap().write_all(&script).unwrap();
    let out = bash.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("suaca"));
}

/// Each example of `--help` is a command line the definition accepts.
#[test]
fn help_examples_parse() {
    let mut count = 0;
    for line in EXAMPLES.lines().skip(1) {
        let line = line.trim();
        // The command is what comes before the description (two or more spaces).
        let command = line.split("  ").next().unwrap();
        let Some(pos) = command.find("suaca ") else {
            continue; // a continuation line of a description
        };
        let argv: Vec<&str> = command[pos..].split_whitespace().collect();
        let parsed = Cli::try_parse_from(rewrite_suaca_flags(argv.iter().map(Into::into)));
        assert!(
            parsed.is_ok(),
            "`{}` does not parse: {:?}",
            command,
            parsed.err()
        );
        count += 1;
    }
    assert!(count >= 10);
    let home = tempfile::tempdir().unwrap();
    let help = String::from_utf8(suaca(&["--help"], home.path()).stdout).unwrap();
    assert!(help.contains("suaca --timeline=2 a.out"));
}
