//! Rows 4–7: loads, stores, total memory operations and complex addressing.
//!
//! Facts: SL §3.3. A gather counts one load per element and a scatter one store per element;
//! a cache-line split counts `split_cost` (Intel: 2); alignment is unknown statically, so
//! accesses are assumed aligned unless the expected split rate `(N−1)/line` is asked for.
//! SKL family: port 7 handles only stores addressed as `[base + 0..=2047]`, so
//! `(loads + other stores) / load AGUs` is a bound. Only the decoder's view is needed: every
//! line counts, with or without data.

use iced_x86::{Instruction, Mnemonic};

use super::facts::{BoundFacts, ComplexAddressing, MemRate};
use super::{BoundKind, BoundOptions, BoundRow, RowState};
use crate::ir::{Instr, MemOperand};
use crate::pipeline::memory::{
    address::AddressMap, dependencies as memory, line_splits, store_commit,
};
use crate::uarch::{MicroArch, Role};

/// Memory accesses of one iteration.
#[derive(Clone, Debug, Default)]
pub(super) struct MemCounts {
    /// Loads, including gather elements and split costs (expected, or by the addresses).
    pub loads: f64,
    /// Stores, including scatter elements and expected split costs.
    pub stores: f64,
    /// Loads of ≥ 16 bytes.
    pub vector_loads: f64,
    /// Stores of ≥ 16 bytes.
    pub vector_stores: f64,
    /// Stores not of the simple form `[base + 0..=max]`.
    pub complex_stores: f64,
    /// Lines with loads / stores / complex stores.
    pub load_lines: Vec<usize>,
    pub store_lines: Vec<usize>,
    pub complex_lines: Vec<usize>,
    /// Lines that gather or scatter, with their element count.
    pub vector_mem: Vec<(usize, u32)>,
    /// Commit slots of the stores (two a cycle) where the arch commits by cache line.
    pub commit_slots: Option<u32>,
}

/// Elements a gather/scatter accesses: min(data register / element, index register / index
/// element).
fn vsib_elements(iced: &Instruction) -> u32 {
    let elem = iced.memory_size().element_size().max(1);
    let idx_elem = if iced.is_vsib32() { 4 } else { 8 };
    let idx = iced.memory_index().size() / idx_elem;
    let data = (0..iced.op_count())
        .filter(|&i| iced.op_kind(i) == iced_x86::OpKind::Register)
        .map(|i| iced.op_register(i))
        .find(|r| r.is_xmm() || r.is_ymm() || r.is_zmm())
        .map_or(idx, |r| r.size() / elem);
    data.min(idx).max(1) as u32
}

fn is_prefetch(m: Mnemonic) -> bool {
    matches!(
        m,
        Mnemonic::Prefetch
            | Mnemonic::Prefetchnta
            | Mnemonic::Prefetcht0
            | Mnemonic::Prefetcht1
            | Mnemonic::Prefetcht2
            | Mnemonic::Prefetchw
            | Mnemonic::Prefetchwt1
    )
}

/// `[base + 0..=max]` (implicit stack operands such as `push` count as simple).
fn simple_store(m: &MemOperand, max: u32) -> bool {
    if m.operand.is_none() {
        return m.index.is_none();
    }
    let base_ok = m
        .base
        .is_some_and(|b| b != iced_x86::Register::RIP && b != iced_x86::Register::EIP);
    base_ok && m.index.is_none() && (0..=i64::from(max)).contains(&m.displacement)
}

/// Expected extra cost of a possibly split `size`-byte access.
fn split_extra(size: u32, line: Option<u32>, cost: Option<u32>) -> f64 {
    match (line, cost) {
        (Some(line), Some(cost)) if line > 0 && size > 1 && cost > 1 => {
            f64::from(size - 1) / f64::from(line) * f64::from(cost - 1)
        }
        _ => 0.0,
    }
}

impl MemCounts {
    pub fn new(instrs: &[Instr], arch: &MicroArch, opts: &BoundOptions) -> Self {
        let mut c = MemCounts::default();
        let mm = &arch.memory;
        let max_offset = mm.simple_store_max_offset.unwrap_or(0);
        for (line, instr) in instrs.iter().enumerate() {
            let vsib = instr.iced.is_vsib();
            let elements = if vsib { vsib_elements(&instr.iced) } else { 1 };
            if vsib {
                c.vector_mem.push((line, elements));
            }
            let prefetch = is_prefetch(instr.iced.mnemonic());
            for m in instr.mem.iter().filter(|m| !m.agen) {
                let load = m.read || (prefetch && !m.write);
                let n = f64::from(elements);
                let vector = m.size >= 16 && !vsib;
                if load {
                    c.loads += n;
                    if vector {
                        c.vector_loads += 1.0;
                    }
                    if opts.expected_line_splits && !vsib {
                        c.loads += split_extra(m.size, mm.load_split_bytes, mm.load_split_cost);
                    }
                    c.load_lines.push(line);
                }
                if m.write {
                    c.stores += n;
                    if vector {
                        c.vector_stores += 1.0;
                    }
                    if opts.expected_line_splits && !vsib {
                        c.stores += split_extra(m.size, mm.store_split_bytes, mm.store_split_cost);
                    }
                    c.store_lines.push(line);
                    if !simple_store(m, max_offset) {
                        c.complex_stores += n;
                        c.complex_lines.push(line);
                    }
                }
            }
        }
        for v in [&mut c.load_lines, &mut c.store_lines, &mut c.complex_lines] {
            v.dedup();
        }
        // Both rows below follow the addresses: one analysis for the two.
        let splits = opts.line_splits && mm.load_split_cost.is_some() && !c.load_lines.is_empty();
        let commit =
            opts.store_commit && mm.store_line_pairs == Some(true) && !c.store_lines.is_empty();
        if splits || commit {
            let path: Vec<usize> = (0..instrs.len()).collect();
            let refs: Vec<&Instr> = instrs.iter().collect();
            let map = AddressMap::build_in(&refs, opts.harness);
            if splits {
                let extra: u32 = line_splits::extra_load_uops(instrs, &path, &map, arch, true)
                    .values()
                    .sum();
                c.loads += f64::from(extra);
            }
            if commit {
                let policy = memory::policy(crate::cfg::is_loop(instrs));
                c.commit_slots = Some(
                    store_commit::slots(instrs, &path, &map, arch, true, policy, opts.line_splits)
                        .values()
                        .sum(),
                );
            }
        }
        c
    }
}

/// `count / rate`, or the vector limit when tighter: the row's state, cycles and facts.
fn per_cycle(
    count: f64,
    rate: Option<u32>,
    vector: (f64, Option<u32>),
) -> (RowState, Option<f64>, MemRate) {
    let Some(r) = rate.filter(|&r| r > 0) else {
        let facts = MemRate {
            count,
            per_cycle: None,
            vector: None,
        };
        return (RowState::Unknown, None, facts);
    };
    let mut cycles = count / f64::from(r);
    let mut tighter = None;
    if let (v, Some(vr)) = (vector.0, vector.1.filter(|&vr| vr > 0)) {
        let vc = v / f64::from(vr);
        if vc > cycles {
            cycles = vc;
            tighter = Some((v, vr));
        }
    }
    let facts = MemRate {
        count,
        per_cycle: Some(r),
        vector: tighter,
    };
    (RowState::Bound, Some(cycles), facts)
}

/// Rows 4–7.
pub(super) fn rows(c: &MemCounts, arch: &MicroArch) -> Vec<BoundRow> {
    let mm = &arch.memory;
    let (state, cycles, rate) = per_cycle(
        c.loads,
        mm.loads_per_cycle,
        (c.vector_loads, mm.vector_loads_per_cycle),
    );
    let loads = BoundFacts::Loads {
        rate,
        lines: c.load_lines.clone(),
        gathers: c.vector_mem.clone(),
    };
    let loads = BoundRow::new(BoundKind::Loads, state, cycles, loads);
    let (state, cycles, rate) = per_cycle(
        c.stores,
        mm.stores_per_cycle,
        (c.vector_stores, mm.vector_stores_per_cycle),
    );
    // Committing by cache line: two slots a cycle.
    let commit = c.commit_slots.map(|s| f64::from(s) / 2.0);
    let cycles = match (cycles, commit) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    };
    let stores = BoundFacts::Stores {
        rate,
        lines: c.store_lines.clone(),
        commit_cycles: commit,
    };
    let stores = BoundRow::new(BoundKind::Stores, state, cycles, stores);
    let (state, cycles, rate) = per_cycle(c.loads + c.stores, mm.mem_ops_per_cycle, (0.0, None));
    let ops = BoundRow::new(
        BoundKind::MemoryOps,
        state,
        cycles,
        BoundFacts::MemoryOps { rate },
    );
    vec![loads, stores, ops, complex_row(c, arch)]
}

/// Row 7: `(loads + complex stores) / load AGUs` where the arch has the simple store AGU.
fn complex_row(c: &MemCounts, arch: &MicroArch) -> BoundRow {
    let mm = &arch.memory;
    let (state, cycles, facts) = match mm.complex_addressing_limit {
        Some(true) => {
            let agus = arch.ports_with_role(Role::Load).len();
            match mm.simple_store_max_offset.filter(|_| agus > 0) {
                Some(max) => (
                    RowState::Bound,
                    Some((c.loads + c.complex_stores) / agus as f64),
                    ComplexAddressing::Applies {
                        loads: c.loads,
                        complex_stores: c.complex_stores,
                        lines: c.complex_lines.clone(),
                        load_agus: agus,
                        simple_max_offset: max,
                    },
                ),
                None => (
                    RowState::Unknown,
                    None,
                    ComplexAddressing::ParametersUnknown,
                ),
            }
        }
        Some(false) => (
            RowState::NotApplicable,
            None,
            ComplexAddressing::NotApplicable,
        ),
        None => (RowState::Unknown, None, ComplexAddressing::Unknown),
    };
    BoundRow::new(
        BoundKind::ComplexAddressing,
        state,
        cycles,
        BoundFacts::ComplexAddressing(facts),
    )
}
