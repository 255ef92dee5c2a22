//! A uops.info variant compiled for matching: its operand classes and the instruction
//! attributes that tell variants of one iclass apart.
//!
//! Facts from: the attributes of `<instruction>` (`vex`, `evex`, `mask`, `zeroing`, `bcast`,
//! `sae`, `roundc`, `immzero`, `rm`, `agen`, `rep`, `eosz`) and `<operand>` (`type`,
//! `width`, `suppressed`, `implicit`, `opmask`, register lists, fixed immediate text) as
//! XED-to-XML writes them; the opcode at the end of XED iforms (`ADD_GPRv_GPRv_01`,
//! `SHL_GPRv_ONE_D1r4`, `NOP_GPRv_GPRv_0F1F`).

use iced_x86::Register;

use super::names::register_by_xed_name;
use crate::ir::{Flag, FlagSet};
use crate::uopsxml::{InstrRecord, Measurement, OperandKind, OperandRecord};

/// How the variant is encoded (`vex="1"`, `evex="1"`, XOP-encoded extensions, else legacy).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Encoding {
    Legacy,
    Vex,
    Evex,
    Xop,
    D3Now,
}

/// What one `<operand>` is.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum OpClass {
    /// Register operand: the allowed registers (one for fixed registers such as `RAX`, `CL`).
    Reg {
        regs: Vec<Register>,
        /// The EVEX write mask (`opmask="1"`); matched against iced's `op_mask()`.
        opmask: bool,
    },
    /// Memory operand of `bits` width; `base` is the fixed base of implicit memory (`RSP`);
    /// `vsib` the index register's width in bits of a gather's or scatter's VSIB operand
    /// (`VSIB="YMM"`: `VGATHERQPS (XMM, K, VSIB_XMM)` and `(XMM, K, VSIB_YMM)` differ only
    /// there).
    Mem {
        bits: Option<u32>,
        base: Option<Register>,
        vsib: Option<u32>,
    },
    /// LEA address generation.
    Agen,
    /// Immediate of `bits` width, with a fixed value for `0`/`1` forms.
    Imm {
        bits: Option<u32>,
        value: Option<u64>,
    },
    /// Relative branch target of `bits` width.
    Relbr { bits: Option<u32> },
    /// RFLAGS bits (tracked flags only).
    Flags {
        read: FlagSet,
        write: FlagSet,
        cond_write: FlagSet,
    },
    /// Anything else (registers iced does not model, e.g. `X87STATUS`, `MXCSR`).
    Other,
}

/// One `<operand>` of a form.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FormOp {
    /// `idx`, what `<latency start_op target_op>` refer to.
    pub idx: u32,
    pub class: OpClass,
    /// Implicit operand, not in the assembly (`suppressed="1"`).
    pub suppressed: bool,
    /// In the assembly but fixed by the opcode (`implicit="1"`: `RAX` of `05 id`, `CL`, `1`).
    pub implicit: bool,
    pub read: bool,
    pub write: bool,
}

impl FormOp {
    /// Whether the operand is in the assembly and is not the EVEX write mask.
    pub fn is_explicit(&self) -> bool {
        !self.suppressed && !matches!(self.class, OpClass::Reg { opmask: true, .. })
    }
}

/// The opcode a variant's iform names (`_01`, `_0F1F`, `_C1r4`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct OpcodeHint {
    /// Last opcode byte.
    pub byte: u8,
    /// The hint spells the `0F` escape (`_0F10`), so the legacy map must be `0F`.
    pub map_0f: bool,
}

/// A variant compiled for matching, with this arch's measurement.
#[derive(Clone, Debug)]
pub(crate) struct Form {
    pub string: String,
    pub iform: String,
    pub iclass: String,
    pub encoding: Encoding,
    pub mask: Option<bool>,
    pub zeroing: Option<bool>,
    pub bcast: Option<bool>,
    pub sae: Option<bool>,
    pub roundc: Option<bool>,
    pub immzero: Option<bool>,
    /// `rm="0,1,2,3"`: allowed low 3 bits of the r/m register number.
    pub rm: Option<Vec<u8>>,
    /// LEA addressing form (`B_IS_D8`).
    pub agen: Option<String>,
    /// `rep="3"` (F3) or `rep="2"` (F2).
    pub rep: Option<u8>,
    /// Effective operand size in bits (`eosz` 1/2/3 → 16/32/64).
    pub eosz: Option<u32>,
    pub opcode: Option<OpcodeHint>,
    pub ops: Vec<FormOp>,
    /// The measurement for the arch the database was built for.
    pub measurement: Option<Measurement>,
}

fn flag_attr(rec: &InstrRecord, name: &str) -> Option<bool> {
    rec.attr(name).map(|v| v != "0" && !v.is_empty())
}

fn encoding_of(rec: &InstrRecord) -> Encoding {
    if rec.attr("evex") == Some("1") {
        Encoding::Evex
    } else if rec.attr("vex") == Some("1") {
        Encoding::Vex
    } else if matches!(rec.extension.as_str(), "XOP" | "TBM") {
        Encoding::Xop
    } else if rec.extension == "3DNOW" {
        Encoding::D3Now
    } else {
        Encoding::Legacy
    }
}

/// Parses the opcode at the end of an iform: `01`, `0F1F`, `C1r4`, `B0`.
/// The opcode a record names: its iform's tail, or for a variant `suaca measure` named
/// itself (no iform) the `_XX` suffix of its mnemonic (`MOVSD_10`, `LFENCE_E9`), which is an
/// opcode or ModRM byte. Only used to break ties (`InstrDb::find`).
pub(crate) fn named_opcode(form: &Form) -> Option<OpcodeHint> {
    form.opcode.or_else(|| {
        let mnemonic = form.string.split(" (").next()?;
        form.iform.is_empty().then(|| opcode_hint(mnemonic))?
    })
}

fn opcode_hint(iform: &str) -> Option<OpcodeHint> {
    let tail = iform.rsplit('_').next()?;
    let hex = match tail.find('r') {
        Some(i) if tail.len() == i + 2 && tail.as_bytes()[i + 1].is_ascii_digit() => &tail[..i],
        Some(_) => return None,
        None => tail,
    };
    let is_hex = |s: &str| {
        s.bytes()
            .all(|b| b.is_ascii_digit() || (b'A'..=b'F').contains(&b))
    };
    match hex.len() {
        2 if is_hex(hex) => Some(OpcodeHint {
            byte: u8::from_str_radix(hex, 16).ok()?,
            map_0f: false,
        }),
        4 if hex.starts_with("0F") && is_hex(hex) => Some(OpcodeHint {
            byte: u8::from_str_radix(&hex[2..], 16).ok()?,
            map_0f: true,
        }),
        _ => None,
    }
}

fn flag_of(name: &str) -> Option<Flag> {
    Flag::ALL
        .into_iter()
        .find(|f| f.name().eq_ignore_ascii_case(name))
}

fn class_of(op: &OperandRecord) -> OpClass {
    let fixed_value = || {
        op.text
            .as_deref()
            .or(op.registers.first().map(String::as_str))
            .and_then(|t| t.trim().parse::<u64>().ok())
    };
    match &op.kind {
        Some(OperandKind::Reg) => {
            let regs: Vec<Register> = op
                .registers
                .iter()
                .filter_map(|n| register_by_xed_name(n.trim()))
                .collect();
            if regs.is_empty() {
                return OpClass::Other;
            }
            let opmask = op.attrs.get("opmask").is_some_and(|v| v == "1");
            OpClass::Reg { regs, opmask }
        }
        Some(OperandKind::Mem) => OpClass::Mem {
            bits: op.width,
            base: op.attrs.get("base").and_then(|b| register_by_xed_name(b)),
            vsib: op.attrs.get("VSIB").and_then(|v| match v.as_str() {
                "XMM" => Some(128),
                "YMM" => Some(256),
                "ZMM" => Some(512),
                _ => None,
            }),
        },
        Some(OperandKind::Agen) => OpClass::Agen,
        Some(OperandKind::Imm) => OpClass::Imm {
            bits: op.width,
            value: fixed_value(),
        },
        Some(OperandKind::Relbr) => OpClass::Relbr { bits: op.width },
        Some(OperandKind::Flags) => {
            let (mut read, mut write, mut cond_write) =
                (FlagSet::empty(), FlagSet::empty(), FlagSet::empty());
            for (name, acc) in &op.flags {
                let Some(f) = flag_of(name) else { continue };
                if acc.read {
                    read |= f.set();
                }
                // An undefined flag is still overwritten: later readers depend on this write.
                if acc.write || acc.cond_write || acc.undefined {
                    write |= f.set();
                }
                if acc.cond_write {
                    cond_write |= f.set();
                }
            }
            OpClass::Flags {
                read,
                write,
                cond_write,
            }
        }
        _ => OpClass::Other,
    }
}

impl Form {
    /// Compiles `rec`, keeping the measurement of `arch` only.
    pub fn new(rec: &InstrRecord, arch: &str) -> Form {
        let ops = rec
            .operands
            .iter()
            .map(|op| FormOp {
                idx: op.idx,
                class: class_of(op),
                suppressed: op.suppressed,
                implicit: op.attrs.get("implicit").is_some_and(|v| v == "1"),
                read: op.read,
                write: op.write || op.cond_write,
            })
            .collect();
        Form {
            string: rec.string.clone(),
            iform: rec.iform.clone(),
            iclass: rec.iclass.clone(),
            encoding: encoding_of(rec),
            mask: flag_attr(rec, "mask"),
            zeroing: flag_attr(rec, "zeroing"),
            bcast: flag_attr(rec, "bcast"),
            sae: flag_attr(rec, "sae"),
            roundc: flag_attr(rec, "roundc"),
            immzero: flag_attr(rec, "immzero"),
            rm: rec
                .attr("rm")
                .map(|v| v.split(',').filter_map(|d| d.trim().parse().ok()).collect()),
            agen: rec.attr("agen").map(str::to_string),
            rep: rec.attr("rep").and_then(|v| v.parse().ok()),
            eosz: rec.attr("eosz").and_then(|v| match v {
                "1" => Some(16),
                "2" => Some(32),
                "3" => Some(64),
                _ => None,
            }),
            opcode: opcode_hint(&rec.iform),
            ops,
            measurement: rec.arch(arch).and_then(|a| a.measurement.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opcode_hints_from_iform_tails() {
        let h = |s| opcode_hint(s).map(|h| (h.byte, h.map_0f));
        assert_eq!(h("ADD_GPRv_GPRv_01"), Some((0x01, false)));
        assert_eq!(h("SHL_GPRv_ONE_D1r4"), Some((0xD1, false)));
        assert_eq!(h("NOP_GPRv_GPRv_0F1F"), Some((0x1F, true)));
        assert_eq!(h("ADD_GPRv_IMMz"), None);
        assert_eq!(h("VADDPD_ZMMf64_MASKmskw_ZMMf64_ZMMf64_AVX512"), None);
        assert_eq!(h("LEA_GPRv_AGEN"), None);
    }
}
