//! Mode B: port usage from per-port µop counters (Intel `UOPS_DISPATCHED_PORT.*`) by
//! Algorithm 1 of uops.info (uops.info §5.1.2, cpuBench), behind [`PortCounterSource`] so that a
//! source with recorded or modelled counts drives it in tests. This host has no PMU: here the
//! run never takes this path (ports are inferred from interference, `infer::ports`).

use std::collections::BTreeSet;

use super::catalog::Variant;
use super::counters::{algorithm1, port_names, uops_on, PortEvent};
use super::harness::Spec;
use super::plan::{self, Blocker};
use super::MeasureError;

/// Per-port µop counts of generated kernels.
pub trait PortCounterSource {
    /// The counters, in the order of the counts [`PortCounterSource::measure`] returns.
    fn events(&self) -> &[PortEvent];
    /// Per spec: µops per unit of work (per extra body copy, as the cycle results) on each
    /// counter, or `None` when the kernel failed.
    fn measure(&mut self, specs: &[Spec]) -> Result<Vec<Option<Vec<f64>>>, MeasureError>;
}

/// Ports (as `p` + port characters) a counter vector shows in use (> 0.1 µops).
fn used_ports(events: &[PortEvent], counts: &[f64]) -> BTreeSet<String> {
    events
        .iter()
        .zip(counts)
        .filter(|(_, c)| **c > 0.1)
        .flat_map(|(e, _)| e.ports.chars().map(|c| format!("p{c}")))
        .collect()
}

fn combo_of(ports: &BTreeSet<String>) -> String {
    let mut chars: Vec<char> = ports.iter().filter_map(|p| p.chars().nth(1)).collect();
    chars.sort_unstable();
    format!("p{}", chars.into_iter().collect::<String>())
}

/// Blocking instructions (uops.info §5.1.1): every candidate runs alone; those with one µop
/// (Σ counters in (0.79, 1.11)) are grouped by the ports they use, and each group keeps its
/// fastest candidate (`tps`: cycles per copy). The blocker's `ports` is its port combination.
pub fn find_blockers(
    src: &mut dyn PortCounterSource,
    candidates: &[Blocker],
    tps: &[Option<f64>],
) -> Result<Vec<Blocker>, MeasureError> {
    let specs = plan::blocker_specs(candidates);
    let counts = src.measure(&specs)?;
    let events = src.events().to_vec();
    let mut best: Vec<(Blocker, f64)> = Vec::new();
    for ((b, c), tp) in candidates.iter().zip(&counts).zip(tps) {
        let Some(c) = c else { continue };
        let sum: f64 = c.iter().filter(|x| **x > 0.1).sum();
        if !(0.79..1.11).contains(&sum) {
            continue;
        }
        let used = used_ports(&events, c);
        if used.is_empty() {
            continue;
        }
        let combo = combo_of(&used);
        let tp = tp.unwrap_or(f64::INFINITY);
        let mut nb = b.clone();
        nb.ports = combo.clone();
        nb.n_ports = used.len();
        match best.iter_mut().find(|(x, _)| x.ports == combo) {
            Some(slot) if tp < slot.1 => *slot = (nb, tp),
            Some(_) => {}
            None => best.push((nb, tp)),
        }
    }
    Ok(best.into_iter().map(|(b, _)| b).collect())
}

/// Port usage (`(combination, µops)` groups) and the µop count.
pub type PortUsage = (Vec<(String, u32)>, u32);

/// Port usage and µops of `v` by Algorithm 1: the unblocked run gives the ports used and the
/// µop count; every blocker whose combination meets those ports runs with blockRep copies next
/// to one instance; the counts on its ports minus blockRep, minus what subsets already hold,
/// are the µops that must use exactly that combination. `None` when the unblocked run failed.
pub fn port_usage(
    src: &mut dyn PortCounterSource,
    v: &Variant,
    tp: f64,
    blockers: &[Blocker],
) -> Result<Option<PortUsage>, MeasureError> {
    let events = src.events().to_vec();
    // Unblocked.
    let Ok((alone, n, _)) = plan::counter_kernels(v, tp, 1, &[]) else {
        return Ok(None);
    };
    let Some(Some(c)) = src.measure(&[alone])?.pop() else {
        return Ok(None);
    };
    let per: Vec<f64> = c.iter().map(|x| x / n as f64).collect();
    let total: f64 = per.iter().filter(|x| **x > 0.1).sum();
    let uops = (total + 0.2).floor() as u32;
    let used = used_ports(&events, &per);
    // Blocked runs for the combinations that meet the used ports.
    let relevant: Vec<Blocker> = blockers
        .iter()
        .filter(|b| !port_names(&b.ports).is_disjoint(&used))
        .cloned()
        .collect();
    if relevant.is_empty() || uops == 0 {
        return Ok(Some((Vec::new(), uops)));
    }
    let Ok((_, _, blocked)) = plan::counter_kernels(v, tp, uops, &relevant) else {
        return Ok(None);
    };
    let specs: Vec<Spec> = blocked.iter().map(|(_, _, s)| s.clone()).collect();
    let counts = src.measure(&specs)?;
    let mut exps = Vec::new();
    for ((g, rep, _), c) in blocked.iter().zip(counts) {
        let Some(c) = c else { continue };
        let on = uops_on(&events, &c, &relevant[*g].ports.replace('p', ""));
        // Algorithm 1 with a common blockRep of 100.
        exps.push((relevant[*g].ports.clone(), on - rep + 100.0));
    }
    Ok(Some((algorithm1(&exps, 100.0), uops)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::catalog::{build, CatalogOptions, HostFeatures};
    use crate::measure::counters::port_events;
    use iced_x86::{Code, Instruction, Mnemonic};
    use std::collections::HashMap;

    /// An ideal Skylake-like machine: each instruction's µops have port sets; blockers (every
    /// instruction of a body but the last, when the body mixes instructions) occupy their
    /// ports, and a µop of the measured instruction goes to a blocked port only when all its
    /// ports are blocked. Counts are exact, per body copy.
    struct Model {
        events: Vec<PortEvent>,
        usage: HashMap<Mnemonic, Vec<&'static str>>,
        calls: usize,
    }

    impl Model {
        fn skl() -> Self {
            let usage: HashMap<Mnemonic, Vec<&str>> = [
                (Mnemonic::Movsxd, vec!["0156"]),
                (Mnemonic::Lea, vec!["15"]),
                (Mnemonic::Imul, vec!["1"]),
                (Mnemonic::Pdep, vec!["1"]),
                (Mnemonic::Shlx, vec!["06"]),
                (Mnemonic::Rorx, vec!["06"]),
                (Mnemonic::Xor, vec![]),
                (Mnemonic::Cmove, vec!["06"]),
                (Mnemonic::Mov, vec!["23"]),
                (Mnemonic::Vmulpd, vec!["01"]),
                (Mnemonic::Vaddpd, vec!["01"]),
                (Mnemonic::Vpshufd, vec!["5"]),
                (Mnemonic::Vpshufb, vec!["5"]),
                (Mnemonic::Vpunpcklqdq, vec!["5"]),
                (Mnemonic::Vpor, vec!["015"]),
                (Mnemonic::Adc, vec!["06", "0156"]),
                (Mnemonic::Add, vec!["0156"]),
            ]
            .into_iter()
            .collect();
            Model {
                events: port_events("SKL").unwrap(),
                usage,
                calls: 0,
            }
        }

        fn count(&self, body: &[Instruction]) -> Vec<f64> {
            let mut c = vec![0.0; self.events.len()];
            let port = |ch: char| self.events.iter().position(|e| e.ports == ch.to_string());
            let mixed = body.iter().any(|i| i.mnemonic() != body[0].mnemonic());
            let (blockers, measured) = if mixed {
                (&body[..body.len() - 1], &body[body.len() - 1..])
            } else {
                (&body[..0], body)
            };
            let mut blocked = String::new();
            // µops spread evenly over the ports they may use, as averaged counters show them.
            let spread = |ports: &str, c: &mut Vec<f64>| {
                for ch in ports.chars() {
                    c[port(ch).unwrap()] += 1.0 / ports.len() as f64;
                }
            };
            for b in blockers {
                for u in &self.usage[&b.mnemonic()] {
                    spread(u, &mut c);
                    blocked.push_str(u);
                }
            }
            for i in measured {
                for u in &self.usage[&i.mnemonic()] {
                    let free: String = u.chars().filter(|ch| !blocked.contains(*ch)).collect();
                    spread(if free.is_empty() { u } else { &free }, &mut c);
                }
            }
            c
        }
    }

    impl PortCounterSource for Model {
        fn events(&self) -> &[PortEvent] {
            &self.events
        }
        fn measure(&mut self, specs: &[Spec]) -> Result<Vec<Option<Vec<f64>>>, MeasureError> {
            self.calls += 1;
            Ok(specs
                .iter()
                .map(|s| match s {
                    Spec::Unrolled { kernel, .. } | Spec::Loop { kernel, .. } => {
                        Some(self.count(&kernel.body))
                    }
                })
                .collect())
        }
    }

    fn variant(s: &str) -> Variant {
        let c = build(
            &HostFeatures::from_cpuid(&|_, _| [0xFFFF_FFFF; 4]),
            None,
            &CatalogOptions::default(),
        );
        c.variants
            .into_iter()
            .find(|v| v.record.string == s)
            .unwrap()
    }

    #[test]
    fn algorithm1_end_to_end_on_a_modelled_machine() {
        let mut m = Model::skl();
        let cands = plan::zen_candidates();
        let tps: Vec<Option<f64>> = cands.iter().map(|b| Some(1.0 / b.n_ports as f64)).collect();
        let blockers = find_blockers(&mut m, &cands, &tps).unwrap();
        let combos: BTreeSet<String> = blockers.iter().map(|b| b.ports.clone()).collect();
        for want in ["p0156", "p15", "p1", "p06", "p23", "p01", "p5", "p015"] {
            assert!(combos.contains(want), "{combos:?}");
        }
        // ADC on a Haswell/Skylake-like machine is 1*p06 + 1*p0156 (uops.info §5.1), which
        // isolated per-port averages cannot tell.
        let adc = variant("ADC_11 (R64, R64)");
        let (ports, uops) = port_usage(&mut m, &adc, 1.0, &blockers).unwrap().unwrap();
        assert_eq!(uops, 2);
        assert_eq!(
            ports,
            vec![("p06".to_string(), 1), ("p0156".to_string(), 1)]
        );
        let add = variant("ADD_01 (R64, R64)");
        let (ports, uops) = port_usage(&mut m, &add, 0.25, &blockers).unwrap().unwrap();
        assert_eq!((ports, uops), (vec![("p0156".to_string(), 1)], 1));
        let _ = Code::Add_r64_rm64;
    }

    #[test]
    fn failed_unblocked_run_gives_nothing() {
        struct Dead(Vec<PortEvent>);
        impl PortCounterSource for Dead {
            fn events(&self) -> &[PortEvent] {
                &self.0
            }
            fn measure(&mut self, specs: &[Spec]) -> Result<Vec<Option<Vec<f64>>>, MeasureError> {
                Ok(vec![None; specs.len()])
            }
        }
        let mut d = Dead(port_events("SKL").unwrap());
        let add = variant("ADD_01 (R64, R64)");
        assert_eq!(port_usage(&mut d, &add, 0.25, &[]).unwrap(), None);
    }
}
