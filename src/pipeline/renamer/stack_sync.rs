//! Stack-synchronization µops: the stack engine keeps the offset that push/pop/call/ret add
//! to rsp in the front end, so an instruction that names rsp itself (an operand, or the
//! base or index of an address) while that offset is not zero first gets a µop that writes
//! the true rsp. That µop takes an issue slot and an ALU port, and the reader waits a cycle
//! more for rsp (the uiCA paper, arXiv 2107.14210; Agner Fog, "The microarchitecture of
//! Intel, AMD and VIA CPUs", "Stack engine"). After it the offset is zero again. The sync
//! µop is folded into its reader here: one more µop on the arch's ALU ports, one more slot,
//! one more cycle on the edge that brings rsp (docs/model.md, "Stack synchronization").

use iced_x86::Register;

use super::is_stack_op;
use crate::ir::{AccessKind, Instr, Loc, Role};

/// How an instruction gets the rsp it names ([`rsp_reads`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RspRead {
    /// It does not name rsp, or reads it from an explicit write (the graph's edge).
    Plain,
    /// It gets a sync µop: the offset of the stack operations before it is not zero.
    Sync,
    /// It reads the rsp that an earlier sync µop rebuilt (no stack operation or explicit
    /// write since): the dependency graph's edge goes to the stack operation before that
    /// sync, which the stack engine drops, so it needs the sync's source as the synced
    /// reader does, without a µop of its own.
    AfterSync,
}

/// How each of `instrs` (in program order) reads rsp. With `looped` the sequence repeats,
/// so the state left by the end carries into the start.
pub fn rsp_reads(instrs: &[&Instr], looped: bool) -> Vec<RspRead> {
    // (offset not zero, a sync rebuilt rsp since the last stack operation or write)
    let run = |mut dirty: bool, mut synced: bool| {
        let mut out = Vec::with_capacity(instrs.len());
        for i in instrs {
            let reads = !is_stack_op(i) && reads_rsp_explicitly(i);
            let read = match (reads, dirty, synced) {
                (true, true, _) => RspRead::Sync,
                (true, false, true) => RspRead::AfterSync,
                _ => RspRead::Plain,
            };
            out.push(read);
            if is_stack_op(i) {
                (dirty, synced) = (true, false);
            } else if writes_rsp(i) {
                (dirty, synced) = (false, false);
            } else if read == RspRead::Sync {
                (dirty, synced) = (false, true);
            }
        }
        (out, dirty, synced)
    };
    let (first, dirty, synced) = run(false, false);
    if looped && (dirty || synced) {
        run(dirty, synced).0
    } else {
        first
    }
}

/// For each of `instrs`, the instruction whose rsp it gets through the stack engine or a
/// sync µop: the last explicit (not push/pop/call/ret) writer of rsp before it, as
/// (position, iteration distance); with `looped` the search wraps into the previous
/// iteration. The dependency graph links such a reader to the last stack operation instead.
/// One pass: a region of stack operations costs no more than one of other instructions.
pub fn explicit_sources(instrs: &[&Instr], looped: bool) -> Vec<Option<(usize, u32)>> {
    let writer = |i: &Instr| !is_stack_op(i) && writes_rsp(i);
    let wrapped = if looped {
        instrs.iter().rposition(|i| writer(i)).map(|j| (j, 1))
    } else {
        None
    };
    let mut last = None;
    instrs
        .iter()
        .enumerate()
        .map(|(k, i)| {
            let source = last.map(|j| (j, 0)).or(wrapped);
            if writer(i) {
                last = Some(k);
            }
            source
        })
        .collect()
}

/// How each of `instrs` reads rsp where the model has sync µops (`sync`: [`rsp_reads`]),
/// else every read [`RspRead::Plain`].
pub fn reads(instrs: &[&Instr], looped: bool, sync: bool) -> Vec<RspRead> {
    if sync {
        rsp_reads(instrs, looped)
    } else {
        vec![RspRead::Plain; instrs.len()]
    }
}

/// An rsp edge the dependency graph lacks ([`rsp_sources`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RspSource {
    /// The position that reads rsp.
    pub reader: usize,
    /// The last explicit write of rsp before it.
    pub writer: usize,
    /// Iterations between them.
    pub distance: u32,
    /// Cycles after the writer's value (1 through a sync µop).
    pub extra: u32,
}

/// The rsp edges of `instrs` that the stack engine makes and the graph lacks (its edge goes
/// to the stack operation before, which the engine drops): a push/pop/call/ret addresses
/// memory at the last explicit write's rsp plus the engine's offset; a reader that gets a
/// sync µop, or reads the rsp one rebuilt (`reads`, from [`reads`]), waits for that write a
/// cycle more.
pub fn rsp_sources(instrs: &[&Instr], reads: &[RspRead], looped: bool) -> Vec<RspSource> {
    let sources = explicit_sources(instrs, looped);
    let mut out = Vec::new();
    for (k, (i, read)) in instrs.iter().zip(reads).enumerate() {
        let extra = match (is_stack_op(i), read) {
            (true, _) => 0,
            (false, RspRead::Plain) => continue,
            (false, _) => 1,
        };
        if let Some((writer, distance)) = sources[k] {
            out.push(RspSource {
                reader: k,
                writer,
                distance,
                extra,
            });
        }
    }
    out
}

/// Whether `loc` is rsp, the location whose edge the sync µop lengthens.
pub fn is_rsp(loc: Loc) -> bool {
    loc == Loc::Reg(Register::RSP)
}

/// rsp read as an operand or in an address (not the implicit use of a stack operation).
fn reads_rsp_explicitly(i: &Instr) -> bool {
    i.accesses.iter().any(|a| {
        is_rsp(a.loc)
            && a.kind == AccessKind::Read
            && matches!(a.role, Role::Operand(_) | Role::Address { .. })
    })
}

/// An explicit write of rsp (`mov rsp, rbp`, `add rsp, 8`) sets the true value.
fn writes_rsp(i: &Instr) -> bool {
    i.accesses
        .iter()
        .any(|a| is_rsp(a.loc) && a.kind != AccessKind::Read)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode_bytes;
    use crate::input::parse_hex;

    fn marks(hex: &str, looped: bool) -> Vec<bool> {
        let i = decode_bytes(&parse_hex(hex).expect("hex"), 0).expect("decodes");
        let refs: Vec<&Instr> = i.iter().collect();
        rsp_reads(&refs, looped)
            .into_iter()
            .map(|r| r == RspRead::Sync)
            .collect()
    }

    #[test]
    fn an_explicit_rsp_reader_after_a_pop_syncs_once() {
        // pop rbx; mov rax, [rsp+8]; mov rcx, [rsp+16]
        assert_eq!(marks("5b488b442408488b4c2410", false), [false, true, false]);
        // mov rax, [rsp+8] alone: no stack operation before it.
        assert_eq!(marks("488b442408", false), [false]);
    }

    /// `add rsp, 8; mov edx, 5; pop rbx; pop rbp` repeated: each pop gets rsp from the
    /// `add` (no extra cycle), and the next `add`, which syncs, from the previous `add` a
    /// cycle later; without sync µops only the pops' edges remain.
    #[test]
    fn stack_operations_and_synced_readers_get_rsp_from_the_last_explicit_write() {
        let i = decode_bytes(&parse_hex("4883c408ba050000005b5d").unwrap(), 0).unwrap();
        let refs: Vec<&Instr> = i.iter().collect();
        let edge = |reader, distance, extra| RspSource {
            reader,
            writer: 0,
            distance,
            extra,
        };
        assert_eq!(
            rsp_sources(&refs, &reads(&refs, true, true), true),
            [edge(0, 1, 1), edge(2, 0, 0), edge(3, 0, 0)]
        );
        assert_eq!(
            rsp_sources(&refs, &reads(&refs, true, false), true),
            [edge(2, 0, 0), edge(3, 0, 0)]
        );
    }

    #[test]
    fn the_offset_carries_around_a_loop() {
        // add rsp, 8; mov edx, 5; pop rbx; pop rbp (ZEN4 block set, measured 2.00): in a
        // loop the pops of one iteration leave an offset that the next add must sync.
        let hex = "4883c408ba050000005b5d";
        assert_eq!(marks(hex, false), [false, false, false, false]);
        assert_eq!(marks(hex, true), [true, false, false, false]);
    }

    #[test]
    fn the_sync_rebuilds_rsp_from_the_last_explicit_write() {
        let i = decode_bytes(&parse_hex("4883c408ba050000005b5d").unwrap(), 0).unwrap();
        let refs: Vec<&Instr> = i.iter().collect();
        // The add's own write, one iteration back; none without a loop.
        assert_eq!(explicit_sources(&refs, true)[0], Some((0, 1)));
        assert_eq!(explicit_sources(&refs, false)[0], None);
        assert_eq!(explicit_sources(&refs, false)[3], Some((0, 0)));
    }

    /// `mov rax, [rsp]; add rsp, 0x18; pop rbx; pop rbp` in a loop (ZEN4 block set, measured
    /// 2.00): the load syncs, and the add reads the rsp that sync rebuilt.
    #[test]
    fn a_reader_after_the_sync_reads_the_synced_rsp() {
        let i = decode_bytes(&parse_hex("488b04244883c4185b5d").unwrap(), 0).unwrap();
        let refs: Vec<&Instr> = i.iter().collect();
        use RspRead::*;
        assert_eq!(rsp_reads(&refs, true), [Sync, AfterSync, Plain, Plain]);
        assert_eq!(rsp_reads(&refs, false), [Plain, Plain, Plain, Plain]);
        // The sync's source: the add one iteration back.
        assert_eq!(explicit_sources(&refs, true)[1], Some((1, 1)));
    }

    #[test]
    fn an_explicit_write_resets_the_offset() {
        // push rax; mov rsp, rbp; mov rax, [rsp]
        assert_eq!(marks("504889ec488b0424", false), [false, false, false]);
    }
}
