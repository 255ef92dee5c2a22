//! Turns decoded instructions, their data and the dependency graph into the engine's
//! [`SimProgram`], with the edge latencies of [`crate::pipeline::latency`].

use crate::db::InstrDesc;
use crate::deps::DepGraph;
use crate::ir::{Instr, Loc};
use crate::pipeline::bypass::{self, Bypass};
use crate::pipeline::frontend::fusion;
use crate::pipeline::latency::{cycles, edge_offset, lead, plain_edge_offset, renamed_edge_offset};
use crate::pipeline::memory::address::AddressMap;
use crate::pipeline::memory::{banks, dependencies as memory, line_splits, store_commit};
use crate::pipeline::ports::{self, uop_masks};
use crate::pipeline::renamer::{self, elimination, high8_merge, pointer_chase, stack_sync};
use crate::pipeline::{Context, ModelOptions};
use crate::sim::{
    MoveSlots, PortSharing, SimInput, SimInstr, SimMachine, SimProgram, MAX_UOPS_PER_INSTR,
};
use crate::uarch::PortMask;

/// Builds the program of the lines in `path` (in order). `descs[line]` is `None` for
/// instructions without data: they are left out, and so are dependencies on them. The
/// pipeline details of `cx.model` adjust slots, ports, latencies and inputs
/// ([`crate::pipeline`]); the front end's delivery rate is set by the caller.
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
    // Split loads only where the arch gives them a cost (store splits go with `by_line`).
    let splits = cx.model.line_splits && cx.arch.memory.load_split_cost.is_some();
    let addresses = (cx.model.mem_deps || store_groups || by_line || splits).then(|| {
        let refs: Vec<&Instr> = path.iter().map(|&l| &cx.instrs[l]).collect();
        AddressMap::build_in(&refs, cx.model.harness)
    });
    let mem_inputs = match &addresses {
        Some(map) if cx.model.mem_deps => memory::inputs(cx, path, map, &kept, descs),
        _ => Vec::new(),
    };
    let store_ports = match &addresses {
        Some(map) if store_groups => ports::store_groups(cx.instrs, path, map, cx.arch),
        _ => Default::default(),
    };
    // Commit slots of each line's stores (by cache line, `memory.store_line_pairs`).
    let commit = match &addresses {
        Some(map) if by_line => store_commit::slots(
            cx.instrs,
            path,
            map,
            cx.arch,
            cx.looped,
            memory::policy(cx.loop_mode),
            cx.model.line_splits,
        ),
        _ => Default::default(),
    };
    // Loads that conflict in the L1 banks share one load port, a group per port, so that
    // they read one a cycle (`memory.l1_banks_per_line`).
    let bank_port = match &addresses {
        Some(map) if cx.model.bank_conflicts => banks::ports(cx.instrs, path, map, cx.arch),
        _ => Default::default(),
    };
    // Loads across a line hold the load ports longer (`memory.load_split_cost`).
    let split_loads = match &addresses {
        Some(map) if splits => {
            line_splits::extra_load_uops(cx.instrs, path, map, cx.arch, cx.looped)
        }
        _ => Default::default(),
    };
    let load_ports = cx.arch.ports_with_role(crate::uarch::Role::Load);
    let write_ports = cx.arch.ports_with_role(crate::uarch::Role::VectorWrite);
    let mut write_carry = 0u32;
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
    // The high-8 merge µops each line gets (a mask of registers), folded into it like a
    // sync µop.
    let mut merged = vec![0u8; descs.len()];
    if cx.model.high8_merge {
        let refs: Vec<&Instr> = path.iter().map(|&l| &cx.instrs[l]).collect();
        for (k, m) in high8_merge::merges(cx.arch, &refs, cx.looped)
            .into_iter()
            .enumerate()
        {
            merged[path[k]] = m;
        }
    }
    // Each line's late ports by the vector bypass rule, where the arch has one; a line off
    // the path or without data is not eliminated (it computes, or is unknown).
    let late = match Bypass::of(cx.arch).filter(|_| cx.model.vector_bypass) {
        Some(b) => bypass::late_lines(&b, cx.instrs, descs, deps, |l| {
            position[l].is_some_and(|p| forms[p as usize] == Form::Eliminated)
        }),
        None => Vec::new(),
    };
    let mut renamed = vec![false; kept.len()];
    let mut forwarded = vec![false; kept.len()];
    for m in &mem_inputs {
        if m.renamed {
            renamed[m.consumer] = true;
        } else if !m.unforwardable {
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
                if renamer::stack_engine_drops(cx, producer, edge.loc)
                    || instr(line).is_some_and(|c| {
                        renamer::renamer_drops(cx.arch, c, edge.loc, cx.model.high8_merge)
                    })
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
                                memory::forwarded_load_saving(cx.arch, l, pdesc, edge.loc)
                            }
                            _ => 0,
                        };
                        edge_offset(pdesc, desc, edge.loc).saturating_sub(chase.max(forward))
                    }
                };
                let offset = offset
                    + u32::from(synced[line] && stack_sync::is_rsp(edge.loc))
                    + u32::from(high8_merge::is_merged(edge.loc, merged[line]));
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
                Some(i) if cx.model != ModelOptions::SUACA => Some(
                    fusion::slots(cx, i, desc)
                        + u32::from(synced[line])
                        + merged[line].count_ones(),
                ),
                _ => None,
            };
            SimInstr {
                line: line as u32,
                uops: match form {
                    Form::Eliminated => vec![PortMask::EMPTY],
                    Form::Executed(mask) => vec![mask],
                    Form::Data => {
                        let mut uops = uop_masks(desc);
                        if let Some(&port) = bank_port.get(&line) {
                            banks::narrow_load(cx.arch, port, &mut uops);
                        }
                        if cx.loop_mode
                            && Some(&line) == path.last()
                            && instr(line).is_some_and(|i| i.branch.is_conditional())
                        {
                            ports::taken_branch(cx.arch, &mut uops);
                        }
                        if let (true, Some(i)) = (cx.model.data_paths, instr(line)) {
                            // The store-data µop first, so that a wide store holds it.
                            ports::store_data_on(
                                i,
                                cx.arch,
                                store_ports.get(&line).copied(),
                                &mut uops,
                            );
                            ports::vector_load(i, cx.arch, &mut uops);
                            if let Some(extra) = ports::chunks(i, cx.arch, &uops) {
                                wide.push((line as u32, extra));
                            }
                            if let Some(&n) = split_loads.get(&line) {
                                wide.push((line as u32, vec![load_ports; n as usize]));
                            }
                            let writes = write_carry + ports::vector_writes(i, cx.arch, &uops);
                            write_carry = writes % 2;
                            if writes >= 2 {
                                wide.push((line as u32, vec![write_ports; (writes / 2) as usize]));
                            }
                            // Commit slots beyond the store-data µops: held by themselves.
                            if let Some(&total) = commit.get(&line) {
                                let extra = store_commit::extra(i, cx.arch, total);
                                if !extra.is_empty() {
                                    wide.push((line as u32, extra));
                                }
                            }
                        }
                        if synced[line] {
                            uops.push(sync_ports);
                        }
                        for _ in 0..merged[line].count_ones() {
                            uops.push(sync_ports);
                        }
                        if let (true, Some(i)) = (cx.model.transfer_alus, instr(line)) {
                            let held = ports::vector_to_gpr(i, cx.arch, &mut uops);
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
                late_on: match form {
                    Form::Data => late.get(line).map_or(PortMask::EMPTY, |l| l.on),
                    _ => PortMask::EMPTY,
                },
            }
        })
        .collect();
    let failing = commit_waits(&mem_inputs);
    let served = loads_served(&mem_inputs);
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
        chain(&mut instrs, &commit_links(&failing, p));
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
                late_on: PortMask::EMPTY,
            });
        }
    }
    // Moves eliminated only while the renamer has a slot, where the arch limits them.
    let move_slots = (cx.model.move_elim && cx.model.move_elim_limits)
        .then(|| {
            let renames: Vec<_> = kept
                .iter()
                .zip(&forms)
                .map(|(&l, form)| {
                    let mut r = elimination::rename(cx.instrs.get(l)?, cx.arch)?;
                    if *form != Form::Eliminated {
                        r.eliminable = None;
                    }
                    Some(r)
                })
                .collect::<Option<_>>()?;
            let elim = &cx.arch.move_elimination;
            Some(MoveSlots {
                gpr: elim.gpr_slots,
                vector: elim.vector_slots,
                release_cycles: elim.slot_release_cycles.unwrap_or(0),
                all_aliases: elim.slot_frees_with_all_aliases.unwrap_or(true),
                renames,
            })
        })
        .flatten();
    SimProgram {
        move_slots,
        frontend: None,
        ports: ports::issue::assignment(cx),
        whole_dispatch: cx.model.whole_dispatch
            && cx.arch.scheduler.whole_instruction_dispatch == Some(true),
        port_sharing: if cx.model.port_cycles && cx.arch.scheduler.uops_share_ports == Some(false) {
            PortSharing::None
        } else if cx.model.single_port_cycles {
            PortSharing::MultiPort
        } else {
            PortSharing::Any
        },
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

/// The loads store forwarding cannot serve, in program order, each once, with the store
/// instance whose commit it waits for: (position, store position, iterations back).
fn commit_waits(mem_inputs: &[memory::MemInput]) -> Vec<(usize, u32, u32)> {
    let mut out: Vec<(usize, u32, u32)> = mem_inputs
        .iter()
        .filter(|m| m.unforwardable)
        .map(|m| (m.consumer, m.input.producer, m.input.distance))
        .collect();
    out.sort_unstable();
    out.dedup_by_key(|w| w.0);
    out
}

/// [`chain`]'s links for the loads of [`commit_waits`]: each waits `cycles` after the one
/// before it, but not again after a load that waits for the same store's commit (IVB: two
/// loads of one store's bytes measure 20.98 a copy, not two commits' 34).
fn commit_links(waits: &[(usize, u32, u32)], cycles: u32) -> Vec<(usize, u32)> {
    (0..waits.len())
        .map(|k| {
            let (at, store, back) = waits[k];
            // The next one, in this iteration or (wrapping) the next.
            let same = match waits.get(k + 1) {
                Some(&(_, s, b)) => s == store && b == back,
                None => waits[0].1 == store && waits[0].2 == back + 1,
            };
            (at, if same { 0 } else { cycles })
        })
        .collect()
}

/// The positions of the loads a store serves (forwarding or renaming), in program order,
/// each once.
fn loads_served(mem_inputs: &[memory::MemInput]) -> Vec<usize> {
    let mut out: Vec<usize> = mem_inputs
        .iter()
        .filter(|m| !m.unforwardable)
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
