//! Interpretation: measured cycles → throughput, latencies, inferred µops, ports and
//! macro-fusion, and the uops.info `<measurement>` element. Pure (unit-tested without running
//! code).
//!
//! Split by job: this file (results, phase 1: throughput and latencies), `ports` (phase 2/3:
//! µops, port fits, fallback to the arch description, macro-fusion), `xml` (the
//! `<measurement>` element).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::catalog::DivKind;
use super::harness::Outcome;
use super::plan::{Form, LatKind, Role};
use super::timer::fancy_round;

mod ports;
mod xml;

pub use ports::{notation_for, phase2, phase3, PortFallback, Usable, VariantClass};
pub use xml::to_measurement;

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

/// Throughput and dispatch slots of a `_same_reg` or `_indexed` form.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FormResult {
    /// `TP_unrolled` of the form.
    pub tp_unrolled: Option<f64>,
    /// `TP_loop` of the form.
    pub tp_loop: Option<f64>,
    /// Inferred macro-ops of the form (measured when its throughput differs).
    pub uops: Option<u32>,
    /// Distance of the raw µop estimate from the integer.
    pub uops_residual: Option<f64>,
}

impl FormResult {
    /// The smaller of the two throughputs.
    pub fn tp(&self) -> Option<f64> {
        min_opt(self.tp_unrolled, self.tp_loop)
    }
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
    /// The raw µop estimate (for the macro-fusion comparison).
    #[serde(default)]
    pub uops_raw: Option<f64>,
    /// Inferred port usage in the arch's notation (`("FP23", 1)` → `1*FP23`), including the
    /// groups taken from the arch description ([`VariantResult::ports_default`]).
    pub ports: Vec<(String, u32)>,
    /// Largest residual of the port fit.
    pub ports_residual: Option<f64>,
    /// Groups of `ports` that come from the arch description's `default_ports` (or the ports
    /// of the role) because the fit attributed no port.
    #[serde(default)]
    pub ports_default: Vec<(String, u32)>,
    /// Divider occupancy with fast operands (cycles per back-to-back independent division).
    pub div_cycles: Option<u32>,
    /// Divider occupancy with slow operands.
    #[serde(default)]
    pub div_cycles_slow: Option<u32>,
    /// Latencies.
    pub latencies: Vec<LatResult>,
    /// Kernels that faulted, with the signal.
    pub faults: Vec<String>,
    /// Largest spread between processes among the kernels used.
    pub max_spread: f64,
    /// The `_same_reg` form, if the variant has one.
    #[serde(default)]
    pub same_reg: Option<FormResult>,
    /// The `_indexed` form, if the variant has one.
    #[serde(default)]
    pub indexed: Option<FormResult>,
    /// uops.info strings of the Jcc forms this instruction macro-fuses with.
    #[serde(default)]
    pub macro_fusible: Vec<String>,
}

impl VariantResult {
    /// Whether anything was measured.
    pub fn measured(&self) -> bool {
        self.tp_unrolled.is_some() || self.tp_loop.is_some() || !self.latencies.is_empty()
    }

    /// The smaller of the two throughputs.
    pub fn tp(&self) -> Option<f64> {
        min_opt(self.tp_unrolled, self.tp_loop)
    }

    /// The form result, if measured.
    pub fn form(&self, form: Form) -> Option<&FormResult> {
        match form {
            Form::Base => None,
            Form::SameReg => self.same_reg.as_ref(),
            Form::Indexed => self.indexed.as_ref(),
        }
    }

    fn form_mut(&mut self, form: Form) -> Option<&mut FormResult> {
        match form {
            Form::Base => None,
            Form::SameReg => Some(self.same_reg.get_or_insert_with(FormResult::default)),
            Form::Indexed => Some(self.indexed.get_or_insert_with(FormResult::default)),
        }
    }

    /// Forms whose throughput differs from the base form's (uops.info writes a suffixed group
    /// only when something differs), with their throughput.
    pub fn differing_forms(&self) -> Vec<(Form, f64)> {
        let Some(base) = self.tp() else {
            return Vec::new();
        };
        [Form::SameReg, Form::Indexed]
            .into_iter()
            .filter_map(|f| {
                let t = self.form(f)?.tp()?;
                ((t - base).abs() > (0.05 * base).max(0.02)).then_some((f, t))
            })
            .collect()
    }
}

fn min_opt(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Latency as written: whole cycles within 0.1, otherwise two decimals; below half a cycle
/// the chain does not depend on the instruction (a dependency-breaking idiom): 0.
fn round_lat(x: f64) -> f64 {
    if x < 0.5 {
        return 0.0;
    }
    let r = x.round();
    if (x - r).abs() <= 0.1 {
        r
    } else {
        (x * 100.0).round() / 100.0
    }
}

/// Per (start, target, kind): fast values, slow values, upper-bound flag.
type LatAcc = (Vec<f64>, Vec<f64>, bool);

fn min_of(v: &[f64]) -> Option<f64> {
    v.iter()
        .cloned()
        .fold(None, |a: Option<f64>, x| Some(a.map_or(x, |a| a.min(x))))
}

/// Phase-1 interpretation: throughput (per form; fast and slow divider values) and latencies.
/// `helper`: cycles per instance of helper instructions measured alone (a gather's mask
/// refill), taken off the throughput.
pub fn phase1(
    roles: &[Role],
    outcomes: &[Outcome],
    divide: Option<DivKind>,
    helper: f64,
    r: &mut VariantResult,
) {
    // (form, loop) → values; and divider values (fast, slow).
    let mut tps: BTreeMap<(u8, bool), Vec<f64>> = BTreeMap::new();
    let (mut div_fast, mut div_slow) = (Vec::new(), Vec::new());
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
                instances,
                loop_,
                slow,
                form,
            } => {
                let t = v / *instances as f64 - helper;
                if t <= 0.0 {
                    // Not a time: the longer run was not slower (seen for taken branches
                    // beyond the branch predictor's capacity). No value rather than a wrong one.
                    continue;
                }
                tps.entry((*form as u8, *loop_)).or_default().push(t);
                if !loop_ && *form == Form::Base {
                    if *slow == Some(true) {
                        div_slow.push(t)
                    } else {
                        div_fast.push(t)
                    }
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
    let tp = |form: Form, loop_: bool| {
        tps.get(&(form as u8, loop_))
            .and_then(|v| min_of(v))
            .map(fancy_round)
    };
    r.tp_unrolled = tp(Form::Base, false);
    r.tp_loop = tp(Form::Base, true);
    for form in [Form::SameReg, Form::Indexed] {
        let (u, l) = (tp(form, false), tp(form, true));
        if u.is_some() || l.is_some() {
            if let Some(f) = r.form_mut(form) {
                f.tp_unrolled = u;
                f.tp_loop = l;
            }
        }
    }
    if divide.is_some() {
        let occ = |v: &[f64]| min_of(v).map(|t| fancy_round(t).round().max(1.0) as u32);
        r.div_cycles = occ(&div_fast).or(occ(&div_slow));
        r.div_cycles_slow = occ(&div_slow);
    }
    let kinds = [
        LatKind::Reg,
        LatKind::SameReg,
        LatKind::Addr,
        LatKind::Mem,
        LatKind::AddrIndex,
    ];
    let mut out = Vec::new();
    for ((s, t, k), (fast, slow, upper)) in &lats {
        let (lo, hi) = match (min_of(fast), min_of(slow)) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uopsxml::LatValue;

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
                form: Form::Base,
            },
            Role::Tp {
                instances: 8,
                loop_: false,
                slow: None,
                form: Form::Base,
            },
            Role::Tp {
                instances: 8,
                loop_: true,
                slow: None,
                form: Form::Base,
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
        phase1(&roles, &outs, None, 0.0, &mut r);
        assert_eq!(r.tp_unrolled, Some(0.25));
        // A helper's (mask refill's) cycles per instance come off the throughput only.
        let mut h = VariantResult::default();
        phase1(&roles, &outs, None, 0.05, &mut h);
        assert_eq!(h.tp_unrolled, Some(0.2));
        assert_eq!(h.latencies, r.latencies);
        assert_eq!(r.tp_loop, None);
        assert_eq!(r.faults, vec!["SIGILL".to_string()]);
        assert_eq!(
            r.latencies.len(),
            2,
            "same-reg equal to reg is dropped: {:?}",
            r.latencies
        );
        let m = to_measurement(&r, 6.0, false);
        assert_eq!(m.base.tp_unrolled, Some(0.25));
        assert!(m.base.uops.is_none(), "unmeasured must be absent, not 0");
        assert_eq!(m.latencies[1].cycles, Some(LatValue::exact(1.0)));
    }

    #[test]
    fn a_run_that_was_not_slower_gives_no_throughput() {
        let tp = |loop_| Role::Tp {
            instances: 2,
            loop_,
            slow: None,
            form: Form::Base,
        };
        let roles = vec![tp(false), tp(false), tp(true)];
        // A taken branch beyond the predictor: the longer unrolled run was faster.
        let mut r = VariantResult::default();
        phase1(&roles, &[c(-15.0), c(0.0), c(2.4)], None, 0.0, &mut r);
        assert_eq!(r.tp_unrolled, None);
        assert_eq!(r.tp_loop, Some(1.2));
        let mut r = VariantResult::default();
        phase1(&roles, &[c(-15.0), c(2.14), c(2.4)], None, 0.0, &mut r);
        assert_eq!(r.tp_unrolled, Some(1.07));
    }

    #[test]
    fn division_ranges() {
        let roles = vec![
            Role::Tp {
                instances: 1,
                loop_: false,
                slow: Some(false),
                form: Form::Base,
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
                form: Form::Base,
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
        phase1(&roles, &outs, Some(DivKind::Int(64)), 0.0, &mut r);
        assert_eq!(r.tp_unrolled, Some(9.0));
        assert_eq!(r.div_cycles, Some(9));
        assert_eq!((r.latencies[0].min, r.latencies[0].max), (9.0, 15.0));
    }
}
