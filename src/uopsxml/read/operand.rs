//! `<operand>`: index, name, kind, access, width, flags, and the register list or text.

use std::io::BufRead;

use super::{parse_flag01, Ev, InstrReader};
use crate::uopsxml::error::{Pos, XmlError};
use crate::uopsxml::schema::{FlagAccess, OperandKind, OperandRecord};

impl<R: BufRead> InstrReader<R> {
    pub(super) fn read_operand(
        &mut self,
        instr: &str,
        attrs: Vec<(String, String)>,
        empty: bool,
        pos: Pos,
    ) -> Result<OperandRecord, XmlError> {
        let mut op = OperandRecord::default();
        let mut idx = None;
        let bad = |k: &str, v: &str, exp: &str| {
            self.bad(pos, self.ctx("operand", instr, None), k, v, exp)
        };
        for (k, v) in attrs {
            match k.as_str() {
                "idx" => {
                    idx = Some(
                        v.parse::<u32>()
                            .map_err(|_| bad(&k, &v, "an operand index"))?,
                    )
                }
                "name" => op.name = Some(v),
                "type" => op.kind = Some(operand_kind(&v)),
                "r" => op.read = parse_flag01(&v).ok_or_else(|| bad(&k, &v, "0 or 1"))?,
                "w" => op.write = parse_flag01(&v).ok_or_else(|| bad(&k, &v, "0 or 1"))?,
                "conditionalWrite" => {
                    op.cond_write = parse_flag01(&v).ok_or_else(|| bad(&k, &v, "0 or 1"))?
                }
                "suppressed" => {
                    op.suppressed = parse_flag01(&v).ok_or_else(|| bad(&k, &v, "0 or 1"))?
                }
                "width" => op.width = Some(v.parse().map_err(|_| bad(&k, &v, "a width in bits"))?),
                "xtype" => op.xtype = Some(v),
                _ => match k
                    .strip_prefix("flag_")
                    .and_then(|f| Some((f, parse_flag_access(&v)?)))
                {
                    Some((flag, acc)) => {
                        op.flags.insert(flag.to_string(), acc);
                    }
                    // Unknown attribute, or a flag access we cannot represent: verbatim.
                    None => {
                        op.attrs.insert(k, v);
                    }
                },
            }
        }
        op.idx = idx.ok_or_else(|| XmlError::MissingAttr {
            name: self.name.clone(),
            pos,
            ctx: self.ctx("operand", instr, None),
            attr: "idx".into(),
        })?;
        if !empty {
            let mut text = String::new();
            loop {
                match self.next_inner()? {
                    Ev::Close => break,
                    Ev::Text(t) => text.push_str(&t),
                    Ev::Open { empty, .. } => {
                        if !empty {
                            self.skip_subtree()?;
                        }
                    }
                }
            }
            if !text.is_empty() {
                if op.kind == Some(OperandKind::Reg) {
                    op.registers = text.split(',').map(|r| r.trim().to_string()).collect();
                } else {
                    op.text = Some(text);
                }
            }
        }
        Ok(op)
    }
}

fn operand_kind(v: &str) -> OperandKind {
    match v {
        "reg" => OperandKind::Reg,
        "mem" => OperandKind::Mem,
        "flags" | "flag" => OperandKind::Flags,
        "imm" => OperandKind::Imm,
        "agen" => OperandKind::Agen,
        "relbr" => OperandKind::Relbr,
        other => OperandKind::Other(other.to_string()),
    }
}

/// `r`, `w`, `cw`, `r/w`, `r/cw`, `undef` (also `u`); `None` for anything else.
fn parse_flag_access(v: &str) -> Option<FlagAccess> {
    let mut acc = FlagAccess::default();
    for part in v.split('/') {
        match part {
            "r" => acc.read = true,
            "w" => acc.write = true,
            "cw" => acc.cond_write = true,
            "undef" | "u" => acc.undefined = true,
            _ => return None,
        }
    }
    Some(acc)
}
