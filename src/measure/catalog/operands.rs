//! Operands: the slot shapes of an iced code, building concrete instructions, and the variant
//! record (`<operand>` list, implicit registers, flags, division kind) from iced's instruction
//! info, mapped onto the skeleton's operand indices when a record matches.

use std::collections::BTreeMap;

use iced_x86::{
    Code, EncodingKind, Instruction, InstructionInfoFactory, Mnemonic, OpAccess, OpCodeOperandKind,
    OpKind, Register,
};

use super::naming::imm_token;
use super::{DivKind, RegClass, Slot, Variant};
use crate::uopsxml::{OperandKind, OperandRecord};

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

/// The slot shape of an operand kind; the kind itself when the catalogue has no slot for it.
pub(super) fn shape_of(k: OpCodeOperandKind) -> Result<Shape, OpCodeOperandKind> {
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
        K::mem_vsib32x | K::mem_vsib64x => Shape::One(Slot::Vsib(RegClass::Xmm)),
        K::mem_vsib32y | K::mem_vsib64y => Shape::One(Slot::Vsib(RegClass::Ymm)),
        K::mem_vsib32z | K::mem_vsib64z => Shape::One(Slot::Vsib(RegClass::Zmm)),
        other => return Err(other),
    })
}

/// Why a variant's concrete instruction could not be built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// iced-x86 refused an operand.
    #[error(transparent)]
    Iced(#[from] iced_x86::IcedError),
    /// Fewer registers than register slots.
    #[error("register list too short")]
    TooFewRegisters,
    /// Fewer displacements than memory slots.
    #[error("memory list too short")]
    TooFewAddresses,
}

/// Builds the concrete instruction of a variant with registers/memory chosen by `pick`.
pub fn instantiate(
    v: &Variant,
    regs: &[Register],
    mem_disp: &[i64],
    imm: u64,
) -> Result<Instruction, BuildError> {
    let mut ins = Instruction::default();
    ins.set_code(v.code);
    let (mut ri, mut mi) = (0usize, 0usize);
    for (i, s) in v.slots.iter().enumerate() {
        let i = i as u32;
        match s {
            Slot::Reg(_) => {
                let r = *regs.get(ri).ok_or(BuildError::TooFewRegisters)?;
                ri += 1;
                ins.try_set_op_kind(i, OpKind::Register)?;
                ins.try_set_op_register(i, r)?;
            }
            Slot::Fixed(r) => {
                ins.try_set_op_kind(i, OpKind::Register)?;
                ins.try_set_op_register(i, *r)?;
            }
            Slot::Mem { bcst, .. } => {
                let d = *mem_disp.get(mi).ok_or(BuildError::TooFewAddresses)?;
                mi += 1;
                ins.try_set_op_kind(i, OpKind::Memory)?;
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
                ins.try_set_op_kind(i, *k)?;
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
                ins.try_set_op_kind(i, OpKind::Immediate8)?;
                ins.set_immediate8(1);
            }
            Slot::Rel(_) => {
                // Target 0 is "the next instruction" (harness::branch_to_next).
                ins.try_set_op_kind(i, OpKind::NearBranch64)?;
                ins.set_near_branch64(0);
            }
            Slot::Vsib(_) => {
                // The index register comes from the register list, in slot order; the scale
                // is the element size, as compiled loops index arrays (`[rsi+zmm1*4]`).
                let r = *regs.get(ri).ok_or(BuildError::TooFewRegisters)?;
                ri += 1;
                ins.try_set_op_kind(i, OpKind::Memory)?;
                ins.set_memory_base(Register::R14);
                ins.set_memory_index(r);
                ins.set_memory_index_scale(vsib_scale(v.code));
                ins.set_memory_displacement64(0);
                ins.set_memory_displ_size(0);
            }
            Slot::Agen(a) => {
                ins.try_set_op_kind(i, OpKind::Memory)?;
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

/// The VSIB scale of a gather or scatter: its element size (4 or 8 bytes).
pub fn vsib_scale(code: Code) -> u32 {
    (code.op_code().memory_size().element_size() as u32).clamp(1, 8)
}

pub(super) fn generated_attrs(v: &Variant, code: Code) -> BTreeMap<String, String> {
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

pub(super) fn reg_name_full(name: &str) -> Option<Register> {
    Register::values()
        .find(|r| format!("{r:?}").eq_ignore_ascii_case(name))
        .map(|r| r.full_register())
}

pub(super) fn sample_reg_number(c: RegClass, i: u32) -> u32 {
    match c {
        RegClass::K => 2 + i,
        RegClass::Gpr(_) => [1, 3, 6, 7, 8, 9][i as usize % 6],
        _ => 1 + i,
    }
}

pub(super) fn info_access(ins: &Instruction, i: u32) -> (bool, bool, bool) {
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

pub(super) fn generated_operand(s: &Slot, idx: u32, r: bool, w: bool, cw: bool) -> OperandRecord {
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
        Slot::Vsib(c) => {
            o.kind = Some(OperandKind::Mem);
            o.name = Some("MEM0".into());
            o.attrs.insert("VSIB".into(), c.token().into());
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

pub(super) fn divide_kind(code: Code, slots: &[Slot]) -> Option<DivKind> {
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
