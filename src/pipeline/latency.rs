//! Latency of a dependency edge (issue #4: a consumer waits only for the operands it reads):
//! the producer's latency to the location the consumer reads, less the consumer's slack for
//! that operand. The slack lets a load-op start its load before the register operand it
//! reads last is ready: an operand whose own latency to the outputs is `o` while the
//! instruction's longest latency is `L` is needed only `L - o` cycles after the start.
//! With uniform latencies (the thesis' examples) the slack is 0 and this is SUACA's rule.

use crate::db::{Endpoint, InstrDesc, LatVia};
use crate::ir::Loc;

/// The location latencies are recorded under: the data names whole registers, so the high-8
/// part (AH..DH), which the dependency graph tracks separately, uses its register's values.
fn latency_key(loc: Loc) -> Endpoint {
    match loc {
        Loc::High8(r) => Endpoint::Loc(Loc::Reg(r)),
        other => Endpoint::Loc(other),
    }
}

/// Whether latency endpoint `e` stands for `loc`.
fn names(e: Endpoint, loc: Loc) -> bool {
    match e {
        Endpoint::Loc(l) => latency_key(l) == latency_key(loc),
        Endpoint::Mem(_) => false,
    }
}

/// Latency with which `desc` produces `loc` (its maximum latency when unmeasured). Like
/// [`longest_input_latency`], it leaves out the memory-value path: a result is ready at the
/// start plus the register and address latencies, and a memory value arrives through the
/// memory dependency's own slack ([`super::memory::dependencies`]). Counting it here too would
/// add a measured store→load round trip (an upper bound) to every register consumer.
pub(crate) fn produce_latency(desc: &InstrDesc, loc: Loc) -> f64 {
    let max = |memory: bool| {
        desc.latencies
            .iter()
            .filter(|l| names(l.to, loc) && (memory || l.via != LatVia::Memory))
            .map(|l| l.cycles)
            .reduce(f64::max)
    };
    max(false).or_else(|| max(true)).unwrap_or(desc.max_latency)
}

/// Longest latency of `desc` from register, flag and address inputs to register and flag
/// outputs (memory-value latencies only matter with memory dependencies; a store's latencies
/// to memory say when a later load sees the value, not when the store needs its inputs).
pub(crate) fn longest_input_latency(desc: &InstrDesc) -> Option<f64> {
    desc.latencies
        .iter()
        .filter(|l| l.via != LatVia::Memory && !matches!(l.to, Endpoint::Mem(_)))
        .map(|l| l.cycles)
        .reduce(f64::max)
}

/// Cycles after its start at which `desc` first needs `loc`.
pub(crate) fn slack(desc: &InstrDesc, loc: Loc) -> f64 {
    let Some(longest) = longest_input_latency(desc) else {
        return 0.0;
    };
    let own = desc
        .latencies
        .iter()
        .filter(|l| names(l.from, loc) && l.via != LatVia::Memory)
        .map(|l| l.cycles)
        .reduce(f64::max);
    // A register the instruction writes but whose old value no latency starts from is the
    // merge input of a partial write (`mov cl, [rax]` keeps rcx's upper bytes): it joins
    // the result in the last cycle, not at the start of the load.
    let merge = || {
        desc.latencies
            .iter()
            .any(|l| names(l.to, loc) && matches!(loc, Loc::Reg(_) | Loc::High8(_)))
            .then_some(1.0)
    };
    own.or_else(merge).map_or(0.0, |o| (longest - o).max(0.0))
}

/// Cycles by which the engine's start of `desc` lies after the moment its first µop could
/// dispatch: a load-op's load part runs before its operation and needs only the address,
/// so its register operands are needed a load latency after that moment. Counting the
/// instruction's start from its operation instead (its longest latency less that of its
/// fastest value input) keeps every edge offset non-negative: the chain through the value
/// operand costs the operation's latency, the load stays off it (docs/model.md, "Load-op
/// instructions"). 0 for instructions without a memory operand or without value inputs.
pub(crate) fn lead(desc: &InstrDesc) -> f64 {
    let has_address = desc
        .latencies
        .iter()
        .any(|l| matches!(l.via, LatVia::Address | LatVia::AddressIndex));
    let Some(longest) = longest_input_latency(desc).filter(|_| has_address) else {
        return 0.0;
    };
    let mut own: Vec<(Endpoint, f64)> = Vec::new();
    for l in desc
        .latencies
        .iter()
        .filter(|l| l.via == LatVia::Value && !matches!(l.to, Endpoint::Mem(_)))
    {
        match own.iter_mut().find(|(from, _)| *from == l.from) {
            Some((_, c)) => *c = c.max(l.cycles),
            None => own.push((l.from, l.cycles)),
        }
    }
    own.iter()
        .map(|&(_, c)| c)
        .reduce(f64::min)
        .map_or(0.0, |fastest| (longest - fastest).max(0.0))
}

/// Whole cycles, rounding fractional measurements up.
pub(crate) fn cycles(v: f64) -> u32 {
    if v.is_finite() && v > 0.0 {
        v.ceil().min(f64::from(u32::MAX)) as u32
    } else {
        0
    }
}

/// The latency of the dependency on `loc` from `producer` to `consumer`, as the engine uses
/// it (cycles after the producer's start).
pub fn edge_offset(producer: &InstrDesc, consumer: &InstrDesc, loc: Loc) -> u32 {
    let value =
        produce_latency(producer, loc) - lead(producer) - slack(consumer, loc) + lead(consumer);
    cycles(value)
}

/// The offset of the dependency on `loc` from an eliminated move or a one-µop stand-in whose
/// value is ready `latency` cycles after its start: the consumer's own [`lead`] counts (an
/// address input is needed by the load part, before the operation), its slack does not.
pub(crate) fn plain_edge_offset(latency: u32, consumer: &InstrDesc, loc: Loc) -> u32 {
    latency + cycles(lead(consumer) - slack(consumer, loc))
}

/// The offset of the dependency on `loc` from a load whose value memory renaming supplies:
/// its address and memory paths take no time (the value is the store's data register), so
/// only its own operation counts (0 for a plain load).
pub(crate) fn renamed_edge_offset(producer: &InstrDesc, consumer: &InstrDesc, loc: Loc) -> u32 {
    let own = producer
        .latencies
        .iter()
        .filter(|l| names(l.to, loc))
        .filter(|l| {
            !matches!(
                l.via,
                LatVia::Address | LatVia::AddressIndex | LatVia::Memory
            )
        })
        .map(|l| l.cycles)
        .fold(0.0, f64::max);
    cycles(own - slack(consumer, loc) + lead(consumer))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::{OpLatency, Variant};
    use iced_x86::Register;

    fn desc(latencies: Vec<OpLatency>, max: f64) -> InstrDesc {
        InstrDesc {
            string: String::new(),
            iform: String::new(),
            variant: Variant::Plain,
            uops: 1,
            port_groups: vec![],
            fused_uops: None,
            uops_mite: None,
            uops_ms: None,
            complex_decoder: None,
            simple_decoders: None,
            div_cycles: None,
            macro_fusible_with: vec![],
            throughput: None,
            latencies,
            max_latency: max,
        }
    }

    fn lat(from: Endpoint, via: LatVia, to: Endpoint, cycles: f64) -> OpLatency {
        OpLatency {
            from,
            via,
            to,
            cycles,
            upper_bound: false,
        }
    }

    /// `addsd xmm0, [rdi+8]; mulsd xmm0, xmm1; addsd xmm0, [rsi]` chained through xmm0
    /// (gauss_seidel1d): the loads are off the chain, so a round costs 3 + 3 + 3 cycles.
    /// Counted from the moment each load could begin, the edge into a load-op would be
    /// 3 − 7 < 0, which cannot be scheduled; from the operations' starts every edge is 3.
    #[test]
    fn load_op_edges_count_from_the_operation() {
        let xmm0 = Loc::Reg(Register::XMM0);
        let rdi = Loc::Reg(Register::RDI);
        let addsd = desc(
            vec![
                lat(Endpoint::Loc(xmm0), LatVia::Value, Endpoint::Loc(xmm0), 3.0),
                lat(
                    Endpoint::Loc(rdi),
                    LatVia::Address,
                    Endpoint::Loc(xmm0),
                    10.0,
                ),
            ],
            10.0,
        );
        let mulsd = desc(
            vec![lat(
                Endpoint::Loc(xmm0),
                LatVia::Value,
                Endpoint::Loc(xmm0),
                3.0,
            )],
            3.0,
        );
        assert_eq!(lead(&mulsd), 0.0);
        let chain = edge_offset(&addsd, &mulsd, xmm0)
            + edge_offset(&mulsd, &addsd, xmm0)
            + edge_offset(&addsd, &addsd, xmm0);
        assert_eq!(chain, 9);
    }

    /// `add ecx, [rdi+r8*4]` chained through ecx: 1 cycle, not the 6 of the load path;
    /// the high-8 part (ch) uses rcx's latencies (bounds helper's finding).
    #[test]
    fn load_op_chain_through_the_register_and_its_high8_part() {
        let rcx = Loc::Reg(Register::RCX);
        let rdi = Loc::Reg(Register::RDI);
        let add = desc(
            vec![
                lat(Endpoint::Loc(rcx), LatVia::Value, Endpoint::Loc(rcx), 1.0),
                lat(Endpoint::Loc(rdi), LatVia::Address, Endpoint::Loc(rcx), 6.0),
            ],
            6.0,
        );
        assert_eq!(edge_offset(&add, &add, rcx), 1);
        assert_eq!(edge_offset(&add, &add, Loc::High8(Register::RCX)), 1);
        // The add's start is its operation, 5 cycles after its load could begin (its lead):
        // a producer of the address precedes that start by its own latency and the load's.
        assert_eq!(lead(&add), 5.0);
        let producer_of_rdi = desc(vec![], 1.0);
        assert_eq!(edge_offset(&producer_of_rdi, &add, rdi), 1 + 5);
        assert_eq!(plain_edge_offset(0, &add, rdi), 5);
        assert_eq!(plain_edge_offset(0, &add, rcx), 0);
    }

    /// `add rax, [r15+0x20]` on ZEN4's measured data: register 1, address 5, memory value 8
    /// (a store→load round trip, upper bound). The chain through rax is 1 cycle: the memory
    /// path must not count for register consumers. A renamed load passes its value on at
    /// once, a renamed load-op after its own operation.
    #[test]
    fn register_chains_leave_the_memory_path_out() {
        let rax = Loc::Reg(Register::RAX);
        let r15 = Loc::Reg(Register::R15);
        let mem = Endpoint::Mem(0);
        let add = desc(
            vec![
                lat(Endpoint::Loc(rax), LatVia::Value, Endpoint::Loc(rax), 1.0),
                lat(Endpoint::Loc(r15), LatVia::Address, Endpoint::Loc(rax), 5.0),
                lat(mem, LatVia::Memory, Endpoint::Loc(rax), 8.0),
            ],
            8.0,
        );
        assert_eq!(edge_offset(&add, &add, rax), 1);
        let sub = desc(
            vec![lat(
                Endpoint::Loc(rax),
                LatVia::Value,
                Endpoint::Loc(rax),
                1.0,
            )],
            1.0,
        );
        // Into a plain register consumer: 5 (address path) from the moment the load could
        // begin, 1 from the add's start (its operation, lead 4); 1 when renamed.
        assert_eq!(lead(&add), 4.0);
        assert_eq!(edge_offset(&add, &sub, rax), 1);
        assert_eq!(renamed_edge_offset(&add, &sub, rax), 1);
        let load = desc(
            vec![
                lat(Endpoint::Loc(r15), LatVia::Address, Endpoint::Loc(rax), 4.0),
                lat(mem, LatVia::Memory, Endpoint::Loc(rax), 1.0),
            ],
            4.0,
        );
        assert_eq!(edge_offset(&load, &sub, rax), 4);
        assert_eq!(renamed_edge_offset(&load, &sub, rax), 0);
        // Only a memory path known: it is the latency.
        let only_mem = desc(vec![lat(mem, LatVia::Memory, Endpoint::Loc(rax), 3.0)], 3.0);
        assert_eq!(produce_latency(&only_mem, rax), 3.0);
    }
}
