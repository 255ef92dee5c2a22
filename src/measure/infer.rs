//! Interpretation: measured cycles → throughput, latencies, inferred µops and ports, and the
//! uops.info `<measurement>` element. Pure (unit-tested without running code).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::catalog::DivKind;
use super::counters;
use super::harness::Outcome;
use super::plan::{LatKind, Role};
use super::timer::fancy_round;
use crate::uopsxml::{LatValue, Latency, MeasureValues, Measurement, PortGroup, PortUsage};

/// One latency result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LatResult {
    /// Start operand idx.
    pub start: u32,
    /// Target operand idx.
    pub target: u32,
    /// Attribute kind.
    pub kind: LatKind,
    /// Minimum over configurations (and over fast/slow division values).
    pub min: f64,
    /// Maximum over fast/slow division values (= min otherwise).
    pub max: f64,
    /// Only an upper bound.
    pub upper: bool,
}

/// Everything measured for one variant (also the checkpoint record).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct VariantResult {
    /// `TP_unrolled`.
    pub tp_unrolled: Option<f64>,
    /// `TP_loop`.
    pub tp_loop: Option<f64>,
    /// Inferred macro-ops (dispatch slots).
    pub uops: Option<u32>,
    /// Distance of the raw µop estimate from the integer.
    pub uops_residual: Option<f64>,
    /// Inferred FP-pipe usage (`("23", 1)` → `1*FP23`).
    pub ports: Vec<(String, u32)>,
    /// Largest residual of the port fit.
    pub ports_residual: Option<f64>,
    /// Divider occupancy (cycles per back-to-back independent division).
    pub div_cycles: Option<u32>,
    /// Latencies.
    pub latencies: Vec<LatResult>,
    /// Kernels that faulted, with the signal.
    pub faults: Vec<String>,
    /// Largest spread between processes among the kernels used.
    pub max_spread: f64,
}

impl VariantResult {
    /// Whether anything was measured.
    pub fn measured(&self) -> bool {
        self.tp_unrolled.is_some() || self.tp_loop.is_some() || !self.latencies.is_empty()
    }
}

fn round_lat(x: f64) -> f64 {
    let x = x.max(0.0);
    let r = x.round();
    if (x - r).abs() <= 0.1 {
        r
    } else {
        (x * 100.0).round() / 100.0
    }
}

/// Per (start, target, kind): fast values, slow values, upper-bound flag.
type LatAcc = (Vec<f64>, Vec<f64>, bool);

/// Phase-1 interpretation: throughput and latencies.
pub fn phase1(
    roles: &[Role],
    outcomes: &[Outcome],
    divide: Option<DivKind>,
    r: &mut VariantResult,
) {
    let mut tp_u: Vec<f64> = Vec::new();
    let mut tp_l: Vec<f64> = Vec::new();
    let mut lats: BTreeMap<(u32, u32, u8), LatAcc> = BTreeMap::new();
    for (role, out) in roles.iter().zip(outcomes) {
        match out {
            Outcome::Cycles { spread, .. } => r.max_spread = r.max_spread.max(*spread),
            Outcome::Fault(s) => r.faults.push(s.clone()),
            Outcome::Encode(s) => r.faults.push(format!("encode: {s}")),
        }
        let Some(v) = out.value() else { continue };
        match role {
            Role::Tp {
                instances, loop_, ..
            } => {
                let t = v / *instances as f64;
                if *loop_ {
                    tp_l.push(t)
                } else {
                    tp_u.push(t)
                }
            }
            Role::Lat {
                start,
                target,
                kind,
                subtract,
                upper,
                slow,
            } => {
                let l = v - subtract;
                let e = lats.entry((*start, *target, *kind as u8)).or_insert((
                    Vec::new(),
                    Vec::new(),
                    false,
                ));
                if *slow == Some(true) {
                    e.1.push(l)
                } else {
                    e.0.push(l)
                }
                e.2 |= *upper;
            }
            _ => {}
        }
    }
    let min = |v: &[f64]| {
        v.iter()
            .cloned()
            .fold(None, |a: Option<f64>, x| Some(a.map_or(x, |a| a.min(x))))
    };
    r.tp_unrolled = min(&tp_u).map(fancy_round);
    r.tp_loop = min(&tp_l).map(fancy_round);
    if divide.is_some() {
        r.div_cycles = r.tp_unrolled.map(|t| t.round().max(1.0) as u32);
    }
    let kinds = [LatKind::Reg, LatKind::SameReg, LatKind::Addr, LatKind::Mem];
    let mut out = Vec::new();
    for ((s, t, k), (fast, slow, upper)) in &lats {
        let (lo, hi) = match (min(fast), min(slow)) {
            (Some(a), Some(b)) => (a.min(b), a.max(b)),
            (Some(a), None) | (None, Some(a)) => (a, a),
            _ => continue,
        };
        out.push(LatResult {
            start: *s,
            target: *t,
            kind: kinds[*k as usize],
            min: round_lat(lo),
            max: round_lat(hi),
            upper: *upper,
        });
    }
    // Same-register values only when they differ from the distinct-register value.
    let snapshot = out.clone();
    out.retain(|l| {
        l.kind != LatKind::SameReg
            || !snapshot.iter().any(|o| {
                o.kind == LatKind::Reg
                    && o.start == l.start
                    && o.target == l.target
                    && (o.min - l.min).abs() < 0.1
            })
    });
    r.latencies = out;
}

/// Phase-2 interpretation: µops from the filler, ports from blocking.
///
/// `blockers[g] = (ports without prefix, n_ports, valid)`.
pub fn phase2(
    roles: &[Role],
    outcomes: &[Outcome],
    instances: usize,
    dispatch_width: f64,
    blockers: &[(String, usize, bool)],
    r: &mut VariantResult,
) {
    let mut groups = Vec::new();
    for (role, out) in roles.iter().zip(outcomes) {
        if let Outcome::Fault(s) = out {
            r.faults.push(s.clone());
        }
        let Some(v) = out.value() else { continue };
        let t = v / instances.max(1) as f64;
        match role {
            Role::Filler { k } => {
                let m = dispatch_width * t - *k as f64;
                let u = m.round().max(1.0);
                r.uops = Some(u as u32);
                r.uops_residual = Some((m - m.round()).abs());
            }
            Role::Block { group, k } => {
                if let Some((ports, n, true)) = blockers.get(*group) {
                    groups.push((ports.clone(), *n, *k as f64, t));
                }
            }
            _ => {}
        }
    }
    if !groups.is_empty() {
        let (pu, res) = counters::infer_from_interference(&groups);
        r.ports = pu;
        r.ports_residual = Some((res * 100.0).round() / 100.0);
    }
}

fn lat_value(l: &LatResult) -> LatValue {
    LatValue {
        min: l.min,
        max: l.max,
        upper_bound: l.upper,
    }
}

/// The `<measurement>` element of a result. Unmeasured values are absent, never 0.
pub fn to_measurement(r: &VariantResult, port_prefix: &str) -> Measurement {
    let two = |x: Option<f64>| x.map(|v| (v * 100.0).round() / 100.0);
    let mut base = MeasureValues {
        tp_unrolled: two(r.tp_unrolled),
        tp_loop: two(r.tp_loop),
        uops: r.uops,
        div_cycles: r.div_cycles,
        ..MeasureValues::default()
    };
    if !r.ports.is_empty() {
        let mut groups: Vec<PortGroup> = r
            .ports
            .iter()
            .map(|(p, n)| PortGroup {
                count: *n,
                prefix: port_prefix.to_string(),
                ports: p.clone(),
            })
            .collect();
        groups.sort_by(|a, b| a.ports.cmp(&b.ports));
        base.tp_ports = counters::tp_ports(&r.ports);
        base.ports = Some(PortUsage { groups });
    }
    let mut lat: BTreeMap<(u32, u32), Latency> = BTreeMap::new();
    for l in &r.latencies {
        let e = lat.entry((l.start, l.target)).or_insert_with(|| Latency {
            start_op: l.start,
            target_op: l.target,
            ..Latency::default()
        });
        let v = Some(lat_value(l));
        match l.kind {
            LatKind::Reg => e.cycles = v,
            LatKind::SameReg => e.cycles_same_reg = v,
            LatKind::Addr => e.cycles_addr = v,
            LatKind::Mem => e.cycles_mem = v,
        }
    }
    let mut extra = BTreeMap::new();
    if let Some(x) = r.uops_residual {
        extra.insert("uops_residual".to_string(), format!("{x:.2}"));
    }
    if let Some(x) = r.ports_residual {
        extra.insert("ports_residual".to_string(), format!("{x:.2}"));
    }
    Measurement {
        base,
        same_reg: None,
        indexed: None,
        latencies: lat.into_values().collect(),
        extra,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(v: f64) -> Outcome {
        Outcome::Cycles {
            value: v,
            spread: 0.001,
        }
    }

    #[test]
    fn throughput_is_min_per_instance_and_rounded() {
        let roles = vec![
            Role::Tp {
                instances: 8,
                loop_: false,
                slow: None,
            },
            Role::Tp {
                instances: 8,
                loop_: false,
                slow: None,
            },
            Role::Tp {
                instances: 8,
                loop_: true,
                slow: None,
            },
            Role::Lat {
                start: 1,
                target: 1,
                kind: LatKind::Reg,
                subtract: 0.0,
                upper: false,
                slow: None,
            },
            Role::Lat {
                start: 2,
                target: 1,
                kind: LatKind::Reg,
                subtract: 1.0,
                upper: false,
                slow: None,
            },
            Role::Lat {
                start: 2,
                target: 1,
                kind: LatKind::SameReg,
                subtract: 0.0,
                upper: false,
                slow: None,
            },
        ];
        let outs = vec![
            c(2.004),
            c(2.4),
            Outcome::Fault("SIGILL".into()),
            c(1.002),
            c(2.01),
            c(1.0),
        ];
        let mut r = VariantResult::default();
        phase1(&roles, &outs, None, &mut r);
        assert_eq!(r.tp_unrolled, Some(0.25));
        assert_eq!(r.tp_loop, None);
        assert_eq!(r.faults, vec!["SIGILL".to_string()]);
        assert_eq!(
            r.latencies.len(),
            2,
            "same-reg equal to reg is dropped: {:?}",
            r.latencies
        );
        let m = to_measurement(&r, "FP");
        assert_eq!(m.base.tp_unrolled, Some(0.25));
        assert!(m.base.uops.is_none(), "unmeasured must be absent, not 0");
        assert_eq!(m.latencies[1].cycles, Some(LatValue::exact(1.0)));
    }

    #[test]
    fn division_ranges() {
        let roles = vec![
            Role::Tp {
                instances: 1,
                loop_: false,
                slow: Some(false),
            },
            Role::Lat {
                start: 2,
                target: 2,
                kind: LatKind::Reg,
                subtract: 2.0,
                upper: false,
                slow: Some(false),
            },
            Role::Tp {
                instances: 1,
                loop_: false,
                slow: Some(true),
            },
            Role::Lat {
                start: 2,
                target: 2,
                kind: LatKind::Reg,
                subtract: 2.0,
                upper: false,
                slow: Some(true),
            },
        ];
        let outs = vec![c(9.0), c(11.0), c(14.0), c(17.0)];
        let mut r = VariantResult::default();
        phase1(&roles, &outs, Some(DivKind::Int(64)), &mut r);
        assert_eq!(r.tp_unrolled, Some(9.0));
        assert_eq!(r.div_cycles, Some(9));
        assert_eq!((r.latencies[0].min, r.latencies[0].max), (9.0, 15.0));
    }

    #[test]
    fn uops_and_ports_inference() {
        let roles = vec![
            Role::Filler { k: 11 },
            Role::Block { group: 0, k: 4 },
            Role::Block { group: 1, k: 4 },
        ];
        // 8 instances; per instance: filler (1 + 11)/6 = 2.0; FP01 not hit: 2.0; FP23 hit: 2.5.
        let outs = vec![c(16.0), c(16.0), c(20.0)];
        let blockers = vec![("01".to_string(), 2, true), ("23".to_string(), 2, true)];
        let mut r = VariantResult::default();
        phase2(&roles, &outs, 8, 6.0, &blockers, &mut r);
        assert_eq!(r.uops, Some(1));
        assert_eq!(r.ports, vec![("23".to_string(), 1)]);
        let m = to_measurement(&r, "FP");
        assert_eq!(m.base.ports.unwrap().to_string(), "1*FP23");
        assert_eq!(m.base.tp_ports, Some(0.5));
    }
}
