//! Names: iced-x86 mnemonics to XED iclass candidates, XED register names to iced registers.
//!
//! The one iced → XED naming table of the project: the analyzer matches instructions to
//! records with it, and `suaca measure` names the records it generates with it
//! ([`xed_base_name`]), so that measured data is found for the instructions it describes.
//!
//! Facts from: the iclass names of uops.info's `instructions.xml` (XED-to-XML output), e.g.
//! `JNZ`/`SETNBE`/`CMOVNL` for the condition codes iced spells `jne`/`seta`/`cmovge`,
//! `ADD_LOCK` for `lock add`, `REP_MOVSB`/`REPE_CMPSB` for repeated string instructions,
//! `MOVSD_XMM` for the SSE `movsd`; register lists such as `R8B` (iced `R8L`) and `ST(0)`.

use std::collections::HashMap;
use std::sync::OnceLock;

use iced_x86::{Instruction, Mnemonic, Register};

/// XED condition-code spellings for iced's (`a` → `NBE`, ...); the rest are shared.
const CONDITION_ALIASES: [(&str, &str); 6] = [
    ("A", "NBE"),
    ("AE", "NB"),
    ("E", "Z"),
    ("NE", "NZ"),
    ("G", "NLE"),
    ("GE", "NL"),
];

/// iced mnemonics whose XED iclass has a different name altogether.
const RENAMES: [(&str, &str); 5] = [
    ("WAIT", "FWAIT"),
    ("XLATB", "XLAT"),
    ("SYSRETQ", "SYSRET64"),
    ("PREFETCH", "PREFETCH_EXCLUSIVE"),
    ("RETF", "RET_FAR"),
];

/// iced mnemonics that are another encoding of an XED iclass (`sal` is `shl`, D0–D3 /6 beside
/// /4): the analyzer reads that iclass's data for them, while `measure` names the form it
/// measures after iced ([`xed_name`]), so that the alias is measured apart.
const ALIASES: [(&str, &str); 1] = [("SAL", "SHL")];

/// Suffixes XED appends to tell apart iclasses iced gives one mnemonic (`MOVSD_XMM`,
/// `PEXTRW_SSE4`, `VPEXTRW_C5`, `BEXTR_XOP`, `CALL_NEAR`, `RET_NEAR`, `JMP_FAR`...).
const SUFFIXES: [&str; 6] = ["_XMM", "_SSE4", "_C5", "_XOP", "_NEAR", "_FAR"];

/// String instructions that XED names `REP_*` (F3) or `REPE_*`/`REPNE_*` (F2/F3).
fn is_string_op(base: &str) -> bool {
    ["MOVS", "STOS", "LODS", "INS", "OUTS", "CMPS", "SCAS"]
        .iter()
        .any(|p| base.starts_with(p) && base.len() == p.len() + 1)
}

/// The iclass whose data describes `mnemonic` without LOCK/REP prefixes: [`xed_name`], with
/// aliases resolved (`SAL` → `SHL`).
pub fn xed_base_name(mnemonic: Mnemonic) -> String {
    let name = xed_name(mnemonic);
    match ALIASES.iter().find(|(from, _)| *from == name) {
        Some((_, to)) => (*to).to_string(),
        None => name,
    }
}

/// The iced mnemonic in upper case, with condition codes in XED spelling and XED's name where
/// it differs (`XLATB` → `XLAT`, `WAIT` → `FWAIT`): the iclass `measure` writes for a form.
pub fn xed_name(mnemonic: Mnemonic) -> String {
    let name = format!("{mnemonic:?}").to_uppercase();
    if let Some((_, to)) = RENAMES.iter().find(|(from, _)| *from == name) {
        return (*to).to_string();
    }
    for prefix in ["CMOV", "SET", "J"] {
        if let Some(cc) = name.strip_prefix(prefix) {
            if let Some((_, to)) = CONDITION_ALIASES.iter().find(|(from, _)| *from == cc) {
                return format!("{prefix}{to}");
            }
        }
    }
    name
}

/// Candidate iclasses for `instr`, most specific first. The caller keeps those the data has.
///
/// A LOCK or REP prefix selects the `_LOCK`/`REP_` iclasses; when the data has none (e.g.
/// `rep ret`), the plain iclass follows so that the prefix is ignored.
pub(crate) fn iclass_candidates(instr: &Instruction) -> Vec<String> {
    let base = xed_base_name(instr.mnemonic());
    let mut plain = vec![base.clone()];
    plain.extend(SUFFIXES.iter().map(|s| format!("{base}{s}")));
    let mut out = Vec::new();
    if instr.has_lock_prefix() {
        out.extend(plain.iter().map(|n| format!("{n}_LOCK")));
    }
    if (instr.has_rep_prefix() || instr.has_repne_prefix()) && is_string_op(&base) {
        for p in ["REP_", "REPE_", "REPNE_"] {
            out.push(format!("{p}{base}"));
        }
    }
    out.extend(plain);
    out
}

/// iced register for a XED register name (`RAX`, `R8B`, `ST(0)`, `XMM17`, `K1`), if iced has it.
pub(crate) fn register_by_xed_name(name: &str) -> Option<Register> {
    static MAP: OnceLock<HashMap<String, Register>> = OnceLock::new();
    let map = MAP.get_or_init(|| {
        Register::values()
            .filter(|r| *r != Register::None)
            .map(|r| (xed_register_name(r), r))
            .collect()
    });
    let key: String = name.chars().filter(|c| *c != '(' && *c != ')').collect();
    map.get(&key).copied()
}

/// XED spelling of an iced register (`R8L` → `R8B`, `ST0` stays `ST0`: parentheses are
/// stripped on the XED side).
pub(crate) fn xed_register_name(reg: Register) -> String {
    let name = format!("{reg:?}").to_uppercase();
    match name.strip_suffix('L') {
        Some(num) if num.starts_with('R') && num[1..].parse::<u8>().is_ok() => format!("{num}B"),
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iced_x86::{Decoder, DecoderOptions};

    fn decode(bytes: &[u8]) -> Instruction {
        Decoder::with_ip(64, bytes, 0, DecoderOptions::NONE).decode()
    }

    #[test]
    fn condition_codes_use_xed_spelling() {
        assert_eq!(xed_base_name(Mnemonic::Jne), "JNZ");
        assert_eq!(xed_base_name(Mnemonic::Jae), "JNB");
        assert_eq!(xed_base_name(Mnemonic::Seta), "SETNBE");
        assert_eq!(xed_base_name(Mnemonic::Cmovge), "CMOVNL");
        assert_eq!(xed_base_name(Mnemonic::Jb), "JB");
        assert_eq!(xed_base_name(Mnemonic::Jmp), "JMP");
        assert_eq!(xed_base_name(Mnemonic::Sete), "SETZ");
        assert_eq!(xed_name(Mnemonic::Wait), "FWAIT");
        // An alias: measured under its own name, matched to the iclass it stands for.
        assert_eq!(xed_name(Mnemonic::Sal), "SAL");
        assert_eq!(xed_base_name(Mnemonic::Sal), "SHL");
    }

    #[test]
    fn prefixes_select_lock_and_rep_iclasses() {
        // lock add [rax], rbx
        let c = iclass_candidates(&decode(&[0xF0, 0x48, 0x01, 0x18]));
        assert_eq!(c[0], "ADD_LOCK");
        assert!(c.contains(&"ADD".to_string()));
        // rep movsb
        let c = iclass_candidates(&decode(&[0xF3, 0xA4]));
        assert_eq!(c[0], "REP_MOVSB");
        // rep ret: no REP_ iclass is proposed
        let c = iclass_candidates(&decode(&[0xF3, 0xC3]));
        assert!(c.contains(&"RET_NEAR".to_string()));
        assert!(!c.iter().any(|n| n.starts_with("REP")));
    }

    #[test]
    fn register_names_round_trip() {
        assert_eq!(register_by_xed_name("R8B"), Some(Register::R8L));
        assert_eq!(register_by_xed_name("ST(0)"), Some(Register::ST0));
        assert_eq!(register_by_xed_name("AH"), Some(Register::AH));
        assert_eq!(register_by_xed_name("ZMM31"), Some(Register::ZMM31));
        assert_eq!(register_by_xed_name("X87STATUS"), None);
        assert_eq!(xed_register_name(Register::R15L), "R15B");
        assert_eq!(xed_register_name(Register::R15D), "R15D");
    }
}
