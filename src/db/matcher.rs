//! The matcher: which uops.info variant an iced-decoded instruction is.
//!
//! Owns: the comparison of an iced [`Instruction`] with the compiled [`Form`]s of its
//! candidate iclasses, the choice of [`Variant`], and [`NoMatch`].
//! Must not touch: measurements (see `build`), the simulator.
//!
//! Matching runs in three steps:
//! 1. candidate iclasses from the mnemonic and LOCK/REP prefixes (`names`);
//! 2. hard filters: the operands iced lists (Intel order, destination first; the EVEX write
//!    mask apart) are aligned with the form's operands: every explicit form operand takes one
//!    in order, a suppressed one may take one (iced lists the `st0` of x87 arithmetic, the
//!    `eax` of `stosd`); each pair must agree in kind, register (the form's register list),
//!    memory/immediate/branch width and fixed immediate value; and the form's attributes
//!    must agree with the encoding (legacy / VEX / EVEX), write mask, zeroing, broadcast,
//!    SAE/rounding, `immzero`, `rm`, `agen`, `rep`. When no form passes, the filter is retried without memory widths,
//!    `immzero` or `rm`, and with register lists read as register classes (iced and XED
//!    disagree on `prefetcht0`'s width; uops.info lists leave `K0` out; measured data has no
//!    `immzero` twins, and one `_R0` form measured on registers of every `rm`, e.g.
//!    `ADD_R0 (R8l, I8)` for `add sil, 5`);
//! 3. preferences among the survivors: a one-to-one operand alignment, the iform's opcode
//!    (`_01` vs `_03`, `_D1r4` vs `_C1r4`), `eosz`, and whether a register is fixed by the
//!    opcode (`ADD (RAX, I32)` is `05 id`, `ADD (R64, I32)` is `81 /0 id`). A tie among
//!    variants `suaca measure` named itself (no iform) and skeleton ones is broken by the
//!    opcode byte their names carry (`MOVSD_10` vs `MOVSD_11`, `LFENCE` vs `LFENCE_E9`),
//!    then in favour of the record with an iform ([`break_tie`]); one that remains is
//!    reported as ambiguous.

use iced_x86::{EncodingKind, Instruction, OpCodeOperandKind, OpKind, Register};
use thiserror::Error;

use super::desc::Variant;
use super::form::{Encoding, Form, OpClass};
use super::opcode::Opcode;

/// Why an instruction has no description.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NoMatch {
    /// The data has no iclass for the mnemonic.
    #[error("no uops.info iclass for mnemonic {mnemonic}")]
    UnknownMnemonic {
        /// iced mnemonic, upper case, XED condition-code spelling.
        mnemonic: String,
    },
    /// The iclass exists but none of its variants has these operands/attributes.
    #[error("no uops.info variant of {mnemonic} has operands ({signature})")]
    NoOperandMatch {
        /// iced mnemonic (XED spelling).
        mnemonic: String,
        /// uops.info-style operand signature of the instruction, e.g. `R64, M64, I8`.
        signature: String,
    },
    /// Several variants fit equally well.
    #[error("ambiguous uops.info variants: {}", candidates.join(" | "))]
    Ambiguous {
        /// The strings of the tied variants.
        candidates: Vec<String>,
    },
    /// The variant exists but has no measurement for the database's arch.
    #[error("{string} has no measurement for this micro-architecture")]
    NoData {
        /// uops.info string of the matched variant.
        string: String,
    },
    /// The measurement cannot be used (e.g. a port group the arch does not have).
    #[error("{string}: unusable data: {reason}")]
    BadData {
        /// uops.info string of the matched variant.
        string: String,
        /// What is wrong.
        reason: String,
    },
}

/// One explicit operand as iced decodes it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum IcedOp {
    Reg(Register),
    Mem,
    Imm { bits: u32, value: u64 },
    Rel { bits: u32 },
    Other,
}

fn branch_bits(kind: OpCodeOperandKind) -> u32 {
    use OpCodeOperandKind as K;
    match kind {
        K::br16_1 | K::br32_1 | K::br64_1 => 8,
        K::br16_2 | K::xbegin_2 | K::brdisp_2 => 16,
        _ => 32,
    }
}

/// The explicit operands of `instr` in iced order, with their iced operand number;
/// implicit string-instruction memory (`[rsi]`, `es:[rdi]`) is left out, as XED suppresses it.
pub(crate) fn iced_operands(instr: &Instruction) -> Vec<(u32, IcedOp)> {
    let mut out = Vec::with_capacity(instr.op_count() as usize);
    for i in 0..instr.op_count() {
        let imm = |bits| IcedOp::Imm {
            bits,
            value: instr.immediate(i),
        };
        let op = match instr.op_kind(i) {
            OpKind::Register => IcedOp::Reg(instr.op_register(i)),
            OpKind::Memory => IcedOp::Mem,
            OpKind::NearBranch16 | OpKind::NearBranch32 | OpKind::NearBranch64 => IcedOp::Rel {
                bits: branch_bits(Opcode::of(instr.code()).op_kind(i)),
            },
            OpKind::Immediate8
            | OpKind::Immediate8_2nd
            | OpKind::Immediate8to16
            | OpKind::Immediate8to32
            | OpKind::Immediate8to64 => imm(8),
            OpKind::Immediate16 => imm(16),
            OpKind::Immediate32 | OpKind::Immediate32to64 => imm(32),
            OpKind::Immediate64 => imm(64),
            OpKind::FarBranch16 | OpKind::FarBranch32 => IcedOp::Other,
            _ => continue, // MemorySeg*/MemoryES*: implicit string-instruction memory
        };
        out.push((i, op));
    }
    out
}

/// [`iced_operands`] without the operand numbers.
pub(crate) fn iced_ops(instr: &Instruction) -> Vec<IcedOp> {
    iced_operands(instr).into_iter().map(|(_, o)| o).collect()
}

/// uops.info-style token of one operand (`R64`, `R8h`, `XMM`, `M64`, `I8`, `Rel8`).
fn token(instr: &Instruction, op: IcedOp) -> String {
    match op {
        IcedOp::Reg(r) if r.is_gpr8() => {
            if matches!(r, Register::AH | Register::BH | Register::CH | Register::DH) {
                "R8h".into()
            } else {
                "R8l".into()
            }
        }
        IcedOp::Reg(r) if r.is_gpr() => format!("R{}", r.size() * 8),
        IcedOp::Reg(r) if r.is_xmm() => "XMM".into(),
        IcedOp::Reg(r) if r.is_ymm() => "YMM".into(),
        IcedOp::Reg(r) if r.is_zmm() => "ZMM".into(),
        IcedOp::Reg(r) if r.is_k() => "K".into(),
        IcedOp::Reg(r) => format!("{r:?}"),
        IcedOp::Mem => match instr.memory_size().size() {
            0 => "M".into(), // lea, xsave...: no access size
            n => format!("M{}", n * 8),
        },
        IcedOp::Imm { bits, .. } => format!("I{bits}"),
        IcedOp::Rel { bits } => format!("Rel{bits}"),
        IcedOp::Other => "?".into(),
    }
}

/// uops.info-style operand signature of `instr` (`R64, M64`), for reports.
pub fn signature(instr: &Instruction) -> String {
    let mut toks: Vec<String> = iced_ops(instr)
        .into_iter()
        .map(|o| token(instr, o))
        .collect();
    if instr.op_mask() != Register::None {
        toks.insert(1.min(toks.len()), "K".into());
    }
    toks.join(", ")
}

fn encoding_agrees(form: Encoding, iced: EncodingKind) -> bool {
    matches!(
        (form, iced),
        (Encoding::Legacy, EncodingKind::Legacy)
            | (Encoding::Vex, EncodingKind::VEX)
            | (Encoding::Evex, EncodingKind::EVEX)
            | (Encoding::Xop, EncodingKind::XOP)
            | (Encoding::D3Now, EncodingKind::D3NOW | EncodingKind::Legacy)
    )
}

/// LEA addressing form in uops.info's `agen` spelling (`B_IS_D8`, `R_D32`, `D32`).
pub(crate) fn agen_form(instr: &Instruction) -> String {
    let mut parts: Vec<&str> = Vec::new();
    let base = instr.memory_base();
    if base == Register::RIP || base == Register::EIP {
        parts.push("R");
    } else if base != Register::None {
        parts.push("B");
    }
    if instr.memory_index() != Register::None {
        parts.push(if instr.memory_index_scale() == 1 {
            "I"
        } else {
            "IS"
        });
    }
    match instr.memory_displ_size() {
        0 => {}
        1 => parts.push("D8"),
        _ => parts.push("D32"),
    }
    parts.join("_")
}

/// Whether two registers are of one kind and size, AH..DH apart from the other 8-bit ones.
fn same_class(a: Register, b: Register) -> bool {
    let kind = |r: Register| {
        let high8 = matches!(r, Register::AH | Register::BH | Register::CH | Register::DH);
        let kinds = [
            r.is_gpr(),
            r.is_k(),
            r.is_vector_register(),
            r.is_segment_register(),
        ];
        (
            kinds,
            [r.is_st(), r.is_mm(), r.is_cr(), r.is_dr(), high8],
            r.size(),
        )
    };
    kind(a) == kind(b)
}

fn operand_agrees(instr: &Instruction, form_op: &OpClass, op: IcedOp, strict: bool) -> bool {
    match (form_op, op) {
        // Relaxed: uops.info leaves some registers out of its lists (`K0` as a destination);
        // a fixed register (a list of one) stays fixed.
        (OpClass::Reg { regs, .. }, IcedOp::Reg(r)) => {
            regs.contains(&r) || !strict && regs.len() > 1 && regs.iter().all(|x| same_class(*x, r))
        }
        (OpClass::Mem { bits, vsib, .. }, IcedOp::Mem) => {
            let size = instr.memory_size().size() as u32 * 8;
            // A VSIB form is told apart by its index register's width, also when relaxed.
            vsib.is_none_or(|w| instr.memory_index().size() as u32 * 8 == w)
                && (!strict || bits.is_none_or(|b| size == 0 || b == size))
        }
        (OpClass::Agen, IcedOp::Mem) => true,
        (OpClass::Imm { bits, value }, IcedOp::Imm { bits: b, value: v }) => {
            bits.is_none_or(|w| w == b) && value.is_none_or(|x| x == v)
        }
        (OpClass::Relbr { bits }, IcedOp::Rel { bits: b }) => bits.is_none_or(|w| w == b),
        _ => false,
    }
}

/// Which iced operand (index into `ops`) each of `form.ops` is, `None` for operands iced
/// does not list. Explicit form operands must take the iced operands in order; a suppressed
/// one may take one too, because iced lists some operands XED suppresses (the `st0` of x87
/// arithmetic, `eax` of `stosd`, `dx` of `insb`, the memory of `xlatb`). Small backtracking
/// search: forms have at most a handful of operands.
pub(crate) fn align(
    form: &Form,
    instr: &Instruction,
    ops: &[IcedOp],
    strict: bool,
) -> Option<Vec<Option<usize>>> {
    fn go(
        form: &Form,
        instr: &Instruction,
        ops: &[IcedOp],
        strict: bool,
        (fi, ii): (usize, usize),
        out: &mut Vec<Option<usize>>,
    ) -> bool {
        let Some(op) = form.ops.get(fi) else {
            return ii == ops.len();
        };
        let matchable = matches!(
            op.class,
            OpClass::Reg { opmask: false, .. }
                | OpClass::Mem { .. }
                | OpClass::Agen
                | OpClass::Imm { .. }
                | OpClass::Relbr { .. }
        );
        if matchable && ii < ops.len() && operand_agrees(instr, &op.class, ops[ii], strict) {
            out[fi] = Some(ii);
            if go(form, instr, ops, strict, (fi + 1, ii + 1), out) {
                return true;
            }
            out[fi] = None;
        }
        (!matchable || op.suppressed) && go(form, instr, ops, strict, (fi + 1, ii), out)
    }
    let mut out = vec![None; form.ops.len()];
    go(form, instr, ops, strict, (0, 0), &mut out).then_some(out)
}

/// Whether the alignment maps exactly the explicit form operands (no suppressed ones).
fn exact(form: &Form, alignment: &[Option<usize>]) -> bool {
    form.ops
        .iter()
        .zip(alignment)
        .all(|(o, a)| o.is_explicit() == a.is_some())
}

/// Hard filter: can `form` be `instr` at all? With `strict` false, memory widths, `rm` and
/// `immzero` are not compared: iced and XED disagree on a few widths (`prefetcht0` is `M8`
/// for iced, `M512` in XED).
pub(crate) fn agrees(form: &Form, instr: &Instruction, ops: &[IcedOp], strict: bool) -> bool {
    if !encoding_agrees(form.encoding, instr.encoding()) {
        return false;
    }
    let masked = instr.op_mask() != Register::None;
    if align(form, instr, ops, strict).is_none() {
        return false;
    }
    let has_mask_op = form
        .ops
        .iter()
        .any(|o| matches!(o.class, OpClass::Reg { opmask: true, .. }));
    if form.mask.unwrap_or(has_mask_op) != masked && (masked || form.mask.is_some()) {
        return false;
    }
    let rc = instr.rounding_control() != iced_x86::RoundingControl::None;
    let sae = instr.suppress_all_exceptions() || rc;
    let checks = [
        (form.zeroing, instr.zeroing_masking()),
        (form.bcast, instr.is_broadcast()),
        (form.sae, sae),
        (form.roundc, rc),
    ];
    if checks.iter().any(|(f, i)| f.is_some_and(|f| f != *i)) {
        return false;
    }
    // Without `strict`, a measurement with a non-zero immediate stands in for the `immzero`
    // twin the data lacks (`suaca measure` writes only the first).
    if let Some(z) = form.immzero.filter(|_| strict) {
        let value = ops.iter().find_map(|o| match o {
            IcedOp::Imm { value, .. } => Some(*value),
            _ => None,
        });
        if value.is_some_and(|v| (v == 0) != z) {
            return false;
        }
    }
    // Without `strict`, `rm` is not compared either: `suaca measure` writes one `_R0` form
    // per 8-bit immediate instruction, measured on al..r12b (every `rm` value).
    if let Some(rm) = form.rm.as_ref().filter(|_| strict) {
        let reg = ops.iter().find_map(|o| match o {
            IcedOp::Reg(r) => Some(*r),
            _ => None,
        });
        // ModRM.rm holds the low 3 bits of the register's encoding (SPL → 4, R12B → 4).
        if reg.is_some_and(|r| !rm.contains(&((r.full_register().number() & 7) as u8))) {
            return false;
        }
    }
    if let Some(agen) = &form.agen {
        if *agen != agen_form(instr) {
            return false;
        }
    }
    match form.rep {
        Some(3) if !instr.has_repe_prefix() => return false,
        Some(2) if !instr.has_repne_prefix() => return false,
        _ => {}
    }
    true
}

/// Soft preferences; higher is better.
pub(crate) fn score(form: &Form, instr: &Instruction, ops: &[IcedOp]) -> u32 {
    let info = Opcode::of(instr.code());
    let mut score = 0;
    // Operands line up one to one: the form was written for this operand list.
    if align(form, instr, ops, false).is_some_and(|a| exact(form, &a)) {
        score += 8;
    }
    if let Some(h) = form.opcode {
        let map_ok = !h.map_0f || info.map_0f;
        if info.byte == h.byte && map_ok {
            score += 4;
        }
    }
    if form.eosz.is_some_and(|e| e == info.operand_size) {
        score += 2;
    }
    // `implicit="1"` operands are fixed by the opcode, like iced's `al`/`rax`/`cl`/`1` kinds.
    let fixed: Vec<bool> = (0..info.op_count())
        .map(|i| {
            use OpCodeOperandKind as K;
            matches!(
                info.op_kind(i),
                K::al | K::cl | K::ax | K::dx | K::eax | K::rax | K::st0 | K::imm8_const_1
            ) || matches!(
                info.op_kind(i),
                K::es | K::cs | K::ss | K::ds | K::fs | K::gs
            )
        })
        .collect();
    let implicit: Vec<bool> = form
        .ops
        .iter()
        .filter(|o| o.is_explicit())
        .map(|o| o.implicit)
        .collect();
    if implicit.len() == fixed.len() && implicit == fixed {
        score += 1;
    }
    score
}

/// Narrows tied forms (indices into `forms`): drops those whose named opcode
/// ([`super::form::named_opcode`]) contradicts `instr`'s, then prefers records with an iform,
/// then those whose named opcode agrees. Only ties reach here, so a unique best match never
/// changes.
pub(crate) fn break_tie(forms: &[Form], top: Vec<usize>, instr: &Instruction) -> Vec<usize> {
    let info = Opcode::of(instr.code());
    let agrees = |i: &usize| {
        super::form::named_opcode(&forms[*i])
            .map(|h| info.byte == h.byte && (!h.map_0f || info.map_0f))
    };
    let keep = |top: Vec<usize>, want: &dyn Fn(&usize) -> bool| {
        let kept: Vec<usize> = top.iter().copied().filter(|i| want(i)).collect();
        if kept.is_empty() {
            top
        } else {
            kept
        }
    };
    let top = keep(top, &|i| agrees(i) != Some(false));
    let top = keep(top, &|i| !forms[*i].iform.is_empty());
    keep(top, &|i| agrees(i) == Some(true))
}

/// Which measurement group of the matched form applies to `instr`.
pub(crate) fn variant(form: &Form, instr: &Instruction, ops: &[IcedOp]) -> Variant {
    let Some(m) = &form.measurement else {
        return Variant::Plain;
    };
    if m.same_reg.is_some() && same_reg(form, instr, ops) {
        return Variant::SameReg;
    }
    let has_mem = ops.contains(&IcedOp::Mem);
    if m.indexed.is_some() && has_mem && instr.memory_index() != Register::None {
        return Variant::Indexed;
    }
    Variant::Plain
}

/// uops.info's same-register measurement: all register operands name one register, or all
/// the register operands that are read do (`vpxor xmm0, xmm1, xmm1`).
pub(crate) fn same_reg(form: &Form, instr: &Instruction, ops: &[IcedOp]) -> bool {
    let Some(alignment) = alignment(form, instr, ops) else {
        return false;
    };
    let regs: Vec<(bool, Register)> = form
        .ops
        .iter()
        .zip(&alignment)
        .filter_map(|(f, a)| match ops.get((*a)?) {
            // One register in any width (`movzx eax, al`), as uops.info picks its registers.
            Some(IcedOp::Reg(r)) => Some((f.read, r.full_register())),
            _ => None,
        })
        .collect();
    let all_same = |regs: Vec<Register>| regs.len() >= 2 && regs.iter().all(|r| *r == regs[0]);
    all_same(regs.iter().map(|e| e.1).collect())
        || all_same(regs.iter().filter(|e| e.0).map(|e| e.1).collect())
}

/// [`align`] of an already matched form (memory widths compared if that works).
pub(crate) fn alignment(
    form: &Form,
    instr: &Instruction,
    ops: &[IcedOp],
) -> Option<Vec<Option<usize>>> {
    align(form, instr, ops, true).or_else(|| align(form, instr, ops, false))
}
