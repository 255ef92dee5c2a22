//! CFG tests on hand-built programs (thesis §2.3, Figure 2.1).

use petgraph::visit::EdgeRef;

use super::testprog::{addr, bounds, prog, BRANCHY};
use super::{Cfg, CfgNote, EdgeKind, Succ};

fn cfg_of(text: &str, iterations: u32) -> (Vec<crate::ir::Instr>, Cfg) {
    let instrs = prog(text);
    let (s, e) = bounds(&instrs);
    let cfg = Cfg::build(&instrs, s, e, iterations);
    (instrs, cfg)
}

/// Block edges as (from block first line, to block first line, kind), sorted.
fn block_edges(cfg: &Cfg) -> Vec<(usize, usize, EdgeKind)> {
    let g = cfg.graph();
    let mut v: Vec<_> = g
        .edge_references()
        .map(|e| (g[e.source()].first, g[e.target()].first, *e.weight()))
        .collect();
    v.sort();
    v
}

fn block_lines(cfg: &Cfg) -> Vec<Vec<usize>> {
    cfg.blocks().iter().map(|b| b.lines().collect()).collect()
}

#[test]
fn branchy_blocks_and_edges_figure_2_1() {
    let (_, cfg) = cfg_of(BRANCHY, 1);
    assert_eq!(
        block_lines(&cfg),
        vec![vec![0, 1, 2], vec![3, 4], vec![5], vec![6]]
    );
    use EdgeKind::*;
    assert_eq!(
        block_edges(&cfg),
        vec![
            (0, 3, FallThrough),
            (0, 5, Taken),
            (3, 6, Taken),
            (5, 6, FallThrough)
        ]
    );
    assert!(!cfg.has_loop_edge());
    assert!(cfg.blocks()[3].ends_iteration);
    assert!(cfg.notes().is_empty());

    // Instruction level, as Algorithm 2 walks it.
    assert_eq!(cfg.successors(0), &[Succ::Line(1)]);
    assert_eq!(cfg.successors(2), &[Succ::Line(3), Succ::Line(5)]);
    assert_eq!(cfg.successors(4), &[Succ::Line(6)]);
    assert_eq!(cfg.successors(6), &[Succ::End]);
    assert!(!cfg.is_backward_branch(2));
}

#[test]
fn branchy_back_edge_only_with_two_iterations() {
    let (_, cfg) = cfg_of(BRANCHY, 2);
    use EdgeKind::*;
    assert_eq!(
        block_edges(&cfg),
        vec![
            (0, 3, FallThrough),
            (0, 5, Taken),
            (3, 6, Taken),
            (5, 6, FallThrough),
            (6, 0, Loop)
        ]
    );
    let loops: Vec<_> = cfg
        .instr_edges()
        .into_iter()
        .filter(|e| e.kind == Loop)
        .map(|e| (e.from, e.to))
        .collect();
    assert_eq!(loops, vec![(6, Succ::Line(0))]);
}

#[test]
fn straight_line_is_one_block() {
    let (_, cfg) = cfg_of("nop\nnop\nnop", 3);
    assert_eq!(block_lines(&cfg), vec![vec![0, 1, 2]]);
    assert_eq!(block_edges(&cfg), vec![(0, 0, EdgeKind::Loop)]);
}

#[test]
fn empty_region() {
    let cfg = Cfg::build(&[], 0x1000, 0x1000, 2);
    assert!(cfg.is_empty());
    assert!(cfg.blocks().is_empty());
    assert_eq!(cfg.graph().node_count(), 0);
}

#[test]
fn branch_out_of_region_ends_the_path() {
    let (_, cfg) = cfg_of(
        "
        nop
        jz out | r zf | jcc out
        nop
        jmp out | jmp out
        nop
        ret | ret
        jmp [rax] | r rax | ijmp
        ",
        2,
    );
    assert_eq!(cfg.successors(1), &[Succ::Line(2), Succ::Exit]);
    assert_eq!(cfg.successors(3), &[Succ::Exit]);
    assert_eq!(cfg.successors(5), &[Succ::Exit]);
    assert_eq!(cfg.successors(6), &[Succ::Exit]);
    assert_eq!(
        block_lines(&cfg),
        vec![vec![0, 1], vec![2, 3], vec![4, 5], vec![6]]
    );
    // No block reaches the end: no loop edge at all.
    assert!(cfg.blocks().iter().all(|b| b.exits && !b.ends_iteration));
    assert_eq!(block_edges(&cfg), vec![(0, 2, EdgeKind::FallThrough)]);
    assert_eq!(
        cfg.notes(),
        &[1, 3, 5, 6].map(|line| CfgNote::LeavesRegion { line })
    );
}

#[test]
fn jump_to_region_end_reaches_the_loop_edge() {
    let (_, cfg) = cfg_of("jz end | r zf | jcc 3\nnop\nnop", 2);
    assert_eq!(cfg.successors(0), &[Succ::Line(1), Succ::End]);
    use EdgeKind::*;
    assert_eq!(
        block_edges(&cfg),
        vec![(0, 0, Loop), (0, 1, FallThrough), (1, 0, Loop)]
    );
}

#[test]
fn backward_branch_is_detected_and_ignored() {
    let (_, cfg) = cfg_of(
        "
        nop
        dec rcx | r rcx | w rcx zf
        jnz 1 | r zf | jcc 1
        nop
        ",
        1,
    );
    assert!(cfg.is_backward_branch(2));
    assert_eq!(cfg.successors(2), &[Succ::Line(3)]);
    assert_eq!(
        cfg.notes(),
        &[CfgNote::BackwardBranch {
            line: 2,
            target_line: 1
        }]
    );
    use EdgeKind::*;
    assert_eq!(block_lines(&cfg), vec![vec![0], vec![1, 2], vec![3]]);
    assert_eq!(
        block_edges(&cfg),
        vec![(0, 1, FallThrough), (1, 1, Backward), (1, 3, FallThrough)]
    );
}

#[test]
fn unconditional_jump_to_start_closes_the_iteration() {
    let (_, cfg) = cfg_of("nop\njmp 0 | jmp 0\nnop", 2);
    assert!(cfg.is_backward_branch(1));
    assert_eq!(cfg.successors(1), &[Succ::End]);
    assert!(cfg.notes().is_empty());
    // Other backward jumps end the path.
    let (_, cfg) = cfg_of("nop\nnop\njmp 1 | jmp 1\nnop", 2);
    assert_eq!(cfg.successors(2), &[] as &[Succ]);
}

#[test]
fn target_inside_an_instruction_leaves_the_region() {
    let (_, cfg) = cfg_of("jz | r zf | jcc 2+1\nnop\nnop", 1);
    assert_eq!(cfg.successors(0), &[Succ::Line(1), Succ::Exit]);
    assert_eq!(
        cfg.notes(),
        &[
            CfgNote::MidInstructionTarget {
                line: 0,
                target: addr(2) + 1
            },
            CfgNote::LeavesRegion { line: 0 }
        ]
    );
}

#[test]
fn conditional_to_next_instruction_has_one_successor() {
    let (_, cfg) = cfg_of("jz | r zf | jcc 1\nnop", 1);
    assert_eq!(cfg.successors(0), &[Succ::Line(1)]);
}

#[test]
fn the_loop_branch_may_target_the_start_marker() {
    // add rax, rcx; jnz back to 8 bytes before the region: IACA's start marker compiled at
    // the top of the loop body. 20 bytes back is not the loop's own branch.
    let near =
        crate::decode::decode_bytes(&[0x48, 0x01, 0xc8, 0x75, 0xf3], 0x1008).expect("decodes");
    assert_eq!(super::loop_branch(&near, 0x1008), Some(1));
    let cfg = Cfg::build(&near, 0x1008, 0x100d, 2);
    assert_eq!(cfg.loop_branch(), Some(1));
    assert!(cfg
        .instr_edges()
        .iter()
        .any(|e| e.from == 1 && e.kind == EdgeKind::LoopExit && e.to == Succ::Exit));
    let far =
        crate::decode::decode_bytes(&[0x48, 0x01, 0xc8, 0x75, 0xe7], 0x1008).expect("decodes");
    assert_eq!(super::loop_branch(&far, 0x1008), None);
}
