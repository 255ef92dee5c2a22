//! What the matcher needs of an instruction's opcode (its byte, map, operand size and operand
//! kinds), without iced-x86's `OpCodeInfo` table: the first `Code::op_code()` call builds and
//! formats all of its ~4,900 entries, about 2 ms of every run, for the one or two
//! instructions an analysis looks at.
//!
//! Owns: [`OPCODES`] (`opcode_table.bin`, [`ENTRY`] bytes per `Code`: opcode byte,
//! `OpCodeTableKind`, operand size, operand count and the `OpCodeOperandKind` of each of five
//! operands), generated from iced-x86's table and checked entry by entry against it by this
//! module's test, which also rewrites it when `SUACA_BLESS_OPCODES=1` is set (after an
//! iced-x86 update). Kept as bytes, not source: nothing is parsed at start-up.

use iced_x86::{Code, OpCodeOperandKind, OpCodeTableKind};

/// Bytes per `Code` in [`OPCODES`].
const ENTRY: usize = 9;

/// The generated table, [`ENTRY`] bytes per `Code` in `Code` order.
static OPCODES: &[u8] = include_bytes!("opcode_table.bin");

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
        let e = &OPCODES[code as usize * ENTRY..][..ENTRY];
        let mut kinds = [0; 5];
        kinds.copy_from_slice(&e[4..]);
        Opcode {
            byte: e[0],
            map_0f: e[1] == OpCodeTableKind::T0F as u8,
            operand_size: u32::from(e[2]),
            op_count: e[3],
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

    /// `opcode_table.bin` as iced-x86 gives it.
    fn generated() -> Vec<u8> {
        let mut out = Vec::with_capacity(Code::values().len() * ENTRY);
        for code in Code::values() {
            let info = code.op_code();
            assert!(info.op_count() <= 5, "{code:?}");
            out.push((info.op_code() & 0xFF) as u8);
            out.push(info.table() as u8);
            out.push(u8::try_from(info.operand_size()).expect("operand size"));
            out.push(info.op_count() as u8);
            for i in 0..5 {
                let kind = if i < info.op_count() {
                    info.op_kind(i) as usize
                } else {
                    0
                };
                out.push(u8::try_from(kind).expect("operand kind"));
            }
        }
        out
    }

    #[test]
    fn the_table_is_iced_x86s() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/db/opcode_table.bin");
        let want = generated();
        if std::env::var_os("SUACA_BLESS_OPCODES").is_some() {
            std::fs::write(&path, &want).unwrap();
        }
        let have = std::fs::read(&path).unwrap();
        assert!(
            have == want,
            "src/db/opcode_table.bin is not iced-x86's table: rerun with SUACA_BLESS_OPCODES=1"
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
