//! Issue #9, files: concurrent suaca processes sharing one `SUACA_HOME` (cold index cache,
//! the same DOT output path, the same config) all succeed with identical output, and leave a
//! valid cache and whole files behind.
#![forbid(unsafe_code)]

mod common;

use std::path::Path;
use std::process::{Child, Command, Stdio};

use suaca::dataset::{load_arch, CacheStatus, DataSource};

const PROCESSES: usize = 8;

fn spawn(args: &[String], home: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_suaca"))
        .env("SUACA_HOME", home)
        .env_remove("SUACA_UOPS_XML")
        .env_remove("NO_COLOR")
        .current_dir(home)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawns")
}

/// Starts every command at once, then collects (stdout, stderr) of each, asserting success.
fn run_all(commands: &[Vec<String>], home: &Path) -> Vec<(String, String)> {
    let children: Vec<Child> = commands.iter().map(|a| spawn(a, home)).collect();
    children
        .into_iter()
        .zip(commands)
        .map(|(c, args)| {
            let out = c.wait_with_output().expect("waits");
            let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
            assert!(out.status.success(), "suaca {args:?}: {stderr}");
            (String::from_utf8(out.stdout).expect("utf-8"), stderr)
        })
        .collect()
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// Every file under `dir`, recursively, sorted.
fn files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(files(&p));
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn r9_parallel_processes_share_a_cold_cache() {
    for fixture in ["xml/thesis.xml", "xml/match_forms.xml"] {
        let home = tempfile::tempdir().expect("tempdir");
        // A private copy: the cache key is the source's path, size and mtime.
        let xml = home.path().join("instructions.xml");
        std::fs::copy(common::testdata(fixture), &xml).expect("copy");
        let xml = xml.to_str().expect("utf-8").to_string();
        let (arch, input) = if fixture.ends_with("thesis.xml") {
            ("SNB", vec![common::program("branchy")])
        } else {
            // add, shl by cl, cmovnz, imul, add imm: all in match_forms.xml.
            let hex = "4801d8 48d3e0 480f45c3 48f7e9 4883c108";
            ("SKL", vec!["--hex".to_string(), hex.to_string()])
        };
        let dg = home.path().join("shared-dg.dot");
        let dg = dg.to_str().expect("utf-8").to_string();
        let mut args = strings(&[
            "--uops-xml",
            &xml,
            "--arch",
            arch,
            "--json",
            "-dg",
            "--dg-out",
            &dg,
        ]);
        args.extend(input);
        let outs = run_all(&vec![args.clone(); PROCESSES], home.path());
        for (stdout, stderr) in &outs {
            assert_eq!(stdout, &outs[0].0, "{fixture}: outputs differ");
            assert!(
                !stderr.contains("index"),
                "{fixture}: cache trouble: {stderr}"
            );
        }
        // The DOT file is one whole rendering, the same as a lone process writes.
        let shared = std::fs::read_to_string(&dg).expect("dg.dot");
        let alone = home.path().join("alone.dot");
        let mut lone = args.clone();
        let at = lone.iter().position(|a| *a == dg).expect("--dg-out");
        lone[at] = alone.to_str().expect("utf-8").to_string();
        let again = run_all(&[lone], home.path());
        assert_eq!(again[0].0, outs[0].0, "{fixture}: a warm run differs");
        assert_eq!(
            shared,
            std::fs::read_to_string(&alone).expect("alone.dot"),
            "{fixture}"
        );
        // The cache is valid: a hit without warnings, and nothing but index files and the
        // lock (no temporary or spill file was left behind).
        let cache = home.path().join("cache");
        let d =
            load_arch(&DataSource::ExplicitPath(xml.clone().into()), arch, &cache).expect("loads");
        assert_eq!(d.cache, CacheStatus::Hit, "{fixture}");
        assert!(d.warnings.is_empty(), "{fixture}: {:?}", d.warnings);
        for f in files(&cache) {
            let name = f.file_name().expect("name").to_string_lossy().to_string();
            assert!(name.ends_with(".bin") || name == ".lock", "leftover {f:?}");
        }
        for f in files(home.path()) {
            let name = f.file_name().expect("name").to_string_lossy().to_string();
            assert!(!name.starts_with(".suaca-"), "leftover temporary {f:?}");
        }
    }
}

#[test]
fn r9_parallel_setup_leaves_one_whole_config() {
    let home = tempfile::tempdir().expect("tempdir");
    let commands: Vec<Vec<String>> = (0..PROCESSES)
        .map(|i| {
            let arch = if i % 2 == 0 { "SKL" } else { "SNB" };
            strings(&["--setup", arch, &format!("{}", 100 + i)])
        })
        .collect();
    run_all(&commands, home.path());
    let config = files(&home.path().join("config"));
    assert_eq!(config.len(), 1, "{config:?}");
    let text = std::fs::read_to_string(&config[0]).expect("config");
    // Exactly one of the writers' files, never a mix.
    let whole = (0..PROCESSES).any(|i| {
        let arch = if i % 2 == 0 { "SKL" } else { "SNB" };
        text.contains(&format!("arch = \"{arch}\"")) && text.contains(&format!("= {}", 100 + i))
    });
    assert!(whole, "{text}");
    let out = common::suaca(&["--print-default"], home.path());
    assert!(out.status.success());
}
