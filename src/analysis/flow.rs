//! Control flow of a region that its simulation does not follow: returns and branches that
//! leave the region before its end. The simulation runs the region as a loop (or as
//! straight-line copies), so a region holding a function's end or a loop's exit is not what
//! runs on the CPU; the report says so ([`FlowWarning`]).

use crate::ir::{BranchKind, Instr};
use crate::report::model::FlowWarning;

/// The returns anywhere in the region, and the branches before its last instruction whose
/// target is outside `start..end` (in loop mode `end` too: the loop's exit), in line order.
pub fn flow_warnings(instrs: &[Instr], start: u64, end: u64, loop_mode: bool) -> Vec<FlowWarning> {
    let last = instrs.len().saturating_sub(1);
    let outside = |t: u64| t < start || t > end || (loop_mode && t == end);
    instrs
        .iter()
        .enumerate()
        .filter_map(|(line, i)| {
            let line32 = line as u32;
            match i.branch {
                BranchKind::Return => Some(FlowWarning::Return { line: line32 }),
                _ if line == last => None,
                BranchKind::IndirectJump => Some(FlowWarning::BranchOut {
                    line: line32,
                    target: None,
                }),
                BranchKind::Conditional { target } | BranchKind::Jump { target }
                    if outside(target) =>
                {
                    Some(FlowWarning::BranchOut {
                        line: line32,
                        target: Some(target),
                    })
                }
                _ => None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cfg::testprog::{bounds, prog};

    #[test]
    fn returns_and_early_exits_are_found() {
        // 0: jz to the end (the loop's exit), 1: jz out, 2: ret, 3: jnz back to 0 (the end).
        let p =
            prog("jz L4 | r zf | jcc 4\njz out | r zf | jcc out\nret | ret\njnz L0 | r zf | jcc 0");
        let (s, e) = bounds(&p);
        let w = flow_warnings(&p, s, e, true);
        assert_eq!(w.len(), 3, "{w:?}");
        assert!(matches!(w[0], FlowWarning::BranchOut { line: 0, target: Some(t) } if t == e));
        assert!(matches!(w[1], FlowWarning::BranchOut { line: 1, .. }));
        assert_eq!(w[2], FlowWarning::Return { line: 2 });
        // Unrolled copies continue at the end: a jump there does not leave.
        assert_eq!(flow_warnings(&p, s, e, false).len(), 2);
    }

    #[test]
    fn a_plain_loop_has_none() {
        let p = prog("add rax, rbx | r rax rbx | w rax\ndec rcx | r rcx | w rcx flags\njnz L0 | r zf | jcc 0");
        let (s, e) = bounds(&p);
        assert!(flow_warnings(&p, s, e, true).is_empty());
    }
}
