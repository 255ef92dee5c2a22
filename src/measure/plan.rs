//! Planning: the microbenchmarks of one variant (throughput, latency chains, µop filler, port
//! blocking), each tagged with a [`Role`] saying how its result is interpreted.
//!
//! Register discipline: r14 = data base, r15 = loop counter, rsp untouched; r13 is reserved for
//! address chains; vector registers 14/15 (30/31 for EVEX) and k1 are reserved for blockers,
//! chain temporaries and the opmask. Written operands get distinct registers per independent
//! instance; read-only operands share registers taken from the end of the pool.

use iced_x86::{Code, Instruction, MemoryOperand, Register};
use serde::{Deserialize, Serialize};

use super::catalog::{instantiate, DivKind, OpRef, Operand, RegClass, Slot, Variant};
use super::harness::{Kernel, Spec};

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

/// Chain latencies measured once per run (cycles), used as subtrahends.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Basics {
    /// `movsxd r64, r32` chain.
    pub movsx: f64,
    /// Legacy `andpd x, x`.
    pub andpd: f64,
    /// Legacy `pand x, x`.
    pub pand: f64,
    /// VEX `vandpd y, y, y`.
    pub vandpd: f64,
    /// VEX `vpand y, y, y`.
    pub vpand: f64,
    /// EVEX `vpandq z, z, z`.
    pub vpandq: f64,
    /// EVEX `vandpd z, z, z`.
    pub evandpd: f64,
    /// `korq k, k, k`.
    pub korq: f64,
    /// MMX `por mm, mm`.
    pub por: f64,
    /// `test r, r; cmovz r, r` pair (TEST taken as 1 cycle).
    pub test_cmov: f64,
    /// `xor r13, rax; xor r13, rax` pair.
    pub xor2: f64,
    /// `and rax, r8; or rax, r8` pair.
    pub andor: f64,
    /// Legacy `andpd; orpd` pair.
    pub andorpd: f64,
}

impl Basics {
    /// The kernels that measure the basics, in field order.
    pub fn specs() -> Vec<(&'static str, Spec)> {
        let one = |ins: Vec<Instruction>, mmx: bool| Spec::Unrolled {
            kernel: Kernel {
                body: ins,
                uses_mmx: mmx,
                ..Kernel::default()
            },
            copies_a: 250,
            copies_b: 500,
        };
        let r2 = |c, a, b| Instruction::with2(c, a, b).expect("basic");
        let r3 = |c, a, b, d| Instruction::with3(c, a, b, d).expect("basic");
        vec![
            (
                "movsx",
                one(
                    vec![r2(Code::Movsxd_r64_rm32, Register::RAX, Register::EAX)],
                    false,
                ),
            ),
            (
                "andpd",
                one(
                    vec![r2(Code::Andpd_xmm_xmmm128, Register::XMM0, Register::XMM0)],
                    false,
                ),
            ),
            (
                "pand",
                one(
                    vec![r2(Code::Pand_xmm_xmmm128, Register::XMM0, Register::XMM0)],
                    false,
                ),
            ),
            (
                "vandpd",
                one(
                    vec![r3(
                        Code::VEX_Vandpd_ymm_ymm_ymmm256,
                        Register::YMM0,
                        Register::YMM0,
                        Register::YMM0,
                    )],
                    false,
                ),
            ),
            (
                "vpand",
                one(
                    vec![r3(
                        Code::VEX_Vpand_ymm_ymm_ymmm256,
                        Register::YMM0,
                        Register::YMM0,
                        Register::YMM0,
                    )],
                    false,
                ),
            ),
            (
                "vpandq",
                one(
                    vec![r3(
                        Code::EVEX_Vpandq_zmm_k1z_zmm_zmmm512b64,
                        Register::ZMM0,
                        Register::ZMM0,
                        Register::ZMM0,
                    )],
                    false,
                ),
            ),
            (
                "evandpd",
                one(
                    vec![r3(
                        Code::EVEX_Vandpd_zmm_k1z_zmm_zmmm512b64,
                        Register::ZMM0,
                        Register::ZMM0,
                        Register::ZMM0,
                    )],
                    false,
                ),
            ),
            (
                "korq",
                one(
                    vec![r3(
                        Code::VEX_Korq_kr_kr_kr,
                        Register::K2,
                        Register::K2,
                        Register::K2,
                    )],
                    false,
                ),
            ),
            (
                "por",
                one(
                    vec![r2(Code::Por_mm_mmm64, Register::MM0, Register::MM0)],
                    true,
                ),
            ),
            (
                "test_cmov",
                one(
                    vec![
                        r2(Code::Test_rm64_r64, Register::RAX, Register::RAX),
                        r2(Code::Cmove_r64_rm64, Register::RAX, Register::RAX),
                    ],
                    false,
                ),
            ),
            (
                "xor2",
                one(
                    vec![
                        r2(Code::Xor_r64_rm64, Register::RAX, Register::RCX),
                        r2(Code::Xor_r64_rm64, Register::RAX, Register::RCX),
                    ],
                    false,
                ),
            ),
            (
                "andor",
                one(
                    vec![
                        r2(Code::And_r64_rm64, Register::RAX, Register::RCX),
                        r2(Code::Or_r64_rm64, Register::RAX, Register::RCX),
                    ],
                    false,
                ),
            ),
            (
                "andorpd",
                one(
                    vec![
                        r2(Code::Andpd_xmm_xmmm128, Register::XMM0, Register::XMM1),
                        r2(Code::Orpd_xmm_xmmm128, Register::XMM0, Register::XMM1),
                    ],
                    false,
                ),
            ),
        ]
    }

    /// Fills the struct from measured values in [`Basics::specs`] order (None: unmeasured,
    /// the nominal value 1 per instruction is used).
    pub fn from_values(v: &[Option<f64>]) -> Self {
        let g = |i: usize, nominal: f64| {
            v.get(i)
                .copied()
                .flatten()
                .map(|x| x.round().max(0.0))
                .unwrap_or(nominal)
        };
        Basics {
            movsx: g(0, 1.0),
            andpd: g(1, 1.0),
            pand: g(2, 1.0),
            vandpd: g(3, 1.0),
            vpand: g(4, 1.0),
            vpandq: g(5, 1.0),
            evandpd: g(6, 1.0),
            korq: g(7, 1.0),
            por: g(8, 1.0),
            test_cmov: g(9, 2.0),
            xor2: g(10, 2.0),
            andor: g(11, 2.0),
            andorpd: g(12, 2.0),
        }
    }
}

/// A port-blocking instruction for one group of FP pipes.
#[derive(Clone, Debug, PartialEq)]
pub struct Blocker {
    /// Port string in uops.info notation (`FP01`).
    pub ports: String,
    /// Number of ports in the group.
    pub n_ports: usize,
    /// The instruction (writes the reserved temp vector register, reads the other).
    pub ins: Instruction,
    /// VEX.128 form, used next to legacy-SSE instructions (keeps the upper state clean).
    pub ins128: Instruction,
}

/// The Zen-style FP blocker table (VEX ymm, reserved registers 14/15).
pub fn zen_blockers() -> Vec<Blocker> {
    let y = |c: Code| {
        Instruction::with3(c, Register::YMM15, Register::YMM14, Register::YMM14).expect("blocker")
    };
    let x = |c: Code| {
        Instruction::with3(c, Register::XMM15, Register::XMM14, Register::XMM14).expect("blocker")
    };
    let shuf =
        |c: Code, a: Register, b: Register| Instruction::with3(c, a, b, 0x1bu32).expect("blocker");
    vec![
        Blocker {
            ports: "FP01".into(),
            n_ports: 2,
            ins: y(Code::VEX_Vmulpd_ymm_ymm_ymmm256),
            ins128: x(Code::VEX_Vmulpd_xmm_xmm_xmmm128),
        },
        Blocker {
            ports: "FP12".into(),
            n_ports: 2,
            ins: shuf(
                Code::VEX_Vpshufd_ymm_ymmm256_imm8,
                Register::YMM15,
                Register::YMM14,
            ),
            ins128: shuf(
                Code::VEX_Vpshufd_xmm_xmmm128_imm8,
                Register::XMM15,
                Register::XMM14,
            ),
        },
        Blocker {
            ports: "FP23".into(),
            n_ports: 2,
            ins: y(Code::VEX_Vaddpd_ymm_ymm_ymmm256),
            ins128: x(Code::VEX_Vaddpd_xmm_xmm_xmmm128),
        },
        Blocker {
            ports: "FP0123".into(),
            n_ports: 4,
            ins: y(Code::VEX_Vpor_ymm_ymm_ymmm256),
            ins128: x(Code::VEX_Vpor_xmm_xmm_xmmm128),
        },
    ]
}

/// Register pools for one variant.
#[derive(Clone, Debug)]
struct Pools {
    gpr: Vec<Register>,
    vec: Vec<u32>,
    k: Vec<u32>,
    mm: Vec<u32>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Family {
    Gpr,
    Vec,
    K,
    Mm,
}

fn family(c: RegClass) -> Family {
    match c {
        RegClass::Gpr(_) => Family::Gpr,
        RegClass::Xmm | RegClass::Ymm | RegClass::Zmm => Family::Vec,
        RegClass::K => Family::K,
        RegClass::Mm => Family::Mm,
    }
}

/// Upper bound of independent instances per throughput kernel.
pub const MAX_INSTANCES: usize = 12;

const GPR_POOL: [Register; 12] = [
    Register::RAX,
    Register::RCX,
    Register::RDX,
    Register::RBX,
    Register::RSI,
    Register::RDI,
    Register::RBP,
    Register::R8,
    Register::R9,
    Register::R10,
    Register::R11,
    Register::R12,
];

fn is_evex(v: &Variant) -> bool {
    v.code.op_code().encoding() == iced_x86::EncodingKind::EVEX
}

fn pools(v: &Variant) -> Pools {
    let fixed: Vec<Register> = v
        .slots
        .iter()
        .filter_map(|s| match s {
            Slot::Fixed(r) => Some(r.full_register()),
            _ => None,
        })
        .collect();
    let gpr = GPR_POOL
        .iter()
        .copied()
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
struct Assign {
    /// For each Reg slot (in slot order): register.
    regs: Vec<Register>,
    /// For each Mem slot: displacement.
    mems: Vec<i64>,
}

fn slot_written(v: &Variant, i: usize) -> bool {
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
fn max_instances(v: &Variant, p: &Pools) -> usize {
    let mut best = MAX_INSTANCES;
    for f in [Family::Gpr, Family::Vec, Family::K, Family::Mm] {
        let (mut nw, mut nr) = (0, 0);
        for (i, s) in v.slots.iter().enumerate() {
            if let Slot::Reg(c) = s {
                if family(*c) == f {
                    if slot_written(v, i) {
                        nw += 1;
                    } else {
                        nr += 1;
                    }
                }
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

fn assign(v: &Variant, p: &Pools, j: usize) -> Assign {
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

fn build(v: &Variant, a: &Assign, base: Register) -> Result<Instruction, String> {
    let mut ins = instantiate(v, &a.regs, &a.mems, imm_value(v))?;
    if base != Register::R14 {
        ins.set_memory_base(base);
    }
    Ok(ins)
}

/// Immediate used for every variant (uops.info's default 2; shifts/rotates of 2 are benign).
fn imm_value(_v: &Variant) -> u64 {
    2
}

fn zero_idiom(r: Register) -> Instruction {
    let r32 = r.full_register32();
    Instruction::with2(Code::Xor_r32_rm32, r32, r32).expect("xor")
}

#[allow(dead_code)]
fn vec_breaker(v: &Variant, r: Register) -> Instruction {
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

/// Copies so that the longer unrolled body holds about `target` instructions.
fn copies_for(body_len: usize, target: usize) -> (usize, usize) {
    let b = (target / body_len.max(1)).max(2);
    (b / 2, b)
}

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

/// Output of planning: specs and their roles, in the same order.
pub type Planned = Vec<(Spec, Role)>;

fn kernel(v: &Variant, body: Vec<Instruction>) -> Kernel {
    Kernel {
        body,
        uses_mmx: v.slots.iter().any(|s| matches!(s, Slot::Reg(RegClass::Mm))),
        ..Kernel::default()
    }
}

/// Phase 1: throughput and latencies.
pub fn phase1(v: &Variant, b: &Basics) -> Result<Planned, String> {
    if let Some(DivKind::Int(w)) = v.divide {
        return int_div_plan(v, w, b);
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
    out.extend(latency_plan(v, b, &p)?);
    Ok(out)
}

fn operand_reg(v: &Variant, a: &Assign, o: &Operand) -> Option<(Register, RegClass)> {
    match &o.what {
        OpRef::Explicit(i) => {
            let i = *i as usize;
            match &v.slots[i] {
                Slot::Reg(c) => {
                    let ri = v.slots[..i]
                        .iter()
                        .filter(|s| matches!(s, Slot::Reg(_)))
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

fn mem_slot_of(v: &Variant, o: &Operand) -> Option<usize> {
    match &o.what {
        OpRef::Explicit(i) if matches!(v.slots[*i as usize], Slot::Mem { .. }) => Some(*i as usize),
        _ => None,
    }
}

/// Chain instruction(s) from register `d` (class cd) back to register `s` (class cs), and
/// their known latency; `upper` if the latency is assumed.
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
    let sn = s.number() as u32;
    let dn = d.number() as u32;
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

fn latency_plan(v: &Variant, b: &Basics, p: &Pools) -> Result<Planned, String> {
    let mut out = Vec::new();
    let a0 = assign(v, p, 0);
    let i0 = build(v, &a0, Register::R14)?;
    let lat = |kernel_body: Vec<Instruction>,
               start: u32,
               target: u32,
               kind: LatKind,
               subtract: f64,
               upper: bool| {
        let (ca, cb) = copies_for(kernel_body.len(), 400);
        (
            Spec::Unrolled {
                kernel: kernel(v, kernel_body),
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
    };
    let cmov_lat = (b.test_cmov - 1.0).max(0.0);
    for s in v.operands.iter().filter(|o| o.read) {
        for d in v.operands.iter().filter(|o| o.write) {
            // Register (or mask / implicit GPR) → register.
            let sr = operand_reg(v, &a0, s);
            let dr = operand_reg(v, &a0, d);
            match (&s.what, &d.what, sr, dr) {
                (_, _, Some((rs, cs)), Some((rd, cd))) => {
                    if s.idx == d.idx
                        || rs.full_register() == rd.full_register() && family(cs) == family(cd)
                    {
                        // Same operand (read-write) or the same register: the instruction alone.
                        out.push(lat(vec![i0], s.idx, d.idx, LatKind::Reg, 0.0, false));
                        continue;
                    }
                    if let Some((chains, lats, upper)) = chain(v, b, rd, cd, rs, cs) {
                        for (c, l) in chains.into_iter().zip(lats) {
                            let mut body = vec![i0];
                            body.extend(c);
                            out.push(lat(body, s.idx, d.idx, LatKind::Reg, l, upper));
                        }
                    }
                    // Same-register variant for explicit operands of one family.
                    if let (OpRef::Explicit(si), OpRef::Explicit(di)) = (&s.what, &d.what) {
                        if family(cs) == family(cd)
                            && matches!(v.slots[*si as usize], Slot::Reg(_))
                            && matches!(v.slots[*di as usize], Slot::Reg(_))
                        {
                            let mut a = assign(v, p, 0);
                            let ri = |k: usize| {
                                v.slots[..k]
                                    .iter()
                                    .filter(|x| matches!(x, Slot::Reg(_)))
                                    .count()
                            };
                            let num = a.regs[ri(*di as usize)].number() as u32;
                            a.regs[ri(*si as usize)] = cs.reg(num);
                            if let Ok(ins) = build(v, &a, Register::R14) {
                                out.push(lat(
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
                // Flags → flags: the instruction alone.
                (OpRef::Flags, OpRef::Flags, _, _) => {
                    out.push(lat(vec![i0], s.idx, d.idx, LatKind::Reg, 0.0, false));
                }
                // Flags → GPR: TEST d, d closes the chain (TEST taken as 1 cycle).
                (OpRef::Flags, _, _, Some((rd, cd))) if family(cd) == Family::Gpr => {
                    let r = rd.full_register();
                    let t =
                        Instruction::with2(Code::Test_rm64_r64, r, r).map_err(|e| e.to_string())?;
                    out.push(lat(vec![i0, t], s.idx, d.idx, LatKind::Reg, 1.0, false));
                }
                // GPR → flags: CMOVcc s, s closes the chain.
                (_, OpRef::Flags, Some((rs, cs)), _) if family(cs) == Family::Gpr => {
                    let r = rs.full_register();
                    let c = Instruction::with2(flag_cmov(v), r, r).map_err(|e| e.to_string())?;
                    out.push(lat(
                        vec![i0, c],
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
                    let c = Instruction::with2(flag_cmov(v), Register::R13, Register::R13)
                        .map_err(|e| e.to_string())?;
                    let code = if v.code.op_code().encoding() == iced_x86::EncodingKind::Legacy {
                        Code::Movq_xmm_rm64
                    } else {
                        Code::VEX_Vmovq_xmm_rm64
                    };
                    let m = Instruction::with2(
                        code,
                        RegClass::Xmm.reg(rs.number() as u32),
                        Register::R13,
                    )
                    .map_err(|e| e.to_string())?;
                    out.push(lat(
                        vec![i0, c, m],
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
    // Memory operands.
    for s in v.operands.iter().filter(|o| o.read) {
        let Some(mslot) = mem_slot_of(v, s) else {
            continue;
        };
        let _ = mslot;
        for d in v.operands.iter().filter(|o| o.write) {
            if d.idx == s.idx {
                // Read-modify-write memory: the instruction alone on the same address.
                out.push(lat(vec![i0], s.idx, d.idx, LatKind::Mem, 0.0, false));
                continue;
            }
            // Address (base register r13) → GPR destination: double XOR keeps the address.
            if let Some((rd, cd)) = operand_reg(v, &a0, d) {
                if family(cd) == Family::Gpr {
                    let ins = build(v, &a0, Register::R13)?;
                    let x =
                        Instruction::with2(Code::Xor_r64_rm64, Register::R13, rd.full_register())
                            .map_err(|e| e.to_string())?;
                    let mut k = kernel(v, vec![ins, x, x]);
                    k.init.push(
                        Instruction::with2(
                            Code::Lea_r64_m,
                            Register::R13,
                            MemoryOperand::with_base(Register::R14),
                        )
                        .map_err(|e| e.to_string())?,
                    );
                    let (ca, cb) = copies_for(3, 400);
                    out.push((
                        Spec::Unrolled {
                            kernel: k,
                            copies_a: ca,
                            copies_b: cb,
                        },
                        Role::Lat {
                            start: s.idx,
                            target: d.idx,
                            kind: LatKind::Addr,
                            subtract: b.xor2,
                            upper: false,
                            slow: None,
                        },
                    ));
                }
            }
        }
    }
    // Register → memory (stores): load the value back into the source register (upper bound,
    // includes the load).
    for d in v.operands.iter().filter(|o| o.write) {
        let Some(mi) = mem_slot_of(v, d) else {
            continue;
        };
        for s in v.operands.iter().filter(|o| o.read && o.idx != d.idx) {
            let Some((rs, cs)) = operand_reg(v, &a0, s) else {
                continue;
            };
            if family(cs) != Family::Gpr {
                continue;
            }
            let midx = v.slots[..mi]
                .iter()
                .filter(|x| matches!(x, Slot::Mem { .. }))
                .count();
            let m = MemoryOperand::with_base_displ(Register::R14, a0.mems[midx]);
            let load = Instruction::with2(Code::Mov_r64_rm64, rs.full_register(), m)
                .map_err(|e| e.to_string())?;
            out.push(lat(vec![i0, load], s.idx, d.idx, LatKind::Reg, 0.0, true));
        }
    }
    Ok(out)
}

fn int_div_plan(v: &Variant, w: u32, b: &Basics) -> Result<Planned, String> {
    // Operands: divisor in RBX/[mem]; AX/DX set per instance with MOV (breaks dependencies).
    let divisor_reg = RegClass::Gpr(w).reg(Register::RBX.number() as u32);
    let a = Assign {
        regs: vec![divisor_reg],
        mems: vec![4096],
    };
    let ins = instantiate(v, &a.regs, &a.mems, 0)?;
    let mut out = Vec::new();
    let rax_idx = v
        .operands
        .iter()
        .find(|o| o.what == OpRef::Implicit(Register::RAX))
        .map(|o| o.idx);
    for slow in [false, true] {
        let (ax, dx, div) = div_values(w, slow);
        let mut k = kernel(v, Vec::new());
        k.gpr_init = vec![(Register::RBX, div), (Register::R8, ax), (Register::R9, dx)];
        k.init.push(
            Instruction::with2(
                Code::Mov_rm64_r64,
                MemoryOperand::with_base_displ(Register::R14, 4096),
                Register::RBX,
            )
            .map_err(|e| e.to_string())?,
        );
        let mv = |r: Register, val: Register| {
            Instruction::with2(Code::Mov_r64_rm64, r, val).expect("mov")
        };
        // Throughput: mov rax, r8; mov rdx, r9; div.
        let mut tk = k.clone();
        tk.body = vec![
            mv(Register::RAX, Register::R8),
            mv(Register::RDX, Register::R9),
            ins,
        ];
        if w == 8 {
            tk.body = vec![mv(Register::RAX, Register::R8), ins];
        }
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

/// Phase 2: µop filler (needs the throughput) and, for vector instructions, port blocking.
pub fn phase2(v: &Variant, tp: f64, blockers: &[Blocker]) -> Result<Planned, String> {
    let mut out = Vec::new();
    if matches!(v.divide, Some(DivKind::Int(_))) {
        return Ok(out);
    }
    let p = pools(v);
    let n = max_instances(v, &p).clamp(1, MAX_INSTANCES);
    let insts: Vec<Instruction> = (0..n)
        .map(|j| build(v, &assign(v, &p, j), Register::R14))
        .collect::<Result<_, _>>()?;
    // Filler: a zero idiom on r13 (reserved: no instance uses it).
    let k = (6.0 * tp).ceil() as usize + 8;
    let mut body = Vec::new();
    for ins in &insts {
        body.push(*ins);
        for _ in 0..k {
            body.push(zero_idiom(Register::R13));
        }
    }
    let (ca, cb) = copies_for(body.len(), 800);
    out.push((
        Spec::Unrolled {
            kernel: kernel(v, body),
            copies_a: ca,
            copies_b: cb,
        },
        Role::Filler { k },
    ));
    // Port blocking only for pipelined vector instructions (a non-pipelined divider does not
    // interfere like a port).
    let uses_vec = v
        .slots
        .iter()
        .any(|s| matches!(s, Slot::Reg(c) if c.is_vec()));
    if uses_vec && v.divide.is_none() {
        for (g, bl) in blockers.iter().enumerate() {
            let kb = bl.n_ports * ((2.0 * tp + 1.0).ceil() as usize).max(2);
            let legacy = v.code.op_code().encoding() == iced_x86::EncodingKind::Legacy;
            let mut body = Vec::new();
            for ins in &insts {
                for _ in 0..kb {
                    body.push(if legacy { bl.ins128 } else { bl.ins });
                }
                body.push(*ins);
            }
            let (ca, cb) = copies_for(body.len(), 1500);
            out.push((
                Spec::Unrolled {
                    kernel: kernel(v, body),
                    copies_a: ca,
                    copies_b: cb,
                },
                Role::Block { group: g, k: kb },
            ));
        }
    }
    Ok(out)
}

/// Blocker kernels alone (validation: each must run at 1/|ports| per instruction).
pub fn blocker_specs(blockers: &[Blocker]) -> Vec<Spec> {
    blockers
        .iter()
        .map(|b| Spec::Unrolled {
            kernel: Kernel {
                body: vec![b.ins],
                ..Kernel::default()
            },
            copies_a: 500,
            copies_b: 1000,
        })
        .collect()
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
