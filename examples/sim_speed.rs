//! Quick timing of the cycle loop without criterion's statistics: the minimum over many runs
//! of 200 iterations of the benchmark block (see `benches/simulate.rs`), for three observers:
//! one that wants only the outcome (the engine may skip steady states), one that wants every
//! cycle's events but no `waited` ones, and the report's `LineStats` (everything). Run with
//! `cargo run --release --example sim_speed [runs]`.
#![forbid(unsafe_code)]

use std::time::Instant;

use suaca::report::views::LineStats;
use suaca::sim::{simulate, Observer, OutcomeOnly, SimOptions};

fn main() {
    let program = suaca::sim::benchmark::block();
    let machine = suaca::sim::benchmark::machine();
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
        let out = simulate(&program, &machine, &options, &mut OutcomeOnly);
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
