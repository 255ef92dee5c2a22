//! Per-line statistics of one run: the thesis' main table (§2.1) and the detail view (§2.6).
//!
//! Sample rendering (thesis §4.1, SNB, 200 iterations):
//! ```text
//! Line | Num Uops | had to wait | caused to wait | 0   | 1   | 2 | 3 | 4 | 5   | Instruction
//! 0    | 1        | 15.6        | 46.7           | 1.0 |     |   |   |   |     | mov rax, 0x6
//! ```
//! "had to wait": cycles per iteration the line was loaded but could not start (blocked port
//! or unresolved dependency). "caused to wait": cycles per iteration in which the line was
//! blamed for another line's wait, at most once per waiting instruction and cycle (thesis
//! Algorithm 4, the `Blamed` set); not transitive. Port columns: µops per iteration on each
//! port; the divider column: cycles per iteration the divider was busy.

use std::collections::BTreeMap;

use crate::sim::{InstRef, Observer, SimProgram, WaitCause};

/// Raw counters for one program line, summed over all iterations.
#[derive(Clone, Debug, Default)]
struct Counters {
    had_to_wait: u64,
    caused_to_wait: u64,
    port_uops: Vec<u64>,
    divider_cycles: u64,
    /// Cycles another line waited because this line held port p.
    caused_on_port: Vec<u64>,
    /// Cycles this line waited while port p was held by another line.
    had_on_port: Vec<u64>,
}

/// Collects the per-line statistics of one run.
///
/// Events arrive by the million: counters live in a `Vec`, one slot per line, found from
/// the event's program index without a map lookup (the map serves lines only).
#[derive(Debug)]
pub struct LineStats {
    lines: Vec<u32>,
    /// Counters of each line, by slot.
    counters: Vec<Counters>,
    /// The line of each slot.
    slot_lines: Vec<u32>,
    /// Slot of each line.
    slot_of_line: BTreeMap<u32, usize>,
    /// Slot of each program index.
    slot_of_index: Vec<usize>,
    /// By consumer slot: (producer line, cycles the consumer waited for the producer).
    dep_waits: Vec<Vec<(u32, u64)>>,
    port_count: usize,
    /// Reused buffer of blamed instances (iteration, index, line).
    scratch: Vec<(u32, u32, u32)>,
}

/// One row of the main table, values per iteration.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct LineRow {
    /// Line in the region.
    pub line: u32,
    /// µops of the instruction.
    pub uops: u32,
    /// Cycles per iteration the line had to wait.
    pub had_to_wait: f64,
    /// Cycles per iteration the line caused others to wait.
    pub caused_to_wait: f64,
    /// µops per iteration on each port (`None` where the line never used the port).
    pub ports: Vec<Option<f64>>,
    /// Divider busy cycles per iteration (`None` when the line does not divide).
    pub divider: Option<f64>,
}

/// Dependency delays between the detailed line and one other line (thesis §2.6).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct DepDelay {
    /// The other line.
    pub line: u32,
    /// Cycles per iteration the other line was delayed by the detailed line.
    pub was_delayed: f64,
    /// Cycles per iteration the other line delayed the detailed line.
    pub has_delayed: f64,
}

/// Port delays of the detailed line on one port (thesis §2.6).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PortDelay {
    /// The port index.
    pub port: usize,
    /// Cycles per iteration other lines were delayed because the detailed line held the port.
    pub was_delayed: f64,
    /// Cycles per iteration the detailed line was delayed because the port was held.
    pub has_delayed: f64,
}

/// Delay details of one line.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct LineDetail {
    /// The detailed line.
    pub line: u32,
    /// Dependency delays with each related line, ascending by line.
    pub dependencies: Vec<DepDelay>,
    /// Port delays on each port the line can use or was blocked on, ascending.
    pub ports: Vec<PortDelay>,
}

impl LineStats {
    /// Statistics for the lines of `program` on a machine with `port_count` ports.
    pub fn new(program: &SimProgram, port_count: usize) -> Self {
        let lines: Vec<u32> = program.instrs.iter().map(|i| i.line).collect();
        let mut stats = LineStats {
            lines: lines.clone(),
            counters: Vec::new(),
            slot_lines: Vec::new(),
            slot_of_line: BTreeMap::new(),
            slot_of_index: Vec::new(),
            dep_waits: Vec::new(),
            port_count,
            scratch: Vec::new(),
        };
        stats.slot_of_index = lines.iter().map(|&l| stats.slot(l)).collect();
        stats
    }

    /// The slot of `line`, created on first use.
    fn slot(&mut self, line: u32) -> usize {
        if let Some(&s) = self.slot_of_line.get(&line) {
            return s;
        }
        let ports = self.port_count;
        self.counters.push(Counters {
            port_uops: vec![0; ports],
            caused_on_port: vec![0; ports],
            had_on_port: vec![0; ports],
            ..Counters::default()
        });
        self.slot_lines.push(line);
        self.dep_waits.push(Vec::new());
        self.slot_of_line.insert(line, self.counters.len() - 1);
        self.counters.len() - 1
    }

    /// The slot of an event's instruction: by its index, checked against its line (events
    /// of another program fall back to the line).
    fn slot_of(&mut self, inst: InstRef) -> usize {
        match self.slot_of_index.get(inst.index as usize) {
            Some(&s) if self.slot_lines[s] == inst.line => s,
            _ => self.slot(inst.line),
        }
    }

    fn counters_of_line(&self, line: u32) -> Option<&Counters> {
        self.slot_of_line.get(&line).map(|&s| &self.counters[s])
    }

    /// The main table's rows in program order, per iteration.
    pub fn rows(&self, program: &SimProgram, iterations: u32) -> Vec<LineRow> {
        let per = |v: u64| v as f64 / f64::from(iterations.max(1));
        program
            .instrs
            .iter()
            .map(|ins| {
                let c = &self.counters[self.slot_of_line[&ins.line]];
                LineRow {
                    line: ins.line,
                    uops: ins.uops.len() as u32,
                    had_to_wait: per(c.had_to_wait),
                    caused_to_wait: per(c.caused_to_wait),
                    ports: c
                        .port_uops
                        .iter()
                        .map(|&n| (n > 0).then(|| per(n)))
                        .collect(),
                    divider: (ins.div_cycles > 0).then(|| per(c.divider_cycles)),
                }
            })
            .collect()
    }

    /// Whether any line used the divider (the divider column is shown only then).
    pub fn divider_used(&self) -> bool {
        self.counters.iter().any(|c| c.divider_cycles > 0)
    }

    /// The detail view of `line`, per iteration.
    pub fn detail(&self, line: u32, iterations: u32) -> Option<LineDetail> {
        let c = self.counters_of_line(line)?;
        let per = |v: u64| v as f64 / f64::from(iterations.max(1));
        let mut deps: BTreeMap<u32, (u64, u64)> = BTreeMap::new();
        for (slot, waits) in self.dep_waits.iter().enumerate() {
            let consumer = self.slot_lines[slot];
            for &(producer, n) in waits {
                if producer == line {
                    deps.entry(consumer).or_default().0 += n;
                }
                if consumer == line {
                    deps.entry(producer).or_default().1 += n;
                }
            }
        }
        let dependencies = deps
            .into_iter()
            .map(|(l, (was, has))| DepDelay {
                line: l,
                was_delayed: per(was),
                has_delayed: per(has),
            })
            .collect();
        let ports = (0..self.port_count)
            .filter(|&p| c.port_uops[p] > 0 || c.caused_on_port[p] > 0 || c.had_on_port[p] > 0)
            .map(|p| PortDelay {
                port: p,
                was_delayed: per(c.caused_on_port[p]),
                has_delayed: per(c.had_on_port[p]),
            })
            .collect();
        Some(LineDetail {
            line,
            dependencies,
            ports,
        })
    }

    /// Lines in program order.
    pub fn lines(&self) -> &[u32] {
        &self.lines
    }
}

impl Observer for LineStats {
    fn waited(&mut self, _cycle: u64, inst: InstRef, causes: &[WaitCause]) {
        let me = self.slot_of(inst);
        self.counters[me].had_to_wait += 1;
        // Each blamed instruction is held responsible once (thesis Algorithm 4, `Blamed`).
        let mut blamed = std::mem::take(&mut self.scratch);
        blamed.clear();
        for cause in causes {
            match *cause {
                WaitCause::Dependency { producer } => {
                    let waits = &mut self.dep_waits[me];
                    match waits.iter_mut().find(|(l, _)| *l == producer.line) {
                        Some((_, n)) => *n += 1,
                        None => waits.push((producer.line, 1)),
                    }
                    blamed.push((producer.iteration, producer.index, producer.line));
                }
                WaitCause::Port { port, holder } => {
                    self.counters[me].had_on_port[port] += 1;
                    let h = self.slot_of(holder);
                    self.counters[h].caused_on_port[port] += 1;
                    blamed.push((holder.iteration, holder.index, holder.line));
                }
                WaitCause::Divider { holder } => {
                    blamed.push((holder.iteration, holder.index, holder.line));
                }
                WaitCause::NotLoaded => {}
            }
        }
        blamed.sort_unstable();
        blamed.dedup();
        for &(iteration, index, line) in &blamed {
            let s = self.slot_of(InstRef {
                iteration,
                index,
                line,
            });
            self.counters[s].caused_to_wait += 1;
        }
        self.scratch = blamed;
    }

    fn uop_dispatched(&mut self, _cycle: u64, inst: InstRef, _uop: u32, port: Option<usize>) {
        if let Some(p) = port {
            let s = self.slot_of(inst);
            self.counters[s].port_uops[p] += 1;
        }
    }

    fn divider_used(&mut self, _cycle: u64, inst: InstRef, cycles: u32) {
        let s = self.slot_of(inst);
        self.counters[s].divider_cycles += u64::from(cycles);
    }
}
