//! First-principles checks: every expectation is worked out by hand from the rules of the
//! predecoder (16-byte blocks, 5 instructions per cycle, a crossing instruction takes a slot
//! in both blocks unless only its last byte crosses, a new block starts in a new cycle), the
//! decoders (4, one complex, 4 µops per cycle before Skylake and 5 from it) and the MS (4 µops
//! per cycle).

use super::*;

/// Haswell's parameters (`data/arch/HSW.toml`).
const HSW: Params = Params {
    block_bytes: 16,
    predecode_width: 5,
    lcp_penalty: 3,
    iq_entries: 20,
    decode_delay: 3,
    decoders: 4,
    mite_uops: 4,
    ms_uops: 4,
    fusion_on_last_decoder: false,
};

/// Skylake's parameters (`data/arch/SKL.toml`).
const SKL: Params = Params {
    iq_entries: 25,
    mite_uops: 5,
    fusion_on_last_decoder: true,
    ..HSW
};

/// A one-µop instruction of `len` bytes, as the full model lays it out: its last byte may lie
/// in the next fetch block (`Item::tail`).
fn simple(len: u32) -> Item {
    Item {
        len,
        tail: u32::from(len >= 2),
        uops: 1,
        ..Item::default()
    }
}

/// The items laid out back to back from offset 0.
fn block(mut items: Vec<Item>) -> Vec<Item> {
    let mut offset = 0;
    for i in &mut items {
        i.offset = offset;
        offset += i.len;
    }
    items
}

fn unrolled(items: &[Item], p: &Params) -> f64 {
    cycles_per_iteration(items, 0, Layout::Unrolled, p).unwrap()
}

fn near(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn dense_three_byte_code_takes_five_cycles_per_three_blocks() {
    // A 3-byte instruction unrolled: 16 copies fill 48 bytes, 3 blocks. Block 0 marks 0–12
    // (5) in cycle 1; the one at 15 has two bytes in block 1, crosses and is all that is left:
    // cycle 2 is its own. Cycle 3 marks 15, 18, 21, 24, 27 (5), cycle 4 the one at 30, whose
    // last byte alone lies in block 2, with block 1; cycle 5 marks 33–45 (5), and block 3
    // starts in a new cycle. 5 cycles / 16 copies = 0.3125, on Haswell and Skylake alike.
    let one = block(vec![simple(3)]);
    assert!(near(unrolled(&one, &HSW), 0.3125));
    assert!(near(unrolled(&one, &SKL), 0.3125));
    // Three per copy (9 bytes) is the same stream: 0.9375 cycles a copy. BHive measures
    // `mov rdi, rbp; mov rdx, rbx; mov rsi, r14` at 0.94 on Ivy Bridge, `mov rbp, rsi;
    // mov r12, rdx; mov r13, rcx` at 0.93 on Haswell.
    let three = block(vec![simple(3), simple(3), simple(3)]);
    assert!(near(unrolled(&three, &HSW), 0.9375));
    // With every crossing carried (`--carry-last-byte`: no tail), the one at 30 takes a
    // cycle of its own too, as the one at 15 does: 6 cycles / 16 copies, 1.125 a copy.
    let carried: Vec<Item> = three.iter().map(|i| Item { tail: 0, ..*i }).collect();
    assert!(near(unrolled(&carried, &HSW), 1.125));
}

#[test]
fn a_last_byte_in_the_next_block_does_not_carry_the_instruction() {
    // 4, 3, 4 and 3 bytes a copy (IVB `mov rdi, [rbp+8]; mov r13, rax; mov r14, [rbp+16];
    // test rdi, rdi`): 8 copies fill 112 bytes, 7 blocks, 32 instructions. The crossings:
    // at 14 (2 bytes on: carried, marked in cycle 2 with 18, 21, 25, 28 after 0–11 in cycle
    // 1), 46 (last byte only: stays with block 2, cycle 3 marks 32–46), 63 (3 bytes on:
    // cycle 4 marks 49–60, cycle 5 63–77, 77 staying with its block), 95 (2 bytes on: cycle
    // 6 81–91, cycle 7 95–109). 7 cycles for 32 instructions, which the 4 decoders take in
    // 8: 1.00 a copy (BHive: 0.97).
    let copy = block(vec![simple(4), simple(3), simple(4), simple(3)]);
    assert!(near(unrolled(&copy, &HSW), 1.0));
    // Carried, the ones at 46 and 77 wait for the next cycle, so those at 63 and 95 come
    // after cycles that marked 5 and take cycles of their own: 9 cycles per 8 copies.
    let carried: Vec<Item> = copy.iter().map(|i| Item { tail: 0, ..*i }).collect();
    assert!(near(unrolled(&carried, &HSW), 1.125));
}

#[test]
fn four_byte_code_is_limited_by_the_decoders() {
    // 4 instructions per block, none crossing: 1 block per cycle, 4 instructions per cycle,
    // which the 4 decoders also take: 0.25 cycles per instruction.
    assert!(near(unrolled(&block(vec![simple(4)]), &HSW), 0.25));
    // 2-byte code: 8 per block, 5 + 3 in 2 cycles: 0.25 per instruction as well.
    assert!(near(unrolled(&block(vec![simple(2)]), &SKL), 0.25));
}

#[test]
fn multi_uop_instructions_share_the_complex_decoder() {
    // Two 2-µop instructions per copy: each needs decoder 0, so one per cycle: 2 cycles per
    // copy (the predecoder needs 0.5: 8 instructions per 16 bytes, 2 cycles per 4 copies).
    let two = Item {
        uops: 2,
        complex: true,
        ..simple(2)
    };
    assert!(near(unrolled(&block(vec![two, two]), &HSW), 2.0));
    // A 2-µop instruction and a simple one pair up in one cycle: 1 cycle per copy.
    assert!(near(unrolled(&block(vec![two, simple(2)]), &HSW), 1.0));
}

#[test]
fn single_uop_instructions_the_data_marks_complex_take_decoder_0() {
    // SKL `lea rbp, [rbx-24]; test rbx, rbx; cmovz rbp, rdx; add rbp, 40; cmp rbp, rax`
    // (4 + 3 + 4 + 4 + 3 bytes, one µop each; uops.info marks `cmovz` complex_decoder="1"):
    // cycle 1 decodes lea and test and stops at cmovz (decoder 0 is taken); cycle 2 cmovz,
    // add, cmp and the next copy's lea; cycle 3 its test; cycle 4 as cycle 2: 2 cycles per
    // copy (BHive measures 1.96). The predecoder needs 18/16 blocks a copy, 1.25 cycles or
    // less.
    let cmov = Item {
        complex: true,
        ..simple(4)
    };
    let copy = block(vec![simple(4), simple(3), cmov, simple(4), simple(3)]);
    assert!(near(unrolled(&copy, &SKL), 2.0));
    // Unmarked, the 5 instructions take 4 decoders: 1.25.
    let plain = block(vec![simple(4), simple(3), simple(4), simple(4), simple(3)]);
    assert!(near(unrolled(&plain, &SKL), 1.25));
}

#[test]
fn a_complex_instruction_may_leave_fewer_simple_decoders() {
    // A 2-µop instruction that lets only one simple decoder work beside it
    // (`available_simple_decoders="1"`), then three simple ones: cycle 1 decodes it and one
    // more, cycle 2 the other two: 2 cycles per copy, where all three simple decoders would
    // take the copy in 1 cycle.
    let narrow = Item {
        uops: 2,
        complex: true,
        simple_decoders: Some(1),
        ..simple(2)
    };
    let copy = block(vec![narrow, simple(2), simple(2), simple(2)]);
    assert!(near(unrolled(&copy, &SKL), 2.0));
    let wide = Item {
        simple_decoders: None,
        ..narrow
    };
    let copy = block(vec![wide, simple(2), simple(2), simple(2)]);
    assert!(near(unrolled(&copy, &SKL), 1.0));
}

#[test]
fn microcode_stops_the_decoders_while_it_streams() {
    // One decoder µop, then 8 from the MS at 4 per cycle: the decoders take it in cycle t,
    // the MS delivers in t+1 and t+2, the next copy is decoded in t+3: 3 cycles per copy.
    let micro = Item {
        ms: 8,
        complex: true,
        ..simple(3)
    };
    assert!(near(unrolled(&block(vec![micro]), &HSW), 3.0));
}

#[test]
fn a_length_changing_prefix_stalls_the_predecoder() {
    // `add ax, 0x1234` (66 05 34 12) unrolled: each one is marked in a cycle and stalls the
    // predecoder for the 2 more of its 3-cycle penalty: 3 cycles per copy.
    let lcp = Item {
        lcp: true,
        ..simple(4)
    };
    assert!(near(unrolled(&block(vec![lcp]), &HSW), 3.0));
}

#[test]
fn fusible_instructions_avoid_the_last_decoder_before_skylake() {
    // 2-byte `add eax, ebx` unrolled: the predecoder marks 8 per 2 cycles (0.25 each).
    // Haswell never puts a macro-fusible instruction on decoder 3: 3 per cycle (the IQ
    // fills, so one is always ready), 1/3 cycle each — a pattern of 3 copies against the
    // predecoder's 8; Skylake decodes 4 per cycle, so the predecoder's 0.25 stays.
    let add = Item {
        fusible: true,
        ..simple(2)
    };
    assert!(near(unrolled(&block(vec![add]), &HSW), 1.0 / 3.0));
    assert!(near(unrolled(&block(vec![add]), &SKL), 0.25));
}

#[test]
fn a_macro_fused_pair_takes_one_decoder() {
    // cmp (3 bytes) + jcc (2 bytes) unrolled, 5 bytes per copy: 16 copies span 5 blocks of
    // 7 slots each (6 whole instructions and a crossing one, or 7 whole), 2 cycles per
    // block: 10 cycles / 16 copies = 0.625 (no crossing instruction is ever all that is
    // left of its block, so Skylake's rule changes nothing). The pairs take one decoder
    // each (4 per cycle), not a limit.
    let cmp = Item {
        fusible: true,
        fuses_with_next: true,
        ..simple(3)
    };
    let pair = block(vec![cmp, simple(2)]);
    assert!(near(unrolled(&pair, &HSW), 0.625));
    assert!(near(unrolled(&pair, &SKL), 0.625));
}

#[test]
fn a_loop_restarts_in_a_fresh_block() {
    // Four 4-byte instructions and the loop branches back. Aligned at 0 the body is one
    // block: 1 cycle per iteration. At offset 8 it spans two blocks of 2 instructions, each
    // in a cycle of its own, and after the taken branch the first block is fetched again:
    // 2 cycles per iteration.
    let body = block(vec![simple(4); 4]);
    let at = |start| cycles_per_iteration(&body, start, Layout::Loop, &HSW).unwrap();
    assert!(near(at(0), 1.0));
    assert!(near(at(8), 2.0));
}

#[test]
fn no_block_no_rate() {
    assert_eq!(cycles_per_iteration(&[], 0, Layout::Unrolled, &HSW), None);
}

/// Haswell's µop cache (`data/arch/HSW.toml`): 32-byte windows, 4 µops per cycle, 3 ways of
/// 6 µops and 2 branches, DSB → MS 4 cycles, DSB → MITE 2 cycles.
fn hsw_dsb() -> DsbParams {
    DsbParams {
        window: 32,
        width: 4,
        ways: Some(3),
        uops_per_way: 6,
        branches_per_way: 2,
        coupled: false,
        jcc_erratum: false,
        ms_stall: 4,
        mite_switch: 2,
        capacity: 1536,
    }
}

/// Skylake's: 6 µops per cycle, halves coupled, the JCC erratum, DSB → MS 2 cycles.
fn skl_dsb() -> DsbParams {
    DsbParams {
        width: 6,
        coupled: true,
        jcc_erratum: true,
        ms_stall: 2,
        ..hsw_dsb()
    }
}

/// Haswell's LSD: 56 µops, 4 per cycle, its unrolling table.
fn hsw_lsd() -> LsdParams {
    LsdParams {
        capacity: 56,
        width: 4,
        unrolling: vec![[4, 8], [5, 6], [6, 5], [8, 4], [12, 3], [28, 2]],
    }
}

/// A conditional jump of `len` bytes.
fn jcc(len: u32) -> Item {
    Item {
        branch: Branch::Conditional,
        ..simple(len)
    }
}

/// `dec r10` (3 bytes), macro-fusing with the following Jcc.
fn dec_fused() -> Item {
    Item {
        fusible: true,
        fuses_with_next: true,
        ..simple(3)
    }
}

/// An instruction of `uops` µops from the complex decoder, `len` bytes.
fn complex(len: u32, uops: u32) -> Item {
    Item {
        uops,
        complex: true,
        ..simple(len)
    }
}

fn looped(items: &[Item], p: &LoopParams) -> LoopFrontEnd {
    loop_cycles(items, 0, p).unwrap()
}

#[test]
fn lsd_unrolls_a_tiny_loop() {
    // `add rax, rbx; dec r10; jnz` on Haswell: 2 µops (the pair fuses), which the LSD unrolls
    // 8 times: 16 µops at 4 per cycle = 4 cycles per 8 iterations, 0.5 per iteration. Without
    // unrolling (Sandy Bridge's LSD) the 2 µops take a cycle of their own: 1.0.
    let items = block(vec![simple(3), dec_fused(), jcc(2)]);
    let p = LoopParams {
        legacy: HSW,
        dsb: Some(hsw_dsb()),
        lsd: Some(hsw_lsd()),
    };
    let l = looped(&items, &p);
    assert_eq!(l.source, Source::Lsd);
    assert!(near(l.cycles, 0.5), "{}", l.cycles);
    let no_unroll = LoopParams {
        lsd: Some(LsdParams {
            unrolling: Vec::new(),
            ..hsw_lsd()
        }),
        ..p.clone()
    };
    assert!(near(looped(&items, &no_unroll).cycles, 1.0));
    // Without the LSD the µop cache streams the one window: ⌈2 / 4⌉ = 1 cycle.
    let dsb = looped(&items, &LoopParams { lsd: None, ..p });
    assert_eq!(dsb.source, Source::Dsb);
    assert!(near(dsb.cycles, 1.0));
}

#[test]
fn a_loop_too_big_for_the_lsd_streams_from_the_uop_cache() {
    // 30 two-µop instructions of 4 bytes and a 2-byte jnz on Haswell: 61 µops, more than the
    // LSD's 56. Windows of 32 bytes hold 8 instructions (16 µops in 3 ways of 3, 3 and 2
    // instructions): bytes 0–95 are 3 such windows, ⌈16 / 4⌉ = 4 cycles each; the last window
    // (96–127) has 6 instructions and the jnz, 13 µops, 4 cycles: 16 cycles. The legacy
    // decoders would take one complex instruction per cycle, 30 cycles.
    let mut v = vec![complex(4, 2); 30];
    v.push(jcc(2));
    let items = block(v);
    let p = LoopParams {
        legacy: HSW,
        dsb: Some(hsw_dsb()),
        lsd: Some(hsw_lsd()),
    };
    let l = looped(&items, &p);
    assert_eq!(l.source, Source::Dsb);
    assert!(near(l.cycles, 16.0), "{}", l.cycles);
    let mite = looped(
        &items,
        &LoopParams {
            dsb: None,
            lsd: None,
            ..p
        },
    );
    assert_eq!(mite.source, Source::Mite);
    assert!(mite.cycles >= 30.0, "{}", mite.cycles);
}

#[test]
fn jcc_erratum_sends_a_skylake_loop_to_the_legacy_decoders() {
    // Nine 3-byte single-µop instructions (bytes 0–26), then `dec r10` (27–29) and `jnz`
    // (30–31) fused: the pair ends on the 32-byte boundary. Skylake's µop cache would stream
    // the window's 10 µops in ⌈10 / 6⌉ = 2 cycles; with the erratum the window (and, coupled,
    // its 64-byte line) is not cached and the legacy decoders run it. Predecoder: block 0–15
    // has 5 whole instructions (cycle 1); the one at 15–17 crosses, is all that is left and
    // takes cycle 2; block 16–31 marks 15–27 in cycle 3 and the `jnz` in cycle 4; the next
    // iteration starts a new block: 4 cycles. The decoders (10 decodes, 4 per cycle) keep up.
    let mut v = vec![simple(3); 9];
    v.push(dec_fused());
    v.push(jcc(2));
    let items = block(v);
    assert!(dsb::touches_32_byte_boundary(27, 32));
    let p = LoopParams {
        legacy: SKL,
        dsb: Some(skl_dsb()),
        lsd: None,
    };
    let l = looped(&items, &p);
    assert_eq!(l.source, Source::Mite);
    assert!(near(l.cycles, 4.0), "{}", l.cycles);
    let no_erratum = LoopParams {
        dsb: Some(DsbParams {
            jcc_erratum: false,
            ..skl_dsb()
        }),
        ..p.clone()
    };
    let d = looped(&items, &no_erratum);
    assert_eq!(d.source, Source::Dsb);
    assert!(near(d.cycles, 2.0), "{}", d.cycles);
    // With a 2-byte first instruction the pair ends at byte 31, before the boundary: cached.
    let mut shorter = items.clone();
    shorter[0].len = 2;
    let shorter = block(shorter);
    assert_eq!(looped(&shorter, &p).source, Source::Dsb);
}

#[test]
fn a_window_over_three_ways_switches_to_the_legacy_decoders() {
    // Haswell, no LSD: window 0–31 holds 8 single-µop 4-byte instructions (2 ways): ⌈8 / 4⌉ =
    // 2 cycles from the µop cache. Window 32–63 holds 7 three-µop 4-byte instructions (two per
    // way: 4 ways > 3) and the jnz: not cached. Switch: 2 cycles. The legacy decoders take
    // one three-µop instruction per cycle, the jnz with the last (3 + 1 ≤ 4 µops): 7 cycles.
    // Total 2 + 2 + 7 = 11.
    let mut v = vec![simple(4); 8];
    v.extend(vec![complex(4, 3); 7]);
    v.push(jcc(2));
    let items = block(v);
    let p = LoopParams {
        legacy: HSW,
        dsb: Some(hsw_dsb()),
        lsd: None,
    };
    let l = looped(&items, &p);
    assert_eq!(l.source, Source::DsbThenMite);
    assert!(near(l.cycles, 11.0), "{}", l.cycles);
}

#[test]
fn microcode_leaves_the_lsd_for_the_uop_cache() {
    // One instruction with 1 µop from the decoders and 4 from the MS, then a 2-byte jnz, on
    // Haswell: the LSD does not hold microcoded loops. The µop cache streams the window's 2
    // µops in 1 cycle, stalls 4 cycles handing over to the MS, which delivers 4 µops in 1:
    // 6 cycles.
    let ms = Item {
        ms: 4,
        complex: true,
        ..simple(3)
    };
    let items = block(vec![ms, jcc(2)]);
    let p = LoopParams {
        legacy: HSW,
        dsb: Some(hsw_dsb()),
        lsd: Some(hsw_lsd()),
    };
    let l = looped(&items, &p);
    assert_eq!(l.source, Source::Dsb);
    assert!(near(l.cycles, 6.0), "{}", l.cycles);
}

#[test]
fn a_loop_larger_than_the_uop_cache_runs_from_the_decoders() {
    // 1600 single-µop 4-byte instructions and a jnz on Haswell, no LSD: every 32-byte window
    // fits its ways (8 µops), but 1601 µops exceed the 1536 the cache holds, so the legacy
    // decoders run the loop: 4 instructions per cycle (16 bytes, 4 decoders), ≥ 400 cycles.
    // Within the capacity (1500 instructions) the µop cache streams 8 µops per window in 2
    // cycles: 188 windows (the last holds 4 instructions and the jnz, 2 cycles) = 376.
    let p = LoopParams {
        legacy: HSW,
        dsb: Some(hsw_dsb()),
        lsd: None,
    };
    let mut big = vec![simple(4); 1600];
    big.push(jcc(2));
    let l = looped(&block(big), &p);
    assert_eq!(l.source, Source::Mite);
    assert!(l.cycles >= 400.0, "{}", l.cycles);
    let mut fits = vec![simple(4); 1500];
    fits.push(jcc(2));
    let l = looped(&block(fits), &p);
    assert_eq!(l.source, Source::Dsb);
    assert!(near(l.cycles, 376.0), "{}", l.cycles);
}
