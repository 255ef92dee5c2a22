//! Zero idioms and eliminated register moves: resolved at rename, they use no port and their
//! result is ready at once (SL §3.4; Intel optimization manual, "zero-latency MOV";
//! uops.info's `_same_reg` measurements of `xor r, r`). Which moves an arch eliminates comes
//! from its description (`[move_elimination]`).

use iced_x86::{Mnemonic, OpKind, Register};

use crate::ir::{Idiom, Instr, Loc};
use crate::sim::{EliminableMove, Rename};
use crate::uarch::{MicroArch, PortMask, Role};

/// Whether `instr` executes without a port and with latency 0 on `arch`.
pub fn eliminated(instr: &Instr, arch: &MicroArch) -> bool {
    instr.idiom == Some(Idiom::Zero) || eliminated_move(instr, arch)
}

/// How a zero idiom or register move executes when nothing is eliminated
/// (`--no-move-elim`): one µop on the ALU ports (vector ports for vector registers) with
/// latency 1. `None` for other instructions. uops.info's data already shows the
/// elimination (`uops="0"`, latency 0), so turning it off needs this form.
pub fn executed_form(instr: &Instr, arch: &MicroArch) -> Option<PortMask> {
    let i = &instr.iced;
    let is_move = i.op_count() == 2
        && i.op0_kind() == OpKind::Register
        && i.op1_kind() == OpKind::Register
        && (i.mnemonic() == Mnemonic::Mov || VECTOR_MOVES.contains(&i.mnemonic()));
    if instr.idiom != Some(Idiom::Zero) && !is_move {
        return None;
    }
    let vector = i.op0_kind() == OpKind::Register && i.op0_register().is_vector_register();
    let role = if vector { Role::Vector } else { Role::Alu };
    let ports = arch.ports_with_role(role);
    Some(if ports.is_empty() {
        arch.ports_with_role(Role::Alu)
    } else {
        ports
    })
}

const VECTOR_MOVES: [Mnemonic; 12] = [
    Mnemonic::Movaps,
    Mnemonic::Movapd,
    Mnemonic::Movups,
    Mnemonic::Movupd,
    Mnemonic::Movdqa,
    Mnemonic::Movdqu,
    Mnemonic::Vmovaps,
    Mnemonic::Vmovapd,
    Mnemonic::Vmovups,
    Mnemonic::Vmovupd,
    Mnemonic::Vmovdqa,
    Mnemonic::Vmovdqu,
];

/// The renaming `instr` does where the arch limits eliminated moves: the registers it
/// writes and, for an eliminable move, its registers and the ports it takes when it finds no
/// slot. `None` on arches without limits.
pub fn rename(instr: &Instr, arch: &MicroArch) -> Option<Rename> {
    let elim = &arch.move_elimination;
    if elim.gpr_slots.is_none() && elim.vector_slots.is_none() {
        return None;
    }
    let writes = instr
        .writes()
        .filter_map(|a| match a.loc {
            Loc::Reg(r) | Loc::High8(r) => register_id(r),
            Loc::Flag(_) => None,
        })
        .fold(0u64, |w, id| w | 1 << id);
    let eliminable = eliminated_move(instr, arch)
        .then(|| {
            let i = &instr.iced;
            Some(EliminableMove {
                dst: register_id(i.op0_register().full_register())?,
                src: register_id(i.op1_register().full_register())?,
                executed: executed_form(instr, arch)?,
            })
        })
        .flatten();
    Some(Rename { writes, eliminable })
}

/// The renamer's number of a full register: general-purpose 0–15, vector 16–47.
fn register_id(r: Register) -> Option<u8> {
    if r.is_gpr64() {
        Some(r.number() as u8)
    } else if r.is_zmm() {
        Some(16 + r.number() as u8)
    } else {
        None
    }
}

/// Register-to-register moves the arch's rename stage eliminates: 32/64-bit GPR moves and
/// full vector register moves, between different registers.
fn eliminated_move(instr: &Instr, arch: &MicroArch) -> bool {
    let i = &instr.iced;
    if i.op_count() != 2 || i.op0_kind() != OpKind::Register || i.op1_kind() != OpKind::Register {
        return false;
    }
    let (dst, src) = (i.op0_register(), i.op1_register());
    if dst.full_register() == src.full_register() {
        return false; // mov eax, eax zero-extends: a real µop
    }
    let elim = &arch.move_elimination;
    match i.mnemonic() {
        Mnemonic::Mov => {
            elim.gpr == Some(true) && (dst.is_gpr32() || dst.is_gpr64()) && gpr_same_size(dst, src)
        }
        m if VECTOR_MOVES.contains(&m) => elim.vector == Some(true) && dst.is_vector_register(),
        _ => false,
    }
}

fn gpr_same_size(a: Register, b: Register) -> bool {
    (a.is_gpr32() && b.is_gpr32()) || (a.is_gpr64() && b.is_gpr64())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode_bytes;

    fn first(bytes: &[u8]) -> Instr {
        decode_bytes(bytes, 0).expect("decodes").remove(0)
    }

    #[test]
    fn moves_and_idioms_by_arch() {
        let skl = crate::uarch::load("SKL").expect("SKL");
        let snb = crate::uarch::load("SNB").expect("SNB");
        let mov_rax_rbx = first(&[0x48, 0x89, 0xd8]); // mov rax, rbx
        let mov_ax_bx = first(&[0x66, 0x89, 0xd8]); // mov ax, bx
        let mov_eax_eax = first(&[0x89, 0xc0]); // mov eax, eax
        let movaps = first(&[0x0f, 0x28, 0xc1]); // movaps xmm0, xmm1
        let xor = first(&[0x31, 0xc0]); // xor eax, eax
        let add = first(&[0x48, 0x01, 0xd8]); // add rax, rbx
        assert!(eliminated(&mov_rax_rbx, &skl));
        assert!(
            !eliminated(&mov_rax_rbx, &snb),
            "SNB has no move elimination"
        );
        assert!(!eliminated(&mov_ax_bx, &skl), "16-bit moves merge");
        assert!(!eliminated(&mov_eax_eax, &skl));
        assert!(eliminated(&movaps, &skl));
        assert!(eliminated(&xor, &snb), "zero idioms on every arch");
        assert!(!eliminated(&add, &skl));
    }
}
