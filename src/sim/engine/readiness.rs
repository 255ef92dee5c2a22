//! Whether a waiting instance's inputs are ready ([`Engine::dependencies_ready`]), and the
//! cheap test that lets a sleeping one skip its turn ([`Engine::asleep`]); kept apart from
//! the cycle loop in `engine.rs`, as parking is in `parking.rs`.

use super::*;

impl Engine<'_> {
    /// Whether the inputs of the instance surely are not ready yet (see [`Entry::wake`]).
    #[inline]
    pub(super) fn asleep(&self, e: &Entry, cycle: u64) -> bool {
        cycle < e.wake
            || (e.blocker != NO_BLOCKER
                && e.blocker >= self.window.base()
                && self.window.started(e.blocker) == NOT_STARTED)
    }

    /// Whether every producer of `w` has released its value by `cycle`. With `WAITS` the
    /// unready ones go to `causes` (each once); without, they set when `w` wakes.
    #[inline]
    pub(super) fn dependencies_ready<const WAITS: bool>(
        &mut self,
        w: &Waiting,
        entry: &mut Entry,
        op: &Op,
        cycle: u64,
    ) -> bool {
        let mut ready = true;
        if !WAITS {
            *entry = Entry::awake(entry.id);
        }
        let (from, to) = op.inputs;
        for input in &self.plan.inputs[from as usize..to as usize] {
            if w.iteration < input.distance {
                continue; // before the first iteration: the value is ready
            }
            let pid = (entry.id as i64 - input.back) as u64;
            if pid < self.window.base() {
                continue; // complete long ago
            }
            let started = self.window.started(pid);
            // An executed move gives its value a cycle later than an eliminated one.
            // A result that comes late (`Op::late_on`) a cycle later still.
            let offset = input.offset
                + u32::from(
                    self.moves.is_some()
                        && self.plan.executed_masks[input.producer as usize] != 0
                        && self.window.is_executed(pid),
                )
                + if self.plan.late {
                    self.window.late(pid)
                } else {
                    0
                };
            // Not started: never ready (NOT_STARTED saturates).
            let ready_at = started.saturating_add(u64::from(offset));
            if cycle >= ready_at {
                continue;
            }
            ready = false;
            if !WAITS {
                if started == NOT_STARTED {
                    entry.blocker = pid;
                } else {
                    entry.wake = entry.wake.max(started + u64::from(input.earliest));
                }
            } else {
                let producer = InstRef {
                    iteration: w.iteration - input.distance,
                    index: input.producer,
                    line: self.plan.ops[input.producer as usize].line,
                };
                let cause = WaitCause::Dependency { producer };
                if !self.causes.contains(&cause) {
                    self.causes.push(cause);
                }
            }
        }
        ready
    }
}
