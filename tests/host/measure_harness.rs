//! Harness smoke tests: real generated code, only on x86-64 Linux (skipped with a note
//! elsewhere, or when the TSC calibration is refused on a busy host; a broken clock fails).
#![forbid(unsafe_code)]

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
mod host {
    use iced_x86::{Code, Instruction, Register};
    use suaca::measure::engine::Engine;
    use suaca::measure::harness::{Kernel, Outcome, Protocol, Spec};

    fn chain(code: Code) -> Spec {
        Spec::Unrolled {
            kernel: Kernel {
                body: vec![Instruction::with2(code, Register::RAX, Register::RAX).unwrap()],
                ..Kernel::default()
            },
            copies_a: 200,
            copies_b: 400,
        }
    }

    fn engine() -> Option<Engine> {
        match Engine::new(*suaca_cpus().last().unwrap(), Protocol::default(), 3) {
            Ok(mut e) => {
                e.calib_retries = crate::common::BUSY_RETRIES;
                Some(e)
            }
            Err(e @ suaca::measure::MeasureError::Calibration(_)) => {
                crate::common::busy_or_panic(e)
            }
            Err(e) => {
                eprintln!("note: harness unavailable here ({e}); skipping");
                None
            }
        }
    }

    fn suaca_cpus() -> Vec<usize> {
        let n = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1);
        (0..n).collect()
    }

    fn measure(e: &mut Engine, specs: &[Spec]) -> Option<Vec<Outcome>> {
        e.measure(specs)
            .map_or_else(crate::common::busy_or_panic, Some)
    }

    #[test]
    fn add_and_imul_latency() {
        // The engine calibrates the clock when it starts: a timed run, so under the lock too
        // (a calibration beside another test's measurement slowed that one by 1.7×).
        let _one = crate::common::timing_lock();
        let Some(mut e) = engine() else { return };
        let Some(out) = measure(
            &mut e,
            &[chain(Code::Add_r64_rm64), chain(Code::Imul_r64_rm64)],
        ) else {
            return;
        };
        let add = out[0].value().unwrap();
        let imul = out[1].value().unwrap();
        assert!((add - 1.0).abs() <= 0.02, "add {add}");
        assert!((imul - 3.0).abs() <= 0.05, "imul {imul}");
    }

    #[test]
    fn a_fault_costs_one_kernel() {
        // The engine calibrates the clock when it starts: a timed run, so under the lock too
        // (a calibration beside another test's measurement slowed that one by 1.7×).
        let _one = crate::common::timing_lock();
        let Some(mut e) = engine() else { return };
        let ud2 = Spec::Unrolled {
            kernel: Kernel {
                body: vec![Instruction::with(Code::Ud2)],
                ..Kernel::default()
            },
            copies_a: 1,
            copies_b: 2,
        };
        // div rbx with rbx = 0: #DE → SIGFPE.
        let div0 = Spec::Unrolled {
            kernel: Kernel {
                body: vec![Instruction::with1(Code::Div_rm64, Register::RBX).unwrap()],
                gpr_init: vec![(Register::RBX, 0)],
                ..Kernel::default()
            },
            copies_a: 1,
            copies_b: 2,
        };
        let Some(out) = measure(
            &mut e,
            &[
                chain(Code::Add_r64_rm64),
                ud2,
                div0,
                chain(Code::Add_r64_rm64),
            ],
        ) else {
            return;
        };
        assert!(out[0].value().is_some());
        assert_eq!(out[1], Outcome::Fault("SIGILL".into()));
        assert_eq!(out[2], Outcome::Fault("SIGFPE".into()));
        assert!((out[3].value().unwrap() - 1.0).abs() < 0.02);
    }
}

#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
#[test]
fn harness_needs_x86_64_linux() {
    eprintln!("note: measure harness tests skipped (not x86-64 Linux)");
}
