//! False dependencies on a destination register: `popcnt`, `lzcnt` and `tzcnt` write their
//! 32- or 64-bit destination whole, yet on several Intel cores they wait for its old value
//! (Intel errata, e.g. Haswell HSD146, Skylake SKL029; fixed for `lzcnt`/`tzcnt` in Skylake
//! and for `popcnt` in Cannon Lake/Ice Lake). uops.info measures it: a `<latency>` from the
//! write-only destination operand to itself with `cycles` > 0 (POPCNT (R64, R64): 3 on
//! SNB..SKL/CFL, absent on ICL; TZCNT 3 on HSW, 0 on SKL). The data decides, per arch: the
//! destination becomes an input with that latency, so `popcnt rax, rbx` chains through
//! rax where the core does (docs/model.md, "False dependencies").
//!
//! Owns: which writes the data turns into reads. Must not touch: the decoder's accesses of
//! other instructions (8- and 16-bit writes merge by the decoder's own rule).

use std::borrow::Cow;

use crate::db::{Endpoint, InstrDesc, LatVia};
use crate::ir::{Access, AccessKind, Instr, Loc, Role};

/// The register a false dependency of `instr` reads, per its data `desc`: a general
/// register of 32 or 64 bits the instruction writes and does not read, with a measured
/// latency from itself to itself.
pub fn false_input(instr: &Instr, desc: &InstrDesc) -> Option<Access> {
    let written = instr.writes().find(|a| {
        matches!(a.role, Role::Operand(0))
            && matches!(a.loc, Loc::Reg(_))
            && a.reg.is_some_and(|r| r.is_gpr32() || r.is_gpr64())
    })?;
    let loc = written.loc;
    if instr.reads().any(|a| a.loc == loc) {
        return None;
    }
    desc.latencies
        .iter()
        .any(|l| {
            l.via == LatVia::Value
                && l.from == Endpoint::Loc(loc)
                && l.to == Endpoint::Loc(loc)
                && l.cycles > 0.0
        })
        .then_some(Access {
            loc,
            kind: AccessKind::Read,
            role: written.role,
            reg: written.reg,
        })
}

/// `instrs` with each false dependency of their data `descs` added as a read (borrowed
/// where there is none, the common case).
pub fn with_false_inputs<'a>(instrs: &'a [Instr], descs: &[Option<InstrDesc>]) -> Cow<'a, [Instr]> {
    let found: Vec<(usize, Access)> = instrs
        .iter()
        .zip(descs)
        .enumerate()
        .filter_map(|(k, (i, d))| Some((k, false_input(i, d.as_ref()?)?)))
        .collect();
    if found.is_empty() {
        return Cow::Borrowed(instrs);
    }
    let mut out = instrs.to_vec();
    for (k, read) in found {
        // Reads come before writes in an operand's group (decode::access's order).
        let at = out[k]
            .accesses
            .iter()
            .position(|a| a.role == read.role)
            .unwrap_or(0);
        out[k].accesses.insert(at, read);
    }
    Cow::Owned(out)
}
