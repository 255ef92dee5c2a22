//! Per-port µop counters (Mode B, Intel) and the port algorithms that turn counts into port usage:
//! Algorithm 1 of uops.info (uops.info §5.1.2, cpuBench) and `TP_ports` as the subset-max form of
//! the LP (uops.info §5.3.2). Everything here except [`open_port_counters`] is pure and unit-tested
//! on recorded values; this host (no PMU) never reaches the counter path at run time.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

/// One per-port counter event (Intel `EvtSel.Umask[.CMSK]`, as cpuBench programs them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PortEvent {
    /// Port characters this counter covers (`"0"`, `"23"`, `"49"`).
    pub ports: String,
    /// Event select.
    pub event: u8,
    /// Unit mask.
    pub umask: u8,
    /// Counter mask.
    pub cmask: u8,
}

impl PortEvent {
    /// `PERF_TYPE_RAW` config value.
    pub fn raw_config(&self) -> u64 {
        self.event as u64 | (self.umask as u64) << 8 | (self.cmask as u64) << 24
    }
}

/// The `UOPS_DISPATCHED_PORT.*` events of a uops.info Intel arch name, if known.
pub fn port_events(arch: &str) -> Option<Vec<PortEvent>> {
    let e = |ports: &str, event: u8, umask: u8| PortEvent {
        ports: ports.into(),
        event,
        umask,
        cmask: 0,
    };
    Some(match arch {
        "HSW" | "BDW" | "SKL" | "SKX" | "KBL" | "CFL" | "CNL" | "CLX" => {
            (0..8).map(|p| e(&p.to_string(), 0xA1, 1u8 << p)).collect()
        }
        "SNB" | "IVB" => vec![
            e("0", 0xA1, 0x01),
            e("1", 0xA1, 0x02),
            e("2", 0xA1, 0x0C),
            e("3", 0xA1, 0x30),
            e("4", 0xA1, 0x40),
            e("5", 0xA1, 0x80),
        ],
        "ICL" | "TGL" | "RKL" => vec![
            e("0", 0xA1, 0x01),
            e("1", 0xA1, 0x02),
            e("23", 0xA1, 0x04),
            e("49", 0xA1, 0x10),
            e("5", 0xA1, 0x20),
            e("6", 0xA1, 0x40),
            e("78", 0xA1, 0x80),
        ],
        _ => return None,
    })
}

/// Per-counter µops per repetition of the measured code, from differenced counter values:
/// `(counts_long − counts_short) / reps`.
pub fn ports_from_counters(short: &[u64], long: &[u64], reps: u64) -> Vec<f64> {
    short
        .iter()
        .zip(long)
        .map(|(a, b)| (*b as f64 - *a as f64) / reps.max(1) as f64)
        .collect()
}

/// Sum of per-counter µops over the ports of `combo` (a counter counts when all its ports are
/// in the combination, e.g. `49` inside `0149`).
pub fn uops_on(events: &[PortEvent], per_counter: &[f64], combo: &str) -> f64 {
    events
        .iter()
        .zip(per_counter)
        .filter(|(e, _)| e.ports.chars().all(|c| combo.contains(c)))
        .map(|(_, v)| *v)
        .sum()
}

/// The port names a combination stands for: `p0156` → {p0, p1, p5, p6}, `FP23` → {FP2, FP3},
/// `ALU12` → {ALU1, ALU2}; a combination without letters (`0156`) names its characters.
pub fn port_names(combo: &str) -> BTreeSet<String> {
    let (prefix, chars) = if let Some(rest) = combo.strip_prefix('p') {
        ("p", rest)
    } else {
        let cut = combo
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(combo.len());
        combo.split_at(cut)
    };
    chars.chars().map(|c| format!("{prefix}{c}")).collect()
}

fn is_subset(a: &str, b: &str) -> bool {
    port_names(a).is_subset(&port_names(b))
}

/// Orders port combinations as Algorithm 1 wants them: by number of ports (subsets first),
/// then by name; duplicates removed.
pub fn sort_combos(mut combos: Vec<String>) -> Vec<String> {
    combos.sort_by(|a, b| port_names(a).len().cmp(&port_names(b).len()).then(a.cmp(b)));
    combos.dedup();
    combos
}

/// Algorithm 1 over recorded blocking experiments.
///
/// `experiments` holds, for each port combination, the µops counted on that combination's ports
/// while `block_rep` copies of its blocking instruction ran next to one instance of the
/// instruction. Returns `(combination, µops)` for every combination that must hold µops of the
/// instruction (uops.info §5.1.2 and cpuBench: subtract blockRep, then what strict subsets already
/// hold; values rounded as `int(0.2 + x)`; experiments that lost blocker µops are discarded).
pub fn algorithm1(experiments: &[(String, f64)], block_rep: f64) -> Vec<(String, u32)> {
    let order = sort_combos(experiments.iter().map(|(c, _)| c.clone()).collect());
    let mut found: Vec<(String, u32)> = Vec::new();
    for pc in order {
        let Some((_, measured)) = experiments.iter().find(|(c, _)| *c == pc) else {
            continue;
        };
        if *measured < block_rep - 0.5 {
            continue; // blockers did not all run on their ports: discard
        }
        let prev: u32 = found
            .iter()
            .filter(|(c, _)| c != &pc && is_subset(c, &pc))
            .map(|(_, n)| *n)
            .sum();
        let total = (0.2 + measured).floor() as i64 - block_rep.round() as i64;
        let mine = total - prev as i64;
        if mine > 0 {
            found.push((pc, mine as u32));
        }
    }
    found
}

/// `TP_ports`: the optimum of the port-assignment LP, computed as
/// `max over port sets Q of (µops whose combination ⊆ Q) / |Q|` (uops.info §5.3.2).
pub fn tp_ports(usage: &[(String, u32)]) -> Option<f64> {
    if usage.is_empty() {
        return None;
    }
    let sets: Vec<(BTreeSet<String>, u32)> =
        usage.iter().map(|(c, n)| (port_names(c), *n)).collect();
    let ports: Vec<&String> = sets
        .iter()
        .flat_map(|(s, _)| s.iter())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if ports.is_empty() || ports.len() > 16 {
        return None;
    }
    let mut best = 0.0f64;
    for mask in 1u32..(1 << ports.len()) {
        let q: BTreeSet<&String> = ports
            .iter()
            .enumerate()
            .filter(|(i, _)| mask >> i & 1 == 1)
            .map(|(_, p)| *p)
            .collect();
        let load: u32 = sets
            .iter()
            .filter(|(s, _)| s.iter().all(|p| q.contains(p)))
            .map(|(_, n)| *n)
            .sum();
        best = best.max(load as f64 / q.len() as f64);
    }
    Some((best * 100.0).round() / 100.0)
}

/// One Mode-A blocking experiment: the combination, its number of ports, the blockers per
/// instance of the instruction (`k`), the measured cycles per (k blockers + 1 instruction),
/// and the most µops the instruction can plausibly put on this combination (`cap`: e.g. its
/// memory accesses for the AGUs), if bounded.
#[derive(Clone, Debug, PartialEq)]
pub struct Interference {
    /// Combination in port notation (`FP23`, `ALU12`).
    pub combo: String,
    /// Ports in the combination.
    pub n_ports: usize,
    /// Blockers per instance.
    pub k: f64,
    /// Cycles per (k blockers + 1 instruction).
    pub cycles: f64,
    /// Upper bound on the µops attributed to this combination.
    pub cap: Option<u32>,
}

/// Mode A (no counters): µops of the instruction restricted to each blocked combination,
/// from cycle counts. With the combination's `n` ports saturated, `u = t·n − k`, rounded as
/// `⌊u + 0.3⌋` and capped. Returns the
/// Algorithm-1 attribution and the largest distance of a raw estimate from the value used
/// (the fit residual).
pub fn infer_from_interference(exps: &[Interference]) -> (Vec<(String, u32)>, f64) {
    let mut residual = 0.0f64;
    let mut normalised = Vec::new();
    for e in exps {
        let raw = e.cycles * e.n_ports as f64 - e.k;
        // Rounded with a bias against attribution: Zen assigns µops to scheduler queues at
        // dispatch, so an instruction that could avoid the blocked ports still lands there
        // now and then (raw estimates up to ~0.6 where the ideal model says 0).
        let mut used = (raw + 0.3).floor().max(0.0);
        if let Some(cap) = e.cap {
            used = used.min(cap as f64);
        }
        residual = residual.max((raw - used).abs());
        // Algorithm 1 with blockRep 100: counted = 100 + µops on the combination.
        normalised.push((e.combo.clone(), 100.0 + used));
    }
    (algorithm1(&normalised, 100.0), residual)
}

/// Opens the per-port counters of `arch` for the calling thread (Mode B). Fails cleanly where
/// the PMU is absent (as on this KVM host).
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
pub fn open_port_counters(arch: &str) -> Result<Vec<(PortEvent, i32)>, super::CounterError> {
    let evs = port_events(arch).ok_or_else(|| super::CounterError::NoEvents(arch.to_string()))?;
    let mut out = Vec::new();
    for e in evs {
        match super::child::perf_open(super::child::PERF_TYPE_RAW, e.raw_config()) {
            Ok(fd) => out.push((e, fd)),
            Err(source) => {
                for (_, fd) in out {
                    super::child::close(fd);
                }
                return Err(super::CounterError::Open {
                    config: e.raw_config(),
                    source,
                });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skl_events() {
        let e = port_events("SKL").unwrap();
        assert_eq!(e.len(), 8);
        assert_eq!(e[5].raw_config(), 0x20A1);
        assert_eq!(port_events("ICL").unwrap()[3].ports, "49");
        assert!(port_events("ZEN4").is_none());
    }

    #[test]
    fn counters_to_ports() {
        // Recorded: 1000 reps of `ADD_01 (R64, R64)` on SKL spread over p0156.
        let short = [10, 12, 0, 0, 3, 9, 11, 0];
        let long = [260, 262, 0, 0, 3, 259, 261, 0];
        let p = ports_from_counters(&short, &long, 1000);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        let ev = port_events("SKL").unwrap();
        assert!((uops_on(&ev, &p, "0156") - 1.0).abs() < 1e-9);
        assert!((uops_on(&ev, &p, "06") - 0.5).abs() < 1e-9);
    }

    #[test]
    fn algorithm1_adc_haswell() {
        // ADC on HSW is 1*p06 + 1*p0156 (uops.info §5.1). Recorded blocking experiments with
        // blockRep = 8: blocking p06 leaves 1 µop there (9 counted), blocking p0156 sees both
        // µops (10 counted); p0 or p6 alone see nothing beyond the blockers.
        let exps = vec![
            ("0".to_string(), 8.1),
            ("6".to_string(), 8.05),
            ("06".to_string(), 9.02),
            ("0156".to_string(), 9.95),
        ];
        let pu = algorithm1(&exps, 8.0);
        assert_eq!(pu, vec![("06".to_string(), 1), ("0156".to_string(), 1)]);
        assert_eq!(tp_ports(&pu), Some(0.5));
    }

    #[test]
    fn algorithm1_discards_lost_blockers() {
        let pu = algorithm1(&[("5".to_string(), 6.0), ("015".to_string(), 11.0)], 8.0);
        assert_eq!(pu, vec![("015".to_string(), 3)]);
    }

    #[test]
    fn subset_max_lp() {
        // 3*p015 + 1*p23 → max(3/3, 1/2) = 1.0; 1*p0 + 1*p01 → 2/2 = 1.0; 1*p0156 → 0.25.
        assert_eq!(tp_ports(&[("015".into(), 3), ("23".into(), 1)]), Some(1.0));
        assert_eq!(tp_ports(&[("0".into(), 1), ("01".into(), 1)]), Some(1.0));
        assert_eq!(tp_ports(&[("0156".into(), 1)]), Some(0.25));
        assert_eq!(
            tp_ports(&[("0".into(), 2), ("5".into(), 1), ("015".into(), 3)]),
            Some(2.0)
        );
        assert_eq!(tp_ports(&[]), None);
    }

    #[test]
    fn interference_inference() {
        // vaddpd ymm on Zen 4 (FP23): blocked with 6 vaddpd-type blockers on FP23 → 3.5
        // cycles; blocked on FP01 (6 vmulpd) → 3.0; on FP0123 (12 vpor) → 3.25.
        let e = |combo: &str, n: usize, k: f64, cycles: f64| Interference {
            combo: combo.into(),
            n_ports: n,
            k,
            cycles,
            cap: None,
        };
        let (pu, res) = infer_from_interference(&[
            e("FP01", 2, 6.0, 3.02),
            e("FP23", 2, 6.0, 3.5),
            e("FP0123", 4, 12.0, 3.26),
        ]);
        assert_eq!(pu, vec![("FP23".to_string(), 1)]);
        assert!(res < 0.1);
        // Integer: imul r64 next to ALU1 (mul), ALU12 (shift) and ALU0123 blockers; an AGU
        // estimate beyond the instruction's memory accesses is capped (and shows in the
        // residual).
        let (pu, res) = infer_from_interference(&[
            e("ALU1", 1, 2.0, 3.0),
            e("ALU12", 2, 4.0, 2.53),
            e("ALU0123", 4, 8.0, 2.25),
            Interference {
                cap: Some(0),
                ..e("AGU012", 3, 6.0, 2.2)
            },
        ]);
        assert_eq!(pu, vec![("ALU1".to_string(), 1)]);
        assert!((res - 0.6).abs() < 0.01, "{res}");
        // CMP next to shift blockers: it may use the other two ALUs, but some copies land on
        // the blocked ones (u ≈ 0.64): not attributed.
        let (pu, res) =
            infer_from_interference(&[e("ALU12", 2, 4.0, 2.32), e("ALU0123", 4, 8.0, 2.25)]);
        assert_eq!(pu, vec![("ALU0123".to_string(), 1)]);
        assert!((res - 0.64).abs() < 0.01, "{res}");
    }

    #[test]
    fn port_name_sets() {
        let n = |s: &str| port_names(s).into_iter().collect::<Vec<_>>();
        assert_eq!(n("p0156"), ["p0", "p1", "p5", "p6"]);
        assert_eq!(n("p23A"), ["p2", "p3", "pA"]);
        assert_eq!(n("FP23"), ["FP2", "FP3"]);
        assert_eq!(n("ALU12"), ["ALU1", "ALU2"]);
        assert_eq!(n("0156"), ["0", "1", "5", "6"]);
        assert!(is_subset("ALU1", "ALU12") && !is_subset("AGU0", "ALU0123"));
        assert_eq!(
            sort_combos(vec![
                "ALU0123".into(),
                "ALU1".into(),
                "FP23".into(),
                "AGU012".into()
            ]),
            ["ALU1", "FP23", "AGU012", "ALU0123"]
        );
        assert_eq!(
            tp_ports(&[("ALU1".into(), 1), ("AGU012".into(), 1)]),
            Some(1.0)
        );
        assert_eq!(
            tp_ports(&[("ALU0123".into(), 1), ("AGU012".into(), 1)]),
            Some(0.33)
        );
    }
}
