//! Gathers and scatters (VSIB memory operands): the mask refill before every instance, the
//! index registers' in-buffer offsets, and their latency chains.
//!
//! A gather (and an AVX-512 scatter) clears its mask when it completes, so every instance is
//! preceded by a refill of all ones, as compiled loops do: `vpcmpeqd m, m, m` (AVX2, a vector
//! mask) or `kxnorw k1, k0, k0` (AVX-512; no source is the mask, so instances stay
//! independent). The refill's own throughput is measured once per run ([`Basics`]) and
//! subtracted from the throughput (`refill_cost`); its macro-op is counted out of the filler.
//!
//! The index register holds one element per cache line (lane `i` at byte `64 i` from r14), as
//! a gather over an array indexed by unrelated values touches: the loads are never merged
//! into one line. The latency chains through the index leave it at 0 (every lane on one
//! element).

use iced_x86::{Code, Instruction, MemoryOperand, OpCodeOperandKind, Register};

use super::super::catalog::{OpRef, RegClass, Slot, Variant};
use super::super::harness::{Kernel, Spec};
use super::super::layout::OFF_VSIB;
use super::regs::{assign, build, is_evex, reg_num, vec_breaker, Pools};
use super::{copies_for, kernel, Basics, LatKind, PlanError, Planned, Role};

/// Whether `v` has a VSIB memory operand (a gather or a scatter).
pub fn is_vsib(v: &Variant) -> bool {
    v.slots.iter().any(|s| matches!(s, Slot::Vsib(_)))
}

/// Whether `v` is a gather (writes a vector register; a scatter writes memory).
fn is_gather(v: &Variant) -> bool {
    is_vsib(v) && matches!(v.slots.first(), Some(Slot::Reg(_)))
}

/// Elements a gather loads or a scatter stores: the fewer of the data register's and the
/// index register's lanes (`vgatherdpd ymm, [xmm]`: 4 qwords by 4 dword indexes).
pub fn vsib_elements(v: &Variant) -> u32 {
    let Some(index) = v.slots.iter().find_map(|s| match s {
        Slot::Vsib(c) => Some(*c),
        _ => None,
    }) else {
        return 0;
    };
    let data = v.slots.iter().find_map(|s| match s {
        Slot::Reg(c) if c.is_vec() => Some(*c),
        _ => None,
    });
    let mnemonic = format!("{:?}", v.code.mnemonic()).to_ascii_lowercase();
    let data_bits = if mnemonic.ends_with("pd") || mnemonic.ends_with('q') {
        64
    } else {
        32
    };
    let index_bits = if dword_index(v) { 32 } else { 64 };
    let lanes = |c: RegClass, bits: u32| c.width() / bits;
    let by_index = lanes(index, index_bits);
    data.map_or(by_index, |d| by_index.min(lanes(d, data_bits)))
}

/// Refill instructions per instance (counted out of the µop filler).
pub fn refills(v: &Variant) -> usize {
    usize::from(is_vsib(v))
}

/// Cycles per instance the refill alone takes (subtracted from the throughput).
pub fn refill_cost(v: &Variant, b: &Basics) -> f64 {
    if !is_vsib(v) {
        0.0
    } else if v.masked {
        b.kxnor_tp
    } else {
        b.pcmpeq_tp
    }
}

/// The refill of `ins`'s mask: `kxnorw k, k0, k0` for a k mask, `vpcmpeqd m, m, m` for the
/// AVX2 vector mask (its last operand).
fn refill(ins: &Instruction) -> Option<Instruction> {
    let k = ins.op_mask();
    if k != Register::None {
        return Instruction::with3(Code::VEX_Kxnorw_kr_kr_kr, k, Register::K0, Register::K0).ok();
    }
    let m = ins.op_register(ins.op_count().checked_sub(1)?);
    let code = if m.is_ymm() {
        Code::VEX_Vpcmpeqd_ymm_ymm_ymmm256
    } else if m.is_xmm() {
        Code::VEX_Vpcmpeqd_xmm_xmm_xmmm128
    } else {
        return None;
    };
    Instruction::with3(code, m, m, m).ok()
}

/// Whether the index elements are dwords (`VPGATHERD*`), else qwords.
fn dword_index(v: &Variant) -> bool {
    v.code.op_code().op_kinds().iter().any(|k| {
        matches!(
            k,
            OpCodeOperandKind::mem_vsib32x
                | OpCodeOperandKind::mem_vsib32y
                | OpCodeOperandKind::mem_vsib32z
        )
    })
}

/// Stores the lane offsets (one cache line apart, in units of the scale) at [`OFF_VSIB`] and
/// loads them into `idx`.
fn load_offsets(v: &Variant, idx: Register, out: &mut Vec<Instruction>) -> Option<()> {
    let scale = super::super::catalog::vsib_scale(v.code) as i64;
    let at = |d: i64| MemoryOperand::with_base_displ(Register::R14, OFF_VSIB + d);
    let (lanes, width, code) = if dword_index(v) {
        (16, 4, Code::Mov_rm32_imm32)
    } else {
        (8, 8, Code::Mov_rm64_imm32)
    };
    for i in 0..lanes {
        out.push(Instruction::with2(code, at(i * width), (i * 64 / scale) as i32).ok()?);
    }
    let evex = is_evex(v) || reg_num(idx) >= 16;
    let load = match (idx.is_zmm(), idx.is_ymm(), evex) {
        (true, _, _) => Code::EVEX_Vmovdqu32_zmm_k1z_zmmm512,
        (_, true, true) => Code::EVEX_Vmovdqu32_ymm_k1z_ymmm256,
        (_, true, false) => Code::VEX_Vmovdqu_ymm_ymmm256,
        (_, _, true) => Code::EVEX_Vmovdqu32_xmm_k1z_xmmm128,
        _ => Code::VEX_Vmovdqu_xmm_xmmm128,
    };
    out.push(Instruction::with2(load, idx, at(0)).ok()?);
    Some(())
}

/// Makes `k` runnable for a VSIB variant: a refill before every instance, the index
/// registers loaded with their offsets first. Nothing for other variants.
pub(super) fn prepare(v: &Variant, k: &mut Kernel) {
    if !is_vsib(v) {
        return;
    }
    let mut body = Vec::with_capacity(2 * k.body.len());
    let mut indices: Vec<Register> = Vec::new();
    for ins in &k.body {
        if ins.code() == v.code {
            body.extend(refill(ins));
            if !indices.contains(&ins.memory_index()) {
                indices.push(ins.memory_index());
            }
        }
        body.push(*ins);
    }
    k.body = body;
    let mut init = Vec::new();
    for idx in indices {
        load_offsets(v, idx, &mut init);
    }
    // The kernel's own initialisation (a chain's zero register) comes after.
    init.append(&mut k.init);
    k.init = init;
}

/// The throughput body with the destination of every gather zeroed first (the destination is
/// merged into, so instances of one register would otherwise depend on each other).
pub(super) fn breaker_body(v: &Variant, insts: &[Instruction]) -> Option<Vec<Instruction>> {
    if !is_gather(v) {
        return None;
    }
    let mut body = Vec::with_capacity(2 * insts.len());
    for ins in insts {
        body.push(vec_breaker(v, ins.op0_register()));
        body.push(*ins);
    }
    Some(body)
}

/// The XML idx of explicit operand `slot`.
fn xml_idx(v: &Variant, slot: usize) -> Option<u32> {
    v.operands
        .iter()
        .find(|o| o.what == OpRef::Explicit(slot as u32))
        .map(|o| o.idx)
}

fn lat(v: &Variant, body: Vec<Instruction>, init: Vec<Instruction>, role: Role) -> (Spec, Role) {
    let mut k = kernel(v, body);
    k.init.extend(init);
    let (ca, cb) = copies_for(k.body.len(), 400);
    (
        Spec::Unrolled {
            kernel: k,
            copies_a: ca,
            copies_b: cb,
        },
        role,
    )
}

/// A vector register of `class` no operand of `ins` uses.
fn free_vec(p: &Pools, ins: &Instruction, class: RegClass) -> Option<Register> {
    let used: Vec<u32> = (0..ins.op_count())
        .map(|i| ins.op_register(i))
        .chain([ins.memory_index()])
        .filter(|r| r.is_vector_register())
        .map(reg_num)
        .collect();
    p.vec
        .iter()
        .rev()
        .find(|n| !used.contains(n))
        .map(|&n| class.reg(n))
}

/// Latency chains of a gather: index → destination (`vpand idx, dest, zero`, the index then
/// 0), the destination it merges into → destination (an upper bound), and the base →
/// destination through `vmovq rax, dest; xor r13, rax; xor r13, rax` (`vmovq` of unknown
/// latency, 1 assumed: an upper bound). Scatters have none here.
pub(super) fn latency_plan(v: &Variant, b: &Basics, p: &Pools) -> Result<Planned, PlanError> {
    let mut out = Vec::new();
    let (Some(Slot::Reg(_)), Some(mslot)) = (
        v.slots.first(),
        v.slots.iter().position(|s| matches!(s, Slot::Vsib(_))),
    ) else {
        return Ok(out);
    };
    let Slot::Vsib(iclass) = v.slots[mslot] else {
        return Ok(out);
    };
    let (Some(dest_idx), Some(mem_idx)) = (xml_idx(v, 0), xml_idx(v, mslot)) else {
        return Ok(out);
    };
    let i0 = build(v, &assign(v, p, 0), Register::R14)?;
    let (dest, idx) = (i0.op0_register(), i0.memory_index());
    let role = |start, kind, subtract, upper| Role::Lat {
        start,
        target: dest_idx,
        kind,
        subtract,
        upper,
        slow: None,
    };
    // Index → destination.
    if let Some(z) = free_vec(p, &i0, iclass) {
        let evex = is_evex(v) || [dest, idx, z].iter().any(|r| reg_num(*r) >= 16);
        let and = match (iclass, evex) {
            (RegClass::Zmm, _) => Code::EVEX_Vpandd_zmm_k1z_zmm_zmmm512b32,
            (RegClass::Ymm, true) => Code::EVEX_Vpandd_ymm_k1z_ymm_ymmm256b32,
            (RegClass::Ymm, false) => Code::VEX_Vpand_ymm_ymm_ymmm256,
            (_, true) => Code::EVEX_Vpandd_xmm_k1z_xmm_xmmm128b32,
            _ => Code::VEX_Vpand_xmm_xmm_xmmm128,
        };
        let chain = Instruction::with3(and, idx, iclass.reg(reg_num(dest)), z)?;
        let sub = if evex { b.vpandq } else { b.vpand };
        out.push(lat(
            v,
            vec![i0, chain],
            vec![vec_breaker(v, z)],
            role(mem_idx, LatKind::AddrIndex, sub, false),
        ));
    }
    // The merged destination → destination: the gather back to back on one register. It
    // cannot run faster than its throughput, so the value only bounds the latency.
    if v.operands.iter().any(|o| o.idx == dest_idx && o.read) {
        out.push(lat(
            v,
            vec![i0],
            Vec::new(),
            role(dest_idx, LatKind::Reg, 0.0, true),
        ));
    }
    // Base → destination.
    let mut from_base = i0;
    from_base.set_memory_base(Register::R13);
    let x = RegClass::Xmm.reg(reg_num(dest));
    let movq = if reg_num(dest) >= 16 {
        Code::EVEX_Vmovq_rm64_xmm
    } else {
        Code::VEX_Vmovq_rm64_xmm
    };
    let xor = Instruction::with2(Code::Xor_r64_rm64, Register::R13, Register::RAX)?;
    out.push(lat(
        v,
        vec![
            from_base,
            Instruction::with2(movq, Register::RAX, x)?,
            xor,
            xor,
        ],
        vec![Instruction::with2(
            Code::Mov_r64_rm64,
            Register::R13,
            Register::R14,
        )?],
        role(mem_idx, LatKind::Addr, b.xor2 + 1.0, true),
    ));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::catalog::{build as build_catalog, Catalog, CatalogOptions, HostFeatures};

    fn catalog() -> Catalog {
        build_catalog(
            &HostFeatures::from_cpuid(&|_, _| [0xFFFF_FFFF; 4]),
            None,
            &CatalogOptions::default(),
        )
    }

    fn encodes(i: &Instruction) -> bool {
        iced_x86::Encoder::new(64).encode(i, 0x1000).is_ok()
    }

    #[test]
    fn every_gather_and_scatter_is_catalogued() {
        let c = catalog();
        let names: Vec<&str> = c
            .variants
            .iter()
            .filter(|v| is_vsib(v))
            .map(|v| v.record.string.as_str())
            .collect();
        for want in [
            "VPGATHERDD (YMM, VSIB_YMM, YMM)",
            "VGATHERDPD (XMM, VSIB_XMM, XMM)",
            "VPGATHERDD (ZMM, K, VSIB_ZMM)",
            "VGATHERDPD (ZMM, K, VSIB_YMM)",
            "VGATHERQPS (YMM, K, VSIB_ZMM)",
            "VSCATTERDPS (VSIB_ZMM, K, ZMM)",
            "VPSCATTERQD (VSIB_ZMM, K, YMM)",
        ] {
            assert!(names.contains(&want), "{want} in {names:?}");
        }
        // 16 AVX2 gathers, 24 AVX-512 gathers and 24 scatters; the AVX512PF prefetches and
        // Knights Corner's MVEX forms are left out.
        let n = |p: &str| names.iter().filter(|s| s.starts_with(p)).count();
        assert_eq!(n("VPGATHER") + n("VGATHERD") + n("VGATHERQ"), 40);
        assert_eq!(n("VPSCATTER") + n("VSCATTERD") + n("VSCATTERQ"), 24);
        let skipped: Vec<_> = c
            .skipped
            .iter()
            .filter(|(n, _)| {
                let n = n.to_lowercase();
                (n.contains("gather") || n.contains("scatter"))
                    && !n.contains("pf")
                    && !n.starts_with("mvex")
            })
            .collect();
        assert!(skipped.is_empty(), "{skipped:?}");
    }

    #[test]
    fn instances_refill_their_mask_and_never_share_the_index() {
        let c = catalog();
        for v in c.variants.iter().filter(|v| is_vsib(v)) {
            let plan = super::super::phase1(v, &Basics::from_values(&[])).unwrap();
            assert!(!plan.is_empty(), "{}", v.record.string);
            for (spec, role) in plan {
                let (Spec::Unrolled { kernel, .. } | Spec::Loop { kernel, .. }) = spec;
                let body = &kernel.body;
                let mut seen = 0;
                for (i, ins) in body.iter().enumerate() {
                    assert!(encodes(ins), "{} {ins}", v.record.string);
                    if ins.code() != v.code {
                        continue;
                    }
                    seen += 1;
                    let idx = ins.memory_index();
                    assert!(idx.is_vector_register(), "{ins}");
                    assert_eq!(
                        ins.memory_index_scale(),
                        super::super::super::catalog::vsib_scale(v.code)
                    );
                    // Index ≠ destination ≠ mask (#UD otherwise).
                    let regs: Vec<u32> = (0..ins.op_count())
                        .map(|o| ins.op_register(o))
                        .filter(|r| r.is_vector_register())
                        .map(reg_num)
                        .collect();
                    assert!(!regs.contains(&reg_num(idx)), "{ins}");
                    let mut uniq = regs.clone();
                    uniq.dedup();
                    assert_eq!(uniq.len(), regs.len(), "{ins}");
                    // The mask is refilled right before.
                    let prev = body[i.checked_sub(1).expect("refill first")];
                    let want = refill(ins).unwrap();
                    assert_eq!(prev, want, "{ins} after {prev}");
                    if ins.op_mask() != Register::None {
                        assert_eq!(prev.op0_register(), ins.op_mask());
                    } else {
                        assert_eq!(prev.op0_register(), ins.op_register(2));
                    }
                    // The index is loaded with in-buffer offsets before timing.
                    let load = kernel
                        .init
                        .iter()
                        .find(|i| i.op0_register() == idx)
                        .unwrap_or_else(|| panic!("{ins}: index not loaded ({role:?})"));
                    assert_eq!(load.memory_displacement64() as i64, OFF_VSIB);
                }
                assert!(seen > 0, "{} {role:?}", v.record.string);
            }
        }
    }

    #[test]
    fn offsets_are_one_line_apart_within_the_buffer() {
        let c = catalog();
        let v = c
            .variants
            .iter()
            .find(|v| v.code == Code::EVEX_Vgatherdpd_zmm_k1_vm32y)
            .unwrap();
        let mut init = Vec::new();
        load_offsets(v, Register::YMM29, &mut init).unwrap();
        assert_eq!(init.len(), 17);
        let vals: Vec<u32> = init[..16].iter().map(|i| i.immediate32()).collect();
        assert_eq!(&vals[..3], &[0, 8, 16]); // scale 8: 64 bytes apart
        assert_eq!(init[16].code(), Code::EVEX_Vmovdqu32_ymm_k1z_ymmm256);
    }

    #[test]
    fn gathers_have_index_base_and_merge_latencies() {
        let c = catalog();
        let v = c
            .variants
            .iter()
            .find(|v| v.code == Code::VEX_Vpgatherdd_ymm_vm32y_ymm)
            .unwrap();
        let plan = super::super::phase1(v, &Basics::from_values(&[])).unwrap();
        let kinds: Vec<(LatKind, bool)> = plan
            .iter()
            .filter_map(|(_, r)| match r {
                Role::Lat { kind, upper, .. } => Some((*kind, *upper)),
                _ => None,
            })
            .collect();
        assert_eq!(
            kinds,
            [
                (LatKind::AddrIndex, false),
                (LatKind::Reg, true),
                (LatKind::Addr, true)
            ]
        );
        let scatter = c
            .variants
            .iter()
            .find(|v| v.code == Code::EVEX_Vscatterdps_vm32z_k1_zmm)
            .unwrap();
        let plan = super::super::phase1(scatter, &Basics::from_values(&[])).unwrap();
        assert!(plan.iter().all(|(_, r)| matches!(r, Role::Tp { .. })));
        assert_eq!(refills(scatter), 1);
        assert!(breaker_body(scatter, &[]).is_none());
    }

    /// A gather loads, a scatter stores, the fewer of its data and index lanes.
    #[test]
    fn elements_are_the_fewer_lanes() {
        let c = catalog();
        let by_name = |name: &str| {
            c.variants
                .iter()
                .find(|v| v.record.string.starts_with(name))
                .unwrap_or_else(|| panic!("{name}"))
        };
        assert_eq!(vsib_elements(by_name("VGATHERDPD (YMM, K, VSIB_XMM)")), 4);
        assert_eq!(vsib_elements(by_name("VPGATHERDD (YMM, K, VSIB_YMM)")), 8);
        assert_eq!(vsib_elements(by_name("VGATHERQPS (XMM, K, VSIB_YMM)")), 4);
        assert_eq!(vsib_elements(by_name("VSCATTERDPS (VSIB_YMM, K, YMM)")), 8);
        assert_eq!(vsib_elements(by_name("VPGATHERDQ (ZMM, K, VSIB_YMM)")), 8);
        assert_eq!(vsib_elements(by_name("ADD_01 (R64, R64)")), 0);
    }
}
