//! What the analysis warns about, as data; the words are made in `crate::report::warning`
//! for the text report, standard error and the JSON `warnings` strings alike.

use crate::dataset::DatasetWarning;

/// One warning of a report or of one region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Warning {
    /// A line without instruction data for the arch: it is left out of the analysis.
    NoData {
        /// The line (0-based in its region).
        line: usize,
        /// Its instruction (Intel syntax).
        text: String,
        /// The arch.
        arch: String,
    },
    /// A LOCK-prefixed instruction whose arch data has only the plain form: the plain form's
    /// figures stand in, though a locked operation takes longer.
    LockIgnored {
        /// The line (0-based in its region).
        line: usize,
        /// Its instruction (Intel syntax).
        text: String,
        /// The arch.
        arch: String,
    },
    /// A divide or square root whose data gives the divider no busy cycles (no `div_cycles`,
    /// no `TP_unrolled` beyond its ports'): only its ports limit its throughput.
    NoDividerData {
        /// The line (0-based in its region).
        line: usize,
        /// Its instruction (Intel syntax).
        text: String,
        /// The arch.
        arch: String,
    },
    /// A line whose data the source lacks and a supplement of suaca's own measurements gave
    /// (`crate::dataset::DataSource::Supplement`): not uops.info's figures.
    OwnMeasurement {
        /// The line (0-based in its region).
        line: usize,
        /// Its instruction (Intel syntax).
        text: String,
        /// The arch.
        arch: String,
        /// The uops.info-style string of the measured form.
        string: String,
        /// The CPU it was measured on, as the measurement names it.
        cpu: String,
    },
    /// `-b` asked for the branch analysis of a region without a conditional jump.
    NoConditionalJump,
    /// A warning of the assembler, in its own words (mapped to the user's file).
    Assembler(String),
    /// The instruction data's cache could not be used as it is.
    Dataset(DatasetWarning),
    /// An option of another tool (llvm-mca, IACA) that has no meaning here was ignored; the
    /// note as the command line worded it.
    IgnoredOption(String),
    /// One pass of the region changes the x87 register stack's depth
    /// (`x87_stack_unbalanced`).
    X87StackUnbalanced {
        /// Values pushed per pass (negative: popped).
        pushed: i32,
        /// The lines that push or pop (0-based in the region).
        lines: Vec<usize>,
    },
}

/// The x87 register stack's net change over one pass of `instrs`, if it is not zero: values
/// pushed (negative: popped) and the lines that push or pop. Repeated, such a region pushes
/// past the eight registers (or pops an empty one): a stack fault on every later push, which
/// the hardware handles far slower than the model's throughput (a BHive Haswell block with
/// one `fld` and no pop measures 337 cycles an iteration).
pub fn x87_stack_unbalanced(instrs: &[crate::ir::Instr]) -> Option<Warning> {
    let mut pushed = 0;
    let mut lines = Vec::new();
    for i in instrs {
        let info = i.iced.fpu_stack_increment_info();
        if info.writes_top() && !info.conditional() && info.increment() != 0 {
            // iced counts TOP: a push decrements it.
            pushed -= info.increment();
            lines.push(i.line);
        }
    }
    (pushed != 0).then_some(Warning::X87StackUnbalanced { pushed, lines })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode_bytes;
    use crate::input::parse_hex;

    fn check(hex: &str) -> Option<Warning> {
        x87_stack_unbalanced(&decode_bytes(&parse_hex(hex).unwrap(), 0).unwrap())
    }

    /// `fld` without a pop grows the stack by one a pass; `fld; fstp` is balanced; `fstp`
    /// alone, `faddp` and `fcompp` pop; SSE and integer code never touch it.
    #[test]
    fn unbalanced_x87_stacks_are_found() {
        // push r12; fld tbyte ptr [rdi+0x10]; cmp dword ptr [rax], esi
        assert_eq!(
            check("4154db6f103930"),
            Some(Warning::X87StackUnbalanced {
                pushed: 1,
                lines: vec![1]
            })
        );
        // fld qword ptr [rdi]; fstp qword ptr [rsi]
        assert_eq!(check("dd07dd1e"), None);
        // fld st(0); fld st(0); fcompp: two pushes, two pops
        assert_eq!(check("d9c0d9c0ded9"), None);
        // faddp st(1), st
        assert_eq!(
            check("dec1"),
            Some(Warning::X87StackUnbalanced {
                pushed: -1,
                lines: vec![0]
            })
        );
        assert_eq!(check("4801c8f20f58c1"), None);
    }
}
