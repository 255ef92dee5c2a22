//! Intel-syntax text of an instruction in the style of the SUACA thesis tables.
//!
//! The thesis prints `mov rax, 0x1`, `cmp rcx, 0x0`, `jnz 0x7`, `add rbx, rax` and
//! `vaddsd xmm3, xmm2, qword ptr [r14+r15*8+0x10]`. The iced-x86 `IntelFormatter` options
//! below reproduce that style:
//!
//! | option | value | why |
//! |---|---|---|
//! | hex prefix / suffix | `0x` / none | `0x1`, not `1h` |
//! | upper-case hex | off | `0x1f`, not `0x1F` |
//! | small numbers in decimal | off | `0x1` and `0x0`, never bare `1` |
//! | leading zeros (numbers, branches, displacements) | off | `jnz 0x15`, not `jnz 0x0000000000000015` |
//! | memory size | always | `qword ptr [...]` even when the register operand implies it |
//! | branch size | hidden | `jmp 0x15`, not `jmp short 0x15` |
//! | `cc_e` / `cc_ne` | `z` / `nz` | `jnz`, `setz`, `cmovnz` as in the thesis |
//! | RIP-relative | `[rip+0x10]` | the absolute target is in [`crate::ir::MemOperand::displacement`] |
//! | space after `,` | on | `add rbx, rax` |
//!
//! Branch targets are absolute addresses (the decoder runs with IP = region address), so a
//! region assembled at address 0 prints the same targets as the thesis' listings.

use iced_x86::{CC_e, CC_ne, Formatter, Instruction, IntelFormatter, MemorySizeOptions};

/// A formatter configured for the thesis style; build once per region, reuse per instruction.
pub(crate) struct TextFormatter {
    inner: IntelFormatter,
}

impl TextFormatter {
    /// Creates the formatter with the options documented in the module header.
    pub(crate) fn new() -> Self {
        let mut inner = IntelFormatter::new();
        let o = inner.options_mut();
        o.set_uppercase_all(false);
        o.set_hex_prefix("0x");
        o.set_hex_suffix("");
        o.set_uppercase_hex(false);
        o.set_small_hex_numbers_in_decimal(false);
        o.set_add_leading_zero_to_hex_numbers(false);
        o.set_leading_zeros(false);
        o.set_branch_leading_zeros(false);
        o.set_displacement_leading_zeros(false);
        o.set_memory_size_options(MemorySizeOptions::Always);
        o.set_show_branch_size(false);
        o.set_cc_e(CC_e::z);
        o.set_cc_ne(CC_ne::nz);
        o.set_rip_relative_addresses(true);
        o.set_space_after_operand_separator(true);
        Self { inner }
    }

    /// Formats one instruction.
    pub(crate) fn format(&mut self, instr: &Instruction) -> String {
        let mut out = String::new();
        self.inner.format(instr, &mut out);
        out
    }
}
