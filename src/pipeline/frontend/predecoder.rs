//! The predecoder (instruction length decoder): one aligned fetch block at a time, at most
//! `predecode_width` instructions per cycle; the next block starts in a new cycle. An
//! instruction that crosses into the next block is marked with that block. Where it is all
//! that is left of its block, Sandy Bridge to Broadwell spend a cycle on it before moving on
//! (`predecode_carry_cycle`), later cores move on at once. A length-changing prefix stalls it.
//!
//! Why the carry cycle: dense 3-byte code (5 whole instructions and one crossing per block)
//! measures about two cycles per 16-byte block on Haswell (BHive: `cmp bl, 56` unrolled takes
//! 0.37 cycles, 6 cycles per 16 copies = 3 blocks), and 3-byte code about 0.27 on Skylake.

use std::collections::VecDeque;

use super::{Params, Queued, Stream};

/// The predecoder's position in the instruction stream.
#[derive(Default)]
pub(super) struct Predecoder {
    /// The next instance to mark.
    next: u64,
    /// The block being predecoded (its index: address / block bytes).
    block: Option<u64>,
    /// Cycles left of a length-changing-prefix stall.
    stall: u32,
}

impl Predecoder {
    /// One cycle: marks instructions of the current block into the IQ.
    pub(super) fn cycle(
        &mut self,
        cycle: u64,
        stream: &Stream,
        iq: &mut VecDeque<Queued>,
        p: &Params,
    ) {
        if self.stall > 0 {
            self.stall -= 1;
            return;
        }
        let bytes = u64::from(p.block_bytes);
        let mut slots = p.predecode_width;
        while slots > 0 {
            let inst = stream.get(self.next);
            let first = inst.address / bytes;
            let last = (inst.address + u64::from(inst.item.len) - 1) / bytes;
            let block = *self.block.get_or_insert(first);
            let fresh = slots == p.predecode_width;
            if first > block {
                // The current block is done: the next one starts now if this cycle did
                // nothing yet, else next cycle.
                self.block = Some(first);
                if !fresh {
                    break;
                }
            } else if last > block {
                // Crosses into the next block, where it is marked.
                self.block = Some(last);
                if !fresh || p.predecode_carry_cycle {
                    break;
                }
            }
            if iq.len() >= p.iq_entries as usize {
                break; // the IQ is full: wait
            }
            iq.push_back(Queued {
                inst,
                ready: cycle + u64::from(p.decode_delay),
            });
            self.next += 1;
            slots -= 1;
            if inst.item.lcp && p.lcp_penalty > 0 {
                // The penalty counts the marking cycle (BHive: a block of one LCP
                // instruction measures 3.3 cycles per copy on Skylake).
                self.stall = p.lcp_penalty - 1;
                break;
            }
        }
    }
}
