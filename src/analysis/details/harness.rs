//! The register and memory values a measurement harness starts a block with, so that the
//! addresses of unrolled copies can be compared as numbers where the names differ.
//!
//! BHive's harness (its `run_test.nasm`, `initialize`) sets every general-purpose register
//! to one constant, `0x2324000`, points rsp to the middle of that page (`+0x800`) and rbp
//! 16 bytes below it, and fills the page with the same constant, so a pointer loaded from
//! it is that constant again. `[rbx+16]` and `[rax+16]` are one location there, and the
//! model's address forms ([`super::address`]) cannot tell that: they keep `rax` and `rbx`
//! apart. With a [`Harness`], [`super::address::AddressMap`] evaluates each address as a
//! number in the steady state (docs/model.md, "Memory dependencies"). BHive also maps every
//! page the block touches to one physical page, so addresses a page apart are one location.

use iced_x86::{Mnemonic, OpKind, Register};

use crate::ir::Instr;

/// A harness whose starting values the model may use.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Harness {
    /// BHive's timing harness: every register 0x2324000 (rsp and rbp in the middle of its
    /// page), the page filled with that value.
    Bhive,
}

/// BHive's `init_value`.
const BHIVE_INIT: i64 = 0x0232_4000;

impl Harness {
    /// The value the 64-bit general-purpose register `r` holds when the block starts.
    pub fn initial(self, r: Register) -> Option<i64> {
        if !r.is_gpr64() {
            return None;
        }
        Some(match (self, r) {
            // `mov rbp, page + 2048; mov rsp, rbp`, then rbp rounded down to 32 and 16 below.
            (Harness::Bhive, Register::RSP) => BHIVE_INIT + 0x800,
            (Harness::Bhive, Register::RBP) => BHIVE_INIT + 0x7f0,
            (Harness::Bhive, _) => BHIVE_INIT,
        })
    }

    /// The value a plain 32- or 64-bit load from the harness' memory gives (the page holds
    /// the constant in every quadword; the block's own stores are not followed).
    pub fn loaded(self) -> i64 {
        match self {
            Harness::Bhive => BHIVE_INIT,
        }
    }

    /// The page size, when the harness maps every virtual page to one physical page (BHive
    /// does: `[rax]` and `[rax+4096]` are one location there).
    pub fn one_page(self) -> Option<i64> {
        match self {
            Harness::Bhive => Some(4096),
        }
    }

    /// How reports name the choice (`--harness bhive`).
    pub fn flag(self) -> &'static str {
        match self {
            Harness::Bhive => "harness=bhive",
        }
    }
}

/// Whether `instr` writes its destination register with a value loaded from memory as is:
/// `mov r32/r64, [m]`, `movsxd` (the harness' constant is positive) and `pop`.
pub fn plain_load(instr: &Instr) -> bool {
    let i = &instr.iced;
    match i.mnemonic() {
        Mnemonic::Pop => i.op_count() == 1 && i.op_kind(0) == OpKind::Register,
        Mnemonic::Mov | Mnemonic::Movsxd => {
            i.op_count() == 2
                && i.op_kind(0) == OpKind::Register
                && i.op_kind(1) == OpKind::Memory
                && (i.op0_register().is_gpr64() || i.op0_register().is_gpr32())
        }
        _ => false,
    }
}
