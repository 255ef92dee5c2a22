//! `InstrDb::describe` tests: measurement fields, port groups and per-operand latencies
//! resolved to the instruction's registers, flags and memory, against the hand-written forms
//! in `testdata/xml/match_forms.xml` (SKL, invented numbers).
#![forbid(unsafe_code)]

use std::path::Path;

use iced_x86::Register::{self, K1, RAX, RBX, RCX, RDI, RDX, ZMM1, ZMM2};
use suaca::db::{Endpoint, InstrDb, InstrDesc, LatVia, OpLatency, Variant};
use suaca::ir::{Flag, Loc};
use suaca::uopsxml::{read_file, ArchFilter};

fn describe(bytes: &[u8]) -> InstrDesc {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/xml/match_forms.xml");
    let records = read_file(&path, &ArchFilter::All).expect("fixture parses");
    let skl = suaca::uarch::load("SKL").expect("SKL arch");
    let db = InstrDb::new(&records, "SKL", |g| skl.port_mask(g));
    let instrs = suaca::decode::decode_bytes(bytes, 0x1000).expect("decodes");
    db.describe(&instrs[0]).expect("described")
}

fn reg(r: Register) -> Endpoint {
    Endpoint::Loc(Loc::Reg(r))
}

fn flag(f: Flag) -> Endpoint {
    Endpoint::Loc(Loc::Flag(f))
}

/// The latency from `from` via `via` to `to`, if resolved.
fn lat(d: &InstrDesc, from: Endpoint, via: LatVia, to: Endpoint) -> Option<f64> {
    d.latencies
        .iter()
        .find(|l: &&OpLatency| l.from == from && l.via == via && l.to == to)
        .map(|l| l.cycles)
}

#[test]
fn register_form_fields_and_flag_fan_out() {
    let d = describe(&[0x48, 0x01, 0xd8]); // add rax, rbx
    assert_eq!(d.string, "ADD_01 (R64, R64)");
    assert_eq!(
        (d.uops, d.fused_uops, d.uops_mite, d.uops_ms),
        (1, Some(1), Some(1), Some(0))
    );
    assert_eq!(d.port_groups.len(), 1);
    assert_eq!(
        (d.port_groups[0].count, d.port_groups[0].ports.len()),
        (1, 4)
    );
    assert_eq!(d.macro_fusible_with, vec!["JB (Rel8)", "JNZ (Rel8)"]);
    assert_eq!(d.throughput, Some(0.25));
    assert_eq!(lat(&d, reg(RBX), LatVia::Value, reg(RAX)), Some(1.0));
    assert_eq!(lat(&d, reg(RAX), LatVia::Value, reg(RAX)), Some(1.0));
    // The flags operand fans out to each flag written.
    for f in [Flag::CF, Flag::PF, Flag::AF, Flag::ZF, Flag::SF, Flag::OF] {
        assert_eq!(
            lat(&d, reg(RBX), LatVia::Value, flag(f)),
            Some(1.0),
            "{f:?}"
        );
    }
    assert_eq!(lat(&d, reg(RBX), LatVia::Value, flag(Flag::DF)), None);
    assert_eq!(d.max_latency, 1.0);
}

#[test]
fn memory_source_latencies_by_address_index_and_value() {
    let d = describe(&[0x48, 0x03, 0x04, 0x8b]); // add rax, [rbx+rcx*4]
    assert_eq!(d.variant, Variant::Indexed);
    assert_eq!(lat(&d, reg(RBX), LatVia::Address, reg(RAX)), Some(6.0));
    assert_eq!(lat(&d, reg(RCX), LatVia::AddressIndex, reg(RAX)), Some(7.0));
    assert_eq!(
        lat(&d, Endpoint::Mem(0), LatVia::Memory, reg(RAX)),
        Some(1.0)
    );
    // No cycles_addr_index on the flags latency: the index falls back to cycles_addr.
    assert_eq!(
        lat(&d, reg(RCX), LatVia::AddressIndex, flag(Flag::ZF)),
        Some(6.0)
    );
    assert_eq!(d.max_latency, 7.0);

    let d = describe(&[0x48, 0x03, 0x03]); // add rax, [rbx]
    assert_eq!(d.variant, Variant::Plain);
    assert!(d.latencies.iter().all(|l| l.via != LatVia::AddressIndex));
}

#[test]
fn memory_destination_and_implicit_memory() {
    let d = describe(&[0x48, 0x01, 0x18]); // add [rax], rbx
    assert_eq!(
        lat(&d, reg(RAX), LatVia::Address, Endpoint::Mem(0)),
        Some(10.0)
    );
    assert_eq!(
        lat(&d, Endpoint::Mem(0), LatVia::Memory, Endpoint::Mem(0)),
        Some(5.0)
    );
    assert_eq!(
        lat(&d, reg(RBX), LatVia::Value, Endpoint::Mem(0)),
        Some(5.0)
    );

    let d = describe(&[0xa4]); // movsb: the es:[rdi] operand
    let l = d.latencies.first().expect("one latency");
    assert_eq!((l.from, l.via, l.cycles), (reg(RDI), LatVia::Address, 6.0));
    assert!(matches!(l.to, Endpoint::Mem(_)));
}

#[test]
fn same_register_variant_uses_its_values() {
    let d = describe(&[0x48, 0x31, 0xc0]); // xor rax, rax
    assert_eq!(d.variant, Variant::SameReg);
    assert_eq!(d.uops, 0);
    assert!(d.port_groups.is_empty());
    // 2→1 has cycles_same_reg=0; it wins over the plain 1→1 value for the same pair.
    assert_eq!(lat(&d, reg(RAX), LatVia::Value, reg(RAX)), Some(0.0));

    let d = describe(&[0x48, 0x89, 0xc0]); // mov rax, rax: not eliminated
    assert_eq!((d.variant, d.uops), (Variant::SameReg, 1));
    assert_eq!(lat(&d, reg(RAX), LatVia::Value, reg(RAX)), Some(1.0));

    let d = describe(&[0x48, 0x89, 0xd8]); // mov rax, rbx: eliminated
    assert_eq!((d.variant, d.uops), (Variant::Plain, 0));
    assert_eq!(lat(&d, reg(RBX), LatVia::Value, reg(RAX)), Some(0.0));
}

#[test]
fn fixed_registers_and_divider() {
    let d = describe(&[0x48, 0xf7, 0xeb]); // imul rbx
    assert_eq!(lat(&d, reg(RBX), LatVia::Value, reg(RAX)), Some(3.0));
    assert_eq!(lat(&d, reg(RBX), LatVia::Value, reg(RDX)), Some(4.0));
    assert_eq!(lat(&d, reg(RAX), LatVia::Value, reg(RDX)), Some(4.0));

    let d = describe(&[0x48, 0xf7, 0xf1]); // div rcx
    assert_eq!(d.div_cycles, Some(21), "TP_unrolled 21 < div_cycles 24");
    assert_eq!(d.throughput, Some(21.0));
    assert_eq!(lat(&d, reg(RAX), LatVia::Value, reg(RAX)), Some(35.0));
}

#[test]
fn shift_by_cl_and_conditional_flags() {
    let d = describe(&[0x48, 0xd3, 0xe0]); // shl rax, cl
    assert_eq!(lat(&d, reg(RCX), LatVia::Value, reg(RAX)), Some(1.0));
    // Conditionally written flags are inputs too: the old value survives a shift by 0.
    assert_eq!(
        lat(&d, flag(Flag::ZF), LatVia::Value, flag(Flag::CF)),
        Some(2.0)
    );
    assert_eq!(lat(&d, flag(Flag::OF), LatVia::Value, flag(Flag::CF)), None);
}

#[test]
fn lea_address_registers() {
    let d = describe(&[0x48, 0x8d, 0x04, 0x8b]); // lea rax, [rbx+rcx*4]
    assert_eq!(lat(&d, reg(RBX), LatVia::Address, reg(RAX)), Some(1.0));
    assert_eq!(lat(&d, reg(RCX), LatVia::AddressIndex, reg(RAX)), Some(3.0));
    assert!(d
        .latencies
        .iter()
        .all(|l| !matches!(l.from, Endpoint::Mem(_))));

    let d = describe(&[0x48, 0x8d, 0x05, 0, 1, 0, 0]); // lea rax, [rip+0x100]
    assert!(d.latencies.is_empty(), "RIP carries no dependency");
    assert_eq!(d.max_latency, 1.0);
}

#[test]
fn write_mask_is_an_input() {
    let d = describe(&[0x62, 0xf1, 0xed, 0x49, 0x58, 0xcb]); // vaddpd zmm1{k1}, zmm2, zmm3
    assert_eq!(lat(&d, reg(K1), LatVia::Value, reg(ZMM1)), Some(2.0));
    assert_eq!(lat(&d, reg(ZMM2), LatVia::Value, reg(ZMM1)), Some(4.0));

    let d = describe(&[0x62, 0xf1, 0xed, 0xc9, 0x58, 0xcb]); // {z}: nothing measured
    assert!(d.latencies.is_empty());
    assert_eq!(d.max_latency, 1.0);
}

#[test]
fn locked_throughput_from_tp_unrolled() {
    let d = describe(&[0xf0, 0x48, 0x01, 0x18]); // lock add [rax], rbx
    assert_eq!(d.string, "ADD_LOCK (M64, R64)");
    assert_eq!(d.throughput, Some(18.0));
    assert_eq!((d.uops, d.fused_uops, d.uops_ms), (7, Some(8), Some(8)));
    assert_eq!(d.port_groups.iter().map(|g| g.count).sum::<u32>(), 9);
}

#[test]
fn suppressed_operand_iced_lists_explicitly() {
    let d = describe(&[0xab]); // stosd: eax is iced's operand 1, XED's suppressed REG0
    let l = d.latencies.first().expect("one latency");
    assert_eq!((l.from, l.cycles), (reg(RAX), 4.0));
    assert!(matches!(l.to, Endpoint::Mem(_)));
}

/// uops.info counts the divider's busy cycles only on Intel: a Zen record of a divide has
/// `TP_unrolled` and `TP_ports` alone, and the throughput its ports do not explain is the
/// divider's (DIVSD 4.5 against 0.5: 5 cycles, to the nearest whole cycle). A divide with no
/// such throughput gets none (the analyzer warns), nor does a multiply whatever its
/// throughput (testdata/xml/amd_divider.xml).
#[test]
fn amd_divides_take_the_divider_from_their_throughput() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/xml/amd_divider.xml");
    let records = read_file(&path, &ArchFilter::All).expect("fixture parses");
    let zen3 = suaca::uarch::load("ZEN3").expect("ZEN3 arch");
    let db = InstrDb::new(&records, "ZEN3", |g| zen3.port_mask(g));
    let describe = |bytes: &[u8]| {
        let instrs = suaca::decode::decode_bytes(bytes, 0x1000).expect("decodes");
        db.describe(&instrs[0]).expect("described")
    };
    assert_eq!(describe(&[0xf2, 0x0f, 0x5e, 0xc1]).div_cycles, Some(5)); // divsd xmm0, xmm1
    assert_eq!(describe(&[0xf2, 0x0f, 0x51, 0xc1]).div_cycles, None); // sqrtsd xmm0, xmm1
    assert_eq!(describe(&[0xf2, 0x0f, 0x59, 0xc1]).div_cycles, None); // mulsd xmm0, xmm1
    assert!(suaca::db::uses_divider("VSQRTPD (YMM, YMM)"));
    assert!(suaca::db::uses_divider("IDIV"));
    assert!(suaca::db::uses_divider("FDIVRP"));
    assert!(!suaca::db::uses_divider("VRSQRTPS (XMM, XMM)"));
    assert!(!suaca::db::uses_divider("MULSD"));
}
