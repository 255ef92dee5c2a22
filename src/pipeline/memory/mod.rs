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
