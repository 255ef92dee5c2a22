//! Engine tests on hand-built programs reproducing the thesis' examples.

use super::*;
use crate::uarch::PortMask;

fn ports(list: &[usize]) -> PortMask {
    list.iter()
        .fold(PortMask::EMPTY, |m, &p| m.union(PortMask::single(p)))
}

fn snb() -> SimMachine {
    SimMachine {
        issue_width: 4,
        scheduler_size: 54,
        port_count: 6,
        divider_port: Some(0),
        fp_divider_port: None,
    }
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

fn instr(line: u32, uops: Vec<PortMask>, latency: u32, inputs: Vec<SimInput>) -> SimInstr {
    SimInstr {
        slots: None,
        late_on: PortMask::EMPTY,
        line,
        uops,
        latency,
        div_cycles: 0,
        inputs,
    }
}

fn dep(producer: u32, distance: u32, offset: u32) -> SimInput {
    SimInput {
        producer,
        distance,
        offset,
    }
}

fn run(program: &SimProgram, machine: &SimMachine, iterations: u32, what_if: WhatIf) -> SimOutcome {
    let options = SimOptions {
        what_if,
        ..SimOptions::new(iterations)
    };
    simulate(program, machine, &options, &mut NoObserver).expect("simulation runs")
}

struct NoObserver;
impl Observer for NoObserver {}

const IP: WhatIf = WhatIf {
    perfect_frontend: false,
    infinite_ports: true,
    no_deps: false,
};
const ND: WhatIf = WhatIf {
    perfect_frontend: false,
    infinite_ports: false,
    no_deps: true,
};

/// Thesis §4.1: six `mov rax, 6` on SNB: 2.00 cycles, 1.50 with infinite ports, 3.00 µops
/// per cycle.
#[test]
fn six_movs_on_snb() {
    let p015 = ports(&[0, 1, 5]);
    let program = SimProgram {
        whole_dispatch: false,
        port_sharing: crate::sim::PortSharing::Any,
        move_slots: None,
        frontend: None,
        ports: Default::default(),
        instrs: (0..6).map(|l| instr(l, vec![p015], 1, vec![])).collect(),
    };
    let plain = run(&program, &snb(), 200, WhatIf::NONE);
    assert_eq!(format!("{:.2}", plain.throughput()), "2.00");
    assert_eq!(format!("{:.2}", plain.uops_per_cycle()), "3.00");
    let ip = run(&program, &snb(), 200, IP);
    assert_eq!(format!("{:.2}", ip.throughput()), "1.50");
}

/// Thesis §4.3: eight `adc reg, 1` on SKL chained through CF: 8.00, and 4.00 without
/// dependencies (8 µops on ports 0 and 6).
#[test]
fn adc_chain_on_skl() {
    let p06 = ports(&[0, 6]);
    let program = SimProgram {
        whole_dispatch: false,
        port_sharing: crate::sim::PortSharing::Any,
        move_slots: None,
        frontend: None,
        ports: Default::default(),
        instrs: (0..8u32)
            .map(|l| {
                let cf = if l == 0 {
                    dep(7, 1, 1)
                } else {
                    dep(l - 1, 0, 1)
                };
                instr(l, vec![p06], 1, vec![cf, dep(l, 1, 1)])
            })
            .collect(),
    };
    let plain = run(&program, &skl(), 200, WhatIf::NONE);
    assert_eq!(format!("{:.2}", plain.throughput()), "8.00");
    let nd = run(&program, &skl(), 200, ND);
    assert_eq!(format!("{:.2}", nd.throughput()), "4.00");
}

/// The branchy program of thesis §2 on SNB ports: jumps on port 5, the rest on 0, 1, 5.
fn branchy() -> SimProgram {
    let p015 = ports(&[0, 1, 5]);
    let p5 = ports(&[5]);
    SimProgram {
        whole_dispatch: false,
        port_sharing: crate::sim::PortSharing::Any,
        move_slots: None,
        frontend: None,
        ports: Default::default(),
        instrs: vec![
            instr(0, vec![p015], 1, vec![]),
            instr(1, vec![p015], 1, vec![]),
            instr(2, vec![p5], 1, vec![dep(1, 0, 1)]),
            instr(3, vec![p015], 1, vec![dep(0, 0, 1)]),
            instr(4, vec![p5], 1, vec![]),
            instr(5, vec![p015], 1, vec![dep(0, 0, 1)]),
            instr(6, vec![p015], 1, vec![dep(3, 0, 1), dep(5, 0, 1)]),
        ],
    }
}

/// Thesis §2.2: the branchy program on SNB, one iteration: 3 cycles.
#[test]
fn branchy_latency_on_snb() {
    let program = branchy();
    let one = run(&program, &snb(), 1, WhatIf::NONE);
    assert_eq!(one.cycles, 3);
    assert_eq!(format!("{:.2}", one.uops_per_cycle()), "2.33");
}

#[test]
fn divider_blocks_other_divisions() {
    let p0 = ports(&[0]);
    let mut div = instr(0, vec![p0, ports(&[0, 1, 5])], 20, vec![]);
    div.div_cycles = 8;
    let program = SimProgram {
        whole_dispatch: false,
        port_sharing: crate::sim::PortSharing::Any,
        move_slots: None,
        frontend: None,
        ports: Default::default(),
        instrs: vec![div],
    };
    // Independent divisions are limited by the divider, not by latency or ports.
    let out = run(&program, &snb(), 100, WhatIf::NONE);
    assert!((out.throughput() - 8.0).abs() < 0.2, "{}", out.throughput());
}

#[test]
fn rejects_bad_iteration_counts() {
    let program = SimProgram {
        whole_dispatch: false,
        port_sharing: crate::sim::PortSharing::Any,
        move_slots: None,
        frontend: None,
        ports: Default::default(),
        instrs: vec![instr(0, vec![ports(&[0])], 1, vec![])],
    };
    let opts = SimOptions::new(0);
    assert!(matches!(
        simulate(&program, &snb(), &opts, &mut NoObserver),
        Err(SimError::Iterations { .. })
    ));
    let empty = SimProgram::default();
    assert_eq!(
        simulate(&empty, &snb(), &SimOptions::new(1), &mut NoObserver),
        Err(SimError::EmptyProgram)
    );
}

#[test]
fn cycle_limit_is_an_error() {
    let program = SimProgram {
        whole_dispatch: false,
        port_sharing: crate::sim::PortSharing::Any,
        move_slots: None,
        frontend: None,
        ports: Default::default(),
        instrs: vec![instr(0, vec![ports(&[0])], 1, vec![dep(0, 1, 1)])],
    };
    let opts = SimOptions {
        max_cycles: 10,
        ..SimOptions::new(100)
    };
    assert_eq!(
        simulate(&program, &snb(), &opts, &mut NoObserver),
        Err(SimError::CycleLimit(10))
    );
}

mod line_stats {
    use super::*;
    use crate::report::views::LineStats;

    fn stats(program: &SimProgram, machine: &SimMachine, iterations: u32) -> LineStats {
        let mut view = LineStats::new(program, machine.port_count);
        simulate(program, machine, &SimOptions::new(iterations), &mut view).expect("runs");
        view
    }

    /// Thesis §2.2: in one iteration of the branchy program the "caused to wait" column
    /// sums to 5 and "had to wait" to 4 (line 6 waits on lines 3 and 5 at once).
    #[test]
    fn branchy_wait_sums() {
        let program = branchy();
        let view = stats(&program, &snb(), 1);
        let rows = view.rows(&program, 1);
        let had: f64 = rows.iter().map(|r| r.had_to_wait).sum();
        let caused: f64 = rows.iter().map(|r| r.caused_to_wait).sum();
        assert_eq!((had, caused), (4.0, 5.0));
        // Line 0 ran on port 0, line 6 on port 0, the jumps on port 5 (thesis §2.2).
        assert_eq!(rows[0].ports[0], Some(1.0));
        assert_eq!(rows[6].ports[0], Some(1.0));
        assert_eq!(rows[2].ports[5], Some(1.0));
        assert_eq!(rows[4].ports[5], Some(1.0));
        let d = view.detail(0, 1).expect("line 0");
        assert_eq!(
            d.dependencies.iter().map(|x| x.line).collect::<Vec<_>>(),
            vec![3]
        );
    }

    /// Thesis §4.1: each `mov` always uses the same port, and "caused to wait" is three
    /// times "had to wait" (three holders are blamed for every wait).
    #[test]
    fn six_movs_one_port_each() {
        let p015 = ports(&[0, 1, 5]);
        let program = SimProgram {
            whole_dispatch: false,
            port_sharing: crate::sim::PortSharing::Any,
            move_slots: None,
            frontend: None,
            ports: Default::default(),
            instrs: (0..6).map(|l| instr(l, vec![p015], 1, vec![])).collect(),
        };
        let view = stats(&program, &snb(), 200);
        let rows = view.rows(&program, 200);
        let expected_port = [0, 1, 5, 0, 1, 5];
        for (row, &p) in rows.iter().zip(&expected_port) {
            assert_eq!(row.ports[p], Some(1.0), "line {}", row.line);
            assert_eq!(row.ports.iter().flatten().count(), 1, "line {}", row.line);
        }
        let had: f64 = rows.iter().map(|r| r.had_to_wait).sum();
        let caused: f64 = rows.iter().map(|r| r.caused_to_wait).sum();
        // The thesis prints 15.6 15.6 15.5 15.6 15.6 15.6 and 46.7 for every line.
        let had_col: Vec<String> = rows
            .iter()
            .map(|r| format!("{:.1}", r.had_to_wait))
            .collect();
        let caused_col: Vec<String> = rows
            .iter()
            .map(|r| format!("{:.1}", r.caused_to_wait))
            .collect();
        assert_eq!(had_col, ["15.6", "15.6", "15.5", "15.6", "15.6", "15.6"]);
        assert_eq!(caused_col, ["46.7"; 6]);
        assert!(
            (caused / had - 3.0).abs() < 0.05,
            "had {had} caused {caused}"
        );
    }
}

/// Records the port of every dispatched µop: (cycle, line, port).
#[derive(Default)]
struct Dispatches(Vec<(u64, u32, Option<usize>)>);
impl Observer for Dispatches {
    fn uop_dispatched(&mut self, cycle: u64, inst: InstRef, _uop: u32, port: Option<usize>) {
        self.0.push((cycle, inst.line, port));
    }
}

/// Port assignment at issue (docs/model.md): eight independent one-µop instructions on
/// p0156, latency 1, one iteration, 4 issued per cycle.
///
/// At dispatch (SUACA), cycle 0 loads lines 0–3 and puts them on the least used ports p0, p1,
/// p5, p6; cycle 1 does the same with lines 4–7: 2 cycles.
///
/// At issue, cycle 0's group sees no waiting µops: Pmin = p6, Pmin2 = p5 (ties go to the
/// higher port), so slots 0, 2 (lines 0, 2) get p6 and slots 1, 3 (lines 1, 3) p5. Lines 0
/// and 1 dispatch in cycle 0; lines 2 and 3 wait, one µop each on p5 and p6. Cycle 1's group
/// sees p0 = p1 = 0 and p5 = p6 = 1: Pmin = p1, Pmin2 = p0, so lines 4, 6 get p1 and 5, 7
/// p0. Cycle 1 dispatches lines 2, 3, 4, 5 (oldest first on each port), cycle 2 lines 6, 7:
/// 3 cycles, though every port runs two µops either way.
#[test]
fn ports_bound_at_issue_pair_each_group_on_two_ports() {
    let p0156 = ports(&[0, 1, 5, 6]);
    let mut program = SimProgram {
        whole_dispatch: false,
        port_sharing: crate::sim::PortSharing::Any,
        move_slots: None,
        frontend: None,
        ports: PortAssignment::Dispatch,
        instrs: (0..8).map(|l| instr(l, vec![p0156], 1, vec![])).collect(),
    };
    let mut seen = Dispatches::default();
    let options = SimOptions::new(1);
    let out = simulate(&program, &skl(), &options, &mut seen).expect("runs");
    assert_eq!(out.cycles, 2);
    let at_dispatch: Vec<_> = seen.0.iter().map(|&(c, l, p)| (c, l, p.unwrap())).collect();
    assert_eq!(
        at_dispatch,
        [(0, 0, 0), (0, 1, 1), (0, 2, 5), (0, 3, 6)]
            .into_iter()
            .chain([(1, 4, 0), (1, 5, 1), (1, 6, 5), (1, 7, 6)])
            .collect::<Vec<_>>()
    );
    program.ports = PortAssignment::Issue(IssueRule::default());
    let mut seen = Dispatches::default();
    let out = simulate(&program, &skl(), &options, &mut seen).expect("runs");
    assert_eq!(out.cycles, 3);
    let at_issue: Vec<_> = seen.0.iter().map(|&(c, l, p)| (c, l, p.unwrap())).collect();
    assert_eq!(
        at_issue,
        [
            (0, 0, 6),
            (0, 1, 5),
            (1, 2, 6),
            (1, 3, 5),
            (1, 4, 1),
            (1, 5, 0)
        ]
        .into_iter()
        .chain([(2, 6, 1), (2, 7, 0)])
        .collect::<Vec<_>>()
    );
}

/// Loads bound at issue alternate between p2 and p3 whatever the counts: four loads in one
/// group go p2, p3, p2, p3 (the counts' rule would give p3, p2, p3, p2), so two dispatch in
/// cycle 0 and two in cycle 1.
#[test]
fn loads_bound_at_issue_alternate_from_p2() {
    let p23 = ports(&[2, 3]);
    let program = SimProgram {
        whole_dispatch: false,
        port_sharing: crate::sim::PortSharing::Any,
        move_slots: None,
        frontend: None,
        ports: PortAssignment::Issue(IssueRule {
            until_complete: false,
            alternate: p23.0,
            whole_groups: false,
        }),
        instrs: (0..4).map(|l| instr(l, vec![p23], 1, vec![])).collect(),
    };
    let mut seen = Dispatches::default();
    let out = simulate(&program, &skl(), &SimOptions::new(1), &mut seen).expect("runs");
    assert_eq!(out.cycles, 2);
    let got: Vec<_> = seen.0.iter().map(|&(c, l, p)| (c, l, p.unwrap())).collect();
    assert_eq!(got, [(0, 0, 2), (0, 1, 3), (1, 2, 2), (1, 3, 3)]);
}

/// Whole-instruction dispatch (Zen 4, docs/model.md): a two-slot instruction and five
/// one-slot ones, six slots a cycle, no dependencies. Split, 7 slots take 7/6 cycles an
/// iteration; whole, the two-slot instruction never straddles cycles and every sixth cycle
/// leaves a slot empty: 5 iterations in 6 cycles, 1.20.
#[test]
fn whole_dispatch_keeps_an_instruction_s_slots_in_one_cycle() {
    let any = ports(&[0, 1, 2, 3, 4, 5, 6, 7]);
    let mut two = instr(0, vec![any, any], 1, vec![]);
    two.slots = Some(2);
    let mut instrs = vec![two];
    for l in 1..6 {
        let mut one = instr(l, vec![any], 1, vec![]);
        one.slots = Some(1);
        instrs.push(one);
    }
    let mut program = SimProgram {
        whole_dispatch: false,
        port_sharing: crate::sim::PortSharing::Any,
        move_slots: None,
        frontend: None,
        ports: PortAssignment::Dispatch,
        instrs,
    };
    let six_wide = SimMachine {
        issue_width: 6,
        ..skl()
    };
    let per_iteration =
        |p: &SimProgram| run(p, &six_wide, 600, WhatIf::default()).cycles as f64 / 600.0;
    assert!((per_iteration(&program) - 7.0 / 6.0).abs() < 0.01);
    program.whole_dispatch = true;
    assert!((per_iteration(&program) - 1.2).abs() < 0.01);
}

/// µops loaded in each cycle that loaded any.
#[derive(Default)]
struct LoadGroups(std::collections::BTreeMap<u64, u32>);
impl Observer for LoadGroups {
    fn loaded(&mut self, cycle: u64, _inst: InstRef, uops: u32) {
        *self.0.entry(cycle).or_default() += uops;
    }
}

fn issue_program(instrs: Vec<SimInstr>, whole_groups: bool) -> SimProgram {
    SimProgram {
        whole_dispatch: false,
        port_sharing: crate::sim::PortSharing::Any,
        move_slots: None,
        frontend: None,
        ports: PortAssignment::Issue(IssueRule {
            until_complete: false,
            alternate: 0,
            whole_groups,
        }),
        instrs,
    }
}

/// Whole issue groups (`IssueRule::whole_groups`): a chain of one-µop instructions of
/// latency 3 through a 6-entry scheduler; one instance completes every 3 cycles. Taking
/// what fits, the renamer fills the scheduler in two cycles (4 + 2), then loads one µop a
/// completion; with whole groups it loads 4, then waits for 4 free entries each time: the
/// 20 instances in 5 groups of 4. The chain binds either way: 3 cycles an iteration, 60.
#[test]
fn whole_issue_groups_wait_for_room_for_four() {
    let chain = instr(0, vec![ports(&[0, 1, 5, 6])], 3, vec![dep(0, 1, 3)]);
    let machine = SimMachine {
        scheduler_size: 6,
        ..skl()
    };
    let groups = |whole: bool| {
        let mut seen = LoadGroups::default();
        let program = issue_program(vec![chain.clone()], whole);
        let out = simulate(&program, &machine, &SimOptions::new(20), &mut seen).expect("runs");
        assert_eq!(out.cycles, 60);
        seen.0.into_values().collect::<Vec<_>>()
    };
    let fits = groups(false);
    assert_eq!(&fits[..3], &[4, 2, 1]);
    assert_eq!(groups(true), vec![4; 5]);
}

/// A partly loaded instance is finished even with whole groups: three-slot instructions,
/// issue width 4, a 4-entry scheduler: cycle 0 loads one whole and one slot of the next,
/// which cannot start before its other two µops come. Waiting for 4 free entries would
/// never end (the run hit the cycle limit before the rule exempted partial instances).
#[test]
fn whole_issue_groups_finish_a_partly_loaded_instance() {
    let mut wide = instr(0, vec![ports(&[0, 1, 5, 6]); 3], 1, vec![]);
    wide.slots = Some(3);
    let machine = SimMachine {
        scheduler_size: 4,
        ..skl()
    };
    let options = SimOptions {
        max_cycles: 10_000,
        ..SimOptions::new(20)
    };
    let out = simulate(
        &issue_program(vec![wide], true),
        &machine,
        &options,
        &mut NoObserver,
    )
    .expect("runs to the end");
    assert_eq!(out.iterations, 20);
}

const PF: WhatIf = WhatIf {
    perfect_frontend: true,
    infinite_ports: false,
    no_deps: false,
};

/// A perfect front end with whole issue groups waits for room for one issue group (4), not
/// for a whole scheduler: independent one-µop instructions of latency 2 on p0 alone through
/// a 6-entry scheduler run at the port's 1 per cycle with `-pf` as without it. Waiting for
/// 6 free entries (the scheduler drained: the last µop's entry is free a cycle after it
/// dispatched) cost a cycle every 6 instructions (7/6 cycles each).
#[test]
fn a_perfect_front_end_issues_whole_groups_of_the_issue_width() {
    let p0 = instr(0, vec![ports(&[0])], 2, vec![]);
    let machine = SimMachine {
        scheduler_size: 6,
        ..skl()
    };
    let program = issue_program(vec![p0], true);
    for what_if in [WhatIf::default(), PF] {
        let cycles = run(&program, &machine, 600, what_if).cycles as f64 / 600.0;
        assert!((cycles - 1.0).abs() < 0.01, "{what_if:?}: {cycles}");
    }
}

/// Ports bound at issue under a perfect front end see groups of the issue width, each
/// counted before the next: 96 independent one-µop instructions on {p0, p1, p5}, all loaded
/// in the first cycle, spread over the three ports (the first group p5 p1 p5 p1, the next
/// starts at the unused p0): 32 cycles of dispatch. One group of a whole scheduler saw
/// equal counts everywhere and bound every even slot to p5, every odd one to p1: 48 cycles,
/// slower than the real front end.
#[test]
fn a_perfect_front_end_binds_ports_group_by_group() {
    let any3 = instr(0, vec![ports(&[0, 1, 5])], 1, vec![]);
    let program = issue_program(vec![any3], false);
    let cycles = |what_if| run(&program, &skl(), 96, what_if).cycles;
    let (real, perfect) = (cycles(WhatIf::default()), cycles(PF));
    assert_eq!(perfect, 32, "perfect front end");
    assert!(perfect <= real, "perfect {perfect} vs real {real}");
}

/// `add rax, 1; mov rbx, rax; mov rax, rbx`-like chain: `add` (1 cycle) and a move that
/// feeds the next `add`. Eliminated the move adds nothing (1 cycle an iteration); executed
/// one cycle (2).
fn move_chain(slots: Option<u32>, release_cycles: u32) -> SimProgram {
    let p0156 = ports(&[0, 1, 5, 6]);
    let renames = vec![
        Rename {
            writes: 1,
            eliminable: None,
        },
        Rename {
            writes: 1 << 3,
            eliminable: Some(EliminableMove {
                dst: 3,
                src: 0,
                executed: p0156,
            }),
        },
    ];
    SimProgram {
        whole_dispatch: false,
        port_sharing: crate::sim::PortSharing::Any,
        move_slots: Some(MoveSlots {
            gpr: slots,
            vector: None,
            release_cycles,
            all_aliases: false,
            renames,
        }),
        frontend: None,
        ports: Default::default(),
        instrs: vec![
            instr(0, vec![p0156], 1, vec![dep(1, 1, 0)]),
            instr(1, vec![PortMask::EMPTY], 1, vec![dep(0, 0, 1)]),
        ],
    }
}

#[test]
fn moves_without_a_slot_execute_and_delay_their_consumers() {
    let tp = |slots, release| {
        let out = run(&move_chain(slots, release), &skl(), 1000, WhatIf::NONE);
        format!("{:.2}", out.throughput())
    };
    assert_eq!(tp(None, 0), "1.00", "unlimited: every move eliminated");
    assert_eq!(tp(Some(0), 0), "2.00", "no slot: every move executes");
    // One slot freed when the next copy's move writes rbx again, serving at once.
    assert_eq!(tp(Some(1), 0), "1.00");
    // Serving 3 cycles after that write: some moves execute.
    let slow: f64 = tp(Some(1), 3).parse().expect("number");
    assert!(slow > 1.0 && slow < 2.0, "{slow}");
    // Skipping the steady state gives the cycles of the full run.
    let program = move_chain(Some(1), 3);
    let options = SimOptions::new(1000);
    let full = simulate(&program, &skl(), &options, &mut NoObserver).expect("runs");
    let skipped = simulate(&program, &skl(), &options, &mut OutcomeOnly).expect("runs");
    assert_eq!(full.cycles, skipped.cycles);
}

/// A one-cycle chain whose every step reads a three-cycle result from ports 0/1 (`vmulpd`
/// into `vpminsd ymm2, ymm2, ymm1`): 1.00 cycle an iteration, as the chain allows. With the
/// step's results late on ports 0 and 1 (`SimInstr::late_on`, Redwood Cove's bypass), each
/// step gives its value a cycle later: 2.00 when it runs on port 0 or 1, still 1.00 when it
/// runs on port 5 only. The producer's own results are on time.
#[test]
fn late_results_lengthen_the_chain_on_their_ports() {
    let program = |step: PortMask, late_on: PortMask| SimProgram {
        whole_dispatch: false,
        port_sharing: crate::sim::PortSharing::Any,
        move_slots: None,
        frontend: None,
        ports: Default::default(),
        instrs: vec![
            instr(0, vec![ports(&[0, 1])], 3, vec![]),
            SimInstr {
                late_on,
                ..instr(1, vec![step], 1, vec![dep(0, 0, 3), dep(1, 1, 1)])
            },
        ],
    };
    let cycles = |step, late_on| {
        let t = run(&program(step, late_on), &skl(), 1000, WhatIf::NONE).throughput();
        format!("{t:.2}")
    };
    let p01 = ports(&[0, 1]);
    assert_eq!(cycles(p01, PortMask::EMPTY), "1.00");
    assert_eq!(cycles(p01, p01), "2.00");
    assert_eq!(cycles(ports(&[5]), p01), "1.00");
}
