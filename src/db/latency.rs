//! Operand mapping: the `<operand idx>` of a matched variant to this instruction's registers,
//! flags and memory operands, and its `<latency>` elements to [`OpLatency`]s.
//!
//! Facts from: uops.info's latency attributes (docs/sources.md): `cycles` from a
//! register/flag value, `cycles_same_reg` when every register operand is one register (the
//! zero idiom's value), `cycles_addr` from the base register of a memory start operand,
//! `cycles_addr_index` from its index register, `cycles_mem` from the memory value; ranges
//! keep their lower bound.
//! Explicit operands follow iced's operand order; suppressed register operands name a fixed
//! register (`RAX`, `RSP`); a flags operand stands for each flag it reads (as a start: read
//! or conditionally written, since a conditional write passes the old value on) or writes.

use iced_x86::Register;

use super::desc::{Endpoint, LatVia, OpLatency, Variant};
use super::form::{Form, FormOp, OpClass};
use super::matcher::{self, alignment, iced_operands, IcedOp};
use crate::ir::{AccessKind, FlagSet, Instr, Loc, MemOperand};
use crate::uopsxml::{LatValue, Latency};

/// The dependency location of a register, `None` for registers that carry no dependency
/// (`RIP`). Follows [`Loc`]: full registers, with AH..DH as their own high-8 locations.
pub(crate) fn loc_of(reg: Register) -> Option<Loc> {
    match reg {
        Register::None | Register::RIP | Register::EIP => None,
        Register::AH | Register::BH | Register::CH | Register::DH => {
            Some(Loc::High8(reg.full_register()))
        }
        _ => Some(Loc::Reg(reg.full_register())),
    }
}

/// What one `<operand>` of the matched variant is in this instruction.
#[derive(Clone, Debug, Default)]
struct Site {
    /// Register locations (value start/target).
    regs: Vec<Loc>,
    /// Flags read (or conditionally written) / written.
    flags_in: FlagSet,
    flags_out: FlagSet,
    /// Index into `Instr::mem` of a memory operand.
    mem: Option<u8>,
    /// Address registers of a memory or agen operand.
    base: Option<Loc>,
    index: Option<Loc>,
}

fn mem_site(n: Option<usize>, m: Option<&MemOperand>, instr: &Instr) -> Site {
    let (base, index) = match m {
        Some(m) => (m.base, m.index),
        None => (
            Some(instr.iced.memory_base()),
            Some(instr.iced.memory_index()),
        ),
    };
    Site {
        mem: n.and_then(|n| u8::try_from(n).ok()),
        base: base.and_then(loc_of),
        index: index.and_then(loc_of),
        ..Site::default()
    }
}

fn sites(form: &Form, instr: &Instr) -> Vec<(u32, Site)> {
    let operands = iced_operands(&instr.iced);
    let ops: Vec<IcedOp> = operands.iter().map(|(_, o)| *o).collect();
    let alignment = alignment(form, &instr.iced, &ops).unwrap_or_default();
    let mut implicit_mem_used: Vec<usize> = Vec::new();
    let mut out = Vec::new();
    for (fi, op) in form.ops.iter().enumerate() {
        let site = match alignment.get(fi).copied().flatten() {
            Some(ii) => explicit_site(op, operands[ii].0, instr),
            None => implicit_site(op, instr, &mut implicit_mem_used),
        };
        out.push((op.idx, site));
    }
    out
}

fn explicit_site(op: &FormOp, i: u32, instr: &Instr) -> Site {
    match op.class {
        OpClass::Reg { .. } => Site {
            regs: loc_of(instr.iced.op_register(i)).into_iter().collect(),
            ..Site::default()
        },
        OpClass::Mem { .. } => {
            let n = instr.mem.iter().position(|m| m.operand == Some(i as u8));
            mem_site(n, n.map(|n| &instr.mem[n]), instr)
        }
        OpClass::Agen => {
            let n = instr.mem.iter().position(|m| m.agen);
            let mut s = mem_site(n, n.map(|n| &instr.mem[n]), instr);
            s.mem = None; // no memory value: LEA only forms the address
            s
        }
        _ => Site::default(),
    }
}

fn implicit_site(op: &FormOp, instr: &Instr, used: &mut Vec<usize>) -> Site {
    match &op.class {
        OpClass::Reg { opmask: true, .. } => Site {
            regs: loc_of(instr.iced.op_mask()).into_iter().collect(),
            ..Site::default()
        },
        OpClass::Reg { regs, .. } if regs.len() == 1 => Site {
            regs: loc_of(regs[0]).into_iter().collect(),
            ..Site::default()
        },
        OpClass::Flags {
            read,
            write,
            cond_write,
        } => Site {
            flags_in: *read | *cond_write,
            flags_out: *write,
            ..Site::default()
        },
        OpClass::Mem { base, .. } => {
            // Implicit memory (push/pop/call stack slot, string operands): same base first.
            let same_base = |m: &MemOperand| {
                base.is_some_and(|b| m.base.map(|r| r.full_register()) == Some(b.full_register()))
            };
            let free = |k: &usize| !used.contains(k);
            let n = (0..instr.mem.len())
                .filter(free)
                .find(|&k| instr.mem[k].operand.is_none() && same_base(&instr.mem[k]))
                .or_else(|| {
                    (0..instr.mem.len())
                        .filter(free)
                        .find(|&k| instr.mem[k].operand.is_none())
                });
            if let Some(n) = n {
                used.push(n);
            }
            let mut s = mem_site(n, n.map(|n| &instr.mem[n]), instr);
            if n.is_none() {
                s.base = base.and_then(loc_of);
                s.index = None;
            }
            s
        }
        _ => Site::default(),
    }
}

fn outputs(site: &Site) -> Vec<Endpoint> {
    let mut out: Vec<Endpoint> = site.regs.iter().map(|l| Endpoint::Loc(*l)).collect();
    out.extend(site.flags_out.flags().map(|f| Endpoint::Loc(Loc::Flag(f))));
    out.extend(site.mem.map(Endpoint::Mem));
    out
}

fn value_inputs(site: &Site) -> Vec<Loc> {
    let mut ins = site.regs.clone();
    ins.extend(site.flags_in.flags().map(Loc::Flag));
    ins
}

/// Resolves the measured latencies of `form` to `instr`'s locations.
pub(crate) fn resolve(
    form: &Form,
    lats: &[Latency],
    instr: &Instr,
    variant: Variant,
) -> Vec<OpLatency> {
    let sites = sites(form, instr);
    let site = |idx: u32| sites.iter().find(|(i, _)| *i == idx).map(|(_, s)| s);
    // uops.info measures `cycles_same_reg` with one register in every register operand
    // (`vpsubq ymm0, ymm0, ymm0`, a zero idiom): a start that merely names the target's
    // register (`vpsubq ymm2, ymm2, ymm1`) takes the plain `cycles`.
    let reads_one_register = lats.iter().any(|l| l.cycles_same_reg.is_some())
        && matcher::same_reg(form, &instr.iced, &matcher::iced_ops(&instr.iced));
    // (latency, came from a `cycles_same_reg` value)
    let mut out: Vec<(OpLatency, bool)> = Vec::new();
    for lat in lats {
        let (Some(from), Some(to)) = (site(lat.start_op), site(lat.target_op)) else {
            continue;
        };
        for target in outputs(to) {
            let mut push = |from: Endpoint, via: LatVia, v: LatValue, same_reg: bool| {
                let lat = OpLatency {
                    from,
                    via,
                    to: target,
                    cycles: v.min,
                    upper_bound: v.upper_bound,
                };
                out.push((lat, same_reg));
            };
            for loc in value_inputs(from) {
                let same = variant == Variant::SameReg
                    || (reads_one_register && Endpoint::Loc(loc) == target);
                match (same, lat.cycles_same_reg, lat.cycles) {
                    (true, Some(v), _) => push(Endpoint::Loc(loc), LatVia::Value, v, true),
                    (_, _, Some(v)) => push(Endpoint::Loc(loc), LatVia::Value, v, false),
                    _ => {}
                }
            }
            if let Some(n) = from.mem {
                if let Some(v) = lat.cycles_mem.or(lat.cycles) {
                    push(Endpoint::Mem(n), LatVia::Memory, v, false);
                }
            }
            if let (Some(b), Some(v)) = (from.base, lat.cycles_addr) {
                push(Endpoint::Loc(b), LatVia::Address, v, false);
            }
            if let (Some(i), Some(v)) = (from.index, lat.cycles_addr_index.or(lat.cycles_addr)) {
                push(Endpoint::Loc(i), LatVia::AddressIndex, v, false);
            }
        }
    }
    dedup(out)
}

/// One latency per (from, via, to). Two operands can resolve to the same pair (`xor rax,
/// rax`: 1→1 and 2→1); a same-register value describes that case and wins, otherwise the
/// larger value is kept.
fn dedup(all: Vec<(OpLatency, bool)>) -> Vec<OpLatency> {
    let mut out: Vec<(OpLatency, bool)> = Vec::with_capacity(all.len());
    for (lat, same) in all {
        let key = |l: &OpLatency| (l.from, l.via, l.to);
        match out.iter_mut().find(|(l, _)| key(l) == key(&lat)) {
            None => out.push((lat, same)),
            Some((kept, kept_same)) => {
                let better = match (same, *kept_same) {
                    (true, false) => true,
                    (false, true) => false,
                    _ => lat.cycles > kept.cycles,
                };
                if better {
                    *kept = lat;
                    *kept_same = same;
                }
            }
        }
    }
    out.into_iter().map(|(l, _)| l).collect()
}

/// Latencies of an instruction that reads memory and whose data has none: `load` cycles
/// from the address registers to each general register and flag it writes (one more when it
/// computes rather than moves: `cmp`, `test`, `add r, m`), as an L1 hit. Vector results
/// are left without: their load latency is not the integer one. rsp, which push and pop
/// update in the stack engine, is not a result here.
pub(crate) fn load_fallback(instr: &Instr, load: f64) -> Vec<OpLatency> {
    use iced_x86::Mnemonic;
    let Some(m) = instr.mem.iter().find(|m| m.read && !m.agen) else {
        return Vec::new();
    };
    let moves = instr.iced.mnemonic() == Mnemonic::Pop || instr.moves_from_memory();
    let cycles = if moves { load } else { load + 1.0 };
    let from: Vec<(Loc, LatVia)> = [(m.base, LatVia::Address), (m.index, LatVia::AddressIndex)]
        .into_iter()
        .filter_map(|(r, via)| Some((loc_of(r.filter(|&r| r != Register::RIP)?)?, via)))
        .collect();
    let mut out = Vec::new();
    for a in &instr.accesses {
        let integer = match a.loc {
            Loc::Flag(_) | Loc::High8(_) => true,
            Loc::Reg(r) => r.is_gpr64() && r != Register::RSP,
        };
        if a.kind == AccessKind::Read || !integer {
            continue;
        }
        for &(f, via) in &from {
            out.push(OpLatency {
                from: Endpoint::Loc(f),
                via,
                to: Endpoint::Loc(a.loc),
                cycles,
                upper_bound: false,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode_bytes;
    use crate::input::parse_hex;

    fn fallback(hex: &str) -> Vec<(Endpoint, LatVia, Endpoint, f64)> {
        let i = decode_bytes(&parse_hex(hex).unwrap(), 0).unwrap();
        load_fallback(&i[0], 4.0)
            .into_iter()
            .map(|l| (l.from, l.via, l.to, l.cycles))
            .collect()
    }

    #[test]
    fn a_load_without_data_takes_the_load_latency_from_its_address() {
        let reg = |r| Endpoint::Loc(Loc::Reg(r));
        // pop rbp: rsp → rbp in 4 (rsp itself is the stack engine's).
        assert_eq!(
            fallback("5d"),
            vec![(reg(Register::RSP), LatVia::Address, reg(Register::RBP), 4.0)]
        );
        // cmp qword ptr [rdi+rcx*8], 0: rdi and rcx → each flag in 5.
        let cmp = fallback("48833ccf00");
        assert!(!cmp.is_empty());
        assert!(cmp
            .iter()
            .all(|(_, _, to, c)| matches!(to, Endpoint::Loc(Loc::Flag(_))) && *c == 5.0));
        assert!(cmp
            .iter()
            .any(|(f, v, _, _)| *f == reg(Register::RCX) && *v == LatVia::AddressIndex));
        // A vector load and a store: none.
        assert!(fallback("0f1007").is_empty());
        assert!(fallback("48893f").is_empty());
    }
}
