//! Speed of the cycle loop (issue #4): 200 iterations of a 20-instruction block, no
//! variants, must take ≤ 50 µs. Measured for an observer that wants only the outcome (the
//! analysis' what-if runs), and for the report's `LineStats` (every event). The block mixes 1- and 2-µop instructions, a load chain,
//! flag dependencies and a loop-carried counter, like a compiled inner loop.
#![forbid(unsafe_code)]

use criterion::{criterion_group, criterion_main, Criterion};
use suaca::report::views::LineStats;
use suaca::sim::{simulate, OutcomeOnly, SimOptions};

fn bench(c: &mut Criterion) {
    let program = suaca::sim::benchmark::block();
    let machine = suaca::sim::benchmark::machine();
    let options = SimOptions::new(200);
    c.bench_function("simulate 20 instrs x 200 iterations", |b| {
        b.iter(|| simulate(&program, &machine, &options, &mut OutcomeOnly).expect("runs"))
    });
    c.bench_function("simulate 20 instrs x 200 iterations, LineStats", |b| {
        b.iter(|| {
            let mut view = LineStats::new(&program, machine.port_count);
            simulate(&program, &machine, &options, &mut view).expect("runs")
        })
    });
    let options = SimOptions::new(20_000);
    c.bench_function("simulate 20 instrs x 20000 iterations", |b| {
        b.iter(|| simulate(&program, &machine, &options, &mut OutcomeOnly).expect("runs"))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
