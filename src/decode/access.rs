//! Turns iced-x86's `InstructionInfo` into [`Access`]es and [`MemOperand`]s.
//!
//! Conventions (issue #2; the why is in the comments next to each rule):
//!
//! - **Roles.** An explicit register operand `n` gives `Role::Operand(n)` (iced operand
//!   order). Base and index registers of a memory operand give `Role::Address` reads, for
//!   explicit and implicit memory (`push`: `rsp` is both an implicit read/write and the
//!   address base). Everything else iced reports (`div`'s `rax`/`rdx`, `push`'s `rsp`, the
//!   `{k1}` opmask) is `Role::Implicit`. RFLAGS bits are `Role::Flags`.
//! - **Skipped registers.** RIP/EIP (as an address base, the target is in the displacement)
//!   and all segment registers (FS/GS overrides are kept in [`MemOperand::segment`]).
//! - **GPR granularity.** `Loc::Reg(R64)` for the whole register; `Loc::High8(RAX..RDX)` for
//!   AH..DH. Reads: `al` → `Reg`; `ah` → `High8`; `ax`/`eax`/`rax` → `Reg` + `High8`. Writes:
//!   32/64-bit replace (`Reg` + `High8`); 16-bit merge (read `Reg`, write `Reg` + `High8`);
//!   low 8-bit merge (read and write `Reg`); AH..DH read and write `High8` only.
//! - **Vectors** are keyed by their ZMM register; any write is a plain write (VEX/EVEX zero
//!   the upper part; a legacy-SSE write leaves it, which is no data dependency on modern
//!   cores), except where iced reports read-write (`addss`). A merge-masked (`{k1}`) register
//!   destination is read and written; zero-masking (`{z}`) is a plain write.
//! - **Kinds.** iced `Read`/`CondRead` → `Read`; `Write` → `Write`; `ReadWrite` → `Read` +
//!   `Write`; a conditional register write (`CondWrite`, `ReadCondWrite`: `cmovnz rax, rbx`,
//!   `rep movsb`'s `rcx`) → `Read` + `Write`, because the old value survives when the write
//!   does not happen (so `AccessKind::CondWrite` is not produced for registers). Conditional
//!   memory writes (masked stores, `cmpxchg`) are [`MemOperand::write`].
//! - **Flags.** Each of CF PF AF ZF SF OF DF separately; set, cleared, undefined and modified
//!   are all writes, because each of them ends the dependency on the previous value. Shifts
//!   and rotates by CL also read the flags they write (a zero count leaves them unchanged).
//! - **`vzeroupper`** has no register accesses: it only zeroes bits above 127, which are not
//!   tracked separately, and iced's read+write of ZMM0..15 would chain every vector value
//!   through it.
//! - **Idioms** (see [`super::idioms`]): the destination is written, no source is read.
//!   `sbb r, r` keeps its register reads: Intel cores wait for the register (its result is
//!   0 or -1 by CF alone, but only AMD's renamer knows it); the analysis drops that
//!   dependency on AMD (`pipeline::renamer::sbb_drops`).
//! - **Order.** Groups in this order: explicit operands (by index, a memory operand's address
//!   registers in its slot), address registers of implicit memory, implicit registers, flags;
//!   reads before writes inside each group; no duplicate `(loc, kind, role)`.
//! - **Memory.** Explicit memory operands first (operand order), then iced's implicit memory
//!   (stack, string operands). `lea` is `agen` (no access); prefetch-like `NoMemAccess`
//!   operands are neither read, written nor agen; operands iced says are not accessed at all
//!   (`nop dword ptr [rax]`) are omitted together with their address registers.

use iced_x86::{
    Instruction, InstructionInfo, Mnemonic, OpAccess, OpKind, Register, RflagsBits, UsedMemory,
    UsedRegister,
};

use super::idioms;
use crate::ir::{Access, AccessKind, Flag, Idiom, Loc, MemOperand, Role};

/// iced's RFLAGS bits for the flags we track, in [`Flag::ALL`] order.
const FLAG_BITS: [(u32, Flag); 7] = [
    (RflagsBits::CF, Flag::CF),
    (RflagsBits::PF, Flag::PF),
    (RflagsBits::AF, Flag::AF),
    (RflagsBits::ZF, Flag::ZF),
    (RflagsBits::SF, Flag::SF),
    (RflagsBits::OF, Flag::OF),
    (RflagsBits::DF, Flag::DF),
];

/// Accesses and memory operands of one instruction.
pub(crate) fn analyze(
    instr: &Instruction,
    info: &InstructionInfo,
    idiom: Option<Idiom>,
) -> (Vec<Access>, Vec<MemOperand>) {
    let mut out = Out::default();
    let used = info.used_registers();
    let mut consumed = vec![false; used.len()];
    let ignore_sources = idiom.is_some();
    let iced_cleared = !ignore_sources && iced_cleared_sources(instr, info);

    let mut explicit_mem = 0usize;
    for op in 0..instr.op_count() {
        let iced_access = info.op_access(op);
        match instr.op_kind(op) {
            OpKind::Register => {
                let reg = instr.op_register(op);
                consume(used, &mut consumed, reg, iced_access);
                let access = effective_access(instr, op, iced_access, ignore_sources, iced_cleared);
                let role = Role::Operand(op as u8);
                for (loc, kind) in reg_accesses(reg, access) {
                    out.group.push(Access {
                        loc,
                        kind,
                        role,
                        reg: Some(reg),
                    });
                }
            }
            OpKind::Memory if iced_access != OpAccess::None => {
                explicit_mem += 1;
                explicit_memory(instr, op, iced_access, used, &mut consumed, &mut out);
            }
            _ => {}
        }
        out.flush();
    }

    // iced lists explicit memory operands first, then the implied ones (stack, strings).
    for m in info.used_memory().iter().skip(explicit_mem) {
        out.implicit_memory(m);
    }

    // vzeroupper only zeroes bits we do not track separately (above bit 127 of ZMM0..15); iced's
    // read+write of all 16 registers would chain every vector value through it.
    let implicit_regs = instr.mnemonic() != Mnemonic::Vzeroupper;
    for (u, _) in used
        .iter()
        .zip(&consumed)
        .filter(|(_, c)| implicit_regs && !**c)
    {
        for (loc, kind) in reg_accesses(u.register(), u.access()) {
            out.group.push(Access {
                loc,
                kind,
                role: Role::Implicit,
                reg: Some(u.register()),
            });
        }
    }
    out.flush();

    // A shift or rotate by CL leaves the flags alone when the count is 0, so the flags it
    // writes are inputs too (SnB-family executes a flag merge for `shl r, cl`).
    let kept = if shifts_by_cl(instr) {
        instr.rflags_modified()
    } else {
        0
    };
    out.flags(instr.rflags_read() | kept, AccessKind::Read);
    out.flags(instr.rflags_modified(), AccessKind::Write);
    out.flush();
    (out.accesses, out.mem)
}

/// Records explicit memory operand `op`: its [`MemOperand`] and its address-register reads.
fn explicit_memory(
    instr: &Instruction,
    op: u32,
    access: OpAccess,
    used: &[UsedRegister],
    consumed: &mut [bool],
    out: &mut Out,
) {
    let mem_index = out.mem.len() as u8;
    let segment = instr.memory_segment();
    if matches!(segment, Register::FS | Register::GS) {
        consume(used, consumed, segment, OpAccess::Read);
    }
    let base = instr.memory_base();
    let index = instr.memory_index();
    for (reg, is_index) in [(base, false), (index, true)] {
        if reg != Register::None && !reg.is_ip() {
            consume(used, consumed, reg, OpAccess::Read);
        }
        out.address_read(reg, mem_index, is_index);
    }
    out.mem.push(MemOperand {
        segment: fs_gs(segment),
        base: some(base),
        index: some(index),
        scale: instr.memory_index_scale() as u8,
        // For RIP-relative operands iced already returns the absolute target.
        displacement: instr.memory_displacement64() as i64,
        size: instr.memory_size().size() as u32,
        read: reads(access),
        write: write_kind(access).is_some(),
        agen: instr.mnemonic() == Mnemonic::Lea,
        operand: Some(op as u8),
    });
}

/// Accumulates accesses group by group (one group per operand).
#[derive(Default)]
struct Out {
    accesses: Vec<Access>,
    group: Vec<Access>,
    mem: Vec<MemOperand>,
}

impl Out {
    /// Moves the current group into `accesses`: reads first, duplicates dropped.
    fn flush(&mut self) {
        let group = std::mem::take(&mut self.group);
        let (reads, writes): (Vec<_>, Vec<_>) =
            group.into_iter().partition(|a| a.kind == AccessKind::Read);
        for a in reads.into_iter().chain(writes) {
            let dup = self
                .accesses
                .iter()
                .any(|b| b.loc == a.loc && b.kind == a.kind && b.role == a.role);
            if !dup {
                self.accesses.push(a);
            }
        }
    }

    /// Adds the reads of an address register (nothing for none, RIP or segments).
    fn address_read(&mut self, reg: Register, mem: u8, index: bool) {
        let role = Role::Address { mem, index };
        for loc in read_locs(reg) {
            self.group.push(Access {
                loc,
                kind: AccessKind::Read,
                role,
                reg: Some(reg),
            });
        }
    }

    /// Records one of iced's implied memory locations (`push`, `ret`, `movsb`, ...).
    fn implicit_memory(&mut self, m: &UsedMemory) {
        let mem_index = self.mem.len() as u8;
        self.address_read(m.base(), mem_index, false);
        self.address_read(m.index(), mem_index, true);
        self.flush();
        self.mem.push(MemOperand {
            segment: fs_gs(m.segment()),
            base: some(m.base()),
            index: some(m.index()),
            scale: m.scale() as u8,
            displacement: m.displacement() as i64,
            size: m.memory_size().size() as u32,
            read: reads(m.access()),
            write: write_kind(m.access()).is_some(),
            agen: false,
            operand: None,
        });
    }

    /// Adds one access per tracked flag in `bits`.
    fn flags(&mut self, bits: u32, kind: AccessKind) {
        for (bit, flag) in FLAG_BITS {
            if bits & bit != 0 {
                self.group.push(Access {
                    loc: Loc::Flag(flag),
                    kind,
                    role: Role::Flags,
                    reg: None,
                });
            }
        }
    }
}

/// Whether `flag` is an input of `instr` only because a shift or rotate by CL leaves the
/// flags alone with a count of 0 (not a flag it reads anyway, as `rcl` reads CF).
pub(crate) fn flag_kept_by_cl_shift(instr: &Instruction, flag: Flag) -> bool {
    shifts_by_cl(instr)
        && FLAG_BITS
            .iter()
            .find(|(_, f)| *f == flag)
            .is_some_and(|(bit, _)| instr.rflags_read() & bit == 0)
}

/// Shifts and rotates whose count is in CL.
fn shifts_by_cl(instr: &Instruction) -> bool {
    use Mnemonic::*;
    matches!(
        instr.mnemonic(),
        Shl | Sal | Shr | Sar | Rol | Ror | Rcl | Rcr | Shld | Shrd
    ) && instr.op_count() >= 2
        && instr.op_kind(instr.op_count() - 1) == OpKind::Register
        && instr.op_register(instr.op_count() - 1) == Register::CL
}

/// iced drops the source reads of some same-register forms it considers "clear" idioms
/// (e.g. `xor al, al`); when our idiom list disagrees we restore them.
fn iced_cleared_sources(instr: &Instruction, info: &InstructionInfo) -> bool {
    if !idioms::same_sources(instr) {
        return false;
    }
    let last = instr.op_count() - 1;
    info.op_access(last) == OpAccess::None
}

/// The access we model for explicit operand `op`, starting from iced's.
fn effective_access(
    instr: &Instruction,
    op: u32,
    iced: OpAccess,
    ignore_sources: bool,
    iced_cleared: bool,
) -> OpAccess {
    let base = if ignore_sources {
        if op == 0 {
            OpAccess::Write
        } else {
            OpAccess::None
        }
    } else if iced_cleared {
        match (op, instr.op_count()) {
            (0, 2) => OpAccess::ReadWrite,
            (0, _) => OpAccess::Write,
            _ => OpAccess::Read,
        }
    } else {
        iced
    };
    // Merge-masking: unmasked lanes keep the old value, so the old value is an input.
    if op == 0 && instr.has_op_mask() && instr.merging_masking() && write_kind(base).is_some() {
        return OpAccess::ReadWrite;
    }
    base
}

/// Marks the `used_registers` entries iced produced for one operand register.
///
/// iced lists explicit operands first, in operand order, as `reg:access`, widening writes of
/// 32-bit GPRs to the 64-bit register and of VEX/EVEX XMM/YMM to ZMM; a widened read-write
/// becomes two entries (`eax:Read`, `rax:Write`). Exact matches are preferred so that
/// `add ah, al` pairs `ah` and `al` correctly.
fn consume(used: &[UsedRegister], consumed: &mut [bool], reg: Register, access: OpAccess) {
    if access == OpAccess::None || reg == Register::None {
        return;
    }
    let free = |consumed: &[bool], pred: &dyn Fn(&UsedRegister) -> bool| {
        used.iter()
            .enumerate()
            .position(|(j, u)| !consumed[j] && pred(u))
    };
    let full = reg.full_register();
    let Some(j) = free(consumed, &|u| u.register() == reg)
        .or_else(|| free(consumed, &|u| u.register().full_register() == full))
    else {
        return;
    };
    consumed[j] = true;
    if matches!(access, OpAccess::ReadWrite | OpAccess::ReadCondWrite)
        && used[j].access() == OpAccess::Read
    {
        let widened = free(consumed, &|u| {
            u.register().full_register() == full && write_kind(u.access()).is_some()
        });
        if let Some(k) = widened {
            consumed[k] = true;
        }
    }
}

/// Whether an iced access reads.
fn reads(a: OpAccess) -> bool {
    matches!(
        a,
        OpAccess::Read | OpAccess::CondRead | OpAccess::ReadWrite | OpAccess::ReadCondWrite
    )
}

/// The write kind of an iced access, if it writes.
fn write_kind(a: OpAccess) -> Option<AccessKind> {
    match a {
        OpAccess::Write | OpAccess::ReadWrite => Some(AccessKind::Write),
        OpAccess::CondWrite | OpAccess::ReadCondWrite => Some(AccessKind::CondWrite),
        _ => None,
    }
}

/// The `(loc, kind)` accesses of register `reg` accessed as `access`, reads first.
///
/// A conditional register write (`cmovnz rax, rbx`, `rep movsb`'s `rcx`) is a read plus a
/// write: when the write does not happen the old value survives, so it is an input, and the
/// renamer allocates a new register either way. `AccessKind::CondWrite` is therefore never
/// produced for registers.
fn reg_accesses(reg: Register, access: OpAccess) -> Vec<(Loc, AccessKind)> {
    let conditional = matches!(access, OpAccess::CondWrite | OpAccess::ReadCondWrite);
    let mut v = Vec::new();
    if reads(access) || conditional {
        v.extend(read_locs(reg).into_iter().map(|l| (l, AccessKind::Read)));
    }
    if write_kind(access).is_some() {
        v.extend(write_locs(reg, AccessKind::Write));
    }
    v
}

/// Locations read when `reg` is read.
fn read_locs(reg: Register) -> Vec<Loc> {
    if untracked(reg) {
        return Vec::new();
    }
    let full = reg.full_register();
    if is_high8(reg) {
        vec![Loc::High8(full)]
    } else if reg.is_gpr8() {
        vec![Loc::Reg(full)]
    } else if reg.is_gpr() && has_high8(full) {
        vec![Loc::Reg(full), Loc::High8(full)]
    } else {
        vec![Loc::Reg(full)]
    }
}

/// Locations touched when `reg` is written with `kind`, including the merge reads of
/// partial writes (a merge is a read of the old value).
fn write_locs(reg: Register, kind: AccessKind) -> Vec<(Loc, AccessKind)> {
    use AccessKind::Read;
    if untracked(reg) {
        return Vec::new();
    }
    let full = reg.full_register();
    let r = Loc::Reg(full);
    let h = Loc::High8(full);
    if is_high8(reg) {
        vec![(h, Read), (h, kind)]
    } else if reg.is_gpr8() {
        vec![(r, Read), (r, kind)]
    } else if reg.is_gpr16() {
        let mut v = vec![(r, Read), (r, kind)];
        if has_high8(full) {
            v.push((h, kind));
        }
        v
    } else if reg.is_gpr() && has_high8(full) {
        vec![(r, kind), (h, kind)]
    } else {
        vec![(r, kind)]
    }
}

/// Registers we do not track: none, RIP/EIP and segment registers.
fn untracked(reg: Register) -> bool {
    reg == Register::None || reg.is_ip() || reg.is_segment_register()
}

fn is_high8(reg: Register) -> bool {
    matches!(
        reg,
        Register::AH | Register::BH | Register::CH | Register::DH
    )
}

fn has_high8(full: Register) -> bool {
    matches!(
        full,
        Register::RAX | Register::RBX | Register::RCX | Register::RDX
    )
}

fn fs_gs(seg: Register) -> Option<Register> {
    matches!(seg, Register::FS | Register::GS).then_some(seg)
}

fn some(reg: Register) -> Option<Register> {
    (reg != Register::None).then_some(reg)
}
