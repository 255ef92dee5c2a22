//! Issue #9, files: concurrent suaca processes sharing one `SUACA_HOME` (cold index cache,
//! the same DOT output path, the same config) all succeed with identical output, and leave a
//! valid cache and whole files behind.
#![forbid(unsafe_code)]

use crate::common;

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

/// Every output suaca writes for the user replaces an existing file with a new one (a new
/// inode: temporary file and rename), never by truncating it in place, leaves no temporary
/// file behind, and gets mode 0644.
#[test]
#[cfg(unix)]
fn r9_every_output_replaces_its_file_atomically() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let home = tempfile::tempdir().expect("tempdir");
    let out = home.path().join("out");
    std::fs::create_dir(&out).expect("mkdir");
    let at = |name: &str| out.join(name).to_str().expect("utf-8").to_string();
    let (cfg, dg, html, csv) = (
        at("cfg.dot"),
        at("dg.dot"),
        at("trace.html"),
        at("batch.csv"),
    );
    let config = home.path().join("config").join("config.toml");
    std::fs::create_dir_all(config.parent().expect("dir")).expect("mkdir");
    let blocks = home.path().join("blocks.txt");
    std::fs::write(&blocks, "4801d8\n48d3e0\n").expect("write");
    let paths: Vec<std::path::PathBuf> = [&cfg, &dg, &html, &csv]
        .iter()
        .map(std::path::PathBuf::from)
        .chain([config.clone()])
        .collect();
    // Old contents, longer than any new one: a write in place without truncation would
    // leave their tail. (A valid config: suaca reads it first.)
    let old = format!("arch = \"SNB\"\n#{}\n", "x".repeat(1 << 20));
    let inodes: Vec<u64> = paths
        .iter()
        .map(|p| {
            std::fs::write(p, &old).expect("write");
            std::fs::metadata(p).expect("meta").ino()
        })
        .collect();
    let thesis = common::testdata("xml/thesis.xml");
    let thesis = thesis.to_str().expect("utf-8");
    let forms = common::testdata("xml/match_forms.xml");
    let forms = forms.to_str().expect("utf-8");
    let blocks = blocks.to_str().expect("utf-8");
    let branchy = common::program("branchy");
    for args in [
        vec![
            "--uops-xml",
            thesis,
            "--arch",
            "SNB",
            "-cfg",
            "--cfg-out",
            &cfg,
            "-dg",
            "--dg-out",
            &dg,
            "--trace",
            &html,
            &branchy,
        ],
        vec![
            "batch",
            "--uops-xml",
            forms,
            "--arch",
            "SKL",
            "-i",
            blocks,
            "-o",
            &csv,
        ],
        vec!["--setup", "SKL", "100"],
    ] {
        let o = common::suaca(&args, home.path());
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    for (p, ino) in paths.iter().zip(inodes) {
        let meta = std::fs::metadata(p).expect("meta");
        assert_ne!(meta.ino(), ino, "{p:?} was written in place");
        assert_eq!(meta.permissions().mode() & 0o777, 0o644, "{p:?}");
        let text = std::fs::read_to_string(p).expect("reads");
        assert!(!text.contains("xxxx"), "{p:?} keeps old bytes");
    }
    let html_text = std::fs::read_to_string(&html).expect("html");
    assert!(html_text.trim_end().ends_with("</html>"), "whole page");
    assert_eq!(
        std::fs::read_to_string(&csv).expect("csv").lines().count(),
        3
    );
    for dir in [&out, &config.parent().expect("dir").to_path_buf()] {
        for f in files(dir) {
            let name = f.file_name().expect("name").to_string_lossy().to_string();
            assert!(!name.starts_with('.'), "leftover temporary {f:?}");
        }
    }
}

/// What may write a file without `suaca::fsutil::write_atomic`, and why. Any other
/// `fs::write`, `File::create`, `OpenOptions`, `rename`, `persist` or plotters file backend
/// in `src/` or `examples/` (outside unit tests) fails the audit below.
const DIRECT_WRITERS: &[(&str, &str)] = &[
    (
        "src/fsutil.rs",
        "write_atomic itself (devices are written in place)",
    ),
    (
        "src/dataset/index.rs",
        "the build lock (`OpenOptions`, never renamed)",
    ),
    (
        "src/measure/checkpoint.rs",
        "the append-only checkpoint (its module doc says why a kill at any byte is safe)",
    ),
    (
        "src/input/asm/mod.rs",
        "the assembler's input, in a private temporary directory",
    ),
    (
        "src/cmd/fetch.rs",
        "the download goes to a temporary file, then to `data import`",
    ),
    (
        "examples/accuracy/plot.rs",
        "plotters renders into a temporary file whose bytes go through write_atomic",
    ),
];

#[test]
fn r9_file_writes_go_through_write_atomic() {
    const WRITES: [&str; 8] = [
        "fs::write(",
        "File::create(",
        "OpenOptions::new(",
        "fs::rename(",
        ".persist(",
        "BitMapBackend::new(",
        "SVGBackend::new(",
        "fs::copy(",
    ];
    let root = common::root();
    let mut sources = Vec::new();
    for dir in ["src", "examples"] {
        sources.extend(
            files(&root.join(dir))
                .into_iter()
                .filter(|p| p.extension().is_some_and(|x| x == "rs")),
        );
    }
    assert!(sources.len() > 50, "found only {} files", sources.len());
    let mut problems = Vec::new();
    for f in &sources {
        let rel = f
            .strip_prefix(&root)
            .expect("under the root")
            .to_string_lossy()
            .replace('\\', "/");
        if DIRECT_WRITERS.iter().any(|(p, _)| *p == rel) {
            continue;
        }
        let text = std::fs::read_to_string(f).expect("reads");
        // Unit tests at the end of a file write fixtures as they like.
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (i, line) in code.lines().enumerate() {
            let line = line.split("//").next().unwrap_or_default();
            if let Some(w) = WRITES.iter().find(|w| line.contains(*w)) {
                problems.push(format!("{rel}:{}: `{w}` outside write_atomic", i + 1));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The exceptions still exist (a stale entry would hide a new file of the same name).
    for (p, why) in DIRECT_WRITERS {
        assert!(root.join(p).is_file(), "{p} ({why}) is gone");
    }
}
