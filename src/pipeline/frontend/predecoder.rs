//! The predecoder (instruction length decoder): one aligned fetch block at a time, at most
//! `predecode_width` instructions per cycle; the next block starts in a new cycle. An
//! instruction that crosses into the next block is marked with that block, and where it is
//! all that is left of its block, it takes a cycle of its own — unless only its last byte
//! lies in the next block: such an instruction is marked with its own block
//! (`Item::tail`). A length-changing prefix stalls it.
//!
//! Why: 3-byte moves unrolled (`mov rdi, rbp; mov rdx, rbx; mov rsi, r14`) measure 0.31
//! cycles an instruction on Ivy Bridge, Haswell and Skylake (BHive), 5 cycles per 16
//! instructions = 3 blocks: of the two instructions that cross in those 48 bytes, the one
//! with two bytes in the next block costs a cycle, the one with its last byte there does not
//! (6 cycles if both cost, 4 if neither). Blocks of 14 bytes and 4 instructions (crossings by
//! 2 and 3 bytes where a cycle ends and by 1 byte within one) measure at the decoders' 4 a
//! cycle as this rule predicts, where carrying every crossing gave 1.12 cycles a copy.

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
            // The block it ends in; one whose last byte alone lies in the next block is
            // predecoded with its own (`Item::tail`).
            let last = (inst.address + u64::from(inst.item.len - inst.item.tail) - 1) / bytes;
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
                // Crosses into the next block, where it is marked, in a cycle of its own
                // when it is all that is left of its block.
                self.block = Some(last);
                break;
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
