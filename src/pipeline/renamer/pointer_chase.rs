//! Fast pointer chasing (Intel Sandy Bridge to Cascade Lake, `memory.fast_pointer_chasing`):
//! a load whose address is `[base + disp]` with no index and 0 ≤ disp < 2048 has a 4-cycle
//! load-to-use latency instead of 5 when its base came from another load, the pattern of a
//! pointer walk (`mov r15, [r15+8]`). The data's latencies are measured with other chains, so
//! such an edge is a cycle shorter than they say (docs/model.md, "Fast pointer chasing").

use iced_x86::{Mnemonic, OpKind};

use crate::ir::{Instr, Loc};
use crate::uarch::MicroArch;

/// Largest displacement (exclusive) of the fast path.
const MAX_DISPLACEMENT: i64 = 2048;

/// Cycles the edge from `producer` to `consumer` through `loc` is shorter than the data's
/// latencies make it: 1 on the fast path, else 0.
pub fn saving(arch: &MicroArch, producer: &Instr, consumer: &Instr, loc: Loc) -> u32 {
    // A 64-bit write of rax..rdx also writes their high byte (ah..dh), a location of its
    // own: the base arrives through both.
    let (Loc::Reg(reg) | Loc::High8(reg)) = loc else {
        return 0;
    };
    let fast = arch.memory.fast_pointer_chasing == Some(true)
        && is_plain_load(producer)
        && consumer.mem.iter().any(|m| {
            m.read
                && !m.agen
                && m.segment.is_none()
                && m.index.is_none()
                && m.base
                    .is_some_and(|b| b.full_register() == reg.full_register())
                && (0..MAX_DISPLACEMENT).contains(&m.displacement)
        });
    u32::from(fast)
}

/// `mov r64, [mem]`: a load whose only operation is the load, the pointer walk's producer.
fn is_plain_load(instr: &Instr) -> bool {
    instr.iced.mnemonic() == Mnemonic::Mov
        && instr.iced.op_count() == 2
        && instr.iced.op0_kind() == OpKind::Register
        && instr.iced.op0_register().size() == 8
        && instr.iced.op1_kind() == OpKind::Memory
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode_bytes;
    use crate::input::parse_hex;
    use crate::uarch::MicroArch;

    fn instrs(hex: &str) -> Vec<Instr> {
        decode_bytes(&parse_hex(hex).expect("hex"), 0).expect("decodes")
    }

    fn arch(name: &str) -> MicroArch {
        crate::uarch::load(name).expect("arch")
    }

    #[test]
    fn a_pointer_walk_is_a_cycle_faster_on_skylake_only() {
        // mov r15, [r15+8]; cmp r14, r15
        let i = instrs("4d8b7f084d39fe");
        let r15 = Loc::Reg(iced_x86::Register::R15);
        assert_eq!(saving(&arch("SKL"), &i[0], &i[0], r15), 1);
        assert_eq!(saving(&arch("CFL"), &i[0], &i[0], r15), 1);
        assert_eq!(saving(&arch("ICL"), &i[0], &i[0], r15), 0);
        assert_eq!(saving(&arch("ZEN4"), &i[0], &i[0], r15), 0);
        // Into the compare (not an address): no saving.
        assert_eq!(saving(&arch("SKL"), &i[0], &i[1], r15), 0);
        // mov rcx, [rcx+0x70]: rcx's value arrives as rcx and as ch, both a cycle faster
        // (BHive's Haswell measured such a walk at 4.00 a copy; through ch it read 5.00).
        let i = instrs("488b4970");
        for loc in [
            Loc::Reg(iced_x86::Register::RCX),
            Loc::High8(iced_x86::Register::RCX),
        ] {
            assert_eq!(saving(&arch("HSW"), &i[0], &i[0], loc), 1, "{loc:?}");
        }
    }

    #[test]
    fn index_large_displacement_and_computed_bases_take_the_slow_path() {
        let skl = arch("SKL");
        let rax = Loc::Reg(iced_x86::Register::RAX);
        // mov rax, [rax+rcx]: an index.
        let i = instrs("488b0408");
        assert_eq!(saving(&skl, &i[0], &i[0], rax), 0);
        // mov rax, [rax+0x800]: displacement 2048.
        let i = instrs("488b8000080000");
        assert_eq!(saving(&skl, &i[0], &i[0], rax), 0);
        // add rax, 8 producing the base of mov rcx, [rax]: not a load.
        let i = instrs("4883c008488b08");
        assert_eq!(saving(&skl, &i[0], &i[1], rax), 0);
    }
}
