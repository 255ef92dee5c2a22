//! Planning: the microbenchmarks of one variant (throughput, latency chains, µop filler, port
//! blocking, macro-fusion pairs), each tagged with a [`Role`] saying how its result is
//! interpreted.
//!
//! Register discipline: r14 = data base, r15 = loop counter, rsp untouched; r13 is reserved for
//! address chains, the index of `_indexed` forms, fillers and integer blockers; vector
//! registers 14/15 (30/31 for EVEX) and k1 are reserved for blockers, chain temporaries and the
//! opmask. Written operands get distinct registers per independent instance; read-only operands
//! share registers taken from the end of the pool.
//!
//! Split by job: `basics` (chain latencies measured once), `regs` (register pools and
//! operand assignment), `latency` (chains per operand pair), `division` (operand-value
//! dependent dividers), `blocking` (µop filler, port-blocking and macro-fusion kernels),
//! `vsib` (gathers' and scatters' mask refill, index offsets and latency chains).

use iced_x86::{Code, Instruction, Register};
use serde::{Deserialize, Serialize};

use super::catalog::{DivKind, OpRef, RegClass, Slot, Variant};
use super::harness::{Kernel, Spec};

mod basics;
mod blocking;
mod division;
mod golden_cove;
mod latency;
mod regs;
mod vsib;

pub use basics::Basics;
pub use blocking::{
    blocker_specs, counter_kernels, domains_of, fusion_candidate, interference_specs, jcc_family,
    jcc_table, phase2, phase3, zen_candidates, Blocker, Domain, Phase2Request, JZ_REL8,
};
pub use division::div_values;
pub use golden_cove::golden_cove_candidates;
pub use regs::MAX_INSTANCES;
pub use vsib::{is_vsib, refill_cost, vsib_elements};

use regs::{assign, build, max_instances, pools, zero_idiom, Pools};

/// Which latency attribute a chain measures.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LatKind {
    /// `cycles`.
    Reg,
    /// `cycles_same_reg`.
    SameReg,
    /// `cycles_addr` (from the base register of a memory operand).
    Addr,
    /// `cycles_mem` (from the memory value, through a store and a load back).
    Mem,
    /// `cycles_addr_index` (from the index register of a memory operand).
    AddrIndex,
}

/// Which form of the variant a throughput/µop/port kernel measures (uops.info's attribute
/// suffixes: none, `_same_reg`, `_indexed`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Form {
    /// The variant as catalogued (distinct registers, `[base + disp]`).
    #[default]
    Base,
    /// The same register for the explicit register operands of one class.
    SameReg,
    /// The memory operand addressed as `[base + index + disp]`.
    Indexed,
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
        /// Which form.
        form: Form,
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
        /// Which form.
        form: Form,
    },
    /// Port blocking: body = instances × (k blockers + I); `group` indexes the blocker table.
    Block {
        /// Blocker group index.
        group: usize,
        /// Blockers per instance of I.
        k: usize,
    },
    /// Macro-fusion: body = instances × (I + Jcc + k zero idioms); `jcc` indexes
    /// [`jcc_table`].
    Fuse {
        /// Jcc index.
        jcc: usize,
        /// Zero idioms per pair.
        k: usize,
    },
}

/// Number of ports a combination names (`ALU12` → 2).
fn counters_names(combo: &str) -> usize {
    super::counters::port_names(combo).len()
}

/// Output of planning: specs and their roles, in the same order.
pub type Planned = Vec<(Spec, Role)>;

/// Why a variant has no benchmark plan (reported per variant, the run goes on).
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// An instance of the variant could not be built.
    #[error(transparent)]
    Build(#[from] super::catalog::BuildError),
    /// iced-x86 refused a chain or filler instruction.
    #[error(transparent)]
    Iced(#[from] iced_x86::IcedError),
    /// The register pools cannot hold one instance.
    #[error("not enough registers for one instance")]
    NotEnoughRegisters,
    /// No instance of the variant's base form.
    #[error("no instance")]
    NoInstance,
}

fn kernel(v: &Variant, body: Vec<Instruction>) -> Kernel {
    let mut k = Kernel {
        body,
        flags: not_taken_flags(v),
        uses_mmx: v.slots.iter().any(|s| matches!(s, Slot::Reg(RegClass::Mm))),
        ..Kernel::default()
    };
    vsib::prepare(v, &mut k);
    k
}

/// RFLAGS values a conditional branch is measured with: all six status flags clear, all set,
/// and SF ≠ OF (uops.info's configurations, from cpuBench); bit 1 is always set.
pub const BRANCH_FLAGS: [u32; 3] = [0x002, 0x8D7, 0x082];

/// The first of [`BRANCH_FLAGS`] under which `v`, a conditional branch that uses no
/// register (Jcc), falls through: every kernel of it runs there, so `TP_*`, `uops` and
/// `ports` describe the not-taken branch, the fastest configuration, as uops.info's minimum
/// over configurations does. `None` for everything else (JMP is always taken; LOOP and JRCXZ
/// use rcx, which the flag-keeping loop counts in).
pub fn not_taken_flags(v: &Variant) -> Option<u32> {
    use iced_x86::ConditionCode as C;
    if !v.slots.iter().any(|s| matches!(s, Slot::Rel(_))) || !v.implicit_regs.is_empty() {
        return None;
    }
    let cc = v.code.condition_code();
    let taken = |f: u32| {
        let (cf, pf, zf, sf, of) = (
            f & 0x1 != 0,
            f & 0x4 != 0,
            f & 0x40 != 0,
            f & 0x80 != 0,
            f & 0x800 != 0,
        );
        match cc {
            C::o => Some(of),
            C::no => Some(!of),
            C::b => Some(cf),
            C::ae => Some(!cf),
            C::e => Some(zf),
            C::ne => Some(!zf),
            C::be => Some(cf || zf),
            C::a => Some(!cf && !zf),
            C::s => Some(sf),
            C::ns => Some(!sf),
            C::p => Some(pf),
            C::np => Some(!pf),
            C::l => Some(sf != of),
            C::ge => Some(sf == of),
            C::le => Some(zf || sf != of),
            C::g => Some(!zf && sf == of),
            _ => None,
        }
    };
    BRANCH_FLAGS.into_iter().find(|&f| taken(f) == Some(false))
}

/// A kernel of `form`: the indexed form needs its index register (r13) at 0.
fn form_kernel(v: &Variant, body: Vec<Instruction>, form: Form) -> Kernel {
    let mut k = kernel(v, body);
    if form == Form::Indexed {
        k.gpr_init.push((Register::R13, 0));
    }
    k
}

/// Copies so that the longer unrolled body holds about `target` instructions.
fn copies_for(body_len: usize, target: usize) -> (usize, usize) {
    let b = (target / body_len.max(1)).max(2);
    (b / 2, b)
}

/// Whether `v` has a `_same_reg` form (uops.info: two explicit register operands of one
/// class that can share a register; no memory operand, no implicit register, no divider).
pub fn has_same_reg_form(v: &Variant) -> bool {
    same_reg_family(v).is_some()
        && v.implicit_regs.is_empty()
        && v.divide.is_none()
        && !v
            .slots
            .iter()
            .any(|s| matches!(s, Slot::Mem { .. } | Slot::Fixed(_) | Slot::Vsib(_)))
}

/// The register class (as its first slot index) whose explicit operands share a register in
/// the same-register form: the first class with two register slots.
fn same_reg_family(v: &Variant) -> Option<Vec<usize>> {
    let regs: Vec<(usize, RegClass)> = v
        .slots
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match s {
            Slot::Reg(c) => Some((i, *c)),
            _ => None,
        })
        .collect();
    for (i, c) in &regs {
        let fam = regs::family(*c);
        let same: Vec<usize> = regs
            .iter()
            .filter(|(_, d)| regs::family(*d) == fam)
            .map(|(j, _)| *j)
            .collect();
        if same.len() >= 2 && same[0] == *i {
            return Some(same);
        }
    }
    None
}

/// Whether `v` has an `_indexed` form (an explicit, non-broadcast memory operand).
pub fn has_indexed_form(v: &Variant) -> bool {
    v.slots.iter().any(|s| matches!(s, Slot::Mem { .. }))
}

/// The `n` independent instances of `form` (None when the variant has no such form).
fn form_instances(
    v: &Variant,
    p: &Pools,
    n: usize,
    form: Form,
) -> Result<Option<Vec<Instruction>>, PlanError> {
    let mut out = Vec::with_capacity(n);
    match form {
        Form::Base => {
            for j in 0..n {
                out.push(build(v, &assign(v, p, j), Register::R14)?);
            }
        }
        Form::SameReg => {
            if !has_same_reg_form(v) {
                return Ok(None);
            }
            let slots = same_reg_family(v).unwrap_or_default();
            let reg_pos = |slot: usize| {
                v.slots[..slot]
                    .iter()
                    .filter(|s| matches!(s, Slot::Reg(_)))
                    .count()
            };
            // The register of the first written slot of the class (else the first slot).
            let lead = slots
                .iter()
                .copied()
                .find(|&i| regs::slot_written(v, i))
                .unwrap_or(slots[0]);
            for j in 0..n {
                let mut a = assign(v, p, j);
                let num = regs::reg_num(a.regs[reg_pos(lead)]);
                for &i in &slots {
                    if let Slot::Reg(c) = v.slots[i] {
                        a.regs[reg_pos(i)] = c.reg(num);
                    }
                }
                out.push(build(v, &a, Register::R14)?);
            }
        }
        Form::Indexed => {
            if !has_indexed_form(v) {
                return Ok(None);
            }
            for j in 0..n {
                let mut ins = build(v, &assign(v, p, j), Register::R14)?;
                ins.set_memory_index(Register::R13);
                ins.set_memory_index_scale(1);
                out.push(ins);
            }
        }
    }
    Ok(Some(out))
}

/// Dependency breakers for implicit/fixed read-write registers and flags.
fn breakers_of(v: &Variant) -> Vec<Instruction> {
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
    breakers
}

/// `TP_unrolled` (plain and with breakers) and `TP_loop` kernels over `insts` (the suffixed
/// forms: plain `TP_unrolled` only).
fn tp_kernels(v: &Variant, insts: &[Instruction], form: Form) -> Planned {
    let n = insts.len();
    let tp = |loop_| Role::Tp {
        instances: n,
        loop_,
        slow: None,
        form,
    };
    let mut out = Vec::new();
    let (ca, cb) = copies_for(n, 1200);
    out.push((
        Spec::Unrolled {
            kernel: form_kernel(v, insts.to_vec(), form),
            copies_a: ca,
            copies_b: cb,
        },
        tp(false),
    ));
    if form != Form::Base {
        // Suffixed forms: TP_unrolled only (they are written when they differ).
        return out;
    }
    let breakers = breakers_of(v);
    // With dependency breakers between the instances (a gather's own kind, else the form's).
    let broken = vsib::breaker_body(v, insts).or_else(|| {
        (!breakers.is_empty()).then(|| {
            let mut body = Vec::new();
            for ins in insts {
                body.extend(breakers.iter().copied());
                body.push(*ins);
            }
            body
        })
    });
    if let Some(body) = broken {
        let (ca, cb) = copies_for(body.len(), 1200);
        out.push((
            Spec::Unrolled {
                kernel: form_kernel(v, body, form),
                copies_a: ca,
                copies_b: cb,
            },
            tp(false),
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
            kernel: form_kernel(v, body, form),
            copies: small,
        },
        tp(true),
    ));
    out
}

/// Phase 1: throughput (plain, `_same_reg` and `_indexed` forms; fast and slow values for
/// FP dividers) and latencies.
pub fn phase1(v: &Variant, b: &Basics) -> Result<Planned, PlanError> {
    if let Some(DivKind::Int(w)) = v.divide {
        return division::int_div_plan(v, w, b);
    }
    let p = pools(v);
    let n = max_instances(v, &p);
    if n == 0 {
        return Err(PlanError::NotEnoughRegisters);
    }
    let mut out = Vec::new();
    for form in [Form::Base, Form::SameReg, Form::Indexed] {
        if let Some(insts) = form_instances(v, &p, n, form)? {
            out.extend(tp_kernels(v, &insts, form));
        }
    }
    if matches!(v.divide, Some(DivKind::FpDouble | DivKind::FpSingle)) {
        out.extend(division::fp_div_plan(v, b, &p, n)?);
    }
    if vsib::is_vsib(v) {
        out.extend(vsib::latency_plan(v, b, &p)?);
    } else {
        out.extend(latency::latency_plan(v, b, &p)?);
    }
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
    fn a_jcc_runs_not_taken_under_set_flags() {
        let c = catalog();
        let f = |s: &str| not_taken_flags(find(&c, s));
        assert_eq!(f("JZ (Rel8)"), Some(0x002));
        assert_eq!(f("JNZ (Rel32)"), Some(0x8D7));
        assert_eq!(f("JL (Rel8)"), Some(0x002));
        assert_eq!(f("JNL (Rel8)"), Some(0x082));
        assert_eq!(f("JNP (Rel8)"), Some(0x8D7));
        // Always taken, or counting in rcx: no flags.
        assert_eq!(f("JMP (Rel8)"), None);
        let looped = c.variants.iter().find(|v| v.code == Code::Loop_rel8_64_RCX);
        assert!(looped.is_some());
        assert_eq!(looped.and_then(not_taken_flags), None);
        assert_eq!(f("ADD_01 (R64, R64)"), None);
        // Every kernel of a Jcc carries the flags; its filler writes none.
        let v = find(&c, "JNZ (Rel8)");
        let req = Phase2Request {
            tp: 0.5,
            ..Phase2Request::default()
        };
        let plan = phase1(v, &Basics::from_values(&[]))
            .unwrap()
            .into_iter()
            .chain(phase2(v, &req, &[]).unwrap());
        for (spec, role) in plan {
            let (Spec::Unrolled { kernel, .. } | Spec::Loop { kernel, .. }) = spec;
            assert_eq!(kernel.flags, Some(0x8D7), "{role:?}");
            assert!(
                kernel.body.iter().all(|i| i.rflags_modified() == 0),
                "{role:?}"
            );
        }
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

    /// The latency kernels from operand 2 to operand 1 of `v`'s plan, with their kind.
    fn lat_2_to_1(v: &Variant) -> Vec<(Kernel, LatKind)> {
        phase1(v, &Basics::from_values(&[]))
            .unwrap()
            .into_iter()
            .filter_map(|(spec, r)| match (spec, r) {
                (
                    Spec::Unrolled { kernel, .. },
                    Role::Lat {
                        start: 2,
                        target: 1,
                        kind,
                        ..
                    },
                ) => Some((kernel, kind)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn store_latency_loads_back_as_wide_as_the_store() {
        let c = catalog();
        for (s, want) in [
            ("MOV (M32, R32)", Code::Mov_r32_rm32),
            ("MOV (M16, R16)", Code::Movzx_r32_rm16),
            ("MOV (M64, R64)", Code::Mov_r64_rm64),
        ] {
            let back: Vec<Code> = lat_2_to_1(find(&c, s))
                .into_iter()
                .filter(|(_, kind)| *kind == LatKind::Reg)
                .map(|(k, _)| k.body[1].code())
                .collect();
            assert_eq!(back, [want], "{s}");
        }
    }

    #[test]
    fn lea_latency_from_base_and_index() {
        let c = catalog();
        let kinds = |s: &str| -> Vec<LatKind> {
            lat_2_to_1(find(&c, s))
                .into_iter()
                .map(|(kernel, kind)| {
                    // One instruction feeding itself through its address.
                    let i = kernel.body[0];
                    let dest = i.op0_register().full_register();
                    let back = match kind {
                        LatKind::Addr => i.memory_base(),
                        _ => i.memory_index(),
                    };
                    assert_eq!((kernel.body.len(), back), (1, dest), "{s}");
                    kind
                })
                .collect()
        };
        assert_eq!(
            kinds("LEA_B_IS_D8 (R64)"),
            [LatKind::Addr, LatKind::AddrIndex]
        );
        assert_eq!(kinds("LEA_B (R32)"), [LatKind::Addr]);
        assert_eq!(kinds("LEA_I_D32 (R64)"), [LatKind::AddrIndex]);
        assert!(kinds("LEA_D32 (R64)").is_empty());
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
        let blockers: Vec<(Blocker, bool)> =
            zen_candidates().into_iter().map(|b| (b, true)).collect();
        let req = Phase2Request {
            tp: 0.5,
            ..Phase2Request::default()
        };
        let plan = phase2(v, &req, &blockers).unwrap();
        // FP blockers only (no GPR, flags or memory operand).
        let fp = blockers
            .iter()
            .filter(|(b, _)| b.domain == Domain::Fp)
            .count();
        assert!(fp >= 4);
        assert_eq!(
            plan.iter()
                .filter(|(_, r)| matches!(r, Role::Block { .. }))
                .count(),
            fp
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

    #[test]
    fn same_reg_indexed_and_memory_latency_kernels() {
        let c = catalog();
        let x = find(&c, "XOR_31 (R32, R32)");
        let plan = phase1(x, &Basics::from_values(&[])).unwrap();
        let same = plan
            .iter()
            .find(|(_, r)| {
                matches!(
                    r,
                    Role::Tp {
                        form: Form::SameReg,
                        loop_: false,
                        ..
                    }
                )
            })
            .expect("same-register throughput");
        if let Spec::Unrolled { kernel, .. } = &same.0 {
            assert!(kernel
                .body
                .iter()
                .all(|i| i.op0_register() == i.op1_register()));
        }
        let add = find(&c, "ADD (R64, M64)");
        let plan = phase1(add, &Basics::from_values(&[])).unwrap();
        let idx = plan
            .iter()
            .find(|(_, r)| {
                matches!(
                    r,
                    Role::Tp {
                        form: Form::Indexed,
                        loop_: false,
                        ..
                    }
                )
            })
            .expect("indexed throughput");
        if let Spec::Unrolled { kernel, .. } = &idx.0 {
            assert!(kernel
                .body
                .iter()
                .all(|i| i.memory_index() == Register::R13));
            assert!(kernel.gpr_init.contains(&(Register::R13, 0)));
        }
        let kinds: Vec<LatKind> = plan
            .iter()
            .filter_map(|(_, r)| match r {
                Role::Lat {
                    start: 2,
                    target: 1,
                    kind,
                    ..
                } => Some(*kind),
                _ => None,
            })
            .collect();
        for k in [LatKind::Addr, LatKind::AddrIndex, LatKind::Mem] {
            assert!(kinds.contains(&k), "{k:?} in {kinds:?}");
        }
        // No same-register form with a memory operand.
        assert!(!has_same_reg_form(add) && has_indexed_form(add));
    }

    #[test]
    fn fp_division_fast_and_slow() {
        let c = catalog();
        let v = find(&c, "DIVSD (XMM, XMM)");
        let plan = phase1(v, &Basics::from_values(&[])).unwrap();
        for slow in [false, true] {
            assert!(plan.iter().any(|(_, r)| matches!(
                r,
                Role::Tp { slow: Some(s), .. } if *s == slow
            )));
            assert!(plan.iter().any(|(_, r)| matches!(
                r,
                Role::Lat { start: 1, target: 1, slow: Some(s), .. } if *s == slow
            )));
        }
        assert_eq!(
            division::fp_div_values(DivKind::FpDouble, false, true),
            (0x429D_A724_B687_DA66, 0x3FF3_3E97_F934_078B)
        );
        // Integer dividers get a dispatch filler in phase 2.
        let d = find(&c, "DIV (R64)");
        let p2 = phase2(
            d,
            &Phase2Request {
                tp: 8.0,
                ..Phase2Request::default()
            },
            &[],
        )
        .unwrap();
        assert!(matches!(p2[0].1, Role::Filler { .. }));
    }

    #[test]
    fn fusion_pairs_follow_the_instruction_with_a_jcc() {
        let c = catalog();
        let v = find(&c, "CMP_39 (R64, R64)");
        assert!(fusion_candidate(v));
        let p2 = phase2(
            v,
            &Phase2Request {
                tp: 0.25,
                ..Phase2Request::default()
            },
            &[],
        )
        .unwrap();
        let (spec, _) = p2
            .iter()
            .find(|(_, r)| matches!(r, Role::Fuse { jcc: JZ_REL8, .. }))
            .unwrap();
        if let Spec::Unrolled { kernel, .. } = spec {
            assert_eq!(kernel.body[0].mnemonic(), iced_x86::Mnemonic::Cmp);
            assert_eq!(kernel.body[1].code(), Code::Je_rel8_64);
        }
        // One more condition per flag group (CF, CF|ZF, SF≠OF, ZF|SF≠OF, OF, PF, SF).
        assert_eq!(phase3(v, 0.25).unwrap().len(), 7);
        assert!(!fusion_candidate(find(&c, "VADDPD (YMM, YMM, YMM)")));
    }
}
