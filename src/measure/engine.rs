//! The measurement engine: assembles a batch of kernels, runs them in forked, pinned children
//! (each child calibrates before and after), converts ticks to core cycles and aggregates the
//! per-process minima (median of processes, spread reported; benchmarks whose processes
//! disagree run in more processes until the fastest result is confirmed).

use iced_x86::{Code, Instruction, Register};
use serde::{Deserialize, Serialize};

use super::child;
use super::counters::PortEvent;
use super::harness::{self, ChildEnd, HostIsa, Kernel, Outcome, Pair, PairRaw, Protocol, Spec};
use super::jit::{DataMem, ExecMem, FnHandle, DATA_SIZE};
use super::portcount::PortCounterSource;
use super::timer::{self, Calibration, CalibrationLimits, Clock, TimeBase};
use super::{CounterError, HarnessError, MeasureError};

#[derive(Serialize, Deserialize)]
enum Msg {
    Calib(u8, PairRaw),
    Pair(u32, PairRaw),
    Counts(u32, Vec<f64>),
}

/// Executable memory one `measure` call may use (its kernels are placed after the previous
/// call's; see `ExecMem::rotate`).
const EXEC_ROOM: usize = 16 << 20;

/// Exit status of a benchmark process that could not set up its `rdpmc` clock.
const EXIT_NO_RDPMC: i32 = 7;
/// Exit status of a benchmark process that could not open its port counters.
const EXIT_NO_COUNTERS: i32 = 8;

/// The benchmark process's clock: for `rdpmc`, opens the cycles counter for this thread and
/// stores its number and width in the data area (the mapping stays for the process's life).
fn child_clock(data: &DataMem, clock: Clock) -> bool {
    if clock == Clock::Tsc {
        return true;
    }
    let Ok(fd) = child::perf_open(child::PERF_TYPE_HARDWARE, child::PERF_COUNT_HW_CPU_CYCLES)
    else {
        return false;
    };
    match child::perf_rdpmc_counter(fd, false) {
        Ok((counter, width)) => {
            let base = harness::DATA_BASE as i64;
            data.store_u64((base + harness::OFF_PMC) as usize, counter as u64);
            let mask = if width >= 64 {
                u64::MAX
            } else {
                (1u64 << width) - 1
            };
            data.store_u64((base + harness::OFF_CLOCK_MASK) as usize, mask);
            true
        }
        Err(_) => false,
    }
}

/// Owner of the executable/data memory and the protocol.
pub struct Engine {
    exec: ExecMem,
    data: DataMem,
    /// Host ISA used by prologues.
    pub isa: HostIsa,
    /// CPU the children pin to.
    pub cpu: usize,
    /// Timing protocol.
    pub proto: Protocol,
    /// Children per batch (median of their minima).
    pub processes: u32,
    /// Relative tolerance within which processes agree.
    pub agree: f64,
    /// At most this many more children for the benchmarks whose processes disagree.
    pub extra_processes: u32,
    /// Calibration limits.
    pub limits: CalibrationLimits,
    /// Retries of a child whose calibration was refused.
    pub calib_retries: u32,
    /// Seconds before a child is killed.
    pub timeout_s: u32,
    /// Time base.
    pub time_base: TimeBase,
    /// Last accepted cycles-per-tick ratio.
    pub last_ratio: Option<f64>,
    calib_specs: Vec<Spec>,
}

/// Core cycles with `rdpmc` when a cycles counter opens and its mmap page allows user
/// `rdpmc`; otherwise the TSC, with the reason.
pub fn probe_time_base() -> TimeBase {
    match child::perf_open(child::PERF_TYPE_HARDWARE, child::PERF_COUNT_HW_CPU_CYCLES) {
        Ok(fd) => {
            let r = child::perf_rdpmc_counter(fd, true);
            child::close(fd);
            match r {
                Ok(_) => TimeBase::Rdpmc,
                Err(e) => TimeBase::Tsc {
                    perf_error: format!("cycles counter opened, but {e}"),
                },
            }
        }
        Err(e) => TimeBase::Tsc {
            perf_error: e.to_string(),
        },
    }
}

/// The 1-cycle add chain, the 3-cycle imul chain and the three independent add chains used
/// for calibration, in that order.
pub fn calibration_specs() -> Vec<Spec> {
    let chain = |code| Kernel {
        body: vec![Instruction::with2(code, Register::RAX, Register::RAX).expect("chain")],
        ..Kernel::default()
    };
    let alus = Kernel {
        body: [Register::RAX, Register::RCX, Register::RDX]
            .map(|r| Instruction::with2(Code::Add_r64_rm64, r, r).expect("chain"))
            .to_vec(),
        ..Kernel::default()
    };
    vec![
        Spec::Unrolled {
            kernel: chain(Code::Add_r64_rm64),
            copies_a: 500,
            copies_b: 1000,
        },
        Spec::Unrolled {
            kernel: chain(Code::Imul_r64_rm64),
            copies_a: 200,
            copies_b: 400,
        },
        Spec::Unrolled {
            kernel: alus,
            copies_a: 300,
            copies_b: 600,
        },
    ]
}

impl Engine {
    /// Maps memory and detects the time base.
    pub fn new(cpu: usize, proto: Protocol, processes: u32) -> Result<Self, MeasureError> {
        let exec = ExecMem::new(64 << 20)?;
        let mut data = DataMem::new(DATA_SIZE)?;
        harness::init_data(&mut data);
        let time_base = probe_time_base();
        Ok(Engine {
            exec,
            data,
            isa: HostIsa::detect(),
            cpu,
            proto,
            processes: processes.max(1),
            agree: 0.02,
            extra_processes: 6,
            limits: CalibrationLimits::default(),
            calib_retries: 8,
            timeout_s: 20,
            time_base,
            last_ratio: None,
            calib_specs: calibration_specs(),
        })
    }

    /// Mutable access to the shared data area (pointer chains for machine parameters).
    pub fn data_mut(&mut self) -> &mut DataMem {
        &mut self.data
    }

    /// Address r14 holds inside kernels.
    pub fn r14(&self) -> u64 {
        self.data.addr() + harness::DATA_BASE as u64
    }

    fn assemble_spec(&mut self, s: &Spec) -> Result<Pair, MeasureError> {
        let clock = self.time_base.clock();
        let mut one = |k: &Kernel, copies: usize| -> Result<FnHandle, MeasureError> {
            let ip = self.exec.next_addr();
            let code = harness::assemble(k, copies, self.isa, ip, clock)?;
            self.exec.push(&code)
        };
        Ok(match s {
            Spec::Unrolled {
                kernel,
                copies_a,
                copies_b,
            } => {
                let a = one(kernel, *copies_a)?;
                let b = one(kernel, *copies_b)?;
                Pair {
                    a,
                    b,
                    a_mult: 1,
                    b_mult: 1,
                    units: (*copies_b - *copies_a) as f64,
                }
            }
            Spec::Loop { kernel, copies } => {
                let f = one(kernel, *copies)?;
                Pair {
                    a: f,
                    b: f,
                    a_mult: 1,
                    b_mult: 2,
                    units: *copies as f64,
                }
            }
        })
    }

    /// Measures `specs`; returns one outcome per spec. If the benchmark processes cannot read
    /// core cycles with `rdpmc` after all, the engine falls back to the TSC and starts over.
    pub fn measure(&mut self, specs: &[Spec]) -> Result<Vec<Outcome>, MeasureError> {
        match self.measure_with_clock(specs) {
            Err(MeasureError::Harness(HarnessError::NoRdpmc))
                if self.time_base == TimeBase::Rdpmc =>
            {
                self.time_base = TimeBase::Tsc {
                    perf_error: "rdpmc unavailable in the benchmark process".into(),
                };
                self.measure_with_clock(specs)
            }
            r => r,
        }
    }

    fn measure_with_clock(&mut self, specs: &[Spec]) -> Result<Vec<Outcome>, MeasureError> {
        self.exec.rotate(EXEC_ROOM);
        let calib: Vec<Pair> = self
            .calib_specs
            .clone()
            .iter()
            .map(|s| self.assemble_spec(s))
            .collect::<Result<_, _>>()?;
        let mut outcomes: Vec<Option<Outcome>> = vec![None; specs.len()];
        let mut pairs: Vec<Option<Pair>> = Vec::with_capacity(specs.len());
        for (i, s) in specs.iter().enumerate() {
            match self.assemble_spec(s) {
                Ok(p) => pairs.push(Some(p)),
                Err(MeasureError::Encode(e)) => {
                    outcomes[i] = Some(Outcome::Encode(e.to_string()));
                    pairs.push(None);
                }
                Err(e) => return Err(e),
            }
        }
        let mut per_proc: Vec<Vec<f64>> = vec![Vec::new(); specs.len()];
        let mut done_procs = 0;
        let mut refused = 0;
        let agree = self.agree;
        while done_procs < self.processes + self.extra_processes {
            // After the protocol's processes, only the benchmarks that disagree run again.
            let extra = done_procs >= self.processes;
            let todo: Vec<usize> = (0..specs.len())
                .filter(|&i| outcomes[i].is_none() && pairs[i].is_some())
                .filter(|&i| !extra || !timer::settled(&per_proc[i], agree))
                .collect();
            if todo.is_empty() {
                break;
            }
            let (ratio, results) = match self.run_one(&calib, &pairs, &todo, &mut outcomes)? {
                Ok(x) => x,
                Err(e) => {
                    refused += 1;
                    if refused > self.calib_retries {
                        return Err(MeasureError::Calibration(e));
                    }
                    // A burst of load elsewhere on the host passes: wait longer each time.
                    std::thread::sleep(timer::calibration_backoff(refused));
                    continue;
                }
            };
            self.last_ratio = Some(ratio);
            for (i, raw) in results {
                per_proc[i].push(raw.ticks_per_unit() * ratio);
            }
            done_procs += 1;
        }
        Ok(outcomes
            .into_iter()
            .enumerate()
            .map(|(i, o)| {
                o.unwrap_or_else(|| match timer::consensus(&per_proc[i], agree) {
                    Some((v, _)) => Outcome::Cycles {
                        value: v,
                        spread: timer::spread(&per_proc[i]),
                    },
                    None => Outcome::Fault("no result".into()),
                })
            })
            .collect())
    }

    /// One process worth of results over `todo` (re-forking after a fault so that a fault
    /// costs one kernel). Returns the accepted ratio and (index, raw) results, or the
    /// calibration refusal.
    #[allow(clippy::type_complexity)]
    fn run_one(
        &mut self,
        calib: &[Pair],
        pairs: &[Option<Pair>],
        todo: &[usize],
        outcomes: &mut [Option<Outcome>],
    ) -> Result<Result<(f64, Vec<(usize, PairRaw)>), timer::CalibrationError>, MeasureError> {
        let mut results = Vec::new();
        let mut ratios = Vec::new();
        let mut rest: Vec<usize> = todo.to_vec();
        loop {
            let exec = &self.exec;
            let data = &self.data;
            let proto = self.proto;
            let list = rest.clone();
            let clock = self.time_base.clock();
            let out = harness::run_child(self.cpu, self.timeout_s, |sink| {
                data.populate();
                if !child_clock(data, clock) {
                    child::exit_now(EXIT_NO_RDPMC);
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
                for &i in &list {
                    let p = pairs[i].as_ref().expect("assembled");
                    let r = harness::measure_pair(exec, data, p, &proto);
                    send(sink, &Msg::Pair(i as u32, r));
                }
                let add2 = harness::measure_pair(exec, data, &calib[0], &proto);
                send(sink, &Msg::Calib(2, add2));
            })?;
            let mut cal = [None; 4];
            let mut got = Vec::new();
            for m in &out.messages {
                match serde_json::from_slice::<Msg>(m) {
                    Ok(Msg::Calib(k, r)) => cal[k as usize & 3] = Some(r),
                    Ok(Msg::Pair(i, r)) => got.push((i as usize, r)),
                    Ok(Msg::Counts(..)) | Err(_) => {}
                }
            }
            match out.end {
                ChildEnd::Exited(0) => {
                    let (Some(a), Some(b), Some(c), Some(d)) = (cal[0], cal[1], cal[2], cal[3])
                    else {
                        return Err(HarnessError::NoCalibration.into());
                    };
                    let c = Calibration {
                        add_before: a.ticks_per_unit(),
                        add_after: c.ticks_per_unit(),
                        imul: b.ticks_per_unit(),
                        alus: d.ticks_per_unit(),
                    };
                    match c.check(&self.limits) {
                        Ok(r) => ratios.push(r),
                        Err(e) => return Ok(Err(e)),
                    }
                    results.extend(got);
                    break;
                }
                ChildEnd::Exited(EXIT_NO_RDPMC) => {
                    return Err(HarnessError::NoRdpmc.into());
                }
                end => {
                    // The first index without a result faulted.
                    let sig = match end {
                        ChildEnd::Signaled(s) => child::signal_name(s).to_string(),
                        ChildEnd::Exited(c) => format!("child exit {c}"),
                    };
                    if cal[1].is_none() {
                        return Err(HarnessError::CalibrationDied { end: sig }.into());
                    }
                    let done: Vec<usize> = got.iter().map(|(i, _)| *i).collect();
                    let Some(pos) = rest.iter().position(|i| !done.contains(i)) else {
                        // All pairs done; the final calibration died: retry all.
                        return Err(HarnessError::FinalCalibrationDied { end: sig }.into());
                    };
                    let bad = rest[pos];
                    outcomes[bad] = Some(Outcome::Fault(sig));
                    // Results before the fault are kept only if a later child confirms the
                    // calibration; simplest sound choice: discard and re-run the rest.
                    rest.retain(|&i| i != bad);
                    if rest.is_empty() {
                        // Nothing left; calibration of this child is irrelevant.
                        let r = self.last_ratio.unwrap_or(1.0);
                        return Ok(Ok((r, results)));
                    }
                }
            }
        }
        let r = ratios[0];
        Ok(Ok((r, results)))
    }
}

impl Engine {
    /// Whether the per-port counter `events` open for this thread (Mode B); the reason if not.
    pub fn port_counters_available(&self, events: &[PortEvent]) -> Result<(), CounterError> {
        let mut fds = Vec::new();
        let mut err = None;
        for e in events {
            match child::perf_open(child::PERF_TYPE_RAW, e.raw_config()) {
                Ok(fd) => fds.push(fd),
                Err(source) => {
                    err = Some(CounterError::Open {
                        config: e.raw_config(),
                        source,
                    });
                    break;
                }
            }
        }
        for fd in fds {
            child::close(fd);
        }
        err.map_or(Ok(()), Err)
    }

    /// The per-port counters of `events` as a [`PortCounterSource`] over this engine.
    pub fn port_counters(&mut self, events: Vec<PortEvent>) -> EngineCounters<'_> {
        EngineCounters {
            engine: self,
            events,
        }
    }

    /// Per spec, per counter: µops per work unit (one benchmark process; a fault costs its
    /// kernel, which gets `None`).
    pub fn measure_counts(
        &mut self,
        specs: &[Spec],
        events: &[PortEvent],
    ) -> Result<Vec<Option<Vec<f64>>>, MeasureError> {
        self.exec.rotate(EXEC_ROOM);
        let mut pairs = Vec::with_capacity(specs.len());
        for s in specs {
            match self.assemble_spec(s) {
                Ok(p) => pairs.push(Some(p)),
                Err(MeasureError::Encode(_)) => pairs.push(None),
                Err(e) => return Err(e),
            }
        }
        let mut out: Vec<Option<Vec<f64>>> = vec![None; specs.len()];
        let mut rest: Vec<usize> = (0..specs.len()).filter(|&i| pairs[i].is_some()).collect();
        while !rest.is_empty() {
            let (exec, data, proto) = (&self.exec, &self.data, self.proto);
            let clock = self.time_base.clock();
            let list = rest.clone();
            let child = harness::run_child(self.cpu, self.timeout_s, |sink| {
                data.populate();
                if !child_clock(data, clock) {
                    child::exit_now(EXIT_NO_RDPMC);
                }
                let mut fds = Vec::new();
                for e in events {
                    match child::perf_open(child::PERF_TYPE_RAW, e.raw_config()) {
                        Ok(fd) => fds.push(fd),
                        Err(_) => child::exit_now(EXIT_NO_COUNTERS),
                    }
                }
                for &i in &list {
                    let p = pairs[i].as_ref().expect("assembled");
                    let (_, counts) = harness::measure_pair_counted(exec, data, p, &proto, &fds);
                    let m = serde_json::to_vec(&Msg::Counts(i as u32, counts)).expect("serialize");
                    sink.send(&m);
                }
            })?;
            let mut done = Vec::new();
            for m in &child.messages {
                if let Ok(Msg::Counts(i, c)) = serde_json::from_slice::<Msg>(m) {
                    out[i as usize] = Some(c);
                    done.push(i as usize);
                }
            }
            match child.end {
                ChildEnd::Exited(0) => break,
                ChildEnd::Exited(EXIT_NO_COUNTERS) => {
                    return Err(HarnessError::NoPortCounters.into())
                }
                ChildEnd::Exited(EXIT_NO_RDPMC) => return Err(HarnessError::NoRdpmc.into()),
                _ => {
                    // The first kernel without a result faulted; the others run again.
                    rest.retain(|i| !done.contains(i));
                    if !rest.is_empty() {
                        rest.remove(0);
                    }
                }
            }
        }
        Ok(out)
    }
}

/// Per-port counters read around the engine's kernels (Mode B).
pub struct EngineCounters<'e> {
    engine: &'e mut Engine,
    events: Vec<PortEvent>,
}

impl PortCounterSource for EngineCounters<'_> {
    fn events(&self) -> &[PortEvent] {
        &self.events
    }
    fn measure(&mut self, specs: &[Spec]) -> Result<Vec<Option<Vec<f64>>>, MeasureError> {
        let events = self.events.clone();
        self.engine.measure_counts(specs, &events)
    }
}
