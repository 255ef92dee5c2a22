//! The instances in flight: a power-of-two ring indexed by `id & mask`, holding for ids
//! `base .. end` (every id below `base` is complete) what other instances look up (start
//! cycle, completion) and the engine's own record `T` of each instance. Lists of instances
//! (the waiting list) then hold bare ids, which are cheap to copy.
//!
//! The span `end - base` is bounded by the scheduler (incomplete instances hold scheduler
//! space) plus the instances loaded while the oldest one executes; the ring doubles when a
//! longer wait needs it, so memory follows that span, never the iteration count.

/// `started` of an instance that has not started.
pub(crate) const NOT_STARTED: u64 = u64::MAX;

/// Flag: the instance is an eliminable move that found no slot and executes
/// (`crate::sim::MoveSlots`).
const EXECUTED: u8 = 1;
/// Flag: the instance's results come a cycle late (`crate::sim::SimInstr::late_on`).
const LATE: u8 = 2;

#[derive(Debug)]
pub(crate) struct Window<T> {
    /// The engine's record of each instance.
    records: Vec<T>,
    /// Start cycle of each instance, or [`NOT_STARTED`].
    started: Vec<u64>,
    /// Whether each instance completed.
    complete: Vec<bool>,
    /// Per instance, [`EXECUTED`] and [`LATE`].
    flags: Vec<u8>,
    /// `started.len() - 1`.
    mask: u64,
    /// Oldest incomplete instance.
    base: u64,
    /// Next id to load.
    end: u64,
}

impl<T: Copy + Default> Window<T> {
    /// A ring for at least `capacity` instances.
    #[inline]
    pub(crate) fn new(capacity: usize) -> Self {
        let cap = capacity.max(2).next_power_of_two();
        Window {
            records: vec![T::default(); cap],
            started: vec![NOT_STARTED; cap],
            complete: vec![false; cap],
            flags: vec![0; cap],
            mask: cap as u64 - 1,
            base: 0,
            end: 0,
        }
    }

    /// Every id below this one is complete.
    #[inline]
    pub(crate) fn base(&self) -> u64 {
        self.base
    }

    /// Next id to load; the window holds `base() .. end()`.
    #[inline]
    pub(crate) fn end(&self) -> u64 {
        self.end
    }

    /// Whether `id` (in the window) completed.
    #[inline]
    pub(crate) fn is_complete(&self, id: u64) -> bool {
        self.complete[(id & self.mask) as usize]
    }

    /// Renumbers every instance `ids` later and moves every start `cycles` later, passing
    /// each record through `shift` (skipping a steady state).
    pub(crate) fn shift(&mut self, ids: u64, cycles: u64, shift: impl Fn(&mut T)) {
        let live: Vec<(u64, bool, u8, T)> = (self.base..self.end)
            .map(|id| {
                let i = (id & self.mask) as usize;
                (
                    self.started[i],
                    self.complete[i],
                    self.flags[i],
                    self.records[i],
                )
            })
            .collect();
        self.base += ids;
        self.end += ids;
        for (id, (started, complete, flags, mut record)) in (self.base..self.end).zip(live) {
            let i = (id & self.mask) as usize;
            self.started[i] = if started == NOT_STARTED {
                NOT_STARTED
            } else {
                started + cycles
            };
            self.complete[i] = complete;
            self.flags[i] = flags;
            shift(&mut record);
            self.records[i] = record;
        }
    }

    /// Adds the next instance (not started), made by `record` from its id, and returns the
    /// id.
    #[inline]
    pub(crate) fn push(&mut self, record: impl FnOnce(u64) -> T) -> u64 {
        if self.end - self.base == self.started.len() as u64 {
            self.grow();
        }
        let id = self.end;
        let i = (id & self.mask) as usize;
        self.started[i] = NOT_STARTED;
        self.complete[i] = false;
        self.records[i] = record(id);
        self.end += 1;
        id
    }

    /// Start cycle of `id` (which must not be below `base`); ids not loaded yet have not
    /// started.
    #[inline]
    pub(crate) fn started(&self, id: u64) -> u64 {
        if id < self.end {
            self.started[(id & self.mask) as usize]
        } else {
            NOT_STARTED
        }
    }

    /// The record of `id` (which must be in the window).
    #[inline]
    pub(crate) fn get(&self, id: u64) -> T {
        self.records[(id & self.mask) as usize]
    }

    /// The record of `id` (which must be in the window), by reference.
    #[inline]
    pub(crate) fn record(&self, id: u64) -> &T {
        &self.records[(id & self.mask) as usize]
    }

    /// The record of `id` (which must be in the window), to change in place.
    #[inline]
    pub(crate) fn record_mut(&mut self, id: u64) -> &mut T {
        &mut self.records[(id & self.mask) as usize]
    }

    /// The index of `id`'s record in the records [`Window::take_records`] hands out.
    #[inline]
    pub(crate) fn slot(&self, id: u64) -> usize {
        (id & self.mask) as usize
    }

    /// Lends every record out (indexed by [`Window::slot`]) while the window's other state
    /// stays readable and writable, until [`Window::restore_records`]; in between, nothing
    /// may add instances or read records through the window.
    #[inline]
    pub(crate) fn take_records(&mut self) -> Vec<T> {
        std::mem::take(&mut self.records)
    }

    /// Gives back the records [`Window::take_records`] lent.
    #[inline]
    pub(crate) fn restore_records(&mut self, records: Vec<T>) {
        debug_assert_eq!(records.len(), self.started.len());
        self.records = records;
    }

    #[inline]
    pub(crate) fn start(&mut self, id: u64, cycle: u64) {
        self.started[(id & self.mask) as usize] = cycle;
    }

    #[inline]
    pub(crate) fn complete(&mut self, id: u64) {
        self.complete[(id & self.mask) as usize] = true;
    }

    /// Marks whether `id` (in the window) is a move that executes instead of being
    /// eliminated; unset for a new instance (only runs with move slots read it).
    #[inline]
    pub(crate) fn set_executed(&mut self, id: u64, executed: bool) {
        self.set_flag(id, EXECUTED, executed);
    }

    /// Whether `id` (in the window) is a move that executes instead of being eliminated, as
    /// [`Window::set_executed`] last said.
    #[inline]
    pub(crate) fn is_executed(&self, id: u64) -> bool {
        self.flags[(id & self.mask) as usize] & EXECUTED != 0
    }

    /// Marks whether `id`'s results come a cycle late; set when it starts.
    #[inline]
    pub(crate) fn set_late(&mut self, id: u64, late: bool) {
        self.set_flag(id, LATE, late);
    }

    /// 1 if `id`'s results come a cycle late (as [`Window::set_late`] said when it started),
    /// else 0.
    #[inline]
    pub(crate) fn late(&self, id: u64) -> u32 {
        u32::from(self.flags[(id & self.mask) as usize] & LATE != 0)
    }

    #[inline]
    fn set_flag(&mut self, id: u64, flag: u8, on: bool) {
        let f = &mut self.flags[(id & self.mask) as usize];
        *f = if on { *f | flag } else { *f & !flag };
    }

    /// Moves `base` past the completed instances at the front.
    #[inline]
    pub(crate) fn retire(&mut self) {
        while self.base < self.end && self.complete[(self.base & self.mask) as usize] {
            self.base += 1;
        }
    }

    /// Instances the ring can hold without growing.
    #[cfg(test)]
    #[inline]
    pub(crate) fn capacity(&self) -> usize {
        self.started.len()
    }

    /// Doubles the ring, moving every live id to its slot under the new mask.
    fn grow(&mut self) {
        let cap = self.started.len() * 2;
        let mask = cap as u64 - 1;
        let mut started = vec![NOT_STARTED; cap];
        let mut complete = vec![false; cap];
        let mut flags = vec![0; cap];
        let mut records = vec![T::default(); cap];
        for id in self.base..self.end {
            let (old, new) = ((id & self.mask) as usize, (id & mask) as usize);
            started[new] = self.started[old];
            complete[new] = self.complete[old];
            flags[new] = self.flags[old];
            records[new] = self.records[old];
        }
        self.records = records;
        self.started = started;
        self.complete = complete;
        self.flags = flags;
        self.mask = mask;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_keeping_live_instances() {
        let mut w = Window::new(2);
        for id in 0..3 {
            assert_eq!(w.push(|id| id * 10), id);
        }
        w.start(1, 7);
        w.complete(0);
        w.retire();
        assert_eq!(w.base(), 1);
        for id in 3..9 {
            assert_eq!(w.push(|id| id * 10), id);
        }
        assert_eq!(w.capacity(), 8);
        assert_eq!(w.get(2), 20);
        assert_eq!(w.started(1), 7);
        assert_eq!(w.started(2), NOT_STARTED);
        assert_eq!(w.started(100), NOT_STARTED);
    }
}
