//! Benchmark kernels and the forked-child runner. The data area's layout is in
//! [`super::layout`], the timing protocol in [`super::timing`] (both re-exported here).
//!
//! A kernel is a generated function `f(iterations, data)`:
//!
//! ```text
//! push callee-saved; r15 = iterations; r14 = data + DATA_BASE
//! ldmxcsr; vector/mask/GPR initialisation (values from the plan)
//! lfence; rdtsc → [r14 + T0]            (time starts)
//! rax/rdx initialisation
//! (flags: push f; popfq; rcx = r15)      (a branch's flags, `Kernel::flags`)
//! loop (64-byte aligned):  body × copies;  dec r15;  jnz loop
//!                       (flags: lea rcx, [rcx-1]; jrcxz end; jmp loop)
//! lfence; rdtsc → [r14 + T1]            (time ends)
//! emms? vzeroupper; cld; pop callee-saved; ret
//! ```
//!
//! Generated code may use every register except r14 (data base), r15 (loop counter) and rsp.
//!
//! Protocol (docs/measurement.md): the child pins itself to one CPU, runs each kernel
//! pair — two unroll counts, or two iteration counts — with iterations chosen so that a sample
//! lasts about `sample_ticks`, warms up, and keeps the minimum of `reps` samples of each; the
//! difference of the two minima divided by the extra work cancels call, loop and
//! initialisation overhead.

use iced_x86::code_asm::CodeAssembler;
use iced_x86::{Code, Instruction, MemoryOperand, Register};

use serde::{Deserialize, Serialize};

pub use super::layout::*;
use super::timer::Clock;
pub use super::timing::*;
use super::{EncodeError, MeasureError};

/// How a kernel is timed.
#[derive(Clone, Debug, PartialEq)]
pub enum Spec {
    /// `copies_b` vs `copies_a` copies of the body per iteration; result per extra copy.
    Unrolled {
        /// The kernel.
        kernel: Kernel,
        /// Copies of the shorter run.
        copies_a: usize,
        /// Copies of the longer run.
        copies_b: usize,
    },
    /// The same kernel run for L and 2L iterations; result per body copy of one iteration
    /// (includes the loop's own cost: `TP_loop`).
    Loop {
        /// The kernel.
        kernel: Kernel,
        /// Copies per iteration.
        copies: usize,
    },
}

/// Result of one spec.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Outcome {
    /// Cycles per unit (median over processes) and the relative spread between processes.
    Cycles {
        /// Median over processes.
        value: f64,
        /// (max − min)/median over processes.
        spread: f64,
    },
    /// The kernel faulted with this signal (or timed out).
    Fault(String),
    /// Could not be assembled.
    Encode(String),
}

impl Outcome {
    /// The value, if measured.
    pub fn value(&self) -> Option<f64> {
        match self {
            Outcome::Cycles { value, .. } => Some(*value),
            _ => None,
        }
    }
}

/// What the host supports for kernel prologues.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct HostIsa {
    /// AVX (VEX ymm registers, vzeroupper).
    pub avx: bool,
    /// AVX-512F (zmm0–31, k registers).
    pub avx512f: bool,
    /// AVX-512BW (64-bit mask registers).
    pub avx512bw: bool,
}

impl HostIsa {
    /// Detects the running CPU.
    #[cfg(target_arch = "x86_64")]
    pub fn detect() -> Self {
        HostIsa {
            avx: std::arch::is_x86_feature_detected!("avx"),
            avx512f: std::arch::is_x86_feature_detected!("avx512f"),
            avx512bw: std::arch::is_x86_feature_detected!("avx512bw"),
        }
    }
}

/// A benchmark kernel before assembly.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Kernel {
    /// Instructions run once before the timed region (after the default initialisation).
    pub init: Vec<Instruction>,
    /// GPR values set right before timing starts (`mov reg, imm64`), e.g. division operands.
    pub gpr_init: Vec<(Register, u64)>,
    /// One copy of the loop body.
    pub body: Vec<Instruction>,
    /// Whether the kernel touches MMX registers (then `emms` ends it).
    pub uses_mmx: bool,
    /// RFLAGS for the timed loop (a branch's outcome): loaded with `push; popfq` after the
    /// time starts, and the loop then counts in rcx without touching the flags (`lea rcx,
    /// [rcx-1]; jrcxz end; jmp top`); the body must leave rcx alone.
    pub flags: Option<u32>,
}

fn ins2r(code: Code, a: Register, b: Register) -> Instruction {
    Instruction::with2(code, a, b).expect("valid register instruction")
}

fn ins_rm(code: Code, a: Register, m: MemoryOperand) -> Instruction {
    Instruction::with2(code, a, m).expect("valid memory instruction")
}

fn ins_mr(code: Code, m: MemoryOperand, a: Register) -> Instruction {
    Instruction::with2(code, m, a).expect("valid memory instruction")
}

/// `[r14 + off]`.
pub fn mem(off: i64) -> MemoryOperand {
    MemoryOperand::with_base_displ(Register::R14, off)
}

/// The GPRs generated code may write (everything but rsp, r14, r15).
pub const FREE_GPR64: [Register; 13] = [
    Register::RAX,
    Register::RCX,
    Register::RDX,
    Register::RBX,
    Register::RSI,
    Register::RDI,
    Register::RBP,
    Register::R8,
    Register::R9,
    Register::R10,
    Register::R11,
    Register::R12,
    Register::R13,
];

/// The prologue up to (not including) the time start, and the GPR init.
fn prologue(a: &mut CodeAssembler, k: &Kernel, isa: HostIsa) -> Result<(), iced_x86::IcedError> {
    for r in [
        Register::RBX,
        Register::RBP,
        Register::R12,
        Register::R13,
        Register::R14,
        Register::R15,
    ] {
        a.add_instruction(Instruction::with1(Code::Push_r64, r)?)?;
    }
    a.add_instruction(ins2r(Code::Mov_r64_rm64, Register::R15, Register::RDI))?;
    a.add_instruction(Instruction::with2(
        Code::Lea_r64_m,
        Register::R14,
        MemoryOperand::with_base_displ(Register::RSI, DATA_BASE as i64),
    )?)?;
    a.add_instruction(Instruction::with1(Code::Ldmxcsr_m32, mem(OFF_MXCSR))?)?;
    // Vector registers. Legacy-SSE-only kernels start from a clean upper state (vzeroall),
    // as uops.info does: with dirty upper halves Zen 4 runs SSE ops at half rate.
    let legacy_only = k.body.iter().chain(&k.init).all(|i| {
        let oc = i.code().op_code();
        match oc.encoding() {
            iced_x86::EncodingKind::Legacy => true,
            iced_x86::EncodingKind::VEX => {
                oc.l() == 0 && !(0..i.op_count()).any(|o| i.op_register(o).is_ymm())
            }
            _ => false,
        }
    });
    if legacy_only {
        if isa.avx {
            a.vzeroall()?;
        }
        for i in 0..16u32 {
            let x = reg_add(Register::XMM0, i);
            a.add_instruction(ins_rm(Code::Movups_xmm_xmmm128, x, mem(OFF_VINIT)))?;
        }
        if isa.avx512f {
            for i in 1..8u32 {
                let kr = reg_add(Register::K0, i);
                let code = if isa.avx512bw {
                    Code::VEX_Kmovq_kr_km64
                } else {
                    Code::VEX_Kmovw_kr_km16
                };
                a.add_instruction(ins_rm(code, kr, mem(OFF_KINIT)))?;
            }
        }
    } else if isa.avx512f {
        for i in 0..32u32 {
            let z = reg_add(Register::ZMM0, i);
            a.add_instruction(ins_rm(
                Code::EVEX_Vmovups_zmm_k1z_zmmm512,
                z,
                mem(OFF_VINIT),
            ))?;
        }
        for i in 1..8u32 {
            let kr = reg_add(Register::K0, i);
            let code = if isa.avx512bw {
                Code::VEX_Kmovq_kr_km64
            } else {
                Code::VEX_Kmovw_kr_km16
            };
            a.add_instruction(ins_rm(code, kr, mem(OFF_KINIT)))?;
        }
    } else if isa.avx {
        for i in 0..16u32 {
            let y = reg_add(Register::YMM0, i);
            a.add_instruction(ins_rm(Code::VEX_Vmovups_ymm_ymmm256, y, mem(OFF_VINIT)))?;
        }
    } else {
        for i in 0..16u32 {
            let x = reg_add(Register::XMM0, i);
            a.add_instruction(ins_rm(Code::Movups_xmm_xmmm128, x, mem(OFF_VINIT)))?;
        }
    }
    if k.uses_mmx {
        for i in 0..8u32 {
            let m = reg_add(Register::MM0, i);
            a.add_instruction(ins_rm(Code::Movq_mm_mmm64, m, mem(OFF_VINIT)))?;
        }
    }
    // Default GPR values: small, distinct, non-zero; rax/rdx are set after rdtsc.
    for r in FREE_GPR64 {
        if matches!(r, Register::RAX | Register::RDX) {
            continue;
        }
        a.add_instruction(Instruction::with2(Code::Mov_r64_imm64, r, gpr_value(k, r))?)?;
    }
    for ins in &k.init {
        a.add_instruction(*ins)?;
    }
    Ok(())
}

/// `base + i` for registers of one class (ZMM0 + 3 = ZMM3).
pub fn reg_add(base: Register, i: u32) -> Register {
    let n = base as u32 + i;
    // Register is a dense u8-repr enum; every caller stays inside the class.
    Register::values()
        .nth(n as usize)
        .expect("register index in range")
}

fn timestamp(a: &mut CodeAssembler, off: i64, clock: Clock) -> Result<(), iced_x86::IcedError> {
    match clock {
        Clock::Tsc => {
            a.lfence()?;
            a.rdtsc()?;
        }
        Clock::Rdpmc => {
            a.add_instruction(Instruction::with2(
                Code::Mov_r32_rm32,
                Register::ECX,
                mem(OFF_PMC),
            )?)?;
            a.lfence()?;
            a.rdpmc()?;
        }
    }
    a.add_instruction(Instruction::with2(
        Code::Shl_rm64_imm8,
        Register::RDX,
        32u32,
    )?)?;
    a.add_instruction(ins2r(Code::Or_r64_rm64, Register::RDX, Register::RAX))?;
    a.add_instruction(ins_mr(Code::Mov_rm64_r64, mem(off), Register::RDX))?;
    Ok(())
}

/// Assembles `k` with `copies` copies of the body per loop iteration, for address `ip`, timed
/// with `clock`.
pub fn assemble(
    k: &Kernel,
    copies: usize,
    isa: HostIsa,
    ip: u64,
    clock: Clock,
) -> Result<Vec<u8>, MeasureError> {
    let err = |e: iced_x86::IcedError| MeasureError::Encode(e.into());
    // Size of everything before the loop, to align the loop start to 64 bytes.
    let pre = {
        let mut a = CodeAssembler::new(64).map_err(err)?;
        pre_loop(&mut a, k, isa, clock).map_err(err)?;
        a.assemble(ip).map_err(err)?.len()
    };
    let pad = (64 - pre % 64) % 64;
    let mut a = CodeAssembler::new(64).map_err(err)?;
    pre_loop(&mut a, k, isa, clock).map_err(err)?;
    if pad > 0 {
        a.db(&nop_padding(pad)).map_err(err)?;
    }
    let mut top = a.create_label();
    a.set_label(&mut top).map_err(err)?;
    // PUSH/POP kernels: rsp comes back to where it was once per pass (LEA leaves the flags
    // alone; its cost is the same in both unroll counts, so differencing cancels it). Pops
    // first move rsp down, so that they read below the harness's frame.
    let stack_move = stack_move(k, copies)?;
    let rsp_by = |d: i64| {
        Instruction::with2(
            Code::Lea_r64_m,
            Register::RSP,
            MemoryOperand::with_base_displ(Register::RSP, d),
        )
    };
    if stack_move > 0 {
        a.add_instruction(rsp_by(-stack_move).map_err(err)?)
            .map_err(err)?;
    }
    let raw: Vec<Option<Vec<u8>>> = k
        .body
        .iter()
        .map(next_branch_bytes)
        .collect::<Result<_, _>>()
        .map_err(err)?;
    for _ in 0..copies {
        for (ins, raw) in k.body.iter().zip(&raw) {
            match raw {
                Some(bytes) => a.db(bytes).map_err(err)?,
                None => a.add_instruction(*ins).map_err(err)?,
            }
        }
    }
    if stack_move < 0 {
        a.add_instruction(rsp_by(-stack_move).map_err(err)?)
            .map_err(err)?;
    }
    if k.flags.is_some() {
        // Counting in rcx keeps the flags the body's branches read.
        let mut end = a.create_label();
        a.add_instruction(
            Instruction::with2(
                Code::Lea_r64_m,
                Register::RCX,
                MemoryOperand::with_base_displ(Register::RCX, -1),
            )
            .map_err(err)?,
        )
        .map_err(err)?;
        a.jrcxz(end).map_err(err)?;
        a.jmp(top).map_err(err)?;
        a.set_label(&mut end).map_err(err)?;
        a.nop().map_err(err)?;
    } else {
        a.add_instruction(Instruction::with1(Code::Dec_rm64, Register::R15).map_err(err)?)
            .map_err(err)?;
        a.jne(top).map_err(err)?;
    }
    timestamp(&mut a, OFF_T1, clock).map_err(err)?;
    if k.uses_mmx {
        a.emms().map_err(err)?;
    }
    if isa.avx {
        a.vzeroupper().map_err(err)?;
    }
    a.cld().map_err(err)?;
    for r in [
        Register::R15,
        Register::R14,
        Register::R13,
        Register::R12,
        Register::RBP,
        Register::RBX,
    ] {
        a.add_instruction(Instruction::with1(Code::Pop_r64, r).map_err(err)?)
            .map_err(err)?;
    }
    a.ret().map_err(err)?;
    a.assemble(ip).map_err(err)
}

/// How far `copies` copies of the body move rsp (bytes; pushes negative), refused beyond
/// what the benchmark process's stack can take.
fn stack_move(k: &Kernel, copies: usize) -> Result<i64, EncodeError> {
    let per_copy: i64 = k
        .body
        .iter()
        .map(|i| i64::from(i.stack_pointer_increment()))
        .sum();
    let total = per_copy * copies as i64;
    if total.abs() > MAX_STACK_MOVE {
        return Err(EncodeError::StackMove {
            bytes: total,
            limit: MAX_STACK_MOVE,
        });
    }
    Ok(total)
}

/// Largest stack movement of one pass over a kernel's copies.
const MAX_STACK_MOVE: i64 = 256 << 10;

fn pre_loop(
    a: &mut CodeAssembler,
    k: &Kernel,
    isa: HostIsa,
    clock: Clock,
) -> Result<(), iced_x86::IcedError> {
    prologue(a, k, isa)?;
    timestamp(a, OFF_T0, clock)?;
    // The timestamp clobbers rax/rdx (and rcx for rdpmc): set them after it.
    let mut late = vec![Register::RAX, Register::RDX];
    if clock == Clock::Rdpmc {
        late.push(Register::RCX);
    }
    for r in late {
        a.add_instruction(Instruction::with2(Code::Mov_r64_imm64, r, gpr_value(k, r))?)?;
    }
    if let Some(f) = k.flags {
        a.add_instruction(Instruction::with1(Code::Pushq_imm32, f as i32)?)?;
        a.add_instruction(Instruction::with(Code::Popfq))?;
        a.add_instruction(ins2r(Code::Mov_r64_rm64, Register::RCX, Register::R15))?;
    }
    Ok(())
}

/// The value register `r` holds when the timed loop starts.
fn gpr_value(k: &Kernel, r: Register) -> u64 {
    let default = FREE_GPR64
        .iter()
        .position(|g| *g == r)
        .map_or(0, |i| i as u64 + 1);
    let default = match r {
        Register::RAX => 1,
        Register::RDX => 3,
        _ => default,
    };
    k.gpr_init
        .iter()
        .find(|(g, _)| *g == r)
        .map(|(_, v)| *v)
        .unwrap_or(default)
}

/// A relative branch (Jcc, JMP, JRCXZ, LOOP) to the instruction that follows it: taken or
/// not, execution continues in sequence, so branches can sit inside benchmark bodies (Jcc
/// throughput, macro-fusion pairs).
pub fn branch_to_next(code: Code) -> Result<Instruction, iced_x86::IcedError> {
    Instruction::with_branch(code, 0)
}

/// The bytes of a [`branch_to_next`] instruction (displacement 0, position independent), or
/// `None` for every other instruction.
fn next_branch_bytes(ins: &Instruction) -> Result<Option<Vec<u8>>, iced_x86::IcedError> {
    if ins.op_count() != 1
        || !matches!(
            ins.op0_kind(),
            iced_x86::OpKind::NearBranch64 | iced_x86::OpKind::NearBranch32
        )
        || ins.near_branch_target() != 0
    {
        return Ok(None);
    }
    const IP: u64 = 0x1000;
    let mut enc = iced_x86::Encoder::new(64);
    let mut i = *ins;
    i.set_near_branch64(IP);
    let len = enc.encode(&i, IP)?;
    let _ = enc.take_buffer();
    i.set_near_branch64(IP + len as u64);
    enc.encode(&i, IP)?;
    Ok(Some(enc.take_buffer()))
}

/// Multi-byte NOPs totalling `n` bytes (executed once, outside the loop).
pub fn nop_padding(n: usize) -> Vec<u8> {
    const NOP8: [u8; 8] = [0x0F, 0x1F, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00];
    let mut v = Vec::with_capacity(n);
    let mut left = n;
    while left >= 8 {
        v.extend_from_slice(&NOP8);
        left -= 8;
    }
    v.extend(std::iter::repeat_n(0x90, left));
    v
}

/// How a forked child ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChildEnd {
    /// Normal exit with this status.
    Exited(i32),
    /// Killed by this signal (SIGALRM = timeout).
    Signaled(i32),
}

/// Output of one child: the messages it sent, in order, and how it ended.
#[derive(Clone, Debug)]
pub struct ChildOutput {
    /// Messages (framed by length) received through the pipe.
    pub messages: Vec<Vec<u8>>,
    /// How the child ended.
    pub end: ChildEnd,
}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
/// Writer handed to the child closure.
pub struct ChildSink {
    fd: i32,
}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
impl ChildSink {
    /// Sends one message to the parent (length-framed).
    pub fn send(&mut self, msg: &[u8]) {
        let mut buf = Vec::with_capacity(msg.len() + 4);
        buf.extend_from_slice(&(msg.len() as u32).to_le_bytes());
        buf.extend_from_slice(msg);
        super::child::write_all(self.fd, &buf);
    }

    /// From now on, a fault (SIGSEGV, SIGILL, SIGFPE, SIGBUS, SIGTRAP) sends a message that
    /// [`FaultReport::parse`] reads (signal, instruction pointer, fault address) before the
    /// child dies of the signal.
    pub fn report_faults(&self) {
        super::child::report_faults(self.fd);
    }

    /// After [`ChildSink::report_faults`]: a SIGSEGV on an unmapped page maps one shared page
    /// holding `fill` there and retries, up to `max_pages` times (BHive's method for blocks
    /// that compute addresses from data). Returns whether the page could be created.
    pub fn map_pages_on_fault(&self, fill: u64, max_pages: u32) -> bool {
        super::child::map_pages_on_fault(fill, max_pages)
    }

    /// Pages mapped on faults so far in this child.
    pub fn pages_mapped_on_fault(&self) -> u32 {
        super::child::pages_mapped_on_fault()
    }
}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
/// A fault in a child that called [`ChildSink::report_faults`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FaultReport {
    /// Signal number.
    pub signal: i32,
    /// `si_code`.
    pub code: i32,
    /// Instruction pointer at the fault (after the instruction for SIGTRAP from `int3`).
    pub rip: u64,
    /// `si_addr`: the faulting data address (SIGSEGV/SIGBUS) or instruction (SIGILL/SIGFPE).
    pub addr: u64,
}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
impl FaultReport {
    /// Reads a message written by the fault handler; `None` for any other message.
    pub fn parse(msg: &[u8]) -> Option<FaultReport> {
        let rest = msg.strip_prefix(super::child::FAULT_MAGIC.as_slice())?;
        if rest.len() != 24 {
            return None;
        }
        let i32_at = |o: usize| i32::from_le_bytes(rest[o..o + 4].try_into().expect("4 bytes"));
        let u64_at = |o: usize| u64::from_le_bytes(rest[o..o + 8].try_into().expect("8 bytes"));
        Some(FaultReport {
            signal: i32_at(0),
            code: i32_at(4),
            rip: u64_at(8),
            addr: u64_at(16),
        })
    }
}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
/// The name of a signal a child died of (`SIGSEGV`, `SIGALRM (timeout)`).
pub fn signal_name(sig: i32) -> &'static str {
    super::child::signal_name(sig)
}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
/// The CPU benchmarks pin to by default: the last one this process may run on, a
/// performance core on a hybrid part ([`super::cpus`]).
pub fn default_cpu() -> usize {
    let performance =
        super::cpus::performance_cores(std::path::Path::new(super::cpus::PERFORMANCE_CORES));
    super::cpus::choose(&super::child::allowed_cpus(), performance.as_deref())
}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
/// Forks a child pinned to `cpu` with default fault handlers and a `timeout_s` alarm, runs
/// `body` in it and collects its messages.
pub fn run_child<F: FnOnce(&mut ChildSink)>(
    cpu: usize,
    timeout_s: u32,
    body: F,
) -> Result<ChildOutput, MeasureError> {
    let (rfd, wfd, pid) = super::child::fork_with_pipe()?;
    if pid == 0 {
        // Child.
        super::child::close(rfd);
        super::child::prepare_child(cpu, timeout_s);
        let mut sink = ChildSink { fd: wfd };
        body(&mut sink);
        super::child::exit_now(0);
    }
    super::child::close(wfd);
    let raw = super::child::read_to_end(rfd);
    super::child::close(rfd);
    let end = super::child::wait(pid)?;
    let mut messages = Vec::new();
    let mut i = 0;
    while i + 4 <= raw.len() {
        let n = u32::from_le_bytes(raw[i..i + 4].try_into().expect("4 bytes")) as usize;
        if i + 4 + n > raw.len() {
            break;
        }
        messages.push(raw[i + 4..i + 4 + n].to_vec());
        i += 4 + n;
    }
    Ok(ChildOutput { messages, end })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_difference() {
        let r = PairRaw {
            min_a: 1000,
            min_b: 3000,
            iters: 10,
            units: 100.0,
        };
        assert!((r.ticks_per_unit() - 2.0).abs() < 1e-12);
    }

    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    #[test]
    fn fault_reports_parse_only_their_own_frames() {
        let mut msg = super::super::child::FAULT_MAGIC.to_vec();
        msg.extend(4i32.to_le_bytes());
        msg.extend(2i32.to_le_bytes());
        msg.extend(0x4100_0040u64.to_le_bytes());
        msg.extend(0u64.to_le_bytes());
        assert_eq!(
            FaultReport::parse(&msg),
            Some(FaultReport {
                signal: 4,
                code: 2,
                rip: 0x4100_0040,
                addr: 0
            })
        );
        assert_eq!(FaultReport::parse(&msg[..msg.len() - 1]), None);
        assert_eq!(FaultReport::parse(b"{\"Calib\":[0,{}]}"), None);
    }

    #[test]
    fn padding_lengths() {
        for n in 0..64 {
            assert_eq!(nop_padding(n).len(), n);
        }
    }

    #[test]
    fn branches_to_the_next_instruction_have_displacement_zero() {
        let j = branch_to_next(Code::Je_rel8_64).unwrap();
        assert_eq!(next_branch_bytes(&j).unwrap(), Some(vec![0x74, 0x00]));
        let j = branch_to_next(Code::Jb_rel32_64).unwrap();
        assert_eq!(
            next_branch_bytes(&j).unwrap(),
            Some(vec![0x0F, 0x82, 0, 0, 0, 0])
        );
        let add = ins2r(Code::Add_r64_rm64, Register::RAX, Register::RAX);
        assert_eq!(next_branch_bytes(&add).unwrap(), None);
        // Inside a kernel: the body is cmp + jz, copied, and still decodes in sequence.
        let k = Kernel {
            body: vec![
                ins2r(Code::Cmp_r64_rm64, Register::RAX, Register::RCX),
                branch_to_next(Code::Je_rel8_64).unwrap(),
            ],
            ..Kernel::default()
        };
        let isa = HostIsa::default();
        let code = assemble(&k, 3, isa, 0x10000, Clock::Tsc).unwrap();
        let jz = code
            .windows(5)
            .filter(|w| *w == [0x48, 0x3B, 0xC1, 0x74, 0x00])
            .count()
            + code
                .windows(5)
                .filter(|w| *w == [0x48, 0x39, 0xC8, 0x74, 0x00])
                .count();
        assert_eq!(jz, 3, "{code:02x?}");
    }

    #[test]
    fn flag_kernels_load_rflags_and_count_in_rcx() {
        let k = Kernel {
            body: vec![branch_to_next(Code::Jne_rel8_64).unwrap()],
            flags: Some(0x8D7),
            ..Kernel::default()
        };
        let code = assemble(&k, 4, HostIsa::default(), 0x10000, Clock::Tsc).unwrap();
        let ins: Vec<Instruction> = iced_x86::Decoder::with_ip(64, &code, 0x10000, 0)
            .iter()
            .collect();
        let at = |c: Code| ins.iter().position(|i| i.code() == c);
        let (push, popf) = (at(Code::Pushq_imm32).unwrap(), at(Code::Popfq).unwrap());
        assert_eq!(ins[push].immediate32(), 0x8D7);
        assert_eq!(popf, push + 1);
        // After the time starts (the first rdtsc), nothing between popfq and the loop's end
        // writes flags: the body's branches see 0x8D7.
        assert!(at(Code::Rdtsc).unwrap() < push);
        let end = at(Code::Jrcxz_rel8_64).unwrap();
        assert!(ins[popf + 1..end].iter().all(|i| i.rflags_modified() == 0));
        assert_eq!(
            ins[popf + 1..end]
                .iter()
                .filter(|i| i.code() == Code::Jne_rel8_64)
                .count(),
            4
        );
        assert!(!ins.iter().any(|i| i.code() == Code::Dec_rm64));
    }

    #[test]
    fn kernel_assembles_with_aligned_loop() {
        let k = Kernel {
            body: vec![ins2r(Code::Add_r64_rm64, Register::RAX, Register::RAX)],
            ..Kernel::default()
        };
        let isa = HostIsa {
            avx: true,
            avx512f: true,
            avx512bw: true,
        };
        let code = assemble(&k, 10, isa, 0x10000, Clock::Tsc).unwrap();
        assert!(code.len() > 30);
        assert_eq!(*code.last().unwrap(), 0xC3);
        assert!(code.windows(3).any(|w| w == [0x0F, 0xAE, 0xE8]), "lfence");
        assert!(code.windows(2).any(|w| w == [0x0F, 0x31]), "rdtsc");
        assert!(!code.windows(2).any(|w| w == [0x0F, 0x33]), "no rdpmc");
    }

    #[test]
    fn rdpmc_kernels_read_the_counter_number_and_restore_rcx() {
        let k = Kernel {
            body: vec![ins2r(Code::Add_r64_rm64, Register::RCX, Register::RCX)],
            gpr_init: vec![(Register::RCX, 0x1234_5678_9abc)],
            ..Kernel::default()
        };
        let code = assemble(&k, 4, HostIsa::default(), 0x20000, Clock::Rdpmc).unwrap();
        let mut dec = iced_x86::Decoder::with_ip(64, &code, 0x20000, 0);
        let ins: Vec<Instruction> = dec.iter().collect();
        let rdpmc: Vec<usize> = ins
            .iter()
            .enumerate()
            .filter(|(_, i)| i.code() == Code::Rdpmc)
            .map(|(n, _)| n)
            .collect();
        assert_eq!(rdpmc.len(), 2, "one read before and one after the loop");
        for &n in &rdpmc {
            // mov ecx, [r14 + OFF_PMC]; lfence; rdpmc
            let m = &ins[n - 2];
            assert_eq!(m.code(), Code::Mov_r32_rm32);
            assert_eq!(m.op0_register(), Register::ECX);
            assert_eq!(m.memory_base(), Register::R14);
            assert_eq!(m.memory_displacement64() as i64, OFF_PMC);
        }
        // After the first read rcx gets its kernel value back before the loop.
        let restored = ins[rdpmc[0]..].iter().take(12).any(|i| {
            i.code() == Code::Mov_r64_imm64
                && i.op0_register() == Register::RCX
                && i.immediate64() == 0x1234_5678_9abc
        });
        assert!(restored);
    }
}
