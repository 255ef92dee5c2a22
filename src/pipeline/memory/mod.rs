//! The memory unit: addresses as values ([`address`]), the store→load dependencies and
//! forwarding they decide ([`dependencies`]), store commits ([`store_commit`]) and the
//! values a measurement harness gives the registers ([`harness`]), L1 bank conflicts
//! ([`banks`]), loads across a line ([`line_splits`]).

pub mod address;
#[cfg(test)]
mod address_tests;
pub mod banks;
pub mod dependencies;
pub mod harness;
pub mod line_splits;
pub mod store_commit;

/// The instructions of the code `hex`, every position of them as the path, and their
/// addresses (for the tests of the memory rules).
#[cfg(test)]
pub(crate) fn decoded(hex: &str) -> (Vec<crate::ir::Instr>, Vec<usize>, address::AddressMap) {
    let bytes = crate::input::parse_hex(hex).unwrap();
    let instrs = crate::decode::decode_bytes(&bytes, 0).unwrap();
    let path: Vec<usize> = (0..instrs.len()).collect();
    let refs: Vec<&crate::ir::Instr> = instrs.iter().collect();
    let map = address::AddressMap::build(&refs);
    (instrs, path, map)
}
