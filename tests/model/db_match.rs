//! Matcher tests: one case per operand class, against the hand-written forms in
//! `testdata/xml/match_forms.xml` (SKL measurements, invented numbers).
//!
//! Each case: encoded bytes, the assembly for the reader, the expected uops.info string and
//! measurement variant. Bytes were assembled with `llvm-mc -show-encoding` (or written by
//! hand for alternative encodings it does not emit).
#![forbid(unsafe_code)]

use std::path::Path;

use suaca::db::{InstrDb, NoMatch, Variant};
use suaca::uopsxml::{read_file, ArchFilter};

fn db() -> InstrDb {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/xml/match_forms.xml");
    let records = read_file(&path, &ArchFilter::All).expect("fixture parses");
    let skl = suaca::uarch::load("SKL").expect("SKL arch");
    InstrDb::new(&records, "SKL", |g| skl.port_mask(g))
}

fn decode_one(bytes: &[u8]) -> suaca::ir::Instr {
    let mut v = suaca::decode::decode_bytes(bytes, 0x1000).expect("decodes");
    assert_eq!(v.len(), 1, "one instruction in {bytes:02x?}");
    v.remove(0)
}

use Variant::{Indexed, Plain, SameReg};

/// (bytes, assembly, expected string, expected variant).
const CASES: &[(&[u8], &str, &str, Variant)] = &[
    // GPR sizes.
    (
        &[0x48, 0x01, 0xd8],
        "add rax, rbx",
        "ADD_01 (R64, R64)",
        Plain,
    ),
    (&[0x01, 0xd8], "add eax, ebx", "ADD_01 (R32, R32)", Plain),
    (
        &[0x66, 0x01, 0xd8],
        "add ax, bx",
        "ADD_01 (R16, R16)",
        Plain,
    ),
    // Alternative encodings: 01 /r vs 03 /r; 89 /r vs 8B /r.
    (
        &[0x48, 0x03, 0xc3],
        "add rax, rbx (03)",
        "ADD_03 (R64, R64)",
        Plain,
    ),
    (
        &[0x48, 0x89, 0xd8],
        "mov rax, rbx (89)",
        "MOV_89 (R64, R64)",
        Plain,
    ),
    (
        &[0x48, 0x8b, 0xc3],
        "mov rax, rbx (8B)",
        "MOV_8B (R64, R64)",
        Plain,
    ),
    // High-8 registers.
    (&[0x00, 0xd8], "add al, bl", "ADD_00 (R8l, R8l)", Plain),
    (&[0x00, 0xdc], "add ah, bl", "ADD_00 (R8h, R8l)", Plain),
    (&[0x00, 0xf8], "add al, bh", "ADD_00 (R8l, R8h)", Plain),
    // ModRM.rm 0-3 vs 4-7 (`rm` attribute).
    (&[0x80, 0xc1, 0x07], "add cl, 7", "ADD_R0 (R8l, I8)", Plain),
    (
        &[0x40, 0x80, 0xc4, 0x07],
        "add spl, 7",
        "ADD_R4 (R8l, I8)",
        Plain,
    ),
    (
        &[0x41, 0x80, 0xc4, 0x07],
        "add r12b, 7",
        "ADD_R4 (R8l, I8)",
        Plain,
    ),
    (
        &[0x41, 0x80, 0xc0, 0x07],
        "add r8b, 7",
        "ADD_R0 (R8l, I8)",
        Plain,
    ),
    // Memory sizes.
    (
        &[0x48, 0x8b, 0x03],
        "mov rax, [rbx]",
        "MOV (R64, M64)",
        Plain,
    ),
    (&[0x8b, 0x03], "mov eax, [rbx]", "MOV (R32, M32)", Plain),
    (
        &[0x0f, 0xb6, 0x03],
        "movzx eax, byte [rbx]",
        "MOVZX (R32, M8)",
        Plain,
    ),
    (
        &[0x0f, 0xb7, 0x03],
        "movzx eax, word [rbx]",
        "MOVZX (R32, M16)",
        Plain,
    ),
    // Immediates: imm8, immzero, imm32, fixed RAX (05 id).
    (
        &[0x48, 0x83, 0xc0, 0x05],
        "add rax, 5",
        "ADD (R64, I8)",
        Plain,
    ),
    (
        &[0x48, 0x83, 0xc0, 0x00],
        "add rax, 0",
        "ADD (R64, 0)",
        Plain,
    ),
    (
        &[0x48, 0x81, 0xc1, 0x45, 0x23, 0x01, 0x00],
        "add rcx, 0x12345",
        "ADD (R64, I32)",
        Plain,
    ),
    (
        &[0x48, 0x81, 0xc0, 0x45, 0x23, 0x01, 0x00],
        "add rax, 0x12345 (81 /0)",
        "ADD (R64, I32)",
        Plain,
    ),
    (
        &[0x48, 0x05, 0x45, 0x23, 0x01, 0x00],
        "add rax, 0x12345 (05)",
        "ADD (RAX, I32)",
        Plain,
    ),
    // Shift by one (D1) vs by an imm8 that happens to be 1 (C1) vs zero vs CL.
    (
        &[0x48, 0xd1, 0xe0],
        "shl rax, 1 (D1)",
        "SHL (R64, 1)",
        Plain,
    ),
    (
        &[0x48, 0xc1, 0xe0, 0x01],
        "shl rax, 1 (C1)",
        "SHL (R64, I8)",
        Plain,
    ),
    (
        &[0x48, 0xc1, 0xe0, 0x03],
        "shl rax, 3",
        "SHL (R64, I8)",
        Plain,
    ),
    (
        &[0x48, 0xc1, 0xe0, 0x00],
        "shl rax, 0",
        "SHL (R64, 0)",
        Plain,
    ),
    (&[0x48, 0xd3, 0xe0], "shl rax, cl", "SHL (R64, CL)", Plain),
    // Fixed (suppressed) registers.
    (&[0x48, 0xf7, 0xeb], "imul rbx", "IMUL (R64)", Plain),
    (&[0x48, 0xf7, 0xf1], "div rcx", "DIV (R64)", Plain),
    // Relative branches and condition-code aliases.
    (&[0x75, 0x10], "jne short", "JNZ (Rel8)", Plain),
    (
        &[0x0f, 0x85, 0x10, 0, 0, 0],
        "jne near",
        "JNZ (Rel32)",
        Plain,
    ),
    (&[0x72, 0x10], "jb (jc, jnae)", "JB (Rel8)", Plain),
    (
        &[0x48, 0x0f, 0x45, 0xc3],
        "cmovne rax, rbx",
        "CMOVNZ (R64, R64)",
        Plain,
    ),
    (&[0x0f, 0x93, 0xc0], "setae al", "SETNB (R8l)", Plain),
    // eosz: 64-bit vs 16-bit push of an imm8.
    (&[0x6a, 0x05], "push 5", "PUSH (I8)", Plain),
    (&[0x66, 0x6a, 0x05], "push word 5", "PUSH_W (I8)", Plain),
    // Same-register and indexed measurement variants.
    (
        &[0x48, 0x31, 0xc0],
        "xor rax, rax",
        "XOR_31 (R64, R64)",
        SameReg,
    ),
    (
        &[0x48, 0x31, 0xd8],
        "xor rax, rbx",
        "XOR_31 (R64, R64)",
        Plain,
    ),
    (
        &[0x48, 0x89, 0xc0],
        "mov rax, rax",
        "MOV_89 (R64, R64)",
        SameReg,
    ),
    (
        &[0x48, 0x03, 0x04, 0x8b],
        "add rax, [rbx+rcx*4]",
        "ADD (R64, M64)",
        Indexed,
    ),
    (
        &[0x48, 0x03, 0x03],
        "add rax, [rbx]",
        "ADD (R64, M64)",
        Plain,
    ),
    // LEA addressing forms.
    (
        &[0x48, 0x8d, 0x43, 0x08],
        "lea rax, [rbx+8]",
        "LEA_B_D8 (R64)",
        Plain,
    ),
    (
        &[0x48, 0x8d, 0x04, 0x8b],
        "lea rax, [rbx+rcx*4]",
        "LEA_B_IS (R64)",
        Plain,
    ),
    (
        &[0x48, 0x8d, 0x05, 0, 1, 0, 0],
        "lea rax, [rip+0x100]",
        "LEA_R_D32 (R64)",
        Plain,
    ),
    // LOCK.
    (
        &[0xf0, 0x48, 0x01, 0x18],
        "lock add [rax], rbx",
        "ADD_LOCK (M64, R64)",
        Plain,
    ),
    (
        &[0x48, 0x01, 0x18],
        "add [rax], rbx",
        "ADD (M64, R64)",
        Plain,
    ),
    // REP string instructions.
    (&[0xa4], "movsb", "MOVSB", Plain),
    (&[0xf3, 0xa4], "rep movsb", "MOVSB_REPE", Plain),
    // SSE movsd is MOVSD_XMM.
    (
        &[0xf2, 0x0f, 0x10, 0x00],
        "movsd xmm0, [rax]",
        "MOVSD_XMM (XMM, M64)",
        Plain,
    ),
    // VEX vs EVEX; EVEX mask, zeroing, broadcast, embedded rounding.
    (
        &[0xc5, 0xe9, 0x58, 0xcb],
        "vaddpd xmm1, xmm2, xmm3",
        "VADDPD (XMM, XMM, XMM)",
        Plain,
    ),
    (
        &[0x62, 0xf1, 0xed, 0x08, 0x58, 0xcb],
        "{evex} vaddpd xmm1, xmm2, xmm3",
        "VADDPD_EVEX (XMM, XMM, XMM)",
        Plain,
    ),
    (
        &[0x62, 0xf1, 0xed, 0x48, 0x58, 0xcb],
        "vaddpd zmm1, zmm2, zmm3",
        "VADDPD (ZMM, ZMM, ZMM)",
        Plain,
    ),
    (
        &[0x62, 0xf1, 0xed, 0x49, 0x58, 0xcb],
        "vaddpd zmm1{k1}, zmm2, zmm3",
        "VADDPD (ZMM, K, ZMM, ZMM)",
        Plain,
    ),
    (
        &[0x62, 0xf1, 0xed, 0xc9, 0x58, 0xcb],
        "vaddpd zmm1{k1}{z}, zmm2, zmm3",
        "VADDPD_Z (ZMM, K, ZMM, ZMM)",
        Plain,
    ),
    (
        &[0x62, 0xf1, 0xed, 0x18, 0x58, 0xcb],
        "vaddpd zmm1, zmm2, zmm3, {rn-sae}",
        "VADDPD_ER (ZMM, ZMM, ZMM)",
        Plain,
    ),
    (
        &[0x62, 0xf1, 0xed, 0x49, 0x58, 0x08],
        "vaddpd zmm1{k1}, zmm2, [rax]",
        "VADDPD (ZMM, K, ZMM, M512)",
        Plain,
    ),
    (
        &[0x62, 0xf1, 0xed, 0x59, 0x58, 0x08],
        "vaddpd zmm1{k1}, zmm2, [rax]{1to8}",
        "VADDPD (ZMM, K, ZMM, M64_1to8)",
        Plain,
    ),
    // Operands iced lists but XED suppresses.
    (&[0xab], "stosd", "STOSD", Plain),
    (&[0xd9, 0xc9], "fxch st(1)", "FXCH (ST0, ST(0), ST)", Plain),
    (&[0xd7], "xlatb", "XLAT", Plain),
    // A register the uops.info list leaves out (K0 as a mask destination).
    (
        &[0x62, 0xf2, 0x76, 0x29, 0x26, 0xc2],
        "vptestnmb k0{k1}, ymm1, ymm2",
        "VPTESTNMB (K, K, YMM, YMM)",
        Plain,
    ),
    (
        &[0x62, 0xf2, 0x76, 0x29, 0x26, 0xd2],
        "vptestnmb k2{k1}, ymm1, ymm2",
        "VPTESTNMB (K, K, YMM, YMM)",
        Plain,
    ),
];

#[test]
fn each_operand_class_matches_its_variant() {
    let db = db();
    let mut failures = Vec::new();
    for (bytes, asm, want, variant) in CASES {
        let instr = decode_one(bytes);
        match db.find(&instr.iced) {
            Ok(m) if m.string == *want && m.variant == *variant => {}
            Ok(m) => failures.push(format!("{asm}: got {} {:?}", m.string, m.variant)),
            Err(e) => failures.push(format!("{asm}: {e}")),
        }
    }
    assert!(failures.is_empty(), "mismatches:\n{}", failures.join("\n"));
}

#[test]
fn iform_and_string_for_iform_output() {
    let db = db();
    let instr = decode_one(&[0x48, 0x01, 0xd8]);
    assert_eq!(
        db.iform_and_string(&instr.iced),
        Ok(("ADD_GPRv_GPRv_01", "ADD_01 (R64, R64)"))
    );
}

#[test]
fn failures_say_why() {
    let db = db();
    // imul rax, rbx: the fixture has no IMUL (R64, R64).
    let e = db
        .find(&decode_one(&[0x48, 0x0f, 0xaf, 0xc3]).iced)
        .unwrap_err();
    assert_eq!(
        e,
        NoMatch::NoOperandMatch {
            mnemonic: "IMUL".into(),
            signature: "R64, R64".into()
        }
    );
    // nop: no NOP iclass at all.
    let e = db.find(&decode_one(&[0x90]).iced).unwrap_err();
    assert_eq!(
        e,
        NoMatch::UnknownMnemonic {
            mnemonic: "NOP".into()
        }
    );
    // add ax, [rbx]: the variant exists but is not measured on SKL.
    let e = db.describe(&decode_one(&[0x66, 0x03, 0x03])).unwrap_err();
    assert_eq!(
        e,
        NoMatch::NoData {
            string: "ADD (R16, M16)".into()
        }
    );
    // not rax: port 9 does not exist on SKL.
    let e = db.describe(&decode_one(&[0x48, 0xf7, 0xd0])).unwrap_err();
    assert!(matches!(e, NoMatch::BadData { .. }), "{e:?}");
}

#[test]
fn hostile_bytes_never_panic() {
    let db = db();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..2000 {
        let mut bytes = [0u8; 15];
        for b in &mut bytes {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            *b = seed as u8;
        }
        if let Ok(instrs) = suaca::decode::decode_bytes(&bytes, 0) {
            for i in &instrs {
                let _ = db.describe(i);
            }
        }
    }
}
