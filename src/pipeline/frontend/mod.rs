//! The legacy front end of Intel cores (MITE), cycle by cycle: the predecoder marks
//! instructions in aligned 16-byte fetch blocks, the instruction queue (IQ) holds them, the
//! decoders (one complex, the others simple) turn them into µops for the IDQ, and the
//! microcode sequencer (MS) streams the µops of microcoded instructions. The model is the
//! uiCA paper's (Abel & Reineke, ICS 2022, arXiv 2107.14210) as `docs/model.md` ("Front end")
//! states it; the parameters are each arch's `[front_end]` table.
//!
//! Owns: when each copy of a block has been decoded. Must not touch: the engine and the
//! reports — [`cycles_per_iteration`] is what the engine's delivery is built from.
//!
//! Copies: unrolled code (BHive) lays copy k at `start + k·len`, so every copy sits at another
//! alignment and the unit runs over whole alignment periods; a loop (the region branches back
//! to its start) restarts at its start after the taken branch, in a fresh fetch block.
//!
//! Loops: [`loop_cycles`] picks the part that streams them — the loop stream detector
//! (`lsd.rs`), the µop cache (`dsb.rs`: windows, ways, the JCC erratum) or these decoders —
//! as `docs/model.md` ("Front end: loop mode") states it.
//!
//! Beside the unit: each front-end part's rate from average counts ([`rates`], what the
//! speed limits show), the delivery the engine enforces from the rates and the unit
//! ([`delivery`]), and the issue slots of macro- and micro-fused instructions ([`fusion`]).

mod decoders;
pub mod delivery;
mod dsb;
pub mod fusion;
mod loop_mode;
mod lsd;
mod predecoder;
pub mod rates;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;

use crate::uarch::{MicroArch, Vendor};

pub use dsb::DsbParams;
pub use loop_mode::{loop_cycles, LoopFrontEnd, LoopParams, Source};
pub use lsd::{LsdParams, SplitGroups};

/// The legacy front end's parameters of one arch.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// Bytes of one aligned fetch (predecode) block.
    pub block_bytes: u32,
    /// Instructions the predecoder marks per cycle.
    pub predecode_width: u32,
    /// Cycles the predecoder stalls on a length-changing prefix.
    pub lcp_penalty: u32,
    /// Instruction queue capacity.
    pub iq_entries: u32,
    /// Cycles from predecode until the instruction may be decoded.
    pub decode_delay: u32,
    /// Decoders (decoder 0 is the complex one).
    pub decoders: u32,
    /// µops the decoders deliver per cycle.
    pub mite_uops: u32,
    /// µops the microcode sequencer delivers per cycle.
    pub ms_uops: u32,
    /// Whether a macro-fusible instruction may take the last decoder of a cycle.
    pub fusion_on_last_decoder: bool,
}

impl Params {
    /// The parameters of `arch`, if it is an Intel core whose description has them all.
    pub fn of(arch: &MicroArch) -> Option<Params> {
        if arch.vendor != Vendor::Intel {
            return None;
        }
        let fe = &arch.front_end;
        let positive = |v: Option<u32>| v.filter(|&v| v > 0);
        Some(Params {
            block_bytes: positive(fe.decode_bytes_per_cycle)?,
            predecode_width: positive(fe.predecode_width)?,
            lcp_penalty: fe.lcp_penalty.unwrap_or(0),
            iq_entries: positive(fe.iq_entries)?,
            decode_delay: fe.predecode_decode_delay?,
            decoders: positive(fe.decoders)?,
            mite_uops: positive(fe.mite_uops_per_cycle)?,
            ms_uops: positive(fe.ms_uops_per_cycle)?,
            fusion_on_last_decoder: fe.macro_fusion_on_last_decoder?,
        })
    }
}

/// One instruction of the block as the legacy front end sees it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Item {
    /// Bytes from the block's first instruction.
    pub offset: u32,
    /// Encoded length (1–15).
    pub len: u32,
    /// Bytes at its end that may lie in the next fetch block without carrying it there
    /// (its last byte, or none; `ModelOptions::predecode_tail`).
    pub tail: u32,
    /// Has a length-changing prefix (stalls the predecoder).
    pub lcp: bool,
    /// µops the decoders emit for it (`uops_MITE`, at least 1); a macro-fused pair emits the
    /// first instruction's.
    pub uops: u32,
    /// µops the microcode sequencer adds (`uops_MS`).
    pub ms: u32,
    /// Needs the complex decoder (the data's `complex_decoder`; else more than one µop, or
    /// microcoded).
    pub complex: bool,
    /// Simple decoders that still work in its cycle when it is on the complex decoder (the
    /// data's `available_simple_decoders`); `None`: all of them.
    pub simple_decoders: Option<u32>,
    /// Can macro-fuse with some Jcc (subject to the last-decoder rule before Skylake).
    pub fusible: bool,
    /// Macro-fuses with the next instruction (a Jcc), unless a 64-byte line splits them.
    pub fuses_with_next: bool,
    /// What kind of branch it is (the µop cache's way rules, the JCC erratum, the LSD).
    pub branch: Branch,
}

/// The branch kinds the front end tells apart.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Branch {
    /// Not a branch.
    #[default]
    None,
    /// A conditional jump.
    Conditional,
    /// A direct or indirect unconditional jump.
    Jump,
    /// A call or a return.
    CallReturn,
}

/// How the copies of the block follow each other.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Back to back, with no branch (BHive's unrolled copies).
    Unrolled,
    /// The block's last instruction branches back to its start (a loop).
    Loop,
}

/// Cycle cap of one run (a malformed parameter set cannot hang the caller).
const MAX_CYCLES: u64 = 1 << 22;

/// Steady-state cycles per copy of the block `items` at address `start` (its alignment
/// matters), or `None` for an empty block.
///
/// The copies' alignment repeats every `P` copies (16- or, with macro-fusion's cache-line
/// rule, 64-byte periods). After a warm-up that fills the IQ several times over, the unit
/// looks for the shortest whole number of alignment periods over which three successive
/// stretches take equal cycles (the decoders' pattern may span several alignment periods)
/// and reports their rate; without one, the average over the whole measured stretch.
pub fn cycles_per_iteration(items: &[Item], start: u64, layout: Layout, p: &Params) -> Option<f64> {
    let stream = Stream::new(items, start, layout)?;
    let line = if items.iter().any(|i| i.fuses_with_next) {
        64
    } else {
        u64::from(p.block_bytes)
    };
    let period = line / num_integer::gcd(stream.stride, line);
    let n = items.len() as u64;
    // At least three periods, and at least 96 instructions, measured; the warm-up passes
    // the IQ's capacity 4 times (on the BHive development split, twice these lengths change
    // no block's rate by more than rounding).
    let measured = period * 3u64.max(96u64.div_ceil(period * n));
    let warm = period * (4 * u64::from(p.iq_entries)).div_ceil(period * n).max(1);
    let done = run(&stream, p, warm + measured)?;
    let last = done.len() - 1;
    let span = |q: u64, back: u64| {
        done[last - (back * q) as usize] - done[last - ((back + 1) * q) as usize]
    };
    let mut q = period;
    while 3 * q <= measured {
        let c = span(q, 0);
        if c == span(q, 1) && c == span(q, 2) {
            return Some(c as f64 / q as f64);
        }
        q += period;
    }
    Some(span(measured, 0) as f64 / measured as f64)
}

/// The instructions of all copies, each at its address.
pub(crate) struct Stream<'a> {
    items: &'a [Item],
    start: u64,
    /// Bytes from one copy's start to the next.
    stride: u64,
}

/// One instruction of one copy.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Instance {
    /// Copy number.
    pub copy: u64,
    pub item: Item,
    pub address: u64,
    /// Fuses with the next instance (the pair is not split by a 64-byte line).
    pub fuses: bool,
}

impl<'a> Stream<'a> {
    fn new(items: &'a [Item], start: u64, layout: Layout) -> Option<Stream<'a>> {
        let last = items.last()?;
        let len = u64::from(last.offset + last.len).max(1);
        let stride = match layout {
            Layout::Unrolled => len,
            // After the taken branch fetch restarts at the start, in a new block; a stride of
            // whole 64-byte lines keeps every copy's alignment the start's.
            Layout::Loop => (start % 64 + len).div_ceil(64) * 64,
        };
        Some(Stream {
            items,
            start,
            stride,
        })
    }

    /// Instance `g` (copy `g / n`, instruction `g % n`).
    pub(crate) fn get(&self, g: u64) -> Instance {
        let n = self.items.len() as u64;
        let (copy, i) = (g / n, (g % n) as usize);
        let item = self.items[i];
        let address = self.start + copy * self.stride + u64::from(item.offset);
        let end = address + u64::from(item.len);
        Instance {
            copy,
            item,
            address,
            fuses: item.fuses_with_next && !end.is_multiple_of(64),
        }
    }
}

/// A predecoded instruction waiting in the IQ.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Queued {
    pub inst: Instance,
    /// First cycle it may be decoded.
    pub ready: u64,
}

/// Runs the unit until `copies` copies are decoded; the cycle each copy's last µop left the
/// decoders (or the MS), by copy.
fn run(stream: &Stream, p: &Params, copies: u64) -> Option<Vec<u64>> {
    let total = copies * stream.items.len() as u64;
    // The stream runs on past the last copy: a fusible last instruction waits for its
    // successor.
    let mut pre = predecoder::Predecoder::default();
    let mut dec = decoders::Decoders::default();
    let mut iq: VecDeque<Queued> = VecDeque::with_capacity(p.iq_entries as usize);
    let mut done = vec![0u64; copies as usize];
    let mut decoded = 0u64;
    let mut cycle = 0u64;
    while decoded < total {
        if cycle >= MAX_CYCLES {
            return None;
        }
        // Decoders first: what they take this cycle frees IQ entries for the predecoder.
        dec.cycle(cycle, &mut iq, p, |inst| {
            if let Some(d) = done.get_mut(inst.copy as usize) {
                *d = cycle;
                decoded += 1;
            }
        });
        pre.cycle(cycle, stream, &mut iq, p);
        cycle += 1;
    }
    Some(done)
}
