//! The run as a user lives it: catalogue → batches of variants measured in forked children →
//! checkpoint → XML (atomic) and arch TOML, with progress callbacks and resume.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::Instant;

use regex::Regex;

use super::catalog::{self, HostFeatures, Skeleton, Variant};
use super::checkpoint::{self, Checkpoint, Header};
use super::infer::{self, VariantResult};
use super::machine;
use super::plan::Domain;
use super::timer::TimeBase;
use super::{ConfigError, MeasureConfig, MeasureError, MeasureSummary, Progress};
use crate::uopsxml::{ArchRecord, InstrRecord, WriteOptions};

mod batch;
mod machine_bench;
mod pipeline_rules;
mod setup;

use batch::measure_batch;
use machine_bench::measure_machine;
use setup::{blocker_summary, setup};

/// CPU brand string from CPUID.
pub fn cpu_model() -> String {
    let mut b = Vec::new();
    for leaf in 0x8000_0002u32..=0x8000_0004 {
        for w in super::jit::cpuid(leaf, 0) {
            b.extend_from_slice(&w.to_le_bytes());
        }
    }
    String::from_utf8_lossy(&b)
        .trim_matches(char::from(0))
        .trim()
        .to_string()
}

fn default_checkpoint(out: &Path) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".checkpoint.jsonl");
    PathBuf::from(s)
}

/// Runs the whole measurement (see [`super::run`]).
pub fn run(
    config: MeasureConfig,
    progress: &mut dyn Progress,
) -> Result<MeasureSummary, MeasureError> {
    let t0 = Instant::now();
    let filter = match &config.filter {
        Some(f) => Some(Regex::new(f).map_err(ConfigError::Filter)?),
        None => None,
    };
    let arch = config
        .arch
        .clone()
        .or_else(|| crate::uarch::host::detect().map(str::to_string))
        .ok_or(ConfigError::UnknownCpu)?;
    if config.arch.is_none() {
        if let Some(why) = crate::uarch::host::mismatch() {
            progress.message(&why);
        }
    }
    let cpu = cpu_model();
    let skel = read_skeleton(&config, progress)?;
    let cat = catalog::build(&HostFeatures::detect(), skel.as_ref(), &config.catalog);
    let mut selected: Vec<&Variant> = cat
        .variants
        .iter()
        .filter(|v| {
            filter
                .as_ref()
                .is_none_or(|re| re.is_match(&v.record.string))
        })
        .collect();
    if let Some(n) = config.limit {
        selected.truncate(n);
    }
    let ck_path = config
        .checkpoint
        .clone()
        .unwrap_or_else(|| default_checkpoint(&config.out));
    let header = Header {
        arch: arch.clone(),
        cpu: cpu.clone(),
        version: env!("CARGO_PKG_VERSION").to_string(),
    };
    let (mut ck, mut done) = open_checkpoint(&config, &ck_path, header)?;
    let resumed = selected
        .iter()
        .filter(|v| done.contains_key(&v.record.string))
        .count();
    let todo: Vec<&Variant> = selected
        .iter()
        .copied()
        .filter(|v| !done.contains_key(&v.record.string))
        .collect();
    progress.begin(selected.len() as u64);
    progress.advance(resumed as u64, "");
    let mut ctx = setup(&config, &arch, progress)?;
    let machine = match config.machine_out {
        Some(_) => Some(machine_params(&mut ctx, progress)?),
        None => None,
    };
    let batches = Batches {
        todo: &todo,
        size: config.batch.max(1),
        resumed: resumed as u64,
    };
    let (failed, interrupted) = measure_batches(&mut ctx, &batches, progress, &mut ck, &mut done)?;
    // Output (also after an interruption: a partial but valid file).
    let measured = selected
        .iter()
        .filter(|v| {
            done.get(&v.record.string)
                .is_some_and(VariantResult::measured)
        })
        .count();
    let date = today();
    let arch_attrs = arch_attributes(&config, &ctx, &cpu, &date);
    let records = output_records(&cat.variants, &done, &ctx, &arch, &arch_attrs);
    write_outputs(&config, &records, &date, &arch, machine.as_ref())?;
    let ratio = ctx.engine.last_ratio;
    Ok(MeasureSummary {
        arch,
        cpu,
        catalogue: cat.variants.len(),
        skipped: cat.skip_summary(),
        selected: selected.len(),
        measured,
        resumed,
        failed,
        interrupted,
        wall: t0.elapsed(),
        out: config.out.clone(),
        checkpoint: ck_path,
        machine,
        time_base: ctx.engine.time_base.describe(),
        cycles_per_tsc_tick: ratio,
    })
}

/// The uops.info skeleton named in the configuration, indexed.
fn read_skeleton(
    config: &MeasureConfig,
    progress: &mut dyn Progress,
) -> Result<Option<Skeleton>, MeasureError> {
    let Some(p) = &config.skeleton else {
        return Ok(None);
    };
    progress.message(&format!("reading skeleton {}", p.display()));
    let recs = crate::uopsxml::read_file(p, &crate::uopsxml::ArchFilter::default())
        .map_err(|e| MeasureError::Skeleton(e.to_string()))?;
    Ok(Some(Skeleton::new(recs)))
}

/// The checkpoint to append to and the results it already holds (when resuming one of the
/// same arch and CPU), or a new one.
fn open_checkpoint(
    config: &MeasureConfig,
    ck_path: &Path,
    header: Header,
) -> Result<(Checkpoint, HashMap<String, VariantResult>), MeasureError> {
    if !(config.resume && ck_path.exists()) {
        return Ok((Checkpoint::create(ck_path, &header)?, HashMap::new()));
    }
    let (h, d) = checkpoint::load::<VariantResult>(ck_path)?;
    if let Some(h) = h {
        if h.arch != header.arch || h.cpu != header.cpu {
            return Err(ConfigError::CheckpointMismatch {
                path: ck_path.to_path_buf(),
                found: (h.arch, h.cpu),
                wanted: (header.arch, header.cpu),
            }
            .into());
        }
    }
    let done = d
        .into_iter()
        .map(|(k, mut r)| {
            normalise_old_record(&mut r);
            (k, r)
        })
        .collect();
    Ok((Checkpoint::append_to(ck_path)?, done))
}

/// Machine parameters, with the integer blockers' port groups first, then the FP ones.
fn machine_params(
    ctx: &mut setup::Ctx,
    progress: &mut dyn Progress,
) -> Result<machine::MachineParams, MeasureError> {
    let groups = ctx
        .blockers
        .iter()
        .filter(|(b, ok)| *ok && b.domain != Domain::Fp)
        .chain(
            ctx.blockers
                .iter()
                .filter(|(b, ok)| *ok && b.domain == Domain::Fp),
        )
        .map(|(b, _)| b.ports.clone())
        .collect();
    measure_machine(&mut ctx.engine, progress, groups)
}

/// The variants still to measure, in batches of `size` (one fork and calibration each).
struct Batches<'a, 'v> {
    todo: &'a [&'v Variant],
    size: usize,
    /// Variants taken from the checkpoint (progress starts there).
    resumed: u64,
}

/// Measures the batches, checkpointing each; returns the failures by reason and whether the
/// user stopped the run.
fn measure_batches(
    ctx: &mut setup::Ctx,
    batches: &Batches,
    progress: &mut dyn Progress,
    ck: &mut Checkpoint,
    done: &mut HashMap<String, VariantResult>,
) -> Result<(BTreeMap<String, usize>, bool), MeasureError> {
    let mut failed: BTreeMap<String, usize> = BTreeMap::new();
    let mut interrupted = false;
    let mut count = batches.resumed;
    for chunk in batches.todo.chunks(batches.size) {
        if progress.interrupted() {
            interrupted = true;
            break;
        }
        progress.advance(count, &chunk[0].record.string);
        let results = measure_batch(ctx, chunk)?;
        for (v, r) in chunk.iter().zip(results) {
            let r = match r {
                Ok(r) => r,
                Err(e) => {
                    *failed.entry(format!("not planned: {e}")).or_insert(0) += 1;
                    VariantResult::default()
                }
            };
            if !r.measured() {
                let why = r
                    .faults
                    .first()
                    .cloned()
                    .unwrap_or_else(|| "nothing measured".into());
                *failed.entry(why).or_insert(0) += 1;
            }
            ck.push(&v.record.string, &r)?;
            done.insert(v.record.string.clone(), r);
        }
        ck.sync()?;
        count += chunk.len() as u64;
        progress.advance(
            count,
            chunk.last().map(|v| v.record.string.as_str()).unwrap_or(""),
        );
    }
    Ok((failed, interrupted))
}

/// The `<architecture>` attributes: CPU, date, and how the values were measured.
fn arch_attributes(
    config: &MeasureConfig,
    ctx: &setup::Ctx,
    cpu: &str,
    date: &str,
) -> BTreeMap<String, String> {
    let ratio = ctx.engine.last_ratio;
    let mut arch_attrs = BTreeMap::new();
    arch_attrs.insert("cpu".to_string(), cpu.to_string());
    arch_attrs.insert("date".to_string(), date.to_string());
    let ports_how = if ctx.port_events.is_some() {
        "ports from per-port counters by Algorithm 1".to_string()
    } else {
        format!(
            "ports inferred by interference with blockers ({}), fitted per combination (ports_residual), arch description's ports where the fit gives none (ports_default)",
            blocker_summary(&ctx.blockers)
        )
    };
    arch_attrs.insert(
        "method".to_string(),
        format!(
            "suaca measure: {}; min of {} reps, median of {} processes (up to {} more where they disagree by over {}%: the fastest confirmed value), two unroll counts differenced; {} inferred with a {} filler (width {}); {}; macro-fusion from Jcc pairs against the dispatch limit",
            ctx.engine.time_base.describe(),
            config.reps,
            config.processes,
            ctx.engine.extra_processes,
            ctx.engine.agree * 100.0,
            if ctx.nop_filler() {
                "uops_retire_slots = fused-domain slots, uops = the µops on ports (with a load µop per memory operand read, a store-address and a store-data µop per operand written),"
            } else {
                "uops = dispatch slots"
            },
            if ctx.nop_filler() { "NOP" } else { "zero-idiom" },
            ctx.dispatch,
            ports_how
        ),
    );
    arch_attrs.insert(
        "suaca_version".to_string(),
        env!("CARGO_PKG_VERSION").to_string(),
    );
    if ctx.port_events.is_none() {
        arch_attrs.insert("ports_inferred".to_string(), "1".to_string());
    }
    arch_attrs.insert("uops_inferred".to_string(), "1".to_string());
    arch_attrs.insert("macro_fusible_inferred".to_string(), "1".to_string());
    if let (Some(r), TimeBase::Tsc { .. }) = (ratio, &ctx.engine.time_base) {
        arch_attrs.insert("cycles_per_tsc_tick".to_string(), format!("{r:.4}"));
    }
    arch_attrs
}

/// One record per measured variant of the catalogue, in catalogue order.
fn output_records(
    variants: &[Variant],
    done: &HashMap<String, VariantResult>,
    ctx: &setup::Ctx,
    arch: &str,
    arch_attrs: &BTreeMap<String, String>,
) -> Vec<InstrRecord> {
    let mut records: Vec<InstrRecord> = Vec::new();
    for v in variants {
        let Some(r) = done.get(&v.record.string) else {
            continue;
        };
        if !r.measured() {
            continue;
        }
        // Ports for every µop: the arch description's where the fit found none (an output
        // interpretation; the checkpoint keeps what was measured).
        let mut r = r.clone();
        ctx.fallback.apply(batch::class_of(v), ctx.dispatch, &mut r);
        let mut rec = v.record.clone();
        rec.attrs.remove("iced_code");
        rec.archs = vec![ArchRecord {
            name: arch.to_string(),
            attrs: arch_attrs.clone(),
            measurement: Some(infer::to_measurement(&r, ctx.dispatch, ctx.nop_filler())),
        }];
        records.push(rec);
    }
    records
}

/// Writes the XML (zstd for `.zst`) and the machine TOML, each atomically.
fn write_outputs(
    config: &MeasureConfig,
    records: &[InstrRecord],
    date: &str,
    arch: &str,
    machine: Option<&machine::MachineParams>,
) -> Result<(), MeasureError> {
    let mut xml = Vec::new();
    crate::uopsxml::write_instructions(
        &mut xml,
        records,
        &WriteOptions {
            date: Some(date.to_string()),
        },
    )
    .map_err(|e| MeasureError::Io {
        path: config.out.clone(),
        source: e,
    })?;
    let bytes = if config.out.extension().is_some_and(|e| e == "zst") {
        zstd::encode_all(&xml[..], 19).map_err(|e| MeasureError::Io {
            path: config.out.clone(),
            source: e,
        })?
    } else {
        xml
    };
    checkpoint::write_atomic(&config.out, &bytes)?;
    if let (Some(p), Some(m)) = (&config.machine_out, machine) {
        let base = crate::uarch::names()
            .iter()
            .find(|n| **n == arch)
            .map(|_| arch);
        checkpoint::write_atomic(p, machine::to_toml(arch, base, m).as_bytes())?;
    }
    Ok(())
}

/// Checkpoints written before integer ports existed stored FP groups without their prefix
/// (`23` for `FP23`).
fn normalise_old_record(r: &mut VariantResult) {
    for (c, _) in r.ports.iter_mut() {
        if c.starts_with(|ch: char| ch.is_ascii_digit()) {
            *c = format!("FP{c}");
        }
    }
}

fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0) as i64;
    let days = secs.div_euclid(86_400);
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    format!("{:04}-{:02}-{:02}", if m <= 2 { y + 1 } else { y }, m, d)
}
