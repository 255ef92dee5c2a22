//! llvm-mca beside suaca: blocks as AT&T assembly in one input file, one `# LLVM-MCA-BEGIN`
//! region per block, one llvm-mca process per arch and run length.
//!
//! Fairness: llvm-mca gets the same blocks, disassembled by iced-x86's GAS formatter (with
//! size suffixes, so memory-immediate forms are unambiguous); lines it cannot parse or has no
//! scheduling data for are skipped by llvm-mca (`-skip-unsupported-instructions=any`) and
//! such blocks count as not covered. Its prediction is the same steady-state quantity as
//! suaca's and BHive's: (Total Cycles at 200 iterations − at 100) / 100. Only the summary view
//! is printed, the cheapest output llvm-mca has.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use iced_x86::{Formatter, GasFormatter};
use suaca::ir::Instr;

/// llvm-mca's `-mcpu` for a uops.info arch name.
pub fn cpu_of(arch: &str) -> Option<&'static str> {
    Some(match arch {
        "SNB" => "sandybridge",
        "IVB" => "ivybridge",
        "HSW" => "haswell",
        "BDW" => "broadwell",
        "SKL" | "KBL" | "CFL" => "skylake",
        "SKX" => "skylake-avx512",
        "CLX" => "cascadelake",
        "ICL" => "icelake-client",
        "TGL" => "tigerlake",
        "RKL" => "rocketlake",
        "ADL-P" => "alderlake",
        "MTL-P" => "meteorlake",
        "ZEN+" => "znver1",
        "ZEN2" => "znver2",
        "ZEN3" => "znver3",
        "ZEN4" => "znver4",
        _ => return None,
    })
}

/// Whether `binary` runs.
pub fn available(binary: &str) -> bool {
    Command::new(binary)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The block as AT&T lines.
pub fn gas_lines(instrs: &[Instr]) -> Vec<String> {
    let mut f = GasFormatter::new();
    f.options_mut().set_gas_show_mnemonic_size_suffix(true);
    f.options_mut().set_branch_leading_zeros(false);
    instrs
        .iter()
        .map(|i| {
            let mut s = String::new();
            f.format(&i.iced, &mut s);
            s
        })
        .collect()
}

/// An llvm-mca input: region `b<i>` for each block `i` that has lines.
pub struct McaInput {
    /// The assembly text.
    pub text: String,
    /// For each 1-based line of `text` holding an instruction, the block it belongs to.
    pub block_of_line: BTreeMap<usize, usize>,
}

/// Builds the input file of `blocks` (index, lines).
pub fn input(blocks: &[(usize, Vec<String>)]) -> McaInput {
    let mut text = String::new();
    let mut block_of_line = BTreeMap::new();
    let mut line = 0;
    for (i, lines) in blocks {
        text.push_str(&format!("# LLVM-MCA-BEGIN b{i}\n"));
        line += 1;
        for l in lines {
            text.push_str(l);
            text.push('\n');
            line += 1;
            block_of_line.insert(line, *i);
        }
        text.push_str(&format!("# LLVM-MCA-END b{i}\n"));
        line += 1;
    }
    McaInput {
        text,
        block_of_line,
    }
}

/// One llvm-mca run.
pub struct McaRun {
    /// Total Cycles of each block's region.
    pub total_cycles: BTreeMap<usize, u64>,
    /// Blocks with at least one skipped line.
    pub skipped: BTreeSet<usize>,
    /// Wall-clock time of the process.
    pub elapsed: Duration,
}

/// Runs `binary` on `input` (written to `path`) for `cpu` and `iterations`.
pub fn run(
    binary: &str,
    cpu: &str,
    iterations: u32,
    input: &McaInput,
    path: &Path,
) -> Result<McaRun, String> {
    suaca::fsutil::write_atomic(path, input.text.as_bytes())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let start = Instant::now();
    let out = Command::new(binary)
        .arg(format!("-mcpu={cpu}"))
        .arg(format!("-iterations={iterations}"))
        .args([
            "-instruction-info=false",
            "-resource-pressure=false",
            "-skip-unsupported-instructions=any",
        ])
        .arg(path)
        .output()
        .map_err(|e| format!("cannot run {binary}: {e}"))?;
    let elapsed = start.elapsed();
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "{binary} failed: {}",
            err.lines().next().unwrap_or("")
        ));
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    Ok(McaRun {
        total_cycles: parse_summary(&stdout),
        skipped: skipped_blocks(&stderr, path, &input.block_of_line),
        elapsed,
    })
}

/// `[k] Code Region - b<i>` … `Total Cycles: N` pairs.
pub fn parse_summary(stdout: &str) -> BTreeMap<usize, u64> {
    let mut out = BTreeMap::new();
    let mut current = None;
    for line in stdout.lines() {
        if let Some(pos) = line.find("Code Region - b") {
            current = line[pos + "Code Region - b".len()..].trim().parse().ok();
        } else if let Some(v) = line.strip_prefix("Total Cycles:") {
            if let (Some(b), Ok(c)) = (current.take(), v.trim().parse()) {
                out.insert(b, c);
            }
        }
    }
    out
}

/// Blocks named by `FILE:LINE:COL: error` lines.
fn skipped_blocks(
    stderr: &str,
    path: &Path,
    block_of_line: &BTreeMap<usize, usize>,
) -> BTreeSet<usize> {
    let prefix = format!("{}:", path.display());
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .filter_map(|rest| rest.split(':').next()?.parse::<usize>().ok())
        .filter_map(|line| block_of_line.get(&line).copied())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_regions_by_name() {
        let text = "\n[0] Code Region - b3\n\nIterations:        100\nTotal Cycles:      103\n\
                    [1] Code Region - b7\nTotal Cycles:      57\n";
        let m = parse_summary(text);
        assert_eq!(m.get(&3), Some(&103));
        assert_eq!(m.get(&7), Some(&57));
    }
}
