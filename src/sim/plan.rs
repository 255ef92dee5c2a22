//! The program as the cycle loop reads it: per-instruction facts precomputed once per run,
//! flattened into a few contiguous arrays, so the hot loop never divides, multiplies or
//! follows a `Vec` of `Vec`s.
//!
//! Also validates the run's parameters (in the order callers have always seen the errors).

use super::engine::{SimError, MAX_UOPS_PER_INSTR};
use super::options::SimOptions;
use super::program::{MoveSlots, SimMachine, SimProgram};
use crate::uarch::PortMask;

/// `Op::div_uop` of an instruction that does not use the divider.
pub(crate) const NO_DIV: u32 = u32::MAX;

/// One program instruction, precomputed.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Op {
    /// The line events report.
    pub line: u32,
    /// µops the instruction occupies in the scheduler (at least 1: a µop without ports
    /// stands for instructions that use none).
    pub uops: u32,
    /// Bits `0..uops` set: the value of `assigned` once every µop has a port.
    pub all: u64,
    /// Its µops' port masks are `Plan::masks[first_mask..first_mask + uops]`.
    pub first_mask: u32,
    /// Cycles from start to completion (at least 1).
    pub latency: u32,
    /// The µop that occupies the divider, or [`NO_DIV`].
    pub div_uop: u32,
    /// Divider occupancy in cycles.
    pub div_cycles: u32,
    /// Its inputs are `Plan::inputs[inputs.0..inputs.1]`.
    pub inputs: (u32, u32),
    /// Issue slots (fused domain); equal to `uops` under SUACA's front end.
    pub slots: u32,
    /// The slots load in one cycle ([`super::SimProgram::whole_dispatch`], and they fit).
    pub whole: bool,
    /// Ports on which its results come a cycle late ([`super::SimInstr::late_on`]).
    pub late_on: u32,
}

impl Op {
    /// µops in the scheduler once `slots` of the instruction's issue slots are loaded: one
    /// per slot, the rest with the last slot (a micro-fused slot brings both µops).
    #[inline]
    pub fn uops_at(&self, slots: u32) -> u32 {
        if slots >= self.slots {
            self.uops
        } else {
            slots.min(self.uops - 1)
        }
    }
}

/// One dependency edge, precomputed.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Input {
    /// The producer's instance id is the consumer's id minus `back`
    /// (`distance * n + index - producer`; negative only for malformed forward edges).
    pub back: i64,
    /// Iteration distance (the value is ready before iteration `distance`).
    pub distance: u32,
    /// Index of the producer in the program.
    pub producer: u32,
    /// Cycles after the producer's start at which the value is ready.
    pub offset: u32,
    /// Cycles after the producer's start before which the input cannot be ready: the
    /// offset, or the producer's latency if it completes (and may leave the window, which
    /// makes its value ready at once) earlier.
    pub earliest: u32,
}

/// The precomputed program and the machine limits of one run.
#[derive(Debug)]
pub(crate) struct Plan {
    pub ops: Vec<Op>,
    /// µop port masks of all instructions, back to back. A divider µop's mask is already
    /// narrowed to the divider port.
    pub masks: Vec<u32>,
    pub inputs: Vec<Input>,
    /// Scheduler capacity in µops (at least the biggest instruction).
    pub scheduler_size: u32,
    /// µops the front end loads per cycle.
    pub load_width: u32,
    /// The renamer's issue group (the machine's issue width, at most `load_width`): ports
    /// bound at issue see groups of this size even when a perfect front end (`-pf`) loads
    /// a whole scheduler in one cycle.
    pub group_width: u32,
    /// The largest latency (at least 1).
    pub max_latency: u32,
    /// Some instruction's results come late on some port ([`Op::late_on`]).
    pub late: bool,
    /// The largest iteration distance of an input.
    pub max_distance: u32,
    /// Ports that are ever compared with each other: the unions of overlapping µop masks.
    pub port_groups: Vec<u32>,
    /// The front end's delivery rate, unless the front end is perfect (`-pf`).
    pub delivery: Option<super::program::Delivery>,
    /// The program limits eliminated moves and has some ([`super::SimProgram::move_slots`]).
    pub move_slots: bool,
    /// Per instruction: the port mask of its µop when it is an eliminable move that executes
    /// (0 for other instructions).
    pub executed_masks: Vec<u32>,
}

impl Plan {
    /// The allowed ports of µop `u` of instruction `index` (`op`): an eliminable move that
    /// found no slot (`executed`) takes its executed form's.
    #[inline]
    pub(crate) fn uop_mask(&self, op: &Op, index: u32, u: u32, executed: bool) -> u32 {
        if executed {
            self.executed_masks[index as usize]
        } else {
            self.masks[(op.first_mask + u) as usize]
        }
    }

    pub(crate) fn new(
        program: &SimProgram,
        machine: &SimMachine,
        options: &SimOptions,
    ) -> Result<Plan, SimError> {
        if program.instrs.is_empty() {
            return Err(SimError::EmptyProgram);
        }
        if options.iterations == 0 || options.iterations > SimOptions::MAX_ITERATIONS {
            return Err(SimError::Iterations {
                given: options.iterations,
                max: SimOptions::MAX_ITERATIONS,
            });
        }
        if machine.issue_width == 0 || machine.scheduler_size == 0 {
            return Err(SimError::Machine(
                "issue width and scheduler size must be positive",
            ));
        }
        let n = program.instrs.len();
        // Eliminable moves only under limits; without them the program's µops say it all. The
        // slots belong to the in-order front end (the renamer): a perfect one has no limit, so
        // that `-pf` is never slower for them.
        let limits: Option<&MoveSlots> = program
            .move_slots
            .as_ref()
            .filter(|_| !options.what_if.perfect_frontend);
        let move_slots = limits.is_some_and(|m| m.renames.iter().any(|r| r.eliminable.is_some()));
        let executed_masks: Vec<u32> = (0..n)
            .map(|k| {
                limits
                    .filter(|_| move_slots)
                    .and_then(|m| m.renames.get(k))
                    .and_then(|r| r.eliminable)
                    .map_or(0, |e| e.executed.0)
            })
            .collect();
        let mut ops = Vec::with_capacity(n);
        let mut masks = Vec::new();
        let mut inputs = Vec::new();
        let mut max_latency = 1;
        for (index, ins) in program.instrs.iter().enumerate() {
            if ins.uops.len() > MAX_UOPS_PER_INSTR {
                return Err(SimError::TooManyUops {
                    line: ins.line,
                    uops: ins.uops.len(),
                    max: MAX_UOPS_PER_INSTR,
                });
            }
            let uops = ins.uops.len().max(1) as u32;
            let divider = match ins.div_cycles {
                c if c > 0 => machine.divider_of(&ins.uops),
                _ => None,
            };
            let div_uop = divider.map_or(NO_DIV, |(_, u)| u);
            let first_mask = masks.len() as u32;
            for u in 0..uops {
                let mask = ins.uops.get(u as usize).copied().unwrap_or_default();
                // The division itself runs on the divider's port only (thesis §3.6).
                let mask = match divider {
                    Some((dp, du)) if u == du && mask.contains(dp) => PortMask::single(dp),
                    _ => mask,
                };
                masks.push(mask.0);
            }
            let first_input = inputs.len() as u32;
            for input in &ins.inputs {
                let producer_latency = program
                    .instrs
                    .get(input.producer as usize)
                    .map_or(1, |p| p.latency.max(1));
                let back =
                    i64::from(input.distance) * n as i64 + index as i64 - i64::from(input.producer);
                inputs.push(Input {
                    back,
                    distance: input.distance,
                    producer: input.producer,
                    offset: input.offset,
                    earliest: input.offset.min(producer_latency),
                });
            }
            let latency = ins.latency.max(1);
            // A late result completes a cycle later.
            max_latency = max_latency.max(latency + u32::from(!ins.late_on.is_empty()));
            ops.push(Op {
                line: ins.line,
                uops,
                all: if uops >= 64 {
                    u64::MAX
                } else {
                    (1 << uops) - 1
                },
                first_mask,
                latency,
                div_uop,
                div_cycles: ins.div_cycles,
                inputs: (first_input, inputs.len() as u32),
                slots: ins.slots.unwrap_or(uops),
                whole: false,
                late_on: ins.late_on.0,
            });
        }
        if let Some(ins) = program
            .instrs
            .iter()
            .find(|i| i.inputs.iter().any(|x| x.producer as usize >= n))
        {
            return Err(SimError::UnknownProducer { line: ins.line });
        }
        // An executed move keeps its value until its slowest consumer may start.
        let from_move = |i: &&Input| {
            executed_masks
                .get(i.producer as usize)
                .is_some_and(|&m| m != 0)
        };
        for input in inputs.iter().filter(from_move) {
            let op = &mut ops[input.producer as usize];
            op.latency = op.latency.max(input.offset + 1);
            max_latency = max_latency.max(op.latency + u32::from(op.late_on != 0));
        }
        // An instruction bigger than the scheduler could never be loaded completely: let the
        // scheduler hold at least one whole instruction.
        let biggest = ops.iter().map(|o| o.uops).max().unwrap_or(1);
        let scheduler_size = machine.scheduler_size.max(biggest);
        let load_width = if options.what_if.perfect_frontend {
            scheduler_size
        } else {
            machine.issue_width
        };
        if program.whole_dispatch {
            for op in &mut ops {
                op.whole = op.slots > 1 && op.slots <= load_width;
            }
        }
        let late = ops.iter().any(|o| o.late_on != 0);
        let max_distance = inputs.iter().map(|i| i.distance).max().unwrap_or(0);
        let all_masks: Vec<u32> = masks.iter().chain(&executed_masks).copied().collect();
        let port_groups = port_groups(&all_masks);
        let delivery = program
            .frontend
            .filter(|d| d.per > 0 && !options.what_if.perfect_frontend);
        Ok(Plan {
            delivery,
            ops,
            masks,
            inputs,
            scheduler_size,
            load_width,
            group_width: machine.issue_width.min(load_width),
            max_latency,
            late,
            max_distance,
            port_groups,
            move_slots,
            executed_masks,
        })
    }
}

/// Merges overlapping masks until the groups are disjoint.
fn port_groups(masks: &[u32]) -> Vec<u32> {
    let mut groups: Vec<u32> = Vec::new();
    for &m in masks.iter().filter(|&&m| m != 0) {
        let mut merged = m;
        groups.retain(|&g| {
            let overlaps = g & merged != 0;
            if overlaps {
                merged |= g;
            }
            !overlaps
        });
        groups.push(merged);
    }
    // A merge can make an earlier group overlap a later one: repeat until stable.
    loop {
        let before = groups.len();
        let mut out: Vec<u32> = Vec::new();
        for g in groups {
            match out.iter_mut().find(|o| **o & g != 0) {
                Some(o) => *o |= g,
                None => out.push(g),
            }
        }
        groups = out;
        if groups.len() == before {
            return groups;
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn port_groups_join_overlapping_masks() {
        let mut g = super::port_groups(&[0b0011, 0b1000, 0b0110, 0, 0b1_0000_0000]);
        g.sort_unstable();
        assert_eq!(g, vec![0b0111, 0b1000, 0b1_0000_0000]);
    }
}
