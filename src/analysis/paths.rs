//! The two paths of SUACA's branch analysis (thesis §2.7): the region walked from its start,
//! taking the first conditional jump one way (left: fall through) or the other (right:
//! taken). Later conditional jumps fall through; unconditional jumps are followed; a jump out
//! of the region, a return or an indirect jump ends the path, and so does a jump back to a
//! line already on the path.

use crate::ir::{BranchKind, Instr};

/// The first conditional jump of the region, if any.
pub fn first_conditional(instrs: &[Instr]) -> Option<usize> {
    instrs.iter().position(|i| i.branch.is_conditional())
}

/// Line whose instruction starts at `address`.
fn line_at(instrs: &[Instr], address: u64) -> Option<usize> {
    instrs.binary_search_by_key(&address, |i| i.address).ok()
}

/// The lines of the path through `instrs` that takes the jump at `branch` iff `taken`.
pub fn path(instrs: &[Instr], branch: usize, taken: bool) -> Vec<usize> {
    let mut seen = vec![false; instrs.len()];
    let mut out = Vec::new();
    let mut line = 0;
    while line < instrs.len() && !seen[line] {
        seen[line] = true;
        out.push(line);
        let next = match instrs[line].branch {
            BranchKind::Conditional { target } if line == branch && taken => {
                line_at(instrs, target)
            }
            BranchKind::Jump { target } => line_at(instrs, target),
            BranchKind::IndirectJump | BranchKind::Return => None,
            _ => Some(line + 1),
        };
        match next {
            Some(n) => line = n,
            None => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn instr(line: usize, branch: BranchKind) -> Instr {
        Instr {
            line,
            address: line as u64 * 4,
            bytes: vec![0x90; 4],
            text: String::new(),
            iced: iced_x86::Instruction::default(),
            accesses: vec![],
            mem: vec![],
            branch,
            idiom: None,
        }
    }

    /// The branchy program of thesis §2: left = 0 1 2 3 4 6, right = 0 1 2 5 6.
    #[test]
    fn branchy_paths() {
        let n = BranchKind::None;
        let instrs = vec![
            instr(0, n),
            instr(1, n),
            instr(2, BranchKind::Conditional { target: 20 }),
            instr(3, n),
            instr(4, BranchKind::Jump { target: 24 }),
            instr(5, n),
            instr(6, n),
        ];
        let b = first_conditional(&instrs).expect("has a jump");
        assert_eq!(b, 2);
        assert_eq!(path(&instrs, b, false), vec![0, 1, 2, 3, 4, 6]);
        assert_eq!(path(&instrs, b, true), vec![0, 1, 2, 5, 6]);
    }

    #[test]
    fn jumps_out_and_back_end_the_path() {
        let instrs = vec![
            instr(0, BranchKind::Conditional { target: 1000 }),
            instr(1, BranchKind::Jump { target: 0 }),
        ];
        assert_eq!(path(&instrs, 0, true), vec![0]);
        assert_eq!(path(&instrs, 0, false), vec![0, 1]);
    }
}
