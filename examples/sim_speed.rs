//! Quick timing of the cycle loop without criterion's statistics: the minimum over many runs
//! of 200 iterations of the benchmark block (see `benches/simulate.rs`). Run with
//! `cargo run --release --example sim_speed`.
#![forbid(unsafe_code)]

use std::time::Instant;

use suaca::sim::{simulate, Observer, SimInput, SimInstr, SimMachine, SimOptions, SimProgram};
use suaca::uarch::PortMask;

struct Silent;
impl Observer for Silent {}

fn main() {
    let alu = PortMask(0b0110_0011);
    let load = PortMask(0b0000_1100);
    let vec = PortMask(0b0000_0011);
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
    let program = SimProgram { instrs };
    let machine = SimMachine {
        issue_width: 4,
        scheduler_size: 97,
        port_count: 8,
        divider_port: Some(0),
    };
    let options = SimOptions::new(200);
    let mut best = f64::MAX;
    for _ in 0..2000 {
        let t = Instant::now();
        let out = simulate(&program, &machine, &options, &mut Silent).expect("runs");
        std::hint::black_box(out);
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!("min over 2000 runs: {:.1} µs", best * 1e6);
}
