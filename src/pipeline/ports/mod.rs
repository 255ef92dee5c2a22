//! Load and store data paths as resources (the "D" columns of IACA and the thesis): a load
//! wider than its port's data path (`memory.load_port_bytes`) holds the port for one more
//! cycle per extra chunk, as does a store wider than the store-data path
//! (`memory.store_data_bytes`). Modelled as extra µops on the same ports, run by the program
//! as port-only instructions of the same line ([`chunks`]): where the engine lets one
//! instruction's µops share a port within a cycle (the thesis' rule) they would not hold it
//! longer, and as µops of the instruction they would delay its start everywhere.

pub mod issue;

use crate::db::InstrDesc;
use crate::ir::Instr;
use crate::uarch::{MicroArch, PortMask, Role};

/// The port cycles beyond the first that `instr`'s wide loads and stores need (one mask per
/// extra cycle, the port of the access's own µop), or `None` when every access fits its
/// data path. [`widen`] adds them to the instruction itself instead.
pub fn chunks(instr: &Instr, arch: &MicroArch, uops: &[PortMask]) -> Option<Vec<PortMask>> {
    let mut list = uops.to_vec();
    widen(instr, arch, &mut list);
    let extra = list.split_off(uops.len());
    (!extra.is_empty()).then_some(extra)
}

/// Adds the extra data-path cycles of `instr`'s wide loads and stores to its µops.
pub fn widen(instr: &Instr, arch: &MicroArch, uops: &mut Vec<PortMask>) {
    let loads = arch.ports_with_role(Role::Load);
    let vector_loads = arch.ports_with_role(Role::VectorLoad);
    let store_data = arch.ports_with_role(Role::StoreData);
    let vector = is_vector(instr);
    for m in instr.mem.iter().filter(|m| !m.agen && m.size > 0) {
        if m.read && vector && !vector_loads.is_empty() {
            extra(uops, vector_loads, m.size, arch.memory.vector_load_bytes);
        } else if m.read {
            extra(uops, loads, m.size, arch.memory.load_port_bytes);
        }
        // Committing by cache line counts a store's width itself (store_commit.rs).
        if m.write && arch.memory.store_line_pairs != Some(true) {
            extra(uops, store_data, m.size, arch.memory.store_data_bytes);
        }
    }
}

/// Whether `instr` moves a value from the vector unit into the integer unit: it writes a
/// general-purpose register and reads a vector register (`movd r32, xmm`, `pextrd`,
/// `vmovmskps`, `cvttsd2si r32, xmm`), converts a floating-point value from memory to an
/// integer (`cvttsd2si r32, m64`), or compares or tests vector values into the flags
/// (`(v)(u)comiss/sd`, `(v)ptest`, `vtestps/pd`, `k(or)test`;
/// testdata/asm/fp_compare_flags.s).
pub fn is_vector_to_gpr(instr: &Instr) -> bool {
    if compares_into_flags(instr.iced.mnemonic()) {
        return true;
    }
    use crate::ir::Loc;
    let writes_gpr = instr.writes().any(|w| match w.loc {
        Loc::Reg(r) => r.is_gpr(),
        Loc::High8(_) => true,
        Loc::Flag(_) => false,
    });
    let reads_vector = instr
        .reads()
        .any(|a| matches!(a.loc, Loc::Reg(r) if r.is_vector_register()));
    writes_gpr && (reads_vector || converts_to_integer(instr.iced.mnemonic()))
}

/// Vector and mask compares and tests that set the integer flags: scalar floating-point
/// compares and the bit tests (`ptest`, `vtestps`, `kortestw`).
fn compares_into_flags(m: iced_x86::Mnemonic) -> bool {
    use iced_x86::Mnemonic::*;
    matches!(
        m,
        Comiss
            | Comisd
            | Ucomiss
            | Ucomisd
            | Vcomiss
            | Vcomisd
            | Vucomiss
            | Vucomisd
            | Ptest
            | Vptest
            | Vtestps
            | Vtestpd
            | Ktestb
            | Ktestw
            | Ktestd
            | Ktestq
            | Kortestb
            | Kortestw
            | Kortestd
            | Kortestq
    )
}

/// `cvt(t)sd2si`, `cvt(t)ss2si` and their AVX/AVX-512 forms (`vcvttsd2usi`).
fn converts_to_integer(m: iced_x86::Mnemonic) -> bool {
    use iced_x86::Mnemonic::*;
    matches!(
        m,
        Cvtsd2si
            | Cvttsd2si
            | Cvtss2si
            | Cvttss2si
            | Vcvtsd2si
            | Vcvttsd2si
            | Vcvtss2si
            | Vcvttss2si
            | Vcvtsd2usi
            | Vcvttsd2usi
            | Vcvtss2usi
            | Vcvttss2usi
    )
}

/// The µops that make `instr` hold every integer ALU for a cycle where the arch says a move
/// from the vector unit into a general-purpose register does
/// (`scheduler.vector_to_gpr_holds_alus`): its own ALU µop keeps the lowest of its ALUs,
/// and the returned port-only µops take the others. Zen 4 (data/arch/ZEN4.toml): `movd edx,
/// xmm0` with one `add` chain in a loop reads 1.95 cycles per iteration, two `movq` per copy
/// 2.00, against 1.00 with the ALU µop alone; the rule predicts 1.25 and 2.25 (closer, still
/// fast: the hardware's rule is not a port count).
pub fn vector_to_gpr(instr: &Instr, arch: &MicroArch, uops: &mut [PortMask]) -> Vec<PortMask> {
    if !holds_alus(instr, arch) {
        return Vec::new();
    }
    hold_every_alu(arch, uops)
}

/// Whether `instr` holds every integer ALU on `arch` ([`vector_to_gpr`]).
pub fn holds_alus(instr: &Instr, arch: &MicroArch) -> bool {
    arch.scheduler.vector_to_gpr_holds_alus == Some(true) && is_vector_to_gpr(instr)
}

/// Pins the first ALU-only µop of `uops` to its lowest ALU and returns one µop for each other
/// ALU, so that together they hold every ALU for a cycle.
pub fn hold_every_alu(arch: &MicroArch, uops: &mut [PortMask]) -> Vec<PortMask> {
    let alu = arch.ports_with_role(Role::Alu);
    let mut held = 0u32;
    for m in uops.iter_mut() {
        if m.0 & alu.0 != 0 && m.0 & !alu.0 == 0 && held == 0 {
            let low = m.0 & m.0.wrapping_neg();
            *m = PortMask(low);
            held = low;
        }
    }
    (0..32)
        .map(|b| 1u32 << b)
        .filter(|bit| alu.0 & !held & bit != 0)
        .map(PortMask)
        .collect()
}

/// Whether `instr` moves data to or from vector registers (its loads go to the vector unit).
pub(crate) fn is_vector(instr: &Instr) -> bool {
    instr
        .accesses
        .iter()
        .filter_map(|a| a.reg)
        .any(|r| r.is_vector_register())
}

/// Adds a µop on the vector-load ports for each memory read of a vector instruction, on
/// arches that have such ports (Zen: two vector loads per cycle, of 32 bytes each; a 64-byte
/// load takes both, `memory.vector_load_bytes`). Gathers are left alone: their element
/// loads are in their own data.
pub fn vector_load(instr: &Instr, arch: &MicroArch, uops: &mut Vec<PortMask>) {
    let ports = arch.ports_with_role(Role::VectorLoad);
    if ports.is_empty() || !is_vector(instr) || is_gather(instr) {
        return;
    }
    let loads = instr
        .mem
        .iter()
        .filter(|m| m.read && !m.agen && m.size > 0)
        .count();
    uops.extend(std::iter::repeat_n(ports, loads));
}

/// The 256-bit register writes of `instr` (`Role::VectorWrite` ports, two a µop): one per
/// 32-byte load into a vector register and one for a ymm result an operation computes.
pub fn vector_writes(instr: &Instr, arch: &MicroArch, uops: &[PortMask]) -> u32 {
    let ports = arch.ports_with_role(Role::VectorWrite);
    if ports.is_empty() || !is_vector(instr) || is_gather(instr) {
        return 0;
    }
    let loads = instr
        .mem
        .iter()
        .filter(|m| m.read && !m.agen && m.size == 32)
        .count() as u32;
    let iced = &instr.iced;
    let dest_ymm = iced.op_count() > 0
        && iced.op0_kind() == iced_x86::OpKind::Register
        && iced.op0_register().is_ymm();
    let load_ports = arch.ports_with_role(Role::Load);
    let computes = uops
        .iter()
        .any(|m| !m.is_empty() && m.0 & load_ports.0 == 0);
    loads + u32::from(dest_ymm && (loads == 0 || computes))
}

/// A loop's back branch, taken every iteration, runs on the arch's taken-branch port where
/// only one port executes taken branches (Haswell to Cascade Lake: port 6; uops.info lists
/// the Jcc on p06 because its not-taken runs may also use p0; docs/model.md, "Taken branches
/// on port 6").
pub fn taken_branch(arch: &MicroArch, uops: &mut [PortMask]) {
    let taken = arch.ports_with_role(Role::TakenBranch);
    if taken.is_empty() {
        return;
    }
    for m in uops.iter_mut() {
        let narrowed = PortMask(m.0 & taken.0);
        if !narrowed.is_empty() {
            *m = narrowed;
        }
    }
}

/// Gathers and scatters (a vector index register in the address).
pub(crate) fn is_gather(instr: &Instr) -> bool {
    instr
        .mem
        .iter()
        .any(|m| m.index.is_some_and(|r| r.is_vector_register()))
}

/// Adds a µop on the store-data ports for each memory write whose data lists none. AMD's
/// instruction data (uops.info's and `suaca measure`'s) names no store-data pipe, while the
/// load/store unit takes at most `stores_per_cycle` stores a cycle; the arch description
/// gives that limit as store-data ports. Intel's data has its store-data µops already.
pub fn store_data(instr: &Instr, arch: &MicroArch, uops: &mut Vec<PortMask>) {
    store_data_on(instr, arch, None, uops);
}

/// [`store_data`] with the added µops on `pin` when given (one of the store-data ports).
pub fn store_data_on(
    instr: &Instr,
    arch: &MicroArch,
    pin: Option<PortMask>,
    uops: &mut Vec<PortMask>,
) {
    let all = arch.ports_with_role(Role::StoreData);
    if all.is_empty() {
        return;
    }
    let ports = pin
        .filter(|p| !p.is_empty() && p.0 & !all.0 == 0)
        .unwrap_or(all);
    if ports.is_empty() {
        return;
    }
    let stores = instr
        .mem
        .iter()
        .filter(|m| m.write && !m.agen && m.size > 0)
        .count();
    let have = uops
        .iter()
        .filter(|u| !u.is_empty() && u.0 & !all.0 == 0)
        .count();
    uops.extend(std::iter::repeat_n(ports, stores.saturating_sub(have)));
}

/// Repeats the µop confined to `ports` once per extra `width`-byte chunk of `size`.
/// The store-data port each store of a loop commits through (loop mode, arches with more
/// than one store-data port that do not commit by cache line, `store_commit.rs`): stores whose addresses differ by a known constant (one array,
/// one stream) share a port, so they commit one per cycle; stores to other arrays take the
/// next port. Measured on Zen 4 (testdata/asm/store_width.s): two 16-byte or two 32-byte
/// stores to one array per iteration take 2 cycles, one 32-byte store 1 cycle (a 64-byte
/// store 2: `memory.store_data_bytes`). `path` is the loop's lines in order; the result is keyed by line.
pub fn store_groups(
    instrs: &[Instr],
    path: &[usize],
    map: &crate::pipeline::memory::address::AddressMap,
    arch: &MicroArch,
) -> std::collections::HashMap<usize, PortMask> {
    let ports: Vec<usize> = arch.ports_with_role(Role::StoreData).iter().collect();
    let mut out = std::collections::HashMap::new();
    if ports.len() < 2 {
        return out;
    }
    let refs: Vec<&Instr> = path.iter().map(|&l| &instrs[l]).collect();
    let mut groups: Vec<Vec<(crate::pipeline::memory::address::Origin, i64)>> = Vec::new();
    for (pos, instr) in refs.iter().enumerate() {
        for (k, m) in instr.mem.iter().enumerate() {
            if !m.write || m.agen || m.size == 0 {
                continue;
            }
            let Some(a) = map.address(pos, k) else {
                continue;
            };
            let terms = a.value.terms().to_vec();
            let g = match groups.iter().position(|t| *t == terms) {
                Some(g) => g,
                None => {
                    groups.push(terms);
                    groups.len() - 1
                }
            };
            out.insert(path[pos], PortMask::single(ports[g % ports.len()]));
        }
    }
    out
}

fn extra(uops: &mut Vec<PortMask>, ports: PortMask, size: u32, width: Option<u32>) {
    let Some(width) = width.filter(|&w| w > 0) else {
        return;
    };
    let chunks = size.div_ceil(width);
    if chunks <= 1 || ports.is_empty() {
        return;
    }
    if let Some(&uop) = uops.iter().find(|u| !u.is_empty() && u.0 & !ports.0 == 0) {
        uops.extend(std::iter::repeat_n(uop, (chunks - 1) as usize));
    }
}

/// The µops of `desc`: one entry per µop with its allowed ports; µops the data lists without
/// ports (or beyond the port groups) need none; at least one µop per instruction.
pub fn uop_masks(desc: &InstrDesc) -> Vec<PortMask> {
    let mut uops: Vec<PortMask> = desc
        .port_groups
        .iter()
        .flat_map(|g| std::iter::repeat_n(g.ports, g.count as usize))
        .collect();
    let listed = uops.len() as u32;
    if desc.uops > listed {
        uops.extend(std::iter::repeat_n(
            PortMask::EMPTY,
            (desc.uops - listed) as usize,
        ));
    }
    if uops.is_empty() {
        uops.push(PortMask::EMPTY);
    }
    uops
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode_bytes;

    /// Redwood Cove's 256-bit writes: a 32-byte load into a ymm register writes once, a ymm
    /// load-op twice (the loaded value and the result), a ymm operation once; xmm
    /// operations, stores and other arches none.
    #[test]
    fn ymm_loads_and_results_are_vector_writes_on_redwood_cove() {
        let mtl = crate::uarch::load("MTL-P").unwrap();
        let m = |names: &[&str]| mtl.mask_of_names(names).unwrap();
        let (alu, load, store) = (m(&["0", "1", "5"]), m(&["2", "3", "10"]), m(&["4", "9"]));
        let writes = |hex: &str, uops: &[PortMask], arch: &MicroArch| {
            let i = decode_bytes(&crate::input::parse_hex(hex).unwrap(), 0).unwrap();
            vector_writes(&i[0], arch, uops)
        };
        assert_eq!(writes("c5fe6f07", &[load], &mtl), 1, "vmovdqu ymm0, [rdi]");
        assert_eq!(
            writes("c5f5fe07", &[alu, load], &mtl),
            2,
            "vpaddd ymm0, ymm1, [rdi]"
        );
        assert_eq!(
            writes("c5f5fec2", &[alu], &mtl),
            1,
            "vpaddd ymm0, ymm1, ymm2"
        );
        assert_eq!(
            writes("c5f1fec2", &[alu], &mtl),
            0,
            "vpaddd xmm0, xmm1, xmm2"
        );
        assert_eq!(writes("c5fe7f07", &[store], &mtl), 0, "vmovdqu [rdi], ymm0");
        let adl = crate::uarch::load("ADL-P").unwrap();
        assert_eq!(
            writes("c5f5fe07", &[alu, load], &adl),
            0,
            "not measured on Golden Cove"
        );
    }

    #[test]
    fn taken_back_branches_run_on_port_6_from_haswell_to_skylake() {
        let p = |list: &[usize]| {
            list.iter()
                .fold(PortMask::EMPTY, |m, &i| m.union(PortMask::single(i)))
        };
        for (arch, expected) in [("HSW", p(&[6])), ("SKL", p(&[6])), ("KBL", p(&[6]))] {
            let a = crate::uarch::load(arch).expect(arch);
            // `jnz` as uops.info lists it (p06), and a fused `cmp; jnz` that took its ports.
            let mut uops = vec![p(&[0, 6])];
            taken_branch(&a, &mut uops);
            assert_eq!(uops, vec![expected], "{arch}");
        }
        // Sandy Bridge runs branches on port 5 only, Ice Lake on p06 either way: unchanged.
        for (arch, mask) in [("SNB", p(&[5])), ("ICL", p(&[0, 6]))] {
            let a = crate::uarch::load(arch).expect(arch);
            let mut uops = vec![mask];
            taken_branch(&a, &mut uops);
            assert_eq!(uops, vec![mask], "{arch}");
        }
    }

    #[test]
    fn zen_vector_loads_take_a_vector_load_port_per_32_bytes() {
        let zen4 = crate::uarch::load("ZEN4").expect("ZEN4");
        let skl = crate::uarch::load("SKL").expect("SKL");
        let lv = zen4.ports_with_role(Role::VectorLoad);
        assert_eq!(lv.iter().count(), 2);
        let with = |code: &[u8], arch: &MicroArch| {
            let instrs = decode_bytes(code, 0).expect("decodes");
            let mut uops = Vec::new();
            vector_load(&instrs[0], arch, &mut uops);
            let extra = chunks(&instrs[0], arch, &uops).unwrap_or_default();
            (uops, extra)
        };
        // vmovups zmm0, [rsi]: one µop and one extra 32-byte chunk on LV0/LV1.
        let (uops, extra) = with(&[0x62, 0xf1, 0x7c, 0x48, 0x10, 0x06], &zen4);
        assert_eq!((uops, extra), (vec![lv], vec![lv]));
        // vmovups ymm0, [rsi]: one µop, no chunk.
        let (uops, extra) = with(&[0xc5, 0xfc, 0x10, 0x06], &zen4);
        assert_eq!((uops, extra), (vec![lv], vec![]));
        // mov rax, [rbx]: an integer load takes none.
        assert_eq!(with(&[0x48, 0x8b, 0x03], &zen4).0, vec![]);
        // vpgatherdd ymm0, [rax+ymm1*4], ymm2: a gather's loads are in its own data.
        assert_eq!(with(&[0xc4, 0xe2, 0x6d, 0x90, 0x04, 0x88], &zen4).0, vec![]);
        // Intel has no vector-load ports.
        assert_eq!(with(&[0xc5, 0xfc, 0x10, 0x06], &skl).0, vec![]);
    }

    #[test]
    fn zen_stores_take_a_store_data_port_intel_stores_keep_theirs() {
        let zen4 = crate::uarch::load("ZEN4").expect("ZEN4");
        let skl = crate::uarch::load("SKL").expect("SKL");
        // mov [r15+0x20], rax; push rax; mov rax, [rbx]
        let code = [0x49, 0x89, 0x47, 0x20, 0x50, 0x48, 0x8b, 0x03];
        let instrs = decode_bytes(&code, 0).expect("decodes");
        let agu = zen4.ports_with_role(Role::Load);
        let st = zen4.ports_with_role(Role::StoreData);
        assert_eq!(zen4.port_names(st), ["ST0", "ST1"]);
        for i in &instrs[..2] {
            let mut uops = vec![agu];
            store_data(i, &zen4, &mut uops);
            assert_eq!(uops, vec![agu, st], "{}", i.iced);
        }
        let mut load = vec![agu];
        store_data(&instrs[2], &zen4, &mut load);
        assert_eq!(load, vec![agu]);
        let p4 = skl.ports_with_role(Role::StoreData);
        let p237 = skl.ports_with_role(Role::StoreAddress);
        let mut skl_store = vec![p237, p4];
        store_data(&instrs[0], &skl, &mut skl_store);
        assert_eq!(skl_store, vec![p237, p4]);
    }

    #[test]
    fn a_256_bit_load_holds_a_sandy_bridge_load_port_two_cycles() {
        let snb = crate::uarch::load("SNB").expect("SNB");
        let skl = crate::uarch::load("SKL").expect("SKL");
        // vmovups ymm0, [rax]; vmovups [rax], ymm0; movups xmm0, [rax]
        let code = [
            0xc5, 0xfc, 0x10, 0x00, 0xc5, 0xfc, 0x11, 0x00, 0x0f, 0x10, 0x00,
        ];
        let instrs = decode_bytes(&code, 0).expect("decodes");
        let p23 = snb.ports_with_role(Role::Load);
        let p4 = snb.ports_with_role(Role::StoreData);
        let mut load = vec![p23];
        widen(&instrs[0], &snb, &mut load);
        assert_eq!(load, vec![p23, p23]);
        let mut store = vec![p23, p4];
        widen(&instrs[1], &snb, &mut store);
        assert_eq!(store, vec![p23, p4, p4]);
        let mut narrow = vec![p23];
        widen(&instrs[2], &snb, &mut narrow);
        assert_eq!(narrow, vec![p23]);
        let mut skl_load = vec![skl.ports_with_role(Role::Load)];
        widen(&instrs[0], &skl, &mut skl_load);
        assert_eq!(skl_load.len(), 1, "32-byte paths on Skylake");
    }
}
