//! The catalogue: instruction variants from iced-x86, filtered to what user-mode 64-bit code on
//! this host can run, named after uops.info (`ADD_01 (R64, R64)`, `VADDPD (ZMM, K, ZMM, ZMM)`).
//!
//! Names: each variant gets a generated string `MNEMONIC (TOK, TOK)` with uops.info's operand
//! tokens (`R64`, `M64`, `I8`, `XMM`, `K`, `M64_1to8`, `CL`, `1`). When a uops.info/XED-to-XML
//! skeleton is available, the variant is matched to the record with the same mnemonic and
//! tokens (disambiguated by EVEX/mask/zeroing attributes and the opcode at the end of the XED
//! iform, e.g. `ADD_GPRv_GPRv_01`), and that record's `string`, `asm`, `iform`, attributes and
//! `<operand>` list are reused — encoding metadata, not measurements.
//!
//! Split by job: `features` (host CPUID), `skip` (what is left out and why), `operands`
//! (operand shapes, instantiation, `<operand>` records), `naming` (uops.info strings and the
//! skeleton).

use std::collections::BTreeMap;

use iced_x86::{Code, InstructionInfoFactory, MemoryOperand, Mnemonic, OpKind, Register};
use serde::{Deserialize, Serialize};

use crate::uopsxml::InstrRecord;

mod features;
mod naming;
mod operands;
pub(crate) mod skip;
mod variant;

pub use features::HostFeatures;
pub use naming::Skeleton;
pub use operands::{instantiate, vsib_scale, BuildError};
pub use skip::SkipReason;

use naming::dedup_names;
use operands::{shape_of, Shape};
use skip::early_skip;
use variant::make_variant;

/// Register classes the harness can allocate.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum RegClass {
    /// General purpose, with width in bits (8 = low byte).
    Gpr(u32),
    /// XMM (legacy/VEX: 0–15; EVEX: 0–31).
    Xmm,
    /// YMM.
    Ymm,
    /// ZMM.
    Zmm,
    /// Opmask k0–k7.
    K,
    /// MMX.
    Mm,
}

impl RegClass {
    /// Width in bits.
    pub fn width(self) -> u32 {
        match self {
            RegClass::Gpr(w) => w,
            RegClass::Xmm => 128,
            RegClass::Ymm => 256,
            RegClass::Zmm => 512,
            RegClass::K => 64,
            RegClass::Mm => 64,
        }
    }

    /// uops.info token.
    pub fn token(self) -> &'static str {
        match self {
            RegClass::Gpr(8) => "R8l",
            RegClass::Gpr(16) => "R16",
            RegClass::Gpr(32) => "R32",
            RegClass::Gpr(_) => "R64",
            RegClass::Xmm => "XMM",
            RegClass::Ymm => "YMM",
            RegClass::Zmm => "ZMM",
            RegClass::K => "K",
            RegClass::Mm => "MM",
        }
    }

    /// Whether this is a vector class.
    pub fn is_vec(self) -> bool {
        matches!(self, RegClass::Xmm | RegClass::Ymm | RegClass::Zmm)
    }

    /// Register number `n` of this class.
    pub fn reg(self, n: u32) -> Register {
        let base = match self {
            RegClass::Gpr(8) => {
                // AL, CL, DL, BL, SPL, BPL, SIL, DIL, R8L.. (iced order: AL..BH then SPL..R15L)
                return match n {
                    0..=3 => reg_from(Register::AL, n),
                    4..=15 => reg_from(Register::SPL, n - 4),
                    _ => Register::None,
                };
            }
            RegClass::Gpr(16) => Register::AX,
            RegClass::Gpr(32) => Register::EAX,
            RegClass::Gpr(_) => Register::RAX,
            RegClass::Xmm => Register::XMM0,
            RegClass::Ymm => Register::YMM0,
            RegClass::Zmm => Register::ZMM0,
            RegClass::K => Register::K0,
            RegClass::Mm => Register::MM0,
        };
        reg_from(base, n)
    }
}

/// `base + n` within a register class.
pub fn reg_from(base: Register, n: u32) -> Register {
    Register::values()
        .nth(base as usize + n as usize)
        .unwrap_or(Register::None)
}

/// One explicit operand slot of the iced instruction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Slot {
    /// A register chosen by the planner.
    Reg(RegClass),
    /// A register fixed by the encoding (AL, CL, RAX, DX...).
    Fixed(#[serde(with = "reg_serde")] Register),
    /// Memory `[r14 + disp]`, `bytes` wide; `bcst` for `{1toN}`.
    Mem {
        /// Bytes accessed (element size for broadcasts).
        bytes: u32,
        /// Embedded broadcast.
        bcst: bool,
    },
    /// Immediate of this iced kind.
    Imm(#[serde(with = "opkind_serde")] OpKind),
    /// The constant 1 of `SHL r, 1`.
    One,
    /// The address LEA computes (no memory access), in one addressing form.
    Agen(Agen),
    /// A relative branch target of this displacement width in bits (8 or 32), always the
    /// next instruction: the branch goes on in the kernel whether it is taken or not.
    Rel(u32),
    /// A gather's or scatter's VSIB memory operand `[r14 + vindex*scale]`: the index is a
    /// vector register of this class, picked by the planner like a read-only register slot
    /// and filled by the kernel with in-buffer offsets (`plan::vsib`).
    Vsib(RegClass),
}

/// A LEA addressing form, as uops.info's `agen` attribute names it (`B_IS_D8`). The
/// harness fills base and index with r14 (never written, so instances stay independent);
/// latency chains put the destination there.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Agen {
    /// A base register.
    pub base: bool,
    /// An index register.
    pub index: bool,
    /// The index scaled (by 2; uops.info's `IS`), else scale 1 (`I`).
    pub scaled: bool,
    /// Displacement bytes: 0, 1 (`D8`) or 4 (`D32`).
    pub disp: u8,
}

impl Agen {
    /// The forms measured: uops.info's, without the RIP-relative `R_D32` (its target depends
    /// on where the kernel is placed).
    pub fn forms() -> Vec<Agen> {
        let mut v = Vec::new();
        for (base, index, scaled) in [
            (true, false, false),
            (true, true, false),
            (true, true, true),
            (false, false, false),
            (false, true, false),
            (false, true, true),
        ] {
            for disp in [0u8, 1, 4] {
                // Without a base, x86 encodes only a 32-bit displacement.
                if !base && disp != 4 {
                    continue;
                }
                v.push(Agen {
                    base,
                    index,
                    scaled,
                    disp,
                });
            }
        }
        v
    }

    /// uops.info's spelling (`B`, `B_I_D8`, `IS_D32`, `D32`).
    pub fn name(self) -> String {
        let mut parts = Vec::new();
        if self.base {
            parts.push("B");
        }
        if self.index {
            parts.push(if self.scaled { "IS" } else { "I" });
        }
        match self.disp {
            0 => {}
            1 => parts.push("D8"),
            _ => parts.push("D32"),
        }
        parts.join("_")
    }

    /// The displacement value used (fits the form's width).
    pub fn displacement(self) -> i64 {
        match self.disp {
            0 => 0,
            1 => 8,
            _ => 2048,
        }
    }
}

mod reg_serde {
    use iced_x86::Register;
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(r: &Register, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(*r as u32)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Register, D::Error> {
        let n = u32::deserialize(d)?;
        Ok(super::reg_from(Register::None, n))
    }
}

mod opkind_serde {
    use iced_x86::OpKind;
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(k: &OpKind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(*k as u32)
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<OpKind, D::Error> {
        let n = u32::deserialize(d)?;
        OpKind::values()
            .nth(n as usize)
            .ok_or_else(|| serde::de::Error::custom("op kind"))
    }
}

/// What an operand of the variant is, for latency planning.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum OpRef {
    /// Explicit iced operand `i`.
    Explicit(u32),
    /// The EVEX opmask.
    Mask,
    /// An implicit register (full 64-bit name for GPRs).
    Implicit(#[serde(with = "reg_serde")] Register),
    /// RFLAGS.
    Flags,
    /// Implicit memory (not planned).
    ImplicitMem,
}

/// One operand as the XML describes it, tied to how the harness reaches it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Operand {
    /// XML `idx`.
    pub idx: u32,
    /// How the harness reaches it.
    pub what: OpRef,
    /// Read.
    pub read: bool,
    /// Written (also conditionally).
    pub write: bool,
    /// Conditionally written.
    pub cond_write: bool,
}

/// One instruction variant to measure.
#[derive(Clone, Debug)]
pub struct Variant {
    /// iced code.
    pub code: Code,
    /// Explicit operand slots (iced order).
    pub slots: Vec<Slot>,
    /// Merge-masking with k1.
    pub masked: bool,
    /// Zeroing-masking.
    pub zeroing: bool,
    /// The XML record skeleton (no `<architecture>`): string, attributes, operands.
    pub record: InstrRecord,
    /// Whether `record` came from the uops.info skeleton (false: generated).
    pub from_skeleton: bool,
    /// Operands for planning.
    pub operands: Vec<Operand>,
    /// Registers the encoding uses implicitly (full GPR names), never to be rotated.
    pub implicit_regs: Vec<Register>,
    /// Implicitly read flags / written flags (iced RflagsBits).
    pub flags_read: u32,
    /// Written flags.
    pub flags_written: u32,
    /// Kind of division (values matter).
    pub divide: Option<DivKind>,
    /// The generated record (used when the skeleton name is taken by another variant).
    pub generated: InstrRecord,
    /// Operands of the generated record.
    pub generated_operands: Vec<Operand>,
}

/// Division-like instructions whose latency depends on operand values.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DivKind {
    /// DIV/IDIV of this operand width (bits).
    Int(u32),
    /// FP divide/sqrt, double precision elements.
    FpDouble,
    /// FP divide/sqrt, single precision elements.
    FpSingle,
}

/// Why an iced code was left out.
/// Options of [`build`].
#[derive(Clone, Debug, Default)]
pub struct CatalogOptions {
    /// Generate merge-masked EVEX forms (`(ZMM, K, ZMM, ZMM)`).
    pub masked: bool,
    /// Generate zero-masked EVEX forms (`_Z`).
    pub zeroing: bool,
    /// Generate broadcast memory forms (`M64_1to8`).
    pub broadcast: bool,
}

/// The catalogue: variants plus everything skipped, with reasons.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    /// Variants to measure, in iced code order.
    pub variants: Vec<Variant>,
    /// Skipped codes: (iced code name, reason).
    pub skipped: Vec<(String, SkipReason)>,
}

impl Catalog {
    /// Counts of skipped codes by reason (reason text → count).
    pub fn skip_summary(&self) -> BTreeMap<String, usize> {
        let mut m = BTreeMap::new();
        for (_, r) in &self.skipped {
            let key = match r {
                SkipReason::CpuidMissing(_) => "host CPUID lacks the feature".to_string(),
                SkipReason::UnsupportedOperands(_) => "operands not generated".to_string(),
                SkipReason::Environment(_) => "changes process state".to_string(),
                SkipReason::Build(_) => "cannot build".to_string(),
                r => r.to_string(),
            };
            *m.entry(key).or_insert(0) += 1;
        }
        m
    }
}

/// Builds the catalogue.
pub fn build(feats: &HostFeatures, skel: Option<&Skeleton>, opts: &CatalogOptions) -> Catalog {
    let mut cat = Catalog::default();
    let mut factory = InstructionInfoFactory::new();
    for code in Code::values() {
        if let Some(r) = early_skip(code, feats) {
            if !matches!(r, SkipReason::Build(_)) {
                cat.skipped.push((format!("{code:?}"), r));
            }
            continue;
        }
        let oc = code.op_code();
        let mut shapes = Vec::new();
        let mut bad = None;
        for k in oc.op_kinds() {
            match shape_of(*k) {
                Ok(s) => shapes.push(s),
                Err(e) => {
                    bad = Some(e);
                    break;
                }
            }
        }
        if let Some(e) = bad {
            cat.skipped.push((
                format!("{code:?}"),
                SkipReason::UnsupportedOperands(format!("{e:?}")),
            ));
            continue;
        }
        let mem_size = oc.memory_size();
        let mem_bytes = mem_size.size() as u32;
        let has_rm = shapes
            .iter()
            .any(|s| matches!(s, Shape::RegOrMem(_) | Shape::MemOnly));
        // Forms: register form (if any rm is reg-capable), memory form, broadcast form.
        let mut forms: Vec<(bool, bool)> = Vec::new(); // (memory, broadcast)
        let reg_ok = !shapes.iter().any(|s| matches!(s, Shape::MemOnly));
        if reg_ok {
            forms.push((false, false));
        }
        if has_rm {
            if matches!(code.mnemonic(), Mnemonic::Lea) {
                // One variant per addressing form: the address is the operand.
                for a in Agen::forms() {
                    let slots: Vec<Slot> = shapes
                        .iter()
                        .map(|s| match s {
                            Shape::One(sl) => sl.clone(),
                            Shape::RegOrMem(c) => Slot::Reg(*c),
                            Shape::MemOnly => Slot::Agen(a),
                        })
                        .collect();
                    match make_variant(code, slots, false, false, skel, &mut factory) {
                        Ok(v) => cat.variants.push(v),
                        Err(e) => cat.skipped.push((format!("{code:?}"), e)),
                    }
                }
                continue;
            }
            forms.push((true, false));
            if opts.broadcast && oc.can_broadcast() {
                forms.push((true, true));
            }
        }
        let mut masks: Vec<(bool, bool)> = Vec::new(); // (masked, zeroing)
        if oc.require_op_mask_register() {
            masks.push((true, false));
        } else {
            masks.push((false, false));
            if oc.can_use_op_mask_register() && opts.masked {
                masks.push((true, false));
            }
            if oc.can_use_zeroing_masking() && opts.zeroing {
                masks.push((true, true));
            }
        }
        for &(is_mem, bcst) in &forms {
            for &(masked, zeroing) in &masks {
                // Zeroing-masking with a memory destination is #UD.
                if zeroing
                    && is_mem
                    && matches!(shapes.first(), Some(Shape::RegOrMem(_) | Shape::MemOnly))
                {
                    continue;
                }
                let slots: Vec<Slot> = shapes
                    .iter()
                    .map(|s| match s {
                        Shape::One(sl) => sl.clone(),
                        Shape::RegOrMem(c) => {
                            if is_mem {
                                Slot::Mem {
                                    bytes: if bcst {
                                        oc.broadcast_memory_size().size() as u32
                                    } else if mem_bytes > 0 {
                                        mem_bytes
                                    } else {
                                        c.width() / 8
                                    },
                                    bcst,
                                }
                            } else {
                                Slot::Reg(*c)
                            }
                        }
                        Shape::MemOnly => Slot::Mem {
                            bytes: mem_bytes,
                            bcst,
                        },
                    })
                    .collect();
                match make_variant(code, slots, masked, zeroing, skel, &mut factory) {
                    Ok(v) => cat.variants.push(v),
                    Err(e) => cat.skipped.push((format!("{code:?}"), e)),
                }
            }
        }
    }
    dedup_names(&mut cat.variants);
    cat
}

/// Memory operand `[r14 + d]`.
pub fn mem_at(d: i64) -> MemoryOperand {
    MemoryOperand::with_base_displ(Register::R14, d)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::uopsxml::OperandKind;

    pub(crate) fn all_features() -> HostFeatures {
        HostFeatures::from_cpuid(&|_, _| [0xFFFF_FFFF; 4])
    }

    pub(crate) fn find<'a>(c: &'a Catalog, s: &str) -> &'a Variant {
        c.variants
            .iter()
            .find(|v| v.record.string == s)
            .unwrap_or_else(|| panic!("{s} missing"))
    }

    #[test]
    fn generated_names_follow_uops_info() {
        let opts = CatalogOptions {
            masked: true,
            zeroing: true,
            broadcast: true,
        };
        let c = build(&all_features(), None, &opts);
        find(&c, "ADD_01 (R64, R64)");
        find(&c, "ADD_03 (R64, R64)");
        find(&c, "ADD (M64, R64)");
        find(&c, "ADD (R64, M64)");
        find(&c, "MOV (R64, M64)");
        find(&c, "IMUL (R64, R64, I8)");
        find(&c, "VADDPD (YMM, YMM, YMM)");
        find(&c, "VADDPD (ZMM, K, ZMM, ZMM)");
        find(&c, "VADDPD_Z (ZMM, K, ZMM, ZMM)");
        find(&c, "VADDPD (ZMM, ZMM, M64_1to8)");
        find(&c, "SHL (R64, CL)");
        find(&c, "SHL (R64, 1)");
        let d = find(&c, "DIV (R64)");
        assert_eq!(d.divide, Some(DivKind::Int(64)));
        assert!(d.implicit_regs.contains(&Register::RAX));
        assert!(d.implicit_regs.contains(&Register::RDX));
        // Skips carry reasons.
        let s = c.skip_summary();
        assert!(s.keys().any(|k| k.contains("x87")), "{s:?}");
        assert!(s.keys().any(|k| k.contains("control flow")), "{s:?}");
        assert!(c.skipped.iter().any(|(n, _)| n.starts_with("Push")));
        // Unique strings.
        let mut seen = std::collections::HashSet::new();
        for v in &c.variants {
            assert!(seen.insert(v.record.string.clone()), "{}", v.record.string);
        }
    }

    #[test]
    fn direct_branches_target_the_next_instruction() {
        let c = build(&all_features(), None, &CatalogOptions::default());
        for (name, bytes) in [
            ("JNZ (Rel8)", &[0x75, 0x00][..]),
            ("JNZ (Rel32)", &[0x0F, 0x85, 0, 0, 0, 0][..]),
            ("JMP (Rel8)", &[0xEB, 0x00][..]),
            ("JMP (Rel32)", &[0xE9, 0, 0, 0, 0][..]),
            ("JRCXZ (Rel8)", &[0xE3, 0x00][..]),
            ("Loop_rel8_64_RCX", &[0xE2, 0x00][..]),
        ] {
            // Without a skeleton the two LOOP encodings (rcx, ecx) get names by iced code.
            let v = c
                .variants
                .iter()
                .find(|v| v.record.string == name || format!("{:?}", v.code) == name)
                .unwrap_or_else(|| panic!("{name} missing"));
            let ins = instantiate(v, &[], &[], 2).unwrap();
            assert_eq!(ins.code(), v.code, "{name}");
            assert_eq!(ins.near_branch_target(), 0, "{name}");
            // Encoded at 0x1000 with the target right after it (the harness's encoding).
            let mut enc = iced_x86::Encoder::new(64);
            let mut ins = ins;
            ins.set_near_branch64(0x1000);
            let len = enc.encode(&ins, 0x1000).unwrap() as u64;
            let _ = enc.take_buffer();
            ins.set_near_branch64(0x1000 + len);
            enc.encode(&ins, 0x1000).unwrap();
            assert_eq!(enc.take_buffer(), bytes, "{name}");
        }
        let jnz = find(&c, "JNZ (Rel8)");
        assert!(jnz.flags_read != 0 && jnz.flags_written == 0);
        let looped = c.variants.iter().find(|v| v.code == Code::Loop_rel8_64_RCX);
        assert!(looped.is_some_and(|v| v.implicit_regs.contains(&Register::RCX)));
        // Calls, returns and indirect jumps still leave the harness.
        for gone in ["Call_rel32_64", "Retnq", "Jmp_rm64"] {
            assert!(c.skipped.iter().any(|(n, _)| n == gone), "{gone}");
        }
    }

    #[test]
    fn lea_variants_per_addressing_form() {
        let c = build(&all_features(), None, &CatalogOptions::default());
        let leas: Vec<&Variant> = c
            .variants
            .iter()
            .filter(|v| v.code.mnemonic() == Mnemonic::Lea)
            .collect();
        assert_eq!(leas.len(), 3 * 12);
        let skipped: Vec<_> = c
            .skipped
            .iter()
            .filter(|(n, _)| n.starts_with("Lea_"))
            .collect();
        assert!(skipped.is_empty(), "{skipped:?}");
        for v in leas {
            let Some(Slot::Agen(a)) = v.slots.get(1) else {
                panic!("{}", v.record.string)
            };
            let (mnem, toks) = naming::split_string(&v.record.string);
            assert_eq!(mnem, format!("LEA_{}", a.name()));
            assert!(matches!(toks, "R16" | "R32" | "R64"), "{toks}");
            assert_eq!(v.record.attr("agen"), Some(a.name().as_str()));
            assert_eq!(v.record.operands[1].kind, Some(OperandKind::Agen));
            assert!(v.operands[1].read && !v.operands[1].write);
            // The encoded instruction has the named form.
            let Slot::Reg(dest) = v.slots[0] else {
                panic!("{}", v.record.string)
            };
            let ins = instantiate(v, &[dest.reg(0)], &[], 2).unwrap();
            let mut enc = iced_x86::Encoder::new(64);
            enc.encode(&ins, 0x1000).unwrap();
            let bytes = enc.take_buffer();
            let back = iced_x86::Decoder::with_ip(64, &bytes, 0x1000, 0).decode();
            assert_eq!(crate::db::matcher::agen_form(&back), a.name(), "{back}");
        }
    }

    #[test]
    fn operands_have_access_and_flags() {
        let c = build(&all_features(), None, &CatalogOptions::default());
        let v = find(&c, "ADD_01 (R64, R64)");
        let rec = &v.record;
        assert_eq!(rec.operands.len(), 3);
        assert!(rec.operands[0].read && rec.operands[0].write);
        assert!(rec.operands[1].read && !rec.operands[1].write);
        assert_eq!(rec.operands[2].kind, Some(OperandKind::Flags));
        assert!(rec.operands[2].suppressed);
        let adc = find(&c, "ADC_11 (R64, R64)");
        assert!(adc.flags_read != 0);
    }

    #[test]
    fn cpuid_filter() {
        let none = HostFeatures::from_cpuid(&|_, _| [0; 4]);
        let c = build(&none, None, &CatalogOptions::default());
        assert!(c
            .variants
            .iter()
            .all(|v| !v.record.string.starts_with("VADDPD")));
        assert!(c
            .skipped
            .iter()
            .any(|(_, r)| matches!(r, SkipReason::CpuidMissing(f) if f == "AVX")));
    }
}
