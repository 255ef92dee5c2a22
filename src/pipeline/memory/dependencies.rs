//! Memory dependencies: a load waits for the nearest earlier store to the same address, named
//! the same way (segment, base, index, scale, displacement; rsp-based addresses corrected for
//! the pushes and pops between them). Whether an instruction between them changed the base
//! or index register is not asked: the names decide, as issue #7 specifies — and BHive, whose
//! measurements judge the model, points every register at the same page, so a pointer
//! reloaded each copy still aliases (with the check: MAPE 10.1%, tau 0.899; without: 10.0%,
//! 0.905 on the development split). The value comes by store-to-load forwarding.
//!
//! Latency: the data's memory latencies (uops.info `cycles_mem` and the register-to-memory
//! latencies of stores) under the slack rule of [`crate::pipeline::latency`]: the store's
//! value reaches memory `mem_ready` cycles after the store starts, and the load needs it
//! `mem_slack` cycles after its own start.
//!
//! Memory renaming (Zen 2 and later, seen in the data as a store round trip of at most a
//! cycle) gives a plain `mov` load the store's value when the store starts. Renaming pairs
//! accesses by register and displacement, so here the base register is asked after all: when
//! an instruction between store and load writes it, the value comes by plain forwarding (the
//! arch's `store_forward_latency`).

use std::collections::HashMap;

use iced_x86::Register;

use super::address::{AddressMap, Origin, Relation, MAX_DISTANCE};
use crate::db::{Endpoint, InstrDesc, LatVia};
use crate::ir::{Instr, Loc, MemOperand};
use crate::pipeline::latency::{lead, longest_input_latency, produce_latency};
use crate::sim::SimInput;
use crate::uarch::MicroArch;

use crate::pipeline::Context;

/// An address as named by the instruction: the [`UnknownPolicy::SameName`] fallback.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    segment: Option<Register>,
    base: Option<Register>,
    index: Option<Register>,
    scale: u8,
    displacement: i64,
}

impl Key {
    fn of(m: &MemOperand) -> Key {
        Key {
            segment: m.segment,
            base: m.base,
            index: m.index,
            scale: m.scale,
            displacement: m.displacement,
        }
    }
}

/// What a store and a load whose address difference is unknown (a pointer loaded or
/// computed by an operation the analysis does not follow) are assumed to do.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UnknownPolicy {
    /// They alias when the instruction names the address the same way (segment, base,
    /// index, scale, displacement), in the same iteration or the next; otherwise not.
    SameName,
    /// They never alias (the hardware's memory-dependence prediction lets such a load run
    /// ahead when it did not alias before).
    NoAlias,
}

/// The policy for BHive-style unrolled blocks, chosen by the accuracy benchmarks
/// (docs/model.md): BHive points every register at one page, so a loaded pointer does alias
/// a store named the same way.
pub const UNKNOWN_POLICY: UnknownPolicy = UnknownPolicy::SameName;

/// The policy for loops with their own back branch (loop mode): a compiled loop's loaded
/// values (histogram bins, list nodes) differ from one iteration to the next, and the
/// hardware lets a load run ahead of stores it did not alias before (docs/model.md).
pub const LOOP_UNKNOWN_POLICY: UnknownPolicy = UnknownPolicy::NoAlias;

/// The policy for `cx`'s region.
pub fn policy(loop_mode: bool) -> UnknownPolicy {
    if loop_mode {
        LOOP_UNKNOWN_POLICY
    } else {
        UNKNOWN_POLICY
    }
}

/// The policy for the store→load dependencies of a region on `arch`: the mode's, except
/// that loops on an arch whose loads wait for same-named stores of unknown address
/// (`memory.loop_same_name_aliases`: Redwood Cove, which renames no indexed access) take
/// the unrolled policy.
pub fn dependency_policy(loop_mode: bool, arch: &MicroArch) -> UnknownPolicy {
    if loop_mode && arch.memory.loop_same_name_aliases == Some(true) {
        UnknownPolicy::SameName
    } else {
        policy(loop_mode)
    }
}

/// Cycles after a store starts at which its value is in memory: its longest latency from a
/// value (register or memory) to memory. A store starts once its data is ready (its address
/// latencies, which dominate its slack, are not on this path).
fn mem_ready(store: &InstrDesc, fallback: f64) -> f64 {
    let to_memory = || {
        store
            .latencies
            .iter()
            .filter(|l| matches!(l.to, Endpoint::Mem(_)))
            .filter(|l| matches!(l.via, LatVia::Value | LatVia::Memory))
    };
    // An upper bound (a register input of a read-modify-write whose chain could not be
    // isolated) gives way to an exact figure where there is one.
    let exact = to_memory().any(|l| !l.upper_bound);
    to_memory()
        .filter(|l| !exact || !l.upper_bound)
        .map(|l| l.cycles)
        .reduce(f64::max)
        .unwrap_or(fallback)
}

/// The exact memory-to-memory latency of a read-modify-write, if the data has one.
fn mem_to_mem(store: &InstrDesc) -> Option<f64> {
    store
        .latencies
        .iter()
        .filter(|l| matches!(l.to, Endpoint::Mem(_)) && l.via == LatVia::Memory && !l.upper_bound)
        .map(|l| l.cycles)
        .reduce(f64::max)
}

/// Cycles after a load starts at which it needs the memory value. A read-modify-write
/// needs it at once: its memory-to-memory latency counts from its start.
fn mem_slack(load: &InstrDesc, rmw: bool) -> f64 {
    if rmw {
        return 0.0;
    }
    let longest = longest_input_latency(load).unwrap_or(0.0);
    own_mem(load).map_or(0.0, |own| (longest - own).max(0.0))
}

/// The load's latency from its memory operand to its result, if the data has one.
fn own_mem(load: &InstrDesc) -> Option<f64> {
    load.latencies
        .iter()
        .filter(|l| l.via == LatVia::Memory)
        .map(|l| l.cycles)
        .reduce(f64::max)
}

/// A store→load dependency the hardware resolves by memory renaming: the load's value is the
/// store's data register, ready when the store starts (Zen 2 and later keep such values in
/// a register file). Driven by the data: the store's measured round trip through memory
/// (store then a plain `mov` load back, uops.info's register→memory latency) takes at most a
/// cycle; the load is such a plain `mov` (sign- or zero-extending loads and load-op
/// instructions are not shown to be renamed: on the ZEN4 block set, renaming them too gives
/// MAPE 10.9% against 10.7%); both accesses have the same width and no index register.
fn renamed(
    store: &InstrDesc,
    w: &MemOperand,
    load_instr: &Instr,
    load: &MemOperand,
    stack: bool,
) -> bool {
    let round_trip = store
        .latencies
        .iter()
        .filter(|l| matches!(l.to, Endpoint::Mem(_)) && l.via == LatVia::Value)
        .map(|l| l.cycles)
        .reduce(f64::max);
    (round_trip.is_some_and(|c| c <= 1.0) || stack)
        && w.size == load.size
        && w.index.is_none()
        && load.index.is_none()
        && !load.write
        && matches!(
            load_instr.iced.mnemonic(),
            iced_x86::Mnemonic::Mov | iced_x86::Mnemonic::Pop
        )
}

/// Whether `instr` is a locked operation: a LOCK prefix, or `xchg` with memory (locked by
/// itself).
fn locked(instr: &Instr) -> bool {
    let i = &instr.iced;
    i.has_lock_prefix()
        || (i.mnemonic() == iced_x86::Mnemonic::Xchg
            && (0..i.op_count()).any(|k| i.op_kind(k) == iced_x86::OpKind::Memory))
}

/// Cycles from a push to the pop (or plain load) that memory renaming serves it to:
/// measured on Zen 4, `push rax; pop rax` chains at 1 cycle (testdata/asm/stack_renaming.s).
const STACK_RENAMING_CYCLES: f64 = 1.0;

/// A memory input of a program position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MemInput {
    /// The consumer (the load's position).
    pub consumer: usize,
    /// The edge from the store.
    pub input: SimInput,
    /// Memory renaming gives the load its value (see `renamed`).
    pub renamed: bool,
    /// Store forwarding cannot serve the load ([`MemEdge::forwardable`]).
    pub unforwardable: bool,
}

/// A store→load dependency as the analysis found it, before latencies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MemEdge {
    /// The store's path position.
    pub store: usize,
    /// The store's memory operand (index into its `mem`).
    pub store_mem: usize,
    /// The load's path position.
    pub load: usize,
    /// The load's memory operand.
    pub load_mem: usize,
    /// Iterations between them.
    pub distance: u32,
    /// Load address minus store address (bytes); 0 for a name match of unknown values.
    pub delta: i64,
    /// Proven by the address values (else assumed by the unknown-provenance policy).
    pub proven: bool,
    /// The load reads bytes the store did not write (store forwarding cannot serve it).
    pub partial: bool,
    /// The load reaches the store's bytes at another virtual address, a whole number of
    /// pages away, that the harness maps to the same physical page: store forwarding, which
    /// matches virtual addresses, cannot serve it either.
    pub other_page: bool,
    /// Neither address register was written between the two accesses.
    pub same_registers: bool,
}

impl MemEdge {
    /// Whether store forwarding can serve the load: it reads only bytes the store wrote, at
    /// the store's virtual address.
    pub fn forwardable(&self) -> bool {
        !self.partial && !self.other_page
    }
}

/// Candidates looked at per load, nearest first: bounds the work on huge regions.
const MAX_CANDIDATES: usize = 256;

type Bucket = Vec<(usize, usize)>;

/// Stores of `list` (path order) nearest before `j` first, then from the path's end.
fn nearest(list: &Bucket, j: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
    let split = list.partition_point(|&(p, _)| p < j);
    let (before, after) = list.split_at(split);
    before
        .iter()
        .rev()
        .chain(after.iter().rev())
        .take(MAX_CANDIDATES)
        .copied()
}

/// The store→load dependencies of `path` (instructions in execution order; `looped`: the
/// path repeats, so a load may read a store of an earlier iteration). Each load depends on
/// the youngest store that overlaps it. `map` is [`AddressMap::build`] of `path`.
pub fn edges(
    path: &[&Instr],
    map: &AddressMap,
    looped: bool,
    policy: UnknownPolicy,
) -> Vec<MemEdge> {
    let n = path.len() as u64;
    let max_distance = if looped { MAX_DISTANCE } else { 0 };
    // Stores grouped by the origins of their address (only equal ones can differ by a
    // constant), and by name for the fallback.
    let mut by_terms: HashMap<Vec<(Origin, i64)>, Bucket> = HashMap::new();
    let mut by_name: HashMap<Key, Bucket> = HashMap::new();
    // Stores whose address the harness gives as a number.
    let mut numbered: Bucket = Vec::new();
    for (p, instr) in path.iter().enumerate() {
        for (k, m) in instr.mem.iter().enumerate() {
            if m.write && !m.agen {
                if map.steady(p, k).is_some() {
                    numbered.push((p, k));
                }
                if let Some(a) = map.address(p, k) {
                    by_terms
                        .entry(a.value.terms().to_vec())
                        .or_default()
                        .push((p, k));
                }
                by_name.entry(Key::of(m)).or_default().push((p, k));
            }
        }
    }
    let mut out = Vec::new();
    for (j, instr) in path.iter().enumerate() {
        for (lk, m) in instr.mem.iter().enumerate() {
            if !m.read || m.agen {
                continue;
            }
            let Some(la) = map.address(j, lk) else {
                continue;
            };
            let age = |e: &MemEdge| u64::from(e.distance) * n + j as u64 - e.store as u64;
            let mut best: Option<MemEdge> = None;
            let mut consider = |e: MemEdge| {
                if best.as_ref().is_none_or(|b| age(&e) < age(b)) {
                    best = Some(e);
                }
            };
            // An edge whose addresses are known to overlap.
            let proven = |p: usize, sk: usize, distance: u32, delta: i64| {
                let w = &path[p].mem[sk];
                MemEdge {
                    store: p,
                    store_mem: sk,
                    load: j,
                    load_mem: lk,
                    distance,
                    delta,
                    proven: true,
                    partial: delta < 0 || delta + i64::from(m.size) > i64::from(w.size),
                    other_page: false,
                    same_registers: same_registers(map, (p, sk, w), (j, lk, m), distance),
                }
            };
            // Where the harness gives both addresses as numbers, the numbers decide.
            let load_numbered = map.steady(j, lk).is_some();
            let both_numbered = |p: usize, sk: usize| load_numbered && map.steady(p, sk).is_some();
            if load_numbered {
                for (p, sk) in nearest(&numbered, j) {
                    let w = &path[p].mem[sk];
                    if let Some(Relation::Overlap {
                        distance,
                        delta,
                        pages_apart,
                    }) = map.relate_steady((p, sk, w.size), (j, lk, m.size), max_distance)
                    {
                        consider(MemEdge {
                            // A store of this or the previous iteration is still in the
                            // store buffer; older ones have committed in the blocks of
                            // BHive's development split (docs/model.md, "Latency").
                            other_page: pages_apart != 0 && distance <= 1,
                            ..proven(p, sk, distance, delta)
                        });
                    }
                }
            }
            if let Some(list) = by_terms.get(la.value.terms()) {
                for (p, sk) in nearest(list, j) {
                    if both_numbered(p, sk) {
                        continue;
                    }
                    let w = &path[p].mem[sk];
                    if let Relation::Overlap {
                        distance, delta, ..
                    } = map.relate((p, sk, w.size), (j, lk, m.size), max_distance)
                    {
                        consider(proven(p, sk, distance, delta));
                    }
                }
            }
            if policy == UnknownPolicy::SameName {
                if let Some(list) = by_name.get(&Key::of(m)) {
                    for (p, sk) in nearest(list, j) {
                        if both_numbered(p, sk) {
                            continue;
                        }
                        let w = &path[p].mem[sk];
                        let distance = u32::from(p >= j);
                        if distance > max_distance || w.size < m.size {
                            continue;
                        }
                        if map.relate((p, sk, w.size), (j, lk, m.size), max_distance)
                            != Relation::Unknown
                        {
                            continue;
                        }
                        consider(MemEdge {
                            store: p,
                            store_mem: sk,
                            load: j,
                            load_mem: lk,
                            distance,
                            delta: 0,
                            proven: false,
                            partial: false,
                            other_page: false,
                            same_registers: false,
                        });
                        break;
                    }
                }
            }
            out.extend(best);
        }
    }
    out
}

/// Whether the base and index registers of both accesses hold the same versions and the
/// displacements agree: memory renaming pairs accesses by register and displacement, so a
/// register written between them (even by a constant) sends the value through plain
/// forwarding. rsp, which the stack engine tracks, does not count.
fn same_registers(
    map: &AddressMap,
    (p, sk, w): (usize, usize, &MemOperand),
    (j, lk, m): (usize, usize, &MemOperand),
    distance: u32,
) -> bool {
    let (Some(s), Some(l)) = (map.address(p, sk), map.address(j, lk)) else {
        return false;
    };
    let same =
        |a: Option<Register>, b: Option<Register>, va: Option<u32>, vb: Option<u32>| match (a, b) {
            (None, None) => true,
            (Some(Register::RSP), Some(Register::RSP)) => true,
            (Some(x), Some(y)) if x.full_register() == y.full_register() => {
                map.writes_between(x, va.unwrap_or(0), vb.unwrap_or(0), distance) == 0
            }
            _ => false,
        };
    same(w.base, m.base, s.base_version, l.base_version)
        && same(w.index, m.index, s.index_version, l.index_version)
        && w.displacement == m.displacement
}

/// The latency offset of edge `e` (store and load at path positions of `path`) and whether
/// memory renaming serves it; `None` when either line has no data.
fn timing(
    cx: &Context,
    path: &[usize],
    e: &MemEdge,
    descs: &[Option<InstrDesc>],
) -> Option<(u32, bool)> {
    let (sl, ll) = (path[e.store], path[e.load]);
    let (store, ld) = (descs[sl].as_ref()?, descs[ll].as_ref()?);
    let fallback = f64::from(cx.arch.memory.store_forward_latency.unwrap_or(4));
    let w = &cx.instrs[sl].mem[e.store_mem];
    let m = &cx.instrs[ll].mem[e.load_mem];
    // A push read back by a pop or a plain load where the arch renames stack slots (the
    // data has no round trip for push).
    let stack = cx.arch.memory.stack_renaming == Some(true)
        && cx.instrs[sl].iced.mnemonic() == iced_x86::Mnemonic::Push;
    // The stack engine moves rsp between them, so a push and its pop name the slot with
    // different displacements: the proven same address stands in for the same registers.
    // A store and a load through rsp alone (no index) that the address analysis proves to
    // be one slot, with rsp moved between them by any means (`sub rsp, 8`, `lea`): renamed
    // too. Zen 4 (testdata/asm/stack_slots.s): `mov rax, [rsp+16]; mov [rsp+8], rax; sub rsp,
    // 8` chains at 1.00 cycle per copy; through rbp, forwarding, 5.85.
    let rsp_slot = cx.arch.memory.stack_renaming == Some(true)
        && w.base == Some(Register::RSP)
        && m.base == Some(Register::RSP)
        && w.index.is_none()
        && m.index.is_none();
    // Memory renaming pairs the accesses by their registers; Redwood Cove renames no access
    // with an index (testdata/asm/rmw_forward.s).
    let indexed = w.index.is_some() || m.index.is_some();
    let same_registers =
        e.same_registers && !(indexed && cx.arch.memory.renames_indexed == Some(false));
    let paired = same_registers || ((stack || rsp_slot) && e.proven && e.delta == 0);
    // A locked access goes through the cache: no renaming, no fast read-modify-write chain.
    let locked = locked(&cx.instrs[sl]) || locked(&cx.instrs[ll]);
    let renamed =
        paired && e.forwardable() && !locked && renamed(store, w, &cx.instrs[ll], m, stack);
    let ready = match cx.arch.memory.store_forward_latency {
        // A store the data shows renamed whose address registers changed before the load,
        // or that wrote only part of the load's bytes: plain forwarding.
        Some(f) if (!same_registers || e.partial) && mem_ready(store, fallback) <= 1.0 => {
            f64::from(f)
        }
        // A read-modify-write read back by a read-modify-write: the chain uops.info measures
        // as the memory-to-memory latency, not the longer ones from its register inputs
        // (Skylake `lock xadd [rax], edx`: 18 cycles memory to memory, 28 from edx; BHive
        // 18.0 a copy).
        _ if w.read && w.write && m.write => {
            mem_to_mem(store).unwrap_or_else(|| mem_ready(store, fallback))
        }
        _ => mem_ready(store, fallback),
    };
    // A read-modify-write's stored value, forwarded: no sooner than the arch's measured
    // round trip (Skylake: the data's 4 cycles, chains of them measure 5; docs/model.md).
    let ready = match cx.arch.memory.rmw_round_trip {
        Some(r) if w.read && w.write && !renamed => ready.max(f64::from(r)),
        _ => ready,
    };
    // A locked operation's value is there no sooner than a plain store forwards it (Zen 4:
    // `lock add [rdi], 1` chains at 6-7 cycles, the plain form at 1; testdata/asm/locked.s).
    let ready = if locked { ready.max(fallback) } else { ready };
    // Offsets count from each instruction's start, which for a load-op is its operation
    // ([`lead`]): a renamed value goes straight to it, a forwarded one through its load.
    // The data's store→memory latency and the load's memory→register latency are each a
    // whole store-then-load round trip (uops.info measures both through one): the value
    // reaches the load's register a round trip after the store starts, counted once.
    let forwarded = if m.write || lead(ld) > 0.0 {
        ready - mem_slack(ld, m.write)
    } else {
        // The load's result a round trip after the store starts, not before its own
        // latency from its start.
        ready.max(own_mem(ld).unwrap_or(0.0)) - longest_input_latency(ld).unwrap_or(0.0)
    };
    let offset = if renamed && stack {
        STACK_RENAMING_CYCLES
    } else if renamed {
        0.0
    } else {
        forwarded + lead(ld)
    } - lead(store);
    Some((whole(offset), renamed))
}

/// The memory inputs of every position of `kept` (lines in program order, all with data);
/// `path` is every line of the path in order (with or without data): the address analysis
/// follows them all; `map` is their [`AddressMap`].
pub fn inputs(
    cx: &Context,
    path: &[usize],
    map: &AddressMap,
    kept: &[usize],
    descs: &[Option<InstrDesc>],
) -> Vec<MemInput> {
    let instrs: Vec<&Instr> = path.iter().map(|&l| &cx.instrs[l]).collect();
    let edges = edges(
        &instrs,
        map,
        cx.looped,
        dependency_policy(cx.loop_mode, cx.arch),
    );
    let kept_pos: HashMap<usize, usize> = kept.iter().enumerate().map(|(k, &l)| (l, k)).collect();
    let mut out = Vec::new();
    for e in edges {
        let (Some(&p), Some(&j)) = (kept_pos.get(&path[e.store]), kept_pos.get(&path[e.load]))
        else {
            continue;
        };
        let Some((offset, renamed)) = timing(cx, path, &e, descs) else {
            continue;
        };
        out.push(MemInput {
            consumer: j,
            input: SimInput {
                producer: p as u32,
                distance: e.distance,
                offset,
            },
            renamed,
            unforwardable: !e.forwardable(),
        });
    }
    out
}

/// Cycles sooner than the data says that the plain load `load` (`mov`, `movzx`, `movsx`,
/// `movsxd` from memory) gives its value `loc` when store forwarding serves it
/// (`memory.forwarded_load_latency`; Skylake: 4 against the data's 5, docs/model.md
/// "Latency"); 0 elsewhere.
pub fn forwarded_load_saving(arch: &MicroArch, load: &Instr, desc: &InstrDesc, loc: Loc) -> u32 {
    let Some(f) = arch.memory.forwarded_load_latency else {
        return 0;
    };
    if !load.moves_from_memory() {
        return 0;
    }
    (produce_latency(desc, loc).ceil() as u32).saturating_sub(f)
}

/// A memory dependency as the graphs show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphEdge {
    /// The store's line.
    pub store: usize,
    /// The load's line.
    pub load: usize,
    /// Iterations between them.
    pub distance: u32,
    /// The edge with its address facts.
    pub edge: MemEdge,
    /// The load's memory operand.
    pub address: MemOperand,
    /// Simulated latency offset; `None` when a line has no data.
    pub latency: Option<u32>,
    /// The load's value comes by plain store forwarding: neither renamed nor partial.
    pub forwarded: bool,
}

/// The memory dependencies of the lines `path` (in order), for the dependency graph.
pub fn graph_edges(cx: &Context, path: &[usize], descs: &[Option<InstrDesc>]) -> Vec<GraphEdge> {
    let instrs: Vec<&Instr> = path.iter().map(|&l| &cx.instrs[l]).collect();
    let map = AddressMap::build_in(&instrs, cx.model.harness);
    edges(
        &instrs,
        &map,
        cx.looped,
        dependency_policy(cx.loop_mode, cx.arch),
    )
    .into_iter()
    .map(|e| {
        let timed = timing(cx, path, &e, descs);
        GraphEdge {
            store: path[e.store],
            load: path[e.load],
            distance: e.distance,
            address: cx.instrs[path[e.load]].mem[e.load_mem].clone(),
            latency: timed.map(|(o, _)| o),
            forwarded: timed.is_some_and(|(_, renamed)| !renamed) && e.forwardable(),
            edge: e,
        }
    })
    .collect()
}

fn whole(v: f64) -> u32 {
    if v.is_finite() && v > 0.0 {
        v.ceil().min(f64::from(u32::MAX)) as u32
    } else {
        0
    }
}
