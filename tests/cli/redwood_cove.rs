//! Where Redwood Cove (MTL-P) differs from Golden Cove (ADL-P) in its arch description:
//! memory renaming and store forwarding (`memory.renames_indexed`,
//! `memory.loop_same_name_aliases`) and port assignment at issue (`scheduler.port_assignment`);
//! fixture data `testdata/xml/redwood_cove.xml`, the same numbers on both archs.
#![forbid(unsafe_code)]

use crate::model_details::{near, throughput_on};

/// Block throughput of `hex` on `arch` with the fixture data.
fn throughput(arch: &str, hex: &str) -> f64 {
    throughput_with(arch, hex, &[])
}

/// The same with `extra` arguments.
fn throughput_with(arch: &str, hex: &str, extra: &[&str]) -> f64 {
    throughput_on("xml/redwood_cove.xml", arch, hex, extra)
}

/// `add qword ptr [rdi+rcx*8], 1` unrolled: every copy reads the last one's bytes (rcx
/// never changes). Renamed, the value is there at the data's memory-to-memory latency: 1.00
/// a copy on ADL-P. Redwood Cove renames no indexed access, so the value goes through store
/// forwarding, MTL-P's `store_forward_latency` of 6: 6.00 a copy. Through `[rdi]` alone both
/// rename: 1.00.
#[test]
fn redwood_cove_forwards_an_indexed_read_modify_write() {
    let indexed = "488304cf01";
    assert!(near(throughput("ADL-P", indexed), 1.0));
    assert!(near(throughput("MTL-P", indexed), 6.0));
    let base_only = "48830701";
    assert!(near(throughput("ADL-P", base_only), 1.0));
    assert!(near(throughput("MTL-P", base_only), 1.0));
}

/// A histogram loop, `mov rax, [rsi]; add qword ptr [rdi+rax*8], 1; add rsi, 8; cmp rsi,
/// rdx; jnz`: the bin is a loaded value, so whether one iteration's increment reads the
/// last one's is unknown. On ADL-P (loop policy: they never alias) nothing chains the
/// iterations: two loads at three a cycle, four fused µops at six, one taken branch a cycle
/// — 1.00. On MTL-P the same-named access is taken to alias (repeated bins, as in the
/// measured loop set's constant data): each increment waits for the last one's forwarded
/// store, 6 cycles — 6.00.
#[test]
fn a_loaded_bin_chains_increments_on_redwood_cove() {
    let histogram = "488b06488304c7014883c6084839d675ef";
    assert!(near(throughput("ADL-P", histogram), 1.0));
    assert!(near(throughput("MTL-P", histogram), 6.0));
}

/// clang's `max_i32` loop (`-O2 -march=x86-64-v2`): four `movdqu` loads and four `pmaxsd`
/// in two chains of two (`xmm0 → xmm2 → xmm0`, `xmm1 → xmm3 → xmm1`), `add rdx, 16; add
/// rax, -2; jnz`. Both the chains (two 1-cycle steps an iteration) and the ports (four µops
/// on p0/p1) allow 2.00, which ADL-P predicts, choosing ports at dispatch. MTL-P binds each
/// µop to a port when it issues (the Skylake family's rule), so the chains' µops sometimes
/// queue behind each other on one port: more than 2.5 (the Intel host measures 3.1,
/// testdata/asm/port_binding.s); with `--dispatch-port-assignment` 2.00 again.
#[test]
fn redwood_cove_binds_ports_at_issue() {
    let max_i32 = "f30f6f1497660f383dd0f30f6f5c9710660f383dd9f30f6f449720660f383dc2\
                   f30f6f4c9730660f383dcb4883c2104883c0fe75cb";
    assert!(near(throughput("ADL-P", max_i32), 2.0));
    let bound = throughput("MTL-P", max_i32);
    assert!(bound > 2.5, "{bound}");
    let at_dispatch = throughput_with("MTL-P", max_i32, &["--dispatch-port-assignment"]);
    assert!(near(at_dispatch, 2.0));
}

/// `vaddps ymm1, ymm2, [rsi+rax]` (indexed: two issue slots, one µop from the decoders),
/// k nops, `add rax, 32; cmp rdi, rax; jnz`: k + 4 slots an iteration. ADL-P issues them six
/// a cycle across iterations: 7/6, 8/6, 9/6 for k = 3, 4, 5. On MTL-P a loop with a split
/// µop is issued in groups that stop at its end, unrolled until the last group is at least
/// half full (testdata/asm/unlaminated_loops.s): 7 slots leave 1, three times 21 slots in 4
/// groups (4/3, measured 1.35); 8 leave 2, twice 16 in 3 (3/2, measured 1.51); 9 leave 3,
/// once in 2 (measured 2.02).
#[test]
fn redwood_cove_issues_split_loops_in_whole_groups() {
    let loops = [
        ("c5ec580c069090904883c0204839c775ef", 7.0 / 6.0, 4.0 / 3.0),
        ("c5ec580c06909090904883c0204839c775ee", 8.0 / 6.0, 1.5),
        ("c5ec580c0690909090904883c0204839c775ed", 9.0 / 6.0, 2.0),
    ];
    for (hex, golden_cove, redwood_cove) in loops {
        let near_to = |got: f64, want: f64| (got - want).abs() < 0.01;
        assert!(near_to(throughput("ADL-P", hex), golden_cove), "{hex}");
        assert!(near_to(throughput("MTL-P", hex), redwood_cove), "{hex}");
        // `--no-lsd` turns the rule off: the issue width's slots / 6 again.
        let no_lsd = throughput_with("MTL-P", hex, &["--no-lsd"]);
        assert!(near_to(no_lsd, golden_cove), "{hex}: {no_lsd}");
    }
}

/// Four independent `vpermt2ps ymm, ymm1, ymm0` and `add rax, 1`: uops.info's MTL-P data (and so the
/// fixture) has no AVX-512 form; suaca's own measurement of Redwood Cove
/// (`data/measured/MTL-P.xml.zst`, a supplement under whatever source has MTL-P) fills it
/// in: one µop on p5, so four cycles a pass, each line noted as our measurement. ADL-P has no
/// supplement: the lines have no data.
#[test]
fn our_measurements_fill_the_avx512_forms_of_mtl_p() {
    let permutes = "62f275287fe062f275287fe862f275287ff062f275287ff84883c001";
    assert!(near(throughput("MTL-P", permutes), 4.0));
    let warnings = |arch: &str| -> Vec<String> {
        let out = crate::model_details::run_on("xml/redwood_cove.xml", arch, permutes, &["--json"]);
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        report["regions"][0]["warnings"]
            .as_array()
            .expect("warnings")
            .iter()
            .map(|w| w.as_str().expect("a string").to_string())
            .collect()
    };
    let own = warnings("MTL-P");
    assert_eq!(own.len(), 4, "{own:?}");
    assert!(own.iter().all(|w| w
        .contains("the MTL-P data has no `VPERMT2PS (YMM, YMM, YMM)` for `vpermt2ps ymm")
        && w.ends_with("suaca's own measurement on `Intel(R) Xeon(R) Processor` is used")));
    let adl = warnings("ADL-P");
    assert_eq!(adl.len(), 4, "{adl:?}");
    assert!(
        adl.iter().all(|w| w.contains("no data for `vpermt2ps")),
        "{adl:?}"
    );
}

/// Six loads of `[rdi]`, then the same alternating `[rdi]` and `[rdi+8]`: Golden Cove's
/// three load ports read three a cycle (2.00 a pass on ADL-P, which has no bank rule).
/// Redwood Cove's L1 bank serves two loads a cycle whatever their lines
/// (`memory.l1_loads_per_bank`, measured with testdata/asm/load_banks.s: one address 30.2
/// cycles for 60 loads, offsets 0 and 8 20.0): one address 3.00, two banks 2.00.
#[test]
fn an_l1_bank_serves_two_loads_a_cycle_on_redwood_cove() {
    let one_address = "488b07488b0f488b17488b1f488b37488b07";
    let two_banks = "488b07488b4f08488b17488b5f08488b37488b4708";
    assert!(near(throughput("ADL-P", one_address), 2.0));
    assert!(near(throughput("MTL-P", one_address), 3.0));
    assert!(near(throughput("MTL-P", two_banks), 2.0));
    assert!(near(
        throughput_with("MTL-P", one_address, &["--no-bank-conflicts"]),
        2.0
    ));
}

/// A 16-byte load at `[rdi+56]` reads bytes 56..72 of the base taken as line-aligned: it
/// crosses a line. On Redwood Cove a split load holds every load port for a cycle
/// (`memory.load_split_cost = 3`, testdata/asm/line_splits.s: 1.09-1.13 cycles a split
/// load): with two aligned loads in other banks (`[rdi+128]`, `[rdi+144]`) a copy takes
/// 3 + 2 load-port cycles on 3 ports, 5/3. ADL-P gives no cost: three loads on three
/// ports, 1.00; so does MTL-P with `--no-line-splits`.
#[test]
fn a_load_across_a_line_holds_every_load_port_on_redwood_cove() {
    let block = "f30f6f4738f30f6f8f80000000f30f6f9790000000";
    assert!(near(throughput("ADL-P", block), 1.0));
    let split = throughput("MTL-P", block);
    assert!((split - 5.0 / 3.0).abs() < 0.05, "MTL-P {split}");
    assert!(near(
        throughput_with("MTL-P", block, &["--no-line-splits"]),
        1.0
    ));
}

/// `movdqu [rdi+56], xmm0` repeated: every copy writes two lines. Redwood Cove commits a
/// line a cycle (`memory.store_split_cost = 2`; four split stores 8.00 cycles, aligned
/// ones in four lines 4.00): two cycles a copy. At `[rdi+48]` the stores stay in one line
/// and pair, two a cycle: 0.50, as on ADL-P, which commits without the line rule.
#[test]
fn a_store_across_a_line_commits_twice_on_redwood_cove() {
    let split = "f30f7f4738";
    let aligned = "f30f7f4730";
    assert!(near(throughput("MTL-P", split), 2.0));
    assert!(near(throughput("MTL-P", aligned), 0.5));
    assert!(near(throughput("ADL-P", split), 0.5));
}

/// Redwood Cove's vector bypass (`scheduler.vector_bypass`; testdata/asm/vector_bypass.s
/// has the host's readings): loops `A; B; add rax, 32; cmp rax, rdx; jnz` with the fixture's
/// `vmulpd` (p0/p1, latency 4), `vaddpd` (p1/p5, 2), `vpminsd` (p0/p1, 1) and `vpalignr`
/// (p5, 1); ADL-P has no such rule.
/// - `vmulpd ymm1, ymm4, ymm3; vpminsd ymm2, ymm2, ymm1`: the chain is the one-cycle
///   `vpminsd`, which reads an FMA unit's result on port 0 or 1: a cycle late, 2.00 (ADL-P
///   and `--no-vector-bypass` 1.00; the host 2.00).
/// - The same into `vpalignr` (port 5): on time, about 1.00 (the host 1.00).
/// - `vpminsd ymm1, ymm4, ymm3; vmulpd ymm2, ymm2, ymm1`: the chain is `vmulpd`, 4, which
///   reads an ALU's result: 5.00 (ADL-P 4.00; the host 4.00 for its latency of 3).
/// - `vaddpd ymm1, ymm4, ymm3; vpalignr ymm2, ymm2, ymm1, 8`: an FP adder's result is late
///   on port 5 too: 2.00 (ADL-P 1.00; the host 2.00).
/// - `vmulpd ymm2, ymm2, ymm3; vpminsd ymm2, ymm2, ymm4`: one chain through both, 4 + 1
///   and a cycle each way: 7.00 (ADL-P 5.00; the host 6.00 for 3 + 1 + 2).
///
/// A shuffle (`vpshufb`, p1/p5) is no vector ALU: after `vmulpd` its chain is on time (the
/// host 1.00), and `vmulpd` after it too (4.00; the host 3.00 for its 3): the same as
/// without the rule.
#[test]
fn redwood_cove_delays_vector_results_between_fp_units_and_alus() {
    let cases = [
        ("c5dd59cbc4e26d39d14883c0204839d075ee", 2.0, 1.0),
        ("c5dd59cbc4e36d0fd1084883c0204839d075ed", 1.0, 1.0),
        ("c4e25d39cbc5ed59d14883c0204839d075ee", 5.0, 4.0),
        ("c5dd58cbc4e36d0fd1084883c0204839d075ed", 2.0, 1.0),
        ("c5ed59d3c4e26d39d44883c0204839d075ee", 7.0, 5.0),
    ];
    // Ports bound at issue cost the one-cycle loops up to a tenth.
    let near_to = |got: f64, want: f64| got >= want - 0.01 && got <= want + 0.1;
    for (hex, redwood_cove, golden_cove) in cases {
        let mtl = throughput("MTL-P", hex);
        assert!(near_to(mtl, redwood_cove), "{hex}: {mtl}");
        let adl = throughput("ADL-P", hex);
        assert!(near_to(adl, golden_cove), "{hex}: {adl}");
        let off = throughput_with("MTL-P", hex, &["--no-vector-bypass"]);
        assert!(near_to(off, golden_cove), "{hex}: {off}");
    }
    let shuffles = [
        ("c5dd59cbc4e26d00d14883c0204839d075ee", 1.0),
        ("c4e25d00cbc5ed59d14883c0204839d075ee", 4.0),
    ];
    for (hex, chain) in shuffles {
        let mtl = throughput("MTL-P", hex);
        assert!(mtl >= chain - 0.01 && mtl <= chain + 0.15, "{hex}: {mtl}");
        let off = throughput_with("MTL-P", hex, &["--no-vector-bypass"]);
        assert!((mtl - off).abs() < 0.005, "{hex}: {mtl} against {off}");
    }
}

/// The port row counts the 256-bit register writes the simulation puts on MTL-P's two
/// vector-write ports (docs/model.md "256-bit results"): four `vaddps ymm, ymm, [rsi+k]`
/// write eight times (the loaded value and the sum each), four µops on `VW0`/`VW1`, two
/// cycles on each beside four µops on p1/p5; ADL-P has no such ports.
#[test]
fn the_port_row_counts_vector_writes_on_redwood_cove() {
    let adds = "c5ec580ec5ec585e20c5ec584640c5ec586660";
    let usage = |arch: &str| -> String {
        let out = crate::model_details::run_on("xml/redwood_cove.xml", arch, adds, &["--json"]);
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        let rows = report["regions"][0]["bounds"]["rows"]
            .as_array()
            .expect("rows")
            .clone();
        let ports = rows
            .iter()
            .find(|r| r["kind"] == "ports")
            .expect("ports row");
        format!("{} {}", ports["inputs"][0]["value"], ports["detail"])
    };
    let mtl = usage("MTL-P");
    assert!(mtl.contains("4*{VW0,VW1}"), "{mtl}");
    assert!(mtl.contains("pVW0 2, pVW1 2"), "{mtl}");
    let adl = usage("ADL-P");
    assert!(!adl.contains("VW"), "{adl}");
}
