//! Latency chains per (start, target) operand pair (uops.info §5.2, cpuBench): chain
//! instructions of known latency back to the start operand, double XOR for addresses, loads
//! back for stores, TEST/CMOVcc for flags; upper bounds where a chain of unknown latency
//! crosses register classes.

use iced_x86::{Code, Instruction, MemoryOperand, Register};

use super::super::catalog::{OpRef, Operand, RegClass, Slot, Variant};
use super::super::harness::{Kernel, Spec};
use super::regs::{
    assign, build, family, mem_slot_of, operand_reg, reg_num, Assign, Family, Pools,
};
use super::{copies_for, kernel, Basics, LatKind, PlanError, Planned, Role};

/// Chain instruction(s) from register `d` (class cd) back to register `s` (class cs), and
/// their known latency; `upper` if the latency is assumed.
///
/// Long: a table, one arm per pair of register families.
fn chain(
    v: &Variant,
    b: &Basics,
    d: Register,
    cd: RegClass,
    s: Register,
    cs: RegClass,
) -> Option<(Vec<Vec<Instruction>>, Vec<f64>, bool)> {
    let r2 = |c, x, y| Instruction::with2(c, x, y).ok();
    let r3 = |c, x, y, z| Instruction::with3(c, x, y, z).ok();
    let fd = family(cd);
    let fs = family(cs);
    let sn = reg_num(s);
    let dn = reg_num(d);
    match (fd, fs) {
        (Family::Gpr, Family::Gpr) => {
            let s64 = s.full_register();
            let ins = match cd.width() {
                8 => r2(Code::Movsx_r64_rm8, s64, d)?,
                16 => r2(Code::Movsx_r64_rm16, s64, d)?,
                _ => r2(Code::Movsxd_r64_rm32, s64, d.full_register32())?,
            };
            Some((vec![vec![ins]], vec![b.movsx], false))
        }
        (Family::Vec, Family::Vec) => {
            let enc = v.code.op_code().encoding();
            if enc == iced_x86::EncodingKind::EVEX || sn >= 16 || dn >= 16 {
                let (zs, zd) = (RegClass::Zmm.reg(sn), RegClass::Zmm.reg(dn));
                Some((
                    vec![
                        vec![r3(Code::EVEX_Vandpd_zmm_k1z_zmm_zmmm512b64, zs, zd, zd)?],
                        vec![r3(Code::EVEX_Vpandq_zmm_k1z_zmm_zmmm512b64, zs, zd, zd)?],
                    ],
                    vec![b.evandpd, b.vpandq],
                    false,
                ))
            } else if enc == iced_x86::EncodingKind::VEX {
                let (ys, yd) = (RegClass::Ymm.reg(sn), RegClass::Ymm.reg(dn));
                Some((
                    vec![
                        vec![r3(Code::VEX_Vandpd_ymm_ymm_ymmm256, ys, yd, yd)?],
                        vec![r3(Code::VEX_Vpand_ymm_ymm_ymmm256, ys, yd, yd)?],
                    ],
                    vec![b.vandpd, b.vpand],
                    false,
                ))
            } else {
                let (xs, xd) = (RegClass::Xmm.reg(sn), RegClass::Xmm.reg(dn));
                Some((
                    vec![
                        vec![r2(Code::Andpd_xmm_xmmm128, xs, xd)?],
                        vec![r2(Code::Pand_xmm_xmmm128, xs, xd)?],
                    ],
                    vec![b.andpd, b.pand],
                    false,
                ))
            }
        }
        (Family::K, Family::K) => Some((
            vec![vec![r3(Code::VEX_Korq_kr_kr_kr, s, d, d)?]],
            vec![b.korq],
            false,
        )),
        (Family::Mm, Family::Mm) => Some((
            vec![vec![r2(Code::Por_mm_mmm64, s, d)?]],
            vec![b.por],
            false,
        )),
        // Different classes: no chain instruction of known latency; 1 assumed, upper bound.
        (Family::Gpr, Family::Vec) if sn < 16 => {
            let c = if v.code.op_code().encoding() == iced_x86::EncodingKind::Legacy {
                Code::Movq_xmm_rm64
            } else {
                Code::VEX_Vmovq_xmm_rm64
            };
            Some((
                vec![vec![r2(c, RegClass::Xmm.reg(sn), d.full_register())?]],
                vec![1.0],
                true,
            ))
        }
        (Family::Vec, Family::Gpr) if dn < 16 => {
            let c = if v.code.op_code().encoding() == iced_x86::EncodingKind::Legacy {
                Code::Movq_rm64_xmm
            } else {
                Code::VEX_Vmovq_rm64_xmm
            };
            Some((
                vec![vec![r2(c, s.full_register(), RegClass::Xmm.reg(dn))?]],
                vec![1.0],
                true,
            ))
        }
        (Family::Gpr, Family::K) => Some((
            vec![vec![r2(Code::VEX_Kmovq_kr_r64, s, d.full_register())?]],
            vec![1.0],
            true,
        )),
        (Family::K, Family::Gpr) => Some((
            vec![vec![r2(Code::VEX_Kmovq_r64_kr, s.full_register(), d)?]],
            vec![1.0],
            true,
        )),
        (Family::Vec, Family::K) => Some((
            vec![vec![r2(
                Code::EVEX_Vpmovq2m_kr_zmm,
                s,
                RegClass::Zmm.reg(dn),
            )?]],
            vec![1.0],
            true,
        )),
        (Family::K, Family::Vec) => Some((
            vec![vec![r2(
                Code::EVEX_Vpmovm2q_zmm_kr,
                RegClass::Zmm.reg(sn),
                d,
            )?]],
            vec![1.0],
            true,
        )),
        (Family::Gpr, Family::Mm) => Some((
            vec![vec![r2(Code::Movq_mm_rm64, s, d.full_register())?]],
            vec![1.0],
            true,
        )),
        (Family::Mm, Family::Gpr) => Some((
            vec![vec![r2(Code::Movq_rm64_mm, s.full_register(), d)?]],
            vec![1.0],
            true,
        )),
        (Family::Mm, Family::Vec) if sn < 16 => Some((
            vec![vec![r2(Code::Movq2dq_xmm_mm, RegClass::Xmm.reg(sn), d)?]],
            vec![1.0],
            true,
        )),
        (Family::Vec, Family::Mm) if dn < 16 => Some((
            vec![vec![r2(Code::Movdq2q_mm_xmm, s, RegClass::Xmm.reg(dn))?]],
            vec![1.0],
            true,
        )),
        _ => None,
    }
}

fn flag_cmov(v: &Variant) -> Code {
    use iced_x86::RflagsBits as F;
    let w = v.flags_written;
    if w & F::CF != 0 {
        Code::Cmovb_r64_rm64
    } else if w & F::ZF != 0 {
        Code::Cmove_r64_rm64
    } else if w & F::SF != 0 {
        Code::Cmovs_r64_rm64
    } else if w & F::OF != 0 {
        Code::Cmovo_r64_rm64
    } else {
        Code::Cmovp_r64_rm64
    }
}

/// What every latency chain of one variant shares: the variant, the run's basic latencies,
/// the register pools, the default operand assignment and its instruction.
struct LatCtx<'a> {
    v: &'a Variant,
    b: &'a Basics,
    p: &'a Pools,
    a0: Assign,
    i0: Instruction,
}

pub(super) fn latency_plan(v: &Variant, b: &Basics, p: &Pools) -> Result<Planned, PlanError> {
    let a0 = assign(v, p, 0);
    let i0 = build(v, &a0, Register::R14)?;
    let cx = LatCtx { v, b, p, a0, i0 };
    let mut out = Vec::new();
    register_chains(&cx, &mut out)?;
    lea_chains(&cx, &mut out);
    memory_source_chains(&cx, &mut out)?;
    store_chains(&cx, &mut out)?;
    Ok(out)
}

/// One latency benchmark: `kernel_body` unrolled (about 400 instructions), measured for the
/// pair (`start`, `target`) with `subtract` cycles of chain instructions taken off.
fn lat(
    v: &Variant,
    kernel_body: Vec<Instruction>,
    start: u32,
    target: u32,
    kind: LatKind,
    subtract: f64,
    upper: bool,
) -> (Spec, Role) {
    addr_chain(kernel(v, kernel_body), start, target, kind, subtract, upper)
}

/// Register, mask and flag sources to register and flag destinations.
fn register_chains(cx: &LatCtx, out: &mut Planned) -> Result<(), PlanError> {
    let v = cx.v;
    let cmov_lat = (cx.b.test_cmov - 1.0).max(0.0);
    for s in v.operands.iter().filter(|o| o.read) {
        for d in v.operands.iter().filter(|o| o.write) {
            // Register (or mask / implicit GPR) → register.
            let sr = operand_reg(v, &cx.a0, s);
            let dr = operand_reg(v, &cx.a0, d);
            match (&s.what, &d.what, sr, dr) {
                (_, _, Some((rs, cs)), Some((rd, cd))) => {
                    if s.idx == d.idx
                        || rs.full_register() == rd.full_register() && family(cs) == family(cd)
                    {
                        // Same operand (read-write) or the same register: the instruction alone.
                        out.push(lat(v, vec![cx.i0], s.idx, d.idx, LatKind::Reg, 0.0, false));
                        continue;
                    }
                    if let Some((chains, lats, upper)) = chain(v, cx.b, rd, cd, rs, cs) {
                        for (c, l) in chains.into_iter().zip(lats) {
                            let mut body = vec![cx.i0];
                            body.extend(c);
                            out.push(lat(v, body, s.idx, d.idx, LatKind::Reg, l, upper));
                        }
                    }
                    same_register(cx, s, d, cs, cd, out);
                }
                // Flags → flags: the instruction alone.
                (OpRef::Flags, OpRef::Flags, _, _) => {
                    out.push(lat(v, vec![cx.i0], s.idx, d.idx, LatKind::Reg, 0.0, false));
                }
                // Flags → GPR: TEST d, d closes the chain (TEST taken as 1 cycle).
                (OpRef::Flags, _, _, Some((rd, cd))) if family(cd) == Family::Gpr => {
                    let r = rd.full_register();
                    let t = Instruction::with2(Code::Test_rm64_r64, r, r)?;
                    out.push(lat(
                        v,
                        vec![cx.i0, t],
                        s.idx,
                        d.idx,
                        LatKind::Reg,
                        1.0,
                        false,
                    ));
                }
                // GPR → flags: CMOVcc s, s closes the chain.
                (_, OpRef::Flags, Some((rs, cs)), _) if family(cs) == Family::Gpr => {
                    let r = rs.full_register();
                    let c = Instruction::with2(flag_cmov(v), r, r)?;
                    out.push(lat(
                        v,
                        vec![cx.i0, c],
                        s.idx,
                        d.idx,
                        LatKind::Reg,
                        cmov_lat,
                        false,
                    ));
                }
                // Vector → flags: CMOVcc into r13, then to the vector: upper bound.
                (_, OpRef::Flags, Some((rs, cs)), _)
                    if family(cs) == Family::Vec && rs.number() < 16 =>
                {
                    let c = Instruction::with2(flag_cmov(v), Register::R13, Register::R13)?;
                    let code = if v.code.op_code().encoding() == iced_x86::EncodingKind::Legacy {
                        Code::Movq_xmm_rm64
                    } else {
                        Code::VEX_Vmovq_xmm_rm64
                    };
                    let m = Instruction::with2(
                        code,
                        RegClass::Xmm.reg(rs.number() as u32),
                        Register::R13,
                    )?;
                    out.push(lat(
                        v,
                        vec![cx.i0, c, m],
                        s.idx,
                        d.idx,
                        LatKind::Reg,
                        cmov_lat + 1.0,
                        true,
                    ));
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// The same-register form of a pair of explicit register operands of one family (e.g.
/// `xor rax, rax` style reuse), when it builds.
fn same_register(
    cx: &LatCtx,
    s: &Operand,
    d: &Operand,
    cs: RegClass,
    cd: RegClass,
    out: &mut Planned,
) {
    let v = cx.v;
    // Same-register variant for explicit operands of one family.
    if let (OpRef::Explicit(si), OpRef::Explicit(di)) = (&s.what, &d.what) {
        if family(cs) == family(cd)
            && matches!(v.slots[*si as usize], Slot::Reg(_))
            && matches!(v.slots[*di as usize], Slot::Reg(_))
        {
            let mut a = assign(v, cx.p, 0);
            let ri = |k: usize| {
                v.slots[..k]
                    .iter()
                    .filter(|x| matches!(x, Slot::Reg(_)))
                    .count()
            };
            let num = reg_num(a.regs[ri(*di as usize)]);
            a.regs[ri(*si as usize)] = cs.reg(num);
            if let Ok(ins) = build(v, &a, Register::R14) {
                out.push(lat(
                    v,
                    vec![ins],
                    s.idx,
                    d.idx,
                    LatKind::SameReg,
                    0.0,
                    false,
                ));
            }
        }
    }
}

/// LEA: the destination is the base (`cycles_addr`) or the index (`cycles_addr_index`) of its
/// own address, a one-instruction chain.
fn lea_chains(cx: &LatCtx, out: &mut Planned) {
    let v = cx.v;
    for s in v.operands.iter() {
        let OpRef::Explicit(si) = s.what else {
            continue;
        };
        let Slot::Agen(form) = v.slots[si as usize] else {
            continue;
        };
        for d in v.operands.iter().filter(|o| o.write) {
            let Some((rd, Family::Gpr)) = operand_reg(v, &cx.a0, d).map(|(r, c)| (r, family(c)))
            else {
                continue;
            };
            let r = rd.full_register();
            if form.base {
                let mut ins = cx.i0;
                ins.set_memory_base(r);
                out.push(lat(v, vec![ins], s.idx, d.idx, LatKind::Addr, 0.0, false));
            }
            if form.index {
                let mut ins = cx.i0;
                ins.set_memory_index(r);
                out.push(lat(
                    v,
                    vec![ins],
                    s.idx,
                    d.idx,
                    LatKind::AddrIndex,
                    0.0,
                    false,
                ));
            }
        }
    }
}

/// Memory sources: to the address registers (double XOR back to the base or index) and to
/// the destination through a store back to the address read.
fn memory_source_chains(cx: &LatCtx, out: &mut Planned) -> Result<(), PlanError> {
    let v = cx.v;
    for s in v.operands.iter().filter(|o| o.read) {
        let Some(mslot) = mem_slot_of(v, s) else {
            continue;
        };
        let midx = v.slots[..mslot]
            .iter()
            .filter(|x| matches!(x, Slot::Mem { .. }))
            .count();
        for d in v.operands.iter().filter(|o| o.write) {
            if d.idx == s.idx {
                // Read-modify-write memory: the instruction alone on the same address.
                out.push(lat(v, vec![cx.i0], s.idx, d.idx, LatKind::Mem, 0.0, false));
                continue;
            }
            let Some((rd, cd)) = operand_reg(v, &cx.a0, d) else {
                continue;
            };
            // Back from the destination to a GPR (vector destinations through `movq`, whose
            // latency is assumed: upper bound).
            let back = match family(cd) {
                Family::Gpr => Some((rd.full_register(), None, 0.0, false)),
                Family::Vec if rd.number() < 16 && scratch_free(v, &cx.a0) => {
                    let code = if v.code.op_code().encoding() == iced_x86::EncodingKind::Legacy {
                        Code::Movq_rm64_xmm
                    } else {
                        Code::VEX_Vmovq_rm64_xmm
                    };
                    let mv =
                        Instruction::with2(code, SCRATCH, RegClass::Xmm.reg(rd.number() as u32))?;
                    Some((SCRATCH, Some(mv), 1.0, true))
                }
                _ => None,
            };
            if let Some((g, mv, extra, upper)) = back {
                let x = Instruction::with2(Code::Xor_r64_rm64, Register::R13, g)?;
                // Address (base register r13, pointing at r14): double XOR keeps the address.
                let ins = build(v, &cx.a0, Register::R13)?;
                let mut body = vec![ins];
                body.extend(mv);
                body.extend([x, x]);
                let mut k = kernel(v, body.clone());
                k.init.push(Instruction::with2(
                    Code::Lea_r64_m,
                    Register::R13,
                    MemoryOperand::with_base(Register::R14),
                )?);
                out.push(addr_chain(
                    k,
                    s.idx,
                    d.idx,
                    LatKind::Addr,
                    cx.b.xor2 + extra,
                    upper,
                ));
                // Index register r13 (= 0) next to base r14: the same double XOR keeps it 0.
                let mut ins = build(v, &cx.a0, Register::R14)?;
                ins.set_memory_index(Register::R13);
                ins.set_memory_index_scale(1);
                body[0] = ins;
                let mut k = kernel(v, body);
                k.gpr_init.push((Register::R13, 0));
                out.push(addr_chain(
                    k,
                    s.idx,
                    d.idx,
                    LatKind::AddrIndex,
                    cx.b.xor2 + extra,
                    upper,
                ));
            }
            // Memory value → destination: store the destination back to the address the
            // instruction reads (store-to-load forwarding included: upper bound).
            let Slot::Mem { bytes, .. } = v.slots[mslot] else {
                continue;
            };
            if let Some(st) = store_back(v, rd, cd, bytes) {
                let mut a = cx.a0.clone();
                a.mems[midx] = MEM_CHAIN;
                let ins = build(v, &a, Register::R14)?;
                out.push(lat(v, vec![ins, st], s.idx, d.idx, LatKind::Mem, 0.0, true));
            }
        }
    }
    Ok(())
}

/// Register → memory (stores): load the value back into the source register (upper bound,
/// includes the load), as wide as the store: a wider load cannot take the stored value by
/// forwarding and waits for the store to retire (19 cycles instead of 1 on Zen 4).
fn store_chains(cx: &LatCtx, out: &mut Planned) -> Result<(), PlanError> {
    let v = cx.v;
    for d in v.operands.iter().filter(|o| o.write) {
        let Some(mi) = mem_slot_of(v, d) else {
            continue;
        };
        for s in v.operands.iter().filter(|o| o.read && o.idx != d.idx) {
            let Some((rs, cs)) = operand_reg(v, &cx.a0, s) else {
                continue;
            };
            if family(cs) != Family::Gpr {
                continue;
            }
            let midx = v.slots[..mi]
                .iter()
                .filter(|x| matches!(x, Slot::Mem { .. }))
                .count();
            let m = MemoryOperand::with_base_displ(Register::R14, cx.a0.mems[midx]);
            let Slot::Mem { bytes, .. } = v.slots[mi] else {
                continue;
            };
            let load = load_back(rs, m, bytes)?;
            out.push(lat(
                v,
                vec![cx.i0, load],
                s.idx,
                d.idx,
                LatKind::Reg,
                0.0,
                true,
            ));
        }
    }
    Ok(())
}

/// A load of `bytes` from `m` into the GPR `r` that writes all of `r` (zero-extending the
/// narrow widths, so no merge with the old value enters the chain).
fn load_back(
    r: Register,
    m: MemoryOperand,
    bytes: u32,
) -> Result<Instruction, iced_x86::IcedError> {
    match bytes {
        1 => Instruction::with2(Code::Movzx_r32_rm8, r.full_register32(), m),
        2 => Instruction::with2(Code::Movzx_r32_rm16, r.full_register32(), m),
        4 => Instruction::with2(Code::Mov_r32_rm32, r.full_register32(), m),
        _ => Instruction::with2(Code::Mov_r64_rm64, r.full_register(), m),
    }
}

/// Scratch GPR for moving a vector destination back to the address chain.
const SCRATCH: Register = Register::R12;

/// Displacement of the memory value in `cycles_mem` chains (private to these kernels).
const MEM_CHAIN: i64 = 3072;

/// Whether [`SCRATCH`] is free in instance 0 of `v`.
fn scratch_free(v: &Variant, a: &Assign) -> bool {
    !a.regs
        .iter()
        .any(|r| r.is_gpr() && r.full_register() == SCRATCH)
        && !v.implicit_regs.contains(&SCRATCH)
        && !v
            .slots
            .iter()
            .any(|s| matches!(s, Slot::Fixed(r) if r.full_register() == SCRATCH))
}

/// One latency benchmark of a built kernel `k` (see [`lat`]).
fn addr_chain(
    k: Kernel,
    start: u32,
    target: u32,
    kind: LatKind,
    subtract: f64,
    upper: bool,
) -> (Spec, Role) {
    let (ca, cb) = copies_for(k.body.len(), 400);
    (
        Spec::Unrolled {
            kernel: k,
            copies_a: ca,
            copies_b: cb,
        },
        Role::Lat {
            start,
            target,
            kind,
            subtract,
            upper,
            slow: None,
        },
    )
}

/// A store of `bytes` of destination register `r` (class `c`) to `[r14 + MEM_CHAIN]`, in the
/// variant's encoding family.
fn store_back(v: &Variant, r: Register, c: RegClass, bytes: u32) -> Option<Instruction> {
    let m = MemoryOperand::with_base_displ(Register::R14, MEM_CHAIN);
    let n = reg_num(r);
    let enc = v.code.op_code().encoding();
    let code_reg = match family(c) {
        Family::Gpr => {
            let (code, reg) = match bytes {
                1 => (Code::Mov_rm8_r8, RegClass::Gpr(8).reg(n)),
                2 => (Code::Mov_rm16_r16, RegClass::Gpr(16).reg(n)),
                4 => (Code::Mov_rm32_r32, RegClass::Gpr(32).reg(n)),
                8 => (Code::Mov_rm64_r64, RegClass::Gpr(64).reg(n)),
                _ => return None,
            };
            (code, reg)
        }
        Family::Vec => {
            let legacy = enc == iced_x86::EncodingKind::Legacy;
            match bytes {
                _ if n >= 16 && bytes < 64 => return None,
                4 if legacy => (Code::Movd_rm32_xmm, RegClass::Xmm.reg(n)),
                4 => (Code::VEX_Vmovd_rm32_xmm, RegClass::Xmm.reg(n)),
                8 if legacy => (Code::Movq_xmmm64_xmm, RegClass::Xmm.reg(n)),
                8 => (Code::VEX_Vmovq_xmmm64_xmm, RegClass::Xmm.reg(n)),
                16 if legacy => (Code::Movups_xmmm128_xmm, RegClass::Xmm.reg(n)),
                16 => (Code::VEX_Vmovups_xmmm128_xmm, RegClass::Xmm.reg(n)),
                32 => (Code::VEX_Vmovups_ymmm256_ymm, RegClass::Ymm.reg(n)),
                64 => (Code::EVEX_Vmovups_zmmm512_k1z_zmm, RegClass::Zmm.reg(n)),
                _ => return None,
            }
        }
        _ => return None,
    };
    Instruction::with2(code_reg.0, m, code_reg.1).ok()
}
