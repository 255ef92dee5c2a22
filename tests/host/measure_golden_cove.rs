//! `suaca measure` on a Golden or Redwood Cove host (ADL-P, MTL-P): ports inferred with the
//! Intel blockers, slots counted with NOPs, the XML in uops.info's Intel convention. Reference
//! values are uops.info's MTL-P records of the same forms (`VPERMD` 1*p5, `VMULPD` 1*p01,
//! `MOV (R64, M64)` 1*p23A, `MOV (M64, R64)` 1*p49+1*p78, `VPADDD (YMM, YMM, M256)`
//! 1*p015+1*p23A, one slot each), which the Intel host (CPUID family 6 model 167, taken as
//! MTL-P) reproduced on 2026-11-28. Skips with a note on any other host and on hybrid parts.
#![forbid(unsafe_code)]

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
mod host {
    use crate::common::{busy_or_panic, timing_lock, BUSY_RETRIES};
    use suaca::measure::{run, MeasureConfig, NoProgress};
    use suaca::uopsxml::{read_file, ArchFilter, MeasureValues};

    const FILTER: &str = r"^(VPERMD \(YMM, YMM, YMM\)|VMULPD \(YMM, YMM, YMM\)|MOV \(R64, M64\)|MOV \(M64, R64\)|VPADDD \(YMM, YMM, M256\))$";

    #[test]
    fn intel_ports_and_fused_slots() {
        let Some(arch) = suaca::uarch::host::detect().filter(|a| matches!(*a, "ADL-P" | "MTL-P"))
        else {
            eprintln!("skipped: not a Golden or Redwood Cove host");
            return;
        };
        // A client part's pinned CPU may be an efficiency core (other ports, other rates).
        if suaca::uarch::host::is_hybrid() {
            eprintln!("skipped: a hybrid CPU (the measured core may not be the P-core)");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("golden-cove.xml");
        let cfg = MeasureConfig {
            out: out.clone(),
            filter: Some(FILTER.into()),
            arch: Some(arch.into()),
            calib_retries: BUSY_RETRIES,
            ..MeasureConfig::default()
        };
        let measured = {
            let _one = timing_lock();
            run(cfg, &mut NoProgress)
        };
        if let Err(e) = measured {
            return busy_or_panic(e).unwrap_or(());
        }
        let recs = read_file(&out, &ArchFilter::All).unwrap();
        let base = |s: &str| -> &MeasureValues {
            let r = recs.iter().find(|r| r.string == s).expect(s);
            &r.archs[0].measurement.as_ref().expect("measured").base
        };
        for (form, ports, uops) in [
            ("VPERMD (YMM, YMM, YMM)", "1*p5", 1),
            ("VMULPD (YMM, YMM, YMM)", "1*p01", 1),
            ("MOV (R64, M64)", "1*p23A", 1),
            ("MOV (M64, R64)", "1*p49+1*p78", 2),
            ("VPADDD (YMM, YMM, M256)", "1*p015+1*p23A", 2),
        ] {
            let m = base(form);
            let got = m.ports.as_ref().map(ToString::to_string);
            assert_eq!(got.as_deref(), Some(ports), "{form}");
            assert_eq!(m.uops_retire_slots, Some(1), "{form}: one fused slot");
            assert_eq!(m.uops, Some(uops), "{form}: the µops on ports");
        }
    }
}
