//! Unit tests: the port LP on known cases (checked against a brute-force LP), the maximum
//! cycle ratio on small graphs. The worked examples are in `tests/model/bounds_examples.rs`.

use super::*;
use crate::uarch::{self, PortMask};

fn mask(arch: &MicroArch, s: &str) -> PortMask {
    arch.parse_port_mask(s).expect("port string")
}

fn groups(arch: &MicroArch, spec: &str) -> Vec<(PortMask, u64)> {
    spec.split('+')
        .map(|g| {
            let (n, p) = g.split_once('*').expect("N*pXX");
            (mask(arch, p), n.parse().expect("count"))
        })
        .collect()
}

#[test]
fn lp_known_cases() {
    let skl = uarch::load("SKL").unwrap();
    let p = port_pressure(&groups(&skl, "3*p015+1*p23")).unwrap();
    assert!((p.cycles - 1.0).abs() < 1e-12);
    assert_eq!(p.critical, mask(&skl, "p015"));
    assert_eq!(p.loads.get(&2), Some(&0.5));

    let hsw = uarch::load("HSW").unwrap();
    let p = port_pressure(&groups(&hsw, "1*p0156+1*p06")).unwrap();
    assert!((p.cycles - 0.5).abs() < 1e-12);
    // The largest critical set: both µops spread over 4 ports.
    assert_eq!(p.critical, mask(&hsw, "p0156"));
    for port in [0, 1, 5, 6] {
        assert_eq!(p.loads.get(&port), Some(&0.5));
    }

    // 4 imul on p1 and 10 ALU µops: p1 takes 4, the rest spread over p0, p5, p6.
    let p = port_pressure(&groups(&skl, "4*p1+10*p0156")).unwrap();
    assert!((p.cycles - 4.0).abs() < 1e-12);
    assert_eq!(p.critical, mask(&skl, "p1"));
    assert!((p.loads[&0] - 10.0 / 3.0).abs() < 1e-12);
    assert_eq!(p.loads.get(&2), None);

    assert_eq!(port_pressure(&[]), None);
    assert_eq!(port_pressure(&[(PortMask::EMPTY, 3)]), None);
}

/// Brute-force check of the LP optimum on small random instances: bisection on z with a
/// max-flow feasibility test (unit capacities scaled by z).
#[test]
fn lp_matches_flow_feasibility() {
    // Deterministic pseudo-random generator.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |m: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % m
    };
    for _ in 0..200 {
        let ports = 2 + next(5) as usize;
        let k = 1 + next(4) as usize;
        let gs: Vec<(PortMask, u64)> = (0..k)
            .map(|_| {
                let m = (1 + next((1 << ports) - 1)) as u32;
                (PortMask(m), 1 + next(6))
            })
            .collect();
        let z = port_pressure(&gs).unwrap();
        let loads: f64 = z.loads.values().sum();
        let total: u64 = gs.iter().map(|g| g.1).sum();
        assert!((loads - total as f64).abs() < 1e-9, "{gs:?}: loads {loads}");
        assert!(
            feasible(&gs, ports, z.cycles + 1e-9),
            "{gs:?} z {}",
            z.cycles
        );
        assert!(
            !feasible(&gs, ports, z.cycles - 1e-6),
            "{gs:?} z {}",
            z.cycles
        );
        let max_load = z.loads.values().copied().fold(0.0, f64::max);
        assert!((max_load - z.cycles).abs() < 1e-9);
    }
}

/// Whether every µop fits with at most `z` per port (Hall's condition on the bipartite
/// graph, i.e. max-flow = total): for every port set, the µops confined to it fit.
fn feasible(gs: &[(PortMask, u64)], ports: usize, z: f64) -> bool {
    (1u32..(1 << ports)).all(|q| {
        let confined: u64 = gs.iter().filter(|(m, _)| m.0 & !q == 0).map(|g| g.1).sum();
        confined as f64 <= z * f64::from(q.count_ones())
    })
}

#[test]
fn cycle_ratio_adc_chain() {
    // 8 adc in a CF chain (distance 0), the last feeding the first (distance 1), each also
    // a 1-cycle self loop on its register.
    let mut edges: Vec<(usize, usize, u32, u32)> = (0..7).map(|i| (i, i + 1, 1, 0)).collect();
    edges.push((7, 0, 1, 1));
    edges.extend((0..8).map(|i| (i, i, 1, 1)));
    let (lat, dist, lines) = max_cycle_ratio(8, &edges).unwrap();
    assert_eq!((lat, dist), (8, 1));
    assert_eq!(lines, (0..8).collect::<Vec<_>>());
}

#[test]
fn cycle_ratio_prefers_the_higher_mean() {
    // Cycle A: 0 -> 1 (d0, 3) -> 0 (d1, 1): 4 / 1. Cycle B: 2 -> 3 (d1, 5) -> 2 (d1, 4):
    // 9 / 2 = 4.5. A stencil-like counter self loop: 1 / 1.
    let edges = [
        (0, 1, 3, 0),
        (1, 0, 1, 1),
        (2, 3, 5, 1),
        (3, 2, 4, 1),
        (4, 4, 1, 1),
    ];
    let (lat, dist, mut lines) = max_cycle_ratio(5, &edges).unwrap();
    assert_eq!((lat, dist), (9, 2));
    lines.sort_unstable();
    assert_eq!(lines, vec![2, 3]);
    // No loop-carried edge: no cycle.
    assert_eq!(max_cycle_ratio(3, &[(0, 1, 2, 0), (1, 2, 2, 0)]), None);
    // Only the counter is carried.
    assert_eq!(
        max_cycle_ratio(3, &[(0, 1, 4, 0), (1, 2, 4, 0), (2, 2, 1, 1)]),
        Some((1, 1, vec![2]))
    );
}

#[test]
fn cycle_ratio_through_a_long_in_iteration_path() {
    // 0 -> 1 -> 2 -> 3 (d0, 2 each) and 3 -> 1 (d1, 1): (2 + 2 + 1) / 1 = 5 via 1, 2, 3.
    let edges = [(0, 1, 2, 0), (1, 2, 2, 0), (2, 3, 2, 0), (3, 1, 1, 1)];
    assert_eq!(max_cycle_ratio(4, &edges), Some((5, 1, vec![1, 2, 3])));
}

mod rows {
    use iced_x86::code_asm::*;

    use super::*;
    use crate::cfg::Cfg;
    use crate::db::{PortGroupDesc, Variant};

    const BASE: u64 = 0x2000;

    fn assemble(body: impl FnOnce(&mut CodeAssembler, CodeLabel)) -> Vec<Instr> {
        let mut a = CodeAssembler::new(64).unwrap();
        let mut top = a.create_label();
        a.set_label(&mut top).unwrap();
        body(&mut a, top);
        crate::decode::decode_bytes(&a.assemble(BASE).unwrap(), BASE).unwrap()
    }

    /// A 1-µop descriptor on `ports` (empty: no port), 1 cycle.
    fn d(arch: &MicroArch, ports: &str) -> InstrDesc {
        let port_groups = if ports.is_empty() {
            Vec::new()
        } else {
            vec![PortGroupDesc {
                count: 1,
                ports: arch.parse_port_mask(ports).unwrap(),
            }]
        };
        InstrDesc {
            string: String::new(),
            iform: String::new(),
            variant: Variant::Plain,
            uops: 1,
            port_groups,
            fused_uops: Some(1),
            uops_mite: None,
            uops_ms: None,
            complex_decoder: None,
            simple_decoders: None,
            div_cycles: None,
            macro_fusible_with: Vec::new(),
            throughput: None,
            latencies: Vec::new(),
            max_latency: 1.0,
        }
    }

    fn run(
        instrs: &[Instr],
        descs: &[Option<InstrDesc>],
        arch: &MicroArch,
        o: &BoundOptions,
    ) -> Bounds {
        let end = instrs.last().map_or(BASE, |i| i.address + i.len() as u64);
        let cfg = Cfg::build(instrs, BASE, end, 2);
        let deps = DepGraph::build(instrs, &cfg, true);
        compute(instrs, descs, &deps, &[], arch, o)
    }

    fn all(arch: &MicroArch, instrs: &[Instr], ports: &str) -> Vec<Option<InstrDesc>> {
        instrs.iter().map(|_| Some(d(arch, ports))).collect()
    }

    #[test]
    fn zen_counts_instructions_too() {
        let zen = uarch::load("ZEN+").unwrap();
        let instrs = assemble(|a, _| {
            for r in [rax, rbx, rcx, rdx, rsi, rdi, r8, r9, r10, r11] {
                a.add(r, 1).unwrap();
            }
        });
        let descs = all(&zen, &instrs, "");
        let b = run(&instrs, &descs, &zen, &BoundOptions::default());
        assert_eq!(b.cycles(BoundKind::IssueWidth), Some(10.0 / 6.0));
        assert_eq!(b.cycles(BoundKind::IssueInstructions), Some(2.0));
        assert_eq!(b.bottleneck, Some(BoundKind::IssueInstructions));
        // Intel has no separate instruction row.
        let skl = uarch::load("SKL").unwrap();
        let b = run(
            &instrs,
            &all(&skl, &instrs, "p0156"),
            &skl,
            &BoundOptions::default(),
        );
        assert!(b.row(BoundKind::IssueInstructions).is_none());
    }

    #[test]
    fn gathers_count_per_element_and_push_is_a_simple_store() {
        let skl = uarch::load("SKL").unwrap();
        let instrs = assemble(|a, _| {
            a.vpgatherdd_3(ymm0, dword_ptr(rdi + ymm1 * 4), ymm2)
                .unwrap();
            a.vpgatherqd_3(xmm3, dword_ptr(rdi + ymm4 * 4), xmm5)
                .unwrap();
            a.push(rax).unwrap();
            a.mov(qword_ptr(rsp + 4096), rax).unwrap();
            a.prefetcht0(byte_ptr(rsi)).unwrap();
            a.lea(rax, qword_ptr(rsi + 8)).unwrap();
        });
        let descs = all(&skl, &instrs, "p0156");
        let b = run(&instrs, &descs, &skl, &BoundOptions::default());
        // 8 + 4 gathered elements + the prefetch; `lea` is no access.
        assert_eq!(b.cycles(BoundKind::Loads), Some(13.0 / 2.0));
        assert_eq!(b.cycles(BoundKind::Stores), Some(2.0));
        // Only the store at +4096 is complex: (13 + 1) / 2.
        assert_eq!(b.cycles(BoundKind::ComplexAddressing), Some(7.0));
    }

    #[test]
    fn expected_line_splits() {
        let skl = uarch::load("SKL").unwrap();
        let instrs = assemble(|a, _| {
            a.vmovdqu(ymm0, ymmword_ptr(rdi)).unwrap();
        });
        let descs = all(&skl, &instrs, "p23");
        let o = BoundOptions {
            expected_line_splits: true,
            ..BoundOptions::default()
        };
        let b = run(&instrs, &descs, &skl, &o);
        // (1 + 31/64) loads / 2.
        assert_eq!(b.cycles(BoundKind::Loads), Some((1.0 + 31.0 / 64.0) / 2.0));
        let b = run(&instrs, &descs, &skl, &BoundOptions::default());
        assert_eq!(b.cycles(BoundKind::Loads), Some(0.5));
    }

    #[test]
    fn lsd_makes_the_uop_cache_informational() {
        let hsw = uarch::load("HSW").unwrap();
        let instrs = assemble(|a, top| {
            a.add(rax, 1).unwrap();
            a.sub(rcx, 1).unwrap();
            a.jne(top).unwrap();
        });
        let descs = all(&hsw, &instrs, "p0156");
        let b = run(&instrs, &descs, &hsw, &BoundOptions::default());
        assert_eq!(b.row(BoundKind::Dsb).unwrap().state, RowState::Info);
        assert_eq!(b.row(BoundKind::Mite).unwrap().state, RowState::Info);
        assert!(matches!(
            b.row(BoundKind::Lsd).unwrap().facts,
            BoundFacts::Lsd(LsdFacts {
                enabled: Some(true),
                streams: true,
                ..
            })
        ));
        let skl = uarch::load("SKL").unwrap();
        let b = run(
            &instrs,
            &all(&skl, &instrs, "p0156"),
            &skl,
            &BoundOptions::default(),
        );
        assert_eq!(b.row(BoundKind::Dsb).unwrap().state, RowState::Bound);
        assert!(matches!(
            b.row(BoundKind::Lsd).unwrap().facts,
            BoundFacts::Lsd(LsdFacts {
                enabled: Some(false),
                ..
            })
        ));
    }

    #[test]
    fn divider_and_microcode() {
        let skl = uarch::load("SKL").unwrap();
        let instrs = assemble(|a, _| {
            a.div(rcx).unwrap();
            a.div(rcx).unwrap();
            a.cpuid().unwrap();
        });
        let mut descs = all(&skl, &instrs, "p0");
        for x in descs.iter_mut().take(2).flatten() {
            x.div_cycles = Some(21);
        }
        if let Some(x) = descs[2].as_mut() {
            x.uops_ms = Some(100);
        }
        let b = run(&instrs, &descs, &skl, &BoundOptions::default());
        assert_eq!(b.cycles(BoundKind::Divider), Some(42.0));
        assert_eq!(b.cycles(BoundKind::Microcode), Some(25.0));
        assert_eq!(b.bottleneck, Some(BoundKind::Divider));
    }

    #[test]
    fn empty_region_has_no_prediction_but_all_rows() {
        let skl = uarch::load("SKL").unwrap();
        let b = run(&[], &[], &skl, &BoundOptions::default());
        assert!(b.rows.len() >= 14);
        assert!(b.chain.is_none());
        assert_eq!(b.predicted, Some(0.0));
        assert_eq!(b.bottleneck, None);
    }

    #[test]
    fn every_row_carries_the_facts_of_its_kind() {
        let instrs = assemble(|a, top| {
            a.add(rax, qword_ptr(rdi)).unwrap();
            a.mov(qword_ptr(rsi + rcx * 8), rax).unwrap();
            a.sub(rcx, 1).unwrap();
            a.jne(top).unwrap();
        });
        for name in ["SKL", "HSW", "ZEN4"] {
            let arch = uarch::load(name).unwrap();
            let descs = all(&arch, &instrs, "");
            let b = run(&instrs, &descs, &arch, &BoundOptions::default());
            let mut kinds: Vec<BoundKind> = b.rows.iter().map(|r| r.kind).collect();
            for r in &b.rows {
                assert_eq!(r.facts.kind(), r.kind, "{name}: {:?}", r.facts);
            }
            kinds.dedup();
            assert_eq!(kinds.len(), b.rows.len(), "{name}: one row per kind");
        }
    }

    #[test]
    fn ooo_window_flags_an_iteration_larger_than_the_rob() {
        let skl = uarch::load("SKL").unwrap();
        let instrs = assemble(|a, _| {
            for _ in 0..230 {
                a.nop().unwrap();
            }
        });
        let descs = all(&skl, &instrs, "");
        let b = run(&instrs, &descs, &skl, &BoundOptions::default());
        let r = b.row(BoundKind::OooWindow).unwrap();
        assert_eq!(r.state, RowState::Info);
        let BoundFacts::OooWindow(w) = &r.facts else {
            panic!("{:?}", r.facts)
        };
        assert_eq!(w.exceeded, vec![Structure::Rob], "{w:?}");
    }

    #[test]
    fn macro_fusion_switch() {
        let skl = uarch::load("SKL").unwrap();
        let instrs = assemble(|a, top| {
            a.add(rax, 1).unwrap();
            a.cmp(rax, rcx).unwrap();
            a.jne(top).unwrap();
        });
        let mut descs = all(&skl, &instrs, "p0156");
        if let (Some(c), Some(j)) = (descs[1].as_mut(), Some("JNZ (Rel8)")) {
            c.macro_fusible_with = vec![j.to_string()];
        }
        if let Some(j) = descs[2].as_mut() {
            j.string = "JNZ (Rel8)".into();
        }
        let b = run(&instrs, &descs, &skl, &BoundOptions::default());
        assert_eq!(b.cycles(BoundKind::IssueWidth), Some(0.5));
        let o = BoundOptions {
            macro_fusion: false,
            ..BoundOptions::default()
        };
        let b = run(&instrs, &descs, &skl, &o);
        assert_eq!(b.cycles(BoundKind::IssueWidth), Some(0.75));
    }
}

#[test]
fn cycle_ratio_scales_to_large_blocks() {
    // 3000 lines: a pointer bump carried into 2998 loads (heads without a way back), one
    // accumulator chain through 1000 lines.
    let n = 3000;
    let mut edges: Vec<(usize, usize, u32, u32)> = (0..n - 1).map(|i| (n - 1, i, 1, 1)).collect();
    edges.push((n - 1, n - 1, 1, 1));
    edges.extend((0..999).map(|i| (i, i + 1, 4, 0)));
    edges.push((999, 0, 4, 1));
    let start = std::time::Instant::now();
    let (lat, dist, lines) = max_cycle_ratio(n, &edges).unwrap();
    assert_eq!((lat, dist), (4000, 1));
    assert_eq!(lines.len(), 1000);
    assert!(start.elapsed().as_secs() < 10);
}
