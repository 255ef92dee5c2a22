//! Planning: the microbenchmarks of one variant (throughput, latency chains, µop filler, port
//! blocking), each tagged with a [`Role`] saying how its result is interpreted.
//!
//! Register discipline: r14 = data base, r15 = loop counter, rsp untouched; r13 is reserved for
//! address chains; vector registers 14/15 (30/31 for EVEX) and k1 are reserved for blockers,
//! chain temporaries and the opmask. Written operands get distinct registers per independent
//! instance; read-only operands share registers taken from the end of the pool.//!
//! Split by job: [`basics`] (chain latencies measured once), [`regs`] (register pools and
//! operand assignment), [`latency`] (chains per operand pair), [`division`] (operand-value
//! dependent dividers), [`blocking`] (µop filler and port-blocking kernels).

use iced_x86::{Code, Instruction, Register};
use serde::{Deserialize, Serialize};

use super::catalog::{DivKind, OpRef, RegClass, Slot, Variant};
use super::harness::{Kernel, Spec};

mod basics;
mod blocking;
mod division;
mod latency;
mod regs;

pub use basics::Basics;
pub use blocking::{blocker_specs, phase2, zen_blockers, Blocker};
pub use division::div_values;
pub use regs::MAX_INSTANCES;

use regs::{assign, build, max_instances, pools, zero_idiom};

/// Which latency attribute a chain measures.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LatKind {
    /// `cycles`.
    Reg,
    /// `cycles_same_reg`.
    SameReg,
    /// `cycles_addr`.
    Addr,
    /// `cycles_mem`.
    Mem,
}

/// How a measured value is used.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Role {
    /// Throughput over `instances` independent instances (`loop_`: TP_loop).
    Tp {
        /// Instances per body copy.
        instances: usize,
        /// Loop (TP_loop) rather than unrolled.
        loop_: bool,
        /// Division operand values: Some(true) = slow, Some(false) = fast.
        slow: Option<bool>,
    },
    /// A latency chain: lat = value − `subtract`.
    Lat {
        /// XML idx of the start operand.
        start: u32,
        /// XML idx of the target operand.
        target: u32,
        /// Attribute kind.
        kind: LatKind,
        /// Known chain latency to subtract.
        subtract: f64,
        /// Result is only an upper bound.
        upper: bool,
        /// Division operand values (slow) if relevant.
        slow: Option<bool>,
    },
    /// Dispatch filler: body = instances × (I + k zero idioms).
    Filler {
        /// Zero idioms per instance.
        k: usize,
    },
    /// Port blocking: body = instances × (k blockers + I); `group` indexes the blocker table.
    Block {
        /// Blocker group index.
        group: usize,
        /// Blockers per instance of I.
        k: usize,
    },
}

/// Output of planning: specs and their roles, in the same order.
pub type Planned = Vec<(Spec, Role)>;

fn kernel(v: &Variant, body: Vec<Instruction>) -> Kernel {
    Kernel {
        body,
        uses_mmx: v.slots.iter().any(|s| matches!(s, Slot::Reg(RegClass::Mm))),
        ..Kernel::default()
    }
}

/// Copies so that the longer unrolled body holds about `target` instructions.
fn copies_for(body_len: usize, target: usize) -> (usize, usize) {
    let b = (target / body_len.max(1)).max(2);
    (b / 2, b)
}

/// Phase 1: throughput and latencies.
pub fn phase1(v: &Variant, b: &Basics) -> Result<Planned, String> {
    if let Some(DivKind::Int(w)) = v.divide {
        return division::int_div_plan(v, w, b);
    }
    let p = pools(v);
    let n = max_instances(v, &p);
    if n == 0 {
        return Err("not enough registers for one instance".into());
    }
    let mut out = Vec::new();
    let insts: Vec<Instruction> = (0..n)
        .map(|j| build(v, &assign(v, &p, j), Register::R14))
        .collect::<Result<_, _>>()?;
    // Throughput, plain.
    let (ca, cb) = copies_for(insts.len(), 1200);
    out.push((
        Spec::Unrolled {
            kernel: kernel(v, insts.clone()),
            copies_a: ca,
            copies_b: cb,
        },
        Role::Tp {
            instances: n,
            loop_: false,
            slow: None,
        },
    ));
    // Throughput with dependency breakers for implicit/fixed read-write registers and flags.
    let mut breakers = Vec::new();
    for o in &v.operands {
        if !(o.read && o.write) {
            continue;
        }
        match &o.what {
            OpRef::Implicit(r) if r.is_gpr() => breakers.push(zero_idiom(*r)),
            OpRef::Explicit(i) => {
                if let Slot::Fixed(r) = &v.slots[*i as usize] {
                    if r.is_gpr() {
                        breakers.push(zero_idiom(*r));
                    }
                }
            }
            OpRef::Flags => breakers.push(
                Instruction::with2(Code::Test_rm64_r64, Register::R15, Register::R15)
                    .expect("test"),
            ),
            _ => {}
        }
    }
    if !breakers.is_empty() {
        let mut body = Vec::new();
        for ins in &insts {
            body.extend(breakers.iter().copied());
            body.push(*ins);
        }
        let (ca, cb) = copies_for(body.len(), 1200);
        out.push((
            Spec::Unrolled {
                kernel: kernel(v, body),
                copies_a: ca,
                copies_b: cb,
            },
            Role::Tp {
                instances: n,
                loop_: false,
                slow: None,
            },
        ));
    }
    // TP_loop: a small loop body (LSD/op-cache friendly), loop overhead included.
    let small = ((10 + n / 2) / n).max(1);
    let mut body = Vec::new();
    for _ in 0..small {
        body.extend(insts.iter().copied());
    }
    out.push((
        Spec::Loop {
            kernel: kernel(v, body),
            copies: small,
        },
        Role::Tp {
            instances: n,
            loop_: true,
            slow: None,
        },
    ));
    // Latencies.
    out.extend(latency::latency_plan(v, b, &p)?);
    Ok(out)
}

/// Independent instances the throughput kernels of `v` use (1 when none fit).
pub fn instances_of(v: &Variant) -> usize {
    max_instances(v, &pools(v)).clamp(1, MAX_INSTANCES)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::catalog::{build as build_catalog, CatalogOptions, HostFeatures};

    fn catalog() -> crate::measure::catalog::Catalog {
        build_catalog(
            &HostFeatures::from_cpuid(&|_, _| [0xFFFF_FFFF; 4]),
            None,
            &CatalogOptions::default(),
        )
    }

    fn find<'a>(c: &'a crate::measure::catalog::Catalog, s: &str) -> &'a Variant {
        c.variants.iter().find(|v| v.record.string == s).unwrap()
    }

    #[test]
    fn add_plan_has_independent_instances_and_chains() {
        let c = catalog();
        let v = find(&c, "ADD_01 (R64, R64)");
        let plan = phase1(v, &Basics::from_values(&[])).unwrap();
        let tp = plan
            .iter()
            .find(|(_, r)| matches!(r, Role::Tp { loop_: false, .. }))
            .unwrap();
        let Role::Tp { instances, .. } = tp.1 else {
            unreachable!()
        };
        assert_eq!(instances, 11);
        if let Spec::Unrolled { kernel, .. } = &tp.0 {
            // Written registers are distinct across instances.
            let dests: std::collections::HashSet<_> =
                kernel.body.iter().map(|i| i.op0_register()).collect();
            assert_eq!(dests.len(), 11);
            assert!(
                !dests.contains(&Register::R13)
                    && !dests.contains(&Register::R14)
                    && !dests.contains(&Register::R15)
            );
        }
        // Latencies: 1→1 (same operand), 2→1 (MOVSX chain), 2→1 same reg, flags.
        let lats: Vec<_> = plan
            .iter()
            .filter_map(|(_, r)| match r {
                Role::Lat {
                    start,
                    target,
                    kind,
                    ..
                } => Some((*start, *target, *kind)),
                _ => None,
            })
            .collect();
        assert!(lats.contains(&(1, 1, LatKind::Reg)));
        assert!(lats.contains(&(2, 1, LatKind::Reg)));
        assert!(lats.contains(&(2, 1, LatKind::SameReg)));
        assert!(lats.contains(&(1, 3, LatKind::Reg)));
    }

    #[test]
    fn load_has_address_latency() {
        let c = catalog();
        let v = find(&c, "MOV (R64, M64)");
        let plan = phase1(v, &Basics::from_values(&[])).unwrap();
        assert!(plan.iter().any(|(_, r)| matches!(
            r,
            Role::Lat {
                kind: LatKind::Addr,
                start: 2,
                target: 1,
                ..
            }
        )));
    }

    #[test]
    fn division_values() {
        assert_eq!(div_values(64, false), (0, 0, 1));
        let (a, d, q) = div_values(64, true);
        assert!(d < q && a == 133);
        let c = catalog();
        let v = find(&c, "DIV (R64)");
        let plan = phase1(v, &Basics::from_values(&[])).unwrap();
        assert_eq!(
            plan.iter()
                .filter(|(_, r)| matches!(r, Role::Tp { .. }))
                .count(),
            2
        );
    }

    #[test]
    fn phase2_blocks_vector_instructions() {
        let c = catalog();
        let v = find(&c, "VADDPD (YMM, YMM, YMM)");
        let plan = phase2(v, 0.5, &zen_blockers()).unwrap();
        assert_eq!(
            plan.iter()
                .filter(|(_, r)| matches!(r, Role::Block { .. }))
                .count(),
            4
        );
        assert!(plan.iter().any(|(_, r)| matches!(r, Role::Filler { .. })));
        // The instance registers never collide with the blockers' 14/15.
        for (s, _) in &plan {
            if let Spec::Unrolled { kernel, .. } = s {
                for i in &kernel.body {
                    if i.code() == Code::VEX_Vaddpd_ymm_ymm_ymmm256
                        && i.op0_register() != Register::YMM15
                    {
                        assert!(i.op0_register().number() < 14);
                    }
                }
            }
        }
    }
}
