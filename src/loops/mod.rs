//! Loops found, not marked: the innermost natural loops of a function, each a region to
//! analyze in loop mode when the input has no IACA markers (issue #17).
//!
//! Owns: the function-wide block graph (`blocks`), natural loops from dominators
//! (`natural`), the choice of innermost loops and their byte ranges ([`find_loops`]), and
//! turning the functions of an object into loop regions ([`discover()`]).
//! Must not touch: marker rules, printing, simulation.
//! Facts: dominators by petgraph's `simple_fast` (Cooper, Harvey, Kennedy); natural loops as
//! in Aho, Lam, Sethi, Ullman §9.6.
//!
//! # A loop as a region
//!
//! A loop's region is the address range from its lowest block to the end of its highest one,
//! in layout order. A single-block loop (the common case: body and back branch in one block)
//! is exactly that block, and its last instruction branches back to its first: loop mode. A
//! loop of several blocks is simulated the same way, its blocks one after the other as laid
//! out, the forward branches between them followed as the region's CFG says; the report
//! warns about it ([`FoundLoop::blocks`] > 1), and about code inside the range that is not
//! part of the loop ([`FoundLoop::foreign`]).

mod blocks;
pub mod discover;
mod natural;

use crate::ir::Instr;

pub use discover::{
    demangle, discover, matches_name, FunctionInfo, LoopRegion, LoopSearch, SearchError,
};

/// An innermost loop of one function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundLoop {
    /// Address of its first instruction in layout order.
    pub start: u64,
    /// One past its last byte in layout order.
    pub end: u64,
    /// Address of the header (the block every iteration enters through).
    pub header: u64,
    /// Number of basic blocks of the loop.
    pub blocks: usize,
    /// Instructions in `start..end`.
    pub instructions: usize,
    /// Instructions in `start..end` that are not part of the loop (other code laid out
    /// between its blocks).
    pub foreign: usize,
}

/// The innermost natural loops of one function's instructions (address order, entry
/// first), sorted by start address.
pub fn find_loops(instrs: &[Instr]) -> Vec<FoundLoop> {
    let flow = blocks::build(instrs);
    let loops = natural::natural_loops(&flow);
    let mut found: Vec<FoundLoop> = natural::innermost(&loops)
        .into_iter()
        .filter_map(|l| {
            let first = l.body.iter().map(|&b| flow.blocks[b].first).min()?;
            let last = l.body.iter().map(|&b| flow.blocks[b].last).max()?;
            let inside: usize = l
                .body
                .iter()
                .map(|&b| flow.blocks[b].last + 1 - flow.blocks[b].first)
                .sum();
            let end_instr = &instrs[last];
            Some(FoundLoop {
                start: instrs[first].address,
                end: end_instr.address + end_instr.len() as u64,
                header: instrs[flow.blocks[l.header].first].address,
                blocks: l.body.len(),
                instructions: last + 1 - first,
                foreign: (last + 1 - first).saturating_sub(inside),
            })
        })
        .collect();
    found.sort_by_key(|l| l.start);
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::testprog::{addr, prog};

    #[test]
    fn single_block_loop() {
        // 0: entry test; 1-3: the loop (3 jumps back to 1); 4: ret.
        let p = prog("cmp rcx, 0x0 | r rcx | w flags\njz L4 | r zf | jcc 5\nadd rax, rbx | r rax rbx | w rax\ndec rcx | r rcx | w rcx flags\njnz L2 | r zf | jcc 2\nret | ret");
        let found = find_loops(&p);
        assert_eq!(
            found,
            vec![FoundLoop {
                start: addr(2),
                end: addr(5),
                header: addr(2),
                blocks: 1,
                instructions: 3,
                foreign: 0,
            }]
        );
    }

    #[test]
    fn only_the_inner_of_two_nested_loops() {
        // Outer loop 0..=5 (back jump at 5), inner loop 1..=3 (back jump at 3).
        let p = prog("mov rax, 0x1 | w rax\nadd rax, rax | r rax | w rax\ndec rcx | r rcx | w rcx flags\njnz L1 | r zf | jcc 1\ndec rdx | r rdx | w rdx flags\njnz L0 | r zf | jcc 0\nret | ret");
        let found = find_loops(&p);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].start, found[0].end), (addr(1), addr(4)));
    }

    #[test]
    fn multi_block_loop_with_a_rotated_entry() {
        // jmp to the test at 3; body 1-2 with an if (1 jumps over 2); test 3-4 back to 1.
        let p = prog("jmp L3 | jmp 3\njz L3 | r zf | jcc 3\nadd rax, rbx | r rax rbx | w rax\ndec rcx | r rcx | w rcx flags\njnz L1 | r zf | jcc 1\nret | ret");
        let found = find_loops(&p);
        assert_eq!(found.len(), 1, "{found:?}");
        let l = &found[0];
        assert_eq!((l.start, l.end, l.header), (addr(1), addr(5), addr(3)));
        assert_eq!((l.blocks, l.instructions, l.foreign), (3, 4, 0));
    }

    #[test]
    fn code_between_loop_blocks_is_foreign() {
        // Loop 0 -> 3 (jmp) -> 0 ... 1-2 sit in between, not in the loop (2 returns).
        let p = prog(
            "jz L3 | r zf | jcc 3\nnop\nret | ret\ndec rcx | r rcx | w rcx flags\njmp L0 | jmp 0",
        );
        let found = find_loops(&p);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].foreign, 2, "{found:?}");
        assert_eq!(found[0].blocks, 2);
    }

    #[test]
    fn unreachable_padding_before_a_body_is_not_part_of_it() {
        // 0: jmp to the test at 3; 1: nop padding nobody reaches; 2: body; 3-4: test, back
        // to 2.
        let p = prog("jmp L3 | jmp 3\nnop\nadd rax, rbx | r rax rbx | w rax\ndec rcx | r rcx | w rcx flags\njnz L2 | r zf | jcc 2\nret | ret");
        let found = find_loops(&p);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].start, found[0].end), (addr(2), addr(5)));
    }

    #[test]
    fn straight_line_code_and_forward_branches_have_no_loop() {
        assert!(find_loops(&prog("jz L2 | r zf | jcc 2\nnop\nret | ret")).is_empty());
        assert!(find_loops(&[]).is_empty());
    }
}
