//! The engine as it was before the speed rewrite (issue #4 item 5), kept verbatim under
//! `#[cfg(test)]` as the oracle of the equivalence tests: the new engine must produce the same
//! outcome and the same event trace for every program and what-if combination.

use std::collections::VecDeque;

use super::engine::{SimError, SimOutcome, MAX_UOPS_PER_INSTR};
use super::event::{InstRef, Observer, WaitCause};
use super::options::SimOptions;
use super::program::{IssueRule, PortAssignment, PortSharing, SimMachine, SimProgram};
use crate::uarch::PortMask;

/// Dynamic state of one instruction instance. The state machine:
/// loading (`loaded < uops`) → waiting (`started == NOT_STARTED`) → executing → complete.
#[derive(Clone, Debug)]
struct Slot {
    /// Position in the program (kept so the hot loop never divides by the program length).
    index: u32,
    /// Iteration.
    iteration: u32,
    /// µops loaded into the scheduler so far.
    loaded: u32,
    /// Bit `u` set: µop `u` got a port (or needs none).
    assigned: u64,
    /// Cycle execution started, or `NOT_STARTED`.
    started: u64,
    /// Left the scheduler.
    complete: bool,
    /// The ports its µops took so far.
    took: PortMask,
    /// Its results come a cycle late (`SimInstr::late_on`).
    late: bool,
    /// With port assignment at issue: the port bound to each loaded µop.
    ports: Vec<Option<usize>>,
}

const NOT_STARTED: u64 = u64::MAX;

/// Runs `program` for `options.iterations` iterations on `machine`, reporting to `observer`.
///
/// Generic over the observer so that observers' empty methods compile away.
pub(crate) fn simulate<O: Observer + ?Sized>(
    program: &SimProgram,
    machine: &SimMachine,
    options: &SimOptions,
    observer: &mut O,
) -> Result<SimOutcome, SimError> {
    Engine::new(program, machine, options)?.run(observer)
}

struct Engine<'a> {
    program: &'a SimProgram,
    options: &'a SimOptions,
    /// µops of each program instruction (at least 1: a µop without ports stands for
    /// instructions that use none).
    uop_counts: Vec<u32>,
    /// Index of the divider µop of each instruction, if it divides.
    div_uop: Vec<Option<(usize, u32)>>,
    load_width: u32,
    /// The issue group of port assignment at issue (the machine's issue width).
    group_width: u32,
    scheduler_size: u32,
    ports: Ports,
    /// Instances `base .. base + window.len()`; all older ones are complete.
    window: VecDeque<Slot>,
    base: u64,
    /// Instance ids loaded but not started, ascending.
    waiting: Vec<u64>,
    /// µops in the scheduler (loaded, not complete).
    occupancy: u32,
    /// Completion buckets by cycle modulo their count.
    completions: Vec<Vec<u64>>,
    divider_busy_until: u64,
    divider_holder: Option<u64>,
    total_instances: u64,
    loaded_instances: u64,
    /// Position and iteration of the next instance to load.
    next_index: u32,
    next_iteration: u32,
    completed_instances: u64,
    /// Scratch buffers reused each cycle.
    causes: Vec<WaitCause>,
    still_waiting: Vec<u64>,
    /// Port assignment at issue, if the program asks for it.
    issue: Option<Issue>,
}

/// The counts of port assignment at issue, written out plainly.
struct Issue {
    rule: IssueRule,
    /// µops bound to each port by earlier cycles, not yet released.
    waiting: Vec<u32>,
    /// µops bound this cycle.
    group: Vec<u32>,
    /// µops on the alternating pair bound so far.
    alternated: u64,
}

impl Issue {
    /// The port for a µop on `mask` in issue slot `slot`.
    fn bind(&mut self, mask: PortMask, slot: u32) -> Option<usize> {
        let mut ranked: Vec<usize> = mask.iter().filter(|&p| p < self.waiting.len()).collect();
        if ranked.is_empty() {
            return None;
        }
        let bits = ranked.iter().fold(0u32, |m, &p| m | 1 << p);
        let p = if self.rule.alternate != 0 && bits == self.rule.alternate {
            self.alternated += 1;
            ranked[(1 - self.alternated % 2) as usize]
        } else {
            ranked.sort_by_key(|&p| (self.waiting[p], std::cmp::Reverse(p)));
            let (min, second) = (ranked[0], *ranked.get(1).unwrap_or(&ranked[0]));
            let min2 = if self.waiting[second] >= self.waiting[min] + 3 {
                min
            } else {
                second
            };
            [min, min2][(slot % 2) as usize]
        };
        self.group[p] += 1;
        Some(p)
    }

    /// The group is complete: its µops count from now on.
    fn end_group(&mut self) {
        for p in 0..self.waiting.len() {
            self.waiting[p] += std::mem::take(&mut self.group[p]);
        }
    }
}

impl<'a> Engine<'a> {
    fn new(
        program: &'a SimProgram,
        machine: &SimMachine,
        options: &'a SimOptions,
    ) -> Result<Self, SimError> {
        if program.instrs.is_empty() {
            return Err(SimError::EmptyProgram);
        }
        if options.iterations == 0 || options.iterations > SimOptions::MAX_ITERATIONS {
            return Err(SimError::Iterations {
                given: options.iterations,
                max: SimOptions::MAX_ITERATIONS,
            });
        }
        if machine.issue_width == 0 || machine.scheduler_size == 0 {
            return Err(SimError::Machine(
                "issue width and scheduler size must be positive",
            ));
        }
        let mut uop_counts = Vec::with_capacity(program.instrs.len());
        let mut div_uop = Vec::with_capacity(program.instrs.len());
        let mut max_latency = 1;
        for ins in &program.instrs {
            if ins.uops.len() > MAX_UOPS_PER_INSTR {
                return Err(SimError::TooManyUops {
                    line: ins.line,
                    uops: ins.uops.len(),
                    max: MAX_UOPS_PER_INSTR,
                });
            }
            uop_counts.push(ins.uops.len().max(1) as u32);
            div_uop.push(match ins.div_cycles {
                c if c > 0 => machine.divider_of(&ins.uops),
                _ => None,
            });
            max_latency = max_latency.max(ins.latency.max(1));
        }
        // An instruction bigger than the scheduler could never be loaded completely: let the
        // scheduler hold at least one whole instruction.
        let biggest = uop_counts.iter().copied().max().unwrap_or(1);
        let scheduler_size = machine.scheduler_size.max(biggest);
        let load_width = if options.what_if.perfect_frontend {
            scheduler_size
        } else {
            machine.issue_width
        };
        let group_width = machine.issue_width.min(load_width);
        Ok(Engine {
            program,
            options,
            uop_counts,
            div_uop,
            load_width,
            group_width,
            scheduler_size,
            ports: Ports::new(
                machine.port_count,
                options.what_if.infinite_ports,
                program.port_sharing,
            ),
            window: VecDeque::new(),
            base: 0,
            waiting: Vec::new(),
            occupancy: 0,
            completions: vec![Vec::new(); max_latency as usize + 1],
            divider_busy_until: 0,
            divider_holder: None,
            total_instances: program.instrs.len() as u64 * u64::from(options.iterations),
            loaded_instances: 0,
            next_index: 0,
            next_iteration: 0,
            completed_instances: 0,
            causes: Vec::new(),
            still_waiting: Vec::new(),
            issue: match program.ports {
                PortAssignment::Issue(rule) if machine.port_count < 15 => Some(Issue {
                    rule,
                    waiting: vec![0; machine.port_count],
                    group: vec![0; machine.port_count],
                    alternated: 0,
                }),
                _ => None,
            },
        })
    }

    fn n(&self) -> u64 {
        self.program.instrs.len() as u64
    }

    fn inst_ref(&self, id: u64) -> InstRef {
        if id >= self.base {
            let s = &self.window[(id - self.base) as usize];
            return InstRef {
                iteration: s.iteration,
                index: s.index,
                line: self.program.instrs[s.index as usize].line,
            };
        }
        let index = (id % self.n()) as u32;
        InstRef {
            iteration: (id / self.n()) as u32,
            index,
            line: self.program.instrs[index as usize].line,
        }
    }

    fn slot(&self, id: u64) -> &Slot {
        &self.window[(id - self.base) as usize]
    }

    fn slot_mut(&mut self, id: u64) -> &mut Slot {
        let base = self.base;
        &mut self.window[(id - base) as usize]
    }

    fn run<O: Observer + ?Sized>(mut self, observer: &mut O) -> Result<SimOutcome, SimError> {
        let mut cycle = 0u64;
        while self.completed_instances < self.total_instances {
            if cycle >= self.options.max_cycles {
                return Err(SimError::CycleLimit(self.options.max_cycles));
            }
            observer.cycle_started(cycle);
            self.load(cycle, observer);
            self.choose_ports(cycle, observer);
            self.execute(cycle, observer);
            self.ports.clear();
            cycle += 1;
        }
        observer.finished(cycle);
        let uops = self.program.uops_per_iteration() * u64::from(self.options.iterations);
        Ok(SimOutcome {
            cycles: cycle,
            iterations: self.options.iterations,
            uops,
        })
    }

    /// Thesis Algorithm 3: load up to `min(width, free scheduler space)` µops in order;
    /// an instruction may be loaded partially.
    fn load<O: Observer + ?Sized>(&mut self, cycle: u64, observer: &mut O) {
        let mut budget = self
            .load_width
            .min(self.scheduler_size.saturating_sub(self.occupancy));
        // Ports bound at issue with whole groups: room for a whole group, or nothing (unless
        // an instance is partly loaded, or the scheduler is smaller than a group).
        let partial =
            matches!(self.window.back(), Some(s) if s.loaded < self.uop_counts[s.index as usize]);
        if matches!(&self.issue, Some(i) if i.rule.whole_groups)
            && budget < self.group_width
            && self.scheduler_size >= self.group_width
            && !partial
        {
            budget = 0;
        }
        let mut position = 0;
        while budget > 0 {
            // The newest instance still loading, or a fresh one.
            let id = match self.window.back() {
                Some(s) if s.loaded < self.uop_counts[s.index as usize] => {
                    self.base + self.window.len() as u64 - 1
                }
                _ => {
                    if self.loaded_instances == self.total_instances {
                        break;
                    }
                    let (index, iteration) = (self.next_index, self.next_iteration);
                    self.next_index += 1;
                    if self.next_index as usize == self.program.instrs.len() {
                        self.next_index = 0;
                        self.next_iteration += 1;
                    }
                    self.window.push_back(Slot {
                        index,
                        iteration,
                        loaded: 0,
                        assigned: 0,
                        started: NOT_STARTED,
                        complete: false,
                        took: PortMask::EMPTY,
                        late: false,
                        ports: Vec::new(),
                    });
                    let id = self.loaded_instances;
                    self.loaded_instances += 1;
                    self.waiting.push(id);
                    id
                }
            };
            let slot = &self.window[(id - self.base) as usize];
            let total = self.uop_counts[slot.index as usize];
            let slot = &mut self.window[(id - self.base) as usize];
            let now = budget.min(total - slot.loaded);
            if let Some(issue) = &mut self.issue {
                let masks = &self.program.instrs[slot.index as usize].uops;
                let divider = self.div_uop[slot.index as usize];
                for u in slot.loaded..slot.loaded + now {
                    let mask = masks.get(u as usize).copied().unwrap_or_default();
                    // The division is bound to the divider's port.
                    let mask = match divider {
                        Some((dp, du)) if du == u && mask.contains(dp) => PortMask::single(dp),
                        _ => mask,
                    };
                    // A perfect front end's load splits into issue groups, each counted
                    // before the next is bound.
                    if position > 0 && position % self.group_width == 0 {
                        issue.end_group();
                    }
                    slot.ports
                        .push(issue.bind(mask, position % self.group_width));
                    position += 1;
                }
            }
            slot.loaded += now;
            budget -= now;
            self.occupancy += now;
            let inst = self.inst_ref(id);
            observer.loaded(cycle, inst, now);
        }
        if let Some(issue) = &mut self.issue {
            issue.end_group();
        }
    }

    /// Whether the producer of `input` for instance `id` has released its value by `cycle`;
    /// `Err(producer id)` otherwise.
    fn dependencies_resolved(&mut self, id: u64, cycle: u64) -> bool {
        self.causes.clear();
        if self.options.what_if.no_deps {
            return true;
        }
        let n = self.n();
        let slot = &self.window[(id - self.base) as usize];
        let iteration = u64::from(slot.iteration);
        let instr = &self.program.instrs[slot.index as usize];
        for input in &instr.inputs {
            let Some(piter) = iteration.checked_sub(u64::from(input.distance)) else {
                continue; // before the first iteration: the value is ready
            };
            let pid = piter * n + u64::from(input.producer);
            if pid < self.base {
                continue; // complete long ago
            }
            let producer = &self.window[(pid - self.base) as usize];
            let started = producer.started;
            let offset = input.offset + u32::from(producer.late);
            let ready = started != NOT_STARTED && cycle >= started + u64::from(offset);
            if !ready {
                let producer = self.inst_ref(pid);
                let cause = WaitCause::Dependency { producer };
                if !self.causes.contains(&cause) {
                    self.causes.push(cause);
                }
            }
        }
        self.causes.is_empty()
    }

    /// Thesis Algorithms 4 and 5: in program order, start every instance whose inputs are
    /// ready and whose loaded µops all got ports.
    fn choose_ports<O: Observer + ?Sized>(&mut self, cycle: u64, observer: &mut O) {
        let waiting = std::mem::take(&mut self.waiting);
        self.still_waiting.clear();
        for &id in &waiting {
            if !self.dependencies_resolved(id, cycle) {
                let inst = self.inst_ref(id);
                observer.waited(cycle, inst, &self.causes);
                self.still_waiting.push(id);
                continue;
            }
            let (index, loaded, mut assigned, mut took) = {
                let s = self.slot(id);
                (s.index as usize, s.loaded, s.assigned, s.took)
            };
            let total = self.uop_counts[index];
            let inst = self.inst_ref(id);
            let mut executable = loaded == total;
            if !executable {
                self.causes.push(WaitCause::NotLoaded);
            }
            let masks = &self.program.instrs[index].uops;
            for u in 0..loaded {
                if assigned & (1 << u) != 0 {
                    continue;
                }
                let mask = masks.get(u as usize).copied().unwrap_or_default();
                if mask.is_empty() {
                    assigned |= 1 << u;
                    observer.uop_dispatched(cycle, inst, u, None);
                    continue;
                }
                let divider = self.div_uop[index];
                let is_div = divider.map(|(_, du)| du) == Some(u);
                if is_div && cycle < self.divider_busy_until {
                    executable = false;
                    if let Some(h) = self.divider_holder {
                        let holder = self.inst_ref(h);
                        self.causes.push(WaitCause::Divider { holder });
                    }
                    continue;
                }
                let single = mask.len() == 1 && divider.is_none();
                let mask = match (is_div, divider) {
                    (true, Some((dp, _))) if mask.contains(dp) => {
                        crate::uarch::PortMask::single(dp)
                    }
                    _ => mask,
                };
                let bound = self.slot(id).ports.get(u as usize).copied().flatten();
                let mask = bound.map_or(mask, PortMask::single);
                match self.ports.place(mask, id, single) {
                    Placement::Placed(p) => {
                        if let (Some(issue), Some(_)) = (&mut self.issue, bound) {
                            if !issue.rule.until_complete {
                                issue.waiting[p] -= 1;
                            }
                        }
                        assigned |= 1 << u;
                        took = took.union(PortMask::single(p));
                        observer.uop_dispatched(cycle, inst, u, Some(p));
                        if is_div {
                            let cycles = self.program.instrs[index].div_cycles;
                            self.divider_busy_until = cycle + u64::from(cycles);
                            self.divider_holder = Some(id);
                            observer.divider_used(cycle, inst, cycles);
                        }
                    }
                    Placement::Blocked => {
                        executable = false;
                        for (port, h) in self.ports.blockers(mask, id) {
                            let holder = self.inst_ref(h);
                            let cause = WaitCause::Port { port, holder };
                            if !self.causes.contains(&cause) {
                                self.causes.push(cause);
                            }
                        }
                    }
                }
            }
            let all = if total >= 64 {
                u64::MAX
            } else {
                (1u64 << total) - 1
            };
            self.slot_mut(id).assigned = assigned;
            self.slot_mut(id).took = took;
            if executable && assigned & all == all {
                let late = !PortMask(took.0 & self.program.instrs[index].late_on.0).is_empty();
                let slot = self.slot_mut(id);
                slot.started = cycle;
                slot.late = late;
                let latency = self.program.instrs[index].latency.max(1) + u32::from(late);
                let done = cycle + u64::from(latency) - 1;
                let bucket = (done % self.completions.len() as u64) as usize;
                self.completions[bucket].push(id);
                observer.started(cycle, inst);
            } else {
                observer.waited(cycle, inst, &self.causes);
                self.still_waiting.push(id);
            }
        }
        self.waiting = std::mem::take(&mut self.still_waiting);
        self.still_waiting = waiting;
    }

    /// Thesis Algorithm 6: instances whose latency ends this cycle complete and leave the
    /// scheduler.
    fn execute<O: Observer + ?Sized>(&mut self, cycle: u64, observer: &mut O) {
        let bucket = (cycle % self.completions.len() as u64) as usize;
        let mut done = std::mem::take(&mut self.completions[bucket]);
        done.sort_unstable();
        for &id in &done {
            let index = self.slot(id).index as usize;
            let total = self.uop_counts[index];
            if let Some(issue) = &mut self.issue {
                if issue.rule.until_complete {
                    for p in self.window[(id - self.base) as usize]
                        .ports
                        .iter()
                        .flatten()
                    {
                        issue.waiting[*p] -= 1;
                    }
                }
            }
            self.slot_mut(id).complete = true;
            self.occupancy -= total;
            self.completed_instances += 1;
            let inst = self.inst_ref(id);
            observer.completed(cycle, inst);
        }
        done.clear();
        self.completions[bucket] = done;
        while self.window.front().is_some_and(|s| s.complete) {
            self.window.pop_front();
            self.base += 1;
        }
    }
}

/// Per-cycle port occupancy plus the usage-ordered port queue.
#[derive(Debug)]
struct Ports {
    /// Instance id holding each port in the current cycle.
    holder: Vec<Option<u64>>,
    /// µops assigned to each port since the start of the run.
    usage: Vec<u64>,
    /// Port indices sorted by (usage, index): the thesis' `port_queue`.
    order: Vec<usize>,
    /// `-ip`: a port never refuses a µop.
    infinite: bool,
    /// When a port held by the placing instance itself counts as free
    /// ([`super::SimProgram::port_sharing`]).
    sharing: PortSharing,
}

/// Result of trying to place one µop.
enum Placement {
    /// The µop got this port.
    Placed(usize),
    /// Every allowed port was held by another instance.
    Blocked,
}

impl Ports {
    fn new(count: usize, infinite: bool, sharing: PortSharing) -> Self {
        Ports {
            holder: vec![None; count],
            usage: vec![0; count],
            order: (0..count).collect(),
            infinite,
            sharing,
        }
    }

    /// Tries the ports of `mask` in usage order; a port held by `owner` itself counts as free
    /// (an instruction never blocks itself, thesis §3.3) as `sharing` says; `single`: the
    /// µop was allowed on one port only before binding, and is no divider µop.
    fn place(&mut self, mask: PortMask, owner: u64, single: bool) -> Placement {
        let shared = match self.sharing {
            PortSharing::Any => true,
            PortSharing::MultiPort => !single,
            PortSharing::None => false,
        };
        let mut found = None;
        for (pos, &p) in self.order.iter().enumerate() {
            if !mask.contains(p) {
                continue;
            }
            match self.holder[p] {
                None => {}
                Some(h) if (h == owner && shared) || self.infinite => {}
                Some(_) => continue,
            }
            found = Some((pos, p));
            break;
        }
        let Some((pos, p)) = found else {
            return Placement::Blocked;
        };
        self.holder[p] = Some(owner);
        self.usage[p] += 1;
        // Keep `order` sorted by (usage, index): the used port moves right past cheaper ones.
        let mut i = pos;
        while i + 1 < self.order.len() {
            let q = self.order[i + 1];
            if (self.usage[q], q) < (self.usage[p], p) {
                self.order.swap(i, i + 1);
                i += 1;
            } else {
                break;
            }
        }
        Placement::Placed(p)
    }

    /// Ports of `mask` held by instances other than `owner`, with their holders.
    fn blockers(&self, mask: PortMask, owner: u64) -> impl Iterator<Item = (usize, u64)> + '_ {
        mask.iter()
            .filter(|&p| p < self.holder.len())
            .filter_map(move |p| match self.holder[p] {
                Some(h) if h != owner => Some((p, h)),
                _ => None,
            })
    }

    /// Frees every port (thesis Algorithm 7: ports are pipelined).
    fn clear(&mut self) {
        self.holder.iter_mut().for_each(|h| *h = None);
    }
}
