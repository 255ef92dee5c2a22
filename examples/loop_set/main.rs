//! The loop benchmark (issue #14): real compiled loops of our own C kernels
//! (`benches/loops/`), measured on this host with `suaca profile`, against suaca's and
//! llvm-mca's predictions. `scripts/loops.sh` drives the whole run; see `scripts/README.md`
//! ("Loop benchmark").
//!
//! ```text
//! cargo run --release --example loop_set -- pick [--dir target/loops]
//!     reads DIR/variants.csv and DIR/obj/VARIANT/*.o; writes DIR/set.csv (the distinct main
//!     loops), DIR/hex.txt (one hex per line, for `suaca profile --batch`) and
//!     DIR/skipped.csv (kernels and variants without a loop, with the reason)
//! cargo run --release --example loop_set -- publish [--dir target/loops] [--out FILE]
//!     joins DIR/set.csv with DIR/pass1.csv, pass2.csv, … (`suaca profile --batch` output of
//!     separate passes) into FILE (default data/measured/ARCH_loops.csv): per loop the median
//!     of the passes
//! cargo run --release --example loop_set -- accuracy [--csv FILE] [--mca BIN | --no-mca]
//!     [--worst N] [--out DIR]
//!     the accuracy table (suaca vs llvm-mca-19) and the worst N loops (default 15)
//! cargo run --release --example loop_set -- host-arch
//!     prints the host's arch (`ZEN4`), or fails on a CPU suaca does not know
//!
//! Every command takes `--arch ARCH` (default ZEN4: its data is embedded) and `--xml FILE`
//! (the `instructions.xml` with the arch's data, for any other arch); the default CSV is
//! `data/measured/ARCH_loops.csv`.
//! ```
#![forbid(unsafe_code)]

mod accuracy;
#[allow(dead_code)]
#[path = "../accuracy/bench.rs"]
mod bench;
#[allow(dead_code)]
#[path = "../accuracy/mca.rs"]
mod mca;
mod pick;
mod predict;
#[allow(dead_code)]
#[path = "../accuracy/report.rs"]
mod report;
mod set;

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    match real_main() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("loop_set: {e}");
            ExitCode::from(1)
        }
    }
}

struct Args {
    command: String,
    dir: PathBuf,
    out: Option<PathBuf>,
    csv: PathBuf,
    mca: Option<String>,
    worst: usize,
    arch: String,
    xml: Option<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let command = it
        .next()
        .ok_or("give a command: pick, publish or accuracy")?;
    let mut a = Args {
        command,
        dir: "target/loops".into(),
        out: None,
        csv: PathBuf::new(),
        mca: Some("llvm-mca-19".into()),
        worst: 15,
        arch: predict::EMBEDDED_ARCH.into(),
        xml: None,
    };
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--dir" => a.dir = value()?.into(),
            "--out" => a.out = Some(value()?.into()),
            "--csv" => a.csv = value()?.into(),
            "--arch" => a.arch = value()?,
            "--xml" => a.xml = Some(value()?.into()),
            "--mca" => a.mca = Some(value()?),
            "--no-mca" => a.mca = None,
            "--worst" => {
                let v = value()?;
                a.worst = v.parse().map_err(|_| format!("bad number `{v}`"))?;
            }
            _ => {
                return Err(format!(
                    "unknown option `{flag}` (see examples/loop_set/main.rs)"
                ))
            }
        }
    }
    if a.csv.as_os_str().is_empty() {
        a.csv = set_csv(&a.arch);
    }
    Ok(a)
}

/// A host's committed loop set.
fn set_csv(arch: &str) -> PathBuf {
    format!("data/measured/{arch}_loops.csv").into()
}

fn write(path: &std::path::Path, text: &str) -> Result<(), String> {
    suaca::fsutil::write_atomic(path, text.as_bytes())
        .map_err(|e| format!("{}: {e}", path.display()))
}

fn real_main() -> Result<(), String> {
    let args = parse_args()?;
    match args.command.as_str() {
        "pick" => pick(&args),
        "publish" => publish(&args),
        "accuracy" => accuracy(&args),
        "host-arch" => {
            let arch = suaca::uarch::host::detect().ok_or("the host CPU is not a known arch")?;
            println!("{arch}");
            Ok(())
        }
        other => Err(format!(
            "unknown command `{other}`: pick, publish, accuracy or host-arch"
        )),
    }
}

fn pick(args: &Args) -> Result<(), String> {
    let s = set::pick_build(&args.dir)?;
    write(&args.dir.join("set.csv"), &set::set_csv(&s)?)?;
    write(&args.dir.join("skipped.csv"), &set::skipped_csv(&s)?)?;
    let hex: String = s.entries.iter().map(|e| format!("{}\n", e.hex)).collect();
    write(&args.dir.join("hex.txt"), &hex)?;
    for (o, why) in &s.skipped {
        eprintln!("loop_set: {}: {}: {why}", s.origin_name(o), o.file);
    }
    println!(
        "{} kernels x {} variants: {} function builds, {} with a single-block loop, {} without; \
         {} distinct loops",
        s.kernels(),
        s.variants.len(),
        s.visited,
        s.visited - s.skipped.iter().filter(|(o, _)| o.kernel != "*").count(),
        s.skipped.len(),
        s.entries.len()
    );
    Ok(())
}

fn publish(args: &Args) -> Result<(), String> {
    let out = args.out.clone().unwrap_or_else(|| set_csv(&args.arch));
    let passes: Vec<PathBuf> = (1..)
        .map(|k| args.dir.join(format!("pass{k}.csv")))
        .take_while(|p| p.exists())
        .collect();
    let p = set::publish(&args.dir.join("set.csv"), &passes)?;
    write(&out, &p.text)?;
    let c: Vec<String> = p.counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
    println!(
        "wrote {} from {} passes: {}",
        out.display(),
        passes.len(),
        c.join(", ")
    );
    let [n, a, b, c] = p.agreement;
    let pct = |k: usize| 100.0 * k as f64 / n.max(1) as f64;
    println!(
        "{n} pass values of measured loops: {:.1}% within 1% of their loop's median, {:.1}% within 2%, {:.1}% within 5%",
        pct(a),
        pct(b),
        pct(c)
    );
    Ok(())
}

fn accuracy(args: &Args) -> Result<(), String> {
    let rows = set::read_loops(&args.csv)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| "target/loop-accuracy".into());
    let predictor = predict::Predictor::load(&args.arch, args.xml.clone(), &out.join("cache"))?;
    let o = accuracy::run(&rows, &predictor, args.mca.as_deref(), &out);
    for n in &o.notes {
        eprintln!("loop_set: note: {n}");
    }
    let mut by_status: std::collections::BTreeMap<&str, usize> = Default::default();
    rows.iter()
        .for_each(|r| *by_status.entry(r.status.as_str()).or_default() += 1);
    let c: Vec<String> = by_status.iter().map(|(k, n)| format!("{k} {n}")).collect();
    println!(
        "## Loop accuracy, {} ({} loops: {})\n",
        args.csv.display(),
        rows.len(),
        c.join(", ")
    );
    println!("{}\n", report::accuracy_table(&o));
    println!(
        "Prediction: suaca = block throughput of the loop (`suaca --hex HEX --arch {arch}`, {} \
         iterations); llvm-mca-19 -mcpu={} = (Total Cycles(200) - Total Cycles(100)) / 100; \
         `total/100` = Total Cycles / 100 at 100 iterations.\n",
        predict::ITERATIONS,
        mca::cpu_of(&args.arch).unwrap_or("?"),
        arch = args.arch,
    );
    for b in o.blocks.iter().filter(|b| b.suaca.is_none()).take(10) {
        println!(
            "suaca has no prediction for {}: {}",
            b.case_id,
            b.suaca_error.as_deref().unwrap_or("?")
        );
    }
    // The largest error class on loops (a store and the next iteration's load through the
    // same registers), shown apart so other model changes stay visible.
    let alias = "store and load of one address";
    println!(
        "## Without the loops of the class `{alias}`\n\n{}\n",
        report::accuracy_table_of(&o, &|b| !b.tags.contains(&alias))
    );
    // Loops whose arrays could not stay in L1 while timed (wide unrolled AVX-512 bodies):
    // the measurement includes L2 traffic that an L1 model does not claim to predict.
    let over = o
        .blocks
        .iter()
        .filter(|b| b.tags.contains(&accuracy::OVER_L1))
        .count();
    println!(
        "## Loops measured within L1 (without the {over} loops whose fewest iterations cover \
         more than {} KiB of arrays)\n\n{}\n",
        suaca::profile::placement::FOOTPRINT_BUDGET >> 10,
        report::accuracy_table_of(&o, &|b| !b.tags.contains(&accuracy::OVER_L1))
    );
    // Loops that use our own measurements of forms the source lacks, apart and without.
    let own = o
        .blocks
        .iter()
        .filter(|b| b.tags.contains(&accuracy::OWN_DATA))
        .count();
    if own > 0 {
        println!(
            "## The {own} loops with suaca's own instruction data (forms the source lacks)\n\n{}\n",
            report::accuracy_table_of(&o, &|b| b.tags.contains(&accuracy::OWN_DATA))
        );
        println!(
            "## Without them (the source's data alone)\n\n{}\n",
            report::accuracy_table_of(&o, &|b| !b.tags.contains(&accuracy::OWN_DATA))
        );
    }
    println!(
        "## Where suaca's error is\n\n{}\n",
        report::class_tables(&o)
    );
    println!(
        "## Largest suaca errors\n\n{}\n",
        report::worst_blocks(&o, args.worst)
    );
    let csv = out.join("predictions.csv");
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    suaca::fsutil::write_atomic(&csv, bench::predictions_csv(&o).as_bytes())
        .map_err(|e| format!("{}: {e}", csv.display()))?;
    println!("wrote {}", csv.display());
    Ok(())
}
