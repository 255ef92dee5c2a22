//! Phase 2/3 kernels: the µop filler (dispatch slots from interleaved zero idioms), port
//! blocking (the instruction next to saturating blockers of one port combination) and
//! macro-fusion pairs (the instruction followed by a Jcc, against the dispatch limit).
//!
//! Blockers (uops.info §5.1.1): for each port combination a 1-µop instruction sequence that
//! runs only there. Without per-port counters the table below names candidates; the run keeps,
//! per combination, the first one whose throughput is 1/|ports| and whose interference with the
//! other blockers matches the combination structure ([`interference_specs`]).

use iced_x86::{Code, Instruction, MemoryOperand, Register};

use super::super::catalog::{DivKind, RegClass, Slot, Variant};
use super::super::harness::{branch_to_next, Kernel, Spec};
use super::counters_names;
use super::regs::{max_instances, pools, zero_idiom, MAX_INSTANCES};
use super::{copies_for, form_instances, form_kernel, kernel, Form, PlanError, Planned, Role};

/// Which execution resources a blocker saturates.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Domain {
    /// FP/vector pipes.
    Fp,
    /// Integer ALUs.
    Int,
    /// Address generation (loads and stores).
    Agu,
}

/// A port-blocking instruction sequence (one µop on the combination per copy).
#[derive(Clone, Debug, PartialEq)]
pub struct Blocker {
    /// Port combination in the arch's notation (`FP01`, `ALU12`, `AGU012`).
    pub ports: String,
    /// Number of ports in the combination.
    pub n_ports: usize,
    /// Resources it blocks.
    pub domain: Domain,
    /// What it is, for messages (`vmulpd ymm`).
    pub name: String,
    /// One copy (writes only reserved registers: ymm15/r13).
    pub seq: Vec<Instruction>,
    /// The copy used next to legacy-SSE instructions (VEX.128 keeps the upper state clean).
    pub seq128: Vec<Instruction>,
    /// Every other copy, where copies must differ (Golden Cove's load blocker alternates
    /// two addresses: Redwood Cove reads at most two loads a cycle that touch one L1 bank);
    /// `None`: all copies alike.
    pub odd: Option<Vec<Instruction>>,
}

impl Blocker {
    pub(super) fn new(ports: &str, domain: Domain, name: &str, seq: Vec<Instruction>) -> Self {
        Blocker {
            ports: ports.into(),
            n_ports: counters_names(ports),
            domain,
            name: name.into(),
            seq128: seq.clone(),
            seq,
            odd: None,
        }
    }

    /// Copy `i` of the blocker (next to legacy SSE with `legacy`).
    pub fn copy(&self, i: usize, legacy: bool) -> &[Instruction] {
        match &self.odd {
            Some(odd) if i % 2 == 1 => odd,
            _ if legacy => &self.seq128,
            _ => &self.seq,
        }
    }

    /// Copies in one period of the blocker (2 where they alternate).
    pub fn period(&self) -> usize {
        if self.odd.is_some() {
            2
        } else {
            1
        }
    }
}

/// A blocker of one vector instruction `ymm15, ymm14, ymm14` (`xmm15, xmm14, xmm14` next to
/// legacy SSE, which the 128-bit VEX form keeps clean), `xmm` none: the ymm form there too.
pub(super) fn vector_blocker(ports: &str, name: &str, ymm: Code, xmm: Option<Code>) -> Blocker {
    let three = |c: Code, d: Register, s: Register| {
        Instruction::with3(c, d, s, s).expect("a three-register vector blocker")
    };
    let wide = three(ymm, Register::YMM15, Register::YMM14);
    Blocker {
        seq128: vec![xmm.map_or(wide, |c| three(c, Register::XMM15, Register::XMM14))],
        ..Blocker::new(ports, Domain::Fp, name, vec![wide])
    }
}

/// Candidate blockers for Zen (2–5): FP pipes in uops.info's notation; integer ALUs and AGUs
/// in ours (`ALU0123`, `ALU1` multiply, `ALU12` shifts, `ALU03` conditional moves/SETcc,
/// `AGU012`; which two ALUs hold the shifts is a naming convention: the measurements fix only
/// sizes and inclusions). Several candidates per combination, in order of preference.
///
/// Long: a table, one entry per candidate blocker.
pub fn zen_candidates() -> Vec<Blocker> {
    let shuf =
        |c: Code, a: Register, b: Register| Instruction::with3(c, a, b, 0x1bu32).expect("blocker");
    let fp = |ports: &str, name: &str, i: Instruction, i128: Instruction| Blocker {
        seq128: vec![i128],
        ..Blocker::new(ports, Domain::Fp, name, vec![i])
    };
    let r13 = Register::R13;
    let r14 = Register::R14;
    let int = |ports: &str, name: &str, seq: Vec<Instruction>| {
        Blocker::new(ports, Domain::Int, name, seq)
    };
    let i2 = |c: Code, a: Register, b: Register| Instruction::with2(c, a, b).expect("blocker");
    let i3 = |c: Code, a: Register, b: Register, d: Register| {
        Instruction::with3(c, a, b, d).expect("blocker")
    };
    vec![
        vector_blocker(
            "FP01",
            "vmulpd",
            Code::VEX_Vmulpd_ymm_ymm_ymmm256,
            Some(Code::VEX_Vmulpd_xmm_xmm_xmmm128),
        ),
        fp(
            "FP12",
            "vpshufd",
            shuf(
                Code::VEX_Vpshufd_ymm_ymmm256_imm8,
                Register::YMM15,
                Register::YMM14,
            ),
            shuf(
                Code::VEX_Vpshufd_xmm_xmmm128_imm8,
                Register::XMM15,
                Register::XMM14,
            ),
        ),
        vector_blocker(
            "FP12",
            "vpshufb",
            Code::VEX_Vpshufb_ymm_ymm_ymmm256,
            Some(Code::VEX_Vpshufb_xmm_xmm_xmmm128),
        ),
        vector_blocker(
            "FP12",
            "vpunpcklqdq",
            Code::VEX_Vpunpcklqdq_ymm_ymm_ymmm256,
            Some(Code::VEX_Vpunpcklqdq_xmm_xmm_xmmm128),
        ),
        vector_blocker(
            "FP23",
            "vaddpd",
            Code::VEX_Vaddpd_ymm_ymm_ymmm256,
            Some(Code::VEX_Vaddpd_xmm_xmm_xmmm128),
        ),
        vector_blocker(
            "FP0123",
            "vpor",
            Code::VEX_Vpor_ymm_ymm_ymmm256,
            Some(Code::VEX_Vpor_xmm_xmm_xmmm128),
        ),
        int(
            "ALU0123",
            "movsxd r13, r14d",
            vec![i2(Code::Movsxd_r64_rm32, r13, Register::R14D)],
        ),
        int(
            "ALU0123",
            "lea r13, [r14+8]",
            vec![
                Instruction::with2(Code::Lea_r64_m, r13, MemoryOperand::with_base_displ(r14, 8))
                    .expect("lea"),
            ],
        ),
        int(
            "ALU1",
            "imul r13, r14, 3",
            vec![Instruction::with3(Code::Imul_r64_rm64_imm8, r13, r14, 3u32).expect("imul")],
        ),
        int(
            "ALU1",
            "pdep r13, r14, r14",
            vec![i3(Code::VEX_Pdep_r64_r64_rm64, r13, r14, r14)],
        ),
        int(
            "ALU12",
            "shlx r13, r14, r14",
            vec![i3(Code::VEX_Shlx_r64_rm64_r64, r13, r14, r14)],
        ),
        int(
            "ALU12",
            "rorx r13, r14, 3",
            vec![Instruction::with3(Code::VEX_Rorx_r64_rm64_imm8, r13, r14, 3u32).expect("rorx")],
        ),
        // CMOVcc reads its destination: a zero idiom (no port) cuts the chain each time.
        int(
            "ALU03",
            "xor r13d, r13d; cmovz r13, r14",
            vec![zero_idiom(r13), i2(Code::Cmove_r64_rm64, r13, r14)],
        ),
        // The load address is 1536 mod 2048 away from the instructions' memory operands
        // (read-only at 2048 + 64·i, written from 4096 on): Zen 4 holds back a load behind an
        // older store whose address matches in the low 11 bits.
        Blocker::new(
            "AGU012",
            Domain::Agu,
            "mov r13, [r14+3584]",
            vec![Instruction::with2(
                Code::Mov_r64_rm64,
                r13,
                MemoryOperand::with_base_displ(r14, 3584),
            )
            .expect("load")],
        ),
    ]
}

/// Blocker kernels alone, a period each (each must run at 1/|ports| per copy).
pub fn blocker_specs(blockers: &[Blocker]) -> Vec<Spec> {
    blockers
        .iter()
        .map(|b| {
            let body: Vec<Instruction> = (0..b.period())
                .flat_map(|i| b.copy(i, false).iter().copied())
                .collect();
            let (ca, cb) = copies_for(body.len(), 1000);
            Spec::Unrolled {
                kernel: Kernel {
                    body,
                    ..Kernel::default()
                },
                copies_a: ca,
                copies_b: cb,
            }
        })
        .collect()
}

/// Whether two blockers are compared with each other: within one domain (the structure
/// that matters is inclusion among combinations of the same units).
fn comparable(a: &Blocker, b: &Blocker) -> bool {
    a.domain == b.domain
}

/// Structure check of chosen blockers: for every comparable ordered pair (A, B), a kernel of
/// 4 × (2·|A| copies of A, one B), and the µops of B that must go to A's ports: 1 if B's
/// combination lies inside A's, else 0. Returns (a, b, spec, blockers per B, expected).
pub fn interference_specs(chosen: &[Blocker]) -> Vec<(usize, usize, Spec, usize, f64)> {
    let mut out = Vec::new();
    for (ia, a) in chosen.iter().enumerate() {
        for (ib, b) in chosen.iter().enumerate() {
            if ia == ib || !comparable(a, b) {
                continue;
            }
            let k = 2 * a.n_ports;
            let mut body = Vec::new();
            for _ in 0..4 {
                for i in 0..k {
                    body.extend(a.copy(i, false).iter().copied());
                }
                body.extend(b.seq.iter().copied());
            }
            let (ca, cb) = copies_for(body.len(), 1200);
            let inside = super::super::counters::port_names(&b.ports)
                .is_subset(&super::super::counters::port_names(&a.ports));
            out.push((
                ia,
                ib,
                Spec::Unrolled {
                    kernel: Kernel {
                        body,
                        ..Kernel::default()
                    },
                    copies_a: ca,
                    copies_b: cb,
                },
                k,
                if inside { 1.0 } else { 0.0 },
            ));
        }
    }
    out
}

/// Which blocking domains apply to `v`.
pub fn domains_of(v: &Variant) -> Vec<Domain> {
    let mut d = Vec::new();
    if v.divide.is_some() {
        // A non-pipelined divider does not interfere like a port.
        return d;
    }
    let vec_like = v.slots.iter().any(
        |s| matches!(s, Slot::Reg(c) if c.is_vec() || matches!(c, RegClass::Mm | RegClass::K)),
    );
    let int_like = v.slots.iter().any(|s| match s {
        Slot::Reg(RegClass::Gpr(_)) => true,
        Slot::Fixed(r) => r.is_gpr(),
        _ => false,
    }) || !v.implicit_regs.is_empty()
        || v.flags_read != 0
        || v.flags_written != 0
        // Legacy instructions without vector operands work on integers (NOT m64).
        || (v.code.op_code().encoding() == iced_x86::EncodingKind::Legacy && !vec_like);
    if vec_like {
        d.push(Domain::Fp);
    }
    if int_like {
        d.push(Domain::Int);
    }
    if v.slots.iter().any(|s| matches!(s, Slot::Mem { .. })) {
        d.push(Domain::Agu);
    }
    d
}

/// What phase 2 measures for one variant.
#[derive(Clone, Debug, Default)]
pub struct Phase2Request {
    /// Throughput of the base form (cycles per instruction).
    pub tp: f64,
    /// Also a filler for these forms (their throughput differs from the base form's).
    pub forms: Vec<(Form, f64)>,
    /// Fill with NOPs rather than zero idioms (Redwood Cove renames six NOPs a cycle but
    /// only about 5.3 zero idioms: `run::setup::Ctx::nop_filler`).
    pub nop_filler: bool,
}

/// Dispatch-filler zero idioms per instance for throughput `tp`.
fn filler_k(tp: f64) -> usize {
    (6.0 * tp).ceil() as usize + 8
}

fn filler(v: &Variant, insts: &[Instruction], k: usize, form: Form, nop: bool) -> (Spec, Role) {
    // A branch measured under set flags (`not_taken_flags`) gets NOPs, which take a dispatch
    // slot and no port as the zero idiom does, without writing the flags it reads.
    let fill = if nop || super::not_taken_flags(v).is_some() {
        Instruction::with(Code::Nopd)
    } else {
        zero_idiom(Register::R13)
    };
    let mut body = Vec::new();
    for ins in insts {
        body.push(*ins);
        for _ in 0..k {
            body.push(fill);
        }
    }
    let (ca, cb) = copies_for(body.len(), 800);
    (
        Spec::Unrolled {
            kernel: form_kernel(v, body, form),
            copies_a: ca,
            copies_b: cb,
        },
        // A gather's or scatter's mask refill takes a dispatch slot too.
        Role::Filler {
            k: k + super::vsib::refills(v),
            form,
        },
    )
}

/// Phase 2: µop fillers (base form and the forms in `req`), port blocking against every
/// usable blocker of the variant's domains, and the macro-fusion test with `JZ (Rel8)`.
pub fn phase2(
    v: &Variant,
    req: &Phase2Request,
    blockers: &[(Blocker, bool)],
) -> Result<Planned, PlanError> {
    let mut out = Vec::new();
    if let Some(DivKind::Int(w)) = v.divide {
        out.push(super::division::int_div_filler(v, w, req.tp)?);
        return Ok(out);
    }
    // No filler or blocker passes a fence or `pause`: nothing to run (one slot, ports from
    // the arch description: `infer::ports::phase2`).
    if crate::measure::catalog::skip::is_fence(v.code) {
        return Ok(out);
    }
    let p = pools(v);
    let n = max_instances(v, &p).clamp(1, MAX_INSTANCES);
    let Some(insts) = form_instances(v, &p, n, Form::Base)? else {
        return Ok(out);
    };
    // Filler: a zero idiom on r13 (reserved: no instance uses it).
    // Two fillers of different length: noise only adds time, the smaller estimate is kept.
    let nop = req.nop_filler;
    out.push(filler(v, &insts, filler_k(req.tp), Form::Base, nop));
    out.push(filler(v, &insts, filler_k(req.tp) + 12, Form::Base, nop));
    for (form, tp) in &req.forms {
        if let Some(fi) = form_instances(v, &p, n, *form)? {
            out.push(filler(v, &fi, filler_k(*tp), *form, nop));
        }
    }
    // No blocking for gathers and scatters: their mask refill runs on the pipes the FP
    // blockers saturate, so the fit could not tell its µop from theirs.
    let domains = if super::vsib::is_vsib(v) {
        Vec::new()
    } else {
        domains_of(v)
    };
    let legacy = v.code.op_code().encoding() == iced_x86::EncodingKind::Legacy;
    for (g, (bl, usable)) in blockers.iter().enumerate() {
        if !usable || !domains.contains(&bl.domain) {
            continue;
        }
        let kb = bl.n_ports * ((2.0 * req.tp + 1.0).ceil() as usize).max(2);
        let mut body = Vec::new();
        for ins in &insts {
            for i in 0..kb {
                body.extend(bl.copy(i, legacy).iter().copied());
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
    if fusion_candidate(v) {
        out.push(fusion(v, &insts, req.tp, JZ_REL8)?);
    }
    Ok(out)
}

/// Phase 3: for an instruction that fused with `JZ (Rel8)`, one `Rel8` condition of every
/// other flag group ([`jcc_family`]).
pub fn phase3(v: &Variant, tp: f64) -> Result<Planned, PlanError> {
    let p = pools(v);
    let n = max_instances(v, &p).clamp(1, MAX_INSTANCES);
    let Some(insts) = form_instances(v, &p, n, Form::Base)? else {
        return Ok(Vec::new());
    };
    (0..jcc_table().len())
        .filter(|&j| j != JZ_REL8 && jcc_family(j) == j)
        .map(|j| fusion(v, &insts, tp, j))
        .collect()
}

/// The representative of Jcc form `j`: the `Rel8` form of the condition reading the same flags
/// (`JNB (Rel32)` → `JB (Rel8)`). Macro-fusion is measured for representatives and holds for
/// their family (the same flags; the displacement size does not change the pair).
pub fn jcc_family(j: usize) -> usize {
    let table = jcc_table();
    let name = table[j].0.split(' ').next().unwrap_or("");
    let base = match name.strip_prefix("JN") {
        Some(rest) => format!("J{rest} (Rel8)"),
        None => format!("{name} (Rel8)"),
    };
    table.iter().position(|(n, _)| *n == base).unwrap_or(j)
}

/// Whether `v` may macro-fuse with a following Jcc: a legacy-encoded flag writer on integer
/// operands (not a divider).
pub fn fusion_candidate(v: &Variant) -> bool {
    v.flags_written != 0
        && v.divide.is_none()
        && v.code.op_code().encoding() == iced_x86::EncodingKind::Legacy
        && !v.slots.iter().any(
            |s| matches!(s, Slot::Reg(c) if c.is_vec() || matches!(c, RegClass::Mm | RegClass::K)),
        )
}

/// The Jcc forms tested for macro-fusion, by uops.info string (sorted as uops.info lists them).
pub fn jcc_table() -> Vec<(&'static str, Code)> {
    vec![
        ("JB (Rel32)", Code::Jb_rel32_64),
        ("JB (Rel8)", Code::Jb_rel8_64),
        ("JBE (Rel32)", Code::Jbe_rel32_64),
        ("JBE (Rel8)", Code::Jbe_rel8_64),
        ("JL (Rel32)", Code::Jl_rel32_64),
        ("JL (Rel8)", Code::Jl_rel8_64),
        ("JLE (Rel32)", Code::Jle_rel32_64),
        ("JLE (Rel8)", Code::Jle_rel8_64),
        ("JNB (Rel32)", Code::Jae_rel32_64),
        ("JNB (Rel8)", Code::Jae_rel8_64),
        ("JNBE (Rel32)", Code::Ja_rel32_64),
        ("JNBE (Rel8)", Code::Ja_rel8_64),
        ("JNL (Rel32)", Code::Jge_rel32_64),
        ("JNL (Rel8)", Code::Jge_rel8_64),
        ("JNLE (Rel32)", Code::Jg_rel32_64),
        ("JNLE (Rel8)", Code::Jg_rel8_64),
        ("JNO (Rel32)", Code::Jno_rel32_64),
        ("JNO (Rel8)", Code::Jno_rel8_64),
        ("JNP (Rel32)", Code::Jnp_rel32_64),
        ("JNP (Rel8)", Code::Jnp_rel8_64),
        ("JNS (Rel32)", Code::Jns_rel32_64),
        ("JNS (Rel8)", Code::Jns_rel8_64),
        ("JNZ (Rel32)", Code::Jne_rel32_64),
        ("JNZ (Rel8)", Code::Jne_rel8_64),
        ("JO (Rel32)", Code::Jo_rel32_64),
        ("JO (Rel8)", Code::Jo_rel8_64),
        ("JP (Rel32)", Code::Jp_rel32_64),
        ("JP (Rel8)", Code::Jp_rel8_64),
        ("JS (Rel32)", Code::Js_rel32_64),
        ("JS (Rel8)", Code::Js_rel8_64),
        ("JZ (Rel32)", Code::Je_rel32_64),
        ("JZ (Rel8)", Code::Je_rel8_64),
    ]
}

/// Index of `JZ (Rel8)` in [`jcc_table`].
pub const JZ_REL8: usize = 31;

/// instances × (I, Jcc to the next instruction, k zero idioms): fused pairs take one
/// dispatch slot less than the instruction and the branch apart.
fn fusion(
    v: &Variant,
    insts: &[Instruction],
    tp: f64,
    jcc: usize,
) -> Result<(Spec, Role), PlanError> {
    let k = filler_k(tp.max(1.0));
    let j = branch_to_next(jcc_table()[jcc].1)?;
    let mut body = Vec::new();
    for ins in insts {
        body.push(*ins);
        body.push(j);
        for _ in 0..k {
            body.push(zero_idiom(Register::R13));
        }
    }
    let (ca, cb) = copies_for(body.len(), 800);
    Ok((
        Spec::Unrolled {
            kernel: kernel(v, body),
            copies_a: ca,
            copies_b: cb,
        },
        Role::Fuse { jcc, k },
    ))
}

/// Mode B kernels: the unblocked run, its instance count, and per blocker (index, blockRep,
/// kernel).
pub type CounterKernels = (Spec, usize, Vec<(usize, f64, Spec)>);

/// Mode B (per-port counters) kernels of `v`: the unblocked run (independent instances,
/// returned with their number) and, per blocker, `block_rep` copies of it next to one
/// instance (cpuBench: blockRep = min(100, max(2·|pc|·max(1, ⌊TP⌋), |pc|·µops, 10))).
pub fn counter_kernels(
    v: &Variant,
    tp: f64,
    uops: u32,
    blockers: &[Blocker],
) -> Result<CounterKernels, PlanError> {
    let p = pools(v);
    let n = max_instances(v, &p).clamp(1, MAX_INSTANCES);
    let Some(insts) = form_instances(v, &p, n, Form::Base)? else {
        return Err(PlanError::NoInstance);
    };
    let (ca, cb) = copies_for(insts.len(), 1000);
    let alone = Spec::Unrolled {
        kernel: kernel(v, insts.clone()),
        copies_a: ca,
        copies_b: cb,
    };
    let mut blocked = Vec::new();
    for (g, b) in blockers.iter().enumerate() {
        let pc = b.n_ports;
        let rep = (2 * pc * (tp.floor() as usize).max(1))
            .max(pc * uops as usize)
            .clamp(10, 100);
        let mut body = Vec::new();
        for _ in 0..rep {
            body.extend(b.seq.iter().copied());
        }
        body.push(insts[0]);
        let (ca, cb) = copies_for(body.len(), 1000);
        blocked.push((
            g,
            rep as f64,
            Spec::Unrolled {
                kernel: kernel(v, body),
                copies_a: ca,
                copies_b: cb,
            },
        ));
    }
    Ok((alone, n, blocked))
}
