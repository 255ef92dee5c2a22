//! Turns decoded instructions, their data and the dependency graph into the engine's
//! [`SimProgram`].
//!
//! Latency of a dependency edge (issue #4: a consumer waits only for the operands it reads):
//! the producer's latency to the location the consumer reads, less the consumer's slack for
//! that operand. The slack lets a load-op start its load before the register operand it
//! reads last is ready: an operand whose own latency to the outputs is `o` while the
//! instruction's longest latency is `L` is needed only `L - o` cycles after the start.
//! With uniform latencies (the thesis' examples) the slack is 0 and this is SUACA's rule.

use super::details::address::AddressMap;
use super::details::{
    self, elimination, fusion, memory, pointer_chase, stack_sync, Context, ModelOptions,
};
use crate::db::{Endpoint, InstrDesc, LatVia};
use crate::deps::DepGraph;
use crate::ir::{Instr, Loc};
use crate::sim::{SimInput, SimInstr, SimMachine, SimProgram, MAX_UOPS_PER_INSTR};
use crate::uarch::PortMask;

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
/// memory dependency's own slack ([`super::details::memory`]). Counting it here too would
/// add a measured store→load round trip (an upper bound) to every register consumer.
pub(crate) fn produce_latency(desc: &InstrDesc, loc: Loc) -> f64 {
    let max = |memory: bool| {
        desc.latencies
            .iter()
            .filter(|l| names(l.to, loc) && (memory || l.via != LatVia::Memory))
            .map(|l| l.cycles)
            .fold(None, |m: Option<f64>, c| Some(m.map_or(c, |m| m.max(c))))
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
        .fold(None, |m: Option<f64>, c| Some(m.map_or(c, |m| m.max(c))))
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
        .fold(None, |m: Option<f64>, c| Some(m.map_or(c, |m| m.max(c))));
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
fn cycles(v: f64) -> u32 {
    if v.is_finite() && v > 0.0 {
        v.ceil().min(f64::from(u32::MAX)) as u32
    } else {
        0
    }
}

/// The µops of `desc`: one entry per µop with its allowed ports; µops the data lists without
/// ports (or beyond the port groups) need none; at least one µop per instruction.
pub fn uop_masks(desc: &InstrDesc) -> Vec<PortMask> {
    let mut uops: Vec<PortMask> = desc
        .port_groups
        .iter()
        .flat_map(|g| std::iter::repeat_n(g.ports, g.count as usize))
        .collect();
    let listed = uops.len() as u32;
    if desc.uops > listed {
        uops.extend(std::iter::repeat_n(
            PortMask::EMPTY,
            (desc.uops - listed) as usize,
        ));
    }
    if uops.is_empty() {
        uops.push(PortMask::EMPTY);
    }
    uops
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
fn renamed_edge_offset(producer: &InstrDesc, consumer: &InstrDesc, loc: Loc) -> u32 {
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

/// Builds the program of the lines in `path` (in order). `descs[line]` is `None` for
/// instructions without data: they are left out, and so are dependencies on them. The
/// pipeline details of `cx.model` adjust slots, ports, latencies and inputs
/// ([`super::details`]); the front end's delivery rate is set by the caller.
pub fn build(
    path: &[usize],
    descs: &[Option<InstrDesc>],
    deps: &DepGraph,
    cx: &Context,
) -> SimProgram {
    // Position in the program of each line on the path.
    let mut position = vec![None; descs.len()];
    let mut kept = Vec::new();
    for &line in path {
        if descs.get(line).is_some_and(Option::is_some) && position[line].is_none() {
            position[line] = Some(kept.len() as u32);
            kept.push(line);
        }
    }
    let instr = |line: usize| cx.instrs.get(line);
    let forms: Vec<Form> = kept
        .iter()
        .map(|&l| match instr(l) {
            Some(i) if cx.model.move_elim && elimination::eliminated(i, cx.arch) => {
                Form::Eliminated
            }
            Some(i) if !cx.model.move_elim && cx.model != ModelOptions::SUACA => {
                match elimination::executed_form(i, cx.arch) {
                    Some(mask) => Form::Executed(mask),
                    None => Form::Data,
                }
            }
            _ => Form::Data,
        })
        .collect();
    // The addresses of the path, followed once for both of their uses.
    let by_line = cx.model.data_paths
        && cx.model.store_commit
        && cx.arch.memory.store_line_pairs == Some(true);
    let store_groups = cx.loop_mode && cx.model.data_paths && !by_line;
    let addresses = (cx.model.mem_deps || store_groups || by_line).then(|| {
        let refs: Vec<&Instr> = path.iter().map(|&l| &cx.instrs[l]).collect();
        AddressMap::build_in(&refs, cx.model.harness)
    });
    let mem_inputs = match &addresses {
        Some(map) if cx.model.mem_deps => memory::inputs(cx, path, map, &kept, descs),
        _ => Vec::new(),
    };
    let store_ports = match &addresses {
        Some(map) if store_groups => details::ports::store_groups(cx.instrs, path, map, cx.arch),
        _ => Default::default(),
    };
    // Commit slots of each line's stores (by cache line, `memory.store_line_pairs`).
    let commit = match &addresses {
        Some(map) if by_line => details::store_commit::slots(
            cx.instrs,
            path,
            map,
            cx.arch,
            cx.looped,
            details::memory::policy(cx.loop_mode),
        ),
        _ => Default::default(),
    };
    // Extra port cycles of wide loads and stores, as instructions of their own (below).
    let mut wide: Vec<(u32, Vec<PortMask>)> = Vec::new();
    // Lines that get a stack-sync µop (folded into them: a µop, a slot, a cycle on rsp), and
    // the rsp edges the stack engine makes: (reader, writer line, distance, extra cycles).
    let mut synced = vec![false; descs.len()];
    let mut sync_sources: Vec<(usize, usize, u32, u32)> = Vec::new();
    if cx.model.stack_engine {
        let refs: Vec<&Instr> = path.iter().map(|&l| &cx.instrs[l]).collect();
        let reads = stack_sync::reads(&refs, cx.looped, cx.model.stack_sync);
        for (k, r) in reads.iter().enumerate() {
            synced[path[k]] = *r == stack_sync::RspRead::Sync;
        }
        sync_sources = stack_sync::rsp_sources(&refs, &reads, cx.looped)
            .into_iter()
            .map(|s| (path[s.reader], path[s.writer], s.distance, s.extra))
            .collect();
    }
    let sync_ports = cx.arch.ports_with_role(crate::uarch::Role::Alu);
    let mut renamed = vec![false; kept.len()];
    let mut forwarded = vec![false; kept.len()];
    for m in &mem_inputs {
        if m.renamed {
            renamed[m.consumer] = true;
        } else if !m.partial {
            forwarded[m.consumer] = true;
        }
    }
    let mut instrs: Vec<SimInstr> = kept
        .iter()
        .enumerate()
        .map(|(pos, &line)| {
            let desc = descs[line].as_ref().expect("kept lines have data");
            let mut inputs: Vec<SimInput> = Vec::new();
            for (producer, edge) in deps.producers_of(line) {
                let (Some(p), Some(pdesc)) = (position[producer], descs[producer].as_ref()) else {
                    continue;
                };
                if details::stack_engine_drops(cx, producer, edge.loc)
                    || instr(line).is_some_and(|c| details::renamer_drops(cx.arch, c, edge.loc))
                {
                    continue;
                }
                let offset = match forms[p as usize] {
                    Form::Eliminated => plain_edge_offset(0, desc, edge.loc),
                    Form::Executed(_) => plain_edge_offset(1, desc, edge.loc),
                    Form::Data if renamed[p as usize] => renamed_edge_offset(pdesc, desc, edge.loc),
                    Form::Data => {
                        let chase = match (cx.model.pointer_chasing, instr(producer), instr(line)) {
                            (true, Some(p), Some(c)) => {
                                pointer_chase::saving(cx.arch, p, c, edge.loc)
                            }
                            _ => 0,
                        };
                        let forward = match instr(producer) {
                            Some(l) if cx.model.fast_forwarding && forwarded[p as usize] => {
                                details::memory::forwarded_load_saving(cx.arch, l, pdesc, edge.loc)
                            }
                            _ => 0,
                        };
                        edge_offset(pdesc, desc, edge.loc).saturating_sub(chase.max(forward))
                    }
                };
                let offset = offset + u32::from(synced[line] && stack_sync::is_rsp(edge.loc));
                push_input(
                    &mut inputs,
                    SimInput {
                        producer: p,
                        distance: edge.distance,
                        offset,
                    },
                );
            }
            for &(_, writer, distance, extra) in sync_sources.iter().filter(|s| s.0 == line) {
                if let (Some(p), Some(pdesc)) = (position[writer], descs[writer].as_ref()) {
                    let rsp = Loc::Reg(iced_x86::Register::RSP);
                    let offset = match forms[p as usize] {
                        Form::Data => edge_offset(pdesc, desc, rsp),
                        _ => plain_edge_offset(
                            u32::from(forms[p as usize] != Form::Eliminated),
                            desc,
                            rsp,
                        ),
                    } + extra;
                    push_input(
                        &mut inputs,
                        SimInput {
                            producer: p,
                            distance,
                            offset,
                        },
                    );
                }
            }
            let form = forms[pos];
            let slots = match instr(line) {
                Some(i) if cx.model != ModelOptions::SUACA => {
                    Some(fusion::slots(cx, i, desc) + u32::from(synced[line]))
                }
                _ => None,
            };
            SimInstr {
                line: line as u32,
                uops: match form {
                    Form::Eliminated => vec![PortMask::EMPTY],
                    Form::Executed(mask) => vec![mask],
                    Form::Data => {
                        let mut uops = uop_masks(desc);
                        if let (true, Some(i)) = (cx.model.data_paths, instr(line)) {
                            // The store-data µop first, so that a wide store holds it.
                            details::ports::store_data_on(
                                i,
                                cx.arch,
                                store_ports.get(&line).copied(),
                                &mut uops,
                            );
                            details::ports::vector_load(i, cx.arch, &mut uops);
                            if let Some(extra) = details::ports::chunks(i, cx.arch, &uops) {
                                wide.push((line as u32, extra));
                            }
                            // Commit slots beyond the store-data µops: held by themselves.
                            if let Some(&total) = commit.get(&line) {
                                let extra = details::store_commit::extra(i, cx.arch, total);
                                if !extra.is_empty() {
                                    wide.push((line as u32, extra));
                                }
                            }
                        }
                        if synced[line] {
                            uops.push(sync_ports);
                        }
                        if let (true, Some(i)) = (cx.model.transfer_alus, instr(line)) {
                            let held = details::ports::vector_to_gpr(i, cx.arch, &mut uops);
                            if !held.is_empty() {
                                wide.push((line as u32, held));
                            }
                        }
                        // A 16-element gather's µops beyond the engine's per-instruction
                        // limit run as port-only parts of the line, like the wide chunks.
                        if uops.len() > MAX_UOPS_PER_INSTR {
                            wide.push((line as u32, uops.split_off(MAX_UOPS_PER_INSTR)));
                        }
                        uops
                    }
                },
                latency: match form {
                    Form::Data => cycles(desc.max_latency - lead(desc)).max(1),
                    _ => 1,
                },
                div_cycles: match form {
                    Form::Data => desc.div_cycles.unwrap_or(0),
                    _ => 0,
                },
                inputs,
                slots,
            }
        })
        .collect();
    let failing = loads_served(&mem_inputs, false);
    let served = loads_served(&mem_inputs, true);
    for m in mem_inputs {
        push_input(&mut instrs[m.consumer].inputs, m.input);
    }
    // Loads served from the store queue (forwarded or renamed) one a cycle where the arch
    // says so (`memory.forwarded_loads_per_cycle`, Zen 4: 1): each a cycle after the last.
    if cx.arch.memory.forwarded_loads_per_cycle == Some(1) {
        chain(&mut instrs, &links(&served, 1));
    }
    // A load that store forwarding cannot serve waits for the store to commit, and the next
    // such load for it (`memory.store_forward_fail_cycles`, Zen 4: 19 cycles a load).
    if let Some(p) = cx.arch.memory.store_forward_fail_cycles {
        chain(&mut instrs, &links(&failing, p));
    }
    // Serializing instructions one at a time, each held for its measured throughput.
    if cx.model.serializing {
        let serial: Vec<(usize, u32)> = instrs
            .iter()
            .enumerate()
            .filter_map(|(k, si)| {
                let line = si.line as usize;
                let held =
                    crate::db::serializing::hold_cycles(&cx.instrs[line], descs[line].as_ref());
                Some((k, held?))
            })
            .collect();
        chain(&mut instrs, &serial);
    }
    // The engine forgets an instruction once it completes, so it must not complete before
    // its last consumer may start (a store whose value reaches a load by plain forwarding
    // takes longer than the store's own latency).
    for c in 0..instrs.len() {
        for k in 0..instrs[c].inputs.len() {
            let input = instrs[c].inputs[k];
            let producer = &mut instrs[input.producer as usize];
            producer.latency = producer.latency.max(input.offset);
        }
    }
    macro_fuse(cx, &kept, descs, &mut instrs);
    // A wide access holds its port for one more cycle per extra chunk. The chunks run as
    // port-only instructions of the same line (no slot, no inputs, latency 1): as µops of the
    // instruction they could share its port in a cycle where the arch allows that (thesis
    // Algorithm 5), and would delay its start on every arch.
    for (line, extra) in wide {
        for mask in extra {
            instrs.push(SimInstr {
                line,
                uops: vec![mask],
                latency: 1,
                div_cycles: 0,
                inputs: Vec::new(),
                slots: Some(0),
            });
        }
    }
    SimProgram {
        frontend: None,
        ports: details::issue_ports::assignment(cx),
        whole_dispatch: cx.model.whole_dispatch
            && cx.arch.scheduler.whole_instruction_dispatch == Some(true),
        uops_share_ports: !(cx.model.port_cycles
            && cx.arch.scheduler.uops_share_ports == Some(false)),
        instrs,
    }
}

/// `positions` each followed by the same wait, for [`chain`].
fn links(positions: &[usize], cycles: u32) -> Vec<(usize, u32)> {
    positions.iter().map(|&p| (p, cycles)).collect()
}

/// Orders the instructions of `links` (position, cycles the next one waits after it; in
/// program order): each may start that many cycles after the one before it, the first after
/// the last one of the previous iteration.
fn chain(instrs: &mut [SimInstr], links: &[(usize, u32)]) {
    for (k, &(at, _)) in links.iter().enumerate() {
        let ((producer, offset), distance) = match k {
            0 => (links[links.len() - 1], 1),
            _ => (links[k - 1], 0),
        };
        push_input(
            &mut instrs[at].inputs,
            SimInput {
                producer: producer as u32,
                distance,
                offset,
            },
        );
    }
}

/// The positions of the loads a store serves (`served`: forwarding or renaming) or fails to
/// serve (a load reading bytes the store did not write), in program order, each once.
fn loads_served(mem_inputs: &[memory::MemInput], served: bool) -> Vec<usize> {
    let mut out: Vec<usize> = mem_inputs
        .iter()
        .filter(|m| m.partial != served)
        .map(|m| m.consumer)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// How an instruction executes: as its data says, eliminated at rename, or (moves and zero
/// idioms with elimination off) as one µop on `mask` with latency 1.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Form {
    Data,
    Eliminated,
    Executed(PortMask),
}

/// Adds `input`, or raises the offset of an input from the same producer instance.
fn push_input(inputs: &mut Vec<SimInput>, input: SimInput) {
    match inputs
        .iter_mut()
        .find(|i| i.producer == input.producer && i.distance == input.distance)
    {
        Some(existing) => existing.offset = existing.offset.max(input.offset),
        None => inputs.push(input),
    }
}

/// Macro-fusion: the pair's slots go to the first instruction (less one), its ALU µop takes
/// the Jcc's ports, and the Jcc keeps one port-less µop with no slot.
fn macro_fuse(cx: &Context, kept: &[usize], descs: &[Option<InstrDesc>], instrs: &mut [SimInstr]) {
    let mut pos = 0;
    while pos + 1 < kept.len() {
        let (a, b) = (kept[pos], kept[pos + 1]);
        let fuses = match (descs[a].as_ref(), descs[b].as_ref(), cx.instrs.get(b)) {
            (Some(first), Some(jcc), Some(jcc_instr)) => {
                b == a + 1 && fusion::macro_fuses(cx, first, jcc_instr, jcc)
            }
            _ => false,
        };
        if !fuses {
            pos += 1;
            continue;
        }
        let jcc_masks = std::mem::replace(&mut instrs[pos + 1].uops, vec![PortMask::EMPTY]);
        let keep_alu = fusion::writer_keeps_alu(cx.arch, &cx.instrs[a]);
        fusion::fuse_masks(&mut instrs[pos].uops, &jcc_masks, keep_alu);
        let jcc_slots = instrs[pos + 1].slots.unwrap_or(1);
        if let Some(s) = instrs[pos].slots.as_mut() {
            *s = (*s + jcc_slots).saturating_sub(1).max(1);
        }
        instrs[pos + 1].slots = Some(0);
        pos += 2;
    }
}

/// Checks the machine can run the program's port masks.
pub fn check_ports(program: &SimProgram, machine: &SimMachine) -> bool {
    let all = if machine.port_count >= 32 {
        u32::MAX
    } else {
        (1u32 << machine.port_count) - 1
    };
    program
        .instrs
        .iter()
        .flat_map(|i| &i.uops)
        .all(|m| m.0 & !all == 0)
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
