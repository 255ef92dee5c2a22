//! High-8 merge µops: where the renamer keeps `ah`..`dh` apart from their full register
//! (Sandy Bridge to Cascade Lake, `renamer.high8_merge_uops`), an instruction that reads the
//! wider register (`ax`, `eax`, `rax`) after a write of its high byte alone (`mov ah, bl`)
//! first gets a µop that merges the two. It takes an issue slot and an ALU port, and the
//! reader waits a cycle more for the register; one merge serves every later reader until the
//! high byte is written alone again (Agner Fog, "The microarchitecture of Intel,
//! AMD and VIA CPUs", "Partial registers"; the uiCA paper, arXiv 2107.14210). As with the
//! stack-sync µop the merge is folded into its reader (docs/model.md, "High-8 merge µops").
//! Ice Lake and later merge on the write: nothing to add.

use iced_x86::{ConditionCode, Mnemonic, Register};

use crate::ir::{Instr, Loc};
use crate::uarch::MicroArch;

/// The registers with a high byte of their own, in mask bit order.
const HIGH8: [Register; 4] = [Register::RAX, Register::RBX, Register::RCX, Register::RDX];

/// The registers (a mask over `HIGH8`) whose merge µop each of `instrs` (program order) gets
/// on `arch`: the first read of a register whole (its full location and its high byte)
/// after a write of its high byte alone merges it; a write of the whole register (32 or 64
/// bits) leaves nothing to merge. With `looped` the sequence repeats, so a high byte left
/// unmerged at the end is merged in the next iteration.
pub fn merges(arch: &MicroArch, instrs: &[&Instr], looped: bool) -> Vec<u8> {
    if arch.renamer.high8_merge_uops != Some(true) {
        return vec![0; instrs.len()];
    }
    let run = |mut dirty: u8| {
        let mut out = Vec::with_capacity(instrs.len());
        for i in instrs {
            let mut merged = 0u8;
            for (bit, &r) in HIGH8.iter().enumerate() {
                let m = 1u8 << bit;
                let reads = |loc| i.reads().any(|a| a.loc == loc);
                if dirty & m != 0 && reads(Loc::Reg(r)) && reads(Loc::High8(r)) {
                    merged |= m;
                    dirty &= !m;
                }
                let writes = |loc| i.writes().any(|a| a.loc == loc);
                match (writes(Loc::Reg(r)), writes(Loc::High8(r))) {
                    (false, true) => dirty |= m,
                    (true, true) => dirty &= !m,
                    _ => {}
                }
            }
            out.push(merged);
        }
        (out, dirty)
    };
    let (first, dirty) = run(0);
    if looped && dirty != 0 {
        run(dirty).0
    } else {
        first
    }
}

/// Whether `loc` waits for one of the merges in `mask`: the merged register or its high byte.
pub fn is_merged(loc: Loc, mask: u8) -> bool {
    HIGH8
        .iter()
        .enumerate()
        .any(|(bit, &r)| mask & (1 << bit) != 0 && (loc == Loc::Reg(r) || loc == Loc::High8(r)))
}

/// Whether `consumer` overwrites the high byte `loc` without reading it (`mov ah, bl`,
/// `sete ah`) on an arch that renames high bytes apart: the decoder's merge read of the old
/// high byte (its rule for every 8-bit write) is no input there.
pub fn write_alone(arch: &MicroArch, consumer: &Instr, loc: Loc) -> bool {
    let Loc::High8(r) = loc else {
        return false;
    };
    let i = &consumer.iced;
    let dest = i.op0_register();
    let writes_only = i.mnemonic() == Mnemonic::Mov
        || (i.condition_code() != ConditionCode::None && i.op_count() == 1);
    arch.renamer.high8_merge_uops == Some(true)
        && writes_only
        && matches!(
            dest,
            Register::AH | Register::BH | Register::CH | Register::DH
        )
        && dest.full_register() == r
        && (1..i.op_count()).all(|k| i.op_register(k) != dest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode_bytes;
    use crate::input::parse_hex;

    /// `mov ah, bl; add eax, ecx; movzx edx, ah; test eax, eax`: the `add` reads rax whole
    /// after `mov ah, bl` wrote its high byte alone, so it merges on Sandy Bridge, Haswell and
    /// Skylake (mask bit 0, rax), not on Ice Lake (merged on write) or Zen 4; `movzx edx, ah`
    /// reads the high byte alone, and `test eax, eax` after the `add` (a whole write) finds
    /// nothing to merge. `mov ah, bl` does not wait for the old ah there; `add ah, bl` reads
    /// it.
    #[test]
    fn the_first_whole_read_after_a_high_byte_write_merges_where_renamed_apart() {
        let instrs = decode_bytes(&parse_hex("88dc01c80fb6d485c0").unwrap(), 0).unwrap();
        let refs: Vec<&Instr> = instrs.iter().collect();
        for arch in ["HSW", "SKL", "SNB"] {
            let a = crate::uarch::load(arch).unwrap();
            assert_eq!(merges(&a, &refs, true), [0, 1, 0, 0], "{arch}");
        }
        for arch in ["ICL", "ZEN4"] {
            let a = crate::uarch::load(arch).unwrap();
            assert_eq!(merges(&a, &refs, true), [0; 4], "{arch}");
        }
        // Two whole reads after one high-byte write: one merge; a loop whose high byte is
        // left unmerged at the end merges at the next iteration's first whole read.
        let two = decode_bytes(&parse_hex("85c085c088dc").unwrap(), 0).unwrap();
        let two: Vec<&Instr> = two.iter().collect();
        let hsw = crate::uarch::load("HSW").unwrap();
        assert_eq!(merges(&hsw, &two, false), [0, 0, 0]);
        assert_eq!(merges(&hsw, &two, true), [1, 0, 0]);
        assert!(is_merged(Loc::High8(Register::RAX), 1));
        assert!(!is_merged(Loc::Reg(Register::RAX), 2));
        let ah = Loc::High8(Register::RAX);
        assert!(write_alone(&hsw, &instrs[0], ah));
        assert!(!write_alone(
            &crate::uarch::load("ICL").unwrap(),
            &instrs[0],
            ah
        ));
        let add_ah = decode_bytes(&parse_hex("00dc").unwrap(), 0).unwrap();
        assert!(!write_alone(&hsw, &add_ah[0], ah));
        let sete_ah = decode_bytes(&parse_hex("0f94c4").unwrap(), 0).unwrap();
        assert!(write_alone(&hsw, &sete_ah[0], ah));
    }
}
