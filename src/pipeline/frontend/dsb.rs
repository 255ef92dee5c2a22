//! The µop cache (DSB) for a loop: which code windows it can hold and how fast it streams
//! them. Rules (`docs/model.md`, "Front end: loop mode"; Intel's optimization manual, Sandy
//! Bridge "Decoded ICache"; the uiCA paper's parameter table):
//!
//! * an instruction belongs to the window of its first byte; a window is cached only if its
//!   µops fit `ways` ways of `uops_per_way` µops and `branches_per_way` branches each (an
//!   instruction is not split across ways, a microcoded one takes a whole way, an
//!   unconditional branch ends its way);
//! * JCC erratum (Skylake family): a jump or macro-fused pair that crosses or ends on a
//!   32-byte boundary keeps the windows it touches out of the cache;
//! * Skylake family: a 32-byte window is cached only if the other half of its 64-byte line
//!   (where the loop has code) is cacheable too;
//! * a loop with more µops than the cache holds is not cached at all (its sets and
//!   replacement are not modelled);
//! * delivery: a window takes ⌈µops / width⌉ cycles of its own (a cycle reads one window; the
//!   taken back branch ends the last), and a microcoded instruction adds the DSB → MS stall
//!   and its MS µops at the MS rate.

use super::loop_mode::Unit;
use super::Branch;

/// The µop cache's parameters of one arch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DsbParams {
    /// Bytes of one window (32 up to Cascade Lake, 64 from Ice Lake).
    pub window: u32,
    /// µops delivered per cycle.
    pub width: u32,
    /// Ways one window may fill; `None`: no per-window limit known.
    pub ways: Option<u32>,
    /// µops of one way.
    pub uops_per_way: u32,
    /// Branches of one way.
    pub branches_per_way: u32,
    /// Both 32-byte halves of a 64-byte line must be cacheable.
    pub coupled: bool,
    /// The JCC erratum's rule applies.
    pub jcc_erratum: bool,
    /// Cycles of the DSB → MS hand-over.
    pub ms_stall: u32,
    /// Cycles of a DSB → legacy decoders switch.
    pub mite_switch: u32,
    /// µops the whole cache holds; a loop with more runs from the legacy decoders.
    pub capacity: u32,
}

/// One code window the loop has instructions in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Window {
    /// Address / window bytes.
    pub index: u64,
    /// The loop's units whose first byte is in it, in order.
    pub units: Vec<usize>,
    /// Whether the µop cache holds it.
    pub cacheable: bool,
}

/// The windows of the loop `units`, in address order, with what the cache can hold.
pub fn windows(units: &[Unit], p: &DsbParams) -> Vec<Window> {
    let win = u64::from(p.window.max(1));
    let total: u64 = units.iter().map(|u| u64::from(u.uops)).sum();
    let mut out: Vec<Window> = Vec::new();
    for (k, u) in units.iter().enumerate() {
        let index = u.address / win;
        match out.last_mut() {
            Some(w) if w.index == index => w.units.push(k),
            _ => out.push(Window {
                index,
                units: vec![k],
                cacheable: true,
            }),
        }
    }
    for w in &mut out {
        w.cacheable = total <= u64::from(p.capacity) && fits(w.units.iter().map(|&k| &units[k]), p);
    }
    if p.jcc_erratum {
        for u in units.iter().filter(|u| u.branch != Branch::None) {
            if touches_32_byte_boundary(u.address, u.end) {
                let (first, last) = (u.address / win, (u.end - 1) / win);
                for w in out.iter_mut().filter(|w| (first..=last).contains(&w.index)) {
                    w.cacheable = false;
                }
            }
        }
    }
    if p.coupled && win == 32 {
        let bad: Vec<u64> = out
            .iter()
            .filter(|w| !w.cacheable)
            .map(|w| w.index / 2)
            .collect();
        for w in &mut out {
            if bad.contains(&(w.index / 2)) {
                w.cacheable = false;
            }
        }
    }
    out
}

/// Whether the bytes `start..end` cross or end on a 32-byte boundary (the JCC erratum).
pub fn touches_32_byte_boundary(start: u64, end: u64) -> bool {
    end > start && (end.is_multiple_of(32) || start / 32 != (end - 1) / 32)
}

/// Whether these units fit the ways of one window.
fn fits<'a>(units: impl Iterator<Item = &'a Unit>, p: &DsbParams) -> bool {
    let Some(max_ways) = p.ways else {
        return true;
    };
    let per_way = p.uops_per_way.max(1);
    let (mut ways, mut uops, mut branches) = (0u32, 0u32, 0u32);
    let mut open = false;
    for u in units {
        if u.ms > 0 {
            // A microcoded instruction takes a way of its own.
            ways += 1;
            open = false;
            continue;
        }
        let b = u32::from(u.branch != Branch::None);
        if !open || uops.saturating_add(u.uops) > per_way || branches + b > p.branches_per_way {
            ways += u.uops.div_ceil(per_way).max(1);
            (uops, branches, open) = (0, 0, true);
        }
        uops = uops.saturating_add(u.uops);
        branches += b;
        if matches!(u.branch, Branch::Jump | Branch::CallReturn) {
            open = false; // an unconditional branch ends its way
        }
    }
    ways <= max_ways
}

/// Cycles the µop cache takes to stream `windows` (all cacheable) of `units`; `ms_uops` is
/// the microcode sequencer's rate.
pub fn cycles(windows: &[&Window], units: &[Unit], p: &DsbParams, ms_uops: u32) -> f64 {
    let width = p.width.max(1);
    let mut total = 0u64;
    for w in windows {
        let uops: u64 = w.units.iter().map(|&k| u64::from(units[k].uops)).sum();
        total += uops.div_ceil(u64::from(width)).max(1);
        for u in w.units.iter().map(|&k| &units[k]).filter(|u| u.ms > 0) {
            total += u64::from(p.ms_stall) + u64::from(u.ms.div_ceil(ms_uops.max(1)));
        }
    }
    total as f64
}
