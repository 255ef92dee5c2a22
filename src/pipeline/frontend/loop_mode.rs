//! Which part of the front end streams a loop (the region's last instruction branches back
//! to its start), and at what rate; unrolled code always comes from the legacy decoders.
//! In order of preference (`docs/model.md`, "Front end: loop mode"):
//!
//! 1. the LSD, where the arch enables it and the loop qualifies ([`super::lsd`]);
//! 2. the µop cache, for the windows it can hold ([`super::dsb`]): each iteration starts
//!    there; at the first window it cannot hold the front end switches to the legacy
//!    decoders (costing `mite_switch` cycles) for the rest of the iteration, until the
//!    taken back branch;
//! 3. the legacy decoders ([`super::cycles_per_iteration`], as a loop).

use super::{dsb, lsd, Branch, DsbParams, Item, Layout, LsdParams, Params};
use crate::uarch::MicroArch;

/// What the front end is built of for loops; a part switched off is `None`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopParams {
    /// The legacy decoders.
    pub legacy: Params,
    /// The µop cache.
    pub dsb: Option<DsbParams>,
    /// The loop stream detector.
    pub lsd: Option<LsdParams>,
}

impl LoopParams {
    /// The parameters of `arch` (an Intel core with the legacy unit's parameters), with the
    /// µop cache, the JCC erratum and the LSD each on or off.
    pub fn of(arch: &MicroArch, dsb: bool, jcc_erratum: bool, lsd: bool) -> Option<LoopParams> {
        let legacy = Params::of(arch)?;
        let fe = &arch.front_end;
        let positive = |v: Option<u32>| v.filter(|&v| v > 0);
        let dsb = (|| {
            if !dsb {
                return None;
            }
            Some(DsbParams {
                window: positive(fe.uop_cache_window_bytes)?,
                width: positive(fe.uop_cache_uops_per_cycle)?,
                ways: positive(fe.uop_cache_ways_per_window),
                uops_per_way: positive(fe.uop_cache_uops_per_way).unwrap_or(u32::MAX),
                branches_per_way: positive(fe.uop_cache_branches_per_way).unwrap_or(u32::MAX),
                coupled: fe.uop_cache_coupled_halves.unwrap_or(false),
                jcc_erratum: jcc_erratum && fe.jcc_erratum == Some(true),
                ms_stall: fe.uop_cache_ms_stall.unwrap_or(0),
                mite_switch: fe.uop_cache_mite_switch.unwrap_or(0),
                capacity: positive(fe.uop_cache_uops)?,
            })
        })();
        let lsd = (|| {
            if !lsd || fe.lsd != Some(true) {
                return None;
            }
            Some(LsdParams {
                capacity: positive(fe.lsd_uops.or(fe.idq_uops))?,
                width: positive(Some(arch.issue_width))?,
                unrolling: fe.lsd_unrolling.clone().unwrap_or_default(),
            })
        })();
        Some(LoopParams { legacy, dsb, lsd })
    }
}

/// Which part streamed the loop.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The loop stream detector.
    Lsd,
    /// The µop cache, every window.
    Dsb,
    /// The µop cache up to a window it cannot hold, then the legacy decoders.
    DsbThenMite,
    /// The legacy decoders.
    Mite,
}

impl Source {
    /// Its name in JSON reports.
    pub fn key(self) -> &'static str {
        match self {
            Source::Lsd => "lsd",
            Source::Dsb => "dsb",
            Source::DsbThenMite => "dsb_then_mite",
            Source::Mite => "mite",
        }
    }

    /// Its description in text reports.
    pub fn describe(self) -> &'static str {
        match self {
            Source::Lsd => "loop stream detector (LSD)",
            Source::Dsb => "µop cache (DSB)",
            Source::DsbThenMite => {
                "µop cache (DSB), then the legacy decoders from a window it cannot hold"
            }
            Source::Mite => "legacy decoders (MITE): the µop cache cannot hold the loop",
        }
    }
}

/// The front end's rate for a loop.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct LoopFrontEnd {
    /// Cycles per iteration.
    pub cycles: f64,
    /// The part that streams it.
    pub source: Source,
}

/// One instruction, or a macro-fused pair, of the loop at its address.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Unit {
    /// The first item's index.
    pub first: usize,
    /// Address of the first byte, and one past the last.
    pub address: u64,
    pub end: u64,
    /// µops from the decoders or the µop cache (a fused pair: one).
    pub uops: u32,
    /// µops from the MS.
    pub ms: u32,
    pub branch: Branch,
}

/// The loop's units: items at `start`, a pair fused unless a 64-byte line splits it.
pub(super) fn units(items: &[Item], start: u64) -> Vec<Unit> {
    let mut out = Vec::with_capacity(items.len());
    let mut i = 0;
    while i < items.len() {
        let it = items[i];
        let address = start + u64::from(it.offset);
        let mut end = address + u64::from(it.len);
        let mut branch = it.branch;
        let pair = it.fuses_with_next && !end.is_multiple_of(64) && i + 1 < items.len();
        if pair {
            let jcc = items[i + 1];
            end = start + u64::from(jcc.offset + jcc.len);
            branch = jcc.branch;
        }
        out.push(Unit {
            first: i,
            address,
            end,
            uops: it.uops,
            ms: it.ms,
            branch,
        });
        i += if pair { 2 } else { 1 };
    }
    out
}

/// Cycles per iteration of the loop `items` starting at `start` (its offset in a 64-byte
/// line matters), and the part that streams it; `None` for an empty loop or a run the
/// legacy unit cannot finish.
pub fn loop_cycles(items: &[Item], start: u64, p: &LoopParams) -> Option<LoopFrontEnd> {
    let units = units(items, start);
    if units.is_empty() {
        return None;
    }
    if let Some(cycles) = p.lsd.as_ref().and_then(|l| lsd::cycles(&units, l)) {
        return Some(LoopFrontEnd {
            cycles,
            source: Source::Lsd,
        });
    }
    let legacy = |from: usize| {
        let base = items[from].offset;
        let rest: Vec<Item> = items[from..]
            .iter()
            .map(|i| Item {
                offset: i.offset - base,
                ..*i
            })
            .collect();
        super::cycles_per_iteration(&rest, start + u64::from(base), Layout::Loop, &p.legacy)
    };
    let Some(d) = &p.dsb else {
        return Some(LoopFrontEnd {
            cycles: legacy(0)?,
            source: Source::Mite,
        });
    };
    let windows = dsb::windows(&units, d);
    let cached: Vec<&dsb::Window> = windows.iter().take_while(|w| w.cacheable).collect();
    let from_dsb = dsb::cycles(&cached, &units, d, p.legacy.ms_uops);
    match windows.get(cached.len()) {
        None => Some(LoopFrontEnd {
            cycles: from_dsb,
            source: Source::Dsb,
        }),
        Some(_) if cached.is_empty() => Some(LoopFrontEnd {
            cycles: legacy(0)?,
            source: Source::Mite,
        }),
        Some(w) => {
            let from = units[w.units[0]].first;
            Some(LoopFrontEnd {
                cycles: from_dsb + f64::from(d.mite_switch) + legacy(from)?,
                source: Source::DsbThenMite,
            })
        }
    }
}
