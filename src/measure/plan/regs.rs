//! Register discipline: pools per register family, the operand assignment of independent
//! instance `j`, and building the concrete instruction.

use iced_x86::{Code, Instruction, Register};

use super::super::catalog::{instantiate, BuildError, OpRef, Operand, RegClass, Slot, Variant};

/// Register pools for one variant.
#[derive(Clone, Debug)]
pub(super) struct Pools {
    pub gpr: Vec<Register>,
    pub vec: Vec<u32>,
    pub k: Vec<u32>,
    pub mm: Vec<u32>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Family {
    Gpr,
    Vec,
    K,
    Mm,
}

pub(super) fn family(c: RegClass) -> Family {
    match c {
        RegClass::Gpr(_) => Family::Gpr,
        RegClass::Xmm | RegClass::Ymm | RegClass::Zmm => Family::Vec,
        RegClass::K => Family::K,
        RegClass::Mm => Family::Mm,
    }
}

/// Upper bound of independent instances per throughput kernel.
pub const MAX_INSTANCES: usize = 12;

/// The GPRs instances rotate through: the harness's free ones less r13, which latency and
/// blocking kernels keep for address chains and index registers.
fn gpr_pool() -> impl Iterator<Item = Register> {
    super::super::harness::FREE_GPR64
        .into_iter()
        .filter(|r| *r != Register::R13)
}

/// The number of `r` within its class as [`RegClass::reg`] counts: full 64-bit numbers for
/// GPRs (iced numbers 8-bit registers with AH..BH in between: `SIL.number()` is 10, not 6).
pub(super) fn reg_num(r: Register) -> u32 {
    if r.is_gpr() {
        r.full_register().number() as u32
    } else {
        r.number() as u32
    }
}

pub(super) fn is_evex(v: &Variant) -> bool {
    v.code.op_code().encoding() == iced_x86::EncodingKind::EVEX
}

pub(super) fn pools(v: &Variant) -> Pools {
    let fixed: Vec<Register> = v
        .slots
        .iter()
        .filter_map(|s| match s {
            Slot::Fixed(r) => Some(r.full_register()),
            _ => None,
        })
        .collect();
    let gpr = gpr_pool()
        .filter(|r| !v.implicit_regs.contains(r) && !fixed.contains(r))
        .collect();
    let nvec = if is_evex(v) { 30 } else { 14 };
    Pools {
        gpr,
        vec: (0..nvec).collect(),
        k: (2..8).collect(),
        mm: (0..8).collect(),
    }
}

/// Per-slot register assignment of instance `j`.
#[derive(Clone, Debug)]
pub(super) struct Assign {
    /// For each Reg slot (in slot order): register.
    pub regs: Vec<Register>,
    /// For each Mem slot: displacement.
    pub mems: Vec<i64>,
}

pub(super) fn slot_written(v: &Variant, i: usize) -> bool {
    v.operands
        .iter()
        .any(|o| o.what == OpRef::Explicit(i as u32) && (o.write || o.cond_write))
}

fn class_reg(c: RegClass, full_or_num: PoolReg) -> Register {
    match full_or_num {
        PoolReg::Gpr(r) => c.reg(r.number() as u32),
        PoolReg::Num(n) => c.reg(n),
    }
}

#[derive(Copy, Clone)]
enum PoolReg {
    Gpr(Register),
    Num(u32),
}

fn pool_get(p: &Pools, f: Family, i: usize) -> Option<PoolReg> {
    match f {
        Family::Gpr => p.gpr.get(i).copied().map(PoolReg::Gpr),
        Family::Vec => p.vec.get(i).copied().map(PoolReg::Num),
        Family::K => p.k.get(i).copied().map(PoolReg::Num),
        Family::Mm => p.mm.get(i).copied().map(PoolReg::Num),
    }
}

fn pool_len(p: &Pools, f: Family) -> usize {
    match f {
        Family::Gpr => p.gpr.len(),
        Family::Vec => p.vec.len(),
        Family::K => p.k.len(),
        Family::Mm => p.mm.len(),
    }
}

/// Maximum independent instances and the assignment function.
pub(super) fn max_instances(v: &Variant, p: &Pools) -> usize {
    let mut best = MAX_INSTANCES;
    for f in [Family::Gpr, Family::Vec, Family::K, Family::Mm] {
        let (mut nw, mut nr) = (0, 0);
        for (i, s) in v.slots.iter().enumerate() {
            match s {
                Slot::Reg(c) if family(*c) == f => {
                    if slot_written(v, i) {
                        nw += 1;
                    } else {
                        nr += 1;
                    }
                }
                // A VSIB index is only read (a scatter writes memory, not the index).
                Slot::Vsib(c) if family(*c) == f => nr += 1,
                _ => {}
            }
        }
        let len = pool_len(p, f);
        if nw + nr > len {
            return 0;
        }
        if let Some(n) = (len - nr).checked_div(nw) {
            best = best.min(n);
        }
    }
    best
}

pub(super) fn assign(v: &Variant, p: &Pools, j: usize) -> Assign {
    let mut regs = Vec::new();
    let mut mems = Vec::new();
    let mut wcount = [0usize; 4];
    let mut rcount = [0usize; 4];
    let nw: Vec<usize> = [Family::Gpr, Family::Vec, Family::K, Family::Mm]
        .iter()
        .map(|f| {
            v.slots
                .iter()
                .enumerate()
                .filter(|(i, s)| {
                    matches!(s, Slot::Reg(c) if family(*c) == *f) && slot_written(v, *i)
                })
                .count()
        })
        .collect();
    let mut mi = 0i64;
    let nmem = v
        .slots
        .iter()
        .filter(|s| matches!(s, Slot::Mem { .. }))
        .count() as i64;
    for (i, s) in v.slots.iter().enumerate() {
        match s {
            Slot::Reg(c) => {
                let f = family(*c);
                let fi = f as usize;
                let idx = if slot_written(v, i) {
                    let k = j * nw[fi] + wcount[fi];
                    wcount[fi] += 1;
                    k
                } else {
                    let k = pool_len(p, f) - 1 - rcount[fi];
                    rcount[fi] += 1;
                    k
                };
                let pr = pool_get(p, f, idx).unwrap_or(PoolReg::Num(0));
                regs.push(class_reg(*c, pr));
            }
            Slot::Vsib(c) => {
                // Read-only: from the end of the pool, shared by the instances, never a
                // destination or mask (#UD).
                let fi = Family::Vec as usize;
                let k = pool_len(p, Family::Vec) - 1 - rcount[fi];
                rcount[fi] += 1;
                let pr = pool_get(p, Family::Vec, k).unwrap_or(PoolReg::Num(0));
                regs.push(class_reg(*c, pr));
            }
            Slot::Mem { bytes, .. } => {
                // Written memory: offsets advance by the operand width (as uops.info does), so
                // instances are independent and share cache lines (no L1 bank conflicts).
                // Read-only memory: every instance reads the same location (loads of one line
                // never conflict; reads create no dependency).
                let w = (*bytes as i64).max(1);
                if slot_written(v, i) {
                    mems.push(4096 + (j as i64 * nmem.max(1) + mi) * w);
                } else {
                    mems.push(2048 + mi * 64);
                }
                mi += 1;
            }
            _ => {}
        }
    }
    Assign { regs, mems }
}

pub(super) fn build(v: &Variant, a: &Assign, base: Register) -> Result<Instruction, BuildError> {
    let mut ins = instantiate(v, &a.regs, &a.mems, imm_value(v))?;
    if base != Register::R14 {
        ins.set_memory_base(base);
    }
    Ok(ins)
}

/// Immediate of a variant: uops.info's default 2 (shifts/rotates of 2 are benign), except
/// for the instructions that select a 128/256-bit lane (`vextracti64x4`, `vinsertf128`...),
/// where 2 picks the lowest lane of a 256/512-bit register: a plain move that Zen 4 runs two
/// a cycle on any vector pipe. Compilers emit these with 1, the upper lane, which crosses
/// lanes on the shuffle pipes (one a cycle for `vextracti64x4 ymm, zmm, 1`, measured with
/// `suaca profile`, testdata/asm/lane_select.s).
fn imm_value(v: &Variant) -> u64 {
    if selects_lane(v.code.mnemonic()) {
        1
    } else {
        2
    }
}

/// `vextract`/`vinsert` of a 128- or 256-bit lane (not `extractps`/`insertps`, which pick
/// an element).
fn selects_lane(m: iced_x86::Mnemonic) -> bool {
    use iced_x86::Mnemonic::*;
    matches!(
        m,
        Vextractf128
            | Vextracti128
            | Vextractf32x4
            | Vextractf64x2
            | Vextracti32x4
            | Vextracti64x2
            | Vextractf32x8
            | Vextractf64x4
            | Vextracti32x8
            | Vextracti64x4
            | Vinsertf128
            | Vinserti128
            | Vinsertf32x4
            | Vinsertf64x2
            | Vinserti32x4
            | Vinserti64x2
            | Vinsertf32x8
            | Vinsertf64x4
            | Vinserti32x8
            | Vinserti64x4
    )
}

pub(super) fn zero_idiom(r: Register) -> Instruction {
    let r32 = r.full_register32();
    Instruction::with2(Code::Xor_r32_rm32, r32, r32).expect("xor")
}

#[allow(dead_code)]
pub(super) fn vec_breaker(v: &Variant, r: Register) -> Instruction {
    let n = r.number() as u32;
    if is_evex(v) || n >= 16 {
        let z = RegClass::Zmm.reg(n);
        Instruction::with3(Code::EVEX_Vpxord_zmm_k1z_zmm_zmmm512b32, z, z, z).expect("vpxord")
    } else if v.code.op_code().encoding() == iced_x86::EncodingKind::VEX {
        let x = RegClass::Xmm.reg(n);
        Instruction::with3(Code::VEX_Vxorps_xmm_xmm_xmmm128, x, x, x).expect("vxorps")
    } else {
        let x = RegClass::Xmm.reg(n);
        Instruction::with2(Code::Xorps_xmm_xmmm128, x, x).expect("xorps")
    }
}

pub(super) fn operand_reg(v: &Variant, a: &Assign, o: &Operand) -> Option<(Register, RegClass)> {
    match &o.what {
        OpRef::Explicit(i) => {
            let i = *i as usize;
            match &v.slots[i] {
                Slot::Reg(c) => {
                    let ri = v.slots[..i]
                        .iter()
                        .filter(|s| matches!(s, Slot::Reg(_) | Slot::Vsib(_)))
                        .count();
                    Some((a.regs[ri], *c))
                }
                Slot::Fixed(r) => {
                    let c = fixed_class(*r)?;
                    Some((*r, c))
                }
                _ => None,
            }
        }
        OpRef::Implicit(r) if r.is_gpr() => Some((*r, RegClass::Gpr(64))),
        OpRef::Mask => Some((Register::K1, RegClass::K)),
        _ => None,
    }
}

fn fixed_class(r: Register) -> Option<RegClass> {
    if r.is_gpr() {
        Some(RegClass::Gpr(r.size() as u32 * 8))
    } else {
        None
    }
}

pub(super) fn mem_slot_of(v: &Variant, o: &Operand) -> Option<usize> {
    match &o.what {
        OpRef::Explicit(i) if matches!(v.slots[*i as usize], Slot::Mem { .. }) => Some(*i as usize),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::imm_value;
    use crate::measure::catalog::{build, CatalogOptions, HostFeatures};

    #[test]
    fn lane_selects_take_the_upper_lane_and_others_two() {
        let c = build(
            &HostFeatures::from_cpuid(&|_, _| [0xFFFF_FFFF; 4]),
            None,
            &CatalogOptions::default(),
        );
        let imm = |s: &str| imm_value(c.variants.iter().find(|v| v.record.string == s).unwrap());
        assert_eq!(imm("VEXTRACTI64X4 (YMM, ZMM, I8)"), 1);
        assert_eq!(imm("VEXTRACTF128 (XMM, YMM, I8)"), 1);
        assert_eq!(imm("VINSERTI128 (YMM, YMM, XMM, I8)"), 1);
        assert_eq!(imm("PSHUFD (XMM, XMM, I8)"), 2);
        assert_eq!(imm("EXTRACTPS (R32, XMM, I8)"), 2);
    }
}
