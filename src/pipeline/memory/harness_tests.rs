//! Pages a harness's timed run newly enters, counted by hand from BHive's starting values
//! (rsp = 0x2324800).

use iced_x86::code_asm::*;

use super::{pages_entered_per_copy, Harness, BHIVE_COPIES};
use crate::ir::Instr;
use crate::pipeline::memory::address::AddressMap;
use crate::pipeline::memory::address_tests::code;

fn pages(instrs: &[Instr], harness: Option<Harness>) -> f64 {
    let path: Vec<&Instr> = instrs.iter().collect();
    pages_entered_per_copy(&AddressMap::build_in(&path, harness), &path, BHIVE_COPIES)
}

#[test]
fn a_stack_moving_a_page_a_copy_enters_one_each_copy() {
    // add rsp, 4088; pop rax: copy i pops [0x2324800 + 4088 + 4096·i], 8 bytes inside one
    // page, a new page every copy: copies 100–199 enter 100 pages.
    let p = code(|a| {
        a.add(rsp, 4088)?;
        a.pop(rax)
    });
    assert_eq!(pages(&p, Some(Harness::Bhive)), 1.0);
}

#[test]
fn a_stack_moving_half_a_page_enters_one_every_other_copy() {
    // sub rsp, 2040; push rax: copy i pushes to 0x2324000 − 2048·i, so copies 2k−1 and 2k
    // share a page: copies 0–99 touch 51 pages, copies 100–199 fifty more.
    let p = code(|a| {
        a.sub(rsp, 2040)?;
        a.push(rax)
    });
    assert_eq!(pages(&p, Some(Harness::Bhive)), 0.5);
}

#[test]
fn an_access_straddling_a_page_boundary_counts_both_pages() {
    // add rsp, 8192; mov rax, [rsp+0x7fc]: 8 bytes from 0x2326ffc + 8192·i, the last four
    // in the next page: two pages a copy, none shared with another copy.
    let p = code(|a| {
        a.add(rsp, 8192)?;
        a.mov(rax, qword_ptr(rsp + 0x7fc))
    });
    assert_eq!(pages(&p, Some(Harness::Bhive)), 2.0);
}

#[test]
fn fixed_addresses_and_address_generation_enter_no_page() {
    // A load from a register the block does not step, and an `lea` of a stepped one (no
    // access).
    let p = code(|a| {
        a.mov(rax, qword_ptr(rbx + 8))?;
        a.add(rcx, 4096)?;
        a.lea(rdx, qword_ptr(rcx + 8))
    });
    assert_eq!(pages(&p, Some(Harness::Bhive)), 0.0);
}

#[test]
fn without_a_harness_no_address_is_a_number() {
    let p = code(|a| {
        a.add(rsp, 4088)?;
        a.pop(rax)
    });
    assert_eq!(pages(&p, None), 0.0);
}

#[test]
fn only_bhive_has_a_page_cost() {
    assert_eq!(Harness::Bhive.page_entry_cycles(), Some(8.0));
    assert_eq!(Harness::Profile.page_entry_cycles(), None);
}
