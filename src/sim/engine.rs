//! The cycle loop (thesis Algorithm 7) and the only emitter of [`Event`]s.
//!
//! Memory does not grow with the iteration count: only the instances between the oldest
//! incomplete one and the newest loaded one are kept (`Window`), and reports aggregate
//! events per line.
//!
//! Speed (issue #4 item 5): per-instruction facts are precomputed (`Plan`); everything a
//! waiting instance needs (its position, loaded and assigned µops) is one record in the
//! window, the waiting list holds bare ids, so a cycle touches only the waiting instances,
//! the ports and one completion bucket. Observers that decline `waited` events let waiting
//! instances sleep until their inputs can be ready. The order of events and every decision are those of thesis
//! Algorithms 3–7; `reference.rs` keeps the former engine as the oracle of the tests.
//!
//! [`Event`]: crate::sim::Observer

use std::collections::HashMap;

use thiserror::Error;

use super::assign::Assigner;
use super::event::{InstRef, Observer, WaitCause};
use super::options::SimOptions;
use super::plan::{Op, Plan, NO_DIV};
use super::ports::{Ports, MAX_PORTS};
use super::program::{PortAssignment, PortSharing, SimMachine, SimProgram};
use super::window::{Window, NOT_STARTED};

mod issue_group;
mod move_slots;
mod parking;
mod readiness;
mod steady;

use issue_group::{issue_slot, step};
use move_slots::MoveRenamer;

/// Most µops per instruction the engine tracks individually.
pub const MAX_UOPS_PER_INSTR: usize = 64;

/// Why a simulation could not run.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SimError {
    /// Nothing to simulate.
    #[error("the region has no instruction to simulate")]
    EmptyProgram,
    /// `iterations` was 0 or above the bound.
    #[error("iteration count {given} is out of range (1 to {max})")]
    Iterations {
        /// The requested count.
        given: u32,
        /// The largest accepted count.
        max: u32,
    },
    /// The run exceeded `max_cycles`.
    #[error("the simulation exceeded {0} cycles; use fewer iterations")]
    CycleLimit(u64),
    /// The machine cannot run the program (no scheduler space, zero width, ...).
    #[error("invalid machine description: {0}")]
    Machine(&'static str),
    /// An instruction has more µops than the engine tracks.
    #[error("instruction {line} has {uops} µops; at most {max} are supported")]
    TooManyUops {
        /// Line of the instruction.
        line: u32,
        /// Its µop count.
        uops: usize,
        /// The limit.
        max: usize,
    },
    /// An input names a producer outside the program.
    #[error("instruction {line} depends on an instruction outside the program")]
    UnknownProducer {
        /// Line of the consuming instruction.
        line: u32,
    },
}

/// Totals of one run.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SimOutcome {
    /// Cycles until the last instruction completed.
    pub cycles: u64,
    /// Iterations simulated.
    pub iterations: u32,
    /// µops executed.
    pub uops: u64,
}

impl SimOutcome {
    /// Block throughput: cycles per iteration (thesis §2.1).
    pub fn throughput(&self) -> f64 {
        self.cycles as f64 / f64::from(self.iterations)
    }

    /// µops per cycle.
    pub fn uops_per_cycle(&self) -> f64 {
        if self.cycles == 0 {
            0.0
        } else {
            self.uops as f64 / self.cycles as f64
        }
    }
}

/// The engine's record of an instance, kept in the window; it matters while the instance
/// waits (loaded, at least partly, but not started). Plain words without padding.
#[derive(Copy, Clone, Debug, Default)]
struct Waiting {
    /// Bit `u` set: µop `u` got a port (or needs none).
    assigned: u64,
    iteration: u32,
    index: u32,
    /// µops loaded into the scheduler so far; only the newest instance can be partial.
    loaded: u32,
    /// 1: all inputs were ready in an earlier cycle, so they still are (readiness never
    /// reverts: start cycles are final and `base` only grows).
    deps_ready: u16,
    /// The ports its µops took so far (the first 16), for `Op::late_on`.
    took: u16,
    /// Issue slots loaded so far.
    slots_loaded: u32,
    /// With port assignment at issue: the port of µop `u` in bits `4 * (u % 16)..` of
    /// `ports[u / 16]`, [`UNBOUND`] for a µop the assigner did not bind.
    ports: [u64; 4],
    /// The waiting instances parked until this one starts (see [`Engine::park`]): 1 + the
    /// index in `Engine::parked` of the first, 0 for none. Fills the record's padding.
    parked: u32,
}

/// The port nibble of a µop without a bound port (it needs none, or names none of the
/// machine's): it dispatches by its mask. Machines with 15 ports or more keep SUACA's rule.
const UNBOUND: u64 = 15;

impl Waiting {
    /// The port bound to µop `u`, if any.
    #[inline]
    fn port(&self, u: u32) -> Option<usize> {
        let nibble = (self.ports[(u / 16) as usize] >> (4 * (u % 16))) & 15;
        (nibble != UNBOUND).then_some(nibble as usize)
    }

    #[inline]
    fn bind(&mut self, u: u32, port: Option<usize>) {
        let nibble = port.map_or(UNBOUND, |p| p as u64);
        let (word, shift) = ((u / 16) as usize, 4 * (u % 16));
        self.ports[word] = (self.ports[word] & !(15 << shift)) | (nibble << shift);
    }
}

/// An entry of the waiting list.
#[derive(Copy, Clone, Debug)]
struct Entry {
    id: u64,
    /// Without `waited` events an instance whose inputs were not ready sleeps: they cannot
    /// be ready before cycle `wake`, nor before instance `blocker` (unless [`NO_BLOCKER`])
    /// started. Only a lower bound: the inputs are checked again on waking. Kept here, not
    /// in the record, so that a sleeping instance costs one look at this list.
    wake: u64,
    blocker: u64,
    /// Without `waited` events, a shortcut for an instance whose inputs are ready but whose
    /// µops found no free port: the union of the ports (within the machine's) its waiting
    /// µops may take, as of its last turn. While every one of them is held by others, its
    /// turn would place nothing and change nothing, so it is skipped without reading its
    /// record (same decisions, fewer loads). 0: no shortcut (the turn is taken in full);
    /// reset whenever the instance's loaded µops change.
    need: u32,
}

const NO_BLOCKER: u64 = u64::MAX;

impl Entry {
    fn awake(id: u64) -> Self {
        Entry {
            id,
            wake: 0,
            blocker: NO_BLOCKER,
            need: 0,
        }
    }
}

impl Waiting {
    fn inst(&self, op: &Op) -> InstRef {
        InstRef {
            iteration: self.iteration,
            index: self.index,
            line: op.line,
        }
    }
}

/// An instance that completes in a given cycle.
#[derive(Copy, Clone, Debug)]
struct Completion {
    id: u64,
    inst: InstRef,
}

/// Runs `program` for `options.iterations` iterations on `machine`, reporting to `observer`.
///
/// Generic over the observer so that observers' empty methods compile away.
pub fn simulate<O: Observer + ?Sized>(
    program: &SimProgram,
    machine: &SimMachine,
    options: &SimOptions,
    observer: &mut O,
) -> Result<SimOutcome, SimError> {
    let plan = Plan::new(program, machine, options)?;
    Engine::new(program, &plan, machine, options).run(observer)
}

struct Engine<'a> {
    program: &'a SimProgram,
    options: &'a SimOptions,
    /// Borrowed, not owned, so that an instruction's facts can be read while the engine
    /// changes.
    plan: &'a Plan,
    ports: Ports,
    window: Window<Waiting>,
    /// Instances loaded but not started, ascending.
    waiting: Vec<Entry>,
    /// µops in the scheduler (loaded, not complete).
    occupancy: u32,
    /// Completion buckets indexed by cycle & `bucket_mask`; more buckets than the largest
    /// latency, so a bucket only ever holds instances of one completion cycle.
    completions: Vec<Vec<Completion>>,
    bucket_mask: u64,
    divider_busy_until: u64,
    divider_holder: Option<InstRef>,
    total_instances: u64,
    /// Position and iteration of the next instance to load.
    next_index: u32,
    next_iteration: u32,
    completed_instances: u64,
    /// Scratch buffer of the current instance's wait causes.
    causes: Vec<WaitCause>,
    /// Without `waited` events, waiting instances whose inputs cannot be ready before
    /// another instance starts leave the waiting list until it starts (see
    /// [`Engine::park`]): their entries and the link to the next one parked on the same
    /// instance (1 + index, 0 for none). A slab; `parked_free` lists its free slots.
    parked: Vec<(Entry, u32)>,
    parked_free: Vec<u32>,
    /// Entries parked until cycle `wake`, by `wake & bucket_mask` (a wake is at most the
    /// largest latency ahead, so a bucket holds one cycle's).
    timers: Vec<Vec<Entry>>,
    /// Parked entries whose turn comes later in the current pass, descending ids.
    woken: Vec<Entry>,
    /// Parked entries woken in the current pass whose place in it is already passed: they
    /// join the waiting list for the next cycle.
    late: Vec<Entry>,
    /// The waiting list's other buffer (each pass writes the next list into it).
    spare: Vec<Entry>,
    /// Relative states seen at iteration boundaries (see [`Engine::skip_steady_state`]).
    seen: HashMap<Vec<u64>, Mark>,
    /// When the front end delivers the next iteration, in 1/`Delivery::per` cycles.
    delivery_next: i64,
    /// Port assignment at issue, if the program asks for it.
    assigner: Option<Assigner>,
    /// The machine's ports, as a mask.
    valid_ports: u32,
    /// The renamer's move-elimination slots, if the program limits them.
    moves: Option<MoveRenamer>,
}

/// When and where a relative state was seen.
#[derive(Debug)]
struct Mark {
    cycle: u64,
    end: u64,
    usage: [u64; MAX_PORTS],
}

/// Most states remembered at once; the map starts over when full (bounded memory).
const MAX_SEEN: usize = 256;

impl<'a> Engine<'a> {
    fn new(
        program: &'a SimProgram,
        plan: &'a Plan,
        machine: &SimMachine,
        options: &'a SimOptions,
    ) -> Self {
        let n = plan.ops.len();
        let buckets = (plan.max_latency as usize + 1).next_power_of_two();
        Engine {
            program,
            options,
            ports: Ports::new(machine.port_count, options.what_if.infinite_ports),
            // Room for a full scheduler plus an iteration; grows if a long wait needs more.
            window: Window::new(plan.scheduler_size as usize + n),
            waiting: Vec::new(),
            occupancy: 0,
            completions: vec![Vec::new(); buckets],
            bucket_mask: buckets as u64 - 1,
            divider_busy_until: 0,
            divider_holder: None,
            total_instances: n as u64 * u64::from(options.iterations),
            next_index: 0,
            next_iteration: 0,
            completed_instances: 0,
            causes: Vec::new(),
            parked: Vec::new(),
            parked_free: Vec::new(),
            timers: vec![Vec::new(); buckets],
            woken: Vec::new(),
            late: Vec::new(),
            spare: Vec::new(),
            seen: HashMap::new(),
            delivery_next: 0,
            assigner: match program.ports {
                PortAssignment::Issue(rule) if machine.port_count < UNBOUND as usize => {
                    Some(Assigner::new(rule))
                }
                _ => None,
            },
            valid_ports: match machine.port_count {
                c if c >= MAX_PORTS => u32::MAX,
                c => (1 << c) - 1,
            },
            moves: program
                .move_slots
                .as_ref()
                .filter(|_| plan.move_slots)
                .map(MoveRenamer::new),
            plan,
        }
    }

    fn run<O: Observer + ?Sized>(&mut self, observer: &mut O) -> Result<SimOutcome, SimError> {
        match (observer.wants_waits(), observer.wants_cycles()) {
            (true, true) => self.run_with::<true, true, O>(observer),
            (false, true) => self.run_with::<false, true, O>(observer),
            (_, false) => self.run_with::<false, false, O>(observer),
        }
    }

    /// The cycle loop; `WAITS`: whether to work out and send `waited` events; `CYCLES`:
    /// whether every cycle must be simulated (else steady states are skipped).
    fn run_with<const WAITS: bool, const CYCLES: bool, O: Observer + ?Sized>(
        &mut self,
        observer: &mut O,
    ) -> Result<SimOutcome, SimError> {
        let mut cycle = 0u64;
        while self.completed_instances < self.total_instances {
            if !CYCLES && self.at_iteration_boundary() {
                let later = self.skip_steady_state(cycle);
                if later != cycle {
                    cycle = later;
                    continue; // the skipped stretch may have completed the run
                }
            }
            if cycle >= self.options.max_cycles {
                return Err(SimError::CycleLimit(self.options.max_cycles));
            }
            observer.cycle_started(cycle);
            self.load(cycle, observer);
            self.choose_ports::<WAITS, O>(cycle, observer);
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
    /// an instruction may be loaded partially. The width counts issue slots (fused
    /// domain; one per µop under SUACA's front end), and with a front-end delivery rate an
    /// iteration begins to load only once the front end delivered it.
    fn load<O: Observer + ?Sized>(&mut self, cycle: u64, observer: &mut O) {
        let ops = &self.plan.ops;
        let mut budget = self.plan.load_width;
        let mut space = self.plan.scheduler_size.saturating_sub(self.occupancy);
        // Bound at issue with whole groups: a whole group or nothing. Not while an instance is
        // partly loaded (its loaded µops cannot start before the rest: waiting could never
        // end), nor when the scheduler is smaller than a group.
        let partial = matches!(self.waiting.last(), Some(e) if self.is_partial(e.id));
        let group = self.plan.group_width;
        if let Some(assigner) = &mut self.assigner {
            if assigner.whole_groups()
                && space < group
                && self.plan.scheduler_size >= group
                && !partial
            {
                assigner.end_group();
                return;
            }
        }
        // The issue group the binding sees: a perfect front end's load splits into groups of
        // the issue width, each counted before the next is bound.
        let mut group_index = 0;
        loop {
            // The newest instance still loading is the last waiting one; else load a fresh one.
            let partial = matches!(self.waiting.last(), Some(e) if self.is_partial(e.id));
            if !partial {
                if self.next_iteration as u64 * ops.len() as u64 + u64::from(self.next_index)
                    == self.total_instances
                {
                    break;
                }
                let op = &ops[self.next_index as usize];
                if step(op, 0, 0, budget, space) == (0, 0) {
                    break;
                }
                if self.next_index == 0 && !self.delivered(cycle) {
                    break;
                }
                let (index, iteration) = (self.next_index, self.next_iteration);
                self.next_index += 1;
                if self.next_index as usize == ops.len() {
                    self.next_index = 0;
                    self.next_iteration += 1;
                }
                let no_deps = self.options.what_if.no_deps;
                let id = self.window.push(|_| Waiting {
                    assigned: 0,
                    iteration,
                    index,
                    loaded: 0,
                    deps_ready: u16::from(no_deps),
                    took: 0,
                    slots_loaded: 0,
                    ports: [0; 4],
                    parked: 0,
                });
                if let Some(moves) = &mut self.moves {
                    let rename = self
                        .program
                        .move_slots
                        .as_ref()
                        .and_then(|m| m.renames.get(index as usize));
                    let executed = rename.is_some_and(|r| moves.rename(cycle, r));
                    self.window.set_executed(id, executed);
                }
                self.waiting.push(Entry::awake(id));
            }
            let Some(&Entry { id, .. }) = self.waiting.last() else {
                unreachable!("an instance is loading");
            };
            let executed = self.executes_move(id);
            // Changed in place: no copy of the record in and out.
            let w = self.window.record_mut(id);
            let op = &ops[w.index as usize];
            let (s, d) = step(op, w.slots_loaded, w.loaded, budget, space);
            if (s, d) == (0, 0) {
                break;
            }
            if let Some(assigner) = &mut self.assigner {
                let first = self.plan.load_width - budget;
                for u in w.loaded..w.loaded + d {
                    let mut slot = issue_slot(op, u, w.slots_loaded, s, first);
                    // Only a perfect front end loads more than one group a cycle.
                    if slot >= group {
                        if slot / group != group_index {
                            group_index = slot / group;
                            assigner.end_group();
                        }
                        slot %= group;
                    }
                    let mask = self.plan.uop_mask(op, w.index, u, executed) & self.valid_ports;
                    w.bind(u, assigner.bind(mask, slot));
                }
            }
            w.slots_loaded += s;
            w.loaded += d;
            let inst = w.inst(op);
            budget -= s;
            space -= d;
            self.occupancy += d;
            if d > 0 {
                if let Some(last) = self.waiting.last_mut() {
                    // Its pending µops changed: no shortcut until its next full turn.
                    last.need = 0;
                }
                observer.loaded(cycle, inst, d);
            }
        }
        if let Some(assigner) = &mut self.assigner {
            assigner.end_group();
        }
    }

    /// Whether instance `id` is only partly loaded.
    #[inline]
    fn is_partial(&self, id: u64) -> bool {
        let w = self.window.record(id);
        w.slots_loaded < self.plan.ops[w.index as usize].slots
    }

    /// Whether the front end delivered the next iteration by `cycle`; if so, books its
    /// delivery (the next one follows one period later, or one period after the queue's
    /// reach behind this cycle when loading fell behind).
    #[inline]
    fn delivered(&mut self, cycle: u64) -> bool {
        let Some(d) = self.plan.delivery else {
            return true;
        };
        // Signed, so that the rule is the same at every cycle (steady states repeat exactly).
        let now = (cycle * d.per) as i64;
        if now < self.delivery_next {
            return false;
        }
        let reach = now - (d.ahead * d.per) as i64;
        self.delivery_next = self.delivery_next.max(reach) + d.cycles as i64;
        true
    }

    /// Thesis Algorithms 4 and 5: in program order, start every instance whose inputs are
    /// ready and whose loaded µops all got ports.
    fn choose_ports<const WAITS: bool, O: Observer + ?Sized>(
        &mut self,
        cycle: u64,
        observer: &mut O,
    ) {
        let waiting = std::mem::take(&mut self.waiting);
        // The next waiting list, in ascending ids: the kept entries of `waiting` merged with
        // the parked ones whose turn came.
        let mut next = std::mem::take(&mut self.spare);
        next.clear();
        // The records leave the window for the pass, so that a turn changes its instance's
        // record in place instead of copying 64 bytes in and out; the pass neither loads
        // instances nor reads records through the window.
        let mut records = self.window.take_records();
        if !WAITS {
            // Entries parked until this cycle take their turn, in id order.
            let bucket = (cycle & self.bucket_mask) as usize;
            if !self.timers[bucket].is_empty() {
                self.woken.append(&mut self.timers[bucket]);
                self.woken.sort_unstable_by_key(|e| std::cmp::Reverse(e.id));
            }
        }
        let mut i = 0;
        loop {
            // The lower id of the list's next entry and the next woken one.
            let listed = waiting.get(i).copied();
            let entry = match (listed, self.woken.last().map(|w| w.id)) {
                (Some(e), Some(w)) if w >= e.id => {
                    i += 1;
                    e
                }
                (Some(e), None) => {
                    i += 1;
                    e
                }
                (_, Some(_)) => match self.woken.pop() {
                    Some(w) => w,
                    None => unreachable!("a woken entry is next"),
                },
                (None, None) => break,
            };
            // The entry goes to the next list first and its turn changes it there: a turn
            // writes single fields, and copying the entry right after (wide loads over
            // narrow stores) stalled on store forwarding (a sixth of the engine's samples on an Intel
            // host, family 6 model 167: `perf record -e cpu-clock`, one-off).
            next.push(entry);
            let entry = next.last_mut().expect("just pushed");
            // Every port its waiting µops may take is held by another instance: its turn
            // would place nothing (see `Entry::need`).
            let blocked = !WAITS && entry.need != 0 && entry.need & !self.ports.held() == 0;
            if !blocked && (WAITS || !self.asleep(entry, cycle)) {
                let w = &mut records[self.window.slot(entry.id)];
                let started = self.try_start::<WAITS, O>(w, entry, cycle, observer);
                if started || (!WAITS && self.park(entry, cycle, &mut records)) {
                    next.pop();
                }
            }
        }
        if !self.late.is_empty() {
            next.append(&mut self.late);
            next.sort_unstable_by_key(|e| e.id);
        }
        self.waiting = next;
        self.spare = waiting;
        self.window.restore_records(records);
    }

    /// One waiting instance's turn: places its µops, starts it if it can, else reports
    /// why it waits. Returns whether it started.
    #[inline]
    fn try_start<const WAITS: bool, O: Observer + ?Sized>(
        &mut self,
        w: &mut Waiting,
        entry: &mut Entry,
        cycle: u64,
        observer: &mut O,
    ) -> bool {
        let op = &self.plan.ops[w.index as usize];
        let inst = w.inst(op);
        if WAITS {
            self.causes.clear();
        }
        if w.deps_ready == 0 {
            if !self.dependencies_ready::<WAITS>(w, entry, op, cycle) {
                if WAITS {
                    observer.waited(cycle, inst, &self.causes);
                }
                return false;
            }
            w.deps_ready = 1;
        }
        let mut executable = w.loaded == op.uops;
        if WAITS && !executable {
            self.causes.push(WaitCause::NotLoaded);
        }
        let mut own = 0;
        let loaded = if w.loaded >= 64 {
            u64::MAX
        } else {
            (1 << w.loaded) - 1
        };
        let mut pending = loaded & !w.assigned;
        // The ports the µops left waiting may take (`Entry::need`).
        let mut need = 0;
        let executed = self.executes_move(entry.id);
        while pending != 0 {
            let u = pending.trailing_zeros();
            pending &= pending - 1;
            let mut mask = self.plan.uop_mask(op, w.index, u, executed);
            // The ports the µop is allowed, before binding (`PortSharing::MultiPort`).
            let allowed = mask;
            if mask == 0 {
                w.assigned |= 1 << u;
                observer.uop_dispatched(cycle, inst, u, None);
                continue;
            }
            let bound = if self.assigner.is_some() {
                w.port(u)
            } else {
                None
            };
            if let Some(p) = bound {
                mask = 1 << p;
            }
            let is_div = u == op.div_uop;
            if is_div && cycle < self.divider_busy_until {
                executable = false;
                need |= mask;
                if let (true, Some(holder)) = (WAITS, self.divider_holder) {
                    self.causes.push(WaitCause::Divider { holder });
                }
                continue;
            }
            let share = match self.program.port_sharing {
                PortSharing::Any => true,
                PortSharing::MultiPort => allowed.count_ones() != 1 || op.div_uop != NO_DIV,
                PortSharing::None => false,
            };
            if !share {
                own = 0;
            }
            match self.ports.place(mask, inst, &mut own) {
                Some(p) => {
                    if let (Some(a), Some(_)) = (&mut self.assigner, bound) {
                        a.dispatched(p);
                    }
                    w.assigned |= 1 << u;
                    w.took |= 1u16.checked_shl(p as u32).unwrap_or(0);
                    observer.uop_dispatched(cycle, inst, u, Some(p));
                    if is_div {
                        self.divider_busy_until = cycle + u64::from(op.div_cycles);
                        self.divider_holder = Some(inst);
                        observer.divider_used(cycle, inst, op.div_cycles);
                    }
                }
                None if !WAITS => {
                    executable = false;
                    need |= mask;
                }
                None => {
                    executable = false;
                    for (port, holder) in self.ports.blockers(mask, own) {
                        let cause = WaitCause::Port { port, holder };
                        if !self.causes.contains(&cause) {
                            self.causes.push(cause);
                        }
                    }
                }
            }
        }
        if executable && w.assigned & op.all == op.all {
            self.window.start(entry.id, cycle);
            // Results late on the ports it took (`Op::late_on`); the flag is only read, and
            // so only written, in a run that has such instructions.
            let late = self.plan.late && op.late_on & u32::from(w.took) != 0;
            if self.plan.late {
                self.window.set_late(entry.id, late);
            }
            if w.parked != 0 {
                let head = std::mem::take(&mut w.parked);
                self.wake_parked(head, entry.id, cycle);
            }
            let done = cycle + u64::from(op.latency + u32::from(late)) - 1;
            self.completions[(done & self.bucket_mask) as usize]
                .push(Completion { id: entry.id, inst });
            observer.started(cycle, inst);
            true
        } else {
            if WAITS {
                observer.waited(cycle, inst, &self.causes);
            }
            // Ports that never refuse a µop: held ports say nothing about the next turn.
            if !self.ports.is_infinite() {
                entry.need = need & self.valid_ports;
            }
            false
        }
    }

    /// Whether instance `id` is an eliminable move that found no slot and executes.
    #[inline]
    fn executes_move(&self, id: u64) -> bool {
        self.moves.is_some() && self.window.is_executed(id)
    }

    /// Thesis Algorithm 6: instances whose latency ends this cycle complete and leave the
    /// scheduler.
    fn execute<O: Observer + ?Sized>(&mut self, cycle: u64, observer: &mut O) {
        let bucket = (cycle & self.bucket_mask) as usize;
        let mut done = std::mem::take(&mut self.completions[bucket]);
        // Pushed in start order; completion events come in program order.
        done.sort_unstable_by_key(|c| c.id);
        for c in &done {
            if let Some(a) = &mut self.assigner {
                let w = self.window.get(c.id);
                for u in 0..self.plan.ops[c.inst.index as usize].uops {
                    if let Some(p) = w.port(u) {
                        a.completed(p);
                    }
                }
            }
            self.window.complete(c.id);
            self.occupancy -= self.plan.ops[c.inst.index as usize].uops;
            self.completed_instances += 1;
            observer.completed(cycle, c.inst);
        }
        done.clear();
        self.completions[bucket] = done;
        self.window.retire();
    }

    /// Capacities of the buffers that live through the run (for the memory-bound test).
    #[cfg(test)]
    fn footprint(&self) -> usize {
        let buckets: usize = self.completions.iter().map(Vec::capacity).sum();
        self.window.capacity()
            + self.waiting.capacity()
            + self.spare.capacity()
            + self.parked.capacity()
            + self.timers.iter().map(Vec::capacity).sum::<usize>()
            + buckets
            + self.causes.capacity()
            + self.seen.len()
    }
}

/// [`simulate`] that also returns the capacities its buffers reached.
#[cfg(test)]
pub(crate) fn simulate_with_footprint<O: Observer + ?Sized>(
    program: &SimProgram,
    machine: &SimMachine,
    options: &SimOptions,
    observer: &mut O,
) -> (Result<SimOutcome, SimError>, usize) {
    match Plan::new(program, machine, options) {
        Ok(plan) => {
            let mut engine = Engine::new(program, &plan, machine, options);
            let out = engine.run(observer);
            (out, engine.footprint())
        }
        Err(e) => (Err(e), 0),
    }
}
