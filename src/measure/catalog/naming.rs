//! uops.info names: operand tokens (`R64`, `M64_1to8`), matching a variant to a record of the
//! uops.info skeleton, and making generated names unique. Mnemonics are spelled by
//! `db::names`, the one iced → XED table the analyzer matches with.

use std::collections::{HashMap, HashSet};

use iced_x86::{Code, EncodingKind, MemorySize, OpKind};

use super::{Slot, Variant};
use crate::uopsxml::InstrRecord;

/// Index of a uops.info skeleton: (mnemonic, tokens) → records.
#[derive(Default)]
pub struct Skeleton {
    by_key: HashMap<(String, String), Vec<InstrRecord>>,
    /// Number of records read.
    pub len: usize,
}

/// Splits `ADD_01 (R64, R64)` into (`ADD_01`, `R64, R64`).
pub(super) fn split_string(s: &str) -> (&str, &str) {
    match s.find(" (") {
        Some(p) => (&s[..p], s[p + 2..].trim_end_matches(')')),
        None => (s, ""),
    }
}

impl Skeleton {
    /// Indexes records (their `<architecture>` children are dropped).
    pub fn new(records: impl IntoIterator<Item = InstrRecord>) -> Self {
        let mut sk = Skeleton::default();
        for mut r in records {
            r.archs.clear();
            let (_, toks) = split_string(&r.string);
            let key = (r.iclass.to_uppercase(), toks.to_string());
            sk.by_key.entry(key).or_default().push(r);
            sk.len += 1;
        }
        sk
    }

    fn candidates(&self, mnem: &str, toks: &str) -> &[InstrRecord] {
        self.by_key
            .get(&(mnem.to_string(), toks.to_string()))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }
}

pub(super) fn imm_token(k: OpKind) -> &'static str {
    match k {
        OpKind::Immediate8
        | OpKind::Immediate8to16
        | OpKind::Immediate8to32
        | OpKind::Immediate8to64 => "I8",
        OpKind::Immediate16 => "I16",
        OpKind::Immediate32 | OpKind::Immediate32to64 => "I32",
        _ => "I64",
    }
}

/// uops.info token of a slot (`mem_size` is the code's memory size).
pub(super) fn slot_token(s: &Slot, mem_size: MemorySize, bcst_count: u32) -> String {
    match s {
        Slot::Reg(c) => c.token().to_string(),
        Slot::Fixed(r) => format!("{r:?}").to_uppercase(),
        Slot::Mem { bytes, bcst: false } => {
            let _ = mem_size;
            format!("M{}", bytes * 8)
        }
        Slot::Mem { bytes, bcst: true } => format!("M{}_1to{}", bytes * 8, bcst_count),
        Slot::Imm(k) => imm_token(*k).to_string(),
        Slot::One => "1".to_string(),
        // uops.info names the form in the mnemonic (`LEA_B_D8 (R64)`), not as a token.
        Slot::Agen(_) => String::new(),
        Slot::Rel(bits) => format!("Rel{bits}"),
        Slot::Vsib(c) => format!("VSIB_{}", c.token()),
    }
}

/// Makes every `string` unique the way uops.info does: a skeleton name is kept by its first
/// variant; generated names that collide get `_EVEX` (EVEX twin of a VEX/legacy form), then the
/// opcode byte (`ADD_01`/`ADD_03`), then the iced code name.
pub(super) fn dedup_names(vs: &mut [Variant]) {
    let mut taken: HashSet<String> = HashSet::new();
    for v in vs.iter_mut() {
        if v.from_skeleton && !taken.insert(v.record.string.clone()) {
            v.from_skeleton = false;
            v.record = v.generated.clone();
            v.operands = v.generated_operands.clone();
        }
    }
    let rename = |v: &Variant, suffix: &str| {
        let (base, toks) = split_string(&v.record.string);
        if toks.is_empty() {
            format!("{base}_{suffix}")
        } else {
            format!("{base}_{suffix} ({toks})")
        }
    };
    for round in 0..3 {
        let mut groups: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, v) in vs.iter().enumerate() {
            if !v.from_skeleton {
                groups.entry(v.record.string.clone()).or_default().push(i);
            }
        }
        for (name, idx) in groups {
            // A lone generated name is renamed only when a skeleton variant holds it.
            if idx.len() < 2 && !taken.contains(&name) {
                continue;
            }
            let is_evex: Vec<bool> = idx
                .iter()
                .map(|i| vs[*i].code.op_code().encoding() == EncodingKind::EVEX)
                .collect();
            let mixed = is_evex.iter().any(|e| *e) && !is_evex.iter().all(|e| *e);
            for (k, &i) in idx.iter().enumerate() {
                let new = match round {
                    0 if mixed => {
                        if is_evex[k] {
                            rename(&vs[i], "EVEX")
                        } else {
                            continue;
                        }
                    }
                    0 => continue,
                    1 => rename(
                        &vs[i],
                        &format!("{:02X}", vs[i].code.op_code().op_code() & 0xFF),
                    ),
                    _ => rename(&vs[i], &format!("{:?}", vs[i].code)),
                };
                vs[i].record.string = new;
            }
        }
    }
    for v in vs.iter() {
        if !v.from_skeleton {
            taken.insert(v.record.string.clone());
        }
    }
}

pub(super) fn match_record(
    sk: &Skeleton,
    mnem: &str,
    toks: &str,
    code: Code,
    masked: bool,
    zeroing: bool,
    agen: Option<&str>,
) -> Option<InstrRecord> {
    let oc = code.op_code();
    let evex = oc.encoding() == EncodingKind::EVEX;
    let vex = oc.encoding() == EncodingKind::VEX;
    let cands: Vec<&InstrRecord> = sk
        .candidates(mnem, toks)
        .iter()
        .filter(|r| (r.attr("evex") == Some("1")) == evex)
        .filter(|r| (r.attr("vex") == Some("1")) == vex || evex)
        .filter(|r| r.attr("immzero") != Some("1"))
        .filter(|r| r.attr("high8").is_none_or(str::is_empty))
        .filter(|r| r.attr("locked").is_none() && r.attr("rep").is_none())
        .filter(|r| (r.attr("zeroing") == Some("1")) == zeroing)
        .filter(|r| !masked || r.attr("mask") != Some("0"))
        .filter(|r| r.attr("roundc").is_none_or(|v| v == "0"))
        .filter(|r| r.attr("sae").is_none_or(|v| v == "0"))
        .filter(|r| r.attr("agen") == agen)
        .collect();
    if cands.len() <= 1 {
        return cands.first().map(|r| (*r).clone());
    }
    // Disambiguate by the opcode at the end of the iform (ADD_GPRv_GPRv_01).
    let op = format!("_{:02X}", oc.op_code() & 0xFF);
    let by_op: Vec<&&InstrRecord> = cands
        .iter()
        .filter(|r| r.iform.ends_with(&op) || r.iform.contains(&format!("{op}r")))
        .collect();
    if by_op.len() == 1 {
        return Some((*by_op[0]).clone());
    }
    // Immediate width (eosz) or W: prefer the first candidate whose string has no suffix.
    let first = by_op
        .first()
        .copied()
        .or(cands.first())
        .map(|r| (*r).clone());
    first
}

#[cfg(test)]
mod tests {
    use super::super::tests::all_features;
    use super::super::{build, CatalogOptions};
    use super::*;
    use crate::uopsxml::{OperandKind, OperandRecord};

    #[test]
    fn a_generated_name_never_repeats_a_skeleton_name() {
        // The skeleton knows PUSH (R64) as 50+r; FF /6 with a register is generated and
        // must not take the same string.
        let rec = InstrRecord {
            string: "PUSH (R64)".into(),
            asm: "PUSH".into(),
            iform: "PUSH_GPRv_50".into(),
            iclass: "PUSH".into(),
            operands: vec![OperandRecord {
                idx: 1,
                read: true,
                kind: Some(OperandKind::Reg),
                ..Default::default()
            }],
            ..Default::default()
        };
        let c = build(
            &all_features(),
            Some(&Skeleton::new(vec![rec])),
            &CatalogOptions::default(),
        );
        let name = |code: Code| {
            c.variants
                .iter()
                .find(|v| v.code == code && !v.slots.iter().any(|s| matches!(s, Slot::Mem { .. })))
                .map(|v| v.record.string.clone())
        };
        assert_eq!(name(Code::Push_r64).as_deref(), Some("PUSH (R64)"));
        assert_eq!(name(Code::Push_rm64).as_deref(), Some("PUSH_FF (R64)"));
        let mut seen = HashSet::new();
        assert!(c
            .variants
            .iter()
            .all(|v| seen.insert(v.record.string.clone())));
    }

    /// The analyzer finds the records `measure` generates: each generated iclass is one the
    /// analyzer proposes for an instruction of that code (one naming table, `db::names`).
    #[test]
    fn generated_iclasses_are_the_analyzers() {
        let c = build(&all_features(), None, &CatalogOptions::default());
        assert!(c.variants.len() > 1000);
        let mut mismatched = Vec::new();
        for v in &c.variants {
            let mut ins = iced_x86::Instruction::default();
            ins.set_code(v.code);
            let candidates = crate::db::names::iclass_candidates(&ins);
            // An alias (`SAL`) is measured under its own name; the analyzer reads the
            // iclass it stands for (`SHL`).
            let alias = crate::db::xed_base_name(v.code.mnemonic());
            let wanted = if alias == v.generated.iclass {
                &v.generated.iclass
            } else {
                &alias
            };
            if !candidates.contains(wanted) {
                mismatched.push(format!("{:?}: {}", v.code, v.generated.iclass));
            }
        }
        assert!(mismatched.is_empty(), "{mismatched:?}");
    }

    #[test]
    fn split() {
        assert_eq!(split_string("ADD_01 (R64, R64)"), ("ADD_01", "R64, R64"));
        assert_eq!(split_string("CPUID"), ("CPUID", ""));
    }

    #[test]
    fn skeleton_names_win() {
        let rec = InstrRecord {
            string: "ADD_01 (R64, R64)".into(),
            asm: "{load} ADD".into(),
            iform: "ADD_GPRv_GPRv_01".into(),
            iclass: "ADD".into(),
            operands: vec![
                OperandRecord {
                    idx: 1,
                    read: true,
                    write: true,
                    kind: Some(OperandKind::Reg),
                    ..Default::default()
                },
                OperandRecord {
                    idx: 2,
                    read: true,
                    kind: Some(OperandKind::Reg),
                    ..Default::default()
                },
            ],
            ..Default::default()
        };
        let rec3 = InstrRecord {
            string: "ADD_03 (R64, R64)".into(),
            iform: "ADD_GPRv_GPRv_03".into(),
            ..rec.clone()
        };
        let sk = Skeleton::new(vec![rec, rec3]);
        let c = build(&all_features(), Some(&sk), &CatalogOptions::default());
        let v01 = c
            .variants
            .iter()
            .find(|v| {
                v.code == Code::Add_rm64_r64
                    && v.slots.iter().all(|s| !matches!(s, Slot::Mem { .. }))
            })
            .unwrap();
        assert!(v01.from_skeleton);
        assert_eq!(v01.record.string, "ADD_01 (R64, R64)");
        let v03 = c
            .variants
            .iter()
            .find(|v| {
                v.code == Code::Add_r64_rm64
                    && v.slots.iter().all(|s| !matches!(s, Slot::Mem { .. }))
            })
            .unwrap();
        assert_eq!(v03.record.string, "ADD_03 (R64, R64)");
    }
}
