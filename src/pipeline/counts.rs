//! Per-line counts the front end's rates and several speed limits share: fused-domain slots
//! with macro-fused pairs counted once (as the simulation issues them), unfused µops, the
//! decoders' and the microcode sequencer's µops, lines without data.

use crate::db::InstrDesc;
use crate::ir::Instr;
use crate::uarch::MicroArch;

/// The model's switches the counts follow (the simulation's).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CountOptions {
    /// Macro-fused flag-writer + Jcc pairs count once.
    pub macro_fusion: bool,
    /// Slots with micro-fusion (off: one per unfused µop).
    pub micro_fusion: bool,
    /// NOPs take no issue slot where the arch dispatches none for them.
    pub free_nops: bool,
    /// Moves from the vector unit into a GPR hold every integer ALU where the arch says so.
    pub transfer_alus: bool,
    /// 256-bit register writes take the arch's vector-write ports (the simulation's data
    /// paths).
    pub vector_writes: bool,
}

/// What the front end, the width, port and window rows need per line.
#[derive(Clone, Debug)]
pub struct Counts {
    /// Number of lines.
    pub n: usize,
    /// Fused-domain slots per line; the Jcc of a macro-fused pair has 0 (the pair is counted
    /// on its first line); `None` without data.
    pub slots: Vec<Option<u32>>,
    /// Unfused µops per line (`uops`), `None` without data.
    pub unfused: Vec<Option<u32>>,
    /// µops from the microcode sequencer per line (`uops_MS`; unmeasured = 0), `None` without
    /// data.
    pub ms: Vec<Option<u32>>,
    /// µops from the legacy decoders per line (`uops_MITE`, else the fused slots before
    /// pairing), `None` without data.
    pub mite: Vec<Option<u32>>,
    /// Lines the legacy decoders take on decoder 0 ([`InstrDesc::needs_complex_decoder`]),
    /// ascending.
    pub complex: Vec<usize>,
    /// Lines whose fused slots fell back to the unfused µop count (no `uops_retire_slots`).
    pub estimated: Vec<usize>,
    /// First lines of macro-fused pairs (the Jcc is the next line).
    pub fused_pairs: Vec<usize>,
    /// Those of them that run on the first instruction's ALU ports, not the Jcc's
    /// (`fusion.fused_writer_on_alu`, as the simulation).
    pub alu_fused_pairs: Vec<usize>,
    /// Lines that hold every integer ALU (moves from the vector unit into a GPR,
    /// `scheduler.vector_to_gpr_holds_alus`, as the simulation).
    pub alu_holders: Vec<usize>,
    /// The iteration's 256-bit register writes (`pipeline::ports::vector_writes`, where the
    /// arch has vector-write ports), two a µop on those ports.
    pub vector_writes: u32,
    /// Lines without data.
    pub left_out: Vec<usize>,
}

impl Counts {
    /// The counts of `instrs` (`descs[line]`: its data, `None` without).
    pub fn new(
        instrs: &[Instr],
        descs: &[Option<InstrDesc>],
        arch: &MicroArch,
        opts: CountOptions,
    ) -> Self {
        let n = instrs.len();
        let desc = |i: usize| descs.get(i).and_then(Option::as_ref);
        let fusion = opts.macro_fusion && arch.fusion.macro_fusion != Some(false);
        let mut slots: Vec<Option<u32>> = Vec::with_capacity(n);
        let mut unfused = Vec::with_capacity(n);
        let mut ms = Vec::with_capacity(n);
        let mut mite = Vec::with_capacity(n);
        let mut estimated = Vec::new();
        let mut left_out = Vec::new();
        for i in 0..n {
            match desc(i) {
                Some(d) => {
                    if d.fused_uops.is_none() {
                        estimated.push(i);
                    }
                    let fused = d.fused_uops.unwrap_or(d.uops);
                    // The simulation's slots: free NOPs, un-lamination, --no-micro-fusion.
                    let own = instrs.get(i).map_or(fused, |ins| {
                        crate::pipeline::frontend::fusion::slots_of(
                            ins,
                            d,
                            arch,
                            opts.micro_fusion,
                            opts.free_nops,
                        )
                    });
                    slots.push(Some(own));
                    unfused.push(Some(d.uops));
                    ms.push(Some(d.uops_ms.unwrap_or(0)));
                    mite.push(Some(d.uops_mite.unwrap_or(fused)));
                }
                None => {
                    left_out.push(i);
                    slots.push(None);
                    unfused.push(None);
                    ms.push(None);
                    mite.push(None);
                }
            }
        }
        let complex = (0..n)
            .filter(|&i| desc(i).is_some_and(InstrDesc::needs_complex_decoder))
            .collect();
        let alu_holders = (0..n)
            .filter(|&i| {
                opts.transfer_alus
                    && desc(i).is_some()
                    && crate::pipeline::ports::holds_alus(&instrs[i], arch)
            })
            .collect();
        let vector_writes = (0..n)
            .filter(|_| opts.vector_writes)
            .filter_map(|i| {
                let d = desc(i)?;
                Some(crate::pipeline::ports::vector_writes(
                    &instrs[i],
                    arch,
                    &crate::pipeline::ports::uop_masks(d),
                ))
            })
            .sum();
        let mut fused_pairs = Vec::new();
        let mut alu_fused_pairs = Vec::new();
        if fusion {
            let mut i = 0;
            while i + 1 < n {
                if let (Some(first), Some(jcc)) = (desc(i), desc(i + 1)) {
                    let is_jcc = instrs[i + 1].branch.is_conditional();
                    if is_jcc && first.macro_fusible_with.contains(&jcc.string) {
                        // The pair takes the slots of both less one (one fused µop for
                        // cmp+jcc); all of it is booked on the first line.
                        let a = slots[i].unwrap_or(0);
                        let b = slots[i + 1].unwrap_or(0);
                        slots[i] = Some((a + b).saturating_sub(1).max(1));
                        slots[i + 1] = Some(0);
                        fused_pairs.push(i);
                        if crate::pipeline::frontend::fusion::writer_keeps_alu(arch, &instrs[i]) {
                            alu_fused_pairs.push(i);
                        }
                        i += 2;
                        continue;
                    }
                }
                i += 1;
            }
        }
        Counts {
            n,
            slots,
            unfused,
            ms,
            mite,
            complex,
            estimated,
            fused_pairs,
            alu_fused_pairs,
            alu_holders,
            vector_writes,
            left_out,
        }
    }

    /// Σ fused slots of the lines with data.
    pub fn fused_total(&self) -> u64 {
        self.slots.iter().flatten().map(|&s| u64::from(s)).sum()
    }

    /// Σ unfused µops of the lines with data.
    pub fn unfused_total(&self) -> u64 {
        self.unfused.iter().flatten().map(|&s| u64::from(s)).sum()
    }

    /// Whether any line has data.
    pub fn any_data(&self) -> bool {
        self.left_out.len() < self.n
    }

    /// Instructions, macro-fused pairs counted once.
    pub fn instructions(&self) -> usize {
        self.n - self.fused_pairs.len()
    }

    /// Whether `line` is the Jcc of a macro-fused pair.
    pub fn is_fused_jcc(&self, line: usize) -> bool {
        line > 0 && self.fused_pairs.binary_search(&(line - 1)).is_ok()
    }
}
