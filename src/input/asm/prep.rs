//! Rewriting assembly text before it goes to GNU `as`, line for line (the line count never
//! changes, so `as`'s line numbers are the user's).
//!
//! Owns: recognising instruction lines (to label them), region comments (to replace them by
//! marker bytes) and C preprocessor line markers (blanked).
//! Must not touch: running the assembler, object files.
//! Facts: GNU as syntax (binutils manual, "Syntax"): `#` starts a comment on x86 in both
//! syntaxes, `/* */` comments may span lines, `;` separates statements, labels are
//! `name:` or `N:`, directives start with `.`, `sym = expr` assigns. Lines `# N "file"` are
//! line markers that `as` obeys (they would renumber its messages). Region comments are
//! llvm-mca's (`# LLVM-MCA-BEGIN [name]` / `# LLVM-MCA-END`) and OSACA's (`# OSACA-BEGIN` /
//! `# OSACA-END`).

use crate::input::markers::{IACA_END, IACA_START};

/// Prefix of the labels inserted before each instruction line; the rest is the 1-based line.
pub const LINE_LABEL_PREFIX: &str = "__suaca_line_";

/// The rewritten text and what was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prepared {
    /// The text to assemble (same number of lines as the input).
    pub text: String,
    /// Number of region comments replaced by marker bytes.
    pub region_comments: usize,
    /// Number of labelled lines.
    pub labelled: usize,
}

/// Directives that open a body `as` may expand several times (labels there would be
/// defined twice) and the ones that close it.
const BLOCK_OPEN: [&str; 4] = [".macro", ".rept", ".irp", ".irpc"];
const BLOCK_CLOSE: [&str; 3] = [".endm", ".endr", ".endmacro"];

/// Data directives that can encode instructions by hand (IACA markers, `.byte 0x0f, ...`):
/// labelled like instructions so their bytes map back too.
const DATA_DIRECTIVES: [&str; 7] = [
    ".byte", ".word", ".short", ".value", ".long", ".int", ".quad",
];

/// Rewrites `source` (see the module doc). Lines are separated by `\n`; a trailing `\r` is
/// kept as it was.
pub fn prepare(source: &str) -> Prepared {
    let mut out = String::with_capacity(source.len() + source.len() / 4);
    let mut in_comment = false;
    let mut depth = 0u32;
    let mut region_comments = 0;
    let mut labelled = 0;
    for (i, line) in source.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let number = i + 1;
        if in_comment {
            in_comment = !line.contains("*/");
            out.push_str(line);
            continue;
        }
        if is_line_marker(line) {
            // Keep the line count; `as` must not renumber its messages.
            continue;
        }
        if let Some(start) = region_comment(line) {
            let bytes = if start { IACA_START } else { IACA_END };
            let list: Vec<String> = bytes.iter().map(|b| format!("{b:#04x}")).collect();
            out.push_str(&format!(
                "{LINE_LABEL_PREFIX}{number}: .byte {} {}",
                list.join(", "),
                comment_of(line)
            ));
            region_comments += 1;
            continue;
        }
        let (code, opens_comment) = code_part(line);
        in_comment = opens_comment;
        let rest = strip_labels(code);
        let first = first_word(rest);
        let lower = first.to_ascii_lowercase();
        if BLOCK_OPEN.contains(&lower.as_str()) {
            depth += 1;
        } else if BLOCK_CLOSE.contains(&lower.as_str()) {
            depth = depth.saturating_sub(1);
        }
        let instruction = !first.is_empty()
            && (!first.starts_with('.') || DATA_DIRECTIVES.contains(&lower.as_str()))
            && !is_assignment(rest, first);
        if instruction && depth == 0 {
            out.push_str(&format!("{LINE_LABEL_PREFIX}{number}: "));
            labelled += 1;
        }
        out.push_str(line);
    }
    Prepared {
        text: out,
        region_comments,
        labelled,
    }
}

/// Whether the text looks like assembly source: UTF-8 without NUL bytes, with at least one
/// directive, label or AT&T register operand outside comments.
pub fn looks_like_assembly(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    if text.contains('\0') {
        return false;
    }
    text.lines().any(|line| {
        if region_comment(line).is_some() {
            return true;
        }
        let (code, _) = code_part(line);
        let code = code.trim();
        let word = first_word(code);
        (word.starts_with('.') && word.len() > 1 && word[1..].chars().all(is_ident_char))
            || (strip_labels(code).len() < code.len())
            || code.contains(", %") // AT&T operands: `movq %rax, %rbx`
    })
}

/// `Some(true)` for a begin comment, `Some(false)` for an end comment.
fn region_comment(line: &str) -> Option<bool> {
    let t = line.trim_start();
    let body = t
        .strip_prefix("//")
        .or_else(|| t.strip_prefix('#'))
        .or_else(|| t.strip_prefix(';'))?;
    let word = body.split_whitespace().next()?;
    match word {
        "LLVM-MCA-BEGIN" | "OSACA-BEGIN" => Some(true),
        "LLVM-MCA-END" | "OSACA-END" => Some(false),
        _ => None,
    }
}

/// The comment of a region-comment line, as a `#` comment.
fn comment_of(line: &str) -> String {
    let t = line.trim_start();
    let body = t
        .strip_prefix("//")
        .or_else(|| t.strip_prefix('#'))
        .or_else(|| t.strip_prefix(';'))
        .unwrap_or(t);
    format!("# {}", body.trim())
}

/// `# 12 "file.c" 1`: a C preprocessor line marker, which `as` obeys.
fn is_line_marker(line: &str) -> bool {
    let Some(rest) = line.trim_start().strip_prefix('#') else {
        return false;
    };
    let rest = rest.trim_start();
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && {
        let after = rest[digits..].trim_start();
        after.is_empty() || after.starts_with('"')
    }
}

/// The code of a line without comments, and whether a `/*` comment stays open after it.
/// Strings are not tracked: only directives hold them, and directives are never labelled.
fn code_part(line: &str) -> (&str, bool) {
    let hash = line.find('#').unwrap_or(line.len());
    let block = line.find("/*").unwrap_or(line.len());
    if block < hash {
        let open = !line[block + 2..].contains("*/");
        (&line[..block], open)
    } else {
        (&line[..hash], false)
    }
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$' | '@')
}

/// `code` without its leading labels (`name:`, `1:`, `.L3:`).
fn strip_labels(code: &str) -> &str {
    let mut rest = code.trim_start();
    loop {
        let len = rest.chars().take_while(|&c| is_ident_char(c)).count();
        let after = &rest[len..];
        // `fs:[...]` is no label start (an operand never comes first), `::` never appears.
        if len > 0 && after.starts_with(':') && !after.starts_with("::") {
            rest = after[1..].trim_start();
        } else {
            return rest;
        }
    }
}

fn first_word(code: &str) -> &str {
    code.split(|c: char| c.is_whitespace() || c == ';' || c == '=' || c == ',')
        .next()
        .unwrap_or("")
}

/// `sym = expr` / `sym == expr`: an assignment, not an instruction.
fn is_assignment(rest: &str, first: &str) -> bool {
    rest[first.len()..].trim_start().starts_with('=')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        prepare(s).text.split('\n').map(str::to_string).collect()
    }

    #[test]
    fn labels_instruction_lines_only() {
        let src = "\t.text\nf:\n\tmovq %rax, %rbx # c\n.L3: addl $1, %eax\n\n# comment\n\tx = 3\n\t.byte 1";
        let out = lines(src);
        assert_eq!(out.len(), 8);
        assert_eq!(out[0], "\t.text");
        assert_eq!(out[1], "f:");
        assert_eq!(out[2], "__suaca_line_3: \tmovq %rax, %rbx # c");
        assert_eq!(out[3], "__suaca_line_4: .L3: addl $1, %eax");
        assert_eq!(out[5], "# comment");
        assert_eq!(out[6], "\tx = 3");
        assert_eq!(out[7], "__suaca_line_8: \t.byte 1");
    }

    #[test]
    fn region_comments_become_markers() {
        let p = prepare("  # LLVM-MCA-BEGIN loop\nadd rax, rbx\n# OSACA-END\n");
        assert_eq!(p.region_comments, 2);
        let out: Vec<&str> = p.text.split('\n').collect();
        assert!(
            out[0].starts_with("__suaca_line_1: .byte 0xbb, 0x6f"),
            "{}",
            out[0]
        );
        assert!(out[0].ends_with("# LLVM-MCA-BEGIN loop"));
        assert!(out[2].contains("0xde"));
        assert_eq!(out.len(), 4);
    }

    #[test]
    fn macros_comments_and_line_markers_are_left_alone() {
        let src = ".macro m\n add %eax, %eax\n.endm\n/* a\n mov %eax, %ebx\n*/ \n# 5 \"x.c\" 1\n m";
        let out = lines(src);
        assert_eq!(out[1], " add %eax, %eax");
        assert_eq!(out[4], " mov %eax, %ebx");
        assert_eq!(out[6], "");
        assert_eq!(out[7], "__suaca_line_8:  m");
    }

    #[test]
    fn sniffing() {
        assert!(looks_like_assembly(b"\t.text\n\tret\n"));
        assert!(looks_like_assembly(b"loop:\n dec rcx\n"));
        assert!(looks_like_assembly(b"movq %rax, %rbx\n"));
        assert!(!looks_like_assembly(
            b"this is a text file, not an object file\n"
        ));
        assert!(!looks_like_assembly(b"\x7fELF\0\0"));
    }
}
