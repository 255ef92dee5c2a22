//! Loads that cross a cache line (`memory.load_split_bytes`, `memory.load_split_cost`;
//! docs/model.md, "Line splits"). A split load reads two lines; on Redwood Cove it holds
//! every load port for about a cycle (`load_split_cost = 3`: its own port and the two
//! others), so the loads around it wait. The cost is port time, not latency: the extra
//! load-port cycles run as port-only µops of the load's line, like a wide access's chunks.
//!
//! Whether a load splits depends on its address within a line, which the code does not
//! give: the model takes every base register as line-aligned when the loop starts (as the
//! store commit does, [`super::store_commit`]), and follows the address from iteration to
//! iteration — a 32-byte load at `[rax+8]` with `add rax, 32` splits every other
//! iteration. `suaca profile` places a loop's arrays the same way (docs/measurement.md,
//! "Loops").

use std::collections::HashMap;

use crate::ir::Instr;
use crate::uarch::MicroArch;

use super::address::AddressMap;
use super::store_commit::{average, repeat_period};

/// The extra load-port µops of each line per iteration (lines with split loads only): a
/// split load takes `load_split_cost − 1` beyond its own, averaged over the iterations
/// after which the loads are back at their offsets within a line. `looped`: the path
/// repeats, so addresses move by their strides; else each load's first address counts.
/// Empty when the arch gives no cost.
pub fn extra_load_uops(
    instrs: &[Instr],
    path: &[usize],
    map: &AddressMap,
    arch: &MicroArch,
    looped: bool,
) -> HashMap<usize, u32> {
    let (Some(bytes), Some(cost)) = (arch.memory.load_split_bytes, arch.memory.load_split_cost)
    else {
        return HashMap::new();
    };
    if bytes == 0 || cost < 2 {
        return HashMap::new();
    }
    let block = i64::from(bytes);
    // The loads of one iteration: (position, operand, bytes read).
    let loads: Vec<(usize, usize, i64)> = path
        .iter()
        .enumerate()
        .flat_map(|(pos, &line)| {
            instrs[line]
                .mem
                .iter()
                .enumerate()
                .filter(|(_, m)| m.read && !m.agen && m.size > 1)
                .map(move |(k, m)| (pos, k, i64::from(m.size)))
        })
        .collect();
    if loads.is_empty() {
        return HashMap::new();
    }
    let period = if looped {
        repeat_period(loads.iter().map(|&(pos, k, _)| (pos, k)), map, block)
    } else {
        1
    };
    let mut sums: HashMap<usize, u32> = HashMap::new();
    for d in 0..period {
        for &(pos, k, size) in &loads {
            if let Some(at) = offset(map, pos, k, d as u32) {
                if at.rem_euclid(block) + size > block {
                    *sums.entry(path[pos]).or_insert(0) += cost - 1;
                }
            }
        }
    }
    average(&sums, period)
}

/// Where operand `k` of `pos` reads `distance` iterations on: the harness's number, else the
/// constant part of its address over the origins taken as aligned (where the analysis loses
/// the address across iterations, the first iteration's place).
fn offset(map: &AddressMap, pos: usize, k: usize, distance: u32) -> Option<i64> {
    if let Some(s) = map.steady(pos, k) {
        return Some(s.at + i64::from(distance) * s.step);
    }
    map.parts_at(pos, k, distance)
        .or_else(|| map.parts_at(pos, k, 0))
        .map(|(_, at)| at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn extra(hex: &str, arch: &str, looped: bool) -> HashMap<usize, u32> {
        let (instrs, path, map) = super::super::decoded(hex);
        let arch = crate::uarch::load(arch).unwrap();
        extra_load_uops(&instrs, &path, &map, &arch, looped)
    }

    /// `vmovups ymm0, [rdi+56]`: bytes 56..88 of the aligned base, across the line at 64.
    /// Redwood Cove: two load-port µops beyond its own; `vmovups ymm0, [rdi+32]` none.
    #[test]
    fn a_load_across_the_line_takes_every_load_port() {
        assert_eq!(extra("c5fc104738", "MTL-P", false), HashMap::from([(0, 2)]));
        assert!(extra("c5fc104720", "MTL-P", false).is_empty());
        // Zen 3 (a split load counts 2, the speed-limits paper): one extra µop.
        assert_eq!(extra("c5fc104738", "ZEN3", false), HashMap::from([(0, 1)]));
    }

    /// gcc's 3-point stencil: `vmovups ymm1, [rax+8]; add rax, 32; cmp rax, rdx; jne`:
    /// bytes 8..40 in even iterations, 40..72 (split) in odd ones: one split every two
    /// iterations, 2 µops over 2 iterations, 1 an iteration.
    #[test]
    fn a_load_that_moves_half_a_line_splits_every_other_iteration() {
        let code = "c5fc104808 4883c020 4839d0 75f2".replace(' ', "");
        assert_eq!(extra(&code, "MTL-P", true), HashMap::from([(0, 1)]));
        // Unrolled (no movement): the first iteration's place, 8..40, no split.
        assert!(extra(&code, "MTL-P", false).is_empty());
    }
}
