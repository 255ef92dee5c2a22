//! Rows 4–7: loads, stores, total memory operations and complex addressing.
//!
//! Facts: SL §3.3. A gather counts one load per element and a scatter one store per element;
//! a cache-line split counts `split_cost` (Intel: 2); alignment is unknown statically, so
//! accesses are assumed aligned unless the expected split rate `(N−1)/line` is asked for.
//! SKL family: port 7 handles only stores addressed as `[base + 0..=2047]`, so
//! `(loads + other stores) / load AGUs` is a bound. Only the decoder's view is needed: every
//! line counts, with or without data.

use iced_x86::{Instruction, Mnemonic};

use super::{fmt_lines, fmt_num, BoundKind, BoundOptions, BoundRow, RowState};
use crate::ir::{Instr, MemOperand};
use crate::uarch::{MicroArch, Role};

/// Memory accesses of one iteration.
#[derive(Clone, Debug, Default)]
pub(super) struct MemCounts {
    /// Loads, including gather elements and expected split costs.
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
        c
    }
}

fn lines_text(lines: &[usize]) -> String {
    if lines.is_empty() {
        "none".into()
    } else {
        fmt_lines(lines)
    }
}

/// `count / rate`, or the vector limit when tighter.
fn per_cycle_row(
    kind: BoundKind,
    what: &str,
    count: f64,
    rate: Option<u32>,
    vector: (f64, Option<u32>),
) -> BoundRow {
    let Some(r) = rate.filter(|&r| r > 0) else {
        return BoundRow::new(
            kind,
            RowState::Unknown,
            None,
            format!("{} {what}, rate unknown", fmt_num(count)),
        );
    };
    let mut cycles = count / f64::from(r);
    let mut detail = format!(
        "{} {what} / {r} per cycle = {}",
        fmt_num(count),
        fmt_num(cycles)
    );
    if let (v, Some(vr)) = (vector.0, vector.1.filter(|&vr| vr > 0)) {
        let vc = v / f64::from(vr);
        if vc > cycles {
            cycles = vc;
            detail = format!(
                "{} vector {what} / {vr} per cycle = {}",
                fmt_num(v),
                fmt_num(vc)
            );
        }
    }
    BoundRow::new(kind, RowState::Bound, Some(cycles), detail).input("per cycle", r)
}

/// Rows 4–7.
pub(super) fn rows(c: &MemCounts, arch: &MicroArch) -> Vec<BoundRow> {
    let mm = &arch.memory;
    let gathers = if c.vector_mem.is_empty() {
        "none".to_string()
    } else {
        c.vector_mem
            .iter()
            .map(|(l, e)| format!("line {l}: {e} elements"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let loads = per_cycle_row(
        BoundKind::Loads,
        "loads",
        c.loads,
        mm.loads_per_cycle,
        (c.vector_loads, mm.vector_loads_per_cycle),
    )
    .input("loads", fmt_num(c.loads))
    .input("load lines", lines_text(&c.load_lines))
    .input("gather/scatter", gathers);
    let stores = per_cycle_row(
        BoundKind::Stores,
        "stores",
        c.stores,
        mm.stores_per_cycle,
        (c.vector_stores, mm.vector_stores_per_cycle),
    )
    .input("stores", fmt_num(c.stores))
    .input("store lines", lines_text(&c.store_lines));
    let total = c.loads + c.stores;
    let ops = per_cycle_row(
        BoundKind::MemoryOps,
        "memory ops",
        total,
        mm.mem_ops_per_cycle,
        (0.0, None),
    )
    .input("loads + stores", fmt_num(total));
    vec![loads, stores, ops, complex_row(c, arch)]
}

/// Row 7: `(loads + complex stores) / load AGUs` where the arch has the simple store AGU.
fn complex_row(c: &MemCounts, arch: &MicroArch) -> BoundRow {
    let mm = &arch.memory;
    match mm.complex_addressing_limit {
        Some(true) => {
            let agus = arch.ports_with_role(Role::Load).len();
            let Some(max) = mm.simple_store_max_offset.filter(|_| agus > 0) else {
                return BoundRow::new(
                    BoundKind::ComplexAddressing,
                    RowState::Unknown,
                    None,
                    "load AGUs or simple-store offset range unknown".into(),
                );
            };
            let n = c.loads + c.complex_stores;
            let cycles = n / agus as f64;
            BoundRow::new(
                BoundKind::ComplexAddressing,
                RowState::Bound,
                Some(cycles),
                format!(
                    "({} loads + {} complex stores) / {agus} load AGUs = {}",
                    fmt_num(c.loads),
                    fmt_num(c.complex_stores),
                    fmt_num(cycles)
                ),
            )
            .input("complex store lines", lines_text(&c.complex_lines))
            .input("simple store", format!("[base + 0..={max}]"))
            .input("load AGUs", agus)
        }
        Some(false) => BoundRow::new(
            BoundKind::ComplexAddressing,
            RowState::NotApplicable,
            None,
            "n/a (every store AGU handles complex addressing)".into(),
        ),
        None => BoundRow::new(
            BoundKind::ComplexAddressing,
            RowState::Unknown,
            None,
            "whether the arch has this limit is unknown".into(),
        ),
    }
}
