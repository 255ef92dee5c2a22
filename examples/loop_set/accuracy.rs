//! The loop accuracy benchmark: every measured loop of a host's set (`data/measured/
//! ARCH_loops.csv`) predicted by suaca (see [`crate::predict`]) and by llvm-mca-19 with the
//! arch's `-mcpu` (`znver4` for ZEN4), with the
//! accuracy benchmark's metrics and tables (`examples/accuracy/report.rs`,
//! `src/batch/metrics.rs`).
//!
//! llvm-mca gets the loop's instructions, back branch included (to a label at the head), in
//! one file with one region per loop, at `-iterations=100` and `200`; its prediction is
//! (Total Cycles(200) − Total Cycles(100)) / 100, as in `examples/accuracy/bench.rs`.

use std::path::Path;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use suaca::batch::features;

use crate::bench::{self, Block, Outcome};
use crate::mca;
use crate::predict::{self, Predictor};
use crate::set::LoopRow;

/// The tag of loops whose measurement could not keep the arrays in L1 (see
/// `suaca::profile::placement::exceeds_l1`).
pub const OVER_L1: &str = "arrays over L1 when measured";

/// The tag of loops with a line whose data is suaca's own measurement (a supplement, e.g.
/// the AVX-512 forms of MTL-P), not the source's.
pub const OWN_DATA: &str = "suaca's own instruction data";

/// Whether `instrs` (a loop) is timed with its arrays partly outside L1 even at the
/// profiler's fewest iterations.
fn exceeds_l1(instrs: &[suaca::ir::Instr]) -> bool {
    match suaca::profile::loop_shape::detect(instrs, None) {
        Ok(Some(shape)) => suaca::profile::placement::exceeds_l1(instrs, &shape),
        _ => false,
    }
}

/// One measured loop with suaca's prediction, and its instructions (for llvm-mca).
fn block(r: &LoopRow, measured: f64, predictor: &Predictor) -> (Block, Vec<suaca::ir::Instr>) {
    let instrs = suaca::input::parse_hex(&r.hex)
        .ok()
        .and_then(|b| suaca::decode::decode_bytes(&b, 0).ok())
        .unwrap_or_default();
    let mut f = features::features(&instrs);
    if exceeds_l1(&instrs) {
        f.tags.push(OVER_L1);
    }
    let (suaca, suaca_error, bottleneck) = match predictor.predict(&r.hex) {
        Ok(p) => {
            if p.own_data {
                f.tags.push(OWN_DATA);
            }
            (Some(p.cycles), None, p.bottleneck)
        }
        Err(e) => (None, Some(e), None),
    };
    let b = Block {
        arch: predictor.arch.clone(),
        case_id: r.case(),
        hex: r.hex.clone(),
        measured,
        may_alias: false,
        suaca,
        suaca_error,
        bottleneck,
        mca: None,
        mca_total: None,
        tags: f.tags,
        mnemonics: f.mnemonics,
    };
    (b, instrs)
}

/// Predicts the measured rows of `rows` (status `ok`); `mca`: the llvm-mca binary, if any.
pub fn run(
    rows: &[LoopRow],
    predictor: &Predictor,
    mca_bin: Option<&str>,
    scratch: &Path,
) -> Outcome {
    let start = Instant::now();
    let mut skipped_rows = Vec::new();
    let mut measured = Vec::new();
    for r in rows {
        match r.measured.filter(|_| r.status == "ok") {
            Some(m) => measured.push((r, m)),
            None => skipped_rows.push(format!("{}: {} {}", r.case(), r.status, r.reason)),
        }
    }
    // Loops are independent: predicted on every core, collected in row order.
    let (mut blocks, instrs_of): (Vec<Block>, Vec<Vec<suaca::ir::Instr>>) = measured
        .par_iter()
        .map(|&(r, measured)| block(r, measured, predictor))
        .collect::<Vec<_>>()
        .into_iter()
        .unzip();
    let suaca_time = start.elapsed();
    let mut notes = Vec::new();
    let mut mca_time = Duration::ZERO;
    let mca_ran = match mca_bin {
        Some(bin) if mca::available(bin) => {
            match run_mca(bin, &predictor.arch, &mut blocks, &instrs_of, scratch) {
                Ok(t) => mca_time = t,
                Err(e) => notes.push(format!("llvm-mca: {e}")),
            }
            true
        }
        Some(bin) => {
            notes.push(format!("{bin} is not installed: its columns are left out"));
            false
        }
        None => false,
    };
    Outcome {
        blocks,
        skipped_rows,
        mca_ran,
        notes,
        suaca_time,
        mca_time,
    }
}

fn run_mca(
    bin: &str,
    arch: &str,
    blocks: &mut [Block],
    instrs_of: &[Vec<suaca::ir::Instr>],
    scratch: &Path,
) -> Result<Duration, String> {
    let cpu = mca::cpu_of(arch).ok_or_else(|| format!("no -mcpu for {arch}"))?;
    let lines: Vec<(usize, Vec<String>)> = instrs_of
        .iter()
        .enumerate()
        .filter(|(_, i)| !i.is_empty())
        .map(|(k, i)| (k, predict::mca_lines(i)))
        .collect();
    bench::mca_predict(bin, cpu, &lines, &scratch.join("mca-loops.s"), blocks)
}
