//! L1 bank conflicts (`memory.l1_banks_per_line`; docs/model.md, "L1 bank conflicts"): the
//! L1 line is split into banks (16 of 4 bytes) and a load uses every bank it overlaps. On
//! Sandy Bridge and Ivy Bridge two loads in one cycle that touch a common bank of
//! *different* lines cannot both read; on Redwood Cove a bank serves two loads a cycle,
//! lines alike (`memory.l1_loads_per_bank`). Loads of one iteration that conflict so are
//! found here from their addresses; each such group then reads through as many load ports
//! as a bank serves loads a cycle (a resource, not an order: the loads keep their own
//! inputs).

use std::collections::HashMap;

use petgraph::unionfind::UnionFind;

use crate::ir::Instr;
use crate::uarch::{MicroArch, PortMask, Role};

use super::address::{AddressMap, Origin};

/// Where a load reads: the origins its address counts from (empty for a number) and its
/// first byte relative to them, which the model takes as line-aligned.
struct Place<'a> {
    pos: usize,
    origins: &'a [(Origin, i64)],
    at: i64,
    size: i64,
}

/// The load ports each line of a conflict group reads through: as many as a bank serves
/// loads a cycle, the groups spread over the arch's load ports in turn.
pub fn ports(
    instrs: &[Instr],
    path: &[usize],
    map: &AddressMap,
    arch: &MicroArch,
) -> HashMap<usize, PortMask> {
    let load_ports: Vec<usize> = arch.ports_with_role(Role::Load).iter().collect();
    let mut out = HashMap::new();
    if load_ports.is_empty() {
        return out;
    }
    let per_group = arch.memory.l1_loads_per_bank.unwrap_or(1) as usize;
    for (g, group) in conflict_groups(instrs, path, map, arch).iter().enumerate() {
        let ports = (0..per_group.min(load_ports.len()))
            .map(|k| PortMask::single(load_ports[(g + k) % load_ports.len()]))
            .fold(PortMask::EMPTY, PortMask::union);
        for &pos in group {
            out.insert(path[pos], ports);
        }
    }
    out
}

/// Narrows the instruction's load µop (the one on exactly the arch's load ports) to `port`.
pub fn narrow_load(arch: &MicroArch, port: PortMask, uops: &mut [PortMask]) {
    let loads = arch.ports_with_role(Role::Load);
    if let Some(m) = uops.iter_mut().find(|m| **m == loads) {
        *m = port;
    }
}

/// Groups of path positions whose loads conflict in the L1 banks, each in program order
/// (groups of at least two; a position in at most one group).
pub fn conflict_groups(
    instrs: &[Instr],
    path: &[usize],
    map: &AddressMap,
    arch: &MicroArch,
) -> Vec<Vec<usize>> {
    let Some(banks) = arch
        .memory
        .l1_banks_per_line
        .filter(|&b| b > 0 && 64 % b == 0)
    else {
        return Vec::new();
    };
    let bank_bytes = 64 / i64::from(banks);
    let mut loads: Vec<Place> = Vec::new();
    for (pos, &line) in path.iter().enumerate() {
        for (k, m) in instrs[line].mem.iter().enumerate() {
            if !m.read || m.agen || m.size == 0 {
                continue;
            }
            let size = i64::from(m.size);
            // With a harness the address is a number; else it counts from its registers.
            let place = match map.steady(pos, k) {
                Some(s) => Some((&[][..], s.at)),
                None => map.parts_at(pos, k, 0),
            };
            if let Some((origins, at)) = place {
                loads.push(Place {
                    pos,
                    origins,
                    at,
                    size,
                });
            }
        }
    }
    let line_of = |a: i64| a.div_euclid(64);
    let banks_of = |p: &Place| {
        let first = p.at.rem_euclid(64) / bank_bytes;
        let last = (p.at + p.size - 1).rem_euclid(64) / bank_bytes;
        (first, last.max(first))
    };
    // Sandy Bridge: only different lines conflict; a bank that serves several loads a
    // cycle is shared by any that touch it.
    let any_line = arch.memory.l1_loads_per_bank.is_some();
    let conflict = |a: &Place, b: &Place| {
        let ((a0, a1), (b0, b1)) = (banks_of(a), banks_of(b));
        a.pos != b.pos
            && a.origins == b.origins
            && (any_line || line_of(a.at) != line_of(b.at))
            && a0 <= b1
            && b0 <= a1
    };
    // Union of conflicting pairs, by path position.
    let mut sets: UnionFind<usize> = UnionFind::new(path.len());
    let mut joined = vec![false; path.len()];
    for (i, a) in loads.iter().enumerate() {
        for b in loads[i + 1..].iter().filter(|b| conflict(a, b)) {
            sets.union(a.pos, b.pos);
            joined[a.pos] = true;
            joined[b.pos] = true;
        }
    }
    // The groups in order of their first position, each in program order.
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut index_of_root: Vec<Option<usize>> = vec![None; path.len()];
    for pos in (0..path.len()).filter(|&p| joined[p]) {
        let r = sets.find_mut(pos);
        match index_of_root[r] {
            Some(g) => out[g].push(pos),
            None => {
                index_of_root[r] = Some(out.len());
                out.push(vec![pos]);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode_bytes;

    fn groups(code: &[u8], arch: &str) -> Vec<Vec<usize>> {
        let instrs = decode_bytes(code, 0).expect("decodes");
        let path: Vec<usize> = (0..instrs.len()).collect();
        let refs: Vec<&Instr> = instrs.iter().collect();
        let map = AddressMap::build_in(&refs, None);
        let arch = crate::uarch::load(arch).expect("arch");
        conflict_groups(&instrs, &path, &map, &arch)
    }

    #[test]
    fn loads_of_one_bank_in_different_lines_conflict() {
        // mov rax, [rdi]; mov rbx, [rdi+64]; mov rcx, [rdi+8]: the first two read bank 0 of
        // two lines (rdi taken as line-aligned), the third banks 2–3.
        let code = [
            0x48, 0x8b, 0x07, // mov rax, [rdi]
            0x48, 0x8b, 0x5f, 0x40, // mov rbx, [rdi+64]
            0x48, 0x8b, 0x4f, 0x08, // mov rcx, [rdi+8]
        ];
        assert_eq!(groups(&code, "IVB"), vec![vec![0, 1]]);
        assert_eq!(groups(&code, "SNB"), vec![vec![0, 1]]);
        assert!(groups(&code, "HSW").is_empty(), "no banks from Haswell on");
        // Same bank of the same line: no conflict (mov rax, [rdi]; mov rbx, [rdi+2]).
        let same_line = [0x48, 0x8b, 0x07, 0x48, 0x8b, 0x5f, 0x02];
        assert!(groups(&same_line, "IVB").is_empty());
        // Different base registers: their distance is unknown, no conflict assumed.
        let two_bases = [0x48, 0x8b, 0x07, 0x48, 0x8b, 0x5e, 0x40];
        assert!(groups(&two_bases, "IVB").is_empty());
    }

    /// Redwood Cove: a bank serves two loads a cycle, lines alike, so loads of one bank form
    /// a group whether their lines differ or not, and the group reads through two ports.
    #[test]
    fn redwood_cove_groups_a_bank_over_any_lines_on_two_ports() {
        let code = [
            0x48, 0x8b, 0x07, // mov rax, [rdi]
            0x48, 0x8b, 0x5f, 0x40, // mov rbx, [rdi+64]
            0x48, 0x8b, 0x4f, 0x08, // mov rcx, [rdi+8]
            0x48, 0x8b, 0x57, 0x02, // mov rdx, [rdi+2]: bank 0 of the first line
        ];
        assert_eq!(groups(&code, "MTL-P"), vec![vec![0, 1, 2, 3]]);
        assert!(
            groups(&code, "ADL-P").is_empty(),
            "not measured on Golden Cove"
        );
        let instrs = decode_bytes(&code[..7], 0).expect("decodes");
        let refs: Vec<&Instr> = instrs.iter().collect();
        let map = AddressMap::build_in(&refs, None);
        let mtl = crate::uarch::load("MTL-P").expect("arch");
        let by_line = ports(&instrs, &[0, 1], &map, &mtl);
        assert_eq!(by_line[&0].iter().count(), 2);
        assert_eq!(by_line[&0], by_line[&1]);
    }
}
