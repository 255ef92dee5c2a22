//! Quick timing of the cycle loop without criterion's statistics: the minimum over many runs
//! of 200 iterations of the benchmark block (see `benches/simulate.rs`), for three observers:
//! one that wants only the outcome (the engine may skip steady states), one that wants every
//! cycle's events but no `waited` ones, and the report's `LineStats` (everything). Run with
//! `cargo run --release --example sim_speed [runs]`.
#![forbid(unsafe_code)]

use std::time::Instant;

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
    let runs: usize = std::env::args()
        .nth(1)
        .map_or(2000, |a| a.parse().expect("run count"));
    let time = |f: &mut dyn FnMut() -> u64| {
        let mut best = f64::MAX;
        for _ in 0..runs {
            let t = Instant::now();
            std::hint::black_box(f());
            best = best.min(t.elapsed().as_secs_f64());
        }
        best * 1e6
    };
    // Concrete observer types, so that their empty methods compile away.
    let silent = time(&mut || {
        let out = simulate(&program, &machine, &options, &mut Silent);
        out.expect("runs").cycles
    });
    let events = time(&mut || {
        let out = simulate(&program, &machine, &options, &mut EveryCycle);
        out.expect("runs").cycles
    });
    let stats = time(&mut || {
        let mut view = LineStats::new(&program, machine.port_count);
        let out = simulate(&program, &machine, &options, &mut view);
        out.expect("runs").cycles
    });
    println!("min over {runs} runs: {silent:.1} µs outcome only, {events:.1} µs every cycle without waits, {stats:.1} µs LineStats");
}

/// Wants every cycle's events except `waited`.
struct EveryCycle;
impl Observer for EveryCycle {
    fn wants_waits(&self) -> bool {
        false
    }
}
