//! The benchmark run: measured blocks in, suaca's and llvm-mca's predictions and the metrics
//! out. No printing here (main.rs prints), so the integration test can run it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use suaca::batch::{self, features, metrics::Metrics, PredictOptions};
use suaca::dataset::{self, DataSource};
use suaca::pipeline::memory::harness::Harness;
use suaca::pipeline::ModelOptions;

use crate::mca;

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Measured blocks: BHive-layout CSVs.
    pub csvs: Vec<Measured>,
    /// instructions.xml(.zst).
    pub xml: PathBuf,
    /// Index cache directory.
    pub cache: PathBuf,
    /// llvm-mca binary, `None` to skip it.
    pub mca: Option<String>,
    /// Scratch directory for llvm-mca inputs.
    pub scratch: PathBuf,
    /// At most this many blocks per arch (in file order), for quick runs.
    pub limit: Option<usize>,
    /// The pipeline details suaca models.
    pub model: ModelOptions,
    /// Tell suaca the harness that measured each CSV (`Measured::harness`).
    pub harnesses: bool,
}

/// A CSV of measured blocks.
#[derive(Clone, Debug)]
pub struct Measured {
    /// The file.
    pub path: PathBuf,
    /// The arch of its rows that name none (our own ZEN4 measurements may leave the column
    /// out).
    pub arch: String,
    /// The harness that measured them, which suaca is told (`--harness`).
    pub harness: Option<Harness>,
}

impl Measured {
    /// BHive's measurements (rows without an arch are SKL), with BHive's harness.
    pub fn bhive(path: PathBuf) -> Measured {
        Measured {
            path,
            arch: "SKL".into(),
            harness: Some(Harness::Bhive),
        }
    }

    /// Our own measurements of unrolled blocks with `suaca profile` (rows without an arch
    /// are `arch`), with its harness.
    pub fn own(path: PathBuf, arch: &str) -> Measured {
        Measured {
            path,
            arch: arch.into(),
            harness: Some(Harness::Profile),
        }
    }
}

/// One measured block and what each tool says.
pub struct Block {
    /// Arch (canonical name when suaca knows it).
    pub arch: String,
    /// Case id.
    pub case_id: String,
    /// Hex.
    pub hex: String,
    /// Measured cycles per iteration.
    pub measured: f64,
    /// BHive may-alias flag.
    pub may_alias: bool,
    /// suaca's steady-state prediction.
    pub suaca: Option<f64>,
    /// Why suaca has none.
    pub suaca_error: Option<String>,
    /// suaca's bottleneck kind (bound table).
    pub bottleneck: Option<String>,
    /// llvm-mca's steady-state prediction ((C200 − C100) / 100).
    pub mca: Option<f64>,
    /// llvm-mca's Total Cycles / 100 at 100 iterations.
    pub mca_total: Option<f64>,
    /// Feature classes.
    pub tags: Vec<&'static str>,
    /// Distinct mnemonics.
    pub mnemonics: Vec<String>,
}

/// A tool's predictions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tool {
    /// suaca, steady state.
    Suaca,
    /// llvm-mca, steady state.
    Mca,
    /// llvm-mca, Total Cycles / iterations.
    McaTotal,
}

impl Tool {
    /// Name in tables.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Suaca => "suaca",
            Tool::Mca => "llvm-mca-19",
            Tool::McaTotal => "llvm-mca-19 total/100",
        }
    }

    /// The tool's prediction of `b`.
    pub fn of(self, b: &Block) -> Option<f64> {
        match self {
            Tool::Suaca => b.suaca,
            Tool::Mca => b.mca,
            Tool::McaTotal => b.mca_total,
        }
    }
}

/// The benchmark's result.
pub struct Outcome {
    /// Every measured block.
    pub blocks: Vec<Block>,
    /// Rows skipped for want of a measurement or as malformed, with the reason.
    pub skipped_rows: Vec<String>,
    /// Whether llvm-mca ran.
    pub mca_ran: bool,
    /// Problems with llvm-mca (missing cpu, failures).
    pub notes: Vec<String>,
    /// suaca's prediction time (all blocks, on the rayon pool).
    pub suaca_time: Duration,
    /// llvm-mca's time at 100 iterations (all archs).
    pub mca_time: Duration,
}

impl Outcome {
    /// The archs in first-seen order.
    pub fn archs(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for b in &self.blocks {
            if !out.contains(&b.arch) {
                out.push(b.arch.clone());
            }
        }
        out
    }

    /// Metrics of `tool` over the blocks `keep` selects.
    pub fn metrics(&self, tool: Tool, keep: impl Fn(&Block) -> bool) -> Metrics {
        let chosen: Vec<&Block> = self.blocks.iter().filter(|b| keep(b)).collect();
        let pairs: Vec<(f64, f64)> = chosen
            .iter()
            .filter_map(|b| tool.of(b).map(|p| (p, b.measured)))
            .collect();
        Metrics::of(chosen.len(), &pairs)
    }
}

/// Runs the benchmark.
pub fn run(opts: &Options) -> Result<Outcome, String> {
    // Rows with the harness that measured them.
    let mut rows = Vec::new();
    let mut skipped_rows = Vec::new();
    for m in &opts.csvs {
        let csv = &m.path;
        let text = std::fs::read_to_string(csv).map_err(|e| format!("{}: {e}", csv.display()))?;
        for mut r in batch::parse_input(&text).rows {
            r.arch.get_or_insert_with(|| m.arch.clone());
            match (&r.problem, r.measured) {
                (Some(p), _) => skipped_rows.push(format!("{}:{}: {p}", csv.display(), r.line)),
                (None, None) => {
                    skipped_rows.push(format!("{}:{}: no measurement", csv.display(), r.line))
                }
                _ => rows.push((m.harness, r)),
            }
        }
    }
    if let Some(limit) = opts.limit {
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        rows.retain(|(_, r)| {
            let n = seen.entry(r.arch.clone().unwrap_or_default()).or_default();
            *n += 1;
            *n <= limit
        });
    }
    let archs: Vec<String> = rows.iter().filter_map(|(_, r)| r.arch.clone()).collect();
    // ZEN4 is not in uops.info's data: our own measurements, as the binary embeds them.
    let sources: Vec<DataSource> = std::iter::once(DataSource::ExplicitPath(opts.xml.clone()))
        .chain(dataset::embedded("ZEN4"))
        .chain(dataset::supplements())
        .collect();
    let models = batch::load_models(&archs, &sources, &opts.cache);
    let start = Instant::now();
    // One batch per harness (groups in the order they first appear; rows in file order).
    let mut results = Vec::with_capacity(rows.len());
    let mut rest = rows;
    while !rest.is_empty() {
        let harness = rest[0].0;
        let (this, other): (Vec<_>, Vec<_>) = rest.into_iter().partition(|(h, _)| *h == harness);
        rest = other;
        let predict = PredictOptions {
            model: ModelOptions {
                harness: harness.filter(|_| opts.harnesses),
                ..opts.model
            },
            ..PredictOptions::default()
        };
        let rows = this.into_iter().map(|(_, r)| r).collect();
        results.extend(batch::run(rows, &models, "SKL", &predict));
    }
    let suaca_time = start.elapsed();

    let mut blocks: Vec<Block> = results
        .into_iter()
        .map(|r| {
            let instrs = suaca::input::parse_hex(&r.row.hex)
                .ok()
                .and_then(|b| suaca::decode::decode_bytes(&b, 0).ok())
                .unwrap_or_default();
            let f = features::features(&instrs);
            let (suaca, suaca_error, bottleneck) = match &r.outcome {
                Ok(p) => (
                    Some(p.cycles_per_iteration),
                    None,
                    p.bottleneck.map(|b| b.name()),
                ),
                Err(e) => (None, Some(e.to_string()), None),
            };
            Block {
                arch: r.arch.clone(),
                case_id: r.row.case_id.clone().unwrap_or_default(),
                hex: r.row.hex.clone(),
                measured: r.row.measured.unwrap_or(f64::NAN),
                may_alias: r.row.may_alias.unwrap_or(false),
                suaca,
                suaca_error,
                bottleneck,
                mca: None,
                mca_total: None,
                tags: f.tags,
                mnemonics: f.mnemonics,
            }
        })
        .collect();

    let mut notes = Vec::new();
    let mut mca_time = Duration::ZERO;
    let mca_ran = match &opts.mca {
        Some(bin) if mca::available(bin) => {
            for arch in blocks_archs(&blocks) {
                match run_mca(bin, &arch, &mut blocks, &opts.scratch) {
                    Ok(t) => mca_time += t,
                    Err(e) => notes.push(format!("llvm-mca on {arch}: {e}")),
                }
            }
            true
        }
        Some(bin) => {
            notes.push(format!("{bin} is not installed: its columns are left out"));
            false
        }
        None => false,
    };
    Ok(Outcome {
        blocks,
        skipped_rows,
        mca_ran,
        notes,
        suaca_time,
        mca_time,
    })
}

fn blocks_archs(blocks: &[Block]) -> Vec<String> {
    let mut a: Vec<String> = blocks.iter().map(|b| b.arch.clone()).collect();
    a.sort();
    a.dedup();
    a
}

/// llvm-mca at 100 and 200 iterations over the blocks of `arch`; returns the time at 100.
fn run_mca(
    bin: &str,
    arch: &str,
    blocks: &mut [Block],
    scratch: &Path,
) -> Result<Duration, String> {
    let cpu = mca::cpu_of(arch).ok_or_else(|| format!("no -mcpu known for {arch}"))?;
    let lines: Vec<(usize, Vec<String>)> = blocks
        .iter()
        .enumerate()
        .filter(|(_, b)| b.arch == arch)
        .filter_map(|(i, b)| {
            let bytes = suaca::input::parse_hex(&b.hex).ok()?;
            let instrs = suaca::decode::decode_bytes(&bytes, 0).ok()?;
            Some((i, mca::gas_lines(&instrs)))
        })
        .collect();
    mca_predict(
        bin,
        cpu,
        &lines,
        &scratch.join(format!("mca-{arch}.s")),
        blocks,
    )
}

/// Runs llvm-mca (`cpu`) at 100 and 200 iterations over `lines` (block index, assembly
/// lines), written to `path`, and fills those blocks' `mca` ((total(200) − total(100)) / 100)
/// and `mca_total` (total(100) / 100); returns the time of the 100-iteration run.
pub fn mca_predict(
    bin: &str,
    cpu: &str,
    lines: &[(usize, Vec<String>)],
    path: &Path,
    blocks: &mut [Block],
) -> Result<Duration, String> {
    let input = mca::input(lines);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let short = mca::run(bin, cpu, 100, &input, path)?;
    let long = mca::run(bin, cpu, 200, &input, path)?;
    for (i, _) in lines {
        if short.skipped.contains(i) {
            continue;
        }
        if let (Some(&a), Some(&b)) = (short.total_cycles.get(i), long.total_cycles.get(i)) {
            blocks[*i].mca = Some(b.saturating_sub(a) as f64 / 100.0);
            blocks[*i].mca_total = Some(a as f64 / 100.0);
        }
    }
    Ok(short.elapsed)
}

/// Per-block results for later analysis.
pub fn predictions_csv(o: &Outcome) -> String {
    let opt = |v: Option<f64>| v.map_or(String::new(), |x| format!("{x:.4}"));
    let mut s = String::from(
        "arch,case_id,hex,measured,suaca,llvm_mca,llvm_mca_total,bottleneck,tags,suaca_error\n",
    );
    for b in &o.blocks {
        s.push_str(&format!(
            "{},{},{},{:.4},{},{},{},{},{},\"{}\"\n",
            b.arch,
            b.case_id,
            b.hex,
            b.measured,
            opt(b.suaca),
            opt(b.mca),
            opt(b.mca_total),
            b.bottleneck.clone().unwrap_or_default(),
            b.tags.join(";"),
            b.suaca_error.clone().unwrap_or_default().replace('"', "'")
        ));
    }
    s
}
