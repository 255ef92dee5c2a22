//! Address-value tests on real instructions (assembled with iced-x86), each dependency
//! derived by hand from the addresses the code computes.

use iced_x86::code_asm::*;

use super::address::{AddressMap, Relation, Steady};
use super::dependencies::{edges, MemEdge, UnknownPolicy};
use super::harness::Harness;
use crate::decode::decode_bytes;
use crate::ir::Instr;

/// The instructions `f` assembles, decoded at 0x1000.
pub(super) fn code(f: impl FnOnce(&mut CodeAssembler) -> Result<(), IcedError>) -> Vec<Instr> {
    let mut a = CodeAssembler::new(64).expect("64-bit assembler");
    f(&mut a).expect("assembles");
    let bytes = a.assemble(0x1000).expect("encodes");
    decode_bytes(&bytes, 0x1000).expect("decodes")
}

fn deps(instrs: &[Instr], looped: bool, policy: UnknownPolicy) -> Vec<MemEdge> {
    deps_in(instrs, looped, policy, None)
}

/// [`deps`] with a harness's values.
fn deps_in(
    instrs: &[Instr],
    looped: bool,
    policy: UnknownPolicy,
    harness: Option<Harness>,
) -> Vec<MemEdge> {
    let path: Vec<&Instr> = instrs.iter().collect();
    edges(&path, &AddressMap::build_in(&path, harness), looped, policy)
}

/// (store line, load line, distance, delta) of every edge.
fn pairs(instrs: &[Instr], looped: bool) -> Vec<(usize, usize, u32, i64)> {
    pairs_in(instrs, looped, None)
}

/// [`pairs`] with a harness's values.
fn pairs_in(
    instrs: &[Instr],
    looped: bool,
    harness: Option<Harness>,
) -> Vec<(usize, usize, u32, i64)> {
    deps_in(instrs, looped, UnknownPolicy::SameName, harness)
        .iter()
        .map(|e| (e.store, e.load, e.distance, e.delta))
        .collect()
}

#[test]
fn a_moved_base_still_names_the_stored_location() {
    // mov [rax], rbx; add rax, 8; mov rcx, [rax-8]: the load reads what the store wrote.
    let p = code(|a| {
        a.mov(qword_ptr(rax), rbx)?;
        a.add(rax, 8)?;
        a.mov(rcx, qword_ptr(rax - 8))
    });
    let e = deps(&p, false, UnknownPolicy::SameName);
    assert_eq!(e.len(), 1);
    assert_eq!(
        (e[0].store, e[0].load, e[0].distance, e[0].delta),
        (0, 2, 0, 0)
    );
    assert!(e[0].proven && !e[0].partial);
    // rax was written between them: renaming (register + displacement) cannot pair them.
    assert!(!e[0].same_registers);
}

#[test]
fn a_moving_read_modify_write_has_no_loop_carried_dependency() {
    // gcc -O2 a[i]++: add dword [rdi+rax*4], 1; add rax, 1. Iteration k later the address
    // is 4k bytes further: never the same 4 bytes.
    let p = code(|a| {
        a.add(dword_ptr(rdi + rax * 4), 1)?;
        a.add(rax, 1)?;
        a.cmp(rax, rsi)
    });
    assert_eq!(pairs(&p, true), vec![]);
    // Pointer form: add dword [rdi], 1; add rdi, 4.
    let p = code(|a| {
        a.add(dword_ptr(rdi), 1)?;
        a.add(rdi, 4)
    });
    assert_eq!(pairs(&p, true), vec![]);
}

#[test]
fn a_fixed_read_modify_write_depends_on_the_previous_iteration() {
    let p = code(|a| {
        a.add(dword_ptr(rdi), 1)?;
        a.add(rax, 1)
    });
    assert_eq!(pairs(&p, true), vec![(0, 0, 1, 0)]);
    assert_eq!(pairs(&p, false), vec![]);
}

#[test]
fn a_store_read_back_four_iterations_later() {
    // b[i] = x; y = b[i-4]; i++: the load of iteration i+4 reads the store of iteration i.
    let p = code(|a| {
        a.mov(qword_ptr(rdi + rax * 8), rcx)?;
        a.mov(rdx, qword_ptr(rdi + rax * 8 - 32))?;
        a.inc(rax)
    });
    assert_eq!(pairs(&p, true), vec![(0, 1, 4, 0)]);
}

#[test]
fn a_downward_stride_meets_the_store_from_the_other_side() {
    // Walking down 8 bytes an iteration, loading 16 bytes above: iteration i+2 reads it.
    let p = code(|a| {
        a.mov(rdx, qword_ptr(rsi + 16))?;
        a.mov(qword_ptr(rsi), rcx)?;
        a.sub(rsi, 8)
    });
    assert_eq!(pairs(&p, true), vec![(1, 0, 2, 0)]);
}

#[test]
fn partial_overlap_counts_and_is_marked() {
    // A 4-byte store read back by an 8-byte load: the load needs bytes the store did not
    // write, so forwarding cannot serve it, but the dependency is real.
    let p = code(|a| {
        a.mov(dword_ptr(rax + 4), ecx)?;
        a.mov(rdx, qword_ptr(rax))
    });
    let e = deps(&p, false, UnknownPolicy::SameName);
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].delta, -4);
    assert!(e[0].partial);
    // Disjoint bytes next to each other: no dependency.
    let p = code(|a| {
        a.mov(dword_ptr(rax), ecx)?;
        a.mov(edx, dword_ptr(rax + 4))
    });
    assert_eq!(pairs(&p, false), vec![]);
}

#[test]
fn unrolled_copies_that_bump_their_base_do_not_alias() {
    // BHive-style block: the load of the next copy is 16 bytes further on.
    let p = code(|a| {
        a.mov(rdx, qword_ptr(rcx))?;
        a.mov(qword_ptr(rcx), rax)?;
        a.add(rcx, 16)
    });
    assert_eq!(pairs(&p, true), vec![]);
}

#[test]
fn unknown_provenance_follows_the_policy() {
    // The pointer is loaded: its value is unknown. Same name: assumed the same location.
    let p = code(|a| {
        a.mov(qword_ptr(rax), rcx)?;
        a.mov(rax, qword_ptr(rbx))?;
        a.mov(rdx, qword_ptr(rax))
    });
    let same = deps(&p, false, UnknownPolicy::SameName);
    let load_of_rax = same.iter().find(|e| e.load == 2).expect("name match");
    assert!(!load_of_rax.proven);
    let none = deps(&p, false, UnknownPolicy::NoAlias);
    assert!(none.iter().all(|e| e.load != 2), "{none:?}");
}

#[test]
fn lea_copies_and_scales_fold_into_the_address() {
    // lea rdx, [rax+8]; mov [rdx], rcx; mov rsi, [rax+8]: same location via two registers.
    let p = code(|a| {
        a.lea(rdx, qword_ptr(rax + 8))?;
        a.mov(qword_ptr(rdx), rcx)?;
        a.mov(rsi, qword_ptr(rax + 8))
    });
    assert_eq!(pairs(&p, false), vec![(1, 2, 0, 0)]);
    // shl rbx, 3 then [rdi+rbx] against [rdi+rcx*8] with rcx = rbx before the shift.
    let p = code(|a| {
        a.mov(rcx, rbx)?;
        a.shl(rbx, 3)?;
        a.mov(qword_ptr(rdi + rbx), rax)?;
        a.mov(rdx, qword_ptr(rdi + rcx * 8))
    });
    assert_eq!(pairs(&p, false), vec![(2, 3, 0, 0)]);
}

#[test]
fn push_and_pop_pair_through_the_stack_pointer() {
    let p = code(|a| {
        a.push(rax)?;
        a.push(rbx)?;
        a.pop(rcx)?;
        a.pop(rdx)
    });
    assert_eq!(pairs(&p, false), vec![(1, 2, 0, 0), (0, 3, 0, 0)]);
}

#[test]
fn strides_and_relations_of_the_map() {
    let p = code(|a| {
        a.add(rax, 32)?;
        a.mov(rbx, qword_ptr(rcx))?;
        a.dec(rdx)
    });
    let path: Vec<&Instr> = p.iter().collect();
    let map = AddressMap::build(&path);
    assert_eq!(map.stride(iced_x86::Register::RAX), Some(32));
    assert_eq!(map.stride(iced_x86::Register::EDX), Some(-1));
    assert_eq!(map.stride(iced_x86::Register::RBX), None);
    assert_eq!(map.stride(iced_x86::Register::RSI), Some(0));
    assert_eq!(
        map.relate((1, 0, 8), (1, 0, 8), 4),
        Relation::Overlap {
            distance: 1,
            delta: 0,
            pages_apart: 0
        }
    );
}

/// [`pairs`] of unrolled copies under BHive's harness.
fn bhive_pairs(instrs: &[Instr]) -> Vec<(usize, usize, u32, i64)> {
    pairs_in(instrs, true, Some(Harness::Bhive))
}

#[test]
fn bhive_registers_hold_one_value() {
    // BHive's skl_000461: mov edx, [rbx+16]; cmp edx, 64; mov [rax+16], edx. rax = rbx
    // there, so the next copy's load reads this copy's store.
    let p = code(|a| {
        a.mov(edx, dword_ptr(rbx + 16))?;
        a.cmp(edx, 64)?;
        a.mov(dword_ptr(rax + 16), edx)
    });
    assert_eq!(bhive_pairs(&p), vec![(2, 0, 1, 0)]);
    assert!(pairs(&p, true).is_empty(), "the names differ");
}

#[test]
fn a_pointer_loaded_from_the_bhive_page_is_its_value() {
    // mov rcx, [rdi]; mov [rcx+8], eax; mov edx, [rsi+8]: the page holds 0x2324000 in
    // every quadword, so rcx = rsi and the load reads the store of the same copy.
    let p = code(|a| {
        a.mov(rcx, qword_ptr(rdi))?;
        a.mov(dword_ptr(rcx + 8), eax)?;
        a.mov(edx, dword_ptr(rsi + 8))
    });
    assert_eq!(bhive_pairs(&p), vec![(1, 2, 0, 0)]);
    // The upper half of that quadword is 0: [rcx+8] is address 8.
    let q = code(|a| {
        a.mov(ecx, dword_ptr(rdi + 4))?;
        a.mov(dword_ptr(rcx + 8), eax)
    });
    let path: Vec<&Instr> = q.iter().collect();
    let map = AddressMap::build_in(&path, Some(Harness::Bhive));
    assert_eq!(map.steady(1, 0), Some(Steady { at: 8, step: 0 }));
    assert_eq!(
        map.steady(0, 0),
        Some(Steady {
            at: 0x2324004,
            step: 0
        })
    );
}

#[test]
fn bhive_pages_are_one_page() {
    // Every page maps to one physical page: [rbx+4096] is the location [rax] names.
    let p = code(|a| {
        a.mov(dword_ptr(rax), ecx)?;
        a.mov(edx, dword_ptr(rbx + 0x1000))
    });
    assert_eq!(bhive_pairs(&p), vec![(0, 1, 0, 0)]);
    // A store that moves 8 bytes a copy passes a fixed load once, in the start-up: no
    // dependency in the steady state.
    let q = code(|a| {
        a.mov(dword_ptr(rax), ecx)?;
        a.add(rax, 8)?;
        a.mov(edx, dword_ptr(rbx))
    });
    assert!(bhive_pairs(&q).is_empty());
    // rsp and rbp sit in the middle of the page, 16 bytes apart.
    let r = code(|a| {
        a.mov(qword_ptr(rsp - 16), rcx)?;
        a.mov(rdx, qword_ptr(rbp))
    });
    assert_eq!(bhive_pairs(&r), vec![(0, 1, 0, 0)]);
}

#[test]
fn the_profilers_windows_keep_registers_apart_and_loaded_pointers_together() {
    // suaca profile's buffer holds one pointer in every quadword: rcx = rdx below, so
    // [rdx+8] reads what [rcx+8] stored; the names alone do not say so.
    let p = code(|a| {
        a.mov(rcx, qword_ptr(rdi))?;
        a.mov(dword_ptr(rcx + 8), eax)?;
        a.mov(rdx, qword_ptr(rsi))?;
        a.mov(ebx, dword_ptr(rdx + 8))
    });
    assert_eq!(
        pairs_in(&p, true, Some(Harness::Profile)),
        vec![(1, 3, 0, 0)]
    );
    assert!(pairs(&p, true).is_empty());
    // Each register has a window of its own (BHive's one value would alias these).
    let q = code(|a| {
        a.mov(dword_ptr(rax + 16), ecx)?;
        a.mov(edx, dword_ptr(rbx + 16))
    });
    assert!(pairs_in(&q, true, Some(Harness::Profile)).is_empty());
    assert_eq!(bhive_pairs(&q), vec![(0, 1, 0, 0)]);
}
