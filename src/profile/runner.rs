//! The runs: memory at fixed addresses, one forked child per process and region (pinned,
//! default fault handlers plus a reporter of the faulting instruction), calibration before
//! and after the region in every child, the median over processes. A region is timed as a
//! block (unrolled copies, `kernel`) or, when `loop_shape` finds a loop, as itself for N and
//! 2N iterations (`placement`, `loop_kernel`).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::block::{self, RunnableBlock};
use super::kernel::{self, KernelCode};
use super::loop_shape::{self, LoopShape};
use super::{loop_kernel, placement};
use super::{Fault, LoopRun, Measurement, ProfileError, ProfileOptions};
use crate::ir::Instr;
use crate::measure::engine::calibration_specs;
use crate::measure::harness::{
    self, ChildEnd, FaultReport, HostIsa, Pair, PairRaw, Protocol, Spec,
};
use crate::measure::jit::{DataMem, ExecMem, FnHandle};
use crate::measure::timer::{self, Calibration, CalibrationError, CalibrationLimits};
use crate::measure::{HarnessError, MeasureError};

#[derive(Serialize, Deserialize)]
enum Msg {
    Calib(u8, PairRaw),
    /// The block's timing and the pages mapped at faulting addresses before and after it.
    Block(PairRaw, u32, u32),
}

/// Most pages a child maps at addresses a block computed (one physical page behind all).
const MAX_FAULT_PAGES: u32 = 256;

/// Runs blocks on this machine (one profiler per process: its memory sits at fixed
/// addresses).
pub struct Profiler {
    exec: ExecMem,
    data: DataMem,
    isa: HostIsa,
    cpu: usize,
    opts: ProfileOptions,
    proto: Protocol,
    limits: CalibrationLimits,
    /// How each region of the loop arena is mapped now (start → length, window bytes);
    /// absent: one to one, as mapped at first.
    windows: HashMap<u64, (u64, u64)>,
}

impl Profiler {
    /// Maps the code and data memory.
    pub fn new(opts: ProfileOptions) -> Result<Profiler, MeasureError> {
        let cpu = opts.cpu.unwrap_or_else(harness::default_cpu);
        let data = DataMem::new_at(kernel::DATA_ADDR, kernel::DATA_LEN)?;
        let exec = ExecMem::new_at(kernel::EXEC_ADDR, kernel::EXEC_LEN)?;
        Ok(Profiler {
            exec,
            data,
            isa: HostIsa::detect(),
            cpu,
            opts,
            proto: Protocol {
                reps: opts.reps.max(1),
                ..Protocol::default()
            },
            limits: CalibrationLimits::default(),
            windows: HashMap::new(),
        })
    }

    /// The CPU the runs are pinned to.
    pub fn cpu(&self) -> usize {
        self.cpu
    }

    /// Measures one region (decoded instructions): a loop as itself, a block unrolled.
    pub fn profile(&mut self, instrs: &[Instr]) -> Result<Measurement, ProfileError> {
        self.exec.clear();
        let calib = self.calibration_pairs()?;
        let shape =
            loop_shape::detect(instrs, self.opts.counter).map_err(|e| unsupported(e.into()))?;
        let (block, kernels, pair, copies, looped) = match shape {
            Some(shape) => {
                let block = block::plan_loop(instrs).map_err(|e| unsupported(e.into()))?;
                let p = placement::plan(instrs, &block, &shape, self.opts.iterations)
                    .map_err(|e| unsupported(e.into()))?;
                for &(start, len, window) in &p.aliases {
                    // Mapped once per layout: a batch's loops mostly share theirs.
                    let now = self.windows.get(&start).copied().unwrap_or((len, len));
                    if now != (len, window) {
                        self.data.alias(start, len, window)?;
                        self.windows.insert(start, (len, window));
                    }
                }
                let at = instrs.first().map_or(0, |i| i.address);
                let (ka, fa) = self.push_loop(&block, &shape, &p.values[0], at)?;
                let (kb, fb) = self.push_loop(&block, &shape, &p.values[1], at)?;
                let run = LoopRun {
                    counter: block::gpr_name(shape.counter).to_string(),
                    setup: p.setup.clone(),
                    branch_line: shape.branch_line,
                };
                let n = p.n as usize;
                (block, [ka, kb], pair(fa, fb, n), (n, 2 * n), Some(run))
            }
            None => {
                let loop_only = [
                    ("--counter", self.opts.counter.is_some()),
                    ("--iterations", self.opts.iterations.is_some()),
                ];
                if let Some((flag, _)) = loop_only.iter().find(|f| f.1) {
                    return Err(ProfileError::Unsupported(format!(
                        "{flag} is for loops: the region does not end with a branch back to its \
                         first instruction"
                    )));
                }
                let block = block::plan(instrs).map_err(|e| unsupported(e.into()))?;
                let (ca, cb) = self.opts.copies_for(block.len());
                let (ka, fa) = self.push_kernel(&block, ca)?;
                let (kb, fb) = self.push_kernel(&block, cb)?;
                (block, [ka, kb], pair(fa, fb, cb - ca), (ca, cb), None)
            }
        };
        let mut values = Vec::new();
        let mut ratios = Vec::new();
        let mut iterations = 0;
        let mut pages = 0;
        let mut refused = 0;
        let (agree, wanted) = (self.opts.agree, self.opts.processes.max(1) as usize);
        let most = wanted + self.opts.extra_processes as usize;
        // The protocol's processes, then more while no second process confirms the fastest.
        while values.len() < wanted || (values.len() < most && !timer::settled(&values, agree)) {
            match self.run_child(&calib, &pair)? {
                ChildResult::Done { ratio, raw, mapped } => {
                    pages = pages.max(mapped);
                    if iterations == 0 {
                        iterations = raw.iters;
                    }
                    values.push(raw.ticks_per_unit() * ratio);
                    ratios.push(ratio);
                }
                ChildResult::Refused(e) => {
                    refused += 1;
                    if refused > self.opts.calib_retries {
                        return Err(MeasureError::Calibration(e).into());
                    }
                    std::thread::sleep(crate::measure::timer::calibration_backoff(refused));
                }
                ChildResult::Moving(pages) => {
                    return Err(ProfileError::Fault(Fault {
                        signal: harness::signal_name(libc::SIGSEGV).to_string(),
                        why: Some(format!(
                            "the block's addresses left the buffer on every pass \
                             ({pages} pages mapped while timing)"
                        )),
                        ..Fault::default()
                    }));
                }
                ChildResult::Died(sig, report) => {
                    return Err(ProfileError::Fault(locate(
                        sig,
                        report,
                        [&kernels[0], &kernels[1]],
                        &block,
                        instrs,
                    )));
                }
            }
        }
        let cycles = match timer::consensus(&values, agree) {
            Some((v, true)) => v,
            _ => {
                let e = CalibrationError::Disagree {
                    low: values.iter().copied().fold(f64::INFINITY, f64::min),
                    high: values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                    processes: values.len(),
                    pct: agree * 100.0,
                };
                return Err(MeasureError::Calibration(e).into());
            }
        };
        Ok(Measurement {
            cycles_per_iteration: cycles,
            spread: timer::spread(&values),
            per_process: values,
            copies,
            instructions: block.len(),
            iterations,
            cycles_per_tick: timer::median(&ratios).unwrap_or(f64::NAN),
            pages_mapped_on_fault: pages,
            looped,
        })
    }

    fn calibration_pairs(&mut self) -> Result<Vec<Pair>, MeasureError> {
        calibration_specs()
            .iter()
            .map(|s| {
                let Spec::Unrolled {
                    kernel,
                    copies_a,
                    copies_b,
                } = s
                else {
                    return Err(HarnessError::CalibrationNotUnrolled.into());
                };
                let mut one = |copies: usize| -> Result<FnHandle, MeasureError> {
                    let code = harness::assemble(
                        kernel,
                        copies,
                        self.isa,
                        self.exec.next_addr(),
                        // profile times with the calibrated TSC (rdpmc is a measure option)
                        crate::measure::timer::Clock::Tsc,
                    )?;
                    self.exec.push(&code)
                };
                Ok(Pair {
                    a: one(*copies_a)?,
                    b: one(*copies_b)?,
                    a_mult: 1,
                    b_mult: 1,
                    units: (copies_b - copies_a) as f64,
                })
            })
            .collect()
    }

    fn push_loop(
        &mut self,
        block: &RunnableBlock,
        shape: &LoopShape,
        values: &[u64; 16],
        line_offset: u64,
    ) -> Result<(KernelCode, FnHandle), MeasureError> {
        let k = loop_kernel::assemble(
            block,
            shape,
            values,
            line_offset,
            self.isa,
            self.exec.next_addr(),
        )?;
        let f = self.exec.push(&k.bytes)?;
        Ok((k, f))
    }

    fn push_kernel(
        &mut self,
        block: &RunnableBlock,
        copies: usize,
    ) -> Result<(KernelCode, FnHandle), MeasureError> {
        let k = kernel::assemble(block, copies, self.isa, self.exec.next_addr())?;
        let f = self.exec.push(&k.bytes)?;
        Ok((k, f))
    }

    /// One child: calibrate, time the block, check the ALUs and the clock again.
    fn run_child(&mut self, calib: &[Pair], pair: &Pair) -> Result<ChildResult, MeasureError> {
        kernel::fill_data(self.data.bytes_mut());
        let (exec, data, proto) = (&self.exec, &self.data, self.proto);
        let map_pages = self.opts.map_fault_pages;
        let out = harness::run_child(self.cpu, self.opts.timeout_s, |sink| {
            sink.report_faults();
            data.populate();
            if map_pages {
                sink.map_pages_on_fault(kernel::FILL, MAX_FAULT_PAGES);
            }
            let send = |sink: &mut harness::ChildSink, m: &Msg| {
                sink.send(&serde_json::to_vec(m).expect("serialize"));
            };
            let add = harness::measure_pair(exec, data, &calib[0], &proto);
            send(sink, &Msg::Calib(0, add));
            let imul = harness::measure_pair(exec, data, &calib[1], &proto);
            send(sink, &Msg::Calib(1, imul));
            let alus = harness::measure_pair(exec, data, &calib[2], &proto);
            send(sink, &Msg::Calib(3, alus));
            // Map the pages the block computes before timing: a page mapped while timing
            // means its addresses keep moving, and the fault's cost would be in the time.
            let call = ExecMem::call_block_kernel;
            for f in [pair.a, pair.b, pair.a, pair.b] {
                harness::time_once_with(exec, data, f, 2, call);
            }
            let before = sink.pages_mapped_on_fault();
            let raw = harness::measure_pair_with(exec, data, pair, &proto, call);
            let mapped = sink.pages_mapped_on_fault();
            send(sink, &Msg::Block(raw, before, mapped));
            // The ALUs again: another thread that took the core while the block ran would
            // slow the block's every repetition, which its minimum does not undo.
            let alus = harness::measure_pair(exec, data, &calib[2], &proto);
            send(sink, &Msg::Calib(4, alus));
            let add = harness::measure_pair(exec, data, &calib[0], &proto);
            send(sink, &Msg::Calib(2, add));
        })?;
        let mut cal = [None; 5];
        let mut raw = None;
        let mut fault = None;
        for m in &out.messages {
            if let Some(f) = FaultReport::parse(m) {
                fault = Some(f);
                continue;
            }
            match serde_json::from_slice::<Msg>(m) {
                Ok(Msg::Calib(k, r)) => cal[usize::from(k).min(4)] = Some(r),
                Ok(Msg::Block(r, before, after)) => raw = Some((r, before, after)),
                Err(_) => {}
            }
        }
        match out.end {
            ChildEnd::Exited(0) => {
                let (Some(a), Some(b), Some(c), Some(d), Some(e), Some((raw, before, mapped))) =
                    (cal[0], cal[1], cal[2], cal[3], cal[4], raw)
                else {
                    return Err(HarnessError::IncompleteResult.into());
                };
                if mapped > before {
                    return Ok(ChildResult::Moving(mapped));
                }
                let c = Calibration {
                    add_before: a.ticks_per_unit(),
                    add_after: c.ticks_per_unit(),
                    imul: b.ticks_per_unit(),
                    // The slower reading: the block ran between the two.
                    alus: d.ticks_per_unit().max(e.ticks_per_unit()),
                };
                Ok(match c.check(&self.limits) {
                    Ok(ratio) => ChildResult::Done { ratio, raw, mapped },
                    Err(e) => ChildResult::Refused(e),
                })
            }
            ChildEnd::Signaled(sig) => Ok(ChildResult::Died(sig, fault)),
            ChildEnd::Exited(code) => Err(HarnessError::ChildExit(code).into()),
        }
    }
}

/// The timed pair: `units` = extra copies (blocks) or extra iterations (loops) of b over a.
fn pair(a: FnHandle, b: FnHandle, units: usize) -> Pair {
    Pair {
        a,
        b,
        a_mult: 1,
        b_mult: 1,
        units: units as f64,
    }
}

enum ChildResult {
    Done {
        ratio: f64,
        raw: PairRaw,
        mapped: u32,
    },
    Refused(timer::CalibrationError),
    /// Pages were mapped at the block's addresses while it was timed (this many in all).
    Moving(u32),
    Died(i32, Option<FaultReport>),
}

/// The fault as the user sees it: signal, data address, and the block's line when the
/// instruction pointer was inside one of the kernels' copies of the block.
fn locate(
    sig: i32,
    report: Option<FaultReport>,
    kernels: [&KernelCode; 2],
    block: &RunnableBlock,
    instrs: &[Instr],
) -> Fault {
    let signal = harness::signal_name(sig).to_string();
    let Some(r) = report else {
        return Fault {
            signal,
            ..Fault::default()
        };
    };
    // The kernel reports a #GP (non-canonical address) as SIGSEGV with SI_KERNEL, address 0.
    let gp = sig == libc::SIGSEGV && r.code == libc::SI_KERNEL;
    // int3 reports the address after itself.
    let rip = if sig == libc::SIGTRAP {
        r.rip.wrapping_sub(1)
    } else {
        r.rip
    };
    let at = kernels
        .iter()
        .find_map(|k| k.offset_in_copy(rip))
        .and_then(|off| block.instruction_at(off))
        .and_then(|i| instrs.get(i));
    Fault {
        signal,
        address: (matches!(sig, libc::SIGSEGV | libc::SIGBUS) && !gp).then_some(r.addr),
        general_protection: gp,
        line: at.map(|i| i.line),
        instruction: at.map(|i| i.text.clone()),
        why: None,
    }
}

/// A refusal as the profiler reports it.
fn unsupported(r: Box<dyn std::error::Error>) -> ProfileError {
    ProfileError::Unsupported(r.to_string())
}
