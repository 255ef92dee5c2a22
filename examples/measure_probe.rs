//! Quick probe of the harness (development aid): prints a few latencies/throughputs.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
fn main() {
    use iced_x86::{Code, Instruction, Register};
    use suaca::measure::engine::{Engine, Spec};
    use suaca::measure::harness::{Kernel, Protocol};
    let mut e = Engine::new(1, Protocol::default(), 3).unwrap();
    println!("time base: {:?}", e.time_base);
    let chain = |code, r: Register| Kernel { body: vec![Instruction::with2(code, r, r).unwrap()], ..Kernel::default() };
    let specs = vec![
        Spec::Unrolled { kernel: chain(Code::Add_r64_rm64, Register::RAX), copies_a: 500, copies_b: 1000 },
        Spec::Unrolled { kernel: chain(Code::Imul_r64_rm64, Register::RAX), copies_a: 200, copies_b: 400 },
        Spec::Unrolled { kernel: Kernel { body: vec![
            Instruction::with2(Code::Add_r64_rm64, Register::RAX, Register::RAX).unwrap(),
            Instruction::with2(Code::Add_r64_rm64, Register::RCX, Register::RCX).unwrap(),
            Instruction::with2(Code::Add_r64_rm64, Register::RDX, Register::RDX).unwrap(),
            Instruction::with2(Code::Add_r64_rm64, Register::RBX, Register::RBX).unwrap(),
            Instruction::with2(Code::Add_r64_rm64, Register::RSI, Register::RSI).unwrap(),
            Instruction::with2(Code::Add_r64_rm64, Register::RDI, Register::RDI).unwrap(),
            Instruction::with2(Code::Add_r64_rm64, Register::R8, Register::R8).unwrap(),
            Instruction::with2(Code::Add_r64_rm64, Register::R9, Register::R9).unwrap(),
        ], ..Kernel::default() }, copies_a: 100, copies_b: 200 },
    ];
    let t = std::time::Instant::now();
    let r = e.measure(&specs).unwrap();
    println!("{:?} ratio {:?} in {:?}", r, e.last_ratio, t.elapsed());
}
#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
fn main() {}
