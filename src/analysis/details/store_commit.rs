//! Store commit by cache line (`memory.store_line_pairs`, Zen 4): stores leave the store
//! queue for L1 at one 64-byte line per cycle, so two stores commit in the same cycle only
//! when they are consecutive, both of at most 8 bytes, not both from vector registers, and
//! write the same line; any other store takes a cycle of its own, and a wider one a cycle
//! per 32 bytes (docs/model.md, "Store commit by cache line").
//!
//! Measured on Zen 4 (`suaca profile` of testdata/asm/store_commit.s): two 8-byte stores to
//! one line run at 1 cycle per pair, to two lines (or two bases) at 2; stores alternating
//! between two lines at 1 each; two 16- or 32-byte stores to one line at 2, two 8-byte
//! stores from xmm registers (`movsd`) at 2, a 4-byte one from xmm and an 8-byte one from
//! a general register at 1.
//!
//! A line is known only relative to a base: two stores share one when their addresses have
//! the same origins and their constant parts fall in the same 64-byte block, assuming every
//! base register is 64-byte aligned (the alignment of a real program's pointers is not in
//! its code). Stores whose addresses are not related start a line of their own.
//!
//! The commit slots are the arch's store-data ports, both usable by every store: each store
//! costs one slot per half cycle it holds the commit, so a pair costs one slot each, a
//! store alone two, and a run of `n` same-line stores `n` slots (`n + 1` when `n` is odd).

use std::collections::HashMap;

use crate::ir::Instr;
use crate::uarch::{MicroArch, PortMask, Role};

use super::address::AddressMap;
use super::ports::{is_gather, is_vector};

/// Bytes of an L1 line.
const LINE: i64 = 64;
/// Bytes of a wide store committed per cycle (the store-data path).
const VECTOR_BYTES_PER_CYCLE: u32 = 32;

/// One store of the path, as the commit sees it.
#[derive(Clone, Debug)]
struct Store {
    /// The instruction's line in the region (not a cache line).
    instr_line: usize,
    /// Whether it may share a cycle with a neighbour (at most 8 bytes, within one line).
    pairable: bool,
    /// Commit slots when alone: two per cycle.
    alone: u32,
    /// Whether its data comes from a vector register: two of those never pair.
    vector: bool,
}

/// Commit slots per line of `path` (lines with stores only): what the store-data µops of
/// each line should total. `looped`: the path repeats, so its last store neighbours its
/// first. Empty when the arch does not commit by line.
pub fn slots(
    instrs: &[Instr],
    path: &[usize],
    map: &AddressMap,
    arch: &MicroArch,
    looped: bool,
) -> HashMap<usize, u32> {
    let mut out = HashMap::new();
    if arch.memory.store_line_pairs != Some(true) {
        return out;
    }
    let mut stores = Vec::new();
    // (position, operand) of each store, for comparing neighbours.
    let mut at = Vec::new();
    for (pos, &line) in path.iter().enumerate() {
        let instr = &instrs[line];
        let vector = is_vector(instr);
        for (k, m) in instr.mem.iter().enumerate() {
            if !m.write || m.agen || m.size == 0 {
                continue;
            }
            let within = map
                .parts_at(pos, k, 0)
                .is_some_and(|(_, c)| block(c) == block(c + i64::from(m.size) - 1));
            // Only stores of up to 8 bytes pair (`movsd [m], xmm` with an integer store too).
            let wide = m.size > 8 || vector && is_gather(instr);
            let alone = if wide {
                2 * m.size.div_ceil(VECTOR_BYTES_PER_CYCLE).max(1)
            } else {
                2
            };
            stores.push(Store {
                instr_line: line,
                pairable: !wide && within,
                alone,
                vector,
            });
            at.push((pos, k));
        }
    }
    let n = stores.len();
    if n == 0 {
        return out;
    }
    // joins[i]: store i shares a line with store i − 1 (for i = 0: the previous iteration's
    // last store).
    let same = |a: usize, b: usize, distance: u32| -> bool {
        let (pa, ka) = at[a];
        let (pb, kb) = at[b];
        match (map.parts_at(pa, ka, 0), map.parts_at(pb, kb, distance)) {
            (Some((ta, ca)), Some((tb, cb))) => ta == tb && block(ca) == block(cb),
            _ => false,
        }
    };
    let joins: Vec<bool> = (0..n)
        .map(|i| {
            let prev = if i == 0 { n - 1 } else { i - 1 };
            let wraps = i == 0;
            stores[i].pairable
                && stores[prev].pairable
                && !(stores[i].vector && stores[prev].vector)
                && (!wraps || looped)
                && same(prev, i, u32::from(wraps))
        })
        .collect();
    let mut cost = vec![0u32; n];
    if joins.iter().all(|&j| j) {
        // One line throughout: every store pairs with a neighbour (across iterations).
        cost.fill(1);
    } else {
        // Runs start where a store does not join its predecessor; walk from such a start.
        let start = joins.iter().position(|&j| !j).unwrap_or(0);
        let mut i = 0;
        while i < n {
            let first = (start + i) % n;
            let mut len = 1;
            while i + len < n && joins[(start + i + len) % n] {
                len += 1;
            }
            if len == 1 {
                cost[first] = stores[first].alone;
            } else {
                for j in 0..len {
                    cost[(start + i + j) % n] = 1;
                }
                if len % 2 == 1 {
                    cost[(start + i + len - 1) % n] += 1;
                }
            }
            i += len;
        }
    }
    for (s, c) in stores.iter().zip(cost) {
        *out.entry(s.instr_line).or_insert(0) += c;
    }
    out
}

/// The 64-byte block of `offset` from a 64-byte aligned base.
fn block(offset: i64) -> i64 {
    offset.div_euclid(LINE)
}

/// The store-data µops `instr` needs beyond its one per store for `total` commit slots:
/// single µops on any store-data port, each a port-only instruction (a slot is a port for a
/// cycle; one instruction's µops would share it).
pub fn extra(instr: &Instr, arch: &MicroArch, total: u32) -> Vec<PortMask> {
    let ports = arch.ports_with_role(Role::StoreData);
    let stores = instr
        .mem
        .iter()
        .filter(|m| m.write && !m.agen && m.size > 0)
        .count() as u32;
    if ports.is_empty() {
        return Vec::new();
    }
    vec![ports; total.saturating_sub(stores) as usize]
}
