//! Zen 4's front end measured with `suaca profile` on our fixtures (`testdata/asm/*.s`):
//! op-cache windows and cycles, NOPs.
#![forbid(unsafe_code)]

use crate::zen4_fixtures::{assert_regions, long_run, region_throughputs};

/// The op cache reads at least one 64-byte window per iteration of a loop
/// (`uop_cache_window_bytes`, measured with `suaca profile` on this fixture: 1.06 and 2.00
/// cycles per iteration): the saxpy loop inside one line and across two.
#[test]
fn a_loop_across_two_op_cache_windows_takes_two_cycles() {
    let Some((tps, text)) = region_throughputs("loop_window.s") else {
        return;
    };
    assert_eq!(tps.len(), 2, "{text}");
    assert!((tps[0] - 1.06).abs() < 0.1, "{tps:?}");
    assert!((tps[1] - 2.0).abs() < 0.1, "{tps:?}");
    assert_eq!(text.matches("Mode: loop").count(), 2, "{text}");
}

/// NOPs take no dispatch slot on Zen 4 (testdata/asm/nops.s, measured with `suaca profile`;
/// expected by hand: the other instructions at 6 a cycle, or their own limit): nop; mov;
/// cmp 0.334 (2 / 6), a long NOP the same, cmp al; nop and mov; nop 0.25 (both
/// measured; the model's port bound for these one-instruction blocks), nop; mov; lea; cmp
/// 0.5 (3 / 6), two NOPs around two add chains 1.0 (the chains), three add chains 1.0.
/// Blocks of NOPs only (measured 12 a cycle) are left out: the model delivers them free.
#[test]
fn nops_take_no_dispatch_slot() {
    let Some(tps) = long_run("nops.s", &[]) else {
        return;
    };
    let want = [0.334, 0.334, 0.25, 0.25, 0.5, 1.0, f64::NAN, f64::NAN, 1.0];
    assert_regions(&tps, &want, 0.015);
    // With a slot per NOP: nop; mov; cmp takes half a cycle (3 / 6).
    let slots = long_run("nops.s", &["--no-free-nops"]).expect("ran once");
    assert!((slots[0] - 0.5).abs() < 0.015, "{slots:?}");
}

/// The op cache delivers whole cycles of at most 9 macro-ops an iteration, and a cycle per
/// 64-byte window the loop touches (`uop_cache_whole_cycles`; testdata/asm/op_cache_cycles.s,
/// measured with `suaca profile` on Zen 4). By hand, max(⌈n / 9⌉, windows, n / 6) for an
/// `n`-macro-op loop limited by the 6-wide dispatch: 6 to 9 macro-ops n / 6 (1.00 … 1.50);
/// 10, 11, 12 two cycles; 13 to 20 (across two windows) n / 6 again (2.17 … 3.33); the
/// 7-macro-op loop 1.17 inside one window and 2.00 wherever a boundary splits it. With the
/// fraction (10 / 9 cycles) the 10- and 11-macro-op loops read 1.67 and 1.83.
#[test]
fn the_op_cache_delivers_whole_cycles_an_iteration() {
    let Some(tps) = long_run("op_cache_cycles.s", &[]) else {
        return;
    };
    let mut want: Vec<f64> = (6..=20)
        .map(|n: u32| f64::from(n.div_ceil(9)).max(f64::from(n) / 6.0))
        .collect();
    want.push(7.0 / 6.0);
    want.extend([2.0; 13]);
    assert_regions(&tps, &want, 0.01);
}
