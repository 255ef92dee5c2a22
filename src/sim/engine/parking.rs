//! Parking sleeping instances ([`Engine::park`]): an instance whose inputs cannot be ready
//! leaves the waiting list until its blocker starts or its wake cycle comes, and takes its
//! turn again where the list would have found it awake; kept apart from the cycle loop in
//! `engine.rs`, as the steady-state skip is in `steady.rs`.

use super::*;

impl Engine<'_> {
    /// Parks `entry`, whose turn just found an input not ready, out of the waiting list
    /// while it surely stays asleep ([`Engine::asleep`]): until the instance `blocker`
    /// starts (on that instance's record), else until cycle `wake` (on a timer). Returns
    /// whether it did. Visiting sleeping instances every cycle took most of the cycle
    /// loop's time; a parked entry takes its turn again in the pass of the cycle in which
    /// the list would have found it awake, at its place in id order, so every decision
    /// stays the same. The loading (partial) instance stays: `load` finds it last in the
    /// list.
    #[inline]
    pub(super) fn park(&mut self, entry: &Entry, cycle: u64, records: &mut [Waiting]) -> bool {
        let slot = self.window.slot(entry.id);
        if entry.blocker != NO_BLOCKER {
            let b = entry.blocker;
            // Only a loaded instance other than itself can wake it (a forward edge to an
            // instance not loaded yet keeps the entry in the list).
            if b < self.window.base() || self.window.started(b) != NOT_STARTED {
                return false; // not blocking (`asleep` ignores it)
            }
            if b >= self.window.end() || b == entry.id || self.is_partial_in(records, slot) {
                return false;
            }
            let link = self.park_slot(*entry);
            let head = &mut records[self.window.slot(b)].parked;
            self.parked[link as usize - 1].1 = *head;
            *head = link;
            return true;
        }
        if entry.wake > cycle && !self.is_partial_in(records, slot) {
            self.timers[(entry.wake & self.bucket_mask) as usize].push(*entry);
            return true;
        }
        false
    }

    /// Stores `entry` in the slab of parked entries; returns 1 + its index.
    #[inline]
    fn park_slot(&mut self, entry: Entry) -> u32 {
        match self.parked_free.pop() {
            Some(k) => {
                self.parked[k as usize] = (entry, 0);
                k + 1
            }
            None => {
                self.parked.push((entry, 0));
                self.parked.len() as u32
            }
        }
    }

    /// Whether the record at `slot` of the lent `records` is only partly loaded.
    #[inline]
    fn is_partial_in(&self, records: &[Waiting], slot: usize) -> bool {
        let w = &records[slot];
        w.slots_loaded < self.plan.ops[w.index as usize].slots
    }

    /// Wakes the entries parked on instance `starter` (its record's list `head`), which
    /// starts in `cycle`: each sleeps on until its `wake` cycle, else takes its turn later
    /// in this pass if its id follows the starter's (where the list would have found it
    /// awake), else next cycle.
    #[inline]
    pub(super) fn wake_parked(&mut self, mut head: u32, starter: u64, cycle: u64) {
        while head != 0 {
            let k = head as usize - 1;
            let (e, link) = self.parked[k];
            self.parked_free.push(k as u32);
            head = link;
            if e.wake > cycle {
                self.timers[(e.wake & self.bucket_mask) as usize].push(e);
            } else if e.id > starter {
                let at = self.woken.partition_point(|w| w.id > e.id);
                self.woken.insert(at, e);
            } else {
                self.late.push(e);
            }
        }
    }

    /// Puts every parked entry back into the waiting list (before a steady state's skip
    /// renumbers the instances).
    pub(super) fn unpark_all(&mut self) {
        if self.parked.len() == self.parked_free.len() && self.timers.iter().all(Vec::is_empty) {
            return;
        }
        for id in self.window.base()..self.window.end() {
            self.window.record_mut(id).parked = 0;
        }
        let free = std::mem::take(&mut self.parked_free);
        let mut is_free = vec![false; self.parked.len()];
        for k in free {
            is_free[k as usize] = true;
        }
        for (k, (e, _)) in self.parked.drain(..).enumerate() {
            if !is_free[k] {
                self.waiting.push(e);
            }
        }
        for t in &mut self.timers {
            self.waiting.append(t);
        }
        self.waiting.sort_unstable_by_key(|e| e.id);
    }
}
