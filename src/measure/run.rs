//! The run as a user lives it: catalogue → batches of variants measured in forked children →
//! checkpoint → XML (atomic) and arch TOML, with progress callbacks and resume.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use iced_x86::{Code, Instruction, MemoryOperand, Register};
use regex::Regex;

use super::catalog::{self, HostFeatures, Skeleton, Variant};
use super::checkpoint::{self, Checkpoint, Header};
use super::engine::Engine;
use super::harness::{self, Kernel, Outcome, Protocol, Spec};
use super::infer::{self, VariantResult};
use super::machine::{self, MachineParams};
use super::plan::{self, Basics, Role};
use super::{MeasureConfig, MeasureError, MeasureSummary, Progress};
use crate::uopsxml::{ArchRecord, InstrRecord, WriteOptions};

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

/// uops.info arch name from CPUID vendor/family/model (None if unknown).
pub fn detect_arch() -> Option<String> {
    let v = super::jit::cpuid(0, 0);
    let vendor: Vec<u8> = [v[1], v[3], v[2]]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let l1 = super::jit::cpuid(1, 0)[0];
    let base_fam = (l1 >> 8) & 0xF;
    let fam = if base_fam == 0xF {
        base_fam + ((l1 >> 20) & 0xFF)
    } else {
        base_fam
    };
    let model = ((l1 >> 4) & 0xF) | (((l1 >> 16) & 0xF) << 4);
    super::arch_name(&String::from_utf8_lossy(&vendor), fam, model).map(str::to_string)
}

struct Ctx {
    engine: Engine,
    basics: Basics,
    blockers: Vec<plan::Blocker>,
    blocker_valid: Vec<(String, usize, bool)>,
    dispatch: f64,
}

fn tp_spec(body: Vec<Instruction>, init: Vec<Instruction>, gpr: Vec<(Register, u64)>) -> Spec {
    let n = body.len().max(1);
    let b = (1200 / n).max(2);
    Spec::Unrolled {
        kernel: Kernel {
            body,
            init,
            gpr_init: gpr,
            uses_mmx: false,
        },
        copies_a: b / 2,
        copies_b: b,
    }
}

fn r2(c: Code, a: Register, b: Register) -> Instruction {
    Instruction::with2(c, a, b).expect("instruction")
}

/// Machine-parameter benchmarks.
fn measure_machine(
    e: &mut Engine,
    progress: &mut dyn Progress,
    blockers: &[(String, usize, bool)],
) -> Result<MachineParams, MeasureError> {
    progress.message("measuring machine parameters");
    let regs = [
        Register::RAX,
        Register::RCX,
        Register::RDX,
        Register::RBX,
        Register::RSI,
        Register::RDI,
        Register::R8,
        Register::R9,
    ];
    let r14 = e.r14();
    // Pointer chains: L1 (self loop) and L2 (256 KiB — 8× L1, within the L1 DTLB reach —
    // in random line order) at r14 + 8 MiB.
    let base_off = harness::DATA_BASE + (8 << 20);
    let lines = (256 << 10) / 64;
    let mut order: Vec<usize> = (0..lines).collect();
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for i in (1..order.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        order.swap(i, (x % (i as u64 + 1)) as usize);
    }
    {
        let data = e.data_mut();
        let a0 = data.addr();
        for w in 0..order.len() {
            let from = base_off + order[w] * 64;
            let to = base_off + order[(w + 1) % order.len()] * 64;
            data.write_u64(from, a0 + to as u64);
        }
        let self_off = harness::DATA_BASE + 8192;
        data.write_u64(self_off, a0 + self_off as u64);
    }
    let chase = |start: u64| Spec::Unrolled {
        kernel: Kernel {
            body: vec![r2(Code::Mov_r64_rm64, Register::RAX, Register::RAX).with_mem()],
            gpr_init: vec![(Register::RAX, start)],
            ..Kernel::default()
        },
        copies_a: 200,
        copies_b: 400,
    };
    let mut specs = vec![
        tp_spec(
            regs.iter()
                .map(|r| r2(Code::Xor_r32_rm32, r.full_register32(), r.full_register32()))
                .collect(),
            vec![],
            vec![],
        ),
        tp_spec(
            regs.iter()
                .map(|r| r2(Code::Add_r64_rm64, *r, *r))
                .collect(),
            vec![],
            vec![],
        ),
        tp_spec(
            regs.iter()
                .map(|r| r2(Code::Imul_r64_rm64, *r, *r))
                .collect(),
            vec![],
            vec![],
        ),
        tp_spec(
            regs.iter()
                .enumerate()
                .map(|(i, r)| {
                    Instruction::with2(
                        Code::Mov_r64_rm64,
                        *r,
                        MemoryOperand::with_base_displ(Register::R14, 4096 + 8 * i as i64),
                    )
                    .expect("load")
                })
                .collect(),
            vec![],
            vec![],
        ),
        tp_spec(
            regs.iter()
                .enumerate()
                .map(|(i, r)| {
                    Instruction::with2(
                        Code::Mov_rm64_r64,
                        MemoryOperand::with_base_displ(Register::R14, 4096 + 8 * i as i64),
                        *r,
                    )
                    .expect("store")
                })
                .collect(),
            vec![],
            vec![],
        ),
        chase(r14 + 8192),
        chase(r14 - harness::DATA_BASE as u64 + (base_off + order[0] * 64) as u64),
    ];
    // Window sizes (X-Ray / Wong style): a chain of 10 dependent L2-latency loads (few
    // instructions, ~140 cycles) followed by N fillers: independent `mov r13d, 1` for the ROB,
    // chain-dependent `add r, rax` for the scheduler. While the window holds the fillers and the
    // next chain start, the time stays at the chain latency; past capacity it grows.
    let l2_start = r14 - harness::DATA_BASE as u64 + (base_off + order[0] * 64) as u64;
    let ns: Vec<u32> = (0..28).map(|i| 64 + i * 16).collect();
    for kind in 0..3 {
        for &n in &ns {
            let mut body: Vec<Instruction> = (0..10)
                .map(|_| {
                    Instruction::with2(
                        Code::Mov_r64_rm64,
                        Register::RAX,
                        MemoryOperand::with_base(Register::RAX),
                    )
                    .expect("load")
                })
                .collect();
            for i in 0..n {
                body.push(match kind {
                    0 => Instruction::with(Code::Nopd),
                    1 => {
                        Instruction::with2(Code::Mov_r32_imm32, Register::R13D, 1u32).expect("mov")
                    }
                    _ => r2(
                        Code::Add_r64_rm64,
                        regs[1 + (i as usize % 7)],
                        Register::RAX,
                    ),
                });
            }
            specs.push(Spec::Unrolled {
                kernel: Kernel {
                    body,
                    gpr_init: vec![(Register::RAX, l2_start)],
                    ..Kernel::default()
                },
                copies_a: 2,
                copies_b: 4,
            });
        }
    }
    let out = e.measure(&specs)?;
    let v = |i: usize| out[i].value();
    let mut m = MachineParams {
        cycles_per_tsc_tick: e.last_ratio,
        ..MachineParams::default()
    };
    m.tsc_mhz = tsc_mhz();
    m.core_mhz = m.tsc_mhz.zip(m.cycles_per_tsc_tick).map(|(t, r)| t * r);
    m.dispatch_width = v(0).and_then(|t| machine::rate(t / 8.0));
    m.alu_per_cycle = v(1).and_then(|t| machine::rate(t / 8.0));
    m.mul_per_cycle = v(2).and_then(|t| machine::rate(t / 8.0));
    m.loads_per_cycle = v(3).and_then(|t| machine::rate(t / 8.0));
    m.stores_per_cycle = v(4).and_then(|t| machine::rate(t / 8.0));
    m.l1_latency = v(5).map(|t| t.round() as u32);
    m.l2_latency = v(6).map(|t| t.round() as u32);
    let curve = |off: usize| -> Vec<(u32, f64)> {
        ns.iter()
            .enumerate()
            .filter_map(|(i, n)| v(off + i).map(|t| (*n, t)))
            .collect()
    };
    if std::env::var_os("SUACA_MEASURE_DEBUG").is_some() {
        progress.message(&format!("rob curve {:?}", curve(7)));
        progress.message(&format!("int PRF curve {:?}", curve(7 + ns.len())));
        progress.message(&format!("scheduler curve {:?}", curve(7 + 2 * ns.len())));
    }
    m.rob_size = machine::knee(&curve(7), 0.03);
    m.int_prf_free = machine::knee(&curve(7 + ns.len()), 0.03);
    m.scheduler_size = machine::knee(&curve(7 + 2 * ns.len()), 0.03);
    m.fp_groups = blockers
        .iter()
        .filter(|b| b.2)
        .map(|b| format!("FP{}", b.0))
        .collect();
    Ok(m)
}

trait WithMem {
    fn with_mem(self) -> Self;
}
impl WithMem for Instruction {
    /// `mov rax, rax` → `mov rax, [rax]`.
    fn with_mem(self) -> Self {
        Instruction::with2(
            Code::Mov_r64_rm64,
            self.op0_register(),
            MemoryOperand::with_base(self.op1_register()),
        )
        .expect("load")
    }
}

fn tsc_mhz() -> Option<f64> {
    let t0 = Instant::now();
    let c0 = super::jit::rdtsc();
    std::thread::sleep(Duration::from_millis(50));
    let c1 = super::jit::rdtsc();
    let dt = t0.elapsed().as_secs_f64();
    Some(((c1 - c0) as f64 / dt / 1e6 * 10.0).round() / 10.0)
}

fn setup(config: &MeasureConfig, progress: &mut dyn Progress) -> Result<Ctx, MeasureError> {
    let cpu = match config.cpu {
        Some(c) => c,
        None => *super::child::allowed_cpus().last().unwrap_or(&0),
    };
    let proto = Protocol {
        sample_ticks: config.sample_ticks,
        warmup: 3,
        reps: config.reps,
    };
    let mut engine = Engine::new(cpu, proto, config.processes)?;
    progress.message(&format!("time base: {}", engine.time_base.describe()));
    // Basic chain latencies (and the first calibration: refuses on an unstable clock).
    let bspecs: Vec<Spec> = Basics::specs().into_iter().map(|(_, s)| s).collect();
    let bout = engine.measure(&bspecs)?;
    let basics = Basics::from_values(&bout.iter().map(Outcome::value).collect::<Vec<_>>());
    progress.message(&format!(
        "calibrated: {:.4} core cycles per TSC tick; basics {:?}",
        engine.last_ratio.unwrap_or(f64::NAN),
        basics
    ));
    let blockers = plan::zen_blockers();
    let bl = engine.measure(&plan::blocker_specs(&blockers))?;
    let blocker_valid = blockers
        .iter()
        .zip(&bl)
        .map(|(b, o)| {
            let ok = o
                .value()
                .is_some_and(|t| (t - 1.0 / b.n_ports as f64).abs() <= 0.03);
            (b.ports.trim_start_matches("FP").to_string(), b.n_ports, ok)
        })
        .collect();
    // Dispatch width for the µop filler.
    let xs: Vec<Instruction> = [
        Register::EAX,
        Register::ECX,
        Register::EDX,
        Register::EBX,
        Register::ESI,
        Register::EDI,
    ]
    .iter()
    .map(|r| r2(Code::Xor_r32_rm32, *r, *r))
    .collect();
    let d = engine.measure(&[tp_spec(xs, vec![], vec![])])?;
    let dispatch = d[0].value().map(|t| (6.0 / t).round()).unwrap_or(6.0);
    Ok(Ctx {
        engine,
        basics,
        blockers,
        blocker_valid,
        dispatch,
    })
}

/// Measures a batch of variants (two phases, each one engine call).
fn measure_batch(
    ctx: &mut Ctx,
    batch: &[&Variant],
) -> Result<Vec<Result<VariantResult, String>>, MeasureError> {
    let mut specs = Vec::new();
    let mut spans = Vec::new();
    let mut plans: Vec<Result<Vec<Role>, String>> = Vec::new();
    for v in batch {
        match plan::phase1(v, &ctx.basics) {
            Ok(p) => {
                let start = specs.len();
                let roles: Vec<Role> = p.iter().map(|(_, r)| r.clone()).collect();
                specs.extend(p.into_iter().map(|(s, _)| s));
                spans.push(start..specs.len());
                plans.push(Ok(roles));
            }
            Err(e) => {
                spans.push(specs.len()..specs.len());
                plans.push(Err(e));
            }
        }
    }
    let out1 = ctx.engine.measure(&specs)?;
    let mut results: Vec<Result<VariantResult, String>> = Vec::new();
    for (i, v) in batch.iter().enumerate() {
        match &plans[i] {
            Err(e) => results.push(Err(e.clone())),
            Ok(roles) => {
                let mut r = VariantResult::default();
                infer::phase1(roles, &out1[spans[i].clone()], v.divide, &mut r);
                results.push(Ok(r));
            }
        }
    }
    // Phase 2.
    let mut specs = Vec::new();
    let mut spans2 = Vec::new();
    let mut roles2 = Vec::new();
    let mut inst = Vec::new();
    for (i, v) in batch.iter().enumerate() {
        let tp = match &results[i] {
            Ok(r) => match (r.tp_unrolled, r.tp_loop) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            Err(_) => None,
        };
        let start = specs.len();
        let mut roles = Vec::new();
        if let Some(tp) = tp {
            if let Ok(p) = plan::phase2(v, tp, &ctx.blockers) {
                for (s, r) in p {
                    specs.push(s);
                    roles.push(r);
                }
            }
        }
        spans2.push(start..specs.len());
        roles2.push(roles);
        inst.push(plan::instances_of(v));
    }
    if !specs.is_empty() {
        let out2 = ctx.engine.measure(&specs)?;
        for i in 0..batch.len() {
            if let Ok(r) = &mut results[i] {
                infer::phase2(
                    &roles2[i],
                    &out2[spans2[i].clone()],
                    inst[i],
                    ctx.dispatch,
                    &ctx.blocker_valid,
                    r,
                );
            }
        }
    }
    Ok(results)
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
        Some(f) => Some(Regex::new(f).map_err(|e| MeasureError::Config(format!("filter: {e}")))?),
        None => None,
    };
    let arch = config
        .arch
        .clone()
        .or_else(detect_arch)
        .ok_or_else(|| MeasureError::Config("unknown CPU: pass an architecture name".into()))?;
    let cpu = cpu_model();
    // Catalogue.
    let skel = match &config.skeleton {
        Some(p) => {
            progress.message(&format!("reading skeleton {}", p.display()));
            let recs = crate::uopsxml::read_file(p, &crate::uopsxml::ArchFilter::default())
                .map_err(|e| MeasureError::Skeleton(e.to_string()))?;
            Some(Skeleton::new(recs))
        }
        None => None,
    };
    let cat = catalog::build(&HostFeatures::detect(), skel.as_ref(), &config.catalog);
    let catalogue_len = cat.variants.len();
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
    // Checkpoint.
    let ck_path = config
        .checkpoint
        .clone()
        .unwrap_or_else(|| default_checkpoint(&config.out));
    let header = Header {
        arch: arch.clone(),
        cpu: cpu.clone(),
        version: env!("CARGO_PKG_VERSION").to_string(),
    };
    let mut done: HashMap<String, VariantResult> = HashMap::new();
    let mut ck = if config.resume && ck_path.exists() {
        let (h, d) = checkpoint::load::<VariantResult>(&ck_path)?;
        if let Some(h) = h {
            if h.arch != header.arch || h.cpu != header.cpu {
                return Err(MeasureError::Config(format!(
                    "checkpoint {} is for {} on {}, not {} on {}",
                    ck_path.display(),
                    h.arch,
                    h.cpu,
                    header.arch,
                    header.cpu
                )));
            }
        }
        done = d;
        Checkpoint::append_to(&ck_path)?
    } else {
        Checkpoint::create(&ck_path, &header)?
    };
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
    let mut ctx = setup(&config, progress)?;
    let machine = if config.machine_out.is_some() {
        let m = measure_machine(&mut ctx.engine, progress, &ctx.blocker_valid)?;
        Some(m)
    } else {
        None
    };
    let mut failed: BTreeMap<String, usize> = BTreeMap::new();
    let mut interrupted = false;
    let mut count = resumed as u64;
    for chunk in todo.chunks(config.batch.max(1)) {
        if progress.interrupted() {
            interrupted = true;
            break;
        }
        progress.advance(count, &chunk[0].record.string);
        let results = measure_batch(&mut ctx, chunk)?;
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
    // Output (also after an interruption: a partial but valid file).
    let measured = selected
        .iter()
        .filter(|v| {
            done.get(&v.record.string)
                .is_some_and(VariantResult::measured)
        })
        .count();
    let ratio = ctx.engine.last_ratio;
    let mut arch_attrs = BTreeMap::new();
    let date = today();
    arch_attrs.insert("cpu".to_string(), cpu.clone());
    arch_attrs.insert("date".to_string(), date.clone());
    arch_attrs.insert(
        "method".to_string(),
        format!(
            "suaca measure: {}; min of {} reps, median of {} processes, two unroll counts differenced; uops = dispatch slots inferred with a zero-idiom filler (width {}); ports inferred by interference with FP-pipe blockers",
            ctx.engine.time_base.describe(),
            config.reps,
            config.processes,
            ctx.dispatch
        ),
    );
    arch_attrs.insert(
        "suaca_version".to_string(),
        env!("CARGO_PKG_VERSION").to_string(),
    );
    arch_attrs.insert("ports_inferred".to_string(), "1".to_string());
    arch_attrs.insert("uops_inferred".to_string(), "1".to_string());
    if let Some(r) = ratio {
        arch_attrs.insert("cycles_per_tsc_tick".to_string(), format!("{r:.4}"));
    }
    let mut records: Vec<InstrRecord> = Vec::new();
    for v in &cat.variants {
        let Some(r) = done.get(&v.record.string) else {
            continue;
        };
        if !r.measured() {
            continue;
        }
        let mut rec = v.record.clone();
        rec.attrs.remove("iced_code");
        rec.archs = vec![ArchRecord {
            name: arch.clone(),
            attrs: arch_attrs.clone(),
            measurement: Some(infer::to_measurement(r, "FP")),
        }];
        records.push(rec);
    }
    let mut xml = Vec::new();
    crate::uopsxml::write_instructions(
        &mut xml,
        &records,
        &WriteOptions {
            date: Some(date.clone()),
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
    if let (Some(p), Some(m)) = (&config.machine_out, &machine) {
        let base = crate::uarch::names()
            .iter()
            .find(|n| **n == arch.as_str())
            .map(|_| arch.as_str());
        checkpoint::write_atomic(p, machine::to_toml(&arch, base, m).as_bytes())?;
    }
    Ok(MeasureSummary {
        arch,
        cpu,
        catalogue: catalogue_len,
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
