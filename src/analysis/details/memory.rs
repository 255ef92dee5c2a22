//! Memory dependencies: a load waits for the nearest earlier store to the same address, named
//! the same way (segment, base, index, scale, displacement; rsp-based addresses corrected for
//! the pushes and pops between them). Whether an instruction between them changed the base
//! or index register is not asked: the names decide, as issue #7 specifies — and BHive, whose
//! measurements judge the model, points every register at the same page, so a pointer
//! reloaded each copy still aliases (with the check: MAPE 10.1%, tau 0.899; without: 10.0%,
//! 0.905 on the development split). The value comes by store-to-load forwarding.
//!
//! Latency: the data's memory latencies (uops.info `cycles_mem` and the register-to-memory
//! latencies of stores) under the slack rule of [`crate::analysis::program`]: the store's
//! value reaches memory `mem_ready` cycles after the store starts, and the load needs it
//! `mem_slack` cycles after its own start.
//!
//! Memory renaming (Zen 2 and later, seen in the data as a store round trip of at most a
//! cycle) gives a plain `mov` load the store's value when the store starts. Renaming pairs
//! accesses by register and displacement, so here the base register is asked after all: when
//! an instruction between store and load writes it, the value comes by plain forwarding (the
//! arch's `store_forward_latency`).

use iced_x86::Register;

use crate::analysis::program::longest_input_latency;
use crate::db::{Endpoint, InstrDesc, LatVia};
use crate::ir::{Instr, Loc, MemOperand};
use crate::sim::SimInput;

use super::{is_stack_op, Context};

/// An address as named by the instruction: equal keys (and equal rsp offsets) alias.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Key {
    segment: Option<Register>,
    base: Option<Register>,
    index: Option<Register>,
    scale: u8,
    displacement: i64,
}

impl Key {
    fn of(m: &MemOperand, rsp: i64) -> Key {
        let shift = if m.base == Some(Register::RSP) {
            rsp
        } else {
            0
        };
        Key {
            segment: m.segment,
            base: m.base,
            index: m.index,
            scale: m.scale,
            displacement: m.displacement.wrapping_add(shift),
        }
    }
}

/// rsp change of a push/pop/call/ret (bytes), else `None`.
fn stack_delta(instr: &Instr) -> Option<i64> {
    is_stack_op(instr).then(|| i64::from(instr.iced.stack_pointer_increment()))
}

/// Cycles after a store starts at which its value is in memory: its longest latency from a
/// value (register or memory) to memory. A store starts once its data is ready (its address
/// latencies, which dominate its slack, are not on this path).
fn mem_ready(store: &InstrDesc, fallback: f64) -> f64 {
    store
        .latencies
        .iter()
        .filter(|l| matches!(l.to, Endpoint::Mem(_)))
        .filter(|l| matches!(l.via, LatVia::Value | LatVia::Memory))
        .map(|l| l.cycles)
        .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))
        .unwrap_or(fallback)
}

/// Cycles after a load starts at which it needs the memory value. A read-modify-write
/// needs it at once: its memory-to-memory latency counts from its start.
fn mem_slack(load: &InstrDesc, rmw: bool) -> f64 {
    if rmw {
        return 0.0;
    }
    let longest = longest_input_latency(load).unwrap_or(0.0);
    load.latencies
        .iter()
        .filter(|l| l.via == LatVia::Memory)
        .map(|l| l.cycles)
        .fold(None, |m: Option<f64>, c| Some(m.map_or(c, |m| m.max(c))))
        .map_or(0.0, |own| (longest - own).max(0.0))
}

/// A store→load dependency the hardware resolves by memory renaming: the load's value is the
/// store's data register, ready when the store starts (Zen 2 and later keep such values in
/// a register file). Driven by the data: the store's measured round trip through memory
/// (store then a plain `mov` load back, uops.info's register→memory latency) takes at most a
/// cycle; the load is such a plain `mov` (sign- or zero-extending loads and load-op
/// instructions are not shown to be renamed: on the ZEN4 block set, renaming them too gives
/// MAPE 10.9% against 10.7%); both accesses have the same width and no index register.
fn renamed(store: &InstrDesc, w: &MemOperand, load_instr: &Instr, load: &MemOperand) -> bool {
    let round_trip = store
        .latencies
        .iter()
        .filter(|l| matches!(l.to, Endpoint::Mem(_)) && l.via == LatVia::Value)
        .map(|l| l.cycles)
        .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))));
    round_trip.is_some_and(|c| c <= 1.0)
        && w.size == load.size
        && w.index.is_none()
        && load.index.is_none()
        && !load.write
        && load_instr.iced.mnemonic() == iced_x86::Mnemonic::Mov
}

/// Whether an instruction after position `p` and before position `j` (into the next
/// iteration when `distance` is 1) writes `reg`: the address was computed anew, so memory
/// renaming, which matches addresses by register and displacement, cannot pair the accesses.
fn rewritten(
    cx: &Context,
    kept: &[usize],
    (p, j): (usize, usize),
    distance: u32,
    reg: Register,
) -> bool {
    let n = kept.len();
    let between: Vec<usize> = if distance == 0 {
        (p + 1..j).collect()
    } else {
        (p + 1..n).chain(0..j).collect()
    };
    let full = reg.full_register();
    between.into_iter().any(|q| {
        cx.instrs[kept[q]]
            .writes()
            .any(|a| matches!(a.loc, Loc::Reg(r) if r.full_register() == full))
    })
}

/// A memory input of a program position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MemInput {
    /// The consumer (the load's position).
    pub consumer: usize,
    /// The edge from the store.
    pub input: SimInput,
    /// Memory renaming gives the load its value (see [`renamed`]).
    pub renamed: bool,
}

/// The memory inputs of every position of `kept` (lines in program order, all with data).
pub fn inputs(cx: &Context, kept: &[usize], descs: &[Option<InstrDesc>]) -> Vec<MemInput> {
    let n = kept.len();
    let instr = |pos: usize| &cx.instrs[kept[pos]];
    // rsp offset before each position, relative to the iteration's start.
    let mut rsp = Vec::with_capacity(n);
    let mut offset = 0i64;
    for pos in 0..n {
        rsp.push(offset);
        offset += stack_delta(instr(pos)).unwrap_or(0);
    }
    let net = offset;
    let fallback = f64::from(cx.arch.memory.store_forward_latency.unwrap_or(4));
    let mut out = Vec::new();
    for j in 0..n {
        let load = instr(j);
        for m in load.mem.iter().filter(|m| m.read && !m.agen) {
            let want = Key::of(m, rsp[j]);
            // Walk back: this iteration, then (looped) the previous one.
            let order = (0..j)
                .rev()
                .map(|p| (p, 0u32))
                .chain((j..n).rev().map(|p| (p, 1u32)).filter(|_| cx.looped));
            for (p, distance) in order {
                let cand = instr(p);
                let shift = if distance == 1 { -net } else { 0 };
                let hit = cand.mem.iter().find(|w| {
                    w.write && !w.agen && w.size >= m.size && Key::of(w, rsp[p] + shift) == want
                });
                if let Some(w) = hit {
                    let (Some(store), Some(ld)) =
                        (descs[kept[p]].as_ref(), descs[kept[j]].as_ref())
                    else {
                        break;
                    };
                    // A store the data shows renamed (a round trip of at most a cycle) whose
                    // address register was written again before the load: plain forwarding.
                    let moved = m.base.is_some_and(|b| {
                        b != Register::RSP && rewritten(cx, kept, (p, j), distance, b)
                    });
                    let renamed = !moved && renamed(store, w, load, m);
                    let ready = match cx.arch.memory.store_forward_latency {
                        Some(f) if moved && mem_ready(store, fallback) <= 1.0 => f64::from(f),
                        _ => mem_ready(store, fallback),
                    };
                    let offset = if renamed {
                        0.0
                    } else {
                        ready - mem_slack(ld, m.write)
                    };
                    out.push(MemInput {
                        consumer: j,
                        input: SimInput {
                            producer: p as u32,
                            distance,
                            offset: whole(offset),
                        },
                        renamed,
                    });
                    break;
                }
            }
        }
    }
    out
}

fn whole(v: f64) -> u32 {
    if v.is_finite() && v > 0.0 {
        v.ceil().min(f64::from(u32::MAX)) as u32
    } else {
        0
    }
}
