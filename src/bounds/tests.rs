//! Unit tests: the port LP on known cases (checked against a brute-force LP), the maximum
//! cycle ratio on small graphs. The worked examples are in `tests/bounds_examples.rs`.

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

#[test]
fn number_formatting() {
    assert_eq!(fmt_num(3.5), "3.5");
    assert_eq!(fmt_num(4.0), "4");
    assert_eq!(fmt_num(1.0 / 3.0), "0.333");
    assert_eq!(fmt_num(0.0), "0");
}
