//! The static input of the engine: one iteration's instructions with their µops, latencies
//! and dependency edges, and the machine parameters the engine uses.
//!
//! Built from decoded instructions, their data and the dependency graph by the analysis
//! (see `crate::analysis`); the engine knows nothing of registers or XML.

use crate::uarch::PortMask;

/// A dependency of an instruction on an earlier instruction (a read-after-write edge).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SimInput {
    /// Index (in [`SimProgram::instrs`]) of the producing instruction.
    pub producer: u32,
    /// Iteration distance: 0 = same iteration, 1 = previous iteration (loop-carried).
    pub distance: u32,
    /// The consumer may start this many cycles after the producer started (the producer's
    /// latency for the value, less the consumer's slack for that operand); may be 0.
    pub offset: u32,
}

/// One instruction of the simulated program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimInstr {
    /// The line (0-based position in the region) reports attribute the instruction to.
    pub line: u32,
    /// Allowed ports of each µop, in order; an empty mask means the µop needs no port.
    pub uops: Vec<PortMask>,
    /// Cycles from start of execution until the instruction is complete and leaves the
    /// scheduler (its maximum latency, at least 1).
    pub latency: u32,
    /// Divider occupancy in cycles (0 = does not use the divider).
    pub div_cycles: u32,
    /// Dependencies; several inputs may name the same producer.
    pub inputs: Vec<SimInput>,
    /// Issue slots in the fused domain (micro-fused µops count once, the Jcc of a
    /// macro-fused pair 0); `None`: one slot per µop, SUACA's front end.
    pub slots: Option<u32>,
    /// Ports on which the instruction's results come a cycle late: an instance that runs a
    /// µop on one of them gives every consumer its value one cycle after the input's offset
    /// and completes a cycle later (a vector result crossing between the FP units and the
    /// vector ALUs, docs/model.md "Vector bypass"). Empty: never. The engine notes the
    /// ports 0–15 an instance took: a later port never makes it late.
    pub late_on: PortMask,
}

/// How the µops of one instruction share ports within a cycle (default: `None`, as a
/// program built without the thesis' rule).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum PortSharing {
    /// Any port its instance took this cycle is free to its other µops (thesis §3.3: an
    /// instruction never blocks itself).
    Any,
    /// As `Any`, except that a µop allowed on one port only takes a cycle of it whoever
    /// holds it (`vblendvps ymm`'s two p5 µops on Haswell: two cycles; docs/model.md
    /// "Single-port µops"); a divider instruction's µops still share (its measured
    /// divider cycles time it).
    MultiPort,
    /// Each µop is a cycle of its port, as the port counts `suaca measure` fits are
    /// (docs/model.md "Port cycles per µop").
    #[default]
    None,
}

/// One iteration of the simulated program, repeated [`crate::sim::SimOptions::iterations`]
/// times.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SimProgram {
    /// Instructions in execution order.
    pub instrs: Vec<SimInstr>,
    /// The rate at which the front end delivers iterations; `None`: only the issue width
    /// limits loading (SUACA).
    pub frontend: Option<Delivery>,
    /// When µops get their ports: at dispatch (SUACA) or at issue.
    pub ports: PortAssignment,
    /// Each instruction's issue slots load in one cycle when they fit in the issue width: a
    /// two-slot instruction that finds one slot left waits for the next cycle (Zen 4,
    /// docs/model.md "Whole-instruction dispatch"). Off: slots split across cycles.
    pub whole_dispatch: bool,
    /// Whether the µops of one instruction may take the same port in one cycle.
    pub port_sharing: PortSharing,
    /// Register moves eliminated at rename only while the renamer has a free slot
    /// (docs/model.md, "Move elimination limits"); `None`: every eliminable move is
    /// eliminated, as its µops in [`SimProgram::instrs`] say.
    pub move_slots: Option<MoveSlots>,
}

/// The renamer's limit on eliminated moves: a move shares its source's physical register
/// only while that register holds a slot or a slot is free; otherwise it executes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveSlots {
    /// Slots for general-purpose moves (`None`: unlimited).
    pub gpr: Option<u32>,
    /// Slots for vector moves (`None`: unlimited).
    pub vector: Option<u32>,
    /// Cycles after the renaming that frees a slot before it serves again.
    pub release_cycles: u32,
    /// A slot frees once every register sharing it was written again (else all but one).
    pub all_aliases: bool,
    /// What renaming each instruction of [`SimProgram::instrs`] does, by position (missing
    /// entries: nothing).
    pub renames: Vec<Rename>,
}

/// What the renamer does for one instruction.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Rename {
    /// Bit `r`: the instruction writes register `r` (general-purpose 0–15, vector 16–47).
    pub writes: u64,
    /// The instruction is an eliminable move (its µops in the program are the eliminated
    /// form: one µop without port, latency 0 to its consumers).
    pub eliminable: Option<EliminableMove>,
}

/// A register move the renamer may eliminate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EliminableMove {
    /// Destination register (numbered as [`Rename::writes`]).
    pub dst: u8,
    /// Source register.
    pub src: u8,
    /// The ports of its µop when it executes; its consumers then wait one cycle more.
    pub executed: PortMask,
}

impl EliminableMove {
    /// Whether the move is a vector move (registers 16 and up).
    pub fn is_vector(&self) -> bool {
        self.dst >= 16
    }
}

/// When a µop allowed on several ports is bound to one of them.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum PortAssignment {
    /// When it dispatches, on the least used free port (thesis Algorithm 5).
    #[default]
    Dispatch,
    /// When it issues (docs/model.md, "Port assignment at issue"); it then waits for that
    /// port alone.
    Issue(IssueRule),
}

/// The parameters of port assignment at issue.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct IssueRule {
    /// A µop counts against its port until its instruction completes, not only until it
    /// dispatches (the "not yet executed" reading).
    pub until_complete: bool,
    /// µops allowed on exactly these two ports (the loads' p23) alternate between them
    /// instead of following the counts; 0: no such pair.
    pub alternate: u32,
    /// Nothing issues in a cycle whose scheduler has room for fewer µops than the issue
    /// width: a full scheduler takes whole groups, not the one or two µops that fit.
    pub whole_groups: bool,
}

/// The front end's delivery rate: an iteration may begin to load `cycles / per` cycles after
/// the previous one began, and the front end runs at most `ahead` cycles ahead of loading
/// (its instruction queue), so a stalled back end does not bank delivery time.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Delivery {
    /// Numerator of the cycles per iteration.
    pub cycles: u64,
    /// Denominator of the cycles per iteration (at least 1).
    pub per: u64,
    /// Cycles the front end may run ahead of loading.
    pub ahead: u64,
}

impl Delivery {
    /// Delivery of one iteration every `cycles` cycles (rounded to 1/240 cycle: exact for
    /// the rates of 16-byte predecoders, 4–6-wide decoders and µop caches).
    pub fn every(cycles: f64, ahead: u64) -> Option<Delivery> {
        let per = 240;
        let scaled = (cycles * per as f64).round();
        (scaled.is_finite() && scaled >= 1.0).then_some(Delivery {
            cycles: scaled as u64,
            per,
            ahead,
        })
    }

    /// Iterations after which the delivery times repeat (the denominator of `cycles / per`
    /// in lowest terms).
    pub fn period(&self) -> u64 {
        let per = self.per.max(1);
        per / num_integer::gcd(self.cycles, per)
    }
}

impl SimProgram {
    /// Total µops of one iteration.
    pub fn uops_per_iteration(&self) -> u64 {
        self.instrs.iter().map(|i| i.uops.len() as u64).sum()
    }
}

/// The machine parameters the engine uses (taken from `uarch::MicroArch`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimMachine {
    /// µops the front end loads per cycle (issue width).
    pub issue_width: u32,
    /// Scheduler (reservation station) capacity in µops.
    pub scheduler_size: u32,
    /// Number of ports (bits of [`PortMask`] in use).
    pub port_count: usize,
    /// The port hosting the divider pipe, if any (thesis §3.6: port 0 on Intel).
    pub divider_port: Option<usize>,
    /// The port hosting the FP/vector divider where it is another port (Zen: an FP pipe);
    /// a division with no µop on `divider_port` holds the divider through this one. One
    /// divider is modelled: integer and FP divisions wait for each other.
    pub fp_divider_port: Option<usize>,
}

impl SimMachine {
    /// The divider port a division with µop masks `uops` uses, and that µop's index.
    pub fn divider_of(&self, uops: &[crate::uarch::PortMask]) -> Option<(usize, u32)> {
        [self.divider_port, self.fp_divider_port]
            .into_iter()
            .flatten()
            .find_map(|dp| {
                let only = crate::uarch::PortMask::single(dp);
                uops.iter()
                    .position(|m| *m == only)
                    .or_else(|| uops.iter().position(|m| m.contains(dp)))
                    .map(|u| (dp, u as u32))
            })
    }
}
