//! Speed of the cycle loop (issue #4): 200 iterations of a 20-instruction block, no
//! variants, must take ≤ 50 µs. Measured for an observer that wants only the outcome (the
//! analysis' what-if runs), and for the report's `LineStats` (every event). The block mixes 1- and 2-µop instructions, a load chain,
//! flag dependencies and a loop-carried counter, like a compiled inner loop.
#![forbid(unsafe_code)]

use criterion::{criterion_group, criterion_main, Criterion};
use suaca::report::views::LineStats;
use suaca::sim::{simulate, Observer, SimInput, SimInstr, SimMachine, SimOptions, SimProgram};
use suaca::uarch::PortMask;

/// Wants the outcome only.
struct Silent;
impl Observer for Silent {
    fn wants_waits(&self) -> bool {
        false
    }
    fn wants_cycles(&self) -> bool {
        false
    }
}

fn block() -> SimProgram {
    let alu = PortMask(0b0110_0011); // p0156
    let load = PortMask(0b0000_1100); // p23
    let vec = PortMask(0b0000_0011); // p01
    let instrs = (0..20u32)
        .map(|i| {
            let (uops, latency) = match i % 5 {
                0 => (vec![load], 5),
                1 => (vec![vec, load], 9),
                2 => (vec![alu], 1),
                3 => (vec![vec], 4),
                _ => (vec![alu, PortMask(0b0001_0000)], 1),
            };
            let mut inputs = Vec::new();
            if i > 0 && i % 5 != 0 {
                inputs.push(SimInput {
                    producer: i - 1,
                    distance: 0,
                    offset: 1,
                });
            }
            if i % 7 == 0 {
                inputs.push(SimInput {
                    producer: i,
                    distance: 1,
                    offset: 1,
                });
            }
            SimInstr {
                line: i,
                uops,
                latency,
                div_cycles: 0,
                inputs,
            }
        })
        .collect();
    SimProgram { instrs }
}

fn bench(c: &mut Criterion) {
    let program = block();
    let machine = SimMachine {
        issue_width: 4,
        scheduler_size: 97,
        port_count: 8,
        divider_port: Some(0),
    };
    let options = SimOptions::new(200);
    c.bench_function("simulate 20 instrs x 200 iterations", |b| {
        b.iter(|| simulate(&program, &machine, &options, &mut Silent).expect("runs"))
    });
    c.bench_function("simulate 20 instrs x 200 iterations, LineStats", |b| {
        b.iter(|| {
            let mut view = LineStats::new(&program, machine.port_count);
            simulate(&program, &machine, &options, &mut view).expect("runs")
        })
    });
    let options = SimOptions::new(20_000);
    c.bench_function("simulate 20 instrs x 20000 iterations", |b| {
        b.iter(|| simulate(&program, &machine, &options, &mut Silent).expect("runs"))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
