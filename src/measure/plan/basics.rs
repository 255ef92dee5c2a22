//! Chain latencies measured once per run and subtracted from latency chains (cpuBench's
//! "basic latencies"; docs/sources.md).

use iced_x86::{Code, Instruction, Register};
use serde::{Deserialize, Serialize};

use super::super::harness::{Kernel, Spec};

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
    /// Throughput of `kxnorw k1, k0, k0`, a k-mask refill (cycles, not rounded).
    #[serde(default)]
    pub kxnor_tp: f64,
    /// Throughput of `vpcmpeqd ymm, ymm, ymm`, a vector-mask refill (cycles, not rounded).
    #[serde(default)]
    pub pcmpeq_tp: f64,
}

impl Basics {
    /// The kernels that measure the basics, in field order.
    ///
    /// Long: one table entry per basic latency, kept in one list so that its order visibly
    /// matches the fields.
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
            // Mask refills of gathers and scatters, alone: independent instances.
            (
                "kxnor_tp",
                one(
                    vec![r3(
                        Code::VEX_Kxnorw_kr_kr_kr,
                        Register::K1,
                        Register::K0,
                        Register::K0,
                    )],
                    false,
                ),
            ),
            (
                "pcmpeq_tp",
                one(
                    vec![r3(
                        Code::VEX_Vpcmpeqd_ymm_ymm_ymmm256,
                        Register::YMM0,
                        Register::YMM0,
                        Register::YMM0,
                    )],
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
        let tp = |i: usize| {
            v.get(i)
                .copied()
                .flatten()
                .map(|x| (x.max(0.0) * 100.0).round() / 100.0)
                .unwrap_or(0.0)
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
            // Throughputs keep their fraction (two decimals); unmeasured: nothing subtracted.
            kxnor_tp: tp(13),
            pcmpeq_tp: tp(14),
        }
    }
}
