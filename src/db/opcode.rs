//! What the matcher needs of an instruction's opcode (its byte, map, operand size and operand
//! kinds), without iced-x86's `OpCodeInfo` table: the first `Code::op_code()` call builds and
//! formats all of its ~4,900 entries, about 2 ms of every run, for the one or two
//! instructions an analysis looks at.
//!
//! Owns: [`OPCODES`] (`opcode_table.rs`), generated from iced-x86's table and checked entry by
//! entry against it by this module's test, which also rewrites it when
//! `SUACA_BLESS_OPCODES=1` is set (after an iced-x86 update).

use iced_x86::{Code, OpCodeOperandKind, OpCodeTableKind};

#[path = "opcode_table.rs"]
mod table;
use table::OPCODES;

/// The opcode facts of one `Code`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Opcode {
    /// The opcode byte (the low byte of iced's `op_code()`).
    pub byte: u8,
    /// In the `0F` map (iced's `OpCodeTableKind::T0F`).
    pub map_0f: bool,
    /// iced's `operand_size()`: 0, 16, 32 or 64.
    pub operand_size: u32,
    op_count: u8,
    kinds: [u8; 5],
}

impl Opcode {
    /// The facts of `code`.
    pub fn of(code: Code) -> Opcode {
        let (byte, table, operand_size, op_count, kinds) = OPCODES[code as usize];
        Opcode {
            byte,
            map_0f: table == OpCodeTableKind::T0F as u8,
            operand_size: u32::from(operand_size),
            op_count,
            kinds,
        }
    }

    /// Number of operands of the opcode.
    pub fn op_count(&self) -> u32 {
        u32::from(self.op_count)
    }

    /// The kind of operand `i` (`None` past the last).
    pub fn op_kind(&self, i: u32) -> OpCodeOperandKind {
        self.kinds
            .get(i as usize)
            .and_then(|&k| OpCodeOperandKind::try_from(usize::from(k)).ok())
            .unwrap_or(OpCodeOperandKind::None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `opcode_table.rs` as iced-x86 gives it.
    fn generated() -> String {
        let mut out = String::from(
            "//! Generated from iced-x86's `OpCodeInfo` by `super`'s test (`SUACA_BLESS_OPCODES=1`):\n\
             //! per `Code`: opcode byte, `OpCodeTableKind`, operand size, operand count and the\n\
             //! `OpCodeOperandKind` of each operand.\n\n\
             #[rustfmt::skip]\n\
             pub(super) static OPCODES: [(u8, u8, u8, u8, [u8; 5]); ",
        );
        out.push_str(&format!("{}] = [\n", Code::values().len()));
        for code in Code::values() {
            let info = code.op_code();
            assert!(info.op_count() <= 5, "{code:?}");
            let kinds: Vec<String> = (0..5)
                .map(|i| {
                    if i < info.op_count() {
                        (info.op_kind(i) as usize).to_string()
                    } else {
                        "0".to_string()
                    }
                })
                .collect();
            out.push_str(&format!(
                "({}, {}, {}, {}, [{}]),\n",
                info.op_code() & 0xFF,
                info.table() as u8,
                info.operand_size(),
                info.op_count(),
                kinds.join(", ")
            ));
        }
        out.push_str("];\n");
        out
    }

    #[test]
    fn the_table_is_iced_x86s() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/db/opcode_table.rs");
        let want = generated();
        if std::env::var_os("SUACA_BLESS_OPCODES").is_some() {
            std::fs::write(&path, &want).unwrap();
        }
        let have = std::fs::read_to_string(&path).unwrap();
        assert!(
            have == want,
            "src/db/opcode_table.rs is not iced-x86's table: rerun with SUACA_BLESS_OPCODES=1"
        );
        for code in Code::values() {
            let info = code.op_code();
            let o = Opcode::of(code);
            assert_eq!(u32::from(o.byte), info.op_code() & 0xFF, "{code:?}");
            assert_eq!(o.map_0f, info.table() == OpCodeTableKind::T0F, "{code:?}");
            assert_eq!(o.operand_size, info.operand_size(), "{code:?}");
            assert_eq!(o.op_count(), info.op_count(), "{code:?}");
            for i in 0..6 {
                let want = if i < info.op_count() {
                    info.op_kind(i)
                } else {
                    OpCodeOperandKind::None
                };
                assert_eq!(o.op_kind(i), want, "{code:?} operand {i}");
            }
        }
    }
}
