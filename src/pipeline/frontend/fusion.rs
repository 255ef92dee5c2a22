//! Issue slots in the fused domain: micro-fusion (a load+op or store counts once, from the
//! data's `uops_retire_slots`, `_indexed` where the address has an index), un-lamination of
//! indexed addressing where the data has no `_indexed` measurement, and macro-fusion of a
//! flag-setting instruction with the Jcc after it (the data's `macro_fusible`).

use crate::db::{InstrDesc, Variant};
use crate::ir::{Instr, Loc};
use crate::uarch::{MicroArch, PortMask, Unlamination};

use crate::pipeline::Context;

/// Issue slots of `instr` alone (before macro-fusion).
pub fn slots(cx: &Context, instr: &Instr, desc: &InstrDesc) -> u32 {
    slots_of(
        instr,
        desc,
        cx.arch,
        cx.model.micro_fusion,
        cx.model.free_nops,
    )
}

/// [`slots`] from the arch and the two switches it reads (`--no-micro-fusion`,
/// `--no-free-nops`): the simulation and the issue-width bound count the same slots.
pub fn slots_of(
    instr: &Instr,
    desc: &InstrDesc,
    arch: &MicroArch,
    micro_fusion: bool,
    free_nops: bool,
) -> u32 {
    if free_nops && free_nop(instr, arch) {
        return 0;
    }
    if !micro_fusion || arch.fusion.micro_fusion == Some(false) {
        return desc.uops.max(1);
    }
    let fused = desc.fused_uops.unwrap_or(desc.uops).max(1);
    unlaminated(instr, desc, arch).map_or(fused, |unfused| fused.max(unfused))
}

/// The slots `instr` takes when the arch un-laminates its micro-fused µop because of an
/// indexed address; `None` when it stays fused or the data already counts the split.
fn unlaminated(instr: &Instr, desc: &InstrDesc, arch: &MicroArch) -> Option<u32> {
    let indexed = instr.mem.iter().any(|m| m.index.is_some() && !m.agen);
    if !indexed {
        return None;
    }
    // Where the data measured the indexed form, its slot count shows Intel's split.
    let base_only = desc.variant != Variant::Indexed;
    match arch.fusion.unlaminate_indexed? {
        Unlamination::IndexedAlways => base_only.then_some(desc.uops),
        Unlamination::IndexedUnlessRmwTwoOperand => {
            // Stays fused only as `op reg, [mem]` with the register read and written.
            let i = &instr.iced;
            let rmw_two_operand = i.op_count() == 2
                && instr
                    .reads()
                    .any(|a| instr.writes().any(|w| w.loc == a.loc));
            (base_only && !rmw_two_operand).then_some(desc.uops)
        }
        // Zen 4: our data counts dispatch slots of the indexed form too without the split.
        Unlamination::IndexedIntegerStores => is_integer_store(instr).then_some(2),
        Unlamination::Never => None,
    }
}

/// Whether `instr` stores a general-purpose register or an immediate and reads no memory
/// (`mov [m], ecx`, `mov dword ptr [m], 5`; not `add [m], ecx`, not `movd [m], xmm0`).
fn is_integer_store(instr: &Instr) -> bool {
    let stores = instr.mem.iter().any(|m| m.write && !m.read && !m.agen);
    let loads = instr.mem.iter().any(|m| m.read && !m.agen);
    let vector_source = instr.reads().any(|r| {
        matches!(r.loc, Loc::Reg(reg)
            if reg.is_xmm() || reg.is_ymm() || reg.is_zmm() || reg.is_k() || reg.is_st() || reg.is_mm())
    });
    stores && !loads && !vector_source
}

/// Whether `first` (at line `a`) and the Jcc `second` after it fuse.
pub fn macro_fuses(
    cx: &Context,
    first: &InstrDesc,
    second_instr: &Instr,
    second: &InstrDesc,
) -> bool {
    cx.model.macro_fusion
        && cx.arch.fusion.macro_fusion == Some(true)
        && second_instr.branch.is_conditional()
        && first.macro_fusible_with.contains(&second.string)
}

/// The µops of the first instruction of a fused pair: its ALU µop (the first whose ports
/// overlap the Jcc's) runs on the Jcc's ports, as the fused µop does; without one, the
/// branch µop joins the instruction. With `keep_alu` (an arch whose fused register writers
/// need an ALU, [`writer_keeps_alu`]) the ALU µop keeps its own ports.
pub fn fuse_masks(first: &mut Vec<PortMask>, jcc: &[PortMask], keep_alu: bool) {
    let Some(&branch) = jcc.iter().find(|m| !m.is_empty()) else {
        return;
    };
    match first.iter().position(|m| m.0 & branch.0 != 0) {
        Some(_) if keep_alu => {}
        Some(u) => first[u] = branch,
        None => first.push(branch),
    }
}

/// Whether the fused pair starting with `first` runs on its ALU ports: the arch says so
/// (`fusion.fused_writer_on_alu`) and `first` writes a register, as `dec rcx; jnz` does and
/// `cmp rcx, rdx; jne` does not. Zen 4 (data/arch/ZEN4.toml): four `add` chains and `dec;
/// jnz` run at 1.25 cycles per iteration, four with `add; cmp; jne` (the `cmp` fused) at 1.00.
pub fn writer_keeps_alu(arch: &MicroArch, first: &Instr) -> bool {
    arch.fusion.fused_writer_on_alu == Some(true)
        && first
            .writes()
            .any(|w| matches!(w.loc, Loc::Reg(_) | Loc::High8(_)))
}

/// Whether `instr` is a NOP that takes no dispatch slot on `arch`
/// (`front_end.nops_take_no_slot`).
pub fn free_nop(instr: &Instr, arch: &MicroArch) -> bool {
    arch.front_end.nops_take_no_slot == Some(true)
        && instr.iced.mnemonic() == iced_x86::Mnemonic::Nop
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fused_uop_takes_the_branch_ports() {
        let (p0156, p06, p23) = (PortMask(0b110_0011), PortMask(0b100_0001), PortMask(0b1100));
        let mut cmp_mem = vec![p23, p0156];
        fuse_masks(&mut cmp_mem, &[p06], false);
        assert_eq!(cmp_mem, vec![p23, p06]);
        let mut only_load = vec![p23];
        fuse_masks(&mut only_load, &[p06], false);
        assert_eq!(only_load, vec![p23, p06]);
        // A register writer on an arch that keeps it on its ALUs: unchanged.
        let mut dec = vec![p0156];
        fuse_masks(&mut dec, &[p06], true);
        assert_eq!(dec, vec![p0156]);
        let mut load_only = vec![p23];
        fuse_masks(&mut load_only, &[p06], true);
        assert_eq!(load_only, vec![p23, p06]);
    }
}
