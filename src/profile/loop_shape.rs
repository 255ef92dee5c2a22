//! Whether a region is a counted loop, and how it counts: the back branch, the instruction
//! whose flags it tests, the counter register and how every register moves per iteration.
//!
//! A region is a loop when the analysis simulates it as one ([`crate::cfg::loop_branch`]: its
//! last instruction branches back to its start, or to the IACA start marker just before it)
//! and that branch is a conditional `jcc` or `loop`. Pure: unit-tested on every host.

use iced_x86::{Code, FlowControl, InstructionInfoFactory, Mnemonic, OpKind, Register};

use super::block::{gpr_name, gpr_number};
use super::flags::Cond;
use crate::ir::Instr;

/// A source line and its text, shown as `line N (text)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct At {
    /// Source line.
    pub line: usize,
    /// The instruction's text.
    pub text: String,
}

impl At {
    fn of(ins: &Instr) -> At {
        At {
            line: ins.line,
            text: ins.text.clone(),
        }
    }
}

impl std::fmt::Display for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {} ({})", self.line, self.text)
    }
}

/// Why a region that branches back to its start cannot be profiled as a loop.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoopError {
    /// A branch inside the body.
    #[error("{why} at {at}")]
    InnerBranch {
        /// What the branch does.
        why: InnerBranch,
        /// Where.
        at: At,
    },
    /// The back branch tests a condition the model has no flags rule for.
    #[error(
        "the loop's back branch at {0} tests a condition that is not modelled (parity, \
         rcx = 0, loope/loopne)"
    )]
    Condition(At),
    /// Nothing in the body sets flags.
    #[error(
        "cannot find the loop counter: nothing in the loop sets the flags the back branch at \
         {0} tests; give the counter with --counter REG"
    )]
    NoFlagSetter(At),
    /// The flag-setter does not step a counter.
    #[error(
        "cannot find the loop counter of the back branch at {at}: {why}; give the counter with \
         --counter REG"
    )]
    Counter {
        /// The back branch.
        at: At,
        /// Why its flag-setter gives no counter.
        why: FlagTest,
    },
    /// `--counter` names a register the exit test does not step.
    #[error(
        "--counter {}: the back branch at {at} tests {test}, which does not step it",
        gpr_name(*counter)
    )]
    WrongCounter {
        /// The register given (GPR number).
        counter: usize,
        /// The back branch.
        at: At,
        /// The flag-setter.
        test: At,
    },
    /// Nothing to run.
    #[error("the region has no instructions")]
    Empty,
    /// The back branch's displacement is not an 8- or 32-bit immediate of its encoding.
    #[error("cannot locate the displacement of the back branch at {0}")]
    Displacement(At),
}

/// What a branch inside the loop body does that cannot be profiled.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InnerBranch {
    /// A jump outside the region or backwards.
    #[error(
        "a branch to {0:#x} leaves the loop (only the last instruction may branch back; \
         branches inside it must go forward to one of its instructions)"
    )]
    Leaves(u64),
    /// A call.
    #[error("a call out of the region cannot be profiled")]
    Call,
    /// A return.
    #[error("a return cannot be profiled")]
    Return,
    /// An indirect jump.
    #[error("an indirect branch cannot be profiled")]
    Indirect,
}

/// Why the flag-setting instruction gives no loop counter.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FlagTest {
    /// An add/sub/inc/dec of something other than a constant.
    #[error("{0} does not add a constant to a register")]
    NotConstantStep(At),
    /// The tested register is not stepped by a constant.
    #[error("{at} tests {}, which is not stepped by a constant in the loop", gpr_name(*reg))]
    NotStepped {
        /// The flag-setter.
        at: At,
        /// The register (GPR number).
        reg: usize,
    },
    /// A compare with a memory operand.
    #[error("{0} compares memory")]
    ComparesMemory(At),
    /// A compare of two registers neither of which is stepped.
    #[error("{0} compares registers that are not stepped by a constant")]
    RegistersNotStepped(At),
    /// `test` of two different registers or memory.
    #[error("{0} tests something other than one register")]
    NotOneRegister(At),
    /// Another instruction sets the flags.
    #[error("the flags come from {0}, not a compare or a constant step of a register")]
    NotATest(At),
}

/// How one GPR changes inside the loop body.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Motion {
    /// Not written.
    #[default]
    Invariant,
    /// Only written by constant steps (`add/sub r, imm`, `inc`, `dec`, `lea r, [r + imm]`,
    /// `loop`): (instruction index, amount) in body order, and the operand width.
    Stepped {
        /// (instruction index, amount), in body order.
        steps: Vec<(usize, i64)>,
        /// Operand width of the first step.
        bits: u32,
    },
    /// Written some other way (loads, arithmetic with other registers, ...).
    Varying,
}

impl Motion {
    /// Change per iteration (0 when not stepped).
    pub fn per_iteration(&self) -> i64 {
        match self {
            Motion::Stepped { steps, .. } => steps.iter().map(|s| s.1).sum(),
            _ => 0,
        }
    }

    /// Change within one iteration before instruction `pos` runs.
    pub fn before(&self, pos: usize) -> i64 {
        match self {
            Motion::Stepped { steps, .. } => steps.iter().filter(|s| s.0 < pos).map(|s| s.1).sum(),
            _ => 0,
        }
    }

    fn is_stepped(&self) -> bool {
        matches!(self, Motion::Stepped { .. }) && self.per_iteration() != 0
    }
}

/// What the back branch's flags come from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Test {
    /// The counter's own step (`dec r`, `add r, imm`, …; `loop` as `dec rcx` with ZF):
    /// flags of `before ± imm`.
    Step {
        /// The constant added or subtracted.
        imm: u64,
        /// `sub`/`dec` (else `add`/`inc`).
        subtract: bool,
        /// `inc`/`dec`/`loop`: CF is not written.
        keeps_cf: bool,
    },
    /// `cmp a, b` with the counter on one side.
    Cmp {
        /// `cmp counter, other` (else `cmp other, counter`).
        counter_first: bool,
        /// The other side.
        other: Other,
    },
    /// `test counter, counter`.
    Test,
}

/// The other side of a compare.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Other {
    /// An immediate (sign-extended to the operand width).
    Imm(u64),
    /// A GPR (number): its initial value is chosen to end the loop.
    Reg(usize),
}

/// A counted loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopShape {
    /// Line of the back branch (the region's last).
    pub branch_line: usize,
    /// Line of the instruction setting the flags it tests.
    pub test_line: usize,
    /// Index (in the body) of that instruction.
    pub test_pos: usize,
    /// The counter GPR.
    pub counter: usize,
    /// Operand width of the test.
    pub bits: u32,
    /// What the flags come from.
    pub test: Test,
    /// Taken = one more iteration.
    pub cond: Cond,
    /// Every GPR's motion per iteration.
    pub motion: Vec<Motion>,
    /// Offset in the region's bytes of the back branch's displacement, and its size (1 or 4).
    pub disp_at: usize,
    /// Size of that displacement.
    pub disp_size: usize,
}

/// Whether the region is a loop: `Ok(None)` when its last instruction is not a branch back
/// to its start; `Err` when it is one whose counter cannot be found, or when other control
/// flow leaves the region.
pub fn detect(instrs: &[Instr], counter: Option<usize>) -> Result<Option<LoopShape>, LoopError> {
    let Some(last) = instrs.last() else {
        return Ok(None);
    };
    let start = instrs[0].address;
    let end = last.address + last.bytes.len() as u64;
    let li = &last.iced;
    // The profiler measures what the analysis predicts: the same loop test.
    let back = crate::cfg::loop_branch(instrs, start).is_some()
        && li.flow_control() == FlowControl::ConditionalBranch
        && is_near_rel(li);
    if !back {
        return Ok(None);
    }
    let body = &instrs[..instrs.len() - 1];
    for ins in body {
        check_inner_branch(ins, start, end, instrs).map_err(|why| LoopError::InnerBranch {
            why,
            at: At::of(ins),
        })?;
    }
    let motion = motions(instrs);
    let (cond, test_pos, test) = if li.mnemonic() == Mnemonic::Loop
        && li.code() == Code::Loop_rel8_64_RCX
    {
        let pos = instrs.len() - 1;
        let t = Test::Step {
            imm: 1,
            subtract: true,
            keeps_cf: true,
        };
        (Cond::Ne, pos, (1usize, 64u32, t))
    } else {
        let cond = Cond::of_jcc(li.mnemonic()).ok_or_else(|| LoopError::Condition(At::of(last)))?;
        let pos = body
            .iter()
            .rposition(|i| i.iced.rflags_modified() != 0)
            .ok_or_else(|| LoopError::NoFlagSetter(At::of(last)))?;
        let t = flag_test(&body[pos], &motion, counter).map_err(|why| LoopError::Counter {
            at: At::of(last),
            why,
        })?;
        (cond, pos, t)
    };
    let (reg, bits, test) = test;
    if let Some(c) = counter {
        if c != reg {
            return Err(LoopError::WrongCounter {
                counter: c,
                at: At::of(last),
                test: At::of(&instrs[test_pos]),
            });
        }
    }
    let (disp_at, disp_size) = branch_displacement(instrs)?;
    Ok(Some(LoopShape {
        branch_line: last.line,
        test_line: instrs[test_pos].line,
        test_pos,
        counter: reg,
        bits,
        test,
        cond,
        motion,
        disp_at,
        disp_size,
    }))
}

fn is_near_rel(i: &iced_x86::Instruction) -> bool {
    matches!(i.op0_kind(), OpKind::NearBranch64 | OpKind::NearBranch32)
}

/// Branches inside the body may only jump forward to an instruction of the region.
fn check_inner_branch(ins: &Instr, start: u64, end: u64, all: &[Instr]) -> Result<(), InnerBranch> {
    let i = &ins.iced;
    match i.flow_control() {
        FlowControl::Next | FlowControl::Exception | FlowControl::Interrupt => Ok(()),
        FlowControl::ConditionalBranch | FlowControl::UnconditionalBranch if is_near_rel(i) => {
            let t = i.near_branch_target();
            if t > ins.address && t < end && t >= start && all.iter().any(|x| x.address == t) {
                Ok(())
            } else {
                Err(InnerBranch::Leaves(t))
            }
        }
        FlowControl::Call | FlowControl::IndirectCall => Err(InnerBranch::Call),
        FlowControl::Return => Err(InnerBranch::Return),
        _ => Err(InnerBranch::Indirect),
    }
}

/// Each GPR's motion over the body (the back branch included: `loop` steps rcx).
fn motions(instrs: &[Instr]) -> Vec<Motion> {
    let mut m = vec![Motion::Invariant; 16];
    let mut factory = InstructionInfoFactory::new();
    for (pos, ins) in instrs.iter().enumerate() {
        let i = &ins.iced;
        let step = constant_step(i);
        let info = factory.info(i);
        for u in info.used_registers() {
            if !matches!(
                u.access(),
                iced_x86::OpAccess::Write
                    | iced_x86::OpAccess::CondWrite
                    | iced_x86::OpAccess::ReadWrite
                    | iced_x86::OpAccess::ReadCondWrite
            ) {
                continue;
            }
            let Some(n) = gpr_number(u.register()) else {
                continue;
            };
            let stepped = match step {
                Some((r, amount, bits)) if gpr_number(r) == Some(n) => Some((amount, bits)),
                _ => None,
            };
            m[n] = match (std::mem::take(&mut m[n]), stepped) {
                (Motion::Invariant, Some((a, bits))) => Motion::Stepped {
                    steps: vec![(pos, a)],
                    bits,
                },
                (Motion::Stepped { mut steps, bits }, Some((a, _))) => {
                    if steps.last().map(|s| s.0) != Some(pos) {
                        steps.push((pos, a));
                    }
                    Motion::Stepped { steps, bits }
                }
                _ => Motion::Varying,
            };
        }
    }
    m
}

fn sign_extend(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let sh = 64 - bits;
        ((v << sh) as i64) >> sh
    }
}

fn reg_bits(r: Register) -> u32 {
    (r.size() * 8) as u32
}

/// `(register, amount, width)` when `i` adds a constant to a GPR and writes nothing else
/// but flags.
fn constant_step(i: &iced_x86::Instruction) -> Option<(Register, i64, u32)> {
    let r = i.op0_register();
    if !r.is_gpr() || i.op0_kind() != OpKind::Register {
        return (i.code() == Code::Loop_rel8_64_RCX).then_some((Register::RCX, -1, 64));
    }
    let bits = reg_bits(r);
    let imm = || {
        (i.op_count() == 2 && crate::ir::is_immediate(i.op1_kind()))
            .then(|| sign_extend(i.immediate(1), bits))
    };
    match i.mnemonic() {
        Mnemonic::Add => imm().map(|v| (r, v, bits)),
        Mnemonic::Sub => imm().map(|v| (r, v.wrapping_neg(), bits)),
        Mnemonic::Inc => Some((r, 1, bits)),
        Mnemonic::Dec => Some((r, -1, bits)),
        Mnemonic::Lea
            if bits >= 32
                && i.memory_index() == Register::None
                && i.memory_base().is_gpr()
                && i.memory_base().full_register() == r.full_register() =>
        {
            Some((r, i.memory_displacement64() as i64, bits))
        }
        _ => None,
    }
}

/// The counter, width and test of the flag-setting instruction.
fn flag_test(
    ins: &Instr,
    motion: &[Motion],
    wanted: Option<usize>,
) -> Result<(usize, u32, Test), FlagTest> {
    let i = &ins.iced;
    let line = At::of(ins);
    let gpr = |k: u32| {
        (i.op_kind(k) == OpKind::Register)
            .then(|| i.op_register(k))
            .filter(|r| r.is_gpr())
    };
    let stepped = |r: Register| gpr_number(r).is_some_and(|n| motion[n].is_stepped());
    let not_stepped = |r: Register| FlagTest::NotStepped {
        at: line.clone(),
        reg: gpr_number(r).unwrap_or(0),
    };
    match i.mnemonic() {
        Mnemonic::Add | Mnemonic::Sub | Mnemonic::Inc | Mnemonic::Dec => {
            let Some((r, amount, bits)) = constant_step(i) else {
                return Err(FlagTest::NotConstantStep(line));
            };
            if !stepped(r) {
                return Err(not_stepped(r));
            }
            let keeps_cf = matches!(i.mnemonic(), Mnemonic::Inc | Mnemonic::Dec);
            let subtract = matches!(i.mnemonic(), Mnemonic::Sub | Mnemonic::Dec);
            let imm = if subtract {
                amount.wrapping_neg()
            } else {
                amount
            } as u64;
            let n = gpr_number(r).unwrap_or(0);
            Ok((
                n,
                bits,
                Test::Step {
                    imm,
                    subtract,
                    keeps_cf,
                },
            ))
        }
        Mnemonic::Cmp => {
            let a = gpr(0).ok_or_else(|| FlagTest::ComparesMemory(line.clone()))?;
            let bits = reg_bits(a);
            if let Some(b) = gpr(1) {
                let (na, nb) = (gpr_number(a).unwrap_or(0), gpr_number(b).unwrap_or(0));
                let first = match wanted {
                    Some(w) if w == na => true,
                    Some(w) if w == nb => false,
                    _ if stepped(a) => true,
                    _ if stepped(b) => false,
                    _ => return Err(FlagTest::RegistersNotStepped(line)),
                };
                let (c, o) = if first { (a, nb) } else { (b, na) };
                if !stepped(c) {
                    return Err(not_stepped(c));
                }
                Ok((
                    gpr_number(c).unwrap_or(0),
                    bits,
                    Test::Cmp {
                        counter_first: first,
                        other: Other::Reg(o),
                    },
                ))
            } else if crate::ir::is_immediate(i.op1_kind()) {
                if !stepped(a) {
                    return Err(not_stepped(a));
                }
                Ok((
                    gpr_number(a).unwrap_or(0),
                    bits,
                    Test::Cmp {
                        counter_first: true,
                        other: Other::Imm(sign_extend(i.immediate(1), bits) as u64),
                    },
                ))
            } else {
                Err(FlagTest::ComparesMemory(line))
            }
        }
        Mnemonic::Test => match (gpr(0), gpr(1)) {
            (Some(a), Some(b)) if a == b => {
                if !stepped(a) {
                    return Err(not_stepped(a));
                }
                Ok((gpr_number(a).unwrap_or(0), reg_bits(a), Test::Test))
            }
            _ => Err(FlagTest::NotOneRegister(line)),
        },
        _ => Err(FlagTest::NotATest(line)),
    }
}

/// Where the back branch's displacement sits in the region's bytes.
fn branch_displacement(instrs: &[Instr]) -> Result<(usize, usize), LoopError> {
    let last = instrs.last().ok_or(LoopError::Empty)?;
    let at: usize = instrs[..instrs.len() - 1]
        .iter()
        .map(|i| i.bytes.len())
        .sum();
    let mut d = iced_x86::Decoder::with_ip(64, &last.bytes, last.address, 0);
    let i = d.decode();
    let off = d.get_constant_offsets(&i);
    if !off.has_immediate() || !matches!(off.immediate_size(), 1 | 4) {
        return Err(LoopError::Displacement(At::of(last)));
    }
    Ok((at + off.immediate_offset(), off.immediate_size()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode_bytes;
    use crate::input::parse_hex;

    fn shape(hex: &str) -> Result<Option<LoopShape>, String> {
        detect(&decode_bytes(&parse_hex(hex).unwrap(), 0).unwrap(), None).map_err(|e| e.to_string())
    }

    #[test]
    fn straight_code_is_not_a_loop() {
        assert_eq!(shape("4801c8").unwrap(), None);
        // A forward jnz at the end is not a back branch.
        assert_eq!(shape("4801c87500").unwrap(), None);
    }

    #[test]
    fn dec_jnz() {
        // add rax, rcx; dec rdx; jnz 0
        let s = shape("4801c848ffca75f8").unwrap().unwrap();
        assert_eq!(s.counter, 2);
        assert_eq!(s.cond, Cond::Ne);
        assert_eq!(s.test_pos, 1);
        assert_eq!(
            s.test,
            Test::Step {
                imm: 1,
                subtract: true,
                keeps_cf: true
            }
        );
        assert_eq!(s.motion[2].per_iteration(), -1);
        assert_eq!(s.motion[0], Motion::Varying);
        assert_eq!(s.motion[1], Motion::Invariant);
        assert_eq!((s.disp_at, s.disp_size), (7, 1));
    }

    #[test]
    fn pointer_compare() {
        // mov rcx, [rax]; add rax, 8; cmp rax, rsi; jne 0
        let s = shape("488b084883c0084839f075f4").unwrap().unwrap();
        assert_eq!(s.counter, 0);
        assert_eq!(s.bits, 64);
        assert_eq!(
            s.test,
            Test::Cmp {
                counter_first: true,
                other: Other::Reg(6)
            }
        );
        assert_eq!(s.motion[0].per_iteration(), 8);
        assert_eq!(s.motion[0].before(1), 0);
        assert_eq!(s.motion[0].before(2), 8);
    }

    #[test]
    fn gcc_index_and_immediate_compares() {
        // add dword [rdi+rax*4], 1; add rax, 1; cmp rsi, rax; jne 0
        let s = shape("830487014883c0014839c675f3").unwrap().unwrap();
        assert_eq!(s.counter, 0);
        assert_eq!(
            s.test,
            Test::Cmp {
                counter_first: false,
                other: Other::Reg(6)
            }
        );
        // imul rdx, rsi; lea ecx, [rcx+1]; cmp ecx, 1000; jl 0
        let s = shape("480fafd68d490181f9e80300007cf1").unwrap().unwrap();
        assert_eq!(s.counter, 1);
        assert_eq!(s.bits, 32);
        assert_eq!(s.cond, Cond::L);
        assert_eq!(
            s.test,
            Test::Cmp {
                counter_first: true,
                other: Other::Imm(1000)
            }
        );
        // loop 0 (rcx)
        let s = shape("4801c8e2fb").unwrap().unwrap();
        assert_eq!(s.counter, 1);
    }

    #[test]
    fn refusals_name_the_branch_and_the_option() {
        // add rax, rcx; jnz 0: the flags come from add rax, rcx (not a constant step).
        let e = shape("4801c875fb").unwrap_err();
        assert!(
            e.contains("line 1 (jnz") && e.contains("--counter REG"),
            "{e}"
        );
        // call; dec rcx; jnz
        let e = shape("e80000000048ffc975f6").unwrap_err();
        assert!(
            e.contains("call out of the region") && e.contains("line 0"),
            "{e}"
        );
        // jmp far forward out of the loop; dec rcx; jnz
        let e = shape("eb1048ffc975f9").unwrap_err();
        assert!(e.contains("leaves the loop"), "{e}");
        // A forward branch inside is fine: je +3 (over add); add rax, rcx; dec rdx; jnz 0
        assert!(shape("74034801c848ffca75f6").unwrap().is_some());
    }

    #[test]
    fn the_override_must_be_the_tested_register() {
        let i = decode_bytes(&parse_hex("4801c848ffca75f8").unwrap(), 0).unwrap();
        assert_eq!(detect(&i, Some(2)).unwrap().unwrap().counter, 2);
        let e = detect(&i, Some(3)).unwrap_err().to_string();
        assert!(e.contains("--counter rbx"), "{e}");
    }
}
