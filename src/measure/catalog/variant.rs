//! One catalogue variant: an iced code with chosen operand slots, described from a sample
//! instance (iced's instruction info: implicit registers, flags, operand access), named with
//! the one iced → XED table (`db::names`) and mapped onto the skeleton's record when one
//! matches.

use std::collections::BTreeMap;

use iced_x86::{
    Code, Instruction, InstructionInfo, InstructionInfoFactory, OpAccess, OpKind, Register,
};

use super::naming::{match_record, slot_token, Skeleton};
use super::operands::{
    divide_kind, generated_attrs, generated_operand, info_access, instantiate, reg_name_full,
    sample_reg_number,
};
use super::{OpRef, Operand, SkipReason, Slot, Variant};
use crate::uopsxml::{FlagAccess, InstrRecord, OperandKind, OperandRecord};

/// Builds the variant of `code` with `slots` (see the module comment).
pub(super) fn make_variant(
    code: Code,
    slots: Vec<Slot>,
    masked: bool,
    zeroing: bool,
    skel: Option<&Skeleton>,
    factory: &mut InstructionInfoFactory,
) -> Result<Variant, SkipReason> {
    let mnem = crate::db::xed_name(code.mnemonic());
    let agen = slots.iter().find_map(|s| match s {
        Slot::Agen(a) => Some(a.name()),
        _ => None,
    });
    let tok_str = operand_tokens(code, &slots, masked);
    let mut v = Variant {
        code,
        slots,
        masked,
        zeroing,
        record: InstrRecord::default(),
        from_skeleton: false,
        operands: Vec::new(),
        implicit_regs: Vec::new(),
        flags_read: 0,
        flags_written: 0,
        divide: None,
        generated: InstrRecord::default(),
        generated_operands: Vec::new(),
    };
    let ins = sample_instance(&v)?;
    let info = factory.info(&ins);
    v.implicit_regs = implicit_registers(code, &ins, info)?;
    v.flags_read = ins.rflags_read();
    v.flags_written = ins.rflags_modified();
    v.divide = divide_kind(code, &v.slots);
    let (ops, recs) = generated_operands(&v, &ins, info);
    v.generated = generated_record(&v, &mnem, agen.as_deref(), &tok_str, recs);
    v.generated_operands = ops.clone();
    v.record = v.generated.clone();
    v.operands = ops.clone();
    let matched = skel
        .and_then(|sk| match_record(sk, &mnem, &tok_str, code, masked, zeroing, agen.as_deref()));
    if let Some(rec) = matched {
        v.operands = skeleton_operands(&ops, &rec);
        v.record = rec;
        v.from_skeleton = true;
    }
    Ok(v)
}

/// The uops.info operand tokens of the form (`R64, M64`, with `K` after the first operand of
/// a masked form); address-generation slots are named in the mnemonic instead.
fn operand_tokens(code: Code, slots: &[Slot], masked: bool) -> String {
    let oc = code.op_code();
    let mut toks: Vec<String> = slots
        .iter()
        .filter(|s| !matches!(s, Slot::Agen(_)))
        .map(|s| {
            let b = oc.broadcast_memory_size().size().max(1);
            let n = oc.memory_size().size().checked_div(b).unwrap_or(0) as u32;
            slot_token(s, oc.memory_size(), n)
        })
        .collect();
    if masked && !toks.is_empty() {
        toks.insert(1, "K".into());
    }
    toks.join(", ")
}

/// A sample instance for iced's operand access information; it must encode.
fn sample_instance(v: &Variant) -> Result<Instruction, SkipReason> {
    let regs: Vec<Register> = v
        .slots
        .iter()
        .filter_map(|s| match s {
            Slot::Reg(c) | Slot::Vsib(c) => Some(*c),
            _ => None,
        })
        .enumerate()
        .map(|(i, c)| c.reg(sample_reg_number(c, i as u32)))
        .collect();
    let mems: Vec<i64> = (0..4).map(|i| i * 64).collect();
    let ins = instantiate(v, &regs, &mems, 2).map_err(|e| SkipReason::Build(e.to_string()))?;
    let mut enc = iced_x86::Encoder::new(64);
    enc.encode(&ins, 0)
        .map_err(|e| SkipReason::Build(e.to_string()))?;
    Ok(ins)
}

/// Registers the instruction uses beyond its explicit operands (full registers). Forms that
/// use the stack pointer or R15 (the harness's), or memory other than through R14, are
/// skipped.
fn implicit_registers(
    code: Code,
    ins: &Instruction,
    info: &InstructionInfo,
) -> Result<Vec<Register>, SkipReason> {
    // A VSIB operand's index register is explicit (`Slot::Vsib`).
    let explicit_regs: Vec<Register> = (0..ins.op_count())
        .filter(|&i| ins.op_kind(i) == OpKind::Register)
        .map(|i| ins.op_register(i).full_register())
        .chain(
            (ins.memory_index().is_vector_register()).then(|| ins.memory_index().full_register()),
        )
        .collect();
    let mut implicit = Vec::new();
    for ur in info.used_registers() {
        let r = ur.register();
        let full = r.full_register();
        if explicit_regs.contains(&full)
            || matches!(r, Register::R14 | Register::K1)
            || r.is_segment_register()
            || r == Register::None
        {
            continue;
        }
        if full == Register::RSP && super::skip::plain_push_pop(code) {
            continue; // balanced by the harness, never a planned operand
        }
        if full == Register::RSP || full == Register::R15 {
            return Err(SkipReason::Stack);
        }
        if !implicit.contains(&full) {
            implicit.push(full);
        }
    }
    if info.used_memory().iter().any(|m| {
        m.base() != Register::R14
            && m.access() != OpAccess::NoMemAccess
            && !(m.base() == Register::RSP && super::skip::plain_push_pop(code))
    }) {
        return Err(SkipReason::UnsupportedOperands(
            "implicit memory operand".into(),
        ));
    }
    Ok(implicit)
}

/// The generated operand list: planning operands and their `<operand>` records, explicit
/// operands (and the mask) first, then implicit registers, then the flags.
fn generated_operands(
    v: &Variant,
    ins: &Instruction,
    info: &InstructionInfo,
) -> (Vec<Operand>, Vec<OperandRecord>) {
    let mut ops = Vec::new();
    let mut recs = Vec::new();
    let mut idx = 1u32;
    explicit_operands(v, ins, &mut ops, &mut recs, &mut idx);
    implicit_operands(v, info, &mut ops, &mut recs, &mut idx);
    flags_operand(v, ins, &mut ops, &mut recs, idx);
    (ops, recs)
}

/// Explicit operands in iced's order, the mask register after the first.
fn explicit_operands(
    v: &Variant,
    ins: &Instruction,
    ops: &mut Vec<Operand>,
    recs: &mut Vec<OperandRecord>,
    idx: &mut u32,
) {
    for i in 0..ins.op_count() {
        if i == 1 && v.masked {
            ops.push(Operand {
                idx: *idx,
                what: OpRef::Mask,
                read: true,
                write: false,
                cond_write: false,
            });
            recs.push(OperandRecord {
                idx: *idx,
                name: Some(format!("REG{}", *idx - 1)),
                kind: Some(OperandKind::Reg),
                read: true,
                width: Some(64),
                registers: (1..8).map(|k| format!("K{k}")).collect(),
                attrs: [("opmask".to_string(), "1".to_string())]
                    .into_iter()
                    .collect(),
                ..OperandRecord::default()
            });
            *idx += 1;
        }
        let (mut r, w, cw) = info_access(ins, i);
        // LEA reads the address registers, though it accesses no memory.
        r |= matches!(v.slots[i as usize], Slot::Agen(_));
        ops.push(Operand {
            idx: *idx,
            what: OpRef::Explicit(i),
            read: r,
            write: w,
            cond_write: cw,
        });
        recs.push(generated_operand(&v.slots[i as usize], *idx, r, w, cw));
        *idx += 1;
    }
}

/// One suppressed operand per implicit register, with its widest use.
fn implicit_operands(
    v: &Variant,
    info: &InstructionInfo,
    ops: &mut Vec<Operand>,
    recs: &mut Vec<OperandRecord>,
    idx: &mut u32,
) {
    for r in &v.implicit_regs {
        let acc = info
            .used_registers()
            .iter()
            .filter(|u| u.register().full_register() == *r)
            .map(|u| u.access())
            .collect::<Vec<_>>();
        let rd = acc.iter().any(|a| {
            matches!(
                a,
                OpAccess::Read | OpAccess::ReadWrite | OpAccess::ReadCondWrite | OpAccess::CondRead
            )
        });
        let wr = acc.iter().any(|a| {
            matches!(
                a,
                OpAccess::Write
                    | OpAccess::ReadWrite
                    | OpAccess::CondWrite
                    | OpAccess::ReadCondWrite
            )
        });
        let cw = acc
            .iter()
            .any(|a| matches!(a, OpAccess::CondWrite | OpAccess::ReadCondWrite));
        ops.push(Operand {
            idx: *idx,
            what: OpRef::Implicit(*r),
            read: rd,
            write: wr,
            cond_write: cw,
        });
        let width = info
            .used_registers()
            .iter()
            .filter(|u| u.register().full_register() == *r)
            .map(|u| u.register().size() as u32 * 8)
            .max()
            .unwrap_or(64);
        let name = info
            .used_registers()
            .iter()
            .find(|u| u.register().full_register() == *r && u.register().size() as u32 * 8 == width)
            .map(|u| format!("{:?}", u.register()).to_uppercase())
            .unwrap_or_else(|| format!("{r:?}").to_uppercase());
        recs.push(OperandRecord {
            idx: *idx,
            name: Some(format!("REG{}", *idx - 1)),
            kind: Some(OperandKind::Reg),
            read: rd,
            write: wr,
            cond_write: cw,
            suppressed: true,
            width: Some(width),
            registers: vec![name],
            ..OperandRecord::default()
        });
        *idx += 1;
    }
}

/// The suppressed flags operand, when the instruction reads or writes status flags.
fn flags_operand(
    v: &Variant,
    ins: &Instruction,
    ops: &mut Vec<Operand>,
    recs: &mut Vec<OperandRecord>,
    idx: u32,
) {
    if v.flags_read != 0 || v.flags_written != 0 {
        let mut flags = BTreeMap::new();
        use iced_x86::RflagsBits as F;
        for (bit, name) in [
            (F::CF, "CF"),
            (F::PF, "PF"),
            (F::AF, "AF"),
            (F::ZF, "ZF"),
            (F::SF, "SF"),
            (F::OF, "OF"),
        ] {
            let a = FlagAccess {
                read: v.flags_read & bit != 0,
                write: (ins.rflags_written() | ins.rflags_cleared() | ins.rflags_set()) & bit != 0,
                cond_write: false,
                undefined: ins.rflags_undefined() & bit != 0,
            };
            if a != FlagAccess::default() {
                flags.insert(name.to_string(), a);
            }
        }
        if !flags.is_empty() {
            let rd = v.flags_read != 0;
            let wr = v.flags_written != 0;
            ops.push(Operand {
                idx,
                what: OpRef::Flags,
                read: rd,
                write: wr,
                cond_write: false,
            });
            recs.push(OperandRecord {
                idx,
                name: Some(format!("REG{}", idx - 1)),
                kind: Some(OperandKind::Flags),
                read: rd,
                write: wr,
                suppressed: true,
                flags,
                ..OperandRecord::default()
            });
        }
    }
}

/// The record `measure` writes when no skeleton record matches: uops.info's naming with the
/// mnemonic's XED iclass.
fn generated_record(
    v: &Variant,
    mnem: &str,
    agen: Option<&str>,
    tok_str: &str,
    recs: Vec<OperandRecord>,
) -> InstrRecord {
    let code = v.code;
    let oc = code.op_code();
    let name = match (agen, v.zeroing) {
        (Some(a), _) => format!("{mnem}_{a}"),
        (None, true) => format!("{mnem}_Z"),
        (None, false) => mnem.to_string(),
    };
    let mut rec = InstrRecord {
        string: if tok_str.is_empty() {
            name.clone()
        } else {
            format!("{name} ({tok_str})")
        },
        asm: mnem.to_string(),
        iform: String::new(),
        iclass: mnem.to_string(),
        extension: format!("{:?}", oc.encoding()).to_uppercase(),
        isa_set: code
            .cpuid_features()
            .first()
            .map(|f| format!("{f:?}"))
            .unwrap_or_default(),
        category: String::new(),
        attrs: generated_attrs(v, code),
        operands: recs,
        archs: Vec::new(),
    };
    if let Some(a) = agen {
        rec.attrs.insert("agen".into(), a.to_string());
    }
    rec
}

/// Planning operands mapped onto the skeleton record's operand indices.
fn skeleton_operands(ops: &[Operand], rec: &InstrRecord) -> Vec<Operand> {
    // Map planning operands onto the skeleton's operand indices: explicit operands
    // (and the mask) in order; implicit registers by name; flags to the flags operand.
    let mut explicit_idx = rec.operands.iter().filter(|o| !o.suppressed).map(|o| o.idx);
    let mut mapped = Vec::new();
    for o in ops {
        let new_idx = match &o.what {
            OpRef::Explicit(_) | OpRef::Mask => explicit_idx.next(),
            OpRef::Implicit(r) => rec
                .operands
                .iter()
                .find(|x| {
                    x.suppressed
                        && x.kind == Some(OperandKind::Reg)
                        && x.registers.len() == 1
                        && reg_name_full(&x.registers[0]) == Some(*r)
                })
                .map(|x| x.idx),
            OpRef::Flags => rec
                .operands
                .iter()
                .find(|x| x.kind == Some(OperandKind::Flags))
                .map(|x| x.idx),
            OpRef::ImplicitMem => None,
        };
        if let Some(n) = new_idx {
            let mut o2 = o.clone();
            o2.idx = n;
            // Trust the skeleton's access flags for explicit operands.
            if let Some(x) = rec.operands.iter().find(|x| x.idx == n) {
                o2.read = x.read || o2.read && x.kind == Some(OperandKind::Flags);
                o2.write = x.write;
                o2.cond_write = x.cond_write;
                if x.kind == Some(OperandKind::Flags) {
                    o2.read = x.flags.values().any(|f| f.read);
                    o2.write = x.flags.values().any(|f| f.write || f.cond_write);
                }
            }
            mapped.push(o2);
        }
    }
    mapped
}
