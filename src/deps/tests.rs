//! Dependency-graph tests on hand-built programs: the thesis examples (Figures 2.2, 2.3, 4.1,
//! the §4.2 stencil) and the corner cases of the semantics.

use proptest::prelude::*;

use super::{build, paths, DepGraph};
use crate::cfg::testprog::{bounds, loc, prog, ADC8, BRANCHY, STENCIL};
use crate::cfg::Cfg;
use crate::ir::{Access, AccessKind, BranchKind, Instr, Role};

/// (producer, consumer, loc label, distance), in [`DepGraph::edges`] order.
type E = (usize, usize, String, u32);

fn deps_of(text: &str, loops: bool) -> (Vec<Instr>, DepGraph) {
    let instrs = prog(text);
    let (s, e) = bounds(&instrs);
    let cfg = Cfg::build(&instrs, s, e, if loops { 2 } else { 1 });
    let g = DepGraph::build(&instrs, &cfg, loops);
    (instrs, g)
}

fn edges(text: &str, loops: bool) -> Vec<E> {
    let (_, g) = deps_of(text, loops);
    for (_, _, e) in g.edges() {
        assert_eq!(e.loop_carried, e.distance == 1, "{e:?}");
    }
    g.edges()
        .map(|(f, t, e)| (f, t, e.loc.label(), e.distance))
        .collect()
}

fn e(from: usize, to: usize, loc: &str, distance: u32) -> E {
    (from, to, loc.to_string(), distance)
}

fn sorted(mut v: Vec<E>) -> Vec<E> {
    v.sort_by(|a, b| (a.0, a.1, a.3).cmp(&(b.0, b.1, b.3)).then(a.2.cmp(&b.2)));
    v
}

#[test]
fn branchy_figure_2_2_single_iteration() {
    assert_eq!(
        edges(BRANCHY, false),
        vec![
            e(0, 3, "rax", 0),
            e(0, 5, "rax", 0),
            e(1, 2, "zf", 0),
            e(3, 6, "rbx", 0),
            e(5, 6, "rbx", 0),
        ]
    );
}

#[test]
fn branchy_figure_2_3_loop_dependencies() {
    // The two loop dependencies of Figure 2.3: `add rbx, rbx` feeds both `add rbx, rax` of the
    // next iteration. No flag edge into `jnz`: `cmp` rewrites zf first.
    assert_eq!(
        edges(BRANCHY, true),
        vec![
            e(0, 3, "rax", 0),
            e(0, 5, "rax", 0),
            e(1, 2, "zf", 0),
            e(3, 6, "rbx", 0),
            e(5, 6, "rbx", 0),
            e(6, 3, "rbx", 1),
            e(6, 5, "rbx", 1),
        ]
    );
}

#[test]
fn adc8_figure_4_1() {
    let regs = ["rax", "rbx", "rcx", "rdx", "r8", "r9", "r10", "r11"];
    let mut want: Vec<E> = (0..7).map(|i| e(i, i + 1, "cf", 0)).collect();
    want.push(e(7, 0, "cf", 1));
    want.extend((0..8).map(|i| e(i, i, regs[i], 1)));
    assert_eq!(edges(ADC8, true), sorted(want));
    // Single iteration: only the forward cf chain.
    assert_eq!(
        edges(ADC8, false),
        (0..7).map(|i| e(i, i + 1, "cf", 0)).collect::<Vec<_>>()
    );
}

#[test]
fn stencil_section_4_2() {
    let chain = vec![
        e(0, 1, "zmm2", 0),
        e(1, 2, "zmm3", 0),
        e(2, 3, "zmm4", 0),
        e(3, 4, "zmm5", 0),
        e(4, 5, "zmm6", 0),
        e(6, 7, "r15", 0),
    ];
    assert_eq!(edges(STENCIL, false), chain);
    // `inc r15` feeds every r15 reader of the next iteration, itself included (Example 7:
    // line 6 -> line 3 with latency 1).
    let mut want = chain;
    want.extend([0, 1, 2, 3, 5, 6].map(|c| e(6, c, "r15", 1)));
    assert_eq!(edges(STENCIL, true), sorted(want));
}

#[test]
fn write_after_write_is_no_dependency() {
    let six = "mov rax, 6 | w rax\n".repeat(6);
    assert!(edges(&six, false).is_empty());
    assert!(edges(&six, true).is_empty());
}

#[test]
fn branch_out_of_region_ends_the_iteration() {
    let text = "
        mov rax, 0x1   | w rax
        test rcx, rcx  | r rcx | w flags
        jz out         | r zf | jcc out
        add rbx, rax   | r rbx rax | w rbx
        mov rcx, rbx   | r rbx | w rcx
    ";
    // The fall-through path continues into the next iteration.
    assert_eq!(
        edges(text, true),
        vec![
            e(0, 3, "rax", 0),
            e(1, 2, "zf", 0),
            e(3, 3, "rbx", 1),
            e(3, 4, "rbx", 0),
            e(4, 1, "rcx", 1),
        ]
    );
    // An unconditional jump out: lines 3 and 4 are unreachable, nothing is loop-carried.
    let jumped = text.replace("jz out         | r zf | jcc out", "jmp out | jmp out");
    assert_eq!(edges(&jumped, true), Vec::<E>::new());
    let ret = text.replace("jz out         | r zf | jcc out", "ret | ret");
    assert_eq!(edges(&ret, true), Vec::<E>::new());
}

#[test]
fn backward_branch_is_ignored() {
    let text = "
        mov rax, 0x1   | w rax
        add rbx, rax   | r rbx rax | w rbx flags
        dec rcx        | r rcx | w rcx pf af zf sf of
        jnz 1          | r zf | jcc 1
        mov rdx, rbx   | r rbx | w rdx
    ";
    // Following the backward edge would add 1 -> 1 rbx and 2 -> 2 rcx inside the iteration.
    assert_eq!(
        edges(text, false),
        vec![e(0, 1, "rax", 0), e(1, 4, "rbx", 0), e(2, 3, "zf", 0)]
    );
    assert_eq!(
        edges(text, true),
        vec![
            e(0, 1, "rax", 0),
            e(1, 1, "rbx", 1),
            e(1, 4, "rbx", 0),
            e(2, 2, "rcx", 1),
            e(2, 3, "zf", 0),
        ]
    );
}

#[test]
fn conditional_write_keeps_the_previous_writer() {
    let text = "
        mov rax, 0x1   | w rax
        cmp rcx, 0x0   | r rcx | w flags
        cmovz rax, rdx | r zf rdx | cw rax
        add rbx, rax   | r rbx rax | w rbx
        mov rax, 0x2   | w rax
        add rbx, rax   | r rbx rax | w rbx
    ";
    assert_eq!(
        edges(text, false),
        vec![
            e(0, 3, "rax", 0),
            e(1, 2, "zf", 0),
            e(2, 3, "rax", 0),
            e(3, 5, "rbx", 0),
            e(4, 5, "rax", 0),
        ]
    );
    let (_, g) = deps_of(text, false);
    let rax = loc("rax");
    assert_eq!(
        g.producers_for(3, rax).collect::<Vec<_>>(),
        vec![(0, 0), (2, 0)]
    );
    assert_eq!(g.producers_for(5, rax).collect::<Vec<_>>(), vec![(4, 0)]);
}

#[test]
fn conditional_writes_accumulate_across_iterations() {
    // Two conditional writers and nothing unconditional: neither kills the other, so the
    // reader sees both, of this iteration and of the previous one.
    let text = "
        cmovz rax, rdx | r zf rdx | cw rax
        cmovs rax, rsi | r sf rsi | cw rax
        add rbx, rax   | r rbx rax | w rbx
    ";
    assert_eq!(
        edges(text, true),
        vec![
            e(0, 2, "rax", 0),
            e(0, 2, "rax", 1),
            e(1, 2, "rax", 0),
            e(1, 2, "rax", 1),
            e(2, 2, "rbx", 1),
        ]
    );
}

#[test]
fn same_pair_and_loc_at_two_distances() {
    let text = "
        jz 2           | r zf | jcc 2
        mov rax, 0x1   | w rax
        add rbx, rax   | r rbx rax | w rbx
    ";
    assert_eq!(
        edges(text, true),
        vec![e(1, 2, "rax", 0), e(1, 2, "rax", 1), e(2, 2, "rbx", 1)]
    );
    let (_, g) = deps_of(text, true);
    assert_eq!(
        g.producers_for(2, loc("rax")).collect::<Vec<_>>(),
        vec![(1, 0), (1, 1)]
    );
}

#[test]
fn high8_and_flags_are_separate_locations() {
    let text = "
        mov ah, 0x1    | w ah
        mov al, 0x2    | r rax | w rax
        movzx ecx, ah  | r ah | w rcx
        stc            | w cf
        setz dl        | r zf rdx | w rdx
        adc rsi, 0     | r rsi cf | w rsi flags
    ";
    assert_eq!(edges(text, false), vec![e(0, 2, "ah", 0), e(3, 5, "cf", 0)]);
}

#[test]
fn accessors_agree_with_edges() {
    let (_, g) = deps_of(BRANCHY, true);
    assert_eq!(g.len(), 7);
    assert!(g.has_loop_deps());
    assert_eq!(g.edge_count(), 7);
    assert_eq!(g.graph().edge_count(), 7);
    let prod: Vec<_> = g.producers_of(6).map(|(p, e)| (p, e.distance)).collect();
    assert_eq!(prod, vec![(3, 0), (5, 0)]);
    let cons: Vec<_> = g.consumers_of(6).map(|(c, e)| (c, e.distance)).collect();
    assert_eq!(cons, vec![(3, 1), (5, 1)]);
    let cons0: Vec<_> = g.consumers_of(0).map(|(c, e)| (c, e.loc.label())).collect();
    assert_eq!(cons0, vec![(3, "rax".to_string()), (5, "rax".to_string())]);
    assert_eq!(g.producers_of(0).count(), 0);
}

#[test]
fn empty_region() {
    let cfg = Cfg::build(&[], 0, 0, 2);
    let g = DepGraph::build(&[], &cfg, true);
    assert!(g.is_empty());
    assert_eq!(g.edges().count(), 0);
}

// ----- Algorithm 2 taken literally agrees with the merged-map pass -----

/// A random program over three locations (rax, rbx, zf) with random branches.
fn arb_program() -> impl Strategy<Value = Vec<Instr>> {
    let locs = [loc("rax"), loc("rbx"), loc("zf")];
    (1usize..9).prop_flat_map(move |n| {
        let instr = (
            0u8..8,
            0u8..8,
            0u8..8,
            0u8..10,
            0usize..n + 2,
            any::<bool>(),
        );
        prop::collection::vec(instr, n).prop_map(move |specs| {
            let base = prog(&"nop\n".repeat(specs.len()));
            base.into_iter()
                .zip(specs)
                .map(|(mut i, (r, w, cw, b, t, mid))| {
                    let pick = |mask: u8, kind| {
                        locs.iter()
                            .enumerate()
                            .filter(move |(k, _)| mask & (1 << k) != 0)
                            .map(move |(_, &loc)| Access {
                                loc,
                                kind,
                                role: Role::Implicit,
                                reg: None,
                            })
                    };
                    i.accesses = pick(r, AccessKind::Read)
                        .chain(pick(w, AccessKind::Write))
                        .chain(pick(cw, AccessKind::CondWrite))
                        .collect();
                    let target = crate::cfg::testprog::addr(t) + u64::from(mid);
                    i.branch = match b {
                        0 | 1 => BranchKind::Conditional { target },
                        2 => BranchKind::Jump { target },
                        3 => BranchKind::Return,
                        _ => BranchKind::None,
                    };
                    i
                })
                .collect()
        })
    })
}

proptest! {
    #[test]
    fn merged_pass_equals_path_forking(instrs in arb_program()) {
        let (s, e) = bounds(&instrs);
        let cfg = Cfg::build(&instrs, s, e, 2);
        for copies in [1, 2] {
            prop_assert_eq!(
                build::raw_edges(&instrs, &cfg, copies),
                paths::raw_edges_by_paths(&instrs, &cfg, copies)
            );
        }
    }
}
