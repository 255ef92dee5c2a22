//! Rows 2 (port pressure) and 3 (divider).
//!
//! Port pressure is the uops.info throughput LP (uops.info §5.3.2, docs/sources.md) over the whole
//! loop body: minimize the most loaded port when every µop may go to any port of its set. Its
//! optimum is `max over port sets Q of (µops whose set ⊆ Q) / |Q|` (a Hall-type max-flow/min-cut
//! bound). A maximizing Q is a union of µop port sets, so the search enumerates the union closure
//! of the distinct sets (at most 2^ports, ≤ 16384 for 14 ports), with exact integer ratios.
//!
//! The per-port loads are the balanced optimal assignment: the largest maximizing set Q1
//! takes exactly z1 on each of its ports (its µops fill it), the other µops are restricted to
//! the remaining ports and the procedure repeats.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use super::facts::{BoundFacts, PortFacts, PortGroup, PortSolution};
use super::{BoundKind, BoundOptions, BoundRow, PortLoad, RowState};
use crate::db::InstrDesc;
use crate::ir::Instr;
use crate::pipeline::counts::Counts;
use crate::pipeline::ports::uop_masks;
use crate::uarch::{MicroArch, PortMask, Role};

/// The solution of the port-usage LP.
#[derive(Clone, Debug, PartialEq)]
pub struct PortPressure {
    /// The optimum: cycles per iteration on the most loaded port.
    pub cycles: f64,
    /// The critical port set Q\* (the largest set reaching the optimum).
    pub critical: PortMask,
    /// µops per port (by port index) in a balanced optimal assignment.
    pub loads: BTreeMap<usize, f64>,
}

/// A density `num / den` compared exactly.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Ratio {
    num: u64,
    den: u64,
}

impl Ratio {
    fn cmp(self, other: Ratio) -> Ordering {
        (u128::from(self.num) * u128::from(other.den))
            .cmp(&(u128::from(other.num) * u128::from(self.den)))
    }

    fn value(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

/// The densest port set: max `Σ µops with set ⊆ Q / |Q|`; ties go to the larger set (the
/// maximizers are closed under union, so this is their union), then the smaller mask.
fn densest(groups: &BTreeMap<PortMask, u64>) -> Option<(Ratio, PortMask)> {
    let mut unions: BTreeSet<PortMask> = BTreeSet::new();
    for &m in groups.keys() {
        let new: Vec<PortMask> = unions.iter().map(|u| u.union(m)).collect();
        unions.insert(m);
        unions.extend(new);
    }
    let mut best: Option<(Ratio, PortMask)> = None;
    for q in unions {
        let num: u64 = groups
            .iter()
            .filter(|(m, _)| m.is_subset(q))
            .map(|(_, c)| *c)
            .sum();
        let r = Ratio {
            num,
            den: q.len() as u64,
        };
        let better = match best {
            None => true,
            Some((b, bq)) => match r.cmp(b) {
                Ordering::Greater => true,
                Ordering::Equal => q.len() > bq.len(),
                Ordering::Less => false,
            },
        };
        if better {
            best = Some((r, q));
        }
    }
    best
}

/// Solves the port-usage LP for µop counts per port set (µops without ports are ignored).
/// `None` when no µop needs a port.
pub fn port_pressure(groups: &[(PortMask, u64)]) -> Option<PortPressure> {
    let mut remaining: BTreeMap<PortMask, u64> = BTreeMap::new();
    for &(m, c) in groups {
        if !m.is_empty() && c > 0 {
            *remaining.entry(m).or_default() += c;
        }
    }
    let (first, critical) = densest(&remaining)?;
    let mut loads = BTreeMap::new();
    while let Some((r, q)) = densest(&remaining) {
        for p in q.iter() {
            loads.insert(p, r.value());
        }
        // µops inside Q fill it; the others keep only their ports outside Q.
        let mut next: BTreeMap<PortMask, u64> = BTreeMap::new();
        for (m, c) in remaining {
            let rest = PortMask(m.0 & !q.0);
            if !m.is_subset(q) && !rest.is_empty() {
                *next.entry(rest).or_default() += c;
            }
        }
        remaining = next;
    }
    Some(PortPressure {
        cycles: first.value(),
        critical,
        loads,
    })
}

/// The port row's result with the data for [`super::Bounds`].
pub(super) struct PortsRow {
    pub row: BoundRow,
    pub loads: Vec<PortLoad>,
    pub critical: Vec<String>,
}

/// Row 2.
pub(super) fn row(c: &Counts, descs: &[Option<InstrDesc>], arch: &MicroArch) -> PortsRow {
    let mut groups: BTreeMap<PortMask, u64> = BTreeMap::new();
    let mut no_port = 0u64;
    let alu = arch.ports_with_role(Role::Alu);
    for (i, d) in descs.iter().enumerate() {
        let Some(d) = d else { continue };
        let mut masks = uop_masks(d);
        let on_alu = |line: usize| c.alu_fused_pairs.binary_search(&line).is_ok();
        if c.fused_pairs.binary_search(&i).is_ok() && !on_alu(i) {
            // A macro-fused pair executes as the branch µop: drop the flag writer's ALU µop.
            if let Some(k) = masks.iter().position(|m| m.0 & alu.0 != 0) {
                masks.remove(k);
            }
        } else if i > 0 && on_alu(i - 1) {
            // ... or as the writer's ALU µop: drop the Jcc's branch µop.
            if let Some(k) = masks.iter().position(|m| !m.is_empty()) {
                masks.remove(k);
            }
        }
        if c.alu_holders.binary_search(&i).is_ok() {
            let held = crate::pipeline::ports::hold_every_alu(arch, &mut masks);
            masks.extend(held);
        }
        for m in masks {
            if m.is_empty() {
                no_port += 1;
            } else {
                *groups.entry(m).or_default() += 1;
            }
        }
    }
    // Two 256-bit register writes a µop on the vector-write ports, as the simulation (an odd
    // one left at the end of the iteration goes uncounted there too).
    let write_ports = arch.ports_with_role(Role::VectorWrite);
    if c.vector_writes >= 2 && !write_ports.is_empty() {
        *groups.entry(write_ports).or_default() += u64::from(c.vector_writes / 2);
    }
    let list: Vec<(PortMask, u64)> = groups.iter().map(|(m, c)| (*m, *c)).collect();
    let names =
        |m: PortMask| -> Vec<String> { arch.port_names(m).into_iter().map(String::from).collect() };
    let mut facts = PortFacts {
        no_data: !c.any_data() && c.n > 0,
        usage: list
            .iter()
            .map(|&(m, uops)| PortGroup {
                ports: names(m),
                uops,
            })
            .collect(),
        without_port: no_port,
        solution: None,
    };
    let Some(p) = port_pressure(&list) else {
        let (state, cycles) = if facts.no_data {
            (RowState::Unknown, None)
        } else {
            (RowState::Bound, Some(0.0))
        };
        return PortsRow {
            row: BoundRow::new(BoundKind::Ports, state, cycles, BoundFacts::Ports(facts))
                .left_out(c.left_out.clone()),
            loads: Vec::new(),
            critical: Vec::new(),
        };
    };
    let confined: u64 = list
        .iter()
        .filter(|(m, _)| m.is_subset(p.critical))
        .map(|(_, c)| c)
        .sum();
    let loads: Vec<PortLoad> = (0..arch.ports.len())
        .map(|i| PortLoad {
            port: arch.port_name(i).unwrap_or("?").to_string(),
            load: p.loads.get(&i).copied().unwrap_or(0.0),
        })
        .collect();
    let critical = names(p.critical);
    facts.solution = Some(PortSolution {
        critical: critical.clone(),
        confined,
        loads: loads.clone(),
    });
    let row = BoundRow::new(
        BoundKind::Ports,
        RowState::Bound,
        Some(p.cycles),
        BoundFacts::Ports(facts),
    )
    .left_out(c.left_out.clone());
    PortsRow {
        row,
        loads,
        critical,
    }
}

/// Row 3 (second part): Σ the cycles each serializing instruction holds the next, as the
/// simulation chains them (`db::serializing`); not applicable when the model
/// overlaps them (`--no-serializing`).
pub(super) fn serializing_row(
    instrs: &[Instr],
    descs: &[Option<InstrDesc>],
    opts: &BoundOptions,
) -> BoundRow {
    let lines: Vec<(usize, u32)> = instrs
        .iter()
        .enumerate()
        .filter_map(|(line, i)| {
            let desc = descs.get(line).and_then(Option::as_ref);
            Some((line, crate::db::serializing::hold_cycles(i, desc)?))
        })
        .collect();
    let total: u64 = lines.iter().map(|&(_, v)| u64::from(v)).sum();
    let (state, cycles) = if opts.serializing {
        (RowState::Bound, Some(total as f64))
    } else {
        (RowState::NotApplicable, None)
    };
    let facts = BoundFacts::Serializing {
        cycles: total,
        lines: lines.iter().map(|l| l.0).collect(),
    };
    BoundRow::new(BoundKind::Serializing, state, cycles, facts)
}

/// Row 3: Σ `div_cycles` (the divider is not pipelined).
pub(super) fn divider_row(c: &Counts, descs: &[Option<InstrDesc>]) -> BoundRow {
    let lines: Vec<(usize, u32)> = descs
        .iter()
        .enumerate()
        .filter_map(|(i, d)| d.as_ref()?.div_cycles.filter(|&v| v > 0).map(|v| (i, v)))
        .collect();
    let total: u64 = lines.iter().map(|&(_, v)| u64::from(v)).sum();
    let no_data = !c.any_data() && c.n > 0;
    let (state, cycles) = if no_data {
        (RowState::Unknown, None)
    } else {
        (RowState::Bound, Some(total as f64))
    };
    let facts = BoundFacts::Divider {
        no_data,
        cycles: total,
        lines: lines.iter().map(|l| l.0).collect(),
    };
    BoundRow::new(BoundKind::Divider, state, cycles, facts).left_out(c.left_out.clone())
}
