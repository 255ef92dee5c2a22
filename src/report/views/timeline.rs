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
}

/// Collects the timeline of the first `iterations` iterations of a run.
#[derive(Debug)]
pub struct TimelineView {
    iterations: u32,
    per_iteration: usize,
    entries: Vec<TimelineEntry>,
}

impl TimelineView {
    /// A view of the first `iterations` iterations of `program`.
    pub fn new(program: &SimProgram, iterations: u32) -> Self {
        let per_iteration = program.instrs.len();
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
