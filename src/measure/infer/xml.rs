//! The uops.info `<measurement>` element of a result. Unmeasured values are absent, never 0.

use std::collections::BTreeMap;

use super::super::counters;
use super::super::plan::{Form, LatKind};
use super::{FormResult, LatResult, VariantResult};
use crate::uopsxml::{LatValue, Latency, MeasureValues, Measurement, PortGroup, PortUsage};

fn lat_value(l: &LatResult) -> LatValue {
    LatValue {
        min: l.min,
        max: l.max,
        upper_bound: l.upper,
    }
}

fn two(x: Option<f64>) -> Option<f64> {
    x.map(|v| (v * 100.0).round() / 100.0)
}

/// `n*combo` groups as uops.info writes them (sorted by prefix and ports).
fn usage(groups: &[(String, u32)]) -> Option<PortUsage> {
    let mut out: Vec<PortGroup> = groups
        .iter()
        .filter_map(|(c, n)| format!("{n}*{c}").parse().ok())
        .collect();
    if out.is_empty() {
        return None;
    }
    out.sort_by(|a, b| (&a.prefix, &a.ports).cmp(&(&b.prefix, &b.ports)));
    Some(PortUsage { groups: out })
}

fn group_string(groups: &[(String, u32)]) -> Option<String> {
    usage(groups).map(|u| u.to_string())
}

/// The `_same_reg`/`_indexed` group of a form whose throughput differs: its throughput and
/// µops; its ports are the base form's, or none when it runs at the dispatch limit (a zero
/// idiom or an eliminated move).
fn form_values(
    r: &VariantResult,
    f: &FormResult,
    base: &MeasureValues,
    dispatch_width: f64,
    fused_slots: bool,
) -> MeasureValues {
    let uops = f.uops.or(r.uops).unwrap_or(1).max(1) as f64;
    let no_port = f.tp().is_some_and(|t| t <= 1.15 * uops / dispatch_width);
    let slots = f.uops.or(r.uops);
    MeasureValues {
        tp_unrolled: two(f.tp_unrolled),
        tp_loop: two(f.tp_loop),
        // Intel: an indexed form may take more slots (un-lamination), not more µops.
        uops: if fused_slots { base.uops } else { slots },
        uops_retire_slots: slots.filter(|_| fused_slots).map(|u| u as i32),
        ports: if no_port { None } else { base.ports.clone() },
        tp_ports: if no_port { None } else { base.tp_ports },
        ..MeasureValues::default()
    }
}

/// The `<measurement>` element of a result (`dispatch_width`: macro-ops per cycle; with
/// `fused_slots`, Intel's convention: the slots are `uops_retire_slots` and `uops` counts the
/// port µops).
pub fn to_measurement(r: &VariantResult, dispatch_width: f64, fused_slots: bool) -> Measurement {
    let mut base = MeasureValues {
        tp_unrolled: two(r.tp_unrolled),
        tp_loop: two(r.tp_loop),
        uops: r.uops,
        div_cycles: r.div_cycles,
        ..MeasureValues::default()
    };
    if let Some(u) = usage(&r.ports) {
        base.tp_ports = counters::tp_ports(&r.ports);
        base.ports = Some(u);
    }
    if fused_slots {
        base.uops_retire_slots = r.uops.map(|u| u as i32);
        let on_ports: u32 = r.ports.iter().map(|(_, n)| *n).sum();
        base.uops = r.uops.map(|u| if on_ports > 0 { on_ports } else { u });
    }
    if !r.macro_fusible.is_empty() {
        base.macro_fusible = Some(r.macro_fusible.clone());
    }
    let differing: Vec<Form> = r.differing_forms().into_iter().map(|(f, _)| f).collect();
    let suffixed = |form: Form| {
        differing
            .contains(&form)
            .then(|| {
                r.form(form)
                    .map(|f| form_values(r, f, &base, dispatch_width, fused_slots))
            })
            .flatten()
    };
    let same_reg = suffixed(Form::SameReg);
    let indexed = suffixed(Form::Indexed);
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
            LatKind::AddrIndex => e.cycles_addr_index = v,
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
    if let Some(s) = group_string(&r.ports_default) {
        extra.insert("ports_default".to_string(), s);
    }
    if let Some(x) = r.div_cycles_slow {
        extra.insert("div_cycles_slow".to_string(), x.to_string());
    }
    Measurement {
        base,
        same_reg,
        indexed,
        latencies: lat.into_values().collect(),
        extra,
    }
}
