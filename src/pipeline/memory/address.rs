//! Addresses as values: every memory operand of a path as a linear form over the values the
//! registers held when the iteration started, so that two accesses can be compared by the
//! location they touch, not by how they are written (issue #14 item 1).
//!
//! A register holds a [`Lin`]: a sum of integer multiples of *origins* plus a constant. An
//! origin is a register's value at the start of the iteration ([`Origin::Entry`]) or the
//! result of an instruction the analysis cannot follow ([`Origin::Def`]: a load, a multiply
//! by a register, an 8/16-bit write...). Writes that add or scale by constants (`add/sub reg,
//! imm`, `inc/dec`, `lea`, `mov reg, reg/imm`, `shl reg, imm`, `imul reg, reg, imm`, the
//! stack pointer of push/pop/call/ret) fold into the form; every other write gives a fresh
//! `Def`. Each write also bumps the register's *version*, which memory renaming asks about.
//!
//! Across iterations: a register whose value at the end of the iteration is its entry value
//! plus `d` is an induction variable of stride `d` (0 for registers the body leaves alone);
//! iteration `i + k` then sees `Entry(r) + k·d`. Any other register, and every `Def`, differs
//! between iterations in a way the analysis does not know.
//!
//! Two accesses are related ([`AddressMap::relate`]) when the difference of their forms,
//! for a given iteration distance, is a constant: then they overlap exactly when their byte
//! ranges do. Otherwise the relation is [`Relation::Unknown`], and the policy of
//! [`super::dependencies`] decides (docs/model.md, "Memory dependencies").

use std::collections::BTreeMap;

use iced_x86::{Mnemonic, OpKind, Register};

use crate::ir::{AccessKind, Idiom, Instr, Loc, MemOperand};

use super::harness::{plain_load, Harness};
use crate::pipeline::renamer::is_stack_op;

/// A value the analysis cannot express in terms of others.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Origin {
    /// The register's value at the start of the iteration.
    Entry(Register),
    /// The result written by the instruction at this path position (this iteration's).
    Def(u32),
}

/// `Σ coefficient·origin + constant`, terms sorted by origin, no zero coefficients.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lin {
    terms: Vec<(Origin, i64)>,
    constant: i64,
}

impl Lin {
    fn constant(c: i64) -> Lin {
        Lin {
            terms: Vec::new(),
            constant: c,
        }
    }

    fn origin(o: Origin) -> Lin {
        Lin {
            terms: vec![(o, 1)],
            constant: 0,
        }
    }

    /// `self + factor·other`.
    fn add_scaled(&self, other: &Lin, factor: i64) -> Lin {
        let mut terms: BTreeMap<Origin, i64> = self.terms.iter().copied().collect();
        for &(o, c) in &other.terms {
            let e = terms.entry(o).or_insert(0);
            *e = e.wrapping_add(c.wrapping_mul(factor));
        }
        Lin {
            terms: terms.into_iter().filter(|&(_, c)| c != 0).collect(),
            constant: self
                .constant
                .wrapping_add(other.constant.wrapping_mul(factor)),
        }
    }

    fn offset(&self, d: i64) -> Lin {
        Lin {
            terms: self.terms.clone(),
            constant: self.constant.wrapping_add(d),
        }
    }

    fn scaled(&self, factor: i64) -> Lin {
        Lin::constant(0).add_scaled(self, factor)
    }

    /// The origins and their coefficients.
    pub fn terms(&self) -> &[(Origin, i64)] {
        &self.terms
    }

    /// The constant, when the form has no terms.
    fn as_constant(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.constant)
    }
}

/// A memory operand's address as a value, with the versions of its address registers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Address {
    /// The address.
    pub value: Lin,
    /// The base register's version (writes to it earlier in the iteration), if it has one.
    pub base_version: Option<u32>,
    /// The index register's version, if it has one.
    pub index_version: Option<u32>,
}

/// How a store's bytes relate to a later load's.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Relation {
    /// The ranges overlap `distance` iterations later; the load starts `delta` bytes after
    /// the store.
    Overlap {
        /// Iterations between the store and the load (0: the same iteration).
        distance: u32,
        /// Load address minus store address (where the harness maps every page to one, the
        /// nearest of the addresses the load's location stands for).
        delta: i64,
        /// Whole pages between the two virtual addresses when a harness maps them to one
        /// physical location (0: the same virtual address).
        pages_apart: i64,
    },
    /// Provably never overlapping within the distances looked at.
    Disjoint,
    /// The difference of the addresses is not known.
    Unknown,
}

/// The addresses of a path's memory operands and the induction strides of its registers.
#[derive(Clone, Debug, Default)]
pub struct AddressMap {
    /// `addrs[pos][k]`: the address of memory operand `k` of the instruction at `pos`.
    addrs: Vec<Vec<Address>>,
    /// Per-iteration stride of each register the body changes by a constant (absent: the
    /// register is unknown across iterations; registers the body never writes have 0).
    strides: BTreeMap<Register, i64>,
    /// Registers the body writes, with how often.
    writes: BTreeMap<Register, u32>,
    /// `steady[pos][k]`: the address of memory operand `k` of `pos` as a number in the
    /// steady state, where a [`Harness`] gives the starting values (empty without one).
    steady: Vec<Vec<Option<Steady>>>,
    /// The harness `steady` comes from.
    harness: Option<Harness>,
}

/// An address in the steady state of a harness: `at + i·step` in iteration `i`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Steady {
    /// The address in iteration 0 (extrapolated back from the steady state).
    pub at: i64,
    /// Bytes it moves per iteration.
    pub step: i64,
}

/// Iterations looked at for a dependency through memory: beyond this a store→load chain
/// cannot limit the throughput measurably (its latency spreads over as many iterations).
pub const MAX_DISTANCE: u32 = 64;

/// The 64-bit register a general-purpose register is part of, else `None`.
fn gpr(r: Register) -> Option<Register> {
    (r.is_gpr64() || r.is_gpr32() || r.is_gpr16() || r.is_gpr8()).then(|| r.full_register())
}

struct State {
    values: BTreeMap<Register, Lin>,
    versions: BTreeMap<Register, u32>,
}

impl State {
    fn value(&self, r: Register) -> Lin {
        let full = r.full_register();
        if r == Register::RIP || r == Register::EIP {
            return Lin::constant(0);
        }
        self.values
            .get(&full)
            .cloned()
            .unwrap_or_else(|| Lin::origin(Origin::Entry(full)))
    }

    fn version(&self, r: Register) -> u32 {
        self.versions.get(&r.full_register()).copied().unwrap_or(0)
    }

    fn address(&self, m: &MemOperand) -> Address {
        let mut value = Lin::constant(m.displacement);
        if let Some(s) = m.segment {
            value = value.add_scaled(&Lin::origin(Origin::Entry(s)), 1);
        }
        // RIP-relative displacements are absolute already.
        let base = m.base.filter(|&b| b != Register::RIP && b != Register::EIP);
        if let Some(b) = base {
            value = value.add_scaled(&self.value(b), 1);
        }
        if let Some(i) = m.index {
            value = value.add_scaled(&self.value(i), i64::from(m.scale.max(1)));
        }
        Address {
            value,
            base_version: base.map(|b| self.version(b)),
            index_version: m.index.map(|i| self.version(i)),
        }
    }
}

/// Value of an operand: a register's form or an immediate.
fn operand(state: &State, instr: &Instr, k: u32) -> Option<Lin> {
    let i = &instr.iced;
    match i.op_kind(k) {
        OpKind::Register => {
            let r = i.op_register(k);
            gpr(r)?;
            // 8/16-bit sources are parts of a register: not the register's value.
            (r.is_gpr64() || r.is_gpr32()).then(|| state.value(r))
        }
        kind if crate::ir::is_immediate(kind) => Some(Lin::constant(i.immediate(k) as i64)),
        _ => None,
    }
}

/// The value `instr` writes to its destination register `dst`, when it is a constant
/// function of known values; `None` makes it a fresh origin.
fn transfer(state: &State, instr: &Instr, mem: &[Address], dst: Register) -> Option<Lin> {
    let i = &instr.iced;
    if instr.idiom == Some(Idiom::Zero) {
        return Some(Lin::constant(0));
    }
    // Only whole-register results of 32/64-bit operations (32-bit ones zero-extend; a wrap
    // past 2^32 is not modelled, as for any index a compiler keeps in a 32-bit register).
    if i.op_count() == 0 || i.op_kind(0) != OpKind::Register {
        return None;
    }
    let d = i.op0_register();
    if d.full_register() != dst || !(d.is_gpr64() || d.is_gpr32()) {
        return None;
    }
    let src = |k| operand(state, instr, k);
    match i.mnemonic() {
        Mnemonic::Mov if i.op_count() == 2 => src(1),
        Mnemonic::Add => Some(src(0)?.add_scaled(&src(1)?, 1)),
        Mnemonic::Sub => Some(src(0)?.add_scaled(&src(1)?, -1)),
        Mnemonic::Inc => Some(src(0)?.offset(1)),
        Mnemonic::Dec => Some(src(0)?.offset(-1)),
        Mnemonic::Neg => Some(src(0)?.scaled(-1)),
        Mnemonic::Lea => mem.first().map(|a| a.value.clone()),
        Mnemonic::Shl | Mnemonic::Sal => {
            let n = src(1)?.as_constant().filter(|n| (0..32).contains(n))?;
            Some(src(0)?.scaled(1 << n))
        }
        Mnemonic::Imul if i.op_count() == 3 => Some(src(1)?.scaled(src(2)?.as_constant()?)),
        _ => None,
    }
}

impl AddressMap {
    /// Follows the registers through `path` (instructions in execution order).
    pub fn build(path: &[&Instr]) -> AddressMap {
        AddressMap::build_in(path, None)
    }

    /// [`AddressMap::build`], with the addresses also as numbers where `harness` gives the
    /// registers' starting values.
    pub fn build_in(path: &[&Instr], harness: Option<Harness>) -> AddressMap {
        let mut state = State {
            values: BTreeMap::new(),
            versions: BTreeMap::new(),
        };
        let mut addrs = Vec::with_capacity(path.len());
        for (pos, instr) in path.iter().enumerate() {
            let mem: Vec<Address> = instr.mem.iter().map(|m| state.address(m)).collect();
            let mut written: Vec<(Register, bool)> = Vec::new();
            for a in instr.writes() {
                if let Loc::Reg(r) = a.loc {
                    if let Some(full) = gpr(r) {
                        if !written.iter().any(|&(w, _)| w == full) {
                            written.push((full, a.kind == AccessKind::CondWrite));
                        }
                    }
                }
                if let Loc::High8(r) = a.loc {
                    if !written.iter().any(|&(w, _)| w == r) {
                        written.push((r, true));
                    }
                }
            }
            let stack = is_stack_op(instr);
            let mut updates = Vec::with_capacity(written.len());
            for &(r, conditional) in &written {
                let v = if stack && r == Register::RSP {
                    Some(
                        state
                            .value(Register::RSP)
                            .offset(i64::from(instr.iced.stack_pointer_increment())),
                    )
                } else if conditional {
                    None
                } else {
                    transfer(&state, instr, &mem, r)
                };
                updates.push((r, v.unwrap_or_else(|| Lin::origin(Origin::Def(pos as u32)))));
            }
            for (r, v) in updates {
                state.values.insert(r, v);
                *state.versions.entry(r).or_insert(0) += 1;
            }
            addrs.push(mem);
        }
        let mut strides = BTreeMap::new();
        for (&r, v) in &state.values {
            let entry = Lin::origin(Origin::Entry(r));
            if v.terms == entry.terms {
                strides.insert(r, v.constant);
            }
        }
        let mut map = AddressMap {
            addrs,
            strides,
            writes: state.versions,
            steady: Vec::new(),
            harness,
        };
        if let Some(h) = harness {
            let eval = Evaluator {
                map: &map,
                path,
                finals: &state.values,
                harness: h,
            };
            map.steady = (0..path.len())
                .map(|pos| {
                    (0..map.addrs[pos].len())
                        .map(|k| eval.lin(&map.addrs[pos][k].value, EVAL_DEPTH))
                        .collect()
                })
                .collect();
        }
        map
    }

    /// The steady-state number of memory operand `k` of `pos`, with a harness.
    pub fn steady(&self, pos: usize, k: usize) -> Option<Steady> {
        *self.steady.get(pos)?.get(k)?
    }

    /// The address of memory operand `k` of position `pos`.
    pub fn address(&self, pos: usize, k: usize) -> Option<&Address> {
        self.addrs.get(pos)?.get(k)
    }

    /// Stride per iteration of `r` (0 when the body does not write it), `None` when it
    /// changes by something the analysis does not know.
    pub fn stride(&self, r: Register) -> Option<i64> {
        let full = r.full_register();
        if !self.writes.contains_key(&full) {
            return Some(0);
        }
        self.strides.get(&full).copied()
    }

    /// Writes to `r` between an access that saw version `from` and one `distance`
    /// iterations later that saw version `to` (versions as in [`Address`]).
    pub fn writes_between(&self, r: Register, from: u32, to: u32, distance: u32) -> u32 {
        let total = self.writes.get(&r.full_register()).copied().unwrap_or(0);
        total
            .saturating_mul(distance)
            .saturating_add(to)
            .saturating_sub(from)
    }

    /// The address of memory operand `k` of position `pos` as seen `distance` iterations
    /// later: its origins and its constant part (`None` when some origin is unknown across
    /// iterations).
    pub fn parts_at(&self, pos: usize, k: usize, distance: u32) -> Option<(&[(Origin, i64)], i64)> {
        let a = self.address(pos, k)?;
        let v = self.shifted(&a.value, distance)?;
        Some((a.value.terms(), v.constant))
    }

    /// `value` as seen `distance` iterations later, in terms of this iteration's origins;
    /// `None` when some origin is unknown across iterations.
    fn shifted(&self, value: &Lin, distance: u32) -> Option<Lin> {
        if distance == 0 {
            return Some(value.clone());
        }
        let mut constant = value.constant;
        for &(o, c) in &value.terms {
            match o {
                Origin::Entry(r) => {
                    let d = self.stride(r)?;
                    constant =
                        constant.wrapping_add(c.wrapping_mul(d).wrapping_mul(distance as i64));
                }
                Origin::Def(_) => return None,
            }
        }
        Some(Lin {
            terms: value.terms.clone(),
            constant,
        })
    }

    /// [`AddressMap::relate`] by the harness' numbers, `None` when either address has none.
    /// Accesses that move at different steps meet at most once, in the start-up: disjoint
    /// in the steady state. Where the harness maps every page to one, addresses a whole
    /// number of pages apart are one location.
    pub fn relate_steady(
        &self,
        (p, sk, store_size): (usize, usize, u32),
        (j, lk, load_size): (usize, usize, u32),
        max_distance: u32,
    ) -> Option<Relation> {
        let (s, l) = (self.steady(p, sk)?, self.steady(j, lk)?);
        let page = self.harness.and_then(Harness::one_page);
        if s.step != l.step {
            return Some(Relation::Disjoint);
        }
        let first = u32::from(p >= j);
        let at_first =
            l.at.wrapping_add(l.step.wrapping_mul(i64::from(first)))
                .wrapping_sub(s.at);
        Some(scan(
            (at_first, l.step),
            (first, max_distance),
            (store_size, load_size),
            page,
        ))
    }

    /// How the bytes the store `(p, sk)` writes relate to the bytes the load `(j, lk)`
    /// reads: the nearest distance at which they overlap (distance 0 only when `p < j`;
    /// none beyond `max_distance`).
    pub fn relate(
        &self,
        (p, sk, store_size): (usize, usize, u32),
        (j, lk, load_size): (usize, usize, u32),
        max_distance: u32,
    ) -> Relation {
        let (Some(s), Some(l)) = (self.address(p, sk), self.address(j, lk)) else {
            return Relation::Unknown;
        };
        let first = u32::from(p >= j);
        if first > max_distance {
            return Relation::Disjoint;
        }
        // delta(k) = delta(first) + (k - first)·step: the difference is linear in k.
        let Some(at_first) = self.shifted(&l.value, first) else {
            return Relation::Unknown;
        };
        let Some(delta0) = at_first.add_scaled(&s.value, -1).as_constant() else {
            return Relation::Unknown;
        };
        let step = if first < max_distance {
            match self.shifted(&l.value, first + 1) {
                Some(next) => next.constant.wrapping_sub(at_first.constant),
                // Known at `first` (same iteration) but not one later: look no further.
                None => {
                    return if overlaps(delta0, store_size, load_size) {
                        Relation::Overlap {
                            distance: first,
                            delta: delta0,
                            pages_apart: 0,
                        }
                    } else {
                        Relation::Disjoint
                    };
                }
            }
        } else {
            0
        };
        scan(
            (delta0, step),
            (first, max_distance),
            (store_size, load_size),
            None,
        )
    }
}

/// The nearest distance in `first..=max_distance` at which a load whose address minus the
/// store's is `delta0 + (k − first)·step` overlaps the store's bytes; with `page`, addresses
/// a whole number of pages apart are one location.
fn scan(
    (delta0, step): (i64, i64),
    (first, max_distance): (u32, u32),
    (store_size, load_size): (u32, u32),
    page: Option<i64>,
) -> Relation {
    for k in first..=max_distance {
        let virtual_delta = delta0.wrapping_add(step.wrapping_mul(i64::from(k - first)));
        let mut delta = virtual_delta;
        if let Some(page) = page {
            // The nearest of the addresses one physical location stands for.
            delta = (delta + page / 2).rem_euclid(page) - page / 2;
        }
        if overlaps(delta, store_size, load_size) {
            let pages_apart = page.map_or(0, |p| virtual_delta.wrapping_sub(delta) / p);
            return Relation::Overlap {
                distance: k,
                delta,
                pages_apart,
            };
        }
        // Moving away for good: no later k can overlap (with pages folded, a moving access
        // comes round again).
        if step == 0
            || (page.is_none() && step > 0 && delta >= i64::from(store_size))
            || (page.is_none() && step < 0 && delta + i64::from(load_size) <= 0)
        {
            break;
        }
    }
    Relation::Disjoint
}

/// How deep [`Evaluator`] follows registers through earlier iterations and loads.
const EVAL_DEPTH: u32 = 3;

/// Evaluates address forms with a harness' starting values.
struct Evaluator<'a> {
    map: &'a AddressMap,
    path: &'a [&'a Instr],
    finals: &'a BTreeMap<Register, Lin>,
    harness: Harness,
}

impl Evaluator<'_> {
    fn lin(&self, v: &Lin, depth: u32) -> Option<Steady> {
        let mut out = Steady {
            at: v.constant,
            step: 0,
        };
        for &(o, c) in &v.terms {
            let s = match o {
                Origin::Entry(r) => self.entry(r, depth)?,
                Origin::Def(p) => self.def(p as usize, depth)?,
            };
            out.at = out.at.wrapping_add(c.wrapping_mul(s.at));
            out.step = out.step.wrapping_add(c.wrapping_mul(s.step));
        }
        Some(out)
    }

    /// A register's value when an iteration starts: its starting value moved by its stride,
    /// or, for one the body sets anew, its value at the end of the iteration before.
    fn entry(&self, r: Register, depth: u32) -> Option<Steady> {
        let start = self.harness.initial(r)?;
        if let Some(step) = self.map.stride(r) {
            return Some(Steady { at: start, step });
        }
        let last = self.lin(self.finals.get(&r)?, depth.checked_sub(1)?)?;
        Some(Steady {
            at: last.at.wrapping_sub(last.step),
            step: last.step,
        })
    }

    /// The value a plain load at `pos` gives: the harness' constant from an 8-byte-aligned
    /// quadword that stays put, the constant's upper half (0) from its second dword.
    fn def(&self, pos: usize, depth: u32) -> Option<Steady> {
        let instr = self.path.get(pos)?;
        if !plain_load(instr) {
            return None;
        }
        let k = instr.mem.iter().position(|m| m.read && !m.agen)?;
        let a = self.lin(&self.map.addrs[pos][k].value, depth.checked_sub(1)?)?;
        if a.step.rem_euclid(8) != 0 {
            return None;
        }
        let at = match (a.at.rem_euclid(8), instr.mem[k].size) {
            (0, 4 | 8) => self.harness.loaded(),
            (4, 4) => 0,
            _ => return None,
        };
        Some(Steady { at, step: 0 })
    }
}

/// Whether `[delta, delta + load)` meets `[0, store)`; unknown sizes count as one byte.
fn overlaps(delta: i64, store: u32, load: u32) -> bool {
    let (s, l) = (i64::from(store.max(1)), i64::from(load.max(1)));
    delta < s && delta + l > 0
}
