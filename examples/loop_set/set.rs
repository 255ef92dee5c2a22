//! The loop set: the main loop of every (kernel, variant) of the compiled suite, deduplicated
//! by bytes, and the committed file that joins it with the measurements
//! (`data/measured/ZEN4_loops.csv`).
//!
//! Layout written by `scripts/loops.sh`: `DIR/variants.csv` (`variant,compiler,flags,march`,
//! one row per compiler × flags combination, in build order) and `DIR/obj/VARIANT/FILE.o`.
//! Everything is visited in that order (variants as listed, objects by file name, functions
//! by address), so the set and its row order are deterministic.

use std::path::Path;

use crate::pick;

/// One compiler × flags combination.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// Short name, also the object directory (`gcc-O3-v3`).
    pub name: String,
    /// Compiler and version (`gcc 12.2.0`).
    pub compiler: String,
    /// The flags (`-O3 -march=x86-64-v3`).
    pub flags: String,
    /// The `-march` the compiler resolved (`native` becomes the host's, e.g. `znver3`).
    pub march: String,
}

/// Where a loop came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The kernel (function name).
    pub kernel: String,
    /// Its source file, without extension.
    pub file: String,
    /// Index into the variant list.
    pub variant: usize,
}

/// One distinct loop body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The bytes as hex.
    pub hex: String,
    /// Instructions, back branch included.
    pub instructions: usize,
    /// Every (kernel, variant) whose main loop has these bytes, first seen first.
    pub origins: Vec<Origin>,
}

/// The result of picking over a whole build.
#[derive(Clone, Debug, Default)]
pub struct PickedSet {
    /// The variants, as listed.
    pub variants: Vec<Variant>,
    /// Distinct loops in first-seen order.
    pub entries: Vec<Entry>,
    /// (kernel, variant) pairs without a loop, or objects that could not be read, with why.
    pub skipped: Vec<(Origin, String)>,
    /// (kernel, variant) pairs visited.
    pub visited: usize,
}

impl PickedSet {
    /// Adds the main loop of `function`, or records why it has none.
    pub fn add_function(&mut self, f: &pick::Function, file: &str, variant: usize) {
        let origin = Origin {
            kernel: f.name.clone(),
            file: file.to_string(),
            variant,
        };
        self.visited += 1;
        let loops = pick::single_block_loops(f);
        let Some(main) = pick::main_loop(&loops) else {
            self.skipped
                .push((origin, "no single-block loop".to_string()));
            return;
        };
        let hex = main.hex();
        match self.entries.iter_mut().find(|e| e.hex == hex) {
            Some(e) => e.origins.push(origin),
            None => self.entries.push(Entry {
                hex,
                instructions: main.instructions,
                origins: vec![origin],
            }),
        }
    }

    /// Adds every function of the object `data` (an unreadable object is one skipped row).
    pub fn add_object(&mut self, data: &[u8], file: &str, variant: usize) {
        match pick::functions(data) {
            Ok(fs) => fs.iter().for_each(|f| self.add_function(f, file, variant)),
            Err(e) => self.skipped.push((
                Origin {
                    kernel: "*".into(),
                    file: file.to_string(),
                    variant,
                },
                e,
            )),
        }
    }

    /// `kernel@variant` of an origin.
    pub fn origin_name(&self, o: &Origin) -> String {
        format!("{}@{}", o.kernel, self.variants[o.variant].name)
    }

    /// Distinct kernel names seen.
    pub fn kernels(&self) -> usize {
        let mut k: Vec<&str> = self
            .entries
            .iter()
            .flat_map(|e| e.origins.iter())
            .chain(self.skipped.iter().map(|(o, _)| o))
            .map(|o| o.kernel.as_str())
            .filter(|k| *k != "*")
            .collect();
        k.sort_unstable();
        k.dedup();
        k.len()
    }
}

/// Reads `DIR/variants.csv`.
pub fn read_variants(path: &Path) -> Result<Vec<Variant>, String> {
    let mut r = csv::Reader::from_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for rec in r.records() {
        let rec = rec.map_err(|e| format!("{}: {e}", path.display()))?;
        let field = |i: usize| rec.get(i).unwrap_or("").to_string();
        out.push(Variant {
            name: field(0),
            compiler: field(1),
            flags: field(2),
            march: field(3),
        });
    }
    Ok(out)
}

/// Picks over the build in `dir` (see the module doc).
pub fn pick_build(dir: &Path) -> Result<PickedSet, String> {
    let mut set = PickedSet {
        variants: read_variants(&dir.join("variants.csv"))?,
        ..PickedSet::default()
    };
    for v in 0..set.variants.len() {
        let objdir = dir.join("obj").join(&set.variants[v].name);
        let mut objects: Vec<_> = std::fs::read_dir(&objdir)
            .map_err(|e| format!("{}: {e}", objdir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "o"))
            .collect();
        objects.sort();
        for path in objects {
            let file = path
                .file_stem()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_default();
            match std::fs::read(&path) {
                Ok(data) => set.add_object(&data, &file, v),
                Err(e) => set.skipped.push((
                    Origin {
                        kernel: "*".into(),
                        file,
                        variant: v,
                    },
                    format!("{}: {e}", path.display()),
                )),
            }
        }
    }
    Ok(set)
}

/// Header of the set file and of the committed measurements (the latter adds
/// [`MEASURED_COLUMNS`]).
pub const SET_HEADER: [&str; 7] = [
    "hex",
    "instructions",
    "kernel",
    "file",
    "compiler",
    "flags",
    "variants",
];

/// The measurement columns of `data/measured/ZEN4_loops.csv`.
pub const MEASURED_COLUMNS: [&str; 5] = [
    "measured_cycles_per_iteration",
    "spread",
    "status",
    "reason",
    "passes",
];

/// One row of the set, as written.
pub fn set_row(set: &PickedSet, e: &Entry) -> Vec<String> {
    let first = &e.origins[0];
    let v = &set.variants[first.variant];
    vec![
        e.hex.clone(),
        e.instructions.to_string(),
        first.kernel.clone(),
        first.file.clone(),
        v.compiler.clone(),
        flags_with_march(v),
        e.origins
            .iter()
            .map(|o| set.origin_name(o))
            .collect::<Vec<_>>()
            .join(" "),
    ]
}

/// The flags, with what `-march=native` resolved to on the build host.
pub fn flags_with_march(v: &Variant) -> String {
    if v.flags.contains("-march=native") && !v.march.is_empty() {
        format!("{} ({})", v.flags, v.march)
    } else {
        v.flags.clone()
    }
}

/// The set as CSV.
pub fn set_csv(set: &PickedSet) -> Result<String, String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(SET_HEADER).map_err(|e| e.to_string())?;
    for e in &set.entries {
        w.write_record(set_row(set, e)).map_err(|e| e.to_string())?;
    }
    let bytes = w.into_inner().map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| e.to_string())
}

/// The skipped pairs as CSV (`kernel,file,variant,reason`).
pub fn skipped_csv(set: &PickedSet) -> Result<String, String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(["kernel", "file", "variant", "reason"])
        .map_err(|e| e.to_string())?;
    for (o, why) in &set.skipped {
        w.write_record([&o.kernel, &o.file, &set.variants[o.variant].name, why])
            .map_err(|e| e.to_string())?;
    }
    let bytes = w.into_inner().map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|e| e.to_string())
}

/// One row of `data/measured/ZEN4_loops.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopRow {
    /// The loop's bytes as hex.
    pub hex: String,
    /// Instructions.
    pub instructions: usize,
    /// First kernel.
    pub kernel: String,
    /// Its file.
    pub file: String,
    /// First compiler.
    pub compiler: String,
    /// Its flags (`-march=native` followed by what it resolved to: `(znver3)`).
    pub flags: String,
    /// Every `kernel@variant` with this body.
    pub variants: String,
    /// Measured cycles per iteration (status `ok` only): the median of the passes.
    pub measured: Option<f64>,
    /// Run-to-run spread: (largest − smallest pass) / median.
    pub spread: Option<f64>,
    /// `ok`, `fault`, `unsupported`, `invalid`.
    pub status: String,
    /// Why there is no measurement.
    pub reason: String,
    /// Every separate pass's value (a pass measures the whole set once), in run order.
    pub passes: Vec<f64>,
}

impl LoopRow {
    /// `kernel@variant` of the first origin.
    pub fn case(&self) -> String {
        self.variants
            .split(' ')
            .next()
            .unwrap_or(&self.kernel)
            .to_string()
    }
}

/// Reads a measured loop file by column name.
pub fn read_loops(path: &Path) -> Result<Vec<LoopRow>, String> {
    let mut r = csv::Reader::from_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let header = r.headers().map_err(|e| e.to_string())?.clone();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| format!("{}: no column `{name}`", path.display()))
    };
    let idx: Vec<usize> = SET_HEADER
        .iter()
        .chain(MEASURED_COLUMNS.iter())
        .map(|c| col(c))
        .collect::<Result<_, _>>()?;
    let mut out = Vec::new();
    for (n, rec) in r.records().enumerate() {
        let rec = rec.map_err(|e| format!("{}: row {}: {e}", path.display(), n + 1))?;
        let f = |k: usize| rec.get(idx[k]).unwrap_or("").to_string();
        let num = |k: usize| f(k).parse::<f64>().ok().filter(|x| x.is_finite());
        out.push(LoopRow {
            hex: f(0),
            instructions: f(1).parse().unwrap_or(0),
            kernel: f(2),
            file: f(3),
            compiler: f(4),
            flags: f(5),
            variants: f(6),
            measured: num(7),
            spread: num(8),
            status: f(9),
            reason: f(10),
            passes: f(11)
                .split_whitespace()
                .filter_map(|v| v.parse::<f64>().ok().filter(|x| x.is_finite()))
                .collect(),
        });
    }
    Ok(out)
}

/// A `suaca profile --batch` result row, by column name.
struct Measured {
    hex: String,
    cycles: Option<f64>,
    spread: Option<f64>,
    status: String,
    reason: String,
}

fn read_profile_csv(path: &Path) -> Result<Vec<Measured>, String> {
    let mut r = csv::Reader::from_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let header = r.headers().map_err(|e| e.to_string())?.clone();
    let col = |name: &str| header.iter().position(|h| h == name);
    let need = |name: &str| col(name).ok_or_else(|| format!("{}: no `{name}`", path.display()));
    let (hex, cycles, status) = (
        need("hex")?,
        need("measured_cycles_per_iteration")?,
        need("status")?,
    );
    let (spread, signal, detail) = (col("spread"), col("signal"), col("detail"));
    let mut out = Vec::new();
    for rec in r.records() {
        let rec = rec.map_err(|e| format!("{}: {e}", path.display()))?;
        let get = |i: Option<usize>| i.and_then(|i| rec.get(i)).unwrap_or("").to_string();
        let num = |i: Option<usize>| get(i).parse::<f64>().ok().filter(|x| x.is_finite());
        let reason = [get(signal), get(detail)]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(": ");
        out.push(Measured {
            hex: get(Some(hex)),
            cycles: num(Some(cycles)),
            spread: num(spread),
            status: get(Some(status)),
            reason,
        });
    }
    Ok(out)
}

/// The committed CSV and what went into it.
#[derive(Debug)]
pub struct Published {
    /// The CSV text.
    pub text: String,
    /// Rows per status of the first pass.
    pub counts: Vec<(String, usize)>,
    /// Pass values of measured loops, and how many of them are within 1%, 2%, 5% of their
    /// loop's median.
    pub agreement: [usize; 4],
}

/// Joins the set file with the `suaca profile --batch` outputs of separate passes over it
/// (row k of each measured set row k) into the committed CSV. A loop's measurement is the
/// median of the passes that measured it (a burst of noise on the host, seen as 1.6–1.9×
/// on a 1-cycle loop in one pass of five, then stays out); its status and reason are the
/// first pass's.
pub fn publish(set: &Path, passes: &[std::path::PathBuf]) -> Result<Published, String> {
    let mut r = csv::Reader::from_path(set).map_err(|e| format!("{}: {e}", set.display()))?;
    let rows: Vec<csv::StringRecord> = r
        .records()
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{}: {e}", set.display()))?;
    if passes.is_empty() {
        return Err("no measurement pass to publish".into());
    }
    let runs: Vec<Vec<Measured>> = passes
        .iter()
        .map(|p| read_profile_csv(p))
        .collect::<Result<_, _>>()?;
    for (path, run) in passes.iter().zip(&runs) {
        if run.len() != rows.len() {
            return Err(format!(
                "{} has {} rows, {} has {}",
                set.display(),
                rows.len(),
                path.display(),
                run.len()
            ));
        }
    }
    let mut counts: std::collections::BTreeMap<String, usize> = Default::default();
    let mut agree = [0usize; 4];
    let mut w = csv::Writer::from_writer(Vec::new());
    let header: Vec<&str> = SET_HEADER
        .iter()
        .chain(&MEASURED_COLUMNS)
        .copied()
        .collect();
    w.write_record(&header).map_err(|e| e.to_string())?;
    for (k, row) in rows.iter().enumerate() {
        // The row's status is its first measured pass's: a pass that found the host too
        // busy for one loop does not discard the loop's other passes.
        let first = runs
            .iter()
            .map(|run| &run[k])
            .find(|m| m.status == "ok")
            .unwrap_or(&runs[0][k]);
        if runs
            .iter()
            .any(|run| row.get(0) != Some(run[k].hex.as_str()))
        {
            return Err(format!("row order differs at row {}", k + 1));
        }
        *counts.entry(first.status.clone()).or_default() += 1;
        let values: Vec<f64> = runs
            .iter()
            .filter_map(|run| run[k].cycles.filter(|_| run[k].status == "ok"))
            .collect();
        let mid = suaca::batch::metrics::median(&values);
        let spread = mid.and_then(|m| {
            let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            (values.len() > 1).then(|| (hi - lo) / m)
        });
        if let Some(m) = mid {
            for v in &values {
                let d = (v - m).abs() / m;
                agree[0] += 1;
                for (slot, limit) in [(1, 0.01), (2, 0.02), (3, 0.05)] {
                    agree[slot] += usize::from(d <= limit);
                }
            }
        }
        let num = |v: Option<f64>| v.map_or(String::new(), |x| format!("{x:.4}"));
        let mut rec: Vec<String> = row.iter().map(str::to_string).collect();
        rec.extend([
            num(mid),
            num(spread.or(first.spread.filter(|_| mid.is_some()))),
            first.status.clone(),
            first.reason.clone(),
            values
                .iter()
                .map(|v| format!("{v:.4}"))
                .collect::<Vec<_>>()
                .join(" "),
        ]);
        w.write_record(&rec).map_err(|e| e.to_string())?;
    }
    let bytes = w.into_inner().map_err(|e| e.to_string())?;
    Ok(Published {
        text: String::from_utf8(bytes).map_err(|e| e.to_string())?,
        counts: counts.into_iter().collect(),
        agreement: agree,
    })
}
