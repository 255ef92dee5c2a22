//! Machine parameters in X-Ray's spirit: dispatch width, ALU/multiply/load/store rates,
//! L1/L2 latency (pointer chasing), ROB, register-file and scheduler windows (a long-latency
//! chain followed by N fillers; the knee of the time curve).

use std::time::{Duration, Instant};

use iced_x86::{Code, Instruction, MemoryOperand, Register};

use super::super::engine::Engine;
use super::super::harness::{self, Kernel, Spec};
use super::super::machine::{self, MachineParams};
use super::super::{MeasureError, Progress};

pub(super) fn tp_spec(
    body: Vec<Instruction>,
    init: Vec<Instruction>,
    gpr: Vec<(Register, u64)>,
) -> Spec {
    let n = body.len().max(1);
    let b = (1200 / n).max(2);
    Spec::Unrolled {
        kernel: Kernel {
            body,
            init,
            gpr_init: gpr,
            uses_mmx: false,
            flags: None,
        },
        copies_a: b / 2,
        copies_b: b,
    }
}

pub(super) fn r2(c: Code, a: Register, b: Register) -> Instruction {
    Instruction::with2(c, a, b).expect("instruction")
}

/// Register operands of the rate kernels: eight independent chains.
const REGS: [Register; 8] = [
    Register::RAX,
    Register::RCX,
    Register::RDX,
    Register::RBX,
    Register::RSI,
    Register::RDI,
    Register::R8,
    Register::R9,
];

/// Filler counts of the window benchmarks.
fn window_sizes() -> Vec<u32> {
    (0..28).map(|i| 64 + i * 16).collect()
}

/// Machine-parameter benchmarks.
pub(super) fn measure_machine(
    e: &mut Engine,
    progress: &mut dyn Progress,
    port_groups: Vec<String>,
) -> Result<MachineParams, MeasureError> {
    progress.message("measuring machine parameters");
    let r14 = e.r14();
    let l2_off = write_pointer_chains(e);
    let l2_start = r14 - harness::DATA_BASE as u64 + l2_off as u64;
    let ns = window_sizes();
    let mut specs = rate_specs(r14, l2_start);
    specs.extend(window_specs(l2_start, &ns));
    let rules_at = specs.len();
    specs.extend(super::pipeline_rules::specs());
    let out = e.measure(&specs)?;
    let v = |i: usize| out[i].value();
    let mut m = MachineParams {
        cycles_per_tsc_tick: e.last_ratio,
        ..MachineParams::default()
    };
    m.tsc_mhz = tsc_mhz();
    m.core_mhz = m.tsc_mhz.zip(m.cycles_per_tsc_tick).map(|(t, r)| t * r);
    m.dispatch_width = v(0).and_then(|t| machine::rate(t / 8.0));
    m.alu_per_cycle = v(1).and_then(|t| machine::rate(t / 8.0));
    m.mul_per_cycle = v(2).and_then(|t| machine::rate(t / 8.0));
    m.loads_per_cycle = v(3).and_then(|t| machine::rate(t / 8.0));
    m.stores_per_cycle = v(4).and_then(|t| machine::rate(t / 8.0));
    m.l1_latency = v(5).map(|t| t.round() as u32);
    m.l2_latency = v(6).map(|t| t.round() as u32);
    let curve = |off: usize| -> Vec<(u32, f64)> {
        ns.iter()
            .enumerate()
            .filter_map(|(i, n)| v(off + i).map(|t| (*n, t)))
            .collect()
    };
    if std::env::var_os("SUACA_MEASURE_DEBUG").is_some() {
        progress.message(&format!("rob curve {:?}", curve(7)));
        progress.message(&format!("int PRF curve {:?}", curve(7 + ns.len())));
        progress.message(&format!("scheduler curve {:?}", curve(7 + 2 * ns.len())));
    }
    m.rob_size = machine::knee(&curve(7), 0.03);
    m.int_prf_free = machine::knee(&curve(7 + ns.len()), 0.03);
    m.scheduler_size = machine::knee(&curve(7 + 2 * ns.len()), 0.03);
    m.port_groups = port_groups;
    let rules: Vec<Option<f64>> = out[rules_at..].iter().map(|o| o.value()).collect();
    super::pipeline_rules::read(&rules, &mut m);
    Ok(m)
}

/// Pointer chains in the data buffer: L1 (a self loop at `DATA_BASE + 8192`) and L2 (256 KiB
/// — 8× L1, within the L1 DTLB reach — in random line order) at r14 + 8 MiB. Returns the
/// offset of the L2 chain's first line.
fn write_pointer_chains(e: &mut Engine) -> usize {
    let base_off = harness::DATA_BASE + (8 << 20);
    let lines = (256 << 10) / 64;
    let mut order: Vec<usize> = (0..lines).collect();
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for i in (1..order.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        order.swap(i, (x % (i as u64 + 1)) as usize);
    }
    let data = e.data_mut();
    let a0 = data.addr();
    for w in 0..order.len() {
        let from = base_off + order[w] * 64;
        let to = base_off + order[(w + 1) % order.len()] * 64;
        data.write_u64(from, a0 + to as u64);
    }
    let self_off = harness::DATA_BASE + 8192;
    data.write_u64(self_off, a0 + self_off as u64);
    base_off + order[0] * 64
}

/// Dispatch, ALU, multiply, load and store rates, then the L1 and L2 pointer chases (in the
/// order `measure_machine` reads them: 0–6).
fn rate_specs(r14: u64, l2_start: u64) -> Vec<Spec> {
    let regs = REGS;
    let chase = |start: u64| Spec::Unrolled {
        kernel: Kernel {
            body: vec![r2(Code::Mov_r64_rm64, Register::RAX, Register::RAX).with_mem()],
            gpr_init: vec![(Register::RAX, start)],
            ..Kernel::default()
        },
        copies_a: 200,
        copies_b: 400,
    };
    let specs = vec![
        tp_spec(
            regs.iter()
                .map(|r| r2(Code::Xor_r32_rm32, r.full_register32(), r.full_register32()))
                .collect(),
            vec![],
            vec![],
        ),
        tp_spec(
            regs.iter()
                .map(|r| r2(Code::Add_r64_rm64, *r, *r))
                .collect(),
            vec![],
            vec![],
        ),
        tp_spec(
            regs.iter()
                .map(|r| r2(Code::Imul_r64_rm64, *r, *r))
                .collect(),
            vec![],
            vec![],
        ),
        tp_spec(
            regs.iter()
                .enumerate()
                .map(|(i, r)| {
                    Instruction::with2(
                        Code::Mov_r64_rm64,
                        *r,
                        MemoryOperand::with_base_displ(Register::R14, 4096 + 8 * i as i64),
                    )
                    .expect("load")
                })
                .collect(),
            vec![],
            vec![],
        ),
        tp_spec(
            regs.iter()
                .enumerate()
                .map(|(i, r)| {
                    Instruction::with2(
                        Code::Mov_rm64_r64,
                        MemoryOperand::with_base_displ(Register::R14, 4096 + 8 * i as i64),
                        *r,
                    )
                    .expect("store")
                })
                .collect(),
            vec![],
            vec![],
        ),
        chase(r14 + 8192),
        chase(l2_start),
    ];
    specs
}

/// Window sizes (X-Ray / Wong style): a chain of 10 dependent L2-latency loads (few
/// instructions, ~140 cycles) followed by N fillers: independent `mov r13d, 1` for the ROB,
/// chain-dependent `add r, rax` for the scheduler. While the window holds the fillers and the
/// next chain start, the time stays at the chain latency; past capacity it grows.
fn window_specs(l2_start: u64, ns: &[u32]) -> Vec<Spec> {
    let regs = REGS;
    let mut specs = Vec::new();
    for kind in 0..3 {
        for &n in ns {
            let mut body: Vec<Instruction> = (0..10)
                .map(|_| {
                    Instruction::with2(
                        Code::Mov_r64_rm64,
                        Register::RAX,
                        MemoryOperand::with_base(Register::RAX),
                    )
                    .expect("load")
                })
                .collect();
            for i in 0..n {
                body.push(match kind {
                    0 => Instruction::with(Code::Nopd),
                    1 => {
                        Instruction::with2(Code::Mov_r32_imm32, Register::R13D, 1u32).expect("mov")
                    }
                    _ => r2(
                        Code::Add_r64_rm64,
                        regs[1 + (i as usize % 7)],
                        Register::RAX,
                    ),
                });
            }
            specs.push(Spec::Unrolled {
                kernel: Kernel {
                    body,
                    gpr_init: vec![(Register::RAX, l2_start)],
                    ..Kernel::default()
                },
                copies_a: 2,
                copies_b: 4,
            });
        }
    }
    specs
}

trait WithMem {
    fn with_mem(self) -> Self;
}
impl WithMem for Instruction {
    /// `mov rax, rax` → `mov rax, [rax]`.
    fn with_mem(self) -> Self {
        Instruction::with2(
            Code::Mov_r64_rm64,
            self.op0_register(),
            MemoryOperand::with_base(self.op1_register()),
        )
        .expect("load")
    }
}

fn tsc_mhz() -> Option<f64> {
    let t0 = Instant::now();
    let c0 = super::super::jit::rdtsc();
    std::thread::sleep(Duration::from_millis(50));
    let c1 = super::super::jit::rdtsc();
    let dt = t0.elapsed().as_secs_f64();
    Some(((c1 - c0) as f64 / dt / 1e6 * 10.0).round() / 10.0)
}
