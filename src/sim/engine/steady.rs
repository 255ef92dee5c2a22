//! Skipping a periodic steady state ([`Engine::skip_steady_state`]): the engine's own
//! state compared at iteration boundaries, kept apart from the cycle loop in `engine.rs`.

use super::*;

impl Engine<'_> {
    /// Whether the next instance to load starts an iteration and no instance is partly
    /// loaded: the moments whose states are compared.
    pub(super) fn at_iteration_boundary(&self) -> bool {
        self.next_index == 0 && !matches!(self.waiting.last(), Some(e) if self.is_partial(e.id))
    }

    /// Steady state: if the engine's state at this iteration boundary, seen relative to the
    /// cycle and the next id, equals the state at an earlier boundary, the run repeats the
    /// stretch between them for as long as instances remain to load. Jumps over as many
    /// whole repetitions as fit (keeping the end of the run, where loading stops, simulated)
    /// and returns the new cycle. Only for observers that want no events.
    ///
    /// Why the state is complete: decisions depend on ids and cycles only through
    /// differences (`pid = id - back`, `pid < base`, `cycle >= start + offset`, the divider's
    /// busy time), except `iteration < distance`, settled once `base` passed
    /// `max_distance` iterations; ports are compared only within a group of overlapping
    /// masks, so the usage differences inside each group decide every future choice.
    pub(super) fn skip_steady_state(&mut self, cycle: u64) -> u64 {
        let n = self.plan.ops.len() as u64;
        let (base, end) = (self.window.base(), self.window.end());
        if base < u64::from(self.plan.max_distance) * n {
            return cycle;
        }
        let mut state = Vec::with_capacity(3 + 3 * (end - base) as usize);
        state.extend([
            u64::from(self.occupancy),
            end - base,
            self.divider_busy_until.saturating_sub(cycle),
        ]);
        if let Some(d) = self.plan.delivery {
            // Signed distance of the next delivery from now, as its two's complement.
            state.push((self.delivery_next - (cycle * d.per) as i64) as u64);
        }
        for id in base..end {
            let started = self.window.started(id);
            if started == NOT_STARTED {
                state.extend([u64::MAX, self.window.get(id).assigned]);
            } else {
                state.extend([cycle - started, u64::from(self.window.is_complete(id))]);
                if self.plan.late {
                    state.push(u64::from(self.window.late(id)));
                }
            }
            if self.assigner.is_some() && !self.window.is_complete(id) {
                state.extend(self.window.get(id).ports);
            }
            if self.moves.is_some() {
                state.push(u64::from(self.window.is_executed(id)));
            }
        }
        if let Some(moves) = &self.moves {
            moves.state(cycle, &mut state);
        }
        let usage = *self.ports.usage();
        if let Some(a) = &self.assigner {
            // Ports bound at issue: the counts of waiting µops decide, usage does not.
            state.extend(a.state());
        } else {
            for &group in &self.plan.port_groups {
                let ports = (0..MAX_PORTS).filter(|&p| group & (1 << p) != 0);
                let least = ports.clone().map(|p| usage[p]).min().unwrap_or(0);
                state.extend(ports.map(|p| usage[p] - least));
            }
        }
        let Some(mark) = self.seen.get(&state) else {
            if self.seen.len() >= MAX_SEEN {
                self.seen.clear();
            }
            self.seen.insert(state, Mark { cycle, end, usage });
            return cycle;
        };
        let (ids, cycles) = (end - mark.end, cycle - mark.cycle);
        let room = self.options.max_cycles.saturating_sub(cycle + 1) / cycles;
        // At least one instance stays to load: the stretch after the last load (which ends
        // the run) is simulated, not taken from the period, whose end may be idle waiting for
        // the front end.
        let left = (self.total_instances - end).saturating_sub(1);
        let periods = (left / ids.max(1)).min(room);
        if ids == 0 || periods == 0 {
            return cycle;
        }
        let per_port: [u64; MAX_PORTS] = std::array::from_fn(|p| usage[p] - mark.usage[p]);
        self.seen.clear();
        // Renumbered below: parked entries rejoin the list (all awake after the skip).
        self.unpark_all();
        let (ids, cycles) = (ids * periods, cycles * periods);
        let iterations = (ids / n) as u32;
        self.window
            .shift(ids, cycles, |r: &mut Waiting| r.iteration += iterations);
        for e in &mut self.waiting {
            *e = Entry::awake(e.id + ids);
        }
        self.next_iteration += iterations;
        self.completed_instances += ids;
        if self.divider_busy_until > cycle {
            self.divider_busy_until += cycles;
        }
        if let Some(d) = self.plan.delivery {
            self.delivery_next += (cycles * d.per) as i64;
        }
        if let Some(h) = &mut self.divider_holder {
            h.iteration += iterations;
        }
        if let Some(moves) = &mut self.moves {
            moves.shift(cycle, cycles);
        }
        self.ports.add_usage(|p| per_port[p] * periods);
        // Completions follow from the shifted starts.
        self.completions.iter_mut().for_each(Vec::clear);
        for id in self.window.base()..self.window.end() {
            let started = self.window.started(id);
            if started != NOT_STARTED && !self.window.is_complete(id) {
                let w = self.window.get(id);
                let op = &self.plan.ops[w.index as usize];
                let done = started + u64::from(op.latency + self.window.late(id)) - 1;
                self.completions[(done & self.bucket_mask) as usize].push(Completion {
                    id,
                    inst: w.inst(op),
                });
            }
        }
        cycle + cycles
    }
}
