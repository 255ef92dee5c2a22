//! The checksum of the index cache: damage detection and directory naming, not security.

/// A 64-bit checksum over 8-byte words: each step is a bijection of the state, so any single
/// changed word changes the result. Not cryptographic, only for damage detection and naming.
pub(crate) fn checksum(data: &[u8]) -> u64 {
    let mut sum = Checksum::new(data.len() as u64);
    sum.update(data);
    sum.finish()
}

/// [`checksum`] computed piecewise: the total length must be known up front.
pub(crate) struct Checksum {
    h: u64,
    pending: [u8; 8],
    filled: usize,
}

const CHECKSUM_PRIME: u64 = 0x0000_0100_0000_01b3;

impl Checksum {
    pub fn new(total_len: u64) -> Checksum {
        Checksum {
            h: 0xcbf2_9ce4_8422_2325 ^ total_len,
            pending: [0; 8],
            filled: 0,
        }
    }

    fn word(&mut self, w: [u8; 8]) {
        self.h = (self.h ^ u64::from_le_bytes(w))
            .wrapping_mul(CHECKSUM_PRIME)
            .rotate_left(29);
    }

    pub fn update(&mut self, mut data: &[u8]) {
        if self.filled > 0 {
            let take = (8 - self.filled).min(data.len());
            self.pending[self.filled..self.filled + take].copy_from_slice(&data[..take]);
            self.filled += take;
            data = &data[take..];
            if self.filled < 8 {
                return;
            }
            self.word(self.pending);
            self.filled = 0;
        }
        let mut chunks = data.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.word(w);
        }
        let rest = chunks.remainder();
        self.pending[..rest.len()].copy_from_slice(rest);
        self.filled = rest.len();
    }

    pub fn finish(self) -> u64 {
        let mut h = self.h;
        for &b in &self.pending[..self.filled] {
            h = (h ^ u64::from(b)).wrapping_mul(CHECKSUM_PRIME);
        }
        h ^ (h >> 31)
    }
}

/// Sections are checksummed by writing them here first (same bytes, no copy kept).
impl std::io::Write for Checksum {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.update(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piecewise_checksum_equals_the_whole() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 + i / 13) as u8).collect();
        let whole = checksum(&data);
        for split in [
            &[0usize][..],
            &[1],
            &[3, 5],
            &[7, 8, 9],
            &[8, 16, 17],
            &[500, 999],
        ] {
            let mut sum = Checksum::new(data.len() as u64);
            let mut at = 0;
            for &s in split {
                sum.update(&data[at..s]);
                at = s;
            }
            sum.update(&data[at..]);
            assert_eq!(sum.finish(), whole, "split at {split:?}");
        }
        assert_ne!(checksum(&data[..999]), whole);
    }
}
