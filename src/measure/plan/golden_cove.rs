//! Candidate blockers for Golden Cove and Redwood Cove (ADL-P, MTL-P) in uops.info's port
//! notation of those cores: vector `p0`, `p5`, `p01`, `p15`, `p015`; integer `p1`, `p06`;
//! loads `p23A`. Each combination's instruction is the one uops.info's MTL-P data gives
//! exactly that port set (`VPMOVMSKB (R32, YMM)` 1*p0, `VPERMD (YMM, YMM, YMM)` 1*p5,
//! `VMULPD` 1*p01, `VADDPD` 1*p15, `VPOR` 1*p015, `POPCNT (R64, R64)` 1*p1, `SHLX` 1*p06,
//! `MOV (R64, M64)` 1*p23A); the run keeps a candidate only when it measures 1/|ports| and
//! interferes with the others as the combinations nest (`plan::interference_specs`).
//! Stores have no one-µop blocker (a store is an address and a data µop); their µops come
//! from the arch description (`infer::PortFallback`).

use iced_x86::{Code, Instruction, MemoryOperand, Register};

use super::blocking::{vector_blocker, Blocker, Domain};

/// The candidates, one per combination.
pub fn golden_cove_candidates() -> Vec<Blocker> {
    let r13 = Register::R13;
    let r14 = Register::R14;
    let movmsk =
        |c: Code, src: Register| Instruction::with2(c, Register::R13D, src).expect("vpmovmskb");
    vec![
        Blocker {
            seq128: vec![movmsk(Code::VEX_Vpmovmskb_r32_xmm, Register::XMM14)],
            ..Blocker::new(
                "p0",
                Domain::Fp,
                "vpmovmskb r13d, ymm14",
                vec![movmsk(Code::VEX_Vpmovmskb_r32_ymm, Register::YMM14)],
            )
        },
        // VPERMD has no 128-bit form; next to legacy SSE the 256-bit one runs (an upper
        // state penalty shows as a failed check, not as a wrong port).
        vector_blocker("p5", "vpermd", Code::VEX_Vpermd_ymm_ymm_ymmm256, None),
        vector_blocker(
            "p01",
            "vmulpd",
            Code::VEX_Vmulpd_ymm_ymm_ymmm256,
            Some(Code::VEX_Vmulpd_xmm_xmm_xmmm128),
        ),
        vector_blocker(
            "p15",
            "vaddpd",
            Code::VEX_Vaddpd_ymm_ymm_ymmm256,
            Some(Code::VEX_Vaddpd_xmm_xmm_xmmm128),
        ),
        vector_blocker(
            "p015",
            "vpor",
            Code::VEX_Vpor_ymm_ymm_ymmm256,
            Some(Code::VEX_Vpor_xmm_xmm_xmmm128),
        ),
        Blocker::new(
            "p1",
            Domain::Int,
            "popcnt r13, r14",
            vec![Instruction::with2(Code::Popcnt_r64_rm64, r13, r14).expect("popcnt")],
        ),
        Blocker::new(
            "p06",
            Domain::Int,
            "shlx r13, r14, r14",
            vec![Instruction::with3(Code::VEX_Shlx_r64_rm64_r64, r13, r14, r14).expect("shlx")],
        ),
        // As Zen's: 1536 mod 2048 away from the instructions' memory operands. Two
        // addresses in different L1 banks: three loads of one bank a cycle cannot all read
        // (one address every copy measures 0.50 cycles, not 0.33).
        Blocker {
            odd: Some(vec![load(3600)]),
            ..Blocker::new(
                "p23A",
                Domain::Agu,
                "mov r13, [r14+3584] / [r14+3600]",
                vec![load(3584)],
            )
        },
    ]
}

/// `mov r13, [r14+displacement]`.
fn load(displacement: i64) -> Instruction {
    Instruction::with2(
        Code::Mov_r64_rm64,
        Register::R13,
        MemoryOperand::with_base_displ(Register::R14, displacement),
    )
    .expect("load")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::plan::blocker_specs;

    #[test]
    fn one_candidate_per_combination_of_mtl_p_ports() {
        let mtl = crate::uarch::load("MTL-P").unwrap();
        let c = golden_cove_candidates();
        let combos: Vec<&str> = c.iter().map(|b| b.ports.as_str()).collect();
        assert_eq!(
            combos,
            ["p0", "p5", "p01", "p15", "p015", "p1", "p06", "p23A"]
        );
        for b in &c {
            let group = crate::uopsxml::PortGroup {
                count: 1,
                prefix: "p".into(),
                ports: b.ports[1..].into(),
            };
            let mask = mtl.port_mask(&group).expect("an MTL-P port set");
            assert_eq!(mask.iter().count(), b.n_ports, "{}", b.ports);
        }
    }

    /// The load blocker alternates two L1 banks (one address every copy reads two a cycle
    /// on Redwood Cove); its kernel holds a whole period. The others repeat one copy.
    #[test]
    fn the_load_blocker_alternates_its_address() {
        let c = golden_cove_candidates();
        let load = c.iter().find(|b| b.ports == "p23A").unwrap();
        assert_eq!(load.period(), 2);
        assert_ne!(load.copy(0, false), load.copy(1, false));
        assert_eq!(load.copy(0, false), load.copy(2, false));
        let displacement = |i: usize| load.copy(i, false)[0].memory_displacement64();
        assert_ne!(displacement(0) % 64 / 4, displacement(1) % 64 / 4);
        let specs = blocker_specs(&c);
        let body_len = |s: &crate::measure::harness::Spec| match s {
            crate::measure::harness::Spec::Unrolled { kernel, .. } => kernel.body.len(),
            _ => 0,
        };
        let lens: Vec<usize> = specs.iter().map(body_len).collect();
        assert_eq!(lens, [1, 1, 1, 1, 1, 1, 1, 2]);
    }
}
