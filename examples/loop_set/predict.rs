//! Predictions of a loop (its bytes from the head to the back branch): suaca's and
//! llvm-mca's input.
//!
//! suaca: the path `suaca --hex HEX --arch ARCH --json` takes (`src/cmd/analyze.rs`): the hex
//! as a region at address 0, decoded, described by the ZEN4 data embedded in the binary
//! (`data/measured/ZEN4.xml.zst`) or another arch's from an `instructions.xml` (`--xml`, as
//! `--uops-xml`), and [`suaca::analysis::analyze_region`] with the default
//! 200 iterations; the prediction is the plain run's block throughput (cycles per iteration,
//! `regions[0].runs[0].throughput` in the JSON). Nothing here models the loop: whatever the
//! analyzer does with the back branch is what is measured against the host.

use std::path::{Path, PathBuf};

use iced_x86::{FlowControl, Formatter, GasFormatter};
use suaca::analysis::{analyze_region, AnalysisOptions};
use suaca::batch::{self, ArchModel};
use suaca::dataset::{self, DataSource};
use suaca::db::InstrDesc;
use suaca::ir::Instr;

/// The arch whose data is embedded: its loop set needs no `--xml`.
pub const EMBEDDED_ARCH: &str = "ZEN4";

/// The analyzer's default iteration count (`--loop`).
pub const ITERATIONS: u32 = 200;

/// suaca's model of one arch.
pub struct Predictor {
    model: ArchModel,
    /// The arch predicted (`ZEN4`, `ZEN3`, ...).
    pub arch: String,
}

/// suaca's answer for one loop.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    /// Block throughput: cycles per iteration.
    pub cycles: f64,
    /// What explains the prediction: a bound kind or `scheduling`.
    pub bottleneck: Option<String>,
    /// Some line's data is suaca's own measurement (a supplement), not the source's.
    pub own_data: bool,
}

impl Predictor {
    /// Loads `arch` from `xml`, or ZEN4 from the embedded data without one (the index is
    /// cached under `cache`).
    pub fn load(arch: &str, xml: Option<PathBuf>, cache: &Path) -> Result<Predictor, String> {
        let source = match xml {
            Some(path) => DataSource::ExplicitPath(path),
            None => dataset::embedded(arch)
                .ok_or_else(|| format!("{arch} is not embedded: give --xml FILE"))?,
        };
        // As the binary: our own measurements fill forms the source lacks.
        let sources: Vec<DataSource> = std::iter::once(source)
            .chain(dataset::supplements())
            .collect();
        let mut loaded = batch::load_models(&[arch], &sources, cache);
        let key = batch::LoadedModels::key(arch);
        match loaded.models.remove(&key) {
            Some(model) => Ok(Predictor {
                model,
                arch: arch.to_string(),
            }),
            None => Err(loaded
                .failed
                .remove(&key)
                .unwrap_or_else(|| format!("{arch} was not loaded"))),
        }
    }

    /// Predicts the loop written as `hex`.
    pub fn predict(&self, hex: &str) -> Result<Prediction, String> {
        let region = suaca::input::region_from_hex(hex).map_err(|e| e.to_string())?;
        let instrs = suaca::decode::decode_region(&region).map_err(|e| e.to_string())?;
        let descs: Vec<Option<InstrDesc>> = instrs
            .iter()
            .map(|i| self.model.db.describe(i).ok())
            .collect();
        // A line without data would be left out of the simulation: no prediction rather than
        // one of part of the loop (the benchmark counts it as not covered).
        if let Some(k) = descs.iter().position(Option::is_none) {
            return Err(format!(
                "no {} data for line {k} `{}`",
                self.arch, instrs[k].iced
            ));
        }
        let opts = AnalysisOptions {
            performance: true,
            ..AnalysisOptions::new(ITERATIONS)
        };
        let r = analyze_region(&region, &instrs, &descs, &self.model.machine, &opts)
            .map_err(|e| e.to_string())?;
        let run = r.runs.first().ok_or("the analysis made no run")?;
        Ok(Prediction {
            own_data: descs
                .iter()
                .flatten()
                .any(|d| self.model.own_forms.contains(&d.string)),
            cycles: run.throughput,
            bottleneck: batch::Bottleneck::of(&r.bounds, run.throughput)
                .0
                .map(|b| b.name()),
        })
    }
}

/// The loop as AT&T lines for llvm-mca: a local label `1:` at the head and the back branch
/// written to `1b` (iced would print the absolute target, which llvm-mc reads as an
/// address, not as the loop head).
pub fn mca_lines(instrs: &[Instr]) -> Vec<String> {
    let mut f = GasFormatter::new();
    f.options_mut().set_gas_show_mnemonic_size_suffix(true);
    f.options_mut().set_branch_leading_zeros(false);
    let mut out = vec!["1:".to_string()];
    for (k, i) in instrs.iter().enumerate() {
        let mut s = String::new();
        let back = k + 1 == instrs.len()
            && i.iced.flow_control() == FlowControl::ConditionalBranch
            && i.iced.near_branch_target() == instrs[0].address;
        if back {
            f.format_mnemonic(&i.iced, &mut s);
            s.push_str(" 1b");
        } else {
            f.format(&i.iced, &mut s);
        }
        out.push(s);
    }
    out
}
