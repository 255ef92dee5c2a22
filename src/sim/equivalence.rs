//! The engine against its former self (`reference.rs`, the engine before the speed rewrite):
//! on random programs and machines, for every what-if combination, both must return the same
//! outcome (or error) and emit the same events in the same order. Observers that decline
//! `waited` events must see the same trace without them; observers that want no events
//! (the engine then skips steady states) must get the same outcome. Also: memory stays
//! bounded however many iterations run.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use proptest::prelude::*;

use super::engine::{simulate_with_footprint, MAX_UOPS_PER_INSTR};
use super::reference;
use super::*;
use crate::uarch::PortMask;

/// One event, as the observer saw it.
#[derive(Clone, Debug, PartialEq)]
enum Ev {
    Cycle(u64),
    Loaded(u64, InstRef, u32),
    Waited(u64, InstRef, Vec<WaitCause>),
    Dispatched(u64, InstRef, u32, Option<usize>),
    Divider(u64, InstRef, u32),
    Started(u64, InstRef),
    Completed(u64, InstRef),
    Finished(u64),
}

/// Records every event; `waits: false` declines `waited` events.
struct Trace {
    waits: bool,
    events: Vec<Ev>,
}

impl Trace {
    fn new(waits: bool) -> Self {
        Trace {
            waits,
            events: Vec::new(),
        }
    }

    /// A digest of the whole trace (stable within one build: fixed SipHash keys).
    fn hash(&self) -> u64 {
        let mut h = DefaultHasher::new();
        format!("{:?}", self.events).hash(&mut h);
        h.finish()
    }
}

impl Observer for Trace {
    fn wants_waits(&self) -> bool {
        self.waits
    }
    fn cycle_started(&mut self, cycle: u64) {
        self.events.push(Ev::Cycle(cycle));
    }
    fn loaded(&mut self, cycle: u64, inst: InstRef, uops: u32) {
        self.events.push(Ev::Loaded(cycle, inst, uops));
    }
    fn waited(&mut self, cycle: u64, inst: InstRef, causes: &[WaitCause]) {
        assert!(self.waits, "waited sent to an observer that declined it");
        self.events.push(Ev::Waited(cycle, inst, causes.to_vec()));
    }
    fn uop_dispatched(&mut self, cycle: u64, inst: InstRef, uop: u32, port: Option<usize>) {
        self.events.push(Ev::Dispatched(cycle, inst, uop, port));
    }
    fn divider_used(&mut self, cycle: u64, inst: InstRef, cycles: u32) {
        self.events.push(Ev::Divider(cycle, inst, cycles));
    }
    fn started(&mut self, cycle: u64, inst: InstRef) {
        self.events.push(Ev::Started(cycle, inst));
    }
    fn completed(&mut self, cycle: u64, inst: InstRef) {
        self.events.push(Ev::Completed(cycle, inst));
    }
    fn finished(&mut self, cycles: u64) {
        self.events.push(Ev::Finished(cycles));
    }
}

/// Panics with the first difference between two traces.
fn assert_same_trace(new: &[Ev], old: &[Ev], what: &str) {
    if let Some(i) = (0..new.len().min(old.len())).find(|&i| new[i] != old[i]) {
        panic!(
            "{what}: event {i} differs\n new: {:?}\n old: {:?}\n before: {:?}",
            new[i],
            old[i],
            &old[i.saturating_sub(5)..i]
        );
    }
    assert_eq!(new.len(), old.len(), "{what}: trace lengths differ");
}

fn every_what_if() -> impl Iterator<Item = WhatIf> {
    (0u8..8).map(|m| WhatIf {
        perfect_frontend: m & 1 != 0,
        infinite_ports: m & 2 != 0,
        no_deps: m & 4 != 0,
    })
}

/// Runs both engines on every what-if combination and compares everything they report.
fn check_equivalent(program: &SimProgram, machine: &SimMachine, base: &SimOptions) {
    for what_if in every_what_if() {
        let options = SimOptions { what_if, ..*base };
        let mut old = Trace::new(true);
        let old_out = reference::simulate(program, machine, &options, &mut old);
        let mut new = Trace::new(true);
        let new_out = simulate(program, machine, &options, &mut new);
        assert_eq!(new_out, old_out, "outcome, {what_if:?}");
        assert_same_trace(&new.events, &old.events, &format!("{what_if:?}"));
        assert_eq!(new.hash(), old.hash());
        // Declining `waited` changes nothing else.
        let mut quiet = Trace::new(false);
        let quiet_out = simulate(program, machine, &options, &mut quiet);
        assert_eq!(quiet_out, old_out, "outcome without waits, {what_if:?}");
        old.events.retain(|e| !matches!(e, Ev::Waited(..)));
        let what = format!("no waits, {what_if:?}");
        assert_same_trace(&quiet.events, &old.events, &what);
        // Wanting no events lets the engine skip steady states: same outcome.
        let outcome = simulate(program, machine, &options, &mut Nothing(false, false));
        assert_eq!(outcome, old_out, "outcome only, {what_if:?}");
    }
}

fn arb_instr(index: u32, ports: u32) -> impl Strategy<Value = SimInstr> {
    // Masks over one port more than the machine has: such µops can never be placed.
    let mask = prop_oneof![
        1 => Just(0u32),
        8 => 1u32..(1 << ports),
        1 => 0u32..(1 << (ports + 1)),
    ];
    let uops = prop_oneof![
        1 => Just(0usize),
        8 => 1usize..=3,
        1 => 4usize..=9,
    ];
    let input = (
        0..=index + 2,
        prop_oneof![3 => Just(0u32), 3 => Just(1u32), 1 => Just(2u32)],
        0u32..=12,
    )
        .prop_map(move |(p, distance, offset)| {
            // Same-iteration edges come from earlier instructions.
            let (producer, distance) = match (distance, index) {
                (0, 0) => (p % (index + 3), 1),
                (0, _) => (p % index, 0),
                (d, _) => (p % (index + 3), d),
            };
            SimInput {
                producer,
                distance,
                offset,
            }
        });
    let div = prop_oneof![4 => Just(0u32), 1 => 1u32..=12];
    let uops = uops.prop_flat_map(move |k| prop::collection::vec(mask.clone(), k));
    // Results late on some ports, for a quarter of the instructions.
    let late = prop_oneof![3 => Just(0u32), 1 => 0u32..(1 << ports)];
    (
        uops,
        0u32..=20,
        div,
        prop::collection::vec(input, 0..=3),
        late,
    )
        .prop_map(move |(uops, latency, div_cycles, inputs, late)| SimInstr {
            slots: None,
            late_on: PortMask(late),
            line: index * 2,
            uops: uops.into_iter().map(PortMask).collect(),
            latency,
            div_cycles,
            inputs,
        })
}

/// A program of up to 8 instructions whose producers all lie inside it.
fn arb_program(ports: u32) -> impl Strategy<Value = SimProgram> {
    (1u32..=8).prop_flat_map(move |n| {
        (0..n)
            .map(|i| arb_instr(i, ports))
            .collect::<Vec<_>>()
            .prop_map(move |mut instrs| {
                for ins in &mut instrs {
                    for input in &mut ins.inputs {
                        input.producer %= n;
                    }
                }
                SimProgram {
                    whole_dispatch: false,
                    port_sharing: crate::sim::PortSharing::Any,
                    move_slots: None,
                    frontend: None,
                    ports: Default::default(),
                    instrs,
                }
            })
    })
}

fn arb_case() -> impl Strategy<Value = (SimProgram, SimMachine, SimOptions)> {
    (1u32..=8).prop_flat_map(|ports| {
        let machine = (1u32..=6, 1u32..=40, prop::option::of(0..ports as usize)).prop_map(
            move |(issue_width, scheduler_size, divider_port)| SimMachine {
                issue_width,
                scheduler_size,
                port_count: ports as usize,
                divider_port,
                fp_divider_port: None,
            },
        );
        let options = (1u32..=60, prop_oneof![1 => 1u64..200, 4 => Just(4000u64)]).prop_map(
            |(iterations, max_cycles)| SimOptions {
                max_cycles,
                ..SimOptions::new(iterations)
            },
        );
        (arb_program(ports), machine, options)
    })
}

/// Port assignment at issue with random parameters: the alternating pair is two of the
/// machine's ports (or none); whole issue groups or not.
fn arb_issue_rule(ports: usize) -> impl Strategy<Value = PortAssignment> {
    let pair = 0..ports.max(2) - 1;
    (any::<bool>(), prop::option::of(pair), any::<bool>()).prop_map(
        move |(until_complete, pair, whole_groups)| {
            PortAssignment::Issue(IssueRule {
                until_complete,
                alternate: pair.filter(|_| ports >= 2).map_or(0, |p| 0b11 << p),
                whole_groups,
            })
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn same_outcome_and_events_as_the_reference((program, machine, options) in arb_case()) {
        check_equivalent(&program, &machine, &options);
    }

    #[test]
    fn same_with_ports_bound_at_issue(
        ((mut program, machine, options), rule) in arb_case()
            .prop_flat_map(|case| {
                let ports = case.1.port_count;
                (Just(case), arb_issue_rule(ports))
            })
    ) {
        program.ports = rule;
        check_equivalent(&program, &machine, &options);
    }
}

/// The rule with loads alternating on p23, counted until dispatch or until completion.
fn issue_rules() -> [PortAssignment; 2] {
    [false, true].map(|until_complete| {
        PortAssignment::Issue(IssueRule {
            until_complete,
            alternate: 0b1100,
            whole_groups: false,
        })
    })
}

fn skl() -> SimMachine {
    SimMachine {
        issue_width: 4,
        scheduler_size: 97,
        port_count: 8,
        divider_port: Some(0),
        fp_divider_port: None,
    }
}

use super::benchmark::block as bench_block;

#[test]
fn benchmark_block_matches_the_reference() {
    check_equivalent(&bench_block(), &skl(), &SimOptions::new(200));
    for ports in issue_rules() {
        let program = SimProgram {
            ports,
            ..bench_block()
        };
        check_equivalent(&program, &skl(), &SimOptions::new(200));
    }
}

/// Edge cases the random programs rarely reach: the largest instruction (64 µops, loaded
/// over many cycles into a scheduler grown to hold it), divisions longer than their
/// latency, offsets beyond the producer's latency, and a deadlock ending at the cycle limit.
#[test]
fn edge_cases_match_the_reference() {
    let p0 = PortMask::single(0);
    let p01 = PortMask(0b11);
    let wide = SimInstr {
        slots: None,
        late_on: PortMask::EMPTY,
        line: 0,
        uops: vec![p01; 64],
        latency: 3,
        div_cycles: 0,
        inputs: vec![],
    };
    let div = SimInstr {
        slots: None,
        late_on: PortMask::EMPTY,
        line: 1,
        uops: vec![p0, p01],
        latency: 2,
        div_cycles: 9,
        inputs: vec![SimInput {
            producer: 0,
            distance: 0,
            offset: 30,
        }],
    };
    let small = SimMachine {
        scheduler_size: 5,
        ..skl()
    };
    let program = SimProgram {
        whole_dispatch: false,
        port_sharing: crate::sim::PortSharing::Any,
        move_slots: None,
        frontend: None,
        ports: Default::default(),
        instrs: vec![wide, div.clone()],
    };
    check_equivalent(&program, &small, &SimOptions::new(7));
    let self_dep = SimInstr {
        slots: None,
        late_on: PortMask::EMPTY,
        inputs: vec![SimInput {
            producer: 0,
            distance: 0,
            offset: 1,
        }],
        ..div
    };
    let stuck = SimProgram {
        whole_dispatch: false,
        port_sharing: crate::sim::PortSharing::Any,
        move_slots: None,
        frontend: None,
        ports: Default::default(),
        instrs: vec![self_dep],
    };
    let limited = SimOptions {
        max_cycles: 500,
        ..SimOptions::new(3)
    };
    check_equivalent(&stuck, &skl(), &limited);
}

#[test]
fn errors_match_the_reference() {
    let ok = SimInstr {
        slots: None,
        late_on: PortMask::EMPTY,
        line: 0,
        uops: vec![PortMask(1)],
        latency: 1,
        div_cycles: 0,
        inputs: vec![],
    };
    let huge = SimInstr {
        slots: None,
        late_on: PortMask::EMPTY,
        uops: vec![PortMask(1); MAX_UOPS_PER_INSTR + 1],
        ..ok.clone()
    };
    let programs = [
        SimProgram::default(),
        SimProgram {
            whole_dispatch: false,
            port_sharing: crate::sim::PortSharing::Any,
            move_slots: None,
            frontend: None,
            ports: Default::default(),
            instrs: vec![ok.clone(), huge],
        },
    ];
    for program in &programs {
        check_equivalent(program, &skl(), &SimOptions::new(4));
    }
    let zero_width = SimMachine {
        issue_width: 0,
        ..skl()
    };
    let program = SimProgram {
        whole_dispatch: false,
        port_sharing: crate::sim::PortSharing::Any,
        move_slots: None,
        frontend: None,
        ports: Default::default(),
        instrs: vec![ok],
    };
    check_equivalent(&program, &zero_width, &SimOptions::new(4));
    check_equivalent(&program, &skl(), &SimOptions::new(0));
    check_equivalent(
        &program,
        &skl(),
        &SimOptions::new(SimOptions::MAX_ITERATIONS + 1),
    );
}

#[test]
fn a_producer_outside_the_program_is_an_error() {
    let program = SimProgram {
        whole_dispatch: false,
        port_sharing: crate::sim::PortSharing::Any,
        move_slots: None,
        frontend: None,
        ports: Default::default(),
        instrs: vec![SimInstr {
            slots: None,
            late_on: PortMask::EMPTY,
            line: 4,
            uops: vec![PortMask(1)],
            latency: 1,
            div_cycles: 0,
            inputs: vec![SimInput {
                producer: 1,
                distance: 1,
                offset: 1,
            }],
        }],
    };
    let mut trace = Trace::new(true);
    assert_eq!(
        simulate(&program, &skl(), &SimOptions::new(2), &mut trace),
        Err(SimError::UnknownProducer { line: 4 })
    );
}

/// Memory does not grow with the iteration count: the buffers of a run of a million
/// iterations are as big as those of a thousand.
#[test]
fn memory_does_not_grow_with_iterations() {
    // A load-op (latency 9) feeding an add: a dozen instances in flight.
    let mut instrs = bench_block().instrs[1..3].to_vec();
    instrs[0].inputs.clear();
    instrs[1].inputs[0].producer = 0;
    let program = SimProgram {
        whole_dispatch: false,
        port_sharing: crate::sim::PortSharing::Any,
        move_slots: None,
        frontend: None,
        ports: Default::default(),
        instrs,
    };
    for waits in [false, true] {
        let footprint = |iterations| {
            let options = SimOptions::new(iterations);
            let (out, size) =
                simulate_with_footprint(&program, &skl(), &options, &mut Nothing(waits, true));
            out.expect("runs");
            size
        };
        let small = footprint(1_000);
        assert_eq!(
            footprint(SimOptions::MAX_ITERATIONS),
            small,
            "waits: {waits}"
        );
        assert!(small < 1024, "{small}");
    }
}

/// Observes nothing; says whether it wants `waited` events and the events of every cycle.
struct Nothing(bool, bool);
impl Observer for Nothing {
    fn wants_waits(&self) -> bool {
        self.0
    }
    fn wants_cycles(&self) -> bool {
        self.1
    }
}

/// Long runs, where skipping steady states pays: the outcome of the benchmark block and of
/// the thesis' `adc` chain matches the reference's.
#[test]
fn skipped_steady_states_keep_the_outcome() {
    let p06 = PortMask(0b0100_0001);
    let adc = SimProgram {
        whole_dispatch: false,
        port_sharing: crate::sim::PortSharing::Any,
        move_slots: None,
        frontend: None,
        ports: Default::default(),
        instrs: (0..8u32)
            .map(|l| SimInstr {
                slots: None,
                late_on: PortMask::EMPTY,
                line: l,
                uops: vec![p06],
                latency: 1,
                div_cycles: 0,
                inputs: vec![
                    SimInput {
                        producer: (l + 7) % 8,
                        distance: u32::from(l == 0),
                        offset: 1,
                    },
                    SimInput {
                        producer: l,
                        distance: 1,
                        offset: 1,
                    },
                ],
            })
            .collect(),
    };
    let mut programs = vec![bench_block(), adc];
    for ports in issue_rules() {
        programs.push(SimProgram {
            ports,
            ..bench_block()
        });
    }
    for program in programs {
        for what_if in every_what_if() {
            let options = SimOptions {
                what_if,
                ..SimOptions::new(3000)
            };
            let old = reference::simulate(&program, &skl(), &options, &mut Nothing(true, true));
            let new = simulate(&program, &skl(), &options, &mut Nothing(false, false));
            assert_eq!(new, old, "{what_if:?}");
        }
    }
}

/// The front end's delivery rate and fused slots keep steady-state skipping exact: the
/// outcome with skipping equals the cycle-by-cycle run, for rates with long periods.
#[test]
fn skipping_is_exact_with_a_delivery_rate_and_slots() {
    let p0156 = PortMask(0b110_0011);
    let assignments = [PortAssignment::Dispatch, issue_rules()[0], issue_rules()[1]];
    for ((cycles, slots), ports) in [(3.375, 1), (0.25, 1), (1.2, 2), (2.0 / 3.0, 0), (7.9, 3)]
        .into_iter()
        .flat_map(|c| assignments.map(|a| (c, a)))
    {
        let program = SimProgram {
            whole_dispatch: false,
            port_sharing: crate::sim::PortSharing::Any,
            move_slots: None,
            frontend: Delivery::every(cycles, 16),
            ports,
            instrs: (0..3u32)
                .map(|l| SimInstr {
                    slots: Some(if l == 1 { slots } else { 1 }),
                    late_on: PortMask::EMPTY,
                    line: l,
                    uops: vec![p0156, p0156],
                    latency: 1 + l,
                    div_cycles: 0,
                    inputs: vec![],
                })
                .collect(),
        };
        for iterations in [1, 7, 200, 1000] {
            let opts = SimOptions::new(iterations);
            let m = SimMachine {
                issue_width: 4,
                scheduler_size: 20,
                port_count: 8,
                divider_port: None,
                fp_divider_port: None,
            };
            let skipped = simulate(&program, &m, &opts, &mut Nothing(false, false)).unwrap();
            let full = simulate(&program, &m, &opts, &mut Nothing(false, true)).unwrap();
            assert_eq!(
                skipped, full,
                "{cycles} cycles, {slots} slots, {iterations} iterations, {ports:?}"
            );
        }
    }
}
