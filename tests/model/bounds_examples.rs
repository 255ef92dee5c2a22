//! Golden tests: the worked examples of "Performance Speed Limits" (SL §3.9 in docs/sources.md) on
//! SKL, with hand-written uops.info-style data (port strings, retire slots, latencies as in
//! the SKL tables), plus the SUACA thesis' adc chain and a stencil loop.
#![forbid(unsafe_code)]

use iced_x86::code_asm::*;
use iced_x86::Register;
use suaca::bounds::{self, BoundFacts, BoundKind, BoundOptions, Bounds, RowState};
use suaca::cfg::Cfg;
use suaca::db::{Endpoint, InstrDesc, LatVia, OpLatency, PortGroupDesc, Variant};
use suaca::deps::DepGraph;
use suaca::ir::{Instr, Loc};
use suaca::uarch::{self, MicroArch};

const BASE: u64 = 0x1000;

fn skl() -> MicroArch {
    uarch::load("SKL").expect("SKL loads")
}

/// Jcc strings every flag writer below macro-fuses with.
const JCCS: [&str; 4] = ["JB (Rel8)", "JNZ (Rel8)", "JNBE (Rel8)", "JL (Rel8)"];

/// A descriptor from a uops.info port string (`1*p0156+1*p23`), retire slots and latency.
fn desc(arch: &MicroArch, string: &str, ports: &str, fused: u32, lat: f64) -> InstrDesc {
    let port_groups: Vec<PortGroupDesc> = ports
        .split('+')
        .filter(|s| !s.is_empty())
        .map(|g| {
            let (n, p) = g.split_once('*').expect("N*pXX");
            PortGroupDesc {
                count: n.parse().expect("count"),
                ports: arch.parse_port_mask(p).expect("ports"),
            }
        })
        .collect();
    InstrDesc {
        string: string.to_string(),
        iform: String::new(),
        variant: Variant::Plain,
        uops: port_groups.iter().map(|g| g.count).sum(),
        port_groups,
        fused_uops: Some(fused),
        uops_mite: None,
        uops_ms: None,
        complex_decoder: None,
        simple_decoders: None,
        div_cycles: None,
        macro_fusible_with: Vec::new(),
        throughput: None,
        latencies: Vec::new(),
        max_latency: lat,
    }
}

/// A flag-writing ALU instruction that macro-fuses with the usual Jccs.
fn alu(arch: &MicroArch, string: &str) -> InstrDesc {
    let mut d = desc(arch, string, "1*p0156", 1, 1.0);
    d.macro_fusible_with = JCCS.iter().map(|s| s.to_string()).collect();
    d
}

fn jcc(arch: &MicroArch, string: &str) -> InstrDesc {
    desc(arch, string, "1*p06", 1, 1.0)
}

fn load(arch: &MicroArch) -> InstrDesc {
    desc(arch, "MOV (R32, M32)", "1*p23", 1, 5.0)
}

/// `add dst, [base + index*s]` with SKL's per-operand latencies: 1 from `dst`, 6 from the
/// address registers, 5 from memory (so a chain through `dst` costs 1, as the simulator
/// computes it). For RAX..RDX the latencies also name the high-8 part, which a 32-bit write
/// replaces too.
fn load_op(arch: &MicroArch, dst: Register, base: Register, index: Register) -> InstrDesc {
    let mut d = desc(arch, "ADD (R32, M32)", "1*p0156+1*p23", 1, 6.0);
    let mut outs = vec![Loc::Reg(dst)];
    if matches!(
        dst,
        Register::RAX | Register::RBX | Register::RCX | Register::RDX
    ) {
        outs.push(Loc::High8(dst));
    }
    for &to in &outs {
        let lat = |from, via, cycles| OpLatency {
            from,
            via,
            to: Endpoint::Loc(to),
            cycles,
            upper_bound: false,
        };
        for &from in &outs {
            d.latencies
                .push(lat(Endpoint::Loc(from), LatVia::Value, 1.0));
        }
        d.latencies.extend([
            lat(Endpoint::Loc(Loc::Reg(base)), LatVia::Address, 6.0),
            lat(Endpoint::Loc(Loc::Reg(index)), LatVia::AddressIndex, 6.0),
            lat(Endpoint::Mem(0), LatVia::Memory, 5.0),
        ]);
    }
    d
}

fn store(arch: &MicroArch) -> InstrDesc {
    desc(arch, "MOV (M32, R32)", "1*p237+1*p4", 1, 1.0)
}

/// Assembles a loop body (the closure ends with the back branch to `top`) and decodes it.
fn assemble(body: impl FnOnce(&mut CodeAssembler, CodeLabel)) -> Vec<Instr> {
    let mut a = CodeAssembler::new(64).expect("assembler");
    let mut top = a.create_label();
    a.set_label(&mut top).expect("label");
    body(&mut a, top);
    let bytes = a.assemble(BASE).expect("assembles");
    suaca::decode::decode_bytes(&bytes, BASE).expect("decodes")
}

fn analyze(instrs: &[Instr], descs: Vec<InstrDesc>, arch: &MicroArch) -> Bounds {
    assert_eq!(instrs.len(), descs.len(), "one descriptor per line");
    let descs: Vec<Option<InstrDesc>> = descs.into_iter().map(Some).collect();
    analyze_opt(instrs, &descs, arch)
}

fn analyze_opt(instrs: &[Instr], descs: &[Option<InstrDesc>], arch: &MicroArch) -> Bounds {
    let end = instrs.last().map_or(BASE, |i| i.address + i.len() as u64);
    let cfg = Cfg::build(instrs, BASE, end, 2);
    let deps = DepGraph::build(instrs, &cfg, true);
    bounds::compute(instrs, descs, &deps, &[], arch, &BoundOptions::default())
}

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() < 1e-9)
}

#[track_caller]
fn assert_cycles(b: &Bounds, kind: BoundKind, want: f64) {
    let got = b.cycles(kind);
    assert!(close(got, want), "{kind:?}: got {got:?}, want {want}");
}

#[track_caller]
fn assert_binds(b: &Bounds, kind: BoundKind) {
    assert!(b.row(kind).is_some_and(|r| r.binds), "{kind:?} should bind");
}

/// SL "Pipeline Width": sum of 16-bit halves, 14 fused µops (cmp+jb fused) → 3.5.
fn sum_halves(arch: &MicroArch) -> (Vec<Instr>, Vec<InstrDesc>) {
    let instrs = assemble(|a, top| {
        a.mov(r8d, dword_ptr(rdi + rcx * 4)).unwrap();
        a.mov(edx, dword_ptr(rdi + rcx * 4 + 4)).unwrap();
        a.add(rcx, 2).unwrap();
        a.mov(r11d, r8d).unwrap();
        a.movzx(r8d, r8w).unwrap();
        a.mov(r9d, edx).unwrap();
        a.shr(r11d, 16).unwrap();
        a.movzx(edx, dx).unwrap();
        a.shr(r9d, 16).unwrap();
        a.add(edx, r8d).unwrap();
        a.add(r9d, r11d).unwrap();
        a.add(eax, edx).unwrap();
        a.add(r10d, r9d).unwrap();
        a.cmp(rcx, rsi).unwrap();
        a.jb(top).unwrap();
    });
    let shr = || desc(arch, "SHR (R32, I8)", "1*p06", 1, 1.0);
    let descs = vec![
        load(arch),
        load(arch),
        alu(arch, "ADD (R64, I8)"),
        alu(arch, "MOV (R32, R32)"),
        alu(arch, "MOVZX (R32, R16)"),
        alu(arch, "MOV (R32, R32)"),
        shr(),
        alu(arch, "MOVZX (R32, R16)"),
        shr(),
        alu(arch, "ADD (R32, R32)"),
        alu(arch, "ADD (R32, R32)"),
        alu(arch, "ADD (R32, R32)"),
        alu(arch, "ADD (R32, R32)"),
        alu(arch, "CMP (R64, R64)"),
        jcc(arch, "JB (Rel8)"),
    ];
    (instrs, descs)
}

#[test]
fn sum_halves_is_width_bound() {
    let arch = skl();
    let (instrs, descs) = sum_halves(&arch);
    let b = analyze(&instrs, descs, &arch);
    assert_cycles(&b, BoundKind::IssueWidth, 3.5);
    assert_binds(&b, BoundKind::IssueWidth);
    assert_eq!(b.bottleneck, Some(BoundKind::IssueWidth));
    assert!(close(b.predicted, 3.5));
    // 9 p0156 + 2 shifts + the fused branch on p06: 12 / 4.
    assert_cycles(&b, BoundKind::Ports, 3.0);
    assert_cycles(&b, BoundKind::Loads, 1.0);
    let w = b.row(BoundKind::IssueWidth).unwrap();
    let BoundFacts::IssueWidth(f) = &w.facts else {
        panic!("{:?}", w.facts)
    };
    assert_eq!(f.macro_fused_pairs, vec![13], "{f:?}");
    assert_eq!(f.fused_uops, 14);
    let words = suaca::report::bounds::words(w);
    assert!(
        words
            .inputs
            .contains(&("macro-fused pairs", "13+14".to_string())),
        "{:?}",
        words.inputs
    );
}

#[test]
fn mul_by_is_port1_bound() {
    let arch = skl();
    let instrs = assemble(|a, top| {
        a.mov(r10d, dword_ptr(rdi + rcx * 4 + 4)).unwrap();
        a.mov(r8d, r10d).unwrap();
        a.imul_2(r8d, ecx).unwrap();
        a.imul_2(r8d, edx).unwrap();
        a.imul_2(r8d, ecx).unwrap();
        a.add(rcx, 1).unwrap();
        a.imul_2(r8d, r9d).unwrap();
        a.mov(r9d, r10d).unwrap();
        a.add(eax, r8d).unwrap();
        a.cmp(rcx, rsi).unwrap();
        a.jne(top).unwrap();
    });
    let imul = || desc(&arch, "IMUL (R32, R32)", "1*p1", 1, 3.0);
    let descs = vec![
        load(&arch),
        alu(&arch, "MOV (R32, R32)"),
        imul(),
        imul(),
        imul(),
        alu(&arch, "ADD (R64, I8)"),
        imul(),
        alu(&arch, "MOV (R32, R32)"),
        alu(&arch, "ADD (R32, R32)"),
        alu(&arch, "CMP (R64, R64)"),
        jcc(&arch, "JNZ (Rel8)"),
    ];
    let b = analyze(&instrs, descs, &arch);
    assert_cycles(&b, BoundKind::IssueWidth, 2.5);
    assert_cycles(&b, BoundKind::Ports, 4.0);
    assert_eq!(b.bottleneck, Some(BoundKind::Ports));
    assert_eq!(b.critical_ports, vec!["1"]);
    let p1 = b.port_loads.iter().find(|p| p.port == "1").unwrap();
    assert!((p1.load - 4.0).abs() < 1e-9);
    // Only the 1-cycle `add eax` and `add rcx` are carried: chain 1.
    assert_cycles(&b, BoundKind::DepChain, 1.0);
}

/// SL "Loads": indirect sum with 4 loads and 5 fused µops → loads 2.
#[test]
fn indirect_add_is_load_bound() {
    let arch = skl();
    let instrs = assemble(|a, top| {
        a.mov(r8d, dword_ptr(rsi + rdx * 4 - 4)).unwrap();
        a.add(ecx, dword_ptr(rdi + r8 * 4)).unwrap();
        a.mov(r8d, dword_ptr(rsi + rdx * 4 - 8)).unwrap();
        a.add(eax, dword_ptr(rdi + r8 * 4)).unwrap();
        a.sub(rdx, 2).unwrap();
        a.jne(top).unwrap();
    });
    let descs = vec![
        load(&arch),
        load_op(&arch, Register::RCX, Register::RDI, Register::R8),
        load(&arch),
        load_op(&arch, Register::RAX, Register::RDI, Register::R8),
        alu(&arch, "SUB (R64, I8)"),
        jcc(&arch, "JNZ (Rel8)"),
    ];
    let b = analyze(&instrs, descs, &arch);
    assert_cycles(&b, BoundKind::IssueWidth, 1.25);
    assert_cycles(&b, BoundKind::Loads, 2.0);
    assert_binds(&b, BoundKind::Loads);
    assert!(close(b.predicted, 2.0));
}

/// SL "Loads", the 64-bit index load: gcc 7 µops (width 1.75 binds), clang 6 (width and
/// loads tie at 1.5).
#[test]
fn indirect_add_64bit_index() {
    let arch = skl();
    let gcc = assemble(|a, top| {
        a.mov(rcx, qword_ptr(rsi + rdx * 4 - 8)).unwrap();
        a.mov(r9, rcx).unwrap();
        a.mov(ecx, ecx).unwrap();
        a.shr(r9, 32).unwrap();
        a.add(eax, dword_ptr(rdi + rcx * 4)).unwrap();
        a.add(r8d, dword_ptr(rdi + r9 * 4)).unwrap();
        a.sub(rdx, 2).unwrap();
        a.jne(top).unwrap();
    });
    let descs = vec![
        load(&arch),
        alu(&arch, "MOV (R64, R64)"),
        alu(&arch, "MOV (R32, R32)"),
        desc(&arch, "SHR (R64, I8)", "1*p06", 1, 1.0),
        load_op(&arch, Register::RAX, Register::RDI, Register::RCX),
        load_op(&arch, Register::R8, Register::RDI, Register::R9),
        alu(&arch, "SUB (R64, I8)"),
        jcc(&arch, "JNZ (Rel8)"),
    ];
    let b = analyze(&gcc, descs, &arch);
    assert_cycles(&b, BoundKind::IssueWidth, 1.75);
    assert_cycles(&b, BoundKind::Loads, 1.5);
    assert_eq!(b.bottleneck, Some(BoundKind::IssueWidth));

    let clang = assemble(|a, top| {
        a.mov(r8, qword_ptr(rsi + rdx * 4 - 8)).unwrap();
        a.mov(r9d, r8d).unwrap();
        a.shr(r8, 32).unwrap();
        a.add(ecx, dword_ptr(rdi + r8 * 4)).unwrap();
        a.add(eax, dword_ptr(rdi + r9 * 4)).unwrap();
        a.add(rdx, -2).unwrap();
        a.jne(top).unwrap();
    });
    let descs = vec![
        load(&arch),
        alu(&arch, "MOV (R32, R32)"),
        desc(&arch, "SHR (R64, I8)", "1*p06", 1, 1.0),
        load_op(&arch, Register::RCX, Register::RDI, Register::R8),
        load_op(&arch, Register::RAX, Register::RDI, Register::R9),
        alu(&arch, "ADD (R64, I8)"),
        jcc(&arch, "JNZ (Rel8)"),
    ];
    let b = analyze(&clang, descs, &arch);
    assert_cycles(&b, BoundKind::IssueWidth, 1.5);
    assert_cycles(&b, BoundKind::Loads, 1.5);
    assert_binds(&b, BoundKind::IssueWidth);
    assert_binds(&b, BoundKind::Loads);
    assert_eq!(b.bottleneck, Some(BoundKind::IssueWidth));
}

/// SL "Complex addressing": `d[i] = a[i] + b[i]` with indexed store → (2 + 1) / 2 = 1.5;
/// the pointer-relative version has a simple store: 2 / 2 = 1 and width 1.25. SL counts
/// the indexed version's width as 1.25 too; the bound counts the simulation's slots, where
/// Skylake un-laminates the indexed store (its data is the base-only form, and a store's
/// destination is not a source): 6 / 4 = 1.5.
#[test]
fn complex_addressing() {
    let arch = skl();
    let indexed = assemble(|a, top| {
        a.mov(r8d, dword_ptr(rsi + rax * 4)).unwrap();
        a.add(r8d, dword_ptr(rdi + rax * 4)).unwrap();
        a.mov(dword_ptr(rdx + rax * 4), r8d).unwrap();
        a.add(rax, 1).unwrap();
        a.cmp(rcx, rax).unwrap();
        a.jne(top).unwrap();
    });
    let descs = || {
        vec![
            load(&arch),
            load_op(&arch, Register::R8, Register::RDI, Register::RAX),
            store(&arch),
            alu(&arch, "ADD (R64, I8)"),
            alu(&arch, "CMP (R64, R64)"),
            jcc(&arch, "JNZ (Rel8)"),
        ]
    };
    let b = analyze(&indexed, descs(), &arch);
    assert_cycles(&b, BoundKind::IssueWidth, 1.5);
    assert_cycles(&b, BoundKind::ComplexAddressing, 1.5);
    assert_binds(&b, BoundKind::IssueWidth);
    assert_binds(&b, BoundKind::ComplexAddressing);
    assert_cycles(&b, BoundKind::Stores, 1.0);
    assert_cycles(&b, BoundKind::MemoryOps, 1.0);

    let relative = assemble(|a, top| {
        a.mov(eax, dword_ptr(rdx + rsi)).unwrap();
        a.add(eax, dword_ptr(rdx + rdi)).unwrap();
        a.mov(dword_ptr(rdx), eax).unwrap();
        a.add(rdx, 4).unwrap();
        a.cmp(rcx, rdx).unwrap();
        a.ja(top).unwrap();
    });
    let mut d = descs();
    d[5] = jcc(&arch, "JNBE (Rel8)");
    let b = analyze(&relative, d, &arch);
    assert_cycles(&b, BoundKind::ComplexAddressing, 1.0);
    assert_cycles(&b, BoundKind::IssueWidth, 1.25);
    assert_eq!(b.bottleneck, Some(BoundKind::IssueWidth));
}

/// SL "Carried dependency chains": `imul eax, [rdi]` → chain 3 (width 0.75, p1 1); with 4
/// accumulators p1 carries 4 per iteration (of 4 elements) and the chain stays 3.
#[test]
fn mul_chain_one_vs_four_accumulators() {
    let arch = skl();
    let imul_m = || desc(&arch, "IMUL (R32, M32)", "1*p1+1*p23", 1, 3.0);
    let one = assemble(|a, top| {
        a.imul_2(eax, dword_ptr(rdi)).unwrap();
        a.add(rdi, 4).unwrap();
        a.cmp(rdi, rdx).unwrap();
        a.jne(top).unwrap();
    });
    let descs = vec![
        imul_m(),
        alu(&arch, "ADD (R64, I8)"),
        alu(&arch, "CMP (R64, R64)"),
        jcc(&arch, "JNZ (Rel8)"),
    ];
    let b = analyze(&one, descs, &arch);
    assert_cycles(&b, BoundKind::IssueWidth, 0.75);
    assert_cycles(&b, BoundKind::Ports, 1.0);
    assert_cycles(&b, BoundKind::DepChain, 3.0);
    assert_eq!(b.bottleneck, Some(BoundKind::DepChain));
    let chain = b.chain.as_ref().unwrap();
    assert_eq!(chain.lines, vec![0]);
    assert_eq!(chain.locs, vec!["rax"]);
    assert_eq!((chain.latency, chain.distance), (3, 1));

    let four = assemble(|a, top| {
        a.imul_2(eax, dword_ptr(rdi)).unwrap();
        a.imul_2(ecx, dword_ptr(rdi + 4)).unwrap();
        a.imul_2(r8d, dword_ptr(rdi + 8)).unwrap();
        a.imul_2(r9d, dword_ptr(rdi + 12)).unwrap();
        a.add(rdi, 16).unwrap();
        a.cmp(rdi, rdx).unwrap();
        a.jne(top).unwrap();
    });
    let descs = vec![
        imul_m(),
        imul_m(),
        imul_m(),
        imul_m(),
        alu(&arch, "ADD (R64, I8)"),
        alu(&arch, "CMP (R64, R64)"),
        jcc(&arch, "JNZ (Rel8)"),
    ];
    let b = analyze(&four, descs, &arch);
    assert_cycles(&b, BoundKind::Ports, 4.0);
    assert_cycles(&b, BoundKind::DepChain, 3.0);
    assert_eq!(b.bottleneck, Some(BoundKind::Ports));
}

/// SUACA thesis §4.3: 8 `adc` in a CF chain; each 1 cycle → 8 cycles per iteration.
#[test]
fn thesis_adc_chain() {
    let arch = skl();
    let instrs = assemble(|a, _| {
        a.adc(rax, rbx).unwrap();
        a.adc(rcx, rbx).unwrap();
        a.adc(rdx, rbx).unwrap();
        a.adc(rsi, rbx).unwrap();
        a.adc(rdi, rbx).unwrap();
        a.adc(r8, rbx).unwrap();
        a.adc(r9, rbx).unwrap();
        a.adc(r10, rbx).unwrap();
    });
    let descs = (0..8)
        .map(|_| desc(&arch, "ADC (R64, R64)", "1*p06", 1, 1.0))
        .collect();
    let b = analyze(&instrs, descs, &arch);
    assert_cycles(&b, BoundKind::DepChain, 8.0);
    let chain = b.chain.as_ref().unwrap();
    assert_eq!(chain.lines, (0..8).collect::<Vec<_>>());
    assert!(chain.locs.iter().all(|l| l == "cf"), "{:?}", chain.locs);
    assert_eq!((chain.latency, chain.distance), (8, 1));
    assert_eq!(b.bottleneck, Some(BoundKind::DepChain));
}

/// A stencil loop: only `inc r15` is loop-carried → chain 1.
#[test]
fn stencil_chain_is_the_counter() {
    let arch = skl();
    let instrs = assemble(|a, top| {
        a.mov(rax, qword_ptr(rsi + r15 * 8)).unwrap();
        a.add(rax, qword_ptr(rsi + r15 * 8 + 8)).unwrap();
        a.add(rax, qword_ptr(rsi + r15 * 8 + 16)).unwrap();
        a.mov(qword_ptr(rdi + r15 * 8), rax).unwrap();
        a.inc(r15).unwrap();
        a.cmp(r15, rcx).unwrap();
        a.jl(top).unwrap();
    });
    let descs = vec![
        load(&arch),
        load_op(&arch, Register::RAX, Register::RSI, Register::R15),
        load_op(&arch, Register::RAX, Register::RSI, Register::R15),
        store(&arch),
        desc(&arch, "INC (R64)", "1*p0156", 1, 1.0),
        alu(&arch, "CMP (R64, R64)"),
        jcc(&arch, "JL (Rel8)"),
    ];
    let b = analyze(&instrs, descs, &arch);
    assert_cycles(&b, BoundKind::DepChain, 1.0);
    assert_eq!(b.chain.as_ref().unwrap().lines, vec![4]);
    assert_eq!(b.chain.as_ref().unwrap().locs, vec!["r15"]);
}

#[test]
fn taken_branch_rates() {
    let arch = skl();
    let (instrs, descs) = sum_halves(&arch);
    let b = analyze(&instrs, descs, &arch);
    // A single backward branch: 1 per cycle on SKL.
    assert_cycles(&b, BoundKind::TakenBranches, 1.0);
    // An extra unconditional forward jump: 2 taken at 1 per 2 cycles.
    let instrs = assemble(|a, top| {
        let mut skip = a.create_label();
        a.add(rax, 1).unwrap();
        a.jmp(skip).unwrap();
        a.nop().unwrap();
        a.set_label(&mut skip).unwrap();
        a.sub(rcx, 1).unwrap();
        a.jne(top).unwrap();
    });
    let descs = vec![
        alu(&arch, "ADD (R64, I8)"),
        desc(&arch, "JMP (Rel8)", "1*p6", 1, 1.0),
        desc(&arch, "NOP", "", 1, 1.0),
        alu(&arch, "SUB (R64, I8)"),
        jcc(&arch, "JNZ (Rel8)"),
    ];
    let b = analyze(&instrs, descs, &arch);
    assert_cycles(&b, BoundKind::TakenBranches, 4.0);
}

#[test]
fn missing_data_is_reported_not_zero() {
    let arch = skl();
    let (instrs, descs) = sum_halves(&arch);
    let mut descs: Vec<Option<InstrDesc>> = descs.into_iter().map(Some).collect();
    descs[6] = None;
    let b = analyze_opt(&instrs, &descs, &arch);
    let w = b.row(BoundKind::IssueWidth).unwrap();
    assert_eq!(w.left_out, vec![6]);
    assert_cycles(&b, BoundKind::IssueWidth, 13.0 / 4.0);
    // Rows that need only the decoder still count every line.
    assert_cycles(&b, BoundKind::Loads, 1.0);

    let none: Vec<Option<InstrDesc>> = vec![None; instrs.len()];
    let b = analyze_opt(&instrs, &none, &arch);
    for kind in [
        BoundKind::IssueWidth,
        BoundKind::Ports,
        BoundKind::DepChain,
        BoundKind::Divider,
    ] {
        let r = b.row(kind).unwrap();
        assert_eq!(r.state, RowState::Unknown, "{kind:?}");
        assert_eq!(r.cycles, None, "{kind:?}");
    }
    assert_eq!(
        b.row(BoundKind::CacheBandwidth).unwrap().state,
        RowState::NotApplicable
    );
    // Memory rows still know the loads.
    assert_cycles(&b, BoundKind::Loads, 1.0);
}

#[test]
fn rendering_is_deterministic_and_complete() {
    let arch = skl();
    let (instrs, descs) = sum_halves(&arch);
    let a = analyze(&instrs, descs.clone(), &arch);
    let b = analyze(&instrs, descs, &arch);
    assert_eq!(a, b);
    let text = suaca::report::bounds::render_text(&a, &arch.name);
    assert_eq!(text, suaca::report::bounds::render_text(&b, &arch.name));
    for label in [
        "Issue width",
        "Port pressure",
        "Loop-carried chain",
        "OoO window",
    ] {
        assert!(text.contains(label), "{label} missing:\n{text}");
    }
    assert!(text.contains("n/a (needs working-set level)"));
    let json = serde_json::to_string(&a).expect("serializes");
    assert!(json.contains("\"issue_width\""));
}

#[test]
#[ignore = "prints the table for inspection"]
fn show_table() {
    let arch = skl();
    let (instrs, descs) = sum_halves(&arch);
    let b = analyze(&instrs, descs, &arch);
    println!("{}", suaca::report::bounds::render_text(&b, &arch.name));
}
