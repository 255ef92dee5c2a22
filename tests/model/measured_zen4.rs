//! The embedded ZEN4 data (`data/measured/ZEN4.xml.zst`, issue #5): every port group is one the
//! ZEN4 description can simulate, integer instructions have integer ports, every µop of an
//! instruction that executes has ports, and the analyzer shows integer port pressure from it.
#![forbid(unsafe_code)]

use crate::common::{program, reference_value, root, suaca, ZEN4_REFERENCE};

use suaca::uopsxml::{read_file, ArchFilter, InstrRecord, MeasureValues};

use crate::zen4_fixtures::{assert_regions, bound_lines, long_run, region_throughputs};

fn records() -> Vec<InstrRecord> {
    read_file(
        &root().join("data/measured/ZEN4.xml.zst"),
        &ArchFilter::default(),
    )
    .expect("embedded data reads")
}

fn base(r: &InstrRecord) -> Option<&MeasureValues> {
    r.archs
        .iter()
        .find(|a| a.name == "ZEN4")?
        .measurement
        .as_ref()
        .map(|m| &m.base)
}

#[test]
fn every_port_group_maps_to_zen4_ports() {
    let zen4 = suaca::uarch::load("ZEN4").unwrap();
    let recs = records();
    assert!(recs.len() > 12_000, "{}", recs.len());
    let (mut alu, mut agu, mut fp) = (0, 0, 0);
    for r in &recs {
        let Some(m) = r.archs[0].measurement.as_ref() else {
            continue;
        };
        for v in [Some(&m.base), m.same_reg.as_ref(), m.indexed.as_ref()]
            .into_iter()
            .flatten()
        {
            for g in v.ports.iter().flat_map(|p| &p.groups) {
                assert!(zen4.port_mask(g).is_some(), "{}: {g}", r.string);
            }
        }
        let p = m
            .base
            .ports
            .as_ref()
            .map(|p| p.to_string())
            .unwrap_or_default();
        alu += usize::from(p.contains("ALU"));
        agu += usize::from(p.contains("AGU"));
        fp += usize::from(p.contains("FP"));
    }
    assert!(
        alu > 1_000 && agu > 5_000 && fp > 10_000,
        "{alu} {agu} {fp}"
    );
}

#[test]
fn variant_names_are_unique() {
    let mut seen = std::collections::HashSet::new();
    let dups: Vec<String> = records()
        .into_iter()
        .filter(|r| !seen.insert(r.string.clone()))
        .map(|r| r.string)
        .collect();
    assert!(dups.is_empty(), "{} duplicates: {dups:?}", dups.len());
}

#[test]
fn every_executed_uop_has_ports() {
    let mut bad = Vec::new();
    for r in records() {
        let Some(m) = base(&r) else { continue };
        // The faster of the two throughputs, as `suaca measure`'s port fallback judges.
        let tp = match (m.tp_unrolled, m.tp_loop) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let (Some(uops), Some(tp)) = (m.uops, tp) else {
            continue;
        };
        // Slower than the dispatch limit (6 macro-ops per cycle): the instruction executes.
        if tp <= 1.15 * uops as f64 / 6.0 {
            continue;
        }
        let listed = m.ports.as_ref().map_or(0, |p| p.total_uops());
        if listed < uops {
            let ports = m.ports.as_ref().map(|p| p.to_string()).unwrap_or_default();
            bad.push(format!(
                "{}: {uops} µops, TP {tp:.2}, ports {ports}",
                r.string
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} variants:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn integer_ports_fusion_and_provenance() {
    let recs = records();
    let get = |s: &str| {
        let r = recs
            .iter()
            .find(|r| r.string == s)
            .unwrap_or_else(|| panic!("{s}"));
        (r.clone(), base(r).cloned().unwrap())
    };
    let ports = |m: &MeasureValues| m.ports.as_ref().map(|p| p.to_string()).unwrap_or_default();
    assert_eq!(ports(&get("ADD_01 (R64, R64)").1), "1*ALU0123");
    assert_eq!(ports(&get("IMUL (R64, R64)").1), "1*ALU1");
    assert_eq!(ports(&get("SHL (R64, I8)").1), "1*ALU12");
    assert_eq!(ports(&get("MOV (R64, M64)").1), "1*AGU012");
    assert_eq!(ports(&get("ADD (R64, M64)").1), "1*AGU012+1*ALU0123");
    assert_eq!(ports(&get("VADDPD (YMM, YMM, YMM)").1), "1*FP23");
    let (cmp, m) = get("CMP_39 (R64, R64)");
    let fus = m.macro_fusible.unwrap_or_default();
    assert!(fus.iter().any(|j| j == "JZ (Rel8)"), "{fus:?}");
    let attrs = &cmp.archs[0].attrs;
    for k in ["ports_inferred", "uops_inferred", "macro_fusible_inferred"] {
        assert_eq!(attrs.get(k).map(String::as_str), Some("1"), "{k}");
    }
    // Same-register form of a zero idiom: dispatch limit, no ports.
    let (xor, _) = get("XOR_31 (R32, R32)");
    let same = xor.archs[0].measurement.as_ref().unwrap().same_reg.clone();
    let same = same.expect("zero idiom differs with the same register");
    assert!(same.tp_unrolled.unwrap() < 0.2 && same.ports.is_none());
}

#[test]
fn analyzer_shows_integer_port_pressure_from_the_embedded_data() {
    let home = tempfile::tempdir().expect("tempdir");
    let out = suaca(
        &["--arch", "ZEN4", "--width", "0", &program("msvc")],
        home.path(),
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let header = text
        .lines()
        .find(|l| l.starts_with("| Line"))
        .expect("table");
    assert!(header.contains("ALU1"), "{text}");
    let imul = text.lines().find(|l| l.contains("imul")).expect("imul row");
    // imul on the multiplier, alone: 1.0 in the ALU1 column.
    assert!(imul.contains("1.0"), "{imul}");
}

#[test]
fn reference_values_hold_in_the_embedded_data() {
    let recs = records();
    for (name, what, want) in ZEN4_REFERENCE {
        let got = reference_value(&recs, name, what);
        assert!(
            got.is_some_and(|g| (g - want).abs() <= 0.02),
            "{name} {what}: want {want:.3}, got {got:?}"
        );
    }
}

#[test]
fn an_immediate_zero_uses_the_measured_immediate_form() {
    // `cmp byte ptr [rbx+0xa], 0`: uops.info names a zero immediate apart (`immzero`); the
    // measured data has the non-zero form, which stands in for it.
    let home = tempfile::tempdir().expect("tempdir");
    let out = suaca(&["--arch", "ZEN4", "--hex", "807b0a00"], home.path());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("Block throughput: 0.3"), "{text}");
}

/// The block throughput `suaca --arch ZEN4 --hex HEX EXTRA...` prints (embedded data).
fn zen4_throughput(hex: &str, extra: &[&str], home: &std::path::Path) -> f64 {
    let mut args = vec!["--arch", "ZEN4", "--hex", hex];
    args.extend_from_slice(extra);
    let out = suaca(&args, home);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{text}");
    text.lines()
        .find_map(|l| l.strip_prefix("Block throughput: "))
        .and_then(|v| v.trim_end_matches(" cycles").parse().ok())
        .unwrap_or_else(|| panic!("{text}"))
}

/// Zen 4 renames memory: a 32-bit store and the load back from the same `[rsp+0x30]` pass the
/// value at once, as the embedded data's 1-cycle store round trip says; BHive measured this
/// block at 1.00 cycles here. Its 16-bit twin is not renamed (6.3-cycle round trip).
#[test]
fn memory_renaming_follows_the_measured_round_trip() {
    let home = tempfile::tempdir().expect("tempdir");
    let cycles = |hex: &str| zen4_throughput(hex, &[], home.path());
    // mov eax, [rsp+0x30]; sub eax, 1; mov [rsp+0x30], eax
    let renamed = cycles("8b44243083e80189442430");
    assert!((renamed - 1.0).abs() < 0.1, "{renamed}");
    // mov ax, [rsp+0x30]; sub ax, 1; mov [rsp+0x30], ax
    let forwarded = cycles("668b4424306683e8016689442430");
    assert!(forwarded > 3.0, "{forwarded}");
    // sub qword ptr [rbx+0x108], 1: the read-modify-write chain renamed, 1 cycle.
    let rmw = cycles("4883ab0801000001");
    assert!((rmw - 1.0).abs() < 0.1, "{rmw}");
    // mov rcx, [rbx+0x108]; sub qword ptr [rcx], 1: rcx is loaded anew each iteration, so
    // renaming cannot pair the accesses: plain forwarding (the arch's 6 cycles; BHive's
    // block measured 6.1 here).
    let reloaded = cycles("488b8b0801000048832901");
    assert!((reloaded - 6.0).abs() < 0.1, "{reloaded}");
}

/// Stack synchronization (ZEN4 block set: `add rsp, 8; mov edx, 5; pop rbx; pop rbp`,
/// measured 2.00 cycles here): the pops leave an offset in the stack engine, so the next
/// copy's `add rsp, 8`, which names rsp, first gets a sync µop that rebuilds rsp from the
/// previous `add` (1 cycle), then adds (1 cycle): 2 cycles a copy. Without it, 4 macro-ops
/// over 6 slots: 0.67.
#[test]
fn stack_sync_uops_chain_explicit_rsp_writes() {
    let home = tempfile::tempdir().expect("tempdir");
    let cycles = |extra: &[&str]| zen4_throughput("4883c408ba050000005b5d", extra, home.path());
    let with = cycles(&[]);
    assert!((with - 2.0).abs() < 0.05, "{with}");
    let without = cycles(&["--no-stack-sync"]);
    assert!((without - 0.67).abs() < 0.05, "{without}");
}

/// A stack operation addresses memory at the rsp of the last explicit write plus the stack
/// engine's offset (ZEN4 block set: `mov rax, rbx; lea rsp, [rbp-0x28]; pop rbx; pop r12;
/// pop r13; pop r14; pop r15; pop rbp`, measured 6.50 cycles a copy here): the last pop's
/// address comes from the `lea`, whose rbp the previous copy's last pop loaded, so the
/// copies form a chain through memory. Without that edge the block was port-bound at 2.00;
/// with it the chain binds: the last `pop`'s load (the embedded data has no latency for
/// `pop`, so the arch's 4-cycle L1 latency) and the `lea`, 5 cycles, which the simulation
/// runs at 6.00 (the other pops' loads go first).
#[test]
fn stack_operations_depend_on_the_last_explicit_rsp_write() {
    let home = tempfile::tempdir().expect("tempdir");
    let tp = zen4_throughput("4889d8488d65d85b415c415d415e415f5d", &[], home.path());
    assert!((tp - 6.0).abs() < 0.05, "{tp}");
}

/// A load-op's load is off the chain through its register operand (gauss_seidel1d, gcc -O2,
/// measured 9.00 cycles per iteration here, data/measured/ZEN4_loops.csv):
/// `addsd xmm0, [rdi+rax*8+8]; mulsd xmm0, xmm1; addsd xmm0, [rsi+rax*8];
/// movsd [rdi+rax*8], xmm0; add rax, 1; cmp rax, rcx; jne` carries xmm0 through
/// addsd → mulsd → addsd: 3 + 3 + 3 = 9 cycles (the embedded data's FP add and multiply
/// latencies); the loads (7 cycles) start as soon as `rax` is known. Counting the loads on
/// the chain gave 15.
#[test]
fn load_op_loads_stay_off_the_register_chain() {
    let home = tempfile::tempdir().expect("tempdir");
    let hex = "f20f5844c708f20f59c1f20f5804c6f20f1104c74883c0014839c875e3";
    let tp = zen4_throughput(hex, &[], home.path());
    assert!((tp - 9.0).abs() < 0.1, "{tp}");
}

/// Stores to one array commit one per cycle in a loop, 32 bytes a cycle
/// (testdata/asm/store_width.s, measured 2.00, 1.00, 2.00, 2.00): one 64-byte store per
/// iteration takes two cycles, one 32-byte store a cycle, two stores two.
#[test]
fn stores_to_one_array_commit_one_per_cycle_in_a_loop() {
    let Some((tps, text)) = region_throughputs("store_width.s") else {
        return;
    };
    assert_eq!(tps.len(), 4, "{text}");
    for (got, want) in tps.iter().zip([2.0, 1.0, 2.0, 2.0]) {
        assert!((got - want).abs() < 0.1, "{tps:?}");
    }
}

/// Stores commit to L1 one cache line per cycle (testdata/asm/store_commit.s, measured on
/// Zen 4 with `suaca profile`; the expected figures are the hand count of commit cycles):
/// two 8-byte stores pair only when they write one 64-byte line (1 cycle; two bases or two
/// lines: 2); four alternating between two lines take a cycle each (4), two pairs one
/// cycle each (2), three to one line pair across copies (1.5), one store repeated pairs
/// with itself (0.5); 16- and 32-byte stores never pair (a cycle each: 2), nor do two 8-byte
/// stores from xmm registers (2), while a 4-byte one from xmm pairs with an integer one (1);
/// a loop storing to two arrays takes two cycles where two store ports would allow one.
#[test]
fn stores_commit_one_cache_line_per_cycle() {
    let Some((tps, text)) = region_throughputs("store_commit.s") else {
        return;
    };
    let want = [
        2.0, 1.0, 2.0, 2.0, 2.0, 2.0, 4.0, 2.0, 0.5, 2.0, 1.0, 1.5, 2.0, 1.0, 2.0,
    ];
    assert_eq!(tps.len(), want.len(), "{text}");
    for (k, (got, want)) in tps.iter().zip(want).enumerate() {
        assert!(
            (got - want).abs() < 0.03,
            "region {k}: {got} against {want}\n{text}"
        );
    }
}

/// Two stores share a commit cycle when they write one aligned 32-byte block
/// (testdata/asm/store_blocks.s, measured on Zen 4 with `suaca profile`; by hand: two stores
/// a cycle, and a cycle for each store that writes another block than the store before it):
/// a pair in one block 1, in one 64-byte line but two blocks 2; three stores in a block and
/// one in the next 2 (4 stores, 2 blocks opened), three and three 3; pushes that move the
/// stack 40 bytes a copy open 1.25 blocks a copy, so four take 2 and five 2.5; a store
/// through a loaded index named the same way every copy is the same block (the unrolled
/// policy for addresses not followed), so it pairs with itself and the copy's three
/// instructions take 0.67; a 16-byte store from xmm shares a cycle with a general
/// register's store in its block (1, with two of them 1.5) but not with another from xmm (2).
#[test]
fn stores_pair_within_a_32_byte_block() {
    let Some((tps, text)) = region_throughputs("store_blocks.s") else {
        return;
    };
    let want = [
        1.0, 1.0, 2.0, 2.0, 2.0, 4.0, 2.0, 3.0, 2.0, 2.0, 2.5, 2.5, 0.67, 1.0, 1.5, 2.0,
    ];
    assert_eq!(tps.len(), want.len(), "{text}");
    for (k, (got, want)) in tps.iter().zip(want).enumerate() {
        assert!(
            (got - want).abs() < 0.03,
            "region {k}: {got} against {want}\n{text}"
        );
    }
}

/// A fused `dec; jnz` takes one of Zen 4's four ALUs, a fused `cmp; jne` and a lone `jnz` take
/// none (testdata/asm/branch_alu.s, measured with `suaca profile`; by hand: ALU µops / 4):
/// 3, 4, 5, 7 add chains with `dec; jnz` 1.00, 1.25, 1.50, 2.00; 3 adds, `add rcx`, `cmp;
/// jne` 1.00 (4 ALU µops); `dec; lea; jnz` after 3 adds 1.25, after 2 adds 1.00.
#[test]
fn fused_register_writers_take_an_alu() {
    let Some(tps) = long_run("branch_alu.s", &[]) else {
        return;
    };
    let want = [1.0, 1.25, 1.5, 2.0, 1.0, 1.25, 1.0];
    assert_regions(&tps, &want, 0.015);
    // The port-pressure bound counts the fused pairs the same way.
    let (_, text) = region_throughputs("branch_alu.s").expect("ran once");
    let bounds = bound_lines(&text);
    assert_eq!(bounds.len(), want.len(), "{text}");
    assert!(bounds[1].contains("at least 1.25 cycles"), "{}", bounds[1]);
    assert!(bounds[4].contains("at least 1 cycles"), "{}", bounds[4]);
}

/// A move from the vector unit into a GPR holds all four of Zen 4's integer ALUs
/// (testdata/asm/vector_to_gpr.s; by hand: ALU µops / 4, the move counting 4): `movd` with
/// one `add` chain in a loop 1.25 (measured 1.95–2.00), with two chains 1.50 (1.81–1.88), two
/// `movd` 2.25 (2.89), with `dec; jnz` 1.25 (1.00: the one case the rule makes slower than
/// the hardware), `pextrd` and `cvttsd2si` with two chains 1.75 (1.79, 1.75: 1.50 while the
/// data's two ALU µops of each could share a port in a cycle); unrolled `movq`
/// 1.00 (1.00), with an `add` 1.25 (1.61), two `movq` and an `add` 2.25 (2.36–2.41).
/// `--no-transfer-alus`: the data's ALU µop alone (`movq` 0.50, the loops 1.00).
#[test]
fn vector_to_gpr_moves_hold_the_alus() {
    let Some(tps) = long_run("vector_to_gpr.s", &[]) else {
        return;
    };
    let want = [1.25, 1.5, 2.25, 1.25, 1.75, 1.75, 1.0, 1.25, 2.25];
    assert_regions(&tps, &want, 0.03);
    let off = long_run("vector_to_gpr.s", &["--no-transfer-alus"]).expect("ran once");
    assert!(
        (off[0] - 1.0).abs() < 0.03 && (off[6] - 0.5).abs() < 0.03,
        "{off:?}"
    );
    // The port-pressure bound holds the ALUs the same way.
    let (_, text) = region_throughputs("vector_to_gpr.s").expect("ran once");
    let bounds = bound_lines(&text);
    assert!(bounds[2].contains("at least 2.25 cycles"), "{}", bounds[2]);
}

/// A floating-point compare into the flags holds the four ALUs too
/// (testdata/asm/fp_compare_flags.s; by hand: ALU µops / 4, the compare counting 4):
/// `vucomiss` alone 1.00 (the data's FP pipes alone: 0.50), with two adds 1.50, four 2.00,
/// seven 2.75, `ucomisd` 1.00, with two `vaddps` 1.50 (the FP pipes: 3 µops on FP0-FP3 and
/// the compare's FP2/FP3 µop); `vptest` alone 1.00, `vptest` and `vtestps ymm` with four
/// adds 2.00, `ptest` with two 1.50 (measured 1.46-1.56), `kortestw` alone 1.00 (1.15) and
/// with four adds 2.00; the rest as measured.
/// `--no-transfer-alus`: 0.50 alone.
#[test]
fn fp_compares_into_flags_hold_the_alus() {
    let Some(tps) = long_run("fp_compare_flags.s", &[]) else {
        return;
    };
    let want = [1.0, 1.5, 2.0, 1.5, 1.0, 2.75, 1.0, 2.0, 2.0, 1.5, 1.0, 2.0];
    assert_regions(&tps, &want, 0.03);
    let off = long_run("fp_compare_flags.s", &["--no-transfer-alus"]).expect("ran once");
    assert!((off[0] - 0.5).abs() < 0.03, "{off:?}");
}

/// Function epilogues unrolled (testdata/asm/stack_epilogues.s, measured with `suaca
/// profile` on Zen 4). By hand: `add rsp` after pops gets a sync µop rebuilding rsp from the
/// previous copy's `add` (1 cycle) and adds 1: 2.00 a copy; a reader after the sync (the
/// last region's `add rsp` after `mov rax, [rsp]`) reads the synced rsp, 2.00 too; `add rsp`
/// alone 1.00; two pops alone 0.67 (the AGUs). All as measured except `lea rsp, [rsp+0x18]`
/// (region 5: 1.00 measured, 2.00 predicted, not modelled), which is left out here.
#[test]
fn stack_epilogues_chain_through_the_sync() {
    let Some(tps) = long_run("stack_epilogues.s", &[]) else {
        return;
    };
    let want = [2.0, 1.0, 0.67, 2.0, 2.0, f64::NAN, 2.0, 2.0, 2.0, 2.0];
    assert_regions(&tps, &want, 0.03);
}

/// Lane-selecting extracts and inserts as compilers emit them (immediate 1, the upper lane)
/// run on Zen 4's shuffle pipes (testdata/asm/lane_select.s, measured with `suaca profile`;
/// by hand: shuffle µops / 2 pipes, a 512-bit one 2 µops): six `vpmovzxwd zmm` 6.00, six
/// `vextracti64x4 ymm, zmm, 1` 6.00 (3.00 with the lowest lane the data once measured), both
/// 9.00, three `vextracti128` and three `vinserti128` 3.00 (1.50 before).
#[test]
fn lane_selects_run_on_the_shuffle_pipes() {
    let Some(tps) = long_run("lane_select.s", &[]) else {
        return;
    };
    let want = [6.0, 6.0, 9.0, 3.0];
    assert_regions(&tps, &want, 0.03);
}

/// Shifts by CL do not wait for the flags on Zen 4 (testdata/asm/cl_shifts.s, measured with
/// `suaca profile`; by hand: the shift ALUs, ALU1 and ALU2, two shifts a cycle): two shifts
/// 1.00 cycle per copy, three 1.50 (the flag chain Intel has would give 2.00 and 3.00), a
/// shift and an `add` 1.00.
#[test]
fn cl_shifts_do_not_wait_for_the_flags() {
    let Some(tps) = long_run("cl_shifts.s", &[]) else {
        return;
    };
    let want = [1.0, 1.5, 1.5, 1.0];
    assert_regions(&tps, &want, 0.03);
}

/// An indexed integer store takes two dispatch slots on Zen 4, and both go in one cycle
/// (testdata/asm/indexed_stores.s, measured with `suaca profile`; by hand: six slots a
/// cycle, zero idioms one slot each, the loop's `add` and fused `cmp; jne` two). Store + 3
/// zero idioms is 7 slots: the store never splits, so every sixth cycle leaves one slot
/// empty, 35 slots in 6 cycles, 1.20 (7/6 = 1.17 if it split); 13 slots 2.20; two stores
/// and one zero idiom 1.25. A base-only store, a vector store and a load take one slot.
#[test]
fn indexed_integer_stores_take_two_whole_slots() {
    let Some(tps) = long_run("indexed_stores.s", &[]) else {
        return;
    };
    let want = [1.0, 1.2, 1.333, 2.2, 1.0, 1.167, 1.167, 1.167, 1.25, 1.2];
    assert_regions(&tps, &want, 0.02);
    // Split across cycles, the slots alone: 7/6, 13/6 and 7/6.
    let split = long_run("indexed_stores.s", &["--no-whole-dispatch"]).expect("ran once");
    for (k, want) in [(1, 1.167), (3, 2.167), (8, 1.167)] {
        assert!((split[k] - want).abs() < 0.02, "region {k}: {split:?}");
    }
}

/// A load that store forwarding cannot serve costs 19 cycles on Zen 4, serialized
/// (testdata/asm/forward_fail.s, measured with `suaca profile`; by hand: one failing load a
/// copy waits `memory.store_forward_fail_cycles` after the previous copy's): 8 bytes over two
/// 4-byte stores, over one store and older bytes, 4 bytes over a 1-byte store 19.00 each. A
/// load inside one store forwards: measured 1.00, predicted 0.67 (the AGUs' rate; what holds
/// it to one a cycle is not modelled).
#[test]
fn failed_store_forwarding_serializes_the_loads() {
    let Some(tps) = long_run("forward_fail.s", &[]) else {
        return;
    };
    assert_eq!(tps.len(), 6, "{tps:?}");
    for k in [0, 1, 4, 5] {
        assert!((tps[k] - 19.0).abs() < 0.1, "region {k}: {tps:?}");
    }
    for k in [2, 3] {
        assert!(tps[k] < 1.05, "region {k}: {tps:?}");
    }
}

/// Loads served by the store queue run one a cycle on Zen 4 (testdata/asm/forwarded_loads.s,
/// measured with `suaca profile`; by hand: each such load a cycle after the previous one, the
/// others at three AGUs for two memory operations, 0.67): one store-load pair of an address
/// 1.00 whether renamed or forwarded, of two addresses 0.67, two pairs 2.00.
#[test]
fn served_loads_run_one_a_cycle() {
    let Some(tps) = long_run("forwarded_loads.s", &[]) else {
        return;
    };
    let want = [1.0, 0.67, 1.0, 0.67, 1.0, 1.0, 2.0];
    assert_regions(&tps, &want, 0.04);
}

/// In-lane shuffles run on FP1-FP3 on Zen 4 (testdata/asm/shuffle_ports.s, measured with
/// `suaca profile`; by hand: µops over the pipes they share): four shuffles 4/3 = 1.33; three
/// with two FP adds (FP2/FP3) 5/3 = 1.67; three with two FP multiplies (FP0/FP1) 5/4 = 1.25.
/// The data's interference fit had put them on all four pipes (1.00, 1.25, 1.25).
#[test]
fn shuffles_take_three_fp_pipes() {
    let Some(tps) = long_run("shuffle_ports.s", &[]) else {
        return;
    };
    let mut want = vec![1.333];
    for _ in 0..4 {
        want.extend([1.667, 1.25]);
    }
    assert_regions(&tps, &want, 0.04);
}

/// A stack slot written and read back through rsp is renamed on Zen 4 even when rsp moved
/// between them (testdata/asm/stack_slots.s, measured with `suaca profile`; by hand: the
/// chain is the load's renamed value, one cycle a copy, or the `add`): 1.00 for `sub rsp`,
/// `lea rsp`, 32-bit slots and with an `add` between; through rbp the value is forwarded
/// (measured 5.85; the model's forwarding latency gives 7.00, above 5 here either way).
#[test]
fn stack_slots_are_renamed_through_rsp() {
    let Some(tps) = long_run("stack_slots.s", &[]) else {
        return;
    };
    assert_eq!(tps.len(), 5, "{tps:?}");
    for k in [0, 1, 3, 4] {
        assert!((tps[k] - 1.0).abs() < 0.03, "region {k}: {tps:?}");
    }
    assert!(tps[2] > 5.0, "{tps:?}");
}

/// A pushed value popped back is renamed on Zen 4, one cycle from push to pop
/// (testdata/asm/stack_renaming.s, measured with `suaca profile`; by hand): push rbp; mov
/// [rdi+72], 0; mov rbp, rsp; pop rbp 2.0 (its two stores to two lines, store commit),
/// push rax; pop rax 1.0 and the same around an add or through rcx 1.0 (the push→pop chain
/// at 1 cycle; forwarding would take 6 or more).
#[test]
fn pushed_values_are_renamed() {
    let Some(tps) = long_run("stack_renaming.s", &[]) else {
        return;
    };
    assert_eq!(tps.len(), 4, "{tps:?}");
    for (k, (got, want)) in tps.iter().zip([2.0, 1.0, 1.0, 1.0]).enumerate() {
        assert!(
            (got - want).abs() < 0.015,
            "region {k}: {got} against {want}: {tps:?}"
        );
    }
}

/// A locked read-modify-write goes through the cache (testdata/asm/locked.s, measured with
/// `suaca profile` on Zen 4): `lock add dword ptr [rdi], 1` repeated chains at the arch's
/// store forwarding latency, 6 cycles a copy by hand (measured 6.2-7.4; the plain form, whose
/// chain Zen 4 renames, 1.00). Locked operations to two addresses measure 15.0 a copy, which
/// the model does not reach (no unit holds one locked operation at a time): 6.00 here.
#[test]
fn locked_read_modify_writes_are_not_renamed() {
    let home = tempfile::tempdir().expect("tempdir");
    let cycles = |hex: &str| zen4_throughput(hex, &[], home.path());
    assert!((cycles("f0830701") - 6.0).abs() < 0.05);
    assert!((cycles("830701") - 1.0).abs() < 0.05);
    // xchg [rdi], rax is locked by itself; the data's 8 cycles (measured 7.5) stay.
    assert!((cycles("48870f") - 8.0).abs() < 0.05);
}

/// A read-modify-write chain through one location takes a cycle per link on Zen 4
/// (testdata/asm/rmw_chain.s, measured with `suaca profile`: 1.00 for each block): the data's
/// exact memory-to-memory latency (1) counts, not the register input's upper bound (1.69,
/// which made `or [rsp+32], eax` 2.00). Without the memory chain they would run at the
/// store rate (0.5), so the chain is what the test checks.
#[test]
fn read_modify_write_chains_take_a_cycle() {
    let Some(tps) = long_run("rmw_chain.s", &[]) else {
        return;
    };
    assert_eq!(tps.len(), 4, "{tps:?}");
    for (k, got) in tps.iter().enumerate() {
        assert!((got - 1.0).abs() < 0.015, "region {k}: {got}: {tps:?}");
    }
    let free = long_run("rmw_chain.s", &["--no-mem-deps"]).expect("ran once");
    assert!((free[0] - 0.5).abs() < 0.015, "{free:?}");
}

/// A load into an 8- or 16-bit register merges with the register's old value in its last
/// cycle (testdata/asm/partial_load.s, measured with `suaca profile`: 1.00 for each block):
/// the chain through the kept upper bytes is a cycle per copy, not the load's latency
/// (5 or more, what the model gave before).
#[test]
fn partial_loads_merge_in_a_cycle() {
    let Some(tps) = long_run("partial_load.s", &[]) else {
        return;
    };
    assert_eq!(tps.len(), 4, "{tps:?}");
    for (k, got) in tps.iter().enumerate() {
        assert!((got - 1.0).abs() < 0.015, "region {k}: {got}: {tps:?}");
    }
}

/// Two vector loads per cycle of 32 bytes each (testdata/asm/vector_loads.s, measured 2.27
/// and 2.10): two 64-byte loads per iteration hold the two vector-load ports two cycles
/// (4 chunks / 2 ports), four 32-byte loads too; the three AGUs alone would allow 1.33.
#[test]
fn vector_loads_take_two_32_byte_ports() {
    let Some((tps, text)) = region_throughputs("vector_loads.s") else {
        return;
    };
    assert_eq!(tps.len(), 2, "{text}");
    for got in &tps {
        assert!((got - 2.0).abs() < 0.1, "{tps:?}");
    }
}

/// Branches (issue #14 item 2): every direct branch form has one macro-op on the branch
/// pipes; a Jcc, measured not taken, runs two per cycle; JMP (always taken) about one.
#[test]
fn branches_have_uops_ports_and_throughput() {
    let recs = records();
    let get = |s: &str| {
        let r = recs
            .iter()
            .find(|r| r.string == s)
            .unwrap_or_else(|| panic!("{s} missing"));
        base(r).cloned().unwrap()
    };
    let cc = [
        "JB", "JBE", "JL", "JLE", "JNB", "JNBE", "JNL", "JNLE", "JNO", "JNP", "JNS", "JNZ", "JO",
        "JP", "JS", "JZ",
    ];
    for c in cc {
        for rel in ["Rel8", "Rel32"] {
            let name = format!("{c} ({rel})");
            let m = get(&name);
            assert_eq!(m.uops, Some(1), "{name}");
            let ports = m.ports.as_ref().map(|p| p.to_string());
            assert_eq!(ports.as_deref(), Some("1*BR01"), "{name}");
            let tp = m.tp_unrolled.unwrap();
            assert!((tp - 0.5).abs() <= 0.05, "{name}: {tp}");
        }
    }
    for name in ["JMP (Rel8)", "JMP (Rel32)", "JRCXZ (Rel8)", "LOOP (Rel8)"] {
        let m = get(name);
        assert_eq!(m.uops, Some(1), "{name}");
        assert!(m.ports.is_some(), "{name}");
    }
    let jmp = get("JMP (Rel32)").tp_unrolled.unwrap();
    assert!((0.9..1.5).contains(&jmp), "taken JMP: {jmp}");
}

/// A compiled loop's tail: `dec rcx; jnz` and `cmp rax, rcx; jnz` are matched, and each pair
/// is one macro-op: `cmp; jnz` on the branch pipes, `dec; jnz` on the ALUs (branch_alu.s).
#[test]
fn loop_tails_are_one_fused_macro_op() {
    let home = tempfile::tempdir().expect("tempdir");
    for (hex, ports) in [
        ("48ffc975fb", "1*{ALU0,ALU1,ALU2,ALU3}"),
        ("4839c875fb", "1*{ALU0,BR1}"),
    ] {
        let out = suaca(
            &["--arch", "ZEN4", "--width", "0", "--hex", hex],
            home.path(),
        );
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{hex}: {text}");
        assert!(!text.contains("no data"), "{hex}: {text}");
        assert!(text.contains("1 fused µops / 6 per cycle"), "{hex}: {text}");
        assert!(text.contains("macro-fused pairs: 0+1"), "{hex}: {text}");
        assert!(
            text.contains(&format!("port usage: {ports}")),
            "{hex}: {text}"
        );
    }
}

/// The fences have data (issue #14 item 2; measured again 2026-11-26 with one dispatch slot,
/// as no filler passes a fence: data/measured/README.md) and each runs for its measured
/// throughput: `lfence; add rax, rbx` 17 cycles a copy, `mfence; add rax, rbx` 58, both bound
/// by the serializing row.
#[test]
fn fences_have_data_and_run_one_at_a_time() {
    let home = tempfile::tempdir().expect("tempdir");
    for (hex, cycles) in [("0faee84801d8", "17"), ("0faef04801d8", "58")] {
        let out = suaca(&["--arch", "ZEN4", "--hex", hex], home.path());
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{text}");
        assert!(!text.contains("no data"), "{hex}: {text}");
        assert!(
            text.contains(&format!(
                "at least {cycles} cycles per iteration, bound by serializing"
            )),
            "{hex}: {text}"
        );
    }
}

/// Forms compiled loops use (issue #14 item 2) have data in the analyzer.
#[test]
fn loop_forms_have_data() {
    let home = tempfile::tempdir().expect("tempdir");
    for (hex, asm) in [
        ("f20f1004c7", "movsd xmm0, [rdi+rax*8]"),
        ("f20f1107", "movsd [rdi], xmm0"),
        ("f20f10c1", "movsd xmm0, xmm1"),
        ("f30f1007", "movss xmm0, [rdi]"),
        ("f30f11c1", "movss xmm1, xmm0 (0F 11)"),
        ("0f180f", "prefetcht0 [rdi]"),
        ("0f1817", "prefetcht1 [rdi]"),
        ("0f181f", "prefetcht2 [rdi]"),
        ("0f1807", "prefetchnta [rdi]"),
        ("488707", "xchg [rdi], rax"),
        ("0faef8", "sfence"),
        ("4080c605", "add sil, 5"),
        ("4180fc05", "cmp r12b, 5"),
        ("41f6c528", "test r13b, 40"),
        ("e2fe", "loop"),
        ("ebfe", "jmp rel8"),
    ] {
        let out = suaca(&["--arch", "ZEN4", "--hex", hex], home.path());
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{asm}: {text}");
        assert!(!text.contains("no data"), "{asm}: {text}");
    }
}

/// Gathers and scatters (issue #14 item 2): every AVX2 and AVX-512 form this host runs is in
/// the embedded data with a throughput and µops, every gather with latencies from its index
/// and its base; the analyzer gives every gather and scatter a line with data (16-element
/// forms measure 85–96 µops: those beyond the 64 the engine tracks per instruction run as
/// port-only parts of the line), and gcc's `-O3 -march=native` gather_f64 loop
/// (`vgatherdpd zmm2{k2}, [rsi+ymm0*8]`, measured 21.68 cycles per iteration,
/// data/measured/ZEN4_loops.csv) and gather_i32 loop (`vpgatherdd zmm0{k2}, [rsi+zmm1*4]`,
/// 90 µops, measured 22.16) their gathers' cycles (4.00 and 2.00 without them).
#[test]
fn gathers_and_scatters_have_data() {
    let recs = records();
    let vsib: Vec<&InstrRecord> = recs.iter().filter(|r| r.string.contains("VSIB_")).collect();
    let count = |p: &str| vsib.iter().filter(|r| r.string.starts_with(p)).count();
    assert_eq!(count("VPGATHER") + count("VGATHER"), 40);
    assert_eq!(count("VPSCATTER") + count("VSCATTER"), 24);
    for r in &vsib {
        let m = base(r).unwrap_or_else(|| panic!("{}", r.string));
        assert!(m.tp_unrolled.is_some_and(|t| t >= 1.0), "{}", r.string);
        assert!(m.uops.is_some_and(|u| u > 1), "{}", r.string);
        if r.string.contains("GATHER") {
            let lats = &r.archs[0].measurement.as_ref().unwrap().latencies;
            assert!(
                lats.iter().any(|l| l.cycles_addr_index.is_some()),
                "{}",
                r.string
            );
            assert!(lats.iter().any(|l| l.cycles_addr.is_some()), "{}", r.string);
        }
    }
    let home = tempfile::tempdir().expect("tempdir");
    let run = |hex: &str| {
        let out = suaca(&["--arch", "ZEN4", "--hex", hex], home.path());
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{hex}: {text}");
        text
    };
    for (hex, asm) in [
        ("62f2fd4a9214c6", "vgatherdpd zmm2{k2}, [rsi+ymm0*8]"),
        ("c4e2759004ae", "vpgatherdd ymm0, [rsi+ymm5*4], ymm1"),
        ("62f2fd4aa21cd7", "vscatterdpd [rdi+ymm2*8]{k2}, zmm3"),
        // Told apart by the index width alone (`VSIB_XMM` / `VSIB_YMM`).
        ("62f27d09930c90", "vgatherqps xmm1{k1}, [rax+xmm2*4]"),
        ("62f27d29930c90", "vgatherqps xmm1{k1}, [rax+ymm2*4]"),
        ("c4e265910c90", "vpgatherqd xmm1, [rax+ymm2*4], xmm3"),
        ("62f27d4a90048e", "vpgatherdd zmm0{k2}, [rsi+zmm1*4]"),
    ] {
        let text = run(hex);
        assert!(!text.contains("no data"), "{asm}: {text}");
    }
    // gather_f64 and gather_i32 (gcc -O3 -march=native).
    for hex in [
        "c5fe6f040262f17e486f1c02c5f990d1c5f990d962f2fd4a9214c662f3654843c3ee62f2fd4b920cc662d1fd481154450062d1fd48114c45014883c0404839c775be",
        "62f17e486f0c02c5f890d162f27d4a90048e62f17e487f04074883c0404939c075de",
    ] {
        let text = run(hex);
        assert!(!text.contains("no data"), "{text}");
        let cycles: f64 = text
            .lines()
            .find_map(|l| l.strip_prefix("Block throughput: "))
            .and_then(|l| l.split_whitespace().next())
            .and_then(|c| c.parse().ok())
            .expect("block throughput");
        assert!((15.0..30.0).contains(&cycles), "{cycles}: {text}");
    }
}
