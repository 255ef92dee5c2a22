//! A marked region: the raw bytes that will be decoded, with where they came from.

/// Bytes between an IACA start and end marker (or a whole raw/hex input).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// 0-based index in file order (regions are numbered in the order their start markers occur).
    pub index: usize,
    /// Name of the section holding the region (`.text`, `__text`, `<raw>`, `<hex>`).
    pub section: String,
    /// Virtual address of the first byte (section address + offset; 0 for raw/hex input).
    pub address: u64,
    /// The region's bytes, markers excluded.
    pub bytes: Vec<u8>,
    /// The symbol enclosing the region, when the file has one.
    pub symbol: Option<String>,
}

impl Region {
    /// One-past-the-end address.
    pub fn end_address(&self) -> u64 {
        self.address + self.bytes.len() as u64
    }
}
