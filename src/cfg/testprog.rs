//! Test support: hand-built [`Instr`]s from a one-line-per-instruction text fixture, so the
//! CFG and dependency tests do not need the decoder.
//!
//! ```text
//! mov rax, 0x1   | w rax
//! cmp rcx, 0x0   | r rcx | w flags
//! jnz L5         | r zf  | jcc 5
//! ```
//!
//! Fields after the instruction text, separated by `|`:
//! - `r <locs>` reads, `w <locs>` writes, `cw <locs>` conditional writes. A loc is a register
//!   name (`eax` is tracked as `rax`, `xmm2` as `zmm2`, `ah` separately), a flag (`cf` ... `df`)
//!   or `flags` (cf pf af zf sf of).
//! - `jcc T`, `jmp T`: direct branch to target `T`: a line number (`8` for an 8-line program
//!   is the region's end address), `T+k` for `k` bytes into line `T`, or `out` (outside).
//! - `ret`, `ijmp` (indirect jump), `call`.
//!
//! Every instruction is 4 bytes long; line `i` is at [`addr`]`(i)`.

use iced_x86::Register;

use crate::ir::{Access, AccessKind, BranchKind, Flag, Instr, Loc, Role};

/// Address of line 0.
pub(crate) const BASE: u64 = 0x1000;
/// Length of every test instruction in bytes.
pub(crate) const LEN: u64 = 4;

/// Address of `line`.
pub(crate) fn addr(line: usize) -> u64 {
    BASE + LEN * line as u64
}

/// Region bounds of a parsed program.
pub(crate) fn bounds(instrs: &[Instr]) -> (u64, u64) {
    (BASE, addr(instrs.len()))
}

/// The [`Loc`] of a register or flag name.
pub(crate) fn loc(name: &str) -> Loc {
    if let Some(f) = Flag::ALL.into_iter().find(|f| f.name() == name) {
        return Loc::Flag(f);
    }
    let reg = Register::values()
        .find(|r| format!("{r:?}").eq_ignore_ascii_case(name))
        .unwrap_or_else(|| panic!("unknown register {name}"));
    match reg {
        Register::AH | Register::BH | Register::CH | Register::DH => {
            Loc::High8(reg.full_register())
        }
        _ => Loc::Reg(reg.full_register()),
    }
}

fn locs(names: &str) -> Vec<Loc> {
    names
        .split_whitespace()
        .flat_map(|n| {
            if n == "flags" {
                ["cf", "pf", "af", "zf", "sf", "of"].map(loc).to_vec()
            } else {
                vec![loc(n)]
            }
        })
        .collect()
}

fn target(spec: &str) -> u64 {
    if spec == "out" {
        return 0x9000;
    }
    match spec.split_once('+') {
        Some((l, k)) => addr(l.parse().expect("line")) + k.parse::<u64>().expect("offset"),
        None => addr(spec.parse().expect("line")),
    }
}

fn access(l: Loc, kind: AccessKind) -> Access {
    let (role, reg) = match l {
        Loc::Flag(_) => (Role::Flags, None),
        Loc::Reg(r) | Loc::High8(r) => (Role::Operand(0), Some(r)),
    };
    Access {
        loc: l,
        kind,
        role,
        reg,
    }
}

/// Parses a program, one instruction per non-empty line (see the module docs).
pub(crate) fn prog(text: &str) -> Vec<Instr> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .enumerate()
        .map(|(line, l)| {
            let mut fields = l.split('|').map(str::trim);
            let text = fields.next().unwrap_or_default().to_string();
            let (mut reads, mut writes, mut branch) = (Vec::new(), Vec::new(), BranchKind::None);
            for f in fields {
                let (key, rest) = f.split_once(' ').unwrap_or((f, ""));
                match key {
                    "r" => {
                        reads.extend(locs(rest).into_iter().map(|l| access(l, AccessKind::Read)))
                    }
                    "w" => {
                        writes.extend(locs(rest).into_iter().map(|l| access(l, AccessKind::Write)))
                    }
                    "cw" => writes.extend(
                        locs(rest)
                            .into_iter()
                            .map(|l| access(l, AccessKind::CondWrite)),
                    ),
                    "jcc" => {
                        branch = BranchKind::Conditional {
                            target: target(rest),
                        }
                    }
                    "jmp" => {
                        branch = BranchKind::Jump {
                            target: target(rest),
                        }
                    }
                    "ret" => branch = BranchKind::Return,
                    "ijmp" => branch = BranchKind::IndirectJump,
                    "call" => branch = BranchKind::Call,
                    other => panic!("unknown field {other:?} in {l:?}"),
                }
            }
            reads.extend(writes);
            Instr {
                line,
                address: addr(line),
                bytes: vec![0x90; LEN as usize],
                text,
                iced: iced_x86::Instruction::default(),
                accesses: reads,
                mem: Vec::new(),
                branch,
                idiom: None,
            }
        })
        .collect()
}

/// The branchy example of thesis §2 (Figures 2.1–2.3).
pub(crate) const BRANCHY: &str = "
    mov rax, 0x1   | w rax
    cmp rcx, 0x0   | r rcx | w flags
    jnz 0x7        | r zf | jcc 5
    add rbx, rax   | r rbx rax | w rbx flags
    jmp 0x5        | jmp 6
    add rbx, rax   | r rbx rax | w rbx flags
    add rbx, rbx   | r rbx | w rbx flags
";

/// The `adc` chain of thesis §4.3 (Figure 4.1).
pub(crate) const ADC8: &str = "
    adc rax, 0x1 | r rax cf | w rax flags
    adc rbx, 0x1 | r rbx cf | w rbx flags
    adc rcx, 0x1 | r rcx cf | w rcx flags
    adc rdx, 0x1 | r rdx cf | w rdx flags
    adc r8, 0x1  | r r8 cf  | w r8 flags
    adc r9, 0x1  | r r9 cf  | w r9 flags
    adc r10, 0x1 | r r10 cf | w r10 flags
    adc r11, 0x1 | r r11 cf | w r11 flags
";

/// The 2D-5pt stencil of thesis §4.2 (Example 4), address registers as reads.
pub(crate) const STENCIL: &str = "
    vmovsd xmm2, qword ptr [r14+r15*8]              | r r14 r15 | w xmm2
    vaddsd xmm3, xmm2, qword ptr [r14+r15*8+0x10]   | r xmm2 r14 r15 | w xmm3
    vaddsd xmm4, xmm3, qword ptr [rax+r15*8+0x8]    | r xmm3 rax r15 | w xmm4
    vaddsd xmm5, xmm4, qword ptr [rdx+r15*8+0x8]    | r xmm4 rdx r15 | w xmm5
    vmulsd xmm6, xmm1, xmm5                         | r xmm1 xmm5 | w xmm6
    vmovsd qword ptr [r12+r15*8+0x8], xmm6          | r r12 r15 xmm6
    inc r15                                         | r r15 | w r15 pf af zf sf of
    cmp r15, r13                                    | r r15 r13 | w flags
";

/// Sanity-checks DOT text (balanced braces, one statement per line) and, when Graphviz is
/// installed, runs `dot -Tsvg` on it; skips that part with a note when `dot` is absent.
pub(crate) fn check_with_graphviz(text: &str) {
    use std::io::Write;
    use std::process::{Command, Stdio};

    assert_eq!(
        text.matches('{').count(),
        text.matches('}').count(),
        "{text}"
    );
    for l in text.lines().filter(|l| l.contains("->")) {
        assert!(
            l.trim_end().ends_with(';') && l.matches("->").count() == 1,
            "{l}"
        );
    }
    let child = Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        eprintln!("note: graphviz `dot` not found; skipping the rendering check");
        return;
    };
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(text.as_bytes())
        .expect("write to dot");
    let out = child.wait_with_output().expect("dot runs");
    assert!(
        out.status.success(),
        "dot failed: {}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("<svg"));
}
