//! Run setup: the engine and its calibration, basic chain latencies, the blockers (chosen
//! among candidates by their throughput and checked against each other), the dispatch width,
//! the port fallback of the arch description, and the per-port counters when the PMU has them.

use std::collections::BTreeMap;

use iced_x86::{Code, Instruction, Register};

use super::super::counters::{self, PortEvent};
use super::super::engine::Engine;
use super::super::harness::{Outcome, Protocol, Spec};
use super::super::infer::{PortFallback, Usable};
use super::super::plan::{self, Basics, Blocker};
use super::super::portcount;
use super::super::{MeasureConfig, MeasureError, Progress};
use super::machine_bench::{r2, tp_spec};

/// Everything the batches share.
pub(super) struct Ctx {
    pub engine: Engine,
    pub basics: Basics,
    /// Chosen blocker per combination and whether it passed the checks.
    pub blockers: Vec<(Blocker, bool)>,
    /// The same, as the interpretation needs it.
    pub usable: Vec<Usable>,
    /// Macro-ops dispatched per cycle.
    pub dispatch: f64,
    /// Port groups of the arch description for variants without inferred ports.
    pub fallback: PortFallback,
    /// Per-port counter events (Mode B) when the PMU offers them.
    pub port_events: Option<Vec<PortEvent>>,
    /// Blockers found with the counters (Mode B), by port combination.
    pub counter_blockers: Vec<Blocker>,
}

impl Ctx {
    /// Slots are counted with NOPs, not zero idioms, where they are fused-domain µops
    /// (Intel, `PortFallback::fused_slots`): Redwood Cove renames six NOPs a cycle but about
    /// 5.3 zero idioms.
    pub fn nop_filler(&self) -> bool {
        self.fallback.fused_slots()
    }
}

/// Per combination, the first candidate whose throughput is 1/|ports| (±3 %).
pub(super) fn choose(candidates: &[Blocker], tps: &[Option<f64>]) -> Vec<(Blocker, bool)> {
    let mut out: Vec<(Blocker, bool)> = Vec::new();
    let mut combos: Vec<&str> = candidates.iter().map(|b| b.ports.as_str()).collect();
    combos.dedup();
    for combo in combos {
        let cands: Vec<(&Blocker, Option<f64>)> = candidates
            .iter()
            .zip(tps)
            .filter(|(b, _)| b.ports == combo)
            .map(|(b, t)| (b, *t))
            .collect();
        let good = cands
            .iter()
            .find(|(b, t)| t.is_some_and(|t| (t * b.n_ports as f64 - 1.0).abs() <= 0.03));
        match good {
            Some((b, _)) => out.push(((*b).clone(), true)),
            None => out.push((cands[0].0.clone(), false)),
        }
    }
    out
}

/// Measures `specs`, measuring again (twice at most) those whose value fails `ok`; keeps the
/// smallest value of each (noise only adds time).
fn measure_min(
    engine: &mut Engine,
    specs: &[Spec],
    ok: impl Fn(usize, f64) -> bool,
) -> Result<Vec<Option<f64>>, MeasureError> {
    let mut best: Vec<Option<f64>> = engine.measure(specs)?.iter().map(Outcome::value).collect();
    for _ in 0..2 {
        let again: Vec<usize> = (0..specs.len())
            .filter(|&i| best[i].is_none_or(|t| !ok(i, t)))
            .collect();
        if again.is_empty() {
            break;
        }
        let sub: Vec<Spec> = again.iter().map(|&i| specs[i].clone()).collect();
        for (&i, o) in again.iter().zip(engine.measure(&sub)?) {
            if let Some(t) = o.value() {
                best[i] = Some(best[i].map_or(t, |b| b.min(t)));
            }
        }
    }
    Ok(best)
}

/// Invalidates blockers whose interference with the others contradicts the combination
/// structure: per conflicting pair, the one with fewer ports (its port set is the doubtful
/// assumption). `results`: (a, b, measured µops of b on a's ports, expected).
pub(super) fn check_structure(
    chosen: &mut [(Blocker, bool)],
    results: &[(usize, usize, Option<f64>, f64)],
) -> Vec<String> {
    let mut notes = Vec::new();
    let mut bad = Vec::new();
    for (a, b, u, want) in results {
        let Some(u) = u else { continue };
        if !chosen[*a].1 || !chosen[*b].1 {
            continue; // only blockers that passed the throughput check vouch for each other
        }
        if (u - want).abs() > 0.3 {
            let (pa, pb) = (&chosen[*a].0, &chosen[*b].0);
            notes.push(format!(
                "blocker check: {} next to {} blockers puts {u:.2} µops on {} (expected {want})",
                pb.name, pa.name, pa.ports
            ));
            bad.push(if pb.n_ports <= pa.n_ports { *b } else { *a });
        }
    }
    for i in bad {
        if chosen[i].1 {
            notes.push(format!(
                "blocker for {} ({}) not used",
                chosen[i].0.ports, chosen[i].0.name
            ));
        }
        chosen[i].1 = false;
    }
    notes
}

pub(super) fn setup(
    config: &MeasureConfig,
    arch: &str,
    progress: &mut dyn Progress,
) -> Result<Ctx, MeasureError> {
    let cpu = match config.cpu {
        Some(c) => c,
        None => crate::measure::harness::default_cpu(),
    };
    let proto = Protocol {
        sample_ticks: config.sample_ticks,
        warmup: 3,
        reps: config.reps,
    };
    let mut engine = Engine::new(cpu, proto, config.processes)?;
    engine.calib_retries = config.calib_retries;
    progress.message(&format!("time base: {}", engine.time_base.describe()));
    // Basic chain latencies (and the first calibration: refuses on an unstable clock).
    let bspecs: Vec<Spec> = Basics::specs().into_iter().map(|(_, s)| s).collect();
    let bout = engine.measure(&bspecs)?;
    let basics = Basics::from_values(&bout.iter().map(Outcome::value).collect::<Vec<_>>());
    progress.message(&format!(
        "calibrated: {:.4} core cycles per clock tick; basics {:?}",
        engine.last_ratio.unwrap_or(f64::NAN),
        basics
    ));
    // Blockers: Zen's table, Golden and Redwood Cove's; other archs have none in Mode A
    // (ports then come from counters or the arch description).
    let candidates = match arch {
        a if a.starts_with("ZEN") => plan::zen_candidates(),
        "ADL-P" | "MTL-P" => plan::golden_cove_candidates(),
        _ => Vec::new(),
    };
    let (blockers, notes) = choose_blockers(&mut engine, &candidates)?;
    for n in &notes {
        progress.message(n);
    }
    let usable = blockers
        .iter()
        .map(|(b, ok)| Usable {
            combo: b.ports.clone(),
            n_ports: b.n_ports,
            domain: b.domain,
            usable: *ok,
        })
        .collect();
    let fallback = crate::uarch::load(arch)
        .map(|a| PortFallback::from_arch(&a))
        .unwrap_or_default();
    let dispatch = dispatch_width(&mut engine, fallback.fused_slots())?;
    let (port_events, counter_blockers) = port_counter_mode(&mut engine, arch, progress)?;
    Ok(Ctx {
        engine,
        basics,
        blockers,
        usable,
        dispatch,
        fallback,
        port_events,
        counter_blockers,
    })
}

/// The blocker of each port combination among `candidates` (Mode A), checked against each
/// other at full rate; with notes for the progress log.
#[allow(clippy::type_complexity)]
fn choose_blockers(
    engine: &mut Engine,
    candidates: &[Blocker],
) -> Result<(Vec<(Blocker, bool)>, Vec<String>), MeasureError> {
    let mut notes = Vec::new();
    let mut blockers = Vec::new();
    if !candidates.is_empty() {
        let specs = plan::blocker_specs(candidates);
        // Per copy: a kernel's body is one period of its blocker.
        let per_copy = |i: usize, t: f64| t / candidates[i].period() as f64;
        let tps = measure_min(engine, &specs, |i, t| {
            (per_copy(i, t) * candidates[i].n_ports as f64 - 1.0).abs() <= 0.03
        })?;
        let tps: Vec<Option<f64>> = tps
            .iter()
            .enumerate()
            .map(|(i, t)| t.map(|t| per_copy(i, t)))
            .collect();
        for (b, t) in candidates.iter().zip(&tps) {
            notes.push(format!(
                "candidate {} for {}: {}",
                b.name,
                b.ports,
                t.map_or("failed".to_string(), |t| format!("{t:.3} cycles"))
            ));
        }
        blockers = choose(candidates, &tps);
        // Structure check among the blockers at full rate (indices refer to `blockers`).
        let usable: Vec<Blocker> = blockers.iter().map(|(b, _)| b.clone()).collect();
        let inter: Vec<_> = plan::interference_specs(&usable)
            .into_iter()
            .filter(|(a, b, ..)| blockers[*a].1 && blockers[*b].1)
            .collect();
        let specs: Vec<Spec> = inter.iter().map(|x| x.2.clone()).collect();
        let u = |i: usize, t: f64| t / 4.0 * usable[inter[i].0].n_ports as f64 - inter[i].3 as f64;
        let out = measure_min(engine, &specs, |i, t| (u(i, t) - inter[i].4).abs() <= 0.3)?;
        let results: Vec<(usize, usize, Option<f64>, f64)> = inter
            .iter()
            .zip(&out)
            .enumerate()
            .map(|(i, ((a, b, _, _, want), t))| (*a, *b, t.map(|t| u(i, t)), *want))
            .collect();
        notes.extend(check_structure(&mut blockers, &results));
        for (b, ok) in &blockers {
            notes.push(format!(
                "blocker {}: {} ({})",
                b.ports,
                b.name,
                if *ok { "used" } else { "not used" }
            ));
        }
    }
    Ok((blockers, notes))
}

/// Macro-ops dispatched per cycle, from six independent zero idioms or six NOPs (the µop
/// filler's rate).
fn dispatch_width(engine: &mut Engine, nop: bool) -> Result<f64, MeasureError> {
    let xs: Vec<Instruction> = [
        Register::EAX,
        Register::ECX,
        Register::EDX,
        Register::EBX,
        Register::ESI,
        Register::EDI,
    ]
    .iter()
    .map(|r| {
        if nop {
            Instruction::with(Code::Nopd)
        } else {
            r2(Code::Xor_r32_rm32, *r, *r)
        }
    })
    .collect();
    let d = engine.measure(&[tp_spec(xs, vec![], vec![])])?;
    let dispatch = d[0].value().map(|t| (6.0 / t).round()).unwrap_or(6.0);
    Ok(dispatch)
}

/// Mode B: per-port counters (Intel), when the events are known and open here; blockers are
/// then found with them among the same candidate instructions.
fn port_counter_mode(
    engine: &mut Engine,
    arch: &str,
    progress: &mut dyn Progress,
) -> Result<(Option<Vec<PortEvent>>, Vec<Blocker>), MeasureError> {
    let port_events = match counters::port_events(arch) {
        Some(ev) => match engine.port_counters_available(&ev) {
            Ok(()) => {
                progress.message(&format!("per-port counters: {} events", ev.len()));
                Some(ev)
            }
            Err(e) => {
                progress.message(&format!(
                    "per-port counters unavailable ({e}); inferring ports"
                ));
                None
            }
        },
        None => None,
    };
    let mut counter_blockers = Vec::new();
    if let Some(ev) = &port_events {
        let cands = plan::zen_candidates();
        let out = engine.measure(&plan::blocker_specs(&cands))?;
        let tps: Vec<Option<f64>> = out.iter().map(Outcome::value).collect();
        let mut src = engine.port_counters(ev.clone());
        counter_blockers = portcount::find_blockers(&mut src, &cands, &tps)?;
        for b in &counter_blockers {
            progress.message(&format!("blocker {}: {}", b.ports, b.name));
        }
    }
    Ok((port_events, counter_blockers))
}

/// Blockers by combination, for provenance (`FP01=vmulpd; ALU1=imul r13, r14, 3`).
pub(super) fn blocker_summary(blockers: &[(Blocker, bool)]) -> String {
    let m: BTreeMap<&str, &str> = blockers
        .iter()
        .filter(|(_, ok)| *ok)
        .map(|(b, _)| (b.ports.as_str(), b.name.as_str()))
        .collect();
    m.iter()
        .map(|(p, n)| format!("{p}={n}"))
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choose_takes_the_first_candidate_at_full_rate() {
        let c = plan::zen_candidates();
        // ALU0123: movsxd slow (0.3), lea at 0.25 → lea; everything else at its nominal rate.
        let tps: Vec<Option<f64>> = c
            .iter()
            .map(|b| {
                if b.name.starts_with("movsxd") {
                    Some(0.3)
                } else {
                    Some(1.0 / b.n_ports as f64)
                }
            })
            .collect();
        let chosen = choose(&c, &tps);
        let alu = chosen.iter().find(|(b, _)| b.ports == "ALU0123").unwrap();
        assert!(alu.1 && alu.0.name.starts_with("lea"));
        // One entry per combination.
        let mut combos: Vec<&str> = chosen.iter().map(|(b, _)| b.ports.as_str()).collect();
        let n = combos.len();
        combos.dedup();
        assert_eq!(combos.len(), n);
        // A combination without a candidate at full rate is kept but unusable.
        let slow: Vec<Option<f64>> = c.iter().map(|_| Some(0.9)).collect();
        assert!(choose(&c, &slow)
            .iter()
            .filter(|(b, _)| b.n_ports > 1)
            .all(|(_, ok)| !ok));
    }

    #[test]
    fn structure_conflicts_drop_the_smaller_combination() {
        let c = plan::zen_candidates();
        let tps: Vec<Option<f64>> = c.iter().map(|b| Some(1.0 / b.n_ports as f64)).collect();
        let mut chosen = choose(&c, &tps);
        let idx = |p: &str| chosen.iter().position(|(b, _)| b.ports == p).unwrap();
        let (alu, mul, shift) = (idx("ALU0123"), idx("ALU1"), idx("ALU12"));
        // MUL inside SHIFT as expected; SHIFT blockers do not push the shift µop to ALU0123's
        // ports... a contradiction with ALU12 ⊂ ALU0123: ALU12 (fewer ports) is dropped.
        let notes = check_structure(
            &mut chosen,
            &[(shift, mul, Some(1.02), 1.0), (alu, shift, Some(0.1), 1.0)],
        );
        assert!(
            !chosen[shift].1 && chosen[alu].1 && chosen[mul].1,
            "{notes:?}"
        );
        assert_eq!(notes.len(), 2);
    }
}
