//! The accuracy benchmark (issue #6 item 3): suaca's predictions against real measurements,
//! with llvm-mca-19 beside it, per arch; error classes; a scatter plot.
//!
//! ```text
//! cargo run --release --example accuracy -- [options]
//!   --csv FILE        measured blocks, BHive layout (default ../shared/data/bhive/bhive_dev.csv)
//!   --own FILE        more measured blocks, rows without `arch` are ZEN4 (our own harness)
//!   --zen4 FILE       our ZEN4 block set, keyed measurements (default
//!                     data/measured/zen4_blocks.csv); the blocks' hex is joined from
//!   --bhive-tar FILE  BHive's sources (default ../shared/data/bhive/bhive_sources_and_may_alias.tar.xz)
//!   --no-zen4         leave the ZEN4 block set out
//!   --xml FILE        instruction data (default ../shared/data/uops/instructions.xml.zst)
//!   --mca BIN         llvm-mca binary (default llvm-mca-19); --no-mca to skip it
//!   --out DIR         plots and per-block CSV (default target/accuracy)
//!   --limit N         first N blocks per arch only
//!   --steps           accuracy of each pipeline detail added in turn (issue #7), no llvm-mca
//!   --average-frontend  the front end as average rates, not the legacy decode unit (issue #15)
//!   --no-harness      predict without the measuring harness's values (`--harness`)
//!   --no-harness-pages  with the harness's values, without BHive's page cost (`--no-harness-pages`)
//!   --worst N         list the N blocks with the largest suaca error (default 15)
//!   --emit-speed-inputs DIR [--repeat K]
//!                     write DIR/blocks.txt (hex per line) and DIR/blocks.s (llvm-mca regions)
//!                     of the CSV's blocks, K times over, for scripts/batch_speed.sh
//! ```
//! See `scripts/README.md` ("Accuracy benchmark") for what the numbers mean.
#![forbid(unsafe_code)]

mod bench;
mod mca;
mod plot;
mod report;
mod steps;
#[allow(dead_code)]
mod zen4;

use std::path::PathBuf;
use std::process::ExitCode;

use bench::{Options, Tool};

fn main() -> ExitCode {
    match real_main() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("accuracy: {e}");
            ExitCode::from(1)
        }
    }
}

struct Args {
    csv: PathBuf,
    own: Vec<PathBuf>,
    zen4: Option<PathBuf>,
    bhive_tar: PathBuf,
    xml: PathBuf,
    mca: Option<String>,
    out: PathBuf,
    limit: Option<usize>,
    worst: usize,
    emit: Option<PathBuf>,
    repeat: usize,
    steps: bool,
    average_frontend: bool,
    no_harness: bool,
    no_harness_pages: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        csv: "../shared/data/bhive/bhive_dev.csv".into(),
        own: Vec::new(),
        zen4: Some(zen4::MEASURED.into()),
        bhive_tar: zen4::TAR.into(),
        xml: "../shared/data/uops/instructions.xml.zst".into(),
        mca: Some("llvm-mca-19".into()),
        out: "target/accuracy".into(),
        limit: None,
        worst: 15,
        emit: None,
        repeat: 1,
        steps: false,
        average_frontend: false,
        no_harness: false,
        no_harness_pages: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        let number = |v: String| v.parse::<usize>().map_err(|_| format!("bad number `{v}`"));
        match flag.as_str() {
            "--csv" => a.csv = value()?.into(),
            "--own" => a.own.push(value()?.into()),
            "--zen4" => a.zen4 = Some(value()?.into()),
            "--no-zen4" => a.zen4 = None,
            "--bhive-tar" => a.bhive_tar = value()?.into(),
            "--xml" => a.xml = value()?.into(),
            "--mca" => a.mca = Some(value()?),
            "--no-mca" => a.mca = None,
            "--out" => a.out = value()?.into(),
            "--limit" => a.limit = Some(number(value()?)?),
            "--worst" => a.worst = number(value()?)?,
            "--emit-speed-inputs" => a.emit = Some(value()?.into()),
            "--repeat" => a.repeat = number(value()?)?.max(1),
            "--steps" => a.steps = true,
            "--average-frontend" => a.average_frontend = true,
            "--no-harness" => a.no_harness = true,
            "--no-harness-pages" => a.no_harness_pages = true,
            _ => {
                return Err(format!(
                    "unknown option `{flag}` (see the doc comment of examples/accuracy/main.rs)"
                ))
            }
        }
    }
    Ok(a)
}

fn real_main() -> Result<(), String> {
    let args = parse_args()?;
    for p in [&args.csv, &args.xml] {
        if !p.exists() {
            println!("accuracy: skipped: {} is missing", p.display());
            return Ok(());
        }
    }
    if let Some(dir) = &args.emit {
        return emit_speed_inputs(&args, dir);
    }
    let mut csvs = vec![bench::Measured::bhive(args.csv.clone())];
    csvs.extend(
        args.own
            .iter()
            .map(|p| bench::Measured::own(p.clone(), "ZEN4")),
    );
    if let Some(joined) = zen4_set(&args)? {
        csvs.push(bench::Measured::own(joined, "ZEN4"));
    }
    let opts = Options {
        csvs,
        xml: args.xml.clone(),
        cache: args.out.join("cache"),
        mca: args.mca.clone(),
        scratch: args.out.clone(),
        limit: args.limit,
        model: suaca::pipeline::ModelOptions {
            frontend_unit: !args.average_frontend,
            harness_pages: !args.no_harness_pages,
            ..suaca::pipeline::ModelOptions::FULL
        },
        harnesses: !args.no_harness,
    };
    if args.steps {
        return steps::print(&opts);
    }
    let o = bench::run(&opts)?;
    for s in o.skipped_rows.iter().take(10) {
        eprintln!("accuracy: skipped row {s}");
    }
    for n in &o.notes {
        eprintln!("accuracy: note: {n}");
    }
    println!(
        "## Accuracy against measurements ({} blocks)\n",
        o.blocks.len()
    );
    println!("{}\n", report::accuracy_table(&o));
    println!(
        "Prediction = steady-state cycles per iteration, (cycles(200 copies) - cycles(100)) / 100, \
         for both tools; `llvm-mca-19 total/100` = Total Cycles / 100 at -iterations=100.\n\
         suaca: {:.2} s for all blocks ({:.0} blocks/s); llvm-mca: {:.2} s at 100 iterations.\n",
        o.suaca_time.as_secs_f64(),
        o.blocks.len() as f64 / o.suaca_time.as_secs_f64().max(1e-9),
        o.mca_time.as_secs_f64()
    );
    for arch in o.archs() {
        let failed: Vec<&bench::Block> = o
            .blocks
            .iter()
            .filter(|b| b.arch == arch && b.suaca.is_none())
            .collect();
        if let Some(first) = failed.first() {
            let why = first.suaca_error.as_deref().unwrap_or("?");
            let n = failed.len();
            println!("suaca has no prediction for {n} {arch} block(s), e.g.: {why}\n");
        }
    }
    println!(
        "## Where suaca's error is\n\n{}\n",
        report::class_tables(&o)
    );
    let stack = "stack (push/pop/call/ret)";
    println!(
        "## Without the blocks of the largest class ({stack})\n\n{}\n",
        report::accuracy_table_of(&o, &|b| !b.tags.contains(&stack))
    );
    println!(
        "## Largest suaca errors\n\n{}\n",
        report::worst_blocks(&o, args.worst)
    );
    std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let mut plots = vec![(Tool::Suaca, args.out.join("scatter-suaca.png"))];
    if o.mca_ran {
        plots.push((Tool::Mca, args.out.join("scatter-llvm-mca.png")));
    }
    for (tool, path) in plots {
        plot::scatter(&o, tool, &path)?;
        println!("wrote {}", path.display());
    }
    let csv = args.out.join("predictions.csv");
    suaca::fsutil::write_atomic(&csv, bench::predictions_csv(&o).as_bytes())
        .map_err(|e| format!("{}: {e}", csv.display()))?;
    println!("wrote {}", csv.display());
    Ok(())
}

/// Our ZEN4 block set joined with BHive's hex, as a BHive-layout CSV in the output
/// directory; `None` (with a note) when the measurements or the archive are missing.
fn zen4_set(args: &Args) -> Result<Option<PathBuf>, String> {
    let Some(measured) = &args.zen4 else {
        return Ok(None);
    };
    for p in [measured, &args.bhive_tar] {
        if !p.exists() {
            eprintln!(
                "accuracy: note: {} is missing: no ZEN4 block set",
                p.display()
            );
            return Ok(None);
        }
    }
    let (csv, stats) = zen4::join(measured, &args.bhive_tar)?;
    let not: Vec<String> = stats
        .not_measured
        .iter()
        .map(|(k, n)| format!("{k} {n}"))
        .collect();
    println!(
        "ZEN4 block set ({}): {} blocks, {} measured and joined with their hex; not measured: {}{}\n",
        measured.display(),
        stats.rows,
        stats.joined,
        if not.is_empty() { "none".to_string() } else { not.join(", ") },
        if stats.unknown_keys > 0 {
            format!("; {} keys not in the archive", stats.unknown_keys)
        } else {
            String::new()
        }
    );
    std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let path = args.out.join("zen4-joined.csv");
    suaca::fsutil::write_atomic(&path, csv.as_bytes())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Some(path))
}

/// The same blocks for `suaca batch` (hex lines) and llvm-mca (one region per block).
fn emit_speed_inputs(args: &Args, dir: &std::path::Path) -> Result<(), String> {
    let text = std::fs::read_to_string(&args.csv).map_err(|e| e.to_string())?;
    let mut hex = String::new();
    let mut blocks = Vec::new();
    for _ in 0..args.repeat {
        for r in suaca::batch::parse_input(&text).rows {
            let Some(instrs) = suaca::input::parse_hex(&r.hex)
                .ok()
                .and_then(|b| suaca::decode::decode_bytes(&b, 0).ok())
            else {
                continue;
            };
            hex.push_str(&r.hex);
            hex.push('\n');
            blocks.push((blocks.len(), mca::gas_lines(&instrs)));
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    suaca::fsutil::write_atomic(&dir.join("blocks.txt"), hex.as_bytes())
        .map_err(|e| e.to_string())?;
    suaca::fsutil::write_atomic(&dir.join("blocks.s"), mca::input(&blocks).text.as_bytes())
        .map_err(|e| e.to_string())?;
    println!("{} blocks", blocks.len());
    Ok(())
}
