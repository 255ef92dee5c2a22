//! Operands: the slot shapes of an iced code, building concrete instructions, and the variant
//! record (`<operand>` list, implicit registers, flags, division kind) from iced's instruction
//! info, mapped onto the skeleton's operand indices when a record matches.

use std::collections::BTreeMap;

use iced_x86::{
    Code, EncodingKind, Instruction, InstructionInfoFactory, Mnemonic, OpAccess, OpCodeOperandKind,
    OpKind, Register,
};

use super::naming::{imm_token, match_record, slot_token, xed_mnemonic, Skeleton};
use super::{DivKind, OpRef, Operand, RegClass, SkipReason, Slot, Variant};
use crate::uopsxml::{FlagAccess, InstrRecord, OperandKind, OperandRecord};

fn gpr_width(k: OpCodeOperandKind) -> Option<u32> {
    use OpCodeOperandKind as K;
    Some(match k {
        K::r8_reg | K::r8_opcode => 8,
        K::r16_reg | K::r16_reg_mem | K::r16_rm | K::r16_opcode => 16,
        K::r32_reg | K::r32_reg_mem | K::r32_rm | K::r32_opcode | K::r32_vvvv => 32,
        K::r64_reg | K::r64_reg_mem | K::r64_rm | K::r64_opcode | K::r64_vvvv => 64,
        _ => return None,
    })
}

/// Operand "shapes" of a code: each explicit operand either a single slot or reg-or-mem.
pub(super) enum Shape {
    One(Slot),
    RegOrMem(RegClass),
    MemOnly,
}

pub(super) fn shape_of(k: OpCodeOperandKind) -> Result<Shape, String> {
    use OpCodeOperandKind as K;
    if let Some(w) = gpr_width(k) {
        return Ok(Shape::One(Slot::Reg(RegClass::Gpr(w))));
    }
    Ok(match k {
        K::r8_or_mem => Shape::RegOrMem(RegClass::Gpr(8)),
        K::r16_or_mem => Shape::RegOrMem(RegClass::Gpr(16)),
        K::r32_or_mem => Shape::RegOrMem(RegClass::Gpr(32)),
        K::r64_or_mem => Shape::RegOrMem(RegClass::Gpr(64)),
        K::mm_or_mem => Shape::RegOrMem(RegClass::Mm),
        K::xmm_or_mem => Shape::RegOrMem(RegClass::Xmm),
        K::ymm_or_mem => Shape::RegOrMem(RegClass::Ymm),
        K::zmm_or_mem => Shape::RegOrMem(RegClass::Zmm),
        K::k_or_mem => Shape::RegOrMem(RegClass::K),
        K::mem => Shape::MemOnly,
        K::k_reg | K::k_rm | K::k_vvvv => Shape::One(Slot::Reg(RegClass::K)),
        K::mm_reg | K::mm_rm => Shape::One(Slot::Reg(RegClass::Mm)),
        K::xmm_reg | K::xmm_rm | K::xmm_vvvv | K::xmm_is4 => Shape::One(Slot::Reg(RegClass::Xmm)),
        K::ymm_reg | K::ymm_rm | K::ymm_vvvv | K::ymm_is4 => Shape::One(Slot::Reg(RegClass::Ymm)),
        K::zmm_reg | K::zmm_rm | K::zmm_vvvv => Shape::One(Slot::Reg(RegClass::Zmm)),
        K::al => Shape::One(Slot::Fixed(Register::AL)),
        K::cl => Shape::One(Slot::Fixed(Register::CL)),
        K::ax => Shape::One(Slot::Fixed(Register::AX)),
        K::eax => Shape::One(Slot::Fixed(Register::EAX)),
        K::rax => Shape::One(Slot::Fixed(Register::RAX)),
        K::imm8 | K::imm8sex16 | K::imm8sex32 | K::imm8sex64 => Shape::One(Slot::Imm(match k {
            K::imm8 => OpKind::Immediate8,
            K::imm8sex16 => OpKind::Immediate8to16,
            K::imm8sex32 => OpKind::Immediate8to32,
            _ => OpKind::Immediate8to64,
        })),
        K::imm16 => Shape::One(Slot::Imm(OpKind::Immediate16)),
        K::imm32 => Shape::One(Slot::Imm(OpKind::Immediate32)),
        K::imm32sex64 => Shape::One(Slot::Imm(OpKind::Immediate32to64)),
        K::imm64 => Shape::One(Slot::Imm(OpKind::Immediate64)),
        K::imm8_const_1 => Shape::One(Slot::One),
        K::br64_1 => Shape::One(Slot::Rel(8)),
        K::br64_4 => Shape::One(Slot::Rel(32)),
        other => return Err(format!("{other:?}")),
    })
}

/// Builds the concrete instruction of a variant with registers/memory chosen by `pick`.
pub fn instantiate(
    v: &Variant,
    regs: &[Register],
    mem_disp: &[i64],
    imm: u64,
) -> Result<Instruction, String> {
    let mut ins = Instruction::default();
    ins.set_code(v.code);
    let (mut ri, mut mi) = (0usize, 0usize);
    for (i, s) in v.slots.iter().enumerate() {
        let i = i as u32;
        match s {
            Slot::Reg(_) => {
                let r = *regs.get(ri).ok_or("register list too short")?;
                ri += 1;
                ins.try_set_op_kind(i, OpKind::Register)
                    .map_err(|e| e.to_string())?;
                ins.try_set_op_register(i, r).map_err(|e| e.to_string())?;
            }
            Slot::Fixed(r) => {
                ins.try_set_op_kind(i, OpKind::Register)
                    .map_err(|e| e.to_string())?;
                ins.try_set_op_register(i, *r).map_err(|e| e.to_string())?;
            }
            Slot::Mem { bcst, .. } => {
                let d = *mem_disp.get(mi).ok_or("memory list too short")?;
                mi += 1;
                ins.try_set_op_kind(i, OpKind::Memory)
                    .map_err(|e| e.to_string())?;
                ins.set_memory_base(Register::R14);
                ins.set_memory_index(Register::None);
                ins.set_memory_index_scale(1);
                ins.set_memory_displacement64(d as u64);
                ins.set_memory_displ_size(if d == 0 {
                    0
                } else if (-128..128).contains(&d) {
                    1
                } else {
                    8
                });
                ins.set_is_broadcast(*bcst);
            }
            Slot::Imm(k) => {
                ins.try_set_op_kind(i, *k).map_err(|e| e.to_string())?;
                match k {
                    OpKind::Immediate8 => ins.set_immediate8(imm as u8),
                    OpKind::Immediate8to16 => ins.set_immediate8to16(imm as i16),
                    OpKind::Immediate8to32 => ins.set_immediate8to32(imm as i32),
                    OpKind::Immediate8to64 => ins.set_immediate8to64(imm as i64),
                    OpKind::Immediate16 => ins.set_immediate16(imm as u16),
                    OpKind::Immediate32 => ins.set_immediate32(imm as u32),
                    OpKind::Immediate32to64 => ins.set_immediate32to64(imm as i64),
                    _ => ins.set_immediate64(imm),
                }
            }
            Slot::One => {
                ins.try_set_op_kind(i, OpKind::Immediate8)
                    .map_err(|e| e.to_string())?;
                ins.set_immediate8(1);
            }
            Slot::Rel(_) => {
                // Target 0 is "the next instruction" (harness::branch_to_next).
                ins.try_set_op_kind(i, OpKind::NearBranch64)
                    .map_err(|e| e.to_string())?;
                ins.set_near_branch64(0);
            }
            Slot::Agen(a) => {
                ins.try_set_op_kind(i, OpKind::Memory)
                    .map_err(|e| e.to_string())?;
                let r14 = |on: bool| if on { Register::R14 } else { Register::None };
                ins.set_memory_base(r14(a.base));
                ins.set_memory_index(r14(a.index));
                ins.set_memory_index_scale(if a.scaled { 2 } else { 1 });
                ins.set_memory_displacement64(a.displacement() as u64);
                ins.set_memory_displ_size(match a.disp {
                    0 => 0,
                    1 => 1,
                    _ => 8,
                });
            }
        }
    }
    if v.masked || v.zeroing {
        ins.set_op_mask(Register::K1);
        ins.set_zeroing_masking(v.zeroing);
    }
    Ok(ins)
}

pub(super) fn make_variant(
    code: Code,
    slots: Vec<Slot>,
    masked: bool,
    zeroing: bool,
    vec_bits: u32,
    skel: Option<&Skeleton>,
    factory: &mut InstructionInfoFactory,
) -> Result<Variant, SkipReason> {
    let oc = code.op_code();
    let mnem = xed_mnemonic(code.mnemonic());
    let agen = slots.iter().find_map(|s| match s {
        Slot::Agen(a) => Some(a.name()),
        _ => None,
    });
    let mut toks: Vec<String> = slots
        .iter()
        .filter(|s| !matches!(s, Slot::Agen(_)))
        .map(|s| {
            let b = oc.broadcast_memory_size().size().max(1);
            let n = oc.memory_size().size().checked_div(b).unwrap_or(0) as u32;
            let _ = vec_bits;
            slot_token(s, oc.memory_size(), n)
        })
        .collect();
    if masked && !toks.is_empty() {
        toks.insert(1, "K".into());
    }
    let tok_str = toks.join(", ");
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
    // A sample instance for iced's operand access information.
    let nregs = v.slots.iter().filter(|s| matches!(s, Slot::Reg(_))).count();
    let regs: Vec<Register> = v
        .slots
        .iter()
        .filter_map(|s| match s {
            Slot::Reg(c) => Some(*c),
            _ => None,
        })
        .enumerate()
        .map(|(i, c)| c.reg(sample_reg_number(c, i as u32)))
        .collect();
    debug_assert_eq!(regs.len(), nregs);
    let mems: Vec<i64> = (0..4).map(|i| i * 64).collect();
    let ins = instantiate(&v, &regs, &mems, 2).map_err(SkipReason::Build)?;
    let mut enc = iced_x86::Encoder::new(64);
    enc.encode(&ins, 0)
        .map_err(|e| SkipReason::Build(e.to_string()))?;
    let info = factory.info(&ins);
    let explicit_regs: Vec<Register> = (0..ins.op_count())
        .filter(|&i| ins.op_kind(i) == OpKind::Register)
        .map(|i| ins.op_register(i).full_register())
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
    v.implicit_regs = implicit;
    v.flags_read = ins.rflags_read();
    v.flags_written = ins.rflags_modified();
    v.divide = divide_kind(code, &v.slots);
    // Operands (generated form).
    let mut ops = Vec::new();
    let mut recs = Vec::new();
    let mut idx = 1u32;
    let access = |i: u32| info_access(&ins, i);
    for i in 0..ins.op_count() {
        if i == 1 && masked {
            ops.push(Operand {
                idx,
                what: OpRef::Mask,
                read: true,
                write: false,
                cond_write: false,
            });
            recs.push(OperandRecord {
                idx,
                name: Some(format!("REG{}", idx - 1)),
                kind: Some(OperandKind::Reg),
                read: true,
                width: Some(64),
                registers: (1..8).map(|k| format!("K{k}")).collect(),
                attrs: [("opmask".to_string(), "1".to_string())]
                    .into_iter()
                    .collect(),
                ..OperandRecord::default()
            });
            idx += 1;
        }
        let (mut r, w, cw) = access(i);
        // LEA reads the address registers, though it accesses no memory.
        r |= matches!(v.slots[i as usize], Slot::Agen(_));
        ops.push(Operand {
            idx,
            what: OpRef::Explicit(i),
            read: r,
            write: w,
            cond_write: cw,
        });
        recs.push(generated_operand(&v.slots[i as usize], idx, r, w, cw));
        idx += 1;
    }
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
            idx,
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
            idx,
            name: Some(format!("REG{}", idx - 1)),
            kind: Some(OperandKind::Reg),
            read: rd,
            write: wr,
            cond_write: cw,
            suppressed: true,
            width: Some(width),
            registers: vec![name],
            ..OperandRecord::default()
        });
        idx += 1;
    }
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
    // Name: the skeleton's record when one matches, else generated.
    let name = match (&agen, v.zeroing) {
        (Some(a), _) => format!("{mnem}_{a}"),
        (None, true) => format!("{mnem}_Z"),
        (None, false) => mnem.clone(),
    };
    v.generated = InstrRecord {
        string: if tok_str.is_empty() {
            name.clone()
        } else {
            format!("{name} ({tok_str})")
        },
        asm: mnem.clone(),
        iform: String::new(),
        iclass: mnem.clone(),
        extension: format!("{:?}", oc.encoding()).to_uppercase(),
        isa_set: code
            .cpuid_features()
            .first()
            .map(|f| format!("{f:?}"))
            .unwrap_or_default(),
        category: String::new(),
        attrs: generated_attrs(&v, code),
        operands: recs,
        archs: Vec::new(),
    };
    v.generated_operands = ops.clone();
    v.record = v.generated.clone();
    v.operands = ops.clone();
    if let Some(a) = &agen {
        v.generated.attrs.insert("agen".into(), a.clone());
        v.record = v.generated.clone();
    }
    let matched = skel
        .and_then(|sk| match_record(sk, &mnem, &tok_str, code, masked, zeroing, agen.as_deref()));
    match matched {
        None => {}
        Some(rec) => {
            // Map planning operands onto the skeleton's operand indices: explicit operands
            // (and the mask) in order; implicit registers by name; flags to the flags operand.
            let mut explicit_idx = rec.operands.iter().filter(|o| !o.suppressed).map(|o| o.idx);
            let mut mapped = Vec::new();
            for o in &ops {
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
            v.operands = mapped;
            v.record = rec;
            v.from_skeleton = true;
        }
    }
    Ok(v)
}

fn generated_attrs(v: &Variant, code: Code) -> BTreeMap<String, String> {
    let mut m = BTreeMap::new();
    match code.op_code().encoding() {
        EncodingKind::VEX => {
            m.insert("vex".into(), "1".into());
        }
        EncodingKind::EVEX => {
            m.insert("evex".into(), "1".into());
            m.insert("mask".into(), if v.masked { "1" } else { "0" }.into());
            m.insert("zeroing".into(), if v.zeroing { "1" } else { "0" }.into());
        }
        _ => {}
    }
    m.insert("iced_code".into(), format!("{code:?}"));
    m
}

/// Opcode byte when this reg-reg form has an alternative encoding (ADD 01 vs 03).
#[allow(dead_code)]
fn alternative_encoding(code: Code) -> Option<u32> {
    let oc = code.op_code();
    if oc.encoding() != EncodingKind::Legacy {
        return None;
    }
    let kinds = oc.op_kinds();
    let has_rm = kinds.iter().any(|k| format!("{k:?}").ends_with("_or_mem"));
    let has_reg = kinds.iter().any(|k| format!("{k:?}").ends_with("_reg"));
    (has_rm && has_reg && kinds.len() == 2).then(|| oc.op_code())
}

fn reg_name_full(name: &str) -> Option<Register> {
    Register::values()
        .find(|r| format!("{r:?}").eq_ignore_ascii_case(name))
        .map(|r| r.full_register())
}

fn sample_reg_number(c: RegClass, i: u32) -> u32 {
    match c {
        RegClass::K => 2 + i,
        RegClass::Gpr(_) => [1, 3, 6, 7, 8, 9][i as usize % 6],
        _ => 1 + i,
    }
}

fn info_access(ins: &Instruction, i: u32) -> (bool, bool, bool) {
    let mut f = InstructionInfoFactory::new();
    let info = f.info(ins);
    match info.op_access(i) {
        OpAccess::Read | OpAccess::CondRead => (true, false, false),
        OpAccess::Write => (false, true, false),
        OpAccess::CondWrite => (false, true, true),
        OpAccess::ReadWrite => (true, true, false),
        OpAccess::ReadCondWrite => (true, true, true),
        _ => (false, false, false),
    }
}

fn generated_operand(s: &Slot, idx: u32, r: bool, w: bool, cw: bool) -> OperandRecord {
    let mut o = OperandRecord {
        idx,
        read: r,
        write: w && !cw,
        cond_write: cw,
        ..OperandRecord::default()
    };
    if cw {
        o.write = true;
    }
    match s {
        Slot::Reg(c) => {
            o.kind = Some(OperandKind::Reg);
            o.name = Some(format!("REG{}", idx - 1));
            o.width = Some(c.width());
            let n = match c {
                RegClass::Zmm | RegClass::Ymm | RegClass::Xmm => 16,
                RegClass::K => 8,
                RegClass::Mm => 8,
                RegClass::Gpr(_) => 16,
            };
            o.registers = (0..n)
                .map(|k| format!("{:?}", c.reg(k)).to_uppercase())
                .collect();
        }
        Slot::Fixed(reg) => {
            o.kind = Some(OperandKind::Reg);
            o.name = Some(format!("REG{}", idx - 1));
            o.width = Some(reg.size() as u32 * 8);
            o.registers = vec![format!("{reg:?}").to_uppercase()];
        }
        Slot::Agen(_) => {
            o.kind = Some(OperandKind::Agen);
            o.name = Some("AGEN".into());
        }
        Slot::Mem { bytes, bcst } => {
            o.kind = Some(OperandKind::Mem);
            o.name = Some("MEM0".into());
            o.width = Some(bytes * 8);
            if *bcst {
                o.attrs.insert("memory-suffix".into(), "{1toN}".into());
            }
        }
        Slot::Imm(k) => {
            o.kind = Some(OperandKind::Imm);
            o.name = Some("IMM0".into());
            o.width = Some(match imm_token(*k) {
                "I8" => 8,
                "I16" => 16,
                "I32" => 32,
                _ => 64,
            });
        }
        Slot::One => {
            o.kind = Some(OperandKind::Imm);
            o.name = Some("IMM0".into());
            o.width = Some(8);
            o.text = Some("1".into());
        }
        Slot::Rel(bits) => {
            o.kind = Some(OperandKind::Relbr);
            o.name = Some("RELBR".into());
            o.width = Some(*bits);
        }
    }
    o
}

fn divide_kind(code: Code, slots: &[Slot]) -> Option<DivKind> {
    use Mnemonic as M;
    let m = code.mnemonic();
    match m {
        M::Div | M::Idiv => {
            let w = slots
                .iter()
                .find_map(|s| match s {
                    Slot::Reg(RegClass::Gpr(w)) => Some(*w),
                    Slot::Mem { bytes, .. } => Some(bytes * 8),
                    _ => None,
                })
                .unwrap_or(64);
            Some(DivKind::Int(w))
        }
        _ => {
            let s = format!("{m:?}").to_uppercase();
            let is_div = s.contains("DIVP")
                || s.contains("DIVS")
                || s.contains("SQRTP")
                || s.contains("SQRTS");
            if !is_div || s.contains("RSQRT") {
                return None;
            }
            if s.ends_with('D') {
                Some(DivKind::FpDouble)
            } else if s.ends_with('S') {
                Some(DivKind::FpSingle)
            } else {
                None
            }
        }
    }
}
