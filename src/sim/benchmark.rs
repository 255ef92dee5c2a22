//! The block of the simulation speed target (issue #4: 200 iterations of a 20-instruction
//! block): 1- and 2-µop instructions on SKL-like ports, a load chain, in-iteration chains and
//! a loop-carried counter, like a compiled inner loop. Shared by `benches/simulate.rs`,
//! `examples/sim_speed.rs` and the engine's equivalence tests.

use super::{SimInput, SimInstr, SimMachine, SimProgram};
use crate::uarch::PortMask;

/// The 20-instruction benchmark block.
pub fn block() -> SimProgram {
    let alu = PortMask(0b0110_0011); // p0156
    let load = PortMask(0b0000_1100); // p23
    let vec = PortMask(0b0000_0011); // p01
    let instrs = (0..20u32)
        .map(|i| {
            let (uops, latency) = match i % 5 {
                0 => (vec![load], 5),
                1 => (vec![vec, load], 9),
                2 => (vec![alu], 1),
                3 => (vec![vec], 4),
                _ => (vec![alu, PortMask(0b0001_0000)], 1),
            };
            let mut inputs = Vec::new();
            if i > 0 && i % 5 != 0 {
                inputs.push(SimInput {
                    producer: i - 1,
                    distance: 0,
                    offset: 1,
                });
            }
            if i % 7 == 0 {
                inputs.push(SimInput {
                    producer: i,
                    distance: 1,
                    offset: 1,
                });
            }
            SimInstr {
                slots: None,
                late_on: PortMask::EMPTY,
                line: i,
                uops,
                latency,
                div_cycles: 0,
                inputs,
            }
        })
        .collect();
    SimProgram {
        frontend: None,
        ports: Default::default(),
        whole_dispatch: false,
        port_sharing: crate::sim::PortSharing::Any,
        move_slots: None,
        instrs,
    }
}

/// A Skylake-like machine: 4 wide, 97-entry scheduler, 8 ports, divider on port 0.
pub fn machine() -> SimMachine {
    SimMachine {
        issue_width: 4,
        scheduler_size: 97,
        port_count: 8,
        divider_port: Some(0),
        fp_divider_port: None,
    }
}
