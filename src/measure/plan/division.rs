//! Dividers: latency and throughput depend on the operand values (seed digest §1.9 "5.2.5
//! Divisions", §1.15): slow and fast values from Fog's test scripts; the operand is reset to
//! the same value after every division.

use iced_x86::{Code, Instruction, MemoryOperand, Register};

use super::super::catalog::{instantiate, OpRef, RegClass, Variant};
use super::super::harness::Spec;
use super::regs::Assign;
use super::{kernel, Basics, LatKind, Planned, Role};

/// Integer division operand values (slow, fast): (rax, rdx, divisor).
pub fn div_values(width: u32, slow: bool) -> (u64, u64, u64) {
    if !slow {
        return (0, 0, 1);
    }
    match width {
        8 => (13057, 0, 123),
        16 => (133, 0x343a, 0x75e6),
        32 => (133, 0x343a_9ed7, 0x75e6_e44f),
        _ => (133, 0x343a_9ed7_4455_6677, 0x75e6_e44f_ccdd_eeff),
    }
}

pub(super) fn int_div_plan(v: &Variant, w: u32, b: &Basics) -> Result<Planned, String> {
    // Operands: divisor in RBX/[mem]; AX/DX set per instance with MOV (breaks dependencies).
    let divisor_reg = RegClass::Gpr(w).reg(Register::RBX.number() as u32);
    let a = Assign {
        regs: vec![divisor_reg],
        mems: vec![4096],
    };
    let ins = instantiate(v, &a.regs, &a.mems, 0)?;
    let mut out = Vec::new();
    let rax_idx = v
        .operands
        .iter()
        .find(|o| o.what == OpRef::Implicit(Register::RAX))
        .map(|o| o.idx);
    for slow in [false, true] {
        let (ax, dx, div) = div_values(w, slow);
        let mut k = kernel(v, Vec::new());
        k.gpr_init = vec![(Register::RBX, div), (Register::R8, ax), (Register::R9, dx)];
        k.init.push(
            Instruction::with2(
                Code::Mov_rm64_r64,
                MemoryOperand::with_base_displ(Register::R14, 4096),
                Register::RBX,
            )
            .map_err(|e| e.to_string())?,
        );
        let mv = |r: Register, val: Register| {
            Instruction::with2(Code::Mov_r64_rm64, r, val).expect("mov")
        };
        // Throughput: mov rax, r8; mov rdx, r9; div.
        let mut tk = k.clone();
        tk.body = vec![
            mv(Register::RAX, Register::R8),
            mv(Register::RDX, Register::R9),
            ins,
        ];
        if w == 8 {
            tk.body = vec![mv(Register::RAX, Register::R8), ins];
        }
        out.push((
            Spec::Unrolled {
                kernel: tk,
                copies_a: 50,
                copies_b: 100,
            },
            Role::Tp {
                instances: 1,
                loop_: false,
                slow: Some(slow),
            },
        ));
        // Latency RAX → RAX: reset the value with AND/OR (keeps the dependency).
        if let Some(ri) = rax_idx {
            let mut lk = k.clone();
            let and = |r, c| Instruction::with2(Code::And_r64_rm64, r, c).expect("and");
            let or = |r, c| Instruction::with2(Code::Or_r64_rm64, r, c).expect("or");
            lk.body = vec![
                ins,
                and(Register::RAX, Register::R8),
                or(Register::RAX, Register::R8),
            ];
            if w != 8 {
                lk.body.push(and(Register::RDX, Register::R9));
                lk.body.push(or(Register::RDX, Register::R9));
            }
            // Start values must be the reset values: set RAX/RDX in the kernel prologue.
            lk.gpr_init.push((Register::RAX, ax));
            lk.gpr_init.push((Register::RDX, dx));
            out.push((
                Spec::Unrolled {
                    kernel: lk,
                    copies_a: 50,
                    copies_b: 100,
                },
                Role::Lat {
                    start: ri,
                    target: ri,
                    kind: LatKind::Reg,
                    subtract: b.andor,
                    upper: false,
                    slow: Some(slow),
                },
            ));
        }
    }
    Ok(out)
}
