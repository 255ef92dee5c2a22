//! The decoders and the microcode sequencer. In program order from the IQ head, per cycle:
//! decoder 0 takes any instruction, the others only simple ones (a complex instruction — more
//! than one µop, microcoded, or marked by the data — that is not first waits for the next
//! cycle; on decoder 0 it may leave fewer simple decoders working); together they emit at
//! most `mite_uops` µops.
//! A macro-fused pair takes one decoder and emits one µop's worth; it needs its Jcc in the IQ.
//! Before Skylake a macro-fusible instruction neither takes the last decoder nor is decoded
//! as the IQ's last instruction (its successor must be visible). A microcoded instruction
//! hands over to the MS, which streams its µops while the decoders wait.

use std::collections::VecDeque;

use super::{Instance, Params, Queued};

/// The decoders' state between cycles: the microcoded instruction the MS is streaming.
#[derive(Default)]
pub(super) struct Decoders {
    /// µops the MS still has to deliver, and for which instruction.
    ms: Option<(u32, Instance)>,
}

impl Decoders {
    /// One cycle; `delivered` is called for every instruction whose last µop left this cycle.
    pub(super) fn cycle(
        &mut self,
        cycle: u64,
        iq: &mut VecDeque<Queued>,
        p: &Params,
        mut delivered: impl FnMut(Instance),
    ) {
        if let Some((left, inst)) = self.ms {
            let left = left.saturating_sub(p.ms_uops);
            if left == 0 {
                delivered(inst);
                self.ms = None;
            } else {
                self.ms = Some((left, inst));
            }
            return;
        }
        let (mut used, mut uops) = (0, 0);
        // Decoders usable this cycle: fewer when decoder 0 took an instruction that leaves
        // only some simple decoders working.
        let mut decoders = p.decoders;
        while let Some(&q) = iq.front() {
            if q.ready > cycle || used == decoders {
                break;
            }
            let item = q.inst.item;
            let next_ready = iq.get(1).is_some_and(|n| n.ready <= cycle);
            if q.inst.fuses && !next_ready {
                break; // the pair's Jcc is not decodable yet
            }
            if item.fusible && !p.fusion_on_last_decoder && (used + 1 == p.decoders || !next_ready)
            {
                break;
            }
            if used > 0 && (item.complex || uops + item.uops > p.mite_uops) {
                break;
            }
            if used == 0 {
                if let Some(simple) = item.simple_decoders {
                    decoders = decoders.min(1 + simple);
                }
            }
            used += 1;
            uops += item.uops;
            iq.pop_front();
            let jcc = if q.inst.fuses { iq.pop_front() } else { None };
            if item.ms > 0 {
                // The MS delivers the rest; the pair's Jcc (none here) and the instruction
                // count as delivered when it is done.
                self.ms = Some((item.ms, q.inst));
                if let Some(j) = jcc {
                    delivered(j.inst);
                }
                break;
            }
            delivered(q.inst);
            if let Some(j) = jcc {
                delivered(j.inst);
            }
        }
    }
}
