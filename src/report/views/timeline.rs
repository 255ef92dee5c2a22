//! The timeline of the first N iterations: per instruction instance, the cycles it was
//! loaded into the scheduler, waited, started executing and finished (as llvm-mca's timeline
//! view, on suaca's simulation events).
//!
//! Owns: [`TimelineView`] (an [`Observer`]) and the [`Timeline`] data it produces.
//! Must not touch: simulation state; rendering (see `report::timeline_text` and
//! `report::trace`).
//! Facts: the events of [`crate::sim::event`]: `loaded` (front end, possibly over several
//! cycles for many-µop instructions), `waited` (loaded or partly loaded, could not start),
//! `started` (all µops got ports), `completed` (latency done, left the scheduler at the end
//! of that cycle). Memory stays bounded: only instances of iterations `< N` are kept.

use serde::Serialize;

use crate::sim::{InstRef, Observer, SimProgram};

/// Default number of iterations shown by `--timeline`.
pub const DEFAULT_TIMELINE_ITERATIONS: u32 = 3;

/// Instruction instances a timeline keeps at most (llvm-mca shows 10 iterations by default): `--timeline=1000000`
/// on a 16-instruction loop would otherwise take gigabytes, and no reader follows a text
/// timeline that long.
pub const MAX_TIMELINE_INSTANCES: usize = 5_000;

/// One instruction instance of the timeline. Cycles are 0-based simulation cycles.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TimelineEntry {
    /// 0-based iteration.
    pub iteration: u32,
    /// Line in the region.
    pub line: u32,
    /// Line in `source_file` (or in the input, when that is `None`).
    pub source_line: Option<u32>,
    /// The source file of `source_line`, when debug information names it.
    pub source_file: Option<String>,
    /// Intel-syntax text.
    pub text: String,
    /// First cycle µops of the instance were loaded into the scheduler.
    pub loaded: Option<u64>,
    /// Last cycle µops of the instance were loaded (equal to `loaded` unless the front end
    /// needed several cycles).
    pub loaded_last: Option<u64>,
    /// Cycles the instance waited (loaded but not started: dependency, port, divider, or not
    /// fully loaded).
    pub waited: u32,
    /// Cycle execution started (all µops got ports).
    pub started: Option<u64>,
    /// Cycle at whose end the instance finished (latency done).
    pub completed: Option<u64>,
}

/// The timeline of one run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Timeline {
    /// Iterations shown.
    pub iterations: u32,
    /// Cycles spanned: one past the last cycle of any event shown.
    pub cycles: u64,
    /// Instances in program order, iteration by iteration.
    pub entries: Vec<TimelineEntry>,
    /// The iterations asked for, when more than [`MAX_TIMELINE_INSTANCES`] allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capped_from: Option<u32>,
}

/// Collects the timeline of the first `iterations` iterations of a run.
#[derive(Debug)]
pub struct TimelineView {
    iterations: u32,
    capped_from: Option<u32>,
    per_iteration: usize,
    entries: Vec<TimelineEntry>,
}

impl TimelineView {
    /// A view of the first `iterations` iterations of `program`, fewer when that would keep
    /// more than [`MAX_TIMELINE_INSTANCES`] instances (at least one iteration).
    pub fn new(program: &SimProgram, asked: u32) -> Self {
        let per_iteration = program.instrs.len();
        let fits = u32::try_from(MAX_TIMELINE_INSTANCES / per_iteration.max(1))
            .unwrap_or(u32::MAX)
            .max(1);
        let iterations = asked.min(fits);
        let capped_from = (iterations < asked).then_some(asked);
        let mut entries = Vec::with_capacity(per_iteration * iterations as usize);
        for iteration in 0..iterations {
            for ins in &program.instrs {
                entries.push(TimelineEntry {
                    iteration,
                    line: ins.line,
                    ..TimelineEntry::default()
                });
            }
        }
        TimelineView {
            iterations,
            capped_from,
            per_iteration,
            entries,
        }
    }

    fn entry(&mut self, inst: InstRef) -> Option<&mut TimelineEntry> {
        if inst.iteration >= self.iterations {
            return None;
        }
        let i = inst.iteration as usize * self.per_iteration + inst.index as usize;
        self.entries.get_mut(i)
    }

    /// The timeline; `text_of(line)` gives an instruction's text and source line. Instances
    /// the run never reached (fewer iterations simulated) are left out.
    pub fn finish(self, text_of: impl Fn(u32) -> (String, Option<u32>)) -> Timeline {
        let mut entries: Vec<TimelineEntry> = self
            .entries
            .into_iter()
            .filter(|e| e.loaded.is_some())
            .collect();
        let mut cycles = 0;
        for e in &mut entries {
            let (text, source_line) = text_of(e.line);
            e.text = text;
            e.source_line = source_line;
            let last = [e.loaded_last, e.started, e.completed]
                .into_iter()
                .flatten()
                .max()
                .unwrap_or(0);
            cycles = cycles.max(last + 1);
        }
        let iterations = entries.iter().map(|e| e.iteration + 1).max().unwrap_or(0);
        Timeline {
            iterations,
            cycles,
            entries,
            capped_from: self.capped_from,
        }
    }
}

impl Observer for TimelineView {
    fn loaded(&mut self, cycle: u64, inst: InstRef, _uops: u32) {
        if let Some(e) = self.entry(inst) {
            e.loaded.get_or_insert(cycle);
            e.loaded_last = Some(cycle);
        }
    }

    fn waited(&mut self, _cycle: u64, inst: InstRef, _causes: &[crate::sim::WaitCause]) {
        if let Some(e) = self.entry(inst) {
            e.waited += 1;
        }
    }

    fn started(&mut self, cycle: u64, inst: InstRef) {
        if let Some(e) = self.entry(inst) {
            e.started = Some(cycle);
        }
    }

    fn completed(&mut self, cycle: u64, inst: InstRef) {
        if let Some(e) = self.entry(inst) {
            e.completed = Some(cycle);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{SimInstr, SimProgram};
    use crate::uarch::PortMask;

    #[test]
    fn a_timeline_keeps_at_most_the_cap_and_at_least_one_iteration() {
        let instr = |line| SimInstr {
            slots: None,
            late_on: PortMask::EMPTY,
            line,
            uops: Vec::new(),
            latency: 1,
            div_cycles: 0,
            inputs: Vec::new(),
        };
        let program = |n: usize| SimProgram {
            whole_dispatch: false,
            port_sharing: crate::sim::PortSharing::Any,
            move_slots: None,
            frontend: None,
            ports: Default::default(),
            instrs: (0..n as u32).map(instr).collect(),
        };
        let v = TimelineView::new(&program(16), 1_000_000);
        assert_eq!(v.iterations, (MAX_TIMELINE_INSTANCES / 16) as u32);
        assert_eq!(v.capped_from, Some(1_000_000));
        assert!(v.entries.len() <= MAX_TIMELINE_INSTANCES);
        let v = TimelineView::new(&program(16), 3);
        assert_eq!((v.iterations, v.capped_from), (3, None));
        // A region larger than the cap still shows its first iteration.
        let v = TimelineView::new(&program(MAX_TIMELINE_INSTANCES + 1), 5);
        assert_eq!((v.iterations, v.capped_from), (1, Some(5)));
    }
}
