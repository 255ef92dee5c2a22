//! Events of the simulation and the observer trait reports implement.
//!
//! The engine is the only emitter. Calls happen in this order within a cycle:
//! `cycle_started`, then for each instruction instance in program order `loaded` (front
//! end), then `waited` / `uop_dispatched` / `started` (choose ports), then `completed`
//! (execute). `finished` comes once at the end.

/// One dynamic instance of a program instruction.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct InstRef {
    /// 0-based iteration.
    pub iteration: u32,
    /// Index in [`crate::sim::SimProgram::instrs`].
    pub index: u32,
    /// The instruction's line in the region.
    pub line: u32,
}

/// Why an instruction waited in a cycle.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WaitCause {
    /// A producer had not yet produced the value (thesis Algorithm 4, lines 3–9).
    Dependency {
        /// The producer that was not ready.
        producer: InstRef,
    },
    /// A port the µop could use was taken by another instruction (Algorithm 4, lines 24–32).
    Port {
        /// The blocked port.
        port: usize,
        /// The instruction holding it.
        holder: InstRef,
    },
    /// The divider was busy with an earlier division (thesis §3.6).
    Divider {
        /// The division occupying the divider.
        holder: InstRef,
    },
    /// The instruction was not fully loaded yet.
    NotLoaded,
}

/// An observer that wants only the run's outcome: no events, so waiting instances sleep and
/// the engine skips repeated steady states (the cheapest run).
#[derive(Copy, Clone, Debug, Default)]
pub struct OutcomeOnly;

impl Observer for OutcomeOnly {
    fn wants_waits(&self) -> bool {
        false
    }
    fn wants_cycles(&self) -> bool {
        false
    }
}

/// Receives the simulation's events. Every method has a no-op default.
pub trait Observer {
    /// Whether this observer uses [`Observer::waited`]. When `false` the engine sends no
    /// `waited` events and skips working out their causes, which makes a run several times
    /// faster; observers that only count cycles or µops should say so.
    fn wants_waits(&self) -> bool {
        true
    }
    /// Whether this observer needs the events of every cycle. When `false` (it only wants
    /// the outcome) the engine may skip, unreported, whole periods of a steady state that
    /// repeat an earlier one exactly; `finished` still comes.
    fn wants_cycles(&self) -> bool {
        true
    }
    /// A new cycle begins.
    fn cycle_started(&mut self, _cycle: u64) {}
    /// The front end loaded `uops` µops of `inst` into the scheduler.
    fn loaded(&mut self, _cycle: u64, _inst: InstRef, _uops: u32) {}
    /// `inst` could not start this cycle. `causes` lists each blamed instruction at most once
    /// per kind (dependency, port), as the thesis' `Blamed` set does; port causes name every
    /// blocked port.
    fn waited(&mut self, _cycle: u64, _inst: InstRef, _causes: &[WaitCause]) {}
    /// µop `uop` of `inst` was put on `port` (`None`: the µop needs no port).
    fn uop_dispatched(&mut self, _cycle: u64, _inst: InstRef, _uop: u32, _port: Option<usize>) {}
    /// `inst` occupies the divider for `cycles` cycles from this cycle on.
    fn divider_used(&mut self, _cycle: u64, _inst: InstRef, _cycles: u32) {}
    /// All µops of `inst` got ports: execution starts this cycle.
    fn started(&mut self, _cycle: u64, _inst: InstRef) {}
    /// `inst` finished its latency and left the scheduler at the end of this cycle.
    fn completed(&mut self, _cycle: u64, _inst: InstRef) {}
    /// The run ended after `cycles` cycles.
    fn finished(&mut self, _cycles: u64) {}
}

/// Observers compose: a slice of them sees every event in order.
impl Observer for [&mut dyn Observer] {
    fn wants_waits(&self) -> bool {
        self.iter().any(|o| o.wants_waits())
    }
    fn wants_cycles(&self) -> bool {
        self.iter().any(|o| o.wants_cycles())
    }
    fn cycle_started(&mut self, cycle: u64) {
        self.iter_mut().for_each(|o| o.cycle_started(cycle));
    }
    fn loaded(&mut self, cycle: u64, inst: InstRef, uops: u32) {
        self.iter_mut().for_each(|o| o.loaded(cycle, inst, uops));
    }
    fn waited(&mut self, cycle: u64, inst: InstRef, causes: &[WaitCause]) {
        self.iter_mut().for_each(|o| o.waited(cycle, inst, causes));
    }
    fn uop_dispatched(&mut self, cycle: u64, inst: InstRef, uop: u32, port: Option<usize>) {
        self.iter_mut()
            .for_each(|o| o.uop_dispatched(cycle, inst, uop, port));
    }
    fn divider_used(&mut self, cycle: u64, inst: InstRef, cycles: u32) {
        self.iter_mut()
            .for_each(|o| o.divider_used(cycle, inst, cycles));
    }
    fn started(&mut self, cycle: u64, inst: InstRef) {
        self.iter_mut().for_each(|o| o.started(cycle, inst));
    }
    fn completed(&mut self, cycle: u64, inst: InstRef) {
        self.iter_mut().for_each(|o| o.completed(cycle, inst));
    }
    fn finished(&mut self, cycles: u64) {
        self.iter_mut().for_each(|o| o.finished(cycles));
    }
}
