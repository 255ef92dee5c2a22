//! One batch of variants, in three engine calls: phase 1 (throughput of every form,
//! latencies), phase 2 (µop fillers, port blocking, the `JZ` fusion test; per-port counters
//! instead of blocking when the PMU has them), phase 3 (the other Jcc forms of the
//! instructions that fused).

use super::super::catalog::{DivKind, OpRef, RegClass, Slot, Variant};
use super::super::harness::Spec;
use super::super::infer::{self, VariantClass, VariantResult};
use super::super::plan::{self, Phase2Request, PlanError, Role};
use super::super::portcount;
use super::super::MeasureError;
use super::setup::Ctx;

/// What the interpretation needs to know about a variant.
pub(super) fn class_of(v: &Variant) -> VariantClass {
    // Memory accesses (a read-modify-write operand counts twice; Zen 4 splits a 64-byte
    // access into two 32-byte halves).
    let mem_accesses: u32 = v
        .slots
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match s {
            Slot::Mem { bytes, bcst } => Some((i, *bytes == 64 && !*bcst)),
            _ => None,
        })
        .map(|(i, wide)| {
            let o = v
                .operands
                .iter()
                .find(|o| o.what == OpRef::Explicit(i as u32));
            let n = match o {
                Some(o) if o.read && o.write => 2,
                _ => 1,
            };
            if wide {
                2 * n
            } else {
                n
            }
        })
        .sum();
    // The stack slot a PUSH writes or a POP reads.
    let stack_access = u32::from(crate::measure::catalog::skip::plain_push_pop(v.code));
    // Reads and writes of explicit memory operands (a read-modify-write is both).
    let mem_ops = || {
        v.operands.iter().filter(|o| match o.what {
            OpRef::Explicit(i) => matches!(v.slots.get(i as usize), Some(Slot::Mem { .. })),
            _ => false,
        })
    };
    // A gather loads, a scatter stores, each of its elements.
    let (gathered, scattered) = match (plan::vsib_elements(v), v.slots.first()) {
        (0, _) => (0, 0),
        (n, Some(Slot::Reg(_))) => (n, 0),
        (n, _) => (0, n),
    };
    VariantClass {
        mem_accesses: mem_accesses + stack_access,
        loads: mem_ops().filter(|o| o.read).count() as u32 + gathered,
        stores: mem_ops().filter(|o| o.write).count() as u32 + scattered,
        int_divide: matches!(v.divide, Some(DivKind::Int(_))),
        branch: v.slots.iter().any(|s| matches!(s, Slot::Rel(_))),
        fence: crate::measure::catalog::skip::is_fence(v.code),
        fp_divide: matches!(v.divide, Some(DivKind::FpDouble | DivKind::FpSingle)),
        vector: v.slots.iter().any(
            |s| matches!(s, Slot::Reg(c) if c.is_vec() || matches!(c, RegClass::Mm | RegClass::K)),
        ),
        wide: v.slots.iter().any(|s| {
            matches!(
                s,
                Slot::Reg(RegClass::Zmm)
                    | Slot::Mem {
                        bytes: 64,
                        bcst: false
                    }
            )
        }),
    }
}

/// Specs of all planned variants back to back, with each variant's span and roles.
struct Flat {
    specs: Vec<Spec>,
    spans: Vec<std::ops::Range<usize>>,
    roles: Vec<Vec<Role>>,
}

fn flatten(plans: Vec<Result<plan::Planned, PlanError>>) -> (Flat, Vec<Option<PlanError>>) {
    let mut f = Flat {
        specs: Vec::new(),
        spans: Vec::new(),
        roles: Vec::new(),
    };
    let mut errors = Vec::new();
    for p in plans {
        let start = f.specs.len();
        match p {
            Ok(p) => {
                f.roles.push(p.iter().map(|(_, r)| r.clone()).collect());
                f.specs.extend(p.into_iter().map(|(s, _)| s));
                errors.push(None);
            }
            Err(e) => {
                f.roles.push(Vec::new());
                errors.push(Some(e));
            }
        }
        f.spans.push(start..f.specs.len());
    }
    (f, errors)
}

/// Measures a batch of variants.
pub(super) fn measure_batch(
    ctx: &mut Ctx,
    batch: &[&Variant],
) -> Result<Vec<Result<VariantResult, PlanError>>, MeasureError> {
    // Phase 1.
    let (f1, mut errors) = flatten(batch.iter().map(|v| plan::phase1(v, &ctx.basics)).collect());
    let out1 = ctx.engine.measure(&f1.specs)?;
    let mut results: Vec<Result<VariantResult, PlanError>> = Vec::new();
    for (i, v) in batch.iter().enumerate() {
        match errors[i].take() {
            Some(e) => results.push(Err(e)),
            None => {
                let mut r = VariantResult::default();
                let helper = plan::refill_cost(v, &ctx.basics);
                infer::phase1(
                    &f1.roles[i],
                    &out1[f1.spans[i].clone()],
                    v.divide,
                    helper,
                    &mut r,
                );
                results.push(Ok(r));
            }
        }
    }
    // Phase 2.
    let usable_blockers: Vec<(plan::Blocker, bool)> = if ctx.port_events.is_some() {
        Vec::new() // Mode B: counters replace blocking by cycles
    } else {
        ctx.blockers.clone()
    };
    let plans2 = batch
        .iter()
        .zip(&results)
        .map(
            |(v, r)| match r.as_ref().ok().and_then(|r| r.tp().map(|t| (r, t))) {
                Some((r, tp)) => plan::phase2(
                    v,
                    &Phase2Request {
                        tp,
                        forms: r.differing_forms(),
                        nop_filler: ctx.nop_filler(),
                    },
                    &usable_blockers,
                ),
                None => Ok(Vec::new()),
            },
        )
        .collect();
    let (f2, _) = flatten(plans2);
    let inst: Vec<usize> = batch.iter().map(|v| plan::instances_of(v)).collect();
    if !f2.specs.is_empty() {
        let out2 = ctx.engine.measure(&f2.specs)?;
        for (i, v) in batch.iter().enumerate() {
            if let Ok(r) = &mut results[i] {
                infer::phase2(
                    &f2.roles[i],
                    &out2[f2.spans[i].clone()],
                    inst[i],
                    ctx.dispatch,
                    &ctx.usable,
                    class_of(v),
                    r,
                );
            }
        }
    }
    // Mode B: ports from per-port counters (Algorithm 1).
    if let Some(events) = ctx.port_events.clone() {
        let mut src = ctx.engine.port_counters(events);
        for (i, v) in batch.iter().enumerate() {
            if let Ok(r) = &mut results[i] {
                if let Some(tp) = r.tp() {
                    let found = portcount::port_usage(&mut src, v, tp, &ctx.counter_blockers)?;
                    if let Some((ports, uops)) = found {
                        r.ports = ports;
                        r.ports_residual = None;
                        r.uops = Some(uops);
                    }
                }
            }
        }
    }
    // Phase 3: the other Jcc forms for the instructions that fused with JZ.
    let plans3 = batch
        .iter()
        .zip(&results)
        .map(|(v, r)| match r {
            Ok(r) if !r.macro_fusible.is_empty() => plan::phase3(v, r.tp().unwrap_or(1.0)),
            _ => Ok(Vec::new()),
        })
        .collect();
    let (f3, _) = flatten(plans3);
    if !f3.specs.is_empty() {
        let out3 = ctx.engine.measure(&f3.specs)?;
        for i in 0..batch.len() {
            if let Ok(r) = &mut results[i] {
                infer::phase3(
                    &f3.roles[i],
                    &out3[f3.spans[i].clone()],
                    inst[i],
                    ctx.dispatch,
                    r,
                );
            }
        }
    }
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::catalog::{build, CatalogOptions, HostFeatures};

    #[test]
    fn variant_classes() {
        let c = build(
            &HostFeatures::from_cpuid(&|_, _| [0xFFFF_FFFF; 4]),
            None,
            &CatalogOptions {
                masked: false,
                zeroing: false,
                broadcast: true,
            },
        );
        let class = |s: &str| class_of(c.variants.iter().find(|v| v.record.string == s).unwrap());
        assert_eq!(class("ADD (R64, M64)").mem_accesses, 1);
        assert_eq!(class("ADD (M64, R64)").mem_accesses, 2);
        let z = class("VADDPD (ZMM, ZMM, M512)");
        assert!(z.wide && z.vector && z.mem_accesses == 2);
        assert_eq!(class("VADDPD (ZMM, ZMM, M64_1to8)").mem_accesses, 1);
        assert_eq!(class("PUSH_50 (R64)").mem_accesses, 1);
        assert_eq!(class("POP (M64)").mem_accesses, 2);
        assert!(class("DIV (R64)").int_divide && class("DIVSD (XMM, XMM)").fp_divide);
    }
}
