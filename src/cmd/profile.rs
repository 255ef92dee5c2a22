//! `suaca profile FILE`: run each selected region on this CPU (BHive's method) and print the
//! measured cycles per iteration beside suaca's prediction of the same steady state.
//!
//! A loop region is measured as a loop (`suaca::profile`); its row says so (`mode`, the
//! iterations N/2N in `copies`, the counter and how it was set).
//!
//! Owns: input and region selection (as the analysis), the prediction's arch (chosen as the
//! analysis chooses it, `env::choose_arch`), the table and JSON output (stdout or `-o`),
//! fault messages and exit codes.
//! Must not touch: the measurement (`suaca::profile`), the prediction (`suaca::batch`).

use serde::Serialize;
use suaca::batch::{self, LoadedModels, PredictOptions};
use suaca::cli::{Config, ProfileArgs};
use suaca::ir::{Instr, Region};
use suaca::pipeline::memory::harness::Harness;
use suaca::pipeline::ModelOptions;
use suaca::profile::{Measurement, ProfileError, ProfileOptions, Profiler};

use super::regions::{decode_all, select_region};
use super::{env, source};
use crate::Failure;

/// Fewest repetitions accepted (the protocol's minimum).
pub const MIN_REPS: u32 = 21;

pub fn run(args: &ProfileArgs) -> Result<(), Failure> {
    let opts = options(args)?;
    if args.batch.is_some() {
        return super::profile_batch::run(args, opts);
    }
    let selection = args
        .input()
        .ok_or_else(|| Failure::input("no input: give a FILE, --raw FILE or --hex HEX"))?;
    let loaded = source::load(&selection, &args.assembler, &Default::default())?;
    for w in &loaded.warnings {
        eprintln!("suaca: warning: {w}");
    }
    let name = loaded.input.name.clone();
    let regions = select_region(loaded.regions.clone(), args.region, &name)?;
    let decoded = decode_all(&regions, &name)?;
    let host = suaca::uarch::host::detect();
    let (arch, models) = load_model(args)?;

    let mut profiler = Profiler::new(opts).map_err(Failure::analysis)?;
    let mut rows = Vec::new();
    // With several regions, one that cannot be measured is a row with its reason and the
    // rest still run; the exit code reports it after the output (`unmeasured`).
    let several = decoded.len() > 1;
    // The regions not measured: whether the host was only too busy, and why.
    let mut unmeasured: Vec<(bool, String)> = Vec::new();
    for (region, instrs) in &decoded {
        let failure = |e: ProfileError| match e {
            ProfileError::Harness(h) if h.is_busy() => Failure::busy(format!("{name}: {h}")),
            ProfileError::Harness(h) => Failure::analysis(format!("{name}: {h}")),
            other => Failure::input(format!("{name}: region {}: {other}", region.index)),
        };
        match profiler.profile(instrs) {
            Ok(m) => {
                let predicted = predict(&models, &arch, instrs, &m);
                rows.push(Row::new(region, m, predicted));
            }
            // A harness that fails for another reason than a busy host fails every region.
            Err(ProfileError::Harness(h)) if several && !h.is_busy() => {
                return Err(failure(ProfileError::Harness(h)));
            }
            Err(e) if several => {
                // A harness error that reaches here is a busy host's refusal.
                let (status, busy) = match &e {
                    ProfileError::Fault(_) => ("fault", false),
                    ProfileError::Harness(_) => ("refused", true),
                    ProfileError::Unsupported(_) => ("unsupported", false),
                };
                let reason = e.to_string();
                rows.push(Row::unmeasured(region, instrs.len(), status, &reason));
                unmeasured.push((busy, format!("region {}: {reason}", region.index)));
            }
            Err(e) => return Err(failure(e)),
        }
    }
    let out = Output {
        input: name.clone(),
        host_arch: host.map(str::to_string),
        arch: Some(arch),
        cpu: profiler.cpu(),
        processes: opts.processes,
        reps: opts.reps,
        regions: rows,
    };
    let text = if args.json {
        let mut t = serde_json::to_string_pretty(&out)
            .map_err(|e| Failure::analysis(format!("cannot serialize: {e}")))?;
        t.push('\n');
        t
    } else {
        render_text(&out)
    };
    // stdout, or `-o FILE` written atomically (a closed pipe is not an error).
    super::batch::write_output(&args.output, text.as_bytes())?;
    match unmeasured_failure(&name, unmeasured, decoded.len()) {
        Some(f) => Err(f),
        None => Ok(()),
    }
}

/// The failure a run with unmeasured regions exits with: every reason on one line; exit code
/// 2 if a region faulted or cannot run, 75 if the host was only too busy (a retry may pass).
fn unmeasured_failure(
    name: &str,
    unmeasured: Vec<(bool, String)>,
    regions: usize,
) -> Option<Failure> {
    if unmeasured.is_empty() {
        return None;
    }
    let only_busy = unmeasured.iter().all(|(busy, _)| *busy);
    let reasons: Vec<String> = unmeasured.into_iter().map(|(_, r)| r).collect();
    let message = format!(
        "{name}: {} of {regions} regions not measured: {}",
        reasons.len(),
        reasons.join("; ")
    );
    Some(if only_busy {
        Failure::busy(message)
    } else {
        Failure::input(message)
    })
}

/// The timing options, checked.
pub fn options(args: &ProfileArgs) -> Result<ProfileOptions, Failure> {
    if args.reps < MIN_REPS {
        return Err(Failure::input(format!(
            "--reps must be at least {MIN_REPS} (the minimum of the runs is kept)"
        )));
    }
    if args.processes == 0 || args.processes > 99 {
        return Err(Failure::input("--processes must be from 1 to 99"));
    }
    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    if let Some(cpu) = args.cpu {
        if cpu >= libc_cpu_count() {
            return Err(Failure::input(format!(
                "--cpu {cpu}: this machine has {} CPU(s), numbered from 0",
                libc_cpu_count()
            )));
        }
    }
    let counter = match &args.counter {
        None => None,
        Some(name) => Some(suaca::profile::block::gpr_by_name(name).ok_or_else(|| {
            Failure::input(format!(
                "--counter {name}: not a general-purpose register (rax … r15, eax, …)"
            ))
        })?),
    };
    Ok(ProfileOptions {
        counter,
        iterations: args.iterations,
        cpu: args.cpu,
        processes: args.processes,
        reps: args.reps,
        calib_retries: args.retries,
        map_fault_pages: !args.no_fault_pages,
        ..ProfileOptions::default()
    })
}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
fn libc_cpu_count() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The prediction's arch (as the analysis chooses it) and its model; missing data is a
/// warning (the measurement stands on its own).
fn load_model(args: &ProfileArgs) -> Result<(String, LoadedModels), Failure> {
    let dirs = env::dirs()?;
    let config = Config::load(&dirs.config).map_err(Failure::input)?;
    let sources = env::sources(args.uops_xml.as_deref(), &dirs);
    let chosen = env::choose_arch(args.arch.as_deref(), &config, &sources, &dirs.cache)?;
    if let Some(note) = chosen.note().filter(|_| !args.json) {
        eprintln!("{note}");
    }
    let arch = chosen.name;
    let models = batch::load_models(&[&arch], &sources, &dirs.cache);
    for (arch, w) in &models.warnings {
        eprintln!(
            "suaca: warning: {}",
            suaca::report::warning::arch_dataset_message(arch, w)
        );
    }
    if let Err(why) = models.get(&arch) {
        eprintln!("suaca: warning: no prediction: {why}; {}", env::DATA_HINT);
    }
    Ok((arch, models))
}

/// suaca's prediction of the steady state the measurement reports, with as many copies.
fn predict(
    models: &LoadedModels,
    arch: &str,
    instrs: &[Instr],
    m: &Measurement,
) -> Option<Result<batch::Prediction, String>> {
    let model = models.get(arch).ok()?;
    // An unrolled block runs with the profiler's register windows (a loop's registers are
    // placed by its strides: no harness values).
    let harness = m.looped.is_none().then_some(Harness::Profile);
    let defaults = PredictOptions::default();
    let opts = PredictOptions {
        copies: m.copies.0 as u32,
        model: ModelOptions {
            harness,
            ..defaults.model
        },
        ..defaults
    };
    Some(batch::predict_instrs(model, instrs, &opts).map_err(|e| e.to_string()))
}

#[derive(Serialize)]
struct Output {
    input: String,
    host_arch: Option<String>,
    arch: Option<String>,
    cpu: usize,
    processes: u32,
    reps: u32,
    regions: Vec<Row>,
}

#[derive(Serialize)]
struct Row {
    region: usize,
    section: String,
    address: u64,
    instructions: usize,
    /// `ok`, or why the region has no measurement: `fault`, `unsupported` (it cannot run
    /// here) or `refused` (the host was too busy to time it); the reason is in `error`.
    status: &'static str,
    error: Option<String>,
    copies: Option<[usize; 2]>,
    /// `block` (unrolled copies), `loop` (run as itself; `copies` are iterations N/2N), or
    /// `-` for a region not measured.
    mode: &'static str,
    loop_counter: Option<String>,
    loop_setup: Option<String>,
    loop_branch_line: Option<usize>,
    measured_cycles_per_iteration: Option<f64>,
    spread: Option<f64>,
    per_process: Vec<f64>,
    cycles_per_tsc_tick: Option<f64>,
    pages_mapped_on_fault: u32,
    predicted_cycles_per_iteration: Option<f64>,
    difference_percent: Option<f64>,
    bottleneck: Option<String>,
    prediction_error: Option<String>,
}

impl Row {
    fn new(
        region: &Region,
        m: Measurement,
        predicted: Option<Result<batch::Prediction, String>>,
    ) -> Row {
        let (p, err) = match predicted {
            Some(Ok(p)) => (Some(p), None),
            Some(Err(e)) => (None, Some(e)),
            None => (None, None),
        };
        let cycles = p.as_ref().map(|p| p.cycles_per_iteration);
        Row {
            region: region.index,
            section: region.section.clone(),
            address: region.address,
            instructions: m.instructions,
            status: "ok",
            error: None,
            copies: Some([m.copies.0, m.copies.1]),
            mode: if m.looped.is_some() { "loop" } else { "block" },
            loop_counter: m.looped.as_ref().map(|l| l.counter.clone()),
            loop_setup: m.looped.as_ref().map(|l| l.setup.clone()),
            loop_branch_line: m.looped.as_ref().map(|l| l.branch_line),
            measured_cycles_per_iteration: Some(m.cycles_per_iteration),
            spread: Some(m.spread),
            per_process: m.per_process,
            cycles_per_tsc_tick: Some(m.cycles_per_tick),
            pages_mapped_on_fault: m.pages_mapped_on_fault,
            predicted_cycles_per_iteration: cycles,
            difference_percent: cycles.map(|c| {
                let d = 100.0 * (c - m.cycles_per_iteration) / m.cycles_per_iteration.max(1e-9);
                // No "-0.0%".
                if d.abs() < 0.05 {
                    0.0
                } else {
                    d
                }
            }),
            bottleneck: p.and_then(|p| p.bottleneck).map(|b| b.name()),
            prediction_error: err,
        }
    }

    /// The row of a region that was not measured (`status`, the reason in `message`).
    fn unmeasured(
        region: &Region,
        instructions: usize,
        status: &'static str,
        message: &str,
    ) -> Row {
        Row {
            region: region.index,
            section: region.section.clone(),
            address: region.address,
            instructions,
            status,
            error: Some(message.to_string()),
            copies: None,
            mode: "-",
            loop_counter: None,
            loop_setup: None,
            loop_branch_line: None,
            measured_cycles_per_iteration: None,
            spread: None,
            per_process: Vec::new(),
            cycles_per_tsc_tick: None,
            pages_mapped_on_fault: 0,
            predicted_cycles_per_iteration: None,
            difference_percent: None,
            bottleneck: None,
            prediction_error: None,
        }
    }
}

fn render_text(out: &Output) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let arch = out.arch.as_deref().unwrap_or("-");
    let host = out.host_arch.as_deref().unwrap_or("unknown arch");
    let mut t = comfy_table::Table::new();
    t.load_style(comfy_table::presets::ASCII_MARKDOWN)
        .set_header(vec![
            "Region".to_string(),
            "Instructions".into(),
            "Copies".into(),
            "Measured".into(),
            format!("suaca {arch}"),
            "Difference".into(),
            "Spread".into(),
            "suaca's bottleneck".into(),
        ]);
    let dash = || "-".to_string();
    for r in &out.regions {
        t.add_row(vec![
            r.region.to_string(),
            r.instructions.to_string(),
            match r.copies {
                Some([a, b]) if r.mode == "loop" => format!("{a}/{b} iterations"),
                Some([a, b]) => format!("{a}/{b}"),
                None => dash(),
            },
            r.measured_cycles_per_iteration
                .map_or_else(dash, |c| format!("{c:.3}")),
            r.predicted_cycles_per_iteration
                .map_or("-".into(), |c| format!("{c:.3}")),
            r.difference_percent
                .map_or("-".into(), |d| format!("{d:+.1}%")),
            r.spread.map_or_else(dash, |x| format!("{:.1}%", 100.0 * x)),
            r.bottleneck.clone().unwrap_or_else(|| "-".into()),
        ]);
    }
    let ratio = out
        .regions
        .iter()
        .find_map(|r| r.cycles_per_tsc_tick)
        .map_or(String::new(), |c| format!(" ({c:.4} per tick)"));
    let _ = writeln!(
        s,
        "Profile of {} on this CPU ({host}), pinned to CPU {}\n",
        out.input, out.cpu
    );
    let _ = writeln!(s, "{t}\n");
    let _ = writeln!(
        s,
        "Cycles per iteration = (cycles(b copies) - cycles(a copies)) / (b - a) for Copies a/b, \
         as BHive; core cycles from the TSC{ratio}, calibrated in every process against a \
         1-cycle add chain; minimum of {} runs, median of {} processes. suaca predicts the same \
         steady state; Difference = (suaca - measured) / measured.",
        out.reps, out.processes
    );
    for r in &out.regions {
        if let Some(e) = &r.error {
            let _ = writeln!(s, "Region {}: not measured ({}): {e}", r.region, r.status);
        }
        if let (Some(c), Some(setup), Some(line), Some([n, n2])) =
            (&r.loop_counter, &r.loop_setup, r.loop_branch_line, r.copies)
        {
            let _ = writeln!(
                s,
                "Region {}: a loop, run as itself with its back branch (line {line}) for N = {} \
                 and 2N = {} iterations; cycles per iteration = (t(2N) - t(N)) / N; counter {c}: \
                 {setup}.",
                r.region, n, n2
            );
        }
        if let Some(e) = &r.prediction_error {
            let _ = writeln!(s, "Region {}: no prediction: {e}", r.region);
        }
        if r.pages_mapped_on_fault > 0 {
            let _ = writeln!(
                s,
                "Region {}: the block computed addresses outside the harness's buffer; {} page(s) \
                 were mapped there (one physical page behind all, as BHive does).",
                r.region, r.pages_mapped_on_fault
            );
        }
    }
    s
}
