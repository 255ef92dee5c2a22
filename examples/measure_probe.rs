//! Development aid: ad-hoc load-throughput probes.
#![forbid(unsafe_code)]
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
fn main() {
    use iced_x86::{Code, Instruction, MemoryOperand, Register};
    use suaca::measure::engine::Engine;
    use suaca::measure::harness::{Kernel, Protocol, Spec};
    let mut e = Engine::new(1, Protocol::default(), 3).unwrap();
    let regs = [
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
    let mk = |n: usize, stride: i64| {
        let body: Vec<Instruction> = (0..n)
            .map(|j| {
                Instruction::with2(
                    Code::Mov_r64_rm64,
                    regs[j],
                    MemoryOperand::with_base_displ(Register::R14, 4096 + stride * j as i64),
                )
                .unwrap()
            })
            .collect();
        let c = 1200 / n;
        Spec::Unrolled {
            kernel: Kernel {
                body,
                ..Kernel::default()
            },
            copies_a: c / 2,
            copies_b: c,
        }
    };
    let cfgs = [
        (8, 64),
        (12, 64),
        (12, 0),
        (12, 8),
        (6, 64),
        (12, 128),
        (9, 64),
    ];
    let specs: Vec<Spec> = cfgs.iter().map(|(n, s)| mk(*n, *s)).collect();
    let r = e.measure(&specs).unwrap();
    for ((n, s), o) in cfgs.iter().zip(r) {
        println!(
            "{n} loads stride {s}: {:.4}",
            o.value().unwrap() / *n as f64
        );
    }
}
#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
fn main() {}
