//! Phase 2 kernels: the µop filler (dispatch slots from interleaved zero idioms) and port
//! blocking (the instruction next to saturating blockers of one port combination).

use iced_x86::{Code, Instruction, Register};

use super::super::catalog::{DivKind, Slot, Variant};
use super::super::harness::{Kernel, Spec};
use super::regs::{assign, build, max_instances, pools, zero_idiom, MAX_INSTANCES};
use super::{copies_for, kernel, Planned, Role};

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
