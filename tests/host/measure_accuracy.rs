//! Accuracy of `suaca measure` on the host (issue #5 item 6), for Zen 4 reference values:
//! latencies add 1, imul r64 3, `mov rax, [rax]` 4, mulsd 3, vfmadd231pd 4; throughputs add
//! 0.25, imul 1, loads 0.33, vaddpd ymm 0.5 — all within ±0.02 cycles and reproducible between
//! two runs. Runs only on x86-64 Linux on an AMD family 19h model 10h–1Fh/60h–7Fh/A0h–AFh CPU
//! (Zen 4) with a stable TSC; skips with a note otherwise.
#![forbid(unsafe_code)]

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
use crate::common;

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
mod host {
    use super::common::{reference_value as value, BUSY_RETRIES, ZEN4_REFERENCE as EXPECTED};
    use suaca::measure::{run, MeasureConfig, NoProgress};
    use suaca::uopsxml::{read_file, ArchFilter, InstrRecord};

    const FILTER: &str = r"^(ADD_01 \(R64, R64\)|IMUL \(R64, R64\)|MOV \(R64, M64\)|MULSD \(XMM, XMM\)|VFMADD231PD \(YMM, YMM, YMM\)|VADDPD \(YMM, YMM, YMM\))$";

    fn is_zen4() -> bool {
        suaca::uarch::host::detect() == Some("ZEN4")
    }

    fn once(dir: &std::path::Path, tag: &str) -> Option<Vec<InstrRecord>> {
        measure(dir, tag, FILTER)
    }

    fn measure(dir: &std::path::Path, tag: &str, filter: &str) -> Option<Vec<InstrRecord>> {
        let _one = crate::common::timing_lock();
        let out = dir.join(format!("acc-{tag}.xml"));
        let cfg = MeasureConfig {
            out: out.clone(),
            filter: Some(filter.into()),
            arch: Some("ZEN4".into()),
            calib_retries: BUSY_RETRIES,
            ..MeasureConfig::default()
        };
        match run(cfg, &mut NoProgress) {
            Ok(_) => Some(read_file(&out, &ArchFilter::All).unwrap()),
            Err(e) => crate::common::busy_or_panic(e),
        }
    }

    /// PUSH and POP move rsp in the kernels (the harness puts it back each pass) and LEA is
    /// measured per addressing form: they run without a fault, and on Zen 4 at its store,
    /// load and ALU rates (0.5, 0.33, 0.25 cycles), one macro-op each.
    #[test]
    fn stack_and_lea_kernels() {
        let dir = tempfile::tempdir().unwrap();
        let filter = r"^(PUSH_50 \(R64\)|POP_58 \(R64\)|LEA_B_D8 \(R64\))$";
        let Some(recs) = measure(dir.path(), "stack", filter) else {
            return;
        };
        assert_eq!(
            recs.len(),
            3,
            "{:?}",
            recs.iter().map(|r| &r.string).collect::<Vec<_>>()
        );
        for (name, want) in [
            ("PUSH_50 (R64)", 0.5),
            ("POP_58 (R64)", 1.0 / 3.0),
            ("LEA_B_D8 (R64)", 0.25),
        ] {
            let m = value_of(&recs, name);
            let tp = m.base.tp_unrolled.expect("throughput");
            assert!(tp > 0.0, "{name}: {tp}");
            if is_zen4() {
                assert!((tp - want).abs() <= 0.02, "{name}: {tp}");
                assert_eq!(m.base.uops, Some(1), "{name}");
            }
        }
    }

    /// Gathers and scatters (issue #14 item 2) run with their mask refilled and their index
    /// inside the buffer: no fault, and on Zen 4 the embedded data's values (the AVX2 gather
    /// of 8 dwords 7.75 cycles, 46 µops; the 16-element scatter 20.54 cycles, 95 µops): µops
    /// within 10 %, throughput from 10 % below to 20 % above (the scatter ran at 20.5 or 23.0
    /// cycles in runs here; noise only slows). Skips with a note without AVX2 and AVX-512F.
    #[test]
    fn gather_and_scatter_kernels() {
        let flags = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let has = |f: &str| {
            flags
                .lines()
                .find(|l| l.starts_with("flags"))
                .is_some_and(|l| l.split_whitespace().any(|w| w == f))
        };
        if !(has("avx2") && has("avx512f")) {
            eprintln!("skipped: the CPU lacks AVX2 or AVX-512F (no gathers and scatters to run)");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let filter = r"^(VPGATHERDD \(YMM, VSIB_YMM, YMM\)|VSCATTERDPS \(VSIB_ZMM, K, ZMM\))$";
        let Some(recs) = measure(dir.path(), "vsib", filter) else {
            return;
        };
        assert_eq!(recs.len(), 2);
        for (name, tp_want, uops_want) in [
            ("VPGATHERDD (YMM, VSIB_YMM, YMM)", 7.75, 46.0),
            ("VSCATTERDPS (VSIB_ZMM, K, ZMM)", 20.54, 95.0),
        ] {
            let m = value_of(&recs, name);
            let tp = m.base.tp_unrolled.expect("throughput");
            assert!(tp > 1.0, "{name}: {tp}");
            if is_zen4() {
                let uops = m.base.uops.expect("uops") as f64;
                assert!((0.9..=1.2).contains(&(tp / tp_want)), "{name}: {tp}");
                assert!((uops / uops_want - 1.0).abs() <= 0.1, "{name}: {uops}");
            } else {
                eprintln!("{name}: {tp} cycles; values checked on Zen 4 only");
            }
        }
    }

    /// `suaca measure --machine` decides the pipeline rules of the arch description by
    /// measurement (issue #16 item 3): on Zen 4 all seven are yes (NOPs without a slot, the
    /// fused `dec; jne` on an ALU, vector-to-GPR moves holding the ALUs, store commit by line,
    /// stack renaming, two-slot indexed stores, whole-instruction dispatch), as the
    /// `testdata/asm` fixtures measured by hand, and the TOML written
    /// loads as an arch with them. Another CPU prints its answers and skips the check.
    #[test]
    fn machine_rules_are_measured() {
        let _one = crate::common::timing_lock();
        let dir = tempfile::tempdir().unwrap();
        let toml = dir.path().join("machine.toml");
        let cfg = MeasureConfig {
            out: dir.path().join("m.xml"),
            filter: Some(r"^ADD_01 \(R64, R64\)$".into()),
            arch: Some("ZEN4".into()),
            machine_out: Some(toml.clone()),
            calib_retries: BUSY_RETRIES,
            ..MeasureConfig::default()
        };
        let out = match run(cfg, &mut NoProgress) {
            Ok(out) => out,
            Err(e) => {
                crate::common::busy_or_panic::<()>(e);
                return;
            }
        };
        let m = out.machine.expect("machine parameters");
        let rules = [
            m.nops_take_no_slot,
            m.fused_writer_on_alu,
            m.vector_to_gpr_holds_alus,
            m.store_line_pairs,
            m.stack_renaming,
            m.indexed_integer_stores,
            m.whole_instruction_dispatch,
        ];
        eprintln!("rules {rules:?}: {:#?}", m.rule_evidence);
        // Whole-instruction dispatch is asked only where an indexed store takes two slots
        // (this Intel host of the Golden Cove kind read one, 0.834 against 0.834, in one
        // run of several): otherwise it stays undecided.
        let asked = if m.indexed_integer_stores == Some(false) {
            &rules[..6]
        } else {
            &rules[..]
        };
        assert!(asked.iter().all(Option::is_some), "{:?}", m.rule_evidence);
        let arch = suaca::uarch::from_toml_str(&std::fs::read_to_string(&toml).unwrap()).unwrap();
        assert_eq!(arch.memory.stack_renaming, m.stack_renaming);
        assert_eq!(arch.memory.store_pair_bytes, m.store_pair_bytes);
        if is_zen4() {
            assert_eq!(rules, [Some(true); 7], "{:?}", m.rule_evidence);
            // Stores pair within a 32-byte block there (testdata/asm/store_blocks.s).
            assert_eq!(m.store_pair_bytes, Some(32), "{:?}", m.rule_evidence);
            // Failed forwarding costs 19 cycles there (testdata/asm/forward_fail.s).
            assert_eq!(
                m.store_forward_fail_cycles,
                Some(19),
                "{:?}",
                m.rule_evidence
            );
            // Shifts by CL do not wait for the flags there (testdata/asm/cl_shifts.s).
            assert_eq!(m.cl_shifts_read_flags, Some(false), "{:?}", m.rule_evidence);
        } else {
            eprintln!("skipped: the rules are checked on Zen 4 only (not this CPU)");
        }
    }

    fn value_of<'a>(recs: &'a [InstrRecord], name: &str) -> &'a suaca::uopsxml::Measurement {
        recs.iter()
            .find(|r| r.string == name)
            .and_then(|r| r.archs.first()?.measurement.as_ref())
            .unwrap_or_else(|| panic!("{name} not measured"))
    }

    /// The reference values of two runs: each within ±0.02 of the list and of the other.
    fn compare(a: &[InstrRecord], b: &[InstrRecord]) -> Vec<String> {
        let mut bad = Vec::new();
        for (name, what, want) in EXPECTED {
            let x = value(a, name, what);
            let y = value(b, name, what);
            eprintln!("{name:30} {what:14} want {want:.3} got {x:?} / {y:?}");
            match (x, y) {
                (Some(x), Some(y))
                    if (x - want).abs() <= 0.02
                        && (y - want).abs() <= 0.02
                        && (x - y).abs() <= 0.02 => {}
                _ => bad.push(format!(
                    "{name} {what}: want {want:.3}, got {x:?} then {y:?}"
                )),
            }
        }
        bad
    }

    #[test]
    fn zen4_reference_values() {
        if !is_zen4() {
            eprintln!("note: not a Zen 4 host; accuracy check skipped");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        // Two runs must agree with the list and with each other. A KVM host's neighbours can
        // slow a whole run down (an add throughput of 0.33 was seen once while the rest of
        // CI ran), so a third run may stand in for one of the first two.
        let (Some(a), Some(b)) = (once(dir.path(), "a"), once(dir.path(), "b")) else {
            return;
        };
        let runs = [a, b];
        let mut bad = compare(&runs[0], &runs[1]);
        if !bad.is_empty() {
            eprintln!("first two runs disagree: {bad:#?}; a third run");
            let Some(c) = once(dir.path(), "c") else {
                return;
            };
            let (ac, bc) = (compare(&runs[0], &c), compare(&runs[1], &c));
            bad = if ac.len() <= bc.len() { ac } else { bc };
        }
        assert!(bad.is_empty(), "{bad:#?}");
    }
}

#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
#[test]
fn accuracy_needs_x86_64_linux() {
    eprintln!("note: accuracy check skipped (not x86-64 Linux)");
}
