//! Store commit by block (`memory.store_line_pairs`, `memory.store_pair_bytes`, Zen 4): two
//! stores leave the store queue for L1 in one cycle only when both write one aligned
//! 32-byte block, so a store that writes another block than the store before it takes a
//! cycle of its own; a store of more than 16 bytes (`memory.store_slot_bytes`; Redwood
//! Cove: 32) takes a slot per 16 bytes, and two stores from vector registers never share
//! a cycle unless the arch says they do (`memory.store_vector_pairs`, Redwood Cove;
//! docs/model.md, "Store commit by block").
//!
//! Measured on Zen 4 (`suaca profile` of testdata/asm/store_commit.s and store_blocks.s):
//! two 8-byte stores in one 32-byte block run at 1 cycle per pair, in two blocks of one
//! line (or two lines, two bases) at 2; three in a block and one in the next at 2 per copy,
//! three and three at 3; two 16- or 32-byte stores at 2, two 8-byte stores from xmm
//! registers (`movsd`) at 2, a 4-byte one from xmm and an 8-byte one from a general
//! register at 1. Hence an iteration takes max(slots / 2, blocks opened) cycles.
//!
//! A block is known only relative to a base: two stores share one when their addresses
//! have the same origins and their constant parts fall in the same aligned block, assuming
//! every base register is 64-byte aligned (the alignment of a real program's pointers is
//! not in its code). Stores whose addresses are not related open a block of their own.
//!
//! The commit slots are the arch's store-data ports, both usable by every store, two a
//! cycle: a store takes one (one wider than a slot one per slot's bytes, at least two,
//! vector data after vector data two), and the stores that open blocks take the slots still missing for two
//! per block opened.

use std::collections::HashMap;

use crate::ir::Instr;
use crate::uarch::{MicroArch, PortMask, Role};

use super::address::AddressMap;
use super::dependencies::UnknownPolicy;
use crate::pipeline::ports::{is_gather, is_vector};

/// The block two stores share to pair when the arch does not say (`memory.store_pair_bytes`).
const DEFAULT_PAIR_BYTES: u32 = 64;
/// Bytes a commit slot writes when the arch does not say (`memory.store_slot_bytes`).
const DEFAULT_SLOT_BYTES: u32 = 16;

/// One store of the path, as the commit sees it.
#[derive(Clone, Debug)]
struct Store {
    /// The instruction's line in the region (not a cache line).
    instr_line: usize,
    /// Its position in the path and its memory operand, for the address analysis.
    pos: usize,
    operand: usize,
    /// Bytes written.
    size: u32,
    /// Wider than a slot (or a scatter): never shares a cycle, and takes these slots (two a
    /// cycle, one per slot's bytes, at least two).
    wide: Option<u32>,
    /// Whether its data comes from a vector register: two of those never pair.
    vector: bool,
}

/// Longest walk of iterations the rule takes before giving up on a repeat (a block of 64
/// bytes and a stride of 1).
const MAX_PERIOD: usize = 64;

/// Commit slots per line of `path` (lines with stores only): what the store-data µops of
/// each line should total. `looped`: the path repeats, so its last store neighbours its
/// first. `policy`: how addresses the analysis cannot follow across iterations compare
/// (with [`UnknownPolicy::SameName`], one named the same way is the same block, as it is
/// for memory dependencies). `splits`: a store across a line (`memory.store_split_bytes`)
/// takes `memory.store_split_cost − 1` more cycles, two slots each, for the lines beyond its
/// first. Empty when the arch does not commit by line.
pub fn slots(
    instrs: &[Instr],
    path: &[usize],
    map: &AddressMap,
    arch: &MicroArch,
    looped: bool,
    policy: UnknownPolicy,
    splits: bool,
) -> HashMap<usize, u32> {
    if arch.memory.store_line_pairs != Some(true) {
        return HashMap::new();
    }
    let pair_bytes = i64::from(
        arch.memory
            .store_pair_bytes
            .filter(|&b| b > 0)
            .unwrap_or(DEFAULT_PAIR_BYTES),
    );
    let block = |offset: i64| offset.div_euclid(pair_bytes);
    let vector_pairs = arch.memory.store_vector_pairs == Some(true);
    let slot_bytes = arch
        .memory
        .store_slot_bytes
        .filter(|&b| b > 0)
        .unwrap_or(DEFAULT_SLOT_BYTES);
    // The stores of one iteration, in path order.
    let mut one = Vec::new();
    for (pos, &line) in path.iter().enumerate() {
        let instr = &instrs[line];
        let vector = is_vector(instr);
        for (k, m) in instr.mem.iter().enumerate() {
            if !m.write || m.agen || m.size == 0 {
                continue;
            }
            // Stores of up to a slot's bytes may share a cycle (`movsd [m], xmm` or `movups
            // [m], xmm` with an integer store; two from vector registers never, below).
            let wide = (m.size > slot_bytes || vector && is_gather(instr))
                .then(|| m.size.div_ceil(slot_bytes).max(2));
            one.push(Store {
                instr_line: line,
                pos,
                operand: k,
                size: m.size,
                wide,
                vector,
            });
        }
    }
    let n = one.len();
    if n == 0 {
        return HashMap::new();
    }
    // A stride that is not a multiple of the block (pushes, `add rdi, 8`) moves the stores
    // across blocks from one iteration to the next: the rule walks the iterations until
    // the blocks repeat and gives each line its average.
    let period = if looped {
        repeat_period(one.iter().map(|s| (s.pos, s.operand)), map, pair_bytes)
    } else {
        1
    };
    let total = n * period;
    let store = |i: usize| &one[i % n];
    // The constant part of store `i` of the walk (`i / n` iterations on).
    let offset = |i: usize| {
        let s = store(i);
        map.parts_at(s.pos, s.operand, (i / n) as u32)
    };
    let pairable = |i: usize| {
        let s = store(i);
        // Where the analysis loses the address across iterations, its place in a block is
        // the first iteration's (the aligned-base assumption; same name, same place).
        let at = offset(i).or_else(|| offset(i % n));
        s.wide.is_none() && at.is_some_and(|(_, c)| block(c) == block(c + i64::from(s.size) - 1))
    };
    let named = |i: usize| {
        let s = store(i);
        let m = &instrs[path[s.pos]].mem[s.operand];
        (m.segment, m.base, m.index, m.scale, m.displacement)
    };
    let same = |a: usize, b: usize| -> bool {
        match (offset(a), offset(b)) {
            (Some((ta, ca)), Some((tb, cb))) => ta == tb && block(ca) == block(cb),
            // Not followed across iterations: by the policy for unknown addresses.
            _ => policy == UnknownPolicy::SameName && named(a) == named(b),
        }
    };
    // The store before store i of the walk (for i = 0: the walk's last one, a walk
    // earlier), and where store i stands when compared with it.
    let before = |i: usize| {
        if i == 0 {
            (total - 1, total)
        } else {
            (i - 1, i)
        }
    };
    // opens[i]: store i writes another block than the store before it (or a block the
    // analysis cannot relate to it).
    let opens: Vec<bool> = (0..total)
        .map(|i| {
            if i == 0 && !looped {
                return true;
            }
            let (prev, here) = before(i);
            !(pairable(here) && pairable(prev) && same(prev, here))
        })
        .collect();
    // Each store's own slots: one; a wide store its own count; vector data right after
    // vector data two (those never share a cycle).
    let mut cost: Vec<u32> = (0..total)
        .map(|i| {
            let s = store(i);
            let (prev, _) = before(i);
            if let Some(slots) = s.wide {
                slots
            } else if s.vector && store(prev).vector && !vector_pairs && (i > 0 || looped) {
                2
            } else {
                1
            }
        })
        .collect();
    // Two stores a cycle, and a cycle for each block opened: the slots missing go to the
    // stores that open blocks, evenly, the earlier ones first.
    let own: u32 = cost.iter().sum();
    let opened = opens.iter().filter(|&&o| o).count() as u32;
    let missing = (2 * opened).saturating_sub(own);
    for (k, i) in (0..total).filter(|&i| opens[i]).enumerate() {
        cost[i] += missing / opened + u32::from((k as u32) < missing % opened);
    }
    // A store across a line writes the next line too: a cycle more for it (Redwood Cove:
    // four split stores over four lines 8.00 cycles, aligned 4.00; testdata/asm/line_splits.s).
    let split_cost = (arch.memory.store_split_bytes, arch.memory.store_split_cost);
    if let (true, (Some(bytes), Some(extra @ 2..))) = (splits, split_cost) {
        let bytes = i64::from(bytes);
        for (i, c) in cost.iter_mut().enumerate() {
            let s = store(i);
            let at = offset(i).or_else(|| offset(i % n));
            if at.is_some_and(|(_, a)| a.rem_euclid(bytes) + i64::from(s.size) > bytes) {
                *c += 2 * (extra - 1);
            }
        }
    }
    let mut sums: HashMap<usize, u32> = HashMap::new();
    for (i, c) in cost.into_iter().enumerate() {
        *sums.entry(store(i).instr_line).or_insert(0) += c;
    }
    average(&sums, period)
}

/// Iterations after which every access (position, operand) is back at its offset within a
/// block: the least common multiple over them of `block / gcd(stride mod block, block)` (1
/// for a stride the analysis does not know), at most [`MAX_PERIOD`].
pub(super) fn repeat_period(
    accesses: impl Iterator<Item = (usize, usize)>,
    map: &AddressMap,
    block: i64,
) -> usize {
    let mut period = 1usize;
    for (pos, operand) in accesses {
        let (Some((t0, c0)), Some((t1, c1))) =
            (map.parts_at(pos, operand, 0), map.parts_at(pos, operand, 1))
        else {
            continue;
        };
        if t0 != t1 {
            continue;
        }
        let step = (c1 - c0).rem_euclid(block);
        period = num_integer::lcm(period, (block / num_integer::gcd(step, block)) as usize);
        if period > MAX_PERIOD {
            return 1;
        }
    }
    period
}

/// Each line's slots over `period` iterations as whole slots per iteration: the floor of
/// its average, plus one for the lines with the largest remainders (ties: the earlier
/// line) until the lines total the walk's average, rounded.
pub(super) fn average(sums: &HashMap<usize, u32>, period: usize) -> HashMap<usize, u32> {
    let p = period.max(1) as u32;
    if p == 1 {
        return sums.clone();
    }
    let all: u32 = sums.values().sum();
    let want = (all + p / 2) / p;
    let mut out: HashMap<usize, u32> = sums.iter().map(|(&l, &s)| (l, s / p)).collect();
    let mut short = want.saturating_sub(out.values().sum());
    let mut by_rest: Vec<(u32, usize)> = sums.iter().map(|(&l, &s)| (s % p, l)).collect();
    by_rest.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for (_, line) in by_rest {
        if short == 0 {
            break;
        }
        if let Some(v) = out.get_mut(&line) {
            *v += 1;
            short -= 1;
        }
    }
    out
}

/// The store-data µops `instr` needs beyond its one per store for `total` commit slots:
/// single µops on any store-data port, each a port-only instruction (a slot is a port for a
/// cycle, which the instruction's own µops may share where the arch allows it, and the
/// slots must not delay the store's start).
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Commit slots of the code `hex`, repeated, on `arch` (every instruction on the path).
    fn total(hex: &str, arch: &str) -> u32 {
        let (instrs, path, map) = super::super::decoded(hex);
        let arch = crate::uarch::load(arch).unwrap();
        let policy = UnknownPolicy::NoAlias;
        slots(&instrs, &path, &map, &arch, true, policy, true)
            .values()
            .sum()
    }

    /// `movups [rdi], xmm0; movups [rdi+16], xmm1` repeated: every store writes the line
    /// before it. Zen 4: two stores of vector data never share a cycle, two slots each, 4 a
    /// copy (2 cycles); Redwood Cove (`store_vector_pairs`): one slot each, 2 (1 cycle), as
    /// measured (testdata/asm/store_commit.s); without `store_line_pairs` (SKL) no rule.
    #[test]
    fn vector_stores_pair_where_the_arch_says() {
        assert_eq!(total("0f11070f114f10", "ZEN4"), 4);
        assert_eq!(total("0f11070f114f10", "MTL-P"), 2);
        assert_eq!(total("0f11070f114f10", "SKL"), 0);
    }

    /// `vmovups [rdi], ymm0; vmovups [rdi+32], ymm1` repeated: one line a copy. Zen 4: a
    /// 32-byte store takes both slots of a cycle, 4 a copy (2 cycles); Redwood Cove
    /// (`store_slot_bytes = 32`): one slot each, pairing, 2 (1 cycle), as eight 32-byte
    /// stores over four lines measured (4.00 cycles, testdata/asm/ymm_stores.s).
    #[test]
    fn a_slot_writes_32_bytes_on_redwood_cove() {
        assert_eq!(total("c5fc1107c5fc114f20", "ZEN4"), 4);
        assert_eq!(total("c5fc1107c5fc114f20", "MTL-P"), 2);
    }

    /// `vmovups [rdi+40], ymm0` repeated: bytes 40..72, across a line. Redwood Cove
    /// (`store_split_cost = 2`): the store opens a line (two slots) and writes a second one
    /// (two more), 4 slots, 2 cycles a copy; at `[rdi+32]` it stays in one line and the
    /// copies pair, 1 slot.
    #[test]
    fn a_store_across_a_line_takes_a_cycle_a_line() {
        assert_eq!(total("c5fc114728", "MTL-P"), 4);
        assert_eq!(total("c5fc114720", "MTL-P"), 1);
    }

    #[test]
    fn the_average_keeps_the_walks_total_and_favours_the_largest_remainders() {
        // 5 + 3 slots over 4 iterations: 2 a iteration; line 2's remainder (3) is larger.
        let sums = HashMap::from([(1, 5), (2, 3)]);
        assert_eq!(average(&sums, 4), HashMap::from([(1, 1), (2, 1)]));
        // Equal remainders: the earlier line gets the slot.
        let sums = HashMap::from([(4, 2), (7, 2)]);
        assert_eq!(average(&sums, 4), HashMap::from([(4, 1), (7, 0)]));
        // One iteration: unchanged.
        let sums = HashMap::from([(3, 3)]);
        assert_eq!(average(&sums, 1), sums);
    }
}
