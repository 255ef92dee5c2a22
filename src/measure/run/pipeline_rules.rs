//! Pipeline rules by measurement (issue #16 item 3): the yes/no parameters of the arch
//! description that `suaca profile` fixtures established by hand on Zen 4
//! (docs/model.md), each decided here by a pair of microbenchmarks against a threshold
//! halfway between the two readings:
//!
//! - `front_end.nops_take_no_slot`: `nop; mov; cmp` (0.33 on Zen 4) against `mov; cmp`
//!   (0.33); yes when the NOP adds under half a dispatch slot.
//! - `fusion.fused_writer_on_alu`: four `add` chains in the harness's `dec; jne` loop (1.25);
//!   yes above (4 + 0.5) / ALUs.
//! - `scheduler.vector_to_gpr_holds_alus`: `movq rcx, xmm0; add r8, 1` (1.61) against `movq`
//!   alone (1.00); yes when 30% slower.
//! - `memory.store_line_pairs`: two 8-byte stores to one line (1.00) against two lines
//!   (2.00); yes when 25% faster.
//! - `memory.store_pair_bytes`: with line pairs, two 8-byte stores 24 bytes apart in one
//!   64-byte line but two 32-byte blocks (2.00 on Zen 4): 32 when they run like two lines
//!   (above the midpoint of the one-line and two-line readings), else 64.
//! - `memory.stack_renaming`: `push rax; pop rax` (1.00; forwarding takes 6 or more); yes
//!   under 3 cycles.
//! - `scheduler.cl_shifts_read_flags`: `shl r9, cl; shl r10, cl` (1.00; through the flags
//!   2.00); yes at 1.5 cycles or more.
//! - `fusion.unlaminate_indexed = "indexed_integer_stores"`: `mov [r14+rbx*8+4096], rax`
//!   and four zero idioms (1.00 on Zen 4: 6 slots) against the base-only store (0.83: 5);
//!   yes when the index adds half a slot.
//! - `scheduler.whole_instruction_dispatch`: the indexed store and three zero idioms (1.00:
//!   its two slots never split, 5 a cycle) against 5/6 split; decided when the store takes
//!   two slots, yes above the midpoint.
//!
//! and two rates: `front_end.taken_branches_per_cycle`, from a run of `jmp` to the next
//! instruction (1.07 cycles per branch on Zen 4: 0.93 a cycle, written to two decimals), and
//! `memory.store_forward_fail_cycles`, from `mov dword [r14+4096], eax; mov rcx, [r14+4096]`
//! unrolled, a load over a 4-byte store and older bytes (19.00 cycles per copy on Zen 4).

use iced_x86::{Code, Instruction, MemoryOperand, Register};

use super::super::harness::{branch_to_next, Kernel, Spec};
use super::super::machine::MachineParams;
use super::machine_bench::{r2, tp_spec};

/// Kernels in the order [`read`] takes their results.
pub(super) fn specs() -> Vec<Spec> {
    let load = |r: Register| {
        Instruction::with2(
            Code::Mov_r64_rm64,
            r,
            MemoryOperand::with_base_displ(Register::R14, 4096),
        )
        .expect("load")
    };
    let cmp = r2(Code::Cmp_r64_rm64, Register::RDI, Register::R10);
    let add1 = |r: Register| Instruction::with2(Code::Add_rm64_imm8, r, 1).expect("add");
    let movq = |r: Register, x: Register| r2(Code::Movq_rm64_xmm, r, x);
    let store = |disp: i64, r: Register| {
        Instruction::with2(
            Code::Mov_rm64_r64,
            MemoryOperand::with_base_displ(Register::R14, disp),
            r,
        )
        .expect("store")
    };
    let push = Instruction::with1(Code::Push_r64, Register::RAX).expect("push");
    let pop = Instruction::with1(Code::Pop_r64, Register::RAX).expect("pop");
    let adds: Vec<Instruction> = [Register::R8, Register::R9, Register::R10, Register::R11]
        .into_iter()
        .map(add1)
        .collect();
    // An indexed (rbx = 0) or base-only store of rax, then `zeros` zero idioms.
    let store_and_zeros = |indexed: bool, zeros: usize| {
        let mem = if indexed {
            MemoryOperand::with_base_index_scale_displ_size(
                Register::R14,
                Register::RBX,
                8,
                4096,
                8,
            )
        } else {
            MemoryOperand::with_base_displ(Register::R14, 4096)
        };
        let mut body =
            vec![Instruction::with2(Code::Mov_rm64_r64, mem, Register::RAX).expect("store")];
        for r in [Register::R8D, Register::R9D, Register::R10D, Register::R11D]
            .into_iter()
            .take(zeros)
        {
            body.push(r2(Code::Xor_r32_rm32, r, r));
        }
        tp_spec(body, vec![], vec![(Register::RBX, 0)])
    };
    vec![
        tp_spec(
            vec![Instruction::with(Code::Nopd), load(Register::RDI), cmp],
            vec![],
            vec![],
        ),
        tp_spec(vec![load(Register::RDI), cmp], vec![], vec![]),
        Spec::Loop {
            kernel: Kernel {
                body: adds,
                ..Kernel::default()
            },
            copies: 1,
        },
        tp_spec(
            vec![movq(Register::RCX, Register::XMM0), add1(Register::R8)],
            vec![],
            vec![],
        ),
        tp_spec(vec![movq(Register::RCX, Register::XMM0)], vec![], vec![]),
        tp_spec(
            vec![store(4096, Register::RAX), store(4104, Register::RCX)],
            vec![],
            vec![],
        ),
        tp_spec(
            vec![store(4096, Register::RAX), store(4224, Register::RCX)],
            vec![],
            vec![],
        ),
        tp_spec(vec![push, pop], vec![], vec![]),
        tp_spec(
            vec![branch_to_next(Code::Jmp_rel32_64).expect("jmp")],
            vec![],
            vec![],
        ),
        tp_spec(
            vec![
                r2(Code::Shl_rm64_CL, Register::R9, Register::CL),
                r2(Code::Shl_rm64_CL, Register::R10, Register::CL),
            ],
            vec![],
            vec![(Register::RCX, 3)],
        ),
        store_and_zeros(true, 4),
        store_and_zeros(false, 4),
        store_and_zeros(true, 3),
        tp_spec(
            vec![
                Instruction::with2(
                    Code::Mov_rm32_r32,
                    MemoryOperand::with_base_displ(Register::R14, 4096),
                    Register::EAX,
                )
                .expect("store"),
                load(Register::RCX),
            ],
            vec![],
            vec![],
        ),
        tp_spec(
            vec![store(4104, Register::RAX), store(4128, Register::RCX)],
            vec![],
            vec![],
        ),
    ]
}

/// The rules from the kernels' cycles (`v[i]` for `specs()[i]`), the ALUs per cycle and the
/// dispatch width measured before; each decided rule's readings go to `m.rule_evidence`.
pub(super) fn read(v: &[Option<f64>], m: &mut MachineParams) {
    let get = |i: usize| v.get(i).copied().flatten();
    let mut note = |field: &str, text: String| {
        m.rule_evidence.insert(field.to_string(), text);
    };
    if let (Some(with), Some(without), Some(width)) = (get(0), get(1), m.dispatch_width) {
        let slot = 1.0 / f64::from(width.max(1));
        m.nops_take_no_slot = Some(with - without < slot / 2.0);
        note(
            "front_end.nops_take_no_slot",
            format!("nop; mov; cmp {with:.3} against mov; cmp {without:.3} cycles per copy (a slot: {slot:.3})"),
        );
    }
    if let (Some(t), Some(alus)) = (get(2), m.alu_per_cycle) {
        let alus = f64::from(alus.max(1));
        m.fused_writer_on_alu = Some(t > 4.5 / alus);
        note(
            "fusion.fused_writer_on_alu",
            format!("four add chains in a dec; jne loop {t:.3} cycles per iteration ({alus} ALUs: 4 / ALUs with the branch apart, 5 / ALUs with it on an ALU)"),
        );
    }
    if let (Some(with), Some(alone)) = (get(3), get(4)) {
        m.vector_to_gpr_holds_alus = Some(with > 1.3 * alone);
        note(
            "scheduler.vector_to_gpr_holds_alus",
            format!(
                "movq rcx, xmm0; add r8, 1 {with:.3} against movq alone {alone:.3} cycles per copy"
            ),
        );
    }
    if let (Some(one), Some(two)) = (get(5), get(6)) {
        let pairs = one < 0.75 * two;
        m.store_line_pairs = Some(pairs);
        note(
            "memory.store_line_pairs",
            format!("two 8-byte stores to one 64-byte line {one:.3} against two lines {two:.3} cycles per pair"),
        );
        if let (true, Some(halves)) = (pairs, get(14)) {
            m.store_pair_bytes = Some(if halves > (one + two) / 2.0 { 32 } else { 64 });
            note(
                "memory.store_pair_bytes",
                format!("two 8-byte stores in one 64-byte line, two 32-byte blocks {halves:.3} against one block {one:.3} and two lines {two:.3} cycles per pair"),
            );
        }
    }
    if let Some(t) = get(7) {
        m.stack_renaming = Some(t < 3.0);
        note(
            "memory.stack_renaming",
            format!("push rax; pop rax {t:.3} cycles per pair (store forwarding takes 6 or more)"),
        );
    }
    if let Some(t) = get(9) {
        m.cl_shifts_read_flags = Some(t >= 1.5);
        note(
            "scheduler.cl_shifts_read_flags",
            format!("shl r9, cl; shl r10, cl {t:.3} cycles per copy (2 through the flags)"),
        );
    }
    if let (Some(indexed), Some(base), Some(width)) = (get(10), get(11), m.dispatch_width) {
        let slot = 1.0 / f64::from(width.max(1));
        let two = indexed - base >= slot / 2.0;
        m.indexed_integer_stores = Some(two);
        note(
            "fusion.unlaminate_indexed",
            format!("an indexed store of rax and four zero idioms {indexed:.3} against a base-only store {base:.3} cycles per copy (a slot: {slot:.3})"),
        );
        if let (true, Some(three)) = (two, get(12)) {
            // Five slots a copy: 5/6 a cycle when they split, 1 when the store waits.
            let split = 5.0 * slot;
            m.whole_instruction_dispatch = Some(three > (split + 1.0) / 2.0);
            note(
                "scheduler.whole_instruction_dispatch",
                format!("an indexed store of rax and three zero idioms {three:.3} cycles per copy (split slots: {split:.3}, whole: 1.000)"),
            );
        }
    }
    if let Some(t) = get(13).filter(|t| *t >= 1.5) {
        m.store_forward_fail_cycles = Some(t.round() as u32);
        note(
            "memory.store_forward_fail_cycles",
            format!("mov dword [m], eax; mov rcx, [m] (8 bytes over a 4-byte store) {t:.3} cycles per copy"),
        );
    }
    if let Some(t) = get(8).filter(|t| *t > 0.0) {
        m.taken_branches_per_cycle = Some((100.0 / t).round() / 100.0);
        note(
            "front_end.taken_branches_per_cycle",
            format!("jmp to the next instruction, {t:.3} cycles per branch"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> MachineParams {
        MachineParams {
            dispatch_width: Some(6),
            alu_per_cycle: Some(4),
            ..MachineParams::default()
        }
    }

    #[test]
    fn zen4_readings_give_its_rules() {
        // The readings of testdata/asm fixtures on Zen 4 (docs/model.md).
        let mut m = params();
        let v = [
            0.334, 0.334, 1.25, 1.61, 1.0, 1.0, 2.0, 1.0, 1.07, 1.0, 1.0, 0.834, 1.0, 19.0, 2.0,
        ]
        .map(Some);
        read(&v, &mut m);
        assert_eq!(m.nops_take_no_slot, Some(true));
        assert_eq!(m.fused_writer_on_alu, Some(true));
        assert_eq!(m.vector_to_gpr_holds_alus, Some(true));
        assert_eq!(m.store_line_pairs, Some(true));
        assert_eq!(m.stack_renaming, Some(true));
        assert_eq!(m.taken_branches_per_cycle, Some(0.93));
        assert_eq!(m.cl_shifts_read_flags, Some(false));
        assert_eq!(m.indexed_integer_stores, Some(true));
        assert_eq!(m.whole_instruction_dispatch, Some(true));
        assert_eq!(m.store_forward_fail_cycles, Some(19));
        assert_eq!(m.store_pair_bytes, Some(32));
        assert_eq!(m.rule_evidence.len(), 11);
    }

    #[test]
    fn other_readings_give_the_other_answers_and_gaps_stay_open() {
        // A NOP that takes a slot (0.5 against 0.33), the branch apart, no transfer stall,
        // one store a cycle, store forwarding.
        let mut m = params();
        let v = [
            0.5, 0.334, 1.0, 1.0, 1.0, 2.0, 2.0, 6.0, 2.0, 2.0, 0.834, 0.834, 0.667, 1.0,
        ]
        .map(Some);
        read(&v, &mut m);
        assert_eq!(m.nops_take_no_slot, Some(false));
        assert_eq!(m.fused_writer_on_alu, Some(false));
        assert_eq!(m.vector_to_gpr_holds_alus, Some(false));
        assert_eq!(m.store_line_pairs, Some(false));
        assert_eq!(m.stack_renaming, Some(false));
        assert_eq!(m.cl_shifts_read_flags, Some(true));
        // Forwarding that does not fail leaves the cost unset.
        assert_eq!(m.store_forward_fail_cycles, None);
        // A one-slot store leaves the dispatch rule undecided.
        assert_eq!(m.indexed_integer_stores, Some(false));
        assert_eq!(m.whole_instruction_dispatch, None);
        // Two slots that split: 5/6.
        let mut m = params();
        let mut v = [None; 15];
        v[10] = Some(1.0);
        v[11] = Some(0.834);
        v[12] = Some(0.834);
        read(&v, &mut m);
        assert_eq!(m.whole_instruction_dispatch, Some(false));
        // Line pairs that also pair across the halves of a line: 64-byte blocks.
        let mut m = params();
        let mut v = [None; 15];
        v[5] = Some(1.0);
        v[6] = Some(2.0);
        v[14] = Some(1.0);
        read(&v, &mut m);
        assert_eq!(m.store_pair_bytes, Some(64));
        // A kernel that did not run decides nothing.
        let mut m = params();
        read(&[None; 15], &mut m);
        assert_eq!(m.stack_renaming, None);
        assert!(m.rule_evidence.is_empty());
        assert_eq!(specs().len(), 15);
    }
}
