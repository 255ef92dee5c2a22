//! Dividers: latency and throughput depend on the operand values (uops.info §5.2.5
//! "Divisions", cpuBench): slow and fast values from Fog's test scripts; the operand is reset to
//! the same value after every division.

use iced_x86::{Code, EncodingKind, Instruction, MemoryOperand, Register};

use super::super::catalog::{instantiate, DivKind, OpRef, RegClass, Slot, Variant};
use super::super::harness::{self, Kernel, Spec};
use super::regs::{assign, build, is_evex, slot_written, zero_idiom, Assign, Pools};
use super::{copies_for, kernel, Basics, Form, LatKind, PlanError, Planned, Role};

/// Integer division operand values (slow, fast): (rax, rdx, divisor).
pub fn div_values(width: u32, slow: bool) -> (u64, u64, u64) {
    if !slow {
        return (0, 0, 1);
    }
    match width {
        8 => (13057, 0, 123),
        16 => (133, 0x343a, 0x75e6),
        32 => (133, 0x343a_9ed7, 0x75e6_e44f),
        _ => (133, 0x343a_9ed7_4455_6677, 0x75e6_e44f_ccdd_eeff),
    }
}

/// The integer divider's kernel parts: the base kernel (divisor in RBX and at `[r14+4096]`,
/// dividend halves in R8/R9) and the division instruction.
fn int_div_base(v: &Variant, w: u32, slow: bool) -> Result<(Kernel, Instruction), PlanError> {
    let divisor_reg = RegClass::Gpr(w).reg(Register::RBX.number() as u32);
    let a = Assign {
        regs: vec![divisor_reg],
        mems: vec![4096],
    };
    let ins = instantiate(v, &a.regs, &a.mems, 0)?;
    let (ax, dx, div) = div_values(w, slow);
    let mut k = kernel(v, Vec::new());
    k.gpr_init = vec![(Register::RBX, div), (Register::R8, ax), (Register::R9, dx)];
    k.init.push(Instruction::with2(
        Code::Mov_rm64_r64,
        MemoryOperand::with_base_displ(Register::R14, 4096),
        Register::RBX,
    )?);
    Ok((k, ins))
}

/// Throughput body: `mov rax, r8; mov rdx, r9; div` (independent divisions: the moves break
/// the dependency through RAX/RDX). Returns the body and the number of moves.
fn int_div_body(w: u32, ins: Instruction) -> (Vec<Instruction>, usize) {
    let mv =
        |r: Register, val: Register| Instruction::with2(Code::Mov_r64_rm64, r, val).expect("mov");
    if w == 8 {
        (vec![mv(Register::RAX, Register::R8), ins], 1)
    } else {
        (
            vec![
                mv(Register::RAX, Register::R8),
                mv(Register::RDX, Register::R9),
                ins,
            ],
            2,
        )
    }
}

/// Dispatch filler of an integer division (fast operands): the throughput body plus `k` zero
/// idioms; the moves count with the fillers.
pub(super) fn int_div_filler(v: &Variant, w: u32, tp: f64) -> Result<(Spec, Role), PlanError> {
    let (mut k, ins) = int_div_base(v, w, false)?;
    let (mut body, moves) = int_div_body(w, ins);
    let fill = (6.0 * tp).ceil() as usize + 8;
    body.extend((0..fill).map(|_| zero_idiom(Register::R13)));
    k.body = body;
    let (ca, cb) = copies_for(k.body.len(), 800);
    Ok((
        Spec::Unrolled {
            kernel: k,
            copies_a: ca,
            copies_b: cb,
        },
        Role::Filler {
            k: fill + moves,
            form: Form::Base,
        },
    ))
}

pub(super) fn int_div_plan(v: &Variant, w: u32, b: &Basics) -> Result<Planned, PlanError> {
    let mut out = Vec::new();
    let rax_idx = v
        .operands
        .iter()
        .find(|o| o.what == OpRef::Implicit(Register::RAX))
        .map(|o| o.idx);
    for slow in [false, true] {
        let (ax, dx, _) = div_values(w, slow);
        let (k, ins) = int_div_base(v, w, slow)?;
        let mut tk = k.clone();
        tk.body = int_div_body(w, ins).0;
        out.push((
            Spec::Unrolled {
                kernel: tk,
                copies_a: 50,
                copies_b: 100,
            },
            Role::Tp {
                instances: 1,
                loop_: false,
                slow: Some(slow),
                form: Form::Base,
            },
        ));
        // Latency RAX → RAX: reset the value with AND/OR (keeps the dependency).
        if let Some(ri) = rax_idx {
            let mut lk = k.clone();
            let and = |r, c| Instruction::with2(Code::And_r64_rm64, r, c).expect("and");
            let or = |r, c| Instruction::with2(Code::Or_r64_rm64, r, c).expect("or");
            lk.body = vec![
                ins,
                and(Register::RAX, Register::R8),
                or(Register::RAX, Register::R8),
            ];
            if w != 8 {
                lk.body.push(and(Register::RDX, Register::R9));
                lk.body.push(or(Register::RDX, Register::R9));
            }
            // Start values must be the reset values: set RAX/RDX in the kernel prologue.
            lk.gpr_init.push((Register::RAX, ax));
            lk.gpr_init.push((Register::RDX, dx));
            out.push((
                Spec::Unrolled {
                    kernel: lk,
                    copies_a: 50,
                    copies_b: 100,
                },
                Role::Lat {
                    start: ri,
                    target: ri,
                    kind: LatKind::Reg,
                    subtract: b.andor,
                    upper: false,
                    slow: Some(slow),
                },
            ));
        }
    }
    Ok(out)
}

/// FP divide/sqrt operand values as 64-bit lane patterns: (dividend or sqrt source, divisor)
/// for slow (Fog's constants, as cpuBench uses them) or fast (1.0) operands.
pub fn fp_div_values(kind: DivKind, sqrt: bool, slow: bool) -> (u64, u64) {
    let single = |x: u32| (x as u64) << 32 | x as u64;
    match (kind, sqrt, slow) {
        (DivKind::FpSingle, _, false) => (single(0x3F80_0000), single(0x3F80_0000)),
        (_, _, false) => (0x3FF0_0000_0000_0000, 0x3FF0_0000_0000_0000),
        (DivKind::FpSingle, true, true) => (single(0x72D3_0FF1), single(0x72D3_0FF1)),
        (DivKind::FpSingle, false, true) => (single(0x54ED_3926), single(0x3F99_F4C0)),
        (_, true, true) => (0x465A_61FE_1ACD_C21C, 0x465A_61FE_1ACD_C21C),
        (_, false, true) => (0x429D_A724_B687_DA66, 0x3FF3_3E97_F934_078B),
    }
}

/// Displacement (from r14) of the divisor constant read by memory forms of FP dividers.
const DIVISOR_MEM: i64 = harness::OFF_CONST;

/// Registers holding the dividend and the divisor constants (the reserved 14/15, or 30/31 for
/// EVEX) and the width they are used at.
fn const_regs(v: &Variant) -> (u32, u32) {
    if is_evex(v) {
        (30, 31)
    } else {
        (14, 15)
    }
}

/// Kernel prologue instructions putting `value` into every 64-bit lane of vector register
/// `n` (through r13), in the variant's encoding family (legacy SSE kernels stay VEX-free).
fn splat(v: &Variant, n: u32, value: u64) -> Vec<Instruction> {
    let mut out = vec![Instruction::with2(Code::Mov_r64_imm64, Register::R13, value).expect("mov")];
    match v.code.op_code().encoding() {
        EncodingKind::EVEX => out.push(
            Instruction::with2(
                Code::EVEX_Vpbroadcastq_zmm_k1z_r64,
                RegClass::Zmm.reg(n),
                Register::R13,
            )
            .expect("vpbroadcastq"),
        ),
        EncodingKind::VEX => {
            let x = RegClass::Xmm.reg(n);
            out.push(
                Instruction::with2(Code::VEX_Vmovq_xmm_rm64, x, Register::R13).expect("vmovq"),
            );
            out.push(
                Instruction::with2(Code::VEX_Vpbroadcastq_ymm_xmmm64, RegClass::Ymm.reg(n), x)
                    .expect("vpbroadcastq"),
            );
        }
        _ => {
            let x = RegClass::Xmm.reg(n);
            out.push(Instruction::with2(Code::Movq_xmm_rm64, x, Register::R13).expect("movq"));
            out.push(
                Instruction::with3(Code::Pshufd_xmm_xmmm128_imm8, x, x, 0x44u32).expect("pshufd"),
            );
        }
    }
    out
}

/// Stores the full vector register `n` at `[r14 + DIVISOR_MEM]`.
fn store_const(v: &Variant, n: u32) -> Instruction {
    let m = MemoryOperand::with_base_displ(Register::R14, DIVISOR_MEM);
    match v.code.op_code().encoding() {
        EncodingKind::EVEX => {
            Instruction::with2(Code::EVEX_Vmovups_zmmm512_k1z_zmm, m, RegClass::Zmm.reg(n))
        }
        EncodingKind::VEX => {
            Instruction::with2(Code::VEX_Vmovups_ymmm256_ymm, m, RegClass::Ymm.reg(n))
        }
        _ => Instruction::with2(Code::Movups_xmmm128_xmm, m, RegClass::Xmm.reg(n)),
    }
    .expect("store")
}

/// A copy of vector register `from` into `to` (the class of `to`), in the variant's encoding.
fn vec_move(v: &Variant, to: Register, from_n: u32) -> Instruction {
    let c = class_of(to);
    match v.code.op_code().encoding() {
        EncodingKind::EVEX => Instruction::with2(
            Code::EVEX_Vmovaps_zmm_k1z_zmmm512,
            RegClass::Zmm.reg(to.number() as u32),
            RegClass::Zmm.reg(from_n),
        ),
        EncodingKind::VEX if c == RegClass::Ymm => {
            Instruction::with2(Code::VEX_Vmovaps_ymm_ymmm256, to, RegClass::Ymm.reg(from_n))
        }
        EncodingKind::VEX => {
            Instruction::with2(Code::VEX_Vmovaps_xmm_xmmm128, to, RegClass::Xmm.reg(from_n))
        }
        _ => Instruction::with2(Code::Movaps_xmm_xmmm128, to, RegClass::Xmm.reg(from_n)),
    }
    .expect("move")
}

fn class_of(r: Register) -> RegClass {
    if r.is_zmm() {
        RegClass::Zmm
    } else if r.is_ymm() {
        RegClass::Ymm
    } else {
        RegClass::Xmm
    }
}

/// `and`/`or` of a vector register with another, in the variant's encoding (for resetting an
/// operand to a constant while keeping the dependency: `(x & c) | c = c`).
fn vec_logic(v: &Variant, or: bool, dst: Register, src_n: u32) -> Instruction {
    let c = class_of(dst);
    let n = dst.number() as u32;
    match v.code.op_code().encoding() {
        EncodingKind::EVEX => {
            let code = if or {
                Code::EVEX_Vorpd_zmm_k1z_zmm_zmmm512b64
            } else {
                Code::EVEX_Vandpd_zmm_k1z_zmm_zmmm512b64
            };
            let z = RegClass::Zmm.reg(n);
            Instruction::with3(code, z, z, RegClass::Zmm.reg(src_n))
        }
        EncodingKind::VEX if c == RegClass::Ymm => {
            let code = if or {
                Code::VEX_Vorpd_ymm_ymm_ymmm256
            } else {
                Code::VEX_Vandpd_ymm_ymm_ymmm256
            };
            Instruction::with3(code, dst, dst, RegClass::Ymm.reg(src_n))
        }
        EncodingKind::VEX => {
            let code = if or {
                Code::VEX_Vorpd_xmm_xmm_xmmm128
            } else {
                Code::VEX_Vandpd_xmm_xmm_xmmm128
            };
            let x = RegClass::Xmm.reg(n);
            Instruction::with3(code, x, x, RegClass::Xmm.reg(src_n))
        }
        _ => {
            let code = if or {
                Code::Orpd_xmm_xmmm128
            } else {
                Code::Andpd_xmm_xmmm128
            };
            Instruction::with2(code, RegClass::Xmm.reg(n), RegClass::Xmm.reg(src_n))
        }
    }
    .expect("logic")
}

/// Explicit vector operands of `v` that are read (slot index, assigned-register position).
fn vec_sources(v: &Variant) -> Vec<usize> {
    v.slots
        .iter()
        .enumerate()
        .filter(|(i, s)| {
            matches!(s, Slot::Reg(c) if c.is_vec())
                && v.operands
                    .iter()
                    .any(|o| o.what == OpRef::Explicit(*i as u32) && o.read)
        })
        .map(|(i, _)| i)
        .collect()
}

fn reg_pos(v: &Variant, slot: usize) -> usize {
    v.slots[..slot]
        .iter()
        .filter(|s| matches!(s, Slot::Reg(_)))
        .count()
}

/// FP divide/sqrt: throughput and latency with fast and slow operand values. Read-only
/// sources are the constant registers; a read-write dividend is reset from its constant
/// before every instance (throughput) or by `and`/`or` with it (latency chains).
pub(super) fn fp_div_plan(
    v: &Variant,
    b: &Basics,
    p: &Pools,
    n: usize,
) -> Result<Planned, PlanError> {
    let Some(kind) = v.divide else {
        return Ok(Vec::new());
    };
    let sqrt = format!("{:?}", v.code.mnemonic())
        .to_uppercase()
        .contains("SQRT");
    let (dividend_n, divisor_n) = const_regs(v);
    let sources = vec_sources(v);
    let divisor_slot = v
        .slots
        .iter()
        .rposition(|s| matches!(s, Slot::Mem { .. }))
        .or_else(|| sources.last().copied());
    let logic_lat = match v.code.op_code().encoding() {
        EncodingKind::EVEX => b.evandpd,
        EncodingKind::VEX => b.vandpd,
        _ => b.andpd,
    };
    let k = DivConsts {
        sqrt,
        divisor_slot,
        dividend_n,
        divisor_n,
        sources,
        logic_lat,
    };
    let sources = &k.sources;
    let mut out = Vec::new();
    for slow in [false, true] {
        let (dividend, divisor) = fp_div_values(kind, sqrt, slow);
        let mut init = splat(v, dividend_n, dividend);
        init.extend(splat(v, divisor_n, divisor));
        init.push(store_const(v, divisor_n));
        // Throughput.
        let mut body = Vec::new();
        for j in 0..n {
            let mut a = assign(v, p, j);
            let mut resets = Vec::new();
            for &s in sources {
                let pos = reg_pos(v, s);
                if slot_written(v, s) {
                    resets.push(vec_move(v, a.regs[pos], k.const_for(s)));
                } else if let Slot::Reg(c) = v.slots[s] {
                    a.regs[pos] = c.reg(k.const_for(s));
                }
            }
            for m in a.mems.iter_mut() {
                *m = DIVISOR_MEM;
            }
            body.extend(resets);
            body.push(build(v, &a, Register::R14)?);
        }
        let mut tp = kernel(v, body);
        tp.init = init.clone();
        let (ca, cb) = copies_for(tp.body.len(), 600);
        out.push((
            Spec::Unrolled {
                kernel: tp,
                copies_a: ca,
                copies_b: cb,
            },
            Role::Tp {
                instances: n,
                loop_: false,
                slow: Some(slow),
                form: Form::Base,
            },
        ));
        fp_div_latencies(v, p, &k, &init, slow, &mut out)?;
    }
    Ok(out)
}

/// What the FP divider benchmarks of one variant share: the constant registers holding the
/// dividend and divisor, the vector sources, and the latency of the logic ops that close a
/// chain.
struct DivConsts {
    sqrt: bool,
    divisor_slot: Option<usize>,
    dividend_n: u32,
    divisor_n: u32,
    sources: Vec<usize>,
    logic_lat: f64,
}

impl DivConsts {
    /// The constant register an operand slot reads.
    fn const_for(&self, slot: usize) -> u32 {
        if !self.sqrt && Some(slot) == self.divisor_slot {
            self.divisor_n
        } else {
            self.dividend_n
        }
    }
}

/// Latency from each vector source to each written vector operand, with slow or fast values.
fn fp_div_latencies(
    v: &Variant,
    p: &Pools,
    k: &DivConsts,
    init: &[Instruction],
    slow: bool,
    out: &mut Planned,
) -> Result<(), PlanError> {
    let sources = &k.sources;
    let logic_lat = k.logic_lat;
    let a0 = assign(v, p, 0);
    for &s in sources {
        let Some(so) = v
            .operands
            .iter()
            .find(|o| o.what == OpRef::Explicit(s as u32))
        else {
            continue;
        };
        for d in v.operands.iter().filter(|o| o.write) {
            let OpRef::Explicit(di) = d.what else {
                continue;
            };
            let di = di as usize;
            if !matches!(v.slots[di], Slot::Reg(c) if c.is_vec()) {
                continue;
            }
            let mut a = a0.clone();
            for &o in sources {
                if o != s && !slot_written(v, o) {
                    if let Slot::Reg(c) = v.slots[o] {
                        a.regs[reg_pos(v, o)] = c.reg(k.const_for(o));
                    }
                }
            }
            for m in a.mems.iter_mut() {
                *m = DIVISOR_MEM;
            }
            let rs = a.regs[reg_pos(v, s)];
            let rd = a.regs[reg_pos(v, di)];
            let mut chain = vec![build(v, &a, Register::R14)?];
            let mut subtract = 2.0 * logic_lat;
            if rs.number() != rd.number() {
                chain.push(vec_logic(v, false, rs, rd.number() as u32));
                subtract += logic_lat;
            }
            chain.push(vec_logic(v, false, rs, k.const_for(s)));
            chain.push(vec_logic(v, true, rs, k.const_for(s)));
            let mut kern = kernel(v, chain);
            kern.init = init.to_vec();
            let (ca, cb) = copies_for(kern.body.len(), 200);
            out.push((
                Spec::Unrolled {
                    kernel: kern,
                    copies_a: ca,
                    copies_b: cb,
                },
                Role::Lat {
                    start: so.idx,
                    target: d.idx,
                    kind: LatKind::Reg,
                    subtract,
                    upper: false,
                    slow: Some(slow),
                },
            ));
        }
    }
    Ok(())
}
