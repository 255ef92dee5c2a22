//! Loop picking: the innermost single-basic-block loops of each function of an object file,
//! and the one loop per function the benchmark measures.
//!
//! A *single-block loop* is a conditional branch (`jcc`, `loop*`, `jrcxz`) whose target lies
//! earlier in the same function, on an instruction boundary, such that the instructions from
//! the target up to the branch are all straight-line (no other branch, call, return, trap or
//! undecodable byte) and no branch of the function lands strictly inside the range (after its
//! first byte, up to and including the branch itself). Such a loop is innermost by
//! construction. Its bytes, from the head to the end of the back branch, are what
//! `suaca profile` runs: the branch's displacement is relative, so it points at offset 0.
//!
//! The *main loop* of a function is the first by: a vector loop before a scalar one (vector
//! = an instruction touches a ymm/zmm register or reads or writes memory as packed elements,
//! which sets a vectorized body apart from its scalar remainder), then the most instructions,
//! then the lowest address.

use iced_x86::{Code, Decoder, DecoderOptions, FlowControl, Instruction, OpKind, Register};
use object::{Object, ObjectSection, ObjectSymbol, SectionKind, SymbolKind};

/// A function of an object file: its symbol and code bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// Symbol name.
    pub name: String,
    /// Address of the first byte (section-relative in relocatable objects).
    pub address: u64,
    /// The code.
    pub bytes: Vec<u8>,
}

/// One single-block loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    /// Address of the loop head (the back branch's target).
    pub address: u64,
    /// From the head to the end of the back branch.
    pub bytes: Vec<u8>,
    /// Instructions, the back branch included.
    pub instructions: usize,
    /// Whether the body is vector code (see the module doc).
    pub vector: bool,
}

impl Loop {
    /// The bytes as lowercase hex (BHive's block format, what `suaca profile --batch` reads).
    pub fn hex(&self) -> String {
        self.bytes.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// The functions (sized symbols of kind text in code sections) of an x86-64 object file,
/// by section and address; aliases at the same address are listed once, under the first name
/// in byte order.
pub fn functions(data: &[u8]) -> Result<Vec<Function>, String> {
    let file = object::File::parse(data).map_err(|e| format!("not an object file: {e}"))?;
    if file.architecture() != object::Architecture::X86_64 {
        return Err(format!("not x86-64 code: {:?}", file.architecture()));
    }
    let mut out: Vec<(usize, Function)> = Vec::new();
    for sym in file.symbols() {
        if sym.kind() != SymbolKind::Text || sym.size() == 0 {
            continue;
        }
        let Some(index) = sym.section_index() else {
            continue;
        };
        let Ok(section) = file.section_by_index(index) else {
            continue;
        };
        if section.kind() != SectionKind::Text {
            continue;
        }
        let Ok(data) = section.data() else {
            continue;
        };
        let Ok(name) = sym.name() else { continue };
        // A symbol whose range leaves its section is ignored rather than trusted.
        let start = sym.address().checked_sub(section.address());
        let range = start.and_then(|s| {
            let s = usize::try_from(s).ok()?;
            let e = s.checked_add(usize::try_from(sym.size()).ok()?)?;
            data.get(s..e)
        });
        let Some(bytes) = range else { continue };
        out.push((
            index.0,
            Function {
                name: name.to_string(),
                address: sym.address(),
                bytes: bytes.to_vec(),
            },
        ));
    }
    out.sort_by(|(sa, a), (sb, b)| (sa, a.address, &a.name).cmp(&(sb, b.address, &b.name)));
    out.dedup_by(|(sb, b), (sa, a)| sa == sb && a.address == b.address);
    Ok(out.into_iter().map(|(_, f)| f).collect())
}

/// Whether `i` ends or leaves straight-line code.
fn breaks_block(i: &Instruction) -> bool {
    i.code() == Code::INVALID || i.flow_control() != FlowControl::Next
}

/// Near branch targets of `i` (conditional, unconditional, call, xbegin).
fn branch_target(i: &Instruction) -> Option<u64> {
    match i.op0_kind() {
        OpKind::NearBranch16 | OpKind::NearBranch32 | OpKind::NearBranch64 => {
            Some(i.near_branch_target())
        }
        _ => None,
    }
}

/// Whether `i` touches a ymm/zmm register or accesses memory as packed elements.
fn is_vector(i: &Instruction) -> bool {
    let wide = |r: Register| r.is_ymm() || r.is_zmm();
    let regs =
        (0..i.op_count()).any(|k| i.op_kind(k) == OpKind::Register && wide(i.op_register(k)));
    let mem = (0..i.op_count()).any(|k| i.op_kind(k) == OpKind::Memory)
        && i.memory_size().is_packed()
        && i.memory_size().element_count() > 1;
    regs || mem
}

/// The single-block loops of `f`, by address.
pub fn single_block_loops(f: &Function) -> Vec<Loop> {
    let mut decoder = Decoder::with_ip(64, &f.bytes, f.address, DecoderOptions::NONE);
    let instrs: Vec<Instruction> = decoder.iter().collect();
    let end = f.address + f.bytes.len() as u64;
    let targets: std::collections::BTreeSet<u64> = instrs
        .iter()
        .filter(|i| i.flow_control() != FlowControl::Next)
        .filter_map(branch_target)
        .filter(|t| (f.address..end).contains(t))
        .collect();
    let mut loops = Vec::new();
    for (b, branch) in instrs.iter().enumerate() {
        if branch.flow_control() != FlowControl::ConditionalBranch {
            continue;
        }
        let Some(head) = branch_target(branch) else {
            continue;
        };
        if head < f.address || head >= branch.ip() {
            continue;
        }
        // The target must be an instruction boundary.
        let Some(h) = instrs[..b].iter().position(|i| i.ip() == head) else {
            continue;
        };
        if instrs[h..b].iter().any(breaks_block) {
            continue;
        }
        if targets.range(head + 1..=branch.ip()).next().is_some() {
            continue;
        }
        let from = (head - f.address) as usize;
        let to = (branch.next_ip() - f.address) as usize;
        loops.push(Loop {
            address: head,
            bytes: f.bytes[from..to].to_vec(),
            instructions: b - h + 1,
            vector: instrs[h..=b].iter().any(is_vector),
        });
    }
    loops
}

/// The main loop among `loops` (see the module doc), if any.
pub fn main_loop(loops: &[Loop]) -> Option<&Loop> {
    loops.iter().min_by(|a, b| {
        b.vector
            .cmp(&a.vector)
            .then(b.instructions.cmp(&a.instructions))
            .then(a.address.cmp(&b.address))
    })
}
