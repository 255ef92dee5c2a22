//! Block features for grouping prediction errors into classes (which kinds of blocks the model
//! gets wrong), for the accuracy benchmark and issue #7's model work.
//!
//! The features are syntactic (from the decoded instructions only), so they are the same for
//! every tool compared. Each names a pipeline detail a model may get wrong: dividers,
//! memory, macro- and micro-fusion candidates, move elimination candidates, partial registers,
//! the stack engine, vector widths.

use iced_x86::{Mnemonic, Register};

use crate::ir::{AccessKind, BranchKind, Instr};

/// The classes a block belongs to, and its distinct mnemonics.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockFeatures {
    /// Class labels (a block has several), in a fixed order.
    pub tags: Vec<&'static str>,
    /// Distinct mnemonics, lower case, sorted.
    pub mnemonics: Vec<String>,
}

/// Every tag [`features`] can give, in its order.
pub const TAGS: [&str; 19] = [
    "size 1-3",
    "size 4-9",
    "size 10+",
    "no memory",
    "load",
    "store",
    "read-modify-write",
    "store and load of one address",
    "load-op (micro-fusion)",
    "indexed addressing",
    "div/sqrt",
    "imm16 with 66h prefix (LCP)",
    "macro-fusible pair",
    "branch",
    "reg-reg move",
    "zero/ones idiom",
    "8/16-bit write",
    "stack (push/pop/call/ret)",
    "vector",
];

/// The features of a decoded block.
pub fn features(instrs: &[Instr]) -> BlockFeatures {
    let any = |f: &dyn Fn(&Instr) -> bool| instrs.iter().any(f);
    let n = instrs.len();
    let loads = any(&|i| i.mem.iter().any(|m| m.read && !m.agen));
    let stores = any(&|i| i.mem.iter().any(|m| m.write && !m.agen));
    let checks: [(&str, bool); 19] = [
        ("size 1-3", n <= 3),
        ("size 4-9", (4..=9).contains(&n)),
        ("size 10+", n >= 10),
        ("no memory", !loads && !stores),
        ("load", loads),
        ("store", stores),
        (
            "read-modify-write",
            any(&|i| i.mem.iter().any(|m| m.read && m.write && !m.agen)),
        ),
        ("store and load of one address", stores_and_reloads(instrs)),
        ("load-op (micro-fusion)", any(&is_load_op)),
        (
            "indexed addressing",
            any(&|i| i.mem.iter().any(|m| !m.agen && m.index.is_some())),
        ),
        ("div/sqrt", any(&is_div)),
        ("imm16 with 66h prefix (LCP)", any(&Instr::has_lcp)),
        ("macro-fusible pair", has_macro_fusible_pair(instrs)),
        (
            "branch",
            any(&|i| !matches!(i.branch, BranchKind::None | BranchKind::Call)),
        ),
        ("reg-reg move", any(&is_reg_move)),
        ("zero/ones idiom", any(&|i| i.idiom.is_some())),
        ("8/16-bit write", any(&writes_partial)),
        ("stack (push/pop/call/ret)", any(&is_stack)),
        ("vector", any(&is_vector)),
    ];
    let tags = checks
        .into_iter()
        .filter(|&(_, on)| on)
        .map(|(t, _)| t)
        .collect();
    let mut mnemonics: Vec<String> = instrs.iter().map(mnemonic).collect();
    mnemonics.sort();
    mnemonics.dedup();
    BlockFeatures { tags, mnemonics }
}

/// Lower-case mnemonic (`add`, `vfmadd231pd`).
pub fn mnemonic(i: &Instr) -> String {
    format!("{:?}", i.iced.mnemonic()).to_ascii_lowercase()
}

fn is_div(i: &Instr) -> bool {
    let m = mnemonic(i);
    let m = m.strip_prefix('v').unwrap_or(&m);
    m.starts_with("div") || m.starts_with("idiv") || m.starts_with("sqrt")
}

/// A store and a load (in either order, also across copies) of the same explicit address:
/// a memory dependency, possibly loop-carried through the store buffer.
fn stores_and_reloads(instrs: &[Instr]) -> bool {
    let key = |m: &crate::ir::MemOperand| (m.segment, m.base, m.index, m.scale, m.displacement);
    let mems = || instrs.iter().flat_map(|i| &i.mem).filter(|m| !m.agen);
    mems()
        .filter(|m| m.write && m.operand.is_some())
        .any(|w| mems().any(|r| r.read && r.operand.is_some() && key(r) == key(w)))
}

fn is_move(i: &Instr) -> bool {
    matches!(
        i.iced.mnemonic(),
        Mnemonic::Mov
            | Mnemonic::Movzx
            | Mnemonic::Movsx
            | Mnemonic::Movsxd
            | Mnemonic::Movaps
            | Mnemonic::Movapd
            | Mnemonic::Movups
            | Mnemonic::Movupd
            | Mnemonic::Movdqa
            | Mnemonic::Movdqu
            | Mnemonic::Vmovaps
            | Mnemonic::Vmovapd
            | Mnemonic::Vmovups
            | Mnemonic::Vmovupd
            | Mnemonic::Vmovdqa
            | Mnemonic::Vmovdqu
    )
}

/// A register-to-register move (a move-elimination candidate).
fn is_reg_move(i: &Instr) -> bool {
    is_move(i) && i.mem.is_empty() && i.iced.op_count() == 2 && {
        use iced_x86::OpKind::Register as R;
        i.iced.op0_kind() == R && i.iced.op1_kind() == R
    }
}

/// Loads and computes in one instruction (micro-fused in the fused domain on Intel).
fn is_load_op(i: &Instr) -> bool {
    !is_move(i)
        && i.branch == BranchKind::None
        && !is_stack(i)
        && i.mem
            .iter()
            .any(|m| m.read && !m.agen && m.operand.is_some())
}

/// A flag-writing ALU instruction immediately followed by a conditional jump.
fn has_macro_fusible_pair(instrs: &[Instr]) -> bool {
    instrs.windows(2).any(|w| {
        w[1].branch.is_conditional()
            && matches!(
                w[0].iced.mnemonic(),
                Mnemonic::Cmp
                    | Mnemonic::Test
                    | Mnemonic::Add
                    | Mnemonic::Sub
                    | Mnemonic::And
                    | Mnemonic::Inc
                    | Mnemonic::Dec
            )
    })
}

fn writes_partial(i: &Instr) -> bool {
    i.accesses
        .iter()
        .any(|a| a.kind != AccessKind::Read && a.reg.is_some_and(|r| r.is_gpr8() || r.is_gpr16()))
}

fn is_stack(i: &Instr) -> bool {
    matches!(
        i.iced.mnemonic(),
        Mnemonic::Push | Mnemonic::Pop | Mnemonic::Call | Mnemonic::Ret
    )
}

fn is_vector(i: &Instr) -> bool {
    i.accesses
        .iter()
        .filter_map(|a| a.reg)
        .any(|r: Register| r.is_xmm() || r.is_ymm() || r.is_zmm())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode_bytes;

    fn tags(hex: &str) -> Vec<&'static str> {
        let bytes = crate::input::parse_hex(hex).unwrap();
        features(&decode_bytes(&bytes, 0).unwrap()).tags
    }

    #[test]
    fn classes_of_small_blocks() {
        // add rax, rbx; xor eax, eax
        assert_eq!(
            tags("4801d831c0"),
            vec!["size 1-3", "no memory", "zero/ones idiom"]
        );
        // add [rdi], rax (read-modify-write); mov [rsp+8], rbx (store)
        let t = tags("48010748895c2408");
        assert!(t.contains(&"read-modify-write") && t.contains(&"store"));
        assert!(t.contains(&"store and load of one address"));
        // cmp r12w, 0x9e (66 41 81 fc imm16)
        assert!(tags("664181fc9e00").contains(&"imm16 with 66h prefix (LCP)"));
        assert!(!tags("4801d8").contains(&"imm16 with 66h prefix (LCP)"));
        // cmp rax, rbx; jne +0; div rcx
        let t = tags("4839d8750048f7f1");
        assert!(t.contains(&"macro-fusible pair") && t.contains(&"div/sqrt"));
        // mov rax, rbx; add rax, [rdi+rcx*8]
        let t = tags("4889d8480304cf");
        assert!(t.contains(&"reg-reg move") && t.contains(&"load-op (micro-fusion)"));
        assert!(t.contains(&"indexed addressing"));
    }
}
